/*
 * User-space unwinding of one sample with libdwfl (unwind.h): an address
 * space per process whose Dwfl and modules outlive the samples, the
 * Dwfl_Thread_Callbacks that feed libdwfl one sample's registers and
 * stack copy, and the splice of a short CFI unwind onto the kernel's
 * frame-pointer chain.
 */
#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base.h"
#include "unwind/unwind.h"

/* DWARF register numbers of x86-64 (0..16, 16 the return address) from perf's. */
static const signed char dwarf_to_perf[17] = {
	BT_REG_AX, BT_REG_DX, BT_REG_CX, BT_REG_BX, BT_REG_SI, BT_REG_DI,
	BT_REG_BP, BT_REG_SP, BT_REG_R8, BT_REG_R9, BT_REG_R10, BT_REG_R11,
	BT_REG_R12, BT_REG_R13, BT_REG_R14, BT_REG_R15, BT_REG_IP,
};

enum map_state { MS_NEW, MS_REPORTED, MS_FAILED };

struct mapping {
	uint64_t start, end, pgoff;
	char *path;
	uint8_t *image;		/* an in-memory ELF (vDSO), else NULL */
	size_t image_len;
	enum map_state state;
	uint64_t bias;		/* load bias, once reported */
	uint8_t build_id[20];	/* what the file must have, when known */
	uint8_t build_id_size;
};

/*
 * What the CFI row at one pc says, when it is the plain kind almost all
 * compiled code has: CFA = rsp or rbp + offset, the return address saved
 * at CFA + ra_off, rbp unchanged, undefined or saved at CFA + bp_off, rsp
 * = CFA. Anything else (CFA expressions as in PLT stubs and realigned
 * frames, signal frames, registers restored from registers, no FDE, no
 * module) is RULE_LIBDW: that sample is unwound by libdwfl itself.
 */
enum rule_kind { RULE_EMPTY, RULE_PLAIN, RULE_OUTERMOST, RULE_LIBDW };
enum bp_how { BP_SAME, BP_UNDEFINED, BP_SAVED };

struct rule {
	uint64_t pc;
	uint8_t kind;
	uint8_t cfa_reg;	/* DWARF 6 (rbp) or 7 (rsp) */
	uint8_t bp;		/* enum bp_how */
	int32_t cfa_off, ra_off, bp_off;
};

/* One memory read of the current unwind step. */
struct read {
	uint64_t addr, val;
	bool ok;
};

#define READ_LOG 64

struct bt_unwind_space {
	uint32_t pid;
	BT_VEC(struct mapping) maps;	/* sorted by start, disjoint */
	Dwfl *dwfl;
	bool attached;
	bool stale;		/* a reported mapping was replaced: new Dwfl */

	/* the sample being unwound */
	const struct bt_unwind_regs *cur;
	uint64_t sp;
	struct read log[READ_LOG];
	size_t nlog;

	/* the CFI rows met so far, by lookup pc (open addressing) */
	struct rule *rules;
	size_t nrules, rules_cap;
	unsigned flags;
	struct bt_unwind_stats stats;
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

bool
bt_unwind_reg(const struct bt_unwind_regs *r, unsigned reg, uint64_t *val)
{
	if (reg >= 64 || !(r->mask >> reg & 1) || r->regs == NULL)
		return false;
	*val = r->regs[__builtin_popcountll(r->mask & ((1ULL << reg) - 1))];
	return true;
}

int
bt_unwind_regs_from_sample(struct bt_unwind_regs *r, const struct bt_perf_layout *l,
			   const struct bt_perf_sample *s, uint64_t regbuf[64])
{
	uint64_t i, n;

	memset(r, 0, sizeof(*r));
	r->tid = s->tid;
	if (!BT_PF_HAS(s, BT_PF_REGS_USER) ||
	    s->regs_user_abi == PERF_SAMPLE_REGS_ABI_NONE)
		return -BT_ENODATA;
	if (s->regs_user_abi != PERF_SAMPLE_REGS_ABI_64 || s->swapped)
		return -BT_ENOTSUP;
	n = BT_MIN(s->regs_user.n, 64);
	for (i = 0; i < n; i++)
		regbuf[i] = bt_perf_u64(&s->regs_user, s->swapped, i);
	r->abi = s->regs_user_abi;
	r->mask = l->regs_user;
	/* fewer words than bits: keep the registers that are there */
	while (n < 64 && (uint64_t)__builtin_popcountll(r->mask) > n)
		r->mask &= ~(1ULL << (63 - __builtin_clzll(r->mask)));
	r->regs = regbuf;
	if (BT_PF_HAS(s, BT_PF_STACK_USER)) {
		r->stack = s->stack.data;
		r->stack_size = (size_t)BT_MIN(s->stack_dyn_size, s->stack.n);
	}
	return 0;
}

void
bt_callchain_split(const uint64_t *ips, size_t n, struct bt_callchain *cc)
{
	enum { NONE, KERNEL, USER, GUEST } part = NONE;
	size_t i;

	memset(cc, 0, sizeof(*cc));
	for (i = 0; i < n; i++) {
		uint64_t ip = ips[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			part = ip == (uint64_t)PERF_CONTEXT_KERNEL ? KERNEL :
			    ip == (uint64_t)PERF_CONTEXT_USER ? USER :
			    ip == (uint64_t)PERF_CONTEXT_HV ? GUEST :
			    GUEST;	/* guest parts and unknown markers */
			if (part == KERNEL && cc->kernel == NULL)
				cc->kernel = ips + i + 1;
			if (part == USER && cc->user == NULL)
				cc->user = ips + i + 1;
			continue;
		}
		/* a chain without markers is the kernel's, then the user's */
		if (part == NONE)
			part = KERNEL, cc->kernel = ips + i;
		if (part == KERNEL && ips + i == cc->kernel + cc->nkernel)
			cc->nkernel++;
		else if (part == USER && ips + i == cc->user + cc->nuser)
			cc->nuser++;
	}
}

/* Mappings. */

static void
clear_rules(struct bt_unwind_space *s)
{
	if (s->nrules)
		memset(s->rules, 0, s->rules_cap * sizeof(*s->rules));
	s->nrules = 0;
}

static void
mapping_release(struct mapping *m)
{
	free(m->path);
	free(m->image);
}

struct bt_unwind_space *
bt_unwind_space_new(uint32_t pid)
{
	struct bt_unwind_space *s = bt_xcalloc(1, sizeof(*s));

	s->pid = pid;
	return s;
}

static void
drop_dwfl(struct bt_unwind_space *s)
{
	size_t i;

	if (s->dwfl != NULL)
		dwfl_end(s->dwfl);
	s->dwfl = NULL;
	s->attached = false;
	s->stale = false;
	for (i = 0; i < s->maps.n; i++)
		if (s->maps.v[i].state == MS_REPORTED)
			s->maps.v[i].state = MS_NEW;
}

void
bt_unwind_space_reset(struct bt_unwind_space *s)
{
	size_t i;

	drop_dwfl(s);
	for (i = 0; i < s->maps.n; i++)
		mapping_release(&s->maps.v[i]);
	s->maps.n = 0;
	clear_rules(s);
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

void
bt_unwind_space_free(struct bt_unwind_space *s)
{
	if (s == NULL)
		return;
	bt_unwind_space_reset(s);
	BT_VEC_FREE(s->maps);
	free(s->rules);
	free(s);
}

static void
add_mapping(struct bt_unwind_space *s, uint64_t start, uint64_t len,
	    uint64_t pgoff, const char *path, const void *image, size_t image_len,
	    const uint8_t *build_id, size_t build_id_size)
{
	struct mapping m;
	size_t lo, hi;

	if (len == 0 || start + len < start)
		return;
	/* the same mapping again (a re-read of the records): keep it */
	for (lo = 0; lo < s->maps.n; lo++) {
		struct mapping *o = &s->maps.v[lo];
		if (o->start == start && o->end == start + len && o->pgoff == pgoff &&
		    strcmp(o->path, path) == 0 && (image == NULL) == (o->image == NULL))
			return;
	}
	memset(&m, 0, sizeof(m));
	m.start = start;
	m.end = start + len;
	m.pgoff = pgoff;
	m.path = bt_xstrdup(path);
	if (build_id != NULL && build_id_size > 0) {
		m.build_id_size = (uint8_t)BT_MIN(build_id_size, sizeof(m.build_id));
		memcpy(m.build_id, build_id, m.build_id_size);
	}
	if (image != NULL) {
		m.image = bt_xmalloc(image_len);
		memcpy(m.image, image, image_len);
		m.image_len = image_len;
	}
	clear_rules(s);
	/* the new mapping replaces every one it overlaps */
	for (lo = 0; lo < s->maps.n && s->maps.v[lo].end <= start; lo++)
		;
	for (hi = lo; hi < s->maps.n && s->maps.v[hi].start < m.end; hi++) {
		if (s->maps.v[hi].state == MS_REPORTED)
			s->stale = true;
		mapping_release(&s->maps.v[hi]);
	}
	BT_ALLOC_GROW(s->maps.v, s->maps.n + 1, s->maps.alloc);
	if (hi != lo + 1) {
		memmove(s->maps.v + lo + 1, s->maps.v + hi,
		    (s->maps.n - hi) * sizeof(m));
		s->maps.n = s->maps.n + 1 - (hi - lo);
	}
	s->maps.v[lo] = m;
}

void
bt_unwind_space_map(struct bt_unwind_space *s, uint64_t start, uint64_t len,
		    uint64_t pgoff, const char *path, const uint8_t *build_id,
		    size_t build_id_size)
{
	if (path == NULL || path[0] != '/' || strncmp(path, "/memfd:", 7) == 0)
		return;	/* anonymous, [stack], [vdso] without an image... */
	add_mapping(s, start, len, pgoff, path, NULL, 0, build_id, build_id_size);
}

void
bt_unwind_space_map_image(struct bt_unwind_space *s, uint64_t start,
			  uint64_t len, uint64_t pgoff, const char *name,
			  const void *image, size_t image_len)
{
	if (image == NULL || image_len == 0)
		return;
	add_mapping(s, start, len, pgoff, name, image, image_len, NULL, 0);
}

struct bt_unwind_space *
bt_unwind_space_fork(const struct bt_unwind_space *parent, uint32_t pid)
{
	struct bt_unwind_space *s = bt_unwind_space_new(pid);
	size_t i;

	for (i = 0; i < parent->maps.n; i++) {
		const struct mapping *m = &parent->maps.v[i];
		add_mapping(s, m->start, m->end - m->start, m->pgoff, m->path,
		    m->image, m->image_len, m->build_id, m->build_id_size);
	}
	return s;
}

static struct mapping *
find_mapping(struct bt_unwind_space *s, uint64_t addr)
{
	size_t lo = 0, hi = s->maps.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->maps.v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->maps.n && s->maps.v[lo].start <= addr)
		return &s->maps.v[lo];
	return NULL;
}

/*
 * The load bias of the ELF under m: the mapping's start holds file offset
 * pgoff, which the PT_LOAD containing it puts at p_vaddr + (pgoff - p_offset).
 */
static bool
load_bias(Elf *elf, const struct mapping *m, uint64_t *bias)
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
		if (m->pgoff >= (ph.p_offset & ~(align - 1)) &&
		    m->pgoff < ph.p_offset + BT_MAX(ph.p_filesz, 1)) {
			*bias = m->start - (ph.p_vaddr - ph.p_offset + m->pgoff);
			return true;
		}
	}
	return false;
}

/* Report m's ELF to the Dwfl at its load bias (once per file and bias). */
static void
report(struct bt_unwind_space *s, struct mapping *m)
{
	const char *name = strrchr(m->path, '/');
	Elf *elf;
	int fd;
	size_t i;

	m->state = MS_FAILED;
	if (m->image != NULL) {
		fd = memfd_create("bt-unwind-image", MFD_CLOEXEC);
		if (fd < 0)
			return;
		if (write(fd, m->image, m->image_len) != (ssize_t)m->image_len) {
			close(fd);
			return;
		}
	} else {
		fd = open(m->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf == NULL || !load_bias(elf, m, &m->bias)) {
		if (elf != NULL)
			elf_end(elf);
		close(fd);
		return;
	}
	/* the file was rebuilt since the recording: its CFI would lie */
	if (m->build_id_size) {
		const void *id;
		ssize_t n = dwelf_elf_gnu_build_id(elf, &id);

		if (n != m->build_id_size || memcmp(id, m->build_id, (size_t)n) != 0) {
			s->stats.mismatched++;
			elf_end(elf);
			close(fd);
			return;
		}
	}
	elf_end(elf);
	/* another mapping of the same file (segments): one module */
	for (i = 0; i < s->maps.n; i++) {
		struct mapping *o = &s->maps.v[i];
		if (o != m && o->state == MS_REPORTED && o->bias == m->bias &&
		    strcmp(o->path, m->path) == 0) {
			close(fd);
			m->state = MS_REPORTED;
			return;
		}
	}
	/* dwfl_report_elf owns fd on success */
	if (dwfl_report_elf(s->dwfl, name ? name + 1 : m->path, m->path, fd,
	    m->bias, true) == NULL) {
		close(fd);
		return;
	}
	m->state = MS_REPORTED;
}

/* Make sure the module at addr is known to the Dwfl. */
static void
ensure_module(struct bt_unwind_space *s, uint64_t addr)
{
	struct mapping *m = find_mapping(s, addr);

	if (m != NULL && m->state == MS_NEW)
		report(s, m);
}

/* Memory: the stack copy, else the module files. */

static bool
read_stack(const struct bt_unwind_space *s, uint64_t addr, uint64_t *val)
{
	uint64_t off = addr - s->sp;

	if (addr < s->sp || off > s->cur->stack_size ||
	    s->cur->stack_size - off < sizeof(*val))
		return false;
	memcpy(val, s->cur->stack + off, sizeof(*val));
	return true;
}

static bool
read_module(struct bt_unwind_space *s, uint64_t addr, uint64_t *val)
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
	bool ok = read_stack(s, addr, &v) || read_module(s, addr, &v);

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

/* One walk: the frames of one sample and the slots their pcs came from. */
struct walk {
	struct bt_unwind_space *s;
	uint64_t *ips;
	uint64_t *slots;	/* slots[i]: address ips[i] was read from, 0 unknown */
	size_t n, max;
	bool full;
};

/*
 * The slot frame's pc was read from in the step that produced it: the
 * highest address read that holds the pc (on x86-64 the return address
 * sits at CFA - 8, above every register the CIE saves).
 */
static uint64_t
step_slot(const struct bt_unwind_space *s, uint64_t pc)
{
	uint64_t slot = 0;
	size_t i;

	for (i = 0; i < s->nlog; i++)
		if (s->log[i].ok && s->log[i].val == pc && s->log[i].addr > slot)
			slot = s->log[i].addr;
	return slot;
}

static int
frame_cb(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	if (w->n >= w->max) {
		w->full = true;
		return DWARF_CB_ABORT;
	}
	w->ips[w->n] = pc;
	w->slots[w->n] = w->n ? step_slot(w->s, pc) : 0;
	w->n++;
	w->s->nlog = 0;
	/* the module whose CFI unwinds this frame (a return address's call site) */
	ensure_module(w->s, w->n > 1 ? pc - 1 : pc);
	return DWARF_CB_OK;
}

static int
ensure_dwfl(struct bt_unwind_space *s, uint64_t ip, struct bt_error *err)
{
	size_t i;

	if (s->stale)
		drop_dwfl(s);
	if (s->dwfl == NULL) {
		s->dwfl = dwfl_begin(&dwfl_callbacks);
		if (s->dwfl == NULL)
			return bt_error_set(err, BT_ENOTSUP, "libdwfl: %s",
			    dwfl_errmsg(-1));
	}
	ensure_module(s, ip);
	if (s->attached)
		return 0;
	/* libdwfl takes the architecture from a module: any one will do */
	for (i = 0; !s->attached && i <= s->maps.n; i++) {
		if (dwfl_attach_state(s->dwfl, NULL, (pid_t)BT_MAX(s->pid, 1),
		    &thread_callbacks, s))
			s->attached = true;
		else if (i < s->maps.n && s->maps.v[i].state == MS_NEW)
			report(s, &s->maps.v[i]);
	}
	return s->attached ? 0 : -BT_ENODATA;
}

/* The fast path: CFI rows from libdw, cached per pc, evaluated here. */

static struct rule *
rule_slot(struct bt_unwind_space *s, uint64_t pc)
{
	size_t mask = s->rules_cap - 1, i = (size_t)bt_hash64(pc) & mask;

	while (s->rules[i].kind != RULE_EMPTY && s->rules[i].pc != pc)
		i = (i + 1) & mask;
	return &s->rules[i];
}

static void
grow_rules(struct bt_unwind_space *s)
{
	struct rule *old = s->rules;
	size_t i, n = s->rules_cap;

	s->rules_cap = n ? n * 2 : 1024;
	s->rules = bt_xcalloc(s->rules_cap, sizeof(*s->rules));
	for (i = 0; i < n; i++)
		if (old[i].kind != RULE_EMPTY)
			*rule_slot(s, old[i].pc) = old[i];
	free(old);
}

/* "CFA + off" as libdw spells an offset(N) rule, with or without the deref. */
static bool
cfa_plus(const Dwarf_Op *ops, size_t nops, bool value, int32_t *off)
{
	size_t want = 1;
	int64_t v = 0;

	if (nops < 1 || ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	if (nops > want && ops[want].atom == DW_OP_plus_uconst) {
		v = (int64_t)ops[want].number;
		want++;
	}
	if (value) {
		if (nops != want + 1 || ops[want].atom != DW_OP_stack_value)
			return false;
	} else if (nops != want)
		return false;
	if (v < INT32_MIN || v > INT32_MAX)
		return false;
	*off = (int32_t)v;
	return true;
}

/* Read the row at pc (libdwfl's order: .eh_frame, then .debug_frame). */
static void
make_rule(struct bt_unwind_space *s, uint64_t pc, struct rule *ru)
{
	Dwfl_Module *mod;
	Dwarf_CFI *cfi;
	Dwarf_Frame *frame = NULL;
	Dwarf_Addr bias;
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	bool signal;
	int32_t off;
	int pass;

	ru->pc = pc;
	ru->kind = RULE_LIBDW;
	ensure_module(s, pc);
	mod = dwfl_addrmodule(s->dwfl, pc);
	if (mod == NULL)
		return;
	for (pass = 0; pass < 2 && frame == NULL; pass++) {
		cfi = pass == 0 ? dwfl_module_eh_cfi(mod, &bias) :
		    dwfl_module_dwarf_cfi(mod, &bias);
		if (cfi != NULL && dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0)
			frame = NULL;
	}
	if (frame == NULL)
		return;
	if (dwarf_frame_info(frame, NULL, NULL, &signal) != 16 || signal)
		goto out;
	/* the return address: undefined (outermost) or saved at CFA + off */
	if (dwarf_frame_register(frame, 16, ops_mem, &ops, &nops) != 0)
		goto out;
	if (nops == 0 && ops == ops_mem) {
		ru->kind = RULE_OUTERMOST;
		goto out;
	}
	if (!cfa_plus(ops, nops, false, &ru->ra_off))
		goto out;
	/* CFA = rsp or rbp + offset */
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1 ||
	    ops[0].atom != DW_OP_bregx || (ops[0].number != 6 && ops[0].number != 7) ||
	    (int64_t)ops[0].number2 < INT32_MIN || (int64_t)ops[0].number2 > INT32_MAX)
		goto out;
	ru->cfa_reg = (uint8_t)ops[0].number;
	ru->cfa_off = (int32_t)ops[0].number2;
	/* rsp = CFA */
	if (dwarf_frame_register(frame, 7, ops_mem, &ops, &nops) != 0 ||
	    !cfa_plus(ops, nops, true, &off) || off != 0)
		goto out;
	/* rbp */
	if (dwarf_frame_register(frame, 6, ops_mem, &ops, &nops) != 0)
		goto out;
	if (nops == 0)
		ru->bp = ops == NULL ? BP_SAME : BP_UNDEFINED;
	else if (cfa_plus(ops, nops, false, &ru->bp_off))
		ru->bp = BP_SAVED;
	else
		goto out;
	ru->kind = RULE_PLAIN;
out:
	free(frame);
}

static const struct rule *
get_rule(struct bt_unwind_space *s, uint64_t pc)
{
	struct rule *ru;

	if (s->nrules * 2 >= s->rules_cap)
		grow_rules(s);
	ru = rule_slot(s, pc);
	if (ru->kind == RULE_EMPTY) {
		make_rule(s, pc, ru);
		s->nrules++;
		s->stats.rules++;
	}
	return ru;
}

static bool
mem_read(struct bt_unwind_space *s, uint64_t addr, uint64_t *val)
{
	return read_stack(s, addr, val) || read_module(s, addr, val);
}

/*
 * Unwind as libdwfl would, with the cached rows. Returns false when a
 * frame needs libdwfl (the walk must then be redone by it).
 */
static bool
fast_walk(struct bt_unwind_space *s, struct walk *w, uint64_t ip, uint64_t sp,
	  uint64_t *pending, enum bt_unwind_end *end)
{
	uint64_t pc = ip, slot = 0, bp = 0, cfa, ra;
	bool have_bp = bt_unwind_reg(s->cur, BT_REG_BP, &bp);

	for (;;) {
		const struct rule *ru;

		if (w->n >= w->max) {
			*end = BT_UNWIND_END_FRAMES;
			return true;
		}
		w->ips[w->n] = pc;
		w->slots[w->n] = slot;
		w->n++;
		ru = get_rule(s, w->n > 1 ? pc - 1 : pc);
		if (ru->kind == RULE_OUTERMOST) {
			*end = BT_UNWIND_END_OUTERMOST;
			return true;
		}
		if (ru->kind != RULE_PLAIN || (ru->cfa_reg == 6 && !have_bp))
			return false;
		cfa = (ru->cfa_reg == 7 ? sp : bp) + (uint64_t)(int64_t)ru->cfa_off;
		slot = cfa + (uint64_t)(int64_t)ru->ra_off;
		if (ru->bp == BP_UNDEFINED)
			have_bp = false;
		else if (ru->bp == BP_SAVED)
			have_bp = mem_read(s, cfa + (uint64_t)(int64_t)ru->bp_off, &bp);
		if (!mem_read(s, slot, &ra)) {
			if (slot >= s->sp)
				*pending = slot;
			*end = *pending ? BT_UNWIND_END_STACK : BT_UNWIND_END_OUTERMOST;
			return true;
		}
		if (ra == 0) {
			*end = BT_UNWIND_END_OUTERMOST;
			return true;
		}
		pc = ra;
		sp = cfa;
	}
}

/*
 * Unwind r from CFI into w. Returns how the unwind ended; *pending is the
 * slot the last step could not read (0 if none), the next return address
 * when the copy ended.
 */
static enum bt_unwind_end
walk(struct bt_unwind_space *s, const struct bt_unwind_regs *r, struct walk *w,
     uint64_t *pending, struct bt_error *err, int *ret)
{
	uint64_t ip, sp;
	size_t i;
	int rc;

	*pending = 0;
	*ret = 0;
	w->s = s;
	w->n = 0;
	w->full = false;
	if (r->abi == PERF_SAMPLE_REGS_ABI_NONE || !bt_unwind_reg(r, BT_REG_IP, &ip) ||
	    !bt_unwind_reg(r, BT_REG_SP, &sp))
		return BT_UNWIND_END_NOREGS;
	if (r->abi != PERF_SAMPLE_REGS_ABI_64) {
		*ret = bt_error_set(err, BT_ENOTSUP,
		    "only x86-64 user registers can be unwound (abi %" PRIu64 ")",
		    r->abi);
		return BT_UNWIND_END_NOREGS;
	}
	if (w->max == 0)
		return BT_UNWIND_END_FRAMES;
	if (ensure_dwfl(s, ip, err) < 0) {
		w->ips[0] = ip;
		w->slots[0] = 0;
		w->n = 1;
		return BT_UNWIND_END_NOCFI;
	}
	s->cur = r;
	s->sp = sp;
	s->stats.samples++;
	if (!(s->flags & BT_UNWIND_LIBDW)) {
		enum bt_unwind_end end;

		if (fast_walk(s, w, ip, sp, pending, &end)) {
			s->cur = NULL;
			return end;
		}
		/* a frame the rows cannot do: libdwfl does the whole sample */
		s->stats.libdw++;
		w->n = 0;
		*pending = 0;
	} else
		s->stats.libdw++;
	s->nlog = 0;
	rc = dwfl_getthread_frames(s->dwfl, r->tid ? (pid_t)r->tid :
	    (pid_t)BT_MAX(s->pid, 1), frame_cb, w);
	s->cur = NULL;
	if (w->full)
		return BT_UNWIND_END_FRAMES;
	for (i = 0; i < s->nlog; i++)
		if (!s->log[i].ok && s->log[i].addr >= sp && s->log[i].addr > *pending)
			*pending = s->log[i].addr;
	if (w->n == 0) {
		w->ips[0] = ip;
		w->slots[0] = 0;
		w->n = 1;
	}
	if (*pending)
		return BT_UNWIND_END_STACK;
	return rc == 0 ? BT_UNWIND_END_OUTERMOST : BT_UNWIND_END_NOCFI;
}

int
bt_unwind_dwarf(struct bt_unwind_space *s, const struct bt_unwind_regs *r,
		uint64_t *ips, size_t max, struct bt_unwind_result *res,
		struct bt_error *err)
{
	uint64_t slots[BT_UNWIND_MAX_FRAMES + 1], pending;
	struct walk w = { .ips = ips, .slots = slots,
		.max = BT_MIN(max, BT_ARRAY_SIZE(slots)) };
	int ret;

	memset(res, 0, sizeof(*res));
	res->end = walk(s, r, &w, &pending, err, &ret);
	if (ret < 0)
		return ret;
	res->n = res->ncfi = w.n;
	return (int)w.n;
}

/* Splicing onto the frame-pointer chain. */

static bool
in_mapping(struct bt_unwind_space *s, uint64_t ip)
{
	return find_mapping(s, ip) != NULL;
}

/* j with fslot[j] == slot (1 <= j < nf), 0 if none */
static size_t
fp_index(const uint64_t *fslot, size_t nf, uint64_t slot)
{
	size_t j;

	if (slot == 0)
		return 0;
	for (j = 1; j < nf; j++)
		if (fslot[j] == slot)
			return j;
	return 0;
}

static size_t
append(uint64_t *ips, size_t n, size_t max, const uint64_t *src, size_t nsrc)
{
	size_t k = BT_MIN(nsrc, max - n);

	if (k)
		memcpy(ips + n, src, k * sizeof(*ips));
	return n + k;
}

int
bt_unwind_splice(struct bt_unwind_space *s, const struct bt_unwind_regs *r,
		 const uint64_t *fp, size_t nfp, uint64_t *ips, size_t max,
		 struct bt_unwind_result *res, struct bt_error *err)
{
	uint64_t slots[BT_UNWIND_MAX_FRAMES + 1], fslot[BT_UNWIND_MAX_FRAMES + 1];
	uint64_t pending, bp, v, above;
	struct walk w = { .ips = ips, .slots = slots,
		.max = BT_MIN(max, BT_ARRAY_SIZE(slots)) };
	size_t nf = 0, i, j, k, n;
	int ret;

	memset(res, 0, sizeof(*res));
	nfp = BT_MIN(nfp, BT_ARRAY_SIZE(fslot));
	res->end = walk(s, r, &w, &pending, err, &ret);
	if (ret < 0)
		return ret;

	/*
	 * The slots of the kernel's walk: fslot[j] holds fp[j], for j in
	 * 1..nf-1. Each address is known while the frame below it lies in
	 * the copy; a slot in the copy must hold fp[j] (else the kernel
	 * walked other memory, and the walk is not followed further).
	 */
	if (nfp > 1 && bt_unwind_reg(r, BT_REG_BP, &bp) &&
	    bt_unwind_reg(r, BT_REG_SP, &s->sp)) {
		s->cur = r;
		fslot[1] = bp + 8;
		for (nf = 1; nf < nfp; nf++) {
			if (read_stack(s, fslot[nf], &v) && v != fp[nf])
				break;
			if (nf + 1 == nfp)
				continue;
			if (!read_stack(s, fslot[nf] - 8, &v)) {
				nf++;
				break;
			}
			fslot[nf + 1] = v + 8;
		}
		s->cur = NULL;
	}
	/* rule 1: nothing from CFI past the leaf */
	if (w.n <= 1 && (res->end == BT_UNWIND_END_NOREGS ||
	    res->end == BT_UNWIND_END_NOCFI)) {
		n = append(ips, 0, w.max, fp, nfp);
		res->splice = nfp ? BT_SPLICE_FP : BT_SPLICE_NONE;
		res->n = n;
		res->ncfi = 0;
		return (int)n;
	}
	if (w.n == 0)
		return 0;
	k = w.n - 1;	/* the last CFI frame */

	/* frames the kernel's walk missed inside the copy */
	for (i = 1; i <= k; i++)
		if (fp_index(fslot, nf, slots[i]) == 0)
			res->fp_skipped++;
	res->ncfi = w.n;
	n = w.n;
	/* rule 2: the walks meet where the copy ended */
	if (res->end == BT_UNWIND_END_STACK && (j = fp_index(fslot, nf, pending))) {
		res->splice = BT_SPLICE_PENDING;
		res->n = append(ips, n, w.max, fp + j, nfp - j);
		return (int)res->n;
	}
	/* rule 3: CFI reached the outermost frame */
	if (res->end == BT_UNWIND_END_OUTERMOST || res->end == BT_UNWIND_END_FRAMES) {
		res->splice = BT_SPLICE_CFI;
		res->n = n;
		return (int)n;
	}
	/* rule 4: the last CFI frame is one of the kernel's */
	if (k >= 1 && (j = fp_index(fslot, nf, slots[k]))) {
		res->splice = BT_SPLICE_SLOT;
		res->n = append(ips, n, w.max, fp + j + 1, nfp - j - 1);
		return (int)res->n;
	}
	/* rule 5: the kernel's frames above what CFI covered */
	above = pending ? pending : (k >= 1 ? slots[k] : s->sp);
	for (j = 1; j < nf && fslot[j] <= above; j++)
		;
	if (j < nf && in_mapping(s, fp[j])) {
		res->splice = BT_SPLICE_GAP;
		res->n = append(ips, n, w.max, fp + j, nfp - j);
		return (int)res->n;
	}
	res->splice = BT_SPLICE_CFI_ONLY;
	res->n = n;
	return (int)n;
}
