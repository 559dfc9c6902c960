/*
 * The aligned function's units as benchtui/match.h gives them to the
 * view and the exports, and the function found by name in both.
 */
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "base.h"
#include "benchtui/selection.h"
#include "diff/align.h"

size_t
bt_align_nunits(const struct bt_align *al)
{
	return al->unit_row.n;
}

static void
side_insn(const struct bt_align *al, int s, long i, struct bt_align_side *out)
{
	const struct bt_ainsn *ai;

	memset(out, 0, sizeof(*out));
	if (i < 0)
		return;
	ai = &al->an[s]->insns.v[i];
	out->present = true;
	out->addr = ai->in.addr;
	out->text = ai->in.text;
	out->file = ai->file;
	out->line = ai->line;
	out->samples = ai->samples;
}

/* Side s of block b: its first instruction's place, its samples. */
static void
side_block(const struct bt_align *al, int s, const struct bt_align_block *bl,
	   struct bt_align_side *out)
{
	size_t r;
	bool first = true;

	memset(out, 0, sizeof(*out));
	for (r = bl->first; r < bl->first + bl->n; r++) {
		long i = s ? al->m.rows.v[r].b : al->m.rows.v[r].a;
		const struct bt_ainsn *ai;

		if (i < 0)
			continue;
		ai = &al->an[s]->insns.v[i];
		if (first) {
			out->present = true;
			out->addr = ai->in.addr;
			out->file = ai->file;
			out->line = ai->line;
			first = false;
		}
		out->samples += ai->samples;
	}
}

void
bt_align_unit(const struct bt_align *al, size_t i, struct bt_align_unit *out)
{
	long r = i < al->unit_row.n ? al->unit_row.v[i] : 0;

	memset(out, 0, sizeof(*out));
	if (r < 0) {
		const struct bt_align_block *bl = &al->blocks.v[-1 - r];

		out->kind = BT_AK_BLOCK;
		out->block = (size_t)(-1 - r);
		side_block(al, 0, bl, &out->a);
		side_block(al, 1, bl, &out->b);
		out->tested = bl->tested;
		out->hottest = al->hottest == -1 - r;
		out->inserted = bl->inserted;
		out->deleted = bl->deleted;
		out->differ = bl->differ;
		out->st = bl->st;
		return;
	}
	{
		const struct bt_match_row *row = &al->m.rows.v[r];

		side_insn(al, 0, row->a, &out->a);
		side_insn(al, 1, row->b, &out->b);
		out->kind = row->a < 0 ? BT_AK_INSERTED : row->b < 0 ? BT_AK_DELETED :
		    (row->flags & BT_MR_MOVED) ? BT_AK_MOVED :
		    (row->flags & BT_MR_OPERANDS) ? BT_AK_MATCHED : BT_AK_OPCODE;
		out->same_line = (row->flags & BT_MR_LINE) != 0;
		out->tested = al->tested[r];
		out->st = al->st[r];
		out->block = al->row_block[r];
	}
}

const char *
bt_align_cost_unit(const struct bt_align *al)
{
	return al->unit;
}

const char *
bt_align_vectors(const struct bt_align *al, size_t *na, size_t *nb)
{
	if (na)
		*na = al->nparts[0];
	if (nb)
		*nb = al->nparts[1];
	return al->vectors;
}

const char *
bt_align_func_name(const struct bt_align *al, int side)
{
	return bt_selection_func(al->sel[side ? 1 : 0], al->fi[side ? 1 : 0])->name;
}

const char *
bt_align_kind_name(enum bt_align_kind k)
{
	static const char *const names[] = {
		[BT_AK_MATCHED] = "matched", [BT_AK_OPCODE] = "opcode",
		[BT_AK_MOVED] = "moved", [BT_AK_INSERTED] = "inserted",
		[BT_AK_DELETED] = "deleted", [BT_AK_BLOCK] = "block",
	};
	return (size_t)k < BT_ARRAY_SIZE(names) ? names[k] : "?";
}

/* B's function for A's fa: by name, else by match.c's pairing. */
static long
find_b(struct bt_selection *sa, size_t fa, struct bt_selection *sb, const char *name)
{
	long fb = bt_selection_find(sb, name);
	struct bt_func_pair *rows;
	size_t n, i;

	if (fb >= 0)
		return fb;
	n = bt_match_selection_funcs(sa, sb, &rows);
	for (i = 0; i < n; i++)
		if (rows[i].a == (long)fa) {
			fb = rows[i].b;
			break;
		}
	free(rows);
	return fb;
}

struct bt_align *
bt_align_find(struct bt_selection *sa, struct bt_selection *sb, const char *name,
	      struct bt_error *err)
{
	long fa = bt_selection_find(sa, name), fb;

	if (fa < 0) {
		bt_error_set(err, BT_ENOENT, "no function '%s' in the old recording", name);
		return NULL;
	}
	fb = find_b(sa, (size_t)fa, sb, name);
	if (fb < 0) {
		bt_error_set(err, BT_ENOENT, "no function '%s' in the new recording", name);
		return NULL;
	}
	return bt_align_new(sa, (size_t)fa, -1, sb, (size_t)fb, -1, err);
}
