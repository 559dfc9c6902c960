/*
 * What the files of benchtui's JVMTI agent share (one shared object:
 * benchtui-jvmti.c, the entry points and callbacks; jitdump.c, the dump's
 * file and records; methods.c, names and line tables; hotspot.c, the tier
 * read from HotSpot's VMStructs). Everything but Agent_OnLoad and
 * Agent_OnUnload is hidden (-fvisibility=hidden).
 */
#ifndef BENCHTUI_JVMTI_AGENT_H
#define BENCHTUI_JVMTI_AGENT_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <jvmti.h>

#define JITDUMP_MAGIC 0x4A695444u
#define JITDUMP_VERSION 1u
#define JIT_CODE_LOAD 0u
#define JIT_CODE_DEBUG_INFO 2u
#define JIT_CODE_CLOSE 3u

/* benchtui's inline file, jit-PID.inline beside the dump (docs/jit.md) */
#define INLINE_MAGIC 0x4C495442u	/* "BTIL" */
#define INLINE_VERSION 1u
#define INLINE_RECORD 1u

/* The agent's options and the dump being written (benchtui-jvmti.c). */
struct agent_state {
	pthread_mutex_t lock;
	int fd;			/* -1: not writing (closed, or failed) */
	int inl_fd;		/* the inline file, -1: none */
	void *marker;
	long pagesize;
	uint64_t code_index;
	int lines, stubs, tiers, verbose, inlines;
	int hide_fp;		/* hidefp: benchtui added -XX:+PreserveFramePointer */
	int loaded;		/* Agent_OnLoad ran in this JVM: a second one does nothing */
	char path[4096];
	char inl_path[4096];
};

extern struct agent_state agent;

/* A growable byte buffer (allocation failure: the record is dropped). */
struct buf {
	uint8_t *p;
	size_t len, cap;
	int failed;
};

void buf_add(struct buf *b, const void *data, size_t len);

static inline void
buf_u32(struct buf *b, uint32_t v)
{
	buf_add(b, &v, sizeof(v));
}

static inline void
buf_u64(struct buf *b, uint64_t v)
{
	buf_add(b, &v, sizeof(v));
}

static inline void
put_u32(struct buf *b, size_t off, uint32_t v)
{
	memcpy(b->p + off, &v, sizeof(v));
}

static inline void
put_u64(struct buf *b, size_t off, uint64_t v)
{
	memcpy(b->p + off, &v, sizeof(v));
}

static inline void
dealloc(jvmtiEnv *jvmti, void *p)
{
	if (p != NULL)
		(*jvmti)->Deallocate(jvmti, (unsigned char *)p);
}

/* jitdump.c */
/* Say why on stderr, "benchtui-jvmti: " first, one write. */
void agent_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
size_t rec_begin(struct buf *b, uint32_t id);
int rec_end(struct buf *b, size_t off);
void dump_emit(struct buf *b, const size_t *recs, int nrecs, long load_off,
	       struct buf *inl);
size_t dump_add_load(struct buf *b, const char *name, const void *addr, uint64_t size);
int open_dump(const char *dir);
int dump_mapped(const char *dir);
void close_dump(void);

/* methods.c */
int method_name(jvmtiEnv *jvmti, jmethodID m, const void *code, struct buf *b);
int add_debug(jvmtiEnv *jvmti, struct buf *b, jmethodID method, const void *code,
	      jint map_length, const jvmtiAddrLocationMap *map,
	      const void *compile_info);
int add_inline(jvmtiEnv *jvmti, struct buf *b, const void *code,
	       const void *compile_info);

/* hotspot.c */
void tier_suffix(jmethodID method, const void *addr, struct buf *b);
int hide_input_args(void);

#endif
