/* Build the annotation of one function: decode, join samples, lines, inlines. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "annotate/cfg.h"

#define MAX_INLINE_DEPTH 16
#define MAX_FUNC_BYTES (16u << 20)

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

static bool
same_chain(const struct bt_inline *a, const struct bt_inline *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].lo != b[i].lo || a[i].hi != b[i].hi ||
		    a[i].call_line != b[i].call_line || a[i].name != b[i].name)
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
	if (bt_msyms_func(m, target, &fs) < 0)
		return NULL;
	if (target == fs.start)
		return bt_strpool_addstr(&a->pool, fs.name);
	return bt_strpool_addf(&a->pool, "%s+0x%llx", fs.name,
	    (unsigned long long)(target - fs.start));
}

static void
join_lines(struct bt_annotation *a, struct bt_msyms *m, uint64_t start, uint64_t end)
{
	const struct bt_line *rows;
	size_t n = bt_msyms_lines(m, start, end, &rows), r = 0, i;
	struct bt_inline chain[MAX_INLINE_DEPTH];
	uint32_t prev_chain = 0, prev_depth = 0;

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
		depth = bt_msyms_inlines(m, ai->in.addr, chain, MAX_INLINE_DEPTH);
		if (depth == prev_depth && depth > 0 &&
		    same_chain(chain, &a->frames.v[prev_chain], depth)) {
			ai->chain = prev_chain;
			ai->depth = prev_depth;
			continue;
		}
		ai->chain = (uint32_t)a->frames.n;
		ai->depth = (uint32_t)depth;
		for (size_t k = 0; k < depth; k++)
			BT_VEC_PUSH(a->frames, chain[k]);
		prev_chain = ai->chain;
		prev_depth = ai->depth;
	}
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

struct bt_annotation *
bt_annotate(const struct bt_annotate_in *f, struct bt_error *err)
{
	struct bt_msyms *m = f->syms;
	struct bt_annotation *a;
	struct bt_cfg *g;
	const uint8_t *bytes;
	uint64_t addr;
	long n;
	size_t i;

	if (f->end <= f->start || f->end - f->start > MAX_FUNC_BYTES) {
		bt_error_set(err, BT_EFORMAT, "'%s' has no usable bounds", f->name);
		return NULL;
	}
	n = bt_msyms_code(m, f->start, f->end, &bytes);
	if (n <= 0) {
		bt_error_set(err, BT_ENODATA, "no code bytes for '%s' in '%s'",
		    f->name, bt_msyms_info(m)->path);
		return NULL;
	}

	a = bt_xcalloc(1, sizeof(*a));
	bt_strpool_init(&a->pool);
	/*
	 * About 4 bytes an instruction on x86: presize, then decode in place.
	 * Compiled code averages under 5 bytes an instruction: that many are
	 * written for sure (bt_xmalloc_big: huge pages)
	 */
	a->insns.alloc = (size_t)n / 3 + 16;
	a->insns.v = bt_xmalloc_big(a->insns.alloc, (size_t)n / 5, sizeof(*a->insns.v));
	for (addr = f->start; addr < f->start + (uint64_t)n;) {
		struct bt_ainsn *ai;
		size_t len;

		BT_ALLOC_GROW(a->insns.v, a->insns.n + 1, a->insns.alloc);
		ai = &a->insns.v[a->insns.n++];
		memset(ai, 0, offsetof(struct bt_ainsn, in));
		memset((char *)ai + offsetof(struct bt_ainsn, in) + sizeof(ai->in), 0,
		    sizeof(*ai) - offsetof(struct bt_ainsn, in) - sizeof(ai->in));
		len = bt_disasm_one(f->dis, bytes + (addr - f->start),
		    (size_t)(f->start + (uint64_t)n - addr), addr, &ai->in);
		keep_text(a, &ai->in);
		ai->target_insn = -1;
		ai->region = -1;
		ai->loop = -1;
		addr += len;
	}
	/* samples */
	for (i = 0; i < f->nhits; i++) {
		const struct bt_hit *h = &f->hits[i];
		long k = bt_annotation_find(a, h->addr);

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
		if (ai->in.kind != BT_INSN_JUMP && ai->in.kind != BT_INSN_CJUMP &&
		    ai->in.kind != BT_INSN_CALL)
			continue;
		ai->target_name = name_target(a, f, ai->in.target);
		if (ai->in.kind != BT_INSN_CALL) {
			long k = bt_annotation_find(a, ai->in.target);
			if (k >= 0 && a->insns.v[k].in.addr == ai->in.target)
				ai->target_insn = k;
		}
	}
	if (f->lines)
		join_lines(a, m, f->start, f->end);
	own_file(a);
	g = bt_cfg_build(a);
	bt_skid_adjust(a, g);
	bt_find_loops(a, g);
	bt_cfg_free(g);
	bt_find_regions(a, f->region_threshold, f->region_margin);
	return a;
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
	bt_strpool_release(&a->pool);
	free(a);
}
