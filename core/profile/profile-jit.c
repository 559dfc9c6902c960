/*
 * JIT code in a profile (DESIGN.md §8, docs/jit.md): the jitdumps and perf
 * maps of the recorded processes are found and read once, and a user
 * sample in anonymous memory (or in no mapping) is resolved through its
 * process's sources at its own time. Each piece of code that samples fall
 * in becomes a module of its own (kind BT_MOD_JIT, path "[jit]"), so that
 * code freed and replaced at the same address, and the versions of one
 * method, stay apart; its samples are at file offsets of the image that
 * jitelf.c makes of it (BT_JIT_ELF_TEXT + offset in the code).
 */
#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "hash.h"
#include "jit/jitelf.h"
#include "jit/jitset.h"
#include "profile/profile-int.h"

/* A piece of code with samples: (src << 40 | idx, start), and its module. */
struct code_key {
	uint64_t a, b;
	uint32_t module;
};

struct dump_path {
	uint32_t pid;
	char *path;
};

struct bt_pjit {
	struct bt_jitset *set;
	BT_VEC(struct dump_path) mmapped;	/* jit-PID.dump files the recording maps */
	BT_VEC(struct code_key) codes;
	struct bt_hash code_index;	/* (a, b) -> codes[] */
	uint64_t uncovered;	/* user samples in anonymous memory no source covers */
	BT_VEC(uint32_t) uncovered_pids;
	bool finished;		/* the first read is over: count nothing more */
};

static struct bt_pjit *
pjit(struct bt_profile *p)
{
	if (p->jit == NULL) {
		p->jit = bt_xcalloc(1, sizeof(*p->jit));
		bt_hash_init(&p->jit->code_index, 0);
	}
	return p->jit;
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
bt_pjit_mmap(struct bt_profile *p, uint32_t pid, const char *filename)
{
	const char *base = strrchr(filename, '/');
	struct dump_path d;
	uint32_t fpid;
	size_t i;

	base = base ? base + 1 : filename;
	if (!pid_file(base, "jit-", ".dump", &fpid))
		return false;
	for (i = 0; p->jit && i < p->jit->mmapped.n; i++)
		if (strcmp(p->jit->mmapped.v[i].path, filename) == 0)
			return false;
	d.pid = pid;
	d.path = bt_xstrdup(filename);
	BT_VEC_PUSH(pjit(p)->mmapped, d);
	return true;
}

/* Add path as a source of pid if it is a regular file. */
static void
try_add(struct bt_profile *p, enum bt_jit_src_kind kind, uint32_t pid,
	const char *path, bool times)
{
	struct bt_error err = { 0 };
	struct stat st;
	size_t i;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	for (i = 0; i < bt_jitset_nsrcs(p->jit->set); i++)
		if (strcmp(bt_jitset_src(p->jit->set, i)->path, path) == 0)
			return;
	if (bt_jitset_add(p->jit->set, kind, pid, path, times, &err) < 0)
		BT_VEC_PUSH(p->notes, bt_xasprintf("%s: JIT code of process %u "
		    "shows as addresses", err.msg, pid));
}

void
bt_pjit_open(struct bt_profile *p, uint32_t pid, bool times)
{
	struct bt_pjit *j = pjit(p);
	char path[PATH_MAX];
	size_t k;

	if (j->set == NULL)
		j->set = bt_jitset_new();
	/* kept next to the recording (benchtui's own runs), else where the runtime wrote it */
	if (p->path[0]) {
		snprintf(path, sizeof(path), "%s.jit/jit-%u.dump", p->path, pid);
		try_add(p, BT_JIT_SRC_DUMP, pid, path, times);
	}
	if (!bt_jitset_has(j->set, BT_JIT_SRC_DUMP, pid))
		for (k = 0; k < j->mmapped.n; k++)
			if (j->mmapped.v[k].pid == pid)
				try_add(p, BT_JIT_SRC_DUMP, pid,
				    j->mmapped.v[k].path, times);
	if (!bt_jitset_has(j->set, BT_JIT_SRC_DUMP, pid)) {
		snprintf(path, sizeof(path), "/tmp/jit-%u.dump", pid);
		try_add(p, BT_JIT_SRC_DUMP, pid, path, times);
	}
	/* no dump: the code benchtui copied at exit from what the map names */
	if (!bt_jitset_has(j->set, BT_JIT_SRC_DUMP, pid) && p->path[0]) {
		size_t before = bt_jitset_nsrcs(j->set);
		snprintf(path, sizeof(path), "%s.jit/copy-%u.dump", p->path, pid);
		try_add(p, BT_JIT_SRC_DUMP, pid, path, times);
		if (bt_jitset_nsrcs(j->set) > before)
			bt_jitset_src(j->set, before)->runtime =
			    "perf map names, code copied at exit";
	}
	if (p->path[0]) {
		snprintf(path, sizeof(path), "%s.jit/perf-%u.map", p->path, pid);
		try_add(p, BT_JIT_SRC_MAP, pid, path, times);
	}
	if (!bt_jitset_has(j->set, BT_JIT_SRC_MAP, pid)) {
		snprintf(path, sizeof(path), "/tmp/perf-%u.map", pid);
		try_add(p, BT_JIT_SRC_MAP, pid, path, times);
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

/* The module of code c, created on first use. */
static uint32_t
code_module(struct bt_profile *p, const struct bt_jit_code *c)
{
	struct bt_pjit *j = p->jit;
	struct code_key k = { (uint64_t)c->src << 40 | c->idx, c->start, 0 };
	struct bt_hash_pos pos;
	struct bt_module m;
	uint32_t i;

	for (i = bt_hash_first(&j->code_index, bt_hash64(k.a ^ bt_hash64(k.b)), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&j->code_index, &pos))
		if (j->codes.v[i].a == k.a && j->codes.v[i].b == k.b)
			return j->codes.v[i].module;
	memset(&m, 0, sizeof(m));
	m.path = bt_xstrdup("[jit]");
	m.kind = BT_MOD_JIT;
	m.off_lo = BT_JIT_ELF_TEXT;
	m.off_hi = BT_JIT_ELF_TEXT + c->size;
	m.jit = bt_xmalloc(sizeof(*m.jit));
	*m.jit = *c;
	if (m.jit->e_machine == 0)
		m.jit->e_machine = bt_jit_host_machine();
	m.jit_name = clean_name(c->name);
	BT_VEC_PUSH(p->modules, m);
	k.module = (uint32_t)p->modules.n - 1;
	BT_VEC_PUSH(j->codes, k);
	bt_hash_add(&j->code_index, &pos, (uint32_t)j->codes.n - 1);
	bt_jitset_src(j->set, c->src)->sampled++;
	return (uint32_t)(p->modules.n - 1);
}

bool
bt_pjit_resolve(struct bt_profile *p, uint32_t pid, uint64_t ip, uint64_t time,
		bool anon, uint32_t *module, uint64_t *off)
{
	struct bt_jit_code c;
	struct bt_pjit *j = p->jit;
	size_t i;

	if (j == NULL || j->set == NULL)
		return false;
	if (!bt_jitset_find(j->set, pid, ip, time, &c)) {
		if (!anon || j->finished)
			return false;
		j->uncovered++;
		for (i = 0; i < j->uncovered_pids.n; i++)
			if (j->uncovered_pids.v[i] == pid)
				return false;
		if (j->uncovered_pids.n < 16)
			BT_VEC_PUSH(j->uncovered_pids, pid);
		return false;
	}
	*module = code_module(p, &c);
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

void
bt_pjit_finish(struct bt_profile *p)
{
	struct bt_pjit *j = p->jit;
	BT_VEC(struct bt_module *) v = { 0 };
	size_t i, k;

	if (j == NULL || j->set == NULL)
		return;
	j->finished = true;
	/* versions of one name (recompiled at the same tier): told apart by load time */
	for (i = 0; i < p->modules.n; i++)
		if (p->modules.v[i].kind == BT_MOD_JIT)
			BT_VEC_PUSH(v, &p->modules.v[i]);
	if (v.n > 1)
		bt_qsort(v.v, v.n, sizeof(*v.v), mod_name_cmp);
	for (i = 0; i < v.n; i = k) {
		for (k = i + 1; k < v.n && strcmp(v.v[k]->jit_name, v.v[i]->jit_name) == 0; k++)
			;
		if (k - i > 1) {
			size_t m;
			for (m = i; m < k; m++) {
				const struct bt_jit_code *c = v.v[m]->jit;
				char *n;
				if (c->time && p->first_time && c->time >= p->first_time)
					n = bt_xasprintf("%s (loaded at %.3f s)", v.v[m]->jit_name,
					    (double)(c->time - p->first_time) / 1e9);
				else if (c->time && p->first_time)
					n = bt_xasprintf("%s (loaded %.3f s before the first sample)",
					    v.v[m]->jit_name,
					    (double)(p->first_time - c->time) / 1e9);
				else
					n = bt_xasprintf("%s (version %zu at 0x%llx)",
					    v.v[m]->jit_name, m - i + 1,
					    (unsigned long long)c->start);
				free(v.v[m]->jit_name);
				v.v[m]->jit_name = n;
			}
		}
	}
	BT_VEC_FREE(v);
	for (i = 0; i < bt_jitset_nsrcs(j->set); i++) {
		const struct bt_jit_src *s = bt_jitset_src(j->set, i);
		BT_VEC_PUSH(p->notes, bt_xasprintf("JIT code of process %u (%s): "
		    "%zu %s in '%s', %zu with samples%s", s->pid, s->runtime,
		    s->entries, s->kind == BT_JIT_SRC_DUMP ? "loads" : "entries",
		    s->path, s->sampled, s->kind == BT_JIT_SRC_MAP ?
		    " (names only: no code to annotate)" : ""));
	}
	if (j->uncovered) {
		struct bt_strbuf sb = BT_STRBUF_INIT;
		for (i = 0; i < j->uncovered_pids.n; i++)
			bt_strbuf_addf(&sb, "%s%u", i ? ", " : "", j->uncovered_pids.v[i]);
		BT_VEC_PUSH(p->notes, bt_xasprintf("%llu samples in anonymous "
		    "memory of process %s that no jitdump or perf map covers",
		    (unsigned long long)j->uncovered, sb.buf));
		bt_strbuf_release(&sb);
	}
}

uint64_t
bt_pjit_uncovered(const struct bt_profile *p)
{
	return p->jit ? p->jit->uncovered : 0;
}

void
bt_pjit_free(struct bt_pjit *j)
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
	free(j);
}
