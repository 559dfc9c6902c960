/*
 * make bench: a small recording with many large mappings (issue 12, scale):
 * maps each file named on the command line (256 MiB, sparse) executable,
 * then spins. A reader's cost must grow with samples and touched code,
 * never with the size of what is mapped.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
volatile unsigned long sink;
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);
		if (fd < 0 || mmap(NULL, 256 << 20, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED) { perror(argv[i]); return 1; }
		close(fd);
	}
	for (unsigned long i = 0; i < 60000000; i++) sink += i;
	return 0;
}
