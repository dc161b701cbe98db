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

/*
 * One test case of a suite: its name, its tests in the order they run, and
 * perhaps a timeout and a loop test.
 *   PB_TCASE("sizes", size_suffixes, ...): plain tests, Check's default timeout;
 *   PB_TCASE_TIMED("runner", 30, watchdog_kills, ...): the same, 30 s each;
 *   PB_TCASE_LOOP("broken", 10, fails, N, other, ...): the loop test `fails`
 *   over [0, N) first, then the other tests (none is fine).
 * A timeout of 0 keeps Check's default.
 */
struct pb_tcase {
	const char *name;
	double timeout;
	bool looped;                /* tests[0] is a loop test over [0, loop_end) */
	int loop_end;
	const TTest *const *tests;  /* NULL-terminated */
};

#define PB_TCASE(name, ...) PB_TCASE_TIMED(name, 0, __VA_ARGS__)
#define PB_TCASE_TIMED(name, timeout, ...) \
	(&(const struct pb_tcase){ (name), (timeout), false, 0, \
		(const TTest *const[]){ __VA_ARGS__, NULL } })
#define PB_TCASE_LOOP(name, timeout, loop, loop_end, ...) \
	(&(const struct pb_tcase){ (name), (timeout), true, (int)(loop_end), \
		(const TTest *const[]){ (loop), ##__VA_ARGS__, NULL } })

/*
 * The TCase of one PB_TCASE*, for a suite that sets a fixture on it before
 * suite_add_tcase():
 * TCase *tc = pb_test_tcase(PB_TCASE("topology", one_cpu, smt_pairs));
 */
static inline TCase *pb_test_tcase(const struct pb_tcase *t)
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

/* A suite of the test cases in `tcases` (NULL-terminated), in that order. */
static inline Suite *pb_test_suite(const char *name, const struct pb_tcase *const *tcases)
{
	Suite *s = suite_create(name);

	while (*tcases)
		suite_add_tcase(s, pb_test_tcase(*tcases++));
	return s;
}

/*
 * main() of a test program whose suite is a list of test cases:
 * PB_CHECK_SUITE_MAIN("units", PB_TCASE("sizes", size_suffixes, ...), ...).
 * A suite that needs fixtures builds itself (pb_test_tcase) and uses
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

#endif
