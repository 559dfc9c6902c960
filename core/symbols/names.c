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
#include <stdint.h>
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
 * Brackets as a demangled name nests them. '<' opens template arguments
 * only after a name ("Acc<", "enable_if<"), not after ')' where it
 * compares ("(sizeof (T))<(8)"), nor as "<="; '>' closes only template
 * arguments (inside parentheses it compares: "(sizeof (T))>(8)"), and
 * ')', '}', ']' close everything opened since their opener. Deeper than
 * the stack, only the depth is counted.
 */
struct nest {
	char open[64];
	size_t depth;
};

/* What s[i] does to n; returns the number of bytes it takes (1 or 2). */
static size_t
nest_step(struct nest *n, const char *s, size_t i)
{
	char c = s[i], top = n->depth && n->depth <= sizeof(n->open) ?
	    n->open[n->depth - 1] : n->depth ? '<' : '\0';
	const char *close = strchr(")}]", c);

	if (c == '<' && s[i + 1] == '=')
		return 2;
	if (c == '>' && s[i + 1] == '=' && top != '<')
		return 2;
	if (c == '<' && (i == 0 || !(s[i - 1] == '_' ||
	    (s[i - 1] >= '0' && s[i - 1] <= '9') ||
	    ((s[i - 1] | 0x20) >= 'a' && (s[i - 1] | 0x20) <= 'z'))))
		return 1;	/* a comparison */
	if (c == '<' || c == '(' || c == '{' || c == '[') {
		if (n->depth < sizeof(n->open))
			n->open[n->depth] = c;
		n->depth++;
	} else if (c == '>' && top == '<')
		n->depth--;
	else if (close != NULL && n->depth > 0) {
		char want = "({["[close - ")}]"];

		/* back to the opener: a '<' comparison inside stays no bracket */
		while (n->depth > 0 && n->depth <= sizeof(n->open) &&
		    n->open[n->depth - 1] != want)
			n->depth--;
		if (n->depth > 0)
			n->depth--;
	}
	return 1;
}

/*
 * The span [*start, *end) of the qualified name in s: after a return type,
 * before the parameters. Returns false when s has no parameter list, or
 * is no C++ name: a JIT method as the runtime wrote it ("double
 * Hot.run(int)", "System.String::Concat(string)") keeps its whole name,
 * as perf and docs/jit.md do.
 */
static bool
name_span(const char *s, size_t *start, size_t *end)
{
	size_t i, n = strlen(s), k;
	struct nest nest = { .depth = 0 };
	bool dot = false;

	*start = 0;
	for (i = 0; i < n; ) {
		char c = s[i];

		if (strncmp(s + i, "(anonymous namespace)", 21) == 0) {
			i += 21;
			continue;
		}
		if ((k = operator_len(s + i)) > 0 && (i == 0 || s[i - 1] == ':' ||
		    s[i - 1] == ' ')) {
			i += k;
			if (s[i] == ' ' && s[i + 1] == '<')
				i++;	/* "operator< <char>": its template arguments */
			continue;
		}
		if (c == '(' && nest.depth == 0) {
			/* Go's "main.(*T).M", a JS frame "fn (x.js:3)": no parameters */
			if (i == 0 || s[i - 1] == '.' || s[i - 1] == ' ')
				return false;
			/* a JVM method "Hot.run(I)D [c2 L4 #8]": the descriptor is the name */
			k = strcspn(s + i, ")");
			if (s[i + k] == ')' && strchr("VZBCSIJFDL[", s[i + k + 1]) &&
			    s[i + k + 1] != '\0' && strcspn(s + i, " ,*&<") > k)
				return false;
			if (dot)
				return false;	/* a JIT method's name, whole */
			*end = i;
			return true;
		}
		if (c == ' ' && nest.depth == 0) {
			*start = i + 1;	/* what came before was a return type */
			dot = false;
		} else if (c == '.' && nest.depth == 0)
			dot = true;
		i += nest_step(&nest, s, i);
	}
	return false;
}

const char *
bt_name_short(const char *name, bool fold_templates, char *buf, size_t len)
{
	size_t start, end, i, o = 0, k;
	struct nest nest = { .depth = 0 };
	bool folding = false;

	if (len < 8) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	if (!name_span(name, &start, &end)) {
		start = 0;
		end = strlen(name);
	}
	for (i = start; i < end && o + 6 < len; ) {
		size_t was = nest.depth, step;

		if (nest.depth == 0 && (k = operator_len(name + i)) > 8 &&
		    (i == 0 || name[i - 1] == ':' || name[i - 1] == ' ')) {
			k = BT_MIN(k, len - 1 - o);	/* an operator's < is no template */
			memcpy(buf + o, name + i, k);
			o += k;
			i += k;
			continue;
		}
		step = nest_step(&nest, name, i);
		step = BT_MIN(step, end - i);
		if (fold_templates && was == 0 && nest.depth == 1 && name[i] == '<') {
			memcpy(buf + o, "<\xe2\x80\xa6>", 5);	/* <…> */
			o += 5;
			folding = true;
		} else if (!folding) {
			memcpy(buf + o, name + i, step);
			o += step;
		} else if (nest.depth == 0)
			folding = false;
		i += step;
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

size_t
bt_name_template_spans(const char *name, size_t (*spans)[2], size_t max)
{
	struct nest nest = { .depth = 0 };
	size_t i, n = 0, k, len = strlen(name), open = SIZE_MAX;

	for (i = 0; i < len; ) {
		size_t was = nest.depth;

		if (nest.depth == 0 && (k = operator_len(name + i)) > 8 &&
		    (i == 0 || name[i - 1] == ':' || name[i - 1] == ' ')) {
			i += k;
			continue;
		}
		i += nest_step(&nest, name, i);
		if (was == 0 && nest.depth == 1 && name[i - 1] == '<')
			open = i - 1;
		else if (was > 0 && nest.depth == 0 && open != SIZE_MAX) {
			if (n < max) {
				spans[n][0] = open;
				spans[n][1] = i;
			}
			n++;
			open = SIZE_MAX;
		}
	}
	return n;
}
