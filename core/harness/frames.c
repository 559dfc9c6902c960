/*
 * Entry frames: the frames a sample's call chain passes through when it
 * ran inside a benchmark. Each harness's table is in its file (read off
 * real call chains of the fixtures: perf record -g and --call-graph
 * dwarf, perf script; docs/benchmarks.md shows them); here the patterns
 * several share, the glob and the placing of a chain.
 */
#include <string.h>

#include "harness-int.h"

/* Frames of system libraries and of the kernel: never a benchmark's own code. */
const char *const hp_system_modules[] = {
	"libc.so*", "libm.so*", "libstdc++.so*", "libgcc_s.so*", "ld-linux*",
	"libpthread.so*", "[kernel*", "[vdso]", "[vsyscall]", NULL,
};

/* JS under node (tinybench.c, mitata.c): builtins, node's own scripts, stubs. */
const char *const hp_js_pass[] = {
	"Builtins_*", "JS:* node:*", "Stub:*", "BytecodeHandler:*", "RegExp:*", NULL,
};
/* node's own code (V8, libuv, the GC): never a task */
const char *const hp_js_pass_modules[] = {
	"node", "libnode.so*", "libc.so*", "libm.so*", "libstdc++.so*", "libgcc_s.so*",
	"ld-linux*", "[kernel*", "[vdso]", NULL,
};

bool
bt_harness_glob(const char *pat, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s != '\0') {
		if (*pat == '*') {
			star = pat++;
			resume = s;
		} else if (*pat == '?' || *pat == *s) {
			pat++;
			s++;
		} else if (star != NULL) {
			pat = star + 1;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return *pat == '\0';
}

static bool
any(const char *const *pats, const char *s)
{
	if (pats == NULL || s == NULL)
		return false;
	for (; *pats != NULL; pats++)
		if (bt_harness_glob(*pats, s))
			return true;
	return false;
}

static const char *
base_name(const char *path)
{
	const char *slash;

	if (path == NULL)
		return NULL;
	slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static bool
is_runner(const struct bt_harness_frames *hf, const struct bt_frame *f)
{
	if (hf->module != NULL && f->module != NULL &&
	    bt_harness_glob(hf->module, base_name(f->module)))
		return true;
	return any(hf->runner, f->symbol);
}

static bool
is_pass(const struct bt_harness_frames *hf, const struct bt_frame *f)
{
	if (f->symbol == NULL)
		return true;
	if (f->module != NULL && any(hf->pass_modules, base_name(f->module)))
		return true;
	return any(hf->pass, f->symbol);
}

void
bt_harness_match_chain(const struct bt_harness_frames *hf,
    const struct bt_frame *frames, size_t n, struct bt_chain_match *m)
{
	size_t i, j;

	m->place = BT_CHAIN_OUTSIDE;
	m->entry = 0;
	m->phase = BT_PHASE_UNKNOWN;
	if (hf == NULL || n == 0)
		return;
	/* the runner frame nearest the root */
	for (i = n; i-- > 0;)
		if (is_runner(hf, &frames[i]))
			break;
	if (i == (size_t)-1)
		return;
	m->place = BT_CHAIN_HARNESS;
	/* down through the runner's, the harness's and the runtime's frames */
	for (j = i + 1; j-- > 0;) {
		if (any(hf->warmup, frames[j].symbol))
			m->phase = BT_PHASE_WARMUP;
		else if (any(hf->measure, frames[j].symbol))
			m->phase = BT_PHASE_MEASURE;
		if (!is_runner(hf, &frames[j]) && !is_pass(hf, &frames[j]))
			break;
	}
	if (j == (size_t)-1)
		return;
	while (j > 0 && any(hf->wrapper, frames[j].symbol))
		j--;
	m->place = BT_CHAIN_BENCHMARK;
	m->entry = j;
}
