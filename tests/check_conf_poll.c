/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The poll and select checks, PL-* (src/checks/poll.c): each one FAILs on a
 * kernel that misbehaves the way the catalogue says a broken one shows (an
 * injected pb_sysops: its main bug, then each further condition and setup
 * step on its own, the Nth call faked), gives the expected verdict on the
 * running kernel, and says exactly what the kernel did.  A pipe or FIFO
 * call failing in setup is FAIL; the process out of descriptors is ERROR.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

/* These checks end within a second: a short watchdog catches a hang early. */
#define PB_TEST_WATCHDOG_S 3
#include "fast_time.h"  /* first: check_conf.h's row runners use it */
#include "check_conf.h"
#include "check_main.h"
#include "checks/conformance.h"

/* ---- misbehaving kernels ---- */

/* PL-01: POLLOUT on a full pipe. */
static int poll_always_pollout(struct pollfd *fds, nfds_t n, int timeout)
{
	int ret = poll(fds, n, timeout), extra = 0;

	for (nfds_t i = 0; ret >= 0 && i < n; i++)
		if ((fds[i].events & POLLOUT) && !(fds[i].revents & POLLOUT)) {
			extra += fds[i].revents == 0;
			fds[i].revents |= POLLOUT;
		}
	return ret < 0 ? ret : ret + extra;
}

static int poll_strip(struct pollfd *fds, nfds_t n, int timeout, short bits)
{
	int ret = poll(fds, n, timeout);

	for (nfds_t i = 0; ret > 0 && i < n; i++)
		fds[i].revents &= (short)~bits;
	return ret;
}

static int poll_no_hup(struct pollfd *fds, nfds_t n, int timeout)
{
	return poll_strip(fds, n, timeout, POLLHUP);
}

static int poll_no_err(struct pollfd *fds, nfds_t n, int timeout)
{
	return poll_strip(fds, n, timeout, POLLERR);
}

/* PL-04: HUP before any writer. */
static int poll_always_hup(struct pollfd *fds, nfds_t n, int timeout)
{
	int ret = poll(fds, n, timeout);

	for (nfds_t i = 0; ret >= 0 && i < n; i++)
		fds[i].revents |= POLLHUP;
	return ret < 0 ? ret : (int)n;
}

/* ---- the later conditions, one each ---- */

static long fionread_of(int fd)
{
	int q = -1;

	return ioctl(fd, FIONREAD, &q) == 0 ? q : -1;
}

/* Real poll, then EDIT adjusts each fd's revents (given what is queued). */
static int poll_edited(struct pollfd *fds, nfds_t n, int timeout,
		       short (*edit)(const struct pollfd *p, long queued))
{
	int ret = poll(fds, n, timeout);

	if (ret < 0)
		return ret;
	ret = 0;
	for (nfds_t i = 0; i < n; i++) {
		fds[i].revents = edit(&fds[i], fionread_of(fds[i].fd));
		ret += fds[i].revents != 0;
	}
	return ret;
}

/* PL-01: an empty read end says POLLIN; an empty write end lacks POLLOUT;
 * one queued byte lacks POLLIN; a write end with room but data queued
 * lacks POLLOUT. */
static short edit_empty_pollin(const struct pollfd *p, long q)
{
	return q == 0 && is_read_end(p->fd) ? p->revents | (p->events & POLLIN) : p->revents;
}

static short edit_empty_no_pollout(const struct pollfd *p, long q)
{
	return q == 0 ? p->revents & ~POLLOUT : p->revents;
}

static short edit_one_byte_no_pollin(const struct pollfd *p, long q)
{
	return q == 1 ? p->revents & ~POLLIN : p->revents;
}

static short edit_queued_no_pollout(const struct pollfd *p, long q)
{
	return q > 0 ? p->revents & ~POLLOUT : p->revents;
}

/* PL-02 (and PL-05's select below): a drained, writer-less read end says
 * POLLIN besides POLLHUP. */
static short edit_hup_drained_pollin(const struct pollfd *p, long q)
{
	return q == 0 && (p->revents & POLLHUP) ? p->revents | POLLIN : p->revents;
}

/* PL-04: POLLHUP is never set, or stays once set (a new writer does not
 * clear it). */
static short edit_no_hup(const struct pollfd *p, long q)
{
	(void)q;
	return p->revents & ~POLLHUP;
}

static bool hup_seen;
static short edit_sticky_hup(const struct pollfd *p, long q)
{
	(void)q;
	hup_seen = hup_seen || (p->revents & POLLHUP);
	return hup_seen ? p->revents | POLLHUP : p->revents;
}

/* PL-04: POLLHUP on the second poll only (the one with a writer open). */
static int polls_made;
static short edit_hup_second_poll(const struct pollfd *p, long q)
{
	(void)q;
	return ++polls_made == 2 ? p->revents | POLLHUP : p->revents;
}

#define POLL_EDITED(name, edit) \
	static int name(struct pollfd *fds, nfds_t n, int timeout) \
	{ \
		return poll_edited(fds, n, timeout, edit); \
	}
POLL_EDITED(poll_empty_pollin, edit_empty_pollin)
POLL_EDITED(poll_empty_no_pollout, edit_empty_no_pollout)
POLL_EDITED(poll_one_byte_no_pollin, edit_one_byte_no_pollin)
POLL_EDITED(poll_queued_no_pollout, edit_queued_no_pollout)
POLL_EDITED(poll_hup_drained_pollin, edit_hup_drained_pollin)
POLL_EDITED(poll_hup_never, edit_no_hup)
POLL_EDITED(poll_sticky_hup, edit_sticky_hup)
POLL_EDITED(poll_hup_second, edit_hup_second_poll)
#undef POLL_EDITED

/* PL-04: a blocking read of a FIFO that never had a writer blocks (until a
 * signal) instead of EOF, or fails with EIO. */
static ssize_t read_fifo_eof_blocks(int fd, void *b, size_t n)
{
	ssize_t r = read(fd, b, n);

	if (r == 0 && !(fcntl(fd, F_GETFL) & O_NONBLOCK)) {
		pause();
		errno = EINTR;
		return -1;
	}
	return r;
}

/* PL-05: no fd of a set is ever ready per select(): the read set (a read
 * end at EOF never readable) or the write set (a write end never writable). */
static int select_clearing(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv,
			   bool reads)
{
	int ret = select(nfds, r, w, e, tv);
	fd_set *set = reads ? r : w;

	if (ret > 0 && set) {
		for (int fd = 0; fd < nfds; fd++)
			if (FD_ISSET(fd, set)) {
				FD_CLR(fd, set);
				ret--;
			}
	}
	return ret;
}

static int select_never_readable(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	return select_clearing(nfds, r, w, e, tv, true);
}

static int select_never_writable(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	return select_clearing(nfds, r, w, e, tv, false);
}

/* ---- a kernel broken the way each row says: FAIL (pb_test_broken_pipe) ---- */

static const struct pb_test_broken_pipe broken_kernels[] = {
	{ "PL-01", true, .sys.poll = poll_always_pollout },
	{ "PL-02", true, .sys.poll = poll_no_hup },
	{ "PL-03", false, .sys.poll = poll_no_err },
	{ "PL-04", false, .sys.poll = poll_always_hup },
	{ "PL-05", false, .sys.select = select_never_writable },
	/* PL: each further condition on its own */
	{ "PL-01", true, .sys.poll = poll_empty_pollin, .says = "empty pipe: read end revents 0x1," },
	{ "PL-01", true, .sys.poll = poll_empty_no_pollout,
	  .says = "empty pipe: write end revents 0x0, expected POLLOUT" },
	{ "PL-01", true, .sys.poll = poll_one_byte_no_pollin, .says = "1 byte queued: read end" },
	{ "PL-01", true, .sys.poll = poll_queued_no_pollout, .says = "after reading PIPE_BUF" },
	{ "PL-02", true, .sys.poll = poll_hup_drained_pollin, .says = "drained: revents 0x11" },
	{ "PL-04", false, .sys.poll = poll_hup_second, .says = "writer open: revents 0x10" },
	{ "PL-04", false, .sys.poll = poll_hup_never, .says = "writer closed: revents 0x0" },
	{ "PL-04", false, .sys.poll = poll_sticky_hup, .says = "new writer open: revents 0x10" },
	{ "PL-04", false, .sys.read = read_fifo_eof_blocks, .says = "blocked (EINTR after 2 s)" },
	{ "PL-04", false, .sys.read = read_eof_eio, .says = "returned -1 (" },
	{ "PL-05", false, .sys.select = select_never_readable, .says = "EOF not readable" },
};
#define NBROKEN ((int)(sizeof(broken_kernels) / sizeof(broken_kernels[0])))

START_TEST(broken_kernel_fails)
{
	pb_test_broken_pipe_fails(&broken_kernels[_i], _i, "poll.broken_kernel");
}
END_TEST

/* ---- setup faults: FAIL, never the harness's ERROR (pb_test_setup_fault) ---- */

/* write_zero_when_full, write_eio_on_pipes, read_eio_on_pipes, pipe2_einval,
 * pipe2_emfile, mkfifo_eio and open_fifo_eio: tests/check_conf.h. */

/* The first open fails (EIO); a check that went on to open anything more
 * is killed, which the runner would report instead of the FAIL. */
static int open_eio_then_none(const char *path, int flags, mode_t mode)
{
	static bool failed;  /* the check's own process: false at its start */

	(void)path, (void)flags, (void)mode;
	if (failed)
		raise(SIGKILL);
	failed = true;
	errno = EIO;
	return -1;
}

static int poll_einval(struct pollfd *fds, nfds_t n, int timeout)
{
	(void)fds, (void)n, (void)timeout;
	errno = EINVAL;
	return -1;
}

static int select_einval(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	(void)nfds, (void)r, (void)w, (void)e, (void)tv;
	errno = EINVAL;
	return -1;
}

#define A PB_KIND_ANON
#define F PB_KIND_FIFO
static const struct pb_test_setup_fault setup_faults[] = {
	/* Issue: "error: cannot fill the pipe" when a full pipe's write returns 0. */
	{ "PL-01", A, "write 0 when full", "returned 0", .sys.write = write_zero_when_full },
	{ "PL-01", F, "write 0 when full", "returned 0", .sys.write = write_zero_when_full },
	{ "PL-05", A, "write 0 when full", "returned 0", .sys.write = write_zero_when_full },
	{ "PL-05", F, "write 0 when full", "returned 0", .sys.write = write_zero_when_full },
	/* pb_check_make_pipe / pipe2 in every group. */
	{ "PL-01", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "PL-02", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "PL-03", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "PL-05", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "PL-01", F, "mkfifo EIO", "EIO", .sys.mkfifo = mkfifo_eio },
	{ "PL-04", A, "mkfifo EIO", "mkfifo", .sys.mkfifo = mkfifo_eio },
	{ "PL-04", A, "open EIO", "open", .sys.open = open_fifo_eio },
	/* I/O a setup step needs. */
	{ "PL-01", A, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "PL-02", A, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "PL-02", F, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "PL-01", A, "read EIO", "EIO", .sys.read = read_eio_on_pipes },
	{ "PL-02", A, "read EIO", "EIO", .sys.read = read_eio_on_pipes },
	{ "PL-01", A, "poll EINVAL", "poll", .sys.poll = poll_einval },
	{ "PL-02", A, "poll EINVAL", "poll", .sys.poll = poll_einval },
	{ "PL-03", A, "poll EINVAL", "poll", .sys.poll = poll_einval },
	{ "PL-04", A, "poll EINVAL", "poll", .sys.poll = poll_einval },
	{ "PL-05", A, "select EINVAL", "select", .sys.select = select_einval },
	/* ... and a check that stops there */
	{ "PL-04", A, "open EIO, nothing after", "open(O_RDONLY|O_NONBLOCK) of a new FIFO: EIO",
	  .sys.open = open_eio_then_none },
};
#define NSETUP_FAULTS ((int)(sizeof(setup_faults) / sizeof(setup_faults[0])))

START_TEST(setup_fault_fails)
{
	pb_test_setup_fault_fails(&setup_faults[_i]);
}
END_TEST

/* EMFILE from pipe2 is the environment's limit: ERROR, not FAIL. */
START_TEST(resource_limit_is_error)
{
	static const char *const ids[] = { "PL-01" };
	struct pb_sysops s = pb_sysops_real;

	s.pipe2 = pipe2_emfile;
	pb_test_all_error(ids, sizeof(ids) / sizeof(ids[0]), &s, NULL);
}
END_TEST

/* pipe2 whose ends lie past FD_SETSIZE (dup'd there; the flags travel
 * with the open file), which select() cannot take. */
static int pipe2_past_fd_setsize(int fd[2], int flags)
{
	int t[2];

	if (pipe2(t, flags) != 0)
		return -1;
	fd[0] = fcntl(t[0], F_DUPFD_CLOEXEC, FD_SETSIZE + 8);
	fd[1] = fcntl(t[1], F_DUPFD_CLOEXEC, FD_SETSIZE + 8);
	close(t[0]);
	close(t[1]);
	if (fd[0] < 0 || fd[1] < 0) {
		if (fd[0] >= 0)
			close(fd[0]);
		if (fd[1] >= 0)
			close(fd[1]);
		errno = EMFILE;
		return -1;
	}
	return 0;
}

/* open() whose descriptor lies past FD_SETSIZE. */
static int open_past_fd_setsize(const char *path, int flags, mode_t mode)
{
	int t = open(path, flags, mode), fd;

	if (t < 0)
		return -1;
	fd = fcntl(t, F_DUPFD_CLOEXEC, FD_SETSIZE + 8);
	close(t);
	if (fd < 0)
		errno = EMFILE;
	return fd;
}

/* A descriptor select() cannot take is the harness's limit: PL-05 and
 * PL-04 say ERROR, naming FD_SETSIZE, never FAIL, and PL-04 goes no
 * further (no note on a select it could not make). */
START_TEST(select_past_fd_setsize_is_error)
{
	struct pb_sysops s = pb_sysops_real;
	struct pb_check_result r;
	struct rlimit rl, old;

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
	if (old.rlim_max != RLIM_INFINITY && old.rlim_max < FD_SETSIZE + 64) {
		fprintf(stderr, "# select_past_fd_setsize_is_error: skipped: hard limit %ju\n",
			(uintmax_t)old.rlim_max);
		return;
	}
	rl = old;
	rl.rlim_cur = FD_SETSIZE + 64;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	s.pipe2 = pipe2_past_fd_setsize;
	r = pb_test_run("PL-05", &s, PB_KIND_ANON, 0);
	ck_assert_msg(r.verdict == PB_ERROR, "PL-05: verdict %d: %s", (int)r.verdict, r.detail);
	ck_assert_msg(strstr(r.detail, "beyond FD_SETSIZE") != NULL, "PL-05: %s", r.detail);
	s = pb_sysops_real;
	s.open = open_past_fd_setsize;
	r = pb_test_run("PL-04", &s, PB_KIND_ANON, 0);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
	ck_assert_msg(r.verdict == PB_ERROR, "PL-04: verdict %d: %s", (int)r.verdict, r.detail);
	ck_assert_msg(strstr(r.detail, "beyond FD_SETSIZE") != NULL &&
		      strstr(r.detail, "select nuance") == NULL, "PL-04: %s", r.detail);
}
END_TEST

/* ---- one condition at a time, the Nth call faked (pb_test_step) ---- */

/* ---- PL: poll and select answers one step at a time ---- */

/* poll says no descriptor is ready but leaves revents set: the count rules. */
static int poll_zero_garbage(struct pollfd *fds, nfds_t n, int timeout)
{
	int r = poll(fds, n, timeout);

	if (r == 0)
		for (nfds_t i = 0; i < n; i++)
			fds[i].revents = POLLIN | POLLOUT;
	return r;
}

/* PL-03: a reader-less write end also says POLLHUP. */
static int poll_adds_hup(struct pollfd *fds, nfds_t n, int timeout)
{
	int r = poll(fds, n, timeout);

	for (nfds_t i = 0; r > 0 && i < n; i++)
		if (fds[i].revents)
			fds[i].revents |= POLLHUP;
	return r;
}

/* select counts a descriptor ready but clears it from the set, or says
 * every descriptor asked about is ready. */
static int select_count_but_empty(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	int ret = select(nfds, r, w, e, tv);

	if (ret > 0 && r)
		FD_ZERO(r);
	return ret;
}

static int select_all_ready(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	int ret = select(nfds, r, w, e, tv);

	if (ret == 0 && r)
		for (int fd = 0; fd < nfds; fd++)
			if (fd >= 3) {
				FD_SET(fd, r);
				ret = 1;
			}
	return ret;
}

/* PL-04: the Nth open of a FIFO for writing fails with ENXIO. */
static int open_fifo_writer_nth(const char *path, int flags, mode_t mode, int nth)
{
	struct stat st;

	if ((flags & O_ACCMODE) == O_WRONLY && stat(path, &st) == 0 && S_ISFIFO(st.st_mode) &&
	    ++pb_test_seen.calls == nth)
		return (int)fail_with(ENXIO);
	return open(path, flags, mode);
}

static int open_writer_1_enxio(const char *path, int flags, mode_t mode)
{
	return open_fifo_writer_nth(path, flags, mode, 1);
}

static int open_writer_2_enxio(const char *path, int flags, mode_t mode)
{
	return open_fifo_writer_nth(path, flags, mode, 2);
}

/* PL-02: poll says nothing is ready, ever. */
static int poll_never_ready(struct pollfd *fds, nfds_t n, int timeout)
{
	(void)timeout;
	for (nfds_t i = 0; i < n; i++)
		fds[i].revents = 0;
	return 0;
}

static const struct pb_test_step steps[] = {
	/* PL: each setup step and note; a poll count of 0 rules over revents */
	{ "PL-01", A, {}, PASSES "no POLLOUT; POLLOUT again after reading 4096" },
	{ "PL-01", F, {}, PASSES "no POLLOUT; POLLOUT again after reading 4096" },
	{ "PL-01", A, { .poll = poll_zero_garbage }, PASSES "empty: 0/POLLOUT" },
	{ "PL-01", A, {}, FAILS "write(1) into the empty end on a pipe returned 0",
	  WR(1, 0) },
	{ "PL-01", A, {}, FAILS "read(1) with 1 byte queued on a pipe returned 0",
	  RD(1, 0) },
	{ "PL-01", A, {}, FAILS "read(PIPE_BUF) when full on a pipe returned 4095",
	  RD(2, 4095) },
	{ "PL-02", A, {}, PASSES "data left: 0x11; drained: 0x10" },
	{ "PL-02", A, {}, FAILS "write(5) into the empty end on a pipe returned 4",
	  WR(1, 4) },
	{ "PL-02", A, {}, FAILS "and the writer gone on a pipe returned 4",
	  RD(1, 4) },
	{ "PL-03", A, {}, PASSES "revents 0xc" },
	{ "PL-03", A, { .poll = poll_adds_hup }, .v = PB_FAIL,
	  .phrase = "no readers: write end revents 0x1c, expected 0xc (POLLOUT|POLLERR)" },
	{ "PL-04", A, {}, PASSES "HUP state 0/0/POLLHUP/0; select nuance: " },
	{ "PL-04", A, { .select = select_all_ready }, .v = PB_PASS,
	  .phrase = "select nuance: none, select says readable (ready=1, read=0)" },
	{ "PL-04", A, { .select = select_einval }, .v = PB_FAIL,
	  .phrase = "select() of one pipe end with timeout 0: EINVAL" },
	{ "PL-04", A, {}, FAILS "never had a writer returned 1 (data), expected 0",
	  RD(1, 1, 0, "x") },
	{ "PL-04", A, { .open = open_writer_1_enxio }, .v = PB_FAIL,
	  .phrase = "open(O_WRONLY|O_NONBLOCK) of a FIFO with a reader: ENXIO; POSIX requires "
	  "success" },
	{ "PL-04", A, { .open = open_writer_2_enxio }, .v = PB_FAIL,
	  .phrase = "reopening a writer of a FIFO with a reader: ENXIO" },
	{ "PL-05", A, {}, PASSES "EOF read end readable; full reader-less write "
	  "end writable" },
	{ "PL-05", A, { .select = select_count_but_empty }, .v = PB_FAIL,
	  .phrase = "read end at EOF not readable per select()" },
	{ "PL-02", A, { .poll = poll_never_ready }, .v = PB_FAIL,
	  .phrase = "writer gone, data left: revents 0x0, expected 0x11" },
};
#undef A
#undef F
#define NSTEPS (sizeof(steps) / sizeof(steps[0]))

START_TEST(one_condition)
{
	pb_test_one_condition(&steps[_i], _i, "poll.one_condition");
}
END_TEST

/* ---- this kernel ---- */

START_TEST(pl_here)
{
	struct pb_check_result r;

	pb_test_expect_here("PL-01", PB_PASS);
	pb_test_expect_here("PL-02", PB_PASS);
	pb_test_expect_here("PL-03", PB_PASS);
	r = pb_test_run("PL-04", NULL, PB_KIND_ANON, 0);
	pb_test_assert_verdict(r, PB_PASS);
	ck_assert_ptr_nonnull(strstr(r.detail, "select nuance"));
	pb_test_expect_here("PL-05", PB_PASS);
}
END_TEST

/* ---- on the real kernel, word for word (pb_test_note) ---- */

/* PL-04's notes depend on the kernel version: its own tests. */
static const struct pb_test_note notes[] = {
	{ "PL-01", PB_PASS, "empty: 0/POLLOUT; data: POLLIN; full (65536 bytes): no POLLOUT; "
	  "POLLOUT again after reading 4096", NULL },
	{ "PL-02", PB_PASS, "data left: 0x11; drained: 0x10", NULL },
	{ "PL-03", PB_PASS, "revents 0xc", NULL },
	{ "PL-05", PB_PASS, "EOF read end readable; full reader-less write end writable", NULL },
};
#define NNOTES (int)(sizeof(notes) / sizeof(notes[0]))

/* Loop index i: row i/2, anon for even i and fifo for odd. */
START_TEST(says_what_the_kernel_did)
{
	pb_test_says_what_the_kernel_did(&notes[_i / 2], _i);
}
END_TEST

PB_CHECK_SUITE_MAIN("conf_poll",
	PB_TCASE_LOOP("broken", 10, broken_kernel_fails, NBROKEN),
	PB_TCASE_LOOP("setup_faults", 10, setup_fault_fails, NSETUP_FAULTS,
		      resource_limit_is_error, select_past_fd_setsize_is_error),
	PB_TCASE_LOOP("one_condition", 30, one_condition, NSTEPS),
	PB_TCASE_LOOP("real_kernel", 120, says_what_the_kernel_did, 2 * NNOTES),
	PB_TCASE_TIMED("here", 10, pl_here))
