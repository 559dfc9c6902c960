/*
 * perf.data feature sections (the HEADER_* bits after the data): read
 * into the reader, built for the writer. Only the features benchtui uses
 * are decoded; the rest are skipped by the section table.
 */
#include <stdlib.h>
#include <string.h>

#include "perf/perfdata-int.h"

char *
pd_read_string(struct bt_pd_reader *r, uint64_t *off, uint64_t end)
{
	uint32_t len;
	const char *s;

	if (*off + 4 > end)
		return NULL;
	len = pd_g32(r, r->data + *off);
	if (len > end - *off - 4)
		return NULL;
	s = (const char *)r->data + *off + 4;
	*off += 4 + (uint64_t)len;
	return bt_xstrndup(s, strnlen(s, len));
}

void
pd_read_buildids(struct bt_pd_reader *r, uint64_t off, uint64_t end)
{
	size_t alloc = r->nbuildids;

	while (off + 36 <= end) {
		uint16_t misc = pd_g16(r, r->data + off + 4);
		uint16_t size = pd_g16(r, r->data + off + 6);
		struct bt_pd_buildid b;

		if (size < 36 || size > end - off)
			break;
		b.misc = misc;
		b.pid = (int32_t)pd_g32(r, r->data + off + 8);
		memcpy(b.id, r->data + off + 12, 20);
		b.size = (misc & PD_MISC_BUILD_ID_SIZE) ?
		    BT_MIN(r->data[off + 32], 20) : 20;
		b.filename = bt_xstrndup((const char *)r->data + off + 36,
		    strnlen((const char *)r->data + off + 36, size - 36));
		BT_ALLOC_GROW(r->buildids, r->nbuildids + 1, alloc);
		r->buildids[r->nbuildids++] = b;
		off += size;
	}
}

static void
read_event_desc(struct bt_pd_reader *r, uint64_t off, uint64_t end)
{
	uint32_t nr, asz, i;

	if (off + 8 > end)
		return;
	nr = pd_g32(r, r->data + off);
	asz = pd_g32(r, r->data + off + 4);
	off += 8;
	if (asz < PERF_ATTR_SIZE_VER0)
		return;
	for (i = 0; i < nr; i++) {
		uint32_t nr_ids;
		char *name;

		if ((uint64_t)asz + 4 > end - off)
			return;
		nr_ids = pd_g32(r, r->data + off + asz);
		off += asz + 4;
		name = pd_read_string(r, &off, end);
		if (name == NULL)
			return;
		if (i < r->nattrs && r->attrs[i].name == NULL)
			r->attrs[i].name = name;
		else
			free(name);
		if ((uint64_t)nr_ids * 8 > end - off)
			return;
		off += (uint64_t)nr_ids * 8;
	}
}

/* GROUP_DESC: the groups within the attrs kept, the others dropped. */
static void
read_group_desc(struct bt_pd_reader *r, uint64_t off, uint64_t end)
{
	uint32_t nr, i;

	if (end - off < 4 || r->groups != NULL)
		return;
	nr = pd_g32(r, r->data + off);
	off += 4;
	if (nr > (end - off) / 12)
		return;
	r->groups = bt_xcalloc(nr ? nr : 1, sizeof(*r->groups));
	for (i = 0; i < nr; i++) {
		char *name = pd_read_string(r, &off, end);
		uint32_t leader, n;

		if (name == NULL || end - off < 8) {
			free(name);
			return;
		}
		leader = pd_g32(r, r->data + off);
		n = pd_g32(r, r->data + off + 4);
		off += 8;
		if (n < 2 || leader >= r->nattrs || n > r->nattrs - leader ||
		    (r->ngroups > 0 && leader < r->groups[r->ngroups - 1].leader +
		    r->groups[r->ngroups - 1].nr_members)) {
			free(name);
			continue;
		}
		if (strcmp(name, "{anon_group}") == 0)
			FREE_AND_NULL(name);
		r->groups[r->ngroups].name = name;
		r->groups[r->ngroups].leader = leader;
		r->groups[r->ngroups].nr_members = n;
		r->ngroups++;
	}
}

static void
read_cmdline(struct bt_pd_reader *r, uint64_t off, uint64_t end)
{
	uint32_t nr, i;

	if (end - off < 4 || r->cmdline != NULL)
		return;		/* (a second CMDLINE of a pipe: the first one stays) */
	nr = pd_g32(r, r->data + off);
	off += 4;
	if (nr > (end - off + 4) / 4)
		return;
	r->cmdline = bt_xcalloc(nr + 1, sizeof(char *));
	for (i = 0; i < nr; i++) {
		char *a = pd_read_string(r, &off, end);
		if (a == NULL)
			break;
		r->cmdline[r->cmdline_argc++] = a;
	}
}

void
pd_read_feature(struct bt_pd_reader *r, int feat, uint64_t off, uint64_t end)
{
	switch (feat) {
	case BT_FEAT_HOSTNAME:
	case BT_FEAT_OSRELEASE:
	case BT_FEAT_VERSION:
	case BT_FEAT_ARCH:
	case BT_FEAT_CPUID:
		free(r->feat_str[feat]);
		r->feat_str[feat] = pd_read_string(r, &off, end);
		break;
	case BT_FEAT_NRCPUS:
		if (end - off >= 8)	/* avail, then online */
			r->nr_cpus = (int)pd_g32(r, r->data + off + 4);
		break;
	case BT_FEAT_CMDLINE:
		read_cmdline(r, off, end);
		break;
	case BT_FEAT_BUILD_ID:
		pd_read_buildids(r, off, end);
		break;
	case BT_FEAT_EVENT_DESC:
		read_event_desc(r, off, end);
		break;
	case BT_FEAT_GROUP_DESC:
		read_group_desc(r, off, end);
		break;
	case BT_FEAT_AUXTRACE:
		r->aux.present = true;
		break;
	case BT_FEAT_COMPRESSED:
		r->zfeat = true;
		break;
	case BT_FEAT_DIR_FORMAT:	/* u64 version; present but short: version 0 */
		r->dir_feat = true;
		r->dir_version = end - off >= 8 ? pd_g64(r, r->data + off) : 0;
		break;
	case BT_FEAT_TRACING_DATA:
		r->tracing = r->data + off;
		r->tracing_len = end - off;
		break;
	case BT_FEAT_BENCHTUI:
		r->bt_section = r->data + off;
		r->bt_section_len = end - off;
		break;
	}
}

void
pd_read_features(struct bt_pd_reader *r, const uint8_t *bits)
{
	uint64_t tab = r->data_sec.offset + r->data_sec.size;
	size_t idx = 0;
	int feat;

	for (feat = 1; feat < PD_FEAT_BITS; feat++) {
		struct pd_section s;
		uint64_t off;

		if (!(bits[feat / 8] & (1u << (feat % 8))))
			continue;
		off = tab + idx * 16;
		idx++;
		if (!pd_in_file(r, off, 16))
			return;	/* a damaged table: the data stays readable */
		s.offset = pd_g64(r, r->data + off);
		s.size = pd_g64(r, r->data + off + 8);
		if (!pd_in_file(r, s.offset, s.size))
			continue;
		pd_read_feature(r, feat, s.offset, s.offset + s.size);
	}
}

void
pd_read_trailer(struct bt_pd_reader *r)
{
	uint64_t off, len;
	const uint8_t *t;

	if (r->size < PD_TRAILER_SIZE)
		return;
	t = r->data + r->size - PD_TRAILER_SIZE;
	if (memcmp(t + 16, PD_TRAILER_MAGIC, 8) != 0)
		return;
	off = bt_perf_get64(t, false);	/* written in the writer's own order */
	len = bt_perf_get64(t + 8, false);
	if (off < r->data_sec.offset + r->data_sec.size ||
	    !pd_in_file(r, off, len) || off + len > r->size - PD_TRAILER_SIZE)
		return;
	r->bt_section = r->data + off;
	r->bt_section_len = len;
}

/* Writing. */

/*
 * benchtui's own section is not among them: perf inject rewrites every
 * feature it finds and crashes on one it has no code for (bit 255). It
 * goes after the features instead, found through a trailer at the end of
 * the file, where perf's tools never look (pd_read_trailer).
 */
const int pd_write_feats[] = {
	BT_FEAT_BUILD_ID, BT_FEAT_HOSTNAME, BT_FEAT_OSRELEASE,
	BT_FEAT_VERSION, BT_FEAT_ARCH, BT_FEAT_NRCPUS, BT_FEAT_CMDLINE,
	BT_FEAT_EVENT_DESC, BT_FEAT_GROUP_DESC, BT_FEAT_SAMPLE_TIME,
};
const size_t pd_nwrite_feats = BT_ARRAY_SIZE(pd_write_feats);

/* perf_header_string: u32 length (NUL included, padded to 64), bytes. */
static void
sb_add_string(struct bt_strbuf *sb, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t len = (uint32_t)((n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN);

	bt_strbuf_add(sb, &len, 4);
	bt_strbuf_add(sb, s, n - 1);
	bt_strbuf_addchars(sb, 0, len - (n - 1));
}

static void
sb_add_u32(struct bt_strbuf *sb, uint32_t v)
{
	bt_strbuf_add(sb, &v, 4);
}

bool
pd_build_feature(const struct bt_pd_attr *attrs, size_t nattrs,
		 const struct bt_pd_features *f, int feat, struct bt_strbuf *sb)
{
	size_t i;

	switch (feat) {
	case BT_FEAT_BUILD_ID:
		if (f->nbuildids == 0)
			return false;
		for (i = 0; i < f->nbuildids; i++) {
			const struct bt_pd_buildid *b = &f->buildids[i];
			size_t n = strlen(b->filename) + 1;
			size_t len = (n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;
			uint8_t id[24] = { 0 };
			struct perf_event_header h = {
				.type = BT_PD_HEADER_BUILD_ID,
				.misc = (uint16_t)(b->misc | PD_MISC_BUILD_ID_SIZE),
				.size = (uint16_t)(36 + len),
			};

			memcpy(id, b->id, BT_MIN(b->size, 20));
			id[20] = b->size;
			bt_strbuf_add(sb, &h, sizeof(h));
			bt_strbuf_add(sb, &b->pid, 4);
			bt_strbuf_add(sb, id, sizeof(id));
			bt_strbuf_add(sb, b->filename, n - 1);
			bt_strbuf_addchars(sb, 0, len - (n - 1));
		}
		return true;
	case BT_FEAT_HOSTNAME:
	case BT_FEAT_OSRELEASE:
	case BT_FEAT_VERSION:
	case BT_FEAT_ARCH: {
		const char *s = feat == BT_FEAT_HOSTNAME ? f->hostname :
		    feat == BT_FEAT_OSRELEASE ? f->osrelease :
		    feat == BT_FEAT_VERSION ? f->version : f->arch;
		if (s == NULL)
			return false;
		sb_add_string(sb, s);
		return true;
	}
	case BT_FEAT_NRCPUS:
		if (f->nr_cpus_online == 0)
			return false;
		sb_add_u32(sb, f->nr_cpus_avail);
		sb_add_u32(sb, f->nr_cpus_online);
		return true;
	case BT_FEAT_CMDLINE: {
		uint32_t n = 0;
		if (f->cmdline == NULL)
			return false;
		while (f->cmdline[n] != NULL)
			n++;
		sb_add_u32(sb, n);
		for (i = 0; i < n; i++)
			sb_add_string(sb, f->cmdline[i]);
		return true;
	}
	case BT_FEAT_EVENT_DESC:
		sb_add_u32(sb, (uint32_t)nattrs);
		sb_add_u32(sb, sizeof(struct perf_event_attr));
		for (i = 0; i < nattrs; i++) {
			struct perf_event_attr a = attrs[i].attr;

			a.size = sizeof(a);
			bt_strbuf_add(sb, &a, sizeof(a));
			sb_add_u32(sb, (uint32_t)attrs[i].nids);
			sb_add_string(sb, attrs[i].name ? attrs[i].name : "");
			bt_strbuf_add(sb, attrs[i].ids, attrs[i].nids * 8);
		}
		return true;
	case BT_FEAT_GROUP_DESC:	/* only with groups, as perf record */
		if (f->ngroups == 0)
			return false;
		sb_add_u32(sb, (uint32_t)f->ngroups);
		for (i = 0; i < f->ngroups; i++) {
			sb_add_string(sb, f->groups[i].name ? f->groups[i].name :
			    "{anon_group}");
			sb_add_u32(sb, f->groups[i].leader);
			sb_add_u32(sb, f->groups[i].nr_members);
		}
		return true;
	case BT_FEAT_SAMPLE_TIME:
		if (f->last_sample_time == 0)
			return false;
		bt_strbuf_add(sb, &f->first_sample_time, 8);
		bt_strbuf_add(sb, &f->last_sample_time, 8);
		return true;
	}
	return false;
}
