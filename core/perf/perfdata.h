/*
 * perf.data, the file format of `perf record` (tools/perf/Documentation/
 * perf.data-file-format.txt): benchtui's recordings are written in it, and
 * `benchtui -i` reads it, whoever wrote it.
 *
 * The reader treats the file as hostile: every size, offset and count is
 * checked against the file before it is used, and an error names the
 * offset. Both byte orders are read, and the other shapes perf writes:
 * pipe mode (`perf record -o -`: attrs, names and features are records of
 * the stream), compressed data (`perf record -z`: the records come out of
 * zstd-compressed COMPRESSED records), hardware trace (AUXTRACE records
 * with their payload after them, skipped: the trace is not decoded) and
 * the directory of `perf record --threads` (a header file and one file of
 * records per ring buffer, merged in time order: dir.c).
 */
#ifndef BENCHTUI_PERFDATA_H
#define BENCHTUI_PERFDATA_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/sample.h"

struct bt_error;

/* Feature bits (HEADER_*) benchtui reads or writes. */
enum {
	BT_FEAT_TRACING_DATA = 1,
	BT_FEAT_BUILD_ID = 2,
	BT_FEAT_HOSTNAME = 3,
	BT_FEAT_OSRELEASE = 4,
	BT_FEAT_VERSION = 5,
	BT_FEAT_ARCH = 6,
	BT_FEAT_NRCPUS = 7,
	BT_FEAT_CPUID = 9,		/* "AuthenticAMD,26,2,1": vendor, family, model, stepping */
	BT_FEAT_CMDLINE = 11,
	BT_FEAT_EVENT_DESC = 12,
	BT_FEAT_GROUP_DESC = 17,
	BT_FEAT_AUXTRACE = 18,
	BT_FEAT_SAMPLE_TIME = 21,
	BT_FEAT_DIR_FORMAT = 24,	/* u64 version: a perf record --threads directory */
	BT_FEAT_COMPRESSED = 27,
	/*
	 * benchtui's own section (key=value lines, then the vDSO image) was
	 * feature bit 255 in recordings before 0.2 (still read); perf inject
	 * crashes on a feature it does not know, so it now follows the
	 * features, found by a trailer at the end of the file.
	 */
	BT_FEAT_BENCHTUI = 255,
};

/* perf's own record types that may appear in the data section. */
enum {
	BT_PD_HEADER_ATTR = 64,
	BT_PD_HEADER_BUILD_ID = 67,
	BT_PD_FINISHED_ROUND = 68,
	BT_PD_ID_INDEX = 69,
};

/**
 * struct bt_pd_attr - one event of the file
 * @attr: the perf_event_attr, in native byte order, zero-extended
 * @name: from EVENT_DESC, else derived from type/config ("cpu-clock")
 * @ids: the sample ids that belong to this event
 */
struct bt_pd_attr {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nids;
};

/**
 * struct bt_pd_group - one group of the GROUP_DESC feature (HEADER_GROUP_DESC:
 * u32 nr, then nr of: string name, u32 leader_idx, u32 nr_members)
 * @name: its name, NULL for an anonymous one (perf's "{anon_group}")
 * @leader: the attr index of its leader; @nr_members: its events, the
 *          leader's and the next nr_members - 1 attrs
 */
struct bt_pd_group {
	const char *name;
	uint32_t leader, nr_members;
};

/**
 * struct bt_pd_buildid - one entry of the BUILD_ID feature
 * @misc: cpumode of the module (PERF_RECORD_MISC_USER/KERNEL)
 * @size: build-id length in bytes (20 for GNU, up to 20)
 */
struct bt_pd_buildid {
	int32_t pid;
	uint16_t misc;
	uint8_t size;
	uint8_t id[20];
	char *filename;
};

/**
 * struct bt_pd_event - one record of the data section, decoded
 * @type: PERF_RECORD_* (or a perf user type, which is skipped by callers)
 * @misc: header.misc
 * @offset: file offset of the record, for messages
 * @attr: index of its event in the attribute list, -1 if unknown
 * @pid, @tid, @time, @cpu: from the sample fields or the sample_id trailer
 *   (has_time false when the record carries no time)
 * @sample: PERF_RECORD_SAMPLE: every field of the sample
 */
struct bt_pd_event {
	uint32_t type;
	uint16_t misc;
	uint64_t offset;
	int attr;
	uint32_t pid, tid, cpu;
	uint64_t time;
	bool has_time;
	struct bt_perf_sample sample;
	union {
		struct {	/* MMAP and MMAP2 */
			uint32_t pid, tid;
			uint64_t start, len, pgoff;
			uint32_t prot, flags;
			uint8_t build_id_size;	/* 0: none in the record */
			uint8_t build_id[20];
			const char *filename;	/* borrowed: valid until the next call */
		} mmap;
		struct {
			uint32_t pid, tid;
			const char *comm;	/* borrowed */
		} comm;
		struct {	/* FORK and EXIT */
			uint32_t pid, ppid, tid, ptid;
			uint64_t time;
		} task;
		struct {	/* LOST (id, lost) and LOST_SAMPLES (lost) */
			uint64_t id, lost;
		} lost;
		struct {	/* THROTTLE and UNTHROTTLE */
			uint64_t time, id;
		} throttle;
	} u;
};

/**
 * struct bt_pd_auxtrace - hardware trace in the file (Intel PT, CoreSight,
 * Arm SPE): the reader skips it, nothing decodes it
 * @present: an AUXTRACE_INFO or AUXTRACE record, or the AUXTRACE feature
 * @kind: "Intel PT", "Arm SPE", ... from AUXTRACE_INFO; NULL if unknown
 * @records, @bytes: AUXTRACE records read so far and their payload bytes
 */
struct bt_pd_auxtrace {
	bool present;
	const char *kind;
	uint64_t records, bytes;
};

struct bt_pd_reader;

/*
 * Open and validate path (header, attrs, features). NULL with err set.
 * "-" is standard input: a regular file is mapped as it is; a pipe is
 * copied, once per process, into an unnamed temporary file (O_TMPFILE in
 * $TMPDIR or /tmp, else a memfd), so that opening "-" again (a second
 * read of the samples) reads the same bytes, and nothing is left behind.
 * A directory is read as perf record --threads writes one: its "data"
 * file (with the DIR_FORMAT feature) and its "data.N" files, each a
 * regular file (a symbolic link, a FIFO... is refused), their records
 * merged in time order with a FINISHED_ROUND every few thousand, as if
 * one file held them.
 */
struct bt_pd_reader *bt_pd_open(const char *path, struct bt_error *err);
/* Same, from memory (the fuzz target); data must outlive the reader. */
struct bt_pd_reader *bt_pd_open_mem(const void *data, size_t size,
				    struct bt_error *err);
void bt_pd_close(struct bt_pd_reader *r);

size_t bt_pd_nattrs(const struct bt_pd_reader *r);
const struct bt_pd_attr *bt_pd_attr(const struct bt_pd_reader *r, size_t i);
bool bt_pd_swapped(const struct bt_pd_reader *r);
/*
 * The header's data size is 0 (the writer was killed before it wrote it):
 * the data is read to the end of the file, a record cut there dropped.
 */
bool bt_pd_unfinished(const struct bt_pd_reader *r);
/* The event (attr index) a sample id belongs to, -1 when unknown. */
int bt_pd_attr_of_id(const struct bt_pd_reader *r, uint64_t id);

/* A string feature (HOSTNAME, OSRELEASE, VERSION, ARCH); NULL if absent. */
const char *bt_pd_feature_str(const struct bt_pd_reader *r, int feat);
/*
 * The GROUP_DESC feature: groups of attrs (leader, nr_members: the leader
 * and the attrs after it), each within the attrs; a name NULL when perf
 * wrote "{anon_group}". Returns how many.
 */
size_t bt_pd_groups(const struct bt_pd_reader *r, const struct bt_pd_group **groups);
/* CMDLINE feature as argv (NULL if absent). */
char *const *bt_pd_cmdline(const struct bt_pd_reader *r, size_t *argc);
int bt_pd_nr_cpus(const struct bt_pd_reader *r);
size_t bt_pd_buildids(const struct bt_pd_reader *r,
		      const struct bt_pd_buildid **ids);
/* benchtui's own section, NULL if the file has none. */
const void *bt_pd_benchtui(const struct bt_pd_reader *r, size_t *len);
uint64_t bt_pd_data_size(const struct bt_pd_reader *r);
/* Pipe mode (`perf record -o -`). */
bool bt_pd_pipe(const struct bt_pd_reader *r);
/* The number of files of a perf record --threads directory; 0 for a file. */
size_t bt_pd_nfiles(const struct bt_pd_reader *r);
/* Compressed (`perf record -z`): the COMPRESSED feature, or a record seen. */
bool bt_pd_compressed(const struct bt_pd_reader *r);
/*
 * Hardware trace in the file. present is known after open when the file
 * has the AUXTRACE feature (perf record writes it) or is in pipe mode;
 * otherwise, and for the counts, after one pass over the records (the
 * profile's first pass is one).
 */
const struct bt_pd_auxtrace *bt_pd_auxtrace(const struct bt_pd_reader *r);

/*
 * Decode the next record into *ev, in file order. Returns 1, 0 at the end
 * of the data section, or -BT_EFORMAT with err naming the offset. The
 * records of COMPRESSED records come out decompressed (the COMPRESSED
 * records themselves never do); the payload after an AUXTRACE or
 * TRACING_DATA record is skipped. Samples and side-band records in time
 * order, rounds and all: ordered.h.
 */
int bt_pd_next(struct bt_pd_reader *r, struct bt_pd_event *ev,
	       struct bt_error *err);
/*
 * Decode one record of a stream in native byte order whose events share
 * layout l (the recorder's ring buffers), as bt_pd_next() does; strings
 * that are not terminated are copied into scratch. Returns 0, or -1 when
 * the record is shorter than its type needs.
 */
int bt_pd_decode(const struct bt_perf_layout *l, const uint8_t *rec, size_t size,
		 struct bt_pd_event *ev, char *scratch, size_t scratch_len);
/* The sample layout of event i. */
const struct bt_perf_layout *bt_pd_layout(const struct bt_pd_reader *r, size_t i);
/*
 * Where the record at position pos (a bt_pd_event's offset) is, for
 * messages: "offset N", "offset N of 'DIR/data.3'" in a directory, or a
 * byte of the decompressed data.
 */
const char *bt_pd_where(const struct bt_pd_reader *r, uint64_t pos, char *buf,
			size_t len);
/* Restart iteration at the first record. */
void bt_pd_rewind(struct bt_pd_reader *r);

/* Writing. */
struct bt_pd_features {
	const char *hostname, *osrelease, *arch, *version;
	uint32_t nr_cpus_online, nr_cpus_avail;
	char *const *cmdline;	/* NULL-terminated */
	const struct bt_pd_buildid *buildids;
	size_t nbuildids;
	uint64_t first_sample_time, last_sample_time;
	const struct bt_pd_group *groups;	/* GROUP_DESC, when ngroups > 0 */
	size_t ngroups;
	const void *benchtui;	/* benchtui's own section */
	size_t benchtui_len;
};

struct bt_pd_writer;

/*
 * Start writing path: the data goes to "path.tmp" until bt_pd_finish
 * renames it (an existing path is kept as "path.old", like perf).
 */
struct bt_pd_writer *bt_pd_create(const char *path,
				  const struct bt_pd_attr *attrs, size_t nattrs,
				  struct bt_error *err);
/* Append one record (a perf_event_header and its payload). */
int bt_pd_write(struct bt_pd_writer *w, const void *rec, size_t len,
		struct bt_error *err);
uint64_t bt_pd_written(const struct bt_pd_writer *w);
/* Write attrs, features and header, then rename into place; frees w. */
int bt_pd_finish(struct bt_pd_writer *w, const struct bt_pd_features *f,
		 struct bt_error *err);
/* Drop the temporary file; frees w. */
void bt_pd_abort(struct bt_pd_writer *w);

#endif
