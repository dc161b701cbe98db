/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test helper: holdpipes N
 * Creates N pipes (raising RLIMIT_NOFILE as far as allowed), prints
 * "ready N" and keeps them open until standard input reaches EOF.  Used to
 * exhaust the per-user pipe-user-pages-soft allowance of an unprivileged
 * user, so that the next pipes that user makes get the 2-page minimum.
 */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rlimit rl;
	long n = argc > 1 ? atol(argv[1]) : 0, made = 0;
	char c;

	if (n <= 0)
		return 2;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (; made < n; made++) {
		int fd[2];

		if (pipe2(fd, O_CLOEXEC) != 0)
			break;
	}
	printf("ready %ld\n", made);
	fflush(stdout);
	while (read(STDIN_FILENO, &c, 1) > 0)
		;
	return made == n ? 0 : 1;
}
