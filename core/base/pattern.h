/*
 * Search patterns as less takes them (issue 27): a POSIX extended regular
 * expression, matched ignoring case when it has no upper-case letter
 * (less's and vim's smart case).
 */
#ifndef BENCHTUI_PATTERN_H
#define BENCHTUI_PATTERN_H

#include <regex.h>
#include <stdbool.h>

#include "benchtui/benchtui.h"

/*
 * Compile pattern into re: 0, or -BT_EINVAL with err saying why
 * ("invalid regular expression '(': parentheses not balanced"), re then
 * untouched. bt_pattern_release frees a compiled one.
 */
int bt_pattern_compile(regex_t *re, const char *pattern, struct bt_error *err);
void bt_pattern_release(regex_t *re);
/* Does re match anywhere in s? (s NULL: no.) */
bool bt_pattern_match(const regex_t *re, const char *s);

#endif
