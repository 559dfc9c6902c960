/*
 * Exports (DESIGN.md §3): what a whole-profile export holds (the header,
 * the hot-function table, the findings, the annotated functions), built as
 * views and handed to the text or the JSON renderer. Both see the same
 * views, so they carry the same rows and numbers.
 */
#include <errno.h>
#include <stdlib.h>

#include "base.h"
#include "benchtui/export.h"
#include "benchtui/session.h"
#include "export/export-int.h"

/* The functions a whole-profile export annotates; (size_t)-1 when -s names none. */
static size_t
pick(struct bt_session *s, const struct bt_export_opts *o, size_t *idx,
     struct bt_error *err)
{
	size_t n = 0, i;

	if (o->func != NULL) {
		long f = bt_session_find(s, o->func);
		if (f < 0) {
			char *why = bt_session_find_error(s, o->func);
			bt_error_set(err, BT_ENOENT, "%s", why);
			free(why);
			return (size_t)-1;
		}
		idx[0] = (size_t)f;
		return 1;
	}
	for (i = 0; i < bt_session_nfuncs(s); i++) {
		if (!bt_session_func(s, i)->can_annotate)
			continue;
		if (!o->all && n >= o->top)
			break;
		idx[n++] = i;
	}
	return n;
}

static const struct export_ops *
ops_of(enum bt_format format)
{
	return format == BT_FORMAT_JSON ? &export_json : &export_text;
}

static int
finish(FILE *out, struct bt_error *err)
{
	if (fflush(out) != 0 || ferror(out))
		return bt_error_errno(err, BT_EIO, errno, "cannot write the export");
	return 0;
}

int
bt_export(FILE *out, struct bt_session *s, const struct bt_export_opts *o,
	  struct bt_error *err)
{
	const struct export_ops *ops = ops_of(o->format);
	struct export_out eo = { .f = out };
	size_t *idx = bt_xcalloc(bt_session_nfuncs(s) + 1, sizeof(size_t)), n, i;
	struct bt_view_opts vo = o->view;
	struct bt_view *h, *fv, *lv;

	n = pick(s, o, idx, err);
	if (n == (size_t)-1) {
		free(idx);
		return -BT_ENOENT;
	}
	vo.locate = true;	/* every row's source, in text and JSON alike */
	h = bt_view_header(s);
	fv = bt_view_functions(s, &vo, 0);
	lv = bt_view_findings(s);
	ops->begin(&eo, h, fv, lv);
	for (i = 0; i < n; i++) {
		struct bt_error aerr = { 0 };
		struct bt_view *v = bt_view_annotate(s, idx[i], &o->view, &aerr);

		if (v == NULL) {
			ops->failed(&eo, bt_session_func(s, idx[i])->name, aerr.msg);
			continue;
		}
		ops->annotation(&eo, v);
		bt_view_free(v);
		if (o->all)	/* thousands of functions: keep memory flat */
			bt_session_forget(s, idx[i]);
	}
	ops->end(&eo);
	bt_view_free(h);
	bt_view_free(fv);
	bt_view_free(lv);
	free(idx);
	return finish(out, err);
}

int
bt_export_view(FILE *out, struct bt_session *s, const struct bt_view *v,
	       enum bt_format format, struct bt_error *err)
{
	struct export_out eo = { .f = out };
	struct bt_view *h = bt_view_header(s);

	ops_of(format)->view(&eo, h, v);
	bt_view_free(h);
	return finish(out, err);
}
