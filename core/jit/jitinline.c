/* benchtui's inline file (jitinline.h). */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "jit/jit-int.h"
#include "jit/jitinline.h"

#define REC_HEADER 16u
#define INL_HEADER (REC_HEADER + 24u)	/* code_addr, code_index, nmethods, npcs */
#define PC_SIZE 12u
#define FRAME_SIZE 12u

struct bt_jitinline {
	struct bt_jit_file file;
	BT_VEC(struct bt_jit_inl) inl;		/* sorted by code_index */
	struct bt_jitinline_stats stats;
};

static uint32_t
rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t
rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static int
pc_cmp(const void *a, const void *b)
{
	const struct bt_jit_pc *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->frame < y->frame ? -1 : x->frame > y->frame;	/* file order */
}

static int
inl_cmp(const void *a, const void *b)
{
	const struct bt_jit_inl *x = a, *y = b;

	if (x->code_index != y->code_index)
		return x->code_index < y->code_index ? -1 : 1;
	return x->code_addr < y->code_addr ? -1 : x->code_addr > y->code_addr;
}

/* One record's payload p[0..len); false when it is not sound. */
static bool
read_record(struct bt_jitinline *f, const uint8_t *p, size_t len, uint64_t time)
{
	struct bt_jit_inl in;
	const char **names = NULL, **files = NULL;
	struct bt_jit_pc *pcs = NULL;
	struct bt_jit_frame *frames = NULL;
	size_t off = INL_HEADER - REC_HEADER, nframes = 0, i, k, n;
	uint32_t nmethods, npcs;

	if (len < off)
		return false;
	in.code_addr = rd64(p);
	in.code_index = rd64(p + 8);
	in.time = time;
	nmethods = rd32(p + 16);
	npcs = rd32(p + 20);
	/* each method takes 2 bytes at least, each pc PC_SIZE */
	if (nmethods > (len - off) / 2 || npcs > (len - off) / PC_SIZE)
		return false;
	names = bt_xcalloc(nmethods + 1, sizeof(*names));
	files = bt_xcalloc(nmethods + 1, sizeof(*files));
	for (i = 0; i < nmethods; i++) {
		const uint8_t *e;

		for (k = 0; k < 2; k++) {
			if (off >= len || (e = memchr(p + off, '\0', len - off)) == NULL)
				goto bad;
			(k ? files : names)[i] = (const char *)p + off;
			off = (size_t)(e - p) + 1;
		}
	}
	/* count the frames first: one allocation, and every count checked */
	for (i = 0, n = off; i < npcs; i++) {
		uint32_t nf;

		if (len - n < PC_SIZE)
			goto bad;
		nf = rd32(p + n + 8);
		n += PC_SIZE;
		if (nf > (len - n) / FRAME_SIZE)
			goto bad;
		n += (size_t)nf * FRAME_SIZE;
		nframes += nf;
	}
	pcs = bt_xcalloc(npcs + 1, sizeof(*pcs));
	frames = bt_xcalloc(nframes + 1, sizeof(*frames));
	for (i = 0, nframes = 0; i < npcs; i++) {
		uint32_t nf = rd32(p + off + 8);

		pcs[i].pc = rd64(p + off);
		pcs[i].frame = (uint32_t)nframes;
		pcs[i].nframes = nf;
		off += PC_SIZE;
		for (k = 0; k < nf; k++, off += FRAME_SIZE) {
			uint32_t mi = rd32(p + off);

			if (mi >= nmethods)
				goto bad;
			frames[nframes].method = names[mi];
			frames[nframes].file = files[mi];
			frames[nframes].bci = (int32_t)rd32(p + off + 4);
			frames[nframes].line = rd32(p + off + 8);
			nframes++;
		}
	}
	bt_qsort(pcs, npcs, sizeof(*pcs), pc_cmp);
	/* one record per pc: the last of equal ones */
	for (i = 0, n = 0; i < npcs; i++) {
		if (n > 0 && pcs[n - 1].pc == pcs[i].pc)
			n--;
		pcs[n++] = pcs[i];
	}
	in.pcs = pcs;
	in.npcs = n;
	in.frames = frames;
	BT_VEC_PUSH(f->inl, in);
	free(names);
	free(files);
	return true;
bad:
	free(names);
	free(files);
	free(pcs);
	free(frames);
	return false;
}

struct bt_jitinline *
bt_jitinline_open_mem(const void *data, size_t size, struct bt_error *err)
{
	const uint8_t *d = data;
	struct bt_jitinline *f;
	uint32_t hsize;
	size_t off;

	if (size < 16 || rd32(d) != BT_JITINLINE_MAGIC) {
		bt_error_set(err, BT_EFORMAT, "not a benchtui inline file");
		return NULL;
	}
	hsize = rd32(d + 8);
	if (hsize < 16 || hsize > size) {
		bt_error_set(err, BT_EFORMAT, "inline file header size %u", hsize);
		return NULL;
	}
	f = bt_xcalloc(1, sizeof(*f));
	for (off = hsize; off < size;) {
		uint32_t id, total;

		if (size - off < REC_HEADER) {
			f->stats.truncated = 1;
			break;
		}
		id = rd32(d + off);
		total = rd32(d + off + 4);
		if (total < REC_HEADER || total > size - off) {
			f->stats.truncated = 1;
			break;
		}
		if (id == 1) {
			if (read_record(f, d + off + REC_HEADER, total - REC_HEADER,
			    rd64(d + off + 8)))
				f->stats.records++;
			else
				f->stats.bad++;
		}
		off += total;
	}
	if (f->inl.n > 1)
		bt_qsort(f->inl.v, f->inl.n, sizeof(*f->inl.v), inl_cmp);
	return f;
}

struct bt_jitinline *
bt_jitinline_open(const char *path, struct bt_error *err)
{
	struct bt_jit_file file;
	struct bt_jitinline *f;

	if (bt_jit_file_map(&file, path, "inline file", err) < 0)
		return NULL;
	f = bt_jitinline_open_mem(file.data, file.size, err);
	if (f == NULL) {
		bt_jit_file_release(&file);
		return NULL;
	}
	f->file = file;
	return f;
}

void
bt_jitinline_free(struct bt_jitinline *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->inl.n; i++) {
		free((void *)f->inl.v[i].pcs);
		free((void *)f->inl.v[i].frames);
	}
	BT_VEC_FREE(f->inl);
	bt_jit_file_release(&f->file);
	free(f);
}

const struct bt_jitinline_stats *
bt_jitinline_stats(const struct bt_jitinline *f)
{
	return &f->stats;
}

const struct bt_jit_inl *
bt_jitinline_find(const struct bt_jitinline *f, uint64_t code_index,
		  uint64_t code_addr)
{
	size_t lo = 0, hi;

	if (f == NULL)
		return NULL;
	hi = f->inl.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct bt_jit_inl *in = &f->inl.v[mid];

		if (in->code_index < code_index ||
		    (in->code_index == code_index && in->code_addr < code_addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->inl.n && f->inl.v[lo].code_index == code_index &&
	    f->inl.v[lo].code_addr == code_addr)
		return &f->inl.v[lo];
	return NULL;
}

const struct bt_jit_pc *
bt_jit_inl_at(const struct bt_jit_inl *in, uint64_t addr)
{
	size_t lo = 0, hi = in->npcs;

	if (in->npcs == 0)
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (in->pcs[mid].pc <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return &in->pcs[lo ? lo - 1 : 0];
}
