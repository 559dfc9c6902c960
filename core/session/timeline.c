/*
 * A selection's samples over time (the timeline): the run cut into equal
 * slices, every sample of the event in each, and of them those of one
 * function or of the selected benchmark. The samples are read again: the
 * profile keeps nothing per sample.
 */
#include <stdlib.h>
#include <string.h>

#include "session/session-int.h"
#include "symbols/symbols.h"

/* The file offsets [*lo, *hi) of function fi's code, through its PT_LOAD. */
static bool
func_offsets(struct bt_selection *sel, size_t fi, uint64_t *lo, uint64_t *hi)
{
	const struct bt_func *f = &sel->funcs.v[fi].pub;
	struct bt_msyms *m = bt_session_syms(sel->s, f->mod);
	uint64_t off;

	if (m == NULL) {	/* no file: the addresses are the offsets */
		*lo = f->start;
		*hi = f->end;
		return true;
	}
	if (f->end <= f->start || bt_msyms_addr_to_off(m, f->start, lo) < 0 ||
	    bt_msyms_addr_to_off(m, f->end - 1, &off) < 0)
		return false;
	*hi = off + 1;
	return true;
}

void
bt_selection_slices(struct bt_selection *sel, size_t nbins, long func,
		    struct bt_slices *out)
{
	const struct bt_profile *p = sel->s->p;
	struct bt_hist_entry *e = NULL;
	struct bt_scan sc;
	size_t i, n = 0;

	memset(out, 0, sizeof(*out));
	out->n = nbins ? nbins : 1;
	out->span = p->last_time > p->first_time ?
	    (double)(p->last_time - p->first_time) : 1;
	out->all = bt_xcalloc(out->n, sizeof(*out->all));
	out->mine = bt_xcalloc(out->n, sizeof(*out->mine));
	/* every sample of the event, by slice: in the function or not */
	bt_scan_init_counts(&sc, sel->attr);
	sc.nbins = out->n;
	if (func >= 0 && (size_t)func < sel->funcs.n) {
		out->of = BT_SLICES_FUNC;
		if (func_offsets(sel, (size_t)func, &sc.fold_lo, &sc.fold_hi))
			sc.fold_module = sel->funcs.v[func].pub.mod;
	}
	bt_profile_scan(sel->s->p, &sc, &e, &n, NULL);	/* on failure: none */
	for (i = 0; i < n; i++) {
		out->all[e[i].group] += e[i].samples;
		if (e[i].off == 1)
			out->mine[e[i].group] += e[i].samples;
	}
	free(e);
	/* no function: the selected benchmark's share, if one is */
	if (out->of == BT_SLICES_ALL &&
	    bt_selection_bench_slices(sel, out->n, out->mine))
		out->of = BT_SLICES_BENCH;
}

void
bt_slices_release(struct bt_slices *sl)
{
	free(sl->all);
	free(sl->mine);
	memset(sl, 0, sizeof(*sl));
}
