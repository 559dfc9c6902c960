/*
 * The first read's cache (readcache.h; docs/formats.md "First-read
 * cache"). Reading every sample of a big recording is the browser's
 * first screen's largest cost (a million samples: 25-30 ms of a perf
 * recording, 90 ms of benchtui's with its stack copies, most of it the
 * kernel mapping 400 MB), and nothing of it changes while the file does
 * not. So the first read of a big file is kept, per user, as what it made
 * from the samples (every event's histogram, counts and times, the
 * threads with their names and samples) and where the side-band records
 * it gave the machine are (file offsets, in the order given, with their
 * times and tags): opening the file again gives the machine those records
 * again, from the file, and reads no sample. The call chains, a window or
 * the timeline read the samples as before.
 *
 * Kept only when the samples changed nothing but counts (no address was
 * asked of JIT code) and the records are where the log says (a mapped
 * file, not compressed, not a directory); used only when the file is the
 * one read (device, inode, size, modification time, and a hash of its
 * first and last 64 KiB).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf/ordered.h"
#include "perf/perfdata.h"
#include "profile/profile-int.h"
#include "profile/readcache.h"

#define RC_MAGIC 0x3130434452544242ULL	/* "BBTRDC01" */
/* Bump when what the first read makes of a recording changes. */
#define RC_VERSION 1
/* Recordings from this size on are kept (unless BENCHTUI_READ_CACHE says). */
#define RC_MIN_SIZE (8u << 20)
/* Entries kept in the directory: the oldest go past it. */
#define RC_MAX_ENTRIES 32

/* What a cache entry is checked against. */
struct rc_key {
	uint64_t dev, ino, size, mtime, mtime_ns, ctime, ctime_ns, print;
};

static int
key_of(const char *path, const struct bt_pd_reader *r, struct rc_key *k)
{
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	k->dev = (uint64_t)st.st_dev;
	k->ino = (uint64_t)st.st_ino;
	k->size = (uint64_t)st.st_size;
	k->mtime = (uint64_t)st.st_mtim.tv_sec;
	k->mtime_ns = (uint64_t)st.st_mtim.tv_nsec;
	/* a write in place with the time put back still changes ctime */
	k->ctime = (uint64_t)st.st_ctim.tv_sec;
	k->ctime_ns = (uint64_t)st.st_ctim.tv_nsec;
	k->print = bt_ordered_fingerprint(r);
	return k->print != 0 ? 0 : -1;
}

/* The cache's directory (ours: made when missing), NULL when there is none. */
static char *
cache_dir(bool make)
{
	char *base = bt_user_cache_dir(), *dir;

	if (base == NULL)
		return NULL;
	dir = bt_xasprintf("%s/reads", base);
	/* benchtui/ first: with its parent, as many as bt_private_dir makes */
	if (make && (bt_private_dir(base) < 0 || bt_private_dir(dir) < 0))
		FREE_AND_NULL(dir);
	free(base);
	return dir;
}

/* The entry for file k (by device and inode: one entry a file). */
static char *
entry_path(const char *dir, const struct rc_key *k)
{
	return bt_xasprintf("%s/%016llx", dir,
	    (unsigned long long)bt_hash64(k->dev * 1000003 ^ k->ino));
}

static uint64_t
checksum(const uint8_t *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = bt_hash64(h ^ w);
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}

bool
bt_readcache_wanted(const struct bt_pd_reader *r)
{
	const char *e = getenv("BENCHTUI_READ_CACHE");

	if (!bt_ordered_replayable(r) || (e != NULL && strcmp(e, "0") == 0))
		return false;
	if (e != NULL && strcmp(e, "1") == 0)
		return true;
	return bt_pd_data_size(r) >= RC_MIN_SIZE;
}

/* Past RC_MAX_ENTRIES entries in dir, the oldest go. */
static void
trim(const char *dir)
{
	char oldest[64] = "";
	struct dirent *de;
	struct timespec t = { 0, 0 };
	size_t n = 0;
	struct stat st;
	DIR *d = opendir(dir);

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		char *p;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(oldest))
			continue;
		p = bt_xasprintf("%s/%s", dir, de->d_name);
		if (stat(p, &st) == 0) {
			n++;
			if (oldest[0] == '\0' || st.st_mtim.tv_sec < t.tv_sec ||
			    (st.st_mtim.tv_sec == t.tv_sec && st.st_mtim.tv_nsec < t.tv_nsec)) {
				t = st.st_mtim;
				strcpy(oldest, de->d_name);
			}
		}
		free(p);
	}
	closedir(d);
	if (n > RC_MAX_ENTRIES && oldest[0] != '\0') {
		char *p = bt_xasprintf("%s/%s", dir, oldest);
		unlink(p);
		free(p);
	}
}

void
bt_readcache_save(const struct bt_profile *p, struct bt_pd_reader *r,
		  const char *path, const struct bt_ordered_log *log)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct rc_key k;
	char *dir, *entry, *tmp;
	size_t i, ne = p->info.nevents, nh = p->hist_start[ne];
	int fd;

	if (log == NULL || bt_machine_jit_asked(p->machine) != 0 ||
	    !bt_ordered_replayable(r) || key_of(path, r, &k) < 0)
		return;
	if ((dir = cache_dir(true)) == NULL)
		return;
	bt_rc_put64(&sb, RC_MAGIC);
	bt_rc_put64(&sb, RC_VERSION);
	bt_strbuf_add(&sb, &k, sizeof(k));
	bt_rc_put64(&sb, ne);
	for (i = 0; i < ne; i++) {
		bt_rc_put64(&sb, p->event_samples[i]);
		bt_rc_put64(&sb, p->event_period[i]);
	}
	bt_rc_put64(&sb, p->unresolved);
	bt_rc_put64(&sb, p->first_time);
	bt_rc_put64(&sb, p->last_time);
	bt_rc_put64(&sb, nh);
	for (i = 0; i < nh; i++) {
		const struct bt_hist_entry *e = &p->hist[i];

		bt_rc_put64(&sb, (uint64_t)e->group << 32 | e->module);
		bt_rc_put64(&sb, e->off);
		bt_rc_put64(&sb, e->samples);
		bt_rc_put64(&sb, e->period);
	}
	bt_tasks_save(&p->tasks, &sb);
	bt_rc_put64(&sb, log->n);
	for (i = 0; i < log->n; i++) {
		bt_rc_put64(&sb, log->v[i].at);
		bt_rc_put64(&sb, log->v[i].time);
		bt_rc_put64(&sb, (uint64_t)log->v[i].tag << 32 | log->v[i].apply);
	}
	bt_rc_put64(&sb, checksum((const uint8_t *)sb.buf, sb.len));
	/* a temporary file in the same directory, renamed over the entry */
	entry = entry_path(dir, &k);
	tmp = bt_xasprintf("%s/.read.XXXXXX", dir);
	if ((fd = mkstemp(tmp)) >= 0) {
		if (bt_write_all(fd, sb.buf, sb.len) == 0 && close(fd) == 0 &&
		    rename(tmp, entry) == 0)
			trim(dir);
		else
			unlink(tmp);
	}
	free(tmp);
	free(entry);
	free(dir);
	bt_strbuf_release(&sb);
}

/* The cached hist entries into p (after the replay: modules are known). */
static int
load_hist(struct bt_profile *p, struct bt_rc_in *in)
{
	uint64_t n = bt_rc_get64(in), i, e;
	size_t ne = p->info.nevents;

	if (in->bad || n > (uint64_t)(in->end - in->p) / 32)
		return -1;
	p->hist = bt_xcalloc(n ? n : 1, sizeof(*p->hist));
	for (i = 0; i < n; i++) {
		uint64_t w = bt_rc_get64(in);
		struct bt_hist_entry *h = &p->hist[i];

		h->group = (uint32_t)(w >> 32);
		h->module = (uint32_t)w;
		h->off = bt_rc_get64(in);
		h->samples = bt_rc_get64(in);
		h->period = bt_rc_get64(in);
		if (h->group >= ne || h->module >= p->modules.n ||
		    (i > 0 && h->group < h[-1].group))
			return -1;
	}
	p->hist_start = bt_xcalloc(ne + 1, sizeof(size_t));
	for (e = 0, i = 0; e <= ne; e++) {
		while (i < n && p->hist[i].group < e)
			i++;
		p->hist_start[e] = (size_t)i;
	}
	p->chist_start = bt_xcalloc(ne + 1, sizeof(size_t));
	return 0;
}

/* Is this entry the one of file k? */
static bool
key_matches(struct bt_rc_in *in, const struct rc_key *k, size_t nevents)
{
	struct rc_key ck;
	const uint8_t *at;

	if (bt_rc_get64(in) != RC_MAGIC || bt_rc_get64(in) != RC_VERSION ||
	    (at = bt_rc_get(in, sizeof(ck))) == NULL)
		return false;
	memcpy(&ck, at, sizeof(ck));
	return memcmp(&ck, k, sizeof(ck)) == 0 && bt_rc_get64(in) == nevents;
}

/* What the cache holds besides the hist and tasks. */
static int
load_counts(struct bt_profile *p, struct bt_rc_in *in)
{
	size_t i;

	for (i = 0; i < p->info.nevents; i++) {
		p->event_samples[i] = bt_rc_get64(in);
		p->event_period[i] = bt_rc_get64(in);
	}
	p->unresolved = bt_rc_get64(in);
	p->first_time = bt_rc_get64(in);
	p->last_time = bt_rc_get64(in);
	return in->bad ? -1 : 0;
}

int
bt_readcache_load(struct bt_profile *p, struct bt_pd_reader *r, const char *path)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct bt_ordered_step *steps = NULL;
	const uint8_t *hist_at;
	struct bt_rc_in in;
	struct rc_key k;
	uint64_t n, i, w, sum;
	char *dir, *entry;
	int ret = -1;

	if (!bt_ordered_replayable(r) || key_of(path, r, &k) < 0 ||
	    (dir = cache_dir(true)) == NULL)
		return -1;
	entry = entry_path(dir, &k);
	free(dir);
	if (bt_strbuf_read_file(&sb, entry, SIZE_MAX) < 0 || sb.len < 8)
		goto out;
	memcpy(&sum, sb.buf + sb.len - 8, 8);
	if (sum != checksum((const uint8_t *)sb.buf, sb.len - 8))
		goto out;
	in.p = (const uint8_t *)sb.buf;
	in.end = in.p + sb.len - 8;
	in.bad = false;
	if (!key_matches(&in, &k, p->info.nevents))
		goto out;
	ret = -2;	/* from here on p changes */
	if (load_counts(p, &in) < 0)
		goto out;
	/* the hist after the tasks and the steps: its modules come from the replay */
	hist_at = in.p;
	n = bt_rc_get64(&in);
	if (in.bad || n > (uint64_t)(in.end - in.p) / 32 ||
	    bt_rc_get(&in, n * 32) == NULL || bt_tasks_load(&p->tasks, &in) < 0)
		goto out;
	n = bt_rc_get64(&in);
	if (in.bad || n > (uint64_t)(in.end - in.p) / 24)
		goto out;
	steps = bt_xcalloc(n ? n : 1, sizeof(*steps));
	for (i = 0; i < n; i++) {
		steps[i].at = bt_rc_get64(&in);
		steps[i].time = bt_rc_get64(&in);
		w = bt_rc_get64(&in);
		steps[i].tag = (uint32_t)(w >> 32);
		steps[i].apply = (uint32_t)w & 1;
	}
	if (in.bad || in.p != in.end || bt_profile_replay(p, r, steps, n, NULL) < 0)
		goto out;
	in.p = hist_at;
	if (load_hist(p, &in) == 0)
		ret = 0;
out:
	free(steps);
	free(entry);
	bt_strbuf_release(&sb);
	return ret;
}
