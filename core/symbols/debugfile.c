/*
 * Finding a module's separate debug file without opening anything that is
 * not one: libdwfl's find_debuginfo callback. libdwfl's own
 * (dwfl_standard_find_debuginfo) opens each candidate path with a plain
 * open(): a FIFO put there blocks it, a device is opened. This is the same
 * search, in the same order, with each candidate checked before it is
 * opened as a module path is (bt_open_recorded: links resolved, a regular
 * file outside /proc, /sys and /dev, opened O_NOFOLLOW | O_NONBLOCK and
 * checked again). Candidates refused are kept as notes.
 *
 * Ported from elfutils 0.188 (libdwfl/find-debuginfo.c,
 * dwfl_build_id_find_debuginfo.c, dwfl_build_id_find_elf.c): first by
 * build-id (DIR/.build-id/xx/yyyy.debug for each absolute DIR of the
 * debuginfo path), then the .gnu_debuglink name (or MODULE.debug) in the
 * module's directory, its .debug/ subdirectory and DIR/<module's
 * directory>, checked by build-id when the module has one, else by the
 * link's CRC; again with the module's path resolved when it is a link.
 * The same callback finds a dwz file (.gnu_debugaltlink), checked by its
 * build-id. Found nowhere, debuginfod is asked as libdwfl asks it (its
 * client, when DEBUGINFOD_URLS names a server), and what it gives must be
 * a regular file.
 */
#include <dlfcn.h>
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>

#include "symbols/dwfl-int.h"

/* One search: what the file must be, and the module's main file. */
struct search {
	struct bt_msyms *m;
	Dwfl_Module *mod;
	bool alt;			/* looking for the dwz file */
	const uint8_t *id;		/* build-id the file must carry, or NULL */
	size_t id_len;
	GElf_Word crc;			/* the debuglink's, when there is no build-id */
	const char *what;		/* "build-id", ".gnu_debuglink"... for notes */
};

/* Is the CRC-32 of fd's file (.gnu_debuglink's: zlib's, gdb's) want? */
static bool
crc_matches(int fd, GElf_Word want)
{
	uint32_t table[256], crc = 0xffffffffu;
	uint8_t buf[65536];
	off_t off = 0;
	ssize_t n, i;

	for (i = 0; i < 256; i++) {
		uint32_t c = (uint32_t)i;
		int k;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	while ((n = pread(fd, buf, sizeof(buf), off)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
		for (i = 0; i < n; i++)
			crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
		off += n;
	}
	return ~crc == want;
}

/* Does the ELF file fd carry the build-id s wants (or, with none, the CRC)? */
static bool
valid(const struct search *s, int fd, bool check)
{
	const void *id;
	ssize_t n;
	Elf *elf;
	bool ok;

	if (s->id == NULL)
		return !check || crc_matches(fd, s->crc);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	n = elf == NULL ? -1 : dwelf_elf_gnu_build_id(elf, &id);
	ok = n > 0 && (size_t)n == s->id_len && memcmp(id, s->id, s->id_len) == 0;
	elf_end(elf);
	return ok;
}

/* Keep a note on a candidate not opened (once each). */
static void
refused(const struct search *s, const char *path, int err)
{
	const char *kind = "not a regular file";
	char *note, *target = NULL;
	struct stat st;
	size_t i;

	if (stat(path, &st) == 0) {
		if (S_ISFIFO(st.st_mode))
			kind = "a FIFO";
		else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
			kind = "a device";
		else if (S_ISSOCK(st.st_mode))
			kind = "a socket";
		else if (err == -EXDEV)
			kind = "a kernel file (/proc, /sys, /dev)";
	}
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		target = realpath(path, NULL);
	note = bt_xasprintf("'%s' (%s%s%s) is %s%s%s%s: not opened", path,
	    s->alt ? "the dwz file of '" : "a debug file of '", s->m->info.path,
	    s->alt ? "'" : s->what, kind, target ? ", a link to '" : "",
	    target ? target : "", target ? "'" : "");
	free(target);
	for (i = 0; i < s->m->debug_notes.n; i++)
		if (strcmp(s->m->debug_notes.v[i], note) == 0) {
			free(note);
			return;
		}
	BT_VEC_PUSH(s->m->debug_notes, note);
}

/*
 * Open [DIR/][SUBDIR/]FILE if it is a regular file other than the module's
 * own: the fd (*name its malloc'ed path), or -errno (-ENOENT also for a
 * file refused or the module's file by another name).
 */
static int
try_open(const struct search *s, const char *dir, const char *subdir,
	 const char *file, char **name)
{
	struct stat st;
	char *path;
	int fd;

	if (dir == NULL && subdir == NULL)
		path = bt_xstrdup(file);
	else if (subdir == NULL)
		path = bt_xasprintf("%s/%s", dir, file);
	else if (dir == NULL)
		path = bt_xasprintf("%s/%s", subdir, file);
	else
		path = bt_xasprintf("%s/%s/%s", dir, subdir, file);
	fd = bt_open_recorded(path);
	if (fd == -EINVAL || fd == -EXDEV) {
		refused(s, path, fd);
		fd = -ENOENT;
	} else if (fd == -EISDIR)	/* libdw opens it, then finds no ELF */
		fd = -ENOENT;
	if (fd >= 0 && fstat(fd, &st) == 0 && s->m->main_ino != 0 &&
	    st.st_ino == s->m->main_ino && st.st_dev == s->m->main_dev) {
		close(fd);
		fd = -ENOENT;
	}
	if (fd < 0)
		free(path);
	else
		*name = path;
	return fd;
}

/*
 * DIR/.build-id/xx/yyyy.debug for each absolute DIR of the path, the first
 * one there: the fd if it is the file wanted; -1, and *err an error other
 * than "found nothing" (which ends the search, as in libdwfl).
 */
static int
by_build_id(struct search *s, const char *dirs, char **name, int *err)
{
	char *path = bt_xstrdup(dirs), *p = path, *dir, *id_name;
	int fd = -ENOENT;
	size_t i;

	*err = 0;
	if (s->id_len < 3 || s->id_len > 64) {
		free(path);
		return -1;
	}
	id_name = bt_xcalloc(1, sizeof("/.build-id/") + 3 + 2 * s->id_len + sizeof(".debug"));
	sprintf(id_name, "/.build-id/%02" PRIx8 "/", s->id[0]);
	for (i = 1; i < s->id_len; i++)
		sprintf(id_name + strlen(id_name), "%02" PRIx8, s->id[i]);
	strcat(id_name, ".debug");
	s->what = "' by its build-id";
	while (fd < 0 && (dir = strsep(&p, ":")) != NULL) {
		char *cand = NULL;
		if (dir[0] == '+' || dir[0] == '-')
			dir++;
		if (dir[0] != '/')
			continue;
		fd = try_open(s, dir, NULL, id_name + 1, &cand);
		if (fd >= 0) {
			/* libdwfl names it by its resolved path */
			*name = realpath(cand, NULL);
			if (*name == NULL)
				*name = cand;
			else
				free(cand);
		}
	}
	free(id_name);
	free(path);
	if (fd < 0) {
		*err = fd == -ENOENT ? 0 : -fd;
		return -1;
	}
	if (valid(s, fd, true))
		return fd;
	close(fd);
	free(*name);
	*name = NULL;
	return -1;
}

/* find_debuginfo_in_path of libdwfl: -1, and *err when the search must end. */
static int
in_path(struct search *s, const char *dirs, const char *file_name,
	const char *debuglink, bool cancheck, char **name, int *err)
{
	const char *base = NULL;
	char *localname = NULL, *file_dir = NULL, *path, *list, *p;
	bool link_null = debuglink == NULL, defcheck = true;
	int fd = -1;

	*err = 0;
	if (file_name != NULL) {
		base = strrchr(file_name, '/');
		base = base ? base + 1 : file_name;
	}
	if (link_null) {
		if (base == NULL || s->alt)
			return -1;
		localname = bt_xasprintf("%s.debug", base);
		debuglink = localname;
		cancheck = false;
	}
	s->what = link_null ? "' by its name" : "' by its .gnu_debuglink";
	if (base != file_name)
		file_dir = bt_xstrndup(file_name, (size_t)(base - 1 - file_name));
	path = list = bt_xstrdup(dirs);
	if (list[0] == '-' || list[0] == '+')
		defcheck = *list++ == '+';
	while ((p = strsep(&list, ":")) != NULL) {
		const char *dir, *subdir, *file;
		bool check = defcheck, try_base;
		char *fname = NULL;

		if (*p == '+' || *p == '-')
			check = *p++ == '+';
		check = check && cancheck;
		switch (p[0]) {
		case '\0':
			/* the module's own directory */
			dir = file_dir;
			subdir = NULL;
			file = debuglink;
			try_base = false;
			break;
		case '/':
			/* DIR/<the module's directory>, then its parents' tails */
			if (!s->alt && (file_dir == NULL || file_dir[0] != '/'))
				continue;
			dir = p;
			if (!s->alt) {
				subdir = file_dir;
explore:
				subdir = strchr(subdir, '/');
				if (subdir != NULL)
					subdir++;
				if (subdir != NULL && *subdir == '\0')
					continue;
				file = debuglink;
			} else {
				subdir = NULL;
				file = strrchr(debuglink, '/') ? strrchr(debuglink, '/') + 1 : debuglink;
			}
			try_base = link_null;
			break;
		default:
			/* a subdirectory (.debug) of the module's directory */
			dir = file_dir;
			subdir = p;
			file = debuglink;
			try_base = link_null;
			break;
		}
		fd = try_open(s, dir, subdir, file, &fname);
		if (fd < 0 && try_base)
			fd = try_open(s, dir, subdir, base, &fname);
		if (fd < 0) {
			if (fd != -ENOENT && fd != -ENOTDIR) {
				*err = -fd;
				break;
			}
			if (s->alt && (p[0] == '\0' || p[0] == '/')) {
				const char *b = strrchr(file, '/');
				fd = try_open(s, dir, ".dwz", b ? b + 1 : file, &fname);
				if (fd < 0) {
					if (fd != -ENOENT && fd != -ENOTDIR) {
						*err = -fd;
						break;
					}
					continue;
				}
			} else if (!s->alt && subdir != NULL) {
				goto explore;
			} else {
				continue;
			}
		}
		if (valid(s, fd, check)) {
			*name = fname;
			break;
		}
		free(fname);
		close(fd);
		fd = -1;
	}
	free(path);
	free(file_dir);
	free(localname);
	return fd < 0 ? -1 : fd;
}

/*
 * debuginfod's file for build-id id, as libdwfl asks for it
 * (debuginfod-client.c): the Dwfl's client, libdebuginfod loaded by
 * libdwfl. Asked only when DEBUGINFOD_URLS names a server: without one
 * the client looks at nothing, not even its cache. The fd, or -1.
 */
static int
from_debuginfod(struct search *s, const uint8_t *id, size_t id_len)
{
	typedef int find_fn(debuginfod_client *, const unsigned char *, int, char **);
	static find_fn *find;
	static bool looked;
	const char *urls = secure_getenv("DEBUGINFOD_URLS");
	debuginfod_client *c;
	struct stat st;
	int fd;

	if (id_len == 0 || urls == NULL || urls[0] == '\0')
		return -1;
	c = dwfl_get_debuginfod_client(s->m->dwfl);
	if (c == NULL)
		return -1;
	if (!looked) {
		void *so = dlopen("libdebuginfod.so.1", RTLD_LAZY | RTLD_NOLOAD);
		looked = true;
		if (so != NULL)
			*(void **)&find = dlsym(so, "debuginfod_find_debuginfo");
	}
	if (find == NULL || (fd = find(c, id, (int)id_len, NULL)) < 0)
		return -1;
	/* its cache's file, which it opened itself: at least no FIFO reaches libdw */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

int
msyms_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
		     Dwarf_Addr base, const char *file_name,
		     const char *debuglink, GElf_Word debuglink_crc,
		     char **debuginfo_file_name)
{
	struct bt_msyms *m = *userdata;
	const char *main_link = NULL, *dirs = msyms_debuginfo_path();
	struct search s = { .m = m, .mod = mod, .crc = debuglink_crc, .what = "'" };
	GElf_Word main_crc = 0;
	const unsigned char *bits;
	Dwarf *dw = NULL;
	Dwarf_Addr bias;
	GElf_Addr vaddr;
	Elf *elf;
	int fd = -1, err = 0, n;

	(void)modname;
	(void)base;
	if (m == NULL)
		return -1;
	/*
	 * libdwfl asks for the debug file with the main file's debuglink,
	 * and for the dwz file with the name its DWARF links to
	 */
	elf = dwfl_module_getelf(mod, &bias);
	if (elf != NULL)
		main_link = dwelf_elf_gnu_debuglink(elf, &main_crc);
	s.alt = debuglink != NULL && debuglink != main_link;
	if (s.alt) {
		const char *altname;
		const void *id;
		ssize_t len;

		/* the DWARF is loaded, so this does not come back here */
		dw = dwfl_module_getdwarf(mod, &bias);
		len = dw ? dwelf_dwarf_gnu_debugaltlink(dw, &altname, &id) : -1;
		if (len <= 0)
			return -1;
		s.id = id;
		s.id_len = (size_t)len;
	}
	/* by build-id only when the module has one, as in libdwfl */
	n = dwfl_module_build_id(mod, &bits, &vaddr);
	if (n > 0) {
		if (!s.alt) {
			s.id = bits;
			s.id_len = (size_t)n;
		}
		fd = by_build_id(&s, dirs, debuginfo_file_name, &err);
		if (fd >= 0 || err != 0)
			goto out;
	}
	fd = in_path(&s, dirs, file_name, debuglink, debuglink_crc != 0,
	    debuginfo_file_name, &err);
	if (fd < 0 && err == 0 && file_name != NULL) {
		/* a link: the debug file may be beside its target */
		char *canon = realpath(file_name, NULL);
		if (canon != NULL && strcmp(canon, file_name) != 0)
			fd = in_path(&s, dirs, canon, debuglink,
			    debuglink_crc != 0, debuginfo_file_name, &err);
		free(canon);
	}
	/* the module's build-id, or the dwz file's */
	if (fd < 0)
		fd = s.alt ? from_debuginfod(&s, s.id, s.id_len) :
		    from_debuginfod(&s, bits, n > 0 ? (size_t)n : 0);
out:
	/*
	 * No dwz file: without one set, libdw would look for it itself,
	 * opening /usr/lib/debug/.build-id/... and the link's name with a
	 * plain open(); (Dwarf *)-1 is libdw's own "looked, none"
	 * (dwarf_getalt.c, elfutils 0.188 to 0.192)
	 */
	if (fd < 0 && s.alt && dw != NULL)
		dwarf_setalt(dw, (Dwarf *)-1);
	/*
	 * Found and checked against the build-id: its copy with the DWARF
	 * inflated, made once per build-id, which libelf maps (debugcache.c;
	 * not for a dwz file). libdwfl keeps the name found here, the debug
	 * file's own.
	 */
	if (fd >= 0 && s.id != NULL && !s.alt)
		fd = msyms_debug_cache_open(m, fd, s.id, s.id_len);
	if (fd < 0) {
		/* libdwfl would open a name left here, unchecked */
		free(*debuginfo_file_name);
		*debuginfo_file_name = NULL;
		errno = err;
	}
	return fd;
}

/*
 * dwo_file as libdw 0.188 makes it a path (__libdw_filepath): as is when
 * absolute, else under dir (itself under debugdir when relative), else
 * under debugdir; NULL when there is nothing to put it under.
 */
static char *
dwo_path(const char *debugdir, const char *dir, const char *dwo_file)
{
	if (dwo_file[0] == '/')
		return bt_xstrdup(dwo_file);
	if (dir != NULL && dir[0] == '/')
		return bt_xasprintf("%s/%s", dir, dwo_file);
	if (debugdir == NULL)
		return NULL;
	if (dir != NULL)
		return bt_xasprintf("%s/%s/%s", debugdir, dir, dwo_file);
	return bt_xasprintf("%s/%s", debugdir, dwo_file);
}

/* A path libdw would open for a split unit: true unless it is there and refused. */
static bool
dwo_ok(struct search *s, char *path)
{
	struct stat st;
	int fd;
	bool ok = true;

	if (path == NULL)
		return true;
	if (lstat(path, &st) == 0) {	/* missing: libdw's open fails too */
		fd = bt_open_recorded(path);
		if (fd >= 0)
			close(fd);
		else if (fd == -EINVAL || fd == -EXDEV) {
			refused(s, path, fd);
			ok = false;
		}
	}
	free(path);
	return ok;
}

/*
 * Split DWARF (-gsplit-dwarf): libdw opens a skeleton unit's .dwo file
 * itself, with a plain open(), the first time one of its lines or DIEs
 * is asked for: first DW_AT_dwo_name beside the file the DWARF came from
 * (dwarf_path), then under DW_AT_comp_dir. Where one of those paths is
 * there and not a regular file (a FIFO, a device, a link to /proc), the
 * module's DWARF is not used at all: false, and the note says which.
 */
bool
msyms_split_units_ok(struct bt_msyms *m, Dwarf *dw, const char *dwarf_path)
{
	struct search s = { .m = m, .what = "': a split DWARF unit's .dwo file" };
	const char *slash = dwarf_path ? strrchr(dwarf_path, '/') : NULL;
	char *debugdir;
	Dwarf_Off off = 0, next;
	size_t hsize;
	uint8_t type;
	bool ok = true;

	/*
	 * A cached copy has none (debugcache.c does not cache a file that
	 * has): walking every unit's DIE would read the whole of .debug_info
	 * and .debug_abbrev
	 */
	if (m->debug_cached)
		return true;
	debugdir = slash ? bt_xstrndup(dwarf_path, (size_t)(slash - dwarf_path)) : NULL;

	while (ok && dwarf_next_unit(dw, off, &next, &hsize, NULL, NULL, NULL, &type,
	    NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Attribute name, dir;
		const char *file, *cdir;

		if (dwarf_offdie(dw, off + hsize, &cu) != NULL &&
		    (dwarf_attr(&cu, DW_AT_dwo_name, &name) != NULL ||
		    dwarf_attr(&cu, DW_AT_GNU_dwo_name, &name) != NULL) &&
		    (file = dwarf_formstring(&name)) != NULL) {
			cdir = dwarf_attr(&cu, DW_AT_comp_dir, &dir) ?
			    dwarf_formstring(&dir) : NULL;
			m->split_units = true;
			ok = dwo_ok(&s, dwo_path(debugdir, NULL, file)) &&
			    (cdir == NULL || dwo_ok(&s, dwo_path(debugdir, cdir, file)));
		}
		off = next;
	}
	free(debugdir);
	return ok;
}
