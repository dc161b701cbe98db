/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A slower kernel, made to order (tests/stability.sh): loaded with
 * LD_PRELOAD, every write() to a pipe or FIFO first spins for PB_DELAY_NS
 * nanoseconds (unset or 0: no delay, and no other work), so a measured
 * run gets a real slowdown of a chosen size without touching the kernel.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static ssize_t (*real_write)(int, const void *, size_t);
static long long delay_ns = -1;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	struct stat st;

	if (!real_write)
		real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (delay_ns < 0) {
		const char *e = getenv("PB_DELAY_NS");

		delay_ns = e ? atoll(e) : 0;
	}
	if (delay_ns > 0 && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
		long long end = now_ns() + delay_ns;

		while (now_ns() < end)
			;
	}
	return real_write(fd, buf, n);
}
