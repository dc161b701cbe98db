/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Monotonic time in nanoseconds, for timing phases. */
#ifndef PB_CLOCK_H
#define PB_CLOCK_H

#include <stdint.h>
#include <sys/time.h>
#include <time.h>

static inline uint64_t pb_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* A struct timeval (getrusage's CPU times) in nanoseconds. */
static inline int64_t pb_timeval_ns(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000000 + (int64_t)tv->tv_usec * 1000;
}

#endif
