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
 *   nolines     no JIT_CODE_DEBUG_INFO records
 *   plain       names without the " [c2 L4 #41]" suffix
 *   nostubs     no records for DynamicCodeGenerated (interpreter, stubs)
 *   verbose     say on stderr where the dump goes
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
 * A failure never stops the JVM: the agent says why on stderr and stays
 * out of the way.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <jvmti.h>
#include <jvmticmlr.h>

#define JITDUMP_MAGIC 0x4A695444u
#define JITDUMP_VERSION 1u
#define JIT_CODE_LOAD 0u
#define JIT_CODE_DEBUG_INFO 2u
#define JIT_CODE_CLOSE 3u

#if defined(__x86_64__)
#define ELF_MACH EM_X86_64
#elif defined(__aarch64__)
#define ELF_MACH EM_AARCH64
#elif defined(__i386__)
#define ELF_MACH EM_386
#elif defined(__arm__)
#define ELF_MACH EM_ARM
#elif defined(__riscv)
#define ELF_MACH EM_RISCV
#elif defined(__powerpc64__)
#define ELF_MACH EM_PPC64
#elif defined(__s390x__)
#define ELF_MACH EM_S390
#else
#define ELF_MACH EM_NONE
#endif

static struct {
	pthread_mutex_t lock;
	int fd;			/* -1: not writing (closed, or failed) */
	void *marker;
	long pagesize;
	uint64_t code_index;
	int lines, stubs, tiers, verbose;
	char path[4096];
} agent = { PTHREAD_MUTEX_INITIALIZER, -1, NULL, 0, 1, 1, 1, 1, 0, "" };

static void __attribute__((format(printf, 1, 2)))
warn(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	/* stderr may be buffered by nobody here; one write per message */
	if (write(2, "benchtui-jvmti: ", 16) < 0 || write(2, buf, (size_t)n) < 0)
		return;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A growable byte buffer (allocation failure: the record is dropped). */
struct buf {
	uint8_t *p;
	size_t len, cap;
	int failed;
};

static void
buf_add(struct buf *b, const void *data, size_t len)
{
	if (b->failed)
		return;
	if (len > b->cap - b->len) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *np;
		while (cap - b->len < len) {
			if (cap > SIZE_MAX / 2) {
				b->failed = 1;
				return;
			}
			cap *= 2;
		}
		np = realloc(b->p, cap);
		if (np == NULL) {
			b->failed = 1;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

static void
buf_u32(struct buf *b, uint32_t v)
{
	buf_add(b, &v, sizeof(v));
}

static void
buf_u64(struct buf *b, uint64_t v)
{
	buf_add(b, &v, sizeof(v));
}

static void
put_u32(struct buf *b, size_t off, uint32_t v)
{
	memcpy(b->p + off, &v, sizeof(v));
}

static void
put_u64(struct buf *b, size_t off, uint64_t v)
{
	memcpy(b->p + off, &v, sizeof(v));
}

/* Start a record: id, size (patched by rec_end), time (patched at write). */
static size_t
rec_begin(struct buf *b, uint32_t id)
{
	size_t off = b->len;

	buf_u32(b, id);
	buf_u32(b, 0);
	buf_u64(b, 0);
	return off;
}

static int
rec_end(struct buf *b, size_t off)
{
	if (b->failed || b->len - off > UINT32_MAX)
		return -1;
	put_u32(b, off + 4, (uint32_t)(b->len - off));
	return 0;
}

static int
write_all(int fd, const uint8_t *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Write the records in b (their offsets in recs) as one block: times and
 * code indexes are given under the lock, so the file's order is time
 * order and indexes are unique. load_off: the CODE_LOAD record, or -1.
 */
static void
emit(struct buf *b, const size_t *recs, int nrecs, long load_off)
{
	uint64_t t;
	int i;

	if (b->failed)
		return;
	pthread_mutex_lock(&agent.lock);
	if (agent.fd < 0)
		goto out;
	t = now_ns();
	for (i = 0; i < nrecs; i++)
		put_u64(b, recs[i] + 8, t);
	if (load_off >= 0)	/* pid tid vma code_addr code_size code_index */
		put_u64(b, (size_t)load_off + 16 + 32, agent.code_index++);
	if (write_all(agent.fd, b->p, b->len) < 0) {
		warn("cannot write '%s': %s; no more records", agent.path,
		    strerror(errno));
		close(agent.fd);
		agent.fd = -1;
	}
out:
	pthread_mutex_unlock(&agent.lock);
}

/* Append a CODE_LOAD record for [addr, addr + size) named name. */
static size_t
add_load(struct buf *b, const char *name, const void *addr, uint64_t size)
{
	size_t off = rec_begin(b, JIT_CODE_LOAD);

	buf_u32(b, (uint32_t)getpid());
	buf_u32(b, (uint32_t)syscall(SYS_gettid));
	buf_u64(b, (uint64_t)(uintptr_t)addr);		/* vma */
	buf_u64(b, (uint64_t)(uintptr_t)addr);		/* code_addr */
	buf_u64(b, size);
	buf_u64(b, 0);					/* code_index, at emit */
	buf_add(b, name, strlen(name) + 1);
	buf_add(b, addr, size);
	rec_end(b, off);
	return off;
}

/* "Ljava/lang/String;" -> "java.lang.String" (other forms as they are). */
static void
class_name(struct buf *b, const char *sig)
{
	size_t n = strlen(sig), i;

	if (n >= 2 && sig[0] == 'L' && sig[n - 1] == ';') {
		sig++;
		n -= 2;
	}
	for (i = 0; i < n; i++) {
		char c = sig[i] == '/' ? '.' : sig[i];
		buf_add(b, &c, 1);
	}
}

static void
dealloc(jvmtiEnv *jvmti, void *p)
{
	if (p != NULL)
		(*jvmti)->Deallocate(jvmti, (unsigned char *)p);
}

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
static void
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

/* "Hot.run(I)D [c2 L4 #41]" for a method, into b (NUL-terminated); -1 on failure. */
static int
method_name(jvmtiEnv *jvmti, jmethodID m, const void *code, struct buf *b)
{
	char *csig = NULL, *name = NULL, *msig = NULL;
	jclass cls;
	int ret = -1;

	if ((*jvmti)->GetMethodDeclaringClass(jvmti, m, &cls) != JVMTI_ERROR_NONE)
		return -1;
	if ((*jvmti)->GetClassSignature(jvmti, cls, &csig, NULL) != JVMTI_ERROR_NONE)
		goto out;
	if ((*jvmti)->GetMethodName(jvmti, m, &name, &msig, NULL) != JVMTI_ERROR_NONE)
		goto out;
	class_name(b, csig);
	buf_add(b, ".", 1);
	buf_add(b, name, strlen(name));
	buf_add(b, msig, strlen(msig));
	if (agent.tiers)
		tier_suffix(m, code, b);
	buf_add(b, "", 1);
	ret = b->failed ? -1 : 0;
out:
	dealloc(jvmti, csig);
	dealloc(jvmti, name);
	dealloc(jvmti, msig);
	return ret;
}

/* What one method contributes to line tables: its source file and lines. */
struct method_lines {
	jmethodID m;
	char *file;			/* "java/lang/String.java", malloc'd */
	jvmtiLineNumberEntry *tab;	/* JVMTI-allocated, NULL when none */
	jint n;
};

/*
 * The source file of the method's class, with the class's package as
 * its directory (as javac lays sources out): "java/lang/String.java".
 */
static char *
source_file(jvmtiEnv *jvmti, jmethodID m)
{
	char *csig = NULL, *src = NULL, *out = NULL, *slash;
	jclass cls;
	size_t dlen = 0;

	if ((*jvmti)->GetMethodDeclaringClass(jvmti, m, &cls) != JVMTI_ERROR_NONE)
		return NULL;
	if ((*jvmti)->GetSourceFileName(jvmti, cls, &src) != JVMTI_ERROR_NONE)
		goto out;
	if ((*jvmti)->GetClassSignature(jvmti, cls, &csig, NULL) == JVMTI_ERROR_NONE &&
	    csig[0] == 'L' && (slash = strrchr(csig, '/')) != NULL)
		dlen = (size_t)(slash - csig);	/* "Ljava/lang" -> "java/lang/" */
	out = malloc(dlen + strlen(src) + 1);
	if (out != NULL) {
		if (dlen > 0)
			memcpy(out, csig + 1, dlen);
		strcpy(out + dlen, src);
	}
out:
	dealloc(jvmti, csig);
	dealloc(jvmti, src);
	return out;
}

struct line_cache {
	struct method_lines *v;
	size_t n, cap;
};

static struct method_lines *
lines_of(jvmtiEnv *jvmti, struct line_cache *c, jmethodID m)
{
	struct method_lines *ml;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].m == m)
			return &c->v[i];
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 8;
		struct method_lines *nv = realloc(c->v, cap * sizeof(*nv));
		if (nv == NULL)
			return NULL;
		c->v = nv;
		c->cap = cap;
	}
	ml = &c->v[c->n++];
	ml->m = m;
	ml->tab = NULL;
	ml->n = 0;
	if ((*jvmti)->GetLineNumberTable(jvmti, m, &ml->n, &ml->tab) != JVMTI_ERROR_NONE) {
		ml->tab = NULL;
		ml->n = 0;
	}
	ml->file = ml->tab != NULL ? source_file(jvmti, m) : NULL;
	return ml;
}

static void
cache_release(jvmtiEnv *jvmti, struct line_cache *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		dealloc(jvmti, c->v[i].tab);
		free(c->v[i].file);
	}
	free(c->v);
}

/* The line of bytecode index bci: the last entry starting at or before it. */
static int
line_at(const struct method_lines *ml, jlocation bci)
{
	int line = -1;
	jint i;

	if (ml == NULL || ml->tab == NULL || ml->file == NULL || bci < 0)
		return -1;
	for (i = 0; i < ml->n; i++)
		if (ml->tab[i].start_location <= bci &&
		    (line < 0 || ml->tab[i].start_location >= ml->tab[line].start_location))
			line = i;
	return line < 0 ? -1 : ml->tab[line].line_number;
}

struct pcline {
	uint64_t pc;
	const char *file;
	uint32_t line;
};

static int
pcline_cmp(const void *a, const void *b)
{
	const struct pcline *x = a, *y = b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/*
 * The DEBUG_INFO record of one compiled method: for each pc the line of
 * the innermost (inlined) method there, from the inlining records when
 * the JVM gives them, else from the address map of the method itself.
 * One entry per change of file:line, in address order.
 */
static int
add_debug(jvmtiEnv *jvmti, struct buf *b, jmethodID method, const void *code,
	  jint map_length, const jvmtiAddrLocationMap *map,
	  const void *compile_info)
{
	const jvmtiCompiledMethodLoadRecordHeader *hdr;
	struct line_cache cache = { NULL, 0, 0 };
	struct pcline *pl = NULL;
	size_t n = 0, cap = 0, i, out = 0, off, nr_off;
	const char *pfile = NULL;
	uint32_t pline = 0;

	for (hdr = compile_info; hdr != NULL; hdr = hdr->next) {
		const jvmtiCompiledMethodLoadInlineRecord *rec;
		if (hdr->kind != JVMTI_CMLR_INLINE_INFO)
			continue;
		rec = (const jvmtiCompiledMethodLoadInlineRecord *)hdr;
		for (i = 0; i < (size_t)(rec->numpcs > 0 ? rec->numpcs : 0); i++) {
			const PCStackInfo *c = &rec->pcinfo[i];
			struct method_lines *ml;
			int line;
			if (c->numstackframes < 1)
				continue;
			ml = lines_of(jvmti, &cache, c->methods[0]);
			line = line_at(ml, c->bcis[0]);
			if (line < 0)
				continue;
			if (n == cap) {
				struct pcline *np;
				cap = cap ? cap * 2 : 64;
				np = realloc(pl, cap * sizeof(*pl));
				if (np == NULL)
					goto fail;
				pl = np;
			}
			pl[n].pc = (uint64_t)(uintptr_t)c->pc;
			pl[n].file = ml->file;
			pl[n].line = (uint32_t)line;
			n++;
		}
	}
	if (n == 0 && map != NULL) {
		struct method_lines *ml = lines_of(jvmti, &cache, method);
		for (i = 0; i < (size_t)(map_length > 0 ? map_length : 0); i++) {
			int line = line_at(ml, map[i].location);
			if (line < 0)
				continue;
			if (n == cap) {
				struct pcline *np;
				cap = cap ? cap * 2 : 64;
				np = realloc(pl, cap * sizeof(*pl));
				if (np == NULL)
					goto fail;
				pl = np;
			}
			pl[n].pc = (uint64_t)(uintptr_t)map[i].start_address;
			pl[n].file = ml->file;
			pl[n].line = (uint32_t)line;
			n++;
		}
	}
	if (n == 0)
		goto fail;
	qsort(pl, n, sizeof(*pl), pcline_cmp);
	off = rec_begin(b, JIT_CODE_DEBUG_INFO);
	buf_u64(b, (uint64_t)(uintptr_t)code);
	nr_off = b->len;
	buf_u64(b, 0);
	for (i = 0; i < n; i++) {
		if (pfile != NULL && pl[i].line == pline && strcmp(pl[i].file, pfile) == 0)
			continue;
		buf_u64(b, pl[i].pc);
		buf_u32(b, pl[i].line);
		buf_u32(b, 0);
		buf_add(b, pl[i].file, strlen(pl[i].file) + 1);
		pfile = pl[i].file;
		pline = pl[i].line;
		out++;
	}
	if (!b->failed)
		put_u64(b, nr_off, out);
	rec_end(b, off);
	free(pl);
	cache_release(jvmti, &cache);
	return 0;
fail:
	free(pl);
	cache_release(jvmti, &cache);
	return -1;
}

static void JNICALL
compiled_method_load(jvmtiEnv *jvmti, jmethodID method, jint code_size,
		     const void *code_addr, jint map_length,
		     const jvmtiAddrLocationMap *map, const void *compile_info)
{
	struct buf name = { NULL, 0, 0, 0 }, b = { NULL, 0, 0, 0 };
	size_t recs[2];
	int nrecs = 0;

	if (agent.fd < 0 || code_size <= 0 || code_addr == NULL)
		return;
	if (method_name(jvmti, method, code_addr, &name) < 0)
		goto out;
	if (agent.lines && add_debug(jvmti, &b, method, code_addr, map_length,
	    map, compile_info) == 0)
		recs[nrecs++] = 0;
	recs[nrecs] = add_load(&b, (const char *)name.p, code_addr,
	    (uint64_t)code_size);
	nrecs++;
	emit(&b, recs, nrecs, (long)recs[nrecs - 1]);
out:
	free(name.p);
	free(b.p);
}

static void JNICALL
dynamic_code_generated(jvmtiEnv *jvmti, const char *name, const void *addr,
		       jint length)
{
	struct buf b = { NULL, 0, 0, 0 };
	size_t rec;

	if (!agent.stubs || agent.fd < 0 || length <= 0 || addr == NULL)
		return;
	rec = add_load(&b, name != NULL ? name : "(stub)", addr, (uint64_t)length);
	emit(&b, &rec, 1, (long)rec);
	free(b.p);
}

/* Write JIT_CODE_CLOSE and stop; the marker mapping stays (it is one page). */
static void
close_dump(void)
{
	struct buf b = { NULL, 0, 0, 0 };
	size_t rec = rec_begin(&b, JIT_CODE_CLOSE);

	rec_end(&b, rec);
	emit(&b, &rec, 1, -1);
	free(b.p);
	pthread_mutex_lock(&agent.lock);
	if (agent.fd >= 0)
		close(agent.fd);
	agent.fd = -1;
	pthread_mutex_unlock(&agent.lock);
}

static void JNICALL
vm_death(jvmtiEnv *jvmti, JNIEnv *jni)
{
	close_dump();
}

/* Open DIR/jit-PID.dump, map it PROT_EXEC (the marker), write the header. */
static int
open_dump(const char *dir)
{
	struct buf b = { NULL, 0, 0, 0 };
	int fd, n;

	n = snprintf(agent.path, sizeof(agent.path), "%s/jit-%d.dump", dir,
	    (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(agent.path)) {
		warn("directory name too long");
		return -1;
	}
	fd = open(agent.path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0) {
		warn("cannot create '%s': %s", agent.path, strerror(errno));
		return -1;
	}
	agent.pagesize = sysconf(_SC_PAGESIZE);
	agent.marker = mmap(NULL, (size_t)agent.pagesize, PROT_READ | PROT_EXEC,
	    MAP_PRIVATE, fd, 0);
	if (agent.marker == MAP_FAILED) {
		/* a noexec mount: the dump is still written, found by its name */
		warn("cannot map '%s' executable (%s): a profiler will not see it "
		    "in the mmap records", agent.path, strerror(errno));
		agent.marker = NULL;
	}
	buf_u32(&b, JITDUMP_MAGIC);
	buf_u32(&b, JITDUMP_VERSION);
	buf_u32(&b, 40);			/* total_size */
	buf_u32(&b, ELF_MACH);
	buf_u32(&b, 0);				/* pad1 */
	buf_u32(&b, (uint32_t)getpid());
	buf_u64(&b, now_ns());			/* CLOCK_MONOTONIC, as the records */
	buf_u64(&b, 0);				/* flags */
	if (b.failed || write_all(fd, b.p, b.len) < 0) {
		warn("cannot write '%s': %s", agent.path, strerror(errno));
		free(b.p);
		close(fd);
		return -1;
	}
	free(b.p);
	agent.fd = fd;
	if (agent.verbose)
		warn("jitdump in '%s'", agent.path);
	return 0;
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
		else if (len == 5 && strncmp(p, "plain", 5) == 0)
			agent.tiers = 0;
		else if (len == 7 && strncmp(p, "nostubs", 7) == 0)
			agent.stubs = 0;
		else if (len == 7 && strncmp(p, "verbose", 7) == 0)
			agent.verbose = 1;
		else if (len > 0)
			warn("unknown option '%.*s'", (int)len, p);
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

	parse_options(options, &dir);
	if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_1) != JNI_OK) {
		warn("no JVMTI 1.0 environment; not writing a jitdump");
		return JNI_OK;
	}
	memset(&caps, 0, sizeof(caps));
	caps.can_generate_compiled_method_load_events = 1;
	e = (*jvmti)->AddCapabilities(jvmti, &caps);
	if (e != JVMTI_ERROR_NONE) {
		warn("cannot get compiled-method events (%s); not writing a jitdump",
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
		warn("cannot enable events (%s); the jitdump stops here",
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
