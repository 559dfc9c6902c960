/* Errors as code + message, and the replaceable log routine. */
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "base.h"

static bt_log_fn log_fn;
static void *log_arg;

int
bt_error_set(struct bt_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL) {
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

int
bt_error_errno(struct bt_error *err, int code, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (err != NULL) {
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		n = strlen(err->msg);
		if (n < sizeof(err->msg))
			snprintf(err->msg + n, sizeof(err->msg) - n, ": %s",
			    strerror(errnum));
	}
	return -code;
}

const char *
bt_strerror(int code)
{
	static const char *const names[] = {
		[BT_EOK] = "success",
		[BT_EINVAL] = "invalid argument",
		[BT_ENOENT] = "not found",
		[BT_EACCES] = "permission denied",
		[BT_EPERF] = "perf_event_open refused",
		[BT_EFORMAT] = "malformed file",
		[BT_EIO] = "input/output error",
		[BT_ENOTSUP] = "not supported",
		[BT_ENODATA] = "no data",
		[BT_EEXEC] = "cannot execute",
	};

	if (code < 0)
		code = -code;
	if ((size_t)code >= BT_ARRAY_SIZE(names) || names[code] == NULL)
		return "unknown error";
	return names[code];
}

void
bt_set_log_fn(bt_log_fn fn, void *arg)
{
	log_fn = fn;
	log_arg = arg;
}

void
bt_log(enum bt_log_level level, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (log_fn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	log_fn(level, buf, log_arg);
}

double
bt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
bt_wait_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 0;
}

const char *
bt_wait_describe(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "unknown");
	return buf;
}
