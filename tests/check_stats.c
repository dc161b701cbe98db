/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

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

PB_CHECK_SUITE_MAIN("stats",
	PB_TCASE("describe", odd_and_even_medians, dispersion, single_and_empty, zero_mean_or_median,
		 input_untouched),
	PB_TCASE("welch", welch_known_value, welch_undefined, welch_near_significance, welch_extremes),
	PB_TCASE("rank", mann_whitney_exact, mann_whitney_ties, median_interval,
		 precision_worse))
