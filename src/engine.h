/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The nonblocking fill/drain engine of the 2025 kernel mails: per loop,
 * write SIZE-byte chunks until EAGAIN, then read SIZE-byte chunks until
 * EAGAIN; writes (TW) and reads (TR) are timed separately around each
 * phase with CLOCK_MONOTONIC.
 */
#ifndef PB_ENGINE_H
#define PB_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "counters.h"

struct pb_engine_result {
	uint64_t tw_ns, tr_ns;        /* time in write and read phases */
	uint64_t bytes_written, bytes_read;
	uint64_t write_calls, read_calls; /* including the final EAGAIN calls */
	uint64_t loops_done;
	/* On -EIO: the loop and counts where written and read bytes differed. */
	uint64_t bad_loop, bad_written, bad_read;
	/* On -EBADMSG (zero-copy modes): byte BAD_OFFSET of loop BAD_LOOP's
	 * stream (from pipe BAD_PIPE: 0 the measured one, 1 tee's copy) was
	 * BAD_GOT where BAD_EXPECTED was sent. */
	uint64_t bad_offset;
	unsigned bad_pipe, bad_expected, bad_got;
	uint64_t verified_loops;      /* loops whose bytes were checked */
	const char *failed_call;      /* "write", "read", "vmsplice", "splice", "tee" */
	struct pb_ctr_values ctr;     /* the loop's counters (pb_bench: throughput) */
};

/*
 * Run LOOPS fill/drain loops on nonblocking RFD/WFD with chunks of SIZE
 * bytes from BUF.  A fill phase writing more than FILL_LIMIT bytes means
 * the kernel never said EAGAIN: -EOVERFLOW.  Returns 0, -EIO when bytes
 * read differ from bytes written in a loop (see bad_*), or -errno from a
 * failed write/read (see failed_call).  A write returning 0 for a nonzero
 * size is -EPROTO: the kernel accepted nothing without EAGAIN.
 * -ETIMEDOUT when the watchdog (pb_watchdog_arm) fired between loops.
 */
int pb_engine_run(int rfd, int wfd, void *buf, size_t size, uint64_t loops,
		  uint64_t fill_limit, struct pb_engine_result *res);

/* The FILL_LIMIT for a pipe of PIPE_SIZE bytes (<= 0: a socket) and
 * chunks of SIZE: four buffers' worth, so a kernel that never says EAGAIN
 * is caught while a real one never comes near. */
uint64_t pb_engine_fill_limit(long pipe_size, uint64_t size);

/* Describe a pb_engine_run failure R in BUF for a message (no prefix). */
void pb_engine_strerror(int r, const struct pb_engine_result *res, uint64_t fill_limit,
			char *buf, size_t len);

#endif
