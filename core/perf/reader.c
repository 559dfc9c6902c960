/*
 * perf.data reader: header, attributes and the data section's records.
 * The whole file is mapped and every offset is checked against it; both
 * byte orders are read. Feature sections are in features.c, the sample
 * layout in sample.c.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf/perfdata-int.h"

#define PD_MAX_ATTRS 4096

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
int
pd_read_attr(struct bt_pd_reader *r, const uint8_t *p, size_t fsize,
	     struct perf_event_attr *a, uint64_t off, struct bt_error *err)
{
	uint32_t asize;

	memset(a, 0, sizeof(*a));
	if (fsize < PERF_ATTR_SIZE_VER0)
		return bt_error_set(err, BT_EFORMAT,
		    "attribute at offset %llu is too small (%zu bytes)",
		    (unsigned long long)off, fsize);
	asize = pd_g32(r, p + 4);
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
	if (!pd_in_file(r, sec.offset, sec.size))
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

		ret = pd_read_attr(r, p, attr_size - 16, &a->attr, off, err);
		if (ret)
			return ret;
		ids_off = pd_g64(r, p + attr_size - 16);
		ids_size = pd_g64(r, p + attr_size - 8);
		if (!pd_in_file(r, ids_off, ids_size) || ids_size % 8)
			return bt_error_set(err, BT_EFORMAT,
			    "event ids of attribute at offset %llu are out of bounds",
			    (unsigned long long)off);
		a->nids = ids_size / 8;
		a->ids = bt_xcalloc(a->nids, sizeof(uint64_t));
		for (j = 0; j < a->nids; j++)
			a->ids[j] = pd_g64(r, r->data + ids_off + j * 8);
	}
	pd_index_attrs(r);
	return 0;
}

void
pd_index_attrs(struct bt_pd_reader *r)
{
	size_t i, j;

	r->nids = 0;
	for (i = 0; i < r->nattrs; i++)
		r->nids += r->attrs[i].nids;
	r->ids = bt_xcalloc(r->nids, sizeof(*r->ids));
	r->nids = 0;
	for (i = 0; i < r->nattrs; i++)
		for (j = 0; j < r->attrs[i].nids; j++) {
			r->ids[r->nids].id = r->attrs[i].ids[j];
			r->ids[r->nids++].attr = (int)i;
		}
	bt_qsort(r->ids, r->nids, sizeof(*r->ids), id_cmp);
	r->layouts = bt_xcalloc(r->nattrs, sizeof(*r->layouts));
	for (i = 0; i < r->nattrs; i++)
		bt_perf_layout_init(&r->layouts[i], &r->attrs[i].attr);
}

/*
 * Every event gets a name, unique in the file (-e selects by name): an
 * event without an EVENT_DESC name is named as perf names it, modifiers
 * included ("cpu-clock:u"); the second of two equal names is "NAME#2".
 */
static void
name_attrs(struct bt_pd_reader *r)
{
	size_t i, j;

	for (i = 0; i < r->nattrs; i++) {
		char buf[96];
		unsigned k = 1;

		if (r->attrs[i].name == NULL &&
		    r->attrs[i].attr.type == PERF_TYPE_TRACEPOINT)
			r->attrs[i].name = pd_tracepoint_name(r, r->attrs[i].attr.config);
		if (r->attrs[i].name == NULL)
			r->attrs[i].name = bt_xstrdup(bt_perf_event_name_full(
			    &r->attrs[i].attr, buf, sizeof(buf)));
		for (j = 0; j < i; j++)
			if (strcmp(r->attrs[j].name, r->attrs[i].name) == 0)
				break;
		if (j == i)
			continue;
		do {	/* the first free NAME#k */
			snprintf(buf, sizeof(buf), "%.80s#%u", r->attrs[i].name, ++k);
			for (j = 0; j < i; j++)
				if (strcmp(r->attrs[j].name, buf) == 0)
					break;
		} while (j < i);
		free(r->attrs[i].name);
		r->attrs[i].name = bt_xstrdup(buf);
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
	hsize = pd_g64(r, r->data + 8);
	if (hsize == 16) {
		/* pipe mode: everything is a record, data to the end */
		r->pipe = true;
		r->data_sec.offset = 16;
		r->data_sec.size = r->size - 16;
		ret = pd_read_pipe_header(r, err);
		if (ret)
			return ret;
		goto names;
	}
	if (hsize < PD_HEADER_SIZE || r->size < PD_HEADER_SIZE)
		return bt_error_set(err, BT_EFORMAT,
		    "truncated perf.data header (%zu bytes)", r->size);
	attr_size = pd_g64(r, r->data + 16);
	attrs.offset = pd_g64(r, r->data + 24);
	attrs.size = pd_g64(r, r->data + 32);
	r->data_sec.offset = pd_g64(r, r->data + 40);
	r->data_sec.size = pd_g64(r, r->data + 48);
	for (i = 0; i < 4; i++) {
		uint64_t w = pd_g64(r, r->data + 72 + i * 8);
		memcpy(bits + i * 8, &w, 8);	/* bitmap as little-endian words */
	}
	if (r->data_sec.size == 0 && r->data_sec.offset <= r->size &&
	    r->size > r->data_sec.offset) {
		/*
		 * The writer never came back to say how much data it wrote
		 * (perf or benchtui killed): the data runs to the end of the
		 * file, a record cut there is dropped, and the features, if
		 * any were ever written, cannot be found.
		 */
		r->unfinished = true;
		r->data_sec.size = r->size - r->data_sec.offset;
		memset(bits, 0, sizeof(bits));
	} else if (!pd_in_file(r, r->data_sec.offset, r->data_sec.size)) {
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
	pd_read_features(r, bits);
	if (r->bt_section == NULL)	/* not in feature bit 255 (older recordings) */
		pd_read_trailer(r);
names:
	name_attrs(r);
	r->pos = r->data_sec.offset;
	return 0;
}

struct bt_pd_reader *
bt_pd_open_mem(const void *data, size_t size, struct bt_error *err)
{
	struct bt_pd_reader *r = bt_xcalloc(1, sizeof(*r));

	r->data = data;
	r->size = size;
	r->last = UINT64_MAX;
	r->hold = UINT64_MAX;
	if (parse_header(r, err)) {
		bt_pd_close(r);
		return NULL;
	}
	return r;
}

/*
 * Standard input as a file that can be mapped, once per process: itself
 * when it is a regular file read from its start, else its bytes copied
 * into a temporary file that has no name (O_TMPFILE, else a memfd), so
 * that nothing is left behind however benchtui ends. The profile goes
 * back over waiting samples (and reads a recording without rounds twice),
 * and a time window reads them again: each open of "-" maps the same copy.
 */
static int stdin_copy = -1;

static int
spool_stdin(struct bt_error *err)
{
	const char *dir = getenv("TMPDIR");
	struct stat st;
	char *buf;
	ssize_t n;
	int fd;

	if (stdin_copy >= 0)
		return 0;
	if (fstat(STDIN_FILENO, &st) < 0)
		return bt_error_errno(err, BT_EIO, errno, "cannot read standard input");
	if (S_ISREG(st.st_mode) && lseek(STDIN_FILENO, 0, SEEK_CUR) == 0) {
		stdin_copy = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
		return stdin_copy < 0 ? bt_error_errno(err, BT_EIO, errno,
		    "cannot read standard input") : 0;
	}
	if (isatty(STDIN_FILENO))
		return bt_error_set(err, BT_EINVAL,
		    "standard input is a terminal: pipe a recording into it (perf record -o - ... | benchtui -i -)");
	fd = open(dir != NULL && dir[0] ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		fd = memfd_create("benchtui-stdin", MFD_CLOEXEC);
	if (fd < 0)
		return bt_error_errno(err, BT_EIO, errno,
		    "cannot make a temporary file for standard input");
	buf = bt_xmalloc(1 << 20);
	while ((n = read(STDIN_FILENO, buf, 1 << 20)) != 0) {
		ssize_t w, done = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			bt_error_errno(err, BT_EIO, errno, "cannot read standard input");
			goto fail;
		}
		while (done < n) {
			w = write(fd, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				bt_error_errno(err, BT_EIO, w < 0 ? errno : ENOSPC,
				    "cannot copy standard input to a temporary file");
				goto fail;
			}
			done += w;
		}
	}
	free(buf);
	stdin_copy = fd;
	return 0;
fail:
	free(buf);
	close(fd);
	return -BT_EIO;
}

int
pd_map(int fd, size_t size, const char *name, const uint8_t **data,
       struct bt_error *err)
{
	void *p;

	/*
	 * A small file is prefaulted (one call instead of a fault per page); a
	 * big one is read in a window: pages behind it are dropped, so memory
	 * does not grow with the length of the recording.
	 */
	p = mmap(NULL, size, PROT_READ, MAP_PRIVATE |
	    (size <= PD_WINDOW ? MAP_POPULATE : 0), fd, 0);
	if (p == MAP_FAILED)
		return bt_error_errno(err, BT_EIO, errno, "cannot map %s", name);
	madvise(p, size, MADV_SEQUENTIAL);
	*data = p;
	return 0;
}

struct bt_pd_reader *
bt_pd_open(const char *path, struct bt_error *err)
{
	struct bt_pd_reader *r;
	struct stat st;
	char name[208];
	const uint8_t *p;
	int fd;

	if (strcmp(path, "-") == 0) {
		if (spool_stdin(err) < 0)
			return NULL;
		snprintf(name, sizeof(name), "standard input");
		fd = fcntl(stdin_copy, F_DUPFD_CLOEXEC, 0);
	} else {
		snprintf(name, sizeof(name), "'%.200s'", path);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		bt_error_errno(err, errno == ENOENT ? BT_ENOENT :
		    errno == EACCES ? BT_EACCES : BT_EIO, errno,
		    "cannot open %s", name);
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		bt_error_errno(err, BT_EIO, errno, "cannot read %s", name);
		close(fd);
		return NULL;
	}
	if (S_ISDIR(st.st_mode) && strcmp(path, "-") != 0) {
		r = pd_dir_open(fd, path, err);	/* perf record --threads */
		close(fd);
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		bt_error_set(err, BT_EFORMAT, "%s is not a regular file", name);
		close(fd);
		return NULL;
	}
	if (st.st_size == 0) {
		bt_error_set(err, BT_EFORMAT, "%s is empty", name);
		close(fd);
		return NULL;
	}
	if (pd_map(fd, (size_t)st.st_size, name, &p, err) < 0) {
		close(fd);
		return NULL;
	}
	close(fd);
	r = bt_pd_open_mem(p, (size_t)st.st_size, err);
	if (r == NULL) {
		if (err != NULL) {
			char msg[sizeof(err->msg)];
			snprintf(msg, sizeof(msg), "%s: %.300s", name, err->msg);
			memcpy(err->msg, msg, sizeof(msg));
		}
		munmap((void *)p, (size_t)st.st_size);
		return NULL;
	}
	r->mapped = true;
	if (r->dir_feat) {
		/* its records are in the data.N beside it: read alone, it has none */
		bt_error_set(err, BT_EFORMAT, "%s is the header of a perf record "
		    "--threads directory: open the directory", name);
		bt_pd_close(r);
		return NULL;
	}
	return r;
}

void
bt_pd_close(struct bt_pd_reader *r)
{
	size_t i;

	if (r == NULL)
		return;
	if (r->dir != NULL)
		pd_dir_free(r);
	for (i = 0; i < r->nattrs && !r->borrowed; i++) {
		free(r->attrs[i].name);
		free(r->attrs[i].ids);
	}
	if (!r->borrowed) {
		free(r->attrs);
		free(r->layouts);
		free(r->ids);
	}
	for (i = 0; i < PD_FEAT_BITS; i++)
		free(r->feat_str[i]);
	for (i = 0; i < r->cmdline_argc; i++)
		free(r->cmdline[i]);
	free(r->cmdline);
	for (i = 0; i < r->ngroups; i++)
		free((char *)r->groups[i].name);
	free(r->groups);
	for (i = 0; i < r->nbuildids; i++)
		free(r->buildids[i].filename);
	free(r->buildids);
	pd_z_free(r->z);
	if (r->mapped)
		munmap((void *)r->data, r->size);
	free(r);
}

bool
bt_pd_unfinished(const struct bt_pd_reader *r)
{
	return r->unfinished;
}

int
bt_pd_attr_of_id(const struct bt_pd_reader *r, uint64_t id)
{
	return pd_attr_of_id(r, id);
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

size_t
bt_pd_groups(const struct bt_pd_reader *r, const struct bt_pd_group **groups)
{
	*groups = r->groups;
	return r->ngroups;
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
	return r->dir != NULL ? pd_dir_data_size(r) : r->data_sec.size;
}

size_t
bt_pd_nfiles(const struct bt_pd_reader *r)
{
	return r->dir != NULL ? pd_dir_nfiles(r) : 0;
}

bool
bt_pd_pipe(const struct bt_pd_reader *r)
{
	return r->pipe;
}

bool
bt_pd_compressed(const struct bt_pd_reader *r)
{
	return r->zfeat || r->zseen || (r->dir != NULL && pd_dir_compressed(r));
}

const struct bt_pd_auxtrace *
bt_pd_auxtrace(const struct bt_pd_reader *r)
{
	return r->dir != NULL ? pd_dir_auxtrace(r) : &r->aux;
}

const struct bt_perf_layout *
bt_pd_layout(const struct bt_pd_reader *r, size_t i)
{
	return i < r->nattrs ? &r->layouts[i] : NULL;
}

const struct bt_perf_layout *
pd_brief_layout(const struct bt_pd_reader *r)
{
	return r->swapped || r->nattrs != 1 ? NULL : &r->layouts[0];
}
