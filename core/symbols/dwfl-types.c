/*
 * Data types of memory accesses (perf annotate --data-type): for one
 * function, the DWARF variables and parameters (its own, its lexical
 * blocks' and its inlined subroutines') whose location is a register
 * at some address, and whose type is a pointer to a struct, class or
 * union, or which are such an object (or an array of them) at a constant
 * offset from a register. A load or store whose address is that register
 * plus a displacement reaches a member, found by walking the type's
 * members (nested structs and arrays) down to the displacement.
 *
 * Collected once per function (every location list entry of every
 * candidate, as an address range), then each instruction is a scan of
 * those. Nothing is guessed: a register two variables of different
 * types are in at once, an offset outside the object, a union member
 * that is not the only one at its offset, all give nothing (or stop the
 * member path there).
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/dwfl-int.h"

#define MAX_DEPTH 64

enum cand_kind {
	CAND_PTR,	/* the register holds a pointer to the aggregate */
	CAND_OBJ,	/* the object is at the register plus off */
};

/* One location list entry of one candidate variable. */
struct cand {
	uint64_t lo, hi;		/* link-time addresses */
	int reg;
	int64_t off;			/* CAND_OBJ: the object's offset from reg */
	enum cand_kind kind;
	unsigned depth;			/* of its scope: the innermost wins */
	Dwarf_Off type;			/* the aggregate (or the array of them) */
	Dwarf *tdw;			/* in this DWARF (a dwz file's, maybe) */
	Dwarf_Word size;		/* its size */
	const char *tname;		/* a typedef's name for an anonymous aggregate */
	const char *var;		/* tname and var are libdw's */
};

#define NREGS 32
#define REG_CFA NREGS		/* cands[REG_CFA]: off is from the CFA (GCC's frame base) */
#define NMEMO 256

/* What one (type, offset) resolved to: most accesses repeat a few members. */
struct memo {
	Dwarf_Off type;
	Dwarf *tdw;
	int64_t off;
	const char *tname;
	struct bt_data_type dt;
	bool ok, used;
};

struct bt_dtypes {
	struct bt_msyms *m;
	struct cu *cu;
	bool cplus;
	BT_VEC(struct cand) cands[NREGS + 1];	/* by register, then the CFA's */
	Dwarf_CFI *cfi;				/* for the CFA, on first use */
	Dwarf_Addr cfi_bias;
	bool cfi_done;
	Dwarf_Addr cfa_lo, cfa_hi;		/* the last rule's addresses (unbiased) */
	int cfa_reg;				/* and the rule, -1: none */
	int64_t cfa_off;
	struct memo memo[NMEMO];
};

static bool
is_aggregate(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	    tag == DW_TAG_union_type;
}

/* die's DW_AT_type, through typedefs and qualifiers; the last typedef's name in *tdname. */
static bool
type_of(Dwarf_Die *die, Dwarf_Die *out, const char **tdname)
{
	Dwarf_Attribute attr;
	Dwarf_Die cur = *die;
	int i;

	for (i = 0; i < 16; i++) {
		int tag;

		if (dwarf_attr_integrate(&cur, DW_AT_type, &attr) == NULL ||
		    dwarf_formref_die(&attr, out) == NULL)
			return false;
		tag = dwarf_tag(out);
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type)
			return true;
		if (tag == DW_TAG_typedef && tdname != NULL)
			*tdname = dwarf_diename(out);
		cur = *out;
	}
	return false;
}

/* The element type of a one-dimensional array (stripped) and its size. */
static bool
array_elem(Dwarf_Die *arr, Dwarf_Die *elem, Dwarf_Word *esize, const char **tdname)
{
	Dwarf_Word total;
	Dwarf_Die child;
	int dims = 0;

	if (!type_of(arr, elem, tdname) || dwarf_aggregate_size(elem, esize) != 0 ||
	    *esize == 0 || dwarf_aggregate_size(arr, &total) != 0)
		return false;
	if (dwarf_child(arr, &child) == 0)
		do
			if (dwarf_tag(&child) == DW_TAG_subrange_type)
				dims++;
		while (dwarf_siblingof(&child, &child) == 0);
	return dims == 1;
}

/*
 * Whether a variable of type t is a candidate: a pointer (or reference)
 * to an aggregate (CAND_PTR), or an aggregate or one-dimensional array
 * of them (CAND_OBJ). The type to walk in *agg.
 */
static bool
candidate_type(Dwarf_Die *var, Dwarf_Die *agg, bool *ptr, const char **tdname)
{
	Dwarf_Die t, elem;
	Dwarf_Word esize;
	int tag;

	*tdname = NULL;
	if (!type_of(var, &t, tdname))
		return false;
	tag = dwarf_tag(&t);
	if (tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
	    tag == DW_TAG_rvalue_reference_type) {
		*tdname = NULL;
		if (!type_of(&t, agg, tdname) || !is_aggregate(dwarf_tag(agg)))
			return false;
		*ptr = true;
		return true;
	}
	*ptr = false;
	*agg = t;
	if (is_aggregate(tag))
		return true;
	return tag == DW_TAG_array_type && array_elem(&t, &elem, &esize, tdname) &&
	    is_aggregate(dwarf_tag(&elem));
}

/* The register of a one-operation location: DW_OP_regN (value) or DW_OP_bregN (memory). */
static bool
loc_reg(const Dwarf_Op *ops, size_t n, bool *in_reg, int *reg, int64_t *off)
{
	uint8_t op;

	if (n != 1)
		return false;
	op = ops[0].atom;
	if (op >= DW_OP_reg0 && op <= DW_OP_reg31) {
		*in_reg = true;
		*reg = op - DW_OP_reg0;
	} else if (op == DW_OP_regx) {
		*in_reg = true;
		*reg = (int)ops[0].number;
	} else if (op >= DW_OP_breg0 && op <= DW_OP_breg31) {
		*in_reg = false;
		*reg = op - DW_OP_breg0;
		*off = (int64_t)ops[0].number;
	} else if (op == DW_OP_bregx) {
		*in_reg = false;
		*reg = (int)ops[0].number;
		*off = (int64_t)ops[0].number2;
	} else
		return false;
	return *reg >= 0 && *reg < NREGS;
}

struct walk {
	struct bt_dtypes *t;
	Dwarf_Addr bias;
	uint64_t start, end;		/* the function, link-time */
	int fb_reg;			/* DW_AT_frame_base as DW_OP_bregN, else -1 */
	int64_t fb_off;
	bool fb_cfa;			/* DW_AT_frame_base is DW_OP_call_frame_cfa */
};

static void
add_cand(struct walk *w, struct cand *c, Dwarf_Addr lo, Dwarf_Addr hi)
{
	lo += w->bias;
	hi += w->bias;
	if (hi <= w->start || lo >= w->end || lo >= hi)
		return;
	c->lo = lo;
	c->hi = hi;
	BT_VEC_PUSH(w->t->cands[c->reg], *c);
}

/* A variable or parameter in scope (the nearest DIE with addresses around it). */
static void
add_var(struct walk *w, Dwarf_Die *var, Dwarf_Die *scope, unsigned depth)
{
	Dwarf_Attribute attr;
	Dwarf_Addr base, s, e;
	Dwarf_Op *ops;
	size_t nops;
	ptrdiff_t off = 0;
	Dwarf_Die agg;
	bool ptr;
	const char *tdname, *name;
	struct cand c;

	if (dwarf_attr(var, DW_AT_location, &attr) == NULL ||
	    !candidate_type(var, &agg, &ptr, &tdname))
		return;
	name = dwarf_diename(var);
	memset(&c, 0, sizeof(c));
	c.kind = ptr ? CAND_PTR : CAND_OBJ;
	c.depth = depth;
	if (dwarf_aggregate_size(&agg, &c.size) != 0 || c.size == 0)
		return;
	c.type = dwarf_dieoffset(&agg);
	c.tdw = dwarf_cu_getdwarf(agg.cu);
	/* libdw's strings live as long as the module's DWARF */
	c.tname = tdname;
	c.var = name ? name : "?";
	while ((off = dwarf_getlocations(&attr, off, &base, &s, &e, &ops, &nops)) > 0) {
		bool in_reg;

		if (nops == 1 && ops[0].atom == DW_OP_fbreg && !ptr && w->fb_reg >= 0) {
			in_reg = false;
			c.reg = w->fb_reg;
			c.off = w->fb_off + (int64_t)ops[0].number;
		} else if (nops == 1 && ops[0].atom == DW_OP_fbreg && !ptr && w->fb_cfa) {
			/* at the CFA plus N: which register that is depends on the address */
			in_reg = false;
			c.reg = REG_CFA;
			c.off = (int64_t)ops[0].number;
		} else if (!loc_reg(ops, nops, &in_reg, &c.reg, &c.off))
			continue;
		if (in_reg != ptr)
			continue;
		if (s == 0 && e == (Dwarf_Addr)-1) {
			/* one expression for the whole scope */
			ptrdiff_t roff = 0;
			Dwarf_Addr rb, rs, re;
			while ((roff = dwarf_ranges(scope, roff, &rb, &rs, &re)) > 0)
				add_cand(w, &c, rs, re);
		} else
			add_cand(w, &c, s, e);
	}
}

static bool
has_pc(Dwarf_Die *die)
{
	return dwarf_hasattr(die, DW_AT_low_pc) || dwarf_hasattr(die, DW_AT_ranges);
}

static void
walk_scope(struct walk *w, Dwarf_Die *parent, Dwarf_Die *scope, unsigned depth)
{
	Dwarf_Die child;

	if (depth > MAX_DEPTH || dwarf_child(parent, &child) != 0)
		return;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_variable:
		case DW_TAG_formal_parameter:
			add_var(w, &child, scope, depth);
			break;
		case DW_TAG_lexical_block:
		case DW_TAG_inlined_subroutine:
			if (has_pc(&child)) {
				Dwarf_Die inner = child;
				walk_scope(w, &child, &inner, depth + 1);
			} else
				walk_scope(w, &child, scope, depth + 1);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/*
 * DW_AT_frame_base as one register (clang: DW_OP_reg7 RSP, DW_OP_reg6
 * RBP) or DW_OP_bregN (-O0), the frame base being that register's value
 * (plus the offset); GCC's DW_OP_call_frame_cfa: fb_cfa (the CFA at each
 * address, from the CFI, is a register plus an offset).
 */
static void
frame_base(struct walk *w, Dwarf_Die *sub)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;
	bool in_reg;

	w->fb_reg = -1;
	w->fb_off = 0;
	w->fb_cfa = false;
	if (dwarf_attr(sub, DW_AT_frame_base, &attr) == NULL ||
	    dwarf_getlocation(&attr, &ops, &n) != 0)
		return;
	if (n == 1 && ops[0].atom == DW_OP_call_frame_cfa)
		w->fb_cfa = true;
	else if (!loc_reg(ops, n, &in_reg, &w->fb_reg, &w->fb_off))
		w->fb_reg = -1;
	else if (in_reg)
		w->fb_off = 0;
}

/* Each concrete subprogram's ranges, from one walk over the CU. */
static int
add_func(Dwarf_Die *die, void *arg)
{
	struct cu *c = arg;
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	if (!has_pc(die))
		return DWARF_CB_OK;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		struct cu_func f = { lo, hi, dwarf_dieoffset(die) };
		if (lo < hi)
			BT_VEC_PUSH(c->funcs, f);
	}
	return DWARF_CB_OK;
}

static int
cu_func_cmp(const void *x, const void *y)
{
	const struct cu_func *a = x, *b = y;

	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/*
 * The concrete subprogram holding pc (dwarf_getscopes would give an
 * inlined function's abstract scopes instead of the function it is
 * inlined in). Ranges of several subprograms never overlap.
 */
static bool
func_at(struct cu *c, Dwarf_Die *cudie, Dwarf_Addr pc, Dwarf_Die *out)
{
	size_t lo = 0, hi;

	if (!c->funcs_done) {
		c->funcs_done = true;
		(void)dwarf_getfuncs(cudie, add_func, c, 0);
		bt_qsort(c->funcs.v, c->funcs.n, sizeof(*c->funcs.v), cu_func_cmp);
	}
	hi = c->funcs.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->funcs.v[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && pc < c->funcs.v[lo - 1].hi &&
	    dwarf_offdie(dwarf_cu_getdwarf(cudie->cu), c->funcs.v[lo - 1].die, out) != NULL;
}

struct bt_dtypes *
bt_msyms_dtypes(struct bt_msyms *m, uint64_t start, uint64_t end)
{
	Dwarf_Die cudie, sub;
	struct bt_dtypes *t;
	struct walk w;
	struct cu *c;
	int lang;

	if (m->preset != NULL || !bt_msyms_has_dwarf(m) ||
	    (c = msyms_cu_at(m, start, &cudie)) == NULL)
		return NULL;
	memset(&w, 0, sizeof(w));
	if (dwfl_module_getdwarf(m->mod, &w.bias) == NULL ||
	    !func_at(c, &cudie, start - w.bias, &sub))
		return NULL;
	t = bt_xcalloc(1, sizeof(*t));
	t->m = m;
	t->cu = c;
	lang = dwarf_srclang(&cudie);
	t->cplus = lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03 ||
	    lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14;
	w.t = t;
	w.start = start;
	w.end = end;
	frame_base(&w, &sub);
	walk_scope(&w, &sub, &sub, 0);
	return t;
}

void
bt_dtypes_free(struct bt_dtypes *t)
{
	int r;

	if (t == NULL)
		return;
	for (r = 0; r <= NREGS; r++)
		BT_VEC_FREE(t->cands[r]);
	free(t);
}

/*
 * A bit field's bytes: from its bit offset in *off (DWARF 4's
 * DW_AT_data_member_location with DW_AT_bit_offset, counted from the
 * most significant bit, is not read: nothing is shown for those).
 */
static bool
bitfield_bytes(Dwarf_Die *mem, Dwarf_Word *off, Dwarf_Word *size)
{
	Dwarf_Attribute attr;
	Dwarf_Word bits, boff = *off;

	if (dwarf_attr(mem, DW_AT_data_bit_offset, &attr) == NULL ||
	    dwarf_formudata(&attr, &boff) != 0 ||
	    dwarf_attr(mem, DW_AT_bit_size, &attr) == NULL ||
	    dwarf_formudata(&attr, &bits) != 0 || bits == 0)
		return false;
	*off = boff / 8;
	*size = (boff + bits + 7) / 8 - *off;
	return true;
}

/*
 * A member's offset in its aggregate (DW_AT_data_member_location, or a
 * bit field's first byte) and, for a bit field, its bytes in *size (else
 * *size is left as the caller set it, its type's).
 */
static bool
member_offset(Dwarf_Die *mem, Dwarf_Word *off, Dwarf_Word *size)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;

	if (dwarf_attr(mem, DW_AT_data_member_location, &attr) != NULL) {
		if (dwarf_formudata(&attr, off) == 0)
			return dwarf_hasattr(mem, DW_AT_bit_size) ?
			    bitfield_bytes(mem, off, size) : true;
		if (dwarf_getlocation(&attr, &ops, &n) == 0 && n == 1 &&
		    ops[0].atom == DW_OP_plus_uconst) {
			*off = ops[0].number;
			return true;
		}
		return false;
	}
	if (dwarf_attr(mem, DW_AT_data_bit_offset, &attr) != NULL)
		return dwarf_formudata(&attr, off) == 0 && bitfield_bytes(mem, off, size);
	/* a union's members are all at 0 */
	*off = 0;
	return true;
}

/*
 * The member path of offset off in aggregate agg, added to sb ("b.x");
 * as deep as it is certain: stops at padding and at a union offset more
 * than one member covers.
 */
static void
member_path(struct bt_strbuf *sb, Dwarf_Die *agg, uint64_t off, int level)
{
	Dwarf_Die child, hit, htype;
	Dwarf_Word hoff = 0;
	int nhits = 0;

	if (level > 16 || dwarf_child(agg, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Word moff, msize;
		Dwarf_Die mt;

		if ((tag != DW_TAG_member && tag != DW_TAG_inheritance) ||
		    dwarf_hasattr(&child, DW_AT_external) ||	/* a static member */
		    !type_of(&child, &mt, NULL) ||
		    dwarf_aggregate_size(&mt, &msize) != 0 ||
		    !member_offset(&child, &moff, &msize) || msize == 0)
			continue;
		if (off >= moff && off < moff + msize) {
			if (nhits++ == 0) {
				hit = child;
				htype = mt;
				hoff = moff;
			}
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	if (nhits != 1)
		return;
	off -= hoff;
	if (dwarf_tag(&hit) != DW_TAG_inheritance) {
		const char *name = dwarf_diename(&hit);
		if (name != NULL) {
			if (sb->len > 0)
				bt_strbuf_addch(sb, '.');
			bt_strbuf_addstr(sb, name);
		}
	}
	if (dwarf_tag(&htype) == DW_TAG_array_type) {
		Dwarf_Die elem;
		Dwarf_Word esize;

		if (!array_elem(&htype, &elem, &esize, NULL))
			return;
		bt_strbuf_addf(sb, "[%llu]", (unsigned long long)(off / esize));
		off %= esize;
		htype = elem;
	}
	if (is_aggregate(dwarf_tag(&htype)))
		member_path(sb, &htype, off, level + 1);
}

/* "struct point", "class ns::Foo", "union u": the aggregate's keyword and (qualified) name. */
static const char *
type_name(struct bt_dtypes *t, Dwarf_Die *agg, const char *tdname)
{
	int tag = dwarf_tag(agg);
	const char *kw = tag == DW_TAG_class_type ? "class" :
	    tag == DW_TAG_union_type ? "union" : "struct";
	const char *name = dwarf_diename(agg);
	struct bt_strbuf sb = BT_STRBUF_INIT;
	Dwarf_Off off = dwarf_dieoffset(agg);
	Dwarf *agg_dw = dwarf_cu_getdwarf(agg->cu);
	struct cu_tname tn;
	size_t i;

	if (name == NULL && tdname != NULL)
		return bt_strpool_addstr(&t->m->pool, tdname);
	/* once a type: C++'s scopes are a walk over the CU */
	for (i = 0; i < t->cu->tnames.n; i++)
		if (t->cu->tnames.v[i].die == off && t->cu->tnames.v[i].dw == agg_dw)
			return t->cu->tnames.v[i].name;
	bt_strbuf_addf(&sb, "%s ", kw);
	if (name != NULL && t->cplus) {
		Dwarf_Die *scopes = NULL;
		int n = dwarf_getscopes_die(agg, &scopes);

		/* scopes[0] is agg itself; the CU last */
		for (int k = n - 1; k >= 1; k--) {
			int st = dwarf_tag(&scopes[k]);
			const char *sn = dwarf_diename(&scopes[k]);
			if ((st == DW_TAG_namespace || is_aggregate(st)) && sn != NULL)
				bt_strbuf_addf(&sb, "%s::", sn);
		}
		free(scopes);
	}
	bt_strbuf_addstr(&sb, name ? name : "(anonymous)");
	tn.die = off;
	tn.dw = agg_dw;
	tn.name = bt_strpool_addstr(&t->m->pool, sb.buf);
	BT_VEC_PUSH(t->cu->tnames, tn);
	bt_strbuf_release(&sb);
	return tn.name;
}

/* The type, member and offset of one candidate for an access at reg + disp. */
static bool
resolve(struct bt_dtypes *t, const struct cand *c, int64_t disp,
	struct bt_data_type *out)
{
	Dwarf_Die agg, elem;
	Dwarf_Word size, esize;
	struct bt_strbuf sb = BT_STRBUF_INIT;
	const char *tdname = c->tname;
	int64_t off = c->kind == CAND_PTR ? disp : disp - c->off;
	uint64_t in;

	if (off < 0 || dwarf_offdie(c->tdw, c->type, &agg) == NULL ||
	    dwarf_aggregate_size(&agg, &size) != 0 || size == 0)
		return false;
	in = (uint64_t)off;
	if (dwarf_tag(&agg) == DW_TAG_array_type) {
		/* a local array of aggregates: the element, by index */
		if (in >= size || !array_elem(&agg, &elem, &esize, &tdname))
			return false;
		bt_strbuf_addf(&sb, "[%llu]", (unsigned long long)(in / esize));
		in %= esize;
		agg = elem;
		size = esize;
	} else if (in >= size) {
		/* past the object: an array's next element, or what follows a header? */
		bt_strbuf_release(&sb);
		return false;
	}
	member_path(&sb, &agg, in, 0);
	out->type = type_name(t, &agg, tdname);
	out->member = sb.len ? bt_strpool_addstr(&t->m->pool, sb.buf) : NULL;
	out->offset = off;
	out->var = c->var;
	bt_strbuf_release(&sb);
	return true;
}

/*
 * The CFA at addr as a register plus an offset (the CFI's rule there:
 * rsp+8 at a function's entry, rsp+16 after a push...); false where the
 * CFI has no such rule.
 */
static bool
cfa_at(struct bt_dtypes *t, uint64_t addr, int *reg, int64_t *off)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops;
	size_t n;
	bool ok = false;

	if (!t->cfi_done) {
		t->cfi_done = true;
		t->cfi = dwfl_module_eh_cfi(t->m->mod, &t->cfi_bias);
		if (t->cfi == NULL)
			t->cfi = dwfl_module_dwarf_cfi(t->m->mod, &t->cfi_bias);
	}
	if (t->cfi == NULL || addr < t->cfi_bias)
		return false;
	addr -= t->cfi_bias;
	/* a rule holds for a range of addresses: the next instructions' too */
	if (addr >= t->cfa_lo && addr < t->cfa_hi) {
		*reg = t->cfa_reg;
		*off = t->cfa_off;
		return t->cfa_reg >= 0;
	}
	if (dwarf_cfi_addrframe(t->cfi, addr, &frame) != 0)
		return false;
	if (dwarf_frame_cfa(frame, &ops, &n) == 0 && n == 1) {
		bool in_reg;
		ok = loc_reg(ops, n, &in_reg, reg, off) && !in_reg;
	}
	if (dwarf_frame_info(frame, &t->cfa_lo, &t->cfa_hi, NULL) < 0)
		t->cfa_lo = t->cfa_hi = 0;
	t->cfa_reg = ok ? *reg : -1;
	t->cfa_off = ok ? *off : 0;
	free(frame);
	return ok;
}

/* c as a candidate for an access at reg + disp: the innermost wins, a tie is nothing. */
static void
consider(const struct cand *c, int64_t coff, uint64_t addr, struct cand *best,
	 bool *have, bool *tie)
{
	/* outside this one's object: another variable's, maybe an outer one */
	if (addr < c->lo || addr >= c->hi || coff < 0 || (uint64_t)coff >= c->size)
		return;
	if (!*have || c->depth > best->depth) {
		*best = *c;
		*have = true;
		*tie = false;
	} else if (c->depth == best->depth && (c->type != best->type ||
	    c->tdw != best->tdw ||
	    c->kind != best->kind || c->off != best->off))
		*tie = true;
}

int
bt_dtypes_find(struct bt_dtypes *t, uint64_t addr, int reg, int64_t disp,
	       struct bt_data_type *out)
{
	struct cand best;
	struct memo *mo;
	bool have = false, tie = false;
	int64_t off, cfa_off;
	int cfa_reg;
	size_t i;

	if (t == NULL || reg < 0 || reg >= NREGS)
		return -BT_ENOENT;
	memset(&best, 0, sizeof(best));
	for (i = 0; i < t->cands[reg].n; i++) {
		const struct cand *c = &t->cands[reg].v[i];
		consider(c, c->kind == CAND_PTR ? disp : disp - c->off, addr,
		    &best, &have, &tie);
	}
	/* locals at the CFA plus an offset, where the CFA is reg plus one here */
	if (t->cands[REG_CFA].n > 0 && cfa_at(t, addr, &cfa_reg, &cfa_off) &&
	    cfa_reg == reg)
		for (i = 0; i < t->cands[REG_CFA].n; i++) {
			struct cand c = t->cands[REG_CFA].v[i];
			c.reg = reg;
			c.off += cfa_off;
			consider(&c, disp - c.off, addr, &best, &have, &tie);
		}
	/* two variables of this depth, of different types, in the register: not known */
	if (!have || tie)
		return -BT_ENOENT;
	off = best.kind == CAND_PTR ? disp : disp - best.off;
	mo = &t->memo[bt_hash64(best.type * 31 + (uint64_t)off) % NMEMO];
	if (!mo->used || mo->type != best.type || mo->tdw != best.tdw || mo->off != off ||
	    mo->tname != best.tname) {
		mo->used = true;
		mo->type = best.type;
		mo->tdw = best.tdw;
		mo->off = off;
		mo->tname = best.tname;
		mo->ok = resolve(t, &best, disp, &mo->dt);
	}
	if (!mo->ok)
		return -BT_ENOENT;
	*out = mo->dt;
	out->var = best.var;
	return 0;
}
