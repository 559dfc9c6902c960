/*
 * One function of two builds side by side (benchtui/match.h, docs/diff.md
 * "Matching"): opened by Enter on a function of a comparison whose two
 * builds put it at different places; a row a block (its unit), then a
 * row a pair of instructions, inserted ones "+", deleted ones "-". The
 * cursor starts on the block that changed most; H goes back to it and
 * Tab to the next changed block; Enter says the row's two sides whole.
 */
#include <stdlib.h>
#include <string.h>

#include "benchtui/match.h"
#include "benchtui/selection.h"
#include "browse/browse-int.h"

struct matchscr {
	struct bt_align *al;
	struct bt_error err;
};

static void
init(struct screen *sc, const void *arg, size_t height)
{
	const struct browse_match_arg *m = arg;
	struct matchscr *ms = bt_xcalloc(1, sizeof(*ms));

	ms->al = bt_align_new(m->sa, m->fa, m->bench_a, m->sb, m->fb, m->bench_b, &ms->err);
	sc->data = ms;
}

static void
free_data(struct screen *sc)
{
	struct matchscr *ms = sc->data;

	if (ms != NULL)
		bt_align_free(ms->al);
	free(ms);
}

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	const struct matchscr *ms = sc->data;

	if (ms->al == NULL) {
		if (err)
			*err = ms->err;
		return NULL;
	}
	return bt_view_match(ms->al, &b->o);
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	return -1;
}

/* Enter: the row's two sides whole on the status line (cut at 80 columns). */
static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	if (r != NULL && r->detail != NULL)
		bt_browser_set_status(b, "%s", r->detail);
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	const struct matchscr *ms = sc->data;
	char *s = NULL;

	if (ms->al == NULL || asprintf(&s, "match-%s", bt_align_func_name(ms->al, 0)) < 0)
		return bt_xstrdup("match");
	for (char *c = s; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
	return s;
}

const struct screen_ops screen_match = {
	.name = "match",
	.init = init,
	.free = free_data,
	.build = build,
	.enter = enter,
	.subject = subject,
	.export_name = export_name,
	.hint = "H the block that changed most  Tab next changed block  Enter both sides  q back",
};

struct screen *
browse_open_match(struct bt_browser *b, const struct browse_match_arg *arg, size_t height)
{
	struct screen *sc = browse_push(b, &screen_match, -1, arg, height);

	if (sc != NULL) {
		sc->nav.cursor = bt_view_match_hottest(sc->view);
		browse_show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
	}
	return sc;
}
