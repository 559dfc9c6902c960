/*
 * Materialize view rows (STYLE.md §2.3): the model computes every number,
 * width and string; the browser and the exports only walk the rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "annotate/annotate-int.h"
#include "annotate/session-int.h"
#include "benchtui/view.h"

#define HOT_MIN_PERCENT 0.5	/* BT_ROW_F_HOT and the mild heat colour */
#define WCI 7			/* the "±0.81" column, UTF-8 counted as one column */

enum view_kind { VIEW_HEADER, VIEW_FUNCS, VIEW_ANNOTATE, VIEW_SOURCE };

struct bt_view {
	enum view_kind kind;
	struct bt_session *s;
	size_t func;
	BT_VEC(struct bt_row) rows;
	BT_VEC(struct bt_cell) cells;	/* rows point here once built */
	BT_VEC(size_t) cell_start;	/* per row: first cell */
	struct bt_row columns;
	struct bt_cell colcells[16];
	BT_VEC(size_t) hot;
	BT_VEC(const char *) notes;
	const char *title;
	struct bt_strpool pool;
	const char *blanks[64];		/* shared all-space cells, by width */
};

void
bt_view_opts_init(struct bt_view_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->num = BT_NUM_PERCENT;
	o->source = true;
	o->addresses = true;
}

void
bt_wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
	const double z = 1.959964;
	double p, d, c, h;

	if (n == 0) {
		*lo = *hi = 0;
		return;
	}
	if (k == 0) {	/* the common case in a big function: no sqrt needed */
		*lo = 0;
		*hi = 100 * z * z / ((double)n + z * z);
		return;
	}
	p = (double)k / (double)n;
	d = 1 + z * z / (double)n;
	c = (p + z * z / (2.0 * (double)n)) / d;
	h = z * sqrt(p * (1 - p) / (double)n + z * z / (4.0 * (double)n * (double)n)) / d;
	*lo = 100 * BT_MAX(0.0, c - h);
	*hi = 100 * BT_MIN(1.0, c + h);
}

static struct bt_view *
view_new(struct bt_session *s, enum view_kind kind)
{
	struct bt_view *v = bt_xcalloc(1, sizeof(*v));

	v->kind = kind;
	v->s = s;
	bt_strpool_init(&v->pool);
	return v;
}

static struct bt_row *
add_row(struct bt_view *v, enum bt_row_kind kind)
{
	struct bt_row r;

	memset(&r, 0, sizeof(r));
	r.kind = kind;
	r.target_row = -1;
	r.region = -1;
	BT_VEC_PUSH(v->rows, r);
	BT_VEC_PUSH(v->cell_start, v->cells.n);
	return &v->rows.v[v->rows.n - 1];
}

static void
add_cell(struct bt_view *v, const char *text, enum bt_style style)
{
	struct bt_cell c = { text, style };

	BT_VEC_PUSH(v->cells, c);
}

/* Point every row at its cells; call once when all rows are in. */
static void
seal(struct bt_view *v)
{
	size_t i;

	for (i = 0; i < v->rows.n; i++) {
		size_t lo = v->cell_start.v[i];
		size_t hi = i + 1 < v->rows.n ? v->cell_start.v[i + 1] : v->cells.n;
		v->rows.v[i].cells = v->cells.v + lo;
		v->rows.v[i].ncells = hi - lo;
	}
}

/* Columns a UTF-8 string takes (one per character). */
static size_t
ncols(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* s padded with spaces to width columns, on the left (right-aligned) or right. */
static const char *
pad(struct bt_view *v, const char *s, size_t width, bool right)
{
	size_t n, cols, fill;
	char *buf;

	if (s[0] == '\0' && width < BT_ARRAY_SIZE(v->blanks)) {
		/* most cells of a big function are empty: share them */
		if (v->blanks[width] == NULL) {
			buf = bt_strpool_alloc(&v->pool, width);
			memset(buf, ' ', width);
			buf[width] = '\0';
			v->blanks[width] = buf;
		}
		return v->blanks[width];
	}
	n = strlen(s);
	cols = ncols(s);

	if (cols >= width)
		return bt_strpool_add(&v->pool, s, n);
	fill = width - cols;
	buf = bt_strpool_alloc(&v->pool, n + fill);
	if (right) {
		memset(buf, ' ', fill);
		memcpy(buf + fill, s, n);
	} else {
		memcpy(buf, s, n);
		memset(buf + n, ' ', fill);
	}
	buf[n + fill] = '\0';
	return buf;
}

/* a then b, in the pool (no printf: this runs for every row). */
static const char *
cat(struct bt_view *v, const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *buf = bt_strpool_alloc(&v->pool, na + nb);

	memcpy(buf, a, na);
	memcpy(buf + na, b, nb + 1);
	return buf;
}

/* "file.c:42" */
static const char *
file_line(struct bt_view *v, const char *file, unsigned line)
{
	char num[16];
	int n = 0;
	size_t nf = strlen(file);
	char *buf;

	do {
		num[n++] = (char)('0' + line % 10);
		line /= 10;
	} while (line);
	buf = bt_strpool_alloc(&v->pool, nf + 1 + (size_t)n);
	memcpy(buf, file, nf);
	buf[nf] = ':';
	for (int i = 0; i < n; i++)
		buf[nf + 1 + i] = num[n - 1 - i];
	buf[nf + 1 + n] = '\0';
	return buf;
}

/* "1a2b:" */
static const char *
hex_colon(struct bt_view *v, uint64_t x)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[x & 15];
		x >>= 4;
	} while (x);
	char *buf = bt_strpool_alloc(&v->pool, (size_t)n + 1);
	for (int i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = ':';
	buf[n + 1] = '\0';
	return buf;
}

/*
 * Too few samples to tell the number from noise: the 95% interval's low
 * end is under a third of the estimate (1 or 2 samples in a normal run).
 * Such numbers are dimmed instead of coloured hot.
 */
static bool
few_samples(const struct bt_row *r)
{
	return r->samples > 0 && r->ci_lo < r->percent / 3;
}

static enum bt_style
heat(double percent, bool any)
{
	if (!any)
		return BT_STYLE_DIM;
	if (percent >= 10)
		return BT_STYLE_HOT;
	if (percent >= 2)
		return BT_STYLE_WARM;
	if (percent >= HOT_MIN_PERCENT)
		return BT_STYLE_MILD;
	return BT_STYLE_NORMAL;
}

static void
set_columns(struct bt_view *v, const char *const *heads, const size_t *widths,
	    const bool *right, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < BT_ARRAY_SIZE(v->colcells); i++) {
		v->colcells[i].text = pad(v, heads[i], widths[i], right[i]);
		v->colcells[i].style = BT_STYLE_TITLE;
	}
	v->columns.kind = BT_ROW_TEXT;
	v->columns.cells = v->colcells;
	v->columns.ncells = i;
}

struct hot_key {
	double w;
	size_t row;
};

static int
hot_cmp(const void *a, const void *b)
{
	const struct hot_key *x = a, *y = b;

	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return x->row < y->row ? -1 : 1;
}

/* Rows with weight, hottest first (sorted as flat keys: a big function has thousands). */
static void
build_hot(struct bt_view *v)
{
	struct hot_key *k = bt_xmalloc((v->rows.n + 1) * sizeof(*k));
	size_t i, n = 0;

	for (i = 0; i < v->rows.n; i++)
		if (v->rows.v[i].weight > 0) {
			k[n].w = v->rows.v[i].weight;
			k[n++].row = i;
		}
	bt_qsort(k, n, sizeof(*k), hot_cmp);
	BT_ALLOC_GROW(v->hot.v, n, v->hot.alloc);
	for (i = 0; i < n; i++)
		v->hot.v[i] = k[i].row;
	v->hot.n = n;
	free(k);
}

/* Header. */

static void
text_row(struct bt_view *v, enum bt_style style, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
text_row(struct bt_view *v, enum bt_style style, const char *fmt, ...)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct bt_row *r;
	va_list ap;

	va_start(ap, fmt);
	bt_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	r = add_row(v, BT_ROW_TEXT);
	r->text = bt_strpool_add(&v->pool, sb.buf, sb.len);
	add_cell(v, r->text, style);
	bt_strbuf_release(&sb);
}

/* "exit 3", "killed by SIGSEGV" */
static const char *
status_text(struct bt_view *v, const struct bt_profile_info *in)
{
	if (!in->has_status)
		return "unknown";
	if (WIFEXITED(in->wait_status))
		return bt_strpool_addf(&v->pool, "exit %d", WEXITSTATUS(in->wait_status));
	if (WIFSIGNALED(in->wait_status))
		return bt_strpool_addf(&v->pool, "killed by signal %d (%s)%s",
		    WTERMSIG(in->wait_status), strsignal(WTERMSIG(in->wait_status)),
		    in->interrupted ? ", interrupted" : "");
	return "unknown";
}

struct bt_view *
bt_view_header(struct bt_session *s)
{
	struct bt_view *v = view_new(s, VIEW_HEADER);
	const struct bt_profile_info *in = bt_session_info(s);
	double from, to;
	size_t i;

	text_row(v, BT_STYLE_NORMAL, "command: %s", in->command);
	if (in->frequency)
		text_row(v, BT_STYLE_NORMAL, "event: %s, %u Hz%s%s",
		    bt_session_event(s), in->frequency,
		    in->event_note && in->event_note[0] ? " (" : "",
		    in->event_note && in->event_note[0] ?
		    bt_strpool_addf(&v->pool, "%s)", in->event_note) : "");
	else
		text_row(v, BT_STYLE_NORMAL, "event: %s", bt_session_event(s));
	text_row(v, in->lost ? BT_STYLE_WARN : BT_STYLE_NORMAL,
	    "samples: %llu, lost: %llu%s",
	    (unsigned long long)bt_session_samples(s),
	    (unsigned long long)in->lost,
	    in->throttled ? bt_strpool_addf(&v->pool, ", throttled: %llu",
		(unsigned long long)in->throttled) : "");
	bt_session_window(s, &from, &to);
	if (s->o.time_from >= 0 || s->o.time_to >= 0)
		text_row(v, BT_STYLE_NORMAL, "duration: %.3f s, window %.3f-%.3f s",
		    in->duration, from, to);
	else
		text_row(v, BT_STYLE_NORMAL, "duration: %.3f s", in->duration);
	text_row(v, in->has_status && in->wait_status ? BT_STYLE_WARN :
	    BT_STYLE_NORMAL, "status: %s", status_text(v, in));
	for (i = 0; i < bt_session_nnotes(s); i++)
		text_row(v, BT_STYLE_WARN, "note: %s", bt_session_note(s, i));
	seal(v);
	v->title = "header";
	return v;
}

/* Lint findings. */

struct bt_view *
bt_view_findings(struct bt_session *s)
{
	struct bt_view *v = view_new(s, VIEW_HEADER);
	const struct bt_finding *f;
	size_t n = bt_session_findings(s, &f), i;

	for (i = 0; i < n; i++) {
		struct bt_row *r = add_row(v, BT_ROW_FINDING);
		r->func = f[i].func >= 0 ? (size_t)f[i].func : (size_t)-1;
		r->percent = f[i].percent;
		r->text = f[i].message;
		add_cell(v, pad(v, f[i].check, 18, false), BT_STYLE_WARN);
		add_cell(v, pad(v, f[i].function ? f[i].function : "(run)", 20, false),
		    BT_STYLE_NORMAL);
		add_cell(v, bt_strpool_addf(&v->pool, "%6.1f%%  ", f[i].percent),
		    BT_STYLE_HOT);
		add_cell(v, f[i].message, BT_STYLE_NORMAL);
	}
	seal(v);
	v->title = n ? bt_strpool_addf(&v->pool, "lint: %zu finding%s", n,
	    n == 1 ? "" : "s") : "lint: no findings";
	return v;
}

/* Timeline. */

struct bt_view *
bt_view_timeline(struct bt_session *s, long func, size_t nbins, long mark_from,
		 long mark_to)
{
	struct bt_view *v = view_new(s, VIEW_HEADER);
	struct bt_profile *p = s->p;
	uint64_t *all, *mine, maxn = 1;
	double span = p->last_time > p->first_time ?
	    (double)(p->last_time - p->first_time) : 1;
	const struct bt_func *f = func >= 0 ? bt_session_func(s, (size_t)func) : NULL;
	uint32_t fmod = f ? bt_session_func_module(s, (size_t)func) : 0;
	struct bt_msyms *m = f ? bt_session_syms(s, fmod) : NULL;
	size_t i, b;

	if (nbins == 0)
		nbins = 1;
	bt_profile_samples(p, NULL);	/* on failure: an empty timeline */
	all = bt_xcalloc(nbins, sizeof(*all));
	mine = bt_xcalloc(nbins, sizeof(*mine));
	for (i = 0; i < p->samples.n; i++) {
		const struct bt_sample *smp = &p->samples.v[i];
		uint64_t addr = smp->off;

		if (smp->attr != s->attr)
			continue;
		b = (size_t)((double)(smp->time - p->first_time) / span * (double)nbins);
		if (b >= nbins)
			b = nbins - 1;
		all[b]++;
		if (f != NULL && smp->module == fmod) {
			if (m != NULL && bt_msyms_off_to_addr(m, smp->off, &addr) < 0)
				continue;
			if (addr >= f->start && addr < f->end)
				mine[b]++;
		}
	}
	for (b = 0; b < nbins; b++)
		maxn = BT_MAX(maxn, all[b]);
	for (b = 0; b < nbins; b++) {
		struct bt_row *r = add_row(v, BT_ROW_SLICE);
		char bar[41];
		size_t w = (size_t)((double)all[b] / (double)maxn * 40 + 0.5);
		bool marked = mark_from >= 0 && (long)b >= mark_from &&
		    (mark_to < 0 ? (long)b == mark_from : (long)b <= mark_to);

		r->func = f ? (size_t)func : (size_t)-1;
		r->samples = all[b];
		r->t_from = span / 1e9 * (double)b / (double)nbins;
		r->t_to = span / 1e9 * (double)(b + 1) / (double)nbins;
		r->percent = all[b] ? 100.0 * (double)mine[b] / (double)all[b] : 0;
		r->weight = (double)all[b];
		memset(bar, '#', w);
		bar[w] = '\0';
		add_cell(v, marked ? ">" : " ", BT_STYLE_WARN);
		add_cell(v, bt_strpool_addf(&v->pool, "%8.3f-%-8.3f", r->t_from, r->t_to),
		    BT_STYLE_ADDR);
		add_cell(v, bt_strpool_addf(&v->pool, "%8llu  ", (unsigned long long)all[b]),
		    BT_STYLE_NORMAL);
		add_cell(v, pad(v, bar, 41, false), marked ? BT_STYLE_WARN : BT_STYLE_MILD);
		if (f != NULL)
			add_cell(v, all[b] ? bt_strpool_addf(&v->pool, "%6.1f%%", r->percent) :
			    "", heat(r->percent, mine[b] > 0));
	}
	{
		const char *h[5] = { " ", "Seconds", "Samples", "  ", f ? "  Share" : "" };
		size_t w[5] = { 1, 17, 10, 41, 0 };
		bool right[5] = { false, false, true, false, false };
		set_columns(v, h, w, right, f ? 5 : 4);
	}
	free(all);
	free(mine);
	seal(v);
	v->title = f ? bt_strpool_addf(&v->pool, "timeline of %s: %zu slices of %.3f s",
	    f->name, nbins, span / 1e9 / (double)nbins) :
	    bt_strpool_addf(&v->pool, "timeline: %zu slices of %.3f s", nbins,
	    span / 1e9 / (double)nbins);
	return v;
}

/* Hot functions. */

static const char *
basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

struct bt_view *
bt_view_functions(struct bt_session *s, const struct bt_view_opts *o, size_t max)
{
	static const char *const heads[] = { "Percent", "Samples", "Period",
		"Module", "Symbol", "Source" };
	struct bt_view *v = view_new(s, VIEW_FUNCS);
	size_t n = bt_session_nfuncs(s), i, c;
	size_t w[6] = { 7, 7, 6, 6, 6, 6 };
	const char *txt[6];
	struct bt_view_opts def;

	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	/* the functions shown: filtered, then cut at max */
	size_t *idx = bt_xcalloc(n + 1, sizeof(size_t)), k = 0;
	for (i = 0; i < n && (max == 0 || k < max); i++)
		if (o->filter == NULL || o->filter[0] == '\0' ||
		    strstr(bt_session_func(s, i)->name, o->filter) != NULL)
			idx[k++] = i;
	n = k;
	/* pass 1: texts and widths; pass 2: padded cells */
	const char **all = bt_xcalloc(n * 6 + 1, sizeof(char *));
	for (i = 0; i < n; i++) {
		const struct bt_func *f = bt_session_func(s, idx[i]);
		txt[0] = bt_strpool_addf(&v->pool, "%.2f%%", f->percent);
		txt[1] = bt_strpool_addf(&v->pool, "%llu", (unsigned long long)f->samples);
		txt[2] = bt_strpool_addf(&v->pool, "%llu", (unsigned long long)f->period);
		txt[3] = f->module_name;
		txt[4] = f->name;
		txt[5] = f->file ? bt_strpool_addf(&v->pool, "%s:%u",
		    basename_of(f->file), f->line) : "";
		for (c = 0; c < 6; c++) {
			all[i * 6 + c] = txt[c];
			w[c] = BT_MAX(w[c], ncols(txt[c]));
		}
	}
	for (i = 0; i < n; i++) {
		const struct bt_func *f = bt_session_func(s, idx[i]);
		struct bt_row *r = add_row(v, BT_ROW_FUNC);
		enum bt_style hs = heat(f->percent, f->samples > 0);

		r->func = idx[i];
		r->addr = f->start;
		r->samples = f->samples;
		r->period = f->period;
		r->percent = f->percent;
		bt_wilson(f->samples, bt_session_samples(s), &r->ci_lo, &r->ci_hi);
		r->weight = o->num == BT_NUM_PERIOD ? (double)f->period : f->percent;
		r->file = f->file;
		r->line = f->line;
		r->text = f->name;
		add_cell(v, pad(v, all[i * 6 + (o->num == BT_NUM_PERIOD ? 2 : 0)],
		    w[o->num == BT_NUM_PERIOD ? 2 : 0] + 1, true), hs);
		add_cell(v, pad(v, all[i * 6 + 1], w[1] + 2, true), BT_STYLE_NORMAL);
		add_cell(v, "  ", BT_STYLE_NORMAL);
		add_cell(v, pad(v, all[i * 6 + 3], w[3] + 2, false), BT_STYLE_ADDR);
		add_cell(v, pad(v, all[i * 6 + 4], w[4] + 2, false),
		    f->kind == BT_FK_SYMBOL ? BT_STYLE_NORMAL : BT_STYLE_COMMENT);
		add_cell(v, all[i * 6 + 5], BT_STYLE_SOURCE);
	}
	{
		const char *h[6] = { heads[o->num == BT_NUM_PERIOD ? 2 : 0], heads[1],
			"", heads[3], heads[4], heads[5] };
		size_t hw[6] = { w[o->num == BT_NUM_PERIOD ? 2 : 0] + 1, w[1] + 2, 2,
			w[3] + 2, w[4] + 2, 0 };
		bool hr[6] = { true, true, false, false, false, false };
		set_columns(v, h, hw, hr, 6);
	}
	free(all);
	free(idx);
	seal(v);
	build_hot(v);
	v->title = "hot functions";
	return v;
}

/* Annotation. */

static const char *
source_text(struct bt_session *s, const char *file, unsigned line)
{
	const struct bt_srcfile *sf;

	if (file == NULL || line == 0)
		return NULL;
	sf = bt_srccache_get(s->src, file);
	if (sf->missing || line > sf->nlines)
		return NULL;
	return sf->lines[line - 1];
}

/* Gutter: skid mark, region start, loop bars. */
static const char *
gutter(struct bt_view *v, const struct bt_ainsn *ai, bool skid_col)
{
	char g[8];
	int k = 0, d;

	g[k++] = ' ';
	g[k++] = (!skid_col && (ai->flags & BT_AI_SKID_TARGET)) ? '*' : ' ';
	for (d = 0; d < 3; d++)
		g[k++] = d < ai->loop_depth ? (ai->flags & BT_AI_BACK_EDGE &&
		    d == ai->loop_depth - 1 ? '+' : '|') : ' ';
	g[k] = '\0';
	return bt_strpool_add(&v->pool, g, (size_t)k);
}

struct bt_view *
bt_view_annotate(struct bt_session *s, size_t func, const struct bt_view_opts *o,
		 struct bt_error *err)
{
	struct bt_annotation *a = bt_session_annotation(s, func, err);
	const struct bt_func *f;
	struct bt_view *v;
	struct bt_view_opts def;
	size_t i, wnum = 7, wadj = 7, wsmp = 7, waddr = 4;
	double denom;
	const char *prev_file = NULL;
	unsigned prev_line = 0;
	uint32_t prev_chain = 0, prev_depth = 0;
	long *insn_row;

	if (a == NULL)
		return NULL;
	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	f = bt_session_func(s, func);
	v = view_new(s, VIEW_ANNOTATE);
	v->func = func;
	denom = o->global_percent ? (double)bt_session_samples(s) : (double)a->samples;
	insn_row = bt_xcalloc(a->insns.n + 1, sizeof(long));
	/* room for an instruction, a source line and their cells each: no regrowth */
	BT_ALLOC_GROW(v->rows.v, 2 * a->insns.n + 16, v->rows.alloc);
	BT_ALLOC_GROW(v->cell_start.v, 2 * a->insns.n + 16, v->cell_start.alloc);
	BT_ALLOC_GROW(v->cells.v, 11 * a->insns.n + 16, v->cells.alloc);

	/* widths first: numbers and addresses (digit counts, no printf) */
	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		uint64_t x = o->num == BT_NUM_PERIOD ? ai->period : ai->samples;
		size_t n = 1;

		while (x >= 10) {
			x /= 10;
			n++;
		}
		wsmp = BT_MAX(wsmp, n);
		x = o->addresses ? ai->in.addr : ai->in.addr - f->start;
		for (n = 2; x >= 16; x >>= 4)
			n++;
		waddr = BT_MAX(waddr, n);
	}
	if (o->num != BT_NUM_PERCENT)
		wnum = wadj = wsmp;
	/* numbers, the 95% interval, gutter, address: what source rows are indented by */
	size_t wpre = wnum + (wadj + 1) + (wsmp + 1) + WCI + 5 + waddr + 1;

	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		double pct = denom > 0 ? 100.0 * (double)ai->samples / denom : 0;
		double apct = denom > 0 ? 100.0 * ai->adjusted / denom : 0;
		double primary = o->skid ? apct : pct;
		const char *c0, *c1, *c2;
		struct bt_row *r;

		if (o->source && a->has_lines) {
			/* inline frames entered here */
			if (ai->depth != prev_depth || ai->chain != prev_chain) {
				size_t common = 0, k;
				while (common < ai->depth && common < prev_depth &&
				    a->frames.v[ai->chain + common].lo ==
				    a->frames.v[prev_chain + common].lo &&
				    a->frames.v[ai->chain + common].name ==
				    a->frames.v[prev_chain + common].name)
					common++;
				for (k = common; k < ai->depth; k++) {
					const struct bt_inline *fr = &a->frames.v[ai->chain + k];
					r = add_row(v, BT_ROW_INLINE);
					r->func = func;
					r->file = fr->call_file;
					r->line = fr->call_line;
					r->text = bt_strpool_addf(&v->pool,
					    "%*sinlined %s() from %s:%u", (int)(2 * k), "",
					    fr->name ? fr->name : "?",
					    fr->call_file ? basename_of(fr->call_file) : "?",
					    fr->call_line);
					add_cell(v, pad(v, "", wpre, false), BT_STYLE_NORMAL);
					add_cell(v, r->text, BT_STYLE_INLINE);
				}
				prev_chain = ai->chain;
				prev_depth = ai->depth;
				prev_file = NULL;
			}
			if (ai->file != NULL && (ai->file != prev_file ||
			    ai->line != prev_line)) {
				const char *t = source_text(s, ai->file, ai->line);
				r = add_row(v, BT_ROW_SOURCE);
				r->func = func;
				r->file = ai->file;
				r->line = ai->line;
				r->text = t ? t : "";
				add_cell(v, pad(v, "", wpre, false), BT_STYLE_NORMAL);
				add_cell(v, file_line(v, basename_of(ai->file), ai->line),
				    BT_STYLE_SOURCE);
				add_cell(v, cat(v, "  ", r->text), BT_STYLE_SOURCE);
				prev_file = ai->file;
				prev_line = ai->line;
			}
		}
		insn_row[i] = (long)v->rows.n;
		r = add_row(v, BT_ROW_INSN);
		r->func = func;
		r->insn = i;
		r->addr = ai->in.addr;
		r->size = ai->in.len;
		r->samples = ai->samples;
		r->period = ai->period;
		r->adjusted = ai->adjusted;
		r->percent = pct;
		r->adjusted_percent = apct;
		bt_wilson(ai->samples, (uint64_t)denom, &r->ci_lo, &r->ci_hi);
		/* the primary number: what sorts, colours and Tab walk */
		r->weight = o->num == BT_NUM_PERCENT ? primary :
		    o->num == BT_NUM_SAMPLES ? (o->skid ? ai->adjusted : (double)ai->samples) :
		    (o->skid ? ai->adjusted_period : (double)ai->period);
		r->file = ai->file;
		r->line = ai->line;
		r->text = ai->in.text;
		r->region = ai->region;
		r->loop_depth = ai->loop_depth;
		if (ai->flags & BT_AI_SKID_TARGET)
			r->flags |= BT_ROW_F_SKID_TARGET;
		if (ai->flags & BT_AI_LOOP_HEAD)
			r->flags |= BT_ROW_F_LOOP_HEAD;
		if (ai->flags & BT_AI_BACK_EDGE)
			r->flags |= BT_ROW_F_BACK_EDGE;
		if (ai->region >= 0 && (i == 0 || a->insns.v[i - 1].region != ai->region))
			r->flags |= BT_ROW_F_REGION_START;
		if (primary >= HOT_MIN_PERCENT)
			r->flags |= BT_ROW_F_HOT;
		if (ai->in.kind == BT_INSN_CALL) {
			r->flags |= BT_ROW_F_CALL;
			r->has_target = true;
			r->target = ai->in.target;
		} else if (ai->in.kind == BT_INSN_JUMP || ai->in.kind == BT_INSN_CJUMP) {
			r->flags |= BT_ROW_F_JUMP;
			r->has_target = true;
			r->target = ai->in.target;
		}
		r->target_name = ai->target_name;
		if (ai->in.flags & BT_INSN_F_RIPREL) {
			r->has_mem_target = true;
			r->mem_target = ai->in.mem_target;
			r->mem_name = ai->mem_name;
		}

		if (o->num == BT_NUM_PERCENT) {
			double first = o->skid ? ai->adjusted : (double)ai->samples;
			double second = o->skid ? (double)ai->samples : ai->adjusted;
			/* blank, not 0.00, where nothing shows at this precision */
			c0 = (o->skid ? apct : pct) >= 0.005 || (first > 0 && !o->skid) ?
			    bt_strpool_addf(&v->pool, "%.2f", o->skid ? apct : pct) : "";
			c1 = (o->skid ? pct : apct) >= 0.005 || (second > 0 && o->skid) ?
			    bt_strpool_addf(&v->pool, "%.2f", o->skid ? pct : apct) : "";
			c2 = ai->samples ? bt_strpool_addf(&v->pool, "%llu",
			    (unsigned long long)ai->samples) : "";
		} else {
			/* counts: samples or period, raw and skid-adjusted */
			bool per = o->num == BT_NUM_PERIOD;
			uint64_t raw = per ? ai->period : ai->samples;
			uint64_t adj = (uint64_t)((per ? ai->adjusted_period : ai->adjusted) + 0.5);
			c0 = (o->skid ? adj : raw) ? bt_strpool_addf(&v->pool, "%llu",
			    (unsigned long long)(o->skid ? adj : raw)) : "";
			c1 = (o->skid ? raw : adj) ? bt_strpool_addf(&v->pool, "%llu",
			    (unsigned long long)(o->skid ? raw : adj)) : "";
			c2 = "";
		}
		add_cell(v, pad(v, c0, wnum, true), few_samples(r) ? BT_STYLE_DIM :
		    heat(primary, r->weight > 0));
		add_cell(v, pad(v, c1, wadj + 1, true), BT_STYLE_DIM);
		add_cell(v, pad(v, c2, wsmp + 1, true), BT_STYLE_NORMAL);
		add_cell(v, pad(v, o->num == BT_NUM_PERCENT && ai->samples ?
		    bt_strpool_addf(&v->pool, "±%.2f", (r->ci_hi - r->ci_lo) / 2) : "",
		    WCI, true), BT_STYLE_DIM);
		add_cell(v, gutter(v, ai, o->skid), BT_STYLE_GUTTER);
		add_cell(v, pad(v, hex_colon(v, o->addresses ? ai->in.addr :
		    ai->in.addr - f->start), waddr + 1, true), BT_STYLE_ADDR);
		add_cell(v, cat(v, "  ", ai->in.text),
		    ai->in.kind == BT_INSN_CALL || ai->in.kind == BT_INSN_ICALL ?
		    BT_STYLE_CALL : r->flags & BT_ROW_F_JUMP ||
		    ai->in.kind == BT_INSN_IJUMP || ai->in.kind == BT_INSN_RET ?
		    BT_STYLE_JUMP : ai->samples ? heat(primary, true) : BT_STYLE_NORMAL);
		if (ai->target_name != NULL)
			add_cell(v, cat(v, cat(v, " <", ai->target_name), ">"),
			    BT_STYLE_COMMENT);
		else if (ai->in.flags & BT_INSN_F_RIPREL)	/* objdump's "# 4020 <sink>" */
			add_cell(v, ai->mem_name ? bt_strpool_addf(&v->pool, "  # %llx <%s>",
			    (unsigned long long)ai->in.mem_target, ai->mem_name) :
			    bt_strpool_addf(&v->pool, "  # %llx",
			    (unsigned long long)ai->in.mem_target), BT_STYLE_COMMENT);
	}
	/* branch targets as rows */
	for (i = 0; i < v->rows.n; i++) {
		struct bt_row *r = &v->rows.v[i];
		if (r->kind == BT_ROW_INSN && a->insns.v[r->insn].target_insn >= 0)
			r->target_row = insn_row[a->insns.v[r->insn].target_insn];
	}
	free(insn_row);
	{
		const char *h[7];
		size_t w[7] = { wnum, wadj + 1, wsmp + 1, WCI, 5, waddr + 1, 0 };
		bool right[7] = { true, true, true, true, false, true, false };
		if (o->num == BT_NUM_PERCENT) {
			h[0] = o->skid ? "Skid%" : "Percent";
			h[1] = o->skid ? "Raw%" : "Skid%";
			h[2] = "Samples";
		} else {
			const char *u = o->num == BT_NUM_PERIOD ? "Period" : "Samples";
			h[0] = o->skid ? "Skid" : u;
			h[1] = o->skid ? u : "Skid";
			h[2] = "";
		}
		h[3] = o->num == BT_NUM_PERCENT ? "±95%" : "";
		h[4] = "";
		h[5] = o->addresses ? "Address" : "Offset";
		h[6] = "  Instruction";
		set_columns(v, h, w, right, 7);
	}
	if (!a->has_lines)
		BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
		    "no source lines for '%s' (no debug info for '%s')", f->name,
		    f->module));
	else if (o->source && a->file != NULL) {
		const struct bt_srcfile *sf = bt_srccache_get(s->src, a->file);
		int64_t bin = s->mods[bt_session_func_module(s, func)].mtime;
		if (sf->missing)
			BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
			    "source file '%s' not found: lines shown without text", a->file));
		else if (bin && sf->mtime > bin)
			BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
			    "source file '%s' is newer than '%s': it was edited after the "
			    "build, the lines shown may not match the code", a->file, f->module));
	}
	if (a->stray)
		BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
		    "%llu samples fell between instruction starts",
		    (unsigned long long)a->stray));
	seal(v);
	build_hot(v);
	v->title = bt_strpool_addf(&v->pool, "%s  %s  %.2f%% of %llu samples",
	    f->name, f->module_name, f->percent,
	    (unsigned long long)bt_session_samples(s));
	return v;
}

/* Source view. */

struct bt_view *
bt_view_source(struct bt_session *s, size_t func, const struct bt_view_opts *o,
	       struct bt_error *err)
{
	struct bt_annotation *a = bt_session_annotation(s, func, err);
	const struct bt_srcfile *sf;
	const struct bt_func *f;
	struct bt_view *v;
	struct bt_view_opts def;
	uint64_t *smp, *per;
	double *adj, *adjper;
	size_t nlines, i, wnum = 7, wline = 4;
	double denom;

	if (a == NULL)
		return NULL;
	if (a->file == NULL) {
		bt_error_set(err, BT_ENODATA, "no source lines for '%s'",
		    bt_session_func(s, func)->name);
		return NULL;
	}
	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	f = bt_session_func(s, func);
	sf = bt_srccache_get(s->src, a->file);
	nlines = sf->nlines;
	for (i = 0; i < a->insns.n; i++) {
		unsigned l = bt_annotation_line_in(a, &a->insns.v[i], a->file);
		if (l > nlines && sf->missing)
			nlines = l;
	}
	smp = bt_xcalloc(nlines + 1, sizeof(*smp));
	per = bt_xcalloc(nlines + 1, sizeof(*per));
	adj = bt_xcalloc(nlines + 1, sizeof(*adj));
	adjper = bt_xcalloc(nlines + 1, sizeof(*adjper));
	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		unsigned l = bt_annotation_line_in(a, ai, a->file);
		if (l == 0 || l > nlines)
			continue;
		smp[l] += ai->samples;
		per[l] += ai->period;
		adj[l] += ai->adjusted;
		adjper[l] += ai->adjusted_period;
	}
	v = view_new(s, VIEW_SOURCE);
	v->func = func;
	denom = o->global_percent ? (double)bt_session_samples(s) : (double)a->samples;
	{
		char buf[32];
		wline = BT_MAX(wline, (size_t)snprintf(buf, sizeof(buf), "%zu", nlines));
	}
	for (i = 1; i <= nlines; i++) {
		double pct = denom > 0 ? 100.0 * (double)smp[i] / denom : 0;
		double apct = denom > 0 ? 100.0 * adj[i] / denom : 0;
		double primary = o->skid ? apct : pct;
		struct bt_row *r;
		const char *num;

		if (sf->missing && smp[i] == 0 && adj[i] == 0)
			continue;
		r = add_row(v, BT_ROW_LINE);
		r->func = func;
		r->file = a->file;
		r->line = (unsigned)i;
		r->samples = smp[i];
		r->period = per[i];
		r->adjusted = adj[i];
		r->percent = pct;
		r->adjusted_percent = apct;
		bt_wilson(smp[i], (uint64_t)denom, &r->ci_lo, &r->ci_hi);
		r->weight = o->num == BT_NUM_PERCENT ? primary :
		    o->num == BT_NUM_SAMPLES ? (o->skid ? adj[i] : (double)smp[i]) :
		    (o->skid ? adjper[i] : (double)per[i]);
		r->text = sf->missing ? "" : sf->lines[i - 1];
		if (primary >= HOT_MIN_PERCENT)
			r->flags |= BT_ROW_F_HOT;
		if (o->num == BT_NUM_PERCENT)
			num = r->weight > 0 ? bt_strpool_addf(&v->pool, "%.2f", primary) : "";
		else
			num = r->weight > 0 ? bt_strpool_addf(&v->pool, "%.0f", r->weight) : "";
		add_cell(v, pad(v, num, wnum, true), heat(primary, r->weight > 0));
		add_cell(v, pad(v, smp[i] ? bt_strpool_addf(&v->pool, "%llu",
		    (unsigned long long)smp[i]) : "", 8, true), BT_STYLE_NORMAL);
		add_cell(v, pad(v, bt_strpool_addf(&v->pool, "%zu", i), wline + 2, true),
		    BT_STYLE_ADDR);
		add_cell(v, bt_strpool_addf(&v->pool, "  %s", r->text),
		    r->weight > 0 ? heat(primary, true) : BT_STYLE_SOURCE);
	}
	{
		const char *h[4] = { o->num == BT_NUM_PERCENT ? (o->skid ? "Skid%" : "Percent") :
			o->num == BT_NUM_SAMPLES ? "Samples" : "Period", "Samples", "Line",
			"  Source" };
		size_t w[4] = { wnum, 8, wline + 2, 0 };
		bool right[4] = { true, true, true, false };
		set_columns(v, h, w, right, 4);
	}
	if (sf->missing)
		BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
		    "source file '%s' not found: only lines with samples are listed",
		    a->file));
	free(smp);
	free(per);
	free(adj);
	free(adjper);
	seal(v);
	build_hot(v);
	v->title = bt_strpool_addf(&v->pool, "%s  (source of %s)", a->file, f->name);
	return v;
}

void
bt_view_free(struct bt_view *v)
{
	if (v == NULL)
		return;
	BT_VEC_FREE(v->rows);
	BT_VEC_FREE(v->cells);
	BT_VEC_FREE(v->cell_start);
	BT_VEC_FREE(v->hot);
	BT_VEC_FREE(v->notes);
	bt_strpool_release(&v->pool);
	free(v);
}

size_t
bt_view_nrows(const struct bt_view *v)
{
	return v->rows.n;
}

const struct bt_row *
bt_view_row(const struct bt_view *v, size_t i)
{
	return i < v->rows.n ? &v->rows.v[i] : NULL;
}

const struct bt_row *
bt_view_columns(const struct bt_view *v)
{
	return &v->columns;
}

const char *
bt_view_title(const struct bt_view *v)
{
	return v->title;
}

size_t
bt_view_nnotes(const struct bt_view *v)
{
	return v->notes.n;
}

const char *
bt_view_note(const struct bt_view *v, size_t i)
{
	return i < v->notes.n ? v->notes.v[i] : NULL;
}

size_t
bt_view_hot(const struct bt_view *v, const size_t **rows)
{
	*rows = v->hot.v;
	return v->hot.n;
}

long
bt_view_find_addr(const struct bt_view *v, uint64_t addr)
{
	size_t i;

	for (i = 0; i < v->rows.n; i++) {
		const struct bt_row *r = &v->rows.v[i];
		if (r->kind == BT_ROW_INSN && addr >= r->addr && addr < r->addr + r->size)
			return (long)i;
	}
	return -1;
}

long
bt_view_find_line(const struct bt_view *v, unsigned line)
{
	size_t i;

	for (i = 0; i < v->rows.n; i++)
		if (v->rows.v[i].kind == BT_ROW_LINE && v->rows.v[i].line == line)
			return (long)i;
	return -1;
}
