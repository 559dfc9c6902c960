/*
 * Which event a session shows first, and what it says about the others:
 * a recording may hold several events, and the first one may have no
 * samples at all (cpu_atom listed before cpu_core on hybrid Intel, the
 * dummy event after perf inject --itrace). -e NAME or the browser's e key
 * selects another one.
 */
#include <string.h>

#include "base.h"
#include "session/session-int.h"

int
bt_session_default_event(const struct bt_profile *p)
{
	size_t i;

	for (i = 0; i < p->info.nevents; i++)
		if (p->info.event_samples[i] > 0)
			return (int)i;
	return 0;
}

void
bt_session_events_note(struct bt_session *s)
{
	const struct bt_profile_info *in = &s->p->info;
	struct bt_strbuf sb = BT_STRBUF_INIT;
	size_t i, with = 0, without = 0;

	for (i = 0; i < in->nevents; i++) {
		if (in->event_samples[i] == 0) {
			without++;
			continue;
		}
		bt_strbuf_addf(&sb, "%s%s (%llu)", with ? ", " : "",
		    in->events[i], (unsigned long long)in->event_samples[i]);
		with++;
	}
	if (with > 1)
		bt_session_notef(s, "%zu events with samples: %s; -e NAME (e in "
		    "the browser) shows another%s", with, sb.buf,
		    without ? " (and events without samples)" : "");
	else if (with == 1 && in->nevents > 1 && in->event_samples[0] == 0)
		bt_session_notef(s, "only '%s' has samples, of %zu events",
		    in->events[bt_session_default_event(s->p)], in->nevents);
	bt_strbuf_release(&sb);
}
