/*
 * Demangled names as perf and pprof print them: the qualified name without
 * its return type and parameters ("ns::Acc<int>::add", not
 * "int ns::Acc<int>::add(int) const"), and optionally with template
 * arguments folded ("ns::Acc<…>::add").
 *
 * A demangled C++ name is a return type (templates only), the qualified
 * name, the parameter list and qualifiers. Parentheses, angle brackets and
 * braces nest; "(anonymous namespace)", "{lambda(int)#1}", "operator()"
 * and "operator<" are parts of the name.
 */
#include <string.h>

#include "base.h"
#include "symbols/symbols.h"

/* Length of an operator name at s ("operator()", "operator<<=", "operator new"). */
static size_t
operator_len(const char *s)
{
	static const char *const ops[] = {
		"operator()", "operator[]", "operator<<=", "operator>>=",
		"operator<<", "operator>>", "operator<=>", "operator<=",
		"operator>=", "operator->*", "operator->", "operator<",
		"operator>", "operator delete[]", "operator new[]",
		"operator delete", "operator new",
	};
	size_t i;

	if (strncmp(s, "operator", 8) != 0)
		return 0;
	for (i = 0; i < BT_ARRAY_SIZE(ops); i++)
		if (strncmp(s, ops[i], strlen(ops[i])) == 0)
			return strlen(ops[i]);
	return 8;	/* operator+, operator int...: the rest is ordinary */
}

/*
 * The span [*start, *end) of the qualified name in s: after a return type,
 * before the parameters. Returns false when s has no parameter list.
 */
static bool
name_span(const char *s, size_t *start, size_t *end)
{
	size_t i, n = strlen(s), k;
	int depth = 0;

	*start = 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (strncmp(s + i, "(anonymous namespace)", 21) == 0) {
			i += 20;
			continue;
		}
		if ((k = operator_len(s + i)) > 0 && (i == 0 || s[i - 1] == ':' ||
		    s[i - 1] == ' ')) {
			i += k - 1;
			if (s[i + 1] == ' ' && s[i + 2] == '<')
				i++;	/* "operator< <char>": its template arguments */
			continue;
		}
		if (c == '<' || c == '{' || c == '[')
			depth++;
		else if ((c == '>' || c == '}' || c == ']') && depth > 0)
			depth--;
		else if (c == '(' && depth == 0) {
			/* Go's "main.(*T).M", a JS frame "fn (x.js:3)": no parameters */
			if (i == 0 || s[i - 1] == '.' || s[i - 1] == ' ')
				return false;
			/* a JVM method "Hot.run(I)D [c2 L4 #8]": the descriptor is the name */
			k = strcspn(s + i, ")");
			if (s[i + k] == ')' && strchr("VZBCSIJFDL[", s[i + k + 1]) &&
			    s[i + k + 1] != '\0' && strcspn(s + i, " ,*&<") > k)
				return false;
			*end = i;
			return true;
		} else if (c == '(')
			depth++;
		else if (c == ')' && depth > 0)
			depth--;
		else if (c == ' ' && depth == 0)
			*start = i + 1;	/* what came before was a return type */
	}
	return false;
}

const char *
bt_name_short(const char *name, bool fold_templates, char *buf, size_t len)
{
	size_t start, end, i, o = 0, k;
	int depth = 0;

	if (len < 8) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	if (!name_span(name, &start, &end)) {
		start = 0;
		end = strlen(name);
	}
	for (i = start; i < end && o + 6 < len; i++) {
		char c = name[i];

		if (depth == 0 && (k = operator_len(name + i)) > 8 &&
		    (i == 0 || name[i - 1] == ':' || name[i - 1] == ' ')) {
			k = BT_MIN(k, len - 1 - o);	/* an operator's < is no template */
			memcpy(buf + o, name + i, k);
			o += k;
			i += k - 1;
			continue;
		}
		if (!fold_templates || (depth == 0 && c != '<')) {
			buf[o++] = c;
			continue;
		}
		if (c == '<' && depth++ == 0) {
			memcpy(buf + o, "<\xe2\x80\xa6>", 5);	/* <…> */
			o += 5;
		} else if (c == '>')
			depth--;
	}
	/*
	 * what tells versions of JIT code apart stays: "double Hot.run(int)
	 * (version 2 at 0x7f...)" (core/machine/machine-jit.c)
	 */
	if (end < strlen(name)) {
		const char *v = strstr(name + end, " (version ");
		if (v == NULL)
			v = strstr(name + end, " (loaded ");
		if (v != NULL) {
			for (; *v && o + 1 < len; v++)
				buf[o++] = *v;
			buf[o] = '\0';
			return buf;
		}
	}
	/* a version or PLT suffix after the parameters stays: "f@plt" */
	if (end < strlen(name) && (name = strrchr(name + end, '@')) != NULL &&
	    strchr(name, ')') == NULL)
		for (; *name && o + 1 < len; name++)
			buf[o++] = *name;
	buf[o] = '\0';
	return buf;
}
