/*
 * A recording's events in time order, as every reader of it wants them
 * (perf's ordered_events, tools/perf/util/ordered-events.c): side-band
 * records (MMAP, COMM, FORK...) in time order, each before the samples
 * that may need it, and samples in file order once every side-band
 * record as old as they are has been given.
 *
 * perf record writes a FINISHED_ROUND after each pass over its ring
 * buffers, and no record after the next round can be older than the
 * newest of the round before. So at each FINISHED_ROUND, the side-band
 * records up to the newest time of the round before are final: they are
 * given in time order, then the samples waiting up to that time. The
 * file is read once (a DWARF recording is gigabytes of stack copies)
 * and what waits is a round or two: samples wait as their place in the
 * mapped file, whose pages are held (a record out of compressed data is
 * copied), side-band records as copies.
 *
 * Recordings that do not say enough are read as perf reads them: without
 * times (an event without PERF_SAMPLE_TIME or sample_id_all), in file
 * order; without FINISHED_ROUND records (other recorders), the side-band
 * first, then the samples in a second pass, once 65,536 samples have
 * waited. A sample newer than all that follows it (a clock gone wrong)
 * waits 16 rounds at most; the samples after it wait behind it.
 */
#ifndef BENCHTUI_ORDERED_H
#define BENCHTUI_ORDERED_H

#include <stdbool.h>
#include <stdint.h>

struct bt_error;
struct bt_pd_event;
struct bt_pd_reader;
struct bt_perf_layout;

/**
 * struct bt_ordered_ops - what a reader of the stream is given
 * @read: a side-band record as it is read, in file order (counts, and
 *        whatever must follow the file's order: names given in it);
 *        true to have it again through @sideband, in time order, with
 *        *@tag (the caller's, for its own use). Its time may be changed:
 *        it is where the record goes in the order.
 * @sideband: a side-band record @read kept, in time order, once no older
 *            one can come (records of one time in file order)
 * @sample: a sample, in file order, once every side-band record as old as
 *          it has been given; a negative -BT_E* code stops the stream
 *          (and is returned)
 * @brief: if set, what @sample is given when the stream decodes briefly
 *         (BT_ORDERED_BRIEF: one event, attr 0): the record itself, in
 *         native byte order,
 *         at least l->fixed_size bytes, with the layout to read its fields
 *         with (bt_perf_sample_brief's, or their offsets directly), and no
 *         event made of it: a million samples read this way cost what
 *         reading their fields costs
 */
struct bt_ordered_ops {
	bool (*read)(void *arg, struct bt_pd_event *ev, uint32_t *tag);
	void (*sideband)(void *arg, const struct bt_pd_event *ev, uint32_t tag);
	int (*sample)(void *arg, const struct bt_pd_event *ev,
		      struct bt_error *err);
	void (*brief)(void *arg, const struct bt_perf_layout *l,
		      const uint8_t *rec);
};

/*
 * Samples decoded briefly where the file allows (one event, native byte
 * order): only pid, tid, time, cpu, ip and period (bt_perf_sample_brief).
 * Without it every field is decoded.
 */
#define BT_ORDERED_BRIEF 1u

/*
 * Read r from its first record to its last, giving ops its events in
 * order. Returns 0, or a negative -BT_E* code with err set (a record the
 * reader refuses, or @sample's code).
 */
int bt_ordered_read(struct bt_pd_reader *r, const struct bt_ordered_ops *ops,
		    void *arg, unsigned flags, struct bt_error *err);

/**
 * struct bt_ordered_step - one side-band record given to ops, in the order given
 * @at: its position in the file
 * @time: the time it was given with (@apply)
 * @tag: what @read set (@apply)
 * @apply: 0: to @read, 1: to @sideband
 */
struct bt_ordered_step {
	uint64_t at, time;
	uint32_t tag, apply;
};

struct bt_ordered_log {
	struct bt_ordered_step *v;
	size_t n, alloc;
};

/*
 * bt_ordered_read(), with every side-band record given to ops->read and
 * ops->sideband logged in *log, in the order given: what
 * bt_ordered_replay() gives again without reading the samples. The log
 * is good only when bt_ordered_replayable(r) after the read.
 */
int bt_ordered_read_log(struct bt_pd_reader *r, const struct bt_ordered_ops *ops,
			void *arg, unsigned flags, struct bt_ordered_log *log,
			struct bt_error *err);
/* Are r's records where the log says, in the mapped file (not compressed, one file)? */
bool bt_ordered_replayable(const struct bt_pd_reader *r);
/*
 * A hash of r's mapped file: its size, its first and last 64 KiB (the
 * header, the attributes, the first records, the features): what a log
 * of it is checked against. 0 when r is not replayable.
 */
uint64_t bt_ordered_fingerprint(const struct bt_pd_reader *r);
/*
 * The side-band records of log given to ops->read and ops->sideband
 * again, in the same order, with the same times and tags (no samples):
 * 0, or -BT_EFORMAT when a step is not a record of r's data.
 */
int bt_ordered_replay(struct bt_pd_reader *r, const struct bt_ordered_step *steps,
		      size_t n, const struct bt_ordered_ops *ops, void *arg,
		      struct bt_error *err);
/*
 * Every sample of r to ops->sample, in file order, and nothing else: a
 * second read, when every side-band record is known already.
 */
int bt_ordered_samples(struct bt_pd_reader *r, const struct bt_ordered_ops *ops,
		       void *arg, unsigned flags, struct bt_error *err);

#endif
