/*
 * The ncurses browser: paint the browser's current view, map keys to core
 * actions, run the few prompts (whichever the browser says a key opens on
 * this screen: search, filter; export). Everything a view
 * shows comes from core/annotate (view rows); nothing here computes what an
 * export would also need. The terminal is restored on every way out: q,
 * Ctrl-C, SIGTERM/SIGHUP, a fatal error, a crash.
 */
#include <curses.h>
#include <term.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benchtui/browse.h"
#include "benchtui/export.h"
#include "benchtui/session.h"
#include "benchtui/view.h"
#include "keymap.h"
#include "tui.h"

#define TUI_MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN_COLS 60
#define MIN_LINES 10
#define HEAD_LINES 3	/* header bar, title, column headings */

struct tui {
	struct bt_session *s;
	struct bt_browser *b;
	bool color;
	bool utf8;
	attr_t attr[BT_STYLE_COUNT];
	char prompt_buf[1024];
};

static volatile sig_atomic_t quit_sig;
static bool curses_on;

static void
restore_terminal(void)
{
	if (curses_on) {
		curses_on = false;
		endwin();
	}
}

static void
on_quit_signal(int sig)
{
	quit_sig = sig;
}

static void
on_crash(int sig)
{
	restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
setup_styles(struct tui *t)
{
	static const struct { short fg; attr_t extra; attr_t mono; } map[BT_STYLE_COUNT] = {
		[BT_STYLE_NORMAL] = { -1, 0, 0 },
		[BT_STYLE_DIM] = { -1, A_DIM, A_DIM },
		[BT_STYLE_MILD] = { COLOR_GREEN, 0, 0 },
		[BT_STYLE_WARM] = { COLOR_YELLOW, A_BOLD, A_BOLD },
		[BT_STYLE_HOT] = { COLOR_RED, A_BOLD, A_BOLD | A_UNDERLINE },
		[BT_STYLE_ADDR] = { COLOR_CYAN, 0, 0 },
		[BT_STYLE_SOURCE] = { COLOR_BLUE, A_BOLD, A_BOLD },
		[BT_STYLE_INLINE] = { COLOR_MAGENTA, 0, A_DIM },
		[BT_STYLE_JUMP] = { COLOR_CYAN, A_BOLD, 0 },
		[BT_STYLE_CALL] = { COLOR_MAGENTA, A_BOLD, 0 },
		[BT_STYLE_COMMENT] = { -1, A_DIM, A_DIM },
		[BT_STYLE_GUTTER] = { COLOR_YELLOW, 0, 0 },
		[BT_STYLE_TITLE] = { -1, A_BOLD, A_BOLD },
		[BT_STYLE_WARN] = { COLOR_RED, A_BOLD, A_BOLD },
	};
	int i;

	t->color = has_colors() && getenv("NO_COLOR") == NULL;
	if (t->color) {
		start_color();
		use_default_colors();
	}
	for (i = 0; i < BT_STYLE_COUNT; i++) {
		if (!t->color) {
			t->attr[i] = map[i].mono;
			continue;
		}
		if (map[i].fg >= 0 && map[i].fg < COLORS) {
			init_pair((short)(i + 1), map[i].fg, -1);
			t->attr[i] = COLOR_PAIR(i + 1) | map[i].extra;
		} else
			t->attr[i] = map[i].extra;
	}
}

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

static size_t
body_height_of(const struct tui *t)
{
	int h = LINES - HEAD_LINES - 1 - (has_pane(t) ? PANE_LINES : 0);

	return h > 1 ? (size_t)h : 1;
}

/* Print text from (y, x) up to column maxx, in attr; returns the new x. */
static int
put(int y, int x, const char *text, int maxx, attr_t attr)
{
	static struct bt_textbuf safe;	/* names from the recording, escaped */
	int n = 0, cols = 0;
	const unsigned char *p;

	if (x >= maxx)
		return x;
	text = bt_text_safe(text, &safe);
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
		return put(y, x, text + n + 1, maxx, attr);
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

/*
 * s in at most width columns: its middle replaced by "…" when it is
 * longer (the start and the end of a C++ name say the most). Into buf.
 */
static const char *
elide(const char *s, int width, char *buf, size_t len)
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
	snprintf(buf, len, "%.*s\u2026%s", (int)h, s, s + t);
	return buf;
}

/*
 * The header bar: the run's summary; the findings part in the warning
 * colour, kept whatever the width: on a narrow screen the rest gives way
 * (the program's name, a zero lost count, the frequency, then the command
 * is shortened in its middle).
 */
static void
draw_header(struct tui *t)
{
	struct bt_view *h = bt_view_header(t->s);
	const struct bt_view_summary *m = bt_view_summary(h);
	char buf[1024], win[80] = "", ev[96], lint[64] = "", lost[48] = "", cmd[512];
	int x, step;

	if (m->windowed)
		snprintf(win, sizeof(win), " (window %.3f-%.3f s)", m->win_from, m->win_to);
	if (m->nfindings)
		snprintf(lint, sizeof(lint), " | %zu lint finding%s: L", m->nfindings,
		    m->nfindings == 1 ? "" : "s");
	snprintf(cmd, sizeof(cmd), "%s", m->command);
	for (step = 0;; step++) {
		if (m->frequency && step < 3)
			snprintf(ev, sizeof(ev), "%s %u Hz", m->event, m->frequency);
		else
			snprintf(ev, sizeof(ev), "%s", m->event);
		if (m->lost || step < 2)
			snprintf(lost, sizeof(lost), ", %llu lost", (unsigned long long)m->lost);
		else
			lost[0] = '\0';
		snprintf(buf, sizeof(buf), "%s%s | %s | %llu samples%s%s | %.3f s%s%s",
		    step < 1 ? " benchtui  " : " ", cmd, ev,
		    (unsigned long long)m->samples, win, lost, m->duration,
		    m->has_status ? " | " : "", m->has_status ? m->status : "");
		if (ncols(buf) + ncols(lint) <= COLS || step >= 4)
			break;
		if (step == 3) {
			int over = ncols(buf) + ncols(lint) - COLS;
			elide(m->command, TUI_MAX(ncols(m->command) - over, 8), cmd, sizeof(cmd));
		}
	}
	attron(A_REVERSE);
	mvhline(0, 0, ' ', COLS);
	attroff(A_REVERSE);
	x = put(0, 0, buf, COLS - ncols(lint), A_REVERSE |
	    (m->lost || (m->has_status && m->exit_code) ? A_BOLD : 0));
	put(0, x, lint, COLS, A_REVERSE | t->attr[BT_STYLE_WARN]);
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
		elide(whole, TUI_MAX(ncols(whole) - over, 12), name, sizeof(name));
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)start, title, name,
		    title + start + len);
		title = buf;
	}
	x = put(1, 0, title, COLS, t->attr[BT_STYLE_TITLE]);
	if (filt[0])
		x = put(1, x, filt, COLS, t->attr[BT_STYLE_WARN]);
	if (right[0] && ncols(right) + x + 1 <= COLS)
		put(1, COLS - ncols(right), right, COLS, A_DIM);
}

/* Does row r fit the screen's width? */
static bool
row_fits(const struct bt_row *r)
{
	int w = 0;
	size_t i;

	for (i = 0; i < r->ncells; i++)
		w += ncols(r->cells[i].text);
	return w <= COLS;
}

static void
draw_row(struct tui *t, int y, const struct bt_row *r, bool cursor)
{
	int x = 0;
	size_t i;
	attr_t base = cursor ? A_REVERSE : 0;

	move(y, 0);
	clrtoeol();
	if (cursor) {
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
			text = elide(text, COLS - x, buf, sizeof(buf));
		x = put(y, x, text, COLS, t->attr[r->cells[i].style] | base);
	}
}

/* Print text wrapped at word boundaries in lines [y, y_end) from column x0. */
static int
put_wrapped(int y, int y_end, int x0, const char *text, attr_t attr)
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
			snprintf(last, sizeof(last), "%.*s\u2026",
			    (int)col_offset(p, width - 1), p);
			put(y, x0, last, COLS, attr);
			return y + 1;
		}
		{
			char line[1024];
			snprintf(line, sizeof(line), "%.*s", (int)brk, p);
			put(y, x0, line, COLS, attr);
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
	y = put_wrapped(y + 1, LINES - 1, 1, p.head, t->attr[BT_STYLE_WARN]);
	put_wrapped(y, LINES - 1, 1, p.text, 0);
}

/* Arrows for the jump under the cursor, in the view's arrow column. */
static void
draw_jump(struct tui *t, const struct bt_view *v, const struct bt_nav *n, size_t h)
{
	const struct bt_row *r = bt_view_row(v, n->cursor);
	long gx = bt_view_arrow_col(v);
	size_t lo, hi, i;

	if (r == NULL || r->kind != BT_ROW_INSN || r->target_row < 0 || gx < 0 ||
	    gx >= COLS)
		return;
	lo = n->cursor < (size_t)r->target_row ? n->cursor : (size_t)r->target_row;
	hi = n->cursor > (size_t)r->target_row ? n->cursor : (size_t)r->target_row;
	attron(t->attr[BT_STYLE_JUMP] | A_BOLD);
	for (i = lo; i <= hi; i++) {
		int y;
		if (i < n->top || i >= n->top + h)
			continue;
		y = HEAD_LINES + (int)(i - n->top);
		if (i == (size_t)r->target_row)
			mvaddstr(y, (int)gx, t->utf8 ? "\u25b6" : ">");
		else if (i == n->cursor)
			mvaddstr(y, (int)gx, (size_t)r->target_row < n->cursor ?
			    (t->utf8 ? "\u2518" : "^") : (t->utf8 ? "\u2510" : "v"));
		else
			mvaddstr(y, (int)gx, t->utf8 ? "\u2502" : "|");
	}
	attroff(t->attr[BT_STYLE_JUMP] | A_BOLD);
}

/*
 * The status line: the last action's message; when idle, the whole of
 * what the cursor row shortens (a C++ name, a call's target) or cuts,
 * else the view's first note, else the keys that matter here.
 */
static void
draw_status(struct tui *t, const char *msg)
{
	const struct bt_view *v = bt_browser_view(t->b);
	const struct bt_row *r = bt_view_row(v, bt_browser_nav(t->b)->cursor);
	const char *hint = bt_browser_hint(t->b);
	char buf[1024];

	move(LINES - 1, 0);
	clrtoeol();
	if (msg != NULL && msg[0])
		put(LINES - 1, 0, msg, COLS, A_BOLD);
	else if (r != NULL && r->detail != NULL)
		put(LINES - 1, 0, elide(r->detail, COLS, buf, sizeof(buf)), COLS, 0);
	else if (r != NULL && r->name != NULL && !row_fits(r))
		put(LINES - 1, 0, elide(r->name, COLS, buf, sizeof(buf)), COLS, 0);
	else if (bt_view_nnotes(v))
		put(LINES - 1, 0, bt_view_note(v, 0), COLS, t->attr[BT_STYLE_WARN]);
	else
		put(LINES - 1, 0, hint, COLS, A_DIM);
}

static void
draw(struct tui *t)
{
	const struct bt_view *v = bt_browser_view(t->b);
	const struct bt_nav *n = bt_browser_nav(t->b);
	size_t h = body_height_of(t), i;

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
	for (i = 0; i < h && n->top + i < bt_view_nrows(v); i++)
		draw_row(t, HEAD_LINES + (int)i, bt_view_row(v, n->top + i),
		    n->top + i == n->cursor);
	if (bt_view_nrows(v) == 0)	/* nothing to show: say why, where the rows go */
		for (i = 0; i < bt_view_nnotes(v) && i < h; i++)
			put(HEAD_LINES + 1 + (int)i, 2, bt_view_note(v, i), COLS,
			    t->attr[BT_STYLE_WARN]);
	draw_jump(t, v, n, h);
	draw_pane(t);
	draw_status(t, bt_browser_status(t->b));
	refresh();
}

/* A one-line prompt on the status line; false when cancelled. */
static bool
prompt(struct tui *t, const char *label, const char *initial, char *out, size_t len)
{
	size_t n = 0;
	int c;

	snprintf(out, len, "%s", initial ? initial : "");
	n = strlen(out);
	curs_set(1);
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		attron(A_BOLD);
		mvaddstr(LINES - 1, 0, label);
		attroff(A_BOLD);
		addnstr(out, COLS - (int)strlen(label) - 1);
		refresh();
		c = getch();
		if (quit_sig)
			break;
		if (c == ERR)
			continue;
		if (c == '\n' || c == '\r' || c == KEY_ENTER) {
			curs_set(0);
			return true;
		}
		if (c == 27 || c == 7) {	/* Esc, Ctrl-G */
			break;
		}
		if ((c == KEY_BACKSPACE || c == 127 || c == 8) && n > 0) {
			out[--n] = '\0';
			while (n > 0 && ((unsigned char)out[n] & 0xc0) == 0x80)
				out[--n] = '\0';
		} else if (c == 21) {	/* Ctrl-U */
			n = 0;
			out[0] = '\0';
		} else if (c == KEY_RESIZE)
			draw(t);
		else if (c >= 32 && c < 256 && n + 1 < len) {
			out[n++] = (char)c;
			out[n] = '\0';
		}
	}
	curs_set(0);
	return false;
}

/*
 * A yes/no question answered by one key: y or n (Esc, Ctrl-G: no). Keys
 * typed before the question showed are dropped, and other keys do not
 * answer it: a stray key never decides.
 */
static bool
confirm(struct tui *t, const char *question)
{
	int c;

	flushinp();
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		put(LINES - 1, 0, question, COLS, A_BOLD);
		refresh();
		c = getch();
		if (quit_sig)
			return false;
		if (c == 'y' || c == 'Y')
			return true;
		if (c == 'n' || c == 'N' || c == 27 || c == 7)
			return false;
		if (c == KEY_RESIZE)
			draw(t);
	}
}

/* Write the current view to path as text; the status line says how it went. */
static void
write_view(struct tui *t, const char *path)
{
	struct bt_error err = { 0 };
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		bt_browser_set_status(t->b, "cannot write '%s': %s", path, strerror(errno));
		return;
	}
	if (bt_export_view(f, t->s, bt_browser_view(t->b), BT_FORMAT_TEXT, &err) < 0) {
		fclose(f);
		bt_browser_set_status(t->b, "%s", err.msg);
		return;
	}
	if (fclose(f) != 0) {
		bt_browser_set_status(t->b, "cannot write '%s': %s", path, strerror(errno));
		return;
	}
	bt_browser_set_status(t->b, "exported %zu rows to '%s'",
	    bt_view_nrows(bt_browser_view(t->b)), path);
}

static void
do_export(struct tui *t)
{
	char *def = bt_browser_export_name(t->b);
	char path[1024];
	struct stat st;

	if (!prompt(t, "export to: ", def, path, sizeof(path)) || path[0] == '\0') {
		bt_browser_set_status(t->b, "export cancelled");
		free(def);
		return;
	}
	free(def);
	if (stat(path, &st) == 0) {
		char q[1200];
		snprintf(q, sizeof(q), "'%s' exists: overwrite it? (y/n)", path);
		if (!confirm(t, q)) {
			bt_browser_set_status(t->b, "not overwritten: '%s'", path);
			return;
		}
	}
	write_view(t, path);
}

/*
 * P, as in perf: print the view to a file at once, no questions: the
 * export's default name, or NAME.1.txt, NAME.2.txt... when it is taken
 * (perf's perf.hist.N), so nothing is overwritten.
 */
static void
do_print(struct tui *t)
{
	char *def = bt_browser_export_name(t->b);
	char path[1100];
	size_t n = strlen(def);
	struct stat st;
	int i;

	snprintf(path, sizeof(path), "%s", def);
	for (i = 1; stat(path, &st) == 0 && i < 1000; i++)
		snprintf(path, sizeof(path), "%.*s.%d.txt",
		    (int)(n > 4 ? n - 4 : n), def, i);
	free(def);
	write_view(t, path);
}

/* The help screen, generated from the key table; long lines wrap. */
static void
help(struct tui *t)
{
	size_t top = 0, i;
	int c;

	for (;;) {
		int y = 2;
		erase();
		attron(A_BOLD);
		mvaddstr(0, 0, "benchtui keys (any other key returns; j/k scroll)");
		attroff(A_BOLD);
		for (i = top; i < tui_nkeys && y < LINES; i++) {
			attron(t->attr[BT_STYLE_ADDR]);
			mvaddnstr(y, 2, tui_keymap[i].names, 14);
			attroff(t->attr[BT_STYLE_ADDR]);
			y = put_wrapped(y, LINES, 18, tui_keymap[i].help,
			    tui_keymap[i].cmd == TUI_CMD_HINT ? A_DIM : 0);
		}
		refresh();
		do
			c = getch();
		while (c == ERR && !quit_sig);
		if (quit_sig)
			return;
		if ((c == 'j' || c == KEY_DOWN) && top + 1 < tui_nkeys)
			top++;
		else if ((c == 'k' || c == KEY_UP) && top > 0)
			top--;
		else if (c != KEY_RESIZE && c != KEY_MOUSE)
			return;
	}
}

static void
mouse(struct tui *t, size_t h)
{
	MEVENT ev;
	const struct bt_nav *n = bt_browser_nav(t->b);

	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & BUTTON4_PRESSED)
		bt_browser_scroll(t->b, -3, h);
	else if (ev.bstate & BUTTON5_PRESSED)
		bt_browser_scroll(t->b, 3, h);
	else if (ev.y >= HEAD_LINES && ev.y < HEAD_LINES + (int)h &&
	    (ev.bstate & (BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_PRESSED))) {
		size_t row = n->top + (size_t)(ev.y - HEAD_LINES);
		if (row >= bt_view_nrows(bt_browser_view(t->b)))
			return;
		bt_browser_select(t->b, row, h);
		if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
			bt_browser_apply(t->b, BT_ACT_ENTER, h);
	}
}

static void
setup_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_quit_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
}

int
bt_tui_run(struct bt_session *s, const struct bt_export_opts *eo,
	   const char *symbol, struct bt_error *err)
{
	struct tui t;
	SCREEN *scr;
	int c, ret = 0;
	const char *cs;

	memset(&t, 0, sizeof(t));
	t.s = s;
	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	t.utf8 = cs != NULL && strcmp(cs, "UTF-8") == 0;
	if (getenv("ESCDELAY") == NULL)
		setenv("ESCDELAY", "25", 1);
	{
		/*
		 * Probe the terminal type first: newterm() on an unknown or dumb
		 * terminal fails (or limps) and leaks what it allocated.
		 */
		int e = 0;
		bool usable = false;
		if (setupterm(NULL, STDOUT_FILENO, &e) == OK) {
			const char *cup = tigetstr("cup");
			usable = cup != NULL && cup != (char *)-1;
			del_curterm(cur_term);
		}
		if (!usable)
			return bt_error_set(err, BT_ENOTSUP,
			    "terminal '%s' cannot be used for browsing",
			    getenv("TERM") ? getenv("TERM") : "(unset)");
	}
	scr = newterm(NULL, stdout, stdin);
	if (scr == NULL)
		return bt_error_set(err, BT_ENOTSUP,
		    "cannot use terminal '%s': try TERM=xterm, or --stdio",
		    getenv("TERM") ? getenv("TERM") : "(unset)");
	curses_on = true;
	bt_set_fatal_hook(restore_terminal);
	atexit(restore_terminal);
	setup_signals();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	timeout(200);
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED |
	    BUTTON5_PRESSED, NULL);
	setup_styles(&t);

	t.b = bt_browser_new(s, &eo->view);
	bt_browser_set_width(t.b, (size_t)COLS, body_height_of(&t));
	if (symbol != NULL) {
		long f = bt_session_find(s, symbol);
		if (f < 0) {
			char *why = bt_session_find_error(s, symbol);
			bt_browser_set_status(t.b, "%s", why);
			free(why);
		} else
			bt_browser_open(t.b, (size_t)f, body_height_of(&t));
	}
	draw(&t);
	while (!quit_sig) {
		const struct tui_key *k;
		const char *label;
		size_t h = body_height_of(&t);

		c = getch();
		if (c == ERR)
			continue;
		if (c == KEY_RESIZE) {
			bt_browser_set_width(t.b, (size_t)COLS, h);
			bt_browser_select(t.b, bt_browser_nav(t.b)->cursor, h);
			clear();
			draw(&t);
			continue;
		}
		if (COLS < MIN_COLS || LINES < MIN_LINES) {
			if (c == 'q')
				break;
			draw(&t);
			continue;
		}
		if (c == KEY_MOUSE) {
			mouse(&t, h);
			draw(&t);
			continue;
		}
		k = tui_key_lookup(c);
		if (k == NULL) {
			bt_browser_set_status(t.b, "unknown key (h for help)");
			draw(&t);
			continue;
		}
		switch (k->cmd) {
		case TUI_CMD_ACTION:
			/* the action may ask for text first: which prompt is the screen's */
			label = bt_browser_prompt(t.b, k->action);
			if (label == NULL) {
				if (bt_browser_apply(t.b, k->action, h))
					goto out;
			} else if (prompt(&t, label, "", t.prompt_buf, sizeof(t.prompt_buf)))
				bt_browser_apply_text(t.b, k->action, t.prompt_buf, h);
			break;
		case TUI_CMD_EXPORT:
			do_export(&t);
			break;
		case TUI_CMD_PRINT:
			do_print(&t);
			break;
		case TUI_CMD_HINT:
			bt_browser_set_status(t.b, "%s", k->help);
			break;
		case TUI_CMD_HELP:
			help(&t);
			break;
		case TUI_CMD_REDRAW:
			clear();
			break;
		case TUI_CMD_NONE:
			break;
		}
		draw(&t);
	}
out:
	restore_terminal();
	delscreen(scr);
	bt_browser_free(t.b);
	if (quit_sig)
		ret = quit_sig;
	return ret;
}
