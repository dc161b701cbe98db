/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "check_main.h"
#include "units.h"

START_TEST(size_suffixes)
{
	static const struct { const char *in; uint64_t want; } c[] = {
		{ "100", 100 }, { "4K", 4096 }, { "64KiB", 65536 }, { "1M", 1048576 },
		{ "2G", 2ULL << 30 }, { "7B", 7 }, { "4kib", 4096 }, { "2mb", 2ULL << 20 },
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ck_assert_msg(pb_parse_size(c[i].in, 1, UINT64_MAX, &v) == 0, "%s refused",
			      c[i].in);
		ck_assert_msg(v == c[i].want, "%s gave %llu, want %llu", c[i].in,
			      (unsigned long long)v, (unsigned long long)c[i].want);
	}
}
END_TEST

/* Every spelling the man page promises: K, KB, KiB (any case) are binary
 * multiples, as are M/MB/MiB and G/GB/GiB. */
START_TEST(size_suffixes_documented)
{
	static const struct { const char *in; uint64_t want; } c[] = {
		{ "3KB", 3ULL << 10 }, { "3kB", 3ULL << 10 }, { "3KiB", 3ULL << 10 },
		{ "3k", 3ULL << 10 },
		{ "5MB", 5ULL << 20 }, { "5MiB", 5ULL << 20 }, { "5m", 5ULL << 20 },
		{ "5mib", 5ULL << 20 },
		{ "1GB", 1ULL << 30 }, { "1GiB", 1ULL << 30 }, { "1g", 1ULL << 30 },
		{ "1gib", 1ULL << 30 }, { "3GB", 3ULL << 30 },
		{ "0B", 0 }, { "1b", 1 },
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ck_assert_msg(pb_parse_size(c[i].in, 0, UINT64_MAX, &v) == 0, "%s refused", c[i].in);
		ck_assert_msg(v == c[i].want, "%s gave %llu, want %llu", c[i].in,
			      (unsigned long long)v, (unsigned long long)c[i].want);
	}
	/* not a unit: a decimal kilo/mega, bits, or trailing junk */
	ck_assert_int_eq(pb_parse_size("3KiBx", 0, UINT64_MAX, &v), -EINVAL);
	ck_assert_int_eq(pb_parse_size("3Kb2", 0, UINT64_MAX, &v), -EINVAL);
	ck_assert_int_eq(pb_parse_size("3T", 0, UINT64_MAX, &v), -EINVAL);
}
END_TEST

START_TEST(size_rejects_junk)
{
	static const char *const bad[] = { "", "64Q", "-1", "+5", " 5", "5 ", "K", "1.5K",
					   "0x10", "4KK", "abc", "1e3" };
	uint64_t v = 42;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(pb_parse_size(bad[i], 0, UINT64_MAX, &v) == -EINVAL,
			      "accepted '%s'", bad[i]);
		ck_assert_uint_eq(v, 42);
	}
	ck_assert_int_eq(pb_parse_size(NULL, 0, 10, &v), -EINVAL);
}
END_TEST

START_TEST(size_range_and_overflow)
{
	uint64_t v;

	ck_assert_int_eq(pb_parse_size("0", 1, 100, &v), -ERANGE);
	ck_assert_int_eq(pb_parse_size("65M", 1, 64ULL << 20, &v), -ERANGE);
	ck_assert_int_eq(pb_parse_size("64M", 1, 64ULL << 20, &v), 0);
	ck_assert_int_eq(pb_parse_size("18446744073709551616", 0, UINT64_MAX, &v), -ERANGE);
	ck_assert_int_eq(pb_parse_size("99999999999999999999G", 0, UINT64_MAX, &v), -ERANGE);
	ck_assert_int_eq(pb_parse_size("17179869184G", 0, UINT64_MAX, &v), -ERANGE);
	ck_assert_int_eq(pb_parse_size("99999999999999999999Q", 0, UINT64_MAX, &v), -EINVAL);
}
END_TEST

START_TEST(counts)
{
	uint64_t v;

	ck_assert_int_eq(pb_parse_count("10000", 1, 1000000, &v), 0);
	ck_assert_uint_eq(v, 10000);
	ck_assert_int_eq(pb_parse_count("0", 1, 10, &v), -ERANGE);
	ck_assert_int_eq(pb_parse_count("11", 1, 10, &v), -ERANGE);
	ck_assert_int_eq(pb_parse_count("-3", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(pb_parse_count("3k", 0, 10000, &v), -EINVAL);
	ck_assert_int_eq(pb_parse_count("", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(pb_parse_count("99999999999999999999999", 0, UINT64_MAX, &v), -ERANGE);
	ck_assert_int_eq(pb_parse_count("18446744073709551615", 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
}
END_TEST

START_TEST(durations)
{
	uint64_t ns;

	ck_assert_int_eq(pb_parse_duration("5", 0, UINT64_MAX, &ns), 0);
	ck_assert_uint_eq(ns, 5000000000ULL);
	ck_assert_int_eq(pb_parse_duration("1.5s", 0, UINT64_MAX, &ns), 0);
	ck_assert_uint_eq(ns, 1500000000ULL);
	ck_assert_int_eq(pb_parse_duration("250ms", 0, UINT64_MAX, &ns), 0);
	ck_assert_uint_eq(ns, 250000000ULL);
	ck_assert_int_eq(pb_parse_duration("2m", 0, UINT64_MAX, &ns), 0);
	ck_assert_uint_eq(ns, 120000000000ULL);
	ck_assert_int_eq(pb_parse_duration("1.2.3s", 0, UINT64_MAX, &ns), -EINVAL);
	ck_assert_int_eq(pb_parse_duration("5x", 0, UINT64_MAX, &ns), -EINVAL);
	ck_assert_int_eq(pb_parse_duration("-1", 0, UINT64_MAX, &ns), -EINVAL);
	ck_assert_int_eq(pb_parse_duration("2h", 0, 3600000000000ULL, &ns), -ERANGE);
	/* The number is at most 63 characters (zeros count): 63 is read, 64
	 * refused as not a duration (never copied past its buffer). */
	{
		char d[80];

		memset(d, '0', sizeof(d));
		d[62] = '1', d[63] = '\0';
		ck_assert_int_eq(pb_parse_duration(d, 0, UINT64_MAX, &ns), 0);
		ck_assert_uint_eq(ns, 1000000000ULL);
		d[62] = '0', d[63] = '1', d[64] = 's', d[65] = '\0';
		ck_assert_int_eq(pb_parse_duration(d, 0, UINT64_MAX, &ns), -EINVAL);
		d[63] = '0', d[70] = '1', d[71] = '\0';
		ck_assert_int_eq(pb_parse_duration(d, 0, UINT64_MAX, &ns), -EINVAL);
	}
}
END_TEST

/* Every unit the man page lists, and both edges of a range. */
START_TEST(duration_units_and_bounds)
{
	static const struct { const char *in; uint64_t want; } c[] = {
		{ "100ns", 100ULL }, { "500us", 500000ULL }, { "2ms", 2000000ULL },
		{ "3s", 3000000000ULL }, { "1m", 60000000000ULL }, { "1h", 3600000000000ULL },
		{ "0.5us", 500ULL },
	};
	uint64_t ns;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ck_assert_msg(pb_parse_duration(c[i].in, 0, UINT64_MAX, &ns) == 0, "%s refused", c[i].in);
		ck_assert_msg(ns == c[i].want, "%s gave %llu", c[i].in, (unsigned long long)ns);
	}
	/* the minimum itself is allowed, one below is not */
	ck_assert_int_eq(pb_parse_duration("1ms", 1000000ULL, UINT64_MAX, &ns), 0);
	ck_assert_uint_eq(ns, 1000000ULL);
	ck_assert_int_eq(pb_parse_duration("999us", 1000000ULL, UINT64_MAX, &ns), -ERANGE);
	/* the maximum itself is allowed, one above is not */
	ck_assert_int_eq(pb_parse_duration("1h", 0, 3600000000000ULL, &ns), 0);
	ck_assert_int_eq(pb_parse_duration("3600000000001ns", 0, 3600000000000ULL, &ns), -ERANGE);
}
END_TEST

START_TEST(doubles)
{
	double d;

	ck_assert_int_eq(pb_parse_double("2.5", 0, 4, &d), 0);
	ck_assert_double_eq(d, 2.5);
	ck_assert_int_eq(pb_parse_double("4", 0, 4, &d), 0);
	ck_assert_int_eq(pb_parse_double("0", 0, 4, &d), 0);
	ck_assert_int_eq(pb_parse_double("4.0001", 0, 4, &d), -ERANGE);
	ck_assert_int_eq(pb_parse_double("-0.1", 0, 4, &d), -ERANGE);
	ck_assert_int_eq(pb_parse_double("inf", 0, 1e308, &d), -EINVAL);
	ck_assert_int_eq(pb_parse_double("nan", 0, 4, &d), -EINVAL);
	ck_assert_int_eq(pb_parse_double(" 1", 0, 4, &d), -EINVAL);
	ck_assert_int_eq(pb_parse_double("1x", 0, 4, &d), -EINVAL);
	ck_assert_int_eq(pb_parse_double("", 0, 4, &d), -EINVAL);
	ck_assert_int_eq(pb_parse_double(NULL, 0, 4, &d), -EINVAL);
}
END_TEST

START_TEST(size_lists)
{
	uint64_t v[4];
	size_t n = 0;

	ck_assert_int_eq(pb_parse_size_list("100,4K,64K", 1, UINT64_MAX, v, 4, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(v[1], 4096);
	ck_assert_uint_eq(v[2], 65536);
	ck_assert_int_eq(pb_parse_size_list("100,,4K", 1, UINT64_MAX, v, 4, &n), -EINVAL);
	ck_assert_int_eq(pb_parse_size_list("100,", 1, UINT64_MAX, v, 4, &n), -EINVAL);
	ck_assert_int_eq(pb_parse_size_list(",100", 1, UINT64_MAX, v, 4, &n), -EINVAL);
	ck_assert_int_eq(pb_parse_size_list("1,2,3,4,5", 1, UINT64_MAX, v, 4, &n), -E2BIG);
	ck_assert_int_eq(pb_parse_size_list("1,0", 1, UINT64_MAX, v, 4, &n), -ERANGE);
}
END_TEST

START_TEST(word_lists)
{
	static const char *const words[] = { "anon", "fifo", "socketpair", NULL };
	unsigned m = 0;
	size_t off, len;

	ck_assert_int_eq(pb_parse_word_list("fifo,anon", words, &m, &off, &len), 0);
	ck_assert_uint_eq(m, 3);
	/* each word its own bit, and only the words given */
	ck_assert_int_eq(pb_parse_word_list("fifo", words, &m, &off, &len), 0);
	ck_assert_uint_eq(m, 2);
	ck_assert_int_eq(pb_parse_word_list("socketpair", words, &m, &off, &len), 0);
	ck_assert_uint_eq(m, 4);
	/* no list: the bad word is at 0, of length 0 (when asked for) */
	off = len = 99;
	ck_assert_int_eq(pb_parse_word_list(NULL, words, &m, &off, &len), -EINVAL);
	ck_assert_uint_eq(off, 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(pb_parse_word_list("", words, &m, NULL, NULL), -EINVAL);
	ck_assert_int_eq(pb_parse_word_list("bad", words, &m, NULL, NULL), -EINVAL);
	ck_assert_uint_eq(m, 4);
	ck_assert_int_eq(pb_parse_word_list("anon,pipes", words, &m, &off, &len), -EINVAL);
	ck_assert_uint_eq(off, 5);
	ck_assert_uint_eq(len, 5);
	/* Any case; "pipe" is anon wherever anon is a word. */
	ck_assert_int_eq(pb_parse_word_list("FIFO,Pipe", words, &m, &off, &len), 0);
	ck_assert_uint_eq(m, 3);
	ck_assert_int_eq(pb_parse_word_list("an", words, &m, &off, &len), -EINVAL);
	ck_assert_int_eq(pb_parse_word_list("anon,,fifo", words, &m, &off, &len), -EINVAL);
	ck_assert_int_eq(pb_parse_word_list("", words, &m, &off, &len), -EINVAL);
}
END_TEST

START_TEST(word_match)
{
	static const char *const words[] = { "anon", "fifo", "socketpair", NULL };
	static const char *const fmts[] = { "text", "json", NULL };

	ck_assert_int_eq(pb_match_word(words, "SocketPair", 10), 2);
	ck_assert_int_eq(pb_match_word(words, "pipe", 4), 0);
	ck_assert_int_eq(pb_match_word(words, "fifo,anon", 4), 1);
	ck_assert_int_eq(pb_match_word(words, "fif", 3), -1);
	/* The synonym only where its word exists. */
	ck_assert_int_eq(pb_match_word(fmts, "pipe", 4), -1);
	ck_assert_int_eq(pb_match_word(fmts, "JSON", 4), 1);
	/* a vocabulary's own word before any synonym: "pipe" where it is one */
	ck_assert_int_eq(pb_match_word((const char *const[]){ "pipe", "anon", NULL }, "pipe", 4), 0);
	ck_assert_int_eq(pb_match_word((const char *const[]){ "fifo", "anon", NULL }, "Pipe", 4), 1);
	ck_assert_int_eq(pb_match_word(words, "pipes", 5), -1);
}
END_TEST

START_TEST(did_you_mean)
{
	static const char *const cmds[] = { "report", "throughput", "conformance", "timestamps",
					    "o_noatime", "messaging", "compare" };
	const size_t n = sizeof(cmds) / sizeof(cmds[0]);

	ck_assert_uint_eq(pb_edit_distance("conformanc", "conformance"), 1);
	ck_assert_uint_eq(pb_edit_distance("thorughput", "throughput"), 1);  /* a swap */
	ck_assert_uint_eq(pb_edit_distance("FIFO", "fifo"), 0);
	{
		/* its table holds words of up to 62 letters: a longer one on
		 * either side, or both, is no guess (SIZE_MAX) */
		char w62[63], w63[64], w70[71];

		memset(w62, 'a', 62), w62[62] = '\0';
		memset(w63, 'a', 63), w63[63] = '\0';
		memset(w70, 'a', 70), w70[70] = '\0';
		ck_assert_uint_eq(pb_edit_distance(w62, "a"), 61);
		ck_assert_uint_eq(pb_edit_distance("a", w62), 61);
		ck_assert_uint_eq(pb_edit_distance(w63, "a"), SIZE_MAX);
		ck_assert_uint_eq(pb_edit_distance("a", w63), SIZE_MAX);
		ck_assert_uint_eq(pb_edit_distance(w70, "report"), SIZE_MAX);
		ck_assert_uint_eq(pb_edit_distance("report", w70), SIZE_MAX);
		ck_assert_uint_eq(pb_edit_distance(w70, w63), SIZE_MAX);
	}
	ck_assert_str_eq(pb_did_you_mean("conformanc", cmds, n), "conformance");
	ck_assert_str_eq(pb_did_you_mean("thorughput", cmds, n), "throughput");
	ck_assert_str_eq(pb_did_you_mean("mesaging", cmds, n), "messaging");
	ck_assert_str_eq(pb_did_you_mean("conf", cmds, n), "conformance");  /* a prefix */
	ck_assert_ptr_null(pb_did_you_mean("frobnicate", cmds, n));
	ck_assert_ptr_null(pb_did_you_mean("x", cmds, n));
	{
		/* of two equally near, the first; a guess must be nearer than
		 * the word is long (one letter is never a misspelling) */
		static const char *const two[] = { "abc", "abd" }, *const y[] = { "y" };

		ck_assert_ptr_eq(pb_did_you_mean("abx", two, 2), two[0]);
		ck_assert_ptr_null(pb_did_you_mean("x", y, 1));
	}
	/* The prefix rule at its length: three letters are a guess, two are
	 * not (nothing is within one edit of "th"). */
	ck_assert_str_eq(pb_did_you_mean("thr", cmds, n), "throughput");
	ck_assert_str_eq(pb_did_you_mean("mes", cmds, n), "messaging");
	ck_assert_ptr_null(pb_did_you_mean("th", cmds, n));
	ck_assert_ptr_null(pb_did_you_mean("co", cmds, n));
	/* the edits allowed, at each length where the allowance changes: one
	 * below 4 letters, two below 8, three from 8 (each at the limit and one
	 * past it, none a prefix of the candidate) */
	{
		static const struct { const char *s, *cand; bool near; } rows[] = {
			{ "abx", "abc", true }, { "axx", "abc", false },
			{ "abxx", "abcd", true }, { "axxx", "abcd", false },
			{ "abcdexx", "abcdefg", true }, { "abcdxxx", "abcdefg", false },
			{ "abcdexxx", "abcdefgh", true }, { "abcdxxxx", "abcdefgh", false },
		};

		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
			const char *got = pb_did_you_mean(rows[i].s, &rows[i].cand, 1);

			ck_assert_msg(rows[i].near ? got == rows[i].cand : !got, "%s for %s: %s",
				      rows[i].s, rows[i].cand, got ? got : "no guess");
		}
	}
	/* It only lifts a far prefix up to the limit: a prefix nearer than the
	 * limit keeps its distance, so "throughpu" (one edit from throughput,
	 * two from throughpit) is throughput, whichever comes first. */
	{
		static const char *const near[] = { "throughput", "throughpit" };
		static const char *const rnear[] = { "throughpit", "throughput" };

		ck_assert_str_eq(pb_did_you_mean("throughpu", near, 2), "throughput");
		ck_assert_str_eq(pb_did_you_mean("throughpu", rnear, 2), "throughput");
	}
}
END_TEST

/* Each condition of the parsers on its own: no string, an empty one,
 * junk after digits that overflow, the largest size a suffix allows and one
 * past it, a double that underflows, a duration that does not start with a
 * digit and one at the edge of what 64 bits of nanoseconds hold, a list
 * item at its buffer's length. */
START_TEST(parsers_each_condition)
{
	uint64_t v = 42, list[2];
	double d = 0;
	size_t n = 7;
	char item[80];

	ck_assert_int_eq(pb_parse_count(NULL, 0, 10, &v), -EINVAL);
	ck_assert_int_eq(pb_parse_count("99999999999999999999x", 0, UINT64_MAX, &v), -EINVAL);
	ck_assert_int_eq(pb_parse_count("x", 0, UINT64_MAX, &v), -EINVAL);
	ck_assert_uint_eq(v, 42);
	/* (2^64 - 1) / 2^30 gigabytes fit, one more does not */
	ck_assert_int_eq(pb_parse_size("17179869183G", 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 17179869183ULL << 30);
	ck_assert_int_eq(pb_parse_size("17179869184G", 0, UINT64_MAX, &v), -ERANGE);
	ck_assert_int_eq(pb_parse_size("18014398509481983K", 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 18014398509481983ULL << 10);
	ck_assert_int_eq(pb_parse_size("18014398509481984K", 0, UINT64_MAX, &v), -ERANGE);
	/* a double too small for its type is out of range, not zero */
	ck_assert_int_eq(pb_parse_double("1e-400", 0, 1, &d), -ERANGE);
	ck_assert_int_eq(pb_parse_double("1.5x", 0, 4, &d), -EINVAL);
	ck_assert_int_eq(pb_parse_double("1e", 0, 4, &d), -EINVAL);
	ck_assert_double_eq(d, 0);
	ck_assert_int_eq(pb_parse_duration(NULL, 0, UINT64_MAX, &v), -EINVAL);
	ck_assert_int_eq(pb_parse_duration(".5s", 0, UINT64_MAX, &v), -EINVAL);
	ck_assert_int_eq(pb_parse_duration("s", 0, UINT64_MAX, &v), -EINVAL);
	ck_assert_int_eq(pb_parse_duration("", 0, UINT64_MAX, &v), -EINVAL);
	ck_assert_int_eq(pb_parse_duration("5 s", 0, UINT64_MAX, &v), -EINVAL);
	/* 1.8e19 ns is the most it takes (the cast to 64 bits stays exact
	 * below 2^64); more is out of range even where the maximum is 2^64 - 1 */
	ck_assert_int_eq(pb_parse_duration("18000000000000000000ns", 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 18000000000000000000ULL);
	ck_assert_int_eq(pb_parse_duration("18100000000000000000ns", 0, UINT64_MAX, &v), -ERANGE);
	ck_assert_int_eq(pb_parse_duration("18446744073709551616ns", 0, UINT64_MAX, &v), -ERANGE);
	ck_assert_int_eq(pb_parse_duration("5000000000h", 0, UINT64_MAX, &v), -ERANGE);
	ck_assert_int_eq(pb_parse_size_list(NULL, 1, 10, list, 2, &n), -EINVAL);
	ck_assert_int_eq(pb_parse_size_list("", 1, 10, list, 2, &n), -EINVAL);
	ck_assert_uint_eq(n, 7);
	/* an item of 63 characters is read, one of 64 is not a size */
	memset(item, '0', sizeof(item));
	item[62] = '1', item[63] = '\0';
	ck_assert_int_eq(pb_parse_size_list(item, 1, 10, list, 2, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(list[0], 1);
	item[62] = '0', item[63] = '1', item[64] = '\0';
	ck_assert_int_eq(pb_parse_size_list(item, 1, 10, list, 2, &n), -EINVAL);
	/* the list's count is what it read: two items, two sizes */
	ck_assert_int_eq(pb_parse_size_list("3,4K", 1, UINT64_MAX, list, 2, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(list[0], 3);
	ck_assert_uint_eq(list[1], 4096);
}
END_TEST

/* The edit distance (an optimal string alignment: insert, delete,
 * substitute in any case, or swap two neighbours as typed) against a
 * reference computed outside the program, over pairs that start, end or
 * swap at either edge, and random ones over a four-letter alphabet. */
START_TEST(edit_distance_reference)
{
	static const struct { const char *a, *b; size_t d; } rows[] = {
		{ "", "", 0 }, { "abc", "", 3 }, { "", "abc", 3 }, { "ab", "ba", 1 },
		{ "ba", "ab", 1 }, { "abc", "bac", 1 }, { "abc", "acb", 1 },
		{ "abcd", "badc", 2 }, { "ca", "abc", 3 }, { "abcd", "abc", 1 },
		{ "abc", "abcd", 1 }, { "abc", "xbc", 1 }, { "Ab", "bA", 1 },
		{ "aB", "Ba", 1 }, { "abab", "baba", 2 }, { "a", "b", 1 }, { "xy", "yxz", 2 },
		{ "kitten", "sitting", 3 }, { "AAb", "aAB", 0 }, { "Bb", "abBA", 2 },
		{ "A", "a", 0 }, { "baAB", "aaabaB", 3 }, { "aBb", "Abab", 1 },
		{ "aBBB", "Baa", 3 }, { "A", "AB", 1 }, { "AaAbA", "Ab", 3 }, { "", "Baa", 3 },
		{ "B", "", 1 }, { "bab", "a", 2 }, { "AaBAB", "aB", 3 }, { "bA", "BB", 1 },
		{ "BbbBA", "b", 4 }, { "baAAbb", "aabaAb", 3 }, { "", "Aa", 2 },
		{ "B", "AAB", 2 }, { "bBAaA", "Bb", 3 }, { "AAaaa", "A", 4 },
		{ "bbb", "BaA", 2 }, { "aBBaBb", "AABb", 2 }, { "", "baaaB", 5 }
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		ck_assert_msg(pb_edit_distance(rows[i].a, rows[i].b) == rows[i].d,
			      "'%s' to '%s': %zu, want %zu", rows[i].a, rows[i].b,
			      pb_edit_distance(rows[i].a, rows[i].b), rows[i].d);
}
END_TEST

/* pb_format_add: the separator only after something, every byte of a
 * 16-byte buffer used and none past it, *off at the cut text's NUL (also
 * when the separator is what is cut), nothing at all into no buffer. */
START_TEST(format_add)
{
	char b[24];
	size_t off = 0;

	memset(b, '#', sizeof(b));
	pb_format_add(b, 16, &off, ", ", "%d", 1);
	ck_assert_str_eq(b, "1");
	ck_assert_uint_eq(off, 1);
	pb_format_add(b, 16, &off, ", ", "%s", "two");
	ck_assert_str_eq(b, "1, two");
	ck_assert_uint_eq(off, 6);
	pb_format_add(b, 16, &off, "; ", "%s", "abcdefghij");
	ck_assert_str_eq(b, "1, two; abcdefg");
	ck_assert_uint_eq(off, 15);
	pb_format_add(b, 16, &off, ", ", "%s", "more");
	ck_assert_str_eq(b, "1, two; abcdefg");
	ck_assert_uint_eq(off, 15);
	for (size_t i = 16; i < sizeof(b); i++)
		ck_assert_int_eq(b[i], '#');
	/* the separator itself cut: 14 used, ", " leaves "," and the NUL */
	memset(b, '#', sizeof(b));
	off = 0;
	pb_format_add(b, 16, &off, ", ", "%s", "abcdefghijklmn");
	ck_assert_uint_eq(off, 14);
	pb_format_add(b, 16, &off, ", ", "%s", "x");
	ck_assert_str_eq(b, "abcdefghijklmn,");
	ck_assert_uint_eq(off, 15);
	ck_assert_int_eq(b[16], '#');
	/* ... and an empty text after the cut separator leaves it there */
	off = 0;
	pb_format_add(b, 16, &off, ", ", "%s", "abcdefghijklmn");
	pb_format_add(b, 16, &off, ", ", "%s", "");
	ck_assert_uint_eq(off, 15);
	/* a separator that leaves one byte: the text's first character */
	off = 0;
	pb_format_add(b, 16, &off, ", ", "%s", "abcdefghijkl");
	pb_format_add(b, 16, &off, ", ", "%s", "xyz");
	ck_assert_str_eq(b, "abcdefghijkl, x");
	ck_assert_uint_eq(off, 15);
	/* an empty text adds nothing (but its separator) */
	off = 0;
	pb_format_add(b, 16, &off, ", ", "%s", "");
	ck_assert_uint_eq(off, 0);
	pb_format_add(b, 16, &off, ", ", "%s", "a");
	ck_assert_str_eq(b, "a");
	pb_format_add(b, 16, &off, "+", "%s", "");
	ck_assert_str_eq(b, "a+");
	ck_assert_uint_eq(off, 2);
	/* no room at all */
	memset(b, '#', sizeof(b));
	off = 0;
	pb_format_add(b, 0, &off, ", ", "%s", "x");
	ck_assert_uint_eq(off, 0);
	ck_assert_int_eq(b[0], '#');
	pb_format_add(b, 1, &off, ", ", "%s", "x");
	ck_assert_uint_eq(off, 0);
	ck_assert_int_eq(b[0], '#');
}
END_TEST

START_TEST(formats_as_typed)
{
	char b[32];

	pb_format_size_arg(64ULL << 20, b, sizeof(b));
	ck_assert_str_eq(b, "64M");
	pb_format_size_arg(1ULL << 30, b, sizeof(b));
	ck_assert_str_eq(b, "1G");
	pb_format_size_arg(100, b, sizeof(b));
	ck_assert_str_eq(b, "100");
	pb_format_duration_arg(1000000ULL, b, sizeof(b));
	ck_assert_str_eq(b, "1ms");
	pb_format_duration_arg(3600ULL * 1000000000ULL, b, sizeof(b));
	ck_assert_str_eq(b, "1h");
	pb_format_duration_arg(90ULL * 1000000000ULL, b, sizeof(b));
	ck_assert_str_eq(b, "90s");
	pb_format_duration_arg(1500, b, sizeof(b));
	ck_assert_str_eq(b, "1500ns");
	/* 0 is a multiple of every unit, and is nanoseconds; past G is G */
	pb_format_duration_arg(0, b, sizeof(b));
	ck_assert_str_eq(b, "0ns");
	pb_format_size_arg(1ULL << 40, b, sizeof(b));
	ck_assert_str_eq(b, "1024G");
}
END_TEST

START_TEST(cpu_lists)
{
	cpu_set_t s;
	char buf[64];

	ck_assert_int_eq(pb_parse_cpu_list("0,2-3", 8, &s), 0);
	ck_assert(CPU_ISSET(0, &s) && !CPU_ISSET(1, &s) && CPU_ISSET(2, &s) && CPU_ISSET(3, &s));
	pb_format_cpu_list(&s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0,2-3");
	ck_assert_int_eq(pb_parse_cpu_list("8", 8, &s), -ERANGE);
	/* past what a cpu_set_t holds, whatever the machine says it has */
	ck_assert_int_eq(pb_parse_cpu_list("1023", CPU_SETSIZE + 8, &s), 0);
	ck_assert_int_eq(pb_parse_cpu_list("1024", CPU_SETSIZE + 8, &s), -ERANGE);
	ck_assert_int_eq(pb_parse_cpu_list("3-1", 8, &s), -EINVAL);
	ck_assert_int_eq(pb_parse_cpu_list("1-", 8, &s), -EINVAL);
	ck_assert_int_eq(pb_parse_cpu_list("x", 8, &s), -EINVAL);
	ck_assert_int_eq(pb_parse_cpu_list("1x", 8, &s), -EINVAL);
	ck_assert_int_eq(pb_parse_cpu_list("1-2x", 8, &s), -EINVAL);
	ck_assert_int_eq(pb_parse_cpu_list(NULL, 8, &s), -EINVAL);
	ck_assert_int_eq(pb_parse_cpu_list("", 8, &s), -EINVAL);
	/* a buffer too small: cut, terminated, nothing written past it */
	{
		char small[16];

		ck_assert_int_eq(pb_parse_cpu_list("0,2,4,6,8,10,12,14", 16, &s), 0);
		memset(small, '#', sizeof(small));
		pb_format_cpu_list(&s, small, 8);
		ck_assert_str_eq(small, "0,2,4,6");
		for (size_t i = 8; i < sizeof(small); i++)
			ck_assert_int_eq(small[i], '#');
	}
	/* Ranges at the edges of the set: from CPU 0, up to its last CPU, single
	 * CPUs between ranges, and the empty set. */
	{
		static const char *const lists[] = { "0-1", "1022-1023", "1023", "0,1022-1023",
						     "0-2,4,6-7", "5" };

		for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
			ck_assert_int_eq(pb_parse_cpu_list(lists[i], CPU_SETSIZE, &s), 0);
			pb_format_cpu_list(&s, buf, sizeof(buf));
			ck_assert_str_eq(buf, lists[i]);
		}
		CPU_ZERO(&s);
		pb_format_cpu_list(&s, buf, sizeof(buf));
		ck_assert_str_eq(buf, "");
	}
}
END_TEST

START_TEST(format_sizes)
{
	char b[32];

	pb_format_size(100, b, sizeof(b));
	ck_assert_str_eq(b, "100 B");
	pb_format_size(4096, b, sizeof(b));
	ck_assert_str_eq(b, "4 KiB");
	pb_format_size(1 << 20, b, sizeof(b));
	ck_assert_str_eq(b, "1 MiB");
	pb_format_size(5000, b, sizeof(b));
	ck_assert_str_eq(b, "5000 B");
	/* 0 is a multiple of every unit, and is bytes */
	pb_format_size(0, b, sizeof(b));
	ck_assert_str_eq(b, "0 B");
	pb_format_size_arg(0, b, sizeof(b));
	ck_assert_str_eq(b, "0");
}
END_TEST

/* Each formatter at a unit's boundary and one either side, and what it
 * writes read back as the same value: sizes in 1024s (K, M, G), durations
 * in the largest unit that divides them. */
START_TEST(formats_at_boundaries)
{
	static const struct { uint64_t v; const char *arg, *human; } sizes[] = {
		{ 1, "1", "1 B" }, { 1023, "1023", "1023 B" }, { 1024, "1K", "1 KiB" },
		{ 1025, "1025", "1025 B" }, { 2048, "2K", "2 KiB" },
		{ (1ULL << 20) - 1024, "1023K", "1023 KiB" }, { 1ULL << 20, "1M", "1 MiB" },
		{ (1ULL << 20) + 1024, "1025K", "1025 KiB" }, { (1ULL << 30) - (1ULL << 20), "1023M", "1023 MiB" },
		{ 1ULL << 30, "1G", "1 GiB" }, { (1ULL << 30) + (1ULL << 20), "1025M", "1025 MiB" },
		{ 3ULL << 30, "3G", "3 GiB" }, { (1ULL << 30) + 1, "1073741825", "1073741825 B" },
		/* one and a half of a unit is the unit below */
		{ 3ULL << 29, "1536M", "1536 MiB" }, { 3ULL << 19, "1536K", "1536 KiB" },
		{ 3ULL << 9, "1536", "1536 B" },
	};
	static const struct { uint64_t ns; const char *arg; } durs[] = {
		{ 1, "1ns" }, { 999, "999ns" }, { 1000, "1us" }, { 1001, "1001ns" },
		{ 999000, "999us" }, { 1000000, "1ms" }, { 1001000, "1001us" },
		{ 999000000, "999ms" }, { 1000000000, "1s" }, { 59000000000ULL, "59s" },
		{ 60000000000ULL, "1m" }, { 61000000000ULL, "61s" }, { 3540000000000ULL, "59m" },
		{ 3600000000000ULL, "1h" }, { 3660000000000ULL, "61m" }, { 7200000000000ULL, "2h" },
	};
	char b[32];
	uint64_t v;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		pb_format_size_arg(sizes[i].v, b, sizeof(b));
		ck_assert_str_eq(b, sizes[i].arg);
		ck_assert_int_eq(pb_parse_size(b, 1, UINT64_MAX, &v), 0);
		ck_assert_uint_eq(v, sizes[i].v);
		pb_format_size(sizes[i].v, b, sizeof(b));
		ck_assert_str_eq(b, sizes[i].human);
	}
	for (size_t i = 0; i < sizeof(durs) / sizeof(durs[0]); i++) {
		pb_format_duration_arg(durs[i].ns, b, sizeof(b));
		ck_assert_str_eq(b, durs[i].arg);
		ck_assert_int_eq(pb_parse_duration(b, 1, UINT64_MAX, &v), 0);
		ck_assert_uint_eq(v, durs[i].ns);
	}
	ck_assert_str_eq(pb_plural(0, "loop", "loops"), "loops");
	ck_assert_str_eq(pb_plural(1, "loop", "loops"), "loop");
	ck_assert_str_eq(pb_plural(2, "loop", "loops"), "loops");
}
END_TEST

PB_CHECK_SUITE_MAIN("units",
	PB_TCASE("sizes", size_suffixes, size_suffixes_documented, size_rejects_junk,
		 size_range_and_overflow, format_sizes),
	PB_TCASE("numbers", counts, durations, duration_units_and_bounds, doubles,
		 parsers_each_condition),
	PB_TCASE("lists", size_lists, word_lists, cpu_lists, word_match, did_you_mean,
		 formats_as_typed, formats_at_boundaries, edit_distance_reference,
		 format_add))
