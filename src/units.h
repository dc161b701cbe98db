/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one parser for sizes ("64K"), counts, durations ("1.5s") and lists.
 * Every function returns 0 or a negative errno:
 *   -EINVAL  not a number of that kind (junk, empty, bad suffix, sign)
 *   -ERANGE  a number, but outside [min, max] (or overflowing 64 bits)
 */
#ifndef PB_UNITS_H
#define PB_UNITS_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Size in bytes with an optional binary suffix: K, M, G (also KiB, k, KB). */
int pb_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Plain non-negative decimal integer. */
int pb_parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Duration: number (seconds) with optional suffix ns, us, ms, s, m, h. */
int pb_parse_duration(const char *s, uint64_t min_ns, uint64_t max_ns,
		      uint64_t *out_ns);

/* Decimal number, possibly fractional (e.g. a percentage). */
int pb_parse_double(const char *s, double min, double max, double *out);

/*
 * Comma-separated list of sizes; empty items are errors.  *n receives the
 * number of items; -E2BIG when more than max items.
 */
int pb_parse_size_list(const char *s, uint64_t min, uint64_t max,
		       uint64_t *out, size_t max_items, size_t *n);

/*
 * Comma-separated list of words, each one of WORDS (NULL-terminated); sets
 * bit i of *mask for WORDS[i].  On -EINVAL, *bad (if not NULL) points to a
 * static copy-free description: the index in s of the offending item.
 */
int pb_parse_word_list(const char *s, const char *const *words,
		       unsigned *mask, size_t *bad_off, size_t *bad_len);

/*
 * Index of the word S (LEN bytes, not necessarily terminated) in WORDS,
 * ignoring case; "pipe" is accepted for "anon".  -1 if none.
 */
int pb_match_word(const char *const *words, const char *s, size_t len);

/* Edit distance (insert, delete, replace, swap neighbours), ignoring case. */
size_t pb_edit_distance(const char *a, const char *b);

/* The one of N candidates closest to a misspelt S, or NULL if none is close. */
const char *pb_did_you_mean(const char *s, const char *const *cands, size_t n);

/* CPU list "0,2-3"; every CPU must be < max_cpu. */
int pb_parse_cpu_list(const char *s, int max_cpu, cpu_set_t *set);

/* Format a CPU set as a compact list ("0-1,3") into buf. */
void pb_format_cpu_list(const cpu_set_t *set, char *buf, size_t len);

/* ONE when N is 1, else MANY: "1 repetition", "5 repetitions". */
const char *pb_plural(uint64_t n, const char *one, const char *many);

/* Format bytes as "4 KiB", "100 B", "64 MiB" when exact, else plain bytes. */
void pb_format_size(uint64_t bytes, char *buf, size_t len);

/* Append the printf'd text to BUF (LEN bytes, *OFF used), after SEP when
 * something is there already; truncated, never overrun. */
void pb_format_add(char *buf, size_t len, size_t *off, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Bytes and nanoseconds as the user would type them: "64M", "500ms". */
void pb_format_size_arg(uint64_t bytes, char *buf, size_t len);
void pb_format_duration_arg(uint64_t ns, char *buf, size_t len);

#endif
