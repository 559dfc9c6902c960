/*
 * The ncurses browser: paint the browser's current view, map keys to core
 * actions, run the few prompts (search, filter, export). Everything a view
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

static size_t
body_height(void)
{
	return LINES > HEAD_LINES + 1 ? (size_t)(LINES - HEAD_LINES - 1) : 1;
}

/* Print text from (y, x) up to column maxx, in attr; returns the new x. */
static int
put(int y, int x, const char *text, int maxx, attr_t attr)
{
	int n = 0, cols = 0;
	const unsigned char *p = (const unsigned char *)text;

	if (x >= maxx)
		return x;
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

/* The header bar: the run's summary; the findings part in the warning colour. */
static void
draw_header(struct tui *t)
{
	struct bt_view *h = bt_view_header(t->s);
	const struct bt_view_summary *m = bt_view_summary(h);
	char buf[1024], win[80] = "", ev[96], lint[64] = "";
	int x;

	if (m->windowed)
		snprintf(win, sizeof(win), " (window %.3f-%.3f s)", m->win_from, m->win_to);
	if (m->frequency)
		snprintf(ev, sizeof(ev), "%s %u Hz", m->event, m->frequency);
	else
		snprintf(ev, sizeof(ev), "%s", m->event);
	snprintf(buf, sizeof(buf),
	    " benchtui  %s | %s | %llu samples%s, %llu lost | %.3f s%s%s",
	    m->command, ev, (unsigned long long)m->samples, win,
	    (unsigned long long)m->lost, m->duration, m->has_status ? " | " : "",
	    m->has_status ? m->status : "");
	if (m->nfindings)
		snprintf(lint, sizeof(lint), " | %zu lint finding%s: L", m->nfindings,
		    m->nfindings == 1 ? "" : "s");
	attron(A_REVERSE);
	mvhline(0, 0, ' ', COLS);
	attroff(A_REVERSE);
	x = put(0, 0, buf, COLS, A_REVERSE |
	    (m->lost || (m->has_status && m->exit_code) ? A_BOLD : 0));
	put(0, x, lint, COLS, A_REVERSE | t->attr[BT_STYLE_WARN]);
	bt_view_free(h);
}

static void
draw_title(struct tui *t, const struct bt_view *v)
{
	const struct bt_view_opts *o = bt_browser_opts(t->b);
	char right[128];
	int x;

	move(1, 0);
	clrtoeol();
	x = put(1, 0, bt_view_title(v), COLS, t->attr[BT_STYLE_TITLE]);
	if (bt_browser_screen(t->b) == BT_SCREEN_FUNCS && bt_browser_filter_text(t->b)[0])
		x = put(1, x, "  filter: ", COLS, 0),
		x = put(1, x, bt_browser_filter_text(t->b), COLS, t->attr[BT_STYLE_WARN]);
	snprintf(right, sizeof(right), "%s %s %s %s ",
	    o->skid ? "[skid]" : "[raw]",
	    o->global_percent ? "[global%]" : "[local%]",
	    o->source ? "[src]" : "[no src]",
	    o->syntax == BT_ASM_INTEL ? "[intel]" : "[att]");
	if ((int)strlen(right) + x + 2 < COLS)
		put(1, COLS - (int)strlen(right), right, COLS, A_DIM);
	/* the first note of the view, if any, replaces nothing: it goes to the status line */
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
	for (i = 0; i < r->ncells && x < COLS; i++)
		x = put(y, x, r->cells[i].text, COLS, t->attr[r->cells[i].style] | base);
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

static void
draw_status(struct tui *t, const char *msg)
{
	const struct bt_view *v = bt_browser_view(t->b);
	const char *hint = bt_browser_hint(t->b);

	move(LINES - 1, 0);
	clrtoeol();
	if (msg != NULL && msg[0])
		put(LINES - 1, 0, msg, COLS, A_BOLD);
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
	size_t h = body_height(), i;

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
	draw_jump(t, v, n, h);
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

static void
do_export(struct tui *t)
{
	char *def = bt_browser_export_name(t->b);
	char path[1024], yn[8];
	struct bt_error err = { 0 };
	struct stat st;
	FILE *f;

	if (!prompt(t, "export to: ", def, path, sizeof(path)) || path[0] == '\0') {
		bt_browser_set_status(t->b, "export cancelled");
		free(def);
		return;
	}
	free(def);
	if (stat(path, &st) == 0) {
		char label[1200];
		snprintf(label, sizeof(label), "'%s' exists; overwrite? (y/N) ", path);
		if (!prompt(t, label, "", yn, sizeof(yn)) || (yn[0] != 'y' && yn[0] != 'Y')) {
			bt_browser_set_status(t->b, "not overwritten: '%s'", path);
			return;
		}
	}
	f = fopen(path, "w");
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

/* The help screen, generated from the key table. */
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
		for (i = top; i < tui_nkeys && y < LINES; i++, y++) {
			attron(t->attr[BT_STYLE_ADDR]);
			mvaddnstr(y, 2, tui_keymap[i].names, 14);
			attroff(t->attr[BT_STYLE_ADDR]);
			put(y, 18, tui_keymap[i].help, COLS, 0);
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
	if (symbol != NULL) {
		long f = bt_session_find(s, symbol);
		if (f < 0) {
			char *why = bt_session_find_error(s, symbol);
			bt_browser_set_status(t.b, "%s", why);
			free(why);
		} else
			bt_browser_open(t.b, (size_t)f, body_height());
	}
	draw(&t);
	while (!quit_sig) {
		const struct tui_key *k;
		size_t h = body_height();

		c = getch();
		if (c == ERR)
			continue;
		if (c == KEY_RESIZE) {
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
			if (bt_browser_apply(t.b, k->action, h))
				goto out;
			break;
		case TUI_CMD_SEARCH:
		case TUI_CMD_SEARCH_BACK:
			if (bt_browser_screen(t.b) == BT_SCREEN_FUNCS &&
			    k->cmd == TUI_CMD_SEARCH) {
				if (prompt(&t, "filter: ", bt_browser_filter_text(t.b),
				    t.prompt_buf, sizeof(t.prompt_buf)))
					bt_browser_filter(t.b, t.prompt_buf);
			} else if (prompt(&t, k->cmd == TUI_CMD_SEARCH ? "/" : "?", "",
			    t.prompt_buf, sizeof(t.prompt_buf)) && t.prompt_buf[0])
				bt_browser_search(t.b, t.prompt_buf,
				    k->cmd == TUI_CMD_SEARCH_BACK, h);
			break;
		case TUI_CMD_EXPORT:
			do_export(&t);
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
