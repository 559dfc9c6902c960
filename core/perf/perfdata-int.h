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

struct pd_section {
	uint64_t offset, size;
};

struct bt_pd_reader {
	const uint8_t *data;
	size_t size;
	bool mapped;
	bool swapped;
	uint64_t dropped;	/* pages before this offset were given back */

	struct bt_pd_attr *attrs;
	struct bt_perf_layout *layouts;	/* per attr */
	size_t nattrs;
	struct pd_section data_sec;
	uint64_t pos;

	/* id -> attr index, sorted by id */
	struct pd_id { uint64_t id; int attr; } *ids;
	size_t nids;
	bool skip_samples;	/* return samples undecoded (bt_pd_skip_samples) */

	char *feat_str[PD_FEAT_BITS];
	char **cmdline;
	size_t cmdline_argc;
	int nr_cpus;
	struct bt_pd_buildid *buildids;
	size_t nbuildids;
	const uint8_t *bt_section;
	size_t bt_section_len;

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
