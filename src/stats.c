/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int pb_stats_compute(const double *v, size_t n, struct pb_stats *out)
{
	double *s, sum = 0, sq = 0;

	if (n == 0)
		return -EINVAL;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	memset(out, 0, sizeof(*out));
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (s[i] - out->mean) * (s[i] - out->mean);
	out->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	out->rsd = out->mean != 0 ? out->stddev / fabs(out->mean) : 0;
	out->spread = out->median != 0 ? (out->max - out->min) / fabs(out->median) : 0;
	free(s);
	return 0;
}

#define LENTZ_TINY 1e-300

/* x, or the smallest magnitude Lentz's method divides by where x is ~0. */
static double lentz_guard(double x)
{
	return fabs(x) < LENTZ_TINY ? LENTZ_TINY : x;
}

/* One step of Lentz's method for the term aa: updates c and d, returns the
 * factor the fraction is multiplied by. */
static double lentz_step(double aa, double *c, double *d)
{
	*d = 1 / lentz_guard(1 + aa * *d);
	*c = lentz_guard(1 + aa / *c);
	return *d * *c;
}

/*
 * Regularized incomplete beta function I_x(a,b) by Lentz's continued
 * fraction (Numerical Recipes' betacf), enough for Student's t tails: each
 * round takes the even term, then the odd one.
 */
static double betacf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1;
	double d = 1 / lentz_guard(1 - qab * x / qap);
	double h = d;

	for (int m = 1; m <= 300; m++) {
		int m2 = 2 * m;
		double del;

		h *= lentz_step(m * (b - m) * x / ((qam + m2) * (a + m2)), &c, &d);
		del = lentz_step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &c, &d);
		h *= del;
		if (fabs(del - 1) < 1e-12)
			break;
	}
	return h;
}

static double ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double pb_stats_welch(const struct pb_stats *a, const struct pb_stats *b,
		      double *t, double *df)
{
	double va, vb, se2;

	if (a->n < 2 || b->n < 2)
		return -1;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	se2 = va + vb;
	if (se2 <= 0)
		return -1;
	*t = (b->mean - a->mean) / sqrt(se2);
	*df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	/* Two-sided p = I_{df/(df+t^2)}(df/2, 1/2). */
	return ibeta(*df / 2, 0.5, *df / (*df + *t * *t));
}
