/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checkproc.h"

pid_t pb_checkproc_fork(void)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* The check may already be gone; PDEATHSIG would never fire. */
		if (getppid() != parent)
			_exit(125);
	}
	return pid;
}

int pb_checkproc_wait(pid_t pid, unsigned ms, int *status)
{
	struct timespec ts = { 0, 1000000 };

	for (unsigned i = 0;; i++) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (i >= ms)
			break;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return -ETIMEDOUT;
}

int pb_checkproc_probe_main(int argc, const char *const *argv)
{
	int bits = 0;

	if (argc < 2 || strcmp(argv[1], PB_CHECKPROC_PROBE_ARG) != 0)
		return -1;
	for (int i = 2; i < argc && i < 8; i++) {
		char *end;
		long fd = strtol(argv[i], &end, 10);

		if (*end || fd < 0 || fd > 1 << 20)
			return 126;
		if (fcntl((int)fd, F_GETFD) != -1 || errno != EBADF)
			bits |= 1 << (i - 2);
	}
	return bits;
}
