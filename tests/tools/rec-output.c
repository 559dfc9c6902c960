/*
 * rec-output: the benchmark's output as benchtui's recording keeps it
 * (core/record/output.c), for tests/test-stdio.sh.
 *   rec-output FILE 1       its standard output, the bytes as written
 *   rec-output FILE 2       its standard error
 *   rec-output FILE chunks  one line per chunk read: NS LEN STREAM
 * Exits 3 when the recording keeps no output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "perf/meta.h"
#include "perf/perfdata.h"

int
main(int argc, char **argv)
{
	struct bt_error err = { 0 };
	struct bt_pd_reader *r;
	struct bt_meta m;
	const char *p, *end, *bytes;
	const void *sec;
	uint64_t ns;
	size_t len, n;
	int stream, rc;

	if (argc != 3) {
		fprintf(stderr, "usage: rec-output FILE 1|2|chunks\n");
		return 1;
	}
	r = bt_pd_open(argv[1], &err);
	if (r == NULL) {
		fprintf(stderr, "rec-output: %s\n", err.msg);
		return 2;
	}
	sec = bt_pd_benchtui(r, &len);
	memset(&m, 0, sizeof(m));
	if (sec == NULL || bt_meta_decode(sec, len, &m) < 0 || m.output == NULL) {
		bt_pd_close(r);
		return 3;
	}
	p = m.output;
	end = p + m.output_len;
	while ((rc = bt_meta_output_next(&p, end, &ns, &stream, &bytes, &n)) > 0) {
		if (strcmp(argv[2], "chunks") == 0)
			printf("%llu %zu %d\n", (unsigned long long)ns, n, stream);
		else if (atoi(argv[2]) == stream)
			fwrite(bytes, 1, n, stdout);
	}
	if (rc < 0) {
		fprintf(stderr, "rec-output: a bad chunk header\n");
		return 2;
	}
	bt_meta_release(&m);
	bt_pd_close(r);
	return 0;
}
