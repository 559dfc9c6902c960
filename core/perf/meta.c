/* Encode and decode benchtui's section of a perf.data file. */
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
}

int
bt_meta_decode(const void *data, size_t len, struct bt_meta *m)
{
	const char *p = data, *end = p + len;
	size_t alloc = 0;

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
		else if (KEY("output-truncated"))
			m->output_truncated = true;
		else if (KEY("vdso") || KEY("output")) {
			size_t n = strtoull(num, NULL, 10);
			if (n > (size_t)(end - nl - 1))
				break;
			if (KEY("vdso")) {
				m->vdso = nl + 1;
				m->vdso_len = n;
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
	memset(m, 0, sizeof(*m));
}
