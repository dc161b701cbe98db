/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fill/drain engine and endpoints, including the failures it must report. */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "cleanup.h"
#include "clock.h"
#include "endpoint.h"
#include "engine.h"
#include "zerocopy.h"
#include "fake_clock.h"

static char buf[65536];

START_TEST(anon_counts_balance)
{
	struct pb_endpoint_opts o = { .nonblock = true };
	struct pb_endpoint ep;
	struct pb_engine_result r;

	ck_assert_int_eq(pb_endpoint_open(&ep, PB_KIND_ANON, &o, NULL), 0);
	ck_assert_int_gt(ep.pipe_size, 0);
	ck_assert_int_eq(pb_engine_run(ep.rfd, ep.wfd, buf, 100, 3, 1 << 24, &r), 0);
	ck_assert_uint_eq(r.loops_done, 3);
	ck_assert_uint_eq(r.bytes_written, r.bytes_read);
	/* Every loop ends each phase with one EAGAIN call. */
	ck_assert_uint_eq(r.write_calls, r.bytes_written / 100 + 3);
	ck_assert_uint_eq(r.read_calls, r.bytes_read / 100 + 3);
	/* 100-byte writes fill at least (capacity - one page) per loop. */
	ck_assert_uint_ge(r.bytes_written, 3 * (uint64_t)(ep.pipe_size - 4096));
	pb_endpoint_close(&ep);
}
END_TEST

START_TEST(kinds_all_open)
{
	char dir[4096];
	struct pb_endpoint ep;
	struct pb_engine_result r;
	struct stat st;

	ck_assert_int_eq(pb_tmpdir_make(NULL, dir, sizeof(dir)), 0);
	for (int k = 0; k < PB_KIND_COUNT; k++) {
		struct pb_endpoint_opts o = { .nonblock = true, .dir = dir };

		ck_assert_int_eq(pb_endpoint_open(&ep, (enum pb_kind)k, &o, NULL), 0);
		ck_assert_int_eq(pb_engine_run(ep.rfd, ep.wfd, buf, 4096, 2, 1ULL << 28, &r), 0);
		ck_assert_uint_eq(r.bytes_written, r.bytes_read);
		if (k == PB_KIND_FIFO) {
			ck_assert_int_eq(stat(ep.path, &st), 0);
			ck_assert(S_ISFIFO(st.st_mode));
		}
		pb_endpoint_close(&ep);
	}
	pb_tmpdir_remove(dir);
	ck_assert_int_eq(stat(dir, &st), -1);
}
END_TEST

START_TEST(pipe_size_is_applied)
{
	struct pb_endpoint_opts o = { .nonblock = true, .pipe_size = 8192 };
	struct pb_endpoint ep;

	ck_assert_int_eq(pb_endpoint_open(&ep, PB_KIND_ANON, &o, NULL), 0);
	ck_assert_int_eq(ep.pipe_size, 8192);
	pb_endpoint_close(&ep);
}
END_TEST

/* A "kernel" whose write side never says EAGAIN: /dev/null swallows all. */
START_TEST(never_full_is_overflow)
{
	int rfd = open("/dev/null", O_RDONLY), wfd = open("/dev/null", O_WRONLY);
	struct pb_engine_result r;

	ck_assert_int_eq(pb_engine_run(rfd, wfd, buf, 4096, 1, 1 << 20, &r), -EOVERFLOW);
	close(rfd);
	close(wfd);
}
END_TEST

/* The fill limit the commands give the engine (engine.h): four pipe
 * buffers and a chunk, so a pipe of 64 KiB that never fills is caught
 * after 256 KiB and a chunk; a socket (no pipe size) gets 256 MiB. */
START_TEST(fill_limit_is_four_buffers)
{
	ck_assert_uint_eq(pb_engine_fill_limit(65536, 100), 262244);
	ck_assert_uint_eq(pb_engine_fill_limit(4096, 1), 16385);
	ck_assert_uint_eq(pb_engine_fill_limit(1048576, 65536), 4259840);
	ck_assert_uint_eq(pb_engine_fill_limit(0, 100), 268435556);
	ck_assert_uint_eq(pb_engine_fill_limit(-1, 4096), 268439552);
}
END_TEST

/*
 * The engine writing into one nonblocking pipe (a) and reading from another
 * (b), after `prepare` put bytes in them: what comes out is not what went in,
 * which the engine must report as -EIO in the first loop.
 */
static struct pb_engine_result crossed_mismatch(void (*prepare)(int a[2], int b[2]),
						unsigned loops)
{
	int a[2], b[2];
	struct pb_engine_result r;

	ck_assert_int_eq(pipe2(a, O_NONBLOCK), 0);
	ck_assert_int_eq(pipe2(b, O_NONBLOCK), 0);
	if (prepare)
		prepare(a, b);
	ck_assert_int_eq(pb_engine_run(b[0], a[1], buf, 100, loops, 1 << 24, &r), -EIO);
	ck_assert_uint_eq(r.bad_loop, 0);
	close(a[0]), close(a[1]), close(b[0]), close(b[1]);
	return r;
}

static void b_holds_1000(int a[2], int b[2])
{
	(void)a;
	ck_assert_int_eq(write(b[1], buf, 1000), 1000);
}

/* Reading from another pipe that holds extra bytes: data "invented". */
START_TEST(invented_data_is_mismatch)
{
	/* Write into a (fills it), read from b (only 1000 bytes). */
	struct pb_engine_result r = crossed_mismatch(b_holds_1000, 1);

	ck_assert_uint_eq(r.bad_read, 1000);
	ck_assert_uint_gt(r.bad_written, 1000);
}
END_TEST

/* a holds one page, b 64 KiB and more room. */
static void b_holds_more_than_a_takes(int a[2], int b[2])
{
	ck_assert_int_ge(fcntl(a[1], F_SETPIPE_SZ, 4096), 4096);
	ck_assert_int_ge(fcntl(b[1], F_SETPIPE_SZ, 1 << 20), 1 << 16);
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(write(b[1], buf, 8192), 8192);
}

/* Reading from a pipe that holds more than the written one took: more
 * bytes out than went in, which must stop the loop at once. */
START_TEST(more_out_than_in_is_mismatch)
{
	struct pb_engine_result r = crossed_mismatch(b_holds_more_than_a_takes, 3);
	char msg[256];

	ck_assert_uint_eq(r.loops_done, 1);
	ck_assert_uint_le(r.bad_written, 4096);
	ck_assert_uint_gt(r.bad_read, r.bad_written);
	/* it stops reading as soon as more came out than went in */
	ck_assert_uint_le(r.bad_read, r.bad_written + 100);
	pb_engine_strerror(-EIO, &r, 1 << 24, msg, sizeof(msg));
	ck_assert_ptr_nonnull(strstr(msg, "loop 0: wrote "));
	ck_assert_ptr_nonnull(strstr(msg, "lost or invented data"));
}
END_TEST

static void a_full(int a[2], int b[2])
{
	(void)b;
	while (write(a[1], buf, 4096) > 0)
		;
}

/* A loop that moves nothing (the write end is already full, the read end
 * empty) is the kernel saying EAGAIN for no reason: an alarm, not a pass. */
START_TEST(loop_moving_nothing_is_mismatch)
{
	struct pb_engine_result r = crossed_mismatch(a_full, 5);

	ck_assert_uint_eq(r.bad_written, 0);
	ck_assert_uint_eq(r.bad_read, 0);
}
END_TEST

/* Data written but nothing to read (read end of an empty other pipe): lost. */
START_TEST(lost_data_is_mismatch)
{
	struct pb_engine_result r = crossed_mismatch(NULL, 2);

	ck_assert_uint_gt(r.bad_written, 0);
	ck_assert_uint_eq(r.bad_read, 0);
	ck_assert_uint_eq(r.bytes_written, r.bad_written);
}
END_TEST

/* The fill limit is where the engine stops: with a limit of a quarter of
 * the pipe, the pipe holds exactly the pages written up to the first one
 * past the limit. */
START_TEST(fill_limit_is_exact)
{
	int p[2], queued = -1, cap;
	struct pb_engine_result r;
	uint64_t limit;

	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	cap = fcntl(p[1], F_GETPIPE_SZ);
	ck_assert_int_ge(cap, 4 * 4096);
	limit = (uint64_t)cap / 4 / 4096 * 4096;
	ck_assert_int_eq(pb_engine_run(p[0], p[1], buf, 4096, 1, limit, &r), -EOVERFLOW);
	ck_assert_int_eq(ioctl(p[0], FIONREAD, &queued), 0);
	ck_assert_int_eq(queued, (int)limit + 4096);
	close(p[0]), close(p[1]);
}
END_TEST

/* One 100-byte loop reading rfd and writing wfd fails with `err`, and the
 * result names the call that failed. */
static void expect_failed_call(int rfd, int wfd, int err, const char *call)
{
	struct pb_engine_result r;

	ck_assert_int_eq(pb_engine_run(rfd, wfd, buf, 100, 1, 1 << 24, &r), err);
	ck_assert_str_eq(r.failed_call, call);
}

/* Errors other than EPIPE/EAGAIN are reported with the call that failed. */
START_TEST(bad_descriptor_errors_are_reported)
{
	int p[2];

	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	/* writing to the read end */
	expect_failed_call(p[0], p[0], -EBADF, "write");
	/* reading from the write end */
	expect_failed_call(p[1], p[1], -EBADF, "read");
	close(p[0]), close(p[1]);
}
END_TEST

/* A fired watchdog stops the loop before the next fill, and says so. */
START_TEST(watchdog_stops_the_loop)
{
	struct timespec ts = { 0, 50000000 };
	int p[2];
	struct pb_engine_result r;
	char msg[128];

	pb_cleanup_install("test");
	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	pb_watchdog_arm(0.001, "--timeout");
	while (!pb_watchdog_fired() && nanosleep(&ts, &ts) != 0)
		;
	ck_assert(pb_watchdog_fired());
	ck_assert_int_eq(pb_engine_run(p[0], p[1], buf, 100, 1000, 1 << 24, &r), -ETIMEDOUT);
	ck_assert_uint_eq(r.loops_done, 0);
	pb_watchdog_arm(0, NULL);
	pb_engine_strerror(-ETIMEDOUT, &r, 1 << 24, msg, sizeof(msg));
	ck_assert_str_eq(msg, "--timeout: timed out");
	close(p[0]), close(p[1]);
}
END_TEST

/* TW and TR are disjoint intervals inside the call: their sum can never
 * exceed the time the call took, on the same clock (not a speed test: an
 * invariant of nested intervals). */
START_TEST(phase_times_nest_in_the_call)
{
	int p[2];
	struct pb_engine_result r;
	uint64_t t0, t1;

	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	t0 = pb_clock_ns();
	ck_assert_int_eq(pb_engine_run(p[0], p[1], buf, 100, 200, 1 << 24, &r), 0);
	t1 = pb_clock_ns();
	ck_assert_uint_gt(r.tw_ns, 0);
	ck_assert_uint_gt(r.tr_ns, 0);
	ck_assert_uint_le(r.tw_ns + r.tr_ns, t1 - t0);
	close(p[0]), close(p[1]);
}
END_TEST

/* Under a clock that steps PB_FAKE_STEP a reading, each loop's write and
 * read phases are one step each: nothing else reads the clock between their
 * ends, and neither phase takes the other's time. */
START_TEST(phase_times_are_each_phase)
{
	int p[2];
	struct pb_engine_result r;

	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	pb_fake_clock_on();
	ck_assert_int_eq(pb_engine_run(p[0], p[1], buf, 100, 25, 1 << 24, &r), 0);
	pb_fake_clock_off();
	ck_assert_uint_eq(r.loops_done, 25);
	ck_assert_uint_eq(r.tw_ns, 25 * PB_FAKE_STEP);
	ck_assert_uint_eq(r.tr_ns, 25 * PB_FAKE_STEP);
	close(p[0]), close(p[1]);
}
END_TEST

START_TEST(write_error_is_reported)
{
	int p[2];

	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	close(p[0]); /* no reader: EPIPE (SIGPIPE ignored below) */
	signal(SIGPIPE, SIG_IGN);
	expect_failed_call(p[1], p[1], -EPIPE, "write");
	close(p[1]);
}
END_TEST

/* ---- zero-copy modes ---- */

static const enum pb_mode zc_modes[] = { PB_MODE_VMSPLICE, PB_MODE_SPLICE, PB_MODE_TEE };

/* Every mode moves whole loops on a pipe and a FIFO, and checks every loop. */
START_TEST(zc_modes_move_and_verify)
{
	char dir[4096];

	ck_assert_int_eq(pb_tmpdir_make(NULL, dir, sizeof(dir)), 0);
	for (size_t m = 0; m < 3; m++)
		for (int k = 0; k < 2; k++) {
			struct pb_endpoint_opts o = { .nonblock = true, .dir = dir };
			struct pb_endpoint ep;
			struct pb_engine_result r;
			struct pb_zc z;
			const char *what;

			ck_assert_int_eq(pb_zc_open(&z, zc_modes[m], PB_VERIFY_ALL, 4096, &what), 0);
			ck_assert_int_eq(pb_endpoint_open(&ep, (enum pb_kind)k, &o, NULL), 0);
			for (size_t size = 100; size <= 4096; size += 3996) {
				ck_assert_int_eq(pb_zc_run(&z, ep.rfd, ep.wfd, size, 7, 1 << 24, &r), 0);
				ck_assert_uint_eq(r.loops_done, 7);
				ck_assert_uint_eq(r.verified_loops, 7);
				ck_assert_uint_eq(r.bytes_written, r.bytes_read);
				ck_assert_uint_gt(r.bytes_written, 0);
				/* tee moves every byte twice: the pipe's and its copy. */
				if (zc_modes[m] == PB_MODE_TEE)
					ck_assert_uint_eq(r.bytes_written % 2, 0);
				if (size == 4096 && zc_modes[m] == PB_MODE_TEE)
					ck_assert_uint_eq(r.bytes_written, 2 * 7 * (uint64_t)ep.pipe_size);
				else if (size == 4096)
					ck_assert_uint_eq(r.bytes_written, 7 * (uint64_t)ep.pipe_size);
			}
			pb_endpoint_close(&ep);
			pb_zc_close(&z);
		}
	pb_tmpdir_remove(dir);
}
END_TEST

/* A pipe already holding 200 bytes that differ from the pattern at byte 137
 * (in the second 100-byte chunk read):
 * what a kernel delivering wrong bytes looks like.  Every mode names the
 * loop and the offset; with --verify off only the byte count catches it. */
START_TEST(zc_corrupt_bytes_are_reported)
{
	for (size_t m = 0; m < 3; m++) {
		unsigned char bad[200];
		struct pb_engine_result r;
		struct pb_zc z;
		const char *what;
		char msg[256];
		int p[2];

		for (size_t i = 0; i < sizeof(bad); i++)
			bad[i] = pb_zc_pattern(i);
		bad[137] ^= 0x40;
		ck_assert_int_eq(pb_zc_open(&z, zc_modes[m], PB_VERIFY_SAMPLE, 4096, &what), 0);
		ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
		ck_assert_int_eq(write(p[1], bad, sizeof(bad)), (ssize_t)sizeof(bad));
		ck_assert_int_eq(pb_zc_run(&z, p[0], p[1], 100, 3, 1 << 24, &r), -EBADMSG);
		ck_assert_uint_eq(r.bad_loop, 0);
		ck_assert_uint_eq(r.bad_offset, 137);
		ck_assert_uint_eq(r.bad_pipe, 0);
		ck_assert_uint_eq(r.bad_expected, pb_zc_pattern(137));
		ck_assert_uint_eq(r.bad_got, bad[137]);
		pb_engine_strerror(-EBADMSG, &r, 0, msg, sizeof(msg));
		ck_assert_ptr_nonnull(strstr(msg, "loop 0, byte 137"));
		ck_assert_ptr_nonnull(strstr(msg, "corrupted"));
		close(p[0]), close(p[1]);
		pb_zc_close(&z);

		ck_assert_int_eq(pb_zc_open(&z, zc_modes[m], PB_VERIFY_OFF, 4096, &what), 0);
		ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
		ck_assert_int_eq(write(p[1], bad, sizeof(bad)), (ssize_t)sizeof(bad));
		ck_assert_int_eq(pb_zc_run(&z, p[0], p[1], 100, 3, 1 << 24, &r), -EIO);
		ck_assert_uint_eq(r.verified_loops, 0);
		close(p[0]), close(p[1]);
		pb_zc_close(&z);
	}
}
END_TEST

/* The pattern changes under any shift a lost or repeated chunk causes. */
START_TEST(zc_pattern_detects_shifts)
{
	static const uint64_t shifts[] = { 1, 4, 100, 4096, 65536 };

	for (size_t s = 0; s < sizeof(shifts) / sizeof(shifts[0]); s++) {
		unsigned same = 0;

		for (uint64_t i = 0; i < 8192; i++)
			same += pb_zc_pattern(i) == pb_zc_pattern(i + shifts[s]);
		ck_assert_uint_lt(same, 8192 / 8);
	}
}
END_TEST

START_TEST(zc_sample_and_support)
{
	ck_assert(pb_zc_verify_loop(PB_VERIFY_SAMPLE, 0, 100));
	ck_assert(!pb_zc_verify_loop(PB_VERIFY_SAMPLE, 1, 100));
	ck_assert(pb_zc_verify_loop(PB_VERIFY_SAMPLE, PB_ZC_SAMPLE, 100));
	ck_assert(!pb_zc_verify_loop(PB_VERIFY_SAMPLE, 98, 100));
	ck_assert(pb_zc_verify_loop(PB_VERIFY_SAMPLE, 99, 100));
	ck_assert(pb_zc_verify_loop(PB_VERIFY_ALL, 1, 100));
	ck_assert(!pb_zc_verify_loop(PB_VERIFY_OFF, 0, 100));
	for (int m = 0; m < PB_MODE_COUNT; m++) {
		ck_assert_ptr_null(pb_zc_unsupported((enum pb_mode)m, PB_KIND_ANON));
		ck_assert_ptr_null(pb_zc_unsupported((enum pb_mode)m, PB_KIND_FIFO));
		if (m == PB_MODE_RW || m == PB_MODE_IO_URING)   /* read and write: any kind */
			ck_assert_ptr_null(pb_zc_unsupported((enum pb_mode)m, PB_KIND_SOCKETPAIR));
		else
			ck_assert_ptr_nonnull(pb_zc_unsupported((enum pb_mode)m,
								PB_KIND_SOCKETPAIR));
	}
}
END_TEST

/* A failing call is named: vmsplice into a socket, and chunks larger than
 * the buffers. */
START_TEST(zc_errors_are_named)
{
	struct pb_engine_result r;
	struct pb_zc z;
	const char *what;
	int p[2];

	ck_assert_int_eq(pb_zc_open(&z, PB_MODE_VMSPLICE, PB_VERIFY_ALL, 4096, &what), 0);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, p), 0);
	ck_assert_int_lt(pb_zc_run(&z, p[0], p[1], 100, 1, 1 << 24, &r), 0);
	ck_assert_str_eq(r.failed_call, "vmsplice");
	ck_assert_int_eq(pb_zc_run(&z, p[0], p[1], 8192, 1, 1 << 24, &r), -EINVAL);
	close(p[0]), close(p[1]);
	pb_zc_close(&z);
}
END_TEST

PB_CHECK_SUITE_MAIN("engine",
	PB_TCASE("loop", anon_counts_balance, kinds_all_open, pipe_size_is_applied,
		 phase_times_nest_in_the_call, phase_times_are_each_phase),
	PB_TCASE("failures", never_full_is_overflow, fill_limit_is_four_buffers, invented_data_is_mismatch,
		 more_out_than_in_is_mismatch, loop_moving_nothing_is_mismatch,
		 lost_data_is_mismatch, fill_limit_is_exact, bad_descriptor_errors_are_reported,
		 watchdog_stops_the_loop, write_error_is_reported),
	PB_TCASE("zerocopy", zc_modes_move_and_verify, zc_corrupt_bytes_are_reported,
		 zc_pattern_detects_shifts, zc_sample_and_support, zc_errors_are_named))
