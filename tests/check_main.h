/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one way a Check unit test runs its suite: every test in the suite
 * (CK_ENV: CK_RUN_CASE / CK_RUN_SUITE pick some), exit 1 if one failed.
 * A test program with nothing else to do in main() ends with
 * PB_CHECK_MAIN(suite_function).
 */
#ifndef PB_CHECK_MAIN_H
#define PB_CHECK_MAIN_H

#include <check.h>
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

#define PB_CHECK_MAIN(suite_fn) \
	int main(void) \
	{ \
		return pb_test_run_suite(suite_fn()); \
	}

#endif
