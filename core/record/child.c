/*
 * The benchmark's process: forked and held before exec until the events
 * are attached (a pipe), exec failures reported back through a
 * close-on-exec pipe, and stopped step by step when benchtui is
 * interrupted.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base.h"
#include "record/record-int.h"

static void
child_exec(char *const *argv, int go_fd, int err_fd, int out_fd, int serr_fd,
	   pid_t parent)
{
	char c;
	int e;

	/*
	 * The benchmark dies with benchtui, even by SIGKILL or the OOM
	 * killer: no orphan left running (it survives exec; set-uid
	 * programs clear it). benchtui may already be gone.
	 */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	if (out_fd >= 0 && out_fd != STDOUT_FILENO)
		dup2(out_fd, STDOUT_FILENO);
	if (serr_fd >= 0 && serr_fd != STDERR_FILENO)
		dup2(serr_fd, STDERR_FILENO);

	/* wait until the events are attached */
	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
	close(go_fd);
	/* benchtui's handlers go at exec; SIGPIPE is the user's, as it was */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int
bt_child_fork(struct bt_child *c, char *const *argv, struct bt_error *err)
{
	return bt_child_fork_out(c, argv, -1, -1, err);
}

int
bt_child_fork_out(struct bt_child *c, char *const *argv, int out_fd,
		  int serr_fd, struct bt_error *err)
{
	int go[2] = { -1, -1 }, ep[2] = { -1, -1 };
	pid_t parent;

	memset(c, 0, sizeof(*c));
	c->go_fd = c->err_fd = -1;
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(ep, O_CLOEXEC) < 0) {
		int e = errno;
		if (go[0] >= 0) {
			close(go[0]);
			close(go[1]);
		}
		return bt_error_errno(err, BT_EIO, e, "cannot create a pipe");
	}
	parent = getpid();
	c->pid = fork();
	if (c->pid < 0) {
		int e = errno;
		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		return bt_error_errno(err, BT_EIO, e, "cannot fork");
	}
	if (c->pid == 0) {
		close(go[1]);
		close(ep[0]);
		child_exec(argv, go[0], ep[1], out_fd, serr_fd, parent);
	}
	close(go[0]);
	close(ep[1]);
	c->go_fd = go[1];
	c->err_fd = ep[0];
	return 0;
}

int
bt_child_start(struct bt_child *c, char *const *argv, struct bt_error *err)
{
	ssize_t n;
	int e;

	n = write(c->go_fd, "g", 1);	/* a dead child shows up in waitpid */
	(void)n;
	close(c->go_fd);
	c->go_fd = -1;
	do
		n = read(c->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->err_fd);
	c->err_fd = -1;
	if (n != (ssize_t)sizeof(e))
		return 0;	/* the pipe closed on exec */
	for (;;) {	/* seized, it stops at its exit: let it go */
		int st;
		if (waitpid(c->pid, &st, 0) != c->pid || !WIFSTOPPED(st))
			break;
		if (bt_child_trace_stop(c, st))
			bt_child_detach(c);
	}
	c->pid = 0;
	if (e == EACCES && strchr(argv[0], '/') != NULL) {
		struct stat st;
		if (stat(argv[0], &st) == 0 && S_ISDIR(st.st_mode))
			return bt_error_set(err, BT_EEXEC,
			    "cannot execute '%s': it is a directory", argv[0]);
	}
	return bt_error_set(err, e == ENOENT ? BT_ENOENT : BT_EEXEC,
	    "cannot execute '%s': %s", argv[0], strerror(e));
}

bool
bt_child_reap(struct bt_child *c, int *status)
{
	if (c->pid <= 0)
		return true;
	for (;;) {
		if (waitpid(c->pid, status, WNOHANG) != c->pid)
			return false;
		if (!c->traced || !WIFSTOPPED(*status))
			break;
		if (bt_child_trace_stop(c, *status))
			return false;	/* at exit: the caller detaches */
	}
	c->pid = 0;
	c->traced = false;
	return true;
}

void
bt_child_kill(struct bt_child *c)
{
	if (c->pid > 0) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
		c->pid = 0;
	}
}

void
bt_child_interrupt(struct bt_child *c, int sig, double now)
{
	if (c->pid <= 0)
		return;
	if (c->kill_stage == 0) {
		/* the terminal's SIGINT reached it too; SIGTERM is ours */
		if (sig != SIGINT)
			kill(c->pid, sig);
		c->kill_at = now + 1.0;
		c->kill_stage = 1;
	} else if (c->kill_stage == 1 && now >= c->kill_at) {
		kill(c->pid, SIGTERM);
		c->kill_at = now + 2.0;
		c->kill_stage = 2;
	} else if (c->kill_stage == 2 && now >= c->kill_at) {
		kill(c->pid, SIGKILL);
		c->kill_stage = 3;
	}
}

void
bt_child_release(struct bt_child *c)
{
	if (c->go_fd >= 0)
		close(c->go_fd);
	if (c->err_fd >= 0)
		close(c->err_fd);
	c->go_fd = c->err_fd = -1;
}
