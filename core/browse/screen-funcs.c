/*
 * The hot-function table, the first screen (or the one a benchmark opens).
 * / filters it by name, d (from any screen) keeps one module's functions;
 * Esc or Left clears both. Both are the browser's, not this screen's: a
 * function list opened again (B, then another benchmark) keeps them.
 */
#include <stdlib.h>
#include <string.h>

#include "benchtui/session.h"
#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	struct bt_view_opts o = b->o;

	o.filter = b->filter;
	o.module = b->module;
	return bt_view_functions(sc->sel, &o, 0);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	bt_browser_open(b, bt_view_row(sc->view, sc->nav.cursor)->func, height);
}

void
bt_browser_filter(struct bt_browser *b, const char *text)
{
	struct screen *sc = browse_func_list(b);
	struct bt_error err = { 0 };
	struct bt_view *v;
	regex_t re;

	/* a regular expression, as / elsewhere: an invalid one changes nothing */
	if (text != NULL && text[0]) {
		if (bt_pattern_compile(&re, text, &err) < 0) {
			bt_browser_set_status(b, "%s", err.msg);
			return;
		}
		bt_pattern_release(&re);
	}
	/*
	 * Under the benchmark table there is no list yet (-s naming several
	 * functions of a harness's recording): the whole run's, over it
	 */
	if (!sc->ops->func_list && text != NULL && text[0]) {
		if ((sc = browse_push(b, &screen_funcs, -1, NULL, 0)) == NULL)
			return;
	}
	free(b->filter);
	b->filter = text && text[0] ? bt_xstrdup(text) : NULL;
	v = sc->ops->build(b, sc, NULL);
	if (v == NULL)
		return;
	bt_view_free(sc->view);
	sc->view = v;
	sc->nav.cursor = sc->nav.top = 0;
	sc->nav.hot = -1;
	sc->jumps.n = 0;
	if (b->filter && bt_view_nrows(v) == 0)
		bt_browser_set_status(b, "no function matches '%s': Esc clears the filter",
		    b->filter);
	else if (b->filter)
		bt_browser_set_status(b, "%zu function%s match '%s' (Esc: all)",
		    bt_view_nrows(v), bt_view_nrows(v) == 1 ? "" : "s", b->filter);
	else
		bt_browser_set_status(b, "filter cleared");
}

/* / is a filter here (a new one each time), Esc and Left clear it and the zoom. */
static bool
action(struct bt_browser *b, struct screen *sc, enum bt_action act,
       const char *text, size_t height)
{
	switch (act) {
	case BT_ACT_SEARCH:
		if (text != NULL)
			bt_browser_filter(b, text);
		return true;
	case BT_ACT_BACK:
	case BT_ACT_QUIT:
		if (b->filter == NULL && b->module == NULL)
			return false;
		FREE_AND_NULL(b->filter);
		FREE_AND_NULL(b->module);
		browse_rebuild(b, browse_func_list(b), height);
		bt_browser_set_status(b, "every function again");
		return true;
	default:
		return false;
	}
}

static const char *
prompt(const struct bt_browser *b, const struct screen *sc, enum bt_action act)
{
	return act == BT_ACT_SEARCH ? "filter: " : NULL;
}

/* d: perf's zoom into a DSO: the function list of the cursor's module only; again, all. */
static void
zoom_module(struct bt_browser *b, struct screen *sc, size_t height)
{
	long f = sc->ops->subject(b, sc);

	if (b->module != NULL) {
		FREE_AND_NULL(b->module);
		browse_rebuild(b, browse_func_list(b), height);
		bt_browser_set_status(b, "every module again");
		return;
	}
	if (f < 0) {
		bt_browser_set_status(b, "no function here: d zooms into its module");
		return;
	}
	b->module = bt_xstrdup(bt_selection_func(b->sel, (size_t)f)->module);
	browse_rebuild(b, browse_func_list(b), height);
	bt_browser_set_status(b, "%zu functions of %s (d or Esc on the list: every module)",
	    bt_view_nrows(browse_func_list(b)->view),
	    bt_selection_func(b->sel, (size_t)f)->module_name);
}

const char *
bt_browser_filter_text(const struct bt_browser *b)
{
	return b->filter ? b->filter : "";
}

const char *
bt_browser_zoom(const struct bt_browser *b)
{
	const char *slash;

	if (b->module == NULL)
		return NULL;
	slash = strrchr(b->module, '/');
	return slash ? slash + 1 : b->module;
}

/* The title says what the list keeps: its module, its filter. */
static void
title_note(const struct bt_browser *b, const struct screen *sc, char *buf, size_t len)
{
	size_t n;

	if (bt_browser_zoom(b) != NULL)
		snprintf(buf, len, "  module: %s", bt_browser_zoom(b));
	n = strlen(buf);
	if (b->filter != NULL)
		snprintf(buf + n, len - n, "  filter: %s", b->filter);
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	return r != NULL && r->func != (size_t)-1 ? (long)r->func : -1;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("functions");
}

const struct screen_ops screen_funcs = {
	.name = "functions",
	.build = build,
	.enter = enter,
	.action = action,
	.prompt = prompt,
	.subject = subject,
	.export_name = export_name,
	.title_note = title_note,
	.opens = BT_ACT_ZOOM_MODULE,
	.open = zoom_module,
	.hint = "Enter annotate  S source  / filter  d module  L lint  T timeline  h help  q quit",
	.func_list = true,
};
