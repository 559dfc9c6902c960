/*
 * perf's build-id cache as a place to find a module: a recording moved to
 * another machine (after `perf archive`, unpacked into ~/.debug), or whose
 * binaries were since rebuilt or deleted, still shows names when the cache
 * holds the recorded build-id (perf record fills it as it records).
 */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "session/session-int.h"
#include "symbols/symbols.h"

static bool
same_build_id(struct bt_msyms *syms, const char *want)
{
	const struct bt_msyms_info *info = bt_msyms_info(syms);

	return info->build_id != NULL && strcmp(info->build_id, want) == 0;
}

struct bt_msyms *
bt_session_syms_cached(struct bt_session *s, uint32_t mi, struct bt_msyms *found,
		       const char *why)
{
	const struct bt_module *m = &s->p->modules.v[mi];
	struct bt_msyms *cached;
	char want[2 * 20 + 1];
	char *path;

	bt_build_id_hex(m->build_id, m->build_id_size, want);
	if (found != NULL && same_build_id(found, want))
		return found;	/* the recorded file itself */
	path = bt_buildid_cache_file(m->build_id, m->build_id_size);
	if (path == NULL)
		return found;
	cached = bt_msyms_open(path, NULL, 0, NULL);
	if (cached == NULL || !same_build_id(cached, want)) {
		bt_msyms_free(cached);
		free(path);
		return found;
	}
	if (found != NULL)
		bt_session_notef(s, "'%s' changed since it was recorded: read from "
		    "perf's build-id cache ('%s')", m->path, path);
	else
		bt_session_notef(s, "%s: read from perf's build-id cache ('%s')",
		    why && why[0] ? why : "cannot open the recorded file", path);
	bt_msyms_free(found);
	free(path);
	return cached;
}
