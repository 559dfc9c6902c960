/*
 * Painting the browser: the header bar from the summary view, the title,
 * rows [top, top + height) of the current view, its branch arrows,
 * the pane a screen keeps below its rows and the status line. What each
 * screen adds (its title note, its pane, its hint) comes from the browser.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchtui/browse.h"
#include "benchtui/session.h"
#include "benchtui/view.h"
#include "tui-int.h"

/*
 * A screen's pane (the lint screen's: the cursor's finding, whole, its
 * message wrapped, which the rows cut at the screen's width) takes the
 * last lines, on a screen tall enough.
 */
#define PANE_LINES 6

static bool
has_pane(const struct tui *t)
{
	return t->b != NULL && bt_browser_pane(t->b, NULL) && LINES >= 16;
}

size_t
tui_body_height(const struct tui *t)
{
	int h = LINES - HEAD_LINES - 1 - (has_pane(t) ? PANE_LINES : 0);

	return h > 1 ? (size_t)h : 1;
}

/* The terminal's character set is not UTF-8 (LANG=C): tui_put writes ASCII. */
static bool ascii_only;

void
tui_set_ascii(bool ascii)
{
	ascii_only = ascii;
}

/* An ASCII character in place of code point c, one column for one. */
static char
ascii_of(unsigned c)
{
	static const struct {
		unsigned c;
		char a;
	} map[] = {
		{ 0x2026, '.' }, { 0x00b1, '+' }, { 0x00d7, 'x' }, { 0x00b5, 'u' },
		{ 0x03bc, 'u' }, { 0x2248, '=' }, { 0x2191, '^' }, { 0x2193, 'v' },
		{ 0x2190, '<' }, { 0x2192, '>' }, { 0x2502, '|' }, { 0x2500, '-' },
		{ 0x2514, '+' }, { 0x2518, '+' }, { 0x2510, '+' }, { 0x250c, '+' },
		{ 0x25b6, '>' }, { 0x2039, '<' }, { 0x203a, '>' }, { 0x00a7, 'S' },
		{ 0x207b, '-' }, { 0x2074, '4' }, { 0x00b7, '.' }, { 0x2013, '-' },
		{ 0x2014, '-' }, { 0x2018, '\'' }, { 0x2019, '\'' }, { 0x201c, '"' },
		{ 0x201d, '"' }, { 0x00a0, ' ' },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].c == c)
			return map[i].a;
	if (c >= 0x2581 && c <= 0x2588)	/* bar blocks */
		return '#';
	return '?';
}

/* s with every non-ASCII character as one ASCII one (columns kept). */
static const char *
to_ascii(const char *s)
{
	static char *buf;
	static size_t cap;
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), o = 0;

	if (n + 1 > cap) {
		char *nb = realloc(buf, n + 1);
		if (nb == NULL)
			return s;
		buf = nb;
		cap = n + 1;
	}
	while (*p) {
		unsigned c = *p, len = 1, k;
		if (c < 0x80) {
			buf[o++] = (char)*p++;
			continue;
		}
		if ((c & 0xe0) == 0xc0)
			c &= 0x1f, len = 2;
		else if ((c & 0xf0) == 0xe0)
			c &= 0x0f, len = 3;
		else if ((c & 0xf8) == 0xf0)
			c &= 0x07, len = 4;
		for (k = 1; k < len && (p[k] & 0xc0) == 0x80; k++)
			c = c << 6 | (p[k] & 0x3f);
		buf[o++] = ascii_of(c);
		p += k;
		while ((*p & 0xc0) == 0x80)	/* stray continuation bytes */
			p++;
	}
	buf[o] = '\0';
	return buf;
}

int
tui_put(int y, int x, const char *text, int maxx, attr_t attr)
{
	static struct bt_textbuf safe;	/* names from the recording, escaped */
	int n = 0, cols = 0;
	const unsigned char *p;

	if (x >= maxx)
		return x;
	text = bt_text_safe(text, &safe);
	if (ascii_only)
		text = to_ascii(text);
	p = (const unsigned char *)text;
	/* count bytes that fit: ASCII is one column; other characters one each (ncursesw) */
	while (p[n] && x + cols < maxx) {
		if (p[n] == '\t') {
			break;
		}
		if (p[n] < 0x80)
			n++;
		else {
			n++;
			while ((p[n] & 0xc0) == 0x80)
				n++;
		}
		cols++;
	}
	attron(attr);
	mvaddnstr(y, x, text, n);
	attroff(attr);
	x += cols;
	if (p[n] == '\t') {	/* expand tabs to the next multiple of 8 */
		int next = x + 8 - x % 8;
		attron(attr);
		while (x < next && x < maxx)
			mvaddch(y, x++, ' ');
		attroff(attr);
		return tui_put(y, x, text + n + 1, maxx, attr);
	}
	return x;
}

/* Columns a UTF-8 string takes (tabs count as one: only for names and messages). */
static int
ncols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/*
 * The column after s drawn from column x as tui_put draws it (a tab to
 * the next multiple of 8: source lines keep theirs); with trimmed, after
 * its last character that is not blank (a cell's padding).
 */
static int
span(int x, const char *s, bool trimmed)
{
	int end = x;

	for (; *s; s++) {
		if (*s == '\t')
			x += 8 - x % 8;
		else if (((unsigned char)*s & 0xc0) != 0x80) {
			x++;
			if (*s != ' ')
				end = x;
		}
	}
	return trimmed ? end : x;
}

/* Columns of s without its trailing spaces (a cell's padding). */
static int
ncols_trimmed(const char *s)
{
	int n = 0, last = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80) {
			n++;
			if (*s != ' ')
				last = n;
		}
	return last;
}

/* Byte offset of column col in s (its end if shorter). */
static size_t
col_offset(const char *s, int col)
{
	size_t i = 0;

	for (; s[i] && col > 0; col--)
		for (i++; ((unsigned char)s[i] & 0xc0) == 0x80; i++)
			;
	return i;
}

/* Does byte h of s end a word (a space or punctuation next)? */
static bool
word_end(const char *s, size_t h)
{
	return h == 0 || s[h] == ' ' || s[h - 1] == ' ' || (s[h] != '\0' && strchr(",;:)", s[h]));
}

/*
 * Text of words (a command line), cut at head h and tail t
 * (byte offsets): the cut moved between words where one is near (a
 * quarter of width), the tail taking its first word whole and the head
 * giving that up, back to a word's end: "openssl…-seconds 1 -evp sha256",
 * not "openssl speed -…ds 1 -evp sha256".
 */
static void
words(const char *s, int width, size_t *h, size_t *t)
{
	size_t w = *t, reach = (size_t)width / 4, nh, at;
	int tail;

	while (w > 0 && s[w - 1] != ' ' && *t - w < reach)
		w--;
	if (w == 0 || s[w - 1] != ' ')
		return;
	tail = ncols(s + w);
	if (width - 1 - tail < width / 4)
		return;
	nh = at = col_offset(s, width - 1 - tail);
	while (nh > 0 && !word_end(s, nh) && at - nh < reach)
		nh--;
	if (!word_end(s, nh))
		return;
	while (nh > 0 && s[nh - 1] == ' ')
		nh--;
	if (nh == 0)
		return;
	*h = nh;
	*t = w;
}

/* s in width columns, its middle cut; by_words: between words (words()) */
static const char *
elide(const char *s, int width, char *buf, size_t len, bool by_words)
{
	int n = ncols(s), head, tail;
	size_t h, t;

	if (n <= width || width < 3) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	head = (width - 1) / 2;
	tail = width - 1 - head;
	h = col_offset(s, head);
	t = col_offset(s, n - tail);
	if (by_words)
		words(s, width, &h, &t);
	snprintf(buf, len, "%.*s\u2026%s", (int)h, s, s + t);
	return buf;
}

const char *
tui_elide(const char *s, int width, char *buf, size_t len)
{
	return elide(s, width, buf, len, false);
}

/*
 * The header bar: the run's summary; the findings part in the warning
 * colour, kept whatever the width: on a narrow screen the rest gives way
 * (the program's name, a zero lost count, the frequency, then the command
 * is shortened in its middle). A selection (a benchmark, a process or
 * thread, a time window, a comparison's two sides) comes first, with its
 * own samples and duration: it goes last, shortened in its middle.
 */
static void
draw_header(struct tui *t)
{
	struct bt_view *h = bt_view_header(bt_browser_selection(t->b));
	const struct bt_view_summary *m = bt_view_summary(h);
	char buf[1024], ev[96], lint[64] = "", lost[48] = "", cmd[512];
	char scope[512], what[600] = "", dur[80] = "", samples[32];
	int x, step;
	/* a comparison names its sides, each with its samples and duration */
	bool own = bt_browser_scope(t->b, scope, sizeof(scope))[0] != '\0';

	if (!own && m->scope != NULL)
		snprintf(scope, sizeof(scope), "%s", m->scope);
	if (own)
		;
	else if (m->has_span)
		snprintf(dur, sizeof(dur), ", %.3f s of %.3f s", m->span, m->duration);
	else
		snprintf(dur, sizeof(dur), ", %.3f s", m->duration);
	snprintf(samples, sizeof(samples), "%llu samples", (unsigned long long)m->samples);
	if (m->nfindings)
		snprintf(lint, sizeof(lint), " | %zu lint finding%s: L", m->nfindings,
		    m->nfindings == 1 ? "" : "s");
	snprintf(cmd, sizeof(cmd), "%s", m->command);
	snprintf(what, sizeof(what), "%s", scope);
	for (step = 0;; step++) {
		if (m->frequency && step < 3)
			snprintf(ev, sizeof(ev), "%s %u Hz%s%s", m->event, m->frequency,
			    m->event_group && step < 2 ? " in " : "",
			    m->event_group && step < 2 ? m->event_group : "");
		else
			snprintf(ev, sizeof(ev), "%s", m->event);
		if (m->lost || step < 2)
			snprintf(lost, sizeof(lost), ", %llu lost", (unsigned long long)m->lost);
		else
			lost[0] = '\0';
		if (scope[0])	/* the selection, its samples and duration first */
			snprintf(buf, sizeof(buf), "%s%s%s%s%s%s%s%s%s%s%s%s",
			    step < 1 ? " benchtui  " : " ", what, own ? "" : ": ",
			    own ? "" : samples, own ? "" : lost, dur,
			    step < 5 ? " | " : "", step < 5 ? cmd : "",
			    step < 5 ? " | " : "", step < 5 ? ev : "",
			    m->has_status ? " | " : "", m->has_status ? m->status : "");
		else
			snprintf(buf, sizeof(buf), "%s%s | %s | %llu samples%s | %.3f s%s%s",
			    step < 1 ? " benchtui  " : " ", cmd, ev,
			    (unsigned long long)m->samples, lost, m->duration,
			    m->has_status ? " | " : "", m->has_status ? m->status : "");
		if (step == 0)
			snprintf(t->header, sizeof(t->header), "%s%s", buf, lint);
		if (ncols(buf) + ncols(lint) <= COLS || step >= (scope[0] ? 6 : 4))
			break;
		if (step == 3) {
			int over = ncols(buf) + ncols(lint) - COLS;
			elide(m->command, TUI_MAX(ncols(m->command) - over, 8), cmd, sizeof(cmd), true);
		}
		if (step == 5) {
			int over = ncols(buf) + ncols(lint) - COLS;
			tui_elide(scope, TUI_MAX(ncols(scope) - over, 12), what, sizeof(what));
		}
	}
	attron(A_REVERSE);
	mvhline(0, 0, ' ', COLS);
	attroff(A_REVERSE);
	x = tui_put(0, 0, buf, COLS - ncols(lint), A_REVERSE |
	    (m->lost || (m->has_status && m->exit_code) ? A_BOLD : 0));
	tui_put(0, x, lint, COLS, A_REVERSE | t->attr[BT_STYLE_WARN]);
	if (ncols(buf) + ncols(lint) > COLS)	/* cut: ~ shows it whole */
		tui_put(0, COLS - 1 - (int)ncols(lint), "~", COLS, A_REVERSE | A_BOLD);
	bt_view_free(h);
}

/* The title line: the view's title (its name shortened to fit), then the modes. */
static void
draw_title(struct tui *t, const struct bt_view *v)
{
	const struct bt_view_opts *o = bt_browser_opts(t->b);
	const char *title = bt_view_title(v);
	char right[160], filt[300] = "", buf[1024], name[512];
	size_t start, len;
	int x, room;

	move(1, 0);
	clrtoeol();
	snprintf(right, sizeof(right), "%s %s %s %s%s%s ",
	    o->skid ? "[skid]" : "[raw]",
	    o->global_percent ? "[global%]" : "[local%]",
	    o->source ? "[src]" : "[no src]",
	    o->syntax == BT_ASM_INTEL ? "[intel]" : "[att]",
	    o->names == BT_NAMES_FOLDED ? " [<\u2026>]" : o->names == BT_NAMES_FULL ?
	    " [whole names]" : "", o->compact ? " [compact]" : "");
	bt_browser_title_note(t->b, filt, sizeof(filt));
	/* the modes give way first, then the function's name (in its middle) */
	room = COLS - ncols(filt) - ncols(right) - 1;
	if (ncols(title) > room) {
		right[0] = '\0';
		room = COLS - ncols(filt);
	}
	bt_view_title_span(v, &start, &len);
	if (ncols(title) > room && len > 0 && start + len <= strlen(title)) {
		char whole[512];
		int over = ncols(title) - room;
		snprintf(whole, sizeof(whole), "%.*s", (int)len, title + start);
		tui_elide(whole, TUI_MAX(ncols(whole) - over, 12), name, sizeof(name));
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)start, title, name,
		    title + start + len);
		title = buf;
	}
	x = tui_put(1, 0, title, COLS, t->attr[BT_STYLE_TITLE]);
	if (filt[0])
		x = tui_put(1, x, filt, COLS, t->attr[BT_STYLE_WARN]);
	if (ncols(title) + ncols(filt) > COLS)	/* cut: ~ shows it whole */
		tui_put(1, COLS - 1, "~", COLS, A_BOLD | t->attr[BT_STYLE_WARN]);
	if (right[0] && ncols(right) + x + 1 <= COLS)
		tui_put(1, COLS - ncols(right), right, COLS, A_DIM);
}

/* Does row r fit the screen's width? */
static bool
row_fits(const struct bt_row *r)
{
	int w = 0;
	size_t i;

	for (i = 0; i < r->ncells; i++)
		w = span(w, r->cells[i].text, false);
	return w <= COLS;
}

static void
draw_row(struct tui *t, int y, const struct bt_row *r, bool cursor)
{
	int x = 0;
	size_t i;
	attr_t base = cursor ? A_REVERSE : 0;
	bool cut = false, frames = r->kind == BT_ROW_FRAMES;

	move(y, 0);
	clrtoeol();
	if (frames)	/* a flame graph's depth: the cursor is its path's frame */
		base = 0;
	if (cursor && !frames) {
		attron(A_REVERSE);
		mvhline(y, 0, ' ', COLS);
		attroff(A_REVERSE);
	}
	for (i = 0; i < r->ncells && x < COLS; i++) {
		const char *text = r->cells[i].text;
		char buf[1024];
		/*
		 * A name that ends the row and does not fit loses its middle,
		 * not its end: the end tells two instantiations apart
		 */
		if (i + 1 == r->ncells && r->name != NULL && x + ncols(text) > COLS)
			text = tui_elide(text, COLS - x, buf, sizeof(buf));
		if (span(x, text, true) > COLS)	/* tabs as tui_put expands them */
			cut = true;
		x = tui_put(y, x, text, COLS, t->attr[r->cells[i].style] | base |
		    (frames && i == r->insn ? (cursor ? A_REVERSE : A_BOLD) : 0));
	}
	for (; i < r->ncells; i++)	/* cells past the edge with something in them */
		if (ncols_trimmed(r->cells[i].text) > 0)
			cut = true;
	if (cut)	/* cut at the edge: ~ shows it whole */
		tui_put(y, COLS - 1, "~", COLS, A_BOLD | t->attr[BT_STYLE_WARN] | base);
}

int
tui_put_wrapped(int y, int y_end, int x0, const char *text, attr_t attr, bool *was_cut)
{
	int width = COLS - x0;
	const char *p = text;

	while (*p && y < y_end) {
		size_t cut = col_offset(p, width), brk = cut;
		if (p[cut] != '\0') {
			while (brk > 0 && p[brk] != ' ')
				brk--;
			if (brk == 0)
				brk = cut;
		}
		if (y == y_end - 1 && p[brk] != '\0' && ncols(p) > width) {
			/* the last line: as much as fits, and a mark that there is more */
			char last[1024];
			/* (and room for the caller's "~") */
			snprintf(last, sizeof(last), "%.*s\u2026",
			    (int)col_offset(p, width - (was_cut != NULL ? 2 : 1)), p);
			tui_put(y, x0, last, COLS, attr);
			if (was_cut != NULL)
				*was_cut = true;
			return y + 1;
		}
		{
			char line[1024];
			snprintf(line, sizeof(line), "%.*s", (int)brk, p);
			tui_put(y, x0, line, COLS, attr);
		}
		p += brk;
		while (*p == ' ')
			p++;
		y++;
	}
	return y;
}

/* The screen's pane: its first line in the warning colour, the rest wrapped. */
static void
draw_pane(struct tui *t)
{
	struct bt_pane p;
	int y = LINES - 1 - PANE_LINES;

	if (!has_pane(t) || !bt_browser_pane(t->b, &p) || p.text == NULL)
		return;
	attron(A_DIM);
	mvhline(y, 0, ACS_HLINE, COLS);
	attroff(A_DIM);
	bool cut = false;
	y = tui_put_wrapped(y + 1, LINES - 1, 1, p.head, t->attr[BT_STYLE_WARN], &cut);
	if (y >= LINES - 1 && p.text[0])
		cut = true;
	else
		tui_put_wrapped(y, LINES - 1, 1, p.text, 0, &cut);
	if (cut)	/* the key that shows it whole */
		tui_put(LINES - 2, COLS - 1, "~", COLS, A_BOLD | t->attr[BT_STYLE_WARN]);
}

/* A lane column's character: box drawing (UTF-8), else the view's ASCII. */
static const char *
lane_glyph(unsigned m, bool utf8)
{
	static const char *const box[16] = {
		" ", "\u2502", "\u2502", "\u2502", "\u2500", "\u2518", "\u2510", "\u2524",
		"\u2500", "\u2514", "\u250c", "\u251c", "\u2500", "\u2534", "\u252c", "\u253c",
	};
	static char ascii[2];
	unsigned lines = m & (BT_LANE_UP | BT_LANE_DOWN | BT_LANE_LEFT | BT_LANE_RIGHT);

	if (!utf8) {
		ascii[0] = bt_lane_ascii(m);
		return ascii;
	}
	if (m & BT_LANE_HEAD)
		return "\u25b6";
	if (lines == (BT_LANE_UP | BT_LANE_DOWN) && (m & BT_LANE_FOLDED))
		return "\u2506";	/* several arrows in one lane: dashed */
	return box[lines];
}

/*
 * Is column k (of nl) of row lit as the cursor's arrow: the cursor's
 * jump from it to its target, or every jump landing on the cursor's row
 * (the arrows in to[0..nto))?
 */
static bool
lane_lit(const struct bt_view *v, const struct bt_arrow *ar, size_t cursor,
	 long cur, const long *to, size_t nto, size_t row, size_t k, size_t nl)
{
	size_t i;

	if (cur >= 0) {
		const struct bt_arrow *a = &ar[cur];
		size_t ca = nl - 2 - (size_t)a->lane, t = (size_t)a->target;
		if (k == ca && row >= (cursor < t ? cursor : t) && row <= TUI_MAX(cursor, t))
			return true;
		if ((row == cursor || row == t) && k >= ca)
			return true;
	}
	for (i = 0; i < nto; i++) {
		const struct bt_arrow *a = &ar[to[i]];
		size_t ca = nl - 2 - (size_t)a->lane;
		if (k == ca && (long)row >= a->first && (long)row <= a->last)
			return true;
		if (k >= ca && (row == cursor || bt_view_row_arrow(v, row) == to[i]))
			return true;
	}
	return false;
}

#define LIT_MAX 8	/* arrows landing on one row lit at once */

/*
 * Every branch arrow of the rows shown, in the view's lanes (the view
 * wrote them in ASCII): box-drawing characters under UTF-8; loops in
 * their colour, jumps in theirs, the cursor's arrow lit.
 */
static void
draw_arrows(struct tui *t, const struct bt_view *v, const struct bt_nav *n, size_t h)
{
	const struct bt_arrow *ar;
	size_t na = bt_view_arrows(v, &ar), nl, i, k, nto = 0;
	long gx = bt_view_arrow_col(v), cur = bt_view_row_arrow(v, n->cursor), to[LIT_MAX];

	if (na == 0 || gx < 0)
		return;
	for (i = 0; i < na && nto < LIT_MAX; i++)
		if ((size_t)ar[i].target == n->cursor)
			to[nto++] = (long)i;
	for (i = 0; i < h && n->top + i < bt_view_nrows(v); i++) {
		size_t row = n->top + i;
		const struct bt_lane *l = bt_view_lanes(v, row, &nl);
		attr_t base = row == n->cursor ? A_REVERSE : 0, attr;
		int y = HEAD_LINES + (int)i;

		for (k = 0; k < nl && gx + (long)k < COLS; k++) {
			int owner = l[k].horiz >= 0 ? l[k].horiz : l[k].vert;
			if (l[k].mask == 0 || owner < 0)
				continue;
			if (lane_lit(v, ar, n->cursor, cur, to, nto, row, k, nl))
				/* without colour, loops are bold: lit is underlined too */
				attr = t->attr[BT_STYLE_WARN] | A_BOLD |
				    (t->color ? 0 : A_UNDERLINE);
			else
				attr = t->attr[ar[owner].flags & BT_ARROW_LOOP ?
				    BT_STYLE_LOOP : BT_STYLE_ARROW];
			attron(attr | base);
			mvaddstr(y, (int)gx + (int)k, lane_glyph(l[k].mask, t->utf8));
			attroff(attr | base);
		}
	}
}

/*
 * The status line: the last action's message; when idle, the whole of
 * what the cursor row shortens (a C++ name, a call's target) or cuts,
 * else the view's first note, else the keys that matter here.
 */
const char *
tui_status_text(struct tui *t, const char *msg, char *buf, size_t len, attr_t *attr)
{
	const struct bt_view *v = bt_browser_view(t->b);
	const struct bt_row *r = bt_view_row(v, bt_browser_nav(t->b)->cursor);
	const char *text;

	*attr = 0;
	if (msg != NULL && msg[0]) {
		text = msg;
		*attr = A_BOLD;
	} else if (r != NULL && r->detail != NULL)
		text = r->detail;
	else if (r != NULL && r->name != NULL && !row_fits(r))
		text = r->name;
	else if (bt_view_nnotes(v)) {
		text = bt_view_note(v, 0);
		*attr = t->attr[BT_STYLE_WARN];
	} else {
		text = bt_browser_hint(t->b);
		*attr = A_DIM;
	}
	snprintf(buf, len, "%s", text);
	return buf;
}

/*
 * A status line longer than the screen ends in "~": the key that shows
 * it whole. Names lose their middle (their end tells instantiations
 * apart), messages their end.
 */
static void
draw_status(struct tui *t, const char *msg)
{
	char text[1024], buf[1024];
	attr_t attr;
	int x;

	tui_status_text(t, msg, text, sizeof(text), &attr);
	move(LINES - 1, 0);
	clrtoeol();
	if (ncols(text) <= COLS) {
		tui_put(LINES - 1, 0, text, COLS, attr);
		return;
	}
	if (attr == 0)	/* a name */
		x = tui_put(LINES - 1, 0, tui_elide(text, COLS - 1, buf, sizeof(buf)),
		    COLS - 1, attr);
	else {
		snprintf(buf, sizeof(buf), "%.*s%s", (int)col_offset(text, COLS - 2),
		    text, t->utf8 ? "\u2026" : ">");
		x = tui_put(LINES - 1, 0, buf, COLS - 1, attr);
	}
	tui_put(LINES - 1, x, "~", COLS, A_BOLD | t->attr[BT_STYLE_WARN]);
}

void
tui_draw(struct tui *t)
{
	const struct bt_view *v = bt_browser_view(t->b);
	const struct bt_nav *n = bt_browser_nav(t->b);
	size_t h = tui_body_height(t), i;

	erase();
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		mvprintw(0, 0, "benchtui needs at least %dx%d", MIN_COLS, MIN_LINES);
		mvprintw(1, 0, "(now %dx%d): enlarge the window, or q to quit", COLS, LINES);
		refresh();
		return;
	}
	draw_header(t);
	draw_title(t, v);
	draw_row(t, 2, bt_view_columns(v), false);
	if (bt_view_nrows(v) > h) {
		/* rows out of view: which are shown, as less's "lines 4-23/120" */
		char where[64];
		size_t last = TUI_MAX(n->top + h, n->top + 1);
		snprintf(where, sizeof(where), " %s%zu-%zu/%zu%s ", n->top > 0 ?
		    (t->utf8 ? "\u2191" : "^") : "", n->top + 1,
		    last < bt_view_nrows(v) ? last : bt_view_nrows(v), bt_view_nrows(v),
		    last < bt_view_nrows(v) ? (t->utf8 ? "\u2193" : "v") : "");
		tui_put(2, COLS - ncols(where), where, COLS, A_BOLD);
	}
	for (i = 0; i < h && n->top + i < bt_view_nrows(v); i++)
		draw_row(t, HEAD_LINES + (int)i, bt_view_row(v, n->top + i),
		    n->top + i == n->cursor);
	if (bt_view_nrows(v) == 0)	/* nothing to show: say why, where the rows go */
		for (i = 0; i < bt_view_nnotes(v) && i < h; i++)
			tui_put(HEAD_LINES + 1 + (int)i, 2, bt_view_note(v, i), COLS,
			    t->attr[BT_STYLE_WARN]);
	draw_arrows(t, v, n, h);
	draw_pane(t);
	if (bt_browser_status(t->b)[0])
		snprintf(t->last_msg, sizeof(t->last_msg), "%s", bt_browser_status(t->b));
	draw_status(t, bt_browser_status(t->b));
	refresh();
}
