/*
 * benchtui-jvmti: a JVMTI agent that writes a jitdump (Linux
 * tools/perf/Documentation/jitdump-specification.txt) of everything the
 * JVM compiles, so that a profiler sees Java's JIT code with names, code
 * bytes and line tables (docs/jit.md).
 *
 *   java -agentpath:/path/libbenchtui-jvmti.so[=OPTIONS] ...
 *   JAVA_TOOL_OPTIONS=-agentpath:/path/libbenchtui-jvmti.so=dir=/tmp/x java ...
 *
 * OPTIONS, comma-separated:
 *   nolines     no JIT_CODE_DEBUG_INFO records (and no inline file)
 *   noinline    no inline file (jit-PID.inline: the inlining chain of
 *               each pc of compiled code, benchtui's own format)
 *   plain       names without the " [c2 L4 #41]" suffix
 *   nostubs     no records for DynamicCodeGenerated (interpreter, stubs)
 *   verbose     say on stderr where the dump goes
 *   hidefp      -XX:+PreserveFramePointer in JAVA_TOOL_OPTIONS is benchtui's:
 *               left out of the input arguments as the -agentpath is
 *   dir=PATH    where to write jit-PID.dump (default "."); the rest of
 *               the option string is the path, commas included: put it last
 *
 * The file is mapped once PROT_READ|PROT_EXEC, as perf's own agent does:
 * that MMAP record in the perf stream is how a profiler finds the dump.
 * Records are written whole, one write(2) each under a lock (callbacks
 * run on many threads), so that a JVM killed mid-run leaves a dump that
 * is complete up to its last record. Times are CLOCK_MONOTONIC ns, what
 * `perf record -k 1` and benchtui's recorder use.
 *
 * Names: the declaring class dotted, the method, its JVM descriptor, as
 * "Hot.run(I)D", "java.lang.String.hashCode()I", then which compilation
 * it is, as JMH's perfasm tells them apart: compiler, tier (HotSpot's
 * comp level), OSR entry bci, compile id: "Hot.run(I)D [c2 L4 #41]",
 * "Hot.run(I)D [c1 L3 OSR@11 #37]". JVMTI does not give these: they are
 * read from the nmethod through HotSpot's exported VMStructs table (as
 * async-profiler and the serviceability agent do), each field found by
 * name and the nmethod checked to be this method's before it is read; on
 * another JVM, or when any of it is missing, the suffix is left out and
 * the versions differ by code_index and load time.
 *
 * Once per JVM: the agent may be named twice (JAVA_TOOL_OPTIONS and the
 * command line: JMH copies its host's input arguments into each fork's,
 * and the fork inherits the environment too). The second Agent_OnLoad
 * does nothing: in the same shared object, by a flag; in another copy of
 * it, because this process's dump is already mapped (its marker). And
 * where it came from JAVA_TOOL_OPTIONS or JDK_JAVA_OPTIONS, the agent
 * takes its -agentpath out of the JVM's input arguments (hotspot.c), so
 * such a harness neither passes it again nor prints it as a VM option.
 *
 * A failure never stops the JVM: the agent says why on stderr and stays
 * out of the way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

struct agent_state agent = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.fd = -1,
	.inl_fd = -1,
	.code_index = 1,
	.lines = 1,
	.stubs = 1,
	.tiers = 1,
	.inlines = 1,
};

static void JNICALL
compiled_method_load(jvmtiEnv *jvmti, jmethodID method, jint code_size,
		     const void *code_addr, jint map_length,
		     const jvmtiAddrLocationMap *map, const void *compile_info)
{
	struct buf name = { NULL, 0, 0, 0 }, b = { NULL, 0, 0, 0 };
	struct buf inl = { NULL, 0, 0, 0 };
	size_t recs[2];
	int nrecs = 0;

	if (agent.fd < 0 || code_size <= 0 || code_addr == NULL)
		return;
	if (method_name(jvmti, method, code_addr, &name) < 0)
		goto out;
	if (agent.lines && add_debug(jvmti, &b, method, code_addr, map_length,
	    map, compile_info) == 0)
		recs[nrecs++] = 0;
	recs[nrecs] = dump_add_load(&b, (const char *)name.p, code_addr,
	    (uint64_t)code_size);
	nrecs++;
	if (agent.inl_fd >= 0 && add_inline(jvmti, &inl, code_addr, compile_info) < 0)
		inl.len = 0;
	dump_emit(&b, recs, nrecs, (long)recs[nrecs - 1], inl.len ? &inl : NULL);
out:
	free(name.p);
	free(b.p);
	free(inl.p);
}

static void JNICALL
dynamic_code_generated(jvmtiEnv *jvmti, const char *name, const void *addr,
		       jint length)
{
	struct buf b = { NULL, 0, 0, 0 };
	size_t rec;

	if (!agent.stubs || agent.fd < 0 || length <= 0 || addr == NULL)
		return;
	rec = dump_add_load(&b, name != NULL ? name : "(stub)", addr, (uint64_t)length);
	dump_emit(&b, &rec, 1, (long)rec, NULL);
	free(b.p);
}

static void JNICALL
vm_death(jvmtiEnv *jvmti, JNIEnv *jni)
{
	close_dump();
}

static void
parse_options(const char *opts, const char **dir)
{
	const char *p = opts;

	*dir = ".";
	while (p != NULL && *p != '\0') {
		const char *end = strchr(p, ',');
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);

		if (strncmp(p, "dir=", 4) == 0) {
			*dir = p + 4;	/* the rest, commas included */
			return;
		}
		if (len == 7 && strncmp(p, "nolines", 7) == 0)
			agent.lines = 0;
		else if (len == 8 && strncmp(p, "noinline", 8) == 0)
			agent.inlines = 0;
		else if (len == 5 && strncmp(p, "plain", 5) == 0)
			agent.tiers = 0;
		else if (len == 7 && strncmp(p, "nostubs", 7) == 0)
			agent.stubs = 0;
		else if (len == 7 && strncmp(p, "verbose", 7) == 0)
			agent.verbose = 1;
		else if (len == 6 && strncmp(p, "hidefp", 6) == 0)
			agent.hide_fp = 1;
		else if (len > 0)
			agent_warn("unknown option '%.*s'", (int)len, p);
		p = end != NULL ? end + 1 : NULL;
	}
}

static const char *
jvmti_err(jvmtiEnv *jvmti, jvmtiError e)
{
	static char buf[64];
	char *name = NULL;

	if ((*jvmti)->GetErrorName(jvmti, e, &name) == JVMTI_ERROR_NONE) {
		snprintf(buf, sizeof(buf), "%s", name);
		dealloc(jvmti, name);
	} else {
		snprintf(buf, sizeof(buf), "error %d", (int)e);
	}
	return buf;
}

JNIEXPORT jint JNICALL
Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
	jvmtiEventCallbacks cb;
	jvmtiCapabilities caps;
	jvmtiJlocationFormat fmt;
	jvmtiEnv *jvmti = NULL;
	jvmtiError e;
	const char *dir;
	int hidden;

	if (agent.loaded) {
		if (agent.verbose)
			agent_warn("loaded twice in this JVM: the second does nothing");
		return JNI_OK;
	}
	agent.loaded = 1;
	parse_options(options, &dir);
	if (dump_mapped(dir)) {
		if (agent.verbose)
			agent_warn("this JVM's jitdump is written already (another copy of "
			    "the agent): this one does nothing");
		return JNI_OK;
	}
	hidden = hide_input_args();
	if (agent.verbose && hidden > 0)
		agent_warn("left out of the JVM's input arguments (it came from the "
		    "environment)");
	if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_1) != JNI_OK) {
		agent_warn("no JVMTI 1.0 environment; not writing a jitdump");
		return JNI_OK;
	}
	memset(&caps, 0, sizeof(caps));
	caps.can_generate_compiled_method_load_events = 1;
	e = (*jvmti)->AddCapabilities(jvmti, &caps);
	if (e != JVMTI_ERROR_NONE) {
		agent_warn("cannot get compiled-method events (%s); not writing a jitdump",
		    jvmti_err(jvmti, e));
		return JNI_OK;
	}
	/* line numbers are optional: without them, code and names */
	if (agent.lines && (*jvmti)->GetJLocationFormat(jvmti, &fmt) == JVMTI_ERROR_NONE &&
	    fmt == JVMTI_JLOCATION_JVMBCI) {
		memset(&caps, 0, sizeof(caps));
		caps.can_get_line_numbers = 1;
		caps.can_get_source_file_name = 1;
		if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE)
			agent.lines = 0;
	} else {
		agent.lines = 0;
	}
	if (open_dump(dir) < 0)
		return JNI_OK;
	memset(&cb, 0, sizeof(cb));
	cb.CompiledMethodLoad = compiled_method_load;
	cb.DynamicCodeGenerated = dynamic_code_generated;
	cb.VMDeath = vm_death;
	e = (*jvmti)->SetEventCallbacks(jvmti, &cb, (jint)sizeof(cb));
	if (e == JVMTI_ERROR_NONE)
		e = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE,
		    JVMTI_EVENT_COMPILED_METHOD_LOAD, NULL);
	if (e == JVMTI_ERROR_NONE)
		e = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE,
		    JVMTI_EVENT_DYNAMIC_CODE_GENERATED, NULL);
	if (e == JVMTI_ERROR_NONE)
		e = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE,
		    JVMTI_EVENT_VM_DEATH, NULL);
	if (e != JVMTI_ERROR_NONE) {
		agent_warn("cannot enable events (%s); the jitdump stops here",
		    jvmti_err(jvmti, e));
		close_dump();
	}
	return JNI_OK;
}

JNIEXPORT void JNICALL
Agent_OnUnload(JavaVM *vm)
{
	close_dump();
}
