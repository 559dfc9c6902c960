/*
 * One process's address space for unwinding (unwind.h): a libdwfl
 * session that outlives the samples, told about each module the first
 * time a frame falls in it, as the machine says it was mapped at the
 * sample's time; the process's memory as a sample shows it (its stack
 * copy) or its files do; the Dwfl_Thread_Callbacks that hand libdwfl one
 * sample's registers.
 */
#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "machine/machine.h"
#include "unwind/unwind-int.h"

/* DWARF register numbers of x86-64 (0..16, 16 the return address) from perf's. */
static const signed char dwarf_to_perf[17] = {
	BT_REG_AX, BT_REG_DX, BT_REG_CX, BT_REG_BX, BT_REG_SI, BT_REG_DI,
	BT_REG_BP, BT_REG_SP, BT_REG_R8, BT_REG_R9, BT_REG_R10, BT_REG_R11,
	BT_REG_R12, BT_REG_R13, BT_REG_R14, BT_REG_R15, BT_REG_IP,
};

/*
 * No separate debug files: libdwfl would look for one (and decompress all
 * of its DWARF: tens of ms for libc, per process) only to read
 * .debug_frame where .eh_frame has no FDE, which on x86-64 is code
 * without CFI at all. A .debug_frame in the module itself is still used.
 */
static int
no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
	     Dwarf_Addr base, const char *file_name, const char *debuglink_file,
	     GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	return -1;
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct bt_unwind_space *
bt_unwind_space_new(struct bt_machine *m, uint32_t pid)
{
	struct bt_unwind_space *s = bt_xcalloc(1, sizeof(*s));

	s->machine = m;
	s->pid = pid;
	return s;
}

/* Forget the session and what it was told (the modules changed). */
static void
drop_dwfl(struct bt_unwind_space *s)
{
	if (s->dwfl != NULL)
		dwfl_end(s->dwfl);
	s->dwfl = NULL;
	s->attached = false;
	s->regions.n = 0;
	s->mods.n = 0;
	bt_cfi_clear(s);
}

void
bt_unwind_space_free(struct bt_unwind_space *s)
{
	if (s == NULL)
		return;
	drop_dwfl(s);
	BT_VEC_FREE(s->regions);
	BT_VEC_FREE(s->mods);
	bt_cfi_release(s);
	free(s);
}

void
bt_unwind_space_trim(struct bt_unwind_space *s)
{
	drop_dwfl(s);
	BT_VEC_FREE(s->regions);
	BT_VEC_FREE(s->mods);
	bt_cfi_release(s);
}

void
bt_unwind_space_share(struct bt_unwind_space *s, struct bt_unwind_rows *rows)
{
	s->shared = rows;
}

void
bt_unwind_space_set_vdso(struct bt_unwind_space *s, const void *image, size_t len)
{
	drop_dwfl(s);
	s->vdso = image;
	s->vdso_len = image != NULL ? len : 0;
}

void
bt_unwind_space_set_flags(struct bt_unwind_space *s, unsigned flags)
{
	s->flags = flags;
}

const struct bt_unwind_stats *
bt_unwind_space_stats(const struct bt_unwind_space *s)
{
	return &s->stats;
}

/* Mappings, as the machine has them. */

/*
 * What of map can be unwound through: a file (its path), or the vDSO
 * (its image); NULL for anonymous memory, [stack], a memfd...
 */
static const char *
map_path(const struct bt_unwind_space *s, const struct bt_map *map)
{
	const char *path = bt_machine_module(s->machine, map->module)->path;

	if (strcmp(path, "[vdso]") == 0)
		return s->vdso_len ? path : NULL;
	if (path[0] != '/' || strncmp(path, "/memfd:", 7) == 0)
		return NULL;
	return path;
}

static const char *
region_path(const struct bt_unwind_space *s, const struct region *g)
{
	return bt_machine_module(s->machine, g->module)->path;
}

static bool
same(const struct region *g, const struct bt_map *map)
{
	return g->start == map->start && g->end == map->end &&
	    g->pgoff == map->pgoff && g->module == map->module;
}

/* The region holding addr, or where one would go (*at). */
static struct region *
region_at(struct bt_unwind_space *s, uint64_t addr, size_t *at)
{
	size_t lo = 0, hi = s->regions.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->regions.v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	if (lo < s->regions.n && s->regions.v[lo].start <= addr)
		return &s->regions.v[lo];
	return NULL;
}

/*
 * The load bias of the ELF under g: the mapping's start holds file offset
 * pgoff, which the PT_LOAD containing it puts at p_vaddr + (pgoff - p_offset).
 */
static bool
load_bias(Elf *elf, const struct region *g, uint64_t *bias)
{
	GElf_Ehdr eh;
	size_t i, n;

	if (gelf_getehdr(elf, &eh) == NULL || elf_getphdrnum(elf, &n) != 0)
		return false;
	if (eh.e_type == ET_EXEC) {
		*bias = 0;
		return true;
	}
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		uint64_t align;

		if (gelf_getphdr(elf, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		align = ph.p_align > 1 ? ph.p_align : 1;
		/* the mapping starts at the segment's page-aligned offset */
		if (g->pgoff >= (ph.p_offset & ~(align - 1)) &&
		    g->pgoff < ph.p_offset + BT_MAX(ph.p_filesz, 1)) {
			*bias = g->start - (ph.p_vaddr - ph.p_offset + g->pgoff);
			return true;
		}
	}
	return false;
}

/* A descriptor of g's ELF: its file, or the vDSO image in a memfd; -1. */
static int
open_elf(const struct bt_unwind_space *s, const struct region *g)
{
	const char *path = region_path(s, g);
	int fd;

	/* a FIFO, device or /proc file the recording names: never opened */
	if (strcmp(path, "[vdso]") != 0)
		return bt_open_recorded(path);
	fd = memfd_create("bt-unwind-image", MFD_CLOEXEC);
	if (fd >= 0 && write(fd, s->vdso, s->vdso_len) != (ssize_t)s->vdso_len) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Is elf the file g's module was recorded with? (a rebuilt file's CFI would lie) */
static bool
recorded_build(struct bt_unwind_space *s, const struct region *g, Elf *elf)
{
	const struct bt_module *mo = bt_machine_module(s->machine, g->module);
	const void *id;
	ssize_t n;

	if (mo->build_id_size == 0 || strcmp(mo->path, "[vdso]") == 0)
		return true;
	n = dwelf_elf_gnu_build_id(elf, &id);
	if (n == mo->build_id_size && memcmp(id, mo->build_id, (size_t)n) == 0)
		return true;
	s->stats.mismatched++;
	return false;
}

/* Report g's ELF to the Dwfl at its load bias (once per file and bias). */
static void
report(struct bt_unwind_space *s, struct region *g)
{
	const char *path = region_path(s, g), *name = strrchr(path, '/');
	Dwfl_Module *mod;
	void **ud;
	Elf *elf;
	size_t i;
	int fd;

	g->state = RS_FAILED;
	fd = open_elf(s, g);
	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf == NULL || !load_bias(elf, g, &g->bias) || !recorded_build(s, g, elf)) {
		if (elf != NULL)
			elf_end(elf);
		close(fd);
		return;
	}
	elf_end(elf);
	/* another mapping of the same file (segments): one module */
	for (i = 0; i < s->regions.n; i++) {
		struct region *o = &s->regions.v[i];
		if (o != g && o->state == RS_REPORTED && o->bias == g->bias &&
		    strcmp(region_path(s, o), path) == 0) {
			close(fd);
			g->state = RS_REPORTED;
			return;
		}
	}
	/* dwfl_report_elf owns fd on success */
	mod = dwfl_report_elf(s->dwfl, name ? name + 1 : path, path, fd, g->bias,
	    true);
	if (mod == NULL) {
		close(fd);
		return;
	}
	g->state = RS_REPORTED;
	/* which file, at which bias: the rows other processes read of it apply */
	if (dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL) != NULL &&
	    *ud == NULL) {
		struct mod_info mi = { g->module, -1, g->bias };

		BT_VEC_PUSH(s->mods, mi);
		*ud = (void *)(uintptr_t)s->mods.n;
	}
}

struct mod_info *
bt_space_mod_info(struct bt_unwind_space *s, Dwfl_Module *mod)
{
	void **ud;
	uintptr_t i;

	if (dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL) == NULL)
		return NULL;
	i = (uintptr_t)*ud;
	return i >= 1 && i <= s->mods.n ? &s->mods.v[i - 1] : NULL;
}

/* A region for map, reported (unless it overlaps one the Dwfl knows). */
static void
add_region(struct bt_unwind_space *s, const struct bt_map *map)
{
	struct region g;
	size_t at;

	if (map_path(s, map) == NULL || map->end <= map->start)
		return;
	if (region_at(s, map->start, &at) != NULL ||
	    (at < s->regions.n && s->regions.v[at].start < map->end))
		return;
	memset(&g, 0, sizeof(g));
	g.start = map->start;
	g.end = map->end;
	g.pgoff = map->pgoff;
	g.module = map->module;
	g.t_start = map->t_start;
	g.t_end = map->t_end;
	BT_ALLOC_GROW(s->regions.v, s->regions.n + 1, s->regions.alloc);
	memmove(s->regions.v + at + 1, s->regions.v + at,
	    (s->regions.n - at) * sizeof(g));
	s->regions.v[at] = g;
	s->regions.n++;
	report(s, &s->regions.v[at]);
}

void
bt_space_module(struct bt_unwind_space *s, uint64_t addr)
{
	const struct bt_map *map;
	size_t at;

	if (region_at(s, addr, &at) != NULL)
		return;
	map = bt_machine_find(s->machine, s->pid, addr, s->time);
	if (map != NULL)
		add_region(s, map);
}

bool
bt_space_mapped(struct bt_unwind_space *s, uint64_t addr)
{
	const struct bt_map *map = bt_machine_find(s->machine, s->pid, addr,
	    s->time);

	return map != NULL && map_path(s, map) != NULL;
}

/*
 * Is region g still what the machine says was at its place at time t?
 * Its span then covers t.
 */
static bool
still(struct bt_unwind_space *s, struct region *g, uint64_t t)
{
	const struct bt_map *map = bt_machine_find(s->machine, s->pid, g->start, t);

	if (map == NULL || !same(g, map))
		return false;
	g->t_start = BT_MIN(map->t_start, t);
	g->t_end = BT_MAX(map->t_end, t + 1);
	return true;
}

/*
 * The regions the Dwfl knows, checked against the machine at time t:
 * all of them when the machine changed since, else those whose span
 * does not cover t. One that is no longer there drops the session.
 */
static void
check_regions(struct bt_unwind_space *s, uint64_t t, uint64_t gen)
{
	bool all = gen != s->gen;
	size_t i;

	s->gen = gen;
	for (i = 0; i < s->regions.n; i++) {
		struct region *g = &s->regions.v[i];

		if (!all && t >= g->t_start && t < g->t_end)
			continue;
		if (!still(s, g, t)) {
			drop_dwfl(s);
			return;
		}
	}
}

/* Memory: the stack copy, else the module files. */

bool
bt_space_read_module(struct bt_unwind_space *s, uint64_t addr, uint64_t *val)
{
	Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, addr);
	Dwarf_Addr bias;
	Elf *elf;
	size_t i, n, size;
	const char *raw;

	if (mod == NULL || (elf = dwfl_module_getelf(mod, &bias)) == NULL ||
	    elf_getphdrnum(elf, &n) != 0 || (raw = elf_rawfile(elf, &size)) == NULL)
		return false;
	addr -= bias;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr - ph.p_vaddr + 8 <= ph.p_filesz &&
		    ph.p_offset + (addr - ph.p_vaddr) + 8 <= size) {
			memcpy(val, raw + ph.p_offset + (addr - ph.p_vaddr), 8);
			return true;
		}
	}
	return false;
}

static bool
memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct bt_unwind_space *s = arg;
	uint64_t v = 0;
	bool ok = bt_space_read(s, addr, &v);

	if (s->nlog < READ_LOG) {
		s->log[s->nlog].addr = addr;
		s->log[s->nlog].val = v;
		s->log[s->nlog].ok = ok;
		s->nlog++;
	}
	*result = v;
	return ok;
}

static pid_t
next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct bt_unwind_space *s = arg;

	if (*thread_argp != NULL)
		return 0;
	*thread_argp = s;
	return s->cur && s->cur->tid ? (pid_t)s->cur->tid : (pid_t)BT_MAX(s->pid, 1);
}

static bool
get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return true;
}

static bool
set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct bt_unwind_space *s = arg;
	Dwarf_Word regs[17];
	unsigned i, first = 0;
	bool have[17];

	for (i = 0; i < 17; i++) {
		uint64_t v = 0;
		have[i] = bt_unwind_reg(s->cur, (unsigned)dwarf_to_perf[i], &v);
		regs[i] = v;
	}
	/* one call per run of recorded registers */
	for (i = 0; i <= 17; i++) {
		if (i < 17 && have[i])
			continue;
		if (i > first && !dwfl_thread_state_registers(thread, (int)first,
		    i - first, regs + first))
			return false;
		first = i + 1;
	}
	return have[16];
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* Any of pid's mappings will do to attach: libdwfl takes the architecture from it. */
static bool
attach_with(void *arg, const struct bt_map *map)
{
	struct bt_unwind_space *s = arg;

	add_region(s, map);
	if (dwfl_attach_state(s->dwfl, NULL, (pid_t)BT_MAX(s->pid, 1),
	    &thread_callbacks, s))
		s->attached = true;
	return !s->attached;
}

int
bt_space_ready(struct bt_unwind_space *s, const struct bt_unwind_regs *r,
	       uint64_t ip, struct bt_error *err)
{
	s->time = r->time;
	check_regions(s, r->time, bt_machine_generation(s->machine));
	if (s->dwfl == NULL) {
		s->dwfl = dwfl_begin(&dwfl_callbacks);
		if (s->dwfl == NULL)
			return bt_error_set(err, BT_ENOTSUP, "libdwfl: %s",
			    dwfl_errmsg(-1));
	}
	bt_space_module(s, ip);
	if (s->attached)
		return 0;
	if (dwfl_attach_state(s->dwfl, NULL, (pid_t)BT_MAX(s->pid, 1),
	    &thread_callbacks, s))
		s->attached = true;
	else
		bt_machine_each_map(s->machine, s->pid, r->time, attach_with, s);
	return s->attached ? 0 : -BT_ENODATA;
}

int
bt_space_frames(struct bt_unwind_space *s, pid_t tid,
		int (*cb)(Dwfl_Frame *state, void *arg), void *arg)
{
	return dwfl_getthread_frames(s->dwfl, tid, cb, arg);
}
