/*
 * The ncurses browser: the terminal, keys mapped to core actions, the few
 * prompts (whichever the browser says a key opens on this screen: search,
 * filter; export); painting is draw.c. Everything a view shows comes from
 * core (view rows); nothing here computes what an export would also need.
 * The terminal is restored on every way out: q, Ctrl-C, any signal that
 * ends the process, a fatal error, a crash.
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
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benchtui/browse.h"
#include "benchtui/diff.h"
#include "benchtui/export.h"
#include "benchtui/session.h"
#include "benchtui/view.h"
#include "keymap.h"
#include "tui-int.h"
#include "tui.h"

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
		[BT_STYLE_ARROW] = { COLOR_CYAN, 0, 0 },
		[BT_STYLE_LOOP] = { COLOR_YELLOW, 0, A_BOLD },
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
		/* the default can be a recorded name: escaped (tui_put) */
		move(LINES - 1, tui_put(LINES - 1, tui_put(LINES - 1, 0, label, COLS,
		    A_BOLD), out, COLS - 1, 0));
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
			tui_draw(t);
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
		tui_put(LINES - 1, 0, question, COLS, A_BOLD);
		refresh();
		c = getch();
		if (quit_sig)
			return false;
		if (c == 'y' || c == 'Y')
			return true;
		if (c == 'n' || c == 'N' || c == 27 || c == 7)
			return false;
		if (c == KEY_RESIZE)
			tui_draw(t);
	}
}

/*
 * Write the current view to path, every name whole: JSON when path ends
 * in ".json", else text; the status line says how it went.
 */
static void
write_view(struct tui *t, const char *path)
{
	struct bt_error err = { 0 };
	size_t n = strlen(path), rows;
	enum bt_format fmt = n >= 5 && strcasecmp(path + n - 5, ".json") == 0 ?
	    BT_FORMAT_JSON : BT_FORMAT_TEXT;
	struct bt_view *v = bt_browser_export_view(t->b, &err);
	FILE *f;

	if (v == NULL) {
		bt_browser_set_status(t->b, "%s", err.msg);
		return;
	}
	rows = bt_view_nrows(v);
	if ((f = fopen(path, "w")) == NULL) {
		bt_browser_set_status(t->b, "cannot write '%s': %s", path, strerror(errno));
		bt_view_free(v);
		return;
	}
	if (bt_export_view(f, bt_browser_selection(t->b), v, fmt, &err) < 0) {
		fclose(f);
		bt_view_free(v);
		bt_browser_set_status(t->b, "%s", err.msg);
		return;
	}
	bt_view_free(v);
	if (fclose(f) != 0) {
		bt_browser_set_status(t->b, "cannot write '%s': %s", path, strerror(errno));
		return;
	}
	bt_browser_set_status(t->b, "exported %zu rows to '%s'%s", rows, path,
	    fmt == BT_FORMAT_JSON ? " as JSON" : "");
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
			y = tui_put_wrapped(y, LINES, 18, tui_keymap[i].help,
			    tui_keymap[i].cmd == TUI_CMD_HINT ? A_DIM : 0, NULL);
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

/*
 * ~: whole and wrapped, what the screen's lines may cut (the last
 * message, the status line, the header, the title, the cursor row, the
 * pane, the view's notes), as tmux's ~ shows its messages. j/k scroll,
 * any other key returns.
 */
static void
more(struct tui *t)
{
	const struct bt_view *v = bt_browser_view(t->b);
	const struct bt_row *r = bt_view_row(v, bt_browser_nav(t->b)->cursor);
	char row[2048] = "";
	const char *what[64], *text[64];
	char status[1024], title[1200], note[300];
	struct bt_pane p;
	size_t n = 0, top = 0, i;
	attr_t attr;
	int c;

	what[n] = "last message";
	text[n++] = t->last_msg[0] ? t->last_msg : "(none)";
	tui_status_text(t, bt_browser_status(t->b), status, sizeof(status), &attr);
	what[n] = "status line";
	text[n++] = status;
	what[n] = "header";
	text[n++] = t->header;
	snprintf(title, sizeof(title), "%s%s", bt_view_title(v),
	    bt_browser_title_note(t->b, note, sizeof(note)));
	what[n] = "title";
	text[n++] = title;
	if (r != NULL) {
		size_t len = 0, col = 0;
		/*
		 * Its cells as the screen draws them: a source line's tabs
		 * expanded from the row's start (wrapping cannot place them)
		 */
		for (i = 0; i < r->ncells; i++)
			for (const char *q = r->cells[i].text; *q && len + 9 < sizeof(row); q++)
				if (*q == '\t')
					do
						row[len++] = ' ';
					while (++col % 8 != 0);
				else {
					col += ((unsigned char)*q & 0xc0) != 0x80;
					row[len++] = *q;
				}
		row[len] = '\0';
		what[n] = "cursor row";
		text[n++] = row;
		if (r->name != NULL) {
			what[n] = "its name";
			text[n++] = r->name;
		}
		if (r->text != NULL && r->kind == BT_ROW_FINDING) {
			what[n] = "its finding";
			text[n++] = r->text;
		}
	}
	if (bt_browser_pane(t->b, &p) && p.text != NULL) {
		what[n] = "pane";
		text[n++] = p.head;
		what[n] = "";
		text[n++] = p.text;
	}
	for (i = 0; i < bt_view_nnotes(v) && n < 64; i++) {
		what[n] = i == 0 ? "notes" : "";
		text[n++] = bt_view_note(v, i);
	}
	for (;;) {
		int y = 2;
		erase();
		attron(A_BOLD);
		mvaddstr(0, 0, "benchtui: the screen's lines whole (any other key returns; j/k scroll)");
		attroff(A_BOLD);
		for (i = top; i < n && y < LINES; i++) {
			attron(t->attr[BT_STYLE_ADDR]);
			mvaddnstr(y, 0, what[i], 14);
			attroff(t->attr[BT_STYLE_ADDR]);
			y = tui_put_wrapped(y, LINES, 15, text[i][0] ? text[i] : " ",
			    0, NULL);
		}
		refresh();
		do
			c = getch();
		while (c == ERR && !quit_sig);
		if (quit_sig)
			break;
		if ((c == 'j' || c == KEY_DOWN) && top + 1 < n)
			top++;
		else if ((c == 'k' || c == KEY_UP) && top > 0)
			top--;
		else if (c != KEY_RESIZE && c != KEY_MOUSE)
			break;
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

/*
 * Every signal whose default action ends the process restores the
 * terminal first. A signal from outside (Ctrl-C, Ctrl-\, kill, SIGUSR1,
 * SIGPIPE...) ends the browser at its next key or tick
 * (bt_tui_run returns the signal); a crash restores the terminal in the
 * handler and dies of its signal. A signal ignored when benchtui started
 * (nohup's SIGHUP) stays ignored.
 */
static void
setup_signals(void)
{
	static const int quits[] = {
		SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE,
		SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
#ifdef SIGSTKFLT
		SIGSTKFLT,
#endif
	};
	static const int crashes[] = {
		SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP, SIGSYS,
		SIGXCPU, SIGXFSZ,
	};
	struct sigaction sa, old;
	size_t i;
	int sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_quit_signal;
	for (i = 0; i < sizeof(quits) / sizeof(quits[0]); i++)
		if (sigaction(quits[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(quits[i], &sa, NULL);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		if (sigaction(sig, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sig, &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < sizeof(crashes) / sizeof(crashes[0]); i++)
		sigaction(crashes[i], &sa, NULL);
}

/*
 * Probe the terminal type first: newterm() on an unknown or dumb terminal
 * fails (or limps) and leaks what it allocated.
 */
static bool
term_usable(void)
{
	int e = 0;
	bool usable = false;

	if (setupterm(NULL, STDOUT_FILENO, &e) == OK) {
		const char *cup = tigetstr("cup");
		usable = cup != NULL && cup != (char *)-1;
		del_curterm(cur_term);
	}
	return usable;
}

/* Curses on, and the terminal restored on every way out; err set if it cannot be. */
static int
start_curses(struct tui *t, SCREEN **scr, struct bt_error *err)
{
	const char *cs;

	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	t->utf8 = cs != NULL && strcmp(cs, "UTF-8") == 0;
	tui_set_ascii(!t->utf8);
	if (getenv("ESCDELAY") == NULL)
		setenv("ESCDELAY", "25", 1);
	if (!term_usable())
		return bt_error_set(err, BT_ENOTSUP,
		    "terminal '%s' cannot be used for browsing",
		    getenv("TERM") ? getenv("TERM") : "(unset)");
	*scr = newterm(NULL, stdout, stdin);
	if (*scr == NULL)
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
	setup_styles(t);
	return 0;
}

/*
 * Key c, with h rows of the view on screen before it came: 1 to quit.
 * An action may ask for text first: the browser says which prompt.
 */
static int
handle_key(struct tui *t, int c, size_t h)
{
	const struct tui_key *k;
	const char *label;

	if (c == KEY_RESIZE) {
		/* h was the old size's: the cursor kept in view in the new one */
		h = tui_body_height(t);
		bt_browser_set_width(t->b, (size_t)COLS, h);
		bt_browser_select(t->b, bt_browser_nav(t->b)->cursor, h);
		clear();
		return 0;
	}
	if (COLS < MIN_COLS || LINES < MIN_LINES)
		return c == 'q';
	if (c == KEY_MOUSE) {
		mouse(t, h);
		return 0;
	}
	k = tui_key_lookup(c);
	if (k == NULL) {
		bt_browser_set_status(t->b, "unknown key (h for help)");
		return 0;
	}
	switch (k->cmd) {
	case TUI_CMD_ACTION:
		label = bt_browser_prompt(t->b, k->action);
		if (label == NULL)
			return bt_browser_apply(t->b, k->action, h);
		if (prompt(t, label, "", t->prompt_buf, sizeof(t->prompt_buf)))
			bt_browser_apply_text(t->b, k->action, t->prompt_buf, h);
		break;
	case TUI_CMD_EXPORT:
		do_export(t);
		break;
	case TUI_CMD_PRINT:
		do_print(t);
		break;
	case TUI_CMD_HINT:
		bt_browser_set_status(t->b, "%s", k->help);
		break;
	case TUI_CMD_HELP:
		help(t);
		break;
	case TUI_CMD_REDRAW:
		clear();
		break;
	case TUI_CMD_MORE:
		more(t);
		break;
	case TUI_CMD_NONE:
		break;
	}
	return 0;
}

/*
 * -s naming several functions: the function list filtered by the name
 * (before a "@MODULE"), each candidate a row to open with Enter.
 */
static void
list_candidates(struct bt_browser *b, const char *symbol)
{
	const char *at = strrchr(symbol, '@');
	char *name = at != NULL && at != symbol ? strndup(symbol, (size_t)(at - symbol)) :
	    strdup(symbol);

	if (name != NULL && strncmp(name, "0x", 2) != 0 && strstr(name, "+0x") == NULL)
		bt_browser_filter(b, name);
	free(name);
}

/* Keys until quit; the terminal restored, the browser freed. */
static int
browse_loop(struct tui *t, SCREEN *scr)
{
	int c, ret = 0;

	tui_draw(t);
	while (!quit_sig) {
		size_t h = tui_body_height(t);

		c = getch();
		if (c == ERR)
			continue;
		if (handle_key(t, c, h))
			break;
		tui_draw(t);
	}
	restore_terminal();
	delscreen(scr);
	bt_browser_free(t->b);
	if (quit_sig)
		ret = quit_sig;
	return ret;
}

int
bt_tui_read_chains(struct bt_selection **sel, struct bt_error *err)
{
	struct bt_session *s = bt_selection_session(*sel);
	struct bt_selection_opts o;

	if (!bt_session_chains_pending(s))
		return 0;
	o = *bt_selection_opts(*sel);
	bt_selection_free(*sel);
	*sel = NULL;
	if (bt_session_read_chains(s, err) < 0 ||
	    (*sel = bt_selection_new(s, &o, err)) == NULL)
		return -BT_EIO;
	return 0;
}

/* The browser on sel, opened on symbol if one was asked for. */
static void
browse(struct tui *t, struct bt_selection *sel, const struct bt_export_opts *eo,
       const char *symbol)
{
	t->b = bt_browser_new(sel, &eo->view);
	bt_browser_set_width(t->b, (size_t)COLS, tui_body_height(t));
	if (symbol != NULL) {
		long f = bt_selection_find(sel, symbol);
		if (f < 0) {
			char *why = bt_selection_find_error(sel, symbol);
			if (f == -2)	/* a name several have: the list shows them */
				list_candidates(t->b, symbol);
			bt_browser_set_status(t->b, "%s", why);
			free(why);
		} else
			bt_browser_open(t->b, (size_t)f, tui_body_height(t));
	}
}

int
bt_tui_run(struct bt_selection **sel, const struct bt_export_opts *eo,
	   const char *symbol, struct bt_error *err)
{
	struct tui t;
	SCREEN *scr = NULL;
	int ret = 0;

	memset(&t, 0, sizeof(t));
	if ((ret = start_curses(&t, &scr, err)) < 0)
		return ret;
	browse(&t, *sel, eo, symbol);
	if (bt_session_chains_pending(bt_selection_session(*sel))) {
		/*
		 * The first screen is up: the chains now (the Children column,
		 * the hot path, callers), then the same screen with them.
		 * Keys typed meanwhile wait in the terminal's input.
		 */
		tui_draw(&t);
		bt_browser_free(t.b);
		t.b = NULL;
		if ((ret = bt_tui_read_chains(sel, err)) < 0) {
			restore_terminal();
			delscreen(scr);
			return ret;
		}
		browse(&t, *sel, eo, symbol);
	}
	return browse_loop(&t, scr);
}

int
bt_tui_run_diff(const struct bt_diff *d, const struct bt_export_opts *eo,
		struct bt_error *err)
{
	struct tui t;
	SCREEN *scr = NULL;
	int ret;

	memset(&t, 0, sizeof(t));
	if ((ret = start_curses(&t, &scr, err)) < 0)
		return ret;
	t.b = bt_browser_new_diff(d, &eo->view);
	bt_browser_set_width(t.b, (size_t)COLS, tui_body_height(&t));
	return browse_loop(&t, scr);
}
