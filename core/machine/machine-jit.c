/*
 * JIT code on the machine (DESIGN.md §8, docs/jit.md): each process's
 * jitdumps and perf maps are found and read once (core/jit reads them),
 * and an address of the process in anonymous memory (or in none) is
 * looked up in them at its own time. Each piece of code that samples
 * fall in becomes a module of its own (kind BT_MOD_JIT, path "[jit]"), so
 * that code freed and replaced at the same address, and the versions of
 * one method, stay apart; its samples are at file offsets of the image
 * that jitelf.c makes of it (BT_JIT_ELF_TEXT + offset in the code).
 */
#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "jit/jitelf.h"
#include "jit/jitset.h"
#include "machine/machine-int.h"

/*
 * A piece of code with samples or call-chain frames: (src << 40 | idx,
 * start), its module, and whether a sample's own ip fell in it (what the
 * source's count of sampled entries counts).
 */
struct code_key {
	uint64_t a, b;
	uint32_t module;
	bool sampled;
};

struct dump_path {
	uint32_t pid;
	char *path;
};

struct bt_mjit {
	char *recording;	/* PATH of PATH.jit/, "" for none */
	bool times;		/* samples in CLOCK_MONOTONIC, as jitdumps */
	struct bt_jitset *set;
	BT_VEC(struct dump_path) mmapped;	/* jit-PID.dump files the recording maps */
	BT_VEC(struct code_key) codes;
	struct bt_hash code_index;	/* (a, b) -> codes[] */
	uint64_t uncovered;	/* user samples in anonymous memory no source covers
				   (their ips: call-chain frames are not counted) */
	BT_VEC(uint32_t) uncovered_pids;
	bool finished;		/* the first read is over: count nothing more */
};

static struct bt_mjit *
mjit(struct bt_machine *m)
{
	if (m->jit == NULL) {
		m->jit = bt_xcalloc(1, sizeof(*m->jit));
		m->jit->recording = bt_xstrdup("");
		bt_hash_init(&m->jit->code_index, 0);
	}
	return m->jit;
}

void
bt_machine_set_jit(struct bt_machine *m, const char *recording, bool times)
{
	struct bt_mjit *j = mjit(m);

	free(j->recording);
	j->recording = bt_xstrdup(recording ? recording : "");
	j->times = times;
}

void
bt_mjit_free(struct bt_mjit *j)
{
	size_t i;

	if (j == NULL)
		return;
	bt_jitset_free(j->set);
	for (i = 0; i < j->mmapped.n; i++)
		free(j->mmapped.v[i].path);
	BT_VEC_FREE(j->mmapped);
	BT_VEC_FREE(j->uncovered_pids);
	BT_VEC_FREE(j->codes);
	bt_hash_release(&j->code_index);
	free(j->recording);
	free(j);
}

/* Is base a name "PREFIX-DIGITS.SUFFIX"? Then *pid is the number. */
static bool
pid_file(const char *base, const char *prefix, const char *suffix, uint32_t *pid)
{
	size_t pl = strlen(prefix), sl = strlen(suffix), n = strlen(base), i;
	unsigned long v = 0;

	if (n <= pl + sl || strncmp(base, prefix, pl) != 0 ||
	    strcmp(base + n - sl, suffix) != 0)
		return false;
	for (i = pl; i < n - sl; i++) {
		if (base[i] < '0' || base[i] > '9' || v > UINT32_MAX / 10)
			return false;
		v = v * 10 + (unsigned long)(base[i] - '0');
	}
	*pid = (uint32_t)v;
	return true;
}

bool
bt_mjit_mmap(struct bt_machine *m, uint32_t pid, const char *filename)
{
	const char *base = strrchr(filename, '/');
	struct dump_path d;
	uint32_t fpid;
	size_t i;

	base = base ? base + 1 : filename;
	if (!pid_file(base, "jit-", ".dump", &fpid))
		return false;
	for (i = 0; m->jit && i < m->jit->mmapped.n; i++)
		if (strcmp(m->jit->mmapped.v[i].path, filename) == 0)
			return false;
	d.pid = pid;
	d.path = bt_xstrdup(filename);
	BT_VEC_PUSH(mjit(m)->mmapped, d);
	return true;
}

/* Does process pi have a source of this kind? */
static bool
has_src(const struct bt_machine *m, int pi, enum bt_jit_src_kind kind)
{
	const struct proc *pr = &m->procs.v[pi];
	size_t i;

	for (i = 0; i < pr->jit.n; i++)
		if (bt_jitset_src(m->jit->set, pr->jit.v[i])->kind == kind)
			return true;
	return false;
}

/* Add path as a source of process pi if it is a regular file. */
static void
try_add(struct bt_machine *m, int pi, enum bt_jit_src_kind kind, const char *path)
{
	struct bt_jitset *set = m->jit->set;
	uint32_t pid = m->procs.v[pi].pid;
	struct bt_error err = { 0 };
	struct stat st;
	size_t i;
	long src;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	for (i = 0; i < bt_jitset_nsrcs(set); i++)
		if (strcmp(bt_jitset_src(set, i)->path, path) == 0)
			return;
	src = bt_jitset_add(set, kind, pid, path, m->jit->times, &err);
	if (src < 0)
		BT_VEC_PUSH(m->notes, bt_xasprintf("%s: JIT code of process %u "
		    "shows as addresses", err.msg, pid));
	else
		BT_VEC_PUSH(m->procs.v[pi].jit, (size_t)src);
}

void
bt_mjit_open(struct bt_machine *m, int pi)
{
	struct bt_mjit *j = mjit(m);
	const char *rec = j->recording;
	uint32_t pid = m->procs.v[pi].pid;
	char path[PATH_MAX];
	size_t k;

	if (j->set == NULL)
		j->set = bt_jitset_new();
	/* kept next to the recording (benchtui's own runs), else where the runtime wrote it */
	if (rec[0]) {
		snprintf(path, sizeof(path), "%s.jit/jit-%u.dump", rec, pid);
		try_add(m, pi, BT_JIT_SRC_DUMP, path);
	}
	if (!has_src(m, pi, BT_JIT_SRC_DUMP))
		for (k = 0; k < j->mmapped.n; k++)
			if (j->mmapped.v[k].pid == pid)
				try_add(m, pi, BT_JIT_SRC_DUMP, j->mmapped.v[k].path);
	if (!has_src(m, pi, BT_JIT_SRC_DUMP)) {
		snprintf(path, sizeof(path), "/tmp/jit-%u.dump", pid);
		try_add(m, pi, BT_JIT_SRC_DUMP, path);
	}
	/* no dump: the code benchtui copied at exit from what the map names */
	if (!has_src(m, pi, BT_JIT_SRC_DUMP) && rec[0]) {
		size_t before = bt_jitset_nsrcs(j->set);
		snprintf(path, sizeof(path), "%s.jit/copy-%u.dump", rec, pid);
		try_add(m, pi, BT_JIT_SRC_DUMP, path);
		if (bt_jitset_nsrcs(j->set) > before)
			bt_jitset_src(j->set, before)->runtime =
			    "perf map names, code copied at exit";
	}
	if (rec[0]) {
		snprintf(path, sizeof(path), "%s.jit/perf-%u.map", rec, pid);
		try_add(m, pi, BT_JIT_SRC_MAP, path);
	}
	if (!has_src(m, pi, BT_JIT_SRC_MAP)) {
		snprintf(path, sizeof(path), "/tmp/perf-%u.map", pid);
		try_add(m, pi, BT_JIT_SRC_MAP, path);
	}
}

/* A name from a runtime's file, made safe for terminals (bt_text_safe). */
static char *
clean_name(const char *name)
{
	struct bt_textbuf tb = { 0 };
	char *s = bt_xstrdup(bt_text_safe(name, &tb));

	bt_textbuf_release(&tb);
	return s;
}

/*
 * The module of code c, created on first use; sampled: a sample's own ip
 * is in it (a call chain's frame is not), counted once per piece of code.
 */
static uint32_t
code_module(struct bt_machine *m, const struct bt_jit_code *c, bool sampled)
{
	struct bt_mjit *j = m->jit;
	struct code_key k = { (uint64_t)c->src << 40 | c->idx, c->start, 0, sampled };
	struct bt_hash_pos pos;
	struct bt_module mo;
	uint32_t i;

	for (i = bt_hash_first(&j->code_index, bt_hash64(k.a ^ bt_hash64(k.b)), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&j->code_index, &pos))
		if (j->codes.v[i].a == k.a && j->codes.v[i].b == k.b) {
			if (sampled && !j->codes.v[i].sampled) {
				j->codes.v[i].sampled = true;
				bt_jitset_src(j->set, c->src)->sampled++;
			}
			return j->codes.v[i].module;
		}
	memset(&mo, 0, sizeof(mo));
	mo.path = bt_xstrdup("[jit]");
	mo.kind = BT_MOD_JIT;
	mo.off_lo = BT_JIT_ELF_TEXT;
	mo.off_hi = BT_JIT_ELF_TEXT + c->size;
	mo.jit = bt_xmalloc(sizeof(*mo.jit));
	*mo.jit = *c;
	if (mo.jit->e_machine == 0)
		mo.jit->e_machine = bt_jit_host_machine();
	mo.jit_name = clean_name(c->name);
	BT_VEC_PUSH(*m->mods, mo);
	m->jit_made++;
	k.module = (uint32_t)m->mods->n - 1;
	BT_VEC_PUSH(j->codes, k);
	bt_hash_add(&j->code_index, &pos, (uint32_t)j->codes.n - 1);
	if (sampled)
		bt_jitset_src(j->set, c->src)->sampled++;
	return k.module;
}

/* The code of process pi at addr: its jitdumps first (code, lines, times), then its maps. */
static bool
find_code(const struct bt_machine *m, int pi, uint64_t addr, uint64_t time,
	  struct bt_jit_code *out)
{
	const struct proc *pr = &m->procs.v[pi];
	size_t i;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < pr->jit.n; i++) {
			size_t src = pr->jit.v[i];
			if ((pass == 0) != (bt_jitset_src(m->jit->set, src)->kind ==
			    BT_JIT_SRC_DUMP))
				continue;
			if (bt_jitset_find_in(m->jit->set, src, addr, time, out))
				return true;
		}
	return false;
}

bool
bt_mjit_resolve(struct bt_machine *m, int pi, uint64_t ip, uint64_t time,
		bool anon, bool frame, uint32_t *module, uint64_t *off)
{
	struct bt_mjit *j = m->jit;
	uint32_t pid = m->procs.v[pi].pid;
	struct bt_jit_code c;
	size_t i;

	if (j == NULL || j->set == NULL)
		return false;
	if (!find_code(m, pi, ip, time, &c)) {
		if (!anon || frame || j->finished)
			return false;
		j->uncovered++;
		for (i = 0; i < j->uncovered_pids.n; i++)
			if (j->uncovered_pids.v[i] == pid)
				return false;
		if (j->uncovered_pids.n < 16)
			BT_VEC_PUSH(j->uncovered_pids, pid);
		return false;
	}
	*module = code_module(m, &c, !frame);
	*off = BT_JIT_ELF_TEXT + (ip - c.start);
	return true;
}

static int
mod_name_cmp(const void *x, const void *y)
{
	const struct bt_module *const *a = x, *const *b = y;
	int c = strcmp((*a)->jit_name, (*b)->jit_name);

	if (c)
		return c;
	return (*a)->jit->time < (*b)->jit->time ? -1 : (*a)->jit->time > (*b)->jit->time;
}

/* One version of several of one name: named by its load time. */
static char *
version_name(const struct bt_module *mo, size_t version, uint64_t first_time)
{
	const struct bt_jit_code *c = mo->jit;

	if (c->time && first_time && c->time >= first_time)
		return bt_xasprintf("%s (loaded at %.3f s)", mo->jit_name,
		    (double)(c->time - first_time) / 1e9);
	if (c->time && first_time)
		return bt_xasprintf("%s (loaded %.3f s before the first sample)",
		    mo->jit_name, (double)(first_time - c->time) / 1e9);
	return bt_xasprintf("%s (version %zu at 0x%llx)", mo->jit_name, version,
	    (unsigned long long)c->start);
}

const char *
bt_jit_untiered(const char *name)
{
	if (name != NULL && strncmp(name, "JS:", 3) == 0) {
		name += 3;
		if (*name != '\0' && strchr("*~^+-", *name) != NULL)
			name++;
	}
	return name;
}

size_t
bt_jit_method(const char *name, const char **start)
{
	const char *b;

	*start = bt_jit_untiered(name);
	b = strstr(*start, " [");
	if (b == NULL)
		b = strstr(*start, " (loaded ");
	if (b == NULL)
		b = strstr(*start, " (version ");
	return b ? (size_t)(b - *start) : strlen(*start);
}

/* Versions of one name (recompiled at the same tier): told apart by load time. */
static void
name_versions(struct bt_machine *m, uint64_t first_time)
{
	BT_VEC(struct bt_module *) v = { 0 };
	size_t i, k, n;

	for (i = 0; i < m->mods->n; i++)
		if (m->mods->v[i].kind == BT_MOD_JIT)
			BT_VEC_PUSH(v, &m->mods->v[i]);
	if (v.n > 1)
		bt_qsort(v.v, v.n, sizeof(*v.v), mod_name_cmp);
	for (i = 0; i < v.n; i = k) {
		for (k = i + 1; k < v.n && strcmp(v.v[k]->jit_name, v.v[i]->jit_name) == 0; k++)
			;
		for (n = i; k - i > 1 && n < k; n++) {
			char *name = version_name(v.v[n], n - i + 1, first_time);
			free(v.v[n]->jit_name);
			v.v[n]->jit_name = name;
		}
	}
	BT_VEC_FREE(v);
}

void
bt_machine_jit_finish(struct bt_machine *m, uint64_t first_time)
{
	struct bt_mjit *j;
	size_t i;

	/* every process's JIT sources are named, with samples or not */
	for (i = 0; i < m->procs.n; i++)
		if (!m->procs.v[i].jit_open) {
			m->procs.v[i].jit_open = true;
			bt_mjit_open(m, (int)i);
		}
	j = m->jit;
	if (j == NULL || j->set == NULL)
		return;
	j->finished = true;
	name_versions(m, first_time);
	for (i = 0; i < bt_jitset_nsrcs(j->set); i++) {
		const struct bt_jit_src *s = bt_jitset_src(j->set, i);
		BT_VEC_PUSH(m->notes, bt_xasprintf("JIT code of process %u (%s): "
		    "%zu %s in '%s', %zu with samples%s", s->pid, s->runtime,
		    s->entries, s->kind == BT_JIT_SRC_DUMP ? "loads" : "entries",
		    s->path, s->sampled, s->kind == BT_JIT_SRC_MAP ?
		    " (names only: no code to annotate)" : ""));
	}
	if (j->uncovered) {
		struct bt_strbuf sb = BT_STRBUF_INIT;
		for (i = 0; i < j->uncovered_pids.n; i++)
			bt_strbuf_addf(&sb, "%s%u", i ? ", " : "", j->uncovered_pids.v[i]);
		BT_VEC_PUSH(m->notes, bt_xasprintf("%llu samples in anonymous "
		    "memory of process %s that no jitdump or perf map covers",
		    (unsigned long long)j->uncovered, sb.buf));
		bt_strbuf_release(&sb);
	}
}

const char *
bt_machine_jit_name(struct bt_machine *m, const struct bt_jit_code *c,
		    uint64_t addr, uint64_t *start)
{
	struct bt_jit_code t;
	int pi;

	if (m->jit == NULL || m->jit->set == NULL || c->src >= bt_jitset_nsrcs(m->jit->set))
		return NULL;
	pi = bt_machine_proc(m, bt_jitset_src(m->jit->set, c->src)->pid);
	if (pi < 0 || !find_code(m, pi, addr, c->time, &t) || t.name == NULL)
		return NULL;
	*start = t.start;
	return t.name;
}

uint32_t
bt_machine_jit_pid(struct bt_machine *m, const struct bt_jit_code *c)
{
	if (m->jit == NULL || m->jit->set == NULL || c->src >= bt_jitset_nsrcs(m->jit->set))
		return 0;
	return bt_jitset_src(m->jit->set, c->src)->pid;
}

const struct bt_jit_load *
bt_machine_jit_loads(struct bt_machine *m, const struct bt_jit_code *c, size_t *n)
{
	*n = 0;
	if (m->jit == NULL || m->jit->set == NULL)
		return NULL;
	return bt_jitset_loads(m->jit->set, c->src, n);
}
