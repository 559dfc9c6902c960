/*
 * A recording loaded for viewing (profile.h): its machine and call chains
 * set up, its samples read once (read.c), its metadata and notes.
 */
#include <string.h>
#include <time.h>

#include "base.h"
#include "perf/ordered.h"
#include "perf/perfdata.h"
#include "profile/chains.h"
#include "profile/profile-int.h"
#include "profile/readcache.h"

void
bt_profile_resolve(struct bt_profile *p, uint32_t pid, uint64_t ip, uint64_t t,
		   uint32_t *module, uint64_t *off)
{
	bt_machine_resolve_frame(p->machine, pid, ip, t, module, off);
}

uint32_t
bt_profile_module(struct bt_profile *p, enum bt_mod_kind kind, const char *path,
		  const uint8_t *bid, size_t bid_size)
{
	return bt_modules_get(&p->modules, kind, path, bid, bid_size);
}

static char *
join_command(char *const *argv, size_t argc)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	size_t i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (i)
			bt_strbuf_addch(&sb, ' ');
		if (a[0] != '\0' && strpbrk(a, " \t\n'\"\\$`") == NULL)
			bt_strbuf_addstr(&sb, a);
		else {
			bt_strbuf_addch(&sb, '\'');
			for (; *a; a++) {
				if (*a == '\'')
					bt_strbuf_addstr(&sb, "'\\''");
				else
					bt_strbuf_addch(&sb, *a);
			}
			bt_strbuf_addch(&sb, '\'');
		}
	}
	return bt_strbuf_detach(&sb, NULL);
}

/* Each grouped event's group, as perf evlist -g prints it: "{a,b}". */
static void
group_names(struct bt_profile *p, const struct bt_pd_reader *r)
{
	const struct bt_pd_group *g;
	size_t ng = bt_pd_groups(r, &g), i, k;

	if (ng == 0)
		return;
	p->event_groups = bt_xcalloc(bt_pd_nattrs(r) + 1, sizeof(char *));
	for (i = 0; i < ng; i++) {
		struct bt_strbuf sb = BT_STRBUF_INIT;

		if (g[i].name != NULL)
			bt_strbuf_addf(&sb, "%s", g[i].name);
		bt_strbuf_addch(&sb, '{');
		for (k = 0; k < g[i].nr_members; k++)
			bt_strbuf_addf(&sb, "%s%s", k ? "," : "",
			    p->events[g[i].leader + k]);
		bt_strbuf_addch(&sb, '}');
		for (k = 0; k < g[i].nr_members; k++)
			p->event_groups[g[i].leader + k] = bt_xstrdup(sb.buf);
		bt_strbuf_release(&sb);
	}
	p->info.event_groups = (const char *const *)p->event_groups;
}

static void
fill_info(struct bt_profile *p, struct bt_pd_reader *r)
{
	struct bt_profile_info *in = &p->info;
	const struct perf_event_attr *a0 = &bt_pd_attr(r, 0)->attr;
	const struct bt_pd_auxtrace *aux;
	const char *s;
	size_t i, argc;
	char *const *cmd;

	if (p->meta.argc)
		p->command = join_command(p->meta.argv, p->meta.argc);
	else if ((cmd = bt_pd_cmdline(r, &argc)) != NULL && argc)
		p->command = join_command(cmd, argc);
	else
		p->command = bt_xstrdup("");
	in->command = p->command;
	in->argv = (const char *const *)p->meta.argv;
	in->argc = p->meta.argc;
	p->events = bt_xcalloc(bt_pd_nattrs(r) + 1, sizeof(char *));
	/* the histogram of an event with a name seen twice stays with its index */
	p->event_attrs = bt_xcalloc(bt_pd_nattrs(r) + 1, sizeof(*p->event_attrs));
	for (i = 0; i < bt_pd_nattrs(r); i++) {
		p->events[i] = bt_xstrdup(bt_pd_attr(r, i)->name);
		p->event_attrs[i] = bt_pd_attr(r, i)->attr;
	}
	in->events = (const char *const *)p->events;
	group_names(p, r);
	in->event_samples = p->event_samples;
	in->nevents = bt_pd_nattrs(r);
	in->frequency = a0->freq ? (unsigned)a0->sample_freq : 0;
	in->duration = p->meta.duration > 0 ? p->meta.duration :
	    p->last_time > p->first_time ?
	    (double)(p->last_time - p->first_time) / 1e9 : 0;
	in->has_status = p->meta.has_status;
	in->wait_status = p->meta.wait_status;
	in->interrupted = p->meta.interrupted;
	in->event_note = p->meta.event_note;
	s = bt_pd_feature_str(r, BT_FEAT_HOSTNAME);
	p->hostname = bt_xstrdup(s ? s : "");
	s = bt_pd_feature_str(r, BT_FEAT_OSRELEASE);
	p->osrelease = bt_xstrdup(s ? s : "");
	s = bt_pd_feature_str(r, BT_FEAT_VERSION);
	if (s != NULL && strncmp(s, "benchtui", 8) == 0)
		p->recorder = bt_xstrdup(s);
	else
		p->recorder = bt_xasprintf("perf %s", s ? s : "(unknown version)");
	in->hostname = p->hostname;
	in->osrelease = p->osrelease;
	in->recorder = p->recorder;
	if (bt_pd_unfinished(r))
		BT_VEC_PUSH(p->notes, bt_xstrdup("the recording was not finished "
		    "(the size of its data was never written: was the recorder "
		    "killed?): read to its last whole record"));
	if (p->meta.output_note[0])
		BT_VEC_PUSH(p->notes, bt_xstrdup(p->meta.output_note));
	aux = bt_pd_auxtrace(r);
	if (aux->present) {
		char size[32];

		if (aux->bytes >= 1048576)
			snprintf(size, sizeof(size), "%.1f MiB", (double)aux->bytes / 1048576);
		else
			snprintf(size, sizeof(size), "%llu bytes", (unsigned long long)aux->bytes);
		BT_VEC_PUSH(p->notes, bt_xasprintf("the recording holds hardware "
		    "trace (%s, %llu records, %s) that is not decoded: only its "
		    "samples are shown", aux->kind ? aux->kind : "AUXTRACE",
		    (unsigned long long)aux->records, size));
	}
	in->notes = (const char *const *)p->notes.v;
	in->nnotes = p->notes.n;
}

/*
 * perf's CPUID header ("AuthenticAMD,26,2,1", "GenuineIntel,6,85,7": the
 * stepping last) in benchtui's form, vendor, family, model: what llvm-mca's
 * CPU is chosen from (X) for a recording made elsewhere. Another
 * architecture's form (arm64's MIDR "0x00000000410fd0c0") is kept whole.
 */
static void
perf_cpu_id(char *buf, size_t len, const char *id)
{
	const char *c = strchr(id, ','), *d = c ? strchr(c + 1, ',') : NULL;
	const char *e = d ? strchr(d + 1, ',') : NULL;

	snprintf(buf, len, "%.*s", e != NULL ? (int)(e - id) : (int)strlen(id), id);
	if (strpbrk(buf, " \n") != NULL)	/* the meta section's own rule */
		buf[0] = '\0';
}

/* A profile of r with nothing read yet; keep: its samples kept as read (kept.c). */
static struct bt_profile *
profile_new(struct bt_pd_reader *r, const char *path, bool defer, bool keep)
{
	struct bt_profile *p = bt_xcalloc(1, sizeof(*p));
	const struct perf_event_attr *a0 = &bt_pd_attr(r, 0)->attr;
	const struct bt_pd_buildid *ids;
	const void *btsec;
	size_t btlen, ne = bt_pd_nattrs(r), nids;

	p->path = bt_xstrdup(path ? path : "");
	btsec = bt_pd_benchtui(r, &btlen);
	if (btsec != NULL)
		bt_meta_decode(btsec, btlen, &p->meta);
	if (p->meta.cpu_id[0] == '\0' && bt_pd_feature_str(r, BT_FEAT_CPUID) != NULL)
		perf_cpu_id(p->meta.cpu_id, sizeof(p->meta.cpu_id),
		    bt_pd_feature_str(r, BT_FEAT_CPUID));
	p->machine = bt_machine_new(&p->modules);
	bt_tasks_init(&p->tasks);
	nids = bt_pd_buildids(r, &ids);
	bt_machine_set_buildids(p->machine, ids, nids);
	bt_machine_set_jit(p->machine, p->path, a0->use_clockid &&
	    a0->clockid == CLOCK_MONOTONIC);
	p->event_samples = bt_xcalloc(ne, sizeof(uint64_t));
	p->event_period = bt_xcalloc(ne, sizeof(uint64_t));
	p->info.nevents = ne;
	/*
	 * A benchmark's run (its output or its harness's probes recorded):
	 * each benchmark is a scan of the samples, which would read the
	 * file and unwind every chain again were they not kept.
	 */
	if (!defer && (keep || (bt_chains_wanted(r) &&
	    (p->meta.nhits > 0 || p->meta.output_len > 0))))
		p->kept = bt_kept_new(ne);
	if (bt_chains_wanted(r) && defer)
		p->chains_pending = true;
	else if (bt_chains_wanted(r))
		bt_chains_init(p, r);
	return p;
}

/*
 * The first read (bt_profile_first_read), or for the browser (defer) the
 * cached one of a big file (readcache.h), which it then keeps; an eager
 * read keeps it too when asked (save: benchtui's read back of its own
 * recording), as the deferred read would have kept it.
 */
static struct bt_profile *
first_read(struct bt_pd_reader *r, const char *path, bool defer, bool keep_samples,
	   bool save, struct bt_error *err)
{
	struct bt_profile *p = profile_new(r, path, defer, keep_samples);
	struct bt_ordered_log log = { NULL, 0, 0 };
	bool keep = (defer || save) && path != NULL && bt_readcache_wanted(r);
	int ret;

	if (keep && defer && (ret = bt_readcache_load(p, r, path)) == 0)
		return p;
	else if (keep && defer && ret == -2) {
		bt_profile_free(p);
		p = profile_new(r, path, defer, keep_samples);
	}
	if (bt_profile_first_read(p, r, keep ? &log : NULL, err) < 0) {
		free(log.v);
		bt_profile_free(p);
		return NULL;
	}
	if (keep)
		bt_readcache_save(p, r, path, &log);
	free(log.v);
	return p;
}

static struct bt_profile *
profile_read(struct bt_pd_reader *r, const char *path, bool defer, bool keep,
	     bool save, struct bt_error *err)
{
	struct bt_profile *p;
	size_t ne = bt_pd_nattrs(r), i, nnotes;
	char **notes;

	if ((p = first_read(r, path, defer, keep, save, err)) == NULL)
		return NULL;
	bt_machine_jit_finish(p->machine, p->first_time);
	nnotes = bt_machine_take_notes(p->machine, &notes);
	for (i = 0; i < nnotes; i++)
		BT_VEC_PUSH(p->notes, notes[i]);
	free(notes);
	p->ktext = bt_machine_ktext(p->machine);
	for (i = 0; i < ne; i++)
		p->info.samples += p->event_samples[i];
	fill_info(p, r);
	return p;
}

struct bt_profile *
bt_profile_read(struct bt_pd_reader *r, const char *path, struct bt_error *err)
{
	return profile_read(r, path, false, false, false, err);
}

static struct bt_profile *
profile_open(const char *path, bool defer, bool keep, bool save, struct bt_error *err)
{
	struct bt_pd_reader *r = bt_pd_open(path, err);
	struct bt_profile *p;

	if (r == NULL)
		return NULL;
	p = profile_read(r, path, defer, keep, save, err);
	if (p != NULL && p->meta.vdso != NULL) {
		/* the image points into the mapped file: keep a copy */
		void *copy = bt_xmalloc(p->meta.vdso_len);
		memcpy(copy, p->meta.vdso, p->meta.vdso_len);
		p->meta.vdso = copy;
		p->vdso_owned = copy;
	}
	bt_pd_close(r);
	return p;
}

struct bt_profile *
bt_profile_open(const char *path, struct bt_error *err)
{
	return profile_open(path, false, false, false, err);
}

struct bt_profile *
bt_profile_open_kept(const char *path, struct bt_error *err)
{
	return profile_open(path, false, true, false, err);
}

struct bt_profile *
bt_profile_open_deferred(const char *path, struct bt_error *err)
{
	/* standard input is read once: nothing to read the chains from later */
	return profile_open(path, strcmp(path, "-") != 0, false, false, err);
}

struct bt_profile *
bt_profile_open_recorded(const char *path, unsigned how, struct bt_error *err)
{
	bool defer = (how & BT_OPEN_DEFERRED) && strcmp(path, "-") != 0;

	return profile_open(path, defer, (how & BT_OPEN_KEPT) != 0, true, err);
}

int
bt_profile_keep_first_read(const char *path, struct bt_error *err)
{
	struct bt_pd_reader *r = bt_pd_open(path, err);
	struct bt_profile *p;
	int ret;

	if (r == NULL)
		return -BT_EIO;
	/* a small file is read fast enough: nothing to keep */
	if (!bt_readcache_wanted(r)) {
		bt_pd_close(r);
		return 0;
	}
	/* freed before the file is closed: its vDSO image points into it */
	p = profile_read(r, path, true, false, true, err);
	ret = p != NULL ? 0 : -BT_EIO;
	bt_profile_free(p);
	bt_pd_close(r);
	return ret;
}

bool
bt_profile_chains_pending(const struct bt_profile *p)
{
	return p->chains_pending;
}

int
bt_profile_read_chains(struct bt_profile *p, bool keep, struct bt_error *err)
{
	struct bt_pd_reader *r;
	int ret;

	if (!p->chains_pending)
		return 0;
	if ((r = bt_pd_open(p->path, err)) == NULL)
		return -BT_EIO;
	bt_chains_init(p, r);
	if (keep && p->kept == NULL)
		p->kept = bt_kept_new(p->info.nevents);
	ret = bt_profile_chains_read(p, r, err);
	bt_pd_close(r);
	p->chains_pending = false;
	return ret;
}

void
bt_profile_free(struct bt_profile *p)
{
	size_t i;

	if (p == NULL)
		return;
	bt_chains_free(p);
	bt_machine_free(p->machine);
	bt_tasks_release(&p->tasks);
	bt_modules_release(&p->modules);
	bt_kept_free(p->kept);
	free(p->hist);
	free(p->hist_start);
	free(p->chist);
	free(p->chist_start);
	free(p->event_period);
	for (i = 0; i < p->notes.n; i++)
		free(p->notes.v[i]);
	BT_VEC_FREE(p->notes);
	bt_meta_release(&p->meta);
	free(p->vdso_owned);
	if (p->events != NULL)
		for (i = 0; p->events[i] != NULL; i++)
			free(p->events[i]);
	free(p->events);
	if (p->event_groups != NULL)
		for (i = 0; i < p->info.nevents; i++)
			free(p->event_groups[i]);
	free(p->event_groups);
	free(p->event_attrs);
	free(p->event_samples);
	free(p->command);
	free(p->hostname);
	free(p->osrelease);
	free(p->recorder);
	free(p->path);
	free(p);
}

const struct bt_profile_info *
bt_profile_info(const struct bt_profile *p)
{
	return &p->info;
}
