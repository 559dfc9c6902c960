/*
 * benchtui query RECORDING (issue 29): the JSON export as a small JSON-RPC
 * 2.0 service on standard input and output, in the Model Context
 * Protocol's tool-call shape (initialize, tools/list, tools/call; one
 * message a line, as MCP's stdio transport). Each tool's answer is a part
 * of the JSON export of its selection, byte for byte what --export FILE
 * --format json writes there (less the layout's spaces): the export is
 * written to memory and the part cut out of it, so the two cannot differ.
 * docs/formats.md "benchtui query".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchtui/bench.h"
#include "benchtui/benchtui.h"
#include "benchtui/export.h"
#include "benchtui/selection.h"
#include "query.h"

#define JSON_DEPTH 64
#define PROTOCOL "2025-06-18"

/* A parsed JSON value: its kind, where its text is, its members. */
enum jkind { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	enum jkind kind;
	size_t start, end;	/* its text: [start, end) of the message */
	char *str;		/* J_STR: decoded */
	struct jv *kids;	/* J_ARR, J_OBJ: the values */
	char **keys;		/* J_OBJ: their keys, decoded */
	size_t n;
};

struct jp {
	const char *s;
	size_t i, len;
	int depth;
};

static void
jv_release(struct jv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		jv_release(&v->kids[i]);
		if (v->keys != NULL)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

static bool
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void
skip_ws(struct jp *p)
{
	while (p->i < p->len && is_ws(p->s[p->i]))
		p->i++;
}

static void
put_utf8(char *o, size_t *k, unsigned c)
{
	if (c < 0x80)
		o[(*k)++] = (char)c;
	else if (c < 0x800) {
		o[(*k)++] = (char)(0xc0 | c >> 6);
		o[(*k)++] = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		o[(*k)++] = (char)(0xe0 | c >> 12);
		o[(*k)++] = (char)(0x80 | (c >> 6 & 0x3f));
		o[(*k)++] = (char)(0x80 | (c & 0x3f));
	} else {
		o[(*k)++] = (char)(0xf0 | c >> 18);
		o[(*k)++] = (char)(0x80 | (c >> 12 & 0x3f));
		o[(*k)++] = (char)(0x80 | (c >> 6 & 0x3f));
		o[(*k)++] = (char)(0x80 | (c & 0x3f));
	}
}

static int
hex4(struct jp *p, unsigned *c)
{
	size_t k;

	*c = 0;
	for (k = 0; k < 4; k++, p->i++) {
		char h = p->i < p->len ? p->s[p->i] : 0;

		*c <<= 4;
		if (h >= '0' && h <= '9')
			*c |= (unsigned)(h - '0');
		else if (h >= 'a' && h <= 'f')
			*c |= (unsigned)(h - 'a' + 10);
		else if (h >= 'A' && h <= 'F')
			*c |= (unsigned)(h - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

/* A string at p->i (its opening quote), decoded into *out. */
static int
parse_str(struct jp *p, char **out)
{
	char *o = malloc(p->len - p->i + 4);
	size_t k = 0;

	if (o == NULL)
		return -1;
	for (p->i++; p->i < p->len && p->s[p->i] != '"'; ) {
		unsigned char ch = (unsigned char)p->s[p->i];
		unsigned c, lo;

		if (ch < 0x20)
			goto bad;
		if (ch != '\\') {
			o[k++] = (char)ch;
			p->i++;
			continue;
		}
		if (++p->i >= p->len)
			goto bad;
		switch (p->s[p->i++]) {
		case '"': o[k++] = '"'; break;
		case '\\': o[k++] = '\\'; break;
		case '/': o[k++] = '/'; break;
		case 'b': o[k++] = '\b'; break;
		case 'f': o[k++] = '\f'; break;
		case 'n': o[k++] = '\n'; break;
		case 'r': o[k++] = '\r'; break;
		case 't': o[k++] = '\t'; break;
		case 'u':
			if (hex4(p, &c) < 0)
				goto bad;
			if (c >= 0xd800 && c < 0xdc00 && p->i + 1 < p->len &&
			    p->s[p->i] == '\\' && p->s[p->i + 1] == 'u') {
				p->i += 2;
				if (hex4(p, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
					goto bad;
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
			}
			if (c == 0 || (c >= 0xd800 && c <= 0xdfff))	/* lone surrogate */
				goto bad;	/* names are C strings */
			put_utf8(o, &k, c);
			break;
		default:
			goto bad;
		}
	}
	if (p->i >= p->len)
		goto bad;
	p->i++;
	o[k] = '\0';
	*out = o;
	return 0;
bad:
	free(o);
	return -1;
}

static int parse_value(struct jp *p, struct jv *v);

static size_t
digits(struct jp *p)
{
	size_t k = p->i;

	while (p->i < p->len && p->s[p->i] >= '0' && p->s[p->i] <= '9')
		p->i++;
	return p->i - k;
}

/* A number as RFC 8259 writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int
parse_num(struct jp *p)
{
	size_t n;

	if (p->i < p->len && p->s[p->i] == '-')
		p->i++;
	if (p->i < p->len && p->s[p->i] == '0')
		p->i++;
	else if ((n = digits(p)) == 0)
		return -1;
	if (p->i < p->len && p->s[p->i] == '.') {
		p->i++;
		if (digits(p) == 0)
			return -1;
	}
	if (p->i < p->len && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		p->i++;
		if (p->i < p->len && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			p->i++;
		if (digits(p) == 0)
			return -1;
	}
	return 0;
}

/* The members of an array or object, after its opening bracket. */
static int
parse_members(struct jp *p, struct jv *v, bool obj)
{
	char close = obj ? '}' : ']';
	size_t alloc = 0;

	p->i++;
	skip_ws(p);
	if (p->i < p->len && p->s[p->i] == close) {
		p->i++;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		if (v->n == alloc) {
			alloc = alloc ? 2 * alloc : 8;
			v->kids = realloc(v->kids, alloc * sizeof(*v->kids));
			if (obj)
				v->keys = realloc(v->keys, alloc * sizeof(*v->keys));
			if (v->kids == NULL || (obj && v->keys == NULL))
				return -1;
		}
		skip_ws(p);
		if (obj) {
			if (p->i >= p->len || p->s[p->i] != '"' || parse_str(p, &key) < 0)
				return -1;
			skip_ws(p);
			if (p->i >= p->len || p->s[p->i] != ':') {
				free(key);
				return -1;
			}
			p->i++;
			v->keys[v->n] = key;
		}
		memset(&v->kids[v->n], 0, sizeof(v->kids[0]));
		v->n++;
		if (parse_value(p, &v->kids[v->n - 1]) < 0)
			return -1;
		skip_ws(p);
		if (p->i < p->len && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->i < p->len && p->s[p->i] == close) {
			p->i++;
			return 0;
		}
		return -1;
	}
}

static int
parse_value(struct jp *p, struct jv *v)
{
	static const char *const words[] = { "null", "true", "false" };
	size_t k;
	int ret = 0;

	skip_ws(p);
	if (p->i >= p->len || ++p->depth > JSON_DEPTH)
		return -1;
	v->start = p->i;
	switch (p->s[p->i]) {
	case '{':
	case '[':
		v->kind = p->s[p->i] == '{' ? J_OBJ : J_ARR;
		ret = parse_members(p, v, v->kind == J_OBJ);
		break;
	case '"':
		v->kind = J_STR;
		ret = parse_str(p, &v->str);
		break;
	default:
		for (k = 0; k < 3; k++)
			if (p->len - p->i >= strlen(words[k]) &&
			    memcmp(p->s + p->i, words[k], strlen(words[k])) == 0) {
				v->kind = k == 0 ? J_NULL : J_BOOL;
				p->i += strlen(words[k]);
				break;
			}
		if (k < 3)
			break;
		v->kind = J_NUM;
		ret = parse_num(p);
	}
	v->end = p->i;
	p->depth--;
	return ret;
}

/* The member key of object v, NULL if none (or v is no object). */
static const struct jv *
member(const struct jv *v, const char *key)
{
	size_t i;

	if (v == NULL || v->kind != J_OBJ)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (strcmp(v->keys[i], key) == 0)
			return &v->kids[i];
	return NULL;
}

static const char *
member_str(const struct jv *v, const char *key)
{
	const struct jv *m = member(v, key);

	return m != NULL && m->kind == J_STR ? m->str : NULL;
}

/* s as a JSON string. */
static void
put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* [start, end) of text without the spaces and newlines between tokens. */
static char *
compact(const char *text, size_t start, size_t end)
{
	char *o = malloc(end - start + 1);
	size_t i, k = 0;
	bool in = false;

	if (o == NULL)
		return NULL;
	for (i = start; i < end; i++) {
		char c = text[i];

		if (in) {
			o[k++] = c;
			if (c == '\\' && i + 1 < end)
				o[k++] = text[++i];
			else if (c == '"')
				in = false;
		} else if (c == '"') {
			in = true;
			o[k++] = c;
		} else if (!is_ws(c))
			o[k++] = c;
	}
	o[k] = '\0';
	return o;
}

static const char tools_json[] =
"{\"tools\":["
"{\"name\":\"list_benchmarks\",\"description\":\"The benchmarks the harness printed, "
"fastest first, with their times, samples and findings: the JSON export's benchmarks\","
"\"inputSchema\":{\"type\":\"object\",\"properties\":{}}},"
"{\"name\":\"hot_functions\",\"description\":\"The hot functions, hottest first, with "
"self and inclusive samples, callers and callees: the JSON export's functions, of one "
"benchmark's samples or of every sample\",\"inputSchema\":{\"type\":\"object\",\"properties\":"
"{\"benchmark\":{\"type\":\"string\",\"description\":\"a benchmark's name or unique prefix "
"(-b); none: every sample\"}}}},"
"{\"name\":\"annotate\",\"description\":\"One function's annotated instructions, hot "
"regions, source lines: the JSON export's annotations with -s FUNCTION\","
"\"inputSchema\":{\"type\":\"object\",\"properties\":{\"function\":{\"type\":\"string\","
"\"description\":\"its name, perf's short name, a unique prefix, NAME@MODULE or 0xADDR (-s)\"},"
"\"benchmark\":{\"type\":\"string\",\"description\":\"only this benchmark's samples (-b)\"}},"
"\"required\":[\"function\"]}},"
"{\"name\":\"findings\",\"description\":\"What may be wrong with the benchmark or the "
"profile (lint): the JSON export's findings\",\"inputSchema\":{\"type\":\"object\","
"\"properties\":{\"benchmark\":{\"type\":\"string\",\"description\":\"only this "
"benchmark's samples (-b)\"}}}},"
"{\"name\":\"diff\",\"description\":\"This recording compared with another (benchtui diff "
"A B): each benchmark's time and its functions' cost per op, with intervals, q-values and "
"verdicts: the JSON export of benchtui diff\",\"inputSchema\":{\"type\":\"object\","
"\"properties\":{\"baseline\":{\"type\":\"string\",\"description\":\"the old recording "
"(A), compared with this one (B)\"},\"a\":{\"type\":\"string\",\"description\":\"the old "
"recording, instead of baseline\"},\"b\":{\"type\":\"string\",\"description\":\"the new "
"recording (default: this one)\"}}}}]}";

/* A tool: the export's members it answers with, and whether it annotates. */
struct tool {
	const char *name;
	const char *keys[3];
	bool annotate;
};

static const struct tool tools[] = {
	{ "list_benchmarks", { "benchmarks", NULL }, false },
	{ "hot_functions", { "samples", "functions", NULL }, false },
	{ "annotate", { "annotations", NULL }, true },
	{ "findings", { "findings", NULL }, false },
};

/* The export of sel with eo into memory, parsed: *text malloc'ed. */
static int
export_parsed(struct bt_selection *sel, const struct bt_export_opts *eo, char **text,
	      struct jv *v, struct bt_error *err)
{
	size_t len = 0;
	FILE *f = open_memstream(text, &len);
	struct jp p;
	int ret;

	if (f == NULL)
		return bt_error_set(err, BT_EIO, "cannot write the export to memory");
	ret = bt_export(f, sel, eo, err);
	fclose(f);
	if (ret < 0)
		return ret;
	memset(v, 0, sizeof(*v));
	p.s = *text;
	p.i = 0;
	p.len = len;
	p.depth = 0;
	if (parse_value(&p, v) < 0)
		return bt_error_set(err, BT_EIO, "the JSON export does not parse");
	return 0;
}

/* The selection a tool's benchmark argument asks for (a new reference). */
static struct bt_selection *
tool_selection(struct bt_selection *sel, const char *bench, struct bt_error *err)
{
	struct bt_selection_opts so;
	long bi;

	if (bench == NULL)
		return bt_selection_ref(sel);
	bi = bt_selection_find_bench(sel, bench);
	if (bi < 0) {
		bt_error_set(err, BT_ENOENT, "benchmark '%s': %s", bench, bi == -2 ?
		    "names several benchmarks" : "no such benchmark");
		return NULL;
	}
	so = *bt_selection_opts(sel);
	so.bench = bi;
	return bt_selection_new(bt_selection_session(sel), &so, err);
}

/* The tool's answer, its members of the export, as one JSON object (malloc'ed). */
static char *
tool_answer(const struct tool *t, struct bt_selection *sel, const struct bt_export_opts *base,
	    const struct jv *args, struct bt_error *err)
{
	struct bt_export_opts eo = *base;
	struct bt_selection *tsel;
	char *text = NULL, *out = NULL;
	size_t len = 0, k;
	struct jv v;
	FILE *f;

	eo.format = BT_FORMAT_JSON;
	eo.view.whole_names = true;	/* as --export writes it */
	eo.top = 0;
	eo.all = false;
	eo.func = NULL;
	if (t->annotate && (eo.func = member_str(args, "function")) == NULL) {
		bt_error_set(err, BT_EINVAL, "annotate needs a function");
		return NULL;
	}
	tsel = tool_selection(sel, member_str(args, "benchmark"), err);
	if (tsel == NULL)
		return NULL;
	if (export_parsed(tsel, &eo, &text, &v, err) < 0) {
		bt_selection_free(tsel);
		free(text);
		return NULL;
	}
	f = open_memstream(&out, &len);
	fputc('{', f);
	for (k = 0; t->keys[k] != NULL; k++) {
		const struct jv *m = member(&v, t->keys[k]);
		char *part = m != NULL ? compact(text, m->start, m->end) : NULL;

		fprintf(f, "%s\"%s\":%s", k ? "," : "", t->keys[k], part != NULL ? part : "[]");
		free(part);
	}
	fputc('}', f);
	fclose(f);
	jv_release(&v);
	free(text);
	bt_selection_free(tsel);
	return out;
}

/*
 * The diff tool's answer: the JSON export of benchtui diff A B, A the
 * baseline (or a), B b or this recording, without the layout's spaces.
 */
static char *
diff_answer(struct query *q, const struct jv *args, struct bt_error *err)
{
	const char *a = member_str(args, "baseline"), *b = member_str(args, "b");
	char *text = NULL, *out;
	size_t len = 0;
	FILE *f;
	int ret;

	if (a == NULL)
		a = member_str(args, "a");
	if (b == NULL)
		b = q->path;
	if (a == NULL || b == NULL || q->diff == NULL) {
		bt_error_set(err, BT_EINVAL, "diff needs a baseline recording (baseline, or a and b)");
		return NULL;
	}
	if ((f = open_memstream(&text, &len)) == NULL) {
		bt_error_set(err, BT_EIO, "cannot write the export to memory");
		return NULL;
	}
	ret = q->diff(q->ctx, a, b, f, err);
	fclose(f);
	out = ret < 0 ? NULL : compact(text, 0, len);
	free(text);
	return out;
}

static void
reply_start(FILE *out, const char *id)
{
	fprintf(out, "{\"jsonrpc\":\"2.0\",\"id\":%s,", id);
}

static void
reply_error(FILE *out, const char *id, int code, const char *msg)
{
	reply_start(out, id);
	fprintf(out, "\"error\":{\"code\":%d,\"message\":", code);
	put_str(out, msg);
	fputs("}}\n", out);
}

static void
tools_call(struct query *q, const struct jv *params, const char *id, FILE *out)
{
	const char *name = member_str(params, "name");
	struct bt_error err = { 0 };
	size_t i;
	char *ans;

	if (q->sel == NULL) {
		reply_error(out, id, -32603, "no recording is open");
		return;
	}
	for (i = 0; name != NULL && i < sizeof(tools) / sizeof(tools[0]); i++)
		if (strcmp(tools[i].name, name) == 0)
			break;
	if (name != NULL && strcmp(name, "diff") == 0)
		ans = diff_answer(q, member(params, "arguments"), &err);
	else if (name == NULL || i == sizeof(tools) / sizeof(tools[0])) {
		reply_error(out, id, -32602, "unknown tool");
		return;
	} else
		ans = tool_answer(&tools[i], q->sel, q->eo, member(params, "arguments"), &err);
	reply_start(out, id);
	fputs("\"result\":{\"content\":[{\"type\":\"text\",\"text\":", out);
	put_str(out, ans != NULL ? ans : err.msg);
	fputs("}]", out);
	if (ans != NULL)
		fprintf(out, ",\"structuredContent\":%s", ans);
	fprintf(out, ",\"isError\":%s}}\n", ans != NULL ? "false" : "true");
	free(ans);
}

void
query_message(struct query *q, const char *line, size_t len, FILE *out)
{
	struct jp p = { line, 0, len, 0 };
	struct jv v = { 0 };
	const struct jv *idv;
	const char *method;
	char *id;

	if (parse_value(&p, &v) < 0 || (skip_ws(&p), p.i != len)) {
		reply_error(out, "null", -32700, "parse error");
		jv_release(&v);
		return;
	}
	idv = member(&v, "id");
	method = member_str(&v, "method");
	id = idv != NULL ? compact(line, idv->start, idv->end) : NULL;
	if (v.kind != J_OBJ || method == NULL)
		reply_error(out, id != NULL ? id : "null", -32600, "invalid request");
	else if (id == NULL)
		;	/* a notification (notifications/initialized): no reply */
	else if (strcmp(method, "initialize") == 0) {
		reply_start(out, id);
		fprintf(out, "\"result\":{\"protocolVersion\":\"%s\",\"capabilities\":"
		    "{\"tools\":{}},\"serverInfo\":{\"name\":\"benchtui\",\"version\":\"%s\"}}}\n",
		    PROTOCOL, BT_VERSION);
	} else if (strcmp(method, "ping") == 0) {
		reply_start(out, id);
		fputs("\"result\":{}}\n", out);
	} else if (strcmp(method, "tools/list") == 0) {
		reply_start(out, id);
		fprintf(out, "\"result\":%s}\n", tools_json);
	} else if (strcmp(method, "tools/call") == 0)
		tools_call(q, member(&v, "params"), id, out);
	else
		reply_error(out, id, -32601, "method not found");
	free(id);
	jv_release(&v);
}

int
query_run(struct query *q, FILE *in, FILE *out)
{
	char *line = NULL;
	size_t alloc = 0;
	ssize_t n;

	while ((n = getline(&line, &alloc, in)) > 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0)
			continue;
		query_message(q, line, (size_t)n, out);
		if (fflush(out) != 0)
			break;
	}
	free(line);
	return ferror(out) ? -1 : 0;
}
