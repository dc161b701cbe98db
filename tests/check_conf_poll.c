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
#include <sys/time.h>
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

/* A close that says EBADF (a descriptor closed twice, or -1) kills. */
static int close_twice_kills(int fd)
{
	int r = close(fd);

	if (r < 0 && errno == EBADF)
		raise(SIGKILL);
	return r;
}

/* PL-01 stops at the first poll() or fill that failed: the poll fails
 * (EINVAL) on its Nth call in the check's process, or the fill's write
 * says 0 on a full pipe and a poll after it kills; any write after a
 * failed poll kills (the runner would report the signal, not the FAIL). */
static int polls_seen;  /* in the check's process: 0 at its start */

static int poll_einval_nth(struct pollfd *fds, nfds_t n, int timeout, int nth)
{
	if (++polls_seen == nth) {
		errno = EINVAL;
		return -1;
	}
	return poll(fds, n, timeout);
}

static int poll_einval_1st(struct pollfd *fds, nfds_t n, int timeout)
{
	return poll_einval_nth(fds, n, timeout, 1);
}

static int poll_einval_2nd(struct pollfd *fds, nfds_t n, int timeout)
{
	return poll_einval_nth(fds, n, timeout, 2);
}

static ssize_t write_kills(int fd, const void *b, size_t n)
{
	(void)fd, (void)b, (void)n;
	raise(SIGKILL);
	return -1;
}

/* PL-01 makes three polls before it fills the pipe: a fourth kills. */
static int poll_kills_4th(struct pollfd *fds, nfds_t n, int timeout)
{
	if (++polls_seen == 4)
		raise(SIGKILL);
	return poll(fds, n, timeout);
}

/* PL-05 makes one select before it fills its second pipe: a second kills. */
static int select_kills_2nd(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	static int selects;

	if (++selects == 2)
		raise(SIGKILL);
	return select(nfds, r, w, e, tv);
}

/* PL-04 stops at a writer's open that failed: the Nth open of a FIFO for
 * writing fails (ENXIO), and a poll after it kills. */
static bool writer_open_failed;  /* in the check's process (any open failed) */

static int open_writer_fails_nth(const char *path, int flags, mode_t mode, int nth)
{
	static int writers;

	if ((flags & O_ACCMODE) == O_WRONLY && ++writers == nth) {
		writer_open_failed = true;
		errno = ENXIO;
		return -1;
	}
	return open(path, flags, mode);
}

static int open_writer_fails_1st(const char *path, int flags, mode_t mode)
{
	return open_writer_fails_nth(path, flags, mode, 1);
}

static int open_writer_fails_2nd(const char *path, int flags, mode_t mode)
{
	return open_writer_fails_nth(path, flags, mode, 2);
}

/* ... or the second FIFO's reader fails (EIO), and a select after it kills. */
static int open_reader_fails_2nd(const char *path, int flags, mode_t mode)
{
	static int readers;

	if ((flags & O_ACCMODE) == O_RDONLY && ++readers == 2) {
		writer_open_failed = true;
		errno = EIO;
		return -1;
	}
	return open(path, flags, mode);
}

static int select_kills_after_failed_open(int nfds, fd_set *r, fd_set *w, fd_set *e,
					  struct timeval *tv)
{
	if (writer_open_failed)
		raise(SIGKILL);
	return select(nfds, r, w, e, tv);
}

static int poll_kills_after_failed_open(struct pollfd *fds, nfds_t n, int timeout)
{
	if (writer_open_failed)
		raise(SIGKILL);
	return poll(fds, n, timeout);
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
	{ "PL-01", A, "read end's poll EINVAL, nothing after",
	  "setup: poll() of one pipe end with timeout 0: EINVAL",
	  .sys.poll = poll_einval_1st, .sys.write = write_kills },
	{ "PL-01", A, "write end's poll EINVAL, nothing after",
	  "setup: poll() of one pipe end with timeout 0: EINVAL",
	  .sys.poll = poll_einval_2nd, .sys.write = write_kills },
	{ "PL-01", A, "write 0 when full, no poll after", "returned 0",
	  .sys.write = write_zero_when_full, .sys.poll = poll_kills_4th },
	{ "PL-04", A, "writer open ENXIO, no poll after",
	  "setup: open(O_WRONLY|O_NONBLOCK) of a FIFO with a reader: ENXIO",
	  .sys.open = open_writer_fails_1st, .sys.poll = poll_kills_after_failed_open },
	{ "PL-04", A, "reopened writer ENXIO, no poll after",
	  "setup: reopening a writer of a FIFO with a reader: ENXIO",
	  .sys.open = open_writer_fails_2nd, .sys.poll = poll_kills_after_failed_open },
	{ "PL-05", A, "write 0 when full, no select after", "returned 0",
	  .sys.write = write_zero_when_full, .sys.select = select_kills_2nd },
	{ "PL-04", A, "mkfifo EIO, no close of -1", "mkfifo(0600)", .sys.mkfifo = mkfifo_eio,
	  .sys.close = close_twice_kills },
	{ "PL-04", A, "second FIFO's reader EIO, no select after",
	  "setup: open(O_RDONLY|O_NONBLOCK) of a second new FIFO: EIO",
	  .sys.open = open_reader_fails_2nd, .sys.select = select_kills_after_failed_open },
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
static int pipe_fd_base = FD_SETSIZE + 8;  /* the lowest descriptor the ends may take */

static int pipe2_past_fd_setsize(int fd[2], int flags)
{
	int t[2];

	if (pipe2(t, flags) != 0)
		return -1;
	fd[0] = fcntl(t[0], F_DUPFD_CLOEXEC, pipe_fd_base);
	fd[1] = fcntl(t[1], F_DUPFD_CLOEXEC, pipe_fd_base);
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

/* pipe2 whose read end is FD_SETSIZE - 1, the last select() takes (the
 * write end stays where pipe2 put it). */
static int pipe2_read_end_last(int fd[2], int flags)
{
	int t[2];

	if (pipe2(t, flags) != 0)
		return -1;
	fd[0] = fcntl(t[0], F_DUPFD_CLOEXEC, FD_SETSIZE - 1);
	close(t[0]);
	fd[1] = t[1];
	if (fd[0] != FD_SETSIZE - 1) {
		if (fd[0] >= 0)
			close(fd[0]);
		close(fd[1]);
		errno = EMFILE;
		return -1;
	}
	return 0;
}

/* select() as POSIX words it: EINVAL for nfds above FD_SETSIZE. */
static int select_posix_nfds(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	if (nfds < 0 || nfds > FD_SETSIZE) {
		errno = EINVAL;
		return -1;
	}
	return select(nfds, r, w, e, tv);
}

/* At the boundary: ends at FD_SETSIZE - 2 and - 1 are select()'s to take
 * (PASS), with nfds no more than FD_SETSIZE (a read end, then a write end,
 * at FD_SETSIZE - 1); a read end at FD_SETSIZE exactly is not (ERROR
 * naming it). */
START_TEST(select_at_fd_setsize_boundary)
{
	struct pb_sysops s = pb_sysops_real;
	struct pb_check_result below, at, last;
	struct rlimit rl, old;
	char want[64];

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
	if (old.rlim_max != RLIM_INFINITY && old.rlim_max < FD_SETSIZE + 64) {
		fprintf(stderr, "# select_at_fd_setsize_boundary: skipped: hard limit %ju\n",
			(uintmax_t)old.rlim_max);
		return;
	}
	rl = old;
	rl.rlim_cur = FD_SETSIZE + 64;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	s.pipe2 = pipe2_past_fd_setsize;
	s.select = select_posix_nfds;
	pipe_fd_base = FD_SETSIZE - 2;
	below = pb_test_run("PL-05", &s, PB_KIND_ANON, 0);
	pipe_fd_base = FD_SETSIZE;
	at = pb_test_run("PL-05", &s, PB_KIND_ANON, 0);
	pipe_fd_base = FD_SETSIZE + 8;
	/* nfds is the highest descriptor + 1, within FD_SETSIZE for POSIX */
	s.pipe2 = pipe2_read_end_last;
	last = pb_test_run("PL-05", &s, PB_KIND_ANON, 0);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
	pb_test_assert_verdict(below, PB_PASS);
	pb_test_assert_verdict(last, PB_PASS);
	snprintf(want, sizeof(want), "harness: fd %d beyond FD_SETSIZE", FD_SETSIZE);
	ck_assert_msg(at.verdict == PB_ERROR && strcmp(at.detail, want) == 0,
		      "PL-05: verdict %d: %s", (int)at.verdict, at.detail);
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

/* The checks' polls and selects never wait: one given a timeout kills. */
static int poll_timeout_0_only(struct pollfd *fds, nfds_t n, int timeout)
{
	if (timeout != 0)
		raise(SIGKILL);
	return poll(fds, n, timeout);
}

static int select_timeout_0_only(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	if (!tv || tv->tv_sec != 0 || tv->tv_usec != 0)
		raise(SIGKILL);
	return select(nfds, r, w, e, tv);
}

/* Another writer's byte lands right behind PL-01's one: the check reads
 * one byte only and leaves it (it then fills one byte less). */
static ssize_t write_another_byte_behind(int fd, const void *b, size_t n)
{
	ssize_t r = write(fd, b, n);

	if (r == 1 && n == 1 && is_pipe_fd(fd) && write(fd, "y", 1) != 1)
		raise(SIGKILL);
	return r;
}

/* PL-01: a full write end says POLLOUT (the read end rightly does not). */
static short edit_full_write_end_pollout(const struct pollfd *p, long q)
{
	int cap = is_write_end(p->fd) ? fcntl(p->fd, F_GETPIPE_SZ) : -1;

	return cap > 0 && q >= cap ? p->revents | (p->events & POLLOUT) : p->revents;
}

/* PL-02: a drained read end whose writer is gone says nothing at all. */
static short edit_drained_no_hup(const struct pollfd *p, long q)
{
	return q == 0 && is_read_end(p->fd) ? p->revents & ~POLLHUP : p->revents;
}

static int poll_full_write_end_pollout(struct pollfd *fds, nfds_t n, int timeout)
{
	return poll_edited(fds, n, timeout, edit_full_write_end_pollout);
}

static int poll_drained_no_hup(struct pollfd *fds, nfds_t n, int timeout)
{
	return poll_edited(fds, n, timeout, edit_drained_no_hup);
}

/* select says no descriptor is ready but leaves the sets as given: the
 * count rules. */
static int select_zero_keeps_set(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	fd_set r0, w0, e0;
	int ret;

	if (r)
		r0 = *r;
	if (w)
		w0 = *w;
	if (e)
		e0 = *e;
	ret = select(nfds, r, w, e, tv);
	if (ret == 0) {
		if (r)
			*r = r0;
		if (w)
			*w = w0;
		if (e)
			*e = e0;
	}
	return ret;
}

/* The check's FIFOs are its own: read and write for the owner, nothing for
 * group or others (asked of mkfifo; one asked otherwise kills). */
static int mkfifo_private_only(const char *path, mode_t mode)
{
	if ((mode & 07777) != 0600)
		raise(SIGKILL);
	return mkfifo(path, mode);
}

/* PL-04's blocking read of a FIFO with no writer ever: it fills all it is
 * asked for (data from nowhere); or it rightly says 0 but leaves a stale
 * EINTR in errno (lawful: errno is unspecified on success). */
static ssize_t read_no_writer_fills(int fd, void *b, size_t n)
{
	ssize_t r = read(fd, b, n);

	if (r == 0 && is_pipe_fd(fd)) {
		memset(b, 'x', n);
		return (ssize_t)n;
	}
	return r;
}

static ssize_t read_stale_eintr(int fd, void *b, size_t n)
{
	ssize_t r = read(fd, b, n);

	if (r >= 0)
		errno = EINTR;
	return r;
}

/* No interrupt timer is left running once a check closes a descriptor
 * (its blocking call is over): one still armed kills. */
static int close_no_timer_armed(int fd)
{
	struct itimerval it;

	if (getitimer(ITIMER_REAL, &it) == 0 && (it.it_value.tv_sec || it.it_value.tv_usec))
		raise(SIGKILL);
	return close(fd);
}

/* A stray write of one byte into each write end select() is asked about
 * (as by another thread): on a reader-less end it raises SIGPIPE, which
 * PL-05 ignores. */
static int select_stray_write(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	for (int fd = 0; w && fd < nfds; fd++)
		if (FD_ISSET(fd, w) && write(fd, "x", 1) < 0 && errno != EPIPE && errno != EAGAIN)
			raise(SIGKILL);
	return select(nfds, r, w, e, tv);
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
	/* a poll on the write end only when full; nothing at all once drained
	 * or without readers (a count of 0) */
	{ "PL-01", A, { .poll = poll_full_write_end_pollout }, .v = PB_FAIL,
	  .phrase = "write end revents 0x4 has POLLOUT" },
	{ "PL-02", A, { .poll = poll_drained_no_hup }, .v = PB_FAIL,
	  .phrase = "writer gone, drained: revents 0x0, expected 0x10 (POLLHUP)" },
	{ "PL-03", A, { .poll = poll_never_ready }, .v = PB_FAIL,
	  .phrase = "no readers: write end revents 0x0, expected 0xc (POLLOUT|POLLERR)" },
	/* polls and selects with timeout 0 only; each descriptor closed once;
	 * another writer's byte behind PL-01's left queued */
	{ "PL-01", A, { .poll = poll_timeout_0_only }, PASSES "POLLOUT again after reading 4096" },
	{ "PL-04", A, { .poll = poll_timeout_0_only, .select = select_timeout_0_only },
	  PASSES "HUP state 0/0/POLLHUP/0; select nuance: " },
	{ "PL-05", A, { .select = select_timeout_0_only }, PASSES "EOF read end readable" },
	{ "PL-02", A, { .close = close_twice_kills }, PASSES "data left: 0x11; drained: 0x10" },
	{ "PL-03", A, { .close = close_twice_kills }, PASSES "revents 0xc" },
	{ "PL-01", A, { .write = write_another_byte_behind },
	  PASSES "POLLOUT again after reading 4096" },
	/* a failed poll is the whole detail: no note after it */
	{ "PL-03", A, { .poll = poll_einval }, .v = PB_FAIL,
	  .phrase = "setup: poll() of one pipe end with timeout 0: EINVAL" },
	{ "PL-04", A, { .select = select_zero_keeps_set },
	  PASSES "select says not readable yet read returns 0 (ready=0, read=0)" },
	{ "PL-04", A, { .mkfifo = mkfifo_private_only }, PASSES "HUP state 0/0/POLLHUP/0" },
	{ "PL-04", A, { .read = read_no_writer_fills }, .v = PB_FAIL,
	  .phrase = "never had a writer returned 1 (data), expected 0" },
	{ "PL-04", A, { .read = read_stale_eintr }, PASSES "HUP state 0/0/POLLHUP/0" },
	{ "PL-04", A, { .close = close_no_timer_armed }, PASSES "HUP state 0/0/POLLHUP/0" },
	{ "PL-05", A, { .select = select_stray_write }, PASSES "full reader-less write end writable" },
	{ "PL-05", A, { .close = close_twice_kills }, PASSES "full reader-less write end writable" },
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
	/* PL-04 makes its own FIFOs: it runs once, not once per kind, changes
	 * nothing global and needs no privilege */
	ck_assert_uint_eq(pb_test_check("PL-04")->flags, 0);
}
END_TEST

/* The FIFO open numbered low_open (1: the reader, 2: the writer, 3: the
 * writer reopened, 4: the second FIFO's reader; counted in the check's
 * process) keeps the lowest free descriptor; the others move to 10 or
 * above. */
static int low_open, fifo_opens_seen;

static int open_one_low(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags, mode), high;

	if (fd < 0 || !is_pipe_fd(fd) || ++fifo_opens_seen == low_open)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	close(fd);
	return high;
}

/* PL-04 with descriptor 0 free: each of its FIFO ends in turn is
 * descriptor 0, a descriptor like any other (used, and closed). */
START_TEST(pl04_fd_0_free)
{
	struct pb_sysops s = pb_sysops_real;
	struct pb_check_result r;

	close(0);
	ck_assert_int_lt(fcntl(0, F_GETFD), 0);
	/* the runner's audit: ERROR when the check leaves a descriptor open */
	ck_assert_int_eq(setenv("PB_CHECK_FD_AUDIT", "1", 1), 0);
	s.open = open_one_low;
	for (low_open = 1; low_open <= 4; low_open++) {
		r = pb_test_run("PL-04", &s, PB_KIND_ANON, 0);
		ck_assert_msg(r.verdict == PB_PASS &&
			      strstr(r.detail, "HUP state 0/0/POLLHUP/0; select nuance: "),
			      "FIFO open %d at descriptor 0: %s: %s", low_open,
			      pb_verdict_names[r.verdict], r.detail);
	}
	unsetenv("PB_CHECK_FD_AUDIT");
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
		      resource_limit_is_error, select_past_fd_setsize_is_error,
		      select_at_fd_setsize_boundary),
	PB_TCASE_LOOP("one_condition", 30, one_condition, NSTEPS),
	PB_TCASE_LOOP("real_kernel", 120, says_what_the_kernel_did, 2 * NNOTES),
	PB_TCASE_TIMED("here", 10, pl_here, pl04_fd_0_free))
