/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tests/mutgen.sh's fixture for tests/mutation/gen.pl: every rule has a
 * point here, and none may come from a comment like this one (a < b, x == y,
 * a && b, 42, EAGAIN, if (x) f(); break; a * b / c) */
#include <errno.h>
#define LIMIT (4 < 5 && 6 > 7)

#if 0
static int unused(int a) { return a < 1 && a > 2; }
#endif

static const char *text = "a < b, c == d, e && f, 17, EINTR, g / h";
static const char lt = '<';

int f(int a, int b);
int f(int a, int b)
{
	char buf[64];
	int pr[7] = { 0, 1 }, pw[9];
	double r;

	if (a < b || a >= 10)
		return -EAGAIN;
	while (a != b && b == 3) {
		a++;
		if (a > 100)
			break;
	}
	(void)text;
	(void)lt;
	buf[0] = 0;
	pw[0] = pr[1];
	r = (double)a / b;
	f(a - 1, b + 2);
	return (int)(r * 2) + buf[0] + (a <= b ? EINVAL : 0);
}

/* Constants in places no test can tell them moved by one: a wait's bound
 * of 10 ms or more, fcntl's third argument with F_GET*, open's mode without
 * O_CREAT.  Each line's second call keeps its points. */
int g(int fd, void *p, int k);
int g(int fd, void *p, int k)
{
	int n = poll(p, k, 2000) + poll(p, k, 5);
	n += fcntl(fd, F_GETFL, 0) + fcntl(fd, F_SETFL, 0);
	n += open("x", O_RDONLY, 0) + open("x", O_CREAT, 0600);
	return n;
}

/* Units and scales: a power of ten of 1000 or more becomes ten times and a
 * tenth, a binary unit its decimal one, a plain count moves by one. */
unsigned long long h(unsigned long long x);
unsigned long long h(unsigned long long x)
{
	return x * 1000000000ULL / 1024 + 7;
}
