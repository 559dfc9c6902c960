/*
 * unwind-dump: the user call chain of every sample of a perf.data, as
 * core/unwind makes it, for tests/test-unwind.sh and docs/callchains.md.
 *   unwind-dump FILE [OPTIONS]
 *     --mode auto|dwarf|fp|hybrid  auto: what bt_unwinder_sample() picks;
 *                       dwarf: CFI over the whole stack copy; fp: the
 *                       kernel's chain; hybrid: bt_unwind_splice()
 *     --stack N         use only the first N bytes of each stack copy
 *     --chains          per sample "TIME<TAB>ADDR:SYM ADDR:SYM ..." (link-time
 *                       addresses, return addresses minus one: perf
 *                       script's convention), leaf first
 *     --frames          per sample "TID<TAB>TIME<TAB>SYM<TAB>SYM..." (the
 *                       function names alone, as perf prints them, and
 *                       tab-separated: names with spaces), leaf first; for
 *                       tests/tools/fp-agree.py
 *     --callers FUNC    for samples whose leaf is FUNC (FUNC* a prefix):
 *                       "COUNT CALLER" per immediate caller
 *     --stats           methods, splice rules, end reasons and the rate
 *     --repeat N        unwind every sample N times (rate)
 *     --libdw           every sample through libdwfl's frame walk
 *     --sweep S1,S2...  hybrid chains with stack copies cut to S bytes
 *                       against the full DWARF chain: per leaf function,
 *                       % right immediate caller and % right chain up to main
 * A frame in JIT code (the recording's jitdumps and perf maps, as the
 * profile finds them) is "OFFSET:[jit] NAME", OFFSET in its piece of code.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base.h"
#include "machine/machine.h"
#include "perf/ordered.h"
#include "perf/perfdata.h"
#include "symbols/symbols.h"
#include "unwind/unwind.h"

enum mode { M_AUTO, M_DWARF, M_FP, M_HYBRID };

/* The recording's machine, and each module's symbols (opened on first use). */
static struct bt_modules mods;
static struct bt_machine *machine;
static BT_VEC(struct bt_msyms *) syms;
static BT_VEC(bool) tried;
static const void *vdso;
static size_t vdso_len;
/* The sample being printed: whose addresses are looked up, when. */
static uint32_t cur_pid;
static uint64_t cur_time;

/* The function at runtime address a of the current sample, and its link-time address. */
static const char *
symbolize(uint64_t a, uint64_t *link)
{
	const struct bt_map *m = bt_machine_find(machine, cur_pid, a, cur_time);
	const struct bt_module *mo;
	static char jit[4096];
	const char *path;
	struct bt_func_sym fs;
	uint32_t module;
	uint64_t la;

	*link = a;
	if (m == NULL || m->anon) {
		bt_machine_resolve_frame(machine, cur_pid, a, cur_time, &module, &la);
		mo = bt_machine_module(machine, module);
		if (mo->kind != BT_MOD_JIT)
			return "[unknown]";
		*link = la - mo->off_lo;
		snprintf(jit, sizeof(jit), "[jit] %s", mo->jit_name);
		return jit;
	}
	while (syms.n <= m->module) {
		BT_VEC_PUSH(syms, NULL);
		BT_VEC_PUSH(tried, false);
	}
	if (!tried.v[m->module]) {
		tried.v[m->module] = true;
		path = bt_machine_module(machine, m->module)->path;
		if (strcmp(path, "[vdso]") == 0)
			syms.v[m->module] = vdso ? bt_msyms_open("[vdso]", vdso, vdso_len,
			    NULL) : NULL;
		else
			syms.v[m->module] = bt_msyms_open(path, NULL, 0, NULL);
	}
	if (syms.v[m->module] == NULL || bt_msyms_off_to_addr(syms.v[m->module],
	    a - m->start + m->pgoff, &la) != 0)
		return "[unknown]";
	*link = la;
	return bt_msyms_func(syms.v[m->module], la, &fs) == 0 ? fs.name : "[unknown]";
}

static const char *
frame_sym(const uint64_t *ips, size_t i, uint64_t *link)
{
	return symbolize(i ? ips[i] - 1 : ips[i], link);
}

static int
unwind_one(struct bt_unwinder *u, const struct bt_perf_layout *l,
	   const struct bt_pd_event *ev, enum mode mode, long stack,
	   uint64_t *ips, size_t max, struct bt_unwind_result *res)
{
	struct bt_error err = { 0 };
	struct bt_unwind_regs r;
	struct bt_callchain cc;
	uint64_t regbuf[64], chain[BT_UNWIND_MAX_FRAMES * 2 + 8];
	const struct bt_perf_sample *s = &ev->sample;
	size_t i, n = 0;
	int ret;

	if (mode == M_AUTO && stack < 0)
		return bt_unwinder_sample(u, l, ev, ips, max, NULL, res, &err);
	memset(res, 0, sizeof(*res));
	if (BT_PF_HAS(s, BT_PF_CALLCHAIN))
		for (i = 0; i < s->callchain.n && n < BT_ARRAY_SIZE(chain); i++)
			chain[n++] = bt_perf_u64(&s->callchain, s->swapped, i);
	bt_callchain_split(chain, n, &cc);
	ret = bt_unwind_regs_from_sample(&r, l, s, regbuf);
	if (stack >= 0 && ret == 0)
		r.stack_size = BT_MIN(r.stack_size, (size_t)stack);
	if (mode == M_FP || (ret != 0 && mode == M_AUTO)) {
		res->n = BT_MIN(cc.nuser, max);
		if (res->n)
			memcpy(ips, cc.user, res->n * sizeof(*ips));
		return (int)res->n;
	}
	if (ret != 0)
		return 0;
	if (mode == M_DWARF || (mode == M_AUTO && cc.nuser == 0))
		return bt_unwind_dwarf(bt_unwinder_space(u, s->pid), &r, ips, max, res, &err);
	return bt_unwind_splice(bt_unwinder_space(u, s->pid), &r, cc.user, cc.nuser,
	    ips, max, res, &err);
}

/* Per leaf function, for --sweep. */
struct leafstat {
	char *name;
	uint64_t n;
	uint64_t caller_ok[16], chain_ok[16];
};
static BT_VEC(struct leafstat) leaves;

static struct leafstat *
leaf_stat(const char *name)
{
	struct leafstat z;
	size_t i;

	for (i = 0; i < leaves.n; i++)
		if (strcmp(leaves.v[i].name, name) == 0)
			return &leaves.v[i];
	memset(&z, 0, sizeof(z));
	z.name = bt_xstrdup(name);
	BT_VEC_PUSH(leaves, z);
	return &leaves.v[leaves.n - 1];
}

/* Frames of chain a equal to truth t up to the first frame in main (all, if none). */
static bool
chain_right(const uint64_t *t, size_t nt, const uint64_t *a, size_t na)
{
	size_t i, upto = nt;
	uint64_t link;

	for (i = 0; i < nt; i++)
		if (strcmp(frame_sym(t, i, &link), "main") == 0) {
			upto = i + 1;
			break;
		}
	if (na < upto)
		return false;
	for (i = 0; i < upto; i++)
		if (t[i] != a[i])
			return false;
	return true;
}

struct caller {
	char *name;
	uint64_t n;
};

/* What the dump was asked for, and what it counted. */
struct dump {
	struct bt_pd_reader *rd;
	struct bt_unwinder *u;
	enum mode mode;
	long stack;
	bool chains, frames;
	const char *callers;
	long sizes[16];
	size_t nsizes;
	bool again;		/* a repeat: unwound and counted, not printed */
	bool stats, libdw;
	int repeat;
	uint64_t nsamples, nframes, splice[8], end[8], skipped;
	double t_unwind;
	BT_VEC(struct caller) cl;
};

/* For --callers: the immediate caller of a sample whose leaf matches. */
static void
count_caller(struct dump *d, const uint64_t *ips, int n)
{
	uint64_t link;
	const char *leaf = frame_sym(ips, 0, &link), *c;
	size_t len = strlen(d->callers), k;
	bool match = d->callers[len - 1] == '*' ?
	    strncmp(leaf, d->callers, len - 1) == 0 : strcmp(leaf, d->callers) == 0;

	if (!match)
		return;
	c = n >= 2 ? frame_sym(ips, 1, &link) : "(none)";
	for (k = 0; k < d->cl.n && strcmp(d->cl.v[k].name, c); k++)
		;
	if (k == d->cl.n) {
		struct caller z = { bt_xstrdup(c), 0 };
		BT_VEC_PUSH(d->cl, z);
	}
	d->cl.v[k].n++;
}

/* For --sweep: hybrid chains of each stack size against the full DWARF one. */
static void
sweep(struct dump *d, const struct bt_perf_layout *l, const struct bt_pd_event *ev)
{
	uint64_t t[BT_UNWIND_MAX_FRAMES], h[BT_UNWIND_MAX_FRAMES], link;
	struct bt_unwind_result tr, hr;
	int nt = unwind_one(d->u, l, ev, M_DWARF, -1, t, BT_ARRAY_SIZE(t), &tr);
	struct leafstat *ls;
	size_t k;

	if (nt < 2)
		return;
	ls = leaf_stat(frame_sym(t, 0, &link));
	ls->n++;
	for (k = 0; k < d->nsizes; k++) {
		int nh = unwind_one(d->u, l, ev, M_HYBRID, d->sizes[k], h,
		    BT_ARRAY_SIZE(h), &hr);
		if (nh >= 2 && h[1] == t[1])
			ls->caller_ok[k]++;
		if (nh > 0 && chain_right(t, (size_t)nt, h, (size_t)nh))
			ls->chain_ok[k]++;
	}
}

/* A sample of the stream: unwound, counted, printed as asked. */
static int
take(void *arg, const struct bt_pd_event *ev, struct bt_error *err)
{
	struct dump *d = arg;
	uint64_t ips[BT_UNWIND_MAX_FRAMES], link;
	const struct bt_perf_layout *l;
	struct bt_unwind_result res;
	double t0;
	size_t k;
	int n;

	if (ev->attr < 0)
		return 0;
	l = bt_pd_layout(d->rd, (size_t)ev->attr);
	cur_pid = ev->sample.pid;
	cur_time = ev->sample.time;
	t0 = bt_now();
	n = unwind_one(d->u, l, ev, d->mode, d->stack, ips, BT_ARRAY_SIZE(ips), &res);
	d->t_unwind += bt_now() - t0;
	if (n < 0)
		n = 0;
	d->nsamples++;
	d->nframes += (uint64_t)n;
	d->splice[res.splice]++;
	d->end[res.end]++;
	d->skipped += res.fp_skipped ? 1 : 0;
	if (d->again)
		return 0;
	if (d->chains) {
		printf("%" PRIu64 ".%09" PRIu64 "\t", ev->sample.time / 1000000000,
		    ev->sample.time % 1000000000);
		for (k = 0; k < (size_t)n; k++) {
			const char *sym = frame_sym(ips, k, &link);
			printf("%s%" PRIx64 ":%s", k ? " " : "", link, sym);
		}
		printf("\n");
	}
	if (d->frames) {
		printf("%u\t%" PRIu64 ".%09" PRIu64, ev->sample.tid,
		    ev->sample.time / 1000000000, ev->sample.time % 1000000000);
		for (k = 0; k < (size_t)n; k++) {
			char buf[4096];
			const char *sym = frame_sym(ips, k, &link);

			/* C++ names as perf prints them (no parameters) */
			printf("\t%s", strncmp(sym, "[jit] ", 6) == 0 ? sym :
			    bt_name_short(sym, false, buf, sizeof(buf)));
		}
		printf("\n");
	}
	if (d->callers && n >= 1)
		count_caller(d, ips, n);
	if (d->nsizes && BT_PF_HAS(&ev->sample, BT_PF_STACK_USER))
		sweep(d, l, ev);
	return 0;
}

static bool
read_side(void *arg, struct bt_pd_event *ev, uint32_t *tag)
{
	return bt_machine_read(machine, ev, tag);
}

static void
apply_side(void *arg, const struct bt_pd_event *ev, uint32_t tag)
{
	bt_machine_apply(machine, ev, tag);
}

static const struct bt_ordered_ops dump_ops = {
	.read = read_side,
	.sideband = apply_side,
	.sample = take,
};

/* The options after FILE. */
static void
options(struct dump *d, int argc, char **argv)
{
	size_t i;

	for (i = 2; i < (size_t)argc; i++) {
		const char *a = argv[i], *v = i + 1 < (size_t)argc ? argv[i + 1] : "";
		if (strcmp(a, "--mode") == 0) {
			d->mode = strcmp(v, "dwarf") == 0 ? M_DWARF : strcmp(v, "fp") == 0 ? M_FP :
			    strcmp(v, "hybrid") == 0 ? M_HYBRID : M_AUTO;
			i++;
		} else if (strcmp(a, "--stack") == 0) {
			d->stack = atol(v);
			i++;
		} else if (strcmp(a, "--chains") == 0) {
			d->chains = true;
		} else if (strcmp(a, "--frames") == 0) {
			d->frames = true;
		} else if (strcmp(a, "--callers") == 0) {
			d->callers = v;
			i++;
		} else if (strcmp(a, "--libdw") == 0) {
			d->libdw = true;
		} else if (strcmp(a, "--stats") == 0) {
			d->stats = true;
		} else if (strcmp(a, "--repeat") == 0) {
			d->repeat = atoi(v);
			i++;
		} else if (strcmp(a, "--sweep") == 0) {
			char *p = (char *)v;
			while (*p && d->nsizes < 16) {
				d->sizes[d->nsizes++] = strtol(p, &p, 10);
				if (*p == ',')
					p++;
			}
			i++;
		}
	}
}

/* --stats: methods, splice rules, end reasons and the rate. */
static void
print_stats(const struct dump *d, const struct bt_unwind_stats *ust, double t_first)
{
	static const char *const sn[] = { "none", "slot", "pending", "cfi",
		"gap", "cfi-only", "fp", "switch" };
	static const char *const en[] = { "outermost", "stack", "frames",
		"nocfi", "noregs", "switch" };
	size_t k;

	printf("samples %" PRIu64 " frames %" PRIu64 " unwind %.3f s rate %.0f samples/s",
	    d->nsamples, d->nframes, d->t_unwind, d->t_unwind > 0 ? (double)d->nsamples / d->t_unwind : 0);
	if (d->repeat > 1)
		printf(" (first pass %.3f s, then %.0f samples/s)", t_first,
		    (double)d->nsamples * (d->repeat - 1) / d->repeat / (d->t_unwind - t_first));
	printf("\n");
	printf("splice");
	for (k = 0; k < BT_ARRAY_SIZE(sn); k++)
		if (d->splice[k])
			printf(" %s=%" PRIu64, sn[k], d->splice[k]);
	printf("\nend");
	for (k = 0; k < BT_ARRAY_SIZE(en); k++)
		if (d->end[k])
			printf(" %s=%" PRIu64, en[k], d->end[k]);
	printf("\nfp-missed-a-frame %" PRIu64 "\n", d->skipped);
	printf("cfi-unwinds %" PRIu64 " by-libdwfl %" PRIu64 " rows %" PRIu64
	    " (read %" PRIu64 ", another process's %" PRIu64 ")"
	    " files-with-another-build-id %" PRIu64 "\n",
	    ust->samples, ust->libdw, ust->rules, ust->rules - ust->shared,
	    ust->shared, ust->mismatched);
}

int
main(int argc, char **argv)
{
	struct dump d = { .mode = M_AUTO, .stack = -1, .repeat = 1 };
	struct bt_unwind_stats ust;
	size_t i, k;
	int rep, ret = 0;
	struct bt_error err = { 0 };
	double t_first = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: unwind-dump FILE [--mode M] [--stack N] [--chains] [--frames] [--callers F] [--stats] [--repeat N] [--sweep S,...]\n");
		return 1;
	}
	options(&d, argc, argv);
	vdso = bt_own_vdso(&vdso_len);
	machine = bt_machine_new(&mods);
	d.u = bt_unwinder_new(machine);
	bt_unwinder_set_vdso(d.u, vdso, vdso_len);
	bt_unwinder_set_flags(d.u, d.libdw ? BT_UNWIND_LIBDW : 0);
	for (rep = 0; rep < d.repeat && ret == 0; rep++) {
		d.rd = bt_pd_open(argv[1], &err);
		if (d.rd == NULL) {
			fprintf(stderr, "unwind-dump: %s\n", err.msg);
			return 2;
		}
		/* the recording in order, as the profile reads it; then its samples again */
		if (rep == 0) {
			const struct bt_pd_buildid *ids;
			size_t nids = bt_pd_buildids(d.rd, &ids);

			bt_machine_set_buildids(machine, ids, nids);
			bt_machine_set_jit(machine, argv[1],
			    bt_pd_attr(d.rd, 0)->attr.use_clockid &&
			    bt_pd_attr(d.rd, 0)->attr.clockid == CLOCK_MONOTONIC);
			ret = bt_ordered_read(d.rd, &dump_ops, &d, 0, &err);
			t_first = d.t_unwind;
		} else {
			d.again = true;
			ret = bt_ordered_samples(d.rd, &dump_ops, &d, 0, &err);
		}
		bt_pd_close(d.rd);
	}
	if (ret < 0) {
		fprintf(stderr, "unwind-dump: %s\n", err.msg);
		return 2;
	}
	bt_unwinder_stats(d.u, &ust);
	bt_unwinder_free(d.u);
	if (d.callers) {
		for (k = 0; k < d.cl.n; k++)
			printf("%" PRIu64 " %s\n", d.cl.v[k].n, d.cl.v[k].name);
	}
	if (d.stats)
		print_stats(&d, &ust, t_first);
	if (d.nsizes) {
		printf("%-36s %7s", "leaf (caller%/chain% per stack size)", "samples");
		for (k = 0; k < d.nsizes; k++)
			printf(" %11ld", d.sizes[k]);
		printf("\n");
		/* every sample first, then each leaf function with 5 or more */
		struct leafstat all;

		memset(&all, 0, sizeof(all));
		all.name = (char *)"(all samples)";
		for (i = 0; i < leaves.n; i++) {
			all.n += leaves.v[i].n;
			for (k = 0; k < d.nsizes; k++) {
				all.caller_ok[k] += leaves.v[i].caller_ok[k];
				all.chain_ok[k] += leaves.v[i].chain_ok[k];
			}
		}
		for (i = 0; i <= leaves.n; i++) {
			struct leafstat *ls = i ? &leaves.v[i - 1] : &all;
			if (ls->n < 5)
				continue;
			printf("%-36.36s %7" PRIu64, ls->name, ls->n);
			for (k = 0; k < d.nsizes; k++) {
				char cell[32];
				snprintf(cell, sizeof(cell), "%.1f/%.1f",
				    100.0 * (double)ls->caller_ok[k] / (double)ls->n,
				    100.0 * (double)ls->chain_ok[k] / (double)ls->n);
				printf(" %11s", cell);
			}
			printf("\n");
		}
	}
	for (i = 0; i < syms.n; i++)
		bt_msyms_free(syms.v[i]);
	BT_VEC_FREE(syms);
	BT_VEC_FREE(tried);
	bt_machine_free(machine);
	bt_modules_release(&mods);
	for (i = 0; i < leaves.n; i++)
		free(leaves.v[i].name);
	BT_VEC_FREE(leaves);
	for (k = 0; k < d.cl.n; k++)
		free(d.cl.v[k].name);
	BT_VEC_FREE(d.cl);
	return 0;
}
