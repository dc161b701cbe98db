/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "msg.h"
#include "units.h"

/*
 * Parse the leading decimal digits of s into *v; reject signs, spaces and
 * overflow ourselves rather than trusting strtoull, which accepts "-1".
 */
static int parse_digits(const char **sp, uint64_t *v)
{
	const char *s = *sp;
	uint64_t acc = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (acc > (UINT64_MAX - d) / 10)
			return -ERANGE;
		acc = acc * 10 + d;
	}
	*sp = s;
	*v = acc;
	return 0;
}

static int check_range(uint64_t v, uint64_t min, uint64_t max)
{
	return (v < min || v > max) ? -ERANGE : 0;
}

int pb_parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;
	int r;

	if (!s)
		return -EINVAL;
	r = parse_digits(&s, &v);
	if (r == -ERANGE) {
		/* Still junk if non-digits follow the overflowing digits. */
		while (isdigit((unsigned char)*s))
			s++;
		return *s ? -EINVAL : -ERANGE;
	}
	if (r || *s)  /* r: 0 or -EINVAL here */
		return -EINVAL;
	r = check_range(v, min, max);
	if (r == 0)
		*out = v;
	return r;
}

struct suffix {
	const char *name;
	uint64_t mult;
};

/* Whether S is one of TAB's suffixes (in any case when NOCASE); *MULT its
 * multiple. */
static bool find_suffix(const char *s, const struct suffix *tab, uint64_t *mult, bool nocase)
{
	for (; tab->name; tab++)
		if ((nocase ? strcasecmp(s, tab->name) : strcmp(s, tab->name)) == 0) {
			*mult = tab->mult;
			return true;
		}
	return false;
}

int pb_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	static const struct suffix tab[] = {
		{ "", 1 }, { "B", 1 },
		{ "K", 1ULL << 10 }, { "KB", 1ULL << 10 }, { "KiB", 1ULL << 10 },
		{ "M", 1ULL << 20 }, { "MB", 1ULL << 20 }, { "MiB", 1ULL << 20 },
		{ "G", 1ULL << 30 }, { "GB", 1ULL << 30 }, { "GiB", 1ULL << 30 },
		{ NULL },
	};
	uint64_t v, mult;
	int r;

	if (!s)
		return -EINVAL;
	r = parse_digits(&s, &v);
	if (r == -EINVAL)
		return r;
	if (r == -ERANGE) {
		while (isdigit((unsigned char)*s))
			s++;
		return find_suffix(s, tab, &mult, true) ? -ERANGE : -EINVAL;
	}
	/* Sizes only have binary multiples, so 4k, 4K, 4KiB and 4kb agree. */
	if (!find_suffix(s, tab, &mult, true))
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	v *= mult;
	r = check_range(v, min, max);
	if (r == 0)
		*out = v;
	return r;
}

int pb_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s || isnan(v) || isinf(v))
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int pb_parse_duration(const char *s, uint64_t min_ns, uint64_t max_ns,
		      uint64_t *out_ns)
{
	static const struct suffix tab[] = {
		{ "", 1000000000ULL }, { "s", 1000000000ULL },
		{ "ns", 1ULL }, { "us", 1000ULL }, { "ms", 1000000ULL },
		{ "m", 60000000000ULL }, { "h", 3600000000000ULL },
		{ NULL },
	};
	const char *p = s;
	uint64_t mult;
	double v;
	char num[64];
	size_t len;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	len = (size_t)(p - s);
	if (len >= sizeof(num) || !find_suffix(p, tab, &mult, false))
		return -EINVAL;
	memcpy(num, s, len);
	num[len] = '\0';
	if (pb_parse_double(num, 0, 1e300, &v))
		return -EINVAL;
	v *= (double)mult;
	if (v > (double)max_ns || v > 1.8e19)
		return -ERANGE;
	if ((uint64_t)v < min_ns)
		return -ERANGE;
	*out_ns = (uint64_t)v;
	return 0;
}

/* Iterate comma-separated items; returns -EINVAL on an empty item. */
static int next_item(const char **sp, const char **item, size_t *len)
{
	const char *s = *sp, *comma = strchr(s, ',');

	*item = s;
	*len = comma ? (size_t)(comma - s) : strlen(s);
	if (*len == 0)
		return -EINVAL;
	*sp = comma ? comma + 1 : s + *len;
	return comma && !comma[1] ? -EINVAL : 0; /* trailing comma */
}

int pb_parse_size_list(const char *s, uint64_t min, uint64_t max,
		       uint64_t *out, size_t max_items, size_t *n)
{
	size_t count = 0;

	if (!s || !*s)
		return -EINVAL;
	while (*s) {
		const char *item;
		char buf[64];
		size_t len;
		int r = next_item(&s, &item, &len);

		if (r)
			return r;
		if (len >= sizeof(buf))
			return -EINVAL;
		if (count == max_items)
			return -E2BIG;
		memcpy(buf, item, len);
		buf[len] = '\0';
		r = pb_parse_size(buf, min, max, &out[count]);
		if (r)
			return r;
		count++;
	}
	*n = count;
	return 0;
}

/* The index of the word of WORDS that is the LEN bytes at S, in any case. */
static int find_word(const char *const *words, const char *s, size_t len)
{
	for (int i = 0; words[i]; i++)
		if (strlen(words[i]) == len && strncasecmp(words[i], s, len) == 0)
			return i;
	return -1;
}

int pb_match_word(const char *const *words, const char *s, size_t len)
{
	int i = find_word(words, s, len);

	/* "pipe", messaging's word for an anonymous pipe, is a synonym any
	 * vocabulary with "anon" accepts */
	if (i < 0 && find_word((const char *const[]){ "pipe", NULL }, s, len) == 0)
		i = find_word(words, "anon", 4);
	return i;
}

size_t pb_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[64][64];

	if (la >= 63 || lb >= 63)
		return SIZE_MAX;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = tolower((unsigned char)a[i - 1]) !=
				      tolower((unsigned char)b[j - 1]);
			size_t v = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			/* A swap of two neighbours is one edit. */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *pb_did_you_mean(const char *s, const char *const *cands, size_t n)
{
	size_t len = strlen(s), best_d = SIZE_MAX, limit;
	const char *best = NULL;

	/* One edit for short words, up to three for long ones. */
	limit = len < 4 ? 1 : len < 8 ? 2 : 3;
	for (size_t i = 0; i < n; i++) {
		size_t d;

		if (!cands[i])
			continue;
		d = pb_edit_distance(s, cands[i]);
		/* A unique prefix of at least three letters is a guess too. */
		if (d > limit && len >= 3 && strncasecmp(s, cands[i], len) == 0)
			d = limit;
		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	return best_d <= limit && best_d < len ? best : NULL;
}

int pb_parse_word_list(const char *s, const char *const *words,
		       unsigned *mask, size_t *bad_off, size_t *bad_len)
{
	const char *start = s;
	unsigned m = 0;

	if (!s || !*s) {
		if (bad_off)
			*bad_off = 0, *bad_len = 0;
		return -EINVAL;
	}
	while (*s) {
		const char *item;
		size_t len;
		int r = next_item(&s, &item, &len);
		int w = r ? -1 : pb_match_word(words, item, len);

		if (w < 0) {
			if (bad_off)
				*bad_off = (size_t)(item - start), *bad_len = len;
			return -EINVAL;
		}
		m |= 1u << w;
	}
	*mask = m;
	return 0;
}

int pb_parse_cpu_list(const char *s, int max_cpu, cpu_set_t *set)
{
	CPU_ZERO(set);
	if (!s || !*s)
		return -EINVAL;
	while (*s) {
		const char *item;
		size_t len;
		uint64_t lo, hi;
		const char *p;
		int r = next_item(&s, &item, &len);

		if (r)
			return r;
		p = item;
		if ((r = parse_digits(&p, &lo)))
			return r;
		hi = lo;
		if (*p == '-') {
			p++;
			if ((r = parse_digits(&p, &hi)))
				return r;
		}
		if (p != item + len || hi < lo)
			return -EINVAL;
		if (hi >= (uint64_t)max_cpu || hi >= CPU_SETSIZE)
			return -ERANGE;
		for (uint64_t c = lo; c <= hi; c++)
			CPU_SET((int)c, set);
	}
	return 0;
}

void pb_format_cpu_list(const cpu_set_t *set, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE; c++) {
		int e = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, e > c ? "%s%d-%d" : "%s%d",
						off ? "," : "", c, e);
		c = e;
	}
}

const char *pb_plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void pb_format_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= (1ULL << 30) && bytes % (1ULL << 30) == 0)
		snprintf(buf, len, "%llu GiB", (unsigned long long)(bytes >> 30));
	else if (bytes >= (1ULL << 20) && bytes % (1ULL << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(bytes >> 20));
	else if (bytes >= (1ULL << 10) && bytes % (1ULL << 10) == 0)
		snprintf(buf, len, "%llu KiB", (unsigned long long)(bytes >> 10));
	else
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
}

void pb_format_size_arg(uint64_t bytes, char *buf, size_t len)
{
	static const char suffix[] = "GMK";

	for (int i = 0; i < 3; i++) {
		uint64_t unit = 1ULL << (10 * (3 - i));

		if (bytes >= unit && bytes % unit == 0) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(bytes / unit), suffix[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
}

void pb_format_duration_arg(uint64_t ns, char *buf, size_t len)
{
	static const struct { uint64_t ns; const char *suffix; } u[] = {
		{ 3600000000000ULL, "h" }, { 60000000000ULL, "m" }, { 1000000000ULL, "s" },
		{ 1000000ULL, "ms" }, { 1000ULL, "us" },
	};

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (ns >= u[i].ns && ns % u[i].ns == 0) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(ns / u[i].ns), u[i].suffix);
			return;
		}
	snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

/* *OFF moved past the W characters printed into a buffer of LEN bytes:
 * at most to its last byte (the NUL of a cut text). */
static void format_advance(size_t *off, size_t len, int w)
{
	if (w > 0)
		*off += (size_t)w;
	if (*off > len - 1)
		*off = len - 1;
}

void pb_format_add(char *buf, size_t len, size_t *off, const char *sep, const char *fmt, ...)
{
	va_list ap;

	if (!len || *off >= len - 1)
		return;
	if (*off) {
		format_advance(off, len, snprintf(buf + *off, len - *off, "%s", sep));
		if (*off == len - 1)
			return;
	}
	va_start(ap, fmt);
	format_advance(off, len, vsnprintf(buf + *off, len - *off, fmt, ap));
	va_end(ap);
}
