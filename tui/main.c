/* benchtui: command line front end (placeholder until the pipeline lands). */
#include <stdio.h>

#include "benchtui/benchtui.h"

int
main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("benchtui %s\n", BT_VERSION);
	return 0;
}
