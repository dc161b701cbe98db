/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The later conditions of CRE-07..10, RD-04, RD-05, RD-07, NB-02, FIFO-01..08
 * and FC-04..06, as tests/check_conf_conditions.c does for the others: each
 * row breaks one condition only (EFAULT for the read-only page but not for
 * the bad pointer, a FIFO whose st_dev alone differs from its path's, a
 * reader that dies after the restarted read, SIGIO raised by F_SETFL itself,
 * ...) and requires FAIL with the detail naming it.  A lawful row (a kernel
 * at a boundary, or one that behaves as an older kernel did) must not FAIL
 * or ERROR, and its detail must say what the check saw.  The watchdog is
 * generous (60 s): the checks' own bounded waits count sleeps of 1 ms, which
 * stretch on a loaded machine.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <grp.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "check_conf.h"
#include "check_main.h"
#define PB_FAST_TIME_OWN_SETITIMER
#include "fast_time.h"
#include "checks/conformance.h"

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

static int accmode(int fd)
{
	return fcntl(fd, F_GETFL) & O_ACCMODE;
}

static bool is_fifo_path(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
}

/* Open before each row, in the test's process: a descriptor the check did
 * not make, which a wrapper may hand back or close instead of the real one. */
static int spare = -1;

/* Shared across the check's forks (RD-07's readers): which one misbehaves. */
static int *shared_count;

/* Calls counted in the check's process (reset before each row). */
static int calls;

/* ---- CRE-07: the bad pointer and the read-only page, each on its own ---- */

static bool is_bad_ptr(const int *fd)
{
	return (uintptr_t)fd == 8;
}

static int pipe2_bad_ptr_succeeds(int fd[2], int flags)
{
	return is_bad_ptr(fd) ? 0 : (int)syscall(SYS_pipe2, fd, flags);
}

static int pipe2_bad_ptr_einval(int fd[2], int flags)
{
	return is_bad_ptr(fd) ? ifail_with(EINVAL) : (int)syscall(SYS_pipe2, fd, flags);
}

/* The read-only page (EFAULT, not the bad pointer): HOW 0 succeed, 1 EIO,
 * 2 EFAULT with a descriptor left open. */
static int pipe2_ro_page(int fd[2], int flags, int how)
{
	int r = (int)syscall(SYS_pipe2, fd, flags);

	if (r == 0 || errno != EFAULT || is_bad_ptr(fd))
		return r;
	if (how == 0)
		return 0;
	if (how == 1)
		return ifail_with(EIO);
	(void)open("/dev/null", O_RDONLY);
	return ifail_with(EFAULT);
}

static int pipe2_ro_succeeds(int fd[2], int flags)
{
	return pipe2_ro_page(fd, flags, 0);
}

static int pipe2_ro_eio(int fd[2], int flags)
{
	return pipe2_ro_page(fd, flags, 1);
}

static int pipe2_ro_leaks(int fd[2], int flags)
{
	return pipe2_ro_page(fd, flags, 2);
}

/* ---- CRE-08: fewer descriptors, unopened ones returned, a leak on close ---- */

/* Both slots name the read end; the write end is closed. */
static int pipe2_one_fd(int fd[2], int flags)
{
	if (syscall(SYS_pipe2, fd, flags) != 0)
		return -1;
	close(fd[1]);
	fd[1] = fd[0];
	return 0;
}

/* Two descriptors are made, but slot I says NOT_OPEN + I (later_condition
 * closes both before the check runs: a shell may have handed them down). */
#define NOT_OPEN 250
static int pipe2_bogus_slot(int fd[2], int flags, int i)
{
	if (syscall(SYS_pipe2, fd, flags) != 0)
		return -1;
	fd[i] = NOT_OPEN + i;
	return 0;
}

static int pipe2_bogus_read_slot(int fd[2], int flags)
{
	return pipe2_bogus_slot(fd, flags, 0);
}

static int pipe2_bogus_write_slot(int fd[2], int flags)
{
	return pipe2_bogus_slot(fd, flags, 1);
}

/* O_DIRECT refused as before Linux 3.4 (EINVAL: lawful), or with EIO;
 * O_CLOEXEC refused with EINVAL. */
static int pipe2_refuses(int fd[2], int flags, int flag, int err)
{
	return flags & flag ? ifail_with(err) : (int)syscall(SYS_pipe2, fd, flags);
}

static int pipe2_no_direct(int fd[2], int flags)
{
	return pipe2_refuses(fd, flags, O_DIRECT, EINVAL);
}

static int pipe2_direct_eio(int fd[2], int flags)
{
	return pipe2_refuses(fd, flags, O_DIRECT, EIO);
}

static int pipe2_cloexec_einval(int fd[2], int flags)
{
	return pipe2_refuses(fd, flags, O_CLOEXEC, EINVAL);
}

/* close of a pipe or FIFO end returns 0 but a reference stays open; on the
 * write end only; or the spare is closed instead of the read end. */
static int close_keeps_ref(int fd)
{
	if (is_pipe_fd(fd))
		(void)dup(fd);
	return close(fd);
}

static int close_write_end_keeps_ref(int fd)
{
	if (is_pipe_fd(fd) && accmode(fd) == O_WRONLY)
		(void)dup(fd);
	return close(fd);
}

static int close_spare_instead(int fd)
{
	if (is_pipe_fd(fd) && accmode(fd) == O_RDONLY && spare >= 0) {
		int r = close(spare);

		spare = -1;
		return r;
	}
	return close(fd);
}

/* close of a pipe or FIFO end (the write end only) closes it but says EIO. */
static int close_eio(int fd)
{
	if (is_pipe_fd(fd)) {
		close(fd);
		return ifail_with(EIO);
	}
	return close(fd);
}

static int close_write_end_eio(int fd)
{
	if (is_pipe_fd(fd) && accmode(fd) == O_WRONLY) {
		close(fd);
		return ifail_with(EIO);
	}
	return close(fd);
}


/* ---- CRE-09: mkfifo opening something; each FIFO open on its own ---- */

static int mkfifo_leaves_fd(const char *path, mode_t mode)
{
	int r = mkfifo(path, mode);

	if (r == 0)
		(void)open("/dev/null", O_RDONLY);
	return r;
}

static int open_fifo_wronly_eio(const char *path, int flags, mode_t mode)
{
	if (is_fifo_path(path) && (flags & O_ACCMODE) == O_WRONLY)
		return ifail_with(EIO);
	return open(path, flags, mode);
}

/* The FIFO's write end opened and closed; the spare handed back instead. */
static int open_wronly_gives_spare(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags, mode);

	if (fd >= 0 && is_fifo_path(path) && (flags & O_ACCMODE) == O_WRONLY) {
		close(fd);
		return spare;
	}
	return fd;
}

static int open_wronly_extra_fd(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags, mode);

	if (fd >= 0 && is_fifo_path(path) && (flags & O_ACCMODE) == O_WRONLY)
		(void)dup(fd);
	return fd;
}

/* ---- RD-04: a blocking read that fails at once, or says 1 on EINTR ---- */

static ssize_t read_empty_eio_at_once(int fd, void *buf, size_t n)
{
	return is_pipe_fd(fd) && n == 1 ? fail_with(EIO) : read(fd, buf, n);
}

static ssize_t read_eintr_says_1(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	return r < 0 && errno == EINTR && n == 1 ? 1 : r;  /* errno stays EINTR */
}

/* The interrupt timer the check last armed (ITIMER_REAL, in microseconds):
 * setitimer() is interposed here, in the test's own executable. */
static long armed_us = -1;

int setitimer(__itimer_which_t which, const struct itimerval *nv, struct itimerval *ov)
{
	if (which == ITIMER_REAL && nv)
		armed_us = nv->it_value.tv_sec * 1000000L + nv->it_value.tv_usec;
	return pb_fast_setitimer(which, nv, ov);
}

/* Lawful, but the read first looks at the interrupt timer: the detail says
 * 300 ms, so a timer of any other length makes the read say EIO. */
static ssize_t read_timer_300(int fd, void *buf, size_t n)
{
	return armed_us != 300000L ? fail_with(EIO) : read(fd, buf, n);
}

/* ---- RD-05: what the reader's read returns, before or after 'X' ---- */

static ssize_t read_early(int fd, void *buf, size_t n, ssize_t r, int err)
{
	if (!is_pipe_fd(fd) || n != 1)
		return read(fd, buf, n);
	*(char *)buf = 'Y';
	errno = err;
	return r;
}

static ssize_t read_early_eio(int fd, void *buf, size_t n)
{
	return read_early(fd, buf, n, -1, EIO);
}

static ssize_t read_early_eintr(int fd, void *buf, size_t n)
{
	return read_early(fd, buf, n, -1, EINTR);
}

static ssize_t read_early_byte(int fd, void *buf, size_t n)
{
	return read_early(fd, buf, n, 1, 0);
}

/* The SA_RESTART handler runs, and the read returns a byte from nowhere. */
static ssize_t read_byte_after_signal(int fd, void *buf, size_t n)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (is_pipe_fd(fd) && n == 1 && poll(&p, 1, 5000) < 0 && errno == EINTR) {
		*(char *)buf = 'Y';
		return 1;
	}
	return read(fd, buf, n);
}

/* After 'X' arrives: the read says 'Y', EIO, EOF, kills the reader, or
 * swallows it and reads on. */
enum after_x { AX_Y, AX_EIO, AX_EOF, AX_DIE, AX_SWALLOW };

static ssize_t read_after_x(int fd, void *buf, size_t n, enum after_x how)
{
	ssize_t r = read(fd, buf, n);

	if (r != 1 || *(char *)buf != 'X')
		return r;
	switch (how) {
	case AX_Y:
		*(char *)buf = 'Y';
		return 1;
	case AX_EIO:
		return fail_with(EIO);
	case AX_EOF:
		return 0;
	case AX_DIE:
		kill(getpid(), SIGKILL);
		return r;
	case AX_SWALLOW:
		return read(fd, buf, n);
	}
	return r;
}

static ssize_t read_x_as_y(int fd, void *b, size_t n) { return read_after_x(fd, b, n, AX_Y); }
static ssize_t read_x_eio(int fd, void *b, size_t n) { return read_after_x(fd, b, n, AX_EIO); }
static ssize_t read_x_eof(int fd, void *b, size_t n) { return read_after_x(fd, b, n, AX_EOF); }
static ssize_t read_x_dies(int fd, void *b, size_t n) { return read_after_x(fd, b, n, AX_DIE); }
static ssize_t read_x_swallowed(int fd, void *b, size_t n)
{
	return read_after_x(fd, b, n, AX_SWALLOW);
}

/* The reader's process ends with its read: any judged call it makes after
 * (the check's own code run by the reader) is counted in *STRAY. */
static int *stray;
static bool reader_returned;

static ssize_t read_x_eio_marks(int fd, void *b, size_t n)
{
	ssize_t r = read_after_x(fd, b, n, AX_EIO);

	reader_returned = r < 0 && errno == EIO;
	return r;
}

static int close_stray(int fd)
{
	if (reader_returned)
		__atomic_add_fetch(stray, 1, __ATOMIC_SEQ_CST);
	return close(fd);
}

static ssize_t write_x_eio(int fd, const void *buf, size_t n)
{
	return n == 1 && *(const char *)buf == 'X' ? fail_with(EIO) : write(fd, buf, n);
}

/* ---- RD-07: EOF reads as EIO for one reader or all; one stays asleep ---- */

static ssize_t read_first_eof(int fd, void *buf, size_t n, bool hang)
{
	ssize_t r = read(fd, buf, n);

	if (r != 0 || n == 0 || __atomic_fetch_add(shared_count, 1, __ATOMIC_SEQ_CST) != 0)
		return r;
	if (hang)
		for (;;)
			pause();
	return fail_with(EIO);
}

static ssize_t read_one_eof_eio(int fd, void *buf, size_t n)
{
	return read_first_eof(fd, buf, n, false);
}

static ssize_t read_one_eof_hangs(int fd, void *buf, size_t n)
{
	return read_first_eof(fd, buf, n, true);
}

/* ---- NB-02: the big write into a full pipe ---- */

enum big { BIG_EIO, BIG_ONE, BIG_ONE_EINTR, BIG_BLOCKS };

static ssize_t write_big_full(int fd, const void *buf, size_t n, enum big how)
{
	ssize_t r = write(fd, buf, n);

	if (!(r < 0 && errno == EAGAIN && n == 3 * PIPE_BUF))
		return r;
	if (how == BIG_EIO)
		return fail_with(EIO);
	if (how == BIG_ONE)
		return 1;  /* errno stays EAGAIN */
	if (how == BIG_ONE_EINTR) {
		errno = EINTR;  /* a count is no interrupted call */
		return 1;
	}
	pause();
	return fail_with(EINTR);
}

static ssize_t write_big_eio(int fd, const void *b, size_t n)
{
	return write_big_full(fd, b, n, BIG_EIO);
}

static ssize_t write_big_one(int fd, const void *b, size_t n)
{
	return write_big_full(fd, b, n, BIG_ONE);
}

static ssize_t write_big_one_eintr(int fd, const void *b, size_t n)
{
	return write_big_full(fd, b, n, BIG_ONE_EINTR);
}

static ssize_t write_big_blocks(int fd, const void *b, size_t n)
{
	return write_big_full(fd, b, n, BIG_BLOCKS);
}

/* ---- FIFO-01: st_size, stat failing, repeated mkfifo, ENOENT, mknod ---- */

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && strcmp(s + a - b, tail) == 0;
}

static int stat_fifo_size_5(const char *path, struct stat *st)
{
	int r = stat(path, st);

	if (r == 0 && S_ISFIFO(st->st_mode))
		st->st_size = 5;
	return r;
}

static int stat_new_fifo_eio(const char *path, struct stat *st)
{
	return ends_with(path, "/made.fifo") ? ifail_with(EIO) : stat(path, st);
}

static int stat_node_eio(const char *path, struct stat *st)
{
	return ends_with(path, "/node") ? ifail_with(EIO) : stat(path, st);
}

static int mkfifo_repeat_succeeds(const char *path, mode_t mode)
{
	return is_fifo_path(path) ? 0 : mkfifo(path, mode);
}

static int mkfifo_missing_dir_eacces(const char *path, mode_t mode)
{
	int r = mkfifo(path, mode);

	return r < 0 && errno == ENOENT ? ifail_with(EACCES) : r;
}

static int mknod_eperm(const char *path, mode_t mode, dev_t dev)
{
	(void)path, (void)mode, (void)dev;
	return ifail_with(EPERM);
}

static int mknod_mode_0644(const char *path, mode_t mode, dev_t dev)
{
	return mknod(path, (mode & ~07777) | 0644, dev);
}

static int mknod_regular(const char *path, mode_t mode, dev_t dev)
{
	return mknod(path, S_IFREG | (mode & 07777), dev);
}

/* ---- FIFO-02..06: each open on its own ---- */

static bool fifo_flags(const char *path, int flags, int acc, bool nonblock)
{
	return is_fifo_path(path) && (flags & O_ACCMODE) == acc &&
	       !(flags & O_NONBLOCK) == !nonblock;
}

/* No reader: EAGAIN, not ENXIO. */
static int open_enxio_as_eagain(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags, mode);

	return fd < 0 && errno == ENXIO ? ifail_with(EAGAIN) : fd;
}

static int open_rdonly_nb_eio(const char *path, int flags, mode_t mode)
{
	return fifo_flags(path, flags, O_RDONLY, true) ? ifail_with(EIO) : open(path, flags, mode);
}

/* O_WRONLY|O_NONBLOCK is refused even with a reader. */
static int open_wronly_nb_enxio(const char *path, int flags, mode_t mode)
{
	return fifo_flags(path, flags, O_WRONLY, true) ? ifail_with(ENXIO) :
	       open(path, flags, mode);
}

/* O_WRONLY|O_NONBLOCK succeeds without a reader (opened O_RDWR). */
static int open_wronly_nb_succeeds(const char *path, int flags, mode_t mode)
{
	if (fifo_flags(path, flags, O_WRONLY, true))
		flags = (flags & ~O_ACCMODE) | O_RDWR;
	return open(path, flags, mode);
}

/* A blocking O_WRONLY open gets O_NONBLOCK (ENXIO at once), or O_RDWR
 * (succeeds at once); a blocking O_RDONLY one fails with EIO. */
static int open_wronly_nonblock(const char *path, int flags, mode_t mode)
{
	if (fifo_flags(path, flags, O_WRONLY, false))
		flags |= O_NONBLOCK;
	return open(path, flags, mode);
}

static int open_wronly_rdwr(const char *path, int flags, mode_t mode)
{
	if (fifo_flags(path, flags, O_WRONLY, false))
		flags = (flags & ~O_ACCMODE) | O_RDWR;
	return open(path, flags, mode);
}

static int open_rdonly_eio(const char *path, int flags, mode_t mode)
{
	return fifo_flags(path, flags, O_RDONLY, false) ? ifail_with(EIO) : open(path, flags, mode);
}

static int open_wronly_eio(const char *path, int flags, mode_t mode)
{
	return fifo_flags(path, flags, O_WRONLY, false) ? ifail_with(EIO) : open(path, flags, mode);
}

/* FIFO-05: the reader's open completes and takes the data, then says EINTR. */
static int open_reader_takes_data(const char *path, int flags, mode_t mode)
{
	char buf[3];
	size_t got = 0;
	ssize_t n;
	int fd;

	if (!fifo_flags(path, flags, O_RDONLY, false))
		return open(path, flags, mode);
	fd = open(path, flags, mode);
	if (fd < 0)
		return -1;
	while (got < 3 && (n = read(fd, buf + got, 3 - got)) > 0)
		got += (size_t)n;
	return ifail_with(EINTR);
}

static int open_rdwr_eio(const char *path, int flags, mode_t mode)
{
	return fifo_flags(path, flags, O_RDWR, false) ? ifail_with(EIO) : open(path, flags, mode);
}

static int open_rdwr_nb_eio(const char *path, int flags, mode_t mode)
{
	return fifo_flags(path, flags, O_RDWR, true) ? ifail_with(EIO) : open(path, flags, mode);
}

/* A write of N bytes moves and says N - 1 (the reads that say one byte
 * less or flip the last are check_conf.h's read_one_short and
 * read_flips_last). */
static ssize_t write_short(int fd, const void *buf, size_t n, size_t which)
{
	return n == which && is_pipe_fd(fd) ? write(fd, buf, n - 1) : write(fd, buf, n);
}

static ssize_t write_3_short(int fd, const void *b, size_t n) { return write_short(fd, b, n, 3); }
static ssize_t write_5_short(int fd, const void *b, size_t n) { return write_short(fd, b, n, 5); }

static ssize_t read_kills_reader(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	if (r > 0 && is_pipe_fd(fd))
		kill(getpid(), SIGKILL);
	return r;
}

/* ---- FIFO-07: the read with a writer, and the 32 KiB write ---- */

static ssize_t read_eagain_says_5(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	return r < 0 && errno == EAGAIN ? 5 : r;  /* errno stays EAGAIN */
}

static ssize_t write_32k_full(int fd, const void *buf, size_t n, bool one)
{
	ssize_t r = write(fd, buf, n);

	if (r < 0 && errno == EAGAIN && n == 32 << 10)
		return one ? 1 : fail_with(EIO);
	return r;
}

static ssize_t write_32k_eio(int fd, const void *b, size_t n)
{
	return write_32k_full(fd, b, n, false);
}

static ssize_t write_32k_one(int fd, const void *b, size_t n)
{
	return write_32k_full(fd, b, n, true);
}

static int open_wronly_nb_eio(const char *path, int flags, mode_t mode)
{
	return fifo_flags(path, flags, O_WRONLY, true) ? ifail_with(EIO) : open(path, flags, mode);
}

/* ---- FIFO-08: identity, sizes, F_GETPIPE_SZ, FIONREAD, lseek ---- */

static int fstat_fifo_off(int fd, struct stat *st, int what)
{
	int r = fstat(fd, st);

	if (r != 0 || !S_ISFIFO(st->st_mode))
		return r;
	if (what == 0)
		st->st_ino++;
	else if (what == 1)
		st->st_dev++;
	else if (what == 2)
		st->st_size = 5;
	else
		return ifail_with(EIO);
	return 0;
}

static int fstat_ino_plus_1(int fd, struct stat *st) { return fstat_fifo_off(fd, st, 0); }
static int fstat_dev_plus_1(int fd, struct stat *st) { return fstat_fifo_off(fd, st, 1); }
static int fstat_size_5(int fd, struct stat *st) { return fstat_fifo_off(fd, st, 2); }
static int fstat_eio(int fd, struct stat *st) { return fstat_fifo_off(fd, st, 3); }

static int stat_fifo_eio(const char *path, struct stat *st)
{
	return is_fifo_path(path) ? ifail_with(EIO) : stat(path, st);
}

static int fcntl_pipe_sz_is(int fd, int cmd, long arg, int v)
{
	int r = fcntl(fd, cmd, arg);

	return cmd == F_GETPIPE_SZ && r > 0 ? v : r;
}

static int fcntl_pipe_sz_0(int fd, int cmd, long arg) { return fcntl_pipe_sz_is(fd, cmd, arg, 0); }
static int fcntl_pipe_sz_1(int fd, int cmd, long arg) { return fcntl_pipe_sz_is(fd, cmd, arg, 1); }

static int ioctl_fionread_less_1(int fd, unsigned long req, void *arg)
{
	int r = ioctl(fd, req, arg);

	if (r == 0 && req == FIONREAD)
		(*(int *)arg)--;
	return r;
}

/* FIONREAD fills in the right count but says -1/ENOTTY. */
static int ioctl_fionread_fails(int fd, unsigned long req, void *arg)
{
	int r = ioctl(fd, req, arg);

	return r == 0 && req == FIONREAD ? ifail_with(ENOTTY) : r;
}

static off_t lseek_fifo(int fd, off_t off, int whence, bool succeed)
{
	off_t r = lseek(fd, off, whence);

	if (r < 0 && errno == ESPIPE) {
		if (succeed)
			return 0;  /* errno stays ESPIPE */
		errno = EINVAL;
	}
	return r;
}

static off_t lseek_succeeds(int fd, off_t off, int whence)
{
	return lseek_fifo(fd, off, whence, true);
}

static off_t lseek_einval(int fd, off_t off, int whence)
{
	return lseek_fifo(fd, off, whence, false);
}

/* ---- FC-04: after EBUSY, the 4-page set, the data, bad sizes, a file ---- */

static bool busy_seen;

/* After the EBUSY, the next F_GETPIPE_SZ of the write end says half the size. */
static int fcntl_size_after_ebusy(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	if (cmd == F_SETPIPE_SZ && r < 0 && errno == EBUSY)
		busy_seen = true;
	else if (cmd == F_GETPIPE_SZ && r > 0 && busy_seen && accmode(fd) == O_WRONLY) {
		busy_seen = false;
		return r / 2;
	}
	return r;
}

static int ioctl_fionread_plus_1(int fd, unsigned long req, void *arg)
{
	int r = ioctl(fd, req, arg);

	if (r == 0 && req == FIONREAD)
		(*(int *)arg)++;
	return r;
}

/* FIONREAD fails (ENOTTY) and fills in nothing. */
static int ioctl_fionread_enotty(int fd, unsigned long req, void *arg)
{
	return req == FIONREAD ? ifail_with(ENOTTY) : ioctl(fd, req, arg);
}

static int fcntl_set_4_pages(int fd, int cmd, long arg, bool eio)
{
	int r;

	if (cmd != F_SETPIPE_SZ || arg != 4 * page_size())
		return fcntl(fd, cmd, arg);
	if (eio)
		return ifail_with(EIO);
	r = fcntl(fd, cmd, arg);
	return r > 0 ? r + 1 : r;
}

static int fcntl_set_4_pages_eio(int fd, int cmd, long arg)
{
	return fcntl_set_4_pages(fd, cmd, arg, true);
}

static int fcntl_set_4_pages_plus_1(int fd, int cmd, long arg)
{
	return fcntl_set_4_pages(fd, cmd, arg, false);
}

static int fcntl_read_end_plus_1(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	return cmd == F_GETPIPE_SZ && r > 0 && accmode(fd) == O_RDONLY ? r + 1 : r;
}

/* Reads of pipes and FIFOs counted from the start (the check is forked
 * with 0): one byte flipped at CORRUPT_AT, or EOF from CUT_AT on. */
static long read_total, corrupt_at = -1, cut_at = -1;

static ssize_t read_counted(int fd, void *buf, size_t n)
{
	ssize_t r;

	if (!is_pipe_fd(fd))
		return read(fd, buf, n);
	if (cut_at >= 0 && read_total >= cut_at)
		return 0;
	if (cut_at >= 0 && read_total + (long)n > cut_at)
		n = (size_t)(cut_at - read_total);
	r = read(fd, buf, n);
	if (r > 0 && corrupt_at >= read_total && corrupt_at < read_total + r)
		((char *)buf)[corrupt_at - read_total] ^= 1;
	if (r > 0)
		read_total += r;
	return r;
}

static int fcntl_bad_size(int fd, int cmd, long arg, long bad, bool eperm)
{
	if (cmd != F_SETPIPE_SZ || arg != bad)
		return fcntl(fd, cmd, arg);
	return eperm ? ifail_with(EPERM) : fcntl(fd, F_GETPIPE_SZ, 0);
}

/* (int)-1 accepted, errno left at EINVAL: a size is no failure. */
static int fcntl_minus_1_accepted_einval(int fd, int cmd, long arg)
{
	int r = fcntl_bad_size(fd, cmd, arg, (long)(int)-1, false);

	if (cmd == F_SETPIPE_SZ && arg == (long)(int)-1)
		errno = EINVAL;
	return r;
}

static int fcntl_minus_1_accepted(int fd, int cmd, long arg)
{
	return fcntl_bad_size(fd, cmd, arg, (long)(int)-1, false);
}

static int fcntl_2g_eperm(int fd, int cmd, long arg)
{
	return fcntl_bad_size(fd, cmd, arg, (long)((1UL << 31) + 1), true);
}

/* F_GETPIPE_SZ / F_SETPIPE_SZ on a regular file: the size, or EINVAL. */
static bool is_regular_fd(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

static int fcntl_file(int fd, int cmd, long arg, int which, bool einval)
{
	if (cmd != which || !is_regular_fd(fd))
		return fcntl(fd, cmd, arg);
	if (einval)
		return ifail_with(EINVAL);
	return (int)page_size();
}

static int fcntl_file_get_size(int fd, int cmd, long arg)
{
	return fcntl_file(fd, cmd, arg, F_GETPIPE_SZ, false);
}

static int fcntl_file_set_size(int fd, int cmd, long arg)
{
	return fcntl_file(fd, cmd, arg, F_SETPIPE_SZ, false);
}

/* F_GETPIPE_SZ on a regular file says a size, errno left at EBADF. */
static int fcntl_file_get_size_ebadf(int fd, int cmd, long arg)
{
	int r = fcntl_file(fd, cmd, arg, F_GETPIPE_SZ, false);

	if (cmd == F_GETPIPE_SZ && is_regular_fd(fd))
		errno = EBADF;
	return r;
}

static int fcntl_file_get_einval(int fd, int cmd, long arg)
{
	return fcntl_file(fd, cmd, arg, F_GETPIPE_SZ, true);
}

/* ---- FC-05: the max+1 errno, the max, the privileged 2*max, a hang ---- */

static long pipe_max(void)
{
	return pb_check_proc_long("/proc/sys/fs/pipe-max-size");
}

static int fcntl_max_plus_1_einval(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	if (cmd == F_SETPIPE_SZ && arg == pipe_max() + 1 && r < 0 && errno == EPERM)
		errno = EINVAL;
	return r;
}

static int fcntl_max_gives_half(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	return cmd == F_SETPIPE_SZ && arg == pipe_max() && r > 0 ? r / 2 : r;
}

static int fcntl_priv_2max(int fd, int cmd, long arg, bool less_1)
{
	int r = fcntl(fd, cmd, arg);

	if (cmd != F_SETPIPE_SZ || arg != 2 * pipe_max() || geteuid() != 0)
		return r;
	return less_1 ? (r > 0 ? r - 1 : r) : ifail_with(EPERM);
}

static int fcntl_priv_2max_eperm(int fd, int cmd, long arg)
{
	return fcntl_priv_2max(fd, cmd, arg, false);
}

static int fcntl_priv_2max_less_1(int fd, int cmd, long arg)
{
	return fcntl_priv_2max(fd, cmd, arg, true);
}

/* As uid 65534 F_SETPIPE_SZ never returns. */
static int fcntl_unpriv_hangs(int fd, int cmd, long arg)
{
	if (cmd == F_SETPIPE_SZ && geteuid() != 0)
		for (;;)
			pause();
	return fcntl(fd, cmd, arg);
}

/* ---- FC-06: each fcntl of the setup, SIGIO too early, pre-5.14 ---- */

static int fcntl_fails(int fd, int cmd, long arg, int which, int err)
{
	if (cmd == which && is_pipe_fd(fd) && (which != F_SETFL || (arg & O_ASYNC)))
		return ifail_with(err);
	return fcntl(fd, cmd, arg);
}

static int fcntl_setown_einval(int fd, int cmd, long arg)
{
	return fcntl_fails(fd, cmd, arg, F_SETOWN, EINVAL);
}

static int fcntl_getfl_eio(int fd, int cmd, long arg)
{
	return fcntl_fails(fd, cmd, arg, F_GETFL, EIO);
}

static int fcntl_setfl_async_eio(int fd, int cmd, long arg)
{
	return fcntl_fails(fd, cmd, arg, F_SETFL, EIO);
}

static int fcntl_async_raises_sigio(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	if (r == 0 && cmd == F_SETFL && (arg & O_ASYNC))
		kill(getpid(), SIGIO);
	return r;
}

/* Before 5.14 only an empty pipe's first write signals: the second
 * one-byte write's SIGIO is taken off the pending set. */
static ssize_t write_pre_5_14(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	if (r == 1 && n == 1 && is_pipe_fd(fd) && ++calls == 2) {
		struct timespec zero = { 0, 0 };
		sigset_t io;

		sigemptyset(&io);
		sigaddset(&io, SIGIO);
		PB_KEEP_ERRNO(sigtimedwait(&io, NULL, &zero));
	}
	return r;
}

/* ---- the table ---- */

enum need {
	ANY,       /* any environment */
	AS_ROOT,   /* root in the initial user namespace with CAP_SYS_RESOURCE:
		    * FC-05 asks as uid 65534 and then as the privileged caller */
	NEW_KERNEL /* Linux 5.14 or later (every write into a pipe signals) */
};

static const struct {
	const char *id;
	enum pb_kind kind;
	struct pb_sysops sys;  /* the calls broken; the rest are real */
	bool lawful;           /* must not FAIL or ERROR; else must FAIL */
	const char *phrase;    /* the detail must hold this (end with it: "...$") */
	enum need need;
} cases[] = {
	/* CRE-07: the bad pointer, then the read-only page, each condition */
	{ "CRE-07", 0, { .pipe2 = pipe2_bad_ptr_succeeds }, false, "pipe2((int *)8) succeeded", ANY },
	{ "CRE-07", 0, { .pipe2 = pipe2_bad_ptr_einval }, false,
	  "pipe2((int *)8) = -1/EINVAL, not EFAULT", ANY },
	{ "CRE-07", 0, { .pipe2 = pipe2_ro_succeeds }, false, "pipe2(a PROT_READ page) succeeded", ANY },
	{ "CRE-07", 0, { .pipe2 = pipe2_ro_eio }, false,
	  "pipe2(a PROT_READ page) = -1/EIO, not EFAULT", ANY },
	{ "CRE-07", 0, { .pipe2 = pipe2_ro_leaks }, false,
	  "pipe2(a PROT_READ page): open fds", ANY },
	{ "CRE-07", 0, { 0 }, true, "(int *)8 and a read-only page: -1/EFAULT", ANY },
	/* CRE-08: too few, an unopened slot (each), a leak on close, O_DIRECT */
	{ "CRE-08", 0, { .pipe2 = pipe2_one_fd }, false,
	  "fewer than two new descriptors are open", ANY },
	{ "CRE-08", 0, { .pipe2 = pipe2_bogus_read_slot }, false, "but fd 250 is not open", ANY },
	{ "CRE-08", 0, { .pipe2 = pipe2_bogus_read_slot }, false, "pipe2(fd, 0) returned {250,", ANY },
	{ "CRE-08", 0, { .pipe2 = pipe2_bogus_write_slot }, false, "but fd 251 is not open", ANY },
	{ "CRE-08", 0, { .close = close_keeps_ref }, false,
	  "after pipe() and closing both ends", ANY },
	{ "CRE-08", 0, { .pipe2 = pipe2_no_direct }, true, "; O_DIRECT not supported", ANY },
	{ "CRE-08", 0, { .pipe2 = pipe2_direct_eio }, false, "pipe2(O_DIRECT) = -1/EIO", ANY },
	{ "CRE-08", 0, { .pipe2 = pipe2_cloexec_einval }, false, "pipe2(O_CLOEXEC) = -1/EINVAL", ANY },
	{ "CRE-08", 0, { 0 }, true, "5 calls (pipe(), pipe2() with 0, O_CLOEXEC, O_NONBLOCK, "
	  "O_DIRECT)", ANY },
	/* CRE-09: mkfifo, each open, the closes */
	{ "CRE-09", 0, { .mkfifo = mkfifo_leaves_fd }, false, "mkfifo opened nothing", ANY },
	{ "CRE-09", 0, { .open = open_fifo_eio }, false,
	  "O_RDONLY|O_NONBLOCK) = -1/EIO; POSIX requires a descriptor (a nonblocking", ANY },
	{ "CRE-09", 0, { .open = open_fifo_wronly_eio }, false,
	  "O_WRONLY|O_NONBLOCK) = -1/EIO; POSIX requires a descriptor (a reader is open)", ANY },
	{ "CRE-09", 0, { .open = open_wronly_gives_spare }, false, "no new descriptor is open", ANY },
	{ "CRE-09", 0, { .open = open_wronly_extra_fd }, false,
	  "open(FIFO, O_WRONLY|O_NONBLOCK) returned fd", ANY },
	{ "CRE-09", 0, { .close = close_keeps_ref }, false, "opening both ends and closing them", ANY },
	/* CRE-10: close failing on each end, the fd still open, each kind */
	{ "CRE-10", 0, { .close = close_eio }, false, "close of the pipe's read end (fd", ANY },
	{ "CRE-10", 0, { .close = close_write_end_eio }, false, "close of the pipe's write end (fd", ANY },
	{ "CRE-10", 0, { .close = close_write_end_keeps_ref }, false,
	  "close of the pipe's write end (fd", ANY },
	{ "CRE-10", 0, { .close = close_spare_instead }, false, "the fd is still open", ANY },
	{ "CRE-10", 0, { .close = pb_test_close_0_dies }, true, "dropped the open count by one", ANY },
	{ "CRE-10", PB_KIND_FIFO, { .close = pb_test_close_0_dies }, true, "dropped the open count by one",
	  ANY },
	{ "CRE-10", PB_KIND_FIFO, { .close = close_eio }, false, "close of the FIFO's read end (fd", ANY },
	{ "CRE-10", PB_KIND_FIFO, { .close = close_write_end_keeps_ref }, false,
	  "FIFO's write end (fd", ANY },
	/* RD-04: an error at once, a count with EINTR, the 300 ms timer */
	{ "RD-04", 0, { .read = read_empty_eio_at_once }, false,
	  "returned -1/EIO instead of blocking", ANY },
	{ "RD-04", 0, { .read = read_eintr_says_1 }, false, "returned 1 instead of blocking", ANY },
	{ "RD-04", 0, { .read = read_timer_300 }, true, "until the 300 ms SIGALRM (EINTR)", ANY },
	{ "RD-04", PB_KIND_FIFO, { .read = read_empty_eio_at_once }, false,
	  "blocking read of an empty FIFO with a writer returned -1/EIO", ANY },
	/* RD-05: before the signal, after it, after 'X'; the write of 'X' */
	{ "RD-05", 0, { .read = read_early_eio }, false, "read() returned -1/EIO before", ANY },
	{ "RD-05", 0, { .read = read_early_eintr }, false, "read() returned -1/EINTR before any data "
	  "was written or any signal sent despite SA_RESTART", ANY },
	{ "RD-05", 0, { .read = read_early_eio }, false, "or any signal sent$", ANY },
	{ "RD-05", 0, { .read = read_early_byte }, false, "read() returned 1 byte(s) before", ANY },
	{ "RD-05", 0, { .read = read_byte_after_signal }, false, "returned 1 byte", ANY },
	{ "RD-05", 0, { .read = read_x_as_y }, false, "the restarted read() returned 1 byte, not 'X'", ANY },
	{ "RD-05", 0, { .read = read_x_eio }, false, "the restarted read() returned -1/EIO", ANY },
	{ "RD-05", 0, { .read = read_x_eof }, false, "the restarted read() returned 0 (EOF)", ANY },
	{ "RD-05", 0, { .read = read_x_dies }, false, "the reader died (status 0x9)", ANY },
	{ "RD-05", 0, { .read = read_x_swallowed }, false, "the reader never returned", ANY },
	{ "RD-05", 0, { .read = read_x_eio_marks, .close = close_stray }, false,
	  "the restarted read() returned -1/EIO", ANY },
	{ "RD-05", 0, { .write = write_x_eio }, false,
	  "write of 1 byte ('X') into the empty pipe with a reader = -1/EIO", ANY },
	{ "RD-05", 0, { 0 }, true, "read() restarted after the SA_RESTART handler and returned 'X'", ANY },
	/* RD-07: all readers, or one, get EIO; one stays asleep */
	{ "RD-07", 0, { .read = read_eof_eio }, false,
	  "0 of 6 readers saw EOF, 0 stayed asleep, 6 got something else", ANY },
	{ "RD-07", 0, { .read = read_one_eof_eio }, false,
	  "5 of 6 readers saw EOF, 0 stayed asleep, 1 got something else", ANY },
	{ "RD-07", 0, { .read = read_one_eof_hangs }, false,
	  "5 of 6 readers saw EOF, 1 stayed asleep, 0 got something else", ANY },
	{ "RD-07", PB_KIND_FIFO, { .read = read_one_eof_eio }, false, "1 got something else", ANY },
	{ "RD-07", 0, { 0 }, true, "6/6 blocked readers woke with EOF", ANY },
	/* NB-02: EIO, a count with EAGAIN, blocking; the FIFO */
	{ "NB-02", 0, { .write = write_big_eio }, false, "full pipe: write(3*PIPE_BUF) = -1/EIO", ANY },
	{ "NB-02", 0, { .write = write_big_one }, false, "full pipe: write(3*PIPE_BUF) = 1", ANY },
	{ "NB-02", 0, { .write = write_big_one_eintr }, false, "full pipe: write(3*PIPE_BUF) = 1$",
	  ANY },
	{ "NB-02", 0, { .write = write_big_blocks }, false, "= -1/EINTR (it blocked)", ANY },
	{ "NB-02", PB_KIND_FIFO, { .write = write_big_eio }, false,
	  "full FIFO: write(3*PIPE_BUF) = -1/EIO", ANY },
	/* FIFO-01 */
	{ "FIFO-01", 0, { .stat = stat_fifo_size_5 }, false, "st_size 5, expected 0", ANY },
	{ "FIFO-01", 0, { .stat = stat_new_fifo_eio }, false, "stat of the new FIFO", ANY },
	{ "FIFO-01", 0, { .mkfifo = mkfifo_repeat_succeeds }, false,
	  "repeated mkfifo: success, expected EEXIST", ANY },
	{ "FIFO-01", 0, { .mkfifo = mkfifo_missing_dir_eacces }, false,
	  "mkfifo in a missing directory: EACCES, expected ENOENT", ANY },
	{ "FIFO-01", 0, { .mknod = mknod_eperm }, false, ": Operation not permitted", ANY },
	{ "FIFO-01", 0, { .mknod = mknod_mode_0644 }, false, "made mode 010644", ANY },
	{ "FIFO-01", 0, { .mknod = mknod_regular }, false, "made mode 0100600", ANY },
	{ "FIFO-01", 0, { .stat = stat_node_eio }, false, " made mode ", ANY },
	/* FIFO-02..04 */
	{ "FIFO-02", 0, { .open = open_fifo_eio }, false, "O_RDONLY|O_NONBLOCK failed: EIO", ANY },
	{ "FIFO-03", 0, { .open = open_enxio_as_eagain }, false,
	  "without a reader: EAGAIN, expected ENXIO", ANY },
	{ "FIFO-03", 0, { .open = open_rdonly_nb_eio }, false, "reader open O_RDONLY|O_NONBLOCK: EIO", ANY },
	{ "FIFO-03", 0, { .open = open_wronly_nb_enxio }, false,
	  "O_WRONLY|O_NONBLOCK with a reader: ENXIO", ANY },
	{ "FIFO-04", 0, { .open = open_wronly_nonblock }, false,
	  "O_WRONLY with no reader: ENXIO, expected to block", ANY },
	{ "FIFO-04", 0, { .open = open_wronly_rdwr }, false, "O_WRONLY with no reader returned at once", ANY },
	{ "FIFO-04", 0, { .open = open_rdonly_eio }, false,
	  "O_RDONLY with no writer: EIO, expected to block", ANY },
	/* FIFO-05 */
	{ "FIFO-05", 0, { .open = open_wronly_eio }, false, "the writer's blocking open: EIO", ANY },
	{ "FIFO-05", 0, { .write = write_3_short }, false, "write of 3 bytes returned 2", ANY },
	{ "FIFO-05", 0, { .read = read_flips_last }, false, "the reader did not get \"abc\"", ANY },
	{ "FIFO-05", 0, { .open = open_reader_takes_data }, false,
	  "the reader's blocking open never completed", ANY },
	{ "FIFO-05", 0, { .read = read_kills_reader }, false, "the reader child did not finish", ANY },
	/* FIFO-06 */
	{ "FIFO-06", 0, { .open = open_rdwr_nb_eio }, false, "O_RDWR|O_NONBLOCK: EIO", ANY },
	{ "FIFO-06", 0, { .open = open_rdwr_eio, .close = pb_test_close_0_dies }, false,
	  "blocking O_RDWR: EIO", ANY },
	{ "FIFO-06", 0, { .open = open_wronly_nb_enxio }, false,
	  "O_WRONLY|O_NONBLOCK with only an O_RDWR opener: ENXIO", ANY },
	{ "FIFO-06", 0, { .write = write_3_short }, false,
	  "write through the O_RDWR descriptor returned 2", ANY },
	{ "FIFO-06", 0, { .read = read_one_short }, false, "looping 3 bytes to itself read back 2", ANY },
	{ "FIFO-06", 0, { .read = read_flips_last }, false, "looping 3 bytes to itself read back 3", ANY },
	/* FIFO-07 */
	{ "FIFO-07", 0, { .read = read_eagain_says_5 }, false,
	  "nonblocking read with a writer present: 5", ANY },
	{ "FIFO-07", 0, { .open = open_wronly_nb_eio }, false, "writer open: EIO", ANY },
	{ "FIFO-07", 0, { .write = write_32k_eio }, false,
	  "write(32 KiB) into a full FIFO: -1 (EIO), expected -1/EAGAIN", ANY },
	{ "FIFO-07", 0, { .write = write_32k_one }, false, "write(32 KiB) into a full FIFO: 1 (", ANY },
	/* FIFO-08 */
	{ "FIFO-08", 0, { .write = write_5_short }, false, "write of 5 bytes returned 4", ANY },
	{ "FIFO-08", 0, { .fstat = fstat_ino_plus_1 }, false, "fstat(fd) inode", ANY },
	{ "FIFO-08", 0, { .fstat = fstat_dev_plus_1 }, false, "fstat(fd) inode", ANY },
	{ "FIFO-08", 0, { .fstat = fstat_size_5 }, false, "st_size grew with writes: fstat 5, stat 0", ANY },
	{ "FIFO-08", 0, { .stat = stat_fifo_size_5 }, false,
	  "st_size grew with writes: fstat 0, stat 5", ANY },
	{ "FIFO-08", 0, { .fstat = fstat_eio }, false, "fstat/stat: ", ANY },
	{ "FIFO-08", 0, { .stat = stat_fifo_eio }, false, "fstat/stat: ", ANY },
	{ "FIFO-08", 0, { .fcntl = fcntl_pipe_sz_0 }, false, "F_GETPIPE_SZ on a FIFO: 0", ANY },
	{ "FIFO-08", 0, { .fcntl = fcntl_pipe_sz_1 }, true, "F_GETPIPE_SZ 1;", ANY },
	{ "FIFO-08", 0, { .ioctl = ioctl_fionread_less_1 }, false,
	  "FIONREAD on a FIFO: 4, expected 5", ANY },
	{ "FIFO-08", 0, { .ioctl = ioctl_fionread_fails }, false,
	  "FIONREAD on a FIFO: 5, expected 5", ANY },
	{ "FIFO-08", 0, { .lseek = lseek_succeeds }, false, "lseek on a FIFO: 0 (success)", ANY },
	{ "FIFO-08", 0, { .lseek = lseek_einval }, false, "lseek on a FIFO: -1 (EINVAL)", ANY },
	/* FC-04 */
	{ "FC-04", 0, { .fcntl = fcntl_size_after_ebusy }, false, "after EBUSY: size", ANY },
	{ "FC-04", 0, { .ioctl = ioctl_fionread_plus_1 }, false, "after EBUSY: size", ANY },
	{ "FC-04", 0, { .ioctl = ioctl_fionread_enotty }, false, "FIONREAD -1 (was", ANY },
	{ "FC-04", 0, { .fcntl = fcntl_set_4_pages_eio }, false, "): EIO, expected", ANY },
	{ "FC-04", 0, { .fcntl = fcntl_set_4_pages_plus_1 }, false, ") returned", ANY },
	{ "FC-04", 0, { .fcntl = fcntl_read_end_plus_1 }, false, "but the other end reads", ANY },
	{ "FC-04", 0, { .read = read_counted }, false, "data changed by the resizes", ANY },  /* cut */
	{ "FC-04", 0, { .read = read_counted }, false, "data changed by the resizes", ANY },  /* page 1 */
	{ "FC-04", 0, { .read = read_counted }, false, "data changed by the resizes", ANY },  /* page 2 */
	{ "FC-04", 0, { .read = read_counted }, false, "data changed by the resizes", ANY },  /* page 3 */
	{ "FC-04", 0, { .fcntl = fcntl_minus_1_accepted }, false, "F_SETPIPE_SZ((int)-1): ", ANY },
	{ "FC-04", 0, { .fcntl = fcntl_minus_1_accepted_einval }, false, "F_SETPIPE_SZ((int)-1): ",
	  ANY },
	{ "FC-04", 0, { .fcntl = fcntl_2g_eperm }, false,
	  "F_SETPIPE_SZ((1U<<31)+1): -1 (EPERM), expected -1/EINVAL", ANY },
	{ "FC-04", 0, { .fcntl = fcntl_file_get_size }, false, "F_GETPIPE_SZ on a regular file: ", ANY },
	{ "FC-04", 0, { .fcntl = fcntl_file_set_size }, false, "F_SETPIPE_SZ on a regular file: ", ANY },
	{ "FC-04", 0, { .fcntl = fcntl_file_get_size_ebadf }, false,
	  "F_GETPIPE_SZ on a regular file: ", ANY },
	{ "FC-04", 0, { .fcntl = fcntl_file_get_einval }, false,
	  "F_GETPIPE_SZ on a regular file: -1 (EINVAL), expected -1/EBADF", ANY },
	{ "FC-04", PB_KIND_FIFO, { .fcntl = fcntl_size_after_ebusy }, false, "after EBUSY: size", ANY },
	/* a kernel that does all of it: the pass says what was seen */
	{ "FC-04", 0, { 0 }, true, "EBUSY below the occupied slots (size and data kept), 4 pages "
	  "then set; EINVAL for (1U<<31)+1 and -1; EBADF on a regular file", ANY },
	/* FC-05 */
	{ "FC-05", 0, { .fcntl = fcntl_max_plus_1_einval }, false,
	  "F_SETPIPE_SZ(max+1) failed with an errno other than EPERM", ANY },
	{ "FC-05", 0, { .fcntl = fcntl_max_gives_half }, false, "F_SETPIPE_SZ(max) did not give max", ANY },
	{ "FC-05", 0, { .fcntl = fcntl_priv_2max_eperm }, false,
	  "with CAP_SYS_RESOURCE F_SETPIPE_SZ(2*", AS_ROOT },
	{ "FC-05", 0, { .fcntl = fcntl_priv_2max_less_1 }, false,
	  "with CAP_SYS_RESOURCE F_SETPIPE_SZ(2*", AS_ROOT },
	{ "FC-05", 0, { .fcntl = fcntl_unpriv_hangs }, false,
	  "as uid 65534: F_SETPIPE_SZ did not return within 3 s", AS_ROOT },
	{ "FC-05", 0, { 0 }, true, "unprivileged side: pass as uid 65534; privileged side: pass",
	  AS_ROOT },
	/* FC-06 */
	{ "FC-06", 0, { .fcntl = fcntl_setown_einval }, false,
	  "F_SETOWN/F_SETFL O_ASYNC on the read end: EINVAL", ANY },
	{ "FC-06", 0, { .fcntl = fcntl_getfl_eio }, false,
	  "F_SETOWN/F_SETFL O_ASYNC on the read end: EIO", ANY },
	{ "FC-06", 0, { .fcntl = fcntl_setfl_async_eio }, false,
	  "F_SETOWN/F_SETFL O_ASYNC on the read end: EIO", ANY },
	{ "FC-06", 0, { .fcntl = fcntl_async_raises_sigio }, false,
	  "SIGIO was pending before any write", ANY },
	{ "FC-06", 0, { .write = write_pre_5_14 }, true,
	  "a second write into a non-empty pipe does not signal (pre-5.14 behaviour)", ANY },
	{ "FC-06", 0, { 0 }, true, "a second write into a non-empty pipe signals again (5.14+)",
	  NEW_KERNEL },
	/* FIFO-03 whose writer opens without a reader: FAIL, the writer closed */
	{ "FIFO-03", 0, { .open = open_wronly_nb_succeeds }, false,
	  "O_WRONLY|O_NONBLOCK succeeded without a reader", ANY },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* Root in the initial user namespace (uid_map maps all of 0..2^32-2),
 * holding CAP_SYS_RESOURCE and CAP_SETUID there. */
static bool root_in_init_ns(void)
{
	FILE *f = fopen("/proc/self/uid_map", "re");
	unsigned long a = 1, b = 1, n = 0;
	bool full;

	if (!f)
		return false;
	full = fscanf(f, "%lu %lu %lu", &a, &b, &n) == 3 && a == 0 && b == 0 &&
	       n == 4294967295UL;
	fclose(f);
	return full && geteuid() == 0 && pb_check_has_limit_cap(PB_CAP_SYS_RESOURCE) &&
	       pb_check_has_cap(PB_CAP_SETUID);
}

static bool kernel_5_14(void)
{
	struct utsname u;
	int ma = 0, mi = 0;

	return uname(&u) == 0 && sscanf(u.release, "%d.%d", &ma, &mi) == 2 &&
	       (ma > 5 || (ma == 5 && mi >= 14));
}

/* FC-04's read_counted rows, in order: EOF after 2 pages, then a byte
 * flipped in page 1, 2, 3. */
static void set_read_counted(int i)
{
	long page = page_size();
	int first = -1;

	for (size_t k = 0; k < NCASES; k++)
		if (cases[k].sys.read == read_counted) {
			first = (int)k;
			break;
		}
	read_total = 0;
	cut_at = corrupt_at = -1;
	if (cases[i].sys.read != read_counted)
		return;
	if (i == first)
		cut_at = 2 * page;
	else
		corrupt_at = (i - first - 1) * page + 10;
}

/* PHRASE in DETAIL; a PHRASE ending in '$' must end it. */
static bool has_phrase(const char *detail, const char *phrase)
{
	size_t d = strlen(detail), p = strlen(phrase);

	if (p == 0 || phrase[p - 1] != '$')
		return strstr(detail, phrase) != NULL;
	return d >= p - 1 && strncmp(detail + d - (p - 1), phrase, p - 1) == 0;
}

/*
 * Every descriptor a check gets from open() it closes, on every path (a
 * FAIL's too): later_condition counts them per descriptor number in memory
 * shared with the check's process (the child of this test's; a helper the
 * check forks ends with _exit, which closes what it had), around the row's
 * own open and close.
 */
static int *opened;                      /* [256], shared */
static pid_t test_pid;
static int (*inner_open)(const char *path, int flags, mode_t mode);
static int (*inner_close)(int fd);

static int counted_open(const char *path, int flags, mode_t mode)
{
	int fd = inner_open(path, flags, mode);

	if (fd >= 0 && fd < 256 && getppid() == test_pid)
		__atomic_add_fetch(&opened[fd], 1, __ATOMIC_SEQ_CST);
	return fd;
}

static int counted_close(int fd)
{
	if (fd >= 0 && fd < 256 && getppid() == test_pid && __atomic_load_n(&opened[fd], __ATOMIC_SEQ_CST) > 0)
		__atomic_sub_fetch(&opened[fd], 1, __ATOMIC_SEQ_CST);
	return inner_close(fd);
}

START_TEST(later_condition)
{
	const struct pb_check *c = pb_test_find_check(cases[_i].id);
	struct pb_sysops s = pb_test_sysops(&cases[_i].sys);
	struct pb_run_opts o = { .sys = &s, .kind = cases[_i].kind, .timeout_s = 60 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);  /* descriptor 0 is open: pb_test_sysops saw to it */
	close(NOT_OPEN);
	close(NOT_OPEN + 1);
	if ((cases[_i].need == AS_ROOT && !root_in_init_ns()) ||
	    (cases[_i].need == NEW_KERNEL && !kernel_5_14()))
		return;
	spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(spare, 0);
	opened = mmap(NULL, 256 * sizeof(*opened), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	ck_assert_ptr_ne(opened, MAP_FAILED);
	test_pid = getpid();
	inner_open = s.open;
	inner_close = s.close;
	s.open = counted_open;
	s.close = counted_close;
	stray = mmap(NULL, sizeof(*stray), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		     0);
	ck_assert_ptr_ne(stray, MAP_FAILED);
	*stray = 0;
	reader_returned = false;
	shared_count = mmap(NULL, sizeof(*shared_count), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(shared_count, MAP_FAILED);
	*shared_count = 0;
	calls = 0;
	busy_seen = false;
	set_read_counted(_i);
	if (!cases[_i].lawful)  /* a row that FAILs: its waits run out a quarter as long */
		pb_fast_time_on();
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	pb_fast_time_off();
	if (getenv("PB_TEST_VERBOSE"))
		fprintf(stderr, "# %s case %d: %s: %s\n", cases[_i].id, _i,
			pb_verdict_names[r.verdict], r.detail);
	if (cases[_i].lawful)
		ck_assert_msg(r.verdict != PB_FAIL && r.verdict != PB_ERROR, "%s case %d (lawful): "
			      "%s: %s", cases[_i].id, _i, pb_verdict_names[r.verdict], r.detail);
	else
		ck_assert_msg(r.verdict == PB_FAIL, "%s case %d: %s: %s", cases[_i].id, _i,
			      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(has_phrase(r.detail, cases[_i].phrase), "%s case %d: '%s' lacks '%s'",
		      cases[_i].id, _i, r.detail, cases[_i].phrase);
	if (!cases[_i].lawful)
		pb_test_detail_is("conditions_fifo.later_condition", _i, r.detail);
	ck_assert_msg(*stray == 0, "%s case %d: the reader made %d judged calls after its read "
		      "returned", cases[_i].id, _i, *stray);
	for (int fd = 0; fd < 256; fd++)
		ck_assert_msg(opened[fd] == 0, "%s case %d: descriptor %d from open() left open",
			      cases[_i].id, _i, fd);
	munmap(opened, 256 * sizeof(*opened));
	munmap(stray, sizeof(*stray));
	ck_assert_msg(!r.timed_out, "%s case %d: the watchdog, not the check, decided",
		      cases[_i].id, _i);
	munmap(shared_count, sizeof(*shared_count));
}
END_TEST

/*
 * CRE-07 compares descriptor counts only when /proc/self/fd could count
 * them.  A listing that counts nothing (-1 after the stream's own entry) is
 * no count: here /proc is a tmpfs of this test's own mount namespace, whose
 * self/fd directory starts empty, and a pipe2 that fails with EFAULT adds
 * an entry each time; the check must not call that a leak (open fds -1 ->
 * 0 is no count), and says the counts it saw.
 */
static int pipe2_efault_adds_entry(int fd[2], int flags)
{
	static int n;
	char path[64];

	(void)fd, (void)flags;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", 100 + n++);
	close(open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
	errno = EFAULT;
	return -1;
}

START_TEST(cre07_without_a_count)
{
	const struct pb_check *c = pb_test_find_check("CRE-07");
	struct pb_sysops broken = { .pipe2 = pipe2_efault_adds_entry };
	struct pb_sysops s = pb_test_sysops(&broken);
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);
	/* Needs CAP_SYS_ADMIN: a mount namespace of its own (this process only). */
	if (!pb_test_own_tmpfs("/proc", 0)) {
		fprintf(stderr, "# CRE-07 without a count: not run (%s)\n", strerror(errno));
		return;
	}
	ck_assert_int_eq(mkdir("/proc/self", 0755), 0);
	ck_assert_int_eq(mkdir("/proc/self/fd", 0755), 0);
	int rc = pb_conformance_run_one(c, &o, &r);
	/*
	 * The real /proc back before anything can end this process: the
	 * sanitizers' exit-time leak scan reads /proc/self and exits 1
	 * when it finds the empty tmpfs instead.
	 */
	ck_assert_int_eq(umount2("/proc", MNT_DETACH), 0);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(r.verdict != PB_FAIL && r.verdict != PB_ERROR, "%s: %s",
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(strstr(r.detail, "open fds -1 -> 1"), "%s", r.detail);
}
END_TEST

/*
 * The checks that open a FIFO twice in a row (FIFO-03, FIFO-06, FIFO-08)
 * stop at the first open that fails: it is their verdict, named, and the
 * second open is never tried (it would run the check on with one end
 * missing).  The FIFO opens are counted in memory shared with the check.
 */
static int *fifo_opens;

static int open_first_fifo_fails(const char *path, int flags, mode_t mode)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode) && (*fifo_opens)++ == 0) {
		errno = EIO;
		return -1;
	}
	return open(path, flags, mode);
}

START_TEST(second_open_not_tried)
{
	static const char *const ids[] = { "FIFO-03", "FIFO-06", "FIFO-08" };
	const struct pb_check *c = pb_test_find_check(ids[_i]);
	struct pb_sysops broken = { .open = open_first_fifo_fails };
	struct pb_sysops s = pb_test_sysops(&broken);
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_FIFO, .timeout_s = 20 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);
	fifo_opens = mmap(NULL, sizeof(*fifo_opens), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(fifo_opens, MAP_FAILED);
	*fifo_opens = 0;
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_msg(r.verdict == PB_FAIL && strstr(r.detail, "EIO"), "%s: %s: %s", ids[_i],
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(*fifo_opens == 1, "%s: %d FIFO opens after the first failed", ids[_i],
		      *fifo_opens - 1);
	munmap(fifo_opens, sizeof(*fifo_opens));
}
END_TEST

/* FIFO-03's writer open that succeeds without a reader fails the check on
 * every descriptor, 0 included (descriptor 0 closed, the lowest free). */
START_TEST(fifo03_success_on_fd_0)
{
	const struct pb_check *c = pb_test_find_check("FIFO-03");
	/* .close = close: descriptor 0 is freed below and becomes the check's */
	struct pb_sysops broken = { .open = open_wronly_nb_succeeds, .close = close };
	struct pb_sysops s = pb_test_sysops(&broken);
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_FIFO, .timeout_s = 20 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);
	for (int closed = 0; closed < 2; closed++) {
		if (closed)
			close(0);
		ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
		ck_assert_msg(r.verdict == PB_FAIL &&
			      strcmp(r.detail, "O_WRONLY|O_NONBLOCK succeeded without a reader") == 0,
			      "descriptor 0 %s: %s: %s", closed ? "free" : "open",
			      pb_verdict_names[r.verdict], r.detail);
	}
}
END_TEST

/* RD-07 that cannot fork its readers (a fresh uid of this test's own with
 * RLIMIT_NPROC 4: the test, the check and two readers) is a harness error
 * naming the fork, not a verdict on the pipe. */
START_TEST(rd07_fork_fails)
{
	const struct pb_check *c = pb_test_find_check("RD-07");
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct rlimit rl = { 4, 4 };
	uid_t uid = (uid_t)(1600000000u + (unsigned)getpid());
	struct pb_check_result r;

	char dir[] = "/tmp/pb-rd07.XXXXXX";  /* TMPDIR may be root's alone */

	ck_assert_ptr_nonnull(c);
	if (!mkdtemp(dir) || chown(dir, uid, (gid_t)uid) != 0) {
		fprintf(stderr, "# rd07_fork_fails: not run (%s: %s)\n", dir, strerror(errno));
		return;
	}
	if (setgroups(0, NULL) != 0 || setgid((gid_t)uid) != 0 || setuid(uid) != 0) {
		fprintf(stderr, "# rd07_fork_fails: not run (cannot become uid %u: %s)\n",
			(unsigned)uid, strerror(errno));
		rmdir(dir);
		return;
	}
	ck_assert_int_eq(setenv("TMPDIR", dir, 1), 0);
	ck_assert_int_eq(setrlimit(RLIMIT_NPROC, &rl), 0);
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_msg(rmdir(dir) == 0, "%s: %s (left behind)", dir, strerror(errno));
	ck_assert_msg(r.verdict == PB_ERROR && strstr(r.detail, "fork: EAGAIN"), "RD-07: %s: %s",
		      pb_verdict_names[r.verdict], r.detail);
}
END_TEST

PB_CHECK_SUITE_MAIN("conf_conditions_fifo",
	PB_TCASE_LOOP("later_conditions", 90, later_condition, NCASES),
	PB_TCASE_TIMED("no_fd_count", 30, cre07_without_a_count, fifo03_success_on_fd_0,
		       rd07_fork_fails),
	PB_TCASE_LOOP("first_open_fails", 30, second_open_not_tried, 3))
