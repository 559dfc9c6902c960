/*
 * perf.data writer. Layout written:
 *
 *   [perf_file_header][id arrays][perf_file_attr...][data...]
 *   [feature section table][feature payloads]
 *
 * Records go to "path.tmp" as they come, after a header that is valid
 * from the start (data size 0: readers take the data to the end of the
 * file, so a recording whose benchtui was killed still opens); each
 * FINISHED_ROUND flushes them. bt_pd_finish() writes the features and
 * the final header, then renames the file into place. A device (-o
 * /dev/null) is written through, as perf does; a symlink is followed
 * (its target is written, the link stays).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf/perfdata-int.h"

struct bt_pd_writer;
static void writer_free(struct bt_pd_writer *w);

struct bt_pd_writer {
	int fd;
	bool through;		/* writing to path itself (a device): no rename */
	char *path, *tmp;
	struct bt_pd_attr *attrs;	/* copies */
	size_t nattrs;
	uint64_t attrs_off, data_off, written;
	uint8_t buf[256 * 1024];
	size_t buflen;
};

static int
wflush(struct bt_pd_writer *w, struct bt_error *err)
{
	int ret;

	if (w->buflen == 0)
		return 0;
	ret = bt_write_all(w->fd, w->buf, w->buflen);
	if (ret)
		return bt_error_errno(err, BT_EIO, -ret, "cannot write '%s'", w->tmp);
	w->buflen = 0;
	return 0;
}

static int
wbytes(struct bt_pd_writer *w, const void *data, size_t len,
       struct bt_error *err)
{
	if (len == 0)
		return 0;	/* (an event without ids: data may be NULL) */
	if (w->buflen + len > sizeof(w->buf)) {
		int ret = wflush(w, err);
		if (ret)
			return ret;
		if (len > sizeof(w->buf)) {
			ret = bt_write_all(w->fd, data, len);
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

/* perf_file_header: the data section and the feature bits as they are now. */
static void
file_header(const struct bt_pd_writer *w, uint64_t data_size,
	    const uint64_t bits[4], uint64_t hdr[13])
{
	hdr[0] = PD_MAGIC;
	hdr[1] = PD_HEADER_SIZE;
	hdr[2] = sizeof(struct perf_event_attr) + 16;
	hdr[3] = w->attrs_off;
	hdr[4] = w->nattrs * (sizeof(struct perf_event_attr) + 16);
	hdr[5] = w->data_off;
	hdr[6] = data_size;
	hdr[7] = 0;	/* event_types */
	hdr[8] = 0;
	memcpy(&hdr[9], bits, 4 * sizeof(uint64_t));
}

/*
 * Where the recording goes: path, or the target of the symlink path; a
 * device is written through (*through), a directory or something that
 * cannot be seeked back to write the header (a FIFO, a terminal) is an
 * error now, before the benchmark runs.
 */
static int
open_output(struct bt_pd_writer *w, struct bt_error *err)
{
	struct stat st;

	if (lstat(w->path, &st) == 0 && S_ISLNK(st.st_mode)) {
		char *target = realpath(w->path, NULL);

		if (target == NULL) {	/* dangling: the file it names */
			char buf[4096];
			ssize_t n = readlink(w->path, buf, sizeof(buf) - 1);
			const char *slash = strrchr(w->path, '/');

			if (n > 0) {
				buf[n] = '\0';
				target = buf[0] == '/' || slash == NULL ? bt_xstrdup(buf) :
				    bt_xasprintf("%.*s/%s", (int)(slash - w->path), w->path, buf);
			}
		}
		if (target != NULL) {
			free(w->path);
			free(w->tmp);
			w->path = target;
			w->tmp = bt_xasprintf("%s.tmp", w->path);
		}
	}
	if (stat(w->path, &st) == 0 && S_ISDIR(st.st_mode))
		return bt_error_errno(err, BT_EIO, EISDIR, "cannot write '%s'", w->path);
	if (stat(w->path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return bt_error_set(err, BT_EIO, "cannot write a recording to '%s': "
		    "it is a %s, which cannot be written back to at the header",
		    w->path, S_ISFIFO(st.st_mode) ? "FIFO" : "socket");
	if (stat(w->path, &st) == 0 && !S_ISREG(st.st_mode)) {
		w->through = true;
		free(w->tmp);
		w->tmp = bt_xstrdup(w->path);
		w->fd = open(w->path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (w->fd < 0)
			return bt_error_errno(err, errno == EACCES ? BT_EACCES : BT_EIO,
			    errno, "cannot write '%s'", w->path);
		if (lseek(w->fd, 0, SEEK_SET) < 0)
			return bt_error_set(err, BT_EIO, "cannot write a recording to '%s': "
			    "it cannot be written back to at the header (a terminal?)",
			    w->path);
		fcntl(w->fd, F_SETFL, fcntl(w->fd, F_GETFL) & ~O_NONBLOCK);
		return 0;
	}
	w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0)
		return bt_error_errno(err, errno == EACCES ? BT_EACCES : BT_EIO, errno,
		    "cannot create '%s'", w->tmp);
	return 0;
}

struct bt_pd_writer *
bt_pd_create(const char *path, const struct bt_pd_attr *attrs, size_t nattrs,
	     struct bt_error *err)
{
	struct bt_pd_writer *w = bt_xcalloc(1, sizeof(*w));
	uint64_t hdr[13], nobits[4] = { 0 };
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
		if (attrs[i].nids)	/* (ids may be NULL without) */
			memcpy(w->attrs[i].ids, attrs[i].ids, attrs[i].nids * 8);
	}
	w->fd = -1;
	if (open_output(w, err) < 0) {
		if (w->fd >= 0)
			close(w->fd);
		writer_free(w);
		return NULL;
	}
	w->attrs_off = PD_HEADER_SIZE;
	for (i = 0; i < nattrs; i++)
		w->attrs_off += attrs[i].nids * 8;
	w->data_off = w->attrs_off + nattrs * (sizeof(struct perf_event_attr) + 16);
	/* a header valid now (data size 0: "to the end"), id arrays, attrs */
	file_header(w, 0, nobits, hdr);
	if (wbytes(w, hdr, sizeof(hdr), err))
		goto fail;
	for (i = 0; i < nattrs; i++)
		if (wbytes(w, attrs[i].ids, attrs[i].nids * 8, err))
			goto fail;
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
	if (wflush(w, err))
		goto fail;
	return w;
fail:
	bt_pd_abort(w);
	return NULL;
}

int
bt_pd_write(struct bt_pd_writer *w, const void *rec, size_t len,
	    struct bt_error *err)
{
	const struct perf_event_header *h = rec;

	w->written += len;
	if (wbytes(w, rec, len, err))
		return -BT_EIO;
	/* the end of a drain pass: on disk, in case benchtui is killed */
	return len >= sizeof(*h) && h->type == BT_PD_FINISHED_ROUND ?
	    wflush(w, err) : 0;
}

uint64_t
bt_pd_written(const struct bt_pd_writer *w)
{
	return w->written;
}

int
bt_pd_finish(struct bt_pd_writer *w, const struct bt_pd_features *f,
	     struct bt_error *err)
{
	const int *feats = pd_write_feats;
	struct bt_strbuf payload[16];
	bool present[16];
	uint64_t bits[4] = { 0 };
	uint64_t hdr[13];
	uint64_t off;
	size_t i, nsec = 0;
	int ret = -BT_EIO;

	for (i = 0; i < pd_nwrite_feats; i++) {
		bt_strbuf_init(&payload[i]);
		present[i] = pd_build_feature(w->attrs, w->nattrs, f, feats[i],
		    &payload[i]);
		if (present[i]) {
			bits[feats[i] / 64] |= 1ULL << (feats[i] % 64);
			nsec++;
		}
	}
	/* section table right after the data, payloads after the table */
	off = w->data_off + w->written + nsec * 16;
	for (i = 0; i < pd_nwrite_feats; i++) {
		uint64_t sec[2];
		if (!present[i])
			continue;
		sec[0] = off;
		sec[1] = payload[i].len;
		if (wbytes(w, sec, sizeof(sec), err))
			goto out;
		off += payload[i].len;
	}
	for (i = 0; i < pd_nwrite_feats; i++)
		if (present[i] && wbytes(w, payload[i].buf, payload[i].len, err))
			goto out;
	if (f->benchtui != NULL) {	/* benchtui's section, then the trailer to it */
		uint64_t tr[2] = { off, f->benchtui_len };
		if (wbytes(w, f->benchtui, f->benchtui_len, err) ||
		    wbytes(w, tr, sizeof(tr), err) ||
		    wbytes(w, PD_TRAILER_MAGIC, 8, err))
			goto out;
	}
	if (wflush(w, err))
		goto out;

	file_header(w, w->written, bits, hdr);
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
	if (!w->through) {
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
	if (!w->through && rename(w->tmp, w->path) < 0) {
		bt_error_errno(err, BT_EIO, errno, "cannot rename '%s' to '%s'",
		    w->tmp, w->path);
		goto out;
	}
	ret = 0;
out:
	for (i = 0; i < pd_nwrite_feats; i++)
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
	if (!w->through)
		unlink(w->tmp);
	writer_free(w);
}
