/* Encode and decode benchtui's section of a perf.data file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "perf/meta.h"

/* Escape backslash and newline so that an argument stays on one line. */
static void
add_escaped(struct bt_strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			bt_strbuf_addstr(sb, "\\\\");
		else if (*s == '\n')
			bt_strbuf_addstr(sb, "\\n");
		else
			bt_strbuf_addch(sb, *s);
	}
}

static char *
unescape(const char *s, size_t n)
{
	char *out = bt_xmalloc(n + 1), *o = out;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			i++;
			*o++ = s[i] == 'n' ? '\n' : s[i];
		} else
			*o++ = s[i];
	}
	*o = '\0';
	return out;
}

void
bt_meta_encode(const struct bt_meta *m, struct bt_strbuf *sb)
{
	size_t i;

	bt_strbuf_addstr(sb, "benchtui-meta 1\n");
	for (i = 0; i < m->argc; i++) {
		bt_strbuf_addstr(sb, "arg ");
		add_escaped(sb, m->argv[i]);
		bt_strbuf_addch(sb, '\n');
	}
	if (m->event_note[0]) {
		bt_strbuf_addstr(sb, "event-note ");
		add_escaped(sb, m->event_note);
		bt_strbuf_addch(sb, '\n');
	}
	bt_strbuf_addf(sb, "frequency %u\n", m->freq);
	if (m->has_status)
		bt_strbuf_addf(sb, "wait-status %d\n", m->wait_status);
	bt_strbuf_addf(sb, "duration %.6f\n", m->duration);
	bt_strbuf_addf(sb, "lost %llu\n", (unsigned long long)m->lost);
	bt_strbuf_addf(sb, "throttled %llu\n", (unsigned long long)m->throttled);
	bt_strbuf_addf(sb, "delay-ms %u\n", m->delay_ms);
	if (m->interrupted)
		bt_strbuf_addstr(sb, "interrupted 1\n");
	if (m->clock_monotonic)
		bt_strbuf_addstr(sb, "clock monotonic\n");
	if (m->cpu_mhz > 0)
		bt_strbuf_addf(sb, "cpu-mhz %.3f\n", m->cpu_mhz);
	if (m->cpu_id[0] && strpbrk(m->cpu_id, " \n") == NULL)
		bt_strbuf_addf(sb, "cpu-id %s\n", m->cpu_id);
	if (m->vdso != NULL) {
		bt_strbuf_addf(sb, "vdso %zu\n", m->vdso_len);
		bt_strbuf_add(sb, m->vdso, m->vdso_len);
	}
	if (m->output != NULL) {
		if (m->output_truncated)
			bt_strbuf_addstr(sb, "output-truncated 1\n");
		bt_strbuf_addf(sb, "output %zu\n", m->output_len);
		bt_strbuf_add(sb, m->output, m->output_len);
	}
	if (m->probe_note[0]) {
		bt_strbuf_addstr(sb, "probe-note ");
		add_escaped(sb, m->probe_note);
		bt_strbuf_addch(sb, '\n');
	}
	if (m->output_note[0]) {
		bt_strbuf_addstr(sb, "output-note ");
		add_escaped(sb, m->output_note);
		bt_strbuf_addch(sb, '\n');
	}
	if (m->had_probes) {
		int r;
		bt_strbuf_addstr(sb, "probe-roles");
		for (r = 0; r < BT_PROBE_NROLES; r++)
			bt_strbuf_addf(sb, " %s", bt_probe_role_name(r));
		bt_strbuf_addf(sb, "\nprobe-lost %llu\n", (unsigned long long)m->probe_lost);
		bt_strbuf_addf(sb, "probe-hits %zu\n", m->nhits * sizeof(*m->hits));
		bt_strbuf_add(sb, m->hits, m->nhits * sizeof(*m->hits));
	}
}

static const char *const role_names[BT_PROBE_NROLES] = {
	"gb.start", "gb.finish", "gb.pause", "gb.resume", "gb.report",
	"go.runN", "go.launch", "go.start", "go.stop",
	"crit.common", "crit.common-end", "crit.sample", "crit.sample-end",
	"crit.warmup", "crit.warmup-end", "go.started", "go.run1",
};

const char *
bt_probe_role_name(int role)
{
	return role >= 0 && role < BT_PROBE_NROLES ? role_names[role] : NULL;
}

/* "probe-roles a b c": the file's role numbers as ours (-1: unknown). */
static void
read_roles(const char *val, size_t vlen, int *map, size_t nmap)
{
	size_t i = 0;
	const char *p = val, *end = val + vlen;

	while (p < end && i < nmap) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		size_t n = sp ? (size_t)(sp - p) : (size_t)(end - p);
		int r;
		map[i] = -1;
		for (r = 0; r < BT_PROBE_NROLES; r++)
			if (strlen(role_names[r]) == n && memcmp(role_names[r], p, n) == 0)
				map[i] = r;
		i++;
		p += n + 1;
	}
}

/* The hits as the file has them, their roles mapped to ours. */
static void
read_hits(struct bt_meta *m, const char *d, size_t len, const int *map, size_t nmap)
{
	struct bt_probe_hit *h;
	size_t n = len / sizeof(*h), i, k = 0;

	h = bt_xcalloc(n + 1, sizeof(*h));
	memcpy(h, d, n * sizeof(*h));
	for (i = 0; i < n; i++)
		if (h[i].role < nmap && map[h[i].role] >= 0) {
			h[k] = h[i];
			h[k++].role = (uint16_t)map[h[i].role];
		}
	m->hits = h;
	m->nhits = k;
	m->had_probes = true;
}

int
bt_meta_decode(const void *data, size_t len, struct bt_meta *m)
{
	const char *p = data, *end = p + len;
	size_t alloc = 0;
	int roles[64];

	memset(roles, 0xff, sizeof(roles));	/* -1: no such role */

	memset(m, 0, sizeof(*m));
	if (len < 16 || memcmp(p, "benchtui-meta 1\n", 16) != 0)
		return -BT_EFORMAT;
	p += 16;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *sp, *val;
		size_t klen, vlen;
		char num[64];

		if (nl == NULL)
			break;
		sp = memchr(p, ' ', (size_t)(nl - p));
		if (sp == NULL) {
			p = nl + 1;
			continue;
		}
		klen = (size_t)(sp - p);
		val = sp + 1;
		vlen = (size_t)(nl - val);
		snprintf(num, sizeof(num), "%.*s", (int)BT_MIN(vlen, 63), val);
#define KEY(k) (klen == sizeof(k) - 1 && memcmp(p, k, klen) == 0)
		if (KEY("arg")) {
			BT_ALLOC_GROW(m->argv, m->argc + 2, alloc);
			m->argv[m->argc++] = unescape(val, vlen);
			m->argv[m->argc] = NULL;
		} else if (KEY("event-note")) {
			char *s = unescape(val, vlen);
			snprintf(m->event_note, sizeof(m->event_note), "%s", s);
			free(s);
		} else if (KEY("frequency"))
			m->freq = (unsigned)strtoul(num, NULL, 10);
		else if (KEY("wait-status")) {
			m->wait_status = (int)strtol(num, NULL, 10);
			m->has_status = true;
		} else if (KEY("duration"))
			m->duration = strtod(num, NULL);
		else if (KEY("lost"))
			m->lost = strtoull(num, NULL, 10);
		else if (KEY("throttled"))
			m->throttled = strtoull(num, NULL, 10);
		else if (KEY("delay-ms"))
			m->delay_ms = (unsigned)strtoul(num, NULL, 10);
		else if (KEY("interrupted"))
			m->interrupted = true;
		else if (KEY("clock"))
			m->clock_monotonic = vlen == 9 && memcmp(val, "monotonic", 9) == 0;
		else if (KEY("cpu-mhz"))
			m->cpu_mhz = strtod(num, NULL);
		else if (KEY("cpu-id"))
			snprintf(m->cpu_id, sizeof(m->cpu_id), "%.*s", (int)vlen, val);
		else if (KEY("output-truncated"))
			m->output_truncated = true;
		else if (KEY("probe-note")) {
			char *s = unescape(val, vlen);
			snprintf(m->probe_note, sizeof(m->probe_note), "%s", s);
			free(s);
		} else if (KEY("output-note")) {
			char *s = unescape(val, vlen);
			snprintf(m->output_note, sizeof(m->output_note), "%s", s);
			free(s);
		} else if (KEY("probe-roles"))
			read_roles(val, vlen, roles, BT_ARRAY_SIZE(roles));
		else if (KEY("probe-lost"))
			m->probe_lost = strtoull(num, NULL, 10);
		else if (KEY("vdso") || KEY("output") || KEY("probe-hits")) {
			size_t n = strtoull(num, NULL, 10);
			if (n > (size_t)(end - nl - 1))
				break;
			if (KEY("vdso")) {
				m->vdso = nl + 1;
				m->vdso_len = n;
			} else if (KEY("probe-hits")) {
				if (m->hits == NULL)
					read_hits(m, nl + 1, n, roles, BT_ARRAY_SIZE(roles));
			} else if (m->output == NULL) {
				char *copy = bt_xmalloc(n + 1);
				memcpy(copy, nl + 1, n);
				copy[n] = '\0';
				m->output = copy;
				m->output_len = n;
			}
			p = nl + 1 + n;	/* binary: keys may follow it */
			continue;
		}
#undef KEY
		p = nl + 1;
	}
	return 0;
}

void
bt_meta_release(struct bt_meta *m)
{
	size_t i;

	for (i = 0; i < m->argc; i++)
		free(m->argv[i]);
	free(m->argv);
	free((char *)m->output);
	free((void *)m->hits);
	memset(m, 0, sizeof(*m));
}

int
bt_meta_output_next(const char **p, const char *end, uint64_t *ns,
		    int *stream, const char **bytes, size_t *len)
{
	const char *d = *p, *nl;
	unsigned long long t;
	char head[64];
	size_t n;
	int st = 1;

	if (d >= end)
		return 0;
	nl = memchr(d, '\n', (size_t)(end - d));
	if (nl == NULL || (size_t)(nl - d) >= sizeof(head))
		return -BT_EFORMAT;
	memcpy(head, d, (size_t)(nl - d));
	head[nl - d] = '\0';
	if (sscanf(head, "%llu %zu %d", &t, &n, &st) < 2 ||
	    n > (size_t)(end - nl - 1))
		return -BT_EFORMAT;
	*ns = t;
	*stream = st == 2 ? 2 : 1;
	*bytes = nl + 1;
	*len = n;
	*p = nl + 1 + n;
	return 1;
}
