/* The session's insides, shared by core/annotate, core/export and core/lint. */
#ifndef BENCHTUI_SESSION_INT_H
#define BENCHTUI_SESSION_INT_H

#include "base.h"
#include "benchtui/lint.h"
#include "benchtui/session.h"
#include "profile/profile-int.h"

struct bt_msyms;
struct bt_srccache;
struct bt_disasm;
struct bt_annotation;

/* Per module of the profile: its symbols, opened on first use. */
struct bt_smod {
	struct bt_msyms *syms;	/* NULL: not openable (see note) */
	bool tried;
	bool dwarf_checked;	/* bt_session_dwarf() ran */
	bool no_dwarf;		/* opened, but no line info */
	char *name;		/* basename */
	void *image;		/* vDSO image, owned */
	size_t image_len;
	int64_t mtime;		/* of the file, to spot newer sources */
};

/**
 * struct bt_hit - samples at one address
 * @addr: link-time address (ELF, vDSO), else the runtime address
 * @off: the file offset it came from
 */
struct bt_hit {
	uint32_t module;
	uint64_t addr;
	uint64_t samples, period;
};

/* A function of the table: the public part plus where its hits are. */
struct bt_sfunc {
	struct bt_func pub;
	uint32_t module;
	size_t hit_lo, hit_hi;		/* [lo, hi) in s->hits */
	struct bt_annotation *ann[2];	/* per syntax, built on demand */
	bool located;			/* pub.file/line looked up */
};

struct bt_session {
	struct bt_profile *p;
	struct bt_session_opts o;
	int attr;
	double win_from, win_to;	/* seconds from the first sample */
	uint64_t samples, period;

	struct bt_smod *mods;		/* parallel to p->modules */
	BT_VEC(struct bt_hit) hits;	/* sorted by (module, addr) */
	BT_VEC(struct bt_sfunc) funcs;	/* hottest first */
	BT_VEC(char *) notes;
	struct bt_strpool pool;		/* names, files */
	struct bt_srccache *src;
	struct bt_disasm *dis[8][2];	/* by arch, syntax */

	/* lint findings of the current selection (core/lint), computed once */
	BT_VEC(struct bt_finding) findings;
	bool findings_done;
	struct bt_strpool lint_pool;
};

/* The annotation of function fi in the session's syntax, built on first use. */
struct bt_annotation *bt_session_annotation(struct bt_session *s, size_t fi,
					    struct bt_error *err);
/* Drop function fi's cached annotations (an export is done with them). */
void bt_session_forget(struct bt_session *s, size_t fi);
/* The module index of function fi. */
uint32_t bt_session_func_module(const struct bt_session *s, size_t fi);
void bt_lint_release(struct bt_session *s);

/* The symbols of module mi, opening it on first use; NULL if unavailable. */
struct bt_msyms *bt_session_syms(struct bt_session *s, uint32_t mi);
/* Load module mi's DWARF once; false (and a note) when it has none. */
bool bt_session_dwarf(struct bt_session *s, uint32_t mi);
void bt_session_notef(struct bt_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
