/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Zero-copy modes of the fill/drain engine: the same nonblocking
 * fill-until-EAGAIN / drain-until-EAGAIN loop, with vmsplice(2), splice(2)
 * or tee(2) (SPLICE_F_NONBLOCK) in place of write(2)/read(2), and the bytes
 * that arrive checked against the pattern that was sent.
 */
#ifndef PB_ZEROCOPY_H
#define PB_ZEROCOPY_H

#include <stddef.h>
#include <stdint.h>

#include "endpoint.h"
#include "engine.h"
#include "uring.h"

enum pb_mode { PB_MODE_RW, PB_MODE_VMSPLICE, PB_MODE_SPLICE, PB_MODE_TEE, PB_MODE_IO_URING,
	       PB_MODE_COUNT };
/* "rw", "vmsplice", "splice", "tee", "io_uring", then "all" (bit PB_MODE_COUNT). */
extern const char *const pb_mode_words[];
enum pb_verify { PB_VERIFY_ALL, PB_VERIFY_SAMPLE, PB_VERIFY_OFF };
extern const char *const pb_verify_words[];

/* The pattern repeats every PB_ZC_PERIOD bytes of the stream: a lost or
 * repeated page shows as a mismatch unless exactly a period went missing. */
#define PB_ZC_PERIOD (1u << 20)
/* --verify sample: loop 0, every PB_ZC_SAMPLE-th loop and the last. */
#define PB_ZC_SAMPLE 16

struct pb_zc {
	enum pb_mode mode;
	enum pb_verify verify;
	size_t size;            /* largest chunk the buffers hold */
	unsigned char *src;     /* PERIOD + size bytes of pattern: source and expectation */
	unsigned char *dst;     /* size bytes: where read() lands */
	int src_fd;             /* splice: memfd holding src */
	int sink_fd;            /* splice: where the reader splices: src_fd again */
	size_t sink_off;        /* at this offset, past the source */
	unsigned char *sink;    /* those size bytes, mapped */
	struct pb_uring *ring;  /* io_uring: the ring each write and read goes through */
};

/* Byte I of the pattern (I < PB_ZC_PERIOD): the bytes of a hash of I / 4,
 * so a shift by any amount changes most bytes. */
unsigned char pb_zc_pattern(uint64_t i);

/* Allocate Z's buffers for MODE and chunks up to SIZE.  0 or -errno;
 * *what names the call that failed. */
int pb_zc_open(struct pb_zc *z, enum pb_mode mode, enum pb_verify verify, size_t size,
	       const char **what);
void pb_zc_close(struct pb_zc *z);

/* Why MODE cannot run on KIND, or NULL when it can. */
const char *pb_zc_unsupported(enum pb_mode mode, enum pb_kind kind);

/* Whether loop L of LOOPS is checked under VERIFY. */
int pb_zc_verify_loop(enum pb_verify verify, uint64_t l, uint64_t loops);

/*
 * LOOPS fill/drain loops of Z's mode (not rw) on nonblocking RFD/WFD with
 * chunks of SIZE (<= z->size).  Returns what pb_engine_run returns, and
 * -EBADMSG when a checked loop received bytes that differ from the ones sent
 * (res->bad_loop, bad_offset, bad_expected, bad_got).  tee makes a second
 * pipe of RFD's buffer size for the loop's duration.
 */
int pb_zc_run(const struct pb_zc *z, int rfd, int wfd, size_t size, uint64_t loops,
	      uint64_t fill_limit, struct pb_engine_result *res);

#endif
