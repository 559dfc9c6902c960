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
