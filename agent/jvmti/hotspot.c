/*
 * Which compilation a method's code is (" [c2 L4 #41]"): JVMTI does not
 * say, so it is read from the nmethod through HotSpot's exported
 * VMStructs table (as async-profiler and the serviceability agent do),
 * each field found by name and the nmethod checked to be this method's
 * before it is read; on another JVM, or when any of it is missing, no
 * suffix. Through the same table, the agent's own -agentpath leaves the
 * JVM's input arguments when it came from the environment
 * (hide_input_args).
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agent.h"

/*
 * HotSpot's VMStructs (vmStructs.cpp): the offsets of the fields needed to
 * go from a code address to its nmethod, and to read the nmethod's tier,
 * compile id and OSR bci. Found by name at the first compiled method.
 */
static struct {
	pthread_once_t once;
	int ok;
	void **heaps;		/* &CodeCache::_heaps: GrowableArray<CodeHeap*>* */
	long ga_len, ga_data;
	long heap_memory, heap_segmap, heap_log2;
	long vs_low, vs_high;
	long hb_used, hb_size;
	long cb_code_begin, cb_code_end;	/* JDK 17-22: pointers */
	long cb_code_off, cb_data_off;		/* JDK 23+: int offsets from the blob */
	long nm_method;
	long nm_level, nm_id, nm_bci;
	long level_size;
} hs = { PTHREAD_ONCE_INIT, 0, NULL, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, 0 };

static uint64_t
vm_sym(const char *name, int *ok)
{
	void *p = dlsym(RTLD_DEFAULT, name);

	if (p == NULL) {
		*ok = 0;
		return 0;
	}
	return *(uint64_t *)p;
}

/* The size of a VM type by name, 0 when unknown. */
static long
vm_type_size(const char *type)
{
	int ok = 1;
	const char *e = (const char *)(uintptr_t)vm_sym("gHotSpotVMTypes", &ok);
	uint64_t stride = vm_sym("gHotSpotVMTypeEntryArrayStride", &ok);
	uint64_t tn = vm_sym("gHotSpotVMTypeEntryTypeNameOffset", &ok);
	uint64_t sz = vm_sym("gHotSpotVMTypeEntrySizeOffset", &ok);

	if (!ok || e == NULL || stride == 0)
		return 0;
	for (; *(const char *const *)(e + tn) != NULL; e += stride)
		if (strcmp(*(const char *const *)(e + tn), type) == 0)
			return (long)*(const uint64_t *)(e + sz);
	return 0;
}

/*
 * A field's offset (or, static, its address) by type and field name, and
 * the size of its type; -1 when not there.
 */
static long
vm_field(const char *type, const char *field, void **addr, long *size)
{
	int ok = 1;
	const char *e = (const char *)(uintptr_t)vm_sym("gHotSpotVMStructs", &ok);
	uint64_t stride = vm_sym("gHotSpotVMStructEntryArrayStride", &ok);
	uint64_t tn = vm_sym("gHotSpotVMStructEntryTypeNameOffset", &ok);
	uint64_t fn = vm_sym("gHotSpotVMStructEntryFieldNameOffset", &ok);
	uint64_t ts = vm_sym("gHotSpotVMStructEntryTypeStringOffset", &ok);
	uint64_t st = vm_sym("gHotSpotVMStructEntryIsStaticOffset", &ok);
	uint64_t of = vm_sym("gHotSpotVMStructEntryOffsetOffset", &ok);
	uint64_t ad = vm_sym("gHotSpotVMStructEntryAddressOffset", &ok);

	if (!ok || e == NULL || stride == 0)
		return -1;
	for (; *(const char *const *)(e + tn) != NULL; e += stride) {
		const char *t = *(const char *const *)(e + tn);
		const char *f = *(const char *const *)(e + fn);
		const char *ty = *(const char *const *)(e + ts);
		if (f == NULL || strcmp(t, type) != 0 || strcmp(f, field) != 0)
			continue;
		if (size != NULL)
			*size = ty != NULL ? vm_type_size(ty) : 0;
		if (*(const int32_t *)(e + st)) {
			if (addr != NULL)
				*addr = *(void *const *)(e + ad);
			return 0;
		}
		return (long)*(const uint64_t *)(e + of);
	}
	return -1;
}

static void
vm_init(void)
{
	void *heaps = NULL;
	long sz = 0;

	if (vm_field("CodeCache", "_heaps", &heaps, NULL) < 0 || heaps == NULL)
		return;
	hs.heaps = heaps;
	hs.ga_len = vm_field("GrowableArrayBase", "_len", NULL, NULL);
	hs.ga_data = vm_field("GrowableArray<int>", "_data", NULL, NULL);
	hs.heap_memory = vm_field("CodeHeap", "_memory", NULL, NULL);
	hs.heap_segmap = vm_field("CodeHeap", "_segmap", NULL, NULL);
	hs.heap_log2 = vm_field("CodeHeap", "_log2_segment_size", NULL, NULL);
	hs.vs_low = vm_field("VirtualSpace", "_low", NULL, NULL);
	hs.vs_high = vm_field("VirtualSpace", "_high", NULL, NULL);
	hs.hb_used = vm_field("HeapBlock::Header", "_used", NULL, NULL);
	hs.hb_size = vm_type_size("HeapBlock");
	hs.cb_code_begin = vm_field("CodeBlob", "_code_begin", NULL, NULL);
	hs.cb_code_end = vm_field("CodeBlob", "_code_end", NULL, NULL);
	hs.cb_code_off = vm_field("CodeBlob", "_code_offset", NULL, NULL);
	hs.cb_data_off = vm_field("CodeBlob", "_data_offset", NULL, NULL);
	hs.nm_method = vm_field("CompiledMethod", "_method", NULL, NULL);
	if (hs.nm_method < 0)	/* JDK 23 folded CompiledMethod into nmethod */
		hs.nm_method = vm_field("nmethod", "_method", NULL, NULL);
	hs.nm_level = vm_field("nmethod", "_comp_level", NULL, &sz);
	hs.level_size = sz;
	hs.nm_id = vm_field("nmethod", "_compile_id", NULL, NULL);
	hs.nm_bci = vm_field("nmethod", "_entry_bci", NULL, NULL);
	hs.ok = hs.ga_len >= 0 && hs.ga_data >= 0 && hs.heap_memory >= 0 &&
	    hs.heap_segmap >= 0 && hs.heap_log2 >= 0 && hs.vs_low >= 0 &&
	    hs.vs_high >= 0 && hs.hb_used >= 0 && hs.hb_size > 0 &&
	    ((hs.cb_code_begin >= 0 && hs.cb_code_end >= 0) ||
	    (hs.cb_code_off >= 0 && hs.cb_data_off >= 0)) && hs.nm_method >= 0 &&
	    hs.nm_level >= 0 && (hs.level_size == 1 || hs.level_size == 4) &&
	    hs.nm_id >= 0 && hs.nm_bci >= 0;
}

#define AT(base, off, type) (*(type *)((const char *)(base) + (off)))

/*
 * The nmethod whose code holds addr, as CodeHeap::find_blob finds it: the
 * heap that holds addr, then its segment map back to the block start.
 */
static const char *
vm_find_nmethod(const void *addr)
{
	const char *ga = *(const char *const *)hs.heaps, *heap, *low, *high;
	const unsigned char *seg, *seg_high;
	size_t idx, steps;
	int len, i, shift;

	if (ga == NULL)
		return NULL;
	len = AT(ga, hs.ga_len, int);
	for (i = 0; i < len && i < 16; i++) {
		heap = AT(ga, hs.ga_data, const char *const *)[i];
		if (heap == NULL)
			continue;
		low = AT(heap, hs.heap_memory + hs.vs_low, const char *);
		high = AT(heap, hs.heap_memory + hs.vs_high, const char *);
		if ((const char *)addr < low || (const char *)addr >= high)
			continue;
		seg = AT(heap, hs.heap_segmap + hs.vs_low, const unsigned char *);
		seg_high = AT(heap, hs.heap_segmap + hs.vs_high, const unsigned char *);
		shift = AT(heap, hs.heap_log2, int);
		if (shift <= 0 || shift > 20)
			return NULL;
		idx = (size_t)((const char *)addr - low) >> shift;
		if (seg + idx >= seg_high || seg[idx] == 0xff)
			return NULL;
		for (steps = 0; seg[idx] > 0 && steps < 1u << 20; steps++) {
			if (seg[idx] > idx)
				return NULL;
			idx -= seg[idx];
		}
		low += idx << shift;	/* the block */
		if (!AT(low, hs.hb_used, bool))
			return NULL;
		return low + hs.hb_size;
	}
	return NULL;
}

/*
 * " [c2 L4 #41]" for this method's code at addr: compiler, comp level,
 * compile id as -XX:+PrintCompilation shows them; " [c1 L3 OSR@11 #37]"
 * for an on-stack-replacement version entered at bci 11; " [native #4]"
 * for a native method's wrapper.
 */
void
tier_suffix(jmethodID method, const void *addr, struct buf *b)
{
	const char *nm, *begin, *end;
	char s[64];
	int level, id, bci, n;

	pthread_once(&hs.once, vm_init);
	if (!hs.ok || method == NULL || (nm = vm_find_nmethod(addr)) == NULL)
		return;
	if (hs.cb_code_begin >= 0 && hs.cb_code_end >= 0) {
		begin = AT(nm, hs.cb_code_begin, const char *);
		end = AT(nm, hs.cb_code_end, const char *);
	} else {
		begin = nm + AT(nm, hs.cb_code_off, int);
		end = nm + AT(nm, hs.cb_data_off, int);
	}
	if ((const char *)addr < begin || (const char *)addr >= end)
		return;
	/* a jmethodID points at its Method*: this must be that method's code */
	if (AT(nm, hs.nm_method, const void *) != *(const void *const *)method)
		return;
	level = hs.level_size == 1 ? AT(nm, hs.nm_level, signed char) :
	    AT(nm, hs.nm_level, int);
	id = AT(nm, hs.nm_id, int);
	bci = AT(nm, hs.nm_bci, int);
	if (level < 0 || level > 4)
		return;
	if (level == 0)		/* a native method's wrapper */
		n = snprintf(s, sizeof(s), " [native #%d]", id);
	else if (bci >= 0)	/* InvocationEntryBci is -1: else an OSR version */
		n = snprintf(s, sizeof(s), " [%s L%d OSR@%d #%d]",
		    level == 4 ? "c2" : "c1", level, bci, id);
	else
		n = snprintf(s, sizeof(s), " [%s L%d #%d]", level == 4 ? "c2" : "c1",
		    level, id);
	if (n > 0 && (size_t)n < sizeof(s))
		buf_add(b, s, (size_t)n);
}

/* Does word appear in the environment variable var, as one of its words? */
static bool
env_has_word(const char *var, const char *word)
{
	const char *v = getenv(var), *p;
	size_t n = strlen(word);

	if (v == NULL || n == 0)
		return false;
	for (p = v; (p = strstr(p, word)) != NULL; p++)
		if ((p == v || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\t'))
			return true;
	return false;
}

/* Is "-agentpath:PATH[=OPTIONS]" this very shared object (same file)? */
static bool
loads_this_agent(const char *arg, const struct stat *self)
{
	char path[4096];
	const char *p = arg + strlen("-agentpath:"), *eq;
	size_t n;
	struct stat st;

	if (strncmp(arg, "-agentpath:", 11) != 0)
		return false;
	eq = strchr(p, '=');
	n = eq != NULL ? (size_t)(eq - p) : strlen(p);
	if (n == 0 || n >= sizeof(path))
		return false;
	memcpy(path, p, n);
	path[n] = '\0';
	return stat(path, &st) == 0 && st.st_dev == self->st_dev && st.st_ino == self->st_ino;
}

/*
 * Drop this agent's "-agentpath:..." from the JVM's input arguments
 * (RuntimeMXBean.getInputArguments(), Arguments::_jvm_args_array, built
 * before agents load) where it came from JAVA_TOOL_OPTIONS or
 * JDK_JAVA_OPTIONS: every child JVM inherits those, so a harness that
 * copies the input arguments into its forks' command lines (JMH) would
 * load it twice there and print it as its VM options. An -agentpath
 * given on the command line stays. With the option hidefp, benchtui put
 * -XX:+PreserveFramePointer there too (for call chains through compiled
 * code): it goes the same way. Returns how many were dropped, -1
 * when the JVM does not export the array (not HotSpot).
 */
int
hide_input_args(void)
{
	void *argsp = NULL, *nump = NULL;
	char **args;
	int *num, i, k, dropped = 0;
	Dl_info info;
	struct stat self;

	if (vm_field("Arguments", "_jvm_args_array", &argsp, NULL) < 0 || argsp == NULL ||
	    vm_field("Arguments", "_num_jvm_args", &nump, NULL) < 0 || nump == NULL)
		return -1;
	if (dladdr((void *)hide_input_args, &info) == 0 || info.dli_fname == NULL ||
	    stat(info.dli_fname, &self) != 0)
		return -1;
	args = *(char ***)argsp;
	num = nump;
	if (args == NULL || *num <= 0)
		return 0;
	for (i = k = 0; i < *num; i++) {
		const char *a = args[i];

		if (a != NULL && (loads_this_agent(a, &self) ||
		    (agent.hide_fp && strcmp(a, "-XX:+PreserveFramePointer") == 0)) &&
		    (env_has_word("JAVA_TOOL_OPTIONS", a) || env_has_word("JDK_JAVA_OPTIONS", a))) {
			dropped++;	/* the string stays allocated: others may hold it */
			continue;
		}
		args[k++] = args[i];
	}
	*num = k;
	return dropped;
}
