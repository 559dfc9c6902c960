/*
 * The session's modules: each recorded module's symbols opened on first
 * use (the vDSO from its image, an ELF checked against its recorded
 * build-id), its DWARF loaded on first use, the decoders, and the notes on
 * what is missing.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "disasm/disasm.h"
#include "session/session-int.h"
#include "symbols/symbols.h"

void
bt_session_notef(struct bt_session *s, const char *fmt, ...)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	bt_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	for (i = 0; i < s->notes.n; i++)
		if (strcmp(s->notes.v[i], sb.buf) == 0) {
			bt_strbuf_release(&sb);
			return;
		}
	BT_VEC_PUSH(s->notes, bt_strbuf_detach(&sb, NULL));
}

/* The notes on m's debug file candidates not opened (bt_msyms_debug_note). */
static void
debug_notes(struct bt_session *s, const struct bt_msyms *m)
{
	const char *note;
	size_t i;

	for (i = 0; (note = bt_msyms_debug_note(m, i)) != NULL; i++)
		bt_session_notef(s, "%s", note);
}

struct bt_msyms *
bt_session_syms(struct bt_session *s, uint32_t mi)
{
	const struct bt_module *m = &s->p->modules.v[mi];
	struct bt_smod *sm = &s->mods[mi];
	const struct bt_msyms_info *info;
	struct bt_error err = { 0 };
	char want[41];

	if (sm->tried)
		return sm->syms;
	sm->tried = true;
	if (m->kind == BT_MOD_VDSO) {
		sm->image = bt_vdso_find(s->p->meta.vdso, s->p->meta.vdso_len,
		    m->build_id, m->build_id_size, &sm->image_len);
		if (sm->image == NULL) {
			bt_session_notef(s, "no image of the recorded vDSO here: its samples show as addresses");
			return NULL;
		}
		sm->syms = bt_msyms_open(m->path, sm->image, sm->image_len, &err);
	} else if (m->kind == BT_MOD_ELF) {
		struct stat st;
		sm->syms = bt_msyms_open(m->path, NULL, 0, &err);
		if (m->build_id_size)
			sm->syms = bt_session_syms_cached(s, mi, sm->syms, err.msg);
		/* the file read (the build-id cache's copy, maybe) */
		if (sm->syms != NULL && stat(bt_msyms_info(sm->syms)->path, &st) == 0)
			sm->mtime = (int64_t)st.st_mtime;
	} else if (m->kind == BT_MOD_JIT)
		sm->syms = bt_session_jit_syms(s, m, &err);
	else
		return NULL;
	if (sm->syms == NULL) {
		bt_session_notef(s, "%s: its samples show as addresses", err.msg);
		return NULL;
	}
	info = bt_msyms_info(sm->syms);
	if (m->build_id_size && m->kind == BT_MOD_ELF) {
		bt_build_id_hex(m->build_id, m->build_id_size, want);
		if (info->build_id == NULL || strcmp(info->build_id, want) != 0) {
			bt_session_notef(s,
			    "'%s' changed since it was recorded (build-id %s, recorded %s): its samples show as addresses",
			    m->path, info->build_id ? info->build_id : "none", want);
			bt_msyms_free(sm->syms);
			sm->syms = NULL;
			return NULL;
		}
	}
	debug_notes(s, sm->syms);
	return sm->syms;
}

/* Load module mi's DWARF (once) and note when there is none. */
bool
bt_session_dwarf(struct bt_session *s, uint32_t mi)
{
	struct bt_smod *sm = &s->mods[mi];
	struct bt_msyms *m = bt_session_syms(s, mi);

	if (m == NULL)
		return false;
	if (!sm->dwarf_checked) {
		sm->dwarf_checked = true;
		sm->no_dwarf = !bt_msyms_has_dwarf(m);
		debug_notes(s, m);
		if (sm->no_dwarf && s->p->modules.v[mi].kind == BT_MOD_ELF)
			bt_session_notef(s, "no debug info for '%s': no source lines",
			    s->p->modules.v[mi].path);
	}
	return !sm->no_dwarf;
}

/* The decoder for module mi's machine in syntax, made on first use. */
struct bt_disasm *
bt_session_disasm(struct bt_session *s, struct bt_msyms *m,
		  enum bt_asm_syntax syntax, struct bt_error *err)
{
	const struct bt_msyms_info *info = bt_msyms_info(m);
	enum bt_arch arch = bt_arch_from_elf(info->e_machine, info->elfclass64);
	int k = syntax == BT_ASM_INTEL;

	if ((size_t)arch >= BT_ARRAY_SIZE(s->dis) || arch == BT_ARCH_UNKNOWN) {
		bt_error_set(err, BT_ENOTSUP,
		    "no disassembler for machine %u of '%s'", info->e_machine,
		    info->path);
		return NULL;
	}
	if (s->dis[arch][k] == NULL)
		s->dis[arch][k] = bt_disasm_new(arch,
		    k ? BT_SYNTAX_INTEL : BT_SYNTAX_ATT, err);
	return s->dis[arch][k];
}
