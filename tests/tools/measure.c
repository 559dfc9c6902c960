/*
 * measure: run a command N times, print the median wall time (s) and the
 * largest peak RSS (KiB) of the command's own process (not its children:
 * for perf record and benchtui that leaves out the benchmark they run).
 *   measure N CMD [ARGS...]     (the command's stdout goes to /dev/null)
 *   measure -c N CMD [ARGS...]  the median CPU time (user + system) instead
 *                               of wall time: on a machine others share, what
 *                               the command itself costs
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	int cpu = argc > 1 && strcmp(argv[1], "-c") == 0;
	int n, i;
	double *t;
	long rss = 0;

	argc -= cpu;
	argv += cpu;
	n = argc > 2 ? atoi(argv[1]) : 0;
	if (n < 1) {
		fprintf(stderr, "usage: measure [-c] N CMD [ARGS...]\n");
		return 1;
	}
	t = calloc((size_t)n, sizeof(*t));
	for (i = 0; i < n; i++) {
		struct timespec a, b;
		struct rusage ru;
		int st;
		pid_t pid;

		clock_gettime(CLOCK_MONOTONIC, &a);
		pid = fork();
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);
			dup2(fd, 1);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (wait4(pid, &st, 0, &ru) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "measure: '%s' failed\n", argv[2]);
			return 2;
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		t[i] = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
		if (cpu)
			t[i] = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
		if (ru.ru_maxrss > rss)
			rss = ru.ru_maxrss;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp);
	printf("%.4f %ld\n", t[n / 2], rss);
	return 0;
}
