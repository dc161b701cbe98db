/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A minimal reference of the loop in the 2025 "pipe: don't update
 * {a,c,m}time for anonymous pipes" mails, written for `make bench`:
 * one anonymous pipe, both ends nonblocking (FIONBIO); per loop write SIZE
 * chunks until EAGAIN, then read until EAGAIN; writes and reads timed with
 * gettimeofday around each phase.  Usage: reference LOOPS SIZE
 * Prints: TW = s.uuuuuu TR = s.uuuuuu TT = s.uuuuuu
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec * 1000000LL + tv.tv_usec;
}

int main(int argc, char **argv)
{
	static char buf[64 << 20];
	long long tw = 0, tr = 0;
	int fd[2], nb = 1;
	long loops, size;

	if (argc != 3)
		return 2;
	loops = atol(argv[1]);
	size = atol(argv[2]);
	if (loops <= 0 || size <= 0 || size > (long)sizeof(buf) || pipe(fd) ||
	    ioctl(fd[0], FIONBIO, &nb) || ioctl(fd[1], FIONBIO, &nb))
		return 2;
	while (loops--) {
		long long wr = 0, rd = 0, t0, t1, t2;
		ssize_t n;

		t0 = now_us();
		while ((n = write(fd[1], buf, size)) > 0)
			wr += n;
		t1 = now_us();
		while ((n = read(fd[0], buf, size)) > 0)
			rd += n;
		t2 = now_us();
		if (wr != rd)
			return 3;
		tw += t1 - t0;
		tr += t2 - t1;
	}
	printf("TW = %lld.%06lld TR = %lld.%06lld TT = %lld.%06lld\n", tw / 1000000,
	       tw % 1000000, tr / 1000000, tr % 1000000, (tw + tr) / 1000000,
	       (tw + tr) % 1000000);
	return 0;
}
