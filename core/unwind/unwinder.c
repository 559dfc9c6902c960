/*
 * The processes of a recording, for unwinding its samples (unwind.h).
 *
 * Side-band records (MMAP/MMAP2, FORK, COMM exec) are kept as they come
 * and replayed in time order, as core/profile does: per-CPU ring buffers
 * write them out of order with the samples. Each process image (a pid
 * from its fork or exec on) gets one address space holding every
 * executable mapping it made; a sample goes to the image of its pid that
 * was current at its time, so samples may come in any order. Records that
 * arrive after samples were unwound are applied at once when they are not
 * older than the newest one applied, else the images are rebuilt.
 */
#include <string.h>
#include <sys/mman.h>

#include "base.h"
#include "perf/perfdata.h"
#include "unwind/unwind.h"

struct sideband {
	uint64_t time, order;
	uint32_t type;
	uint32_t pid, ppid;
	uint64_t start, len, pgoff;
	char *path;		/* MMAP: owned */
	uint8_t build_id[20];	/* MMAP2 with a build-id */
	uint8_t build_id_size;
};

/* One process image: pid from t_start on. */
struct image {
	uint32_t pid;
	uint64_t t_start;
	size_t prev;		/* pid's image before this one, or SIZE_MAX */
	struct bt_unwind_space *space;
};

struct bt_unwinder {
	BT_VEC(struct sideband) sb;
	size_t applied;			/* sb[0..applied) are in the images */
	uint64_t t_applied;		/* time of the newest applied record */
	uint64_t upto;			/* apply records up to this time (bt_unwinder_upto) */
	size_t seen;			/* sb.n when it last caught up, with upto */
	uint64_t seen_upto;
	uint64_t order;
	BT_VEC(struct image) images;
	size_t *latest;			/* pid hash -> newest image index */
	uint32_t *latest_pid;
	size_t hcap;
	uint8_t *vdso;
	size_t vdso_len;
	struct bt_pd_buildid *ids;	/* the BUILD_ID feature (filenames owned) */
	size_t nids;
	BT_VEC(uint64_t) chain;		/* the sample's callchain, native */
	unsigned flags;
};

struct bt_unwinder *
bt_unwinder_new(void)
{
	struct bt_unwinder *u = bt_xcalloc(1, sizeof(struct bt_unwinder));

	u->upto = UINT64_MAX;
	return u;
}

void
bt_unwinder_upto(struct bt_unwinder *u, uint64_t t)
{
	u->upto = t;
}

static void
drop_images(struct bt_unwinder *u)
{
	size_t i;

	for (i = 0; i < u->images.n; i++)
		bt_unwind_space_free(u->images.v[i].space);
	u->images.n = 0;
	if (u->hcap)
		memset(u->latest, 0xff, u->hcap * sizeof(*u->latest));
	u->applied = 0;
	u->t_applied = 0;
}

void
bt_unwinder_free(struct bt_unwinder *u)
{
	size_t i;

	if (u == NULL)
		return;
	drop_images(u);
	BT_VEC_FREE(u->images);
	for (i = 0; i < u->sb.n; i++)
		free(u->sb.v[i].path);
	BT_VEC_FREE(u->sb);
	BT_VEC_FREE(u->chain);
	for (i = 0; i < u->nids; i++)
		free(u->ids[i].filename);
	free(u->ids);
	free(u->latest);
	free(u->latest_pid);
	free(u->vdso);
	free(u);
}

void
bt_unwinder_set_vdso(struct bt_unwinder *u, const void *image, size_t len)
{
	free(u->vdso);
	u->vdso = NULL;
	u->vdso_len = 0;
	if (image != NULL && len) {
		u->vdso = bt_xmalloc(len);
		memcpy(u->vdso, image, len);
		u->vdso_len = len;
	}
	drop_images(u);
}

void
bt_unwinder_set_buildids(struct bt_unwinder *u, const struct bt_pd_buildid *ids,
			 size_t n)
{
	size_t i;

	for (i = 0; i < u->nids; i++)
		free(u->ids[i].filename);
	free(u->ids);
	u->ids = n ? bt_xcalloc(n, sizeof(*u->ids)) : NULL;
	u->nids = n;
	for (i = 0; i < n; i++) {
		u->ids[i] = ids[i];
		u->ids[i].filename = bt_xstrdup(ids[i].filename ? ids[i].filename : "");
	}
	drop_images(u);
}

void
bt_unwinder_set_flags(struct bt_unwinder *u, unsigned flags)
{
	size_t i;

	u->flags = flags;
	for (i = 0; i < u->images.n; i++)
		bt_unwind_space_set_flags(u->images.v[i].space, flags);
}

void
bt_unwinder_stats(const struct bt_unwinder *u, struct bt_unwind_stats *st)
{
	size_t i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < u->images.n; i++) {
		const struct bt_unwind_stats *s =
		    bt_unwind_space_stats(u->images.v[i].space);
		st->samples += s->samples;
		st->libdw += s->libdw;
		st->rules += s->rules;
		st->mismatched += s->mismatched;
	}
}

/* The pid hash: slot of pid (empty slots hold SIZE_MAX). */
static size_t
pid_slot(const struct bt_unwinder *u, uint32_t pid)
{
	size_t mask = u->hcap - 1, i = (size_t)bt_hash64(pid) & mask;

	while (u->latest[i] != SIZE_MAX && u->latest_pid[i] != pid)
		i = (i + 1) & mask;
	return i;
}

static size_t
newest_image(const struct bt_unwinder *u, uint32_t pid)
{
	return u->hcap ? u->latest[pid_slot(u, pid)] : SIZE_MAX;
}

static struct image *
add_image(struct bt_unwinder *u, uint32_t pid, uint64_t t, struct bt_unwind_space *space)
{
	struct image im = { pid, t, SIZE_MAX, space };
	size_t i;

	if ((u->images.n + 1) * 2 > u->hcap) {
		size_t ocap = u->hcap;
		size_t *ol = u->latest;
		uint32_t *op = u->latest_pid;

		u->hcap = ocap ? ocap * 2 : 64;
		u->latest = bt_xmalloc(u->hcap * sizeof(*u->latest));
		u->latest_pid = bt_xmalloc(u->hcap * sizeof(*u->latest_pid));
		memset(u->latest, 0xff, u->hcap * sizeof(*u->latest));
		for (i = 0; i < ocap; i++)
			if (ol[i] != SIZE_MAX) {
				size_t j = pid_slot(u, op[i]);
				u->latest[j] = ol[i];
				u->latest_pid[j] = op[i];
			}
		free(ol);
		free(op);
	}
	i = pid_slot(u, pid);
	im.prev = u->latest[i];
	u->latest[i] = u->images.n;
	u->latest_pid[i] = pid;
	bt_unwind_space_set_flags(space, u->flags);
	BT_VEC_PUSH(u->images, im);
	return &u->images.v[u->images.n - 1];
}

/* The image of pid at time t (created empty when pid has none). */
static struct image *
image_at(struct bt_unwinder *u, uint32_t pid, uint64_t t)
{
	size_t i = newest_image(u, pid), first = i;

	if (i == SIZE_MAX)
		return add_image(u, pid, 0, bt_unwind_space_new(pid));
	while (i != SIZE_MAX && u->images.v[i].t_start > t) {
		first = i;
		i = u->images.v[i].prev;
	}
	/* before its first record: the first image */
	return &u->images.v[i != SIZE_MAX ? i : first];
}

static void
apply(struct bt_unwinder *u, const struct sideband *s)
{
	struct image *im;
	size_t i;

	switch (s->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		i = newest_image(u, s->pid);
		im = i != SIZE_MAX ? &u->images.v[i] :
		    add_image(u, s->pid, 0, bt_unwind_space_new(s->pid));
		if (strcmp(s->path, "[vdso]") == 0)
			bt_unwind_space_map_image(im->space, s->start, s->len, s->pgoff,
			    "[vdso]", u->vdso, u->vdso_len);
		else {
			const uint8_t *id = s->build_id_size ? s->build_id : NULL;
			size_t idn = s->build_id_size;

			for (i = 0; id == NULL && i < u->nids; i++)
				if (u->ids[i].size &&
				    strcmp(u->ids[i].filename, s->path) == 0) {
					id = u->ids[i].id;
					idn = u->ids[i].size;
				}
			bt_unwind_space_map(im->space, s->start, s->len, s->pgoff,
			    s->path, id, idn);
		}
		return;
	case PERF_RECORD_FORK:
		i = newest_image(u, s->ppid);
		add_image(u, s->pid, s->time, i == SIZE_MAX ?
		    bt_unwind_space_new(s->pid) :
		    bt_unwind_space_fork(u->images.v[i].space, s->pid));
		return;
	case PERF_RECORD_COMM:
		add_image(u, s->pid, s->time, bt_unwind_space_new(s->pid));
		return;
	}
}

static int
sb_cmp(const void *a, const void *b)
{
	const struct sideband *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Bring the images up to every record kept. */
static void
catch_up(struct bt_unwinder *u)
{
	size_t i;

	if (u->applied == u->sb.n || (u->seen == u->sb.n && u->seen_upto == u->upto))
		return;
	u->seen = u->sb.n;
	u->seen_upto = u->upto;
	for (i = u->applied; i < u->sb.n; i++)
		if (u->sb.v[i].time < u->t_applied)
			break;
	if (i < u->sb.n) {
		/* an older record came late: replay everything in order */
		drop_images(u);
		bt_qsort(u->sb.v, u->sb.n, sizeof(*u->sb.v), sb_cmp);
	} else if (u->sb.n - u->applied > 1)
		bt_qsort(u->sb.v + u->applied, u->sb.n - u->applied,
		    sizeof(*u->sb.v), sb_cmp);
	for (i = u->applied; i < u->sb.n && u->sb.v[i].time <= u->upto; i++) {
		apply(u, &u->sb.v[i]);
		u->t_applied = u->sb.v[i].time;
	}
	u->applied = i;
}

struct bt_unwind_space *
bt_unwinder_space(struct bt_unwinder *u, uint32_t pid, uint64_t time)
{
	catch_up(u);
	return image_at(u, pid, time)->space;
}

void
bt_unwinder_event(struct bt_unwinder *u, const struct bt_pd_event *ev)
{
	struct sideband s;

	memset(&s, 0, sizeof(s));
	s.type = ev->type;
	s.time = ev->has_time ? ev->time : 0;
	s.order = u->order++;
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if ((ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
		    PERF_RECORD_MISC_KERNEL || ev->u.mmap.pid == (uint32_t)-1)
			return;
		if (ev->type == PERF_RECORD_MMAP2 ? !(ev->u.mmap.prot & PROT_EXEC) :
		    (ev->misc & PERF_RECORD_MISC_MMAP_DATA) != 0)
			return;
		s.pid = ev->u.mmap.pid;
		s.start = ev->u.mmap.start;
		s.len = ev->u.mmap.len;
		s.pgoff = ev->u.mmap.pgoff;
		s.path = bt_xstrdup(ev->u.mmap.filename);
		s.build_id_size = (uint8_t)BT_MIN(ev->u.mmap.build_id_size, 20);
		memcpy(s.build_id, ev->u.mmap.build_id, s.build_id_size);
		break;
	case PERF_RECORD_FORK:
		/* a new thread shares its process's image */
		if (ev->u.task.pid == ev->u.task.ppid)
			return;
		s.pid = ev->u.task.pid;
		s.ppid = ev->u.task.ppid;
		s.time = ev->u.task.time ? ev->u.task.time : s.time;
		break;
	case PERF_RECORD_COMM:
		if (!(ev->misc & PERF_RECORD_MISC_COMM_EXEC))
			return;
		s.pid = ev->u.comm.pid;
		break;
	default:
		return;
	}
	BT_VEC_PUSH(u->sb, s);
}

int
bt_unwinder_sample(struct bt_unwinder *u, const struct bt_perf_layout *l,
		   const struct bt_pd_event *ev, uint64_t *ips, size_t max,
		   struct bt_callchain *cc, struct bt_unwind_result *res,
		   struct bt_error *err)
{
	const struct bt_perf_sample *s = &ev->sample;
	struct bt_callchain mine;
	struct bt_unwind_regs r;
	uint64_t regbuf[64];
	uint64_t i;
	bool have_regs;

	if (cc == NULL)
		cc = &mine;
	memset(res, 0, sizeof(*res));
	u->chain.n = 0;
	if (BT_PF_HAS(s, BT_PF_CALLCHAIN)) {
		for (i = 0; i < s->callchain.n; i++)
			BT_VEC_PUSH(u->chain, bt_perf_u64(&s->callchain, s->swapped, i));
	}
	bt_callchain_split(u->chain.v, u->chain.n, cc);
	have_regs = bt_unwind_regs_from_sample(&r, l, s, regbuf) == 0;
	if (have_regs && cc->nuser > 0)
		return bt_unwind_splice(bt_unwinder_space(u, s->pid, s->time), &r,
		    cc->user, cc->nuser, ips, max, res, err);
	if (have_regs && r.stack_size > 0)
		return bt_unwind_dwarf(bt_unwinder_space(u, s->pid, s->time), &r,
		    ips, max, res, err);
	/* frame pointers only */
	res->end = have_regs ? BT_UNWIND_END_STACK : BT_UNWIND_END_NOREGS;
	res->splice = cc->nuser ? BT_SPLICE_FP : BT_SPLICE_NONE;
	res->n = BT_MIN(cc->nuser, max);
	if (res->n)
		memcpy(ips, cc->user, res->n * sizeof(*ips));
	return (int)res->n;
}
