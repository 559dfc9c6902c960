/*
 * Source files inside a zip archive (srczip.c): a JDK's lib/src.zip, a
 * sources jar, given to --source-path as one of its entries.
 */
#ifndef BENCHTUI_SRCZIP_H
#define BENCHTUI_SRCZIP_H

#include <stddef.h>
#include <stdint.h>

struct bt_srczip;

/* Open a zip (a regular file) and index its entries; NULL if it is none. */
struct bt_srczip *bt_srczip_open(const char *path);
void bt_srczip_free(struct bt_srczip *z);
/*
 * The entry named name, or else the one whose name is name after a first
 * directory (JDK 9+: "java.base/java/lang/Integer.java" for
 * "java/lang/Integer.java"), stored or deflated, at most max bytes: into
 * *data (malloc'ed, one spare NUL byte after *len), its time in *mtime.
 * 0, or -BT_ENOENT (no such entry), -BT_EFORMAT (unreadable).
 */
int bt_srczip_read(struct bt_srczip *z, const char *name, size_t max,
		   char **data, size_t *len, int64_t *mtime);

#endif
