/*
 * For the matching tests and tools (issue 28): the annotation of a named
 * function of a binary, without a recording (no samples), or of a
 * recording's function (with its samples).
 */
#ifndef BENCHTUI_TEST_ANNOFILE_H
#define BENCHTUI_TEST_ANNOFILE_H

struct bt_annotation;
struct bt_selection;

/*
 * A binary opened for annotating: path's symbols and a decoder; NULL if
 * it cannot be opened.
 */
struct annofile;
struct annofile *annofile_open(const char *path);
void annofile_close(struct annofile *f);
/* The function named name (the symbol's name), NULL if none: free it. */
struct bt_annotation *annofile_func(struct annofile *f, const char *name);
/* Every sized function symbol's name (in the file's order): count, *names borrowed. */
size_t annofile_names(struct annofile *f, const char *const **names);

#endif
