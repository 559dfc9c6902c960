/*
 * Search patterns: POSIX extended regular expressions, smart case
 * (pattern.h).
 */
#include <ctype.h>
#include <string.h>

#include "base.h"
#include "pattern.h"

int
bt_pattern_compile(regex_t *re, const char *pattern, struct bt_error *err)
{
	int flags = REG_EXTENDED | REG_NOSUB, rc;
	const unsigned char *p;
	regex_t tmp;
	char why[256];

	/* smart case: a pattern with no upper-case letter ignores case */
	for (p = (const unsigned char *)pattern; *p && !isupper(*p); p++)
		;
	if (*p == '\0')
		flags |= REG_ICASE;
	if ((rc = regcomp(&tmp, pattern, flags)) != 0) {
		regerror(rc, &tmp, why, sizeof(why));
		regfree(&tmp);
		return bt_error_set(err, BT_EINVAL, "invalid regular expression '%s': %s",
		    pattern, why);
	}
	*re = tmp;
	return 0;
}

void
bt_pattern_release(regex_t *re)
{
	regfree(re);
}

bool
bt_pattern_match(const regex_t *re, const char *s)
{
	return s != NULL && regexec(re, s, 0, NULL, 0) == 0;
}
