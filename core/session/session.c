/*
 * A session: the recording, with what every selection of it shares: the
 * modules' symbols and debug info, the decoders, the source files, the
 * kernel's names, the notes, the benchmarks. Selections (selection.c)
 * are made from it; it makes none itself.
 */
#include <stdlib.h>
#include <string.h>

#include "disasm/disasm.h"
#include "profile/chains.h"
#include "session/bench-int.h"
#include "session/session-int.h"
#include "symbols/symbols.h"

void
bt_session_opts_init(struct bt_session_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->region_threshold = 1;
	o->region_margin = 8;
}

/*
 * s->mods for the profile's modules from, on (parallel to p->modules):
 * all of them at first, then those the call chains added.
 */
static void
mods_add(struct bt_session *s, size_t from)
{
	const struct bt_profile *p = s->p;
	size_t i;

	s->mods = bt_xrealloc(s->mods, (p->modules.n + 1) * sizeof(*s->mods));
	memset(s->mods + from, 0, (p->modules.n + 1 - from) * sizeof(*s->mods));
	for (i = from; i < p->modules.n; i++) {
		const char *slash = strrchr(p->modules.v[i].path, '/');
		s->mods[i].name = bt_xstrdup(slash && slash[1] ? slash + 1 :
		    p->modules.v[i].path);
	}
}

struct bt_session *
bt_session_new(struct bt_profile *p, const struct bt_session_opts *o,
	       struct bt_error *err)
{
	struct bt_session *s = bt_xcalloc(1, sizeof(*s));

	s->p = p;
	if (o != NULL)
		s->o = *o;
	else
		bt_session_opts_init(&s->o);
	bt_strpool_init(&s->pool);
	mods_add(s, 0);
	s->src = bt_srccache_new();
	bt_srccache_set_paths(s->src, s->o.source_path, s->o.prefix, s->o.prefix_strip);
	return s;
}

/* The note on chains that end at the stack copy, if many do. */
static void
chains_note(struct bt_session *s)
{
	struct bt_profile *p = s->p;

	if (p->chains != NULL && bt_chains_truncated(p) >= 20 &&
	    bt_chains_truncated(p) * 50 > p->info.samples)
		bt_session_notef(s, "the call chains of %.0f%% of the samples end early "
		    "(code without frame pointers deeper than the stack copy): "
		    "outer functions' inclusive shares are low; record with "
		    "--call-graph dwarf, or build with -fno-omit-frame-pointer",
		    100.0 * (double)bt_chains_truncated(p) / (double)p->info.samples);
}

void
bt_session_recording_notes(struct bt_session *s)
{
	struct bt_profile *p = s->p;
	size_t i;

	s->noted = true;
	for (i = 0; i < p->info.nnotes; i++)
		bt_session_notef(s, "%s", p->info.notes[i]);
	bt_session_events_note(s);
	s->chains_note_at = s->notes.n;
	chains_note(s);
	if (p->unresolved)
		bt_session_notef(s, "%llu samples fell outside every recorded mapping",
		    (unsigned long long)p->unresolved);
}

void
bt_session_free(struct bt_session *s)
{
	size_t i, j;

	if (s == NULL)
		return;
	/* the caches first: they may hold selections */
	for (i = 0; i < BT_CACHE_COUNT; i++)
		bt_session_set_cache(s, (enum bt_session_cache)i, NULL, NULL);
	while (s->live != NULL) {	/* the selections still alive go with it */
		s->live->refs = 1;
		bt_selection_free(s->live);
	}
	bt_benches_free(s->benches);
	bt_procs_free(s->procs);
	free(s->bench_frames);
	if (s->mods != NULL)
		for (i = 0; i < s->p->modules.n; i++) {
			bt_msyms_free(s->mods[i].syms);
			BT_VEC_FREE(s->mods[i].guessed);
			bt_session_v8_free(&s->mods[i]);
			free(s->mods[i].name);
			free(s->mods[i].image);
		}
	free(s->mods);
	for (i = 0; i < s->notes.n; i++)
		free(s->notes.v[i]);
	BT_VEC_FREE(s->notes);
	for (i = 0; i < BT_ARRAY_SIZE(s->dis); i++)
		for (j = 0; j < 2; j++)
			bt_disasm_free(s->dis[i][j]);
	if (s->src != NULL)
		bt_srccache_free(s->src);
	bt_ksyms_free(s->ksyms);
	bt_strpool_release(&s->pool);
	bt_profile_free(s->p);
	free(s);
}

void *
bt_session_cache(const struct bt_session *s, enum bt_session_cache which)
{
	return s->cache[which].data;
}

void
bt_session_set_cache(struct bt_session *s, enum bt_session_cache which,
		     void *data, void (*release)(void *data))
{
	bt_cache_slot_set(&s->cache[which], data, release);
}

const struct bt_profile_info *
bt_session_info(const struct bt_session *s)
{
	return &s->p->info;
}

const struct bt_session_opts *
bt_session_opts(const struct bt_session *s)
{
	return &s->o;
}

int64_t
bt_session_module_mtime(const struct bt_session *s, uint32_t mi)
{
	return mi < s->p->modules.n ? s->mods[mi].mtime : 0;
}

struct bt_srccache *
bt_session_srccache(const struct bt_session *s)
{
	return s->src;
}

bool
bt_session_has_chains(const struct bt_session *s)
{
	return s->p->chains != NULL;
}

bool
bt_session_chains_pending(const struct bt_session *s)
{
	return bt_profile_chains_pending(s->p);
}

int
bt_session_read_chains(struct bt_session *s, struct bt_error *err)
{
	size_t i, n;
	char *note;
	bool keep;
	int ret;

	if (!bt_profile_chains_pending(s->p))
		return 0;
	/* the caches first: they may hold selections */
	for (i = 0; i < BT_CACHE_COUNT; i++)
		bt_session_set_cache(s, (enum bt_session_cache)i, NULL, NULL);
	if (s->live != NULL)
		return bt_error_set(err, BT_EINVAL, "the call chains are read "
		    "with a selection alive");
	/* several benchmarks: each a scan of the samples, kept in memory */
	keep = s->benches != NULL && s->benches->v.n > 1;
	bt_benches_free(s->benches);
	s->benches = NULL;
	n = s->p->modules.n;
	ret = bt_profile_read_chains(s->p, keep, err);
	/* the chains' own modules (JIT code, libraries no sample is in) */
	if (s->p->modules.n > n)
		mods_add(s, n);
	if (ret < 0)
		return -BT_EIO;
	if (!s->noted)
		return 0;
	/* the note where the first selection would have put it */
	n = s->notes.n;
	chains_note(s);
	if (s->notes.n == n || s->chains_note_at >= n)
		return 0;
	note = s->notes.v[n];
	memmove(s->notes.v + s->chains_note_at + 1, s->notes.v + s->chains_note_at,
	    (n - s->chains_note_at) * sizeof(*s->notes.v));
	s->notes.v[s->chains_note_at] = note;
	return 0;
}

size_t
bt_session_nnotes(const struct bt_session *s)
{
	return s->notes.n;
}

const char *
bt_session_note(const struct bt_session *s, size_t i)
{
	return i < s->notes.n ? s->notes.v[i] : NULL;
}

bool
bt_session_output(const struct bt_session *s, const char **data, size_t *len,
		  bool *same_clock, bool *truncated)
{
	*data = s->p->meta.output;
	*len = s->p->meta.output != NULL ? s->p->meta.output_len : 0;
	*same_clock = s->p->meta.clock_monotonic;
	*truncated = s->p->meta.output_truncated;
	return s->p->meta.output != NULL;
}
