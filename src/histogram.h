/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A log-linear histogram of nanosecond values (the HdrHistogram layout):
 * values below 2^(PB_HIST_SUB_BITS+1) have a bucket each; above, every
 * power of two is split into 2^PB_HIST_SUB_BITS equal buckets.  A bucket's
 * width is at most 1/128 of its lowest value, so any value read back (the
 * bucket's midpoint) is within 0.4% of every value counted in it, well
 * inside the 1% the latency command promises.  Every value is counted,
 * none is sampled; count, minimum, maximum, sum and sum of squares are
 * exact, so mean and standard deviation do not come from the buckets.
 */
#ifndef PB_HISTOGRAM_H
#define PB_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#define PB_HIST_SUB_BITS 7
#define PB_HIST_SUB (1u << PB_HIST_SUB_BITS)
/* 2^(S+1) exact buckets, then 2^S per power of two from 2^(S+1) to 2^64. */
#define PB_HIST_BUCKETS ((size_t)2 * PB_HIST_SUB + (size_t)(63 - PB_HIST_SUB_BITS) * PB_HIST_SUB)

struct pb_hist {
	uint64_t count, min, max;
	uint64_t sum;                /* exact (wraps only past 2^64 ns in all) */
	unsigned __int128 sumsq;     /* exact */
	uint64_t *counts;          /* PB_HIST_BUCKETS */
};

/* Allocate an empty histogram: 0 or -ENOMEM. */
int pb_hist_init(struct pb_hist *h);
void pb_hist_free(struct pb_hist *h);
/* Empty it again (keeps the buckets). */
void pb_hist_reset(struct pb_hist *h);

/* The bucket of V. */
static inline size_t pb_hist_index(uint64_t v)
{
	unsigned e, k;

	if (v < 2 * PB_HIST_SUB)
		return (size_t)v;
	e = 63u - (unsigned)__builtin_clzll(v);
	k = e - PB_HIST_SUB_BITS;                  /* >= 1 */
	return 2 * PB_HIST_SUB + (size_t)(k - 1) * PB_HIST_SUB +
	       (size_t)((v >> k) - PB_HIST_SUB);
}

/* Count V: no allocation, no failure. */
static inline void pb_hist_record(struct pb_hist *h, uint64_t v)
{
	h->counts[pb_hist_index(v)]++;
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
	h->sumsq += (unsigned __int128)v * v;
}

/* The lowest and highest value bucket I holds. */
uint64_t pb_hist_lowest(size_t i);
uint64_t pb_hist_highest(size_t i);

/*
 * The value at percentile PCT (0 < PCT <= 100), nearest rank: the
 * midpoint of the bucket holding the ceil(PCT/100 * count)-th smallest
 * value, clamped to [min, max].  0 when empty.
 */
uint64_t pb_hist_percentile(const struct pb_hist *h, double pct);

double pb_hist_mean(const struct pb_hist *h);
/* Sample standard deviation (n-1); 0 below two values. */
double pb_hist_stddev(const struct pb_hist *h);

/* Add SRC's counts to DST (repetitions into one result). */
void pb_hist_merge(struct pb_hist *dst, const struct pb_hist *src);

#endif
