/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "clock.h"
#include "engine.h"

int pb_engine_run(int rfd, int wfd, void *buf, size_t size, uint64_t loops,
		  uint64_t fill_limit, struct pb_engine_result *res)
{
	memset(res, 0, sizeof(*res));
	for (uint64_t l = 0; l < loops; l++) {
		uint64_t wr = 0, rd = 0, wc = 0, rc = 0, t0, t1, t2;
		ssize_t n;

		if (pb_watchdog_fired())
			return -ETIMEDOUT;
		t0 = pb_clock_ns();
		while ((n = write(wfd, buf, size)) > 0) {
			wr += (uint64_t)n;
			wc++;
			if (wr > fill_limit)
				break;
		}
		t1 = pb_clock_ns();
		if (n < 0 && errno != EAGAIN) {
			res->failed_call = "write";
			return -errno;
		}
		if (n == 0 && size > 0) {
			/* Accepted nothing without EAGAIN: not a full pipe's answer. */
			res->failed_call = "write";
			res->bad_loop = l;
			return -EPROTO;
		}
		if (wr > fill_limit)
			return -EOVERFLOW;
		while ((n = read(rfd, buf, size)) > 0) {
			rd += (uint64_t)n;
			rc++;
			if (rd > wr)
				break; /* more out than in: reported below */
		}
		t2 = pb_clock_ns();
		if (n < 0 && errno != EAGAIN) {
			res->failed_call = "read";
			return -errno;
		}
		res->tw_ns += t1 - t0;
		res->tr_ns += t2 - t1;
		res->bytes_written += wr;
		res->bytes_read += rd;
		res->write_calls += wc + 1;
		res->read_calls += rc + 1;
		res->loops_done = l + 1;
		if (wr != rd || wr == 0) {
			res->bad_loop = l;
			res->bad_written = wr;
			res->bad_read = rd;
			return -EIO;
		}
	}
	return 0;
}

void pb_engine_strerror(int r, const struct pb_engine_result *res, uint64_t fill_limit,
			char *buf, size_t len)
{
	if (r == -EIO)
		snprintf(buf, len, "loop %llu: wrote %llu bytes but read %llu: the kernel lost or "
			 "invented data", (unsigned long long)res->bad_loop,
			 (unsigned long long)res->bad_written, (unsigned long long)res->bad_read);
	else if (r == -EOVERFLOW)
		snprintf(buf, len, "a write phase passed %llu bytes without EAGAIN: the buffer "
			 "never filled", (unsigned long long)fill_limit);
	else if (r == -EPROTO)
		snprintf(buf, len, "loop %llu: %s() returned 0 instead of -1 with EAGAIN: the "
			 "kernel accepted nothing without saying the pipe was full",
			 (unsigned long long)res->bad_loop,
			 res->failed_call ? res->failed_call : "write");
	else if (r == -EBADMSG)
		snprintf(buf, len, "loop %llu, byte %llu%s: received 0x%02x where 0x%02x was sent: "
			 "the kernel corrupted data", (unsigned long long)res->bad_loop,
			 (unsigned long long)res->bad_offset,
			 res->bad_pipe ? " of the tee copy" : "", res->bad_got, res->bad_expected);
	else if (r == -ETIMEDOUT)
		snprintf(buf, len, "--timeout: timed out");
	else
		snprintf(buf, len, "%s: %s", res->failed_call ? res->failed_call : "engine",
			 strerror(-r));
}

uint64_t pb_engine_fill_limit(long pipe_size, uint64_t size)
{
	if (pipe_size > 0)
		return 4 * (uint64_t)pipe_size + size;
	return (256ULL << 20) + size;
}
