/*
 * benchtui: look inside a microbenchmark.
 *
 * Umbrella header of libbenchtui: version, errors and logging. The library
 * never prints and never exits; errors come back as negative -BT_E* codes
 * with an optional struct bt_error that carries a one-line message, and
 * diagnostics go through the function set with bt_set_log_fn().
 */
#ifndef BENCHTUI_BENCHTUI_H
#define BENCHTUI_BENCHTUI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BT_API __attribute__((visibility("default")))

#define BT_VERSION "0.1.0"

/* Error codes, returned negated. */
enum bt_errno {
	BT_EOK = 0,
	BT_EINVAL = 1,		/* bad argument or option */
	BT_ENOENT,		/* file or command not found */
	BT_EACCES,		/* permission denied */
	BT_EPERF,		/* perf_event_open refused */
	BT_EFORMAT,		/* malformed input file */
	BT_EIO,			/* read or write failed */
	BT_ENOTSUP,		/* not supported here */
	BT_ENODATA,		/* nothing recorded / nothing to show */
	BT_EEXEC,		/* the command could not be executed */
};

/**
 * struct bt_error - a failure, as code and one-line message
 * @code: positive BT_E* code, 0 when no error
 * @msg: lowercase message, no final period, subject in quotes
 */
struct bt_error {
	int code;
	char msg[512];
};

BT_API int bt_error_set(struct bt_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
BT_API const char *bt_strerror(int code);

/* A wait status as a shell's exit code: the status, or 128 + the signal. */
BT_API int bt_wait_code(int status);
/* A wait status in words: "exit 3", "killed by signal 11 (Segmentation fault)". */
BT_API const char *bt_wait_describe(int status, char *buf, size_t len);

/*
 * Text from a recording made safe for a terminal: C0 controls but tab, DEL,
 * C1 controls (U+0080-U+009F) and bytes that are not UTF-8 are written as
 * \xNN, each byte; the rest is kept. Recorded file names and command lines
 * can hold escape sequences that retitle or recolour the terminal: every
 * text output (the text export, the browser, messages on stderr) passes
 * through this one function. bt_text_safe() returns s itself when nothing
 * needs escaping, else a string in buf (valid until the next call with
 * the same buf); bt_text_is_safe() says whether s can be printed as is.
 * bt_text_safe_n() is bt_text_safe() of the string s of len bytes (its
 * length known: not measured again).
 */
struct bt_textbuf {
	char *buf;
	size_t len, alloc;
};
BT_API bool bt_text_is_safe(const char *s);
BT_API const char *bt_text_safe(const char *s, struct bt_textbuf *buf);
BT_API const char *bt_text_safe_n(const char *s, size_t len, struct bt_textbuf *buf);
BT_API void bt_textbuf_release(struct bt_textbuf *buf);

/* Wilson 95% interval of k successes out of n, in percent. */
BT_API void bt_wilson(uint64_t k, uint64_t n, double *lo, double *hi);

enum bt_log_level { BT_LOG_DEBUG, BT_LOG_INFO, BT_LOG_WARN };
typedef void (*bt_log_fn)(enum bt_log_level level, const char *msg, void *arg);

/* Route library diagnostics; NULL drops them (the default). */
BT_API void bt_set_log_fn(bt_log_fn fn, void *arg);

/*
 * Out of memory and internal bugs abort; this hook runs first (the TUI
 * restores the terminal in it).
 */
typedef void (*bt_fatal_hook)(void);
BT_API void bt_set_fatal_hook(bt_fatal_hook hook);

#endif
