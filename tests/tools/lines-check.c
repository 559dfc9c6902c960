/*
 * lines-check: read every compilation unit's line table of each FILE
 * twice, with benchtui's reader of the line program (dwfl-lineprog.c) and
 * with libdw's dwarf_getsrclines, and compare the rows benchtui keeps
 * (address, line, column, file) and the file tables (issue 30).
 *   lines-check FILE...
 * Prints per file "FILE: N units, N rows, N read by libdw, N differ" and
 * the first difference; exits 1 when any differs, 2 when a file has no
 * DWARF.
 */
#include <stdio.h>

#include "base.h"
#include "symbols/dwfl-int.h"

int
main(int argc, char **argv)
{
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		struct bt_error err = { 0 };
		struct bt_msyms *m = bt_msyms_open(argv[i], NULL, 0, &err);
		struct msyms_lines_check ck;

		if (m == NULL) {
			fprintf(stderr, "lines-check: cannot open '%s'\n", argv[i]);
			return 2;
		}
		msyms_lines_check(m, &ck);
		printf("%s: %zu units, %zu rows, %zu read by libdw, %zu differ\n", argv[i],
		    ck.cus, ck.rows, ck.fallback, ck.mismatches);
		if (ck.mismatches) {
			printf("  first: %s\n", ck.first);
			rc = 1;
		}
		if (ck.cus == 0 && rc == 0)
			rc = 2;
		bt_msyms_free(m);
	}
	return rc;
}
