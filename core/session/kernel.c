/*
 * Kernel samples by function, as perf names them from /proc/kallsyms (read
 * through benchtui's per-boot cache of it, core/symbols/kcache.c), when
 * the recording's kernel is the one running: the same release and, when
 * the recording says where the kernel's text was (perf's
 * [kernel.kallsyms]_text mapping), the same place (KASLR moves it at every
 * boot). Otherwise kernel samples stay one [kernel] bucket, with a note.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "base.h"
#include "session/session-int.h"
#include "symbols/symbols.h"

static struct bt_ksyms *
load_ksyms(struct bt_session *s)
{
	const struct bt_profile *p = s->p;
	struct bt_error err = { 0 };
	struct bt_ksyms *k;
	struct utsname u;
	char *dir;

	if (uname(&u) == 0 && p->osrelease[0] && strcmp(p->osrelease, u.release) != 0) {
		bt_session_notef(s, "kernel samples are one bucket: the recording was "
		    "made on kernel '%s', not the one running here", p->osrelease);
		return NULL;
	}
	/* through the per-boot cache (docs/formats.md), none if there is no place for it */
	dir = bt_user_cache_dir();
	k = bt_ksyms_open(dir, NULL, &err);
	free(dir);
	if (k == NULL) {
		bt_session_notef(s, "kernel samples are one bucket: %s", err.msg);
		return NULL;
	}
	if (p->ktext && bt_ksyms_text(k) && p->ktext != bt_ksyms_text(k)) {
		bt_session_notef(s, "kernel samples are one bucket: the kernel was "
		    "restarted since the recording (its text moved)");
		bt_ksyms_free(k);
		return NULL;
	}
	return k;
}

bool
bt_session_kernel_func(struct bt_session *s, uint64_t addr, const char **name,
		       uint64_t *start, uint64_t *end)
{
	if (!s->ksyms_tried) {
		s->ksyms_tried = true;
		s->ksyms = load_ksyms(s);
	}
	return s->ksyms != NULL && bt_ksyms_find(s->ksyms, addr, name, start, end) == 0;
}
