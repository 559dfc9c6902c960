/*
 * The recorder's parts (DESIGN.md §1 "record"), each testable alone:
 * events.c opens the sampling event on every CPU, ring.c maps and drains
 * the ring buffers, child.c runs the command (fork, exec handshake, kill
 * escalation), record.c puts them together and writes the file.
 */
#ifndef BENCHTUI_RECORD_INT_H
#define BENCHTUI_RECORD_INT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base.h"
#include "benchtui/record.h"
#include "perf/sample.h"

struct bt_error;
struct bt_pd_attr;
struct bt_pd_group;
struct pollfd;

#define BT_REC_MAX_EVENTS 64

/**
 * struct bt_rec_evsel - one event of the list, opened on every CPU
 * @attr: the attr (after the fallbacks, once opened)
 * @name: as perf names it ("cpu-clock", "cycles:u")
 * @leader: the index of its group's leader (its own outside a group)
 * @nr_members: a leader's events, itself included (1: no group)
 * @fixed: the precise_ip level its name fixes, or -1
 * @sample_read: S (its leader's samples carry the group's counts)
 * @mods: its name has modifiers
 * @fds, @ids: one per CPU (@ids from PERF_EVENT_IOC_ID, 0 if unknown)
 * @layout: of its samples
 */
struct bt_rec_evsel {
	struct perf_event_attr attr;
	char name[64];
	size_t leader, nr_members;
	int fixed;
	bool sample_read, mods;
	int *fds;
	uint64_t *ids;
	struct bt_perf_layout layout;
};

/**
 * struct bt_rec_events - the events (-e: one, a list, groups), opened on
 * every online CPU; each CPU's ring is the first event's, the others
 * write into it (bt_rec_events_redirect)
 * @attr: the first event's attr (the kernel accepted, after the fallbacks)
 * @fds, @cpus: the first event's fds, one per CPU, @n of them
 * @name: the event's name ("cpu-clock"), or the list as perf evlist -g
 *        prints it ("{cpu-clock,task-clock}")
 * @note: why it differs from what was asked for, or ""
 * @evs, @nevs: every event, a group's leader then its members
 * @ngroups: groups of more than one event
 * @list: the list as given; @failed: the event the kernel refused
 */
struct bt_rec_events {
	struct perf_event_attr attr;
	int *fds;
	int *cpus;
	size_t n;
	char name[64];
	char note[160];
	struct bt_rec_evsel *evs;
	size_t nevs, ngroups, failed;
	char list[256];
};

/*
 * Open event (NULL: cycles at the highest precise_ip, else cpu-clock) at
 * freq Hz for pid on every CPU, inherited, enabled on exec. event is
 * perf's -e list: names with modifiers, separated by ',', groups in braces
 * ("{cycles,instructions}:S", each member in its leader's group). Variants
 * the kernel refuses are dropped one at a time (precise_ip, build-ids in
 * MMAP2, the monotonic clock, inherit of S groups, kernel samples).
 * Returns 0 or -BT_EINVAL (unknown event), -BT_EPERF (refused; the
 * message names perf_event_paranoid).
 */
int bt_rec_events_open(struct bt_rec_events *ev, const char *event,
		       unsigned freq, enum bt_callgraph cg, unsigned stack_size,
		       pid_t pid, struct bt_error *err);
/* Every event but the first into the first's ring of its CPU (mapped). */
int bt_rec_events_redirect(struct bt_rec_events *ev, struct bt_error *err);
/*
 * The file's attrs (pa[nevs]: names borrowed, ids malloc'ed) and its
 * groups (groups[ngroups], may be NULL); returns how many groups.
 */
size_t bt_rec_events_attrs(const struct bt_rec_events *ev, struct bt_pd_attr *pa,
			   struct bt_pd_group *groups);
/* The list as perf evlist -g prints it, into buf. */
const char *bt_rec_events_list(const struct bt_rec_events *ev, char *buf,
			       size_t len);
/* The layout of the record rec, by its IDENTIFIER (the first event's else). */
const struct bt_perf_layout *bt_rec_events_layout(const struct bt_rec_events *ev,
						  const void *rec);
/*
 * The attr bits of call-graph mode cg (callgraph.c). A kernel that refuses
 * registers and stack (or LBR) gets the frame-pointer chain instead.
 */
void bt_rec_callgraph_attr(struct perf_event_attr *a, enum bt_callgraph cg,
			   unsigned stack_size);
void bt_rec_events_close(struct bt_rec_events *ev);

/**
 * struct bt_ring - one mmap'ed perf ring buffer
 * @base: the control page, then @size bytes of data
 * @id: the event id of its fd (PERF_EVENT_IOC_ID), 0 if unknown
 */
struct bt_ring {
	int fd;
	void *base;
	size_t size;
	size_t pagesz;
	uint64_t id;
};

/*
 * Map a ring of pages data pages for each of fds[0..n); when the
 * locked-memory limit refuses, halve pages down to 1. Returns 0 or
 * -BT_EPERF.
 */
int bt_rings_map(struct bt_ring *rings, const int *fds, size_t n,
		 unsigned pages, struct bt_error *err);
void bt_ring_unmap(struct bt_ring *r);
/* A record as it leaves the ring; non-zero stops the drain and is returned. */
typedef int (*bt_ring_fn)(const struct perf_event_header *rec, void *arg);
/*
 * Hand every complete record of r to fn, in order, then give the space
 * back to the kernel. A record that wraps the ring's end is copied into
 * scratch (at least 65536 bytes). A corrupt header skips to the head.
 */
int bt_ring_drain(struct bt_ring *r, uint8_t *scratch, bt_ring_fn fn, void *arg);

struct bt_probe_hit;

/**
 * struct bt_rec_probe - one uprobe on a harness's phase function (probes.c)
 * @path: the ELF file, @off: the file offset probed
 * @role: enum bt_probe_role, @ret: a return probe
 */
struct bt_rec_probe {
	char *path;
	uint64_t off;
	int role;
	bool ret;
};

/**
 * struct bt_rec_probes - the harness's probes, opened on every CPU
 * @v, @n: the probes found in the program and its libbenchmark
 * @fds, @ids: probe i on CPU c at [i * ncpus + c]; each CPU's probes write
 *             into the ring of its first (@rings)
 * @active: opened: hits are being recorded
 * @note: why there are none although the program has probe points, or ""
 * @note_entry: Go's StopTimer is probed at its entry (no clock call found)
 * @hits: the hits so far; @lost: hits the kernel dropped
 */
struct bt_rec_probes {
	struct bt_rec_probe v[64];
	size_t n, ncpus;
	int *fds;
	uint64_t *ids;
	struct bt_ring *rings;
	bool active, note_entry;
	int err;
	char note[160];
	BT_VEC(struct bt_probe_hit) hits;
	uint64_t lost;
	pid_t pid;			/* the command */
	BT_VEC(pid_t) pids;		/* its descendants (FORK records) */
};

/*
 * Find the probe points of argv[0] (a Google Benchmark, go test or
 * criterion program: docs/benchmarks.md) and open them for pid on the
 * CPUs given, inherited, enabled on exec. Nothing found or refused: no
 * probes (pr->note says why when refused).
 */
void bt_rec_probes_open(struct bt_rec_probes *pr, char *const *argv, pid_t pid,
			const int *cpus, size_t ncpus);
/* A process forked: its hits are the command's when its parent's are. */
void bt_rec_probes_fork(struct bt_rec_probes *pr, pid_t parent, pid_t child);
/*
 * The probes' rings to poll (a wakeup every 1000 hits, so that a harness
 * pausing every iteration does not fill them between two ticks): at most
 * max into pfd; how many.
 */
size_t bt_rec_probes_poll(const struct bt_rec_probes *pr, struct pollfd *pfd, size_t max);
/* Move what the rings hold into pr->hits (the command's own). */
void bt_rec_probes_drain(struct bt_rec_probes *pr, uint8_t *scratch);
/* Unmap and close (the hits stay); _release frees everything. */
void bt_rec_probes_close(struct bt_rec_probes *pr);
void bt_rec_probes_release(struct bt_rec_probes *pr);

/**
 * struct bt_child - the command, forked and waiting to exec
 * @pid: its pid
 * @go_fd: closing (writing) it lets the child exec
 * @err_fd: the child writes errno here when exec fails (close-on-exec)
 * @kill_stage, @kill_at: where the interrupt escalation is
 * @traced: seized, to be held at exit (child-trace.c)
 * @at_exit: held at its exit: its memory can be read until bt_child_detach()
 */
struct bt_child {
	pid_t pid;
	int go_fd, err_fd;
	int kill_stage;
	double kill_at;
	bool traced, at_exit;
};

/* Fork argv[0] (no shell), stopped before exec. Returns 0 or -BT_EIO. */
int bt_child_fork(struct bt_child *c, char *const *argv, struct bt_error *err);
/* The same, with out_fd and err_fd (>= 0) as its standard output and error. */
int bt_child_fork_out(struct bt_child *c, char *const *argv, int out_fd,
		      int err_fd, struct bt_error *err);
/*
 * Let it exec, and see whether exec worked: 0, or -BT_ENOENT/-BT_EEXEC
 * with the message (the child is reaped).
 */
int bt_child_start(struct bt_child *c, char *const *argv, struct bt_error *err);
/* Has it exited? Non-blocking; fills *status when it has. */
bool bt_child_reap(struct bt_child *c, int *status);
/* Kill and reap it (setting up failed). */
void bt_child_kill(struct bt_child *c);
/*
 * One step of stopping it after benchtui got sig (SIGINT: the terminal
 * sent it to the child too): sig itself, SIGTERM after 1 s, SIGKILL after
 * 3 s. Call it on every poll wakeup with the time.
 */
void bt_child_interrupt(struct bt_child *c, int sig, double now);
void bt_child_release(struct bt_child *c);
/*
 * Hold it at its exit (started, not yet reaped): ptrace seize of the
 * leader with PTRACE_O_TRACEEXIT only. 0 or -errno (refused: it runs
 * untraced). bt_child_reap() then passes every other stop on, and
 * returns false with @at_exit set when it exits.
 */
int bt_child_seize(struct bt_child *c);
/* A stop of the traced child (bt_child_reap): true when it is the exit. */
bool bt_child_trace_stop(struct bt_child *c, int status);
/* Let it go on (exit); it is reaped as any child. */
void bt_child_detach(struct bt_child *c);

/*
 * How one of the command's streams reaches the file benchtui was given
 * (output.c): PTY and PIPE copy what the child writes into @slave from
 * @master to @copy_fd; FILE leaves the child the user's descriptor and
 * reads the file back (@file_fd from @pos, @master an inotify descriptor
 * that wakes the loop); NONE leaves the child the user's descriptor, not
 * read.
 */
enum bt_rec_mode { BT_OUT_NONE, BT_OUT_PTY, BT_OUT_PIPE, BT_OUT_FILE };

/* One stream; @master, @slave, @out_fd and @file_fd are -1 when closed. */
struct bt_rec_stream {
	enum bt_rec_mode mode;
	int master, slave;
	int copy_fd;	/* benchtui's own descriptor (1 or 2) */
	int out_fd;	/* PTY, PIPE: copy_fd opened again, non-blocking */
	struct bt_strbuf pend;	/* PTY, PIPE: read, not yet copied (from @pend_off) */
	size_t pend_off;
	int file_fd;	/* FILE: the file, opened again for reading */
	off_t pos;	/* FILE: where the command's next byte lands */
	bool shared;	/* stderr: the same file or pipe as stdout (2>&1) */
	const char *unread;	/* not read: what it was ("/dev/null"...), else NULL */
};

/**
 * struct bt_rec_output - the command's standard output and error, read
 * as they are written (output.c): a pty where benchtui's own is a
 * terminal, a pipe where it is a pipe, the file itself where it is a
 * regular file (docs/benchmarks.md "Reading the harness while it runs");
 * kept in @data as chunks "NS LEN\n" (stdout) or "NS LEN 2\n" (stderr) +
 * LEN bytes, NS the CLOCK_MONOTONIC time of the read
 * @s: stdout's and stderr's
 * @bytes: stdout bytes read; @truncated: more than the kept maximum
 */
struct bt_rec_output {
	struct bt_rec_stream s[2];
	struct bt_strbuf data;
	size_t bytes;
	bool truncated;
};

/*
 * Look at benchtui's stdout and stderr and set up each stream; 0, or
 * -BT_EIO when a pty or pipe cannot be opened (that stream then goes
 * straight through, not read).
 */
int bt_output_open(struct bt_rec_output *o, struct bt_error *err);
/* The descriptor the child gets as stream i (0, 1), or -1: its own as is. */
int bt_output_child_fd(const struct bt_rec_output *o, int i);
/* After the fork: the parent's copy of the slave goes. */
void bt_output_parent(struct bt_rec_output *o);
/*
 * The descriptors to wait on (at most max): a stream's master, or where
 * its copy goes while that is full. Returns how many.
 */
size_t bt_output_poll(const struct bt_rec_output *o, struct pollfd *pfd,
		      size_t max);
/* Read and copy what is there (non-blocking); false once no stream can be read. */
bool bt_output_read(struct bt_rec_output *o);
/* The command is gone: read what is left, and copy it all (blocking). */
void bt_output_finish(struct bt_rec_output *o);
void bt_output_release(struct bt_rec_output *o);

#endif
