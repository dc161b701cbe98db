/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fast time for a broken-kernel row: while on, every bounded wait of the
 * checks (their nanosleep loops, setitimer and alarm interrupts, poll
 * timeouts) lasts a quarter of what the check asked for, so a wait that a
 * broken kernel makes run out costs a quarter of the time.  Only the
 * length of a wait changes: the checks count the same naps and arm the
 * same timers in the same order, so every verdict and detail is the one
 * the full waits give (each row still asserts its verdict and its words).
 * The watchdog of pb_conformance_run_one measures CLOCK_MONOTONIC, which
 * is not touched: it still has its whole time.  Timer slack is cut to
 * 1 ns while on, or the kernel's 50 us default would eat the shorter naps.
 *
 * The test executable's definitions come before libc's for the statically
 * linked library (as in fake_clock.h); children inherit the switch.  Off,
 * each is the system call.  Include it in one file of a test program, and
 * turn it on only for rows whose expected verdict is FAIL: a lawful row's
 * real kernel keeps its full waits.
 */
#ifndef PB_FAST_TIME_H
#define PB_FAST_TIME_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define PB_FAST_TIME_FACTOR 4u

static bool pb_fast_time;

static inline void pb_fast_time_on(void)
{
	pb_fast_time = true;
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}

static inline void pb_fast_time_off(void)
{
	pb_fast_time = false;
	prctl(PR_SET_TIMERSLACK, 0UL, 0, 0, 0);  /* 0: back to the default */
}

static inline struct timespec pb_fast_ts(const struct timespec *t)
{
	uint64_t ns = (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
	struct timespec r;

	ns /= PB_FAST_TIME_FACTOR;
	r.tv_sec = (time_t)(ns / 1000000000u);
	r.tv_nsec = (long)(ns % 1000000000u);
	return r;
}

static inline struct timeval pb_fast_tv(const struct timeval *t)
{
	uint64_t us = (uint64_t)t->tv_sec * 1000000u + (uint64_t)t->tv_usec;
	struct timeval r;

	/* a timer asked for stays armed: 0 would disarm it */
	us = us ? (us / PB_FAST_TIME_FACTOR ? us / PB_FAST_TIME_FACTOR : 1) : 0;
	r.tv_sec = (time_t)(us / 1000000u);
	r.tv_usec = (suseconds_t)(us % 1000000u);
	return r;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	struct timespec t;

	if (!pb_fast_time || !req)
		return (int)syscall(SYS_nanosleep, req, rem);
	t = pb_fast_ts(req);
	return (int)syscall(SYS_nanosleep, &t, rem);
}

static inline int pb_fast_setitimer(int which, const struct itimerval *nv,
				    struct itimerval *old)
{
	struct itimerval t;

	if (!pb_fast_time || !nv)
		return (int)syscall(SYS_setitimer, which, nv, old);
	t.it_value = pb_fast_tv(&nv->it_value);
	t.it_interval = pb_fast_tv(&nv->it_interval);
	return (int)syscall(SYS_setitimer, which, &t, old);
}

/* A test file that interposes setitimer() itself defines
 * PB_FAST_TIME_OWN_SETITIMER and calls pb_fast_setitimer() from it. */
#ifndef PB_FAST_TIME_OWN_SETITIMER
int setitimer(__itimer_which_t which, const struct itimerval *nv, struct itimerval *old)
{
	return pb_fast_setitimer(which, nv, old);
}
#endif

unsigned int alarm(unsigned int seconds)
{
	struct itimerval t = { { 0, 0 }, { (time_t)seconds, 0 } }, old;
	unsigned left;

	if (pb_fast_time)
		t.it_value = pb_fast_tv(&t.it_value);
	if (syscall(SYS_setitimer, ITIMER_REAL, &t, &old) != 0)
		return 0;
	/* what was left, in whole seconds, rounded as glibc's alarm() does */
	left = (unsigned)old.it_value.tv_sec;
	if (old.it_value.tv_usec >= 500000 || (left == 0 && old.it_value.tv_usec > 0))
		left++;
	return left;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	struct timespec ts, *tp = NULL;

#ifdef SYS_poll
	if (!pb_fast_time)
		return (int)syscall(SYS_poll, fds, n, timeout);
#endif
	if (timeout >= 0) {
		unsigned ms = (unsigned)timeout;

		if (pb_fast_time && ms)
			ms = ms / PB_FAST_TIME_FACTOR ? ms / PB_FAST_TIME_FACTOR : 1;
		ts.tv_sec = (time_t)(ms / 1000);
		ts.tv_nsec = (long)(ms % 1000) * 1000000L;
		tp = &ts;
	}
	return (int)syscall(SYS_ppoll, fds, n, tp, NULL, (size_t)(_NSIG / 8));
}

#endif
