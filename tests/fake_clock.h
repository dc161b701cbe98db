/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A clock for one test file: while on, CLOCK_MONOTONIC moves on exactly
 * PB_FAKE_STEP nanoseconds a reading, so the phase times the library takes
 * with pb_clock_ns (clock_gettime) become exact counts of the readings
 * between their ends.  The test executable's clock_gettime comes before
 * libc's for the statically linked library; off, it is the system call.
 * Include it in one file of a test program.
 */
#ifndef PB_FAKE_CLOCK_H
#define PB_FAKE_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PB_FAKE_STEP 1000u

static bool pb_fake_clock;
static uint64_t pb_fake_now;

int clock_gettime(clockid_t id, struct timespec *ts)
{
	if (pb_fake_clock && id == CLOCK_MONOTONIC) {
		pb_fake_now += PB_FAKE_STEP;
		ts->tv_sec = (time_t)(pb_fake_now / 1000000000u);
		ts->tv_nsec = (long)(pb_fake_now % 1000000000u);
		return 0;
	}
	return (int)syscall(SYS_clock_gettime, id, ts);
}

static inline void pb_fake_clock_on(void)
{
	pb_fake_now = 0;
	pb_fake_clock = true;
}

static inline void pb_fake_clock_off(void)
{
	pb_fake_clock = false;
}

#endif
