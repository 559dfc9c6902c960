/*
 * Which event a session shows first, and what it says about the others:
 * a recording may hold several events, and the first one may have no
 * samples at all (cpu_atom listed before cpu_core on hybrid Intel, the
 * dummy event after perf inject --itrace). -e NAME or the browser's e key
 * selects another one.
 */
#include <string.h>

#include "base.h"
#include "perf/sample.h"
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

/*
 * The event a name selects, as perf would: the name the recording gives
 * it; else what the name means to perf's parser (the event and its
 * modifiers), matched against each event's attr, so that every name perf
 * prints for an event selects it: cycles:uH (perf 6.8's evlist, pipe
 * mode) is the event recorded as cycles:u; a group, {a,b}:S, its leader.
 * Several events a name could mean: the one whose derived name is the
 * name, else the first whose host and guest bits are the name's too.
 */
int
bt_session_find_event(const struct bt_profile *p, const char *event,
		      struct bt_error *err)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct bt_perf_evname ev;
	char derived[192];
	size_t i;
	int found = -1, strict = -1, named = -1;

	if (event == NULL)
		return bt_session_default_event(p);
	for (i = 0; i < p->info.nevents; i++)
		if (strcmp(p->info.events[i], event) == 0)
			return (int)i;
	if (p->event_attrs != NULL && bt_perf_evname_parse(event, &ev) == 0)
		for (i = 0; i < p->info.nevents; i++) {
			const struct perf_event_attr *a = &p->event_attrs[i];

			if (!bt_perf_evname_match(&ev, p->info.events[i], a, false))
				continue;
			if (found < 0)
				found = (int)i;
			if (strict < 0 && bt_perf_evname_match(&ev, p->info.events[i], a, true))
				strict = (int)i;
			if (named < 0 && strcmp(bt_perf_event_name_full(a, derived,
			    sizeof(derived)), event) == 0)
				named = (int)i;
		}
	if (found >= 0)
		return named >= 0 ? named : strict >= 0 ? strict : found;
	for (i = 0; i < p->info.nevents; i++)
		bt_strbuf_addf(&sb, "%s'%s'", i ? ", " : "", p->info.events[i]);
	bt_error_set(err, BT_EINVAL, "no event '%s' in the recording (it has %s)",
	    event, sb.buf);
	bt_strbuf_release(&sb);
	return -1;
}
