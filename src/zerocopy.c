/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cleanup.h"
#include "clock.h"
#include "zerocopy.h"

const char *const pb_mode_words[] = { "rw", "vmsplice", "splice", "tee", "io_uring", "all", NULL };
const char *const pb_verify_words[] = { "all", "sample", "off", NULL };

unsigned char pb_zc_pattern(uint64_t i)
{
	uint32_t w = (uint32_t)(i / 4) + 0x5a5a5a5au;

	/* A 32-bit integer hash (lowbias32): every input bit moves every byte. */
	w ^= w >> 16;
	w *= 0x7feb352du;
	w ^= w >> 15;
	w *= 0x846ca68bu;
	w ^= w >> 16;

	return (unsigned char)(w >> (8 * (i % 4)));
}

int pb_zc_open(struct pb_zc *z, enum pb_mode mode, enum pb_verify verify, size_t size,
	       const char **what)
{
	size_t n = PB_ZC_PERIOD + size, pg = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	memset(z, 0, sizeof(*z));
	z->mode = mode;
	z->verify = verify;
	z->size = size;
	z->src_fd = z->sink_fd = -1;
	*what = "memory";
	if (posix_memalign(&p, pg, n))
		return -ENOMEM;
	z->src = p;
	for (size_t i = 0; i < n; i++)
		z->src[i] = pb_zc_pattern(i % PB_ZC_PERIOD);
	if (posix_memalign(&p, pg, size))
		return -ENOMEM;
	z->dst = p;
	if (mode == PB_MODE_IO_URING)
		return pb_uring_open(&z->ring, what);
	if (mode != PB_MODE_SPLICE)
		return 0;
	/* One memfd: the source, then (page-aligned) the region the reader
	 * splices into, so the mode needs one descriptor besides the pipe. */
	*what = "memfd_create";
	z->src_fd = memfd_create("pipebench-splice", MFD_CLOEXEC);
	if (z->src_fd < 0)
		return -errno;
	z->sink_fd = z->src_fd;
	z->sink_off = (n + pg - 1) / pg * pg;
	*what = "write to the source memfd";
	for (size_t off = 0; off < n;) {
		ssize_t w = pwrite(z->src_fd, z->src + off, n - off, (off_t)off);

		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		off += (size_t)w;
	}
	*what = "ftruncate";
	if (ftruncate(z->sink_fd, (off_t)(z->sink_off + size)))
		return -errno;
	*what = "mmap";
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, z->sink_fd, (off_t)z->sink_off);
	if (p == MAP_FAILED)
		return -errno;
	z->sink = p;
	return 0;
}

void pb_zc_close(struct pb_zc *z)
{
	if (z->sink)
		munmap(z->sink, z->size);
	if (z->src_fd >= 0)
		close(z->src_fd);
	pb_uring_close(z->ring);
	free(z->src);
	free(z->dst);
	memset(z, 0, sizeof(*z));
	z->src_fd = z->sink_fd = -1;
}

const char *pb_zc_unsupported(enum pb_mode mode, enum pb_kind kind)
{
	if (kind != PB_KIND_SOCKETPAIR)
		return NULL;
	switch (mode) {
	case PB_MODE_VMSPLICE:
		return "vmsplice(2) writes only into a pipe, not a socket; a socketpair runs rw only";
	case PB_MODE_SPLICE:
		return "splice(2) needs a pipe on one side, and memfd to socket has none; a "
		       "socketpair runs rw only";
	case PB_MODE_TEE:
		return "tee(2) duplicates only between two pipes; a socketpair runs rw only";
	default:
		return NULL;
	}
}

int pb_zc_verify_loop(enum pb_verify verify, uint64_t l, uint64_t loops)
{
	if (verify == PB_VERIFY_ALL)
		return 1;
	if (verify == PB_VERIFY_OFF)
		return 0;
	return l % PB_ZC_SAMPLE == 0 || l + 1 == loops;
}

/* GOT against WANT (N bytes, from byte OFF of loop L's stream of pipe PIPE). */
static int check(struct pb_engine_result *res, uint64_t l, unsigned pipe, uint64_t off,
		 const unsigned char *got, const unsigned char *want, size_t n)
{
	if (memcmp(got, want, n) == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i]) {
			res->bad_loop = l;
			res->bad_pipe = pipe;
			res->bad_offset = off + i;
			res->bad_expected = want[i];
			res->bad_got = got[i];
			break;
		}
	return -EBADMSG;
}

/* One chunk into WFD from stream offset OFF (mod the period). */
static ssize_t put(const struct pb_zc *z, int wfd, size_t off, size_t size)
{
	if (z->mode == PB_MODE_VMSPLICE) {
		struct iovec iov = { .iov_base = z->src + off, .iov_len = size };

		return vmsplice(wfd, &iov, 1, SPLICE_F_NONBLOCK);
	}
	if (z->mode == PB_MODE_SPLICE) {
		loff_t o = (loff_t)off;

		return splice(z->src_fd, &o, wfd, NULL, size, SPLICE_F_NONBLOCK);
	}
	if (z->mode == PB_MODE_IO_URING)
		return pb_uring_write(z->ring, wfd, z->src + off, size);
	return write(wfd, z->src + off, size);
}

/* One chunk out of RFD; *GOT: where its bytes are. */
static ssize_t take(const struct pb_zc *z, int rfd, size_t size, const unsigned char **got)
{
	if (z->mode == PB_MODE_SPLICE) {
		loff_t o = (loff_t)z->sink_off;

		*got = z->sink;
		return splice(rfd, NULL, z->sink_fd, &o, size, SPLICE_F_NONBLOCK);
	}
	*got = z->dst;
	if (z->mode == PB_MODE_IO_URING)
		return pb_uring_read(z->ring, rfd, z->dst, size);
	return read(rfd, z->dst, size);
}

/*
 * Drain RFD (LIMIT bytes expected) into RES's counts, checking when CHK.
 * The checks' time is added to *CHK_NS so that the caller can keep it out
 * of the read time: verification must not make a mode look slower.
 */
static int drain(const struct pb_zc *z, int rfd, bool tee_copy, size_t size, uint64_t pos,
		 uint64_t l, bool chk, uint64_t limit, uint64_t *rd, uint64_t *rc,
		 uint64_t *chk_ns, struct pb_engine_result *res)
{
	const unsigned char *got = NULL;
	ssize_t n;
	int r;

	while ((n = tee_copy ? read(rfd, z->dst, size) : take(z, rfd, size, &got)) > 0) {
		if (tee_copy)
			got = z->dst;
		if (chk) {
			uint64_t c0 = pb_clock_ns();

			r = check(res, l, tee_copy, *rd, got,
				  z->src + (pos + *rd) % PB_ZC_PERIOD, (size_t)n);
			*chk_ns += pb_clock_ns() - c0;
			if (r)
				return r;
		}
		*rd += (uint64_t)n;
		(*rc)++;
		if (*rd > limit)
			break; /* more out than in: reported by the caller */
	}
	(*rc)++;
	if (n < 0 && errno != EAGAIN) {
		res->failed_call = !tee_copy && z->mode == PB_MODE_SPLICE ? "splice" :
				   z->mode == PB_MODE_IO_URING ? "io_uring read" : "read";
		return -errno;
	}
	return 0;
}

int pb_zc_run(const struct pb_zc *z, int rfd, int wfd, size_t size, uint64_t loops,
	      uint64_t fill_limit, struct pb_engine_result *res)
{
	const char *wcall = z->mode == PB_MODE_VMSPLICE ? "vmsplice" :
			    z->mode == PB_MODE_SPLICE ? "splice" :
			    z->mode == PB_MODE_IO_URING ? "io_uring write" : "write";
	int tfd[2] = { -1, -1 }, r = 0;
	uint64_t pos = 0; /* stream offset of the loop's first byte, mod the period */

	memset(res, 0, sizeof(*res));
	if (z->mode == PB_MODE_RW || size == 0 || size > z->size)
		return -EINVAL;
	pb_uring_reset(z->ring);
	if (z->mode == PB_MODE_TEE) {
		int ps = fcntl(rfd, F_GETPIPE_SZ);

		res->failed_call = "pipe2";
		if (pipe2(tfd, O_NONBLOCK | O_CLOEXEC))
			return -errno;
		res->failed_call = "F_SETPIPE_SZ";
		if (ps > 0 && fcntl(tfd[1], F_SETPIPE_SZ, ps) < 0) {
			r = -errno;
			goto out;
		}
		res->failed_call = NULL;
	}
	for (uint64_t l = 0; l < loops; l++) {
		uint64_t wr = 0, rd = 0, wc = 0, rc = 0, teed = 0, rd2 = 0, chk_ns = 0, t0, t1, t2;
		bool chk = pb_zc_verify_loop(z->verify, l, loops);
		ssize_t n;
		int werr = 0;

		if (pb_watchdog_fired()) {
			r = -ETIMEDOUT;
			goto out;
		}
		t0 = pb_clock_ns();
		while ((n = put(z, wfd, (size_t)((pos + wr) % PB_ZC_PERIOD), size)) > 0) {
			wr += (uint64_t)n;
			wc++;
			if (wr > fill_limit)
				break;
		}
		werr = n < 0 ? errno : 0;
		wc++;
		if (z->mode == PB_MODE_TEE && werr == EAGAIN && wr > 0 && wr <= fill_limit) {
			ssize_t t = tee(rfd, tfd[1], wr, SPLICE_F_NONBLOCK);

			wc++;
			if (t < 0 && errno != EAGAIN) {
				res->failed_call = "tee";
				r = -errno;
				goto out;
			}
			teed = t > 0 ? (uint64_t)t : 0;
		}
		t1 = pb_clock_ns();
		if (n < 0 && werr != EAGAIN) {
			res->failed_call = wcall;
			r = -werr;
			goto out;
		}
		if (n == 0) {
			res->failed_call = wcall;
			res->bad_loop = l;
			r = -EPROTO;
			goto out;
		}
		if (wr > fill_limit) {
			r = -EOVERFLOW;
			goto out;
		}
		r = drain(z, rfd, false, size, pos, l, chk, wr, &rd, &rc, &chk_ns, res);
		if (!r && z->mode == PB_MODE_TEE)
			r = drain(z, tfd[0], true, size, pos, l, chk, teed, &rd2, &rc, &chk_ns, res);
		t2 = pb_clock_ns();
		if (r)
			goto out;
		res->tw_ns += t1 - t0;
		res->tr_ns += t2 - t1 - chk_ns;
		res->bytes_written += wr + teed;
		res->bytes_read += rd + rd2;
		res->write_calls += wc;
		res->read_calls += rc;
		res->loops_done = l + 1;
		res->verified_loops += chk;
		if (wr != rd || teed != rd2 || wr == 0) {
			res->bad_loop = l;
			res->bad_written = wr + teed;
			res->bad_read = rd + rd2;
			r = -EIO;
			goto out;
		}
		pos = (pos + wr) % PB_ZC_PERIOD;
	}
out:
	if (tfd[0] >= 0)
		close(tfd[0]);
	if (tfd[1] >= 0)
		close(tfd[1]);
	return r;
}
