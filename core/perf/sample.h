/*
 * The perf sample layout, derived once from an event's attr: the only code
 * that knows where each PERF_SAMPLE_* field sits in a PERF_RECORD_SAMPLE and
 * in the sample_id trailer of the other records (as perf's
 * evsel__parse_sample() is for perf). The reader, the profile and the
 * recorder all go through it.
 *
 * Layout of a sample (linux/perf_event.h), each part present when its bit
 * is set in sample_type:
 *   IDENTIFIER, IP, TID (pid, tid), TIME, ADDR, ID, STREAM_ID, CPU (cpu, res),
 *   PERIOD: one u64 each, at offsets fixed by the attr;
 *   READ (read_format), CALLCHAIN (nr, ips[nr]), RAW (u32 size, data),
 *   BRANCH_STACK (nr, [hw_idx], entries[nr]), REGS_USER (abi, regs),
 *   STACK_USER (size, data, dyn_size): variable size;
 *   WEIGHT / WEIGHT_STRUCT, DATA_SRC, TRANSACTION: one u64 each;
 *   REGS_INTR (abi, regs); PHYS_ADDR, CGROUP, DATA_PAGE_SIZE,
 *   CODE_PAGE_SIZE: one u64 each; AUX (size, data).
 * Offsets up to PERIOD are fixed; a field after the first variable-size one
 * is found by walking the record.
 */
#ifndef BENCHTUI_PERF_SAMPLE_H
#define BENCHTUI_PERF_SAMPLE_H

#include <byteswap.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Unaligned reads in the file's byte order. */
static inline uint16_t
bt_perf_get16(const void *p, bool swapped)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? bswap_16(v) : v;
}

static inline uint32_t
bt_perf_get32(const void *p, bool swapped)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? bswap_32(v) : v;
}

static inline uint64_t
bt_perf_get64(const void *p, bool swapped)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? bswap_64(v) : v;
}

/* Fields of a sample, in record order. */
enum bt_perf_field {
	BT_PF_IDENTIFIER, BT_PF_IP, BT_PF_TID, BT_PF_TIME, BT_PF_ADDR, BT_PF_ID,
	BT_PF_STREAM_ID, BT_PF_CPU, BT_PF_PERIOD, BT_PF_READ, BT_PF_CALLCHAIN,
	BT_PF_RAW, BT_PF_BRANCH_STACK, BT_PF_REGS_USER, BT_PF_STACK_USER,
	BT_PF_WEIGHT, BT_PF_DATA_SRC, BT_PF_TRANSACTION, BT_PF_REGS_INTR,
	BT_PF_PHYS_ADDR, BT_PF_CGROUP, BT_PF_DATA_PAGE_SIZE, BT_PF_CODE_PAGE_SIZE,
	BT_PF_AUX, BT_PF_COUNT
};

/**
 * struct bt_perf_layout - where one event's sample fields sit
 * @sample_type, @read_format, @branch_sample_type: from the attr
 * @regs_user, @regs_intr: register masks (how many u64 a REGS_* block holds)
 * @off: byte offset of each fixed field from the record start (the 8-byte
 *       header included), -1 when absent or not at a fixed offset
 * @fixed_size: bytes of the record up to the first variable-size field
 * @sample_id_all: side-band records carry a sample_id trailer
 * @trailer_size: bytes of that trailer
 * @trailer_off: offset of TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER from
 *               the trailer's start, -1 when absent
 * @id_pos: u64 index after the header of the ID a sample can be attributed
 *          by (IDENTIFIER first, else ID at its fixed place), -1 if none
 * @fixed_period: the period of a sample without PERIOD (1 in frequency mode)
 * @brief: the fields bt_perf_sample_brief() reads (bits 1 << BT_PF_*)
 */
struct bt_perf_layout {
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint64_t regs_user, regs_intr;
	int off[BT_PF_COUNT];
	unsigned fixed_size;
	bool sample_id_all;
	unsigned trailer_size;
	int trailer_off[BT_PF_COUNT];
	int id_pos;
	uint64_t fixed_period;
	uint64_t brief;
};

void bt_perf_layout_init(struct bt_perf_layout *l, const struct perf_event_attr *a);

/*
 * A variable-size part of a sample: n u64 words (or bytes, for RAW, AUX and
 * the stack) at data, in the file's byte order (read with bt_perf_u64()).
 */
struct bt_perf_array {
	uint64_t n;
	const uint8_t *data;
};

/**
 * struct bt_perf_sample - one decoded sample (or sample_id trailer)
 * @present: bit (1 << BT_PF_*) set for each field the record has
 * @swapped: the record is in the other byte order (arrays included)
 * @read: READ as in the record: values (and ids, lost) as u64 words
 * @callchain: ips[n]
 * @raw: n bytes
 * @branch: n / 3 entries of three u64 (from, to, flags); @branch_hw_idx if any
 * @regs_user, @regs_intr: @..._abi and n u64 registers (n 0 when abi is 0)
 * @stack: n bytes of the copied user stack, @stack_dyn_size of them valid
 * @aux: n bytes
 */
struct bt_perf_sample {
	uint64_t present;
	bool swapped;
	uint64_t identifier, ip, time, addr, id, stream_id, period;
	uint32_t pid, tid, cpu;
	struct bt_perf_array read;
	struct bt_perf_array callchain;
	struct bt_perf_array raw;
	struct bt_perf_array branch;
	uint64_t branch_hw_idx;
	uint64_t regs_user_abi;
	struct bt_perf_array regs_user;
	struct bt_perf_array stack;
	uint64_t stack_dyn_size;
	uint64_t weight, data_src, transaction;
	uint64_t regs_intr_abi;
	struct bt_perf_array regs_intr;
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	struct bt_perf_array aux;
};

#define BT_PF_HAS(s, f) (((s)->present >> (f)) & 1)

/*
 * Decode a PERF_RECORD_SAMPLE of size bytes (header included). Returns 0,
 * or -1 when the record is shorter than its sample_type says.
 */
int bt_perf_sample_parse(const struct bt_perf_layout *l, const uint8_t *rec,
			 size_t size, bool swapped, struct bt_perf_sample *out);
/*
 * Decode the sample_id trailer of a side-band record (TID, TIME, ID,
 * STREAM_ID, CPU, IDENTIFIER); returns the trailer's size, 0 when the
 * record has none or is too short for it.
 */
size_t bt_perf_sample_id_parse(const struct bt_perf_layout *l, const uint8_t *rec,
			       size_t size, bool swapped, struct bt_perf_sample *out);

/*
 * The id a sample is attributed to its event by: its IDENTIFIER, else
 * its ID at the place layout l (the first event's) gives it (perf's
 * id_pos). Returns 1 with *id, 0 when l gives no place, -1 when the
 * record is too short for it.
 */
int bt_perf_sample_id(const struct bt_perf_layout *l, const uint8_t *rec,
		      size_t size, bool swapped, uint64_t *id);
/* The time in the sample_id trailer of a side-band record (0: none). */
uint64_t bt_perf_sample_id_time(const struct bt_perf_layout *l,
				const uint8_t *rec, size_t size, bool swapped);

/* The time of a sample (0: it has none, or the record is too short). */
static inline uint64_t
bt_perf_sample_time(const struct bt_perf_layout *l, const uint8_t *rec,
		    size_t size, bool swapped)
{
	int off = l->off[BT_PF_TIME];

	if (off < 0 || (size_t)off + 8 > size)
		return 0;
	return bt_perf_get64(rec + off, swapped);
}

/*
 * The brief decode, for a reader of many samples that needs few fields
 * (a histogram of a million samples): a sample in native byte order, its
 * IP, TID, TIME, CPU and PERIOD read at their fixed offsets into s (the
 * fixed period when it has no PERIOD), s->present saying which. Nothing
 * else of s is written: its arrays and other fields are not present.
 * Returns 0, or -1 when the record is shorter than its fixed part.
 */
static inline int
bt_perf_sample_brief(const struct bt_perf_layout *l, const uint8_t *rec,
		     size_t size, struct bt_perf_sample *s)
{
	if (size < l->fixed_size)
		return -1;
	s->present = l->brief;
	s->swapped = false;
	if (l->off[BT_PF_IP] >= 0)
		memcpy(&s->ip, rec + l->off[BT_PF_IP], 8);
	else
		s->ip = 0;
	if (l->off[BT_PF_TID] >= 0) {
		memcpy(&s->pid, rec + l->off[BT_PF_TID], 4);
		memcpy(&s->tid, rec + l->off[BT_PF_TID] + 4, 4);
	} else
		s->pid = s->tid = 0;
	if (l->off[BT_PF_TIME] >= 0)
		memcpy(&s->time, rec + l->off[BT_PF_TIME], 8);
	else
		s->time = 0;
	if (l->off[BT_PF_CPU] >= 0)
		memcpy(&s->cpu, rec + l->off[BT_PF_CPU], 4);
	else
		s->cpu = 0;
	if (l->off[BT_PF_PERIOD] >= 0)
		memcpy(&s->period, rec + l->off[BT_PF_PERIOD], 8);
	else
		s->period = l->fixed_period;
	return 0;
}

/* The i-th u64 of an array field, in native order (0 past its end). */
static inline uint64_t
bt_perf_u64(const struct bt_perf_array *a, bool swapped, uint64_t i)
{
	return i < a->n ? bt_perf_get64(a->data + i * 8, swapped) : 0;
}

/*
 * Event names (perf's spelling) to and from type/config: "cycles",
 * "cpu-clock", "task-clock", "rNNNN" (raw)... bt_perf_event_parse() accepts
 * the names perf list prints for the hardware and software events;
 * bt_perf_event_name() names an attr that has no EVENT_DESC name.
 */
int bt_perf_event_parse(const char *name, uint32_t *type, uint64_t *config);
const char *bt_perf_event_name(const struct perf_event_attr *attr, char *buf,
			       size_t len);
/*
 * The name perf gives an attr that has no EVENT_DESC name (evsel__name):
 * bt_perf_event_name() plus perf's modifiers from the exclude_* and
 * precise_ip bits ("cycles:u", "cpu-clock:kuH", "cycles:ppp").
 */
const char *bt_perf_event_name_full(const struct perf_event_attr *attr,
				    char *buf, size_t len);

/**
 * struct bt_perf_evname - an event name read as perf's parser reads it
 * (parse-events.c: an event, its modifiers after ':', a group in braces
 * with the group's modifiers after them: "{cycles,instructions}:S")
 * @base: the event without its modifiers (a group's: its leader's)
 * @known: @type and @config are set (a name of the table, or rNNNN)
 * @attr: the bits the modifiers set (get_event_modifier): exclude_user,
 *        exclude_kernel, exclude_hv, exclude_host, exclude_guest,
 *        exclude_idle, precise_ip, pinned, exclusive
 * @mods: some modifier was given; @gh: G or H was (the host and guest
 *        bits are then the name's, not a perf version's default)
 * @precise_max: P; @sample_read: S; @group: the name is a group
 * @unsupported: a modifier a recording cannot be made with here (W, b)
 */
struct bt_perf_evname {
	char base[128];
	bool known;
	uint32_t type;
	uint64_t config;
	struct perf_event_attr attr;
	bool mods, gh, precise_max, sample_read, group;
	char unsupported;
};
/* Parse name: 0, or -1 when it is not an event name perf could print. */
int bt_perf_evname_parse(const char *name, struct bt_perf_evname *ev);
/*
 * Does ev name the event recorded as name with attr a? The event itself
 * by type and config (by name when ev's is not in the table), and every
 * bit ev's modifiers set. The host and guest bits are compared when the
 * name says G or H, or when strict: without them, perf versions disagree
 * on the default (perf 6.1 names cycles:u what perf 6.8 names cycles:uH).
 */
bool bt_perf_evname_match(const struct bt_perf_evname *ev, const char *name,
			  const struct perf_event_attr *a, bool strict);

#endif
