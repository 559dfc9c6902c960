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

static void
frame(FILE *f, const struct bt_flame_frame *fr, uint64_t total, double x, double w,
      unsigned maxdepth)
{
	double y = TOP_H + (double)(maxdepth - fr->depth) * FRAME_H;
	int r, g, b;

	colour(fr, &r, &g, &b);
	fprintf(f, "<g class=\"f\" data-samples=\"%llu\" data-x=\"%.4f\" data-w=\"%.4f\" "
	    "data-depth=\"%u\" data-kind=\"%s\" data-fill=\"rgb(%d,%d,%d)\" data-name=\"",
	    (unsigned long long)fr->samples, x, w, fr->depth, bt_frame_kind_name(fr->kind),
	    r, g, b);
	xml(f, fr->name);
	fputs("\"><title>", f);
	xml(f, fr->name);
	if (fr->module != NULL) {
		fputs(" (", f);
		xml(f, fr->module);
		fputs(")", f);
	}
	fprintf(f, ": %llu samples, %.2f%%</title>", (unsigned long long)fr->samples,
	    total ? 100.0 * (double)fr->samples / (double)total : 0);
	fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
	    "fill=\"rgb(%d,%d,%d)\" rx=\"2\" ry=\"2\"/>", x, y, w, FRAME_H - 1, r, g, b);
	fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FRAME_H - 4.5);
	fit_text(f, fr->name, w);
	fputs("</text></g>\n", f);
}

int
export_flamegraph(FILE *out, struct bt_selection *sel, struct bt_error *err)
{
	struct bt_flame *fl = bt_flame_new(sel);
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
	title(out, sel, total);
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
		frame(out, fr, total, x, w, maxdepth);
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
	bt_flame_free(fl);
	if (fflush(out) != 0 || ferror(out))
		return bt_error_errno(err, BT_EIO, errno, "cannot write the export");
	return 0;
}
