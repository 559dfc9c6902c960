/*
 * Event names, perf's spelling, both ways (sample.h): the one table that
 * -e parses and that names an attr without an EVENT_DESC entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "perf/sample.h"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
	bool alias;		/* accepted, never printed */
} events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, false },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, false },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, false },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, true },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, false },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, false },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, false },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, false },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, false },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, false },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, false },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, false },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, true },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, false },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, false },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, false },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, false },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, false },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, false },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, false },
	{ "bpf-output", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT, false },
	{ "cgroup-switches", PERF_TYPE_SOFTWARE, 11, false },
};

int
bt_perf_event_parse(const char *name, uint32_t *type, uint64_t *config)
{
	size_t i;

	for (i = 0; i < BT_ARRAY_SIZE(events); i++)
		if (strcmp(name, events[i].name) == 0) {
			*type = events[i].type;
			*config = events[i].config;
			return 0;
		}
	if (name[0] == 'r' && name[1] != '\0') {
		char *end;
		unsigned long long v = strtoull(name + 1, &end, 16);
		if (*end == '\0') {
			*type = PERF_TYPE_RAW;
			*config = v;
			return 0;
		}
	}
	return -1;
}

const char *
bt_perf_event_name(const struct perf_event_attr *attr, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < BT_ARRAY_SIZE(events); i++)
		if (!events[i].alias && attr->type == events[i].type &&
		    attr->config == events[i].config) {
			snprintf(buf, len, "%s", events[i].name);
			return buf;
		}
	if (attr->type == PERF_TYPE_RAW)
		snprintf(buf, len, "raw 0x%llx", (unsigned long long)attr->config);
	else
		snprintf(buf, len, "event %u:0x%llx", attr->type,
		    (unsigned long long)attr->config);
	return buf;
}

/*
 * perf's modifier suffix of an attr (evsel__add_modifiers in perf's
 * util/evsel.c): the privilege levels counted when some are excluded
 * (k, u, h), the precise_ip level (p, pp, ppp), and H/G when host or
 * guest counting differs from what those imply: exclude_guest is the
 * default once k/u/h or p are given, so it shows H; otherwise G or H
 * shows only when one side is excluded.
 */
static size_t
event_modifiers(const struct perf_event_attr *a, char *buf, size_t len)
{
	char m[16];
	size_t n = 0;
	bool guest_default = false;

	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			m[n++] = 'k';
		if (!a->exclude_user)
			m[n++] = 'u';
		if (!a->exclude_hv)
			m[n++] = 'h';
		guest_default = true;
	}
	if (a->precise_ip) {
		unsigned i;
		for (i = 0; i < a->precise_ip && i < 3; i++)
			m[n++] = 'p';
		guest_default = true;
	}
	if (a->exclude_host || (bool)a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			m[n++] = 'H';
		if (!a->exclude_guest)
			m[n++] = 'G';
	}
	if (n == 0)
		return 0;
	m[n] = '\0';
	return (size_t)snprintf(buf, len, ":%s", m);
}

const char *
bt_perf_event_name_full(const struct perf_event_attr *attr, char *buf,
			size_t len)
{
	size_t n;

	bt_perf_event_name(attr, buf, len);
	n = strlen(buf);
	if (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_SOFTWARE ||
	    attr->type == PERF_TYPE_RAW)
		event_modifiers(attr, buf + n, len - n);
	return buf;
}

#define MODIFIERS "ukhIGHpPSDeWb"

/*
 * The modifiers in str applied to ev->attr, as perf's get_event_modifier
 * (perf 6.1) applies them to an evsel: a group's on top of each member's.
 */
static void
apply_modifiers(struct bt_perf_evname *ev, const char *str)
{
	struct perf_event_attr *a = &ev->attr;
	int eu = a->exclude_user, ek = a->exclude_kernel, eh = a->exclude_hv;
	int eH = a->exclude_host, eG = a->exclude_guest;
	int exclude = eu | ek | eh, precise = a->precise_ip;

	for (; *str; str++) {
		ev->mods = true;
		switch (*str) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (!ev->gh)
				eG = 1;
			eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			eh = 0;
			break;
		case 'G':
		case 'H':
			if (!ev->gh) {
				ev->gh = true;
				eG = eH = 1;
			}
			if (*str == 'G')
				eG = 0;
			else
				eH = 0;
			break;
		case 'I':
			a->exclude_idle = 1;
			break;
		case 'p':
			precise++;
			if (!ev->gh)	/* precise requires exclude_guest */
				eG = 1;
			break;
		case 'P':
			ev->precise_max = true;
			break;
		case 'S':
			ev->sample_read = true;
			break;
		case 'D':
			a->pinned = 1;
			break;
		case 'e':
			a->exclusive = 1;
			break;
		default:	/* W, b */
			ev->unsupported = *str;
			break;
		}
	}
	a->exclude_user = (unsigned)eu;
	a->exclude_kernel = (unsigned)ek;
	a->exclude_hv = (unsigned)eh;
	a->exclude_host = (unsigned)eH;
	a->exclude_guest = (unsigned)eG;
	a->precise_ip = (unsigned)BT_MIN(precise, 3);
}

/* Is s (up to its end) made of modifiers only, and not empty? */
static bool
all_modifiers(const char *s)
{
	return s[0] != '\0' && strspn(s, MODIFIERS) == strlen(s);
}

int
bt_perf_evname_parse(const char *name, struct bt_perf_evname *ev)
{
	const char *group_mods = "", *member = name;
	char mods[32] = "";
	size_t len = strlen(name);
	char *colon;

	memset(ev, 0, sizeof(*ev));
	if (name[0] == '{') {
		const char *close = strrchr(name, '}');

		if (close == NULL || (close[1] != '\0' &&
		    (close[1] != ':' || !all_modifiers(close + 2))))
			return -1;
		if (close[1] == ':')
			group_mods = close + 2;
		member = name + 1;
		len = strcspn(member, ",}");
		ev->group = true;
	}
	if (len == 0 || len >= sizeof(ev->base))
		return -1;
	memcpy(ev->base, member, len);
	ev->base[len] = '\0';
	colon = strrchr(ev->base, ':');
	if (colon != NULL && colon > ev->base && all_modifiers(colon + 1) &&
	    strlen(colon + 1) < sizeof(mods)) {
		strcpy(mods, colon + 1);
		*colon = '\0';
	}
	if (strlen(group_mods) >= sizeof(mods))
		return -1;
	ev->known = bt_perf_event_parse(ev->base, &ev->type, &ev->config) == 0;
	apply_modifiers(ev, mods);
	apply_modifiers(ev, group_mods);
	return 0;
}

bool
bt_perf_evname_match(const struct bt_perf_evname *ev, const char *name,
		     const struct perf_event_attr *a, bool strict)
{
	const struct perf_event_attr *m = &ev->attr;
	struct bt_perf_evname rec;

	if (ev->known) {
		/* hybrid CPUs put the PMU's type in the high half of a hardware config */
		uint64_t config = a->type == PERF_TYPE_HARDWARE && ev->config >> 32 == 0 ?
		    a->config & 0xffffffffu : a->config;
		if (a->type != ev->type || config != ev->config)
			return false;
	} else if (bt_perf_evname_parse(name, &rec) < 0 || strcmp(rec.base, ev->base) != 0)
		return false;
	if (a->exclude_user != m->exclude_user || a->exclude_kernel != m->exclude_kernel ||
	    a->exclude_hv != m->exclude_hv)
		return false;
	if (!ev->precise_max && a->precise_ip != m->precise_ip)
		return false;
	if ((m->exclude_idle && !a->exclude_idle) || (m->pinned && !a->pinned) ||
	    (m->exclusive && !a->exclusive))
		return false;
	if (ev->sample_read && !(a->sample_type & PERF_SAMPLE_READ))
		return false;
	if (ev->gh || strict)
		return a->exclude_host == m->exclude_host && a->exclude_guest == m->exclude_guest;
	return !a->exclude_host;
}
