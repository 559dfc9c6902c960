/*
 * harness-parse: what core/harness reads in a benchmark's output, for
 * tests/test-harness.sh.
 *   harness-parse [-H HARNESS] [-c CHUNK] [-s SEED] FILE
 *	FILE ('-': stdin) fed in chunks of CHUNK bytes (0, the default:
 *	random sizes from 1 to 97, from SEED), one result per line:
 *	index harness format name family aggregate flags
 *	time time_text cpu cpu_text err err_text err_pct err_pct_text
 *	low low_text high high_text iterations iterations_text
 *	counters(name=value|unit|text;...) line error
 *	tab-separated; a missing number or text is "-", flags are letters
 *	(A aggregate, E error, D dead hint); numbers in %.17g;
 *	then t_begin t_measure t_end t_start (%.6f; here the index of the
 *	chunk), then the forks (JMH), "-" when none, else one per fork, ';'
 *	between: t_announce,t_measure,t_end,warmup_iterations,iterations
 *	then W for a warm-up fork, H for one in the host JVM.
 *   harness-parse -f FILE	the same, FILE read by bt_harness_feed_file()
 *   harness-parse -T [-H HARNESS] CMD...	run CMD under a pty, its output
 *	fed as it arrives, times in seconds of CLOCK_MONOTONIC (perf record
 *	-k mono stamps samples with the same clock)
 *   harness-parse -C HARNESS	perf script output (-F time,ip,sym,dso) on
 *	stdin, one line per sample: time place phase entry-symbol
 */
#include <errno.h>
#include <math.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "harness/harness.h"

static void
put_text(const char *s)
{
	if (s == NULL) {
		fputs("-", stdout);
		return;
	}
	for (; *s != '\0'; s++)
		putchar(*s == '\t' || *s == '\n' ? ' ' : *s);
}

static void
put_num(const struct bt_bench_num *n)
{
	if (isnan(n->value))
		fputs("-", stdout);
	else
		printf("%.17g", n->value);
	putchar('\t');
	put_text(n->text);
}

static void
print_result(const struct bt_bench_result *r)
{
	printf("%zu\t%s\t%s\t", r->index, bt_harness_name(r->harness), r->format);
	put_text(r->name);
	putchar('\t');
	put_text(r->family);
	putchar('\t');
	put_text(r->aggregate);
	putchar('\t');
	if (r->flags == 0)
		putchar('-');
	if (r->flags & BT_BENCH_AGGREGATE)
		putchar('A');
	if (r->flags & BT_BENCH_ERROR)
		putchar('E');
	if (r->flags & BT_BENCH_DEAD_HINT)
		putchar('D');
	putchar('\t');
	put_num(&r->time);
	putchar('\t');
	put_num(&r->cpu_time);
	putchar('\t');
	put_num(&r->err);
	putchar('\t');
	put_num(&r->err_pct);
	putchar('\t');
	put_num(&r->low);
	putchar('\t');
	put_num(&r->high);
	putchar('\t');
	put_num(&r->iterations);
	putchar('\t');
	if (r->ncounters == 0)
		putchar('-');
	for (size_t i = 0; i < r->ncounters; i++) {
		const struct bt_bench_counter *c = &r->counters[i];

		printf("%s%s=", i ? ";" : "", c->name);
		if (isnan(c->value))
			putchar('-');
		else
			printf("%.17g", c->value);
		printf("|%s|", c->unit);
		put_text(c->text);
	}
	printf("\t%zu\t", r->line);
	put_text(r->error);
	printf("\t%.6f\t%.6f\t%.6f\t%.6f\t", r->t_begin, r->t_measure, r->t_end,
	    r->t_start);
	if (r->nforks == 0)
		putchar('-');
	for (size_t i = 0; i < r->nforks; i++) {
		const struct bt_bench_fork *f = &r->forks[i];

		printf("%s%.6f,%.6f,%.6f,%zu,%zu%s%s", i ? ";" : "", f->t_announce,
		    f->t_measure, f->t_end, f->warmup_iterations, f->iterations,
		    f->warmup ? "W" : "", f->host ? "H" : "");
	}
	putchar('\n');
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run argv under a pty, feeding its output to p as it arrives; its exit status. */
static int
run_pty(struct bt_harness_parser *p, char **argv)
{
	char buf[4096];
	int fd, status = 0;
	pid_t pid = forkpty(&fd, NULL, NULL, NULL);
	ssize_t n;

	if (pid < 0) {
		perror("harness-parse: forkpty");
		return -1;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* EIO: the child closed its side */
		bt_harness_feed(p, buf, (size_t)n, now());
	}
	bt_harness_finish(p, now());
	close(fd);
	waitpid(pid, &status, 0);
	return status;
}

/* perf script -F time,ip,sym,dso: "  123.456789: " then "\t addr sym (dso)" lines. */
static int
chains(enum bt_harness h)
{
	const struct bt_harness_frames *hf = bt_harness_frames(h);
	BT_VEC(struct bt_frame) fr = { 0 };
	char *line = NULL, *time = NULL;
	size_t cap = 0;
	ssize_t len;

	if (hf == NULL) {
		fprintf(stderr, "harness-parse: no frames for '%s'\n", bt_harness_name(h));
		return 1;
	}
	for (;;) {
		len = getline(&line, &cap, stdin);
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len <= 0) {
			if (time != NULL && fr.n > 0) {
				struct bt_chain_match m;
				static const char *const places[] = {
					"outside", "harness", "benchmark",
				};
				static const char *const phases[] = { "-", "warmup", "measure" };

				bt_harness_match_chain(hf, fr.v, fr.n, &m);
				printf("%s\t%s\t%s\t%s\n", time, places[m.place], phases[m.phase],
				    m.place == BT_CHAIN_BENCHMARK && fr.v[m.entry].symbol ?
				    fr.v[m.entry].symbol : "-");
			}
			for (size_t i = 0; i < fr.n; i++) {
				free((char *)fr.v[i].symbol);
				free((char *)fr.v[i].module);
			}
			fr.n = 0;
			FREE_AND_NULL(time);
			if (len < 0)
				break;
			continue;
		}
		if (line[0] != '\t') {
			char *s = line + strspn(line, " ");

			free(time);
			time = bt_xstrndup(s, strcspn(s, ":"));
			continue;
		}
		{
			/* "\t   addr sym (dso)": the symbol may hold spaces and parens */
			char *s = line + strspn(line, "\t "), *sym, *open;
			struct bt_frame f;

			sym = s + strcspn(s, " ");
			sym += strspn(sym, " ");
			open = strrchr(sym, '(');
			if (open == NULL || open == sym)
				continue;
			f.module = bt_xstrndup(open + 1, strcspn(open + 1, ")"));
			while (open > sym && open[-1] == ' ')
				open--;
			f.symbol = open - sym == 9 && memcmp(sym, "[unknown]", 9) == 0 ?
			    NULL : bt_xstrndup(sym, (size_t)(open - sym));
			BT_VEC_PUSH(fr, f);
		}
	}
	free(line);
	BT_VEC_FREE(fr);
	return 0;
}

int
main(int argc, char **argv)
{
	enum bt_harness only = BT_HARNESS_UNKNOWN;
	struct bt_error err = { 0 };
	struct bt_harness_parser *p;
	struct bt_strbuf in = BT_STRBUF_INIT;
	long chunk = 0;
	unsigned seed = 1;
	bool file_api = false, pty = false;
	int c, rc;

	while ((c = getopt(argc, argv, "+H:c:s:fC:T")) != -1) {
		switch (c) {
		case 'H':
			only = bt_harness_from_name(optarg);
			break;
		case 'c':
			chunk = strtol(optarg, NULL, 10);
			break;
		case 's':
			seed = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'f':
			file_api = true;
			break;
		case 'C':
			return chains(bt_harness_from_name(optarg));
		case 'T':
			pty = true;
			break;
		default:
			return 1;
		}
	}
	if (pty && optind < argc) {
		p = bt_harness_parser_new(only);
		rc = run_pty(p, argv + optind);
		for (size_t i = 0; i < bt_harness_count(p); i++)
			print_result(bt_harness_result(p, i));
		bt_harness_parser_free(p);
		return rc == 0 ? 0 : 3;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: harness-parse [-H HARNESS] [-c CHUNK] [-s SEED] [-f] FILE\n"
		    "       harness-parse -T [-H HARNESS] CMD...\n"
		    "       harness-parse -C HARNESS < perf-script-output\n");
		return 1;
	}
	p = bt_harness_parser_new(only);
	if (file_api) {
		if (bt_harness_feed_file(p, argv[optind], &err) < 0) {
			fprintf(stderr, "harness-parse: %s\n", err.msg);
			return 2;
		}
	} else {
		rc = strcmp(argv[optind], "-") == 0 ? bt_strbuf_read_file(&in, "/dev/stdin", 0) :
		    bt_strbuf_read_file(&in, argv[optind], 0);
		if (rc < 0) {
			fprintf(stderr, "harness-parse: cannot read '%s'\n", argv[optind]);
			return 2;
		}
		srand(seed);
		for (size_t off = 0, k = 0; off < in.len; k++) {
			size_t n = chunk > 0 ? (size_t)chunk : 1 + (size_t)(rand() % 97);

			n = BT_MIN(n, in.len - off);
			bt_harness_feed(p, in.buf + off, n, (double)k);
			off += n;
		}
		bt_harness_finish(p, -1);
	}
	for (size_t i = 0; i < bt_harness_count(p); i++)
		print_result(bt_harness_result(p, i));
	bt_harness_parser_free(p);
	bt_strbuf_release(&in);
	return 0;
}
