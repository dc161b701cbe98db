/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Descriptive statistics over repetitions. */
#ifndef PB_STATS_H
#define PB_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct pb_stats {
	size_t n;
	double min, max, median, mean;
	double stddev;   /* sample standard deviation (n-1); 0 when n < 2 */
	double rsd;      /* stddev / mean, as a fraction; 0 when mean is 0 */
	double spread;   /* (max - min) / median, as a fraction; 0 when median is 0 */
};

/* Compute statistics of V[0..N-1] (V is not modified). -EINVAL if n == 0. */
int pb_stats_compute(const double *v, size_t n, struct pb_stats *out);

/*
 * Welch's t-test of two samples given as statistics.  Stores the t statistic
 * and Welch-Satterthwaite degrees of freedom; returns the two-sided p-value,
 * or -1 when it is undefined (n < 2 or both variances 0).
 */
double pb_stats_welch(const struct pb_stats *a, const struct pb_stats *b,
		      double *t, double *df);

/*
 * The 95% confidence interval of the median of V[0..N-1] by order
 * statistics (distribution-free; ranks from the normal approximation of the
 * binomial): the J-th and K-th smallest values, J = floor(N/2 - 0.98 sqrt N),
 * K = ceil(N/2 + 1 + 0.98 sqrt N).  0, -EDOM when N is too small for both
 * ranks to exist (under PB_STATS_MEDIAN_CI_MIN values), -ENOMEM.
 */
#define PB_STATS_MEDIAN_CI_MIN 8
int pb_stats_median_ci(const double *v, size_t n, double *lo, double *hi);

/* How precisely the median of V[0..N-1] is known: the farther end of its
 * 95% interval (pb_stats_median_ci) from it, in percent of it; NAN when
 * there are too few values, no memory, or the median is not positive. */
double pb_stats_median_precision(const double *v, size_t n);

/* Whether precision CAND is worse than WORST, for the row a --precision
 * line names: NAN (too few repetitions for an interval) is worse than any
 * number; of two equal, the one seen first stays the worst. */
bool pb_stats_precision_worse(double cand, double worst);

/* Exact Mann-Whitney p-values up to this many pairs (NA * NB), without ties. */
#define PB_RANK_EXACT_MAX 400
#define PB_RANK_ALPHA 0.05

struct pb_rank_test {
	double u;        /* Mann-Whitney U of B against A (pairs b > a; a tie is half) */
	double p;        /* two-sided p-value; -1 when there is no sample */
	bool exact;      /* from U's exact distribution, else the normal one with
			    the tie correction and a continuity correction */
	double shift;    /* Hodges-Lehmann: the median of every b - a */
	double lo, hi;   /* its 95% interval (NAN when the samples are too small) */
	size_t k;        /* the interval's rank among the sorted differences */
};

/* Mann-Whitney U test of B against A, and the Hodges-Lehmann shift with its
 * interval.  0, -EINVAL (an empty sample) or -ENOMEM. */
int pb_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			  struct pb_rank_test *out);

#endif
