/*
 * jitdump reader. One pass over the records, every size checked against
 * the record it frames and the record against the file; names, file
 * names and code bytes are borrowed from the mapping (each string is
 * checked to end inside its record). Line tables and unwinding data are
 * attached to their loads after the pass.
 */
#include <byteswap.h>
#include <string.h>

#include "base.h"
#include "jit/jit-int.h"
#include "jit/jitdump.h"

#define REC_HEADER 16u		/* id, total_size, timestamp */
#define LOAD_FIXED 40u		/* pid tid vma code_addr code_size code_index */
#define MOVE_FIXED 48u		/* pid tid vma old new code_size code_index */
#define DEBUG_FIXED 16u		/* code_addr nr_entry */
#define DEBUG_ENTRY 16u		/* addr line discrim, then the file name */
#define UNWIND_FIXED 24u	/* unwind_data_size eh_frame_hdr_size mapped_size */

/* A DEBUG_INFO record, waiting for its load. */
struct debug_rec {
	uint64_t code_addr;
	size_t seq;
	size_t first, n;	/* in jd->lines */
	bool used;
};

/* An UNWINDING_INFO record, for the load that follows it. */
struct unwind_rec {
	const uint8_t *data;
	uint64_t size, hdr_size, mapped_size;
};

struct bt_jitdump {
	struct bt_jit_file file;	/* data NULL for open_mem */
	const uint8_t *data;
	size_t size;
	bool swapped;

	struct bt_jitdump_header hdr;
	struct bt_jitdump_stats stats;
	BT_VEC(struct bt_jit_load) loads;
	BT_VEC(struct bt_jit_move) moves;
	BT_VEC(struct bt_jit_line) lines;
	BT_VEC(struct debug_rec) debug;
	struct bt_jit_spans spans;
};

static uint32_t
g32(const struct bt_jitdump *jd, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return jd->swapped ? bswap_32(v) : v;
}

static uint64_t
g64(const struct bt_jitdump *jd, const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return jd->swapped ? bswap_64(v) : v;
}

/* Note the first problem met. */
static void __attribute__((format(printf, 2, 3)))
damage(struct bt_jitdump *jd, const char *fmt, ...)
{
	va_list ap;

	if (jd->stats.damage[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(jd->stats.damage, sizeof(jd->stats.damage), fmt, ap);
	va_end(ap);
}

/* A record whose content is unsound: skipped, the next one is read. */
static void
bad(struct bt_jitdump *jd, uint64_t off, const char *what)
{
	jd->stats.bad++;
	damage(jd, "record at offset %llu: %s", (unsigned long long)off, what);
}

/* Length of the NUL-terminated string at p, or SIZE_MAX if none ends before p + max. */
static size_t
str_len(const uint8_t *p, size_t max)
{
	const uint8_t *nul = memchr(p, '\0', max);

	return nul == NULL ? SIZE_MAX : (size_t)(nul - p);
}

static void
parse_load(struct bt_jitdump *jd, const uint8_t *p, size_t size, uint64_t off,
	   uint64_t time, size_t seq, struct unwind_rec *unwind)
{
	struct bt_jit_load l;
	size_t body = size - REC_HEADER, nlen, tail;
	const uint8_t *b = p + REC_HEADER;

	if (body < LOAD_FIXED + 1) {
		bad(jd, off, "code load too short");
		return;
	}
	memset(&l, 0, sizeof(l));
	l.pid = g32(jd, b);
	l.tid = g32(jd, b + 4);
	l.vma = g64(jd, b + 8);
	l.code_addr = g64(jd, b + 16);
	l.code_size = g64(jd, b + 24);
	l.code_index = g64(jd, b + 32);
	l.time = time;
	l.seq = seq;
	nlen = str_len(b + LOAD_FIXED, body - LOAD_FIXED);
	if (nlen == SIZE_MAX) {
		bad(jd, off, "code load name without its NUL");
		return;
	}
	if (l.code_addr + l.code_size < l.code_addr) {
		bad(jd, off, "code load wraps around the address space");
		return;
	}
	l.name = (const char *)(b + LOAD_FIXED);
	/* the code is the record's tail, as perf inject takes it */
	tail = body - LOAD_FIXED - nlen - 1;
	if (l.code_size > tail && tail != 0) {
		bad(jd, off, "code load with code size past its end");
		return;
	}
	if (l.code_size > 0 && l.code_size <= tail) {
		l.code = p + size - l.code_size;
		l.code_offset = off + size - l.code_size;
	}
	if (unwind->data != NULL) {
		l.unwind_data = unwind->data;
		l.unwind_size = unwind->size;
		l.eh_frame_hdr_size = unwind->hdr_size;
		l.unwind_mapped_size = unwind->mapped_size;
		memset(unwind, 0, sizeof(*unwind));
	}
	BT_VEC_PUSH(jd->loads, l);
	jd->stats.loads++;
}

static void
parse_move(struct bt_jitdump *jd, const uint8_t *p, size_t size, uint64_t off,
	   uint64_t time, size_t seq)
{
	struct bt_jit_move m;
	const uint8_t *b = p + REC_HEADER;

	if (size - REC_HEADER < MOVE_FIXED) {
		bad(jd, off, "code move too short");
		return;
	}
	m.pid = g32(jd, b);
	m.tid = g32(jd, b + 4);
	m.vma = g64(jd, b + 8);
	m.old_code_addr = g64(jd, b + 16);
	m.new_code_addr = g64(jd, b + 24);
	m.code_size = g64(jd, b + 32);
	m.code_index = g64(jd, b + 40);
	m.time = time;
	m.seq = seq;
	m.load = SIZE_MAX;
	if (m.new_code_addr + m.code_size < m.new_code_addr) {
		bad(jd, off, "code move wraps around the address space");
		return;
	}
	BT_VEC_PUSH(jd->moves, m);
	jd->stats.moves++;
}

/*
 * The entries of a DEBUG_INFO body, as the spec lays them out (each file
 * name up to its NUL; "\xff" is V8's "same file as the entry before").
 * True when exactly nr entries end where the record does, but for the
 * zero padding to 8 bytes that V8 adds.
 */
static bool
entries_strict(struct bt_jitdump *jd, const uint8_t *b, size_t body, uint64_t nr)
{
	const char *prev = "";
	size_t pos = DEBUG_FIXED, i, flen;

	for (i = 0; i < nr; i++) {
		struct bt_jit_line ln;

		if (body - pos < DEBUG_ENTRY + 1)
			return false;
		flen = str_len(b + pos + DEBUG_ENTRY, body - pos - DEBUG_ENTRY);
		if (flen == SIZE_MAX)
			return false;
		ln.addr = g64(jd, b + pos);
		ln.line = g32(jd, b + pos + 8);
		ln.discrim = g32(jd, b + pos + 12);
		ln.file = (const char *)(b + pos + DEBUG_ENTRY);
		if (strcmp(ln.file, "\xff") == 0)
			ln.file = prev;
		prev = ln.file;
		BT_VEC_PUSH(jd->lines, ln);
		pos += DEBUG_ENTRY + flen + 1;
	}
	if (body - pos >= 8)
		return false;
	for (; pos < body; pos++)
		if (b[pos] != 0)
			return false;
	return true;
}

/* Is the name [p, p + len) text (no control bytes, no NUL)? */
static bool
is_text(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] < 0x20 || p[i] == 0x7f)
			return false;
	return true;
}

/*
 * The entries of a body every one of whose entries has the same size,
 * the names' bytes being anything: node 20's V8 (11.3) writes each file
 * name with its right length from freed memory, NULs inside. The lines
 * and addresses are sound; a name that is not text becomes "".
 */
static bool
entries_stride(struct bt_jitdump *jd, const uint8_t *b, size_t body, uint64_t nr)
{
	size_t pad, stride = 0, pos, i;

	if (nr == 0)
		return false;
	for (pad = 0; pad < 8 && pad <= body - DEBUG_FIXED; pad++) {
		size_t rest = body - DEBUG_FIXED - pad;
		if (rest % nr != 0 || rest / nr < DEBUG_ENTRY + 1)
			continue;
		stride = rest / nr;
		for (i = 0, pos = DEBUG_FIXED; i < nr; i++, pos += stride)
			if (b[pos + stride - 1] != 0)
				break;
		if (i == nr)
			break;
		stride = 0;
	}
	if (stride == 0)
		return false;
	for (i = 0, pos = DEBUG_FIXED; i < nr; i++, pos += stride) {
		struct bt_jit_line ln;
		const uint8_t *name = b + pos + DEBUG_ENTRY;

		ln.addr = g64(jd, b + pos);
		ln.line = g32(jd, b + pos + 8);
		ln.discrim = g32(jd, b + pos + 12);
		ln.file = is_text(name, stride - DEBUG_ENTRY - 1) ?
		    (const char *)name : "";
		BT_VEC_PUSH(jd->lines, ln);
	}
	return true;
}

static void
parse_debug(struct bt_jitdump *jd, const uint8_t *p, size_t size, uint64_t off,
	    size_t seq)
{
	struct debug_rec d;
	const uint8_t *b = p + REC_HEADER;
	size_t body = size - REC_HEADER, i;
	uint64_t nr;

	if (body < DEBUG_FIXED) {
		bad(jd, off, "debug info too short");
		return;
	}
	d.code_addr = g64(jd, b);
	nr = g64(jd, b + 8);
	d.seq = seq;
	d.first = jd->lines.n;
	d.used = false;
	/* each entry takes at least 17 bytes: a count beyond that is a lie */
	if (nr > (body - DEBUG_FIXED) / (DEBUG_ENTRY + 1)) {
		bad(jd, off, "debug info with more entries than bytes");
		return;
	}
	if (!entries_strict(jd, b, body, nr)) {
		jd->lines.n = d.first;
		if (!entries_stride(jd, b, body, nr)) {
			bad(jd, off, "debug info entries do not fill the record");
			return;
		}
		jd->stats.debug_repaired++;
	}
	d.n = jd->lines.n - d.first;
	for (i = d.first; i < jd->lines.n; i++)
		if (jd->lines.v[i].addr >= jd->hdr.line_bias)
			jd->lines.v[i].addr -= jd->hdr.line_bias;
	BT_VEC_PUSH(jd->debug, d);
	jd->stats.debug_infos++;
}

static void
parse_unwind(struct bt_jitdump *jd, const uint8_t *p, size_t size, uint64_t off,
	     struct unwind_rec *u)
{
	const uint8_t *b = p + REC_HEADER;
	size_t body = size - REC_HEADER;
	uint64_t usize, hsize, msize;

	if (body < UNWIND_FIXED) {
		bad(jd, off, "unwinding info too short");
		return;
	}
	usize = g64(jd, b);
	hsize = g64(jd, b + 8);
	msize = g64(jd, b + 16);
	if (usize > body - UNWIND_FIXED || hsize > usize) {
		bad(jd, off, "unwinding info sizes past the record");
		return;
	}
	jd->stats.unwind_infos++;
	u->data = b + UNWIND_FIXED;
	u->size = usize;
	u->hdr_size = hsize;
	u->mapped_size = msize;
}

static int
debug_cmp(const void *a, const void *b)
{
	const struct debug_rec *x = a, *y = b;

	if (x->code_addr != y->code_addr)
		return x->code_addr < y->code_addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct load_key {
	uint64_t key;
	size_t seq, idx;
};

static int
key_cmp(const void *a, const void *b)
{
	const struct load_key *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Give each load the line table of its address that came after the
 * previous load of that address and before it (the spec puts DEBUG_INFO
 * first). Matching by address, not just taking the last record, keeps
 * tables right when several threads write one file.
 */
static void
attach_lines(struct bt_jitdump *jd)
{
	struct load_key *k = bt_xreallocarray(NULL, jd->loads.n + 1, sizeof(*k));
	size_t i, j = 0, n = jd->loads.n;

	for (i = 0; i < n; i++) {
		k[i].key = jd->loads.v[i].code_addr;
		k[i].seq = jd->loads.v[i].seq;
		k[i].idx = i;
	}
	bt_qsort(k, n, sizeof(*k), key_cmp);
	bt_qsort(jd->debug.v, jd->debug.n, sizeof(*jd->debug.v), debug_cmp);
	for (i = 0; i < n; i++) {
		struct debug_rec *best = NULL;
		struct bt_jit_load *l = &jd->loads.v[k[i].idx];
		/* the debug records of this address before this load */
		while (j < jd->debug.n && (jd->debug.v[j].code_addr < k[i].key ||
		    (jd->debug.v[j].code_addr == k[i].key &&
		    jd->debug.v[j].seq < k[i].seq))) {
			if (jd->debug.v[j].code_addr == k[i].key)
				best = &jd->debug.v[j];
			j++;
		}
		/* one that came before an earlier load of the address was its */
		if (best != NULL && !best->used &&
		    (i == 0 || k[i - 1].key != k[i].key || best->seq > k[i - 1].seq)) {
			best->used = true;
			if (best->n > 0) {
				l->lines = jd->lines.v + best->first;
				l->nlines = best->n;
			}
		}
	}
	for (i = 0; i < jd->debug.n; i++)
		if (!jd->debug.v[i].used)
			jd->stats.orphan_debug++;
	free(k);
}

/* Link each move to its load (the latest earlier load of its code_index). */
static void
attach_moves(struct bt_jitdump *jd)
{
	struct load_key *k;
	size_t i, n = jd->loads.n;

	if (jd->moves.n == 0)
		return;
	k = bt_xreallocarray(NULL, n + 1, sizeof(*k));
	for (i = 0; i < n; i++) {
		k[i].key = jd->loads.v[i].code_index;
		k[i].seq = jd->loads.v[i].seq;
		k[i].idx = i;
	}
	bt_qsort(k, n, sizeof(*k), key_cmp);
	for (i = 0; i < jd->moves.n; i++) {
		struct bt_jit_move *m = &jd->moves.v[i];
		size_t lo = 0, hi = n;
		/* first key past (code_index, seq) */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (k[mid].key < m->code_index ||
			    (k[mid].key == m->code_index && k[mid].seq < m->seq))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo > 0 && k[lo - 1].key == m->code_index)
			m->load = k[lo - 1].idx;
	}
	free(k);
}

static void
build_index(struct bt_jitdump *jd)
{
	size_t i;

	for (i = 0; i < jd->loads.n; i++) {
		const struct bt_jit_load *l = &jd->loads.v[i];
		bt_jit_spans_add(&jd->spans, l->code_addr, l->code_addr + l->code_size,
		    l->time, l->seq, i);
	}
	for (i = 0; i < jd->moves.n; i++) {
		const struct bt_jit_move *m = &jd->moves.v[i];
		if (m->load != SIZE_MAX)
			bt_jit_spans_add(&jd->spans, m->new_code_addr,
			    m->new_code_addr + m->code_size, m->time, m->seq,
			    jd->loads.n + i);
	}
	bt_jit_spans_sort(&jd->spans);
}

static int
parse(struct bt_jitdump *jd, struct bt_error *err)
{
	struct unwind_rec unwind = { NULL, 0, 0, 0 };
	const uint8_t *d = jd->data;
	uint32_t magic;
	size_t pos, seq = 0;

	jd->stats.size = jd->size;
	if (jd->size < 4)
		return bt_error_set(err, BT_EFORMAT, "not a jitdump: %zu bytes",
		    jd->size);
	memcpy(&magic, d, 4);
	if (magic == BT_JITDUMP_MAGIC_SWAPPED)
		jd->swapped = true;
	else if (magic != BT_JITDUMP_MAGIC)
		return bt_error_set(err, BT_EFORMAT,
		    "not a jitdump: magic %#x, want %#x (\"JiTD\")", magic,
		    BT_JITDUMP_MAGIC);
	if (jd->size < BT_JITDUMP_HEADER_SIZE)
		return bt_error_set(err, BT_EFORMAT,
		    "jitdump header cut short: %zu of %u bytes", jd->size,
		    BT_JITDUMP_HEADER_SIZE);
	jd->hdr.swapped = jd->swapped;
	jd->hdr.version = g32(jd, d + 4);
	jd->hdr.header_size = g32(jd, d + 8);
	jd->hdr.elf_mach = g32(jd, d + 12);
	jd->hdr.reserved = g32(jd, d + 16);
	/*
	 * V8 and Dart mark their files so, and add the size of an ELF header
	 * (of the target's class) to every line address
	 */
	if (jd->hdr.reserved == BT_JITDUMP_V8_RESERVED)
		jd->hdr.line_bias = jd->hdr.elf_mach == 3 /* EM_386 */ ||
		    jd->hdr.elf_mach == 40 /* EM_ARM */ ? 0x34 : 0x40;
	jd->hdr.pid = g32(jd, d + 20);
	jd->hdr.timestamp = g64(jd, d + 24);
	jd->hdr.flags = g64(jd, d + 32);
	if (jd->hdr.header_size < BT_JITDUMP_HEADER_SIZE)
		return bt_error_set(err, BT_EFORMAT,
		    "jitdump header size %u is below %u", jd->hdr.header_size,
		    BT_JITDUMP_HEADER_SIZE);
	if (jd->hdr.header_size > jd->size) {
		jd->stats.truncated = true;
		damage(jd, "header size %u runs past the end (%zu bytes)",
		    jd->hdr.header_size, jd->size);
		jd->stats.good_size = 0;
		return 0;
	}
	pos = jd->hdr.header_size;
	while (pos < jd->size) {
		const uint8_t *p = d + pos;
		size_t left = jd->size - pos;
		uint32_t id, size;
		uint64_t time;

		if (left < REC_HEADER) {
			jd->stats.truncated = true;
			damage(jd, "record header at offset %zu cut short (%zu bytes)",
			    pos, left);
			break;
		}
		id = g32(jd, p);
		size = g32(jd, p + 4);
		time = g64(jd, p + 8);
		if (size < REC_HEADER) {
			jd->stats.truncated = true;
			damage(jd, "record at offset %zu has size %u", pos, size);
			break;
		}
		if (size > left) {
			jd->stats.truncated = true;
			damage(jd, "record at offset %zu (id %u) needs %u bytes, "
			    "%zu left", pos, id, size, left);
			break;
		}
		switch (id) {
		case BT_JIT_CODE_LOAD:
			parse_load(jd, p, size, pos, time, seq, &unwind);
			break;
		case BT_JIT_CODE_MOVE:
			parse_move(jd, p, size, pos, time, seq);
			break;
		case BT_JIT_CODE_DEBUG_INFO:
			parse_debug(jd, p, size, pos, seq);
			break;
		case BT_JIT_CODE_CLOSE:
			jd->stats.closes++;
			jd->stats.closed = true;
			jd->stats.close_time = time;
			break;
		case BT_JIT_CODE_UNWINDING_INFO:
			parse_unwind(jd, p, size, pos, &unwind);
			break;
		default:
			jd->stats.unknown++;
			break;
		}
		jd->stats.records++;
		seq++;
		pos += size;
	}
	jd->stats.good_size = pos;
	attach_lines(jd);
	attach_moves(jd);
	build_index(jd);
	return 0;
}

struct bt_jitdump *
bt_jitdump_open_mem(const void *data, size_t size, struct bt_error *err)
{
	struct bt_jitdump *jd = bt_xcalloc(1, sizeof(*jd));

	jd->data = data;
	jd->size = data == NULL ? 0 : size;
	if (parse(jd, err) < 0) {
		bt_jitdump_free(jd);
		return NULL;
	}
	return jd;
}

struct bt_jitdump *
bt_jitdump_open(const char *path, struct bt_error *err)
{
	struct bt_jit_file f;
	struct bt_jitdump *jd;

	if (bt_jit_file_map(&f, path, "jitdump", err) < 0)
		return NULL;
	jd = bt_jitdump_open_mem(f.data, f.size, err);
	if (jd == NULL) {
		if (err != NULL) {
			char msg[sizeof(err->msg)];
			snprintf(msg, sizeof(msg), "'%.200s': %.300s", path, err->msg);
			memcpy(err->msg, msg, sizeof(msg));
		}
		bt_jit_file_release(&f);
		return NULL;
	}
	jd->file = f;
	return jd;
}

void
bt_jitdump_free(struct bt_jitdump *jd)
{
	if (jd == NULL)
		return;
	BT_VEC_FREE(jd->loads);
	BT_VEC_FREE(jd->moves);
	BT_VEC_FREE(jd->lines);
	BT_VEC_FREE(jd->debug);
	bt_jit_spans_release(&jd->spans);
	bt_jit_file_release(&jd->file);
	free(jd);
}

const struct bt_jitdump_header *
bt_jitdump_header(const struct bt_jitdump *jd)
{
	return &jd->hdr;
}

const struct bt_jitdump_stats *
bt_jitdump_stats(const struct bt_jitdump *jd)
{
	return &jd->stats;
}

const struct bt_jit_load *
bt_jitdump_loads(const struct bt_jitdump *jd, size_t *n)
{
	*n = jd->loads.n;
	return jd->loads.v;
}

const struct bt_jit_move *
bt_jitdump_moves(const struct bt_jitdump *jd, size_t *n)
{
	*n = jd->moves.n;
	return jd->moves.v;
}

const struct bt_jit_load *
bt_jitdump_find(const struct bt_jitdump *jd, uint64_t addr, uint64_t time,
		uint64_t *start)
{
	const struct bt_jit_span *sp = bt_jit_spans_find(&jd->spans, addr, time);

	if (sp == NULL)
		return NULL;
	if (start != NULL)
		*start = sp->start;
	if (sp->idx < jd->loads.n)
		return &jd->loads.v[sp->idx];
	return &jd->loads.v[jd->moves.v[sp->idx - jd->loads.n].load];
}
