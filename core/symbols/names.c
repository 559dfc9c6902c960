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
 * Where the name goes on after the parameter list opening at s[i]: the
 * index of the "::" after it when the list is a local entity's enclosing
 * function's ("work(int)::{lambda(int)#1}::operator()(int) const",
 * clang's "work(int)::$_0::operator()(int) const": the lambda is named
 * in its function, as addr2line -f and llvm-symbolizer name it), else 0.
 */
static size_t
local_scope(const char *s, size_t i)
{
	size_t depth = 0;

	for (; s[i] != '\0'; i++)
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && --depth == 0)
			break;
	if (s[i] == '\0')
		return 0;
	for (i++; ; ) {	/* the function's qualifiers */
		if (strncmp(s + i, " const", 6) == 0)
			i += 6;
		else if (strncmp(s + i, " volatile", 9) == 0)
			i += 9;
		else if (strncmp(s + i, " &&", 3) == 0)
			i += 3;
		else if (strncmp(s + i, " &", 2) == 0)
			i += 2;
		else
			break;
	}
	return strncmp(s + i, "::", 2) == 0 ? i : 0;
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
			if ((k = local_scope(s, i)) > 0) {
				i = k;	/* the enclosing function's parameters */
				continue;
			}
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

size_t
bt_name_spans(const char *name, struct bt_name_span *sp, size_t max)
{
	struct nest nest = { .depth = 0 };
	size_t i, n = 0, k, len = strlen(name);
	size_t open[64], at[64];	/* the lists open now (innermost last), their depth */
	size_t top = 0;

	for (i = 0; i < len; ) {
		size_t was = nest.depth;

		if (nest.depth == 0 && (k = operator_len(name + i)) > 8 &&
		    (i == 0 || name[i - 1] == ':' || name[i - 1] == ' ')) {
			i += k;
			continue;
		}
		i += nest_step(&nest, name, i);
		if (nest.depth == was + 1 && name[i - 1] == '<') {
			if (n >= max || top == BT_ARRAY_SIZE(open))
				return max + 1;	/* too many, or too deep */
			sp[n].open = i - 1;
			sp[n].close = len;	/* unbalanced: to the end */
			sp[n].depth = (unsigned)top + 1;
			sp[n].parent = top ? (long)open[top - 1] : -1;
			open[top] = n++;
			at[top++] = nest.depth;
		}
		/* a '>' closes one list; a ')' may close several */
		while (top > 0 && nest.depth < at[top - 1])
			sp[open[--top]].close = i;
	}
	return n;
}

/* Columns of s[0..n) (one a character). */
static size_t
ncols(const char *s, size_t n)
{
	size_t c = 0, i;

	for (i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

void
bt_name_fold(const char *name, const struct bt_name_span *sp, size_t n,
	     const bool *fold, struct bt_strbuf *sb)
{
	size_t i, at = 0;

	for (i = 0; i < n; i++) {
		if (!fold[i] || sp[i].open < at)
			continue;	/* not folded, or inside a folded list */
		bt_strbuf_add(sb, name + at, sp[i].open - at);
		bt_strbuf_addstr(sb, "<\xe2\x80\xa6>");
		at = sp[i].close;
	}
	bt_strbuf_addstr(sb, name + at);
}

/* Is list i, or one around it, folded (or kept: whichever fold says)? */
static bool
folded_in(const struct bt_name_span *sp, const bool *fold, long i)
{
	long p;

	for (p = i; p >= 0; p = sp[p].parent)
		if (fold[p])
			return true;
	return false;
}

bool
bt_name_fit(const char *name, size_t width, const bool *keep, struct bt_strbuf *sb)
{
	size_t max = 256, n, i, cols = ncols(name, strlen(name));
	struct bt_name_span *sp;
	size_t *inner;
	bool *fold, *kept;
	unsigned depth, maxdepth = 0;
	int phase;

	if (cols <= width) {
		bt_strbuf_addstr(sb, name);
		return true;
	}
	sp = bt_xcalloc(max + 1, sizeof(*sp));
	if ((n = bt_name_spans(name, sp, max)) > max)
		n = 0;	/* past what is worth folding: cut instead */
	inner = bt_xcalloc(n + 1, sizeof(*inner));
	fold = bt_xcalloc(n + 1, sizeof(*fold));
	kept = bt_xcalloc(n + 1, sizeof(*kept));
	for (i = 0; i < n; i++) {
		maxdepth = BT_MAX(maxdepth, sp[i].depth);
		if (keep != NULL && keep[i])	/* a list kept keeps those around it */
			for (long p = (long)i; p >= 0; p = sp[p].parent)
				kept[p] = true;
	}
	/*
	 * deepest first; of one depth, the one that saves most first; what
	 * is inside a list kept (what tells it apart) last
	 */
	for (phase = 0; phase < 2; phase++)
	for (depth = maxdepth; depth > 0 && cols > width; depth--) {
		for (;;) {
			size_t best = n, save = 0, s;

			for (i = 0; i < n; i++) {
				if (sp[i].depth != depth || kept[i] || folded_in(sp, fold, (long)i) ||
				    (phase == 0 && folded_in(sp, kept, sp[i].parent)))
					continue;
				/* "<…>" is 3 columns; what lists inside saved already */
				s = ncols(name + sp[i].open, sp[i].close - sp[i].open);
				s = s > 3 + inner[i] ? s - 3 - inner[i] : 0;
				if (s > save) {
					save = s;
					best = i;
				}
			}
			if (best == n)
				break;
			fold[best] = true;
			cols -= save;
			for (long p = sp[best].parent; p >= 0; p = sp[p].parent)
				inner[p] += save;
			if (cols <= width)
				break;
		}
	}
	bt_name_fold(name, sp, n, fold, sb);
	free(sp);
	free(inner);
	free(fold);
	free(kept);
	return cols <= width;
}

/*
 * The text of node (a list of s, or all of s when node is -1) with the
 * lists directly inside it as "<>": what tells two nodes apart when
 * their lists are alike.
 */
static void
skeleton(const char *s, const struct bt_name_span *sp, size_t n, long node,
	 struct bt_strbuf *sb)
{
	size_t at = node < 0 ? 0 : sp[node].open, end = node < 0 ? strlen(s) :
	    sp[node].close, i;

	for (i = 0; i < n; i++) {
		if (sp[i].parent != node || sp[i].open < at || (long)i == node)
			continue;
		bt_strbuf_add(sb, s + at, sp[i].open - at);
		bt_strbuf_addstr(sb, "<>");
		at = sp[i].close;
	}
	bt_strbuf_add(sb, s + at, end - at);
}

/* Lists directly inside node, in order, into kids (at most max); returns how many. */
static size_t
children(const struct bt_name_span *sp, size_t n, long node, size_t *kids, size_t max)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (sp[i].parent == node && (long)i != node) {
			if (k < max)
				kids[k] = i;
			k++;
		}
	return k;
}

#define MAX_KIDS 32

static void
differ(const char *a, const struct bt_name_span *sa, size_t na, long x,
       const char *b, const struct bt_name_span *sb_, size_t nb, long y, bool *keep)
{
	struct bt_strbuf ka = BT_STRBUF_INIT, kb = BT_STRBUF_INIT;
	size_t ca[MAX_KIDS], cb[MAX_KIDS], nca, ncb, k;
	bool alike;

	nca = children(sa, na, x, ca, MAX_KIDS);
	ncb = children(sb_, nb, y, cb, MAX_KIDS);
	skeleton(a, sa, na, x, &ka);
	skeleton(b, sb_, nb, y, &kb);
	alike = nca == ncb && nca <= MAX_KIDS && ka.len == kb.len &&
	    memcmp(ka.buf, kb.buf, ka.len) == 0;
	bt_strbuf_release(&ka);
	bt_strbuf_release(&kb);
	if (!alike)
		return;	/* folded inside, they still differ */
	for (k = 0; k < nca; k++) {
		size_t la = sa[ca[k]].close - sa[ca[k]].open;
		size_t lb = sb_[cb[k]].close - sb_[cb[k]].open;

		if (la == lb && memcmp(a + sa[ca[k]].open, b + sb_[cb[k]].open, la) == 0)
			continue;
		keep[ca[k]] = true;
		differ(a, sa, na, (long)ca[k], b, sb_, nb, (long)cb[k], keep);
	}
}

void
bt_name_keep_differing(const char *a, const char *b, bool *keep, size_t max)
{
	struct bt_name_span *sa = bt_xcalloc(max + 1, sizeof(*sa));
	struct bt_name_span *sb = bt_xcalloc(max + 1, sizeof(*sb));
	size_t na = bt_name_spans(a, sa, max), nb = bt_name_spans(b, sb, max);

	if (na <= max && nb <= max)
		differ(a, sa, na, -1, b, sb, nb, -1, keep);
	free(sa);
	free(sb);
}
