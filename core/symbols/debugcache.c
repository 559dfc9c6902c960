/*
 * Separate debug files decompressed once per build-id (docs/formats.md
 * "Debug file cache"). Debian's and Fedora's debug files keep their
 * .debug_* sections compressed (SHF_COMPRESSED, zlib): libdw inflates
 * every one of them into the heap the first time the DWARF is used, 10-11
 * MB and ~40 ms of CPU for libc's, in every process that shows one line
 * of libc. The first time, once libdw has inflated them, they are written
 * out with the rest of the file ($XDG_CACHE_HOME/benchtui/debug/
 * <build-id>.debug); after that, libdwfl is handed the copy, which libelf
 * maps: libdw reads the sections in place, clean file pages shared
 * between processes, not heap. A run that never reads the DWARF (only the
 * debug file's .symtab) makes no copy.
 *
 * The copy is written with libelf in this process (no objcopy: nothing is
 * spawned), to a temporary file renamed into place, and ends with a
 * trailer naming the file it was made from (its size and modification
 * time). It is used only when it is a regular file of ours that nobody
 * else can write, its trailer is whole and matches the debug file found
 * this time, and it carries the build-id looked for; anything else and it
 * is made again. A cache that cannot be written or read is no error: the
 * debug file found is used as it is, as before. A file with split DWARF
 * units is not copied: libdw looks for their .dwo files beside the file
 * it reads, which would be the cache directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>

#include "symbols/dwfl-int.h"

#define DC_MAGIC "BTDEBUG1"
/* what the directory may hold; the oldest used go first */
#define DC_MAX_TOTAL ((uint64_t)1 << 30)

/*
 * The last bytes of a cache file: the file it was made from. Native byte
 * order: the cache is only read on the machine that wrote it.
 */
struct dc_trailer {
	char magic[8];		/* DC_MAGIC */
	uint64_t elf_size;	/* the ELF file before this trailer */
	uint64_t src_size;	/* the debug file's size... */
	int64_t src_sec;	/* ...and modification time */
	int64_t src_nsec;
};

/* Is the section one of those libdw reads (.debug_*)? */
static bool
debug_section(Elf *elf, size_t shstrndx, const GElf_Shdr *sh)
{
	const char *name = elf_strptr(elf, shstrndx, sh->sh_name);

	return name != NULL && strncmp(name, ".debug_", 7) == 0;
}

/*
 * Does fd's ELF file store DWARF compressed the way libelf inflates
 * (SHF_COMPRESSED, zlib) and nothing the copy could not keep as it is
 * (extended section numbering, the old .zdebug_ names)? Headers only.
 */
static bool
worth_caching(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx, shnum;
	bool compressed = false;
	GElf_Shdr sh;

	if (elf == NULL || elf_kind(elf) != ELF_K_ELF ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0 || elf_getshdrnum(elf, &shnum) != 0 ||
	    shnum >= SHN_LORESERVE || shstrndx >= SHN_LORESERVE)
		return false;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Chdr ch;
		const char *name;

		if (gelf_getshdr(scn, &sh) == NULL)
			return false;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name != NULL && strncmp(name, ".zdebug", 7) == 0)
			return false;
		if (!(sh.sh_flags & SHF_COMPRESSED) || !debug_section(elf, shstrndx, &sh))
			continue;
		if (gelf_getchdr(scn, &ch) == NULL || ch.ch_type != ELFCOMPRESS_ZLIB)
			return false;	/* what libelf 0.188 cannot inflate libdw cannot read */
		compressed = true;
	}
	return compressed;
}

/*
 * The cache file at path, if it is the copy of the file st describes
 * and carries build-id id: its fd, or -1.
 */
static int
open_entry(const char *path, const struct stat *src, const uint8_t *id,
	   size_t id_len)
{
	struct dc_trailer t;
	struct stat st;
	const void *got;
	ssize_t n;
	Elf *elf;
	bool ok;
	int fd;

	/* O_NONBLOCK: a FIFO put in its place must not block the open */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) ||
	    (uint64_t)st.st_size < sizeof(t) ||
	    bt_pread_all(fd, &t, sizeof(t), st.st_size - (off_t)sizeof(t)) < 0 ||
	    memcmp(t.magic, DC_MAGIC, sizeof(t.magic)) != 0 ||
	    t.elf_size != (uint64_t)st.st_size - sizeof(t) ||
	    t.src_size != (uint64_t)src->st_size ||
	    t.src_sec != (int64_t)src->st_mtim.tv_sec ||
	    t.src_nsec != (int64_t)src->st_mtim.tv_nsec)
		goto fail;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	n = elf == NULL ? -1 : dwelf_elf_gnu_build_id(elf, &got);
	ok = n > 0 && (size_t)n == id_len && memcmp(got, id, id_len) == 0;
	elf_end(elf);
	if (ok)
		return fd;
fail:
	close(fd);
	return -1;
}

/*
 * Write src's ELF file to fd with its compressed .debug_* sections
 * inflated, every other section, header and program header as it is:
 * 0, or -1.
 */
static int
write_copy(Elf *src, int fd)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx, phnum, i;
	uint64_t off;
	GElf_Ehdr eh;
	Elf *out;
	int ret = -1;

	if (gelf_getehdr(src, &eh) == NULL || elf_getphdrnum(src, &phnum) != 0 ||
	    elf_getshdrstrndx(src, &shstrndx) != 0)
		return -1;
	out = elf_begin(fd, ELF_C_WRITE, NULL);
	if (out == NULL || gelf_newehdr(out, gelf_getclass(src)) == NULL)
		goto out;
	/* the layout is ours: sections in order, each at its alignment */
	elf_flagelf(out, ELF_C_SET, ELF_F_LAYOUT);
	off = eh.e_ehsize;
	if (phnum > 0) {
		if (gelf_newphdr(out, phnum) == NULL)
			goto out;
		for (i = 0; i < phnum; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(src, (int)i, &ph) == NULL ||
			    gelf_update_phdr(out, (int)i, &ph) == 0)
				goto out;
		}
		off = BT_MAX(off, eh.e_phoff + (uint64_t)phnum * eh.e_phentsize);
	}
	while ((scn = elf_nextscn(src, scn)) != NULL) {
		Elf_Scn *oscn = elf_newscn(out);
		Elf_Data *d, *od;
		GElf_Shdr sh;
		uint64_t align;

		if (oscn == NULL || gelf_getshdr(scn, &sh) == NULL)
			goto out;
		if ((sh.sh_flags & SHF_COMPRESSED) && debug_section(src, shstrndx, &sh)) {
			if (elf_compress(scn, 0, 0) < 0 || gelf_getshdr(scn, &sh) == NULL)
				goto out;
		}
		align = sh.sh_addralign > 1 ? sh.sh_addralign : 1;
		off = (off + align - 1) / align * align;
		sh.sh_offset = off;
		if (sh.sh_type != SHT_NOBITS && sh.sh_size > 0) {
			d = elf_getdata(scn, NULL);
			od = elf_newdata(oscn);
			if (d == NULL || od == NULL || d->d_size != sh.sh_size)
				goto out;
			od->d_buf = d->d_buf;
			od->d_type = d->d_type;
			od->d_size = d->d_size;
			od->d_off = 0;
			od->d_align = d->d_align;
			od->d_version = d->d_version;
			off += sh.sh_size;
		}
		if (gelf_update_shdr(oscn, &sh) == 0)
			goto out;
	}
	eh.e_shoff = (off + 7) / 8 * 8;
	eh.e_shnum = 0;		/* libelf counts them */
	if (gelf_update_ehdr(out, &eh) == 0 || elf_update(out, ELF_C_WRITE) < 0)
		goto out;
	ret = 0;
out:
	elf_end(out);
	return ret;
}

/* One file of the cache directory, for the trim. */
struct dc_entry {
	char *name;
	uint64_t size;
	struct timespec used;
};

static int
entry_cmp(const void *a, const void *b)
{
	const struct dc_entry *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * Make room for a file of size bytes: the least recently used copies
 * (their modification time, set at each use) removed until the directory
 * holds at most DC_MAX_TOTAL with it. False when even alone it is too
 * large.
 */
static bool
trim(const char *dir, uint64_t size)
{
	BT_VEC(struct dc_entry) v = { NULL, 0, 0 };
	uint64_t total = size;
	struct dirent *e;
	size_t i;
	DIR *d;

	if (size > DC_MAX_TOTAL)
		return false;
	d = opendir(dir);
	if (d == NULL)
		return true;
	while ((e = readdir(d)) != NULL) {
		struct dc_entry ent;
		struct stat st;
		size_t len = strlen(e->d_name);

		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		/* a copy left half-written by a process killed a day ago */
		if (strncmp(e->d_name, ".debug.", 7) == 0 &&
		    st.st_mtim.tv_sec + 86400 < time(NULL)) {
			unlinkat(dirfd(d), e->d_name, 0);
			continue;
		}
		if (len < 7 || strcmp(e->d_name + len - 6, ".debug") != 0)
			continue;
		ent.name = bt_xstrdup(e->d_name);
		ent.size = (uint64_t)st.st_size;
		ent.used = st.st_mtim;
		total += ent.size;
		BT_VEC_PUSH(v, ent);
	}
	if (total > DC_MAX_TOTAL && v.n > 0)
		qsort(v.v, v.n, sizeof(v.v[0]), entry_cmp);
	for (i = 0; i < v.n; i++) {
		if (total > DC_MAX_TOTAL && unlinkat(dirfd(d), v.v[i].name, 0) == 0)
			total -= v.v[i].size;
		free(v.v[i].name);
	}
	BT_VEC_FREE(v);
	closedir(d);
	return true;
}

/* The copy's path: <cache>/debug/<build-id>.debug, its directory in *dir. */
static char *
entry_path(const uint8_t *id, size_t id_len, char **dir)
{
	char *base = bt_user_cache_dir(), *path, hex[2 * 64 + 1];
	size_t i;

	if (base == NULL)
		return NULL;
	*dir = bt_xasprintf("%s/debug", base);
	for (i = 0; i < id_len; i++)
		sprintf(hex + 2 * i, "%02" PRIx8, id[i]);
	path = bt_xasprintf("%s/%s.debug", *dir, hex);
	free(base);
	return path;
}

int
msyms_debug_cache_open(struct bt_msyms *m, int fd, const uint8_t *id, size_t id_len)
{
	char *dir = NULL, *path;
	struct stat st;
	bool worth;
	Elf *elf;
	int cfd;

	if (fd < 0 || id_len < 3 || id_len > sizeof(m->debug_id) || fstat(fd, &st) < 0 ||
	    !S_ISREG(st.st_mode))
		return fd;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	worth = worth_caching(elf);
	elf_end(elf);
	if (!worth || (path = entry_path(id, id_len, &dir)) == NULL)
		return fd;
	cfd = open_entry(path, &st, id, id_len);
	if (cfd >= 0) {
		/* used now: the trim keeps the recently used */
		futimens(cfd, NULL);
		close(fd);
		fd = cfd;
		m->debug_cached = true;
	} else {
		m->debug_to_copy = true;
		memcpy(m->debug_id, id, id_len);
		m->debug_id_len = id_len;
		m->debug_size = st.st_size;
		m->debug_mtime = st.st_mtim;
	}
	free(path);
	free(dir);
	return fd;
}

void
msyms_debug_cache_write(struct bt_msyms *m, Dwarf *dw)
{
	struct dc_trailer t;
	struct stat out;
	char *dir = NULL, *path, *tmp, *slash;
	Elf *elf = dwarf_getelf(dw);
	int fd, made;

	if (!m->debug_to_copy || m->split_units || elf == NULL)
		return;
	m->debug_to_copy = false;
	path = entry_path(m->debug_id, m->debug_id_len, &dir);
	if (path == NULL)
		return;
	tmp = NULL;
	fd = -1;
	/* benchtui/ first: with its parent, as many as bt_private_dir makes */
	slash = strrchr(dir, '/');
	*slash = '\0';
	made = bt_private_dir(dir);
	*slash = '/';
	if (made < 0 || bt_private_dir(dir) < 0 || !trim(dir, (uint64_t)m->debug_size))
		goto out;
	tmp = bt_xasprintf("%s/.debug.XXXXXX", dir);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		goto out;
	fchmod(fd, 0600);
	if (write_copy(elf, fd) < 0 || fstat(fd, &out) < 0)
		goto out;
	memset(&t, 0, sizeof(t));
	memcpy(t.magic, DC_MAGIC, sizeof(t.magic));
	t.elf_size = (uint64_t)out.st_size;
	t.src_size = (uint64_t)m->debug_size;
	t.src_sec = (int64_t)m->debug_mtime.tv_sec;
	t.src_nsec = (int64_t)m->debug_mtime.tv_nsec;
	if (pwrite(fd, &t, sizeof(t), out.st_size) != (ssize_t)sizeof(t))
		goto out;
	if (close(fd) < 0) {
		fd = -1;
		goto out;
	}
	fd = -1;
	if (rename(tmp, path) == 0) {
		free(tmp);
		tmp = NULL;
	}
out:
	if (fd >= 0)
		close(fd);
	if (tmp != NULL) {
		unlink(tmp);
		free(tmp);
	}
	free(path);
	free(dir);
}
