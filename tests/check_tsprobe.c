/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "tsprobe.h"

static void set_samples(struct pb_ts_sample *s, size_t n, enum pb_ts_field f,
			const enum pb_ts_state *states)
{
	for (size_t i = 0; i < n; i++) {
		s[i].state[f] = states[i];
		s[i].reason[f] = states[i] == PB_TS_UNDETERMINED ? "noatime mount" : NULL;
	}
}

START_TEST(fold_agreement_and_disagreement)
{
	struct pb_ts_sample s[3];
	struct pb_ts_obs o;
	const enum pb_ts_state agree[] = { PB_TS_UPDATED, PB_TS_UPDATED, PB_TS_UPDATED };
	const enum pb_ts_state mixed[] = { PB_TS_UPDATED, PB_TS_UNCHANGED, PB_TS_UPDATED };
	const enum pb_ts_state partly[] = { PB_TS_UNDETERMINED, PB_TS_UNCHANGED, PB_TS_UNCHANGED };
	const enum pb_ts_state none[] = { PB_TS_UNDETERMINED, PB_TS_UNDETERMINED, PB_TS_UNDETERMINED };

	memset(s, 0, sizeof(s));
	set_samples(s, 3, PB_TS_MTIME, agree);
	pb_ts_fold(s, 3, PB_TS_MTIME, &o);
	ck_assert_int_eq(o.state, PB_TS_UPDATED);
	ck_assert_uint_eq(o.n_updated, 3);
	set_samples(s, 3, PB_TS_MTIME, mixed);
	pb_ts_fold(s, 3, PB_TS_MTIME, &o);
	ck_assert_int_eq(o.state, PB_TS_INCONSISTENT);
	ck_assert_ptr_nonnull(strstr(o.reason, "updated in 2, unchanged in 1"));
	set_samples(s, 3, PB_TS_ATIME, partly);
	pb_ts_fold(s, 3, PB_TS_ATIME, &o);
	ck_assert_int_eq(o.state, PB_TS_UNCHANGED);
	ck_assert_uint_eq(o.n_undetermined, 1);
	set_samples(s, 3, PB_TS_ATIME, none);
	pb_ts_fold(s, 3, PB_TS_ATIME, &o);
	ck_assert_int_eq(o.state, PB_TS_UNDETERMINED);
	ck_assert_str_eq(o.reason, "noatime mount");
	pb_ts_fold(s, 0, PB_TS_ATIME, &o);
	ck_assert_int_eq(o.state, PB_TS_UNDETERMINED);
}
END_TEST

/* A target whose write and read observations are the given states (a, m, c). */
static void fake(struct pb_ts_target *t, const enum pb_ts_state w[3], const enum pb_ts_state r[3])
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < 2; i++) {
		struct pb_ts_opres *op = &t->ops[i ? PB_TS_READ : PB_TS_WRITE];

		op->probed = op->supported = true;
		op->nsamples = 1;
		for (int f = 0; f < PB_TS_FIELD_COUNT; f++)
			op->field[f].state = (i ? r : w)[f];
	}
}

START_TEST(verdicts)
{
	const enum pb_ts_state U = PB_TS_UPDATED, N = PB_TS_UNCHANGED, D = PB_TS_UNDETERMINED,
			       I = PB_TS_INCONSISTENT;
	struct pb_ts_target t;

	fake(&t, (const enum pb_ts_state[]){ N, N, N }, (const enum pb_ts_state[]){ N, N, N });
	pb_ts_verdict_compute(&t);
	ck_assert_int_eq(t.verdict, PB_TS_V_FROZEN);
	fake(&t, (const enum pb_ts_state[]){ N, U, U }, (const enum pb_ts_state[]){ U, N, N });
	pb_ts_verdict_compute(&t);
	ck_assert_int_eq(t.verdict, PB_TS_V_UPDATED);
	ck_assert_str_eq(t.detail, "write changes mtime+ctime, read changes atime");
	/* A noatime mount leaves read's atime undetermined: still updated, noted. */
	fake(&t, (const enum pb_ts_state[]){ D, U, U }, (const enum pb_ts_state[]){ D, N, N });
	pb_ts_verdict_compute(&t);
	ck_assert_int_eq(t.verdict, PB_TS_V_UPDATED);
	ck_assert_ptr_nonnull(strstr(t.detail, "read atime undetermined"));
	fake(&t, (const enum pb_ts_state[]){ N, U, N }, (const enum pb_ts_state[]){ N, N, N });
	pb_ts_verdict_compute(&t);
	ck_assert_int_eq(t.verdict, PB_TS_V_MIXED);
	fake(&t, (const enum pb_ts_state[]){ N, I, U }, (const enum pb_ts_state[]){ U, N, N });
	pb_ts_verdict_compute(&t);
	ck_assert_int_eq(t.verdict, PB_TS_V_INCONSISTENT);
	fake(&t, (const enum pb_ts_state[]){ D, D, D }, (const enum pb_ts_state[]){ D, D, D });
	pb_ts_verdict_compute(&t);
	ck_assert_int_eq(t.verdict, PB_TS_V_UNDETERMINED);
	fake(&t, (const enum pb_ts_state[]){ N, N, N }, (const enum pb_ts_state[]){ N, N, N });
	t.ops[PB_TS_READ].nsamples = 0;
	pb_ts_verdict_compute(&t);
	ck_assert_int_eq(t.verdict, PB_TS_V_UNDETERMINED);
}
END_TEST

/* Live: a FIFO write updates mtime+ctime on every Linux; nothing is left behind. */
START_TEST(live_fifo_probe)
{
	char dir[4096], err[256] = "";
	struct pb_ts_target t[2] = { { .kind = PB_KIND_FIFO }, { .kind = PB_KIND_ANON } };
	struct pb_ts_opts o = { .repeat = 2, .ops = PB_TS_OPS_RW };

	ck_assert_int_eq(pb_tmpdir_make(NULL, dir, sizeof(dir)), 0);
	o.dir = dir;
	ck_assert_msg(pb_ts_probe(t, 2, &o, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(t[0].ops[PB_TS_WRITE].nsamples, 2);
	ck_assert_int_eq(t[0].ops[PB_TS_WRITE].field[PB_TS_MTIME].state, PB_TS_UPDATED);
	ck_assert_int_eq(t[0].ops[PB_TS_WRITE].field[PB_TS_CTIME].state, PB_TS_UPDATED);
	ck_assert_int_eq(t[0].ops[PB_TS_READ].field[PB_TS_MTIME].state, PB_TS_UNCHANGED);
	ck_assert_str_eq(t[1].mount.fstype, "pipefs");
	ck_assert(t[1].verdict == PB_TS_V_FROZEN || t[1].verdict == PB_TS_V_UPDATED);
	ck_assert_int_eq(rmdir(dir), 0);   /* fails if a FIFO was left in it */
	pb_tmpdir_remove(dir);
	pb_ts_target_free(&t[0]);
	pb_ts_target_free(&t[1]);
}
END_TEST

static Suite *tsprobe_suite(void)
{
	Suite *s = suite_create("tsprobe");
	TCase *tc = tcase_create("judge");

	tcase_add_test(tc, fold_agreement_and_disagreement);
	tcase_add_test(tc, verdicts);
	suite_add_tcase(s, tc);
	tc = tcase_create("live");
	tcase_add_test(tc, live_fifo_probe);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tsprobe_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
