/*
 * The benchmark's standard output, read while it runs (DESIGN.md §7):
 * the child writes into a pseudo-terminal, so that stdio keeps the line
 * buffering it has on a terminal and each result line arrives when the
 * harness writes it; benchtui copies every byte to its own standard
 * output unchanged and keeps the bytes with the CLOCK_MONOTONIC time they
 * were read, for the recording (core/perf/meta.c) and the harness parser.
 * Its standard error goes through a second pty the same way (copied to
 * benchtui's standard error, kept as stream 2: Google Benchmark writes
 * its context there just before the first benchmark starts). Where
 * benchtui's own output is not a terminal (a pipe, a file), the escape
 * sequences a program writes only to terminals (colours) are left out of
 * the copy, so that the file holds what the program would have written
 * there; the recording keeps every byte. Standard
 * input is left as it was, and the child stays in benchtui's process
 * group: Ctrl-C on the terminal reaches it as before.
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

/* One pty for the stream whose copy goes to copy_fd. */
static int
open_pty(struct bt_rec_stream *st, int copy_fd, struct bt_error *err)
{
	struct termios tio;
	struct winsize ws;
	char name[128];
	int m, sl;

	st->master = st->slave = -1;
	st->copy_fd = copy_fd;
	st->strip = copy_fd >= 0 && !isatty(copy_fd);
	st->esc = 0;
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
	st->master = m;
	st->slave = sl;
	return 0;
}

int
bt_output_open(struct bt_rec_output *o, struct bt_error *err)
{
	int ret;

	memset(o, 0, sizeof(*o));
	bt_strbuf_init(&o->data);
	o->s[1].master = o->s[1].slave = -1;
	ret = open_pty(&o->s[0], STDOUT_FILENO, err);
	/* stderr too (GB's context, before the first benchmark: where it starts) */
	if (ret == 0 && open_pty(&o->s[1], STDERR_FILENO, NULL) < 0)
		o->s[1].master = o->s[1].slave = -1;
	return ret;
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

/*
 * Leave out ESC sequences (CSI "ESC [ ... final", OSC "ESC ] ... BEL or
 * ESC \", two-byte "ESC x") from buf, in place; a sequence may end in a
 * later chunk (o->esc: 0 text, 1 after ESC, 2 in CSI, 3 in OSC, 4 ESC in
 * OSC). Returns the bytes kept.
 */
static size_t
strip_escapes(struct bt_rec_stream *o, char *buf, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		switch (o->esc) {
		case 0:
			if (c == 0x1b)
				o->esc = 1;
			else
				buf[k++] = (char)c;
			break;
		case 1:
			o->esc = c == '[' ? 2 : c == ']' ? 3 : 0;
			break;
		case 2:
			if (c >= 0x40 && c <= 0x7e)
				o->esc = 0;
			break;
		case 3:
			o->esc = c == 0x07 ? 0 : c == 0x1b ? 4 : 3;
			break;
		default:
			o->esc = c == '\\' ? 0 : 3;
			break;
		}
	}
	return k;
}

static void
copy_out(struct bt_rec_stream *o, const char *data, size_t n)
{
	char tmp[16384];
	const char *buf = data;

	if (o->strip && o->copy_fd >= 0) {
		n = BT_MIN(n, sizeof(tmp));	/* read_stream's chunks are no larger */
		memcpy(tmp, data, n);
		n = strip_escapes(o, tmp, n);
		buf = tmp;
	}
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

static bool
read_stream(struct bt_rec_output *o, int i)
{
	struct bt_rec_stream *st = &o->s[i];
	char buf[16384];

	if (st->master < 0)
		return false;
	for (;;) {
		ssize_t n = read(st->master, buf, sizeof(buf));
		uint64_t t;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return true;
		if (n <= 0) {	/* EIO: every writer closed the terminal */
			close(st->master);
			st->master = -1;
			return false;
		}
		t = mono_ns();
		copy_out(st, buf, (size_t)n);
		if (i == 0)
			o->bytes += (size_t)n;
		if (o->data.len + (size_t)n + 48 > OUTPUT_MAX) {
			o->truncated = true;
			continue;
		}
		/* standard output: "NS LEN"; standard error: "NS LEN 2" */
		bt_strbuf_addf(&o->data, i ? "%llu %zd 2\n" : "%llu %zd\n",
		    (unsigned long long)t, n);
		bt_strbuf_add(&o->data, buf, (size_t)n);
	}
}

bool
bt_output_read(struct bt_rec_output *o)
{
	bool a = read_stream(o, 1);
	bool b = read_stream(o, 0);

	return a || b;
}

void
bt_output_release(struct bt_rec_output *o)
{
	for (int i = 0; i < 2; i++) {
		if (o->s[i].master >= 0)
			close(o->s[i].master);
		if (o->s[i].slave >= 0)
			close(o->s[i].slave);
		o->s[i].master = o->s[i].slave = -1;
	}
	bt_strbuf_release(&o->data);
}
