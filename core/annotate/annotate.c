/* Build the annotation of one function: decode, join samples, lines, inlines. */
#include <elf.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "annotate/cfg.h"

#define MAX_INLINE_DEPTH 16
#define MAX_FUNC_BYTES (16u << 20)
#define INSN_MAX 15	/* bytes: the longest instruction (x86's) */
#define MEMO_MIN_BYTES 256	/* a function smaller decodes each instruction */

long
bt_annotation_find(const struct bt_annotation *a, uint64_t addr)
{
	size_t lo = 0, hi = a->insns.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct bt_insn *in = &a->insns.v[mid].in;
		if (addr < in->addr)
			hi = mid;
		else if (addr >= in->addr + in->len)
			lo = mid + 1;
		else
			return (long)mid;
	}
	return -1;
}

/*
 * bt_annotation_find() over starts[], the instructions' addresses apart
 * (8 bytes each, where an instruction is 150: a big function's search
 * stays in the cache), from hint on when addr is at most a few
 * instructions past it (the hits, sorted).
 */
static long
find_insn(const struct bt_annotation *a, const uint64_t *starts, uint64_t addr,
	  size_t hint)
{
	size_t lo = 0, hi = a->insns.n, k;

	if (hint < hi && starts[hint] <= addr) {
		for (k = hint; k < hi && k < hint + 8 && starts[k] <= addr; k++)
			;
		if (k == hi || starts[k] > addr)
			lo = hi = k;	/* the last start <= addr is k - 1 */
		else
			lo = k;
	}
	while (lo < hi) {	/* the first start after addr */
		size_t mid = lo + (hi - lo) / 2;
		if (starts[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= starts[lo - 1] + a->insns.v[lo - 1].in.len)
		return -1;
	return (long)lo - 1;
}

static bool
same_chain(const struct bt_inline *a, const struct bt_inline *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].lo != b[i].lo || a[i].hi != b[i].hi ||
		    a[i].call_line != b[i].call_line || a[i].name != b[i].name ||
		    a[i].has_bci != b[i].has_bci || a[i].call_bci != b[i].call_bci)
			return false;
	return true;
}

/* "sym+0xoff" for a branch, call or data target. */
static const char *
name_target(struct bt_annotation *a, const struct bt_annotate_in *f,
	    uint64_t target)
{
	struct bt_msyms *m = f->syms;
	struct bt_func_sym fs;

	/* stripped code is named by address: name the target the same way */
	if (f->by_address && target >= f->start && target < f->end)
		return bt_strpool_addf(&a->pool, "%s+0x%llx", f->module_name,
		    (unsigned long long)target);
	if (target >= f->start && target < f->end)
		return target == f->start ?
		    bt_strpool_addstr(&a->pool, f->name) :
		    bt_strpool_addf(&a->pool, "%s+0x%llx", f->name,
			(unsigned long long)(target - f->start));
	if (bt_msyms_func(m, target, &fs) < 0) {
		uint64_t start;
		const char *n = f->name_at ? f->name_at(f->name_arg, target, &start) : NULL;

		if (n == NULL)
			return NULL;
		return target == start ? bt_strpool_addstr(&a->pool, n) :
		    bt_strpool_addf(&a->pool, "%s+0x%llx", n,
			(unsigned long long)(target - start));
	}
	if (target == fs.start)
		return bt_strpool_addstr(&a->pool, fs.name);
	return bt_strpool_addf(&a->pool, "%s+0x%llx", fs.name,
	    (unsigned long long)(target - fs.start));
}

static void
join_lines(struct bt_annotation *a, const struct bt_annotate_in *f)
{
	struct bt_msyms *m = f->syms;
	const struct bt_line *rows;
	size_t n = bt_msyms_lines(m, f->start, f->end, &rows), r = 0, i;
	struct bt_inline chain[MAX_INLINE_DEPTH];
	uint32_t prev_chain = 0, prev_depth = 0;
	int32_t bci;
	unsigned bline;

	a->has_lines = n > 0;
	for (i = 0; i < a->insns.n; i++) {
		struct bt_ainsn *ai = &a->insns.v[i];
		size_t depth;

		while (r + 1 < n && rows[r + 1].addr <= ai->in.addr)
			r++;
		if (n > 0 && rows[r].addr <= ai->in.addr && rows[r].line) {
			ai->file = rows[r].file;
			ai->line = rows[r].line;
		}
		if (!a->has_lines)
			continue;
		/* JIT code: the bytecode index of that line, from the same pc */
		if (f->bci_at != NULL && ai->line != 0 &&
		    f->bci_at(f->name_arg, ai->in.addr, &bci, &bline) && bline == ai->line) {
			ai->bci = bci;
			ai->flags |= BT_AI_BCI;
		}
		depth = f->chain_at ? f->chain_at(f->name_arg, ai->in.addr, chain,
		    MAX_INLINE_DEPTH) : bt_msyms_inlines(m, ai->in.addr, chain,
		    MAX_INLINE_DEPTH);
		if (depth == prev_depth && depth > 0 &&
		    same_chain(chain, &a->frames.v[prev_chain], depth)) {
			ai->chain = prev_chain;
			ai->depth = prev_depth;
			continue;
		}
		ai->chain = (uint32_t)a->frames.n;
		ai->depth = (uint8_t)depth;
		for (size_t k = 0; k < depth; k++)
			BT_VEC_PUSH(a->frames, chain[k]);
		prev_chain = ai->chain;
		prev_depth = ai->depth;
	}
}

/* The data type each load or store with a base register reaches (DWARF). */
static void
data_types(struct bt_annotation *a, struct bt_msyms *m, uint64_t start, uint64_t end)
{
	struct bt_dtypes *t = NULL;
	size_t i;

	for (i = 0; i < a->insns.n; i++) {
		struct bt_ainsn *ai = &a->insns.v[i];
		struct bt_data_type dt;

		if (ai->in.mem_base < 0 || (ai->in.flags & BT_INSN_F_NOP) ||
		    !(ai->in.flags & (BT_INSN_F_MEM_READ | BT_INSN_F_MEM_WRITE)))
			continue;
		if (t == NULL && (t = bt_msyms_dtypes(m, start, end)) == NULL)
			return;
		if (bt_dtypes_find(t, ai->in.addr, ai->in.mem_base, ai->in.mem_disp, &dt) < 0)
			continue;
		BT_VEC_PUSH(a->dtypes, dt);
		ai->dtype = (uint32_t)a->dtypes.n;
	}
	bt_dtypes_free(t);
}

/* The function's own file: the outermost location of its hottest instruction. */
static void
own_file(struct bt_annotation *a)
{
	const struct bt_ainsn *best = NULL;
	size_t i;

	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		if (ai->file == NULL)
			continue;
		if (best == NULL || ai->samples > best->samples)
			best = ai;
	}
	if (best == NULL)
		return;
	a->file = best->depth ? a->frames.v[best->chain].call_file : best->file;
}

/*
 * The target of an x86-64 "movabs $imm64, %reg; call *%reg" (HotSpot's
 * calls into the VM, perfasm's "{runtime_call ...}"): true with *target
 * when insn i is such a call and insn i - 1 loads its register.
 */
static bool
movabs_call(const struct bt_annotation *a, const uint8_t *bytes, uint64_t start,
	    size_t i, uint64_t *target)
{
	const struct bt_insn *c = &a->insns.v[i].in, *m;
	const uint8_t *p, *q;
	unsigned reg, k;

	if (i == 0 || c->kind != BT_INSN_ICALL)
		return false;
	m = &a->insns.v[i - 1].in;
	p = bytes + (c->addr - start);
	q = bytes + (m->addr - start);
	if (c->len == 3 && p[0] == 0x41 && p[1] == 0xff && (p[2] & 0xf8) == 0xd0)
		reg = 8 + (p[2] & 7u);		/* call *%r8..%r15 */
	else if (c->len == 2 && p[0] == 0xff && (p[1] & 0xf8) == 0xd0)
		reg = p[1] & 7u;		/* call *%rax..%rdi */
	else
		return false;
	if (m->len != 10 || q[0] != (reg >= 8 ? 0x49 : 0x48) ||
	    q[1] != 0xb8 + (reg & 7u))
		return false;
	for (*target = 0, k = 0; k < 8; k++)
		*target |= (uint64_t)q[2 + k] << (8 * k);
	return true;
}

/*
 * The displacement of an x86-64 "call *disp(%r13)" or "jmp *disp(%r13)"
 * (V8's calls through the builtin tables: r13 is its root register): true
 * with *disp when insn i is one.
 */
static bool
r13_slot(const struct bt_annotation *a, const uint8_t *bytes, uint64_t start,
	 size_t i, int64_t *disp)
{
	const struct bt_insn *c = &a->insns.v[i].in;
	const uint8_t *p = bytes + (c->addr - start);
	unsigned modrm;

	if (c->kind != BT_INSN_ICALL && c->kind != BT_INSN_IJUMP)
		return false;
	if (c->len < 4 || (p[0] & 0xfd) != 0x41 || p[1] != 0xff)
		return false;
	modrm = p[2];
	/* reg /2 (call) or /4 (jmp), rm 101 (r13 with REX.B), disp8 or disp32 */
	if ((modrm & 0x07) != 0x05 || (((modrm >> 3) & 7) != 2 && ((modrm >> 3) & 7) != 4))
		return false;
	if ((modrm & 0xc0) == 0x40 && c->len == 4)
		*disp = (int8_t)p[3];
	else if ((modrm & 0xc0) == 0x80 && c->len == 7)
		*disp = (int32_t)((uint32_t)p[3] | (uint32_t)p[4] << 8 |
		    (uint32_t)p[5] << 16 | (uint32_t)p[6] << 24);
	else
		return false;
	return true;
}

/* The decoder's text and mnemonic, copied into the pool (one allocation). */
static void
keep_text(struct bt_annotation *a, struct bt_insn *in)
{
	size_t nt = strlen(in->text), nm = strlen(in->mnemonic);
	char *p = bt_strpool_alloc(&a->pool, nt + 1 + nm);

	memcpy(p, in->text, nt + 1);
	memcpy(p + nt + 1, in->mnemonic, nm + 1);
	in->text = p;
	in->mnemonic = p + nt + 1;
}

/*
 * Does the code end inside the instruction at buf[0..len) (len shorter
 * than the longest), which the decoder took for (bad) bytes? It would
 * decode, longer than len, were the bytes there.
 */
static bool
cut_short(struct bt_disasm *dis, const uint8_t *buf, size_t len, uint64_t addr)
{
	uint8_t pad[INSN_MAX] = { 0 };
	struct bt_insn in;

	if (len >= INSN_MAX)
		return false;
	memcpy(pad, buf, len);
	return bt_disasm_one(dis, pad, sizeof(pad), addr, &in) > len &&
	    in.kind != BT_INSN_BAD;
}

/*
 * An instruction's fields but the decoder's (ai->in: written whole), as
 * none is known yet. Field by field: the compiler clears a whole struct
 * with rep stos, whose start costs more than the stores (a function of
 * 10 instructions took 5% longer).
 */
_Static_assert(sizeof(struct bt_ainsn) == 128, "a field added: set it in ainsn_blank()");
static inline void
ainsn_blank(struct bt_ainsn *ai)
{
	ai->samples = ai->period = 0;
	ai->adjusted = ai->adjusted_period = 0;
	ai->file = ai->target_name = ai->mem_name = NULL;
	ai->line = ai->chain = ai->dtype = 0;
	ai->target_insn = -1;
	ai->bci = 0;
	ai->region = ai->loop = -1;
	ai->loop_depth = 0;
	ai->depth = ai->flags = 0;
}

/*
 * Decode the function's n bytes, reading up to avail (past its end): the
 * last instruction is whole, and one the code itself cuts (a section's or
 * a JIT image's end) is left out, in a->cut. Bytes decoded already in the
 * function are not decoded again (struct bt_insn_memo): the instruction
 * and its text are the earlier one's.
 */
static void
decode(struct bt_annotation *a, const struct bt_annotate_in *f, const uint8_t *bytes,
       size_t n, size_t avail)
{
	struct bt_insn_memo memo;
	bool use_memo = n >= MEMO_MIN_BYTES, cut = false;
	uint64_t addr;

	/*
	 * About 4 bytes an instruction on x86: presize, then decode in place.
	 * In huge pages (bt_xmalloc_big) as far as 4 bytes an instruction
	 * reach: compiled code averages 4-5, and the 4 KiB pages past the
	 * last huge one are faulted in one by one (huge: 470 faults, 0.6 ms,
	 * where a second huge page, 3% of it unused, is one)
	 */
	a->insns.alloc = n / 3 + 16;
	a->insns.v = bt_xmalloc_big(a->insns.alloc, n / 4, sizeof(*a->insns.v));
	if (use_memo)
		bt_insn_memo_init(&memo, bytes, avail);
	for (addr = f->start; addr < f->start + n;) {
		struct bt_ainsn *ai;
		size_t len, off = (size_t)(addr - f->start);
		long same = use_memo ? bt_insn_memo_find(&memo, off, avail - off) : -1;

		BT_ALLOC_GROW(a->insns.v, a->insns.n + 1, a->insns.alloc);
		ai = &a->insns.v[a->insns.n++];
		ainsn_blank(ai);
		if (same >= 0) {
			ai->in = a->insns.v[same].in;
			ai->in.addr = addr;
			addr += ai->in.len;
			continue;
		}
		len = bt_disasm_one(f->dis, bytes + off, avail - off, addr, &ai->in);
		if (ai->in.kind == BT_INSN_BAD && a->insns.n > 1 &&
		    cut_short(f->dis, bytes + off, avail - off, addr)) {
			a->insns.n--;
			a->cut = addr;
			a->cut_len = (unsigned)(avail - off);
			cut = true;
			break;
		}
		keep_text(a, &ai->in);
		if (use_memo && (ai->in.flags & BT_INSN_F_ANYWHERE))
			bt_insn_memo_add(&memo, off, len, (uint32_t)(a->insns.n - 1));
		addr += len;
	}
	if (use_memo)
		bt_insn_memo_release(&memo);
	if (!cut && addr > f->end)
		a->overrun = addr - f->end;
}

/*
 * A precise event (cycles:pp, PEBS, IBS: precise_ip 2 and up) samples the
 * instruction itself: nothing to move, the adjusted column is the raw one.
 */
static void
no_skid(struct bt_annotation *a)
{
	size_t i;

	for (i = 0; i < a->insns.n; i++) {
		a->insns.v[i].adjusted = (double)a->insns.v[i].samples;
		a->insns.v[i].adjusted_period = (double)a->insns.v[i].period;
	}
}

struct bt_annotation *
bt_annotate(const struct bt_annotate_in *f, struct bt_error *err)
{
	struct bt_msyms *m = f->syms;
	struct bt_annotation *a;
	struct bt_cfg *g;
	const uint8_t *bytes;
	uint64_t *starts;
	long n;
	size_t i, avail, hint;

	if (f->end <= f->start || f->end - f->start > MAX_FUNC_BYTES) {
		bt_error_set(err, BT_EFORMAT, "'%s' has no usable bounds", f->name);
		return NULL;
	}
	/*
	 * The bytes past the end too, as far as the longest instruction: a
	 * range made from samples (a guessed function, JIT code) or a symbol
	 * whose size is wrong can end inside an instruction, which is shown
	 * whole, as objdump shows it, never cut into (bad) bytes
	 */
	n = bt_msyms_code(m, f->start, f->end + INSN_MAX, &bytes);
	if (n <= 0) {
		bt_error_set(err, BT_ENODATA, "no code bytes for '%s' in '%s'",
		    f->name, bt_msyms_info(m)->path);
		return NULL;
	}
	avail = (size_t)n;
	if ((uint64_t)n > f->end - f->start)
		n = (long)(f->end - f->start);

	a = bt_xcalloc(1, sizeof(*a));
	bt_strpool_init(&a->pool);
	decode(a, f, bytes, (size_t)n, avail);
	starts = bt_xmalloc((a->insns.n ? a->insns.n : 1) * sizeof(*starts));
	for (i = 0; i < a->insns.n; i++)
		starts[i] = a->insns.v[i].in.addr;
	/* samples */
	for (i = 0, hint = 0; i < f->nhits; i++) {
		const struct bt_hit *h = &f->hits[i];
		long k = find_insn(a, starts, h->addr, hint);

		if (k >= 0)
			hint = (size_t)k;

		a->samples += h->samples;
		a->period += h->period;
		if (k < 0) {
			a->stray += h->samples;
			continue;
		}
		if (a->insns.v[k].in.addr != h->addr)
			a->stray += h->samples;
		a->insns.v[k].samples += h->samples;
		a->insns.v[k].period += h->period;
	}
	/* targets */
	for (i = 0; i < a->insns.n; i++) {
		struct bt_ainsn *ai = &a->insns.v[i];
		if (ai->in.flags & BT_INSN_F_RIPREL) {
			/* what objdump prints after it: "table+0x40", "printf@GLIBC_2.2.5" */
			uint64_t at, t = ai->in.mem_target;
			const char *dn;
			if (bt_msyms_addr_name(m, t, ai->in.addr, &dn, &at) == 0)
				ai->mem_name = at == t ? dn : bt_strpool_addf(&a->pool,
				    "%s%c0x%llx", dn, t > at ? '+' : '-',
				    (unsigned long long)(t > at ? t - at : at - t));
			else
				ai->mem_name = name_target(a, f, ai->in.mem_target);
		}
		if (f->name_at != NULL && bt_msyms_info(m)->e_machine == EM_X86_64) {
			/* JIT code calling its runtime through a register */
			uint64_t t;
			int64_t d;
			if (movabs_call(a, bytes, f->start, i, &t))
				ai->target_name = name_target(a, f, t);
			else if (f->slot_name != NULL && r13_slot(a, bytes, f->start, i, &d))
				ai->target_name = f->slot_name(f->name_arg, d);
		}
		if (ai->in.kind != BT_INSN_JUMP && ai->in.kind != BT_INSN_CJUMP &&
		    ai->in.kind != BT_INSN_CALL)
			continue;
		ai->target_name = name_target(a, f, ai->in.target);
		if (ai->in.kind != BT_INSN_CALL) {
			long k = find_insn(a, starts, ai->in.target, SIZE_MAX);
			if (k >= 0 && a->insns.v[k].in.addr == ai->in.target)
				ai->target_insn = (int32_t)k;
		}
	}
	free(starts);
	if (f->lines) {
		join_lines(a, f);
		if (a->has_lines)
			data_types(a, m, f->start, f->end);
	}
	own_file(a);
	/* nothing below reads lines: bt_annotate_add_lines() relies on it */
	g = bt_cfg_build(a);
	if (f->precise)
		no_skid(a);
	else
		bt_skid_adjust(a, g, f->intel);
	bt_find_loops(a, g);
	bt_cfg_free(g);
	bt_find_regions(a, f->region_threshold, f->region_margin);
	return a;
}

void
bt_annotate_add_lines(struct bt_annotation *a, const struct bt_annotate_in *f)
{
	if (!f->lines || a->has_lines || a->frames.n > 0 || a->dtypes.n > 0)
		return;
	join_lines(a, f);
	if (a->has_lines)
		data_types(a, f->syms, f->start, f->end);
	own_file(a);
}

unsigned
bt_annotation_line_in(const struct bt_annotation *a, const struct bt_ainsn *ai,
		      const char *file)
{
	uint32_t k;

	if (ai->file != NULL && strcmp(ai->file, file) == 0)
		return ai->line;
	for (k = ai->depth; k > 0; k--) {	/* innermost call site first */
		const struct bt_inline *fr = &a->frames.v[ai->chain + k - 1];
		if (fr->call_file != NULL && strcmp(fr->call_file, file) == 0)
			return fr->call_line;
	}
	return 0;
}

void
bt_annotation_free(struct bt_annotation *a)
{
	if (a == NULL)
		return;
	BT_VEC_FREE(a->insns);
	BT_VEC_FREE(a->frames);
	BT_VEC_FREE(a->regions);
	BT_VEC_FREE(a->loops);
	BT_VEC_FREE(a->dtypes);
	bt_strpool_release(&a->pool);
	free(a);
}
