/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "membw.h"

int pb_membw_measure(size_t chunk, size_t span, uint64_t min_ns, unsigned repeat,
		     struct pb_stats *bytes_per_s)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	double *rates;
	char *src, *dst;
	int r = -ENOMEM;

	if (chunk == 0 || span < chunk || repeat == 0)
		return -EINVAL;
	rates = calloc(repeat, sizeof(*rates));
	if (!rates)
		return -ENOMEM;
	if (posix_memalign((void **)&src, page, span))
		goto out_rates;
	if (posix_memalign((void **)&dst, page, span))
		goto out_src;
	memset(src, 'm', span);
	memset(dst, 0, span);
	for (unsigned i = 0; i < repeat; i++) {
		uint64_t t0 = pb_clock_ns(), t, bytes = 0;

		do {
			for (size_t off = 0; off + chunk <= span; off += chunk) {
				memcpy(dst + off, src + off, chunk);
				bytes += chunk;
			}
			/* Keep the copies observable so they are not optimised away. */
			__asm__ volatile("" : : "r"(dst) : "memory");
			t = pb_clock_ns() - t0;
		} while (t < min_ns);
		rates[i] = (double)bytes * 1e9 / (double)t;
	}
	r = pb_stats_compute(rates, repeat, bytes_per_s);
	free(dst);
out_src:
	free(src);
out_rates:
	free(rates);
	return r;
}
