/*
 * perf record --threads: a directory, perf's "directory data version 1"
 * (tools/perf/util/data.c, session.c). Its file "data" is a perf.data
 * file: header, attributes, the features (DIR_FORMAT among them) and, in
 * its data section, what perf's main thread wrote itself (the records it
 * synthesized); each "data.N" holds, with no header, the records of ring
 * buffer N (perf writes each mmap's records to its own file, whichever
 * thread drains it: one per CPU) as the kernel wrote them, in time order.
 * There are no FINISHED_ROUND records: perf report reads every file into
 * its ordered queue and sorts the lot at the end.
 *
 * Here the files are merged in time order as they are read. Each has its
 * own reader (its cursor; the attributes are the directory's), and the
 * next record is the head with the least time; a record without a time
 * keeps its place in its file, and at equal times "data" comes first,
 * then data.0, data.1... A FINISHED_ROUND is put into the stream every
 * ROUND_RECORDS records or ROUND_BYTES bytes, so that the profile reads
 * it once, in rounds, as a file perf record wrote (profile.c): the stream
 * is in time order but for what the kernel puts out of order within one
 * ring buffer (an interrupt's sample written before the record whose
 * time was taken just before it: microseconds), and the profile takes a
 * time as final only a round after it was read. Memory: each file is
 * mapped and read in a window, a compressed one decompressed into its
 * own window; what is held per file does not grow with the recording.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf/perfdata-int.h"

#define MAX_FILES 8192		/* "data" and data.0 .. data.8190 */
#define ROUND_RECORDS 4096
#define ROUND_BYTES (1u << 20)
#define NONE SIZE_MAX
#define PD_ID_INDEX 69

struct pd_file {
	struct bt_pd_reader *r;	/* NULL: no records */
	char *name;		/* "'DIR/data.3'", for messages */
	const uint8_t *rec;	/* the head: its next record, not returned yet */
	size_t len;
	uint64_t at;		/* the head's position in the file */
	uint64_t next;		/* the position after it */
	uint64_t key;		/* the head's time, or the last time before it */
	bool stable;		/* the head stays where it is until close */
};

struct pd_dir {
	struct pd_file *f;	/* [0]: "data", [N + 1]: data.N */
	size_t n;
	size_t *heap;		/* files with a head, least (key, index) first */
	size_t nheap;
	size_t cur;		/* file of the record returned last, or NONE */
	size_t held;		/* file whose pages are held (pd_hold), or NONE */
	bool primed;		/* every file's head was read since the rewind */
	uint64_t tell;
	uint32_t nrec;		/* records returned since the last round */
	size_t nbytes;
	bool after_round;	/* the last record returned was a round, at round_at */
	uint64_t round_at;
	uint32_t round_nrec;	/* nrec and nbytes before it */
	size_t round_nbytes;
	uint8_t round[8];	/* a FINISHED_ROUND, in the files' byte order */
	struct bt_pd_auxtrace aux;
};

static uint64_t
pos_of(size_t i, uint64_t raw)
{
	return (raw & (PD_ZPOS | PD_DIR_OFFSET)) | (uint64_t)i << PD_DIR_SHIFT;
}

static bool
before(const struct pd_dir *d, size_t a, size_t b)
{
	if (d->f[a].key != d->f[b].key)
		return d->f[a].key < d->f[b].key;
	return a < b;
}

static void
heap_push(struct pd_dir *d, size_t i)
{
	size_t k = d->nheap++;

	while (k > 0 && before(d, i, d->heap[(k - 1) / 2])) {
		d->heap[k] = d->heap[(k - 1) / 2];
		k = (k - 1) / 2;
	}
	d->heap[k] = i;
}

static size_t
heap_pop(struct pd_dir *d)
{
	size_t top = d->heap[0], last = d->heap[--d->nheap], k = 0, c;

	if (d->nheap == 0)
		return top;
	while ((c = 2 * k + 1) < d->nheap) {
		if (c + 1 < d->nheap && before(d, d->heap[c + 1], d->heap[c]))
			c++;
		if (!before(d, d->heap[c], last))
			break;
		d->heap[k] = d->heap[c];
		k = c;
	}
	d->heap[k] = last;
	return top;
}

/* The time of a record (0: it has none): a sample's, or its sample_id's. */
static uint64_t
rec_time(const struct bt_pd_reader *r, const uint8_t *p, size_t size)
{
	uint32_t type = pd_g32(r, p);

	if (type == PERF_RECORD_SAMPLE)
		return pd_sample_time(r, p, size);
	if (type >= BT_PD_HEADER_ATTR)
		return 0;
	return bt_perf_sample_id_time(&r->layouts[0], p, size, r->swapped);
}

/* err's message, said of file name. */
static int
in_file(struct bt_error *err, const char *name, int ret)
{
	if (err != NULL) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%.220s: %.280s", name, err->msg);
		memcpy(err->msg, msg, sizeof(msg));
	}
	return ret;
}

/* The next record of file i as its head, in the heap; 0 at its end. */
static int
advance(struct bt_pd_reader *r, size_t i, struct bt_error *err)
{
	struct pd_dir *d = r->dir;
	struct pd_file *f = &d->f[i];
	uint64_t t;
	int ret;

	if (f->r == NULL)
		return 0;
	do	/* the merged stream has its own rounds */
		ret = pd_fetch(f->r, &f->rec, &f->len, &f->at, err);
	while (ret > 0 && pd_g32(r, f->rec) == BT_PD_FINISHED_ROUND);
	if (ret <= 0)
		return ret < 0 ? in_file(err, f->name, ret) : 0;
	t = rec_time(r, f->rec, f->len);
	if (t != 0)
		f->key = t;
	f->stable = pd_stable(f->r);
	f->next = pd_tell(f->r);
	heap_push(d, i);
	return 1;
}

int
pd_dir_fetch(struct bt_pd_reader *r, const uint8_t **rec, size_t *size,
	     uint64_t *at, struct bt_error *err)
{
	struct pd_dir *d = r->dir;
	struct pd_file *f;
	size_t i;
	int ret;

	if (!d->primed) {
		d->primed = true;
		for (i = 0; i < d->n; i++)
			if ((ret = advance(r, i, err)) < 0)
				return ret;
	} else if (d->cur != NONE) {
		i = d->cur;
		d->cur = NONE;
		if ((ret = advance(r, i, err)) < 0)
			return ret;
	}
	if (d->nheap == 0)
		return 0;
	if (d->nrec >= ROUND_RECORDS || d->nbytes >= ROUND_BYTES) {
		/* where it sits: after the record before it */
		d->after_round = true;
		d->round_at = d->tell;
		d->round_nrec = d->nrec;
		d->round_nbytes = d->nbytes;
		d->tell += sizeof(d->round);
		d->nrec = 0;
		d->nbytes = 0;
		*rec = d->round;
		*size = sizeof(d->round);
		*at = d->round_at;
		return 1;
	}
	d->after_round = false;
	i = heap_pop(d);
	f = &d->f[i];
	d->cur = i;
	d->nrec++;
	d->nbytes += f->len;
	d->tell = pos_of(i, f->next);
	*rec = f->rec;
	*size = f->len;
	*at = pos_of(i, f->at);
	return 1;
}

uint64_t
pd_dir_tell(const struct bt_pd_reader *r)
{
	return r->dir->tell;
}

void
pd_dir_rewind(struct bt_pd_reader *r)
{
	struct pd_dir *d = r->dir;
	size_t i;

	for (i = 0; i < d->n; i++) {
		d->f[i].key = 0;
		if (d->f[i].r != NULL)
			bt_pd_rewind(d->f[i].r);
	}
	d->nheap = 0;
	d->cur = NONE;
	d->held = NONE;
	d->primed = false;
	d->tell = 0;
	d->nrec = 0;
	d->nbytes = 0;
	d->after_round = false;
}

/* The record just read comes again: back into the heap, as it was. */
static void
unread(struct pd_dir *d, uint64_t pos)
{
	d->nrec--;
	d->nbytes -= d->f[d->cur].len;
	heap_push(d, d->cur);
	d->cur = NONE;
	d->tell = pos;
}

void
pd_dir_seek(struct bt_pd_reader *r, uint64_t pos)
{
	struct pd_dir *d = r->dir;
	const uint8_t *rec;
	size_t size;
	uint64_t at;

	if (d->cur != NONE && pos == pos_of(d->cur, d->f[d->cur].at)) {
		unread(d, pos);
		return;
	}
	if (d->after_round && pos == d->round_at) {	/* it comes again */
		d->after_round = false;
		d->nrec = d->round_nrec;
		d->nbytes = d->round_nbytes;
		d->tell = pos;
		return;
	}
	if (pos == d->tell)
		return;
	/* the merge cannot be entered anywhere: read up to the record at pos */
	pd_dir_rewind(r);
	while (pd_dir_fetch(r, &rec, &size, &at, NULL) > 0)
		if (at == pos && d->cur != NONE) {
			unread(d, pos);
			return;
		}
}

void
pd_dir_hold(struct bt_pd_reader *r, uint64_t pos)
{
	struct pd_dir *d = r->dir;
	size_t i = pos == UINT64_MAX ? NONE : PD_DIR_FILE(pos);

	if (d->held != NONE)
		d->f[d->held].r->hold = UINT64_MAX;
	d->held = NONE;
	if (i < d->n && d->f[i].r != NULL) {
		d->f[i].r->hold = pos & (PD_ZPOS | PD_DIR_OFFSET);
		d->held = i;
	}
}

bool
pd_dir_stable(const struct bt_pd_reader *r)
{
	const struct pd_dir *d = r->dir;

	return d->cur == NONE || d->f[d->cur].stable;
}

const char *
pd_dir_where(const struct bt_pd_reader *r, uint64_t pos, char *buf, size_t len)
{
	const struct pd_dir *d = r->dir;
	size_t i = PD_DIR_FILE(pos);
	uint64_t raw = pos & (PD_ZPOS | PD_DIR_OFFSET);
	const struct pd_file *f;
	char in[160];

	if (i >= d->n) {
		snprintf(buf, len, "offset %llu", (unsigned long long)pos);
		return buf;
	}
	f = &d->f[i];
	if (raw & PD_ZPOS && f->r != NULL && f->r->z != NULL)
		snprintf(buf, len, "%s of %s", pd_z_where(f->r->z, raw, in, sizeof(in)),
		    f->name);
	else
		snprintf(buf, len, "offset %llu of %s", (unsigned long long)raw, f->name);
	return buf;
}

const struct bt_pd_auxtrace *
pd_dir_auxtrace(const struct bt_pd_reader *r)
{
	struct pd_dir *d = r->dir;
	size_t i;

	d->aux = r->aux;	/* the features say whether there is any */
	for (i = 0; i < d->n; i++) {
		const struct bt_pd_reader *fr = d->f[i].r;

		if (fr == NULL)
			continue;
		d->aux.present |= fr->aux.present;
		if (d->aux.kind == NULL)
			d->aux.kind = fr->aux.kind;
		d->aux.records += fr->aux.records;
		d->aux.bytes += fr->aux.bytes;
	}
	return &d->aux;
}

bool
pd_dir_compressed(const struct bt_pd_reader *r)
{
	size_t i;

	for (i = 0; i < r->dir->n; i++)
		if (r->dir->f[i].r != NULL && r->dir->f[i].r->zseen)
			return true;
	return false;
}

uint64_t
pd_dir_data_size(const struct bt_pd_reader *r)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < r->dir->n; i++)
		if (r->dir->f[i].r != NULL)
			n += r->dir->f[i].r->data_sec.size;
	return n;
}

size_t
pd_dir_nfiles(const struct bt_pd_reader *r)
{
	return r->dir->n;
}

void
pd_dir_free(struct bt_pd_reader *r)
{
	struct pd_dir *d = r->dir;
	size_t i;

	for (i = 0; i < d->n; i++) {
		struct bt_pd_reader *fr = d->f[i].r;

		if (fr != NULL && fr->data == r->data)
			fr->mapped = false;	/* "data": the directory's mapping */
		bt_pd_close(fr);
		free(d->f[i].name);
	}
	free(d->f);
	free(d->heap);
	free(d);
	r->dir = NULL;
}

/* A reader of [sec) of the file at data (size bytes), with r's attributes. */
static struct bt_pd_reader *
file_reader(const struct bt_pd_reader *r, const uint8_t *data, size_t size,
	    struct pd_section sec)
{
	struct bt_pd_reader *fr = bt_xcalloc(1, sizeof(*fr));

	fr->data = data;
	fr->size = size;
	fr->mapped = true;
	fr->swapped = r->swapped;
	fr->attrs = r->attrs;
	fr->nattrs = r->nattrs;
	fr->layouts = r->layouts;
	fr->ids = r->ids;
	fr->nids = r->nids;
	fr->borrowed = true;
	fr->data_sec = sec;
	fr->pos = sec.offset;
	fr->last = UINT64_MAX;
	fr->hold = UINT64_MAX;
	return fr;
}

/*
 * Open leaf of the directory dfd (path): a regular file, never through a
 * symbolic link, and nothing else is opened (a FIFO would block, a device
 * could do anything); the fd, or a negative code with err set.
 */
static int
member(int dfd, const char *path, const char *leaf, struct stat *st,
       struct bt_error *err)
{
	int fd;

	if (fstatat(dfd, leaf, st, AT_SYMLINK_NOFOLLOW) < 0)
		return bt_error_errno(err, errno == ENOENT ? BT_ENOENT :
		    errno == EACCES ? BT_EACCES : BT_EIO, errno,
		    "cannot open '%.200s/%s'", path, leaf);
	if (S_ISLNK(st->st_mode))
		return bt_error_set(err, BT_EFORMAT,
		    "'%.200s/%s' is a symbolic link, not a regular file", path, leaf);
	if (!S_ISREG(st->st_mode))
		return bt_error_set(err, BT_EFORMAT,
		    "'%.200s/%s' is not a regular file", path, leaf);
	fd = openat(dfd, leaf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return bt_error_errno(err, errno == EACCES ? BT_EACCES : BT_EIO, errno,
		    "cannot open '%.200s/%s'", path, leaf);
	/* replaced since fstatat: still nothing but a regular file is read */
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return bt_error_set(err, BT_EFORMAT,
		    "'%.200s/%s' is not a regular file", path, leaf);
	}
	return fd;
}

/*
 * How many data.N files perf wrote: one per ring buffer, and the
 * ID_INDEX record in "data" gives each event id its ring buffer (idx);
 * 0 when it is not there.
 */
static size_t
expected_files(const struct bt_pd_reader *r, struct pd_section sec)
{
	uint64_t pos = sec.offset, end = sec.offset + sec.size;
	size_t n = 0;

	while (end - pos >= 8) {
		const uint8_t *p = r->data + pos;
		uint16_t sz = pd_g16(r, p + 6);

		if (sz < 8 || sz > end - pos)
			break;	/* the iteration says what is wrong, at its place */
		if (pd_g32(r, p) == PD_ID_INDEX && sz >= 16) {
			uint64_t nr = pd_g64(r, p + 8), esz, k;

			esz = nr ? (sz - 16u) / nr : 0;
			for (k = 0; esz >= 32 && k < nr; k++) {
				uint64_t idx = pd_g64(r, p + 16 + k * esz + 8);
				if (idx < MAX_FILES - 1 && idx + 1 > n)
					n = (size_t)idx + 1;
			}
		}
		pos += sz;
	}
	return n;
}

struct idx_vec {
	size_t *v;
	size_t n, alloc;
};

static int
idx_cmp(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* The N of every data.N in the directory, sorted; -1 with err set. */
static int
list_files(int dfd, const char *path, struct idx_vec *idx, struct bt_error *err)
{
	int fd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
	struct dirent *de;
	DIR *dir;

	if (fd < 0 || (dir = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return bt_error_errno(err, BT_EIO, errno, "cannot read the directory '%.200s'", path);
	}
	while ((de = readdir(dir)) != NULL) {
		const char *s = de->d_name;
		size_t n = 0;

		/* perf's names: "data." and the number, without leading zeros */
		if (strncmp(s, "data.", 5) != 0 || s[5] < '0' || s[5] > '9' ||
		    (s[5] == '0' && s[6] != '\0'))
			continue;
		for (s += 5; *s >= '0' && *s <= '9'; s++)	/* (MAX_FILES: saturated) */
			n = BT_MIN(n * 10 + (size_t)(*s - '0'), (size_t)MAX_FILES);
		if (*s != '\0')
			continue;	/* "data.1x": not perf's */
		if (n >= MAX_FILES - 1) {
			closedir(dir);
			return bt_error_set(err, BT_EFORMAT,
			    "'%.200s/%.40s': more files than benchtui reads (data.0 to data.%d)",
			    path, de->d_name, MAX_FILES - 2);
		}
		BT_VEC_PUSH(*idx, n);
	}
	closedir(dir);
	bt_qsort(idx->v, idx->n, sizeof(*idx->v), idx_cmp);
	return 0;
}

/* File k of the directory (1 + N for data.N): mapped, with its reader. */
static int
open_file(struct bt_pd_reader *r, int dfd, const char *path, size_t k,
	  struct bt_error *err)
{
	struct pd_file *f = &r->dir->f[k];
	char leaf[32];
	const uint8_t *p;
	struct stat st;
	struct pd_section sec;
	int fd;

	snprintf(leaf, sizeof(leaf), "data.%zu", k - 1);
	f->name = bt_xasprintf("'%.200s/%s'", path, leaf);
	fd = member(dfd, path, leaf, &st, err);
	if (fd < 0)
		return fd;
	if (st.st_size == 0) {	/* a CPU that recorded nothing */
		close(fd);
		return 0;
	}
	if ((uint64_t)st.st_size > PD_DIR_OFFSET || (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return bt_error_set(err, BT_EFORMAT, "%s is too big (%llu bytes)",
		    f->name, (unsigned long long)st.st_size);
	}
	if (pd_map(fd, (size_t)st.st_size, f->name, &p, err) < 0) {
		close(fd);
		return -BT_EIO;
	}
	close(fd);
	sec.offset = 0;
	sec.size = (uint64_t)st.st_size;
	f->r = file_reader(r, p, (size_t)st.st_size, sec);
	return 0;
}

/* The header file "data": a perf.data file with the DIR_FORMAT feature. */
static struct bt_pd_reader *
open_header(int dfd, const char *path, struct bt_error *err)
{
	struct bt_pd_reader *r;
	const uint8_t *p;
	struct stat st;
	char name[232];
	int fd;

	snprintf(name, sizeof(name), "'%.200s/data'", path);
	fd = member(dfd, path, "data", &st, err);
	if (fd == -BT_ENOENT) {
		bt_error_set(err, BT_EFORMAT, "'%.200s' is not a regular file, nor a "
		    "perf record --threads directory (it has no 'data' file)", path);
		return NULL;
	}
	if (fd < 0)
		return NULL;
	if (st.st_size == 0 || pd_map(fd, (size_t)st.st_size, name, &p, err) < 0) {
		if (st.st_size == 0)
			bt_error_set(err, BT_EFORMAT, "%s is empty", name);
		close(fd);
		return NULL;
	}
	close(fd);
	r = bt_pd_open_mem(p, (size_t)st.st_size, err);
	if (r == NULL) {
		in_file(err, name, 0);
		munmap((void *)p, (size_t)st.st_size);
		return NULL;
	}
	r->mapped = true;
	if (!r->dir_feat || r->pipe) {
		bt_error_set(err, BT_EFORMAT, "%s has no DIR_FORMAT feature: '%.200s' "
		    "is not a perf record --threads directory%s", name, path,
		    r->unfinished ? " (or perf was killed before it finished it)" : "");
		bt_pd_close(r);
		return NULL;
	}
	if (r->dir_version != PD_DIR_VERSION) {
		bt_error_set(err, BT_EFORMAT, "%s: directory format version %llu is "
		    "not supported (perf record --threads writes %d)", name,
		    (unsigned long long)r->dir_version, PD_DIR_VERSION);
		bt_pd_close(r);
		return NULL;
	}
	return r;
}

struct bt_pd_reader *
pd_dir_open(int dfd, const char *path, struct bt_error *err)
{
	struct bt_pd_reader *r = open_header(dfd, path, err);
	struct idx_vec idx = { 0 };
	struct pd_dir *d;
	size_t k, want;
	uint32_t t = BT_PD_FINISHED_ROUND;
	uint16_t sz = 8;

	if (r == NULL)
		return NULL;
	if (list_files(dfd, path, &idx, err) < 0)
		goto fail;
	/* a file missing between others, or after them where ID_INDEX says */
	want = expected_files(r, r->data_sec);
	for (k = 0; k < BT_MAX(idx.n, want); k++)
		if (k >= idx.n || idx.v[k] != k) {
			bt_error_set(err, BT_EFORMAT, "'%.200s/data.%zu' is missing "
			    "(perf record --threads wrote data.0 to data.%zu)", path, k,
			    BT_MAX(want, idx.n ? idx.v[idx.n - 1] + 1 : 0) - 1);
			goto fail;
		}
	d = bt_xcalloc(1, sizeof(*d));
	r->dir = d;
	d->n = idx.n + 1;
	d->f = bt_xcalloc(d->n, sizeof(*d->f));
	d->heap = bt_xcalloc(d->n, sizeof(*d->heap));
	d->f[0].name = bt_xasprintf("'%.200s/data'", path);
	if (r->data_sec.size)	/* what perf's main thread wrote */
		d->f[0].r = file_reader(r, r->data, r->size, r->data_sec);
	for (k = 1; k < d->n; k++)
		if (open_file(r, dfd, path, k, err) < 0)
			goto fail;
	if (r->swapped) {
		t = bswap_32(t);
		sz = bswap_16(sz);
	}
	memcpy(d->round, &t, 4);
	memcpy(d->round + 6, &sz, 2);
	/* this reader's own data ends at once: pd_dir_fetch takes over */
	r->data_sec.size = 0;
	r->pos = r->data_sec.offset;
	pd_dir_rewind(r);
	BT_VEC_FREE(idx);
	return r;
fail:
	BT_VEC_FREE(idx);
	bt_pd_close(r);
	return NULL;
}
