/*
 * unwind-dump: the user call chain of every sample of a perf.data, as
 * core/unwind makes it, for tests/test-unwind.sh and docs/callchains.md.
 *   unwind-dump FILE [OPTIONS]
 *     --mode auto|dwarf|fp|hybrid  auto: what bt_unwinder_sample() picks;
 *                       dwarf: CFI over the whole stack copy; fp: the
 *                       kernel's chain; hybrid: bt_unwind_splice()
 *     --stack N         use only the first N bytes of each stack copy
 *     --chains          per sample "TIME<TAB>ADDR:SYM ADDR:SYM ..." (link-time
 *                       addresses, return addresses minus one: perf
 *                       script's convention), leaf first
 *     --callers FUNC    for samples whose leaf is FUNC (FUNC* a prefix):
 *                       "COUNT CALLER" per immediate caller
 *     --stats           methods, splice rules, end reasons and the rate
 *     --repeat N        unwind every sample N times (rate)
 *     --libdw           every sample through libdwfl's frame walk
 *     --sweep S1,S2...  hybrid chains with stack copies cut to S bytes
 *                       against the full DWARF chain: per leaf function,
 *                       % right immediate caller and % right chain up to main
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "perf/perfdata.h"
#include "symbols/symbols.h"
#include "symbols/symbols.h"
#include "unwind/unwind.h"

enum mode { M_AUTO, M_DWARF, M_FP, M_HYBRID };

struct map {
	uint64_t start, end, pgoff;
	char *path;
	struct bt_msyms *syms;
	bool tried;
};

static BT_VEC(struct map) maps;
static const void *vdso;
static size_t vdso_len;

static void
add_map(const struct bt_pd_event *ev)
{
	struct map m = { ev->u.mmap.start, ev->u.mmap.start + ev->u.mmap.len,
		ev->u.mmap.pgoff, bt_xstrdup(ev->u.mmap.filename), NULL, false };

	BT_VEC_PUSH(maps, m);
}

/* The function at runtime address a, and its link-time address. */
static const char *
symbolize(uint64_t a, uint64_t *link)
{
	struct bt_func_sym fs;
	size_t i;

	*link = a;
	for (i = maps.n; i-- > 0;) {
		struct map *m = &maps.v[i];
		uint64_t la;

		if (a < m->start || a >= m->end)
			continue;
		if (!m->tried) {
			m->tried = true;
			if (strcmp(m->path, "[vdso]") == 0)
				m->syms = vdso ? bt_msyms_open("[vdso]", vdso, vdso_len, NULL) : NULL;
			else
				m->syms = bt_msyms_open(m->path, NULL, 0, NULL);
		}
		if (m->syms == NULL || bt_msyms_off_to_addr(m->syms,
		    a - m->start + m->pgoff, &la) != 0)
			return "[unknown]";
		*link = la;
		return bt_msyms_func(m->syms, la, &fs) == 0 ? fs.name : "[unknown]";
	}
	return "[unknown]";
}

static const char *
frame_sym(const uint64_t *ips, size_t i, uint64_t *link)
{
	return symbolize(i ? ips[i] - 1 : ips[i], link);
}

static int
unwind_one(struct bt_unwinder *u, const struct bt_perf_layout *l,
	   const struct bt_pd_event *ev, enum mode mode, long stack,
	   uint64_t *ips, size_t max, struct bt_unwind_result *res)
{
	struct bt_error err = { 0 };
	struct bt_unwind_regs r;
	struct bt_callchain cc;
	uint64_t regbuf[64], chain[BT_UNWIND_MAX_FRAMES * 2 + 8];
	const struct bt_perf_sample *s = &ev->sample;
	size_t i, n = 0;
	int ret;

	if (mode == M_AUTO && stack < 0)
		return bt_unwinder_sample(u, l, ev, ips, max, NULL, res, &err);
	memset(res, 0, sizeof(*res));
	if (BT_PF_HAS(s, BT_PF_CALLCHAIN))
		for (i = 0; i < s->callchain.n && n < BT_ARRAY_SIZE(chain); i++)
			chain[n++] = bt_perf_u64(&s->callchain, s->swapped, i);
	bt_callchain_split(chain, n, &cc);
	ret = bt_unwind_regs_from_sample(&r, l, s, regbuf);
	if (stack >= 0 && ret == 0)
		r.stack_size = BT_MIN(r.stack_size, (size_t)stack);
	if (mode == M_FP || (ret != 0 && mode == M_AUTO)) {
		res->n = BT_MIN(cc.nuser, max);
		if (res->n)
			memcpy(ips, cc.user, res->n * sizeof(*ips));
		return (int)res->n;
	}
	if (ret != 0)
		return 0;
	if (mode == M_DWARF || (mode == M_AUTO && cc.nuser == 0))
		return bt_unwind_dwarf(bt_unwinder_space(u, s->pid, s->time), &r, ips, max, res, &err);
	return bt_unwind_splice(bt_unwinder_space(u, s->pid, s->time), &r, cc.user, cc.nuser,
	    ips, max, res, &err);
}

/* Per leaf function, for --sweep. */
struct leafstat {
	char *name;
	uint64_t n;
	uint64_t caller_ok[16], chain_ok[16];
};
static BT_VEC(struct leafstat) leaves;

static struct leafstat *
leaf_stat(const char *name)
{
	struct leafstat z;
	size_t i;

	for (i = 0; i < leaves.n; i++)
		if (strcmp(leaves.v[i].name, name) == 0)
			return &leaves.v[i];
	memset(&z, 0, sizeof(z));
	z.name = bt_xstrdup(name);
	BT_VEC_PUSH(leaves, z);
	return &leaves.v[leaves.n - 1];
}

/* Frames of chain a equal to truth t up to the first frame in main (all, if none). */
static bool
chain_right(const uint64_t *t, size_t nt, const uint64_t *a, size_t na)
{
	size_t i, upto = nt;
	uint64_t link;

	for (i = 0; i < nt; i++)
		if (strcmp(frame_sym(t, i, &link), "main") == 0) {
			upto = i + 1;
			break;
		}
	if (na < upto)
		return false;
	for (i = 0; i < upto; i++)
		if (t[i] != a[i])
			return false;
	return true;
}

struct caller {
	char *name;
	uint64_t n;
};

int
main(int argc, char **argv)
{
	enum mode mode = M_AUTO;
	long stack = -1;
	bool chains = false, stats = false, libdw = false;
	struct bt_unwind_stats ust;
	const char *callers = NULL;
	long sizes[16];
	size_t nsizes = 0, i, k;
	int repeat = 1, rep, ret;
	struct bt_error err = { 0 };
	struct bt_pd_reader *rd;
	struct bt_pd_event ev;
	uint64_t ips[BT_UNWIND_MAX_FRAMES], nsamples = 0, nframes = 0;
	uint64_t splice[8] = { 0 }, end[8] = { 0 }, skipped = 0;
	BT_VEC(struct caller) cl = { 0 };
	double t_unwind = 0, t_first = 0, t0;
	struct bt_unwinder *u = NULL;

	if (argc < 2) {
		fprintf(stderr, "usage: unwind-dump FILE [--mode M] [--stack N] [--chains] [--callers F] [--stats] [--repeat N] [--sweep S,...]\n");
		return 1;
	}
	for (i = 2; i < (size_t)argc; i++) {
		const char *a = argv[i], *v = i + 1 < (size_t)argc ? argv[i + 1] : "";
		if (strcmp(a, "--mode") == 0) {
			mode = strcmp(v, "dwarf") == 0 ? M_DWARF : strcmp(v, "fp") == 0 ? M_FP :
			    strcmp(v, "hybrid") == 0 ? M_HYBRID : M_AUTO;
			i++;
		} else if (strcmp(a, "--stack") == 0) {
			stack = atol(v);
			i++;
		} else if (strcmp(a, "--chains") == 0) {
			chains = true;
		} else if (strcmp(a, "--callers") == 0) {
			callers = v;
			i++;
		} else if (strcmp(a, "--libdw") == 0) {
			libdw = true;
		} else if (strcmp(a, "--stats") == 0) {
			stats = true;
		} else if (strcmp(a, "--repeat") == 0) {
			repeat = atoi(v);
			i++;
		} else if (strcmp(a, "--sweep") == 0) {
			char *p = (char *)v;
			while (*p && nsizes < 16) {
				sizes[nsizes++] = strtol(p, &p, 10);
				if (*p == ',')
					p++;
			}
			i++;
		}
	}
	vdso = bt_own_vdso(&vdso_len);
	for (rep = 0; rep < repeat; rep++) {
		rd = bt_pd_open(argv[1], &err);
		if (rd == NULL) {
			fprintf(stderr, "unwind-dump: %s\n", err.msg);
			return 2;
		}
		/* the side-band first, as the profile reads it; the images stay */
		if (rep == 0) {
			u = bt_unwinder_new();
			bt_unwinder_set_vdso(u, vdso, vdso_len);
			bt_unwinder_set_flags(u, libdw ? BT_UNWIND_LIBDW : 0);
			{
				const struct bt_pd_buildid *ids;
				size_t nids = bt_pd_buildids(rd, &ids);
				bt_unwinder_set_buildids(u, ids, nids);
			}
			bt_pd_skip_samples(rd, true);
			while ((ret = bt_pd_next(rd, &ev, &err)) > 0) {
				bt_unwinder_event(u, &ev);
				if ((ev.type == PERF_RECORD_MMAP || ev.type == PERF_RECORD_MMAP2) &&
				    (ev.misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL)
					add_map(&ev);
			}
			bt_pd_skip_samples(rd, false);
			bt_pd_rewind(rd);
		}
		while ((ret = bt_pd_next(rd, &ev, &err)) > 0) {
			const struct bt_perf_layout *l;
			struct bt_unwind_result res;
			uint64_t link;
			int n;

			if (ev.type != PERF_RECORD_SAMPLE)
				continue;
			if (ev.attr < 0)
				continue;
			l = bt_pd_layout(rd, (size_t)ev.attr);
			t0 = bt_now();
			n = unwind_one(u, l, &ev, mode, stack, ips, BT_ARRAY_SIZE(ips), &res);
			t_unwind += bt_now() - t0;
			if (n < 0)
				n = 0;
			nsamples++;
			nframes += (uint64_t)n;
			splice[res.splice]++;
			end[res.end]++;
			skipped += res.fp_skipped ? 1 : 0;
			if (rep)
				continue;
			if (chains) {
				printf("%" PRIu64 ".%09" PRIu64 "\t", ev.sample.time / 1000000000,
				    ev.sample.time % 1000000000);
				for (k = 0; k < (size_t)n; k++) {
					const char *sym = frame_sym(ips, k, &link);
					printf("%s%" PRIx64 ":%s", k ? " " : "",
					    k ? link : link, sym);
				}
				printf("\n");
			}
			if (callers && n >= 1) {
				const char *leaf = frame_sym(ips, 0, &link);
				size_t len = strlen(callers);
				bool match = callers[len - 1] == '*' ?
				    strncmp(leaf, callers, len - 1) == 0 :
				    strcmp(leaf, callers) == 0;
				if (match) {
					const char *c = n >= 2 ? frame_sym(ips, 1, &link) : "(none)";
					for (k = 0; k < cl.n && strcmp(cl.v[k].name, c); k++)
						;
					if (k == cl.n) {
						struct caller z = { bt_xstrdup(c), 0 };
						BT_VEC_PUSH(cl, z);
					}
					cl.v[k].n++;
				}
			}
			if (nsizes && BT_PF_HAS(&ev.sample, BT_PF_STACK_USER)) {
				uint64_t t[BT_UNWIND_MAX_FRAMES], h[BT_UNWIND_MAX_FRAMES];
				struct bt_unwind_result tr, hr;
				int nt = unwind_one(u, l, &ev, M_DWARF, -1, t, BT_ARRAY_SIZE(t), &tr);
				struct leafstat *ls;

				if (nt < 2)
					continue;
				ls = leaf_stat(frame_sym(t, 0, &link));
				ls->n++;
				for (k = 0; k < nsizes; k++) {
					int nh = unwind_one(u, l, &ev, M_HYBRID, sizes[k], h,
					    BT_ARRAY_SIZE(h), &hr);
					if (nh >= 2 && h[1] == t[1])
						ls->caller_ok[k]++;
					if (nh > 0 && chain_right(t, (size_t)nt, h, (size_t)nh))
						ls->chain_ok[k]++;
				}
			}
		}
		if (ret < 0) {
			fprintf(stderr, "unwind-dump: %s\n", err.msg);
			return 2;
		}
		bt_pd_close(rd);
		if (rep == 0)
			t_first = t_unwind;
	}
	bt_unwinder_stats(u, &ust);
	bt_unwinder_free(u);
	if (callers) {
		for (k = 0; k < cl.n; k++)
			printf("%" PRIu64 " %s\n", cl.v[k].n, cl.v[k].name);
	}
	if (stats) {
		static const char *const sn[] = { "none", "slot", "pending", "cfi",
			"gap", "cfi-only", "fp" };
		static const char *const en[] = { "outermost", "stack", "frames",
			"nocfi", "noregs" };
		printf("samples %" PRIu64 " frames %" PRIu64 " unwind %.3f s rate %.0f samples/s",
		    nsamples, nframes, t_unwind, t_unwind > 0 ? (double)nsamples / t_unwind : 0);
		if (repeat > 1)
			printf(" (first pass %.3f s, then %.0f samples/s)", t_first,
			    (double)nsamples * (repeat - 1) / repeat / (t_unwind - t_first));
		printf("\n");
		printf("splice");
		for (k = 0; k < BT_ARRAY_SIZE(sn); k++)
			if (splice[k])
				printf(" %s=%" PRIu64, sn[k], splice[k]);
		printf("\nend");
		for (k = 0; k < BT_ARRAY_SIZE(en); k++)
			if (end[k])
				printf(" %s=%" PRIu64, en[k], end[k]);
		printf("\nfp-missed-a-frame %" PRIu64 "\n", skipped);
		printf("cfi-unwinds %" PRIu64 " by-libdwfl %" PRIu64 " rows %" PRIu64
		    " files-with-another-build-id %" PRIu64 "\n",
		    ust.samples, ust.libdw, ust.rules, ust.mismatched);
	}
	if (nsizes) {
		printf("%-36s %7s", "leaf (caller%/chain% per stack size)", "samples");
		for (k = 0; k < nsizes; k++)
			printf(" %11ld", sizes[k]);
		printf("\n");
		/* every sample first, then each leaf function with 5 or more */
		struct leafstat all;

		memset(&all, 0, sizeof(all));
		all.name = (char *)"(all samples)";
		for (i = 0; i < leaves.n; i++) {
			all.n += leaves.v[i].n;
			for (k = 0; k < nsizes; k++) {
				all.caller_ok[k] += leaves.v[i].caller_ok[k];
				all.chain_ok[k] += leaves.v[i].chain_ok[k];
			}
		}
		for (i = 0; i <= leaves.n; i++) {
			struct leafstat *ls = i ? &leaves.v[i - 1] : &all;
			if (ls->n < 5)
				continue;
			printf("%-36.36s %7" PRIu64, ls->name, ls->n);
			for (k = 0; k < nsizes; k++) {
				char cell[32];
				snprintf(cell, sizeof(cell), "%.1f/%.1f",
				    100.0 * (double)ls->caller_ok[k] / (double)ls->n,
				    100.0 * (double)ls->chain_ok[k] / (double)ls->n);
				printf(" %11s", cell);
			}
			printf("\n");
		}
	}
	for (i = 0; i < maps.n; i++) {
		bt_msyms_free(maps.v[i].syms);
		free(maps.v[i].path);
	}
	BT_VEC_FREE(maps);
	for (i = 0; i < leaves.n; i++)
		free(leaves.v[i].name);
	BT_VEC_FREE(leaves);
	for (k = 0; k < cl.n; k++)
		free(cl.v[k].name);
	BT_VEC_FREE(cl);
	return 0;
}
