/*
 * The two renderers of an export (DESIGN.md §3), over views only: the text
 * export prints the cells the browser paints, the JSON export writes the
 * rows' data. export.c decides what a whole-profile export holds and walks
 * the views in order through one of these.
 */
#ifndef BENCHTUI_EXPORT_INT_H
#define BENCHTUI_EXPORT_INT_H

#include <stdio.h>

#include "benchtui/view.h"
#include "export/json-writer.h"

struct export_out {
	FILE *f;
	struct bt_jw jw;	/* JSON */
	bool any;		/* JSON: an annotation was written */
};

struct export_ops {
	/* header (the summary view), the function table, the findings */
	void (*begin)(struct export_out *o, const struct bt_view *header,
		      const struct bt_view *funcs, const struct bt_view *findings);
	void (*annotation)(struct export_out *o, const struct bt_view *v);
	/* a function that could not be annotated (name, why) */
	void (*failed)(struct export_out *o, const char *name, const char *msg);
	void (*end)(struct export_out *o);
	/* one view as the browser shows it, after the header */
	void (*view)(struct export_out *o, const struct bt_view *header,
		     const struct bt_view *v);
};

extern const struct export_ops export_text, export_json;

#endif
