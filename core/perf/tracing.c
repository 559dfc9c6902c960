/*
 * Tracepoint names from the TRACING_DATA feature, for files without
 * EVENT_DESC names (perf reads the same formats: util/trace-event-read.c).
 * The section, version 0.5 or 0.6:
 *
 *   "\x17\x08\x44tracing" version"\0" endian(1) long_size(1) page_size(4)
 *   "header_page\0" size(8) data   "header_event\0" size(8) data
 *   ftrace formats: count(4), each size(8) text
 *   event formats: systems(4), each: name"\0" count(4), each size(8) text
 *
 * and each format text holds "name: sched_switch" and "ID: 372" lines.
 * Every size is checked against the section.
 */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "perf/perfdata-int.h"

struct tcur {
	const uint8_t *p, *end;
	bool swapped;
	bool bad;
};

static uint64_t
get(struct tcur *c, size_t n)
{
	uint64_t v = 0;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return 0;
	}
	v = n == 4 ? bt_perf_get32(c->p, c->swapped) : bt_perf_get64(c->p, c->swapped);
	c->p += n;
	return v;
}

static const char *
str(struct tcur *c)
{
	const uint8_t *z;
	const char *s = (const char *)c->p;

	if (c->bad || (z = memchr(c->p, 0, (size_t)(c->end - c->p))) == NULL) {
		c->bad = true;
		return "";
	}
	c->p = z + 1;
	return s;
}

static const uint8_t *
skip(struct tcur *c, uint64_t n)
{
	const uint8_t *at = c->p;

	if (c->bad || n > (uint64_t)(c->end - c->p)) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	return at;
}

/* The value after "key: " on a line of text[0..len), copied into out. */
static bool
field(const uint8_t *text, size_t len, const char *key, char *out, size_t outlen)
{
	size_t kl = strlen(key), i = 0;

	while (i < len) {
		const uint8_t *nl = memchr(text + i, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - text) - i : len - i, n;

		if (ll > kl && memcmp(text + i, key, kl) == 0) {
			n = BT_MIN(ll - kl, outlen - 1);
			memcpy(out, text + i + kl, n);
			out[n] = '\0';
			return true;
		}
		i += ll + 1;
	}
	return false;
}

char *
pd_tracepoint_name(const struct bt_pd_reader *r, uint64_t id)
{
	struct tcur c;
	uint64_t n, i, j, sys;

	if (r->tracing == NULL || r->tracing_len < 10 ||
	    memcmp(r->tracing, "\x17\x08\x44tracing", 10) != 0)
		return NULL;
	c = (struct tcur){ r->tracing, r->tracing + r->tracing_len, false, false };
	skip(&c, 10);
	str(&c);			/* version */
	if (skip(&c, 2) != NULL)	/* endian, long size */
		c.swapped = c.p[-2] != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	get(&c, 4);			/* page size */
	if (strcmp(str(&c), "header_page") != 0)
		return NULL;
	skip(&c, get(&c, 8));
	if (strcmp(str(&c), "header_event") != 0)
		return NULL;
	skip(&c, get(&c, 8));
	for (n = get(&c, 4), i = 0; i < n && !c.bad; i++)
		skip(&c, get(&c, 8));	/* ftrace's own formats */
	for (sys = get(&c, 4), i = 0; i < sys && !c.bad; i++) {
		const char *system = str(&c);

		for (n = get(&c, 4), j = 0; j < n && !c.bad; j++) {
			uint64_t len = get(&c, 8);
			const uint8_t *text = skip(&c, len);
			char name[256], num[32];

			if (text == NULL || !field(text, len, "ID: ", num, sizeof(num)) ||
			    strtoull(num, NULL, 10) != id ||
			    !field(text, len, "name: ", name, sizeof(name)))
				continue;
			return bt_xasprintf("%s:%s", system, name);
		}
	}
	return NULL;
}
