/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "stats.h"

START_TEST(odd_and_even_medians)
{
	const double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };
	struct pb_stats s;

	ck_assert_int_eq(pb_stats_compute(odd, 3, &s), 0);
	ck_assert_double_eq(s.median, 3);
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 5);
	ck_assert_int_eq(pb_stats_compute(even, 4, &s), 0);
	ck_assert_double_eq(s.median, 2.5);
	ck_assert_double_eq(s.mean, 2.5);
}
END_TEST

START_TEST(dispersion)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct pb_stats s;

	ck_assert_int_eq(pb_stats_compute(v, 8, &s), 0);
	ck_assert_double_eq_tol(s.mean, 5, 1e-12);
	/* sample stddev: sqrt(32/7) */
	ck_assert_double_eq_tol(s.stddev, sqrt(32.0 / 7.0), 1e-12);
	ck_assert_double_eq_tol(s.rsd, sqrt(32.0 / 7.0) / 5, 1e-12);
	ck_assert_double_eq_tol(s.spread, 7.0 / 4.5, 1e-12);
}
END_TEST

START_TEST(single_and_empty)
{
	const double one[] = { 7 };
	struct pb_stats s;

	ck_assert_int_eq(pb_stats_compute(one, 1, &s), 0);
	ck_assert_double_eq(s.stddev, 0);
	ck_assert_double_eq(s.median, 7);
	ck_assert_int_eq(pb_stats_compute(one, 0, &s), -EINVAL);
}
END_TEST

/* A mean or median of zero leaves the relative figures undefined: they are
 * 0 (the documents print them as such), never a division by zero, and the
 * one that is defined is still computed. */
START_TEST(zero_mean_or_median)
{
	const double zeros[] = { 0, 0, 0 }, centred[] = { -1, 0, 1 }, zmed[] = { 0, 0, 3 };
	struct pb_stats s;

	ck_assert_int_eq(pb_stats_compute(zeros, 3, &s), 0);
	ck_assert_double_eq(s.rsd, 0);
	ck_assert_double_eq(s.spread, 0);
	ck_assert_int_eq(pb_stats_compute(centred, 3, &s), 0);
	ck_assert_double_eq(s.stddev, 1);
	ck_assert_double_eq(s.rsd, 0);
	ck_assert_double_eq(s.spread, 0);
	/* median 0, mean 1: the rsd exists, the spread does not */
	ck_assert_int_eq(pb_stats_compute(zmed, 3, &s), 0);
	ck_assert_double_eq_tol(s.rsd, sqrt(3.0), 1e-12);
	ck_assert_double_eq(s.spread, 0);
}
END_TEST

START_TEST(input_untouched)
{
	double v[] = { 3, 1, 2 };
	struct pb_stats s;

	pb_stats_compute(v, 3, &s);
	ck_assert_double_eq(v[0], 3);
	ck_assert_double_eq(v[1], 1);
}
END_TEST

START_TEST(welch_known_value)
{
	/* Wikipedia's Welch example 1: |t| = 2.46, df = 24.99, p = 0.021. */
	const double a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6,
			     23.1, 19.6, 19.0, 21.7, 21.4 };
	const double b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2,
			     21.9, 22.1, 22.9, 20.5, 24.4 };
	struct pb_stats sa, sb;
	double t, df, p;

	pb_stats_compute(a, 15, &sa);
	pb_stats_compute(b, 15, &sb);
	p = pb_stats_welch(&sa, &sb, &t, &df);
	ck_assert_double_eq_tol(t, 2.4554, 1e-3);   /* b - a */
	ck_assert_double_eq_tol(df, 24.9885, 1e-3);
	ck_assert_double_eq_tol(p, 0.0214, 1e-3);
}
END_TEST

START_TEST(welch_undefined)
{
	const double a[] = { 1, 1, 1 }, varied[] = { 1, 2, 4 }, one[] = { 2 };
	struct pb_stats sa, sv, sb;
	double t, df;

	pb_stats_compute(a, 3, &sa);
	ck_assert_double_eq(pb_stats_welch(&sa, &sa, &t, &df), -1);
	pb_stats_compute(one, 1, &sb);
	ck_assert_double_eq(pb_stats_welch(&sa, &sb, &t, &df), -1);
	/* n = 1 against a sample WITH variance: only the n < 2 guard says
	 * "undefined" here (the variance sum alone is positive). */
	pb_stats_compute(varied, 3, &sv);
	ck_assert_double_eq(pb_stats_welch(&sv, &sb, &t, &df), -1);
	ck_assert_double_eq(pb_stats_welch(&sb, &sv, &t, &df), -1);
}
END_TEST

/*
 * Either side of the 0.05 significance level.  Two samples {0, 2} and
 * {x, x + 2}: equal variances 2, so t = x / sqrt(2) and df = 2 exactly, and
 * Student's t with 2 degrees of freedom has the closed form
 * p = 1 - |t| / sqrt(t^2 + 2).  x = 6 gives p = 0.0513 (not significant),
 * x = 6.2 gives p = 0.0483 (significant).
 */
START_TEST(welch_near_significance)
{
	const double xs[] = { 6.0, 6.2, 1.0, 20.0 };
	const double a[] = { 0, 2 };
	struct pb_stats sa, sb;

	pb_stats_compute(a, 2, &sa);
	for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		const double b[] = { xs[i], xs[i] + 2 };
		double t, df, p, want_t = xs[i] / sqrt(2);

		pb_stats_compute(b, 2, &sb);
		p = pb_stats_welch(&sa, &sb, &t, &df);
		ck_assert_double_eq_tol(t, want_t, 1e-12);
		ck_assert_double_eq_tol(df, 2.0, 1e-12);
		ck_assert_double_eq_tol(p, 1 - want_t / sqrt(want_t * want_t + 2), 1e-9);
		/* the sign follows b - a */
		p = pb_stats_welch(&sb, &sa, &t, &df);
		ck_assert_double_eq_tol(t, -want_t, 1e-12);
		ck_assert_double_eq_tol(p, 1 - want_t / sqrt(want_t * want_t + 2), 1e-9);
	}
	pb_stats_compute((const double[]){ 6.0, 8.0 }, 2, &sb);
	ck_assert(pb_stats_welch(&sa, &sb, &(double){ 0 }, &(double){ 0 }) > 0.05);
	pb_stats_compute((const double[]){ 6.2, 8.2 }, 2, &sb);
	ck_assert(pb_stats_welch(&sa, &sb, &(double){ 0 }, &(double){ 0 }) < 0.05);
}
END_TEST

/* The ends of the p-value's range: equal means give t = 0 and p = 1
 * exactly; a difference so large that t * t overflows gives p = 0 (not
 * the -1 that means "undefined"). */
START_TEST(welch_extremes)
{
	const double a[] = { 0, 2 }, b[] = { 1, 1, 1 }, far[] = { 1e200, 1e200 };
	struct pb_stats sa, sb;
	double t, df;

	pb_stats_compute(a, 2, &sa);
	pb_stats_compute(b, 3, &sb);
	ck_assert_double_eq(pb_stats_welch(&sa, &sb, &t, &df), 1);
	ck_assert_double_eq(t, 0);
	pb_stats_compute(far, 2, &sb);
	ck_assert_double_eq(pb_stats_welch(&sa, &sb, &t, &df), 0);
	ck_assert(t > 1e199);
}
END_TEST

/* Five against five, apart: U = 25, the exact two-sided p is 2/252, the
 * shift 5 with the 95% interval [2, 8] (R's wilcox.test gives the same). */
START_TEST(mann_whitney_exact)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	struct pb_rank_test t;

	ck_assert_int_eq(pb_stats_mann_whitney(a, 5, b, 5, &t), 0);
	ck_assert(t.exact);
	ck_assert(t.u == 25);
	ck_assert_msg(fabs(t.p - 2.0 / 252) < 1e-12, "p %g", t.p);
	ck_assert(t.shift == 5 && t.lo == 2 && t.hi == 8 && t.k == 3);
	/* the other way round: U = 0, the same p, the shift negated */
	ck_assert_int_eq(pb_stats_mann_whitney(b, 5, a, 5, &t), 0);
	ck_assert(t.u == 0 && fabs(t.p - 2.0 / 252) < 1e-12);
	ck_assert(t.shift == -5 && t.lo == -8 && t.hi == -2);
	/* a sample against itself: p = 1, no shift */
	ck_assert_int_eq(pb_stats_mann_whitney(a, 5, a, 5, &t), 0);
	ck_assert(t.p == 1 && t.shift == 0);
	/* three against three cannot reach 0.05: the least p is 0.1, and no
	 * interval */
	ck_assert_int_eq(pb_stats_mann_whitney(a, 3, b, 3, &t), 0);
	ck_assert_msg(fabs(t.p - 0.1) < 1e-12, "p %g", t.p);
	ck_assert(t.k == 0 && isnan(t.lo) && isnan(t.hi));
}
END_TEST

/* Ties: the normal approximation with the tie and continuity corrections
 * (U 22 of 25, variance 21.5278, z 1.9397, p 0.05241), HL shift 1. */
START_TEST(mann_whitney_ties)
{
	const double a[] = { 1, 1, 2, 2, 3 }, b[] = { 2, 3, 3, 4, 4 };
	struct pb_rank_test t;

	ck_assert_int_eq(pb_stats_mann_whitney(a, 5, b, 5, &t), 0);
	ck_assert(!t.exact);
	ck_assert(t.u == 22);
	ck_assert_msg(fabs(t.p - 0.05241162867102868) < 1e-9, "p %.17g", t.p);
	ck_assert(t.shift == 1 && t.k == 3 && t.lo == 0 && t.hi == 3);
	/* every value the same: p 1 */
	ck_assert_int_eq(pb_stats_mann_whitney(a, 2, a, 2, &t), 0);
	ck_assert(t.p == 1 && t.shift == 0);
	/* more pairs than the exact bound: the normal approximation */
	{
		double x[21], y[21];

		for (int i = 0; i < 21; i++) {
			x[i] = i;
			y[i] = i + 0.5;
		}
		ck_assert_int_eq(pb_stats_mann_whitney(x, 20, y, 20, &t), 0);
		ck_assert(t.exact);
		ck_assert_int_eq(pb_stats_mann_whitney(x, 21, y, 20, &t), 0);
		ck_assert(!t.exact && t.p > 0.5);
	}
	ck_assert_int_eq(pb_stats_mann_whitney(a, 0, b, 5, &t), -EINVAL);
	ck_assert(t.p == -1);
	ck_assert_int_eq(pb_stats_mann_whitney(a, 5, b, 0, &t), -EINVAL);
}
END_TEST

/* The median's 95% interval by ranks: 20 values 1..20 give the 5th and
 * 16th (J = floor(10 - 4.38), K = ceil(11 + 4.38)); 8 values the 1st and
 * 8th; 7 values are too few. */
START_TEST(median_interval)
{
	double v[20], lo = 0, hi = 0;

	for (int i = 0; i < 20; i++)
		v[i] = 20 - i;  /* given unsorted */
	ck_assert_int_eq(pb_stats_median_ci(v, 20, &lo, &hi), 0);
	ck_assert(lo == 5 && hi == 16);
	ck_assert(v[0] == 20);  /* the input is left as it was */
	ck_assert_int_eq(pb_stats_median_ci(v + 12, 8, &lo, &hi), 0);
	ck_assert(lo == 1 && hi == 8);
	ck_assert_int_eq(pb_stats_median_ci(v + 13, 7, &lo, &hi), -EDOM);
	ck_assert_int_eq(pb_stats_median_ci(v, 0, &lo, &hi), -EDOM);
	/* 100 values: ranks 40 and 61 */
	{
		double w[100];

		for (int i = 0; i < 100; i++)
			w[i] = i + 1;
		ck_assert_int_eq(pb_stats_median_ci(w, 100, &lo, &hi), 0);
		ck_assert(lo == 40 && hi == 61);
	}
	/* as a precision: 1..20 has median 10.5 and 5.5 to either end, 52.38% */
	ck_assert_double_eq_tol(pb_stats_median_precision(v, 20), 5.5 / 10.5 * 100, 1e-9);
	ck_assert(isnan(pb_stats_median_precision(v, 7)));
	{
		double neg[8] = { -1, -2, -3, -4, -5, -6, -7, -8 };

		ck_assert(isnan(pb_stats_median_precision(neg, 8)));
	}
}
END_TEST

/* The row a --precision line names: NAN is the worst, a larger figure
 * worse, and of equals the first seen stays. */
START_TEST(precision_worse)
{
	ck_assert(pb_stats_precision_worse(NAN, 1));
	ck_assert(pb_stats_precision_worse(NAN, 0));
	ck_assert(!pb_stats_precision_worse(1, NAN));
	ck_assert(!pb_stats_precision_worse(NAN, NAN));
	ck_assert(pb_stats_precision_worse(2, 1));
	ck_assert(pb_stats_precision_worse(1.0000001, 1));
	ck_assert(!pb_stats_precision_worse(1, 1));
	ck_assert(!pb_stats_precision_worse(0, 0));
	ck_assert(!pb_stats_precision_worse(1, 2));
	ck_assert(pb_stats_precision_worse(0.5, 0));
}
END_TEST

/* ---- the library's allocations, seen and failed here (linked with
 * -Wl,--wrap=malloc -Wl,--wrap=calloc) */

/* A malloc or calloc of exactly this many bytes fails while nonzero. */
static size_t fail_bytes;
/* The largest calloc asked for since it was last cleared. */
static size_t calloc_largest;
/* While set, each malloc gets TAIL_N more doubles after what was asked,
 * each tail_value: a read past the end sees that value, not chance. */
static bool tail_on;
static double tail_value;
#define TAIL_N 4

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);

void *__wrap_malloc(size_t size)
{
	double *tail;
	char *p;

	if (fail_bytes && size == fail_bytes) {
		errno = ENOMEM;
		return NULL;
	}
	if (!tail_on)
		return __real_malloc(size);
	p = __real_malloc(size + TAIL_N * sizeof(double));
	if (p) {
		tail = (double *)(void *)(p + size);
		for (int i = 0; i < TAIL_N; i++)
			memcpy(tail + i, &tail_value, sizeof(tail_value));
	}
	return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
	if (n * size > calloc_largest)
		calloc_largest = n * size;
	if (fail_bytes && n * size == fail_bytes) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_calloc(n, size);
}

/* Bytes the heap has handed out (small chunks and mmapped ones).  A block
 * bigger than the thread cache's largest (1032 bytes) goes back to the
 * heap's free lists when freed, so a call that frees what it allocated of
 * that size leaves this as it was. */
static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* An odd count's median is the middle value: 5 values, the 3rd. */
START_TEST(odd_median_of_five)
{
	const double v[] = { 9, 1, 7, 3, 5 };
	struct pb_stats s;

	ck_assert_int_eq(pb_stats_compute(v, 5, &s), 0);
	ck_assert_double_eq(s.median, 5);
	ck_assert_double_eq(s.spread, 8.0 / 5);
}
END_TEST

/* Deviations are taken from the mean: 1e8, 1e8 + 1, 1e8 + 1 have the
 * variance 1/3 (squares summed as s^2 - mean^2 lose it to rounding; the
 * mean, 1e8 + 2/3, is not a double). */
START_TEST(stddev_of_large_values)
{
	const double v[] = { 1e8, 1e8 + 1, 1e8 + 1 };
	struct pb_stats s;

	ck_assert_int_eq(pb_stats_compute(v, 3, &s), 0);
	ck_assert_double_eq_tol(s.stddev, sqrt(1.0 / 3), 1e-6);
}
END_TEST

/* Every call gives back what it allocated: blocks over the thread cache's
 * size (n = 200 values, 70 against 70, 15 against 15 for the exact
 * distribution's table and counts). */
START_TEST(no_leaks)
{
	double v[200], lo, hi;
	struct pb_stats s;
	struct pb_rank_test t;
	size_t before;

	for (int i = 0; i < 200; i++)
		v[i] = (i * 37) % 200 + 1;
	/* a first round, for whatever the C library keeps once */
	ck_assert_int_eq(pb_stats_compute(v, 200, &s), 0);
	ck_assert_int_eq(pb_stats_mann_whitney(v, 15, v + 15, 15, &t), 0);

	before = heap_in_use();
	ck_assert_int_eq(pb_stats_compute(v, 200, &s), 0);
	ck_assert_uint_eq(heap_in_use(), before);
	ck_assert_int_eq(pb_stats_median_ci(v, 200, &lo, &hi), 0);
	ck_assert_uint_eq(heap_in_use(), before);
	ck_assert(!isnan(pb_stats_median_precision(v, 200)));
	ck_assert_uint_eq(heap_in_use(), before);
	ck_assert_int_eq(pb_stats_mann_whitney(v, 15, v + 15, 15, &t), 0);
	ck_assert(t.exact);
	ck_assert_uint_eq(heap_in_use(), before);
	ck_assert_int_eq(pb_stats_mann_whitney(v, 70, v + 70, 70, &t), 0);
	ck_assert(!t.exact);
	ck_assert_uint_eq(heap_in_use(), before);
}
END_TEST

/* Without memory: -ENOMEM, and what was had is given back. */
START_TEST(without_memory)
{
	double v[200], lo = 0, hi = 0;
	struct pb_stats s;
	struct pb_rank_test t;
	size_t before;

	for (int i = 0; i < 200; i++)
		v[i] = (i * 37) % 200 + 1;
	ck_assert_int_eq(pb_stats_mann_whitney(v, 15, v + 15, 15, &t), 0);
	before = heap_in_use();
	/* the sorted copy */
	fail_bytes = 200 * sizeof(double);
	ck_assert_int_eq(pb_stats_compute(v, 200, &s), -ENOMEM);
	ck_assert_int_eq(pb_stats_median_ci(v, 200, &lo, &hi), -ENOMEM);
	ck_assert(isnan(pb_stats_median_precision(v, 200)));
	/* all 200 values, for the ties (the differences, 10000, are had) */
	ck_assert_int_eq(pb_stats_mann_whitney(v, 100, v + 100, 100, &t), -ENOMEM);
	ck_assert_uint_eq(heap_in_use(), before);
	/* the 10000 differences (the 200 values are had) */
	fail_bytes = 10000 * sizeof(double);
	ck_assert_int_eq(pb_stats_mann_whitney(v, 100, v + 100, 100, &t), -ENOMEM);
	ck_assert_uint_eq(heap_in_use(), before);
	/* the exact distribution's table, (15 + 1)^2 layers of 226 counts,
	 * then its counts of U (the 225 differences are had) */
	fail_bytes = 16 * 16 * 226 * sizeof(double);
	ck_assert_int_eq(pb_stats_mann_whitney(v, 15, v + 15, 15, &t), -ENOMEM);
	ck_assert_uint_eq(heap_in_use(), before);
	fail_bytes = 226 * sizeof(double);
	ck_assert_int_eq(pb_stats_mann_whitney(v, 15, v + 15, 15, &t), -ENOMEM);
	ck_assert_uint_eq(heap_in_use(), before);
	fail_bytes = 0;
	ck_assert_int_eq(pb_stats_mann_whitney(v, 15, v + 15, 15, &t), 0);
	ck_assert(t.exact);
}
END_TEST

/* U's exact distribution takes one table of (NA + 1)(NB + 1) layers of
 * NA NB + 1 counts, no more: 4 against 5, 30 layers of 21. */
START_TEST(exact_table_size)
{
	const double a[] = { 1, 3, 5, 7 }, b[] = { 2, 4, 6, 8, 10 };
	struct pb_rank_test t;

	calloc_largest = 0;
	ck_assert_int_eq(pb_stats_mann_whitney(a, 4, b, 5, &t), 0);
	ck_assert(t.exact);
	ck_assert_uint_eq(calloc_largest, 5 * 6 * 21 * sizeof(double));
}
END_TEST

/* The tie count reads no value past the end: with copies of the largest
 * value after every buffer, 3 against 3 without ties stays exact (p 2/20). */
START_TEST(ties_read_no_further)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct pb_rank_test t;
	int rc;

	tail_value = 6;
	tail_on = true;
	rc = pb_stats_mann_whitney(a, 3, b, 3, &t);
	tail_on = false;
	ck_assert_int_eq(rc, 0);
	ck_assert(t.exact);
	ck_assert_msg(fabs(t.p - 2.0 / 20) < 1e-12, "p %g", t.p);
}
END_TEST

/* A NaN among the values ties with nothing, and the count of ties ends:
 * U counts only the pairs that compare, b > a: 2. */
START_TEST(nan_value_ends)
{
	const double a[] = { 1, NAN }, b[] = { 2, 3 };
	struct pb_rank_test t;

	ck_assert_int_eq(pb_stats_mann_whitney(a, 2, b, 2, &t), 0);
	ck_assert(t.u == 2);
}
END_TEST

/* ---- the exact test, against a brute-force count of every arrangement */

/* How many ways NB of the ranks 1..N (N = NA + NB) have each rank sum,
 * as U = sum - NB (NB + 1) / 2: counts[0..NA NB], subsets counted one
 * rank at a time (a knapsack), not by the library's recurrence. */
#define BF_N 40
static void bf_counts(int na, int nb, double *counts)
{
	static double w[BF_N + 1][BF_N * (BF_N + 1) / 2 + 1];
	int n = na + nb, top = n * (n + 1) / 2;

	memset(w, 0, sizeof(w));
	w[0][0] = 1;
	for (int r = 1; r <= n; r++)
		for (int k = r < nb ? r : nb; k >= 1; k--)
			for (int s = top; s >= r; s--)
				w[k][s] += w[k - 1][s - r];
	for (int u = 0; u <= na * nb; u++)
		counts[u] = w[nb][u + nb * (nb + 1) / 2];
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* NA values against NB, all pairwise differences distinct, B moved by
 * OFFSET: U, the two-sided p from the counts, the interval's rank K (the
 * largest with 40 P(U < K) <= 1), the median difference and the K-th
 * smallest and largest differences. */
static void exact_case(int na, int nb, double offset)
{
	double a[BF_N], b[BF_N], counts[BF_N * BF_N + 1], d[BF_N * BF_N];
	double total = 0, le = 0, ge = 0, u = 0, p, want_lo = NAN, want_hi = NAN, shift;
	int nd = na * nb, k = 0;
	struct pb_rank_test t;

	for (int i = 0; i < na; i++)
		a[i] = fmod((i + 1) * 0.7548776662466927, 1.0) * 100;
	for (int j = 0; j < nb; j++)
		b[j] = fmod((j + 1) * 0.5698402909980532, 1.0) * 100 + offset;
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++) {
			u += b[j] > a[i];
			d[i * nb + j] = b[j] - a[i];
		}
	qsort(d, (size_t)nd, sizeof(d[0]), cmp_dbl);
	bf_counts(na, nb, counts);
	for (int v = 0; v <= nd; v++) {
		total += counts[v];
		le += v <= u ? counts[v] : 0;
		ge += v >= u ? counts[v] : 0;
	}
	p = fmin(1, 2 * fmin(le, ge) / total);
	for (double below = 0; 40 * (below + counts[k]) <= total; k++)
		below += counts[k];
	if (k >= 1) {
		want_lo = d[k - 1];
		want_hi = d[nd - k];
	}
	shift = nd % 2 ? d[nd / 2] : (d[nd / 2 - 1] + d[nd / 2]) / 2;

	ck_assert_int_eq(pb_stats_mann_whitney(a, (size_t)na, b, (size_t)nb, &t), 0);
	ck_assert_msg(t.exact, "%d x %d", na, nb);
	ck_assert_msg(t.u == u, "%d x %d: U %g, want %g", na, nb, t.u, u);
	ck_assert_msg(fabs(t.p - p) < 1e-12, "%d x %d +%g: p %.17g, want %.17g", na, nb,
		      offset, t.p, p);
	ck_assert_msg(t.k == (size_t)k, "%d x %d: K %zu, want %d", na, nb, t.k, k);
	ck_assert_msg(t.shift == shift, "%d x %d +%g: shift %.17g, want %.17g", na, nb,
		      offset, t.shift, shift);
	ck_assert_msg(k ? t.lo == want_lo && t.hi == want_hi : isnan(t.lo) && isnan(t.hi),
		      "%d x %d +%g: [%g, %g], want [%g, %g]", na, nb, offset, t.lo, t.hi,
		      want_lo, want_hi);
}

/* Every size up to 7 against 7, both ways round, apart, overlapping and
 * interleaved; 2 x 8, 3 x 5 and 4 x 4 (K 1: the interval is the least and
 * greatest difference); 1 x 39 (P(U < 1) is 1/40, exactly alpha/2: K 1). */
START_TEST(exact_against_brute_force)
{
	static const double offsets[] = { -120, -30, 0, 10, 45, 120 };

	for (int na = 1; na <= 7; na++)
		for (int nb = 1; nb <= 7; nb++)
			for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++)
				exact_case(na, nb, offsets[o]);
	exact_case(2, 8, 120);
	exact_case(3, 5, -120);
	exact_case(4, 4, 120);
	exact_case(1, 39, 120);
	exact_case(1, 39, 0);
}
END_TEST

/* U at the middle of its distribution: twice the smaller tail is 8/6, p
 * is 1 (2 against 2, U 2). */
START_TEST(exact_p_at_most_one)
{
	const double a[] = { 1, 4 }, b[] = { 2, 3 };
	struct pb_rank_test t;

	ck_assert_int_eq(pb_stats_mann_whitney(a, 2, b, 2, &t), 0);
	ck_assert(t.exact && t.u == 2);
	ck_assert(t.p == 1);
	ck_assert(t.shift == 0);
}
END_TEST

/* The normal approximation on small samples with ties.
 * {1, 1} against {2}: n 3, 2 pairs, one tie of 2 (correction 6): variance
 * 2 (4 - 6/6) / 12 = 1/2, U 2, z (1 - 1/2) / sqrt(1/2), p erfc(1/2); K
 * floor(1 - 1.96 sqrt(1/2)) = -1, none.
 * {1, 1} against {1, 1, 1, 3}: n 6, 8 pairs, a tie of 5 (120): variance
 * 8 (7 - 120/30) / 12 = 2, U 3 + 2 = 5, z 1/2 / sqrt 2, p erfc(1/4); K
 * floor(4 - 1.96 sqrt 2) = 1: the least and greatest difference, 0 and 2.
 * Every value the same: variance 0, p 1, no interval. */
START_TEST(normal_small_samples)
{
	const double one[] = { 1, 1 }, two[] = { 2 }, b[] = { 1, 1, 1, 3 };
	struct pb_rank_test t;

	ck_assert_int_eq(pb_stats_mann_whitney(one, 2, two, 1, &t), 0);
	ck_assert(!t.exact && t.u == 2);
	ck_assert_msg(fabs(t.p - erfc(0.5)) < 1e-12, "p %.17g", t.p);
	ck_assert_uint_eq(t.k, 0);
	ck_assert(isnan(t.lo) && isnan(t.hi));
	ck_assert(t.shift == 1);

	ck_assert_int_eq(pb_stats_mann_whitney(one, 2, b, 4, &t), 0);
	ck_assert(!t.exact && t.u == 5);
	ck_assert_msg(fabs(t.p - erfc(0.25)) < 1e-12, "p %.17g", t.p);
	ck_assert_uint_eq(t.k, 1);
	ck_assert(t.lo == 0 && t.hi == 2);
	ck_assert(t.shift == 0);

	ck_assert_int_eq(pb_stats_mann_whitney(one, 2, one, 2, &t), 0);
	ck_assert(!t.exact && t.p == 1);
	ck_assert_uint_eq(t.k, 0);
	ck_assert(isnan(t.lo) && isnan(t.hi));
}
END_TEST

/* The median's precision takes the farther end of its interval: 20
 * values, the 5th and 16th of them around the median 10.5. */
START_TEST(precision_farther_end)
{
	double low[20], high[20], small[20], centred[9];

	for (int i = 0; i < 20; i++) {
		low[i] = i < 5 ? -100 + 10 * i : i + 1;     /* 5th -60, 6th 6 */
		high[i] = i < 15 ? i + 1 : 100 + 10 * (i - 15); /* 15th 15, 16th 100 */
		small[i] = (i + 1) / 64.0;                  /* median 10.5 / 64 */
	}
	ck_assert_double_eq_tol(pb_stats_median_precision(low, 20), 70.5 / 10.5 * 100, 1e-9);
	ck_assert_double_eq_tol(pb_stats_median_precision(high, 20), 89.5 / 10.5 * 100, 1e-9);
	/* a median under 1 is as good as any other positive one */
	ck_assert_double_eq_tol(pb_stats_median_precision(small, 20), 5.5 / 10.5 * 100, 1e-9);
	/* a median of 0 has no relative precision */
	for (int i = 0; i < 9; i++)
		centred[i] = i - 4;
	ck_assert(isnan(pb_stats_median_precision(centred, 9)));
}
END_TEST

/* ---- Welch's p against Student's t in closed form */

/* Two-sided p of Student's t with 1, 2 or 6 degrees of freedom, in forms
 * without cancellation where p is small. */
static double student_p(int df, double t)
{
	double s, u, w;

	t = fabs(t);
	switch (df) {
	case 1:
		return 2 / M_PI * atan(1 / t);
	case 2:
		s = sqrt(t * t + 2);
		return 2 / (s * (s + t));
	default: /* 6 */
		u = t / sqrt(t * t + 6);
		w = 6 / (t * t + 6);
		return 1 - u * (1 + w / 2 + 3 * w * w / 8);
	}
}

/* Samples given as statistics: two of 2 with the same stddev 1 give df 2
 * and t = the difference; one of 2 against one without variance df 1 and
 * t = the difference / sqrt(1/2).  Each p to within TOL of it (relative):
 * from a t of 1e-4 (p near 1, where I_x(a, b) is summed as
 * 1 - I_{1-x}(b, a)) to 1e6 (p 1e-12, summed directly), and the points
 * near the switch between the two where the fraction converges slowest. */
START_TEST(welch_closed_forms)
{
	static const struct {
		int df;
		double t, tol;
	} c[] = {
		{ 2, 1e-4, 1e-13 }, { 2, 0.01, 1e-13 }, { 2, 0.6607, 1e-14 }, { 2, 1, 1e-14 },
		{ 2, 4.4668, 4e-15 }, { 2, 9.5499, 4e-15 }, { 2, 1e3, 1e-13 }, { 2, 1e6, 1e-12 },
		{ 1, 1e-4, 1e-11 }, { 1, 1.2303, 3e-14 }, { 1, 2.138, 1e-14 },
		{ 1, 12.8825, 4e-15 }, { 1, 48.9779, 4e-15 }, { 1, 1e6, 1e-12 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pb_stats a = { .n = 2, .stddev = 1 }, b = { .n = 2, .stddev = 1 };
		double t, df, p, want;

		b.mean = c[i].t;
		if (c[i].df == 1) {
			b.stddev = 0;
			b.mean = c[i].t * sqrt(0.5);
		}
		p = pb_stats_welch(&a, &b, &t, &df);
		ck_assert_double_eq(df, c[i].df);
		want = student_p(c[i].df, t);
		ck_assert_msg(fabs(p - want) <= c[i].tol * want, "df %d t %.17g: p %.17g, want %.17g",
			      c[i].df, t, p, want);
	}
}
END_TEST

/* At the switch itself: df 6 and t 1.5 put x = 6 / 8.25 = 8/11 exactly on
 * (a + 1) / (a + b + 2) = 4 / 5.5, where the complement is the one that
 * converges (p 0.18). */
START_TEST(welch_at_the_switch)
{
	struct pb_stats a = { .n = 4, .stddev = 1 }, b = { .n = 4, .stddev = 1 };
	double t, df, p;

	b.mean = 1.5 * sqrt(0.5);
	p = pb_stats_welch(&a, &b, &t, &df);
	ck_assert(df == 6 && t == 1.5);
	ck_assert_msg(fabs(p - student_p(6, t)) < 2e-14 * p, "p %.17g, want %.17g", p,
		      student_p(6, t));
}
END_TEST

PB_CHECK_SUITE_MAIN("stats",
	PB_TCASE("describe", odd_and_even_medians, dispersion, single_and_empty, zero_mean_or_median,
		 input_untouched, odd_median_of_five, stddev_of_large_values),
	PB_TCASE("welch", welch_known_value, welch_undefined, welch_near_significance, welch_extremes,
		 welch_closed_forms, welch_at_the_switch),
	PB_TCASE("rank", mann_whitney_exact, mann_whitney_ties, median_interval,
		 precision_worse, exact_against_brute_force, exact_p_at_most_one,
		 normal_small_samples, precision_farther_end, nan_value_ends),
	PB_TCASE("memory", no_leaks, without_memory, exact_table_size, ties_read_no_further))
