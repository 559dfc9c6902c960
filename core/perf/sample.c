/* The perf sample layout (sample.h): offsets from the attr, one decoder. */
#include <string.h>

#include "base.h"
#include "perf/sample.h"

static const uint64_t field_bit[BT_PF_COUNT] = {
	[BT_PF_IDENTIFIER] = PERF_SAMPLE_IDENTIFIER,
	[BT_PF_IP] = PERF_SAMPLE_IP,
	[BT_PF_TID] = PERF_SAMPLE_TID,
	[BT_PF_TIME] = PERF_SAMPLE_TIME,
	[BT_PF_ADDR] = PERF_SAMPLE_ADDR,
	[BT_PF_ID] = PERF_SAMPLE_ID,
	[BT_PF_STREAM_ID] = PERF_SAMPLE_STREAM_ID,
	[BT_PF_CPU] = PERF_SAMPLE_CPU,
	[BT_PF_PERIOD] = PERF_SAMPLE_PERIOD,
	[BT_PF_READ] = PERF_SAMPLE_READ,
	[BT_PF_CALLCHAIN] = PERF_SAMPLE_CALLCHAIN,
	[BT_PF_RAW] = PERF_SAMPLE_RAW,
	[BT_PF_BRANCH_STACK] = PERF_SAMPLE_BRANCH_STACK,
	[BT_PF_REGS_USER] = PERF_SAMPLE_REGS_USER,
	[BT_PF_STACK_USER] = PERF_SAMPLE_STACK_USER,
	[BT_PF_WEIGHT] = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT,
	[BT_PF_DATA_SRC] = PERF_SAMPLE_DATA_SRC,
	[BT_PF_TRANSACTION] = PERF_SAMPLE_TRANSACTION,
	[BT_PF_REGS_INTR] = PERF_SAMPLE_REGS_INTR,
	[BT_PF_PHYS_ADDR] = PERF_SAMPLE_PHYS_ADDR,
	[BT_PF_CGROUP] = PERF_SAMPLE_CGROUP,
	[BT_PF_DATA_PAGE_SIZE] = PERF_SAMPLE_DATA_PAGE_SIZE,
	[BT_PF_CODE_PAGE_SIZE] = PERF_SAMPLE_CODE_PAGE_SIZE,
	[BT_PF_AUX] = PERF_SAMPLE_AUX,
};

/* The fields of the sample_id trailer, in trailer order. */
static const enum bt_perf_field trailer_fields[] = {
	BT_PF_TID, BT_PF_TIME, BT_PF_ID, BT_PF_STREAM_ID, BT_PF_CPU,
	BT_PF_IDENTIFIER,
};

/* The fields of bt_perf_sample_brief(). */
static const enum bt_perf_field brief_fields[] = {
	BT_PF_IP, BT_PF_TID, BT_PF_TIME, BT_PF_CPU, BT_PF_PERIOD,
};

static bool
has(const struct bt_perf_layout *l, enum bt_perf_field f)
{
	return (l->sample_type & field_bit[f]) != 0;
}

void
bt_perf_layout_init(struct bt_perf_layout *l, const struct perf_event_attr *a)
{
	size_t i;
	int off = 8;
	bool fixed = true;

	memset(l, 0, sizeof(*l));
	l->sample_type = a->sample_type;
	l->read_format = a->read_format;
	l->branch_sample_type = a->branch_sample_type;
	l->regs_user = a->sample_regs_user;
	l->regs_intr = a->sample_regs_intr;
	l->sample_id_all = a->sample_id_all;
	l->fixed_period = a->freq ? 1 : a->sample_period;
	for (i = 0; i < BT_PF_COUNT; i++)
		l->off[i] = l->trailer_off[i] = -1;
	for (i = 0; i < BT_PF_COUNT; i++) {
		if (!has(l, (enum bt_perf_field)i))
			continue;
		if (i == BT_PF_READ || i == BT_PF_CALLCHAIN || i == BT_PF_RAW ||
		    i == BT_PF_BRANCH_STACK || i == BT_PF_REGS_USER ||
		    i == BT_PF_STACK_USER || i == BT_PF_REGS_INTR || i == BT_PF_AUX)
			fixed = false;
		if (!fixed)
			continue;
		l->off[i] = off;
		off += 8;
	}
	l->fixed_size = (unsigned)off;
	for (i = 0; i < BT_ARRAY_SIZE(brief_fields); i++)
		if (l->off[brief_fields[i]] >= 0)
			l->brief |= 1ULL << brief_fields[i];
	/* a sample is attributed by its IDENTIFIER, else its ID (perf's id_pos) */
	l->id_pos = l->off[BT_PF_IDENTIFIER] >= 0 ? 0 :
	    l->off[BT_PF_ID] >= 0 ? (l->off[BT_PF_ID] - 8) / 8 : -1;
	if (l->sample_id_all) {
		off = 0;
		for (i = 0; i < BT_ARRAY_SIZE(trailer_fields); i++)
			if (has(l, trailer_fields[i])) {
				l->trailer_off[trailer_fields[i]] = off;
				off += 8;
			}
		l->trailer_size = (unsigned)off;
	}
}

/* One fixed u64 field (or u32 pair) into the sample. */
static void
set_fixed(struct bt_perf_sample *s, enum bt_perf_field f, const uint8_t *p,
	  bool swapped)
{
	s->present |= 1ULL << f;
	switch (f) {
	case BT_PF_IDENTIFIER:
		s->identifier = bt_perf_get64(p, swapped);
		break;
	case BT_PF_IP:
		s->ip = bt_perf_get64(p, swapped);
		break;
	case BT_PF_TID:
		s->pid = bt_perf_get32(p, swapped);
		s->tid = bt_perf_get32(p + 4, swapped);
		break;
	case BT_PF_TIME:
		s->time = bt_perf_get64(p, swapped);
		break;
	case BT_PF_ADDR:
		s->addr = bt_perf_get64(p, swapped);
		break;
	case BT_PF_ID:
		s->id = bt_perf_get64(p, swapped);
		break;
	case BT_PF_STREAM_ID:
		s->stream_id = bt_perf_get64(p, swapped);
		break;
	case BT_PF_CPU:
		s->cpu = bt_perf_get32(p, swapped);
		break;
	case BT_PF_PERIOD:
		s->period = bt_perf_get64(p, swapped);
		break;
	case BT_PF_WEIGHT:
		s->weight = bt_perf_get64(p, swapped);
		break;
	case BT_PF_DATA_SRC:
		s->data_src = bt_perf_get64(p, swapped);
		break;
	case BT_PF_TRANSACTION:
		s->transaction = bt_perf_get64(p, swapped);
		break;
	case BT_PF_PHYS_ADDR:
		s->phys_addr = bt_perf_get64(p, swapped);
		break;
	case BT_PF_CGROUP:
		s->cgroup = bt_perf_get64(p, swapped);
		break;
	case BT_PF_DATA_PAGE_SIZE:
		s->data_page_size = bt_perf_get64(p, swapped);
		break;
	case BT_PF_CODE_PAGE_SIZE:
		s->code_page_size = bt_perf_get64(p, swapped);
		break;
	default:
		break;
	}
}

/* u64 words a read_format value block holds. */
static uint64_t
read_words(uint64_t rf, const uint8_t *p, const uint8_t *end, bool swapped)
{
	uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	uint64_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t nr;

	if (!(rf & PERF_FORMAT_GROUP))
		return per + times;
	if (end - p < 8)
		return UINT64_MAX;
	nr = bt_perf_get64(p, swapped);
	if (nr > (uint64_t)(end - p) / 8 / per)
		return UINT64_MAX;
	return 1 + times + nr * per;
}

/* NEED(n): n more bytes are in the record */
#define NEED(nb) do { if ((uint64_t)(end - *pp) < (uint64_t)(nb)) return -1; } while (0)

/* A REGS_USER or REGS_INTR block (abi, then a u64 per bit of the mask). */
static inline int
parse_regs(const struct bt_perf_layout *l, enum bt_perf_field f,
	   const uint8_t **pp, const uint8_t *end, bool swapped,
	   struct bt_perf_sample *s)
{
	uint64_t abi, n, mask = f == BT_PF_REGS_USER ? l->regs_user : l->regs_intr;
	struct bt_perf_array *a = f == BT_PF_REGS_USER ? &s->regs_user : &s->regs_intr;

	NEED(8);
	abi = bt_perf_get64(*pp, swapped);
	*pp += 8;
	if (f == BT_PF_REGS_USER)
		s->regs_user_abi = abi;
	else
		s->regs_intr_abi = abi;
	n = abi ? (uint64_t)__builtin_popcountll(mask) : 0;
	NEED(n * 8);
	a->n = n;
	a->data = *pp;
	*pp += n * 8;
	return 0;
}

/* A u64 count of bytes, then the bytes (AUX; STACK_USER, then its dyn_size). */
static inline int
parse_bytes(struct bt_perf_array *a, const uint8_t **pp, const uint8_t *end,
	    bool swapped, uint64_t *dyn_size)
{
	uint64_t n;

	NEED(8);
	n = bt_perf_get64(*pp, swapped);
	*pp += 8;
	NEED(n);
	a->n = n;
	a->data = *pp;
	*pp += n;
	if (dyn_size != NULL && n) {
		NEED(8);
		*dyn_size = BT_MIN(bt_perf_get64(*pp, swapped), n);
		*pp += 8;
	}
	return 0;
}

/* One field after the fixed ones, at *pp: decoded, *pp moved past it. */
static inline int
parse_field(const struct bt_perf_layout *l, enum bt_perf_field f,
	    const uint8_t **pp, const uint8_t *end, bool swapped,
	    struct bt_perf_sample *s)
{
	uint64_t n;

	switch (f) {
	case BT_PF_READ:
		n = read_words(l->read_format, *pp, end, swapped);
		if (n == UINT64_MAX)
			return -1;
		NEED(n * 8);
		s->read.n = n;
		s->read.data = *pp;
		*pp += n * 8;
		return 0;
	case BT_PF_CALLCHAIN:
		NEED(8);
		n = bt_perf_get64(*pp, swapped);
		*pp += 8;
		if (n > (uint64_t)(end - *pp) / 8)
			return -1;
		s->callchain.n = n;
		s->callchain.data = *pp;
		*pp += n * 8;
		return 0;
	case BT_PF_RAW:
		/* u32 size, then size bytes: the two are padded to 8 together */
		NEED(4);
		n = bt_perf_get32(*pp, swapped);
		*pp += 4;
		NEED(n);
		s->raw.n = n;
		s->raw.data = *pp;
		*pp += n;
		return 0;
	case BT_PF_BRANCH_STACK:
		NEED(8);
		n = bt_perf_get64(*pp, swapped);
		*pp += 8;
		if (l->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			NEED(8);
			s->branch_hw_idx = bt_perf_get64(*pp, swapped);
			*pp += 8;
		}
		if (n > (uint64_t)(end - *pp) / 24)
			return -1;
		s->branch.n = n * 3;
		s->branch.data = *pp;
		*pp += n * 24;
		return 0;
	case BT_PF_REGS_USER:
	case BT_PF_REGS_INTR:
		return parse_regs(l, f, pp, end, swapped, s);
	case BT_PF_STACK_USER:
		return parse_bytes(&s->stack, pp, end, swapped, &s->stack_dyn_size);
	case BT_PF_AUX:
		return parse_bytes(&s->aux, pp, end, swapped, NULL);
	default:	/* a u64 after the variable-size fields */
		NEED(8);
		set_fixed(s, f, *pp, swapped);
		*pp += 8;
		return 0;
	}
}
#undef NEED

int
bt_perf_sample_parse(const struct bt_perf_layout *l, const uint8_t *rec,
		     size_t size, bool swapped, struct bt_perf_sample *s)
{
	const uint8_t *p, *end = rec + size;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->swapped = swapped;
	s->period = l->fixed_period;
	if (size < l->fixed_size)
		return -1;
	for (i = 0; i < BT_PF_COUNT; i++)
		if (l->off[i] >= 0)
			set_fixed(s, (enum bt_perf_field)i, rec + l->off[i], swapped);
	p = rec + l->fixed_size;
	for (i = BT_PF_READ; i < BT_PF_COUNT; i++) {
		enum bt_perf_field f = (enum bt_perf_field)i;

		if (!has(l, f) || l->off[f] >= 0)
			continue;
		s->present |= 1ULL << f;
		if (parse_field(l, f, &p, end, swapped, s) < 0)
			return -1;
	}
	return 0;
}

int
bt_perf_sample_id(const struct bt_perf_layout *l, const uint8_t *rec,
		  size_t size, bool swapped, uint64_t *id)
{
	if (l->id_pos < 0)
		return 0;
	if (size < 16 + (size_t)l->id_pos * 8)
		return -1;
	*id = bt_perf_get64(rec + 8 + (size_t)l->id_pos * 8, swapped);
	return 1;
}

uint64_t
bt_perf_sample_id_time(const struct bt_perf_layout *l, const uint8_t *rec,
		       size_t size, bool swapped)
{
	if (!l->sample_id_all || l->trailer_off[BT_PF_TIME] < 0 ||
	    size < 8 + (size_t)l->trailer_size)
		return 0;
	return bt_perf_get64(rec + size - l->trailer_size +
	    l->trailer_off[BT_PF_TIME], swapped);
}

size_t
bt_perf_sample_id_parse(const struct bt_perf_layout *l, const uint8_t *rec,
			size_t size, bool swapped, struct bt_perf_sample *s)
{
	const uint8_t *t;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->swapped = swapped;
	if (!l->sample_id_all || l->trailer_size == 0 || size < 8 + l->trailer_size)
		return 0;
	t = rec + size - l->trailer_size;
	for (i = 0; i < BT_ARRAY_SIZE(trailer_fields); i++) {
		enum bt_perf_field f = trailer_fields[i];
		if (l->trailer_off[f] >= 0)
			set_fixed(s, f, t + l->trailer_off[f], swapped);
	}
	return l->trailer_size;
}
