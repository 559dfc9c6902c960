/*
 * pd-dump: print what benchtui's perf.data reader sees in a file, for the
 * tests (compared with `perf script -D` / `perf report --header-only`).
 *   pd-dump FILE            summary: attrs, features, record counts, the
 *                           file's shape (pipe, compressed, hardware trace,
 *                           the files of a perf record --threads directory)
 *   pd-dump FILE samples    one line per sample: pid tid time cpu period ip
 *   pd-dump FILE mmaps      one line per MMAP/MMAP2
 *   pd-dump FILE times      ns from the first record (exec) to the first sample
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base.h"
#include "perf/perfdata.h"

int
main(int argc, char **argv)
{
	struct bt_error err = { 0 };
	struct bt_pd_reader *r;
	struct bt_pd_event ev;
	const char *mode = argc > 2 ? argv[2] : "summary";
	uint64_t counts[128] = { 0 };
	uint64_t first_rec = 0, first_sample = 0;
	size_t i, n;
	int ret;

	if (argc < 2) {
		fprintf(stderr, "usage: pd-dump FILE [summary|samples|mmaps]\n");
		return 1;
	}
	r = bt_pd_open(argv[1], &err);
	if (r == NULL) {
		fprintf(stderr, "pd-dump: %s\n", err.msg);
		return 2;
	}
	while ((ret = bt_pd_next(r, &ev, &err)) > 0) {
		counts[ev.type < 128 ? ev.type : 127]++;
		if (ev.has_time && ev.time && (first_rec == 0 || ev.time < first_rec))
			first_rec = ev.time;
		if (ev.type == PERF_RECORD_SAMPLE && ev.time &&
		    (first_sample == 0 || ev.time < first_sample))
			first_sample = ev.time;
		if (strcmp(mode, "samples") == 0 && ev.type == PERF_RECORD_SAMPLE)
			printf("%u %u %" PRIu64 " %u %" PRIu64 " %#" PRIx64 " %d %u\n",
			    ev.pid, ev.tid, ev.time, ev.cpu, ev.sample.period,
			    ev.sample.ip, ev.attr, ev.misc & PERF_RECORD_MISC_CPUMODE_MASK);
		if (strcmp(mode, "mmaps") == 0 && (ev.type == PERF_RECORD_MMAP ||
		    ev.type == PERF_RECORD_MMAP2))
			printf("%u %#" PRIx64 " %#" PRIx64 " %#" PRIx64 " %x %s\n",
			    ev.u.mmap.pid, ev.u.mmap.start, ev.u.mmap.len,
			    ev.u.mmap.pgoff, ev.u.mmap.prot, ev.u.mmap.filename);
	}
	if (ret < 0) {
		fprintf(stderr, "pd-dump: %s\n", err.msg);
		return 2;
	}
	if (strcmp(mode, "times") == 0)
		printf("%" PRIu64 "\n", first_sample - first_rec);
	if (strcmp(mode, "summary") != 0)
		goto out;
	printf("swapped %d\npipe %d\ncompressed %d\nfiles %zu\n", bt_pd_swapped(r),
	    bt_pd_pipe(r), bt_pd_compressed(r), bt_pd_nfiles(r));
	{
		const struct bt_pd_auxtrace *aux = bt_pd_auxtrace(r);
		if (aux->present)
			printf("auxtrace %s, %" PRIu64 " records, %" PRIu64 " bytes\n",
			    aux->kind ? aux->kind : "unknown kind", aux->records, aux->bytes);
	}
	for (i = 0; i < bt_pd_nattrs(r); i++) {
		const struct bt_pd_attr *a = bt_pd_attr(r, i);
		printf("attr %zu name %s type %u config %llu sample_type %#llx freq %u ids %zu\n",
		    i, a->name, a->attr.type, (unsigned long long)a->attr.config,
		    (unsigned long long)a->attr.sample_type, a->attr.freq, a->nids);
	}
	{
		const struct bt_pd_buildid *b;
		size_t argc2;
		char *const *cmd = bt_pd_cmdline(r, &argc2);
		n = bt_pd_buildids(r, &b);
		for (i = 0; i < n; i++) {
			printf("buildid ");
			for (size_t k = 0; k < b[i].size; k++)
				printf("%02x", b[i].id[k]);
			printf(" %s\n", b[i].filename);
		}
		printf("cmdline");
		for (i = 0; i < argc2; i++)
			printf(" %s", cmd[i]);
		printf("\nhostname %s\nosrelease %s\narch %s\nnr_cpus %d\n",
		    bt_pd_feature_str(r, BT_FEAT_HOSTNAME),
		    bt_pd_feature_str(r, BT_FEAT_OSRELEASE),
		    bt_pd_feature_str(r, BT_FEAT_ARCH), bt_pd_nr_cpus(r));
	}
	for (i = 0; i < 128; i++)
		if (counts[i])
			printf("records type %zu: %" PRIu64 "\n", i, counts[i]);
out:
	bt_pd_close(r);
	return 0;
}
