/*
 * JIT modules in the session: each piece of JIT code the machine placed
 * (core/machine/machine-jit.c) is opened as an ELF image made of its code
 * bytes, with the line table the runtime wrote, so that the function
 * table, annotation, source view and exports treat it as any function.
 */
#include <stdlib.h>
#include <string.h>

#include "jit/jitelf.h"
#include "jit/jitset.h"
#include "session/session-int.h"
#include "symbols/symbols.h"

static int
line_cmp(const void *a, const void *b)
{
	const struct bt_line *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * The script of a V8 name, "JS:*hotLoop /path/hot.js:6:17" -> "/path/hot.js"
 * (node 20 writes user scripts' file names in its line tables from freed
 * memory: the reader leaves them empty), into buf; NULL when none.
 */
static const char *
script_of(const char *name, char *buf, size_t len)
{
	const char *sp = strchr(name, ' ');
	size_t n;
	int k;

	if (sp == NULL || strncmp(name, "JS:", 3) != 0)
		return NULL;
	n = strlen(sp + 1);
	if (n == 0 || n >= len)
		return NULL;
	memcpy(buf, sp + 1, n + 1);
	for (k = 0; k < 2; k++) {	/* :line:column */
		char *c = strrchr(buf, ':');
		if (c == NULL || c[1] < '0' || c[1] > '9' || strspn(c + 1, "0123456789") != strlen(c + 1))
			break;
		*c = '\0';
	}
	return buf[0] ? buf : NULL;
}

struct bt_msyms *
bt_session_jit_syms(const struct bt_module *m, struct bt_error *err)
{
	const struct bt_jit_code *c = m->jit;
	struct bt_msyms *ms;
	size_t len, i;
	void *img;

	img = bt_jit_elf_image(c->e_machine, m->jit_name, c->start, c->size,
	    c->code, &len);
	ms = bt_msyms_open(m->path, img, len, err);
	free(img);
	if (ms == NULL || c->nlines == 0)
		return ms;
	{
		struct bt_line *rows = bt_xcalloc(c->nlines + 2, sizeof(*rows));
		char script[4096];
		const char *fallback = bt_text_is_safe(c->name) ?
		    script_of(c->name, script, sizeof(script)) : NULL;
		size_t n = 0;

		for (i = 0; i < c->nlines; i++) {
			const struct bt_jit_line *l = &c->lines[i];
			uint64_t a = l->addr - c->load_addr + c->start;

			if (l->addr < c->load_addr || l->addr - c->load_addr >= c->size)
				continue;
			rows[n].addr = a;
			rows[n].line = l->line;
			rows[n].file = l->file[0] && bt_text_is_safe(l->file) ? l->file : fallback;
			if (rows[n].file == NULL)
				rows[n].line = 0;
			n++;
		}
		bt_qsort(rows, n, sizeof(*rows), line_cmp);
		/*
		 * The runtime's table may start after the code does (HotSpot's
		 * first pc with a bytecode index is past the prologue): the
		 * prologue counts for the first line, as DWARF's would
		 */
		if (n > 0 && rows[0].addr > c->start && rows[0].line) {
			memmove(rows + 1, rows, n * sizeof(*rows));
			rows[0].addr = c->start;
			n++;
		}
		rows[n].addr = c->start + c->size;	/* the end of the code */
		rows[n].file = NULL;
		rows[n].line = 0;
		bt_msyms_set_lines(ms, rows, n + 1);
		free(rows);
	}
	return ms;
}

const char *
bt_session_jit_name_at(void *arg, uint64_t addr, uint64_t *start)
{
	struct bt_jit_ask *q = arg;
	struct bt_session *s = q->s;
	struct bt_machine *mach = s->p->machine;
	const struct bt_module *m = &s->p->modules.v[q->mi];
	const struct bt_map *map;
	struct bt_func_sym fs;
	struct bt_msyms *ms;
	uint64_t t, off, link;
	const char *n;

	/* the runtime's own code: stubs, builtins, other methods */
	n = bt_machine_jit_name(mach, m->jit, addr, start);
	if (n != NULL) {
		struct bt_textbuf tb = { 0 };
		n = bt_strpool_addstr(&s->pool, bt_text_safe(n, &tb));
		bt_textbuf_release(&tb);
		return n;
	}
	/* a file mapped there (the runtime's library, node's own text) */
	t = m->jit->time ? m->jit->time : UINT64_MAX - 1;
	map = bt_machine_find(mach, bt_machine_jit_pid(mach, m->jit), addr, t);
	if (map == NULL || map->anon)
		return NULL;
	if (s->p->modules.v[map->module].kind != BT_MOD_ELF ||
	    (ms = bt_session_syms(s, map->module)) == NULL)
		return NULL;
	off = addr - map->start + map->pgoff;
	if (bt_msyms_off_to_addr(ms, off, &link) != 0 ||
	    bt_msyms_func(ms, link, &fs) != 0)
		return NULL;
	*start = addr - (link - fs.start);
	return fs.name;
}
