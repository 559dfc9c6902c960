/*
 * unwind-record: record a command with a chosen call-chain attr into a
 * perf.data (the hybrid of docs/callchains.md, which perf record cannot
 * ask for: its DWARF mode drops the user frame-pointer chain). A test
 * and measuring tool, not the recorder: cpu-clock, one ring per CPU,
 * inherit and enable_on_exec as core/record does.
 *   unwind-record [-F HZ] [-g] [-s STACK] [-r MASK] [-o FILE] CMD [ARGS...]
 *     -g        PERF_SAMPLE_CALLCHAIN (kernel and user frame-pointer chain)
 *     -s STACK  REGS_USER and STACK_USER of STACK bytes (0: neither)
 *     -r MASK   sample_regs_user in hex (default: bp, sp, ip; "all": perf's)
 * Prints "samples N bytes B wall S" on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "perf/perfdata.h"
#include "unwind/unwind.h"

#define PAGES 256

struct ring {
	int fd;
	void *base;
	size_t size;
	uint64_t id;
};

static struct ring rings[1024];
static size_t nrings;
static size_t pagesz;
static uint8_t scratch[1 << 17];
static uint64_t nsamples;

static void
die(const char *msg)
{
	fprintf(stderr, "unwind-record: %s: %s\n", msg, strerror(errno));
	exit(2);
}

static void
drain(struct bt_pd_writer *w)
{
	size_t i;
	struct bt_error err = { 0 };

	for (i = 0; i < nrings; i++) {
		struct perf_event_mmap_page *mp = rings[i].base;
		const uint8_t *data = (const uint8_t *)rings[i].base + pagesz;
		uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
		uint64_t tail = mp->data_tail;

		while (tail < head) {
			size_t off = (size_t)(tail % rings[i].size);
			struct perf_event_header h;
			const uint8_t *rec;

			if (off + sizeof(h) <= rings[i].size)
				memcpy(&h, data + off, sizeof(h));
			else {
				size_t first = rings[i].size - off;
				memcpy(&h, data + off, first);
				memcpy((uint8_t *)&h + first, data, sizeof(h) - first);
			}
			if (h.size < sizeof(h) || h.size > head - tail)
				break;
			if (off + h.size <= rings[i].size)
				rec = data + off;
			else {
				size_t first = rings[i].size - off;
				memcpy(scratch, data + off, first);
				memcpy(scratch + first, data, h.size - first);
				rec = scratch;
			}
			if (h.type == PERF_RECORD_SAMPLE)
				nsamples++;
			if (bt_pd_write(w, rec, h.size, &err)) {
				fprintf(stderr, "unwind-record: %s\n", err.msg);
				exit(2);
			}
			tail += h.size;
		}
		__atomic_store_n(&mp->data_tail, head, __ATOMIC_RELEASE);
	}
}

int
main(int argc, char **argv)
{
	struct perf_event_attr a;
	struct bt_pd_attr pa;
	struct bt_pd_features f;
	struct bt_pd_writer *w;
	struct bt_error err = { 0 };
	const char *out = "unwind.data";
	unsigned freq = 4000, stack = 0;
	uint64_t mask = BT_UNWIND_REGS_HYBRID;
	bool chain = false;
	int go[2], opt, status = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), c;
	uint64_t ids[1024];
	struct timespec t0, t1;
	pid_t pid;
	char c1 = 'g';

	while ((opt = getopt(argc, argv, "+F:gs:r:o:")) != -1) {
		switch (opt) {
		case 'F': freq = (unsigned)atoi(optarg); break;
		case 'g': chain = true; break;
		case 's': stack = (unsigned)atoi(optarg); break;
		case 'r':
			mask = strcmp(optarg, "all") == 0 ? BT_UNWIND_REGS_ALL :
			    strtoull(optarg, NULL, 16);
			break;
		case 'o': out = optarg; break;
		default:
			fprintf(stderr, "usage: unwind-record [-F HZ] [-g] [-s STACK] [-r MASK] [-o FILE] CMD...\n");
			return 1;
		}
	}
	if (optind >= argc)
		return 1;
	pagesz = (size_t)sysconf(_SC_PAGESIZE);

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (chain)
		a.sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (stack) {
		a.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a.sample_regs_user = mask;
		a.sample_stack_user = stack;
	}
	a.freq = 1;
	a.sample_freq = freq;
	a.disabled = 1;
	a.inherit = 1;
	a.enable_on_exec = 1;
	a.mmap = 1;
	a.mmap2 = 1;
	a.comm = 1;
	a.comm_exec = 1;
	a.task = 1;
	a.sample_id_all = 1;
	a.exclude_hv = 1;
	a.watermark = 1;
	a.wakeup_watermark = PAGES * pagesz / 4;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.build_id = 1;		/* MMAP2 records carry the build-id (Linux 5.12) */

	if (pipe2(go, O_CLOEXEC) < 0)
		die("pipe");
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		while (read(go[0], &c1, 1) < 0 && errno == EINTR)
			;
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	close(go[0]);
	for (c = 0; c < ncpu && c < 1024; c++) {
		long fd = syscall(SYS_perf_event_open, &a, pid, (int)c, -1,
		    PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && errno == EINVAL && a.build_id) {
			a.build_id = 0;
			fd = syscall(SYS_perf_event_open, &a, pid, (int)c, -1,
			    PERF_FLAG_FD_CLOEXEC);
		}
		if (fd < 0) {
			kill(pid, SIGKILL);
			die("perf_event_open");
		}
		rings[nrings].fd = (int)fd;
		rings[nrings].size = PAGES * pagesz;
		rings[nrings].base = mmap(NULL, rings[nrings].size + pagesz,
		    PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
		if (rings[nrings].base == MAP_FAILED) {
			kill(pid, SIGKILL);
			die("mmap");
		}
		ioctl((int)fd, PERF_EVENT_IOC_ID, &ids[nrings]);
		nrings++;
	}
	memset(&pa, 0, sizeof(pa));
	pa.attr = a;
	pa.name = (char *)"cpu-clock";
	pa.ids = ids;
	pa.nids = nrings;
	w = bt_pd_create(out, &pa, 1, &err);
	if (w == NULL) {
		fprintf(stderr, "unwind-record: %s\n", err.msg);
		kill(pid, SIGKILL);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (write(go[1], &c1, 1) != 1)
		die("write");
	close(go[1]);
	for (;;) {
		struct pollfd pfd[1024];
		size_t i;

		for (i = 0; i < nrings; i++) {
			pfd[i].fd = rings[i].fd;
			pfd[i].events = POLLIN;
		}
		poll(pfd, nrings, 100);
		drain(w);
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	drain(w);
	memset(&f, 0, sizeof(f));
	f.arch = "x86_64";
	f.version = "unwind-record";
	f.nr_cpus_online = f.nr_cpus_avail = (uint32_t)ncpu;
	f.cmdline = argv + optind;
	if (bt_pd_finish(w, &f, &err)) {
		fprintf(stderr, "unwind-record: %s\n", err.msg);
		return 2;
	}
	{
		struct stat st;
		stat(out, &st);
		fprintf(stderr, "samples %" PRIu64 " bytes %lld wall %.3f\n", nsamples,
		    (long long)st.st_size, (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
