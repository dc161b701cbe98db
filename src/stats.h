/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Descriptive statistics over repetitions. */
#ifndef PB_STATS_H
#define PB_STATS_H

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

#endif
