/*
 * The benchmark's standard output, read while it runs (DESIGN.md §7):
 * the child writes into a pseudo-terminal, so that stdio keeps the line
 * buffering it has on a terminal and each result line arrives when the
 * harness writes it; benchtui copies every byte to its own standard
 * output unchanged and keeps the bytes with the CLOCK_MONOTONIC time they
 * were read, for the recording (core/perf/meta.c) and the harness parser.
 * The child's standard error and input are left as they were.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "record/record-int.h"

#define OUTPUT_MAX (64u << 20)	/* bytes kept; the copy goes on beyond */

int
bt_output_open(struct bt_rec_output *o, int copy_fd, struct bt_error *err)
{
	struct termios tio;
	struct winsize ws;
	char name[128];
	int m, sl;

	memset(o, 0, sizeof(*o));
	o->master = o->slave = -1;
	o->copy_fd = copy_fd;
	bt_strbuf_init(&o->data);
	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 ||
	    ptsname_r(m, name, sizeof(name)) != 0) {
		int e = errno;
		if (m >= 0)
			close(m);
		return bt_error_errno(err, BT_EIO, e, "cannot open a pseudo-terminal");
	}
	sl = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
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
	if ((copy_fd >= 0 && ioctl(copy_fd, TIOCGWINSZ, &ws) == 0) ||
	    ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0)
		ioctl(sl, TIOCSWINSZ, &ws);
	fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK);
	o->master = m;
	o->slave = sl;
	return 0;
}

void
bt_output_parent(struct bt_rec_output *o)
{
	if (o->slave >= 0)
		close(o->slave);
	o->slave = -1;
}

static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void
copy_out(struct bt_rec_output *o, const char *buf, size_t n)
{
	while (n > 0 && o->copy_fd >= 0) {
		ssize_t w = write(o->copy_fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {	/* a closed pipe: keep reading, stop copying */
			o->copy_fd = -1;
			return;
		}
		buf += w;
		n -= (size_t)w;
	}
}

bool
bt_output_read(struct bt_rec_output *o)
{
	char buf[16384];

	if (o->master < 0)
		return false;
	for (;;) {
		ssize_t n = read(o->master, buf, sizeof(buf));
		uint64_t t;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return true;
		if (n <= 0) {	/* EIO: every writer closed the terminal */
			close(o->master);
			o->master = -1;
			return false;
		}
		t = mono_ns();
		copy_out(o, buf, (size_t)n);
		o->bytes += (size_t)n;
		if (o->data.len + (size_t)n + 48 > OUTPUT_MAX) {
			o->truncated = true;
			continue;
		}
		bt_strbuf_addf(&o->data, "%llu %zd\n", (unsigned long long)t, n);
		bt_strbuf_add(&o->data, buf, (size_t)n);
	}
}

void
bt_output_release(struct bt_rec_output *o)
{
	if (o->master >= 0)
		close(o->master);
	if (o->slave >= 0)
		close(o->slave);
	o->master = o->slave = -1;
	bt_strbuf_release(&o->data);
}
