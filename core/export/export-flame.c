/*
 * --format flamegraph: the selection's flame graph (bt_flame_new) as one
 * SVG file that a browser shows offline, as flamegraph.pl's: frames
 * bottom up, each as wide as its inclusive samples, coloured by the kind
 * of its module, a title with the whole name and share on each; a little
 * inline script zooms into a frame (click), searches (Ctrl-F or the
 * Search button) and resets. Nothing is loaded from elsewhere. Text from
 * the recording is escaped twice: its control bytes and bytes that are
 * not UTF-8 as \xNN (bt_text_safe, as every format), then for XML.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

#include "benchtui/bench.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "export/export-int.h"

#define SVG_WIDTH 1200
#define SVG_PAD 10
#define FRAME_H 16
#define FONT_SIZE 12
#define FONT_W 0.59	/* a character's width, of the font size */
#define MIN_WIDTH 0.1	/* frames narrower (pixels) are left out, as flamegraph.pl's */
#define TOP_H 48
#define STR_(x) #x
#define STR(x) STR_(x)	/* the title and the details line */

/* s, safe for a terminal, then for XML text and attributes. */
static void
xml(FILE *f, const char *s)
{
	struct bt_textbuf tb = { 0 };
	const char *p = bt_text_safe(s != NULL ? s : "", &tb);

	for (; *p; p++)
		switch (*p) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		case '\t':
			fputc(' ', f);
			break;
		default:
			fputc(*p, f);
		}
	bt_textbuf_release(&tb);
}

/* A colour per kind, varied by the name's hash as flamegraph.pl's palettes. */
static void
colour(const struct bt_flame_frame *fr, int *r, int *g, int *b)
{
	unsigned h = 2166136261u;
	const char *p;
	double v;

	for (p = fr->name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	v = (double)(h % 1000) / 1000.0;
	switch (fr->kind) {
	case BT_FRAME_ROOT:
		*r = 200, *g = 200, *b = 200;
		break;
	case BT_FRAME_PROGRAM:	/* hot: red to orange */
		*r = 205 + (int)(50 * v), *g = (int)(150 * v), *b = (int)(55 * v);
		break;
	case BT_FRAME_LIBRARY:	/* yellow */
		*r = 190 + (int)(55 * v), *g = 190 + (int)(55 * v), *b = (int)(70 * v);
		break;
	case BT_FRAME_KERNEL:	/* orange, as flamegraph.pl's --color=java kernel */
		*r = 230 + (int)(25 * v), *g = 120 + (int)(40 * v), *b = (int)(30 * v);
		break;
	case BT_FRAME_JIT:	/* green */
		*r = 50 + (int)(60 * v), *g = 180 + (int)(60 * v), *b = 50 + (int)(60 * v);
		break;
	case BT_FRAME_INLINE:	/* aqua */
		*r = 80 + (int)(50 * v), *g = 190 + (int)(50 * v), *b = 190 + (int)(50 * v);
		break;
	default:
		*r = *g = *b = 160 + (int)(40 * v);
	}
}

/* The frame's name cut to w pixels, as the script cuts it after a zoom. */
static void
fit_text(FILE *f, const char *name, double w)
{
	struct bt_textbuf tb = { 0 };
	const char *s = bt_text_safe(name, &tb);
	size_t chars = (size_t)((w - 6) / (FONT_SIZE * FONT_W)), n = 0, i;
	char *cut;

	if (w < 6 + 3 * FONT_SIZE * FONT_W) {
		bt_textbuf_release(&tb);
		return;
	}
	for (i = 0; s[i]; i++)	/* characters, not bytes */
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	if (n <= chars) {
		xml(f, s);
		bt_textbuf_release(&tb);
		return;
	}
	for (i = 0, n = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && ++n > chars - 2)
			break;
	}
	cut = bt_xasprintf("%.*s..", (int)i, s);
	xml(f, cut);
	free(cut);
	bt_textbuf_release(&tb);
}

static const char script[] =
"<script type=\"text/ecmascript\"><![CDATA[\n"
"'use strict';\n"
"var svg = document.documentElement, details, matched, frames, fw = 0, zoomed = null;\n"
"var W = +svg.getAttribute('width'), PAD = " STR(SVG_PAD) ", FS = " STR(FONT_SIZE) ", FW = " STR(FONT_W) ";\n"
"function fit(g, w) {\n"
"  var t = g.querySelector('text'), name = g.getAttribute('data-name');\n"
"  var n = Math.floor((w - 6) / (FS * FW));\n"
"  if (w < 6 + 3 * FS * FW) { t.textContent = ''; return; }\n"
"  t.textContent = name.length <= n ? name : name.substring(0, n - 2) + '..';\n"
"}\n"
"function place(g, x, w) {\n"
"  var r = g.querySelector('rect'), t = g.querySelector('text');\n"
"  r.setAttribute('x', x.toFixed(2)); r.setAttribute('width', w.toFixed(2));\n"
"  t.setAttribute('x', (x + 3).toFixed(2)); fit(g, w);\n"
"}\n"
"function zoom(g) {\n"
"  var x = +g.getAttribute('data-x'), w = +g.getAttribute('data-w');\n"
"  var y = +g.querySelector('rect').getAttribute('y'), k = (W - 2 * PAD) / w;\n"
"  zoomed = g;\n"
"  document.getElementById('unzoom').setAttribute('class', '');\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var e = frames[i], ex = +e.getAttribute('data-x'), ew = +e.getAttribute('data-w');\n"
"    var ey = +e.querySelector('rect').getAttribute('y');\n"
"    if (ey > y && ex <= x + 0.0001 && ex + ew >= x + w - 0.0001) {\n"
"      e.setAttribute('class', 'f parent'); place(e, PAD, W - 2 * PAD);\n"
"    } else if (ey <= y && ex >= x - 0.0001 && ex + ew <= x + w + 0.0001) {\n"
"      e.setAttribute('class', 'f'); place(e, PAD + (ex - x) * k, ew * k);\n"
"    } else e.setAttribute('class', 'f hide');\n"
"  }\n"
"}\n"
"function unzoom() {\n"
"  zoomed = null;\n"
"  document.getElementById('unzoom').setAttribute('class', 'hide');\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var e = frames[i];\n"
"    e.setAttribute('class', 'f');\n"
"    place(e, +e.getAttribute('data-x'), +e.getAttribute('data-w'));\n"
"  }\n"
"}\n"
"function search(re) {\n"
"  var spans = [], total = +svg.getAttribute('data-samples'), sum = 0, end = -1;\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var e = frames[i], r = e.querySelector('rect');\n"
"    if (re !== null && re.test(e.getAttribute('data-name'))) {\n"
"      r.setAttribute('fill', 'rgb(230,0,230)');\n"
"      spans.push([+e.getAttribute('data-x'), +e.getAttribute('data-w'), +e.getAttribute('data-samples')]);\n"
"    } else r.setAttribute('fill', e.getAttribute('data-fill'));\n"
"  }\n"
"  spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
"  for (var j = 0; j < spans.length; j++)\n"
"    if (spans[j][0] >= end - 0.0001) { sum += spans[j][2]; end = spans[j][0] + spans[j][1]; }\n"
"  matched.textContent = re === null ? '' : 'Matched: ' + (total ? 100 * sum / total : 0).toFixed(2) + '%';\n"
"  document.getElementById('reset').setAttribute('class', re === null ? 'hide' : '');\n"
"}\n"
"function ask() {\n"
"  var s = window.prompt('Search for (a regular expression)', '');\n"
"  if (s === null || s === '') return;\n"
"  try { search(new RegExp(s)); } catch (err) { matched.textContent = 'bad expression: ' + err.message; }\n"
"}\n"
"function init() {\n"
"  details = document.getElementById('details'); matched = document.getElementById('matched');\n"
"  frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var g = frames[i];\n"
"    g.addEventListener('click', function (ev) { zoom(ev.currentTarget); });\n"
"    g.addEventListener('mouseover', function (ev) {\n"
"      details.textContent = ev.currentTarget.querySelector('title').textContent; });\n"
"    g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
"  }\n"
"  document.getElementById('unzoom').addEventListener('click', unzoom);\n"
"  document.getElementById('search').addEventListener('click', ask);\n"
"  document.getElementById('reset').addEventListener('click', function () { search(null); });\n"
"  window.addEventListener('keydown', function (ev) {\n"
"    if ((ev.ctrlKey || ev.metaKey) && ev.key === 'f') { ev.preventDefault(); ask(); }\n"
"    else if (ev.key === 'Escape') { unzoom(); search(null); }\n"
"  });\n"
"  /* #zoom=NAME&search=RE: open zoomed into the first frame named NAME, searched */\n"
"  var args = location.hash.substring(1).split('&');\n"
"  for (var a = 0; a < args.length; a++) {\n"
"    var kv = args[a].split('='), v = decodeURIComponent(kv.slice(1).join('='));\n"
"    if (kv[0] === 'zoom')\n"
"      for (var z = 0; z < frames.length; z++)\n"
"        if (frames[z].getAttribute('data-name') === v) { zoom(frames[z]); break; }\n"
"    if (kv[0] === 'search' && v !== '') search(new RegExp(v));\n"
"  }\n"
"  svg.setAttribute('data-ready', '1');\n"
"}\n"
"window.addEventListener('load', init);\n"
"]]></script>\n";

/* What the title says the graph is of. */
static void
title(FILE *f, struct bt_selection *sel, uint64_t total)
{
	const struct bt_profile_info *pi = bt_session_info(bt_selection_session(sel));
	long bi = bt_selection_bench_index(sel);

	fputs("Flame graph: ", f);
	xml(f, pi->command != NULL ? pi->command : "");
	if (bi >= 0) {
		fputs(", benchmark ", f);
		xml(f, bt_selection_bench(sel, (size_t)bi)->name);
	}
	fputs(", ", f);
	xml(f, bt_selection_event(sel));
	fprintf(f, ", %llu samples", (unsigned long long)total);
}

/*
 * A differential flame graph (benchtui diff --format flamegraph): B's
 * frames, each with A's share of its path (@sa, per B frame; 0 where A
 * has no such path) and the largest change of share drawn (@max).
 */
struct fdiff {
	const double *sa;
	double max;
};

/*
 * The change's colour, as flamegraph.pl's differential palette: red where
 * the frame's share of its side's samples grew, blue where it shrank,
 * saturated by the change over the largest one; white where none.
 */
static void
diff_colour(double delta, double max, int *r, int *g, int *b)
{
	double s = max > 0 ? fabs(delta) / max : 0;
	int v = (int)(210 * (1 - BT_MIN(s, 1.0)) + 0.5);

	if (fabs(delta) < 1e-12)
		*r = *g = *b = 250;
	else if (delta > 0)
		*r = 255, *g = v, *b = v;
	else
		*r = v, *g = v, *b = 255;
}

static void
frame(FILE *f, const struct bt_flame_frame *fr, size_t fi, uint64_t total, double x,
      double w, unsigned maxdepth, const struct fdiff *fd)
{
	double y = TOP_H + (double)(maxdepth - fr->depth) * FRAME_H;
	double sb = total ? (double)fr->samples / (double)total : 0, delta = 0;
	int r, g, b;

	if (fd != NULL) {
		delta = sb - fd->sa[fi];
		diff_colour(delta, fd->max, &r, &g, &b);
	} else
		colour(fr, &r, &g, &b);
	fprintf(f, "<g class=\"f\" data-samples=\"%llu\" data-x=\"%.4f\" data-w=\"%.4f\" "
	    "data-depth=\"%u\" data-kind=\"%s\" data-fill=\"rgb(%d,%d,%d)\" ",
	    (unsigned long long)fr->samples, x, w, fr->depth, bt_frame_kind_name(fr->kind),
	    r, g, b);
	if (fd != NULL)
		fprintf(f, "data-share-a=\"%.6f\" data-share-b=\"%.6f\" data-delta=\"%+.6f\" ",
		    100 * fd->sa[fi], 100 * sb, 100 * delta);
	fputs("data-name=\"", f);
	xml(f, fr->name);
	fputs("\"><title>", f);
	xml(f, fr->name);
	if (fr->module != NULL) {
		fputs(" (", f);
		xml(f, fr->module);
		fputs(")", f);
	}
	if (fd != NULL)
		fprintf(f, ": B %llu samples, %.2f%%; A %.2f%%; %+.2f points</title>",
		    (unsigned long long)fr->samples, 100 * sb, 100 * fd->sa[fi], 100 * delta);
	else
		fprintf(f, ": %llu samples, %.2f%%</title>", (unsigned long long)fr->samples,
		    100 * sb);
	fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
	    "fill=\"rgb(%d,%d,%d)\" rx=\"2\" ry=\"2\"/>", x, y, w, FRAME_H - 1, r, g, b);
	fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FRAME_H - 4.5);
	fit_text(f, fr->name, w);
	fputs("</text></g>\n", f);
}

/* The SVG of fl, titled ttl (XML already), coloured by fd's changes when not NULL. */
static int
flame_svg(FILE *out, const struct bt_flame *fl, const char *ttl, const struct fdiff *fd,
	  struct bt_error *err)
{
	size_t n = bt_flame_nframes(fl), i, *order = bt_xcalloc(n + 1, sizeof(size_t));
	double *xs = bt_xcalloc(n + 1, sizeof(double)), scale;
	uint64_t total = bt_flame_frame(fl, 0)->samples;
	unsigned maxdepth = 0;
	size_t top = 0, k, height;

	/* each frame's x: its parent's, plus the siblings' before it */
	order[top++] = 0;
	scale = total ? (double)(SVG_WIDTH - 2 * SVG_PAD) / (double)total : 0;
	xs[0] = SVG_PAD;
	for (i = 0; i < n; i++)
		if (bt_flame_frame(fl, i)->depth > maxdepth)
			maxdepth = bt_flame_frame(fl, i)->depth;
	height = TOP_H + ((size_t)maxdepth + 1) * FRAME_H + 2 * SVG_PAD;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	    "<svg version=\"1.1\" width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d %zu\" "
	    "xmlns=\"http://www.w3.org/2000/svg\" data-samples=\"%llu\" "
	    "data-generator=\"benchtui\">\n", SVG_WIDTH, height, SVG_WIDTH, height,
	    (unsigned long long)total);
	fputs("<style type=\"text/css\">\n"
	    "text { font-family: Verdana, sans-serif; font-size: " STR(FONT_SIZE) "px; fill: rgb(0,0,0); }\n"
	    "g.f:hover rect { stroke: black; stroke-width: 0.5; cursor: pointer; }\n"
	    "g.f text { pointer-events: none; }\n"
	    "g.parent rect { opacity: 0.5; }\n"
	    ".hide { display: none; }\n"
	    "#title { text-anchor: middle; font-size: 17px; }\n"
	    ".button { cursor: pointer; fill: rgb(60,60,160); }\n"
	    "</style>\n", out);
	fputs(script, out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%zu\" fill=\"rgb(245,245,238)\"/>\n",
	    SVG_WIDTH, height);
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"20\">", SVG_WIDTH / 2);
	fputs(ttl, out);
	fputs("</text>\n", out);
	fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%zu\"> </text>\n", SVG_PAD,
	    height - SVG_PAD / 2);
	fprintf(out, "<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"40\"><tspan class=\"button\">"
	    "Reset zoom</tspan></text>\n", SVG_PAD);
	fprintf(out, "<text id=\"search\" x=\"%d\" y=\"40\"><tspan class=\"button\">Search"
	    "</tspan></text>\n", SVG_WIDTH - SVG_PAD - 100);
	fprintf(out, "<text id=\"reset\" class=\"hide\" x=\"%d\" y=\"40\"><tspan class=\"button\">"
	    "Reset search</tspan></text>\n", SVG_WIDTH - SVG_PAD - 200);
	fprintf(out, "<text id=\"matched\" x=\"%d\" y=\"%zu\"> </text>\n",
	    SVG_WIDTH - SVG_PAD - 200, height - SVG_PAD / 2);
	if (total == 0)
		fprintf(out, "<text x=\"%d\" y=\"%d\">no samples</text>\n", SVG_PAD, TOP_H + 12);
	/* depth first from the root, each frame before its children */
	while (top > 0 && total > 0) {
		size_t fi = order[--top], c;
		const struct bt_flame_frame *fr = bt_flame_frame(fl, fi);
		double x = xs[fi], w = (double)fr->samples * scale;

		if (w < MIN_WIDTH)
			continue;
		frame(out, fr, fi, total, x, w, maxdepth, fd);
		/* children in order, the first on top of the stack */
		k = 0;
		for (c = fr->child; c != BT_FRAME_NONE; c = bt_flame_frame(fl, c)->next)
			k++;
		top += k;
		{
			size_t at = top;
			double cx = x;

			for (c = fr->child; c != BT_FRAME_NONE; c = bt_flame_frame(fl, c)->next) {
				order[--at] = c;
				xs[c] = cx;
				cx += (double)bt_flame_frame(fl, c)->samples * scale;
			}
		}
	}
	fputs("</svg>\n", out);
	free(order);
	free(xs);
	if (fflush(out) != 0 || ferror(out))
		return bt_error_errno(err, BT_EIO, errno, "cannot write the export");
	return 0;
}

/* The title fn writes (XML text), malloc'ed. */
static char *
title_of(void (*fn)(FILE *, const void *, uint64_t), const void *arg, uint64_t total)
{
	char *t = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&t, &len);

	if (f == NULL)
		return bt_xstrdup("");
	fn(f, arg, total);
	fclose(f);
	return t != NULL ? t : bt_xstrdup("");
}

static void
sel_title(FILE *f, const void *sel, uint64_t total)
{
	title(f, (struct bt_selection *)sel, total);
}

int
export_flamegraph(FILE *out, struct bt_selection *sel, struct bt_error *err)
{
	struct bt_flame *fl = bt_flame_new(sel);
	char *t = title_of(sel_title, sel, bt_flame_frame(fl, 0)->samples);
	int ret = flame_svg(out, fl, t, NULL, err);

	free(t);
	bt_flame_free(fl);
	return ret;
}

struct diff_title {
	struct bt_selection *a, *b;
	const char *bench;
};

static void
diff_title_put(FILE *f, const void *arg, uint64_t total)
{
	const struct diff_title *dt = arg;
	const struct bt_profile_info *pa = dt->a != NULL ?
	    bt_session_info(bt_selection_session(dt->a)) : NULL;
	const struct bt_profile_info *pb = bt_session_info(bt_selection_session(dt->b));

	fputs("Differential flame graph: A ", f);
	if (pa == NULL)
		fputs("(no such benchmark)", f);
	else
		xml(f, pa->command != NULL ? pa->command : "");
	fputs(", B ", f);
	xml(f, pb->command != NULL ? pb->command : "");
	if (dt->bench != NULL) {
		fputs(", benchmark ", f);
		xml(f, dt->bench);
	}
	fputs(", ", f);
	xml(f, bt_selection_event(dt->b));
	fprintf(f, ", B's %llu samples; red: a larger share in B, blue: smaller",
	    (unsigned long long)total);
}

int
export_flamegraph_diff(FILE *out, struct bt_selection *a, struct bt_selection *b,
		       const char *bench, struct bt_error *err)
{
	struct bt_flame *fb = bt_flame_new(b), *fa = a != NULL ? bt_flame_new(a) : NULL;
	size_t n = bt_flame_nframes(fb), i, *amap = bt_xcalloc(n + 1, sizeof(size_t));
	double *sa = bt_xcalloc(n + 1, sizeof(double));
	uint64_t ta = fa != NULL ? bt_flame_frame(fa, 0)->samples : 0;
	uint64_t tb = bt_flame_frame(fb, 0)->samples;
	struct diff_title dt = { a, b, bench };
	struct fdiff fd = { sa, 0 };
	char *t;
	int ret;

	/* B's frames in A: the child of the parent's frame with the same name */
	for (i = 0; i < n; i++) {
		const struct bt_flame_frame *f = bt_flame_frame(fb, i);
		size_t c = BT_FRAME_NONE;

		if (fa == NULL)
			;
		else if (i == 0)
			c = 0;
		else if (amap[f->parent] != BT_FRAME_NONE)
			for (c = bt_flame_frame(fa, amap[f->parent])->child; c != BT_FRAME_NONE;
			     c = bt_flame_frame(fa, c)->next)
				if (strcmp(bt_flame_frame(fa, c)->name, f->name) == 0)
					break;
		amap[i] = c;
		sa[i] = c != BT_FRAME_NONE && ta ?
		    (double)bt_flame_frame(fa, c)->samples / (double)ta : 0;
		if (tb && fabs((double)f->samples / (double)tb - sa[i]) > fd.max)
			fd.max = fabs((double)f->samples / (double)tb - sa[i]);
	}
	t = title_of(diff_title_put, &dt, tb);
	ret = flame_svg(out, fb, t, &fd, err);
	free(t);
	free(amap);
	free(sa);
	bt_flame_free(fb);
	if (fa != NULL)
		bt_flame_free(fa);
	return ret;
}
