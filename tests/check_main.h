/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one way a Check unit test runs its suite: every test in the suite
 * (CK_ENV: CK_RUN_CASE / CK_RUN_SUITE pick some), exit 1 if one failed.
 * A test program with nothing else to do in main() ends with
 * PB_CHECK_MAIN(suite_function) or PB_CHECK_SUITE_MAIN (below).
 */
#ifndef PB_CHECK_MAIN_H
#define PB_CHECK_MAIN_H

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>

static inline int pb_test_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* One test case of a suite: its name and its tests, in the order they run. */
struct pb_tcase {
	const char *name;
	const TTest *const *tests;  /* NULL-terminated */
};

#define PB_TCASE(name, ...) \
	(&(const struct pb_tcase){ (name), (const TTest *const[]){ __VA_ARGS__, NULL } })

/* A suite of the test cases in `tcases` (NULL-terminated), in that order. */
static inline Suite *pb_test_suite(const char *name, const struct pb_tcase *const *tcases)
{
	Suite *s = suite_create(name);

	for (; *tcases; tcases++) {
		TCase *tc = tcase_create((*tcases)->name);

		for (const TTest *const *t = (*tcases)->tests; *t; t++)
			tcase_add_test(tc, *t);
		suite_add_tcase(s, tc);
	}
	return s;
}

/*
 * The TCase of one PB_TCASE, for a suite that sets a timeout or a fixture
 * on it before suite_add_tcase():
 * TCase *tc = pb_test_tcase(PB_TCASE("topology", one_cpu, smt_pairs));
 */
static inline TCase *pb_test_tcase(const struct pb_tcase *tcase)
{
	TCase *tc = tcase_create(tcase->name);

	for (const TTest *const *t = tcase->tests; *t; t++)
		tcase_add_test(tc, *t);
	return tc;
}

/*
 * main() of a test program whose suite is a plain list of test cases:
 * PB_CHECK_SUITE_MAIN("units", PB_TCASE("sizes", size_suffixes, ...), ...).
 * A suite with loop tests or timeouts uses PB_CHECK_TIMED_SUITE_MAIN (below);
 * one that needs fixtures builds itself (pb_test_tcase) and uses
 * PB_CHECK_MAIN.
 */
#define PB_CHECK_SUITE_MAIN(name, ...) \
	int main(void) \
	{ \
		return pb_test_run_suite(pb_test_suite(name, \
			(const struct pb_tcase *const[]){ __VA_ARGS__, NULL })); \
	}

#define PB_CHECK_MAIN(suite_fn) \
	int main(void) \
	{ \
		return pb_test_run_suite(suite_fn()); \
	}

/*
 * A test case with a timeout and perhaps a loop test, for a suite built by
 * PB_CHECK_TIMED_SUITE_MAIN (below):
 *   PB_TCASE_TIMED("runner", 30, watchdog_kills, ...): tests, 30 s each;
 *   PB_TCASE_LOOP("broken", 10, fails, N, other, ...): the loop test `fails`
 *   over [0, N) first, then the other tests (none is fine).
 * A timeout of 0 keeps Check's default.
 */
struct pb_tcase_timed {
	const char *name;
	double timeout;
	bool looped;                /* tests[0] is a loop test over [0, loop_end) */
	int loop_end;
	const TTest *const *tests;  /* NULL-terminated */
};

#define PB_TCASE_TIMED(name, timeout, ...) \
	(&(const struct pb_tcase_timed){ (name), (timeout), false, 0, \
		(const TTest *const[]){ __VA_ARGS__, NULL } })
#define PB_TCASE_LOOP(name, timeout, loop, loop_end, ...) \
	(&(const struct pb_tcase_timed){ (name), (timeout), true, (int)(loop_end), \
		(const TTest *const[]){ (loop), ##__VA_ARGS__, NULL } })

static inline TCase *pb_test_timed_tcase(const struct pb_tcase_timed *t)
{
	TCase *tc = tcase_create(t->name);
	const TTest *const *test = t->tests;

	if (t->timeout > 0)
		tcase_set_timeout(tc, t->timeout);
	if (t->looped)
		tcase_add_loop_test(tc, *test++, 0, t->loop_end);
	while (*test)
		tcase_add_test(tc, *test++);
	return tc;
}

static inline Suite *pb_test_timed_suite(const char *name,
					 const struct pb_tcase_timed *const *tcases)
{
	Suite *s = suite_create(name);

	while (*tcases)
		suite_add_tcase(s, pb_test_timed_tcase(*tcases++));
	return s;
}

/* main() of a test program whose suite is a list of PB_TCASE_TIMED / PB_TCASE_LOOP. */
#define PB_CHECK_TIMED_SUITE_MAIN(name, ...) \
	static Suite *pb_test_timed_suite_main(void) \
	{ \
		const struct pb_tcase_timed *const tcases[] = { __VA_ARGS__, NULL }; \
		return pb_test_timed_suite(name, tcases); \
	} \
	PB_CHECK_MAIN(pb_test_timed_suite_main)

#endif
