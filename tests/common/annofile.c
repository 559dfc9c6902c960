/*
 * Annotations of a binary's functions without a recording (annofile.h).
 */
#include <stdlib.h>
#include <string.h>

#include "annofile.h"
#include "annotate/annotate.h"
#include "base.h"
#include "disasm/disasm.h"
#include "elf-funcs.h"
#include "symbols/symbols.h"

struct afunc {
	char *name;
	uint64_t start, size;
};

struct annofile {
	struct bt_msyms *m;
	struct bt_disasm *d;
	char *base;
	BT_VEC(struct afunc) funcs;
	const char **names;
};

static void
add_func(uint64_t start, uint64_t size, const char *name, void *arg)
{
	struct annofile *f = arg;
	struct afunc fn = { bt_xstrdup(name), start, size };

	BT_VEC_PUSH(f->funcs, fn);
}

struct annofile *
annofile_open(const char *path)
{
	struct bt_error err = { 0 };
	struct annofile *f = bt_xcalloc(1, sizeof(*f));
	const struct bt_msyms_info *info;
	const char *slash = strrchr(path, '/');
	Elf *e;
	size_t i;

	f->m = bt_msyms_open(path, NULL, 0, &err);
	e = f->m ? tool_open_elf(path) : NULL;
	if (e == NULL) {
		annofile_close(f);
		return NULL;
	}
	tool_elf_funcs(e, add_func, f);
	tool_close_elf(e);
	info = bt_msyms_info(f->m);
	f->d = bt_disasm_new(bt_arch_from_elf(info->e_machine, info->elfclass64),
	    BT_SYNTAX_ATT, &err);
	f->base = bt_xstrdup(slash ? slash + 1 : path);
	f->names = bt_xcalloc(f->funcs.n + 1, sizeof(*f->names));
	for (i = 0; i < f->funcs.n; i++)
		f->names[i] = f->funcs.v[i].name;
	if (f->d == NULL) {
		annofile_close(f);
		return NULL;
	}
	return f;
}

void
annofile_close(struct annofile *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->funcs.n; i++)
		free(f->funcs.v[i].name);
	BT_VEC_FREE(f->funcs);
	free(f->names);
	free(f->base);
	if (f->d)
		bt_disasm_free(f->d);
	if (f->m)
		bt_msyms_free(f->m);
	free(f);
}

struct bt_annotation *
annofile_func(struct annofile *f, const char *name)
{
	struct bt_annotate_in in = { 0 };
	size_t i;

	for (i = 0; i < f->funcs.n; i++)
		if (strcmp(f->funcs.v[i].name, name) == 0)
			break;
	if (i == f->funcs.n)
		return NULL;
	in.syms = f->m;
	in.dis = f->d;
	in.name = name;
	in.module_name = f->base;
	in.start = f->funcs.v[i].start;
	in.end = f->funcs.v[i].start + f->funcs.v[i].size;
	in.lines = bt_msyms_has_dwarf(f->m);
	in.region_threshold = 0.05;
	in.region_margin = 2;
	return bt_annotate(&in, NULL);
}

size_t
annofile_names(struct annofile *f, const char *const **names)
{
	*names = f->names;
	return f->funcs.n;
}
