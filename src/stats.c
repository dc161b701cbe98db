/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* V[0..N-1] sorted, in a copy for the caller to free; NULL without memory. */
static double *sorted_copy(const double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s));

	if (s) {
		memcpy(s, v, n * sizeof(*s));
		qsort(s, n, sizeof(*s), cmp_double);
	}
	return s;
}

static double sorted_median(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

int pb_stats_compute(const double *v, size_t n, struct pb_stats *out)
{
	double *s, sum = 0, sq = 0;

	if (n == 0)
		return -EINVAL;
	s = sorted_copy(v, n);
	if (!s)
		return -ENOMEM;
	memset(out, 0, sizeof(*out));
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = sorted_median(s, n);
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

/* ---- Mann-Whitney U and the Hodges-Lehmann shift */

/* How many arrangements of NA + NB values give each U (0..NA*NB), no
 * ties: counts[u], by f(n, m, u) = f(n-1, m, u-m) + f(n, m-1, u) over a
 * table of m-layers.  NULL without memory. */
static double *u_counts(size_t na, size_t nb)
{
	size_t max = na * nb, w = max + 1;
	double *f = calloc((na + 1) * (nb + 1) * w, sizeof(*f)), *out;

	if (!f)
		return NULL;
#define F(n, m) (f + ((n) * (nb + 1) + (m)) * w)
	for (size_t n = 0; n <= na; n++)
		for (size_t m = 0; m <= nb; m++) {
			if (!n || !m) {
				F(n, m)[0] = 1;
				continue;
			}
			for (size_t u = 0; u <= n * m; u++)
				F(n, m)[u] = (u >= m ? F(n - 1, m)[u - m] : 0) + F(n, m - 1)[u];
		}
	out = malloc(w * sizeof(*out));
	if (out)
		memcpy(out, F(na, nb), w * sizeof(*out));
#undef F
	free(f);
	return out;
}

/* The standard normal's upper tail. */
static double normal_upper(double z)
{
	return 0.5 * erfc(z / sqrt(2));
}

int pb_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			  struct pb_rank_test *out)
{
	double u = 0, mean, var, tie = 0, *all, *d;
	size_t n = na + nb, nd = na * nb;
	bool ties = false;

	memset(out, 0, sizeof(*out));
	out->p = -1;
	out->shift = out->lo = out->hi = NAN;
	if (na < 1 || nb < 1)
		return -EINVAL;
	/* U of B against A: pairs (a, b) with b > a, a tie counting half */
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u += b[j] > a[i] ? 1 : b[j] == a[i] ? 0.5 : 0;
	out->u = u;
	/* ties among all the values, for the variance's correction */
	all = malloc(n * sizeof(*all));
	d = malloc(nd * sizeof(*d));
	if (!all || !d) {
		free(all);
		free(d);
		return -ENOMEM;
	}
	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	qsort(all, n, sizeof(*all), cmp_double);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && all[j] == all[i]; j++)
			;
		if (j - i > 1) {
			double t = (double)(j - i);

			ties = true;
			tie += t * t * t - t;
		}
	}
	free(all);
	mean = (double)nd / 2;
	var = (double)nd * ((double)n + 1 - tie / ((double)n * ((double)n - 1))) / 12;
	if (!ties && nd <= PB_RANK_EXACT_MAX) {
		double *c = u_counts(na, nb), total = 0, le = 0, ge = 0;

		if (!c) {
			free(d);
			return -ENOMEM;
		}
		for (size_t k = 0; k <= nd; k++) {
			total += c[k];
			le += (double)k <= u ? c[k] : 0;
			ge += (double)k >= u ? c[k] : 0;
		}
		out->p = fmin(1, 2 * fmin(le, ge) / total);
		out->exact = true;
		/* the interval's rank: the largest K with P(U < K) <= alpha/2 */
		le = 0;
		out->k = 0;
		for (size_t k = 0; k <= nd && le + c[k] <= PB_RANK_ALPHA / 2 * total; k++) {
			le += c[k];
			out->k = k + 1;
		}
		free(c);
	} else if (var > 0) {
		double z = (fabs(u - mean) - 0.5) / sqrt(var);
		double k = floor(mean - 1.959963984540054 * sqrt(var));

		out->p = fmin(1, 2 * normal_upper(z > 0 ? z : 0));
		out->k = k > 0 ? (size_t)k : 0;
	} else {
		out->p = 1;  /* every value the same */
	}
	/* Hodges-Lehmann: the median of the differences b - a, and between
	 * the K-th smallest and K-th largest of them */
	for (size_t i = 0, k = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			d[k++] = b[j] - a[i];
	qsort(d, nd, sizeof(*d), cmp_double);
	out->shift = nd % 2 ? d[nd / 2] : (d[nd / 2 - 1] + d[nd / 2]) / 2;
	if (out->k >= 1 && out->k <= nd - out->k + 1) {
		out->lo = d[out->k - 1];
		out->hi = d[nd - out->k];
	}
	free(d);
	return 0;
}

/* The ranks (1-based) of the median's 95% interval among N sorted values:
 * J = floor(N/2 - 0.98 sqrt N), K = ceil(N/2 + 1 + 0.98 sqrt N); false
 * when N is too small for both to exist. */
static bool median_ci_ranks(size_t n, size_t *j, size_t *k)
{
	double h = 0.9799819922700 * sqrt((double)n), fj = floor((double)n / 2 - h);
	double fk = ceil((double)n / 2 + 1 + h);

	if (n == 0 || fj < 1 || fk > (double)n)
		return false;
	*j = (size_t)fj;
	*k = (size_t)fk;
	return true;
}

int pb_stats_median_ci(const double *v, size_t n, double *lo, double *hi)
{
	size_t j, k;
	double *s;

	if (!median_ci_ranks(n, &j, &k))
		return -EDOM;
	s = sorted_copy(v, n);
	if (!s)
		return -ENOMEM;
	*lo = s[j - 1];
	*hi = s[k - 1];
	free(s);
	return 0;
}

bool pb_stats_precision_worse(double cand, double worst)
{
	return !isnan(worst) && (isnan(cand) || cand > worst);
}

double pb_stats_median_precision(const double *v, size_t n)
{
	double *s, med, r = NAN;
	size_t j, k;

	if (!median_ci_ranks(n, &j, &k) || !(s = sorted_copy(v, n)))
		return NAN;
	med = sorted_median(s, n);
	if (med > 0)
		r = fmax(med - s[j - 1], s[k - 1] - med) / med * 100;
	free(s);
	return r;
}
