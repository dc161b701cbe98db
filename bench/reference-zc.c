/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A minimal reference of pipebench throughput --mode vmsplice and splice,
 * written for `make bench`: one anonymous pipe, both ends nonblocking; per
 * loop fill until EAGAIN with vmsplice(2) of user pages or splice(2) from a
 * memfd (SPLICE_F_NONBLOCK), starting each chunk where the stream stands in
 * a 1 MiB source, then drain until EAGAIN with read(2) (vmsplice) or
 * splice(2) into the memfd past the source (splice); phases timed with
 * clock_gettime(CLOCK_MONOTONIC).  No byte is checked (compare with
 * --verify off).  Usage: reference-zc vmsplice|splice LOOPS SIZE
 * Prints: TW = s.uuuuuu TR = s.uuuuuu TT = s.uuuuuu
 */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define PERIOD (1L << 20)

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	long long tw = 0, tr = 0, pos = 0;
	int fd[2], src = -1, vm;
	long sinkoff = PERIOD + (64L << 20);
	long loops, size;
	char *buf, *dst;

	if (argc != 4)
		return 2;
	vm = strcmp(argv[1], "vmsplice") == 0;
	loops = atol(argv[2]);
	size = atol(argv[3]);
	if ((!vm && strcmp(argv[1], "splice") != 0) || loops <= 0 || size <= 0 ||
	    size > (64L << 20) || pipe2(fd, O_NONBLOCK) ||
	    posix_memalign((void **)&buf, 4096, PERIOD + size) ||
	    posix_memalign((void **)&dst, 4096, size))
		return 2;
	memset(buf, 'z', PERIOD + size);
	if (!vm) {
		src = memfd_create("reference", 0);
		if (src < 0 || write(src, buf, PERIOD + size) != PERIOD + size)
			return 2;
		sinkoff = (PERIOD + size + 4095) / 4096 * 4096;
	}
	while (loops--) {
		long long wr = 0, rd = 0, t0, t1, t2;
		ssize_t n;

		t0 = now_us();
		for (;;) {
			long off = (long)((pos + wr) % PERIOD);

			if (vm) {
				struct iovec iov = { buf + off, (size_t)size };

				n = vmsplice(fd[1], &iov, 1, SPLICE_F_NONBLOCK);
			} else {
				loff_t o = off;

				n = splice(src, &o, fd[1], NULL, size, SPLICE_F_NONBLOCK);
			}
			if (n <= 0)
				break;
			wr += n;
		}
		t1 = now_us();
		for (;;) {
			if (vm) {
				n = read(fd[0], dst, size);
			} else {
				loff_t o = sinkoff;

				n = splice(fd[0], NULL, src, &o, size, SPLICE_F_NONBLOCK);
			}
			if (n <= 0)
				break;
			rd += n;
		}
		t2 = now_us();
		if (wr != rd || wr == 0)
			return 3;
		pos = (pos + wr) % PERIOD;
		tw += t1 - t0;
		tr += t2 - t1;
	}
	printf("TW = %lld.%06lld TR = %lld.%06lld TT = %lld.%06lld\n", tw / 1000000,
	       tw % 1000000, tr / 1000000, tr % 1000000, (tw + tr) / 1000000,
	       (tw + tr) % 1000000);
	return 0;
}
