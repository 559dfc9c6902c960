/*
 * Turning a runtime's profiling output on, and keeping its files next to
 * the recording (include/benchtui/jit.h, docs/jit.md "Per runtime").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "benchtui/jit.h"

#define AGENT_NAME "libbenchtui-jvmti.so"

static const char *const node_flags[] = {
	"--perf-prof", "--interpreted-frames-native-stack", "--logfile=/dev/null",
};
/* HotSpot's C1 and C2 code keeps rbp as a frame pointer only when asked */
static const char *const java_flags[] = { "-XX:+PreserveFramePointer" };

/* Is word one of the space-separated words of s? */
static bool
has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; s != NULL && (s = strstr(s, word)) != NULL; s += n)
		if ((s[n] == '\0' || s[n] == ' '))
			return true;
	return false;
}

/* Is word one of the arguments? */
static bool
argv_has(char *const *argv, const char *word)
{
	size_t i;

	for (i = 0; argv[i] != NULL; i++)
		if (strcmp(argv[i], word) == 0)
			return true;
	return false;
}

static const char *
base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static enum bt_jit_runtime
runtime_of(const char *cmd)
{
	const char *b = base_name(cmd);

	if (strcmp(b, "node") == 0 || strcmp(b, "nodejs") == 0)
		return BT_JIT_NODE;
	if (strcmp(b, "java") == 0)
		return BT_JIT_JAVA;
	return BT_JIT_NONE;
}

static bool
is_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* benchtui's JVMTI agent: $BENCHTUI_JVMTI, else beside the binary or its build/. */
static char *
agent_path(void)
{
	const char *env = getenv("BENCHTUI_JVMTI");
	static const char *const rel[] = {
		"/build/" AGENT_NAME, "/" AGENT_NAME, "/../lib/benchtui/" AGENT_NAME,
	};
	char exe[PATH_MAX], *slash, *p;
	ssize_t n;
	size_t i;

	if (env != NULL && env[0])
		return is_regular(env) ? realpath(env, NULL) : NULL;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash == NULL)
		return NULL;
	*slash = '\0';
	for (i = 0; i < BT_ARRAY_SIZE(rel); i++) {
		p = bt_xasprintf("%s%s", exe, rel[i]);
		if (is_regular(p)) {
			char *r = realpath(p, NULL);
			free(p);
			return r;
		}
		free(p);
	}
	return NULL;
}

/* Remove what benchtui kept in dir (its own files only), then dir if empty. */
static void
clear_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if ((strncmp(e->d_name, "jit-", 4) == 0 ||
		    strncmp(e->d_name, "perf-", 5) == 0 ||
		    strncmp(e->d_name, "copy-", 5) == 0) &&
		    strchr(e->d_name, '/') == NULL) {
			char *p = bt_xasprintf("%s/%s", dir, e->d_name);
			unlink(p);
			free(p);
		}
	}
	closedir(d);
	rmdir(dir);
}

static char **
argv_copy(char *const *argv, const char *const *extra, size_t nextra)
{
	size_t n = 0, i, k = 0;
	char **v;

	while (argv[n] != NULL)
		n++;
	v = bt_xcalloc(n + nextra + 1, sizeof(char *));
	for (i = 0; i < n; i++) {
		v[k++] = bt_xstrdup(argv[i]);
		if (i == 0)	/* runtime flags go before the script */
			for (size_t j = 0; j < nextra; j++)
				v[k++] = bt_xstrdup(extra[j]);
	}
	return v;
}

/* OUTPUT.jit, an older one kept as OUTPUT.old.jit. */
static int
make_dir(struct bt_jit_setup *s, const char *output, struct bt_error *err)
{
	char *old;

	s->dir = bt_xasprintf("%s.jit", output);
	old = bt_xasprintf("%s.old.jit", output);
	if (access(s->dir, F_OK) == 0) {
		clear_dir(old);
		if (rename(s->dir, old) != 0)
			clear_dir(s->dir);
	}
	free(old);
	if (mkdir(s->dir, 0755) != 0 && errno != EEXIST) {
		int e = errno;
		bt_jit_setup_release(s);
		return bt_error_errno(err, BT_EIO, e, "cannot make the directory "
		    "'%s.jit' for the runtime's JIT files", output);
	}
	return 0;
}

int
bt_jit_setup_copy(char *const *argv, const char *output,
		  struct bt_jit_setup *s, struct bt_error *err)
{
	if (s->argv == NULL)
		s->argv = argv_copy(argv, NULL, 0);
	if (s->dir == NULL && make_dir(s, output, err) < 0)
		return -BT_EIO;
	s->copy_code = true;
	return 0;
}

int
bt_jit_setup(char *const *argv, const char *output, struct bt_jit_setup *s,
	     struct bt_error *err)
{
	char *agent;

	memset(s, 0, sizeof(*s));
	s->runtime = argv[0] ? runtime_of(argv[0]) : BT_JIT_NONE;
	if (s->runtime == BT_JIT_NONE) {
		s->argv = argv_copy(argv, NULL, 0);
		return 0;
	}
	if (make_dir(s, output, err) < 0)
		return -BT_EIO;
	if (s->runtime == BT_JIT_NODE) {
		s->argv = argv_copy(argv, node_flags, BT_ARRAY_SIZE(node_flags));
		s->note = bt_xasprintf("%s: JIT code recorded with --perf-prof "
		    "--interpreted-frames-native-stack, kept in '%s' (--no-jit: "
		    "run the command as given)", base_name(argv[0]), s->dir);
		return 0;
	}
	agent = agent_path();
	if (agent != NULL) {
		char dir[PATH_MAX];
		const char *prev = getenv("JAVA_TOOL_OPTIONS");

		bool fp = !has_word(prev, java_flags[0]) && !argv_has(argv, java_flags[0]);

		if (realpath(s->dir, dir) == NULL)
			snprintf(dir, sizeof(dir), "%s", s->dir);
		/*
		 * the flag beside the agent, in the environment (every child
		 * JVM inherits it), both left out of the JVM's input arguments
		 * by the agent: JMH copies those into its forks' command lines
		 * and prints them as their VM options
		 */
		s->argv = argv_copy(argv, NULL, 0);
		s->env_name = bt_xstrdup("JAVA_TOOL_OPTIONS");
		s->env_value = bt_xasprintf("%s%s%s-agentpath:%s=%sdir=%s",
		    prev ? prev : "", prev && prev[0] ? " " : "",
		    fp ? "-XX:+PreserveFramePointer " : "", agent, fp ? "hidefp," : "", dir);
		s->note = bt_xasprintf("java: JIT code recorded by benchtui's JVMTI "
		    "agent (JAVA_TOOL_OPTIONS=-agentpath:%s), kept in '%s', and "
		    "call chains through it with -XX:+PreserveFramePointer (in "
		    "JAVA_TOOL_OPTIONS too) (--no-jit: run the command as given)",
		    agent, s->dir);
		free(agent);
		return 0;
	} else {
		static const char *const flags[] = {
			"-XX:+PreserveFramePointer",
			"-XX:+UnlockDiagnosticVMOptions", "-XX:+DumpPerfMapAtExit",
		};
		s->argv = argv_copy(argv, flags, BT_ARRAY_SIZE(flags));
		s->copy_code = true;
		s->note = bt_xasprintf("java: benchtui's JVMTI agent (%s) is not "
		    "installed: JIT method names from -XX:+DumpPerfMapAtExit, their "
		    "code copied from the process at its exit (--no-jit: run the "
		    "command as given)", AGENT_NAME);
	}
	return 0;
}

/* Move src to dst, copying across file systems; only a regular file. */
static int
move_file(const char *src, const char *dst)
{
	struct stat st;
	char buf[65536];
	ssize_t n;
	int in, out, ret = 0;

	if (lstat(src, &st) != 0 || !S_ISREG(st.st_mode))
		return -1;
	if (rename(src, dst) == 0)
		return 0;
	if (errno != EXDEV)
		return -1;
	in = bt_open_regular(src);
	if (in < 0)
		return -1;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			ret = -1;
			break;
		}
	if (n < 0)
		ret = -1;
	close(in);
	if (close(out) != 0)
		ret = -1;
	if (ret == 0)
		unlink(src);
	else
		unlink(dst);
	return ret;
}

int
bt_jit_collect(const struct bt_jit_setup *s, int pid, char *msg, size_t len)
{
	char src[PATH_MAX], dst[PATH_MAX];
	const char *const fmt[][2] = {
		{ "jit-%d.dump", "jit-%d.dump" },
		{ "/tmp/jit-%d.dump", "jit-%d.dump" },
		{ "/tmp/perf-%d.map", "perf-%d.map" },
	};
	size_t i;
	int kept = 0;

	if (msg != NULL && len)
		msg[0] = '\0';
	if (s->dir == NULL || pid <= 0)
		return 0;
	for (i = 0; i < BT_ARRAY_SIZE(fmt); i++) {
		snprintf(src, sizeof(src), fmt[i][0], pid);
		snprintf(dst, sizeof(dst), "%s/", s->dir);
		snprintf(dst + strlen(dst), sizeof(dst) - strlen(dst), fmt[i][1], pid);
		if (access(src, F_OK) != 0)
			continue;
		if (access(dst, F_OK) == 0) {	/* the agent wrote it there: a stale copy elsewhere */
			continue;
		}
		if (move_file(src, dst) == 0)
			kept++;
		else if (msg != NULL && len && msg[0] == '\0')
			snprintf(msg, len, "cannot keep '%s' in '%s': %s", src, s->dir,
			    strerror(errno));
	}
	snprintf(src, sizeof(src), "%s/jit-%d.dump", s->dir, pid);
	if (access(src, F_OK) == 0 && kept == 0)
		kept = 1;	/* written there by the agent */
	snprintf(src, sizeof(src), "%s/copy-%d.dump", s->dir, pid);
	if (access(src, F_OK) == 0)
		kept++;		/* the code copied at exit */
	rmdir(s->dir);		/* only if empty */
	return kept;
}

void
bt_jit_setup_release(struct bt_jit_setup *s)
{
	size_t i;

	if (s->argv != NULL)
		for (i = 0; s->argv[i] != NULL; i++)
			free(s->argv[i]);
	free(s->argv);
	free(s->env_name);
	free(s->env_value);
	free(s->note);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}
