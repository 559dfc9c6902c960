/*
 * What the dump says of a compiled method: its name ("Hot.run(I)D", the
 * tier from hotspot.c) and its DEBUG_INFO record, the line of each pc
 * from the JVM's inlining records or its address map.
 */
#include <stdlib.h>
#include <string.h>

#include "agent.h"

#include <jvmticmlr.h>	/* after jvmti.h, which it needs */

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

/* "Hot.run(I)D [c2 L4 #41]" for a method, into b (NUL-terminated); -1 on failure. */
int
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
int
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

/* "java.lang.Integer::valueOf" (as JMH's perfasm names frames), into b with its NUL. */
static int
frame_name(jvmtiEnv *jvmti, jmethodID m, struct buf *b)
{
	char *csig = NULL, *name = NULL;
	jclass cls;
	int ret = -1;

	if ((*jvmti)->GetMethodDeclaringClass(jvmti, m, &cls) != JVMTI_ERROR_NONE)
		return -1;
	if ((*jvmti)->GetClassSignature(jvmti, cls, &csig, NULL) != JVMTI_ERROR_NONE)
		goto out;
	if ((*jvmti)->GetMethodName(jvmti, m, &name, NULL, NULL) != JVMTI_ERROR_NONE)
		goto out;
	class_name(b, csig);
	buf_add(b, "::", 2);
	buf_add(b, name, strlen(name) + 1);
	ret = b->failed ? -1 : 0;
out:
	dealloc(jvmti, csig);
	dealloc(jvmti, name);
	return ret;
}

/*
 * The inline record of one compiled method (docs/jit.md "Inline file"):
 * code_addr, code_index (given at the write), the methods its inlining
 * records name (name and source file each), then every pc of the records
 * with its frames, innermost first: method, bytecode index, line (a
 * method that inlines nothing too: its pcs' bytecode indexes, perfasm's
 * "Inl::run@9"). Nothing (0 bytes in b) when the JVM gives no pc; -1 on
 * failure.
 */
int
add_inline(jvmtiEnv *jvmti, struct buf *b, const void *code, const void *compile_info)
{
	const jvmtiCompiledMethodLoadRecordHeader *hdr;
	struct line_cache cache = { NULL, 0, 0 };
	uint32_t npcs = 0, i, k;
	size_t off, n_off;
	int any = 0, ret = -1;

	for (hdr = compile_info; hdr != NULL; hdr = hdr->next) {
		const jvmtiCompiledMethodLoadInlineRecord *rec;
		if (hdr->kind != JVMTI_CMLR_INLINE_INFO)
			continue;
		rec = (const jvmtiCompiledMethodLoadInlineRecord *)hdr;
		for (i = 0; i < (uint32_t)(rec->numpcs > 0 ? rec->numpcs : 0); i++) {
			const PCStackInfo *c = &rec->pcinfo[i];
			if (c->numstackframes > 0)
				any = 1;
			for (k = 0; k < (uint32_t)(c->numstackframes > 0 ? c->numstackframes : 0); k++)
				if (lines_of(jvmti, &cache, c->methods[k]) == NULL)
					goto out;
		}
	}
	if (!any) {
		ret = 0;
		goto out;
	}
	off = rec_begin(b, INLINE_RECORD);
	buf_u64(b, (uint64_t)(uintptr_t)code);
	buf_u64(b, 0);				/* code_index, at the write */
	buf_u32(b, (uint32_t)cache.n);
	n_off = b->len;
	buf_u32(b, 0);				/* npcs */
	for (i = 0; i < cache.n; i++) {
		const struct method_lines *ml = &cache.v[i];
		char *file = ml->file ? NULL : source_file(jvmti, ml->m);
		const char *f = ml->file ? ml->file : file ? file : "";

		if (frame_name(jvmti, ml->m, b) < 0)
			buf_add(b, "?", 2);
		buf_add(b, f, strlen(f) + 1);
		free(file);
	}
	for (hdr = compile_info; hdr != NULL; hdr = hdr->next) {
		const jvmtiCompiledMethodLoadInlineRecord *rec;
		if (hdr->kind != JVMTI_CMLR_INLINE_INFO)
			continue;
		rec = (const jvmtiCompiledMethodLoadInlineRecord *)hdr;
		for (i = 0; i < (uint32_t)(rec->numpcs > 0 ? rec->numpcs : 0); i++) {
			const PCStackInfo *c = &rec->pcinfo[i];
			uint32_t nf = (uint32_t)(c->numstackframes > 0 ? c->numstackframes : 0);

			buf_u64(b, (uint64_t)(uintptr_t)c->pc);
			buf_u32(b, nf);
			for (k = 0; k < nf; k++) {
				struct method_lines *ml = lines_of(jvmti, &cache, c->methods[k]);
				int line = line_at(ml, c->bcis[k]);

				buf_u32(b, (uint32_t)(ml - cache.v));
				buf_u32(b, (uint32_t)c->bcis[k]);
				buf_u32(b, line > 0 ? (uint32_t)line : 0);
			}
			npcs++;
		}
	}
	if (!b->failed)
		put_u32(b, n_off, npcs);
	ret = rec_end(b, off);
out:
	cache_release(jvmti, &cache);
	return ret;
}
