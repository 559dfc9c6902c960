/*
 * The jitdump file (Linux tools/perf/Documentation/jitdump-specification.txt):
 * its header, its marker mapping, and records written whole, one write(2)
 * each under the agent's lock, times and code indexes given at the write
 * so that the file's order is time order.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"

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

void
agent_warn(const char *fmt, ...)
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

void
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

/* Start a record: id, size (patched by rec_end), time (patched at write). */
size_t
rec_begin(struct buf *b, uint32_t id)
{
	size_t off = b->len;

	buf_u32(b, id);
	buf_u32(b, 0);
	buf_u64(b, 0);
	return off;
}

int
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
void
dump_emit(struct buf *b, const size_t *recs, int nrecs, long load_off,
	  struct buf *inl)
{
	uint64_t t, idx = 0;
	int i;

	if (b->failed)
		return;
	pthread_mutex_lock(&agent.lock);
	if (agent.fd < 0)
		goto out;
	t = now_ns();
	for (i = 0; i < nrecs; i++)
		put_u64(b, recs[i] + 8, t);
	if (load_off >= 0) {	/* pid tid vma code_addr code_size code_index */
		idx = agent.code_index++;
		put_u64(b, (size_t)load_off + 16 + 32, idx);
	}
	if (write_all(agent.fd, b->p, b->len) < 0) {
		agent_warn("cannot write '%s': %s; no more records", agent.path,
		    strerror(errno));
		close(agent.fd);
		agent.fd = -1;
		goto out;
	}
	/* the load's inline record: its time and code_index, after it */
	if (inl != NULL && !inl->failed && agent.inl_fd >= 0 && load_off >= 0) {
		put_u64(inl, 8, t);
		put_u64(inl, 16 + 8, idx);
		if (write_all(agent.inl_fd, inl->p, inl->len) < 0) {
			agent_warn("cannot write '%s': %s; no more inline records",
			    agent.inl_path, strerror(errno));
			close(agent.inl_fd);
			agent.inl_fd = -1;
		}
	}
out:
	pthread_mutex_unlock(&agent.lock);
}

/* Append a CODE_LOAD record for [addr, addr + size) named name. */
size_t
dump_add_load(struct buf *b, const char *name, const void *addr, uint64_t size)
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

/* Write JIT_CODE_CLOSE and stop; the marker mapping stays (it is one page). */
void
close_dump(void)
{
	struct buf b = { NULL, 0, 0, 0 };
	size_t rec = rec_begin(&b, JIT_CODE_CLOSE);

	rec_end(&b, rec);
	dump_emit(&b, &rec, 1, -1, NULL);
	free(b.p);
	pthread_mutex_lock(&agent.lock);
	if (agent.fd >= 0)
		close(agent.fd);
	agent.fd = -1;
	if (agent.inl_fd >= 0)
		close(agent.inl_fd);
	agent.inl_fd = -1;
	pthread_mutex_unlock(&agent.lock);
}

/*
 * Is DIR/jit-PID.dump mapped in this process already (the marker of
 * another copy of this agent, loaded from another path)?
 */
int
dump_mapped(const char *dir)
{
	char real[4096], want[4200], line[8192];
	FILE *f;
	size_t wl;
	int found = 0;

	if (realpath(dir, real) == NULL)
		return 0;
	snprintf(want, sizeof(want), "%s/jit-%d.dump", real, (int)getpid());
	wl = strlen(want);
	f = fopen("/proc/self/maps", "re");
	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		size_t n = strlen(line);

		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		found = n > wl && line[n - wl - 1] == ' ' && strcmp(line + n - wl, want) == 0;
	}
	fclose(f);
	return found;
}

/*
 * Open DIR/jit-PID.inline, benchtui's own file beside the dump (perf's
 * tools read only the dump): a 16-byte header (magic "BTIL", version,
 * header size, pid), then one record per compiled method with inlining,
 * framed as jitdump's ({id, total_size, timestamp}), written after its
 * load with the load's time and code_index (docs/jit.md "Inline file").
 * Failing, the dump is written without it.
 */
static void
open_inline(const char *dir)
{
	struct buf b = { NULL, 0, 0, 0 };
	int fd, n;

	n = snprintf(agent.inl_path, sizeof(agent.inl_path), "%s/jit-%d.inline",
	    dir, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(agent.inl_path))
		return;
	fd = open(agent.inl_path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0) {
		agent_warn("cannot create '%s': %s; no inlining chains",
		    agent.inl_path, strerror(errno));
		return;
	}
	buf_u32(&b, INLINE_MAGIC);
	buf_u32(&b, INLINE_VERSION);
	buf_u32(&b, 16);
	buf_u32(&b, (uint32_t)getpid());
	if (b.failed || write_all(fd, b.p, b.len) < 0) {
		agent_warn("cannot write '%s'; no inlining chains", agent.inl_path);
		close(fd);
		fd = -1;
	}
	free(b.p);
	agent.inl_fd = fd;
}

/* Open DIR/jit-PID.dump, map it PROT_EXEC (the marker), write the header. */
int
open_dump(const char *dir)
{
	struct buf b = { NULL, 0, 0, 0 };
	int fd, n;

	n = snprintf(agent.path, sizeof(agent.path), "%s/jit-%d.dump", dir,
	    (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(agent.path)) {
		agent_warn("directory name too long");
		return -1;
	}
	fd = open(agent.path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0) {
		agent_warn("cannot create '%s': %s", agent.path, strerror(errno));
		return -1;
	}
	agent.pagesize = sysconf(_SC_PAGESIZE);
	agent.marker = mmap(NULL, (size_t)agent.pagesize, PROT_READ | PROT_EXEC,
	    MAP_PRIVATE, fd, 0);
	if (agent.marker == MAP_FAILED) {
		/* a noexec mount: the dump is still written, found by its name */
		agent_warn("cannot map '%s' executable (%s): a profiler will not see it "
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
		agent_warn("cannot write '%s': %s", agent.path, strerror(errno));
		free(b.p);
		close(fd);
		return -1;
	}
	free(b.p);
	agent.fd = fd;
	if (agent.verbose)
		agent_warn("jitdump in '%s'", agent.path);
	if (agent.lines && agent.inlines)
		open_inline(dir);
	return 0;
}
