/*
 * A recording loaded for viewing: samples resolved to modules, plus the
 * run's metadata. Read from a perf.data file, benchtui's or perf's.
 */
#ifndef BENCHTUI_PROFILE_H
#define BENCHTUI_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchtui/benchtui.h"

struct bt_profile;

/**
 * struct bt_profile_info - what the header of every view shows
 * @command: the benchmark's command line (perf files: perf's cmdline)
 * @argv, @argc: the benchmark's own argv when the recording has it
 *               (benchtui's), else argc 0
 * @events: names of the recorded events; @nevents of them
 * @event_samples: samples of each event (events[i] has event_samples[i])
 * @frequency: samples per second asked for (0 when period-based)
 * @samples: samples of all events in the file
 * @lost: samples the kernel dropped (LOST / LOST_SAMPLES records)
 * @throttled: THROTTLE records
 * @duration: seconds from the first to the last sample (the run's wall
 *            time when benchtui recorded it)
 * @has_status: @wait_status is known (benchtui recordings)
 * @wait_status: the benchmark's status as waitpid() gave it
 * @interrupted: the recording was stopped by Ctrl-C or a signal
 * @event_note: why the event differs from the one asked for, or ""
 * @hostname, @osrelease: where it was recorded ("" if unknown)
 * @recorder: "benchtui 0.1.0", "perf 6.1.x"...
 * @notes, @nnotes: what the recording holds that is not shown, or is
 *                  degraded (hardware trace not decoded...)
 */
struct bt_profile_info {
	const char *command;
	const char *const *argv;
	size_t argc;
	const char *const *events;
	/* per event: its group as perf evlist -g prints it ("{a,b}"), or NULL */
	const char *const *event_groups;
	const uint64_t *event_samples;
	size_t nevents;
	unsigned frequency;
	uint64_t samples, lost, throttled;
	double duration;
	bool has_status;
	int wait_status;
	bool interrupted;
	const char *event_note;
	const char *hostname, *osrelease, *recorder;
	const char *const *notes;
	size_t nnotes;
};

/*
 * Read the recording at path. A benchmark's run with call chains (its
 * output or its harness's probes recorded) keeps its samples as
 * bt_profile_open_kept() does: each benchmark's samples are read again.
 */
BT_API struct bt_profile *bt_profile_open(const char *path, struct bt_error *err);
/*
 * The same without the call chains: the samples are counted without
 * unwinding (what the browser's first screen needs, docs/callchains.md
 * "Deferred chains"); until bt_session_read_chains() reads them, the
 * recording is one without chains. A recording without chains, or read
 * from standard input, is read whole.
 */
BT_API struct bt_profile *bt_profile_open_deferred(const char *path,
						   struct bt_error *err);
/*
 * bt_profile_open(), keeping every sample as it is read (its time, leaf,
 * call chain, thread and period: 16 bytes a sample, up to 64 MiB), so
 * that reading them again (a benchmark's, a time window's, the pprof
 * export's) neither reads the file again nor unwinds: for an export
 * that goes over every sample (the pprof one).
 */
BT_API struct bt_profile *bt_profile_open_kept(const char *path,
					       struct bt_error *err);
/*
 * benchtui's read back of the recording it has just written: as
 * bt_profile_open() (how 0), bt_profile_open_deferred() (BT_OPEN_DEFERRED)
 * or bt_profile_open_kept() (BT_OPEN_KEPT) read it, and whichever it is,
 * the first read is left in the first-read cache as the deferred read
 * leaves it (docs/formats.md "First-read cache"): the browser's next
 * opening of the file reads no sample.
 */
enum {
	BT_OPEN_DEFERRED = 1 << 0,
	BT_OPEN_KEPT = 1 << 1,
};
BT_API struct bt_profile *bt_profile_open_recorded(const char *path, unsigned how,
						   struct bt_error *err);
/*
 * Leave the first read of the recording at path in the first-read cache,
 * when it is one the cache keeps (reading it, without its chains, when
 * it is): for a recording nothing reads back. 0, or < 0 with err set.
 */
BT_API int bt_profile_keep_first_read(const char *path, struct bt_error *err);
/* Are p's call chains recorded but not read yet? */
BT_API bool bt_profile_chains_pending(const struct bt_profile *p);
BT_API void bt_profile_free(struct bt_profile *p);
BT_API const struct bt_profile_info *bt_profile_info(const struct bt_profile *p);

#endif
