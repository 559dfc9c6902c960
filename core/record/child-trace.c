/*
 * Holding the command at its exit (docs/jit.md "Code copied at exit"):
 * benchtui, its parent, seizes it before its exec (PTRACE_SEIZE: no
 * extra SIGTRAP at the exec) with only PTRACE_O_TRACEEXIT (no other
 * thread, no child process, no exec or syscall stops), so that when it exits its address space is still there
 * for the copy of its JIT code. Every other stop is passed on at once:
 * a signal is delivered as it would have been, a group stop (Ctrl-Z)
 * stays stopped.
 */
#include <errno.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "base.h"
#include "record/record-int.h"

int
bt_child_seize(struct bt_child *c)
{
	if (c->pid <= 0)
		return -ESRCH;
	if (ptrace(PTRACE_SEIZE, c->pid, NULL,
	    (void *)(long)PTRACE_O_TRACEEXIT) != 0)
		return -errno;
	c->traced = true;
	return 0;
}

bool
bt_child_trace_stop(struct bt_child *c, int status)
{
	int sig = WSTOPSIG(status), event = status >> 16;

	if (event == PTRACE_EVENT_EXIT) {
		c->at_exit = true;
		return true;
	}
	if (event == PTRACE_EVENT_STOP) {
		/* a group stop: stay stopped until SIGCONT, as untraced */
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		    sig == SIGTTOU)
			ptrace(PTRACE_LISTEN, c->pid, NULL, NULL);
		else
			ptrace(PTRACE_CONT, c->pid, NULL, NULL);
		return false;
	}
	/* a signal on its way: deliver it */
	ptrace(PTRACE_CONT, c->pid, NULL, (void *)(long)sig);
	return false;
}

void
bt_child_detach(struct bt_child *c)
{
	if (c->traced && c->pid > 0)
		ptrace(PTRACE_DETACH, c->pid, NULL, NULL);
	c->traced = false;
	c->at_exit = false;
}
