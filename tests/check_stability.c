/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stability verdicts (src/stability.c) on constructed inputs: histograms
 * with one mode, two, a second too small or too near, too few values;
 * repetitions tight and noisy, each limit at its value and just past it;
 * a machine disturbed each way.
 */
#include <config.h>

#include <check.h>
#include <math.h>
#include <string.h>

#include "check_main.h"
#include "stability.h"

static struct pb_hist h;

static void setup(void)
{
	ck_assert_int_eq(pb_hist_init(&h), 0);
}

static void teardown(void)
{
	pb_hist_free(&h);
}

/* N values spread evenly over [AT - AT/20, AT + AT/20]. */
static void cluster(uint64_t at, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		pb_hist_record(&h, at - at / 20 + (at / 10) * i / (n ? n : 1));
}

START_TEST(two_modes_found)
{
	struct pb_stab_modes m;

	cluster(3200, 610);
	cluster(11800, 390);
	ck_assert(pb_stab_bimodal(&h, &m));
	ck_assert_msg(fabs(m.at_ns[0] - 3200) < 3200 * 0.03, "low mode at %g", m.at_ns[0]);
	ck_assert_msg(fabs(m.at_ns[1] - 11800) < 11800 * 0.03, "high mode at %g", m.at_ns[1]);
	ck_assert_msg(fabs(m.pct[0] - 61) < 0.5 && fabs(m.pct[1] - 39) < 0.5, "%g%% and %g%%",
		      m.pct[0], m.pct[1]);
}
END_TEST

/* The same, higher mode the bigger: lower first all the same. */
START_TEST(two_modes_high_first)
{
	struct pb_stab_modes m;

	cluster(3200, 300);
	cluster(11800, 700);
	ck_assert(pb_stab_bimodal(&h, &m));
	ck_assert(m.at_ns[0] < m.at_ns[1]);
	ck_assert_msg(fabs(m.pct[0] - 30) < 0.5, "%g%%", m.pct[0]);
}
END_TEST

START_TEST(one_mode)
{
	for (unsigned i = 0; i < 1000; i++)  /* 3000..6000 ns, flat */
		pb_hist_record(&h, 3000 + 3 * i);
	ck_assert(!pb_stab_bimodal(&h, NULL));
}
END_TEST

/* A second group of 9% is a tail, of 11% a mode (PB_STAB_MODE_PCT 10). */
START_TEST(small_second_group)
{
	cluster(3200, 910);
	cluster(11800, 90);
	ck_assert(!pb_stab_bimodal(&h, NULL));
	pb_hist_reset(&h);
	cluster(3200, 890);
	cluster(11800, 110);
	ck_assert(pb_stab_bimodal(&h, NULL));
}
END_TEST

/* Groups a bin apart (no valley between them) are one mode. */
START_TEST(groups_too_near)
{
	cluster(3200, 500);
	cluster(3800, 500);
	ck_assert(!pb_stab_bimodal(&h, NULL));
}
END_TEST

/* A valley more than half the lower peak is no valley. */
START_TEST(shallow_valley)
{
	cluster(3200, 200);
	cluster(11800, 200);
	/* each quarter-octave bin between them holds 120: more than half of
	 * either peak's bin (200) */
	for (int b = 47; b <= 53; b++)
		for (int i = 0; i < 120; i++)
			pb_hist_record(&h, (uint64_t)exp2((b + 0.5) / 4));
	ck_assert(!pb_stab_bimodal(&h, NULL));
}
END_TEST

/* Fewer than 50 values say nothing. */
START_TEST(too_few_values)
{
	cluster(3200, 25);
	cluster(11800, 24);
	ck_assert(!pb_stab_bimodal(&h, NULL));
	pb_hist_record(&h, 11800);
	ck_assert(pb_stab_bimodal(&h, NULL));
	ck_assert(!pb_stab_bimodal(NULL, NULL));
}
END_TEST

static enum pb_stab judge(double rsd, double spread, size_t n, const struct pb_stab_machine *m,
			  char *why, size_t len)
{
	struct pb_stats s = { .n = n, .rsd = rsd, .spread = spread, .median = 1 };

	return pb_stab_judge(&s, NULL, m, why, len);
}

START_TEST(repetitions)
{
	char why[200];

	ck_assert_int_eq(judge(0.01, 0.03, 5, NULL, why, sizeof(why)), PB_STAB_STABLE);
	ck_assert_str_eq(why, "CV 1.0%, spread 3.0% over 5 repetitions");
	ck_assert_int_eq(judge(0.05, 0.20, 5, NULL, why, sizeof(why)), PB_STAB_STABLE);
	ck_assert_int_eq(judge(0.0501, 0.03, 5, NULL, why, sizeof(why)), PB_STAB_NOISY);
	ck_assert_str_eq(why, "CV 5.0%, spread 3.0% over 5 repetitions");
	ck_assert_int_eq(judge(0.01, 0.2001, 5, NULL, why, sizeof(why)), PB_STAB_NOISY);
	ck_assert_int_eq(judge(0.5, 3.16, 1, NULL, why, sizeof(why)), PB_STAB_STABLE);
	ck_assert_str_eq(why, "one repetition: no spread to judge");
	ck_assert_int_eq(pb_stab_judge(NULL, NULL, NULL, why, sizeof(why)), PB_STAB_STABLE);
	ck_assert_str_eq(why, "");
	ck_assert_str_eq(pb_stab_names[PB_STAB_NOISY], "noisy");
}
END_TEST

START_TEST(machine_disturbs)
{
	struct pb_stab_machine calm = { .load = 0.5, .cpus = 2, .steal_pct = 0.1,
					.others_pct = 3, .throttled = 0 }, m;
	char why[300];

	ck_assert_int_eq(judge(0.01, 0.03, 5, &calm, why, sizeof(why)), PB_STAB_STABLE);
	m = calm;
	m.others_pct = 25;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_STABLE);
	m.others_pct = 25.5;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_DISTURBED);
	ck_assert_str_eq(why, "other work used 26% of its CPUs");
	m = calm;
	m.steal_pct = 2.0;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_STABLE);
	m.steal_pct = 2.1;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_DISTURBED);
	ck_assert_str_eq(why, "steal 2.1%");
	m = calm;
	m.throttled = 1;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_DISTURBED);
	ck_assert_str_eq(why, "cgroup throttled 1 periods");
	/* the load counts only where the others' share is unknown */
	m = calm;
	m.load = 2.5;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_STABLE);
	m.others_pct = -1;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_DISTURBED);
	ck_assert_str_eq(why, "load average 2.50 on 2 CPUs at the start");
	m.load = 2.0;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_STABLE);
	/* every reason said, the first verdict given */
	m.load = 3;
	m.steal_pct = 5;
	ck_assert_int_eq(judge(0.2, 0.5, 3, &m, why, sizeof(why)), PB_STAB_DISTURBED);
	ck_assert_str_eq(why, "load average 3.00 on 2 CPUs at the start; steal 5.0%; "
			 "CV 20.0%, spread 50.0% over 3 repetitions");
}
END_TEST

/* Migrations disturb a row: any of pinned parties, more than one per
 * PB_STAB_MIGRATE_EVERY operations of unpinned ones; none or unknown (<= 0)
 * never. */
START_TEST(migrations_disturb)
{
	struct pb_stab_machine m = { .load = 0.5, .cpus = 2, .others_pct = 3, .ops = 1000 };
	char why[300];

	m.migrations = 10;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_STABLE);
	m.migrations = 11;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_DISTURBED);
	ck_assert_str_eq(why, "11 migrations in 1000 operations (one in 91)");
	m.migrations = 1;
	m.pinned = true;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_DISTURBED);
	ck_assert_str_eq(why, "1 migration of pinned parties (their affinity changed under the "
			 "run?)");
	m.migrations = 2;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_DISTURBED);
	ck_assert_str_eq(why, "2 migrations of pinned parties (their affinity changed under the "
			 "run?)");
	m.migrations = -1;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_STABLE);
	m.migrations = 0;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_STABLE);
	/* no operations counted: unpinned migrations cannot be weighed */
	m.pinned = false;
	m.migrations = 50;
	m.ops = 0;
	ck_assert_int_eq(judge(0.01, 0.03, 5, &m, why, sizeof(why)), PB_STAB_STABLE);
}
END_TEST

/* Two modes beat noise; the reason says where each lies. */
START_TEST(bimodal_verdict)
{
	struct pb_stats s = { .n = 5, .rsd = 0.3, .spread = 0.9, .median = 1 };
	char why[300];

	cluster(3200, 610);
	cluster(11800, 390);
	ck_assert_int_eq(pb_stab_judge(&s, &h, NULL, why, sizeof(why)), PB_STAB_BIMODAL);
	ck_assert_msg(strncmp(why, "two modes: 3.2 us (61%) and 11.", 31) == 0 &&
		      strstr(why, " us (39%); CV 30.0%, spread 90.0% over 5 repetitions"), "%s", why);
}
END_TEST

/* A short buffer keeps the start of the reason, terminated. */
START_TEST(reason_truncated)
{
	char why[12];

	ck_assert_int_eq(judge(0.2, 0.5, 3, NULL, why, sizeof(why)), PB_STAB_NOISY);
	ck_assert_str_eq(why, "CV 20.0%, s");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stability");
	TCase *tc = pb_test_tcase(PB_TCASE("modes", two_modes_found, two_modes_high_first, one_mode,
					   small_second_group, groups_too_near, shallow_valley,
					   too_few_values, bimodal_verdict));

	tcase_add_checked_fixture(tc, setup, teardown);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, pb_test_tcase(PB_TCASE("verdict", repetitions, machine_disturbs, migrations_disturb,
						  reason_truncated)));
	return pb_test_run_suite(s);
}
