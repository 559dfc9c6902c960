/* Opening the files a JIT runtime writes, and the address index. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "jit/jit-int.h"

static int
open_errno(struct bt_error *err, int errnum, const char *what, const char *path)
{
	return bt_error_errno(err, errnum == ENOENT ? BT_ENOENT :
	    errnum == EACCES || errnum == EPERM ? BT_EACCES : BT_EIO, errnum,
	    "cannot open %s '%s'", what, path);
}

int
bt_jit_file_map(struct bt_jit_file *f, const char *path, const char *what,
		struct bt_error *err)
{
	struct stat st, fst;
	void *p;
	int fd;

	f->data = NULL;
	f->size = 0;
	/*
	 * stat first: opening a FIFO or a device can block or act (a tape
	 * rewinds on open); O_NONBLOCK covers the race with a swapped path,
	 * and fstat on the descriptor is the check that counts.
	 */
	if (stat(path, &st) < 0)
		return open_errno(err, errno, what, path);
	if (!S_ISREG(st.st_mode))
		return bt_error_set(err, BT_EINVAL, "%s '%s' is not a regular file",
		    what, path);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return open_errno(err, errno, what, path);
	if (fstat(fd, &fst) < 0 || !S_ISREG(fst.st_mode)) {
		close(fd);
		return bt_error_set(err, BT_EINVAL, "%s '%s' is not a regular file",
		    what, path);
	}
	if ((uint64_t)fst.st_size > SIZE_MAX) {
		close(fd);
		return bt_error_set(err, BT_EINVAL, "%s '%s' is too big", what, path);
	}
	if (fst.st_size == 0) {
		close(fd);
		return 0;
	}
	/*
	 * The runtime may still be appending: the bytes present now are read.
	 * A file cut shorter while mapped would fault; runtimes only append.
	 */
	p = mmap(NULL, (size_t)fst.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return bt_error_errno(err, BT_EIO, errno, "cannot map %s '%s'",
		    what, path);
	f->data = p;
	f->size = (size_t)fst.st_size;
	return 0;
}

void
bt_jit_file_release(struct bt_jit_file *f)
{
	if (f->data != NULL)
		munmap((void *)f->data, f->size);
	f->data = NULL;
	f->size = 0;
}

void
bt_jit_spans_add(struct bt_jit_spans *s, uint64_t start, uint64_t end,
		 uint64_t time, size_t seq, size_t idx)
{
	struct bt_jit_span sp = { start, end, time, seq, idx };

	if (end <= start)
		return;
	BT_VEC_PUSH(*s, sp);
	if (end - start > s->maxlen)
		s->maxlen = end - start;
}

static int
span_cmp(const void *a, const void *b)
{
	const struct bt_jit_span *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void
bt_jit_spans_sort(struct bt_jit_spans *s)
{
	bt_qsort(s->v, s->n, sizeof(*s->v), span_cmp);
}

/* Is a later than b (time, then position)? */
static bool
later(const struct bt_jit_span *a, const struct bt_jit_span *b)
{
	return a->time != b->time ? a->time > b->time : a->seq > b->seq;
}

const struct bt_jit_span *
bt_jit_spans_find(const struct bt_jit_spans *s, uint64_t addr, uint64_t time)
{
	const struct bt_jit_span *before = NULL, *after = NULL;
	size_t lo = 0, hi = s->n;

	while (lo < hi) {	/* first span starting after addr */
		size_t mid = lo + (hi - lo) / 2;
		if (s->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0) {
		const struct bt_jit_span *sp = &s->v[--lo];
		if (addr - sp->start >= s->maxlen)
			break;
		if (addr >= sp->end)
			continue;
		if (sp->time <= time) {
			if (before == NULL || later(sp, before))
				before = sp;
		} else if (after == NULL || later(after, sp)) {
			after = sp;
		}
	}
	return before != NULL ? before : after;
}

void
bt_jit_spans_release(struct bt_jit_spans *s)
{
	BT_VEC_FREE(*s);
	s->maxlen = 0;
}
