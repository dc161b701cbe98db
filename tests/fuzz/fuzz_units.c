/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the unit and list parser (src/units.c): every
 * parser must either reject its input or return a value that honours the
 * range it was given, and never read or write out of bounds.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const words[] = { "anon", "fifo", "socketpair", "all", NULL };
	char *s = malloc(size + 1);
	uint64_t v, list[8];
	size_t n, off, len;
	unsigned mask;
	double d;
	cpu_set_t set;
	char buf[512];

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (pb_parse_size(s, 1, 64ULL << 20, &v) == 0 && (v < 1 || v > (64ULL << 20)))
		abort();
	if (pb_parse_count(s, 1, 1000000000ULL, &v) == 0 && (v < 1 || v > 1000000000ULL))
		abort();
	if (pb_parse_duration(s, 0, 86400ULL * 1000000000ULL, &v) == 0 &&
	    v > 86400ULL * 1000000000ULL)
		abort();
	if (pb_parse_double(s, -100, 100, &d) == 0 && (d < -100 || d > 100))
		abort();
	if (pb_parse_size_list(s, 1, 1ULL << 30, list, 8, &n) == 0) {
		if (n == 0 || n > 8)
			abort();
		for (size_t i = 0; i < n; i++)
			if (list[i] < 1 || list[i] > (1ULL << 30))
				abort();
	}
	if (pb_parse_word_list(s, words, &mask, &off, &len) == 0 && (mask == 0 || mask > 15))
		abort();
	if (pb_parse_cpu_list(s, 64, &set) == 0) {
		pb_format_cpu_list(&set, buf, sizeof(buf));
		if (CPU_COUNT(&set) == 0)
			abort();
		for (int c = 64; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				abort();
	}
	if (size >= 8) {
		uint64_t b;

		memcpy(&b, data, 8);
		pb_format_size(b, buf, sizeof(buf));
	}
	free(s);
	return 0;
}
