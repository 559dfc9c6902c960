/*
 * The source view: one file of a function with per-line totals (its own
 * file, or a header inlined into it); Enter on a line shows its hottest
 * instruction, S the list of files (screen-files.c). S on any other screen
 * opens it on the line the cursor's code counts for.
 */
#include <stdlib.h>
#include <string.h>

#include "benchtui/session.h"
#include "browse/browse-int.h"
#include "annotate/annotate.h"
#include "session/query.h"

/* A source view's own: the file it shows (NULL: the function's own), owned. */
struct source {
	char *file;
};

static void
init(struct screen *sc, const void *arg, size_t height)
{
	struct source *src = bt_xcalloc(1, sizeof(*src));
	const char *file = arg;

	src->file = file != NULL ? bt_xstrdup(file) : NULL;
	sc->data = src;
}

static void
free_data(struct screen *sc)
{
	struct source *src = sc->data;

	if (src != NULL)
		free(src->file);
	free(src);
}

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	const struct source *src = sc->data;

	return bt_view_source(sc->sel, (size_t)sc->func, src->file, &b->o, err);
}

/* The function's own file: NULL stands for it in a screen. */
static const char *
own_file(struct bt_browser *b, long func)
{
	const struct bt_annotation *a = bt_selection_annotation(b->sel, (size_t)func,
	    b->o.syntax, NULL);

	return a != NULL ? a->file : NULL;
}

static bool
same_file(struct bt_browser *b, long func, const char *x, const char *y)
{
	const char *own = own_file(b, func);

	if (x == NULL)
		x = own;
	if (y == NULL)
		y = own;
	return x == y || (x != NULL && y != NULL && strcmp(x, y) == 0);
}

struct screen *
browse_open_source(struct bt_browser *b, long func, const char *file,
		   unsigned line, size_t height)
{
	struct screen *sc, *below;
	long row;

	if (func < 0) {
		bt_browser_set_status(b, "no function here to show the source of");
		return NULL;
	}
	below = browse_screen_on(b, 1, &screen_source, func);
	if (below != NULL &&
	    same_file(b, func, ((const struct source *)below->data)->file, file)) {
		/* S, Enter, S...: back to the source view rather than a new one */
		browse_pop(b);
		sc = below;
	} else {
		sc = browse_push(b, &screen_source, func,
		    file && !same_file(b, func, file, NULL) ? file : NULL, height);
		if (sc == NULL)
			return NULL;
	}
	row = line ? bt_view_find_line(sc->view, line) : -1;
	if (row >= 0) {
		sc->nav.cursor = (size_t)row;
		browse_show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
	} else
		browse_cursor_hottest(&sc->nav, sc->view, height);
	return sc;
}

/*
 * S on any other screen, from: the source view of its function's own
 * file, on the line that the cursor row's code counts for there (the
 * hottest line when it is no code); the status line says when that code
 * comes from another file.
 */
static void
source_from(struct bt_browser *b, struct screen *from, size_t height)
{
	long func = from->ops->subject(b, from);
	const struct bt_view *v = from->view;
	size_t row = from->nav.cursor;
	const struct bt_annotation *a;
	const struct bt_row *r = bt_view_row(v, row), *code = NULL;
	const char *own, *cfile;
	unsigned line = 0, cline;
	size_t i;

	if (func < 0) {
		bt_browser_set_status(b, "no function here to show the source of");
		return;
	}
	a = bt_selection_annotation(b->sel, (size_t)func, b->o.syntax, NULL);
	own = a != NULL ? a->file : NULL;
	/* a source or inline row stands for the instruction after it */
	for (i = row; r != NULL && i < bt_view_nrows(v); i++) {
		const struct bt_row *x = bt_view_row(v, i);
		if (x->kind == BT_ROW_INSN && x->func == (size_t)func)
			code = x;
		if (x->kind != BT_ROW_SOURCE && x->kind != BT_ROW_INLINE)
			break;
	}
	if (code != NULL && own != NULL)
		line = bt_annotation_line_in(a, &a->insns.v[code->insn], own);
	/* the row goes with its screen if S goes back to the source view: its file stays */
	cfile = code != NULL ? code->file : NULL;
	cline = code != NULL ? code->line : 0;
	if (browse_open_source(b, func, NULL, line, height) != NULL && cfile != NULL &&
	    own != NULL && strcmp(cfile, own) != 0)
		bt_browser_set_status(b, "this code is from %s:%u, inlined: S again picks that file",
		    strrchr(cfile, '/') ? strrchr(cfile, '/') + 1 : cfile, cline);
}

/* S here: the files the function's code comes from, on the one shown. */
static void
files(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct screen *nsc = browse_push(b, &screen_files, sc->func, NULL, height);
	size_t i;

	if (nsc == NULL)
		return;
	for (i = 0; i < bt_view_nrows(nsc->view); i++)
		if (r != NULL && strcmp(bt_view_row(nsc->view, i)->file, r->file) == 0)
			nsc->nav.cursor = i;
	browse_show_cursor(&nsc->nav, bt_view_nrows(nsc->view), height);
	bt_browser_set_status(b, "the files %s's code comes from: Enter shows one",
	    bt_view_func(nsc->view)->short_name);
}

static bool
action(struct bt_browser *b, struct screen *sc, enum bt_action act,
       const char *text, size_t height)
{
	switch (act) {
	case BT_ACT_SOURCE_VIEW:
		files(b, sc, height);
		return true;
	case BT_ACT_ANNOTATE:
		browse_annotate_here(b, sc, height);
		return true;
	default:
		return false;
	}
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	const struct bt_annotation *a;
	struct screen *nsc, *below;
	char *file;
	unsigned line = r->line;
	long best = -1, func = sc->func;
	bool reused = false;
	double bw = -1;
	size_t i;

	if (r->kind != BT_ROW_LINE)
		return;
	file = bt_xstrdup(r->file);	/* the row goes if this screen does */
	below = browse_screen_on(b, 1, &screen_annotate, func);
	if (below != NULL) {
		/* Enter, S, Enter...: back to the annotation rather than a new one */
		browse_pop(b);
		nsc = below;
		reused = true;
	} else {
		nsc = browse_push(b, &screen_annotate, func, NULL, height);
		if (nsc == NULL) {
			free(file);
			return;
		}
	}
	a = bt_selection_annotation(b->sel, (size_t)func, b->o.syntax, NULL);
	for (i = 0; i < bt_view_nrows(nsc->view); i++) {
		const struct bt_row *ir = bt_view_row(nsc->view, i);

		if (ir->kind != BT_ROW_INSN)
			continue;
		if (bt_annotation_line_in(a, &a->insns.v[ir->insn], file) == line &&
		    ir->weight > bw) {
			bw = ir->weight;
			best = (long)i;
		}
	}
	free(file);
	if (best < 0) {
		bt_browser_set_status(b, "no instructions for line %u", line);
		if (!reused)	/* the annotation was opened for it */
			browse_pop(b);
		return;
	}
	nsc->nav.cursor = (size_t)best;
	browse_show_cursor(&nsc->nav, bt_view_nrows(nsc->view), height);
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	return sc->func;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return browse_func_file_name(b, sc, ".source");
}

const struct screen_ops screen_source = {
	.name = "source",
	.init = init,
	.free = free_data,
	.build = build,
	.enter = enter,
	.action = action,
	.subject = subject,
	.export_name = export_name,
	.opens = BT_ACT_SOURCE_VIEW,
	.open = source_from,
	.hint = "Enter code  Tab hot  S other files  E export  h help  q back",
};
