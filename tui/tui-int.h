/*
 * The ncurses browser's insides, shared by tui.c (the terminal, the keys,
 * the prompts) and draw.c (painting).
 */
#ifndef BENCHTUI_TUI_INT_H
#define BENCHTUI_TUI_INT_H

#include <curses.h>
#include <stdbool.h>

#include "benchtui/view.h"

#define TUI_MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN_COLS 60
#define MIN_LINES 10
#define HEAD_LINES 3	/* header bar, title, column headings */
#define TUI_MORE_KEY '~'	/* shows whole what a line cut (tmux's show-messages) */

struct tui {
	struct bt_browser *b;
	bool color;
	bool utf8;
	attr_t attr[BT_STYLE_COUNT];
	char prompt_buf[1024];
	char header[1024];	/* the header bar as it would be whole */
	char last_msg[1024];	/* the last status message, for ~ */
};

/* draw.c */
/* Rows of the view on screen: what the header, the status line and a pane leave. */
size_t tui_body_height(const struct tui *t);
/* Paint everything. */
void tui_draw(struct tui *t);
/* Write ASCII only (a terminal whose character set is not UTF-8). */
void tui_set_ascii(bool ascii);
/* Print text from (y, x) up to column maxx, in attr; returns the new x. */
int tui_put(int y, int x, const char *text, int maxx, attr_t attr);
/* The status line's text now (whole), into buf; its attribute in *attr. */
const char *tui_status_text(struct tui *t, const char *msg, char *buf, size_t len,
			    attr_t *attr);
/*
 * Print text wrapped at word boundaries in lines [y, y_end) from column
 * x0; when it does not fit, its last line ends in "…" and *cut (if not
 * NULL) is set.
 */
int tui_put_wrapped(int y, int y_end, int x0, const char *text, attr_t attr, bool *cut);
/*
 * s in at most width columns: its middle replaced by "…" when it is
 * longer (the start and the end of a C++ name say the most). Into buf.
 */
const char *tui_elide(const char *s, int width, char *buf, size_t len);

#endif
