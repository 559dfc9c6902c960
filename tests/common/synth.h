/* Deterministic recordings for the tests (tests/common/synth.c). */
#ifndef BENCHTUI_TEST_SYNTH_H
#define BENCHTUI_TEST_SYNTH_H

#include <stddef.h>
#include <stdint.h>

struct bt_pd_writer;
struct bt_session;
struct bt_selection;

struct bt_pd_attr;

/* The cpu-clock attribute (4000 Hz, benchtui's sample layout) of every synthesized recording. */
void synth_attr(struct bt_pd_attr *a);

/* One SAMPLE record in benchtui's layout (ip, pid/tid, time, cpu, period). */
int synth_sample(struct bt_pd_writer *w, uint64_t ip, uint32_t pid, uint32_t tid,
		 uint64_t time, uint16_t misc);
/* One executable MMAP2 record of path, with its sample_id trailer. */
int synth_mmap2(struct bt_pd_writer *w, uint32_t pid, uint64_t start, uint64_t len,
		uint64_t pgoff, const char *path, uint64_t time);

/*
 * A perf record --threads directory at dir (made if missing): "data" is
 * the recording at header with the DIR_FORMAT feature (version) added;
 * data.0 .. data.(nfiles - 1) hold the data sections of the recordings
 * at files[i], records without a header (NULL: an empty file). Returns 0,
 * or -1.
 */
int synth_dir(const char *dir, const char *header, const char *const *files,
	      size_t nfiles, uint64_t version);

/*
 * A temporary directory for a test (mkdtemp on tmpl, "/tmp/bt-x.XXXXXX"),
 * and a fixture compiled into it: cc FLAGS -o DIR/NAME tests/fixtures/SRC.
 * Return 0, or -1.
 */
int test_tmpdir(char *tmpl);
int test_compile(const char *dir, const char *name, const char *src,
		 const char *flags, char *out, size_t outlen);
int test_rmdir(const char *dir);

/*
 * The whole run of the recording at path (a session with default options,
 * and its default selection); NULL if it cannot be read. test_close()
 * frees the selection and its session.
 */
struct bt_selection *test_open(const char *path);
/* The default selection of s (which test_close frees with it); NULL frees s. */
struct bt_selection *test_select(struct bt_session *s);
void test_close(struct bt_selection *sel);

/*
 * Write a recording of binary at out with samples per spec, in the order
 * given, one every 250 us: "SYM+0xOFF=N" (N samples at that address),
 * "kernel=N", "unknown=N"; and "lost=N" (a LOST record of N samples),
 * "throttle=N" (N THROTTLE records) where they stand; "precise=1"
 * makes the event cycles:pp (precise_ip 2, as PEBS); "intel=1" says the
 * CPU is Intel's (its CPU id). Returns 0, or -1 with msg set.
 */
int synth_recording(const char *out, const char *binary, char *const *specs,
		    int nspecs, char *msg, size_t msglen);

#endif
