/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command table and the exit-status merge rule (HACKING, "Exit status"). */
#include <config.h>

#include <check.h>
#include <stdlib.h>

#include "check_main.h"
#include "cmd.h"

/* Every ordered pair: the merge is symmetric and picks by the documented
 * precedence, signal > usage > error > fail > nothing-applicable > ok. */
START_TEST(merge_precedence)
{
	static const int order[] = { PB_EXIT_OK, PB_EXIT_NA, PB_EXIT_FAIL, PB_EXIT_ERROR,
				     PB_EXIT_USAGE, 143 };
	const size_t n = sizeof(order) / sizeof(order[0]);

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int want = order[i > j ? i : j];

			ck_assert_msg(pb_exit_merge(order[i], order[j]) == want,
				      "merge(%d, %d) = %d, want %d", order[i], order[j],
				      pb_exit_merge(order[i], order[j]), want);
		}
}
END_TEST

/* The cases a run really mixes: a failed check and a harness error is 3, a
 * failure beside "nothing applicable" is 1, a signal beats everything. */
START_TEST(merge_mixed_runs)
{
	ck_assert_int_eq(pb_exit_merge(PB_EXIT_FAIL, PB_EXIT_ERROR), PB_EXIT_ERROR);
	ck_assert_int_eq(pb_exit_merge(PB_EXIT_ERROR, PB_EXIT_FAIL), PB_EXIT_ERROR);
	ck_assert_int_eq(pb_exit_merge(PB_EXIT_FAIL, PB_EXIT_OK), PB_EXIT_FAIL);
	ck_assert_int_eq(pb_exit_merge(PB_EXIT_NA, PB_EXIT_FAIL), PB_EXIT_FAIL);
	ck_assert_int_eq(pb_exit_merge(130, PB_EXIT_ERROR), 130);
}
END_TEST

START_TEST(part_status_in_report)
{
	ck_assert_int_eq(pb_exit_of_part(PB_EXIT_OK), PB_EXIT_OK);
	ck_assert_int_eq(pb_exit_of_part(PB_EXIT_FAIL), PB_EXIT_FAIL);
	ck_assert_int_eq(pb_exit_of_part(PB_EXIT_ERROR), PB_EXIT_ERROR);
	ck_assert_int_eq(pb_exit_of_part(PB_EXIT_NA), PB_EXIT_OK);
	ck_assert_int_eq(pb_exit_of_part(PB_EXIT_USAGE), PB_EXIT_ERROR);
	ck_assert_int_eq(pb_exit_of_part(-1), PB_EXIT_ERROR);
	ck_assert_int_eq(pb_exit_of_part(143), 143);
}
END_TEST

START_TEST(table_lookup)
{
	ck_assert_ptr_nonnull(pb_cmd_find("conformance"));
	ck_assert_str_eq(pb_cmd_find("report")->name, "report");
	ck_assert_ptr_null(pb_cmd_find("conformanc"));
	ck_assert_ptr_null(pb_cmd_find(""));
	for (size_t i = 0; pb_cmds[i]; i++)
		ck_assert_ptr_eq(pb_cmd_find(pb_cmds[i]->name), pb_cmds[i]);
}
END_TEST

PB_CHECK_SUITE_MAIN("cmd",
	PB_TCASE("exit", merge_precedence, merge_mixed_runs, part_status_in_report),
	PB_TCASE("table", table_lookup))
