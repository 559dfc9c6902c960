/* The perf.data reader's insides, shared by reader.c and features.c. */
#ifndef BENCHTUI_PERFDATA_INT_H
#define BENCHTUI_PERFDATA_INT_H

#include "base.h"
#include "perf/perfdata.h"
#include "perf/sample.h"

#define PD_MAGIC 0x32454c4946524550ULL	/* "PERFILE2" */
#define PD_HEADER_SIZE 104
#define PD_FEAT_BITS 256
#define PD_NAME_ALIGN 64
#define PD_MISC_BUILD_ID_SIZE (1 << 15)
/* The end of a file benchtui wrote: u64 offset, u64 size of its own section, magic. */
#define PD_TRAILER_MAGIC "BTUITRL1"
#define PD_TRAILER_SIZE 24
/* Of a big mapped file, the part kept resident behind the read position. */
#define PD_WINDOW (1u << 20)

struct pd_section {
	uint64_t offset, size;
};

/* Record types the reader handles itself (perf's util/event.h numbers). */
enum {
	PD_HEADER_EVENT_TYPE = 65,
	PD_HEADER_TRACING_DATA = 66,	/* followed by its payload */
	PD_AUXTRACE_INFO = 70,
	PD_AUXTRACE = 71,		/* followed by its payload */
	PD_EVENT_UPDATE = 78,
	PD_HEADER_FEATURE = 80,
	PD_COMPRESSED = 81,		/* zstd data, to the end of the record */
	PD_FINISHED_INIT = 82,
	PD_COMPRESSED2 = 83,		/* u64 data_size, zstd data, padding */
};

/*
 * Positions (pd_tell) inside the decompressed stream of a compressed
 * recording carry this bit; the rest is the byte count of that stream.
 */
#define PD_ZPOS (1ULL << 63)

struct pd_zstream;	/* decomp.c */
struct pd_dir;		/* dir.c */

/* perf's directory format (HEADER_DIR_FORMAT) that benchtui reads. */
#define PD_DIR_VERSION 1
/* A position in a directory: bits 48-62 say which file (dir.c). */
#define PD_DIR_SHIFT 48
#define PD_DIR_OFFSET ((1ULL << PD_DIR_SHIFT) - 1)
#define PD_DIR_FILE(pos) ((size_t)((pos) >> PD_DIR_SHIFT) & 0x7fff)

struct bt_pd_reader {
	const uint8_t *data;
	size_t size;
	bool mapped;
	bool swapped;
	uint64_t dropped;	/* pages before this offset were given back */
	uint64_t hold;		/* keep pages from here on (pd_hold) */

	struct bt_pd_attr *attrs;
	struct bt_perf_layout *layouts;	/* per attr */
	size_t nattrs;
	struct pd_section data_sec;
	uint64_t pos;
	bool pipe;		/* pipe mode: attrs and features are records */
	bool unfinished;	/* data size 0 in the header: data to the end */
	uint64_t skip;		/* payload after the last record, still to skip */
	uint64_t last;		/* position of the last record returned */
	struct pd_zstream *z;	/* from the first COMPRESSED record on */
	bool zlive;		/* the last record came from the decompressed stream */
	bool zseen;		/* a COMPRESSED record was read */
	bool zfeat;		/* the COMPRESSED feature */
	bool dir_feat;		/* the DIR_FORMAT feature */
	uint64_t dir_version;	/* its version */
	/*
	 * A perf record --threads directory (dir.c): the records come from
	 * one reader per file, merged; this one's own data section is
	 * empty, so that its iteration ends at once and hands over.
	 */
	struct pd_dir *dir;
	bool borrowed;		/* attrs, layouts, ids are a directory's (dir.c) */
	struct bt_pd_auxtrace aux;
	uint64_t aux_seen;	/* AUXTRACE records before this offset are counted */

	/* id -> attr index, sorted by id */
	struct pd_id { uint64_t id; int attr; } *ids;
	size_t nids;

	char *feat_str[PD_FEAT_BITS];
	char **cmdline;
	struct bt_pd_group *groups;	/* GROUP_DESC; names malloc'ed */
	size_t ngroups;
	size_t cmdline_argc;
	int nr_cpus;
	struct bt_pd_buildid *buildids;
	size_t nbuildids;
	const uint8_t *bt_section;
	size_t bt_section_len;
	const uint8_t *tracing;	/* the TRACING_DATA section (tracepoint formats) */
	size_t tracing_len;

	char scratch[4096];	/* swapped or unterminated strings */
};

/* Reads in the file's byte order. */
#define pd_g16(r, p) bt_perf_get16((p), (r)->swapped)
#define pd_g32(r, p) bt_perf_get32((p), (r)->swapped)
#define pd_g64(r, p) bt_perf_get64((p), (r)->swapped)

/* Is [off, off+len) inside the file? */
static inline bool
pd_in_file(const struct bt_pd_reader *r, uint64_t off, uint64_t len)
{
	return off <= r->size && len <= r->size - off;
}

/* The feature sections after the data (features.c). */
void pd_read_features(struct bt_pd_reader *r, const uint8_t *bits);
/* benchtui's own section, through the trailer at the end of the file. */
void pd_read_trailer(struct bt_pd_reader *r);
/*
 * The name perf gives tracepoint id ("sched:sched_switch"), from the
 * formats in the TRACING_DATA section (tracing.c); NULL if not found.
 */
char *pd_tracepoint_name(const struct bt_pd_reader *r, uint64_t id);
/* One feature's payload at [off, end) (a section, or a HEADER_FEATURE record). */
void pd_read_feature(struct bt_pd_reader *r, int feat, uint64_t off, uint64_t end);
/* BUILD_ID entries (perf_record_header_build_id) in [off, end). */
void pd_read_buildids(struct bt_pd_reader *r, uint64_t off, uint64_t end);

/* After the attrs are known: the id table and the sample layouts. */
void pd_index_attrs(struct bt_pd_reader *r);
/* The attribute of a perf_event_attr of fsize bytes at p (reader.c). */
int pd_read_attr(struct bt_pd_reader *r, const uint8_t *p, size_t fsize,
		 struct perf_event_attr *a, uint64_t off, struct bt_error *err);
/* The attr index of a sample id, -1 when unknown. */
int pd_attr_of_id(const struct bt_pd_reader *r, uint64_t id);
/*
 * The payload after a record of type (AUXTRACE: u64 size; TRACING_DATA:
 * u32 size; else none), and what the record says about hardware trace
 * (AUXTRACE_INFO, AUXTRACE). p is the record, sz its size; -1 when it is
 * too short for its type.
 */
int pd_payload(struct bt_pd_reader *r, uint32_t type, const uint8_t *p,
	       uint16_t sz, uint64_t *payload);
/*
 * The records one by one, for the ordered stream (ordered.c): the next
 * record as raw bytes, its type and misc. Returns 1, 0 at the end, or
 * -BT_EFORMAT.
 */
int pd_next_raw(struct bt_pd_reader *r, uint32_t *type, uint16_t *misc,
		const uint8_t **rec, size_t *size, struct bt_error *err);
/*
 * The position of the next record: its file offset, or in compressed data
 * a position in the decompressed stream (bit 63 set). pd_seek goes back
 * to a position pd_tell returned, or to pd_tell() minus the size of the
 * record just read; both are immediate, except that in a compressed file
 * any other position is reached by reading again from the start.
 *
 * In a directory, a position is that of a record in its own file (bits
 * 48-62: the file, 0 for "data", N + 1 for data.N); pd_tell() is the
 * position after the record just read, in its file, so that pd_tell()
 * minus its size is its position. pd_seek(pos) makes the record at pos
 * the next: immediate for the record just read, else by reading again
 * from the start.
 */
uint64_t pd_tell(const struct bt_pd_reader *r);
void pd_seek(struct bt_pd_reader *r, uint64_t pos);
/*
 * Decode a record pd_next_raw() returned, later: rec and size as it gave
 * them, at its position (pd_tell() before it). As bt_pd_next().
 */
int pd_event_at(struct bt_pd_reader *r, const uint8_t *rec, size_t size,
		uint64_t at, struct bt_pd_event *ev, struct bt_error *err);
/* The time of a raw sample record, without decoding it (0: none). */
uint64_t pd_sample_time_of(const struct bt_pd_reader *r, const uint8_t *rec,
			   size_t size);
static inline uint64_t
pd_sample_time(const struct bt_pd_reader *r, const uint8_t *rec, size_t size)
{
	if (r->nattrs == 1)	/* the common case: no id to look up */
		return bt_perf_sample_time(&r->layouts[0], rec, size, r->swapped);
	return pd_sample_time_of(r, rec, size);
}
/*
 * Does the record pd_next_raw() returned last stay at its address until
 * bt_pd_close()? (Yes unless it came out of compressed data.)
 */
bool pd_stable(const struct bt_pd_reader *r);
/*
 * Keep the file's pages from position pos on resident (records that will
 * be decoded again); UINT64_MAX: none, the default.
 */
void pd_hold(struct bt_pd_reader *r, uint64_t pos);
/* Give back the pages of a big mapped file well behind r->pos (records.c). */
void pd_drop_pages(struct bt_pd_reader *r);
static inline void
pd_drop_behind(struct bt_pd_reader *r)
{
	if (r->pos >= r->dropped + 2 * PD_WINDOW)
		pd_drop_pages(r);
}
/*
 * The layout when every sample of the file can be read briefly
 * (bt_perf_sample_brief: one event, native byte order), else NULL.
 */
const struct bt_perf_layout *pd_brief_layout(const struct bt_pd_reader *r);

/*
 * The next record of r's own data (a directory's file, dir.c): as
 * pd_next_raw, with its position.
 */
int pd_fetch(struct bt_pd_reader *r, const uint8_t **rec, size_t *size,
	     uint64_t *at, struct bt_error *err);
/* "record of type T at WHERE is too short (N bytes)" in err; -BT_EFORMAT. */
int pd_too_short(const struct bt_pd_reader *r, uint64_t pos, uint32_t type,
		 size_t sz, struct bt_error *err);
/* Map the regular file fd (named name in messages), size bytes (reader.c). */
int pd_map(int fd, size_t size, const char *name, const uint8_t **data,
	   struct bt_error *err);

/* A perf record --threads directory (dir.c): dfd, opened as path. */
struct bt_pd_reader *pd_dir_open(int dfd, const char *path, struct bt_error *err);
void pd_dir_free(struct bt_pd_reader *r);
/* The next record of the merged files, as fetch() (reader.c). */
int pd_dir_fetch(struct bt_pd_reader *r, const uint8_t **rec, size_t *size,
		 uint64_t *at, struct bt_error *err);
uint64_t pd_dir_tell(const struct bt_pd_reader *r);
void pd_dir_seek(struct bt_pd_reader *r, uint64_t pos);
void pd_dir_rewind(struct bt_pd_reader *r);
void pd_dir_hold(struct bt_pd_reader *r, uint64_t pos);
bool pd_dir_stable(const struct bt_pd_reader *r);
const char *pd_dir_where(const struct bt_pd_reader *r, uint64_t pos, char *buf,
			 size_t len);
/* What the files' readers saw: hardware trace, compressed data, bytes. */
const struct bt_pd_auxtrace *pd_dir_auxtrace(const struct bt_pd_reader *r);
bool pd_dir_compressed(const struct bt_pd_reader *r);
uint64_t pd_dir_data_size(const struct bt_pd_reader *r);
size_t pd_dir_nfiles(const struct bt_pd_reader *r);

/* Pipe mode: attrs, names, features and build-ids from the records (pipe.c). */
int pd_read_pipe_header(struct bt_pd_reader *r, struct bt_error *err);

/*
 * The decompressed stream of a compressed recording (decomp.c): the input
 * of one COMPRESSED record at a time, decompressed into a window on
 * demand; a record may straddle two COMPRESSED records.
 */
struct pd_zstream *pd_z_new(void);
void pd_z_free(struct pd_zstream *z);
void pd_z_reset(struct pd_zstream *z);
/* Feed the zstd data of the COMPRESSED record at file offset off. */
void pd_z_feed(struct pd_zstream *z, const uint8_t *data, size_t len, uint64_t off);
/*
 * The next whole record of the stream: 1 with rec and size (in the file's
 * byte order), 0 when more input is needed (none left), or -BT_EFORMAT.
 */
int pd_z_next(struct bt_pd_reader *r, const uint8_t **rec, size_t *size,
	      struct bt_error *err);
/* The stream position of the next record; back to the last one returned. */
uint64_t pd_z_tell(const struct pd_zstream *z);
void pd_z_unread(struct pd_zstream *z);
/* Drop n more bytes of the stream (a payload after a record in it). */
void pd_z_skip(struct pd_zstream *z, uint64_t n);
/* "byte N of the data decompressed from the record at offset M", for messages. */
const char *pd_z_where(const struct pd_zstream *z, uint64_t pos, char *buf, size_t len);
/* A perf_header_string at *off within [.., end); advances *off. */
char *pd_read_string(struct bt_pd_reader *r, uint64_t *off, uint64_t end);
/* The features a writer writes, in file order (features.c). */
extern const int pd_write_feats[];
extern const size_t pd_nwrite_feats;
/* One feature's payload into sb; false when it is absent (features.c). */
struct bt_strbuf;
bool pd_build_feature(const struct bt_pd_attr *attrs, size_t nattrs,
		      const struct bt_pd_features *f, int feat, struct bt_strbuf *sb);

#endif
