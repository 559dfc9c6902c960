/*
 * Cost per operation (docs/browser.md "Cost per operation"): what one
 * sample's period is worth per operation of the selected benchmark, as
 * JMH's perfasm prints its "norm" column. A period over the iterations
 * the harness printed; the samples of the selection scaled to those of
 * the run whose time is printed, where the recording tells them apart
 * (GB's estimation runs and repetitions are in the same window).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profile/profile.h"
#include "session/query.h"
#include "view/view-int.h"

/* "ns" when a period is CPU time in ns, "cycles" when it is cycles, else NULL. */
static const char *
event_unit(const char *ev)
{
	const char *slash;

	if (ev == NULL)
		return NULL;
	if (strncmp(ev, "cpu-clock", 9) == 0 || strncmp(ev, "task-clock", 10) == 0)
		return "ns";
	/* cpu_core/cycles/, cycles:P, cpu-cycles; not ref-cycles or stalled-cycles-* */
	if ((slash = strchr(ev, '/')) != NULL)
		ev = slash + 1;
	if (strncmp(ev, "cycles", 6) == 0 || strncmp(ev, "cpu-cycles", 10) == 0)
		return "cycles";
	return NULL;
}

bool
bt_selection_per_op(struct bt_selection *sel, struct bt_per_op *out)
{
	long bi = bt_selection_bench_index(sel);
	const struct bt_bench *b;
	struct bt_bench_measured m;
	bool have_m;
	uint64_t n = bt_selection_samples(sel), period = bt_selection_period(sel);

	memset(out, 0, sizeof(*out));
	out->total = out->total_ns = out->harness_ns = out->cpu_ns = NAN;
	out->items_per_op = NAN;
	out->mhz = bt_selection_profile(sel)->meta.cpu_mhz;
	if (bi < 0 || (b = bt_selection_bench(sel, (size_t)bi)) == NULL) {
		snprintf(out->why, sizeof(out->why), "%s",
		    bt_selection_nbenches(sel) ? "no cost per op: no benchmark selected "
		    "(Enter on one in the benchmark table, or -b NAME)" :
		    "no cost per op: the recording has no benchmark results");
		return false;
	}
	out->bench = b->name;
	out->harness_ns = b->time_ns;
	have_m = bt_selection_bench_phase(sel, (size_t)bi, &m);
	out->iterations = b->iterations;
	if (strcmp(b->harness, "jmh") == 0) {
		/* Cnt is measurement iterations: operations are its time over the score */
		if (!have_m || !m.timed || !(m.seconds > 0) || !(b->time_ns > 0)) {
			snprintf(out->why, sizeof(out->why), "no cost per op: '%s' has no "
			    "measured time (JMH's Cnt counts iterations, not operations)",
			    b->name);
			return false;
		}
		out->iterations = m.seconds * 1e9 / b->time_ns;
		out->iterations_from = "its measured time over its score (one thread)";
	}
	if (!(out->iterations > 0)) {
		snprintf(out->why, sizeof(out->why), "no cost per op: '%s' has no "
		    "iteration count (%s prints none)", b->name, b->harness);
		return false;
	}
	if ((out->unit = event_unit(bt_selection_event(sel))) == NULL) {
		snprintf(out->why, sizeof(out->why), "no cost per op: event '%s' counts "
		    "neither time nor cycles (record cpu-clock or cycles)",
		    bt_selection_event(sel));
		return false;
	}
	if (n == 0 || period == 0) {
		snprintf(out->why, sizeof(out->why), "no cost per op: '%s' has no samples",
		    b->name);
		return false;
	}
	out->fraction = 1;
	if (have_m) {
		out->cpu_ns = m.cpu_ns;
		out->items_per_op = m.items_per_op;
		if (m.run_known && m.run_samples > 0 && m.run_samples <= n) {
			out->fraction = (double)m.run_samples / (double)n;
			out->run_known = true;
		}
	}
	out->scale = out->fraction / out->iterations;
	if (strcmp(out->unit, "ns") == 0)
		out->ns_scale = out->scale;
	else if (out->mhz > 0)
		out->ns_scale = out->scale * 1000.0 / out->mhz;
	out->total = (double)period * out->scale;
	if (out->ns_scale > 0)
		out->total_ns = (double)period * out->ns_scale;
	return true;
}

const struct bt_per_op *
bt_view_per_op(const struct bt_view *v)
{
	return v->has_per_op ? &v->per_op : NULL;
}

const char *
view_per_op_cell(struct bt_view *v, double x, size_t width)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.*f", bt_per_op_decimals(x), x);
	return view_pad(v, buf, width, true);
}
