/*
 * Deterministic recordings for the tests: a real binary, one MMAP2 of its
 * executable segment, and samples exactly where the specs say, written
 * through benchtui's own perf.data writer with benchtui's section.
 */
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "base.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "elf-funcs.h"
#include "perf/meta.h"
#include "perf/perfdata.h"
#include "synth.h"

#define BASE 0x555555554000ULL
#define PID 4242

struct lookup {
	const char *name;
	uint64_t addr;
};

static void
find(uint64_t start, uint64_t size, const char *name, void *arg)
{
	struct lookup *l = arg;

	(void)size;
	if (strcmp(name, l->name) == 0)
		l->addr = start;
}

void
synth_attr(struct bt_pd_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->attr.size = sizeof(a->attr);
	a->attr.type = PERF_TYPE_SOFTWARE;
	a->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	a->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	a->attr.freq = 1;
	a->attr.sample_freq = 4000;
	a->attr.sample_id_all = 1;
	a->attr.mmap = a->attr.mmap2 = a->attr.comm = a->attr.task = 1;
	a->name = (char *)"cpu-clock";
}

int
synth_sample(struct bt_pd_writer *w, uint64_t ip, uint32_t pid, uint32_t tid,
	     uint64_t time, uint16_t misc)
{
	struct {
		struct perf_event_header h;
		uint64_t ip;
		uint32_t pid, tid;
		uint64_t time;
		uint32_t cpu, res;
		uint64_t period;
	} s = { { PERF_RECORD_SAMPLE, misc, sizeof(s) }, ip, pid, tid, time, 0, 0,
		250000 };

	return bt_pd_write(w, &s, sizeof(s), NULL);
}

int
synth_mmap2(struct bt_pd_writer *w, uint32_t pid, uint64_t start, uint64_t len,
	    uint64_t pgoff, const char *path, uint64_t time)
{
	uint8_t buf[8 + 64 + 4096 + 24] = { 0 };
	struct perf_event_header *h = (void *)buf;
	size_t fl = (strlen(path) + 8) & ~7ul;
	uint32_t prot = PROT_READ | PROT_EXEC;
	uint64_t tr[3] = { (uint64_t)pid << 32 | pid, time, 0 };

	if (fl > 4096)
		return -1;
	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = (uint16_t)(8 + 64 + fl + 24);
	memcpy(buf + 8, &pid, 4);
	memcpy(buf + 12, &pid, 4);
	memcpy(buf + 16, &start, 8);
	memcpy(buf + 24, &len, 8);
	memcpy(buf + 32, &pgoff, 8);
	memcpy(buf + 8 + 56, &prot, 4);
	memcpy(buf + 8 + 64, path, strlen(path));
	memcpy(buf + 8 + 64 + fl, tr, 24);
	return bt_pd_write(w, buf, h->size, NULL);
}

static int
sample(struct bt_pd_writer *w, uint64_t *t, uint64_t ip, uint16_t mode)
{
	return synth_sample(w, ip, PID, PID, *t += 250000, mode);
}

/*
 * A LOST record of n samples, or a THROTTLE record, at time t (what the
 * kernel writes when its ring is full, or when it slows sampling down),
 * each with the sample_id trailer of synth_attr's layout (pid/tid, time,
 * cpu).
 */
static int
side_record(struct bt_pd_writer *w, bool lost, uint64_t n, uint64_t t)
{
	const uint64_t tid = (uint64_t)PID << 32 | PID;
	uint64_t l[6] = { 48ULL << 48 | PERF_RECORD_LOST, 1, n, tid, t, 0 };
	uint64_t th[7] = { 56ULL << 48 | PERF_RECORD_THROTTLE, t, 1, 1, tid, t, 0 };

	return lost ? bt_pd_write(w, l, sizeof(l), NULL) : bt_pd_write(w, th, sizeof(th), NULL);
}

static int
write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -1;
	if (len && fwrite(data, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f) == 0 ? 0 : -1;
}

/*
 * The perf.data file in sb (native byte order) with feature bit 24,
 * DIR_FORMAT, set: the section table gets its entry in bit order and
 * every section moves behind the longer table.
 */
static int
add_dir_format(struct bt_strbuf *sb, uint64_t version, struct bt_strbuf *out)
{
	uint64_t doff, dsize, bits[4], tab, nold = 0, nnew, pos;
	int b;

	if (sb->len < 104)
		return -1;
	memcpy(&doff, sb->buf + 40, 8);
	memcpy(&dsize, sb->buf + 48, 8);
	memcpy(bits, sb->buf + 72, 32);
	for (b = 0; b < 256; b++)
		nold += bits[b / 64] >> (b % 64) & 1;
	tab = doff + dsize;
	if (bits[0] >> 24 & 1 || tab + nold * 16 > sb->len)
		return -1;
	bits[0] |= 1ULL << 24;
	nnew = nold + 1;
	bt_strbuf_add(out, sb->buf, (size_t)tab);
	memcpy(out->buf + 72, bits, 32);
	pos = tab + nnew * 16;
	for (b = 0, nold = 0; b < 256; b++) {	/* the table: old sections moved, then 24 */
		uint64_t e[2];

		if (!(bits[b / 64] >> (b % 64) & 1))
			continue;
		if (b == 24) {
			e[0] = pos;
			e[1] = 8;
		} else {
			memcpy(e, sb->buf + tab + nold++ * 16, 16);
			e[0] = pos;
		}
		pos += e[1];
		bt_strbuf_add(out, e, 16);
	}
	for (b = 0, nold = 0; b < 256; b++) {	/* the sections, in the same order */
		uint64_t e[2];

		if (!(bits[b / 64] >> (b % 64) & 1))
			continue;
		if (b == 24) {
			bt_strbuf_add(out, &version, 8);
			continue;
		}
		memcpy(e, sb->buf + tab + nold++ * 16, 16);
		if (e[0] + e[1] > sb->len)
			return -1;
		bt_strbuf_add(out, sb->buf + e[0], (size_t)e[1]);
	}
	return 0;
}

int
synth_dir(const char *dir, const char *header, const char *const *files,
	  size_t nfiles, uint64_t version)
{
	struct bt_strbuf sb = BT_STRBUF_INIT, out = BT_STRBUF_INIT;
	char path[512];
	size_t i;
	int ret = -1;

	mkdir(dir, 0700);
	if (bt_strbuf_read_file(&sb, header, 0) < 0 || add_dir_format(&sb, version, &out) < 0)
		goto out;
	snprintf(path, sizeof(path), "%s/data", dir);
	if (write_file(path, out.buf, out.len) < 0)
		goto out;
	for (i = 0; i < nfiles; i++) {
		uint64_t doff = 0, dsize = 0;

		bt_strbuf_reset(&sb);
		if (files[i] != NULL) {
			if (bt_strbuf_read_file(&sb, files[i], 0) < 0 || sb.len < 104)
				goto out;
			memcpy(&doff, sb.buf + 40, 8);
			memcpy(&dsize, sb.buf + 48, 8);
			if (doff + dsize > sb.len)
				goto out;
		}
		snprintf(path, sizeof(path), "%s/data.%zu", dir, i);
		if (write_file(path, sb.buf + doff, (size_t)dsize) < 0)
			goto out;
	}
	ret = 0;
out:
	bt_strbuf_release(&sb);
	bt_strbuf_release(&out);
	return ret;
}

int
test_tmpdir(char *tmpl)
{
	return mkdtemp(tmpl) == NULL ? -1 : 0;
}

int
test_compile(const char *dir, const char *name, const char *src,
	     const char *flags, char *out, size_t outlen)
{
	char cmd[1024];

	snprintf(out, outlen, "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "cc %s -o %s tests/fixtures/%s", flags, out, src);
	return system(cmd) == 0 ? 0 : -1;
}

struct bt_selection *
test_select(struct bt_session *s)
{
	struct bt_selection *sel = s != NULL ? bt_selection_new(s, NULL, NULL) : NULL;

	if (sel == NULL)
		bt_session_free(s);
	return sel;
}

struct bt_selection *
test_open(const char *path)
{
	struct bt_error err = { 0 };
	struct bt_profile *p = bt_profile_open(path, &err);

	return p != NULL ? test_select(bt_session_new(p, NULL, &err)) : NULL;
}

void
test_close(struct bt_selection *sel)
{
	struct bt_session *s;

	if (sel == NULL)
		return;
	s = bt_selection_session(sel);
	bt_selection_free(sel);
	bt_session_free(s);
}

int
test_rmdir(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int
synth_recording(const char *out, const char *binary, char *const *specs,
		int nspecs, char *msg, size_t msglen)
{
	struct bt_pd_attr a;
	struct bt_error err = { 0 };
	struct bt_pd_writer *w;
	struct bt_pd_features f;
	struct bt_meta m;
	struct bt_strbuf sec = BT_STRBUF_INIT;
	uint64_t ids[1] = { 1 }, t = 1000000000ULL;
	char *cmd[3] = { (char *)"benchtui", NULL, NULL };
	char *args[2] = { NULL, NULL };
	const char *slash;
	Elf *e;
	size_t nph;
	int k;
	bool intel = false;
	uint64_t map_start = 0, map_len = 0, pgoff = 0, nsamples = 0;

	e = tool_open_elf(binary);
	if (e == NULL || elf_getphdrnum(e, &nph) != 0) {
		snprintf(msg, msglen, "cannot read '%s'", binary);
		return -1;
	}
	tool_exec_mapping(e, BASE, &map_start, &map_len, &pgoff);
	synth_attr(&a);
	for (k = 0; k < nspecs; k++)
		if (strcmp(specs[k], "precise=1") == 0) {	/* as PEBS would: cycles:pp */
			a.attr.type = PERF_TYPE_HARDWARE;
			a.attr.config = PERF_COUNT_HW_CPU_CYCLES;
			a.attr.precise_ip = 2;
			a.name = (char *)"cycles:pp";
		} else if (strcmp(specs[k], "intel=1") == 0)
			intel = true;
	a.ids = ids;
	a.nids = 1;
	w = bt_pd_create(out, &a, 1, &err);
	if (w == NULL) {
		snprintf(msg, msglen, "%s", err.msg);
		return -1;
	}
	if (synth_mmap2(w, PID, map_start, map_len, pgoff, binary, t) < 0)
		goto fail;
	for (k = 0; k < nspecs; k++) {
		char name[256], *eq = strchr(specs[k], '='), *plus;
		long count = eq ? atol(eq + 1) : 0, c;
		struct lookup l = { name, 0 };
		uint64_t off = 0;

		if (eq == NULL || count <= 0) {
			snprintf(msg, msglen, "bad sample spec '%s'", specs[k]);
			goto fail;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(eq - specs[k]), specs[k]);
		if (strcmp(name, "precise") == 0 || strcmp(name, "intel") == 0)
			continue;
		if (strcmp(name, "lost") == 0 || strcmp(name, "throttle") == 0) {
			bool lost = name[0] == 'l';

			for (c = 0; c < (lost ? 1 : count); c++)
				if (side_record(w, lost, (uint64_t)count, t) < 0)
					goto fail;
			continue;
		}
		if (strcmp(name, "kernel") == 0 || strcmp(name, "unknown") == 0) {
			for (c = 0; c < count; c++)
				if (sample(w, &t, name[0] == 'k' ? 0xffffffff81000000ULL :
				    0x7f0000001000ULL, name[0] == 'k' ?
				    PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER) < 0)
					goto fail;
			nsamples += (uint64_t)count;
			continue;
		}
		if ((plus = strchr(name, '+')) != NULL) {
			*plus = '\0';
			off = strtoull(plus + 1, NULL, 16);
		}
		tool_elf_funcs(e, find, &l);
		if (l.addr == 0) {
			snprintf(msg, msglen, "no function '%s' in '%s'", name, binary);
			goto fail;
		}
		for (c = 0; c < count; c++)
			if (sample(w, &t, BASE + l.addr + off, PERF_RECORD_MISC_USER) < 0)
				goto fail;
		nsamples += (uint64_t)count;
	}
	slash = strrchr(binary, '/');
	args[0] = (char *)(slash ? slash + 1 : binary);
	cmd[1] = args[0];
	memset(&m, 0, sizeof(m));
	m.argv = args;
	m.argc = 1;
	m.freq = 4000;
	m.has_status = true;
	m.duration = (double)nsamples / 4000;
	if (intel)	/* a Sapphire Rapids Xeon's */
		snprintf(m.cpu_id, sizeof(m.cpu_id), "GenuineIntel,6,143");
	bt_meta_encode(&m, &sec);
	memset(&f, 0, sizeof(f));
	f.hostname = "golden";
	f.osrelease = "6.1.0";
	f.arch = "x86_64";
	f.version = "benchtui " BT_VERSION;
	f.nr_cpus_online = f.nr_cpus_avail = 2;
	f.cmdline = cmd;
	f.benchtui = sec.buf;
	f.benchtui_len = sec.len;
	f.first_sample_time = 1000000000ULL;
	f.last_sample_time = t;
	if (bt_pd_finish(w, &f, &err) < 0) {
		snprintf(msg, msglen, "%s", err.msg);
		bt_strbuf_release(&sec);
		elf_end(e);
		return -1;
	}
	bt_strbuf_release(&sec);
	elf_end(e);
	return 0;
fail:
	bt_pd_abort(w);
	elf_end(e);
	return -1;
}
