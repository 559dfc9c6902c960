/*
 * The benchmark's standard output and error, read while it runs
 * (DESIGN.md §7, docs/benchmarks.md "Reading the harness while it
 * runs"). The benchmark gets what the user gave benchtui, as far as it
 * can tell, and benchtui reads what it writes with the CLOCK_MONOTONIC
 * time of each read, for the recording (core/perf/meta.c) and the harness
 * parser. Each stream, by what benchtui's own is:
 *
 *  - a terminal: a pseudo-terminal (output processing off), so that stdio
 *    keeps a terminal's line buffering and each result line arrives when
 *    the harness writes it; the bytes are copied to the terminal
 *    unchanged;
 *  - a pipe or socket: a pipe, copied to benchtui's unchanged (isatty()
 *    false as before; fstat() says FIFO for a socket too). When the
 *    reader of benchtui's goes away (| head), the read end is closed:
 *    the benchmark's next write gets SIGPIPE, as it would have;
 *  - a regular file: the descriptor itself (the file's offset, O_APPEND,
 *    fstat() and lseek() exactly as without benchtui); benchtui reads
 *    the file back from where the run began up to the shared offset,
 *    woken by inotify;
 *  - anything else (/dev/null, another device, closed): the descriptor
 *    itself, not read.
 *
 * A copy is written to benchtui's terminal or pipe opened again,
 * non-blocking: while it is full (a paused pager, Ctrl-S) benchtui stops
 * reading the benchmark's, which waits as it would have, and goes on
 * draining the samples.
 *
 * Standard error that is the same file or pipe as standard output (2>&1)
 * shares stdout's stream, so that the two keep their order. Standard
 * input is left as it was, and the child stays in benchtui's process
 * group: Ctrl-C on the terminal reaches it as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "record/record-int.h"

#define OUTPUT_MAX (64u << 20)	/* bytes kept; the copy goes on beyond */
#define CHUNK 65536		/* one read: a pipe's whole buffer */

/* fd moved above 2, so that no dup2() in the child lands on another stream. */
static int
above_stdio(int fd)
{
	int nfd;

	if (fd < 0 || fd > STDERR_FILENO)
		return fd;
	nfd = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	close(fd);
	return nfd;
}

/*
 * Where the copy goes: st->copy_fd opened again with its own O_NONBLOCK
 * (a terminal, a pipe), or the descriptor itself, blocking (a socket).
 */
static void
open_copy(struct bt_rec_stream *st)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", st->copy_fd);
	st->out_fd = above_stdio(open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC));
	if (st->out_fd < 0)
		st->out_fd = st->copy_fd;
	bt_strbuf_init(&st->pend);
	st->pend_off = 0;
}

/* A pty for the stream whose copy goes to the terminal st->copy_fd. */
static int
open_pty(struct bt_rec_stream *st, struct bt_error *err)
{
	struct termios tio;
	struct winsize ws;
	char name[128];
	int m, sl;

	m = above_stdio(posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 ||
	    ptsname_r(m, name, sizeof(name)) != 0) {
		int e = errno;
		if (m >= 0)
			close(m);
		return bt_error_errno(err, BT_EIO, e, "cannot open a pseudo-terminal");
	}
	sl = above_stdio(open(name, O_RDWR | O_NOCTTY | O_CLOEXEC));
	if (sl < 0) {
		int e = errno;
		close(m);
		return bt_error_errno(err, BT_EIO, e, "cannot open '%s'", name);
	}
	/* the bytes as the program wrote them: no \n -> \r\n */
	if (tcgetattr(sl, &tio) == 0) {
		tio.c_oflag &= ~(tcflag_t)OPOST;
		tio.c_lflag &= ~(tcflag_t)(ECHO | ICANON | ISIG);
		tcsetattr(sl, TCSANOW, &tio);
	}
	/* the terminal's width, so that a harness lays its table out the same */
	if (ioctl(st->copy_fd, TIOCGWINSZ, &ws) == 0)
		ioctl(sl, TIOCSWINSZ, &ws);
	fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK);
	st->master = m;
	st->slave = sl;
	st->mode = BT_OUT_PTY;
	open_copy(st);
	return 0;
}

/* A pipe for the stream whose copy goes to the pipe or socket st->copy_fd. */
static int
open_pipe(struct bt_rec_stream *st, struct bt_error *err)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		return bt_error_errno(err, BT_EIO, errno, "cannot create a pipe");
	p[0] = above_stdio(p[0]);
	p[1] = above_stdio(p[1]);
	if (p[0] < 0 || p[1] < 0) {
		int e = errno;
		if (p[0] >= 0)
			close(p[0]);
		if (p[1] >= 0)
			close(p[1]);
		return bt_error_errno(err, BT_EIO, e, "cannot create a pipe");
	}
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
	st->master = p[0];
	st->slave = p[1];
	st->mode = BT_OUT_PIPE;
	open_copy(st);
	return 0;
}

/*
 * The regular file st->copy_fd, opened again to be read from where the
 * command's first byte will land: the end of the file under O_APPEND,
 * else the offset. Not readable (mode 0200): the stream is not read.
 */
static void
open_file(struct bt_rec_stream *st, const struct stat *sb)
{
	struct stat rb;
	char path[64];
	int flags = fcntl(st->copy_fd, F_GETFL);
	off_t cur = lseek(st->copy_fd, 0, SEEK_CUR);
	int fd;

	if (flags < 0 || cur < 0)
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", st->copy_fd);
	fd = above_stdio(open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC));
	if (fd < 0)
		return;
	if (fstat(fd, &rb) < 0 || rb.st_dev != sb->st_dev || rb.st_ino != sb->st_ino) {
		close(fd);
		return;
	}
	st->file_fd = fd;
	st->pos = (flags & O_APPEND) ? sb->st_size : cur;
	st->mode = BT_OUT_FILE;
	/* woken when it is written; without inotify, by the loop's tick */
	st->master = above_stdio(inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
	if (st->master >= 0 && inotify_add_watch(st->master, path, IN_MODIFY) < 0) {
		close(st->master);
		st->master = -1;
	}
}

static int
open_stream(struct bt_rec_stream *st, int fd, struct bt_error *err)
{
	struct stat sb;

	int ret = 0;

	st->copy_fd = fd;
	if (fstat(fd, &sb) < 0) {
		st->unread = "closed";	/* the child's is closed too */
		return 0;
	}
	if (isatty(fd))
		ret = open_pty(st, err);
	else if (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode))
		ret = open_pipe(st, err);
	else if (S_ISREG(sb.st_mode))
		open_file(st, &sb);
	/* what the recording says of a stream not read (record.c) */
	if (st->mode == BT_OUT_NONE)
		st->unread = ret < 0 ? "passed through (no pseudo-terminal or pipe)" :
		    S_ISREG(sb.st_mode) ? "a file that cannot be read back" :
		    S_ISCHR(sb.st_mode) && sb.st_rdev == makedev(1, 3) ? "/dev/null" :
		    S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device" :
		    "neither a terminal, a pipe nor a file";
	return ret;
}

static void
stream_init(struct bt_rec_stream *st)
{
	memset(st, 0, sizeof(*st));
	st->mode = BT_OUT_NONE;
	st->master = st->slave = st->file_fd = st->copy_fd = st->out_fd = -1;
}

int
bt_output_open(struct bt_rec_output *o, struct bt_error *err)
{
	struct stat a, b;
	int ret;

	memset(o, 0, sizeof(*o));
	bt_strbuf_init(&o->data);
	stream_init(&o->s[0]);
	stream_init(&o->s[1]);
	ret = open_stream(&o->s[0], STDOUT_FILENO, err);
	/* 2>&1 into a file or pipe: one stream, the two in the order written */
	if (o->s[0].mode != BT_OUT_PTY && o->s[0].mode != BT_OUT_NONE &&
	    fstat(STDOUT_FILENO, &a) == 0 && fstat(STDERR_FILENO, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		o->s[1].copy_fd = STDERR_FILENO;
		o->s[1].shared = true;
		return ret;
	}
	/* stderr too (GB's context, before the first benchmark: where it starts) */
	if (open_stream(&o->s[1], STDERR_FILENO, ret ? NULL : err) < 0 && ret == 0)
		ret = -BT_EIO;
	return ret;
}

int
bt_output_child_fd(const struct bt_rec_output *o, int i)
{
	if (i == 1 && o->s[1].shared)
		return o->s[0].slave;
	return o->s[i].slave;
}

void
bt_output_parent(struct bt_rec_output *o)
{
	for (int i = 0; i < 2; i++) {
		if (o->s[i].slave >= 0)
			close(o->s[i].slave);
		o->s[i].slave = -1;
	}
}

static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Keep n bytes of stream i read at time t, while under the maximum. */
static void
keep(struct bt_rec_output *o, int i, const char *buf, size_t n, uint64_t t)
{
	if (i == 0)
		o->bytes += n;
	if (o->data.len + n + 48 > OUTPUT_MAX) {
		o->truncated = true;
		return;
	}
	/* standard output: "NS LEN"; standard error: "NS LEN 2" */
	bt_strbuf_addf(&o->data, i ? "%llu %zu 2\n" : "%llu %zu\n",
	    (unsigned long long)t, n);
	bt_strbuf_add(&o->data, buf, n);
}

/* benchtui's reader is gone (EPIPE, a hangup): no more copies. */
static void
copy_gone(struct bt_rec_stream *st)
{
	if (st->out_fd != st->copy_fd)
		close(st->out_fd);
	st->out_fd = -1;
	bt_strbuf_reset(&st->pend);
	st->pend_off = 0;
}

/*
 * Copy buf (after what is pending) to benchtui's own; what does not fit
 * now is kept for later. True when nothing is left pending.
 */
static bool
copy_out(struct bt_rec_stream *st, const char *buf, size_t n)
{
	const char *p;
	size_t left;

	if (st->out_fd < 0)
		return true;
	if (n > 0)
		bt_strbuf_add(&st->pend, buf, n);
	p = st->pend.buf + st->pend_off;
	left = st->pend.len - st->pend_off;
	while (left > 0) {
		ssize_t w = write(st->out_fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			break;
		if (w <= 0) {
			copy_gone(st);
			return true;
		}
		p += w;
		left -= (size_t)w;
	}
	if (left > 0) {
		st->pend_off = st->pend.len - left;
		return false;
	}
	bt_strbuf_reset(&st->pend);
	st->pend_off = 0;
	return true;
}

/*
 * Read what the pty or pipe holds into buf, in as many reads as it
 * takes (a harness writing line by line leaves a line or two each time),
 * up to CHUNK bytes: one chunk kept and one write of the copy for them
 * all. *len says how much; false at EOF or a pty's EIO (every writer
 * closed it) with nothing read.
 */
static bool
read_some(int fd, char *buf, size_t *len)
{
	*len = 0;
	while (*len < CHUNK) {
		ssize_t n = read(fd, buf + *len, CHUNK - *len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0)
			return *len > 0;	/* the end comes at the next call */
		*len += (size_t)n;
	}
	return true;
}

/*
 * A pty or pipe: copy what is pending, then read and copy what is
 * there, until the copy is full. False once the stream is closed.
 */
static bool
read_tee(struct bt_rec_output *o, int i)
{
	struct bt_rec_stream *st = &o->s[i];
	char buf[CHUNK];

	while (st->master >= 0) {
		size_t n;

		if (!copy_out(st, NULL, 0))
			return true;	/* the benchmark waits, as on a full pipe */
		/*
		 * benchtui's reader is gone: a pipe's is closed, so that the
		 * benchmark's next write fails as it would have (SIGPIPE); a
		 * pty is read on, for the recording
		 */
		if (st->out_fd < 0 && st->mode == BT_OUT_PIPE)
			break;
		if (!read_some(st->master, buf, &n))
			break;
		if (n == 0)
			return true;
		keep(o, i, buf, n, mono_ns());
		copy_out(st, buf, n);
	}
	if (st->master >= 0)
		close(st->master);
	st->master = -1;
	return false;
}

/* A regular file: what was written beyond st->pos. */
static bool
read_file(struct bt_rec_output *o, int i)
{
	struct bt_rec_stream *st = &o->s[i];
	char buf[CHUNK];
	struct stat sb;
	off_t end;

	if (st->file_fd < 0)
		return false;
	/* the wakeup (or the tick) only says "look" */
	while (st->master >= 0 && read(st->master, buf, sizeof(buf)) > 0)
		;
	end = lseek(st->copy_fd, 0, SEEK_CUR);
	if (end < 0 || fstat(st->file_fd, &sb) < 0)
		return true;
	if (end > sb.st_size)	/* cut by ftruncate, or a hole not written yet */
		end = sb.st_size;
	while (st->pos < end) {
		size_t want = (size_t)BT_MIN((off_t)sizeof(buf), end - st->pos);
		ssize_t n;

		if (o->data.len + want + 48 > OUTPUT_MAX) {	/* counted, not read */
			if (i == 0)
				o->bytes += (size_t)(end - st->pos);
			o->truncated = true;
			st->pos = end;
			break;
		}
		n = pread(st->file_fd, buf, want, st->pos);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		keep(o, i, buf, (size_t)n, mono_ns());
		st->pos += n;
	}
	return true;
}

bool
bt_output_read(struct bt_rec_output *o)
{
	bool any = false;

	/* stderr first: GB's context is written just before its first result */
	for (int i = 1; i >= 0; i--) {
		switch (o->s[i].mode) {
		case BT_OUT_PTY:
		case BT_OUT_PIPE:
			any |= read_tee(o, i);
			break;
		case BT_OUT_FILE:
			any |= read_file(o, i);
			break;
		case BT_OUT_NONE:
			break;
		}
	}
	return any;
}

size_t
bt_output_poll(const struct bt_rec_output *o, struct pollfd *pfd, size_t max)
{
	size_t n = 0;

	for (int i = 0; i < 2 && n < max; i++) {
		const struct bt_rec_stream *st = &o->s[i];

		if (st->out_fd >= 0 && st->pend.len > st->pend_off) {
			pfd[n].fd = st->out_fd;
			pfd[n++].events = POLLOUT;
		} else if (st->master >= 0) {
			pfd[n].fd = st->master;
			pfd[n++].events = POLLIN;
		}
	}
	return n;
}

void
bt_output_finish(struct bt_rec_output *o)
{
	for (int i = 0; i < 2; i++) {
		struct bt_rec_stream *st = &o->s[i];

		if ((st->mode == BT_OUT_PTY || st->mode == BT_OUT_PIPE) &&
		    st->out_fd >= 0)
			fcntl(st->out_fd, F_SETFL, fcntl(st->out_fd, F_GETFL) & ~O_NONBLOCK);
	}
	bt_output_read(o);
}

void
bt_output_release(struct bt_rec_output *o)
{
	for (int i = 0; i < 2; i++) {
		struct bt_rec_stream *st = &o->s[i];

		if (st->mode == BT_OUT_NONE)
			continue;
		if (st->master >= 0)
			close(st->master);
		if (st->slave >= 0)
			close(st->slave);
		if (st->file_fd >= 0)
			close(st->file_fd);
		if (st->out_fd >= 0 && st->out_fd != st->copy_fd)
			close(st->out_fd);
		if (st->mode == BT_OUT_PTY || st->mode == BT_OUT_PIPE)
			bt_strbuf_release(&st->pend);
		st->master = st->slave = st->file_fd = st->out_fd = -1;
		st->mode = BT_OUT_NONE;
	}
	bt_strbuf_release(&o->data);
}
