/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"

int pb_hist_init(struct pb_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->counts = calloc(PB_HIST_BUCKETS, sizeof(*h->counts));
	return h->counts ? 0 : -ENOMEM;
}

void pb_hist_free(struct pb_hist *h)
{
	free(h->counts);
	h->counts = NULL;
}

void pb_hist_reset(struct pb_hist *h)
{
	uint64_t *c = h->counts;

	memset(c, 0, PB_HIST_BUCKETS * sizeof(*c));
	memset(h, 0, sizeof(*h));
	h->counts = c;
}

uint64_t pb_hist_lowest(size_t i)
{
	size_t k;

	if (i < 2 * PB_HIST_SUB)
		return i;
	k = (i - 2 * PB_HIST_SUB) / PB_HIST_SUB + 1;
	return (uint64_t)(PB_HIST_SUB + (i - 2 * PB_HIST_SUB) % PB_HIST_SUB) << k;
}

uint64_t pb_hist_highest(size_t i)
{
	size_t k;

	if (i < 2 * PB_HIST_SUB)
		return i;
	k = (i - 2 * PB_HIST_SUB) / PB_HIST_SUB + 1;
	return pb_hist_lowest(i) + ((uint64_t)1 << k) - 1;
}

uint64_t pb_hist_percentile(const struct pb_hist *h, double pct)
{
	uint64_t rank, seen = 0, v;

	if (!h->count)
		return 0;
	rank = (uint64_t)ceil(pct / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (size_t i = 0; i < PB_HIST_BUCKETS; i++) {
		seen += h->counts[i];
		if (seen >= rank) {
			uint64_t lo = pb_hist_lowest(i), hi = pb_hist_highest(i);

			v = lo + (hi - lo) / 2;
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max;
}

double pb_hist_mean(const struct pb_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}

double pb_hist_stddev(const struct pb_hist *h)
{
	unsigned __int128 s = h->sum, ss;

	if (h->count < 2)
		return 0;
	/* sum(v^2) - sum(v)^2 / n in 128 bits: sum(v)^2 < 2^128 as sum(v) is a
	 * uint64_t; the division's floor errs by less than 1 ns^2 in all. */
	ss = s * s / h->count;
	if (h->sumsq <= ss)
		return 0;
	return sqrt((double)(h->sumsq - ss) / (double)(h->count - 1));
}

void pb_hist_merge(struct pb_hist *dst, const struct pb_hist *src)
{
	if (!src->count)
		return;
	for (size_t i = 0; i < PB_HIST_BUCKETS; i++)
		dst->counts[i] += src->counts[i];
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
}
