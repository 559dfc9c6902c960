/*
 * A process's mappings over its time (machine-int.h): each mapping keeps
 * when it began and ended, so that an address is looked up at any time,
 * in any order (samples wait in rounds; a window reads them again).
 */
#include "machine/machine-int.h"

/*
 * A new mapping [start, end) at time t ends the older mappings it
 * overlaps, and what they kept outside it lives on as new pieces (perf's
 * maps__fixup_overlappings): the kernel reports ld.so, or any ELF whose
 * first segment is executable, with its whole reserved size, then maps
 * libraries into its tail; the head stays ld.so's.
 */
static void
trim(struct bt_maps *ms, uint64_t start, uint64_t end, uint64_t t)
{
	size_t i, n = ms->v.n;

	for (i = 0; i < n; i++) {
		struct bt_map o = ms->v.v[i], piece;

		if (!(o.start < end && start < o.end && o.t_end > t))
			continue;
		ms->v.v[i].t_end = t;
		piece = o;
		piece.t_start = t;
		if (o.start < start) {
			piece.end = start;
			BT_VEC_PUSH(ms->v, piece);
		}
		if (end < o.end) {
			piece.start = end;
			piece.end = o.end;
			piece.pgoff = o.pgoff + (end - o.start);
			BT_VEC_PUSH(ms->v, piece);
		}
	}
}

void
bt_maps_add(struct bt_maps *ms, const struct bt_map *map)
{
	trim(ms, map->start, map->end, map->t_start);
	BT_VEC_PUSH(ms->v, *map);
}

void
bt_maps_end(struct bt_maps *ms, uint64_t t)
{
	size_t i;

	for (i = 0; i < ms->v.n; i++)
		if (ms->v.v[i].t_end > t)
			ms->v.v[i].t_end = t;
}

const struct bt_map *
bt_maps_scan(struct bt_maps *ms, uint64_t ip, uint64_t t)
{
	const struct bt_map *best = NULL;
	size_t i;

	for (i = 0; i < ms->v.n; i++) {
		const struct bt_map *m = &ms->v.v[i];
		if (bt_map_holds(m, ip, t) && (best == NULL || m->t_start >= best->t_start)) {
			best = m;
			ms->last_hit = i;
		}
	}
	return best;
}

void
bt_maps_release(struct bt_maps *ms)
{
	BT_VEC_FREE(ms->v);
	ms->last_hit = 0;
}
