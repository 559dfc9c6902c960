/*
 * Phases from the harness's own code (docs/benchmarks.md "Phases from
 * probes"): uprobes through perf_event_open's uprobe PMU on the functions
 * that begin and end a harness's measured phase (Google Benchmark's
 * State::StartKeepRunning, Go's testing.(*B).StartTimer, criterion's
 * Routine::sample...), so that the recording holds when each benchmark
 * measured, on the samples' clock. Each hit is kept as (time, tid, role,
 * one register); benchtui's section of the recording keeps them.
 *
 * A probe costs a trap (1-3 µs). Probes that end a measured phase are
 * placed after the harness has read its clock (a return probe, or Go's
 * StopTimer after its call to time.Since), and those that begin one at
 * the entry, before it reads the clock: the trap falls outside the time
 * the harness measures.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "perf/meta.h"
#include "record/record-int.h"

#define MAX_PROBES 64
#define PROBE_PAGES 256	/* 1 MiB a CPU: ~21,000 hits, ~25 ms of PauseTiming each iteration */

enum match { EXACT, PREFIX, CONTAINS2 };

enum place {
	P_ENTRY,
	P_RETURN,
	P_AFTER_CLOCK,	/* after the function's first call to a clock */
	P_AFTER_MEMSTATS,	/* after its call to runtime.ReadMemStats */
	P_AFTER_CPUTIME,	/* after its call to clock_gettime (GB: both clocks read) */
};

/*
 * The probe points: a role (what the hit means, bt_probe_roles), the
 * symbol (mangled, as the symbol table holds it), and where in it.
 * CONTAINS2: the name holds both a and b (Rust's monomorphized generics).
 */
static const struct point {
	int role;
	enum match m;
	const char *a, *b;
	enum place at;
} points[] = {
	{ BT_PROBE_GB_START, EXACT, "_ZN9benchmark5State16StartKeepRunningEv", NULL, P_ENTRY },
	{ BT_PROBE_GB_FINISH, EXACT, "_ZN9benchmark5State17FinishKeepRunningEv", NULL, P_RETURN },
	{ BT_PROBE_GB_PAUSE, EXACT, "_ZN9benchmark5State11PauseTimingEv", NULL, P_AFTER_CPUTIME },
	{ BT_PROBE_GB_RESUME, EXACT, "_ZN9benchmark5State12ResumeTimingEv", NULL, P_ENTRY },
	{ BT_PROBE_GB_REPORT, PREFIX, "_ZN9benchmark15ConsoleReporter10ReportRuns", NULL, P_ENTRY },
	{ BT_PROBE_GB_REPORT, PREFIX, "_ZN9benchmark12JSONReporter10ReportRuns", NULL, P_ENTRY },
	{ BT_PROBE_GB_REPORT, PREFIX, "_ZN9benchmark11CSVReporter10ReportRuns", NULL, P_ENTRY },
	{ BT_PROBE_GO_RUN1, EXACT, "testing.(*B).run1", NULL, P_ENTRY },
	{ BT_PROBE_GO_RUNN, EXACT, "testing.(*B).runN", NULL, P_ENTRY },
	{ BT_PROBE_GO_LAUNCH, EXACT, "testing.(*B).launch", NULL, P_ENTRY },
	{ BT_PROBE_GO_START, EXACT, "testing.(*B).StartTimer", NULL, P_ENTRY },
	{ BT_PROBE_GO_STOP, EXACT, "testing.(*B).StopTimer", NULL, P_AFTER_CLOCK },
	{ BT_PROBE_GO_STARTED, EXACT, "testing.(*B).StartTimer", NULL, P_AFTER_MEMSTATS },
	{ BT_PROBE_CRIT_COMMON, PREFIX, "_ZN9criterion8analysis6common17h", NULL, P_ENTRY },
	{ BT_PROBE_CRIT_COMMON_END, PREFIX, "_ZN9criterion8analysis6common17h", NULL, P_RETURN },
	{ BT_PROBE_CRIT_SAMPLE, PREFIX, "_ZN9criterion7routine7Routine6sample17h", NULL, P_ENTRY },
	{ BT_PROBE_CRIT_SAMPLE_END, PREFIX, "_ZN9criterion7routine7Routine6sample17h", NULL, P_RETURN },
	{ BT_PROBE_CRIT_WARMUP, CONTAINS2, "criterion..routine..Routine", "7warm_up17h", P_ENTRY },
	{ BT_PROBE_CRIT_WARMUP_END, CONTAINS2, "criterion..routine..Routine", "7warm_up17h", P_RETURN },
};

/* Go's clock calls, after which StopTimer has read the time. */
static const char *const go_clocks[] = {
	"time.Since", "time.Now", "time.runtimeNano", "runtime.nanotime",
	"runtime.nanotime1", NULL,
};

/* What StartTimer does before it reads the clock: a stop-the-world. */
static const char *const go_memstats[] = { "runtime.ReadMemStats", NULL };

/*
 * GB's PauseTiming stops its timer: the real clock
 * (std::chrono::steady_clock::now), then the CPU time (clock_gettime).
 */
static const char *const gb_cputime[] = { "clock_gettime", NULL };

/*
 * The PLT entry through which e calls name (x86-64: .plt.sec's i-th, or
 * .plt's (i + 1)-th 16-byte entry for .rela.plt's i-th slot), 0 if none.
 */
static uint64_t
plt_addr(Elf *e, const char *name)
{
	Elf_Scn *scn = NULL;
	uint64_t plt = 0, plt_sec = 0, slot = UINT64_MAX;
	size_t shstr;

	if (elf_getshdrstrndx(e, &shstr) != 0)
		return 0;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		const char *sn;
		if (gelf_getshdr(scn, &sh) == NULL ||
		    (sn = elf_strptr(e, shstr, sh.sh_name)) == NULL)
			continue;
		if (strcmp(sn, ".plt") == 0)
			plt = sh.sh_addr;
		else if (strcmp(sn, ".plt.sec") == 0)
			plt_sec = sh.sh_addr;
		else if (strcmp(sn, ".rela.plt") == 0 && sh.sh_entsize) {
			Elf_Data *d = elf_getdata(scn, NULL);
			Elf_Scn *dyn = elf_getscn(e, sh.sh_link);
			GElf_Shdr dh;
			Elf_Data *dd = dyn ? elf_getdata(dyn, NULL) : NULL;
			size_t i;
			if (d == NULL || dd == NULL || gelf_getshdr(dyn, &dh) == NULL)
				continue;
			for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
				GElf_Rela r;
				GElf_Sym s;
				const char *n;
				if (gelf_getrela(d, (int)i, &r) == NULL ||
				    gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &s) == NULL ||
				    (n = elf_strptr(e, dh.sh_link, s.st_name)) == NULL)
					continue;
				if (strcmp(n, name) == 0) {
					slot = i;
					break;
				}
			}
		}
	}
	if (slot == UINT64_MAX)
		return 0;
	return plt_sec ? plt_sec + 16 * slot : plt ? plt + 16 * (slot + 1) : 0;
}

static bool
point_matches(const struct point *pt, const char *name)
{
	switch (pt->m) {
	case EXACT:
		return strcmp(name, pt->a) == 0;
	case PREFIX:
		return strncmp(name, pt->a, strlen(pt->a)) == 0;
	case CONTAINS2:
		return strstr(name, pt->a) != NULL && strstr(name, pt->b) != NULL;
	}
	return false;
}

/* The file offset of virtual address addr (a PT_LOAD holding it), 0 when none. */
static uint64_t
addr_to_off(Elf *e, uint64_t addr)
{
	size_t n, i;
	GElf_Phdr ph;

	if (elf_getphdrnum(e, &n) != 0)
		return 0;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(e, (int)i, &ph) != NULL && ph.p_type == PT_LOAD &&
		    addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_filesz)
			return addr - ph.p_vaddr + ph.p_offset;
	return 0;
}

/*
 * Each defined function symbol of e, to fn until it returns true: the
 * full symbol table when there is one, else the dynamic one.
 */
static void
each_func(Elf *e, bool (*fn)(Elf *e, const char *name, const GElf_Sym *s, void *arg),
	  void *arg)
{
	Elf_Scn *scn = NULL;
	bool symtab = false;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type == SHT_SYMTAB)
			symtab = true;
	}
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    sh.sh_type != (symtab ? SHT_SYMTAB : SHT_DYNSYM) ||
		    sh.sh_entsize == 0 || (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Sym s;
			const char *sn;
			if (gelf_getsym(d, (int)i, &s) == NULL || s.st_value == 0 ||
			    GELF_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF ||
			    (sn = elf_strptr(e, sh.sh_link, s.st_name)) == NULL)
				continue;
			if (fn(e, sn, &s, arg))
				return;
		}
	}
}

struct lookup {
	const char *name;
	uint64_t addr;
};

static bool
lookup_one(Elf *e, const char *name, const GElf_Sym *s, void *arg)
{
	struct lookup *l = arg;

	(void)e;
	if (strcmp(name, l->name) != 0)
		return false;
	l->addr = s->st_value;
	return true;
}

/* The address of the function called name in e's symbols, 0 if none. */
static uint64_t
sym_addr(Elf *e, const char *name)
{
	struct lookup l = { name, 0 };

	each_func(e, lookup_one, &l);
	return l.addr;
}

/*
 * The instruction after the function's first call (e8 rel32) to one of
 * callees (Go's StopTimer after it read the clock), 0 when none is found
 * (another architecture, or the callee inlined).
 */
static uint64_t
after_call(Elf *e, int fd, uint64_t addr, uint64_t size, const char *const *callees)
{
	uint64_t targets[8], off = addr_to_off(e, addr), k;
	unsigned char code[1024];
	size_t nt = 0, i;
	ssize_t got;
	GElf_Ehdr eh;

	if (gelf_getehdr(e, &eh) == NULL || eh.e_machine != EM_X86_64 || off == 0)
		return 0;
	for (i = 0; callees[i] != NULL && nt < BT_ARRAY_SIZE(targets); i++) {
		if ((targets[nt] = sym_addr(e, callees[i])) != 0)
			nt++;
		if (nt < BT_ARRAY_SIZE(targets) && (targets[nt] = plt_addr(e, callees[i])) != 0)
			nt++;
	}
	size = BT_MIN(size, sizeof(code));
	got = pread(fd, code, (size_t)size, (off_t)off);
	if (got < 5)
		return 0;
	for (k = 0; k + 5 <= (uint64_t)got; k++) {
		int32_t rel;
		uint64_t to;
		if (code[k] != 0xe8)
			continue;
		memcpy(&rel, code + k + 1, 4);
		to = addr + k + 5 + (uint64_t)(int64_t)rel;
		for (i = 0; i < nt; i++)
			if (to == targets[i])
				return addr + k + 5;
	}
	return 0;
}

static int
uprobe_pmu(unsigned *retbit)
{
	char buf[64];
	int fd, type = -1;
	ssize_t n;

	*retbit = 0;
	fd = open("/sys/bus/event_source/devices/uprobe/type", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0) {
		buf[n] = '\0';
		type = atoi(buf);
	}
	fd = open("/sys/bus/event_source/devices/uprobe/format/retprobe", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 7 && memcmp(buf, "config:", 7) == 0) {
			buf[n] = '\0';
			*retbit = (unsigned)atoi(buf + 7);
		}
	}
	return type;
}

static void
add_probe(struct bt_rec_probes *pr, const char *path, uint64_t off, int role,
	  bool ret)
{
	struct bt_rec_probe *p;
	size_t i;

	if (pr->n >= MAX_PROBES || off == 0)
		return;
	for (i = 0; i < pr->n; i++)
		if (pr->v[i].off == off && pr->v[i].ret == ret &&
		    strcmp(pr->v[i].path, path) == 0)
			return;
	p = &pr->v[pr->n++];
	p->path = bt_xstrdup(path);
	p->off = off;
	p->role = role;
	p->ret = ret;
}

struct scan {
	struct bt_rec_probes *pr;
	const char *path;
	int fd;
};

/* A function symbol that is a probe point: its probes. */
static bool
scan_sym(Elf *e, const char *name, const GElf_Sym *s, void *arg)
{
	struct scan *sc = arg;
	size_t k;

	for (k = 0; k < BT_ARRAY_SIZE(points); k++) {
		const struct point *pt = &points[k];
		uint64_t at = s->st_value;

		if (!point_matches(pt, name))
			continue;
		if (pt->at == P_AFTER_CLOCK &&
		    (at = after_call(e, sc->fd, s->st_value, s->st_size, go_clocks)) == 0) {
			sc->pr->note_entry = true;
			at = s->st_value;
		}
		if (pt->at == P_AFTER_CPUTIME &&
		    (at = after_call(e, sc->fd, s->st_value, s->st_size, gb_cputime)) == 0) {
			sc->pr->note_entry = true;
			at = s->st_value;
		}
		if (pt->at == P_AFTER_MEMSTATS &&
		    (at = after_call(e, sc->fd, s->st_value, s->st_size, go_memstats)) == 0)
			continue;	/* the timer starts at the entry's hit */
		add_probe(sc->pr, sc->path, addr_to_off(e, at), pt->role, pt->at == P_RETURN);
	}
	return false;
}

/* The probe points of one ELF file. */
static void
scan_file(struct bt_rec_probes *pr, const char *path)
{
	struct scan sc = { pr, path, open(path, O_RDONLY | O_CLOEXEC) };
	Elf *e;

	if (sc.fd < 0)
		return;
	e = elf_begin(sc.fd, ELF_C_READ, NULL);
	if (e != NULL) {
		each_func(e, scan_sym, &sc);
		elf_end(e);
	}
	close(sc.fd);
}

/* The path execvp would run, into buf; false when none. */
static bool
find_program(const char *name, char *buf, size_t size)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(name, '/') != NULL) {
		snprintf(buf, size, "%s", name);
		return access(buf, X_OK) == 0;
	}
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		snprintf(buf, size, "%.*s/%s", (int)n, n ? p : ".", name);
		if (access(buf, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/*
 * The libraries of e that may hold a harness (libbenchmark*): found in its
 * RUNPATH/RPATH ($ORIGIN is the program's directory), LD_LIBRARY_PATH and
 * the system's directories, as the loader looks.
 */
static void
scan_needed(struct bt_rec_probes *pr, const char *prog)
{
	static const char *const sysdirs[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
		"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
		"/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib", NULL,
	};
	char dirs[4096] = "", origin[1024], lib[1200];
	const char *needed[16];
	size_t nn = 0, i;
	int fd = open(prog, O_RDONLY | O_CLOEXEC);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	Elf_Scn *scn = NULL;
	char *slash;

	snprintf(origin, sizeof(origin), "%s", prog);
	slash = strrchr(origin, '/');
	if (slash != NULL)
		*slash = '\0';
	while (e != NULL && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Dyn dyn;
		size_t k;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_DYNAMIC ||
		    (d = elf_getdata(scn, NULL)) == NULL || sh.sh_entsize == 0)
			continue;
		for (k = 0; k < sh.sh_size / sh.sh_entsize && gelf_getdyn(d, (int)k, &dyn); k++) {
			const char *v;
			if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RUNPATH && dyn.d_tag != DT_RPATH)
				continue;
			if ((v = elf_strptr(e, sh.sh_link, dyn.d_un.d_val)) == NULL)
				continue;
			if (dyn.d_tag == DT_NEEDED) {
				if (strncmp(v, "libbenchmark", 12) == 0 && nn < BT_ARRAY_SIZE(needed))
					needed[nn++] = v;
			} else {
				size_t l = strlen(dirs);
				snprintf(dirs + l, sizeof(dirs) - l, "%s%s", l ? ":" : "", v);
			}
		}
	}
	if (getenv("LD_LIBRARY_PATH") != NULL) {
		size_t l = strlen(dirs);
		snprintf(dirs + l, sizeof(dirs) - l, "%s%s", l ? ":" : "",
		    getenv("LD_LIBRARY_PATH"));
	}
	for (i = 0; i < nn; i++) {
		const char *p = dirs;
		bool found = false;
		size_t k;

		while (*p && !found) {
			size_t n = strcspn(p, ":");
			if (n >= 7 && strncmp(p, "$ORIGIN", 7) == 0)
				snprintf(lib, sizeof(lib), "%s%.*s/%s", origin,
				    (int)(n - 7), p + 7, needed[i]);
			else
				snprintf(lib, sizeof(lib), "%.*s/%s", (int)n, p, needed[i]);
			found = access(lib, R_OK) == 0;
			p += n + (p[n] == ':');
		}
		for (k = 0; !found && sysdirs[k] != NULL; k++) {
			snprintf(lib, sizeof(lib), "%s/%s", sysdirs[k], needed[i]);
			found = access(lib, R_OK) == 0;
		}
		if (found)
			scan_file(pr, lib);
	}
	if (e != NULL)
		elf_end(e);
	if (fd >= 0)
		close(fd);
}

static long
perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group,
		unsigned long flags)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

/* Open every probe on every CPU, a ring per CPU; false when the kernel refuses. */
static bool
open_probes(struct bt_rec_probes *pr, int type, unsigned retbit,
	    const int *cpus, size_t ncpus)
{
	size_t i, c;

	pr->fds = bt_xcalloc(pr->n * ncpus, sizeof(int));
	pr->ids = bt_xcalloc(pr->n * ncpus, sizeof(uint64_t));
	for (i = 0; i < pr->n * ncpus; i++)
		pr->fds[i] = -1;
	for (i = 0; i < pr->n; i++)
		for (c = 0; c < ncpus; c++) {
			struct perf_event_attr a;
			long fd;

			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.type = (uint32_t)type;
			a.config = pr->v[i].ret ? 1ULL << retbit : 0;
			a.config1 = (uint64_t)(uintptr_t)pr->v[i].path;
			a.config2 = pr->v[i].off;
			a.sample_period = 1;
			a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME;
#if defined(__x86_64__)
			a.sample_type |= PERF_SAMPLE_REGS_USER;
			a.sample_regs_user = 1ULL << 0;	/* PERF_REG_X86_AX: Go's receiver */
#endif
			/*
			 * On every CPU for every process, kept for the command's
			 * own (bt_rec_probes_keep): an inherited uprobe event is
			 * copied into each new thread by reading its path again
			 * from the new thread's memory, where config1 means
			 * nothing, and the thread's clone fails (EFAULT).
			 */
			a.use_clockid = 1;
			a.clockid = CLOCK_MONOTONIC;
			a.wakeup_events = 1000;
			fd = perf_event_open(&a, -1, cpus[c], -1, PERF_FLAG_FD_CLOEXEC);
			if (fd < 0) {
				pr->err = errno;
				return false;
			}
			pr->fds[i * ncpus + c] = (int)fd;
			if (ioctl((int)fd, PERF_EVENT_IOC_ID, &pr->ids[i * ncpus + c]) < 0)
				pr->ids[i * ncpus + c] = 0;
		}
	return true;
}

/* Every probe of a CPU into the ring of its first (mapped before). */
static bool
share_rings(struct bt_rec_probes *pr)
{
	size_t i, c;

	for (i = 1; i < pr->n; i++)
		for (c = 0; c < pr->ncpus; c++)
			if (ioctl(pr->fds[i * pr->ncpus + c], PERF_EVENT_IOC_SET_OUTPUT,
			    pr->fds[c]) < 0) {
				pr->err = errno;
				return false;
			}
	return true;
}

void
bt_rec_probes_open(struct bt_rec_probes *pr, char *const *argv, pid_t pid,
		   const int *cpus, size_t ncpus)
{
	char prog[1024];
	unsigned retbit;
	int type;
	struct bt_error err;

	memset(pr, 0, sizeof(*pr));
	pr->ncpus = ncpus;
	pr->pid = pid;
	if (elf_version(EV_CURRENT) == EV_NONE || !find_program(argv[0], prog, sizeof(prog)))
		return;
	scan_file(pr, prog);
	scan_needed(pr, prog);
	if (pr->n == 0)
		return;
	if ((type = uprobe_pmu(&retbit)) < 0) {
		snprintf(pr->note, sizeof(pr->note), "no uprobe PMU in this kernel "
		    "(/sys/bus/event_source/devices/uprobe)");
		goto fail;
	}
	if (!open_probes(pr, type, retbit, cpus, ncpus)) {
		snprintf(pr->note, sizeof(pr->note), "the kernel refused the "
		    "harness's probes (%s)", strerror(pr->err));
		goto fail;
	}
	pr->rings = bt_xcalloc(ncpus, sizeof(*pr->rings));
	if (bt_rings_map(pr->rings, pr->fds, ncpus, PROBE_PAGES, &err) < 0) {
		FREE_AND_NULL(pr->rings);
		snprintf(pr->note, sizeof(pr->note), "no ring for the harness's probes");
		goto fail;
	}
	if (!share_rings(pr)) {
		snprintf(pr->note, sizeof(pr->note), "the harness's probes cannot "
		    "share a ring (%s)", strerror(pr->err));
		goto fail;
	}
	pr->active = true;
	return;
fail:
	bt_rec_probes_close(pr);
	pr->n = 0;
}

static bool
pid_known(const struct bt_rec_probes *pr, pid_t pid)
{
	size_t i;

	for (i = 0; i < pr->pids.n; i++)
		if (pr->pids.v[i] == pid)
			return true;
	return false;
}

void
bt_rec_probes_fork(struct bt_rec_probes *pr, pid_t parent, pid_t child)
{
	if (pr->active && child != parent &&
	    (parent == pr->pid || pid_known(pr, parent)) && !pid_known(pr, child))
		BT_VEC_PUSH(pr->pids, child);
}

/* One record of a probe ring: a hit of the command's kept, a loss counted. */
static int
take_hit(const struct perf_event_header *h, void *arg)
{
	struct bt_rec_probes *pr = arg;
	const uint64_t *u = (const void *)(h + 1);
	size_t words = (h->size - sizeof(*h)) / 8, i;
	struct bt_probe_hit hit;

	if (h->type == PERF_RECORD_LOST && words >= 2) {
		pr->lost += u[1];
		return 0;
	}
	if (h->type != PERF_RECORD_SAMPLE || words < 3)
		return 0;
	memset(&hit, 0, sizeof(hit));
	for (i = 0; i < pr->n * pr->ncpus; i++)
		if (pr->ids[i] == u[0])
			break;
	if (i == pr->n * pr->ncpus)
		return 0;
	hit.role = (uint16_t)pr->v[i / pr->ncpus].role;
	hit.pad = 0;
	hit.tid = (uint32_t)(u[1] >> 32);
	if ((pid_t)(uint32_t)u[1] != pr->pid && !pid_known(pr, (pid_t)(uint32_t)u[1]))
		return 0;
	hit.time = u[2];
	if (words >= 5 && u[3] != 0)	/* regs: abi, then AX */
		hit.arg = u[4];
	BT_VEC_PUSH(pr->hits, hit);
	return 0;
}

size_t
bt_rec_probes_poll(const struct bt_rec_probes *pr, struct pollfd *pfd, size_t max)
{
	size_t c, n = 0;

	if (!pr->active)
		return 0;
	for (c = 0; c < pr->ncpus && n < max; c++) {	/* each CPU's ring: its first probe's */
		pfd[n].fd = pr->fds[c];
		pfd[n].events = POLLIN;
		n++;
	}
	return n;
}

void
bt_rec_probes_drain(struct bt_rec_probes *pr, uint8_t *scratch)
{
	size_t c;

	if (!pr->active)
		return;
	for (c = 0; c < pr->ncpus; c++)
		bt_ring_drain(&pr->rings[c], scratch, take_hit, pr);
}

static int
int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * Close the probes' n descriptors. The last close of a uprobe event waits
 * for the kernel to unregister it (~80 ms each on 6.18: 4.7 s for a
 * criterion run's 56), so a detached process of its own (double fork,
 * its own session, every other descriptor closed first: no pipe or
 * terminal is held open by it) makes the last closes while benchtui's
 * own are only references dropped. Without a fork, they are made here.
 */
static void
close_probe_fds(int *fds, size_t n)
{
	pid_t pid;
	size_t i;

	qsort(fds, n, sizeof(*fds), int_cmp);
	pid = n > 1 ? fork() : -1;
	if (pid == 0) {
		if (fork() == 0) {
			unsigned lo = 0;

			setsid();
			for (i = 0; i < n; i++) {
				if (fds[i] < 0)
					continue;
				if ((unsigned)fds[i] > lo)
					close_range(lo, (unsigned)fds[i] - 1, 0);
				lo = (unsigned)fds[i] + 1;
			}
			close_range(lo, ~0U, 0);
			for (i = 0; i < n; i++)
				if (fds[i] >= 0)
					close(fds[i]);
		}
		_exit(0);
	}
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
}

void
bt_rec_probes_close(struct bt_rec_probes *pr)
{
	size_t i;

	if (pr->rings != NULL)
		for (i = 0; i < pr->ncpus; i++)
			bt_ring_unmap(&pr->rings[i]);
	FREE_AND_NULL(pr->rings);
	if (pr->fds != NULL)
		close_probe_fds(pr->fds, pr->n * pr->ncpus);
	FREE_AND_NULL(pr->fds);
	FREE_AND_NULL(pr->ids);
	pr->active = false;
}

void
bt_rec_probes_release(struct bt_rec_probes *pr)
{
	size_t i;

	bt_rec_probes_close(pr);
	for (i = 0; i < pr->n; i++)
		free(pr->v[i].path);
	pr->n = 0;
	BT_VEC_FREE(pr->hits);
	BT_VEC_FREE(pr->pids);
}
