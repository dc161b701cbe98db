/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Many writers and readers on one pipe (src/contention.c): a healthy
 * kernel's records all arrive whole and once, whatever the mix; and each
 * way a kernel can break them is seen.  The broken kernel is played by a
 * relay thread between two pipes that drops, doubles, halves, changes or
 * swaps one record, and by junk queued ahead of the writers.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "contention.h"

static struct pb_mw_result res;

static int run_on(int fd[2], unsigned nw, unsigned nr, size_t size, uint64_t records,
		  bool nonblock)
{
	struct pb_mw_opts o = { .rfd = fd[0], .wfd = fd[1], .size = size, .writers = nw,
				.readers = nr, .nonblock = nonblock, .records = records };

	return pb_mw_run(&o, &res);
}

static void open_pipe(int fd[2], bool nonblock)
{
	ck_assert_int_eq(pipe2(fd, O_CLOEXEC | (nonblock ? O_NONBLOCK : 0)), 0);
}

static uint64_t sum_records(const struct pb_mw_party *p, unsigned n, bool bytes)
{
	uint64_t t = 0;

	for (unsigned i = 0; i < n; i++)
		t += bytes ? p[i].bytes : p[i].records;
	return t;
}

/* Whole and once: every record read, each writer's all written. */
static void healthy(unsigned nw, unsigned nr, size_t size, bool nonblock)
{
	int fd[2];

	open_pipe(fd, nonblock);
	ck_assert_int_eq(run_on(fd, nw, nr, size, 300, nonblock), 0);
	ck_assert_msg(!res.first_bad[0], "%s", res.first_bad);
	ck_assert_uint_eq(sum_records(res.w, nw, false), nw * 300ULL);
	ck_assert_uint_eq(sum_records(res.r, nr, false), nw * 300ULL);
	ck_assert_uint_eq(sum_records(res.r, nr, true), nw * 300ULL * size);
	for (unsigned i = 0; i < nw; i++)
		ck_assert_uint_eq(res.w[i].records, 300);
	ck_assert_uint_eq(res.torn + res.lost + res.duplicated + res.disorder + res.short_writes, 0);
	ck_assert(res.elapsed_ns > 0);
	/* pb_mw_run closed both ends */
	ck_assert_int_eq(fcntl(fd[0], F_GETFD), -1);
	ck_assert_int_eq(fcntl(fd[1], F_GETFD), -1);
}

START_TEST(whole_and_once)
{
	healthy(1, 1, 24, false);
	healthy(4, 2, 256, false);
	healthy(16, 16, 4096, false);
	healthy(4, 2, 100, true);
	healthy(2, 8, 4096, true);
}
END_TEST

/* A --duration run: records until the deadline, all of them read. */
START_TEST(until_deadline)
{
	struct pb_mw_opts o = { .size = 64, .writers = 3, .readers = 2, .duration_ns = 50000000 };
	int fd[2];

	open_pipe(fd, false);
	o.rfd = fd[0];
	o.wfd = fd[1];
	ck_assert_int_eq(pb_mw_run(&o, &res), 0);
	ck_assert(sum_records(res.w, 3, false) > 0);
	ck_assert_uint_eq(sum_records(res.r, 2, false), sum_records(res.w, 3, false));
	ck_assert(res.elapsed_ns >= 50000000);
}
END_TEST

/*
 * The broken kernel, played by a relay: the writers write into pipe A, the
 * readers read pipe B, and a thread copies A to B a record at a time (A's
 * writes are atomic, so each read of SIZE is one record), doing to record
 * number AT (from 0) what ACT says.
 */
enum act { PASS, DROP, TWICE, HALF, FLIP, SWAP };

static struct relay {
	int in, out;
	size_t size;
	unsigned at;
	enum act act;
} rl;

static void *relay_main(void *arg)
{
	unsigned char buf[4096], held[4096];
	unsigned n = 0;
	bool holding = false;
	ssize_t r;

	(void)arg;
	while ((r = read(rl.in, buf, rl.size)) > 0) {
		if (n++ != rl.at || rl.act == PASS) {
			ck_assert_int_eq(write(rl.out, buf, (size_t)r), r);
			if (holding) {  /* SWAP: the held record after the next one */
				ck_assert_int_eq(write(rl.out, held, rl.size), (ssize_t)rl.size);
				holding = false;
			}
			continue;
		}
		switch (rl.act) {
		case DROP:
			break;
		case TWICE:
			ck_assert_int_eq(write(rl.out, buf, (size_t)r), r);
			ck_assert_int_eq(write(rl.out, buf, (size_t)r), r);
			break;
		case HALF:
			ck_assert_int_eq(write(rl.out, buf, (size_t)r / 2), r / 2);
			break;
		case FLIP:
			buf[r - 1] ^= 1;
			ck_assert_int_eq(write(rl.out, buf, (size_t)r), r);
			break;
		case SWAP:
			memcpy(held, buf, (size_t)r);
			holding = true;
			break;
		case PASS:
			break;
		}
	}
	close(rl.in);
	close(rl.out);
	return NULL;
}

/* A run of NW writers and NR readers through the relay. */
static int relayed(unsigned nw, unsigned nr, size_t size, uint64_t records, unsigned at,
		   enum act act)
{
	int a[2], b[2], fd[2], r;
	pthread_t t;

	open_pipe(a, false);
	open_pipe(b, false);
	rl = (struct relay){ a[0], b[1], size, at, act };
	ck_assert_int_eq(pthread_create(&t, NULL, relay_main, NULL), 0);
	fd[0] = b[0];
	fd[1] = a[1];
	r = run_on(fd, nw, nr, size, records, false);
	pthread_join(t, NULL);
	return r;
}

START_TEST(relay_passes_all)
{
	ck_assert_int_eq(relayed(3, 2, 128, 50, 7, PASS), 0);
	ck_assert_uint_eq(sum_records(res.r, 2, false), 150);
}
END_TEST

START_TEST(lost_record_seen)
{
	ck_assert_int_eq(relayed(3, 2, 128, 50, 7, DROP), -EIO);
	ck_assert_uint_eq(res.lost, 1);
	ck_assert_uint_eq(res.duplicated + res.torn + res.disorder, 0);
	ck_assert_msg(strstr(res.first_bad, ": 50 records written, 49 read"), "%s", res.first_bad);
}
END_TEST

START_TEST(duplicate_seen)
{
	ck_assert_int_eq(relayed(2, 1, 96, 10, 3, TWICE), -EIO);
	ck_assert_uint_eq(res.duplicated, 1);
	ck_assert_uint_eq(res.disorder, 1);   /* one reader saw the record again */
	ck_assert_uint_eq(res.lost + res.torn, 0);
	ck_assert_msg(strstr(res.first_bad, "record") != NULL, "%s", res.first_bad);
}
END_TEST

/* Half a record: the reader gets it alone (a short read) or straddling
 * the next; either way a read that is not one whole record, and the
 * record is lost. */
START_TEST(torn_record_seen)
{
	ck_assert_int_eq(relayed(2, 1, 100, 20, 5, HALF), -EIO);
	ck_assert(res.torn >= 1);
	ck_assert(res.lost >= 1);
	ck_assert_msg(strstr(res.first_bad, "reader 1: a record that is not whole") ||
		      strstr(res.first_bad, "reader 1: read(100) returned 50: part of a record"),
		      "%s", res.first_bad);
}
END_TEST

/* A sound header, its payload's last byte changed. */
START_TEST(payload_checked)
{
	ck_assert_int_eq(relayed(1, 1, 64, 10, 0, FLIP), -EIO);
	ck_assert_uint_eq(res.torn, 1);
	ck_assert_msg(strstr(res.first_bad, "(magic 0x50425257, writer 1, seq 0, size 64, "
			     "payload differs)"), "%s", res.first_bad);
}
END_TEST

/* One writer's records 4 and 5 swapped: out of order, none lost. */
START_TEST(disorder_seen)
{
	ck_assert_int_eq(relayed(1, 1, 64, 10, 4, SWAP), -EIO);
	ck_assert_uint_eq(res.disorder, 1);
	ck_assert_uint_eq(res.lost + res.duplicated + res.torn, 0);
	ck_assert_msg(strstr(res.first_bad, "reader 1: writer 1's record 4 after its record 5"),
		      "%s", res.first_bad);
}
END_TEST

/* A record with nothing of the format, queued ahead of the writers'. */
START_TEST(junk_seen)
{
	unsigned char junk[256];
	int fd[2];

	memset(junk, 0xab, sizeof(junk));
	open_pipe(fd, false);
	ck_assert_int_eq(write(fd[1], junk, sizeof(junk)), (ssize_t)sizeof(junk));
	ck_assert_int_eq(run_on(fd, 2, 2, 256, 100, false), -EIO);
	ck_assert_uint_eq(res.torn, 1);
	ck_assert_msg(strstr(res.first_bad, "a record that is not whole (magic 0xabababab"),
		      "%s", res.first_bad);
}
END_TEST

START_TEST(fairness)
{
	const uint64_t even[] = { 5, 5, 5 }, skew[] = { 2, 8, 4 }, idle[] = { 3, 0 };

	ck_assert(fabs(pb_mw_fairness(even, 3) - 1.0) < 1e-12);
	ck_assert(fabs(pb_mw_fairness(skew, 3) - 4.0) < 1e-12);
	ck_assert(isnan(pb_mw_fairness(idle, 2)));
	ck_assert(isnan(pb_mw_fairness(even, 1)));
}
END_TEST

/* A read that fails is said: the readers here read a write-only
 * descriptor (EBADF); the writers' records fit in the pipe, whose real read
 * end the test holds, so no writer waits or sees EPIPE first. */
START_TEST(read_failure_ends_the_run)
{
	int fd[2], keep;

	open_pipe(fd, false);
	keep = fd[0];
	fd[0] = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ck_assert_int_ge(fd[0], 0);
	ck_assert_int_eq(run_on(fd, 2, 2, 64, 10, false), -EBADF);
	ck_assert_str_eq(res.call_what, "read");
	close(keep);
}
END_TEST

/* The readers gone: the last one closes the read end, so a writer blocked
 * on the full pipe gets EPIPE instead of waiting for ever. */
START_TEST(writer_not_left_waiting)
{
	int fd[2];

	open_pipe(fd, false);
	close(fd[0]);
	fd[0] = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ck_assert_int_ge(fd[0], 0);
	/* far more than the pipe holds: only EPIPE or EBADF can end it */
	ck_assert_int_lt(run_on(fd, 2, 2, 64, 100000, false), 0);
	ck_assert(!strcmp(res.call_what, "read") || !strcmp(res.call_what, "write"));
	ck_assert(res.call_err == EBADF || res.call_err == EPIPE);
}
END_TEST

PB_CHECK_SUITE_MAIN("contention",
	PB_TCASE_TIMED("healthy", 60, whole_and_once, until_deadline),
	PB_TCASE_TIMED("broken", 60, relay_passes_all, lost_record_seen, duplicate_seen,
		       torn_record_seen, payload_checked, disorder_seen, junk_seen,
		       read_failure_ends_the_run, writer_not_left_waiting),
	PB_TCASE("fairness", fairness))
