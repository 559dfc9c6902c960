/*
 * Opening files named by a recording: regular files only, never blocking.
 * Where benchtui keeps its caches.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "base.h"

/*
 * Is st (stat's, following links) a regular file? 0, or -EISDIR/-EINVAL,
 * decided before anything is opened: opening a FIFO tells its writer that
 * a reader came, opening a device can act on it.
 */
static int
regular(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return 0;
	return S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
}

/*
 * Open path, a regular file by st, with flags added; the file opened must
 * be the one st describes (it may have been swapped in between: then
 * -EINVAL, as for anything not regular).
 */
static int
open_same(const char *path, const struct stat *st, int flags)
{
	struct stat now;
	int fd, fl;

	/* O_NONBLOCK: a FIFO put in its place since must not block the open */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | flags);
	if (fd < 0)
		return errno == ELOOP && (flags & O_NOFOLLOW) ? -EINVAL : -errno;
	if (fstat(fd, &now) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	if (!S_ISREG(now.st_mode) || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		close(fd);
		return S_ISDIR(now.st_mode) ? -EISDIR : -EINVAL;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int
bt_open_regular(const char *path)
{
	struct stat st;
	int ret;

	if (stat(path, &st) < 0)
		return -errno;
	if ((ret = regular(&st)) < 0)
		return ret;
	return open_same(path, &st, 0);
}

/* Does path name something under dir ("/proc"), "//" and "/./" folded? */
static bool
under(const char *path, const char *dir)
{
	const char *p = path;
	size_t n = strlen(dir);

	while (p[0] == '/' && (p[1] == '/' || (p[1] == '.' && (p[2] == '/' || p[2] == '\0'))))
		p += p[1] == '/' ? 1 : 2;
	return strncmp(p, dir, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

static bool
kernel_path(const char *path)
{
	return under(path, "/proc") || under(path, "/sys") || under(path, "/dev");
}

/* Is the file system of st (statfs's) one of the kernel's? */
static bool
kernel_fs(const struct statfs *fs)
{
	static const long pseudo[] = {
		0x9fa0,		/* proc */
		0x62656572,	/* sysfs */
		0x64626720,	/* debugfs */
		0x74726163,	/* tracefs */
		0x27e0eb,	/* cgroup */
		0x63677270,	/* cgroup2 */
		0xcafe4a11,	/* bpf */
		0x73636673,	/* securityfs */
	};
	size_t i;

	for (i = 0; i < BT_ARRAY_SIZE(pseudo); i++)
		if ((long)fs->f_type == pseudo[i])
			return true;
	return false;
}

/*
 * Everything is checked before the open, on the path with its links
 * resolved (realpath reads links, opens nothing): where it leads (the
 * kernel's directories), what it is (stat), the file system (statfs).
 * The open then follows no link (O_NOFOLLOW) and must find the same file.
 */
int
bt_open_recorded(const char *path)
{
	struct statfs fs;
	struct stat st;
	char *real;
	int fd;

	if (kernel_path(path))
		return -EXDEV;
	real = realpath(path, NULL);
	if (real == NULL)
		return -errno;
	if (kernel_path(real)) {
		fd = -EXDEV;
		goto out;
	}
	if (stat(real, &st) < 0) {
		fd = -errno;
		goto out;
	}
	if ((fd = regular(&st)) < 0)
		goto out;
	if (statfs(real, &fs) == 0 && kernel_fs(&fs)) {
		fd = -EXDEV;
		goto out;
	}
	fd = open_same(real, &st, O_NOFOLLOW);
	if (fd >= 0 && fstatfs(fd, &fs) == 0 && kernel_fs(&fs)) {
		close(fd);
		fd = -EXDEV;
	}
out:
	free(real);
	return fd;
}

int
bt_write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
bt_pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = pread(fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

char *
bt_user_cache_dir(void)
{
	/*
	 * secure_getenv: a benchtui given capabilities (cap_syslog shows
	 * kernel addresses) must not write them where its user reads
	 */
	const char *xdg = secure_getenv("XDG_CACHE_HOME");
	const char *home = secure_getenv("HOME");

	/* the XDG spec: a relative $XDG_CACHE_HOME is invalid, ignored */
	if (xdg != NULL && xdg[0] == '/')
		return bt_xasprintf("%s/benchtui", xdg);
	if (home != NULL && home[0] == '/')
		return bt_xasprintf("%s/.cache/benchtui", home);
	return NULL;
}

/* path (writable) a directory of ours, made if missing, up to levels parents with it. */
static int
private_dir(char *path, int levels)
{
	struct stat st;
	char *slash;
	int ret;

	if (stat(path, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
		return st.st_uid == geteuid() ? 0 : -EPERM;
	}
	if (errno != ENOENT || levels == 0)
		return -errno;
	slash = strrchr(path, '/');
	if (slash == NULL || slash == path)
		return -ENOENT;
	*slash = '\0';
	ret = private_dir(path, levels - 1);
	*slash = '/';
	if (ret < 0)
		return ret;
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return -errno;
	return private_dir(path, 0);
}

int
bt_private_dir(const char *path)
{
	char *p = bt_xstrdup(path);
	int ret = private_dir(p, 2);

	free(p);
	return ret;
}
