/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test helper: nouring [-e ERRNO] [-p] PROGRAM ARGS... runs PROGRAM under a
 * seccomp filter that fails io_uring_setup(2) with ERRNO (default EPERM),
 * as a container's default profile does, everything else allowed; with -p
 * it fails perf_event_open(2) instead (--profile's refusal), and with -c
 * only a CPU-wide perf_event_open(2) (pid -1), as perf_event_paranoid 1 and
 * above refuse one to a process without CAP_PERFMON: per-task sampling.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned err = EPERM;
	long nr = __NR_io_uring_setup;
	int a = 1, cpu_wide = 0;

	if (argc > 2 && !strcmp(argv[1], "-e")) {
		err = (unsigned)atoi(argv[2]);
		a = 3;
	}
	if (a < argc && (!strcmp(argv[a], "-p") || !strcmp(argv[a], "-c"))) {
		nr = __NR_perf_event_open;
		cpu_wide = argv[a][1] == 'c';
		a++;
	}
	if (a >= argc) {
		fprintf(stderr, "usage: nouring [-e ERRNO] [-p | -c] PROGRAM ARGS...\n");
		return 2;
	}
	{
		/* the syscall's second argument (pid), its low 32 bits: -1 is
		 * every task on a CPU */
		const unsigned pid_lo = offsetof(struct seccomp_data, args[1]) +
					(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 0 : 4);
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 4),
			/* without -c the pid test is jumped over */
			BPF_JUMP(BPF_JMP | BPF_JA, cpu_wide ? 0 : 2, 0, 0),
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, pid_lo),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffu, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
			perror("nouring: seccomp");
			return 2;
		}
	}
	execvp(argv[a], argv + a);
	perror("nouring: exec");
	return 127;
}
