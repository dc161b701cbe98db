/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conformance checks PL-*, MD-* and LX-*: each one FAILs on a kernel that
 * misbehaves the way the catalogue says a broken one shows (an injected
 * pb_sysops), and gives the expected verdict on the running kernel.  Also
 * the runner's waits for a check (their naps, recorded by this program's
 * nanosleep).
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "check_conf.h"
#include "check_main.h"
#include "cleanup.h"
#include "checks/conformance.h"
#include "tsprobe.h"

static const struct pb_check *find(const char *id)
{
	const struct pb_check *c = pb_test_find_check(id);

	ck_assert_msg(c != NULL, "no check %s", id);
	return c;
}

/* PB_TEST_VERBOSE=1 shows each verdict's detail (why a broken kernel failed). */
static void show(const char *id, const struct pb_check_result *r)
{
	if (getenv("PB_TEST_VERBOSE"))
		fprintf(stderr, "# %s: %s: %s\n", id, pb_verdict_names[r->verdict], r->detail);
}

static struct pb_check_result run_kind(const char *id, const struct pb_sysops *sys,
				       enum pb_kind kind, unsigned flags)
{
	struct pb_run_opts o = { .sys = sys, .kind = kind, .timeout_s = 3, .flags = flags };
	struct pb_check_result r;

	ck_assert_int_eq(pb_conformance_run_one(find(id), &o, &r), 0);
	show(id, &r);
	return r;
}

static struct pb_check_result run(const char *id, const struct pb_sysops *sys)
{
	return run_kind(id, sys, PB_KIND_ANON, 0);
}

#define assert_verdict(r, v) \
	ck_assert_msg((r).verdict == (v), "verdict %s, expected %s: %s", \
		      pb_verdict_names[(r).verdict], pb_verdict_names[v], (r).detail)

static struct pb_check_result expect_fail(const char *id, const struct pb_sysops *sys,
					  enum pb_kind kind, unsigned flags)
{
	struct pb_check_result r = run_kind(id, sys, kind, flags);

	assert_verdict(r, PB_FAIL);
	ck_assert_msg(r.detail[0] != '\0', "%s failed without a detail", id);
	return r;
}

static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	ck_assert_int_eq(uname(&u), 0);
	ck_assert_int_eq(sscanf(u.release, "%d.%d", &ma, &mi), 2);
	return ma > major || (ma == major && mi >= minor);
}

/* ---------------------------------------------------------------- misbehaving kernels */

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

/* ---------------------------------------- the later conditions, one each */

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

static bool is_read_end(int fd)
{
	return (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY;
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

/* MD-01: the wrong file type. */
static int fstat_regular(int fd, struct stat *st)
{
	int ret = fstat(fd, st);

	if (ret == 0)
		st->st_mode = (st->st_mode & ~S_IFMT) | S_IFREG;
	return ret;
}

/* MD-02: a seek that "succeeds". */
static off_t lseek_ok(int fd, off_t off, int whence)
{
	(void)fd, (void)off, (void)whence;
	return 0;
}

/* MD-02: fsync and fdatasync that "succeed" on a pipe's write end (the read
 * end still says EINVAL, so a check asking only there would pass). */
static bool is_write_end(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return is_pipe_fd(fd) && fl >= 0 && (fl & O_ACCMODE) == O_WRONLY;
}

static int fsync_ok_on_write_end(int fd)
{
	return is_write_end(fd) ? 0 : fsync(fd);
}

static int fdatasync_ok_on_write_end(int fd)
{
	return is_write_end(fd) ? 0 : fdatasync(fd);
}

/* MD-03: zero timestamps. */
static int fstat_zero_times(int fd, struct stat *st)
{
	int ret = fstat(fd, st);

	if (ret == 0) {
		memset(&st->st_atim, 0, sizeof(st->st_atim));
		memset(&st->st_mtim, 0, sizeof(st->st_mtim));
		memset(&st->st_ctim, 0, sizeof(st->st_ctim));
	}
	return ret;
}

/* MD-04/05: a kernel whose I/O never updates timestamps (a/mtime stay at
 * what futimens set, 2000-01-01; ctime frozen in the past). */
static int fstat_frozen_times(int fd, struct stat *st)
{
	int ret = fstat(fd, st);

	if (ret == 0) {
		st->st_atim = st->st_mtim = (struct timespec){ 946684800, 0 };
		st->st_ctim = (struct timespec){ 1000000000, 1 };
	}
	return ret;
}

/* MD-04/05: futimens says it worked but the times stay what they were. */
static int futimens_ignored(int fd, const struct timespec t[2])
{
	(void)fd, (void)t;
	return 0;
}

/* MD-05: a filesystem like overlayfs, which does not show a FIFO write's new
 * mtime/ctime through fstat: frozen for files not on tmpfs, real on tmpfs. */
static int fstat_fs_hides_mctime(int fd, struct stat *st)
{
	int ret = fstat(fd, st);

	if (ret == 0 && !pb_ts_on_tmpfs(NULL, fd)) {
		st->st_mtim = (struct timespec){ 946684800, 0 };
		st->st_ctim = (struct timespec){ 1000000000, 1 };
	}
	return ret;
}

/* MD-04: an old kernel (where anonymous pipes must update timestamps). */
static int uname_old(struct utsname *u)
{
	int ret = uname(u);

	snprintf(u->release, sizeof(u->release), "6.1.0-test");
	return ret;
}

/* MD-06: a wrong link text. */
static ssize_t readlink_wrong(const char *path, char *buf, size_t n)
{
	(void)path;
	snprintf(buf, n, "pipe:[1]");
	return (ssize_t)strlen(buf);
}

/* LX-01, LX-04: pipe2 ignores a flag, so the pipe is a plain byte stream. */
static int pipe2_no_direct(int fd[2], int flags)
{
	return pb_sysops_real.pipe2(fd, flags & ~O_DIRECT);
}

static int pipe2_no_notification(int fd[2], int flags)
{
	return pb_sysops_real.pipe2(fd, flags & ~O_EXCL);
}

/* LX-02: F_GETFL hides O_DIRECT. */
static int fcntl_hide_direct(int fd, int cmd, long arg)
{
	int ret = fcntl(fd, cmd, arg);

	return cmd == F_GETFL && ret >= 0 ? ret & ~O_DIRECT : ret;
}

/* LX-03: a grow past the soft limit allowed. */
static int fcntl_grow_allowed(int fd, int cmd, long arg)
{
	if (cmd == F_SETPIPE_SZ)
		return (int)arg;
	return fcntl(fd, cmd, arg);
}

/* LX-05: tee that consumes its source (a splice). */
static ssize_t tee_consumes(int in, int out, size_t len, unsigned flags)
{
	return splice(in, NULL, out, NULL, len, flags);
}

/* LX-06: the file's page cache was overwritten through the pipe. */
static ssize_t pread_dirty(int fd, void *buf, size_t n, off_t off)
{
	ssize_t ret = pread(fd, buf, n, off);

	if (ret >= 4 && off == 0)
		memcpy((char *)buf + 1, "XYZ", 3);
	return ret;
}

/* LX-07: a sysctl that is stored but not enforced (a plain file here, so
 * nothing global changes). */
static char fake_sysctl[4200];

static int open_fake_sysctl(const char *path, int flags, mode_t mode)
{
	if (strcmp(path, "/proc/sys/fs/pipe-max-size") == 0)
		return open(fake_sysctl, flags | ((flags & O_ACCMODE) == O_WRONLY ? O_TRUNC : 0),
			    mode);
	return open(path, flags, mode);
}

/* LX-07: the check hangs while the value is changed (then the watchdog kills it). */
static int fcntl_hang(int fd, int cmd, long arg)
{
	if (cmd == F_GETPIPE_SZ)
		pause();
	return fcntl(fd, cmd, arg);
}

static void fake_sysctl_make(char *dir, size_t len)
{
	int fd;

	ck_assert_int_eq(pb_tmpdir_make(NULL, dir, len), 0);
	snprintf(fake_sysctl, sizeof(fake_sysctl), "%s/pipe-max-size", dir);
	fd = open(fake_sysctl, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "1048576\n", 8), 8);
	close(fd);
}

static long fake_sysctl_value(void)
{
	char buf[64] = "";
	int fd = open(fake_sysctl, O_RDONLY);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	n = read(fd, buf, sizeof(buf) - 1);  /* 0 while a writer has just truncated it */
	close(fd);
	return n > 0 ? atol(buf) : -1;
}

/* ---------------------------------------------------------------- setup faults */
/*
 * A pipe or FIFO call failing in a check's setup is the kernel's FAIL, never
 * the harness's ERROR (see pb_check_setup).
 */

/* write_zero_when_full, write_eio_on_pipes, read_eio_on_pipes, pipe2_einval,
 * pipe2_emfile, mkfifo_eio and open_fifo_eio: tests/check_conf.h. */

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

static int fstat_eio_on_pipes(int fd, struct stat *st)
{
	if (is_pipe_fd(fd)) {
		errno = EIO;
		return -1;
	}
	return fstat(fd, st);
}

static ssize_t splice_eio(int in, loff_t *off_in, int out, loff_t *off_out, size_t len,
			  unsigned flags)
{
	(void)in, (void)off_in, (void)out, (void)off_out, (void)len, (void)flags;
	errno = EIO;
	return -1;
}

struct setup_fault {
	const char *id;
	enum pb_kind kind;
	const char *how;
	const char *says;  /* the detail must contain this */
	struct pb_sysops sys;  /* the calls broken; the rest are real */
};

#define A PB_KIND_ANON
#define F PB_KIND_FIFO
static const struct setup_fault setup_faults[] = {
	/* Issue: "error: cannot fill the pipe" when a full pipe's write returns 0. */
	{ "PL-01", A, "write 0 when full", "returned 0", .sys.write = write_zero_when_full },
	{ "PL-01", F, "write 0 when full", "returned 0", .sys.write = write_zero_when_full },
	{ "PL-05", A, "write 0 when full", "returned 0", .sys.write = write_zero_when_full },
	{ "PL-05", F, "write 0 when full", "returned 0", .sys.write = write_zero_when_full },
	{ "LX-05", A, "write 0 when full", "returned 0", .sys.write = write_zero_when_full },
	{ "LX-06", A, "write 0 when full", "returned 0", .sys.write = write_zero_when_full },
	/* pb_check_make_pipe / pipe2 in every group. */
	{ "PL-01", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "PL-02", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "PL-03", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "PL-05", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "MD-01", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "MD-02", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "MD-03", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "MD-04", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "MD-06", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "LX-01", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "LX-02", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "LX-05", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "LX-06", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "PL-01", F, "mkfifo EIO", "EIO", .sys.mkfifo = mkfifo_eio },
	{ "MD-01", F, "mkfifo EIO", "EIO", .sys.mkfifo = mkfifo_eio },
	{ "PL-04", A, "mkfifo EIO", "mkfifo", .sys.mkfifo = mkfifo_eio },
	{ "LX-02", A, "mkfifo EIO", "mkfifo", .sys.mkfifo = mkfifo_eio },
	{ "PL-04", A, "open EIO", "open", .sys.open = open_fifo_eio },
	/* I/O a setup step needs. */
	{ "PL-01", A, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "PL-02", A, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "PL-02", F, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "MD-01", A, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "MD-02", A, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "LX-01", A, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "LX-05", A, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	/* pb_check_fill reports -EIO for both "returned 0" and EIO: say "write". */
	{ "LX-06", A, "write EIO", "write", .sys.write = write_eio_on_pipes },
	{ "PL-01", A, "read EIO", "EIO", .sys.read = read_eio_on_pipes },
	{ "PL-02", A, "read EIO", "EIO", .sys.read = read_eio_on_pipes },
	{ "PL-01", A, "poll EINVAL", "poll", .sys.poll = poll_einval },
	{ "PL-02", A, "poll EINVAL", "poll", .sys.poll = poll_einval },
	{ "PL-03", A, "poll EINVAL", "poll", .sys.poll = poll_einval },
	{ "PL-04", A, "poll EINVAL", "poll", .sys.poll = poll_einval },
	{ "PL-05", A, "select EINVAL", "select", .sys.select = select_einval },
	{ "MD-06", A, "fstat EIO", "fstat", .sys.fstat = fstat_eio_on_pipes },
	/* MD-05's FIFO timestamp probe: the FIFO misbehaving is FAIL, not ERROR. */
	{ "MD-05", A, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "MD-05", A, "read EIO", "EIO", .sys.read = read_eio_on_pipes },
	{ "MD-05", A, "futimens ignored", "futimens", .sys.futimens = futimens_ignored },
	{ "LX-06", A, "splice EIO", "splice", .sys.splice = splice_eio },
};
#undef A
#undef F
#define NSETUP_FAULTS ((int)(sizeof(setup_faults) / sizeof(setup_faults[0])))

START_TEST(setup_fault_fails)
{
	const struct setup_fault *f = &setup_faults[_i];
	struct pb_sysops s = pb_test_sysops(&f->sys);
	struct pb_check_result r;

	r = run_kind(f->id, &s, f->kind, 0);
	ck_assert_msg(r.verdict == PB_FAIL, "%s %s (%s): verdict %s, expected fail: %s", f->id,
		      f->kind == PB_KIND_FIFO ? "fifo" : "anon", f->how,
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(strstr(r.detail, f->says), "%s (%s): the detail does not say \"%s\": %s",
		      f->id, f->how, f->says, r.detail);
}
END_TEST

/* EMFILE from pipe2 is the environment's limit: ERROR, not FAIL. */
START_TEST(resource_limit_is_error)
{
	static const char *const ids[] = { "PL-01", "MD-01", "MD-04", "LX-01" };
	struct pb_sysops s = pb_sysops_real;

	s.pipe2 = pipe2_emfile;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct pb_check_result r = run(ids[i], &s);

		assert_verdict(r, PB_ERROR);
	}
}
END_TEST

/* ---------------------------------------------------------------- MD-04 signatures */
/*
 * An emulated timestamp behaviour per kind (anonymous pipe, FIFO), so MD-04
 * can be shown every signature whatever the running kernel does: futimens
 * sets the fake times, write and read move the ones the mode says, fstat
 * reports them.  uname is faked separately: the verdict must not follow it.
 */
/* TS_NO_MTIME: write moves ctime alone, read atime */
enum ts_mode { TS_UPDATE, TS_FROZEN, TS_WRITE_ONLY, TS_NO_MTIME };
static enum ts_mode ts_mode_of[2];

static struct {
	bool set;
	struct timespec a, m, c;
} ts_fake[2];

static const char *fake_release = "6.1.0-test";

/* 0: anonymous pipe, 1: FIFO, -1: anything else. */
static int ts_kind(int fd)
{
	char path[64], link[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0 || !is_pipe_fd(fd))
		return -1;
	link[n] = '\0';
	return strncmp(link, "pipe:[", 6) == 0 ? 0 : 1;
}

static struct timespec ts_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return t;
}

static int ts_futimens(int fd, const struct timespec t[2])
{
	int k = ts_kind(fd), ret = futimens(fd, t);

	if (ret == 0 && k >= 0) {
		ts_fake[k].set = true;
		ts_fake[k].a = t[0];
		ts_fake[k].m = t[1];
		ts_fake[k].c = ts_now();
	}
	return ret;
}

static int ts_fstat(int fd, struct stat *st)
{
	int k = ts_kind(fd), ret = fstat(fd, st);

	if (ret == 0 && k >= 0 && ts_fake[k].set) {
		st->st_atim = ts_fake[k].a;
		st->st_mtim = ts_fake[k].m;
		st->st_ctim = ts_fake[k].c;
	}
	return ret;
}

static ssize_t ts_write(int fd, const void *b, size_t n)
{
	int k = ts_kind(fd);
	ssize_t ret = write(fd, b, n);

	if (ret > 0 && k >= 0 && ts_mode_of[k] == TS_NO_MTIME)
		ts_fake[k].c = ts_now();
	else if (ret > 0 && k >= 0 && ts_mode_of[k] != TS_FROZEN)
		ts_fake[k].m = ts_fake[k].c = ts_now();
	return ret;
}

static ssize_t ts_read(int fd, void *b, size_t n)
{
	int k = ts_kind(fd);
	ssize_t ret = read(fd, b, n);

	if (ret > 0 && k >= 0 && (ts_mode_of[k] == TS_UPDATE || ts_mode_of[k] == TS_NO_MTIME))
		ts_fake[k].a = ts_now();
	return ret;
}

static int ts_uname(struct utsname *u)
{
	int ret = uname(u);

	snprintf(u->release, sizeof(u->release), "%s", fake_release);
	return ret;
}

static struct pb_check_result md04_with(const char *release, enum ts_mode anon,
					enum ts_mode fifo)
{
	struct pb_sysops s = pb_sysops_real;

	s.futimens = ts_futimens;
	s.fstat = ts_fstat;
	s.write = ts_write;
	s.read = ts_read;
	s.uname = ts_uname;
	fake_release = release;
	ts_mode_of[0] = anon;
	ts_mode_of[1] = fifo;
	return run("MD-04", &s);
}

/* What MD-04 says of each emulated kernel: the verdict, and a note the detail
 * must (`says`) or must not (`not_says`) carry. */
static const struct md04_signature {
	const char *release;
	enum ts_mode anon, fifo;
	enum pb_verdict verdict;
	const char *says, *not_says;
} md04_signatures[] = {
	/* The 6.15 signature on a kernel that calls itself 6.1: a backport. */
	{ "6.1.0-37-amd64", TS_FROZEN, TS_UPDATE, PB_KNOWN_DEVIATION, "backported?", NULL },
	{ "6.1.0-37-amd64", TS_FROZEN, TS_UPDATE, PB_KNOWN_DEVIATION, "f017b0a4951f", NULL },
	{ "6.18.0", TS_FROZEN, TS_UPDATE, PB_KNOWN_DEVIATION, NULL, "backported?" },
	/* Old behaviour on a kernel that calls itself 6.18 (a revert): POSIX, pass. */
	{ "6.18.0", TS_UPDATE, TS_UPDATE, PB_PASS, "revert?", NULL },
	{ "6.1.0", TS_UPDATE, TS_UPDATE, PB_PASS, NULL, "revert?" },
	/* 6.15 is the boundary, for each note: at it, and one release before */
	{ "6.15.0", TS_UPDATE, TS_UPDATE, PB_PASS, "revert?", NULL },
	{ "6.14.11", TS_UPDATE, TS_UPDATE, PB_PASS, NULL, "revert?" },
	{ "6.14.11", TS_FROZEN, TS_UPDATE, PB_KNOWN_DEVIATION, "backported?", NULL },
	{ "6.15.0", TS_FROZEN, TS_UPDATE, PB_KNOWN_DEVIATION, NULL, "backported?" },
	/* Partial: write updates mtime and ctime, read leaves atime: not the change. */
	{ "6.1.0", TS_WRITE_ONLY, TS_UPDATE, PB_FAIL, "partial", NULL },
	{ "6.18.0", TS_WRITE_ONLY, TS_UPDATE, PB_FAIL, NULL, NULL },
	/* Write moves ctime but not mtime (read moves atime): not all three. */
	{ "6.1.0", TS_NO_MTIME, TS_UPDATE, PB_FAIL, NULL, "write updated mtime and ctime" },
	/* FIFOs frozen too: not the 6.15 change either, whatever uname says. */
	{ "6.18.0", TS_FROZEN, TS_FROZEN, PB_FAIL, "FIFO", NULL },
	{ "6.1.0", TS_FROZEN, TS_FROZEN, PB_FAIL, NULL, NULL },
};
#define NMD04_SIGNATURES ((int)(sizeof(md04_signatures) / sizeof(md04_signatures[0])))

START_TEST(md04_signature)
{
	const struct md04_signature *g = &md04_signatures[_i];
	struct pb_check_result r = md04_with(g->release, g->anon, g->fifo);

	assert_verdict(r, g->verdict);
	if (g->says)
		ck_assert_msg(strstr(r.detail, g->says), "%s: the detail does not say \"%s\": %s",
			      g->release, g->says, r.detail);
	if (g->not_says)
		ck_assert_msg(!strstr(r.detail, g->not_says), "%s: the detail says \"%s\": %s",
			      g->release, g->not_says, r.detail);
}
END_TEST

/* ---------------------------------------------------------------- registry */

START_TEST(registry_complete)
{
	static const struct {
		const struct pb_check *group;
		const char *prefix;
		int count;
	} g[] = {
		{ pb_checks_poll, "PL-", 5 },
		{ pb_checks_metadata, "MD-", 6 },
		{ pb_checks_linux, "LX-", 10 },
	};

	for (size_t i = 0; i < 3; i++) {
		int n = 0;

		for (const struct pb_check *c = g[i].group; c->id; c++, n++) {
			char want[24];

			snprintf(want, sizeof(want), "%s%02d", g[i].prefix, n + 1);
			ck_assert_str_eq(c->id, want);
			ck_assert(c->group && c->tag && c->title && c->citation && c->run);
			ck_assert(c->tag[0] && c->title[0] && c->citation[0]);
		}
		ck_assert_int_eq(n, g[i].count);
	}
	ck_assert(find("LX-07")->flags & PB_CHECK_GLOBAL);
	ck_assert(find("LX-07")->flags & PB_CHECK_PRIV);
	ck_assert(find("LX-03")->flags & PB_CHECK_PRIV);
}
END_TEST

/* ---------------------------------------------------------------- broken: FAIL */

/* A kernel broken the way a row's check looks for: the check FAILs (on a FIFO
 * too where `fifo_too`). */
static const struct broken {
	const char *id;
	bool fifo_too;
	struct pb_sysops sys;  /* the calls broken; the rest are real */
	const char *says;      /* the detail must say this too, or NULL */
} broken[] = {
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
	{ "MD-01", true, .sys.fstat = fstat_regular },
	{ "MD-02", false, .sys.lseek = lseek_ok },
	{ "MD-02", false, .sys.fsync = fsync_ok_on_write_end, .says = "fsync returned 0" },
	{ "MD-02", false, .sys.fdatasync = fdatasync_ok_on_write_end,
	  .says = "fdatasync returned 0" },
	{ "MD-03", false, .sys.fstat = fstat_zero_times },
	{ "MD-05", false, .sys.fstat = fstat_frozen_times },
	{ "MD-06", false, .sys.readlink = readlink_wrong },
	{ "LX-01", false, .sys.pipe2 = pipe2_no_direct },
	{ "LX-02", false, .sys.fcntl = fcntl_hide_direct },
	{ "LX-04", false, .sys.pipe2 = pipe2_no_notification },
	{ "LX-05", false, .sys.tee = tee_consumes },
	{ "LX-06", false, .sys.pread = pread_dirty, .says = "VULNERABLE" },
	/* An old kernel that does not update: must FAIL, never known-deviation. */
	{ "MD-04", false, .sys = { .uname = uname_old, .fstat = fstat_frozen_times } },
};
#define NBROKEN ((int)(sizeof(broken) / sizeof(broken[0])))

START_TEST(broken_fails)
{
	struct pb_sysops s = pb_test_sysops(&broken[_i].sys);
	struct pb_check_result r = expect_fail(broken[_i].id, &s, PB_KIND_ANON, 0);

	if (broken[_i].says)
		ck_assert_ptr_nonnull(strstr(r.detail, broken[_i].says));
	pb_test_detail_is("pollmdlx.broken_fails", _i, r.detail);
	if (broken[_i].fifo_too) {
		r = expect_fail(broken[_i].id, &s, PB_KIND_FIFO, 0);
		pb_test_detail_is("pollmdlx.broken_fails.fifo", _i, r.detail);
	}
}
END_TEST

/* A writable directory not on tmpfs (for MD-05's filesystem cases), or NULL. */
static const char *non_tmpfs_base(void)
{
	const char *cand[] = { getenv("TMPDIR"), "/var/tmp", "/tmp", "." };

	for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++)
		if (cand[i] && cand[i][0] && pb_dir_usable(cand[i]) == 0 &&
		    !pb_ts_on_tmpfs(cand[i], -1))
			return cand[i];
	return NULL;
}

static struct pb_check_result run_in(const char *id, const struct pb_sysops *sys,
				     const char *base)
{
	struct pb_run_opts o = { .sys = sys, .kind = PB_KIND_ANON, .timeout_s = 5,
				 .base_dir = base };
	struct pb_check_result r;

	ck_assert_int_eq(pb_conformance_run_one(find(id), &o, &r), 0);
	show(id, &r);
	return r;
}

/* A kernel that updates nothing, in a directory not on tmpfs: the FIFO on
 * tmpfs shows the same, so it is the pipe code's fault: FAIL, never
 * known-deviation. */
START_TEST(md05_broken_not_tmpfs)
{
	struct pb_sysops s = pb_sysops_real;
	const char *base = non_tmpfs_base();
	struct pb_check_result r;

	if (!base) {
		fprintf(stderr, "# md05_broken_not_tmpfs: skipped: no writable directory off tmpfs\n");
		return;
	}
	s.fstat = fstat_frozen_times;
	r = run_in("MD-05", &s, base);
	assert_verdict(r, PB_FAIL);
	/* Either compared with tmpfs ("alike") or no tmpfs was usable ("may be"). */
	ck_assert_msg(strstr(r.detail, "on tmpfs") || strstr(r.detail, "may be"), "%s", r.detail);
}
END_TEST

/* A filesystem that hides a FIFO write's mtime/ctime (overlayfs): the FIFO on
 * tmpfs shows them, so MD-05 names the filesystem and says known-deviation. */
START_TEST(md05_filesystem_hides)
{
	struct pb_sysops s = pb_sysops_real;
	const char *base = non_tmpfs_base();
	struct pb_check_result r;
	struct pb_ts_mount m;

	if (!base) {
		fprintf(stderr, "# md05_filesystem_hides: skipped: no writable directory off tmpfs\n");
		return;
	}
	ck_assert_int_eq(pb_ts_mount_describe(base, -1, &m), 0);
	s.fstat = fstat_fs_hides_mctime;
	r = run_in("MD-05", &s, base);
	if (r.verdict == PB_FAIL && strstr(r.detail, "may be")) {
		/* Neither /dev/shm nor a private mount: the result is only "may be". */
		ck_assert_ptr_nonnull(strstr(r.detail, pb_ts_fs_name(m.fstype)));
		fprintf(stderr, "# md05_filesystem_hides: no tmpfs reference here: %s\n", r.detail);
		return;
	}
	assert_verdict(r, PB_KNOWN_DEVIATION);
	ck_assert_msg(strstr(r.detail, "does not report FIFO mtime/ctime updates through stat"),
		      "%s", r.detail);
	ck_assert_msg(strstr(r.detail, pb_ts_fs_name(m.fstype)), "%s does not name %s", r.detail,
		      m.fstype);
	/* The same kernel on tmpfs passes. */
	if (pb_dir_usable("/dev/shm") == 0 && pb_ts_on_tmpfs("/dev/shm", -1)) {
		r = run_in("MD-05", &s, "/dev/shm");
		ck_assert_msg(r.verdict == PB_PASS || r.verdict == PB_SKIP, "on /dev/shm: %s: %s",
			      pb_verdict_names[r.verdict], r.detail);
	}
}
END_TEST

START_TEST(lx03_broken)
{
	const struct pb_sysops grow_allowed = { .fcntl = fcntl_grow_allowed };
	struct pb_sysops s = pb_test_sysops(&grow_allowed);
	struct pb_check_result r = run("LX-03", &s);

	/* Only where the environment lets it run at all (CAP_SETUID, a soft limit). */
	assert_verdict(r, pb_check_has_cap(7) ? PB_FAIL : PB_SKIP);
}
END_TEST

START_TEST(lx07_broken)
{
	struct pb_sysops s = pb_sysops_real;
	char dir[4096];

	fake_sysctl_make(dir, sizeof(dir));
	s.open = open_fake_sysctl;
	expect_fail("LX-07", &s, PB_KIND_ANON, PB_RUN_ALLOW_GLOBAL);
	/* The original value was put back. */
	ck_assert_int_eq(fake_sysctl_value(), 1048576);
	unlink(fake_sysctl);
	pb_tmpdir_remove(dir);
}
END_TEST

/* Killed by the watchdog mid-change: the guardian still restores the value. */
START_TEST(lx07_killed_restores)
{
	struct pb_sysops s = pb_sysops_real;
	struct pb_run_opts o = { .sys = &s, .timeout_s = 0.5, .flags = PB_RUN_ALLOW_GLOBAL };
	struct pb_check_result r;
	struct timespec ms = { 0, 1000000 };
	char dir[4096];
	long v = -1;

	fake_sysctl_make(dir, sizeof(dir));
	s.open = open_fake_sysctl;
	s.fcntl = fcntl_hang;
	ck_assert_int_eq(pb_conformance_run_one(find("LX-07"), &o, &r), 0);
	ck_assert(r.timed_out);
	assert_verdict(r, PB_FAIL);
	for (int i = 0; i < 2000 && (v = fake_sysctl_value()) != 1048576; i++)
		nanosleep(&ms, NULL);  /* the guardian runs after the check died */
	ck_assert_int_eq(v, 1048576);
	unlink(fake_sysctl);
	pb_tmpdir_remove(dir);
}
END_TEST

/* ---------------------------------------------------------------- this kernel */

static void expect_here(const char *id, enum pb_verdict v)
{
	struct pb_check_result r = run(id, NULL);

	assert_verdict(r, v);
	if (find(id)->flags & PB_CHECK_BOTH_KINDS) {
		r = run_kind(id, NULL, PB_KIND_FIFO, 0);
		assert_verdict(r, v);
	}
}

START_TEST(pl_here)
{
	struct pb_check_result r;

	expect_here("PL-01", PB_PASS);
	expect_here("PL-02", PB_PASS);
	expect_here("PL-03", PB_PASS);
	r = run("PL-04", NULL);
	assert_verdict(r, PB_PASS);
	ck_assert_ptr_nonnull(strstr(r.detail, "select nuance"));
	expect_here("PL-05", PB_PASS);
}
END_TEST

START_TEST(md_here)
{
	struct pb_check_result r;

	expect_here("MD-01", PB_PASS);
	expect_here("MD-02", PB_PASS);
	expect_here("MD-03", PB_PASS);
	expect_here("MD-06", PB_PASS);
	/* Environment: atime needs a mount without noatime; TMPDIR's filesystem
	 * may hide FIFO updates (overlayfs): then known-deviation naming it, or,
	 * with no tmpfs to compare with, a fail that says it may be the
	 * filesystem's.  Never a plain fail. */
	r = run("MD-05", NULL);
	ck_assert_msg(r.verdict == PB_PASS || r.verdict == PB_SKIP ||
		      (r.verdict == PB_KNOWN_DEVIATION &&
		       strstr(r.detail, "the filesystem hides it") &&
		       !pb_ts_on_tmpfs(pb_tmpdir_base(), -1)) ||
		      (r.verdict == PB_FAIL && strstr(r.detail, "may be")),
		      "MD-05 %s: %s", pb_verdict_names[r.verdict], r.detail);
}
END_TEST

START_TEST(md04_here)
{
	struct pb_check_result r = run("MD-04", NULL);

	if (kernel_at_least(6, 15)) {
		/* Expected unless the distribution reverted f017b0a4951f (then pass). */
		assert_verdict(r, PB_KNOWN_DEVIATION);
		ck_assert_ptr_nonnull(strstr(r.detail, "f017b0a4951f"));
		ck_assert_ptr_nonnull(strstr(r.detail, "6.15"));
	} else if (r.verdict == PB_KNOWN_DEVIATION) {
		/* An older release carrying the change: the detail says so. */
		ck_assert_ptr_nonnull(strstr(r.detail, "backported?"));
	} else {
		assert_verdict(r, PB_PASS);
	}
}
END_TEST

START_TEST(lx_here)
{
	struct pb_check_result r;

	expect_here("LX-01", PB_PASS);
	expect_here("LX-02", PB_PASS);
	expect_here("LX-05", PB_PASS);
	expect_here("LX-06", PB_PASS);
	/* Every write and read notifies since 5.14 (fe67f4dd8daa, 3a34b13a88ca). */
	if (kernel_at_least(5, 14)) {
		expect_here("LX-08", PB_PASS);
		expect_here("LX-09", PB_PASS);
	}
	/* Readers wait exclusively since 5.5 (0ddad21d3e99). */
	if (kernel_at_least(5, 5))
		expect_here("LX-10", PB_PASS);
	/* Environment: CONFIG_WATCH_QUEUE (off here: SKIP). */
	r = run("LX-04", NULL);
	ck_assert_msg(r.verdict == PB_PASS || r.verdict == PB_SKIP, "LX-04 %s: %s",
		      pb_verdict_names[r.verdict], r.detail);
}
END_TEST

START_TEST(lx03_here)
{
	struct pb_check_result r = run("LX-03", NULL);

	/* Environment: CAP_SETUID, a soft limit; PASS where they hold. */
	if (pb_check_has_cap(7))
		assert_verdict(r, PB_PASS);
	else
		assert_verdict(r, PB_SKIP);
}
END_TEST

START_TEST(lx07_here)
{
	struct pb_check_result r = run("LX-07", NULL);
	const char *global = getenv("PIPEBENCH_TEST_GLOBAL");
	FILE *f;
	long before = -1, after = -1;

	/* Without the opt-in it must not touch anything. */
	assert_verdict(r, PB_SKIP);
	ck_assert_ptr_nonnull(strstr(r.detail, "allow-global-changes"));
	/* The real change only on request: it briefly shrinks every new pipe on the
	 * machine, which would disturb tests running in parallel. */
	if (!global || strcmp(global, "1") != 0)
		return;
	f = fopen("/proc/sys/fs/pipe-max-size", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%ld", &before), 1);
	fclose(f);
	r = run_kind("LX-07", NULL, PB_KIND_ANON, PB_RUN_ALLOW_GLOBAL);
	f = fopen("/proc/sys/fs/pipe-max-size", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%ld", &after), 1);
	fclose(f);
	ck_assert_int_eq(after, before);
	ck_assert_msg(r.verdict == PB_PASS || r.verdict == PB_SKIP, "LX-07 %s: %s",
		      pb_verdict_names[r.verdict], r.detail);
	fprintf(stderr, "# LX-07: %s: %s\n", pb_verdict_names[r.verdict], r.detail);
}
END_TEST

/* Every check (but the setuid and global ones) closes what it opens. */
START_TEST(no_fd_leaks)
{
	static const struct pb_check *const groups[] = {
		pb_checks_poll, pb_checks_metadata, pb_checks_linux
	};
	char dir[4096];

	ck_assert_int_eq(pb_tmpdir_make(NULL, dir, sizeof(dir)), 0);
	for (size_t g = 0; g < 3; g++)
		for (const struct pb_check *c = groups[g]; c->id; c++) {
			struct pb_check_ctx ctx = { .sys = &pb_sysops_real, .dir = dir,
						    .kind = PB_KIND_ANON, .verdict = PB_PASS };
			int before, after;

			if (c->flags & (PB_CHECK_GLOBAL | PB_CHECK_PRIV))
				continue;
			before = pb_check_count_fds();
			c->run(&ctx);
			after = pb_check_count_fds();
			ck_assert_msg(after == before, "%s leaves %d descriptors open", c->id,
				      after - before);
		}
	pb_tmpdir_remove(dir);
}
END_TEST

/*
 * The runner waits for its check's process with naps that lengthen as the
 * wait goes on, so a check that ends in a few milliseconds is seen to end
 * within a tenth of one: the 1st to 20th naps are 0.1 ms, the 21st to
 * 200th 1 ms, the later ones 10 ms.  The runner's naps are recorded here
 * (this program's nanosleep, in memory shared with the check), and the
 * check ends only once the runner has napped 202 times: the sequence, not
 * any time, is asserted.
 */
#define NAPS 202
struct nap_log {
	int n;
	long ns[NAPS + 64];
};
static struct nap_log *naps;  /* NULL: nothing recorded */
static pid_t nap_runner;

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	if (naps && req && getpid() == nap_runner) {
		int n = __atomic_load_n(&naps->n, __ATOMIC_SEQ_CST);

		if (n < NAPS + 64) {
			naps->ns[n] = (long)req->tv_sec * 1000000000L + req->tv_nsec;
			__atomic_store_n(&naps->n, n + 1, __ATOMIC_SEQ_CST);
		}
	}
	return (int)syscall(SYS_nanosleep, req, rem);
}

static void wait_for_the_naps(struct pb_check_ctx *ctx)
{
	const struct timespec ms = { 0, 1000000 };

	while (__atomic_load_n(&naps->n, __ATOMIC_SEQ_CST) < NAPS)
		nanosleep(&ms, NULL);
	pb_check_set(ctx, PB_PASS, "the runner napped %d times", NAPS);
}

START_TEST(runner_naps_lengthen)
{
	const struct pb_check c = { "T-01", "test", "T", "waits for the runner", "none", 0,
				    wait_for_the_naps };
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct pb_check_result r;

	naps = mmap(NULL, sizeof(*naps), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		    0);
	ck_assert_ptr_ne(naps, MAP_FAILED);
	memset(naps, 0, sizeof(*naps));
	nap_runner = getpid();
	ck_assert_int_eq(pb_conformance_run_one(&c, &o, &r), 0);
	ck_assert_msg(r.verdict == PB_PASS, "%s: %s", pb_verdict_names[r.verdict], r.detail);
	ck_assert_int_ge(naps->n, NAPS);
	for (int i = 0; i < naps->n; i++) {
		long want = i < 20 ? 100000L : i < 200 ? 1000000L : 10000000L;

		ck_assert_msg(naps->ns[i] == want, "nap %d of the runner: %ld ns, expected %ld",
			      i + 1, naps->ns[i], want);
	}
	munmap(naps, sizeof(*naps));
	naps = NULL;
}
END_TEST

PB_CHECK_SUITE_MAIN("conf_pollmdlx",
	PB_TCASE_TIMED("registry", 0, registry_complete),
	PB_TCASE_LOOP("broken", 10, broken_fails, NBROKEN, md05_broken_not_tmpfs,
		      md05_filesystem_hides, lx03_broken, lx07_broken,
		      lx07_killed_restores),
	PB_TCASE_LOOP("setup_faults", 10, setup_fault_fails, NSETUP_FAULTS,
		      resource_limit_is_error),
	PB_TCASE_LOOP("md04_signatures", 20, md04_signature, NMD04_SIGNATURES),
	PB_TCASE_TIMED("here", 10, pl_here, md_here, md04_here, lx_here, lx03_here, lx07_here,
		       no_fd_leaks),
	PB_TCASE_TIMED("runner", 10, runner_naps_lengthen))
