/*
 * The histogram accumulator (hist.h): one open-addressing table of the
 * offsets samples touched, found through regions.
 *
 * A million samples spread over a big function's code land on a new
 * address almost every time, so what an add costs is its cache misses,
 * and those grow with the memory the counts take. An address is named
 * in 32 bits: its region (REGION_SPAN offsets of one group and module,
 * found by a hash of (group, module, offset / REGION_SPAN) over the
 * regions' keys, a few hundred for a program's whole text; RCACHE of
 * them remembered in a direct-mapped cache, as samples spread over a big
 * function change region almost every time), then the offset in it. The
 * counts are a table of 16-byte cells, each an address that was sampled,
 * at most half full: a 30,000-instruction function's 21,000 sampled
 * addresses take 1 MiB. Counts kept in chunks of 64 consecutive offsets
 * (the way before) took 1 KiB for every 64 bytes of code with a sample
 * in them, 5 MiB for that function, every page of it faulted in and
 * cleared by the first read. An add prefetches its cell and is done
 * PENDING adds later, while the caller decodes the next samples.
 *
 * More regions than a cell can name (REGION_MAX) spill: the table so far
 * is emptied into a list, and bt_hist_take adds the lists up.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base.h"
#include "hash.h"
#include "profile/hist.h"

/* A sampled address: its counts; samples 0 is an empty cell. */
struct cell {
	uint32_t key;		/* region << REGION_BITS | offset in the region */
	uint32_t samples;
	uint64_t period;
};

struct region {
	uint64_t base;		/* first offset: a multiple of REGION_SPAN */
	uint32_t module;
	uint32_t group;
};

#define PENDING 16	/* adds under way: a power of two */
#define REGION_BITS 12
#define REGION_SPAN ((uint64_t)1 << REGION_BITS)
#define REGION_MAX ((size_t)1 << (32 - REGION_BITS))
#define MIN_CELLS 1024	/* a power of two */
#define RCACHE 256	/* regions remembered: a power of two */

struct bt_hist {
	struct cell *cells;	/* the table: mask + 1 cells */
	uint32_t mask;
	unsigned shift;		/* 64 - log2(mask + 1): cell_at */
	size_t n;		/* cells in use */
	struct region *regions;
	size_t nr, ralloc;
	size_t region_max;	/* regions before the table spills */
	struct bt_hash index;	/* (group, module, region base) -> region */
	/* regions found lately, by (base / REGION_SPAN + module + group) % RCACHE */
	struct {
		struct region k;
		uint32_t r;	/* region index + 1; 0: none */
	} rcache[RCACHE];
	/* the adds not done yet: key, period; pend[(head + i) % PENDING] */
	struct {
		uint32_t key;
		uint32_t at;	/* the cell its probe starts at */
		uint64_t period;
	} pend[PENDING];
	unsigned head, npend;
	/* what spilled (more regions than a key names): entries, unsorted */
	struct bt_hist_entry *spill;
	size_t nspill, spill_alloc;
};

static void cells_free(struct cell *c, size_t n);

struct bt_hist *
bt_hist_new(void)
{
	struct bt_hist *h = bt_xcalloc(1, sizeof(*h));

	bt_hash_init(&h->index, 128);
	h->region_max = REGION_MAX;
	return h;
}

void
bt_hist_limit_regions(struct bt_hist *h, size_t n)
{
	h->region_max = BT_MAX(BT_MIN(n, REGION_MAX), 1);
}

void
bt_hist_free(struct bt_hist *h)
{
	if (h == NULL)
		return;
	cells_free(h->cells, (size_t)h->mask + 1);
	free(h->regions);
	free(h->spill);
	bt_hash_release(&h->index);
	free(h);
}

static uint64_t
region_hash(uint32_t group, uint32_t module, uint64_t base)
{
	return bt_hash64(base ^ (uint64_t)module << 40 ^ (uint64_t)group << 52);
}

/* The cell where key's probe starts: the top bits of a Fibonacci hash. */
static inline uint32_t
cell_at(const struct bt_hist *h, uint32_t key)
{
	return (uint32_t)(((uint64_t)key * 0x9e3779b97f4a7c15ULL) >> h->shift);
}

#define HUGE_PAGE ((size_t)2 << 20)

/*
 * n cells, cleared. A table of half a huge page or more (huge's 21,000
 * addresses: 1 MiB) is mapped on its own in whole huge pages, aligned,
 * and asked for them (MADV_HUGEPAGE: where the system gives them, one
 * fault instead of one a page, and one TLB entry for the random adds,
 * for at most twice the memory); else, or where it does not, pages.
 */
static struct cell *
cells_new(size_t n)
{
	size_t bytes = n * sizeof(struct cell);
	uint8_t *p, *q;

	if (bytes < HUGE_PAGE / 2)
		return bt_xcalloc(n, sizeof(struct cell));
	bytes = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	p = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		bt_fatal_oom(bytes + HUGE_PAGE);
	q = (uint8_t *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (q > p)
		munmap(p, (size_t)(q - p));
	munmap(q + bytes, (size_t)(p + HUGE_PAGE - q));
	madvise(q, bytes, MADV_HUGEPAGE);
	return (struct cell *)q;
}

/* The n cells of cells_new() given back. */
static void
cells_free(struct cell *c, size_t n)
{
	size_t bytes = n * sizeof(struct cell);

	if (c == NULL)
		return;
	if (bytes < HUGE_PAGE / 2)
		free(c);
	else
		munmap(c, (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
}

/*
 * The table made, or grown fourfold, its cells put again: each table is
 * new memory the kernel clears as it is touched, and growing by four
 * makes two thirds of doubling's (1.3 MiB against 2 MiB for huge's
 * 21,000 addresses).
 */
static void
grow_cells(struct bt_hist *h)
{
	size_t size = h->cells ? 4 * ((size_t)h->mask + 1) : MIN_CELLS, i;
	struct cell *old = h->cells;
	uint32_t mask = (uint32_t)(size - 1), j;

	h->cells = cells_new(size);
	h->shift = 64 - (unsigned)__builtin_ctzll(size);
	if (old != NULL) {
		for (i = 0; i <= h->mask; i++) {
			if (old[i].samples == 0)
				continue;
			for (j = cell_at(h, old[i].key); h->cells[j].samples != 0;
			    j = (j + 1) & mask)
				;
			h->cells[j] = old[i];
		}
	}
	cells_free(old, (size_t)h->mask + 1);
	h->mask = mask;
	for (i = 0; i < PENDING; i++)	/* the adds under way start elsewhere now */
		h->pend[i].at = cell_at(h, h->pend[i].key);
}

/* Add to key's cell (made if new). */
static inline void
count(struct bt_hist *h, uint32_t key, uint32_t at, uint64_t period)
{
	struct cell *c;
	uint32_t j;

	for (j = at;; j = (j + 1) & h->mask) {
		c = &h->cells[j];
		if (c->samples == 0)
			break;
		if (c->key == key) {
			c->samples++;
			c->period += period;
			return;
		}
	}
	if (2 * (h->n + 1) > (size_t)h->mask + 1) {	/* at most half full */
		grow_cells(h);
		for (j = cell_at(h, key); h->cells[j].samples != 0;
		    j = (j + 1) & h->mask)
			;
		c = &h->cells[j];
	}
	c->key = key;
	c->samples = 1;
	c->period = period;
	h->n++;
}

/* Do the oldest pending add. */
static inline void
settle_one(struct bt_hist *h)
{
	count(h, h->pend[h->head].key, h->pend[h->head].at, h->pend[h->head].period);
	h->head = (h->head + 1) % PENDING;
	h->npend--;
}

/* The cells so far into the spill list; the table and regions emptied. */
static void
spill(struct bt_hist *h)
{
	size_t i;

	while (h->npend > 0)
		settle_one(h);
	BT_ALLOC_GROW(h->spill, h->nspill + h->n, h->spill_alloc);
	for (i = 0; h->n > 0 && i <= h->mask; i++) {
		const struct cell *c = &h->cells[i];
		const struct region *r;
		struct bt_hist_entry *e;

		if (c->samples == 0)
			continue;
		r = &h->regions[c->key >> REGION_BITS];
		e = &h->spill[h->nspill++];
		e->group = r->group;
		e->module = r->module;
		e->off = r->base + (c->key & (REGION_SPAN - 1));
		e->samples = c->samples;
		e->period = c->period;
	}
	memset(h->cells, 0, ((size_t)h->mask + 1) * sizeof(*h->cells));
	h->n = 0;
	h->nr = 0;
	memset(h->rcache, 0, sizeof(h->rcache));
	bt_hash_clear(&h->index);
}

/* The region of (group, module, rbase), made if new. */
static size_t
find_region(struct bt_hist *h, uint32_t group, uint32_t module, uint64_t rbase)
{
	struct bt_hash_pos pos;
	struct region *r;
	uint32_t i;

	for (i = bt_hash_first(&h->index, region_hash(group, module, rbase), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&h->index, &pos)) {
		r = &h->regions[i];
		if (r->base == rbase && r->module == module && r->group == group)
			return i;
	}
	if (h->nr >= h->region_max) {
		spill(h);
		bt_hash_first(&h->index, region_hash(group, module, rbase), &pos);
	}
	BT_ALLOC_GROW(h->regions, h->nr + 1, h->ralloc);
	r = &h->regions[h->nr];
	r->base = rbase;
	r->module = module;
	r->group = group;
	bt_hash_add(&h->index, &pos, (uint32_t)h->nr);
	return h->nr++;
}

void
bt_hist_add(struct bt_hist *h, uint32_t group, uint32_t module, uint64_t off,
	    uint64_t period)
{
	uint64_t rbase = off & ~(REGION_SPAN - 1);
	size_t rc = ((size_t)(off >> REGION_BITS) + module * 7 + group * 13) % RCACHE;
	uint32_t key, at;
	unsigned tail;

	if (h->rcache[rc].r == 0 || h->rcache[rc].k.base != rbase ||
	    h->rcache[rc].k.module != module || h->rcache[rc].k.group != group) {
		size_t r = find_region(h, group, module, rbase);

		h->rcache[rc].k = h->regions[r];
		h->rcache[rc].r = (uint32_t)r + 1;
	}
	if (h->cells == NULL)
		grow_cells(h);
	if (h->npend == PENDING)	/* first: it may grow the table */
		settle_one(h);
	key = (h->rcache[rc].r - 1) << REGION_BITS | (uint32_t)(off - rbase);
	at = cell_at(h, key);
	__builtin_prefetch(&h->cells[at], 1);
	tail = (h->head + h->npend) % PENDING;
	h->pend[tail].key = key;
	h->pend[tail].at = at;
	h->pend[tail].period = period;
	h->npend++;
}

static int
region_cmp(const void *a, const void *b)
{
	const struct region *x = *(const struct region *const *)a;
	const struct region *y = *(const struct region *const *)b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->base < y->base ? -1 : x->base > y->base;
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct bt_hist_entry *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * The cells in use in key order, into e (h->n of them): sorted by the
 * offset in the region, then (stable) by the region's place in
 * (group, module, base) order: two passes of a counting sort.
 */
static void
take_cells(struct bt_hist *h, struct bt_hist_entry *e)
{
	const struct region **byrank = bt_xcalloc(h->nr ? h->nr : 1, sizeof(*byrank));
	uint32_t *rank = bt_xcalloc(h->nr ? h->nr : 1, sizeof(*rank));
	size_t *at = bt_xcalloc(BT_MAX(h->nr, REGION_SPAN) + 1, sizeof(*at));
	uint32_t *a = bt_xcalloc(h->n ? h->n : 1, sizeof(*a));
	uint32_t *b = bt_xcalloc(h->n ? h->n : 1, sizeof(*b));
	size_t i, n = 0;

	for (i = 0; i < h->nr; i++)
		byrank[i] = &h->regions[i];
	bt_qsort(byrank, h->nr, sizeof(*byrank), region_cmp);
	for (i = 0; i < h->nr; i++)
		rank[byrank[i] - h->regions] = (uint32_t)i;
	/* a: the cells in use, by their offset in the region */
	for (i = 0; i <= h->mask; i++)
		if (h->cells[i].samples != 0)
			at[(h->cells[i].key & (REGION_SPAN - 1)) + 1]++;
	for (i = 1; i <= REGION_SPAN; i++)
		at[i] += at[i - 1];
	for (i = 0; i <= h->mask; i++)
		if (h->cells[i].samples != 0)
			a[at[h->cells[i].key & (REGION_SPAN - 1)]++] = (uint32_t)i;
	/* b: those by their region's rank */
	memset(at, 0, (h->nr + 1) * sizeof(*at));
	for (i = 0; i < h->n; i++)
		at[rank[h->cells[a[i]].key >> REGION_BITS] + 1]++;
	for (i = 1; i <= h->nr; i++)
		at[i] += at[i - 1];
	for (i = 0; i < h->n; i++)
		b[at[rank[h->cells[a[i]].key >> REGION_BITS]]++] = a[i];
	for (i = 0; i < h->n; i++) {
		const struct cell *c = &h->cells[b[i]];
		const struct region *r = &h->regions[c->key >> REGION_BITS];

		e[n].group = r->group;
		e[n].module = r->module;
		e[n].off = r->base + (c->key & (REGION_SPAN - 1));
		e[n].samples = c->samples;
		e[n].period = c->period;
		n++;
	}
	free(byrank);
	free(rank);
	free(at);
	free(a);
	free(b);
}

/* Entries of one key added up (e sorted): how many are left. */
static size_t
merge_equal(struct bt_hist_entry *e, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (k > 0 && e[k - 1].group == e[i].group &&
		    e[k - 1].module == e[i].module && e[k - 1].off == e[i].off) {
			e[k - 1].samples += e[i].samples;
			e[k - 1].period += e[i].period;
		} else
			e[k++] = e[i];
	}
	return k;
}

size_t
bt_hist_take(struct bt_hist *h, struct bt_hist_entry **out)
{
	struct bt_hist_entry *e;
	size_t n;

	while (h->npend > 0)
		settle_one(h);
	if (h->nspill > 0) {
		spill(h);
		e = h->spill;
		n = h->nspill;
		bt_qsort(e, n, sizeof(*e), entry_cmp);
		n = merge_equal(e, n);
		h->spill = NULL;
		h->nspill = h->spill_alloc = 0;
	} else if ((n = h->n) > 0) {
		e = bt_xmalloc(n * sizeof(*e));
		take_cells(h, e);
	} else
		e = NULL;
	cells_free(h->cells, (size_t)h->mask + 1);
	h->cells = NULL;
	FREE_AND_NULL(h->regions);
	h->mask = 0;
	h->n = 0;
	h->nr = h->ralloc = 0;
	memset(h->rcache, 0, sizeof(h->rcache));
	bt_hash_clear(&h->index);
	if (n == 0)
		FREE_AND_NULL(e);
	*out = e;
	return n;
}
