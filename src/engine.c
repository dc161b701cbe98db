/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "engine.h"

int pb_engine_run(int rfd, int wfd, void *buf, size_t size, uint64_t loops,
		  uint64_t fill_limit, struct pb_engine_result *res)
{
	memset(res, 0, sizeof(*res));
	for (uint64_t l = 0; l < loops; l++) {
		uint64_t wr = 0, rd = 0, wc = 0, rc = 0, t0, t1, t2;
		ssize_t n;

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
