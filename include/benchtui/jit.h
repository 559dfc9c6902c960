/*
 * JIT code with no setup (DESIGN.md §8, docs/jit.md): when the command
 * benchtui records is a runtime it knows (node, java), it turns on the
 * runtime's own profiling output, and after the run keeps the files the
 * runtime wrote next to the recording (OUTPUT.jit/), where -i finds them.
 *
 *	struct bt_jit_setup js;
 *	bt_jit_setup(argv, "benchtui.data", &js, &err);
 *	if (js.note) fprintf(stderr, "benchtui: %s\n", js.note);
 *	if (js.env_name) setenv(js.env_name, js.env_value, 1);
 *	... record js.argv ...
 *	bt_jit_collect(&js, pid, msg, sizeof(msg));
 *	bt_jit_setup_release(&js);
 */
#ifndef BENCHTUI_JIT_H
#define BENCHTUI_JIT_H

#include <stdbool.h>
#include <stddef.h>

#include "benchtui/benchtui.h"

enum bt_jit_runtime { BT_JIT_NONE, BT_JIT_NODE, BT_JIT_JAVA };

/**
 * struct bt_jit_setup - how to run a command so that its JIT code is seen
 * @runtime: which runtime the command is (BT_JIT_NONE: run it as given)
 * @argv: the command to run, NULL-terminated (owned)
 * @env_name, @env_value: a variable to set for it, or NULL
 * @note: one line saying what was turned on, or NULL
 * @dir: where the runtime's files are kept (OUTPUT.jit), or NULL
 * @copy_code: the runtime writes only names (a perf map): hold it at its
 *	exit and copy its code into @dir (bt_record_opts.jit_copy_dir)
 */
struct bt_jit_setup {
	enum bt_jit_runtime runtime;
	char **argv;
	char *env_name, *env_value;
	char *note;
	char *dir;
	bool copy_code;
};

/*
 * Fill *s for recording argv into output. A command benchtui does not know
 * is left as it is (runtime BT_JIT_NONE, argv a copy). A kept directory
 * of an earlier recording to output becomes OUTPUT.old.jit, as the
 * recording becomes OUTPUT.old. 0, or -BT_E* (err set) when the directory
 * cannot be made.
 */
BT_API int bt_jit_setup(char *const *argv, const char *output,
			struct bt_jit_setup *s, struct bt_error *err);
/*
 * --jit-copy: copy the code of the command's perf map at its exit, for a
 * runtime benchtui does not set up (`python3.12 -X perf`, .NET with
 * DOTNET_PerfMapEnabled=3, `node --perf-basic-prof` with --no-jit). On a
 * filled *s (bt_jit_setup) or a zeroed one: makes @dir when there is none,
 * sets @copy_code. 0, or -BT_EIO (err set).
 */
BT_API int bt_jit_setup_copy(char *const *argv, const char *output,
			     struct bt_jit_setup *s, struct bt_error *err);
/*
 * After the run of process pid: move the files its runtime wrote (./jit-PID.dump,
 * /tmp/jit-PID.dump, /tmp/perf-PID.map) into s->dir (copy-PID.dump is
 * already there); an empty directory
 * is removed. Returns how many files are kept; a problem goes to msg.
 */
BT_API int bt_jit_collect(const struct bt_jit_setup *s, int pid, char *msg,
			  size_t len);
BT_API void bt_jit_setup_release(struct bt_jit_setup *s);

#endif
