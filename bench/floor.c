/*
 * The timer floor (issue 30): what "the kernel takes a cpu-clock sample at
 * N Hz" costs a program on this machine before any recorder does anything.
 * Runs CMD under per-CPU cpu-clock events opened as benchtui opens them
 * (core/record/events.c: the command's pid, inherited by its threads and
 * children, enabled at exec, CLOCK_MONOTONIC timestamps), and reports the
 * wall time and the CPU time (user + system, the command and its reaped
 * children) of the run:
 *
 *   floor none CMD...          no event: the bare run (or a recorder run
 *                              the same way: floor none benchtui ...)
 *   floor drop HZ CMD...       sampling, no ring buffer: each sample is
 *                              taken (the hrtimer interrupt, the sample
 *                              prepared) and dropped by the kernel, which
 *                              finds nowhere to write it: the floor
 *   floor ring HZ CMD...       a ring buffer nobody reads, sized so that
 *                              nothing is lost: the floor plus the write
 *   floor stack HZ CMD...      the same with benchtui's default samples
 *                              (call chain, 3 user registers, a 512-byte
 *                              stack copy): plus the copy
 *
 * Prints "wall_s cpu_s samples lost" on standard output (samples and lost
 * counted in the rings; "- -" when there are none). Linux only; needs the
 * right to sample the command (perf_event_paranoid).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#define MAXCPU 256

/* benchtui's hybrid default (core/unwind/unwind.h): bp, sp, ip. */
#define STACK_REGS ((1ULL << 6) | (1ULL << 7) | (1ULL << 8))

static void
die(const char *what)
{
	fprintf(stderr, "floor: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* The records in one ring: samples and lost samples. */
static void
count(struct perf_event_mmap_page *pg, size_t size, long *samples, long *lost)
{
	const unsigned char *data = (const unsigned char *)pg + pg->data_offset;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), at;

	for (at = pg->data_tail; at < head;) {
		struct perf_event_header h;
		size_t o = at % size, n = sizeof(h);
		uint64_t v[2];

		if (o + n <= size)
			memcpy(&h, data + o, n);
		else {
			memcpy(&h, data + o, size - o);
			memcpy((char *)&h + (size - o), data, n - (size - o));
		}
		if (h.size == 0)
			break;
		if (h.type == PERF_RECORD_SAMPLE)
			(*samples)++;
		else if (h.type == PERF_RECORD_LOST) {
			size_t p = (o + n) % size, k;

			for (k = 0; k < sizeof(v); k++)
				((unsigned char *)v)[k] = data[(p + k) % size];
			*lost += (long)v[1];
		}
		at += h.size;
	}
}

int
main(int argc, char **argv)
{
	int mode, go[2], fd[MAXCPU], ncpu, i, st;
	void *ring[MAXCPU];
	unsigned hz = 0;
	long samples = 0, lost = 0, pages;
	size_t size = 0;
	double t0, t1;
	struct rusage ru;
	pid_t pid;
	char c = 0;

	if (argc < 3)
		goto usage;
	if (strcmp(argv[1], "none") == 0)
		mode = 0;
	else if (strcmp(argv[1], "drop") == 0)
		mode = 1;
	else if (strcmp(argv[1], "ring") == 0)
		mode = 2;
	else if (strcmp(argv[1], "stack") == 0)
		mode = 3;
	else
		goto usage;
	argv += 2;
	if (mode != 0) {
		hz = (unsigned)atoi(argv[0]);
		if (hz == 0 || argv[1] == NULL)
			goto usage;
		argv++;
	}
	/* 16 MiB a CPU: 27 s of one thread's 48-byte samples at 4 kHz on
	 * one CPU, 8 s of 500-byte stack samples; the count says if not */
	pages = mode == 3 ? 4096 : 1024;
	size = (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
	ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu > MAXCPU)
		ncpu = MAXCPU;

	if (pipe(go) < 0)
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		int fdn = open("/dev/null", 1);

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		close(go[0]);
		dup2(fdn, 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(go[0]);
	for (i = 0; i < ncpu; i++) {
		struct perf_event_attr a;

		fd[i] = -1;
		ring[i] = NULL;
		if (mode == 0)
			continue;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
		if (mode == 3) {
			a.sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
			    PERF_SAMPLE_STACK_USER;
			a.sample_regs_user = STACK_REGS;
			a.sample_stack_user = 512;
		}
		a.freq = 1;
		a.sample_freq = hz;
		a.disabled = 1;
		a.inherit = 1;
		a.enable_on_exec = 1;
		a.exclude_hv = 1;
		a.use_clockid = 1;
		a.clockid = CLOCK_MONOTONIC;
		fd[i] = (int)syscall(SYS_perf_event_open, &a, pid, i, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd[i] < 0) {
			if (errno == ENODEV || errno == EINVAL)
				continue;	/* an offline CPU */
			die("perf_event_open");
		}
		if (mode >= 2) {
			ring[i] = mmap(NULL, size + (size_t)sysconf(_SC_PAGESIZE),
			    PROT_READ | PROT_WRITE, MAP_SHARED, fd[i], 0);
			if (ring[i] == MAP_FAILED)
				die("mmap");
		}
	}
	t0 = now();
	if (write(go[1], &c, 1) != 1)
		die("write");
	close(go[1]);
	if (wait4(pid, &st, 0, &ru) < 0)
		die("wait4");
	t1 = now();
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "floor: '%s' failed\n", argv[0]);
		return 2;
	}
	for (i = 0; i < ncpu; i++)
		if (ring[i] != NULL)
			count(ring[i], size, &samples, &lost);
	printf("%.4f %.4f", t1 - t0, (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	if (mode >= 2)
		printf(" %ld %ld\n", samples, lost);
	else
		printf(" - -\n");
	return 0;
usage:
	fprintf(stderr, "usage: floor none CMD...\n"
	    "       floor drop|ring|stack HZ CMD...\n");
	return 1;
}
