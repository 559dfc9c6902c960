/*
 * perf ring buffers: one mmap per event fd (the kernel refuses mmap on an
 * inherited per-task event with cpu=-1, hence one per CPU), drained record
 * by record while the command runs.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base.h"
#include "record/record-int.h"

void
bt_ring_unmap(struct bt_ring *r)
{
	if (r->base != NULL)
		munmap(r->base, r->size + r->pagesz);
	r->base = NULL;
}

int
bt_rings_map(struct bt_ring *rings, const int *fds, size_t n, unsigned pages,
	     struct bt_error *err)
{
	size_t pagesz = (size_t)sysconf(_SC_PAGESIZE), i;

	for (; pages >= 1; pages /= 2) {
		bool ok = true;

		for (i = 0; i < n; i++) {
			struct bt_ring *r = &rings[i];

			r->fd = fds[i];
			r->pagesz = pagesz;
			r->size = pages * pagesz;
			r->base = mmap(NULL, r->size + pagesz, PROT_READ | PROT_WRITE,
			    MAP_SHARED, r->fd, 0);
			if (r->base == MAP_FAILED) {
				r->base = NULL;
				ok = false;
				break;
			}
			if (ioctl(r->fd, PERF_EVENT_IOC_ID, &r->id) < 0)
				r->id = 0;
		}
		if (ok)
			return 0;
		for (i = 0; i < n; i++)
			bt_ring_unmap(&rings[i]);
		if (errno != EPERM && errno != ENOMEM)
			break;
	}
	return bt_error_errno(err, BT_EPERF, errno,
	    "cannot map the perf ring buffers (locked-memory limit: ulimit -l, /proc/sys/kernel/perf_event_mlock_kb)");
}

int
bt_ring_drain(struct bt_ring *r, uint8_t *scratch, bt_ring_fn fn, void *arg)
{
	struct perf_event_mmap_page *mp = r->base;
	const uint8_t *data = (const uint8_t *)r->base + r->pagesz;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = mp->data_tail;
	int ret = 0;

	while (tail < head) {
		size_t off = (size_t)(tail % r->size);
		struct perf_event_header h;
		const struct perf_event_header *rec;

		if (off + sizeof(h) <= r->size)
			memcpy(&h, data + off, sizeof(h));
		else {
			size_t first = r->size - off;
			memcpy(&h, data + off, first);
			memcpy((uint8_t *)&h + first, data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || h.size > head - tail)
			break;	/* corrupt or partial: resynchronise at head */
		if (off + h.size <= r->size)
			rec = (const void *)(data + off);
		else {
			size_t first = r->size - off;
			memcpy(scratch, data + off, first);
			memcpy(scratch + first, data, h.size - first);
			rec = (const void *)scratch;
		}
		ret = fn(rec, arg);
		if (ret)
			break;
		tail += h.size;
	}
	if (tail < head && ret == 0)
		tail = head;
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	return ret;
}
