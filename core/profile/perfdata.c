/*
 * perf.data reader and writer. Layout written:
 *
 *   [perf_file_header][id arrays][perf_file_attr...][data...]
 *   [feature section table][feature payloads]
 *
 * The reader maps the whole file and checks every offset against it.
 */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "perfdata.h"

#define PD_MAGIC 0x32454c4946524550ULL	/* "PERFILE2" */
#define PD_HEADER_SIZE 104
#define PD_FEAT_BITS 256
#define PD_NAME_ALIGN 64
#define PD_MISC_BUILD_ID_SIZE (1 << 15)
#define PD_MAX_ATTRS 4096
#define WINDOW (16u << 20)	/* of a big mapped file, the part kept resident */

struct pd_section {
	uint64_t offset, size;
};

struct bt_pd_reader {
	const uint8_t *data;
	size_t size;
	bool mapped;
	bool swapped;
	uint64_t dropped;	/* pages before this offset were given back */

	struct bt_pd_attr *attrs;
	size_t nattrs;
	struct pd_section data_sec;
	uint64_t pos;

	/* id -> attr index, sorted by id */
	struct pd_id { uint64_t id; int attr; } *ids;
	size_t nids;
	bool has_identifier;
	bool skip_samples;	/* return samples undecoded (bt_pd_skip_samples) */
	int id_pos;		/* u64 index of ID in a sample, -1 if none */

	char *feat_str[PD_FEAT_BITS];
	char **cmdline;
	size_t cmdline_argc;
	int nr_cpus;
	struct bt_pd_buildid *buildids;
	size_t nbuildids;
	const uint8_t *bt_section;
	size_t bt_section_len;

	char scratch[4096];	/* swapped or unterminated strings */
};

static uint16_t
g16(const struct bt_pd_reader *r, const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return r->swapped ? bswap_16(v) : v;
}

static uint32_t
g32(const struct bt_pd_reader *r, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return r->swapped ? bswap_32(v) : v;
}

static uint64_t
g64(const struct bt_pd_reader *r, const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return r->swapped ? bswap_64(v) : v;
}

/* Is [off, off+len) inside the file? */
static bool
in_file(const struct bt_pd_reader *r, uint64_t off, uint64_t len)
{
	return off <= r->size && len <= r->size - off;
}

const char *
bt_pd_event_name(const struct perf_event_attr *attr, char *buf, size_t len)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "stalled-cycles-backend",
		"ref-cycles",
	};
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults",
		"alignment-faults", "emulation-faults", "dummy", "bpf-output",
		"cgroup-switches",
	};

	if (attr->type == PERF_TYPE_HARDWARE && attr->config < BT_ARRAY_SIZE(hw))
		snprintf(buf, len, "%s", hw[attr->config]);
	else if (attr->type == PERF_TYPE_SOFTWARE &&
	    attr->config < BT_ARRAY_SIZE(sw))
		snprintf(buf, len, "%s", sw[attr->config]);
	else if (attr->type == PERF_TYPE_RAW)
		snprintf(buf, len, "raw 0x%llx", (unsigned long long)attr->config);
	else
		snprintf(buf, len, "event %u:0x%llx", attr->type,
		    (unsigned long long)attr->config);
	return buf;
}

static uint8_t
revbyte(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

/* Byte-swap an attr read from a file of the other endianness, as perf does. */
static void
attr_swap(struct perf_event_attr *a, size_t size)
{
	uint8_t *p = (uint8_t *)a;
	size_t i;

	a->type = bswap_32(a->type);
	a->size = bswap_32(a->size);
	/* u64 fields up to the bitfield word */
	for (i = 8; i + 8 <= 40 && i + 8 <= size; i += 8) {	/* config .. read_format */
		uint64_t v;
		memcpy(&v, p + i, 8);
		v = bswap_64(v);
		memcpy(p + i, &v, 8);
	}
	if (size >= 48)		/* bitfields: bits reversed in each byte */
		for (i = 40; i < 48; i++)
			p[i] = revbyte(p[i]);
	/* wakeup_events, bp_type (u32 each) */
	for (i = 48; i + 4 <= 56 && i + 4 <= size; i += 4) {
		uint32_t v;
		memcpy(&v, p + i, 4);
		v = bswap_32(v);
		memcpy(p + i, &v, 4);
	}
	/* config1, config2, branch_sample_type, sample_regs_user */
	for (i = 56; i + 8 <= 88 && i + 8 <= size; i += 8) {
		uint64_t v;
		memcpy(&v, p + i, 8);
		v = bswap_64(v);
		memcpy(p + i, &v, 8);
	}
	if (size >= 92)
		a->sample_stack_user = bswap_32(a->sample_stack_user);
	if (size >= 96)
		a->clockid = (int32_t)bswap_32((uint32_t)a->clockid);
	if (size >= 104)
		a->sample_regs_intr = bswap_64(a->sample_regs_intr);
	if (size >= 108)
		a->aux_watermark = bswap_32(a->aux_watermark);
	if (size >= 110)
		a->sample_max_stack = bswap_16(a->sample_max_stack);
	if (size >= 116)
		a->aux_sample_size = bswap_32(a->aux_sample_size);
	if (size >= 128)
		a->sig_data = bswap_64(a->sig_data);
}

/* Read a perf_event_attr of file size fsize at p into *a (native order). */
static int
read_attr(struct bt_pd_reader *r, const uint8_t *p, size_t fsize,
	  struct perf_event_attr *a, uint64_t off, struct bt_error *err)
{
	uint32_t asize;

	memset(a, 0, sizeof(*a));
	if (fsize < PERF_ATTR_SIZE_VER0)
		return bt_error_set(err, BT_EFORMAT,
		    "attribute at offset %llu is too small (%zu bytes)",
		    (unsigned long long)off, fsize);
	asize = g32(r, p + 4);
	if (asize == 0)
		asize = PERF_ATTR_SIZE_VER0;
	if (asize > fsize)
		asize = (uint32_t)fsize;
	memcpy(a, p, BT_MIN(asize, sizeof(*a)));
	if (r->swapped)
		attr_swap(a, BT_MIN(asize, sizeof(*a)));
	a->size = sizeof(*a);
	return 0;
}

static int
id_cmp(const void *a, const void *b)
{
	const struct pd_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int
read_attrs(struct bt_pd_reader *r, uint64_t attr_size,
	   struct pd_section sec, struct bt_error *err)
{
	size_t n, i, j;

	if (attr_size < PERF_ATTR_SIZE_VER0 + 16 || attr_size > 4096)
		return bt_error_set(err, BT_EFORMAT,
		    "bad attribute size %llu in the header",
		    (unsigned long long)attr_size);
	if (!in_file(r, sec.offset, sec.size))
		return bt_error_set(err, BT_EFORMAT,
		    "attribute section at offset %llu is past the end of the file",
		    (unsigned long long)sec.offset);
	n = sec.size / attr_size;
	if (n == 0)
		return bt_error_set(err, BT_EFORMAT, "the file has no events");
	if (n > PD_MAX_ATTRS)
		return bt_error_set(err, BT_EFORMAT, "too many events (%zu)", n);
	r->attrs = bt_xcalloc(n, sizeof(*r->attrs));
	r->nattrs = n;
	for (i = 0; i < n; i++) {
		uint64_t off = sec.offset + i * attr_size;
		const uint8_t *p = r->data + off;
		struct bt_pd_attr *a = &r->attrs[i];
		uint64_t ids_off, ids_size;
		int ret;

		ret = read_attr(r, p, attr_size - 16, &a->attr, off, err);
		if (ret)
			return ret;
		ids_off = g64(r, p + attr_size - 16);
		ids_size = g64(r, p + attr_size - 8);
		if (!in_file(r, ids_off, ids_size) || ids_size % 8)
			return bt_error_set(err, BT_EFORMAT,
			    "event ids of attribute at offset %llu are out of bounds",
			    (unsigned long long)off);
		a->nids = ids_size / 8;
		a->ids = bt_xcalloc(a->nids, sizeof(uint64_t));
		for (j = 0; j < a->nids; j++)
			a->ids[j] = g64(r, r->data + ids_off + j * 8);
		r->nids += a->nids;
	}
	r->ids = bt_xcalloc(r->nids, sizeof(*r->ids));
	r->nids = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < r->attrs[i].nids; j++) {
			r->ids[r->nids].id = r->attrs[i].ids[j];
			r->ids[r->nids++].attr = (int)i;
		}
	bt_qsort(r->ids, r->nids, sizeof(*r->ids), id_cmp);

	/* Where the id sits in a sample (perf's evlist id_pos). */
	uint64_t st = r->attrs[0].attr.sample_type;
	r->has_identifier = (st & PERF_SAMPLE_IDENTIFIER) != 0;
	r->id_pos = -1;
	if (!r->has_identifier && (st & PERF_SAMPLE_ID)) {
		int pos = 0;
		if (st & PERF_SAMPLE_IP)
			pos++;
		if (st & PERF_SAMPLE_TID)
			pos++;
		if (st & PERF_SAMPLE_TIME)
			pos++;
		if (st & PERF_SAMPLE_ADDR)
			pos++;
		r->id_pos = pos;
	}
	return 0;
}

/* A perf_header_string at *off within [.., end); advances *off. */
static char *
read_string(struct bt_pd_reader *r, uint64_t *off, uint64_t end)
{
	uint32_t len;
	const char *s;

	if (*off + 4 > end)
		return NULL;
	len = g32(r, r->data + *off);
	if (len > end - *off - 4)
		return NULL;
	s = (const char *)r->data + *off + 4;
	*off += 4 + (uint64_t)len;
	return bt_xstrndup(s, strnlen(s, len));
}

static void
read_buildids(struct bt_pd_reader *r, uint64_t off, uint64_t end)
{
	size_t alloc = 0;

	while (off + 36 <= end) {
		uint16_t misc = g16(r, r->data + off + 4);
		uint16_t size = g16(r, r->data + off + 6);
		struct bt_pd_buildid b;

		if (size < 36 || size > end - off)
			break;
		b.misc = misc;
		b.pid = (int32_t)g32(r, r->data + off + 8);
		memcpy(b.id, r->data + off + 12, 20);
		b.size = (misc & PD_MISC_BUILD_ID_SIZE) ?
		    BT_MIN(r->data[off + 32], 20) : 20;
		b.filename = bt_xstrndup((const char *)r->data + off + 36,
		    strnlen((const char *)r->data + off + 36, size - 36));
		BT_ALLOC_GROW(r->buildids, r->nbuildids + 1, alloc);
		r->buildids[r->nbuildids++] = b;
		off += size;
	}
}

static void
read_event_desc(struct bt_pd_reader *r, uint64_t off, uint64_t end)
{
	uint32_t nr, asz, i;

	if (off + 8 > end)
		return;
	nr = g32(r, r->data + off);
	asz = g32(r, r->data + off + 4);
	off += 8;
	if (asz < PERF_ATTR_SIZE_VER0)
		return;
	for (i = 0; i < nr; i++) {
		uint32_t nr_ids;
		char *name;

		if ((uint64_t)asz + 4 > end - off)
			return;
		nr_ids = g32(r, r->data + off + asz);
		off += asz + 4;
		name = read_string(r, &off, end);
		if (name == NULL)
			return;
		if (i < r->nattrs && r->attrs[i].name == NULL)
			r->attrs[i].name = name;
		else
			free(name);
		if ((uint64_t)nr_ids * 8 > end - off)
			return;
		off += (uint64_t)nr_ids * 8;
	}
}

static void
read_features(struct bt_pd_reader *r, const uint8_t *bits)
{
	uint64_t tab = r->data_sec.offset + r->data_sec.size;
	size_t idx = 0;
	int feat;

	for (feat = 1; feat < PD_FEAT_BITS; feat++) {
		struct pd_section s;
		uint64_t off, end;

		if (!(bits[feat / 8] & (1u << (feat % 8))))
			continue;
		off = tab + idx * 16;
		idx++;
		if (!in_file(r, off, 16))
			return;	/* a damaged table: the data stays readable */
		s.offset = g64(r, r->data + off);
		s.size = g64(r, r->data + off + 8);
		if (!in_file(r, s.offset, s.size))
			continue;
		off = s.offset;
		end = s.offset + s.size;
		switch (feat) {
		case BT_FEAT_HOSTNAME:
		case BT_FEAT_OSRELEASE:
		case BT_FEAT_VERSION:
		case BT_FEAT_ARCH:
			r->feat_str[feat] = read_string(r, &off, end);
			break;
		case BT_FEAT_NRCPUS:
			if (s.size >= 8)	/* avail, then online */
				r->nr_cpus = (int)g32(r, r->data + off + 4);
			break;
		case BT_FEAT_CMDLINE: {
			uint32_t nr, i;

			if (s.size < 4)
				break;
			nr = g32(r, r->data + off);
			off += 4;
			if (nr > s.size / 4)
				break;
			r->cmdline = bt_xcalloc(nr + 1, sizeof(char *));
			for (i = 0; i < nr; i++) {
				char *a = read_string(r, &off, end);
				if (a == NULL)
					break;
				r->cmdline[r->cmdline_argc++] = a;
			}
			break;
		}
		case BT_FEAT_BUILD_ID:
			read_buildids(r, off, end);
			break;
		case BT_FEAT_EVENT_DESC:
			read_event_desc(r, off, end);
			break;
		case BT_FEAT_BENCHTUI:
			r->bt_section = r->data + off;
			r->bt_section_len = s.size;
			break;
		}
	}
}

static int
parse_header(struct bt_pd_reader *r, struct bt_error *err)
{
	uint64_t magic, hsize, attr_size;
	struct pd_section attrs;
	uint8_t bits[PD_FEAT_BITS / 8];
	size_t i;
	int ret;

	if (r->size < 16)
		return bt_error_set(err, BT_EFORMAT,
		    "file too short for a perf.data header (%zu bytes)", r->size);
	memcpy(&magic, r->data, 8);
	if (magic == bswap_64(PD_MAGIC))
		r->swapped = true;
	else if (magic != PD_MAGIC) {
		if (memcmp(r->data, "PERFFILE", 8) == 0)
			return bt_error_set(err, BT_EFORMAT,
			    "perf.data version 1 is not supported");
		return bt_error_set(err, BT_EFORMAT,
		    "not a perf.data file (bad magic at offset 0)");
	}
	hsize = g64(r, r->data + 8);
	if (hsize == 16)
		return bt_error_set(err, BT_ENOTSUP,
		    "pipe-mode perf.data is not supported; record to a file (perf record -o FILE)");
	if (hsize < PD_HEADER_SIZE || r->size < PD_HEADER_SIZE)
		return bt_error_set(err, BT_EFORMAT,
		    "truncated perf.data header (%zu bytes)", r->size);
	attr_size = g64(r, r->data + 16);
	attrs.offset = g64(r, r->data + 24);
	attrs.size = g64(r, r->data + 32);
	r->data_sec.offset = g64(r, r->data + 40);
	r->data_sec.size = g64(r, r->data + 48);
	for (i = 0; i < 4; i++) {
		uint64_t w = g64(r, r->data + 72 + i * 8);
		memcpy(bits + i * 8, &w, 8);	/* bitmap as little-endian words */
	}
	if (!in_file(r, r->data_sec.offset, r->data_sec.size)) {
		if (r->data_sec.offset > r->size)
			return bt_error_set(err, BT_EFORMAT,
			    "data section at offset %llu is past the end of the file (%zu bytes)",
			    (unsigned long long)r->data_sec.offset, r->size);
		/* truncated: read what is there, as perf does */
		r->data_sec.size = r->size - r->data_sec.offset;
		memset(bits, 0, sizeof(bits));
	}
	ret = read_attrs(r, attr_size, attrs, err);
	if (ret)
		return ret;
	read_features(r, bits);
	for (i = 0; i < r->nattrs; i++) {
		char buf[64];
		if (r->attrs[i].name == NULL)
			r->attrs[i].name = bt_xstrdup(bt_pd_event_name(
			    &r->attrs[i].attr, buf, sizeof(buf)));
	}
	r->pos = r->data_sec.offset;
	return 0;
}

struct bt_pd_reader *
bt_pd_open_mem(const void *data, size_t size, struct bt_error *err)
{
	struct bt_pd_reader *r = bt_xcalloc(1, sizeof(*r));

	r->data = data;
	r->size = size;
	if (parse_header(r, err)) {
		bt_pd_close(r);
		return NULL;
	}
	return r;
}

struct bt_pd_reader *
bt_pd_open(const char *path, struct bt_error *err)
{
	struct bt_pd_reader *r;
	struct stat st;
	void *p;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		bt_error_errno(err, errno == ENOENT ? BT_ENOENT :
		    errno == EACCES ? BT_EACCES : BT_EIO, errno,
		    "cannot open '%s'", path);
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		bt_error_set(err, BT_EFORMAT, "'%s' is not a regular file", path);
		close(fd);
		return NULL;
	}
	if (st.st_size == 0) {
		bt_error_set(err, BT_EFORMAT, "'%s' is empty", path);
		close(fd);
		return NULL;
	}
	/*
	 * A small file is prefaulted (one call instead of a fault per page); a
	 * big one is read in a window: pages behind it are dropped, so memory
	 * does not grow with the length of the recording.
	 */
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE |
	    (st.st_size <= WINDOW ? MAP_POPULATE : 0), fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		bt_error_errno(err, BT_EIO, errno, "cannot map '%s'", path);
		return NULL;
	}
	madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
	r = bt_pd_open_mem(p, (size_t)st.st_size, err);
	if (r == NULL) {
		if (err != NULL) {
			char msg[sizeof(err->msg)];
			snprintf(msg, sizeof(msg), "'%.200s': %.300s", path, err->msg);
			memcpy(err->msg, msg, sizeof(msg));
		}
		munmap(p, (size_t)st.st_size);
		return NULL;
	}
	r->mapped = true;
	return r;
}

void
bt_pd_close(struct bt_pd_reader *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nattrs; i++) {
		free(r->attrs[i].name);
		free(r->attrs[i].ids);
	}
	free(r->attrs);
	free(r->ids);
	for (i = 0; i < PD_FEAT_BITS; i++)
		free(r->feat_str[i]);
	for (i = 0; i < r->cmdline_argc; i++)
		free(r->cmdline[i]);
	free(r->cmdline);
	for (i = 0; i < r->nbuildids; i++)
		free(r->buildids[i].filename);
	free(r->buildids);
	if (r->mapped)
		munmap((void *)r->data, r->size);
	free(r);
}

size_t
bt_pd_nattrs(const struct bt_pd_reader *r)
{
	return r->nattrs;
}

const struct bt_pd_attr *
bt_pd_attr(const struct bt_pd_reader *r, size_t i)
{
	return i < r->nattrs ? &r->attrs[i] : NULL;
}

bool
bt_pd_swapped(const struct bt_pd_reader *r)
{
	return r->swapped;
}

const char *
bt_pd_feature_str(const struct bt_pd_reader *r, int feat)
{
	return feat > 0 && feat < PD_FEAT_BITS ? r->feat_str[feat] : NULL;
}

char *const *
bt_pd_cmdline(const struct bt_pd_reader *r, size_t *argc)
{
	*argc = r->cmdline_argc;
	return r->cmdline;
}

int
bt_pd_nr_cpus(const struct bt_pd_reader *r)
{
	return r->nr_cpus;
}

size_t
bt_pd_buildids(const struct bt_pd_reader *r, const struct bt_pd_buildid **ids)
{
	*ids = r->buildids;
	return r->nbuildids;
}

const void *
bt_pd_benchtui(const struct bt_pd_reader *r, size_t *len)
{
	*len = r->bt_section_len;
	return r->bt_section;
}

uint64_t
bt_pd_data_size(const struct bt_pd_reader *r)
{
	return r->data_sec.size;
}

bool
bt_pd_fast_layout(const struct bt_pd_reader *r, struct bt_pd_layout *l)
{
	uint64_t st;
	int off = 8;

	if (r->swapped || r->nattrs != 1)
		return false;
	st = r->attrs[0].attr.sample_type;
	l->ip = l->tid = l->time = l->cpu = l->period = -1;
	l->fixed_period = r->attrs[0].attr.freq ? 1 : r->attrs[0].attr.sample_period;
	if (st & PERF_SAMPLE_IDENTIFIER)
		off += 8;
	if (st & PERF_SAMPLE_IP) {
		l->ip = off;
		off += 8;
	}
	if (st & PERF_SAMPLE_TID) {
		l->tid = off;
		off += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		l->time = off;
		off += 8;
	}
	if (st & PERF_SAMPLE_ADDR)
		off += 8;
	if (st & PERF_SAMPLE_ID)
		off += 8;
	if (st & PERF_SAMPLE_STREAM_ID)
		off += 8;
	if (st & PERF_SAMPLE_CPU) {
		l->cpu = off;
		off += 8;
	}
	if (st & PERF_SAMPLE_PERIOD) {
		l->period = off;
		off += 8;
	}
	l->min_size = (unsigned)off;
	return true;
}

/* Give back the pages of a big mapped file well behind the read position. */
static void
drop_behind(struct bt_pd_reader *r)
{
	uint64_t upto;

	if (!r->mapped || r->size <= WINDOW || r->pos < r->dropped + 2 * WINDOW)
		return;
	upto = (r->pos - WINDOW) & ~(uint64_t)4095;
	madvise((void *)(r->data + r->dropped), upto - r->dropped, MADV_DONTNEED);
	r->dropped = upto;
}

int
bt_pd_next_raw(struct bt_pd_reader *r, uint32_t *type, uint16_t *misc,
	       const uint8_t **rec, size_t *size, struct bt_error *err)
{
	uint64_t end = r->data_sec.offset + r->data_sec.size;
	const uint8_t *p;
	uint16_t sz;

	if (r->pos >= end)
		return 0;
	drop_behind(r);
	if (end - r->pos < 8)
		return bt_error_set(err, BT_EFORMAT,
		    "truncated record header at offset %llu", (unsigned long long)r->pos);
	p = r->data + r->pos;
	memcpy(type, p, 4);
	memcpy(misc, p + 4, 2);
	memcpy(&sz, p + 6, 2);
	if (sz < 8 || sz > end - r->pos)
		return bt_error_set(err, BT_EFORMAT,
		    "record at offset %llu has a bad size %u",
		    (unsigned long long)r->pos, sz);
	*rec = p;
	*size = sz;
	r->pos += sz;
	return 1;
}

uint64_t
bt_pd_tell(const struct bt_pd_reader *r)
{
	return r->pos;
}

void
bt_pd_seek(struct bt_pd_reader *r, uint64_t pos)
{
	if (pos >= r->data_sec.offset && pos <= r->data_sec.offset + r->data_sec.size)
		r->pos = pos;
}

void
bt_pd_skip_samples(struct bt_pd_reader *r, bool skip)
{
	r->skip_samples = skip;
}

void
bt_pd_rewind(struct bt_pd_reader *r)
{
	r->pos = r->data_sec.offset;
	r->dropped = 0;
}

static int
attr_of_id(const struct bt_pd_reader *r, uint64_t id)
{
	size_t lo = 0, hi = r->nids;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->ids[mid].id < id)
			lo = mid + 1;
		else if (r->ids[mid].id > id)
			hi = mid;
		else
			return r->ids[mid].attr;
	}
	return -1;
}

/* Parse the fields of a sample we use (they all precede PERF_SAMPLE_READ). */
static int
parse_sample(const struct bt_pd_reader *r, const uint8_t *p, size_t size,
	     struct bt_pd_event *ev, struct bt_error *err)
{
	const uint8_t *q = p + 8, *end = p + size;
	uint64_t st;
	int ai = 0;

	if (r->nattrs > 1) {
		uint64_t id;
		if (r->has_identifier) {
			if (size < 16)
				goto short_rec;
			id = g64(r, q);
		} else if (r->id_pos >= 0) {
			if (size < 16 + (size_t)r->id_pos * 8)
				goto short_rec;
			id = g64(r, q + r->id_pos * 8);
		} else
			id = 0;
		ai = r->id_pos >= 0 || r->has_identifier ? attr_of_id(r, id) : 0;
		if (ai < 0)
			ai = 0;	/* unknown id: perf would drop it; keep the layout of the first */
	}
	ev->attr = ai;
	ev->u.sample.ip = 0;
	st = r->attrs[ai].attr.sample_type;
#define NEED(n) do { if ((size_t)(end - q) < (n)) goto short_rec; } while (0)
	if (st & PERF_SAMPLE_IDENTIFIER) {
		NEED(8);
		q += 8;
	}
	if (st & PERF_SAMPLE_IP) {
		NEED(8);
		ev->u.sample.ip = g64(r, q);
		q += 8;
	}
	if (st & PERF_SAMPLE_TID) {
		NEED(8);
		ev->pid = g32(r, q);
		ev->tid = g32(r, q + 4);
		q += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		NEED(8);
		ev->time = g64(r, q);
		ev->has_time = true;
		q += 8;
	}
	if (st & PERF_SAMPLE_ADDR) {
		NEED(8);
		q += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		NEED(8);
		q += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		NEED(8);
		q += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		NEED(8);
		ev->cpu = g32(r, q);
		q += 8;
	}
	ev->u.sample.period = 1;
	if (st & PERF_SAMPLE_PERIOD) {
		NEED(8);
		ev->u.sample.period = g64(r, q);
		q += 8;
	} else if (!r->attrs[ai].attr.freq)
		ev->u.sample.period = r->attrs[ai].attr.sample_period;
#undef NEED
	return 0;
short_rec:
	return bt_error_set(err, BT_EFORMAT,
	    "sample at offset %llu is shorter than its sample_type says",
	    (unsigned long long)ev->offset);
}

/* The sample_id trailer of a side-band record; returns its size. */
static size_t
parse_sample_id(const struct bt_pd_reader *r, const uint8_t *p, size_t size,
		struct bt_pd_event *ev)
{
	const struct perf_event_attr *a = &r->attrs[0].attr;
	uint64_t st = a->sample_type;
	size_t n = 0;
	const uint8_t *q;

	if (!a->sample_id_all)
		return 0;
	n += !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
	    !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
	    !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER);
	if (n * 8 > size - 8)
		return 0;
	q = p + size - n * 8;
	if (st & PERF_SAMPLE_TID) {
		ev->pid = g32(r, q);
		ev->tid = g32(r, q + 4);
		q += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		ev->time = g64(r, q);
		ev->has_time = true;
		q += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		if (r->nattrs > 1 && !r->has_identifier) {
			int ai = attr_of_id(r, g64(r, q));
			ev->attr = ai;
		}
		q += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID)
		q += 8;
	if (st & PERF_SAMPLE_CPU) {
		ev->cpu = g32(r, q);
		q += 8;
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		ev->attr = attr_of_id(r, g64(r, q));
	return n * 8;
}

/* A NUL-terminated string inside [p, p+len), copied if it is not terminated. */
static const char *
rec_string(struct bt_pd_reader *r, const uint8_t *p, size_t len)
{
	size_t n = strnlen((const char *)p, len);

	if (n < len)
		return (const char *)p;
	n = BT_MIN(n, sizeof(r->scratch) - 1);
	memcpy(r->scratch, p, n);
	r->scratch[n] = '\0';
	return r->scratch;
}

int
bt_pd_next(struct bt_pd_reader *r, struct bt_pd_event *ev, struct bt_error *err)
{
	uint64_t end = r->data_sec.offset + r->data_sec.size;
	const uint8_t *p;
	uint16_t size;
	size_t body, trailer;

	if (r->pos >= end)
		return 0;
	drop_behind(r);
	/* no memset of the whole event: this runs for every sample */
	ev->pid = ev->tid = ev->cpu = 0;
	ev->time = 0;
	ev->has_time = false;
	ev->offset = r->pos;
	if (end - r->pos < 8)
		return bt_error_set(err, BT_EFORMAT,
		    "truncated record header at offset %llu",
		    (unsigned long long)r->pos);
	p = r->data + r->pos;
	ev->type = g32(r, p);
	ev->misc = g16(r, p + 4);
	size = g16(r, p + 6);
	if (size < 8)
		return bt_error_set(err, BT_EFORMAT,
		    "record at offset %llu has a bad size %u",
		    (unsigned long long)r->pos, size);
	if (size > end - r->pos)
		return bt_error_set(err, BT_EFORMAT,
		    "record at offset %llu runs past the end of the data (truncated file?)",
		    (unsigned long long)r->pos);
	r->pos += size;
	ev->attr = r->nattrs == 1 ? 0 : -1;

	if (ev->type == PERF_RECORD_SAMPLE) {
		if (r->skip_samples)
			return 1;
		return parse_sample(r, p, size, ev, err) ? -BT_EFORMAT : 1;
	}
	if (ev->type >= BT_PD_HEADER_ATTR)
		return 1;	/* perf's own records: the caller skips them */

	trailer = parse_sample_id(r, p, size, ev);
	body = size - 8 - trailer;
	p += 8;
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		size_t fixed = ev->type == PERF_RECORD_MMAP ? 32 : 64;

		memset(&ev->u.mmap, 0, sizeof(ev->u.mmap));
		if (body < fixed)
			goto short_rec;
		ev->u.mmap.pid = g32(r, p);
		ev->u.mmap.tid = g32(r, p + 4);
		ev->u.mmap.start = g64(r, p + 8);
		ev->u.mmap.len = g64(r, p + 16);
		ev->u.mmap.pgoff = g64(r, p + 24);
		if (ev->type == PERF_RECORD_MMAP2) {
			if (ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
				ev->u.mmap.build_id_size = BT_MIN(p[32], 20);
				memcpy(ev->u.mmap.build_id, p + 36, 20);
			}
			ev->u.mmap.prot = g32(r, p + 56);
			ev->u.mmap.flags = g32(r, p + 60);
		}
		ev->u.mmap.filename = rec_string(r, p + fixed, body - fixed);
		break;
	}
	case PERF_RECORD_COMM:
		if (body < 8)
			goto short_rec;
		ev->u.comm.pid = g32(r, p);
		ev->u.comm.tid = g32(r, p + 4);
		ev->u.comm.comm = rec_string(r, p + 8, body - 8);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (body < 24)
			goto short_rec;
		ev->u.task.pid = g32(r, p);
		ev->u.task.ppid = g32(r, p + 4);
		ev->u.task.tid = g32(r, p + 8);
		ev->u.task.ptid = g32(r, p + 12);
		ev->u.task.time = g64(r, p + 16);
		break;
	case PERF_RECORD_LOST:
		if (body < 16)
			goto short_rec;
		ev->u.lost.id = g64(r, p);
		ev->u.lost.lost = g64(r, p + 8);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (body < 8)
			goto short_rec;
		ev->u.lost.id = 0;
		ev->u.lost.lost = g64(r, p);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		if (body < 16)
			goto short_rec;
		ev->u.throttle.time = g64(r, p);
		ev->u.throttle.id = g64(r, p + 8);
		break;
	default:
		break;	/* other kernel records: skipped by size */
	}
	return 1;
short_rec:
	return bt_error_set(err, BT_EFORMAT,
	    "record of type %u at offset %llu is too short (%u bytes)",
	    ev->type, (unsigned long long)ev->offset, size);
}

/* Writing. */

struct bt_pd_writer;
static void writer_free(struct bt_pd_writer *w);

struct bt_pd_writer {
	int fd;
	char *path, *tmp;
	struct bt_pd_attr *attrs;	/* copies */
	size_t nattrs;
	uint64_t attrs_off, data_off, written;
	uint8_t buf[256 * 1024];
	size_t buflen;
};

static int
write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
wflush(struct bt_pd_writer *w, struct bt_error *err)
{
	int ret;

	if (w->buflen == 0)
		return 0;
	ret = write_all(w->fd, w->buf, w->buflen);
	if (ret)
		return bt_error_errno(err, BT_EIO, -ret, "cannot write '%s'", w->tmp);
	w->buflen = 0;
	return 0;
}

static int
wbytes(struct bt_pd_writer *w, const void *data, size_t len,
       struct bt_error *err)
{
	if (w->buflen + len > sizeof(w->buf)) {
		int ret = wflush(w, err);
		if (ret)
			return ret;
		if (len > sizeof(w->buf)) {
			ret = write_all(w->fd, data, len);
			if (ret)
				return bt_error_errno(err, BT_EIO, -ret,
				    "cannot write '%s'", w->tmp);
			return 0;
		}
	}
	memcpy(w->buf + w->buflen, data, len);
	w->buflen += len;
	return 0;
}

struct bt_pd_writer *
bt_pd_create(const char *path, const struct bt_pd_attr *attrs, size_t nattrs,
	     struct bt_error *err)
{
	struct bt_pd_writer *w = bt_xcalloc(1, sizeof(*w));
	uint8_t zero[PD_HEADER_SIZE] = { 0 };
	size_t i;

	w->path = bt_xstrdup(path);
	w->tmp = bt_xasprintf("%s.tmp", path);
	w->attrs = bt_xcalloc(nattrs, sizeof(*w->attrs));
	w->nattrs = nattrs;
	for (i = 0; i < nattrs; i++) {
		w->attrs[i].attr = attrs[i].attr;
		w->attrs[i].name = bt_xstrdup(attrs[i].name ? attrs[i].name : "");
		w->attrs[i].nids = attrs[i].nids;
		w->attrs[i].ids = bt_xcalloc(attrs[i].nids, sizeof(uint64_t));
		memcpy(w->attrs[i].ids, attrs[i].ids, attrs[i].nids * 8);
	}
	w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		bt_error_errno(err, errno == EACCES ? BT_EACCES : BT_EIO, errno,
		    "cannot create '%s'", w->tmp);
		writer_free(w);
		return NULL;
	}
	/* header placeholder, id arrays, then attrs */
	if (wbytes(w, zero, sizeof(zero), err))
		goto fail;
	for (i = 0; i < nattrs; i++)
		if (wbytes(w, attrs[i].ids, attrs[i].nids * 8, err))
			goto fail;
	w->attrs_off = PD_HEADER_SIZE;
	for (i = 0; i < nattrs; i++)
		w->attrs_off += attrs[i].nids * 8;
	{
		uint64_t ids_off = PD_HEADER_SIZE;
		for (i = 0; i < nattrs; i++) {
			struct perf_event_attr a = attrs[i].attr;
			uint64_t sec[2] = { ids_off, attrs[i].nids * 8 };

			a.size = sizeof(a);
			if (wbytes(w, &a, sizeof(a), err) ||
			    wbytes(w, sec, sizeof(sec), err))
				goto fail;
			ids_off += attrs[i].nids * 8;
		}
	}
	w->data_off = w->attrs_off + nattrs * (sizeof(struct perf_event_attr) + 16);
	return w;
fail:
	bt_pd_abort(w);
	return NULL;
}

int
bt_pd_write(struct bt_pd_writer *w, const void *rec, size_t len,
	    struct bt_error *err)
{
	w->written += len;
	return wbytes(w, rec, len, err);
}

uint64_t
bt_pd_written(const struct bt_pd_writer *w)
{
	return w->written;
}

/* perf_header_string: u32 length (NUL included, padded to 64), bytes. */
static void
sb_add_string(struct bt_strbuf *sb, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t len = (uint32_t)((n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN);

	bt_strbuf_add(sb, &len, 4);
	bt_strbuf_add(sb, s, n - 1);
	bt_strbuf_addchars(sb, 0, len - (n - 1));
}

static void
sb_add_u32(struct bt_strbuf *sb, uint32_t v)
{
	bt_strbuf_add(sb, &v, 4);
}

/* Build one feature's payload into sb; returns false when it is absent. */
static bool
build_feature(struct bt_pd_writer *w, const struct bt_pd_features *f,
	      int feat, struct bt_strbuf *sb)
{
	size_t i;

	switch (feat) {
	case BT_FEAT_BUILD_ID:
		if (f->nbuildids == 0)
			return false;
		for (i = 0; i < f->nbuildids; i++) {
			const struct bt_pd_buildid *b = &f->buildids[i];
			size_t n = strlen(b->filename) + 1;
			size_t len = (n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;
			uint8_t id[24] = { 0 };
			struct perf_event_header h = {
				.type = BT_PD_HEADER_BUILD_ID,
				.misc = (uint16_t)(b->misc | PD_MISC_BUILD_ID_SIZE),
				.size = (uint16_t)(36 + len),
			};

			memcpy(id, b->id, BT_MIN(b->size, 20));
			id[20] = b->size;
			bt_strbuf_add(sb, &h, sizeof(h));
			bt_strbuf_add(sb, &b->pid, 4);
			bt_strbuf_add(sb, id, sizeof(id));
			bt_strbuf_add(sb, b->filename, n - 1);
			bt_strbuf_addchars(sb, 0, len - (n - 1));
		}
		return true;
	case BT_FEAT_HOSTNAME:
	case BT_FEAT_OSRELEASE:
	case BT_FEAT_VERSION:
	case BT_FEAT_ARCH: {
		const char *s = feat == BT_FEAT_HOSTNAME ? f->hostname :
		    feat == BT_FEAT_OSRELEASE ? f->osrelease :
		    feat == BT_FEAT_VERSION ? f->version : f->arch;
		if (s == NULL)
			return false;
		sb_add_string(sb, s);
		return true;
	}
	case BT_FEAT_NRCPUS:
		if (f->nr_cpus_online == 0)
			return false;
		sb_add_u32(sb, f->nr_cpus_avail);
		sb_add_u32(sb, f->nr_cpus_online);
		return true;
	case BT_FEAT_CMDLINE: {
		uint32_t n = 0;
		if (f->cmdline == NULL)
			return false;
		while (f->cmdline[n] != NULL)
			n++;
		sb_add_u32(sb, n);
		for (i = 0; i < n; i++)
			sb_add_string(sb, f->cmdline[i]);
		return true;
	}
	case BT_FEAT_EVENT_DESC:
		sb_add_u32(sb, (uint32_t)w->nattrs);
		sb_add_u32(sb, sizeof(struct perf_event_attr));
		for (i = 0; i < w->nattrs; i++) {
			struct perf_event_attr a = w->attrs[i].attr;

			a.size = sizeof(a);
			bt_strbuf_add(sb, &a, sizeof(a));
			sb_add_u32(sb, (uint32_t)w->attrs[i].nids);
			sb_add_string(sb, w->attrs[i].name ? w->attrs[i].name : "");
			bt_strbuf_add(sb, w->attrs[i].ids, w->attrs[i].nids * 8);
		}
		return true;
	case BT_FEAT_SAMPLE_TIME:
		if (f->last_sample_time == 0)
			return false;
		bt_strbuf_add(sb, &f->first_sample_time, 8);
		bt_strbuf_add(sb, &f->last_sample_time, 8);
		return true;
	case BT_FEAT_BENCHTUI:
		if (f->benchtui == NULL)
			return false;
		bt_strbuf_add(sb, f->benchtui, f->benchtui_len);
		return true;
	}
	return false;
}

int
bt_pd_finish(struct bt_pd_writer *w, const struct bt_pd_features *f,
	     struct bt_error *err)
{
	static const int feats[] = {
		BT_FEAT_BUILD_ID, BT_FEAT_HOSTNAME, BT_FEAT_OSRELEASE,
		BT_FEAT_VERSION, BT_FEAT_ARCH, BT_FEAT_NRCPUS, BT_FEAT_CMDLINE,
		BT_FEAT_EVENT_DESC, BT_FEAT_SAMPLE_TIME, BT_FEAT_BENCHTUI,
	};
	struct bt_strbuf payload[BT_ARRAY_SIZE(feats)];
	bool present[BT_ARRAY_SIZE(feats)];
	uint64_t bits[4] = { 0 };
	uint64_t hdr[13];
	uint64_t off;
	size_t i, nsec = 0;
	int ret = -BT_EIO;

	for (i = 0; i < BT_ARRAY_SIZE(feats); i++) {
		bt_strbuf_init(&payload[i]);
		present[i] = build_feature(w, f, feats[i], &payload[i]);
		if (present[i]) {
			bits[feats[i] / 64] |= 1ULL << (feats[i] % 64);
			nsec++;
		}
	}
	/* section table right after the data, payloads after the table */
	off = w->data_off + w->written + nsec * 16;
	for (i = 0; i < BT_ARRAY_SIZE(feats); i++) {
		uint64_t sec[2];
		if (!present[i])
			continue;
		sec[0] = off;
		sec[1] = payload[i].len;
		if (wbytes(w, sec, sizeof(sec), err))
			goto out;
		off += payload[i].len;
	}
	for (i = 0; i < BT_ARRAY_SIZE(feats); i++)
		if (present[i] && wbytes(w, payload[i].buf, payload[i].len, err))
			goto out;
	if (wflush(w, err))
		goto out;

	hdr[0] = PD_MAGIC;
	hdr[1] = PD_HEADER_SIZE;
	hdr[2] = sizeof(struct perf_event_attr) + 16;
	hdr[3] = w->attrs_off;
	hdr[4] = w->nattrs * (sizeof(struct perf_event_attr) + 16);
	hdr[5] = w->data_off;
	hdr[6] = w->written;
	hdr[7] = 0;	/* event_types */
	hdr[8] = 0;
	memcpy(&hdr[9], bits, sizeof(bits));
	if (pwrite(w->fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr)) {
		bt_error_errno(err, BT_EIO, errno, "cannot write '%s'", w->tmp);
		goto out;
	}
	if (close(w->fd) < 0) {
		w->fd = -1;
		bt_error_errno(err, BT_EIO, errno, "cannot write '%s'", w->tmp);
		goto out;
	}
	w->fd = -1;
	{
		struct stat st;
		if (stat(w->path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
			char *old = bt_xasprintf("%s.old", w->path);
			int r2 = rename(w->path, old);
			free(old);
			if (r2 < 0) {
				bt_error_errno(err, BT_EIO, errno,
				    "cannot move '%s' out of the way", w->path);
				goto out;
			}
		}
	}
	if (rename(w->tmp, w->path) < 0) {
		bt_error_errno(err, BT_EIO, errno, "cannot rename '%s' to '%s'",
		    w->tmp, w->path);
		goto out;
	}
	ret = 0;
out:
	for (i = 0; i < BT_ARRAY_SIZE(feats); i++)
		bt_strbuf_release(&payload[i]);
	if (ret)
		bt_pd_abort(w);
	else
		writer_free(w);
	return ret;
}

static void
writer_free(struct bt_pd_writer *w)
{
	size_t i;

	for (i = 0; i < w->nattrs; i++) {
		free(w->attrs[i].name);
		free(w->attrs[i].ids);
	}
	free(w->attrs);
	free(w->path);
	free(w->tmp);
	free(w);
}

void
bt_pd_abort(struct bt_pd_writer *w)
{
	if (w->fd >= 0)
		close(w->fd);
	unlink(w->tmp);
	writer_free(w);
}
