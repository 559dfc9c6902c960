/*
 * The pprof export (docs/formats.md "pprof"): the selection's samples as
 * a gzip-compressed profile.proto, the format go tool pprof, Pyroscope,
 * Parca and the OpenTelemetry profiles signal read. One Location per
 * address (the leaf's exact), its inline chain as Line[] innermost first,
 * Functions and Mappings filled in so that no binary is needed to read
 * it; samples labelled with their thread and benchmark.
 *
 * The encoder is hand-written, as pprof's own Go package's is: the
 * format is five message types of varints and length-delimited fields,
 * and a generated encoder (protobuf-c) would keep the whole profile as
 * C structs before packing it, and add a dependency.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base.h"
#include "benchtui/bench.h"
#include "benchtui/export.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "export/export-int.h"

/* A growing byte buffer. */
struct pb {
	unsigned char *v;
	size_t n, alloc;
};

static void
pb_grow(struct pb *b, size_t more)
{
	if (b->n + more <= b->alloc)
		return;
	b->alloc = b->alloc ? b->alloc : 4096;
	while (b->n + more > b->alloc)
		b->alloc *= 2;
	b->v = bt_xrealloc(b->v, b->alloc);
}

static void
pb_varint(struct pb *b, uint64_t x)
{
	pb_grow(b, 10);
	while (x >= 0x80) {
		b->v[b->n++] = (unsigned char)(x | 0x80);
		x >>= 7;
	}
	b->v[b->n++] = (unsigned char)x;
}

/* Field f as a varint (wire type 0); 0 is the default and left out. */
static void
pb_u64(struct pb *b, unsigned f, uint64_t x)
{
	if (x == 0)
		return;
	pb_varint(b, (uint64_t)f << 3);
	pb_varint(b, x);
}

static void
pb_bytes(struct pb *b, unsigned f, const void *p, size_t n)
{
	pb_varint(b, (uint64_t)f << 3 | 2);
	pb_varint(b, n);
	pb_grow(b, n);
	if (n > 0)
		memcpy(b->v + b->n, p, n);
	b->n += n;
}

/* Sub-message sub as field f of b; sub is emptied. */
static void
pb_msg(struct pb *b, unsigned f, struct pb *sub)
{
	pb_bytes(b, f, sub->v, sub->n);
	sub->n = 0;
}

/* Packed repeated varints. */
static void
pb_packed(struct pb *b, struct pb *tmp, unsigned f, const uint64_t *x, size_t n)
{
	size_t i;

	tmp->n = 0;
	for (i = 0; i < n; i++)
		pb_varint(tmp, x[i]);
	pb_msg(b, f, tmp);
}

/* The string table: each string once, "" at 0. */
struct strtab {
	const char **v;
	size_t n, alloc;
	size_t *slot;		/* open addressing: index + 1, 0 empty */
	size_t mask;
	char **own;		/* strings made here */
	size_t nown;
};

static uint64_t
str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static void strtab_put(struct strtab *t, const char *s, size_t idx);

static void
strtab_rehash(struct strtab *t)
{
	size_t i;

	free(t->slot);
	t->mask = t->mask ? 2 * t->mask + 1 : 1023;
	t->slot = bt_xcalloc(t->mask + 1, sizeof(*t->slot));
	for (i = 0; i < t->n; i++)
		strtab_put(t, t->v[i], i);
}

static void
strtab_put(struct strtab *t, const char *s, size_t idx)
{
	size_t i = str_hash(s) & t->mask;

	while (t->slot[i] != 0)
		i = (i + 1) & t->mask;
	t->slot[i] = idx + 1;
}

static uint64_t
str_id(struct strtab *t, const char *s)
{
	size_t i;

	if (s == NULL)
		s = "";
	if (t->slot == NULL)
		strtab_rehash(t);
	for (i = str_hash(s) & t->mask; t->slot[i] != 0; i = (i + 1) & t->mask)
		if (strcmp(t->v[t->slot[i] - 1], s) == 0)
			return t->slot[i] - 1;
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 256;
		t->v = bt_xrealloc(t->v, t->alloc * sizeof(*t->v));
	}
	t->v[t->n] = s;
	t->slot[i] = ++t->n;
	if (2 * t->n > t->mask)
		strtab_rehash(t);
	return t->n - 1;
}

/* A string made here, kept until the table is freed. */
static uint64_t
str_own(struct strtab *t, char *s)
{
	t->own = bt_xrealloc(t->own, (t->nown + 1) * sizeof(*t->own));
	t->own[t->nown++] = s;
	return str_id(t, s);
}

static char *
dup_prefixed(const char *prefix, const char *s)
{
	char *r = bt_xmalloc(strlen(prefix) + strlen(s) + 1);
	strcpy(r, prefix);
	strcat(r, s);
	return r;
}

/* Functions: one per (name, system name, file, start line). */
struct functab {
	uint64_t (*v)[4];
	size_t n, alloc;
	size_t *slot;
	size_t mask;
};

static uint64_t
fn_hash(const uint64_t k[4])
{
	return (k[0] * 0x9e3779b97f4a7c15ull) ^ (k[1] * 0xc2b2ae3d27d4eb4full) ^
	    (k[2] * 0x165667b19e3779f9ull) ^ k[3];
}

static uint64_t
fn_id(struct functab *t, const uint64_t k[4])
{
	size_t i, j;

	if (t->slot == NULL || 2 * (t->n + 1) > t->mask) {
		free(t->slot);
		t->mask = t->mask ? 2 * t->mask + 1 : 1023;
		t->slot = bt_xcalloc(t->mask + 1, sizeof(*t->slot));
		for (j = 0; j < t->n; j++) {
			for (i = fn_hash(t->v[j]) & t->mask; t->slot[i]; i = (i + 1) & t->mask)
				;
			t->slot[i] = j + 1;
		}
	}
	for (i = fn_hash(k) & t->mask; t->slot[i] != 0; i = (i + 1) & t->mask)
		if (memcmp(t->v[t->slot[i] - 1], k, sizeof(t->v[0])) == 0)
			return t->slot[i];
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 256;
		t->v = bt_xrealloc(t->v, t->alloc * sizeof(*t->v));
	}
	memcpy(t->v[t->n], k, sizeof(t->v[0]));
	t->slot[i] = ++t->n;
	return t->n;	/* ids from 1 */
}

/* The event's unit: its period is time for the software clocks. */
static const char *
event_unit(const char *event)
{
	size_t n = strcspn(event, ":");

	if ((n == 9 && strncmp(event, "cpu-clock", 9) == 0) ||
	    (n == 10 && strncmp(event, "task-clock", 10) == 0))
		return "nanoseconds";
	return "count";
}

static void
value_type(struct pb *b, struct pb *tmp, unsigned f, struct strtab *st,
	   const char *type, const char *unit)
{
	tmp->n = 0;
	pb_u64(tmp, 1, str_id(st, type));
	pb_u64(tmp, 2, str_id(st, unit));
	pb_msg(b, f, tmp);
}

static void
label_str(struct pb *b, struct pb *tmp, struct strtab *st, const char *k, const char *v)
{
	tmp->n = 0;
	pb_u64(tmp, 1, str_id(st, k));
	pb_u64(tmp, 2, str_id(st, v));
	pb_msg(b, 3, tmp);
}

static void
label_num(struct pb *b, struct pb *tmp, struct strtab *st, const char *k, uint64_t v)
{
	tmp->n = 0;
	pb_u64(tmp, 1, str_id(st, k));
	pb_varint(tmp, 3 << 3);	/* num: 0 is a value here */
	pb_varint(tmp, v);
	pb_msg(b, 3, tmp);
}

/* The samples: their chain, values and labels. */
static void
put_samples(struct pb *out, struct strtab *st, const struct bt_sample_set *set,
	    struct bt_selection *sel, uint64_t loc0, const char *side)
{
	struct pb msg = { 0 }, tmp = { 0 };
	uint64_t *ids = NULL, vals[3] = { 0 };
	size_t i, k, cap = 0;

	for (i = 0; i < set->ngroups; i++) {
		const struct bt_sample_group *g = &set->groups[i];
		if (g->nlocs > cap) {
			cap = g->nlocs;
			ids = bt_xrealloc(ids, cap * sizeof(*ids));
		}
		for (k = 0; k < g->nlocs; k++)
			ids[k] = loc0 + (uint64_t)g->locs[k] + 1;
		pb_packed(&msg, &tmp, 1, ids, g->nlocs);
		vals[0] = g->samples;
		vals[1] = g->period;
		pb_packed(&msg, &tmp, 2, vals, 3);
		if (g->bench >= 0) {
			label_str(&msg, &tmp, st, "bench.name",
			    bt_selection_bench(sel, (size_t)g->bench)->name);
			label_str(&msg, &tmp, st, "bench.phase",
			    g->untimed ? "untimed" : "measured");
		}
		if (g->rep >= 0)	/* from 1: Go's decoder drops a 0 without a unit */
			label_num(&msg, &tmp, st, "bench.rep", (uint64_t)g->rep + 1);
		if (side != NULL)
			label_str(&msg, &tmp, st, "side", side);
		label_num(&msg, &tmp, st, "pid", g->pid);
		label_num(&msg, &tmp, st, "tid", g->tid);
		pb_msg(out, 2, &msg);
	}
	free(ids);
	free(msg.v);
	free(tmp.v);
}

/*
 * The skid-adjusted weights (DESIGN.md §4) of functions idx[0..n), as
 * samples of their own: one per instruction the adjustment credits, its
 * location alone (the weights are the selection's, per instruction: they
 * have no chain or thread), the adjusted samples times the selection's
 * mean period in the third value, 0 in the others. The samples keep
 * their addresses: the adjustment never moves them.
 */
static void
put_adjusted(struct pb *out, struct bt_sample_set *set, struct bt_selection *sel,
	     const struct bt_export_opts *o, const size_t *idx, size_t n)
{
	struct pb msg = { 0 }, tmp = { 0 };
	uint64_t samples = bt_selection_samples(sel), loc, vals[3] = { 0 };
	double mean = samples ? (double)bt_selection_period(sel) / (double)samples : 0;
	size_t i, r;

	for (i = 0; i < n; i++) {
		uint32_t mod = bt_selection_func(sel, idx[i])->mod;
		/* read once, in order: its rows made a window at a time */
		struct bt_view *v = bt_view_annotate_stream(sel, idx[i], &o->view, NULL);
		for (r = 0; v != NULL && r < bt_view_nrows(v); r++) {
			const struct bt_row *row = bt_view_row(v, r);
			if (row->kind != BT_ROW_INSN || !(row->adjusted * mean >= 0.5))
				continue;
			loc = (uint64_t)bt_sample_set_loc(sel, set, mod, row->addr) + 1;
			pb_packed(&msg, &tmp, 1, &loc, 1);
			vals[2] = (uint64_t)(row->adjusted * mean + 0.5);
			pb_packed(&msg, &tmp, 2, vals, 3);
			pb_msg(out, 2, &msg);
		}
		bt_view_free(v);
		if (o->all)
			bt_selection_forget(sel, idx[i]);
	}
	free(msg.v);
	free(tmp.v);
}

/* Mappings, Locations with their Lines, then Functions. */
/*
 * Mappings and Locations of set, their ids from mod0 + 1 and loc0 + 1,
 * their Functions in ft.
 */
static void
put_code_of(struct pb *out, struct strtab *st, const struct bt_sample_set *set,
	    struct functab *ft, uint64_t mod0, uint64_t loc0)
{
	struct pb msg = { 0 }, tmp = { 0 };
	size_t i, k;

	for (i = 0; i < set->nmods; i++) {
		const struct bt_sample_mod *m = &set->mods[i];
		pb_u64(&msg, 1, mod0 + i + 1);
		pb_u64(&msg, 2, m->lo);
		pb_u64(&msg, 3, m->hi);
		pb_u64(&msg, 4, m->off);
		pb_u64(&msg, 5, str_id(st, m->path));
		pb_u64(&msg, 6, str_id(st, m->build_id));
		pb_u64(&msg, 7, m->has_functions);
		pb_u64(&msg, 8, m->has_lines);
		pb_u64(&msg, 9, m->has_lines);
		pb_u64(&msg, 10, m->has_inlines);
		pb_msg(out, 3, &msg);
	}
	for (i = 0; i < set->nlocs; i++) {
		const struct bt_sample_loc *l = &set->locs[i];
		pb_u64(&msg, 1, loc0 + i + 1);
		pb_u64(&msg, 2, mod0 + (uint64_t)l->mod + 1);
		pb_u64(&msg, 3, l->addr);
		for (k = 0; k < l->nlines; k++) {
			const struct bt_sample_line *ln = &l->inl[k];
			uint64_t key[4];
			key[0] = str_id(st, ln->func);
			key[1] = str_id(st, ln->system_name);
			key[2] = str_id(st, ln->func_file);
			key[3] = ln->func_line;
			tmp.n = 0;
			pb_u64(&tmp, 1, fn_id(ft, key));
			pb_u64(&tmp, 2, ln->line);
			pb_u64(&tmp, 3, ln->column);
			pb_msg(&msg, 4, &tmp);
		}
		pb_msg(out, 4, &msg);
	}
	free(msg.v);
	free(tmp.v);
}

/* The Functions of ft. */
static void
put_functions(struct pb *out, struct functab *ft)
{
	struct pb msg = { 0 };
	size_t i;

	for (i = 0; i < ft->n; i++) {
		pb_u64(&msg, 1, i + 1);
		pb_u64(&msg, 2, ft->v[i][0]);
		pb_u64(&msg, 3, ft->v[i][1]);
		pb_u64(&msg, 4, ft->v[i][2]);
		pb_u64(&msg, 5, ft->v[i][3]);
		pb_msg(out, 5, &msg);
	}
	free(ft->v);
	free(ft->slot);
	free(msg.v);
}

/* Mappings, Locations with their Lines, then Functions. */
static void
put_code(struct pb *out, struct strtab *st, const struct bt_sample_set *set)
{
	struct functab ft = { 0 };

	put_code_of(out, st, set, &ft, 0, 0);
	put_functions(out, &ft);
}

/* The header: sample types, comments, period, time. */
static void
put_header(struct pb *out, struct strtab *st, struct bt_selection *sel)
{
	const struct bt_profile_info *pi = bt_session_info(bt_selection_session(sel));
	const char *event = bt_selection_event(sel), *unit = event_unit(event);
	struct pb tmp = { 0 };
	size_t n = bt_selection_nbenches(sel);

	char *adj = dup_prefixed(event, "-skid-adjusted");

	str_own(st, adj);
	value_type(out, &tmp, 1, st, "samples", "count");
	value_type(out, &tmp, 1, st, event, unit);
	value_type(out, &tmp, 1, st, adj, unit);
	pb_u64(out, 10, pi->duration > 0 ? (uint64_t)(pi->duration * 1e9) : 0);
	value_type(out, &tmp, 11, st, event, unit);
	if (pi->frequency > 0 && strcmp(unit, "nanoseconds") == 0)
		pb_u64(out, 12, 1000000000u / pi->frequency);
	pb_u64(out, 13, str_own(st, dup_prefixed("event: ", event)));
	if (pi->command != NULL)
		pb_u64(out, 13, str_own(st, dup_prefixed("command: ", pi->command)));
	if (n > 0)
		pb_u64(out, 13, str_own(st, dup_prefixed("harness: ",
		    bt_selection_bench(sel, 0)->harness)));
	pb_u64(out, 14, str_id(st, event));
	free(tmp.v);
}

static int
gzip_write(FILE *f, const struct pb *b, struct bt_error *err)
{
	unsigned char chunk[1 << 16];
	z_stream z;
	int ret;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return bt_error_set(err, BT_EIO, "cannot compress the profile");
	z.next_in = b->v;
	z.avail_in = (uInt)b->n;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		ret = deflate(&z, Z_FINISH);
		if (ret == Z_STREAM_ERROR ||
		    fwrite(chunk, 1, sizeof(chunk) - z.avail_out, f) !=
		    sizeof(chunk) - z.avail_out) {
			deflateEnd(&z);
			return bt_error_errno(err, BT_EIO, errno, "cannot write the export");
		}
	} while (ret != Z_STREAM_END);
	deflateEnd(&z);
	return 0;
}

static void
strtab_release(struct strtab *st)
{
	size_t i;

	for (i = 0; i < st->nown; i++)
		free(st->own[i]);
	free(st->own);
	free(st->v);
	free(st->slot);
}

static const char *
cmd_of(struct bt_selection *sel)
{
	const char *c = bt_session_info(bt_selection_session(sel))->command;

	return c != NULL ? c : "";
}

/*
 * Both sides of a diff: b's header (sample types, comments), then a's
 * samples labelled side "a", b's labelled "b", each side's Mappings and
 * Locations numbered after the other's (a's first), the Functions shared.
 * No skid-adjusted weights: the third value is 0.
 */
int
bt_export_pprof_sides(FILE *out, struct bt_selection *a, struct bt_selection *b,
		      struct bt_error *err)
{
	struct bt_sample_set sa, sb;
	struct strtab st = { 0 };
	struct functab ft = { 0 };
	struct pb body = { 0 };
	size_t i;
	int ret;

	if ((ret = bt_selection_sample_set(a, true, &sa, err)) < 0)
		return ret;
	if ((ret = bt_selection_sample_set(b, true, &sb, err)) < 0) {
		bt_sample_set_release(&sa);
		return ret;
	}
	str_id(&st, "");
	put_header(&body, &st, b);
	pb_u64(&body, 13, str_own(&st, dup_prefixed("side a: ", cmd_of(a))));
	pb_u64(&body, 13, str_own(&st, dup_prefixed("side b: ", cmd_of(b))));
	put_samples(&body, &st, &sa, a, 0, "a");
	put_samples(&body, &st, &sb, b, sa.nlocs, "b");
	put_code_of(&body, &st, &sa, &ft, 0, 0);
	put_code_of(&body, &st, &sb, &ft, sa.nmods, sa.nlocs);
	put_functions(&body, &ft);
	for (i = 0; i < st.n; i++)
		pb_bytes(&body, 6, st.v[i], strlen(st.v[i]));
	if (body.n > UINT32_MAX)
		ret = bt_error_set(err, BT_EIO, "the profile is too big (%zu bytes)", body.n);
	else
		ret = gzip_write(out, &body, err);
	bt_sample_set_release(&sa);
	bt_sample_set_release(&sb);
	strtab_release(&st);
	free(body.v);
	return ret;
}

int
bt_export_pprof(FILE *out, struct bt_selection *sel, const struct bt_export_opts *o,
		const size_t *idx, size_t n, struct bt_error *err)
{
	struct bt_sample_set set;
	struct strtab st = { 0 };
	struct pb body = { 0 };
	size_t i;
	int ret;

	if ((ret = bt_selection_sample_set(sel, true, &set, err)) < 0)
		return ret;
	str_id(&st, "");
	put_header(&body, &st, sel);
	put_samples(&body, &st, &set, sel, 0, NULL);
	put_adjusted(&body, &set, sel, o, idx, n);
	put_code(&body, &st, &set);
	for (i = 0; i < st.n; i++)
		pb_bytes(&body, 6, st.v[i], strlen(st.v[i]));
	if (body.n > UINT32_MAX)	/* zlib's avail_in */
		ret = bt_error_set(err, BT_EIO, "the profile is too big (%zu bytes)", body.n);
	else
		ret = gzip_write(out, &body, err);
	bt_sample_set_release(&set);
	for (i = 0; i < st.nown; i++)
		free(st.own[i]);
	free(st.own);
	free(st.v);
	free(st.slot);
	free(body.v);
	return ret;
}
