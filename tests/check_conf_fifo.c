/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The FIFO checks, FIFO-* (src/checks/fifo.c): each one is run through the
 * real runner on this kernel (its verdict must be the catalogue's, and its
 * note exactly what the kernel did) and with a pb_sysops in which one call
 * misbehaves the way a broken kernel would (its verdict must be FAIL): its
 * main bug, each later condition on its own (every descriptor a check gets
 * from open() counted), a setup step (a pipe or FIFO misbehaving there is
 * FAIL; the process out of descriptors is ERROR).  Also what a user
 * namespace hides from FIFO-01, and the checks that open a FIFO twice
 * stopping at the first open that fails.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fast_time.h"  /* first: check_conf.h's row runners use it */
#include "check_conf.h"
#include "check_main.h"
#include "checks/conformance.h"

/* ---- misbehaving system calls, each imitating one kernel or libc bug ---- */

/* mkfifo_regular, mkfifo_eio, open_fifo_eio, open_fifo_emfile,
 * read_one_short, read_flips_last and write_zero_when_full:
 * tests/check_conf.h. */

/* The umask is not applied. */
static int mkfifo_ignores_umask(const char *path, mode_t mode)
{
	return mkfifo(path, mode) == 0 ? chmod(path, mode) : -1;
}

static int open_never_nonblock(const char *path, int flags, mode_t mode)
{
	return open(path, flags & ~O_NONBLOCK, mode);
}

static int open_always_nonblock(const char *path, int flags, mode_t mode)
{
	return open(path, flags | O_NONBLOCK, mode);
}

static int open_wronly_as_rdwr(const char *path, int flags, mode_t mode)
{
	if ((flags & O_ACCMODE) == O_WRONLY)
		flags = (flags & ~O_ACCMODE) | O_RDWR;
	return open(path, flags, mode);
}

static int open_rdwr_as_wronly(const char *path, int flags, mode_t mode)
{
	if ((flags & O_ACCMODE) == O_RDWR)
		flags = (flags & ~O_ACCMODE) | O_WRONLY | O_NONBLOCK;
	return open(path, flags, mode);
}

/* Blocking readers end up on another FIFO: the rendezvous never happens. */
static int open_reader_elsewhere(const char *path, int flags, mode_t mode)
{
	char other[4200];

	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_NONBLOCK))
		return open(path, flags, mode);
	snprintf(other, sizeof(other), "%s.other", path);
	mkfifo(other, 0600);
	return open(other, flags, mode);
}

static ssize_t r_eof_is_eagain(int fd, void *b, size_t n)
{
	ssize_t r = read(fd, b, n);

	if (r == 0) {
		errno = EAGAIN;
		return -1;
	}
	return r;
}
/* ---- a kernel broken the way each row says: FAIL (pb_test_broken) ---- */

static const struct pb_test_broken broken_kernels[] = {
	{ "FIFO-01", "wrong type", .sys.mkfifo = mkfifo_regular },
	{ "FIFO-01", "wrong mode", .sys.mkfifo = mkfifo_ignores_umask },
	{ "FIFO-02", "blocks", .sys.open = open_never_nonblock },
	{ "FIFO-03", "no ENXIO", .sys.open = open_wronly_as_rdwr },
	{ "FIFO-04", "returns at once", .sys.open = open_always_nonblock },
	{ "FIFO-05", "deadlock", .sys.open = open_reader_elsewhere },
	{ "FIFO-06", "ENXIO", .sys.open = open_rdwr_as_wronly },
	{ "FIFO-07", "EAGAIN for EOF", .sys.read = r_eof_is_eagain },
	{ "FIFO-08", "size grows", .sys.mkfifo = mkfifo_regular },
	/* Setup faults: FAIL naming the call, not "error". */
	{ "FIFO-07", "write 0 on a full FIFO", .sys.write = write_zero_when_full,
	  .says = "returned 0" },
	{ "FIFO-02", "mkfifo EIO", .sys.mkfifo = mkfifo_eio, .says = "mkfifo" },
	{ "FIFO-03", "mkfifo EIO", .sys.mkfifo = mkfifo_eio, .says = "mkfifo" },
	{ "FIFO-04", "mkfifo EIO", .sys.mkfifo = mkfifo_eio, .says = "mkfifo" },
	{ "FIFO-05", "mkfifo EIO", .sys.mkfifo = mkfifo_eio, .says = "mkfifo" },
	{ "FIFO-06", "mkfifo EIO", .sys.mkfifo = mkfifo_eio, .says = "mkfifo" },
	{ "FIFO-07", "mkfifo EIO", .sys.mkfifo = mkfifo_eio, .says = "mkfifo" },
	{ "FIFO-08", "mkfifo EIO", .sys.mkfifo = mkfifo_eio, .says = "mkfifo" },
};
#define NBROKEN (int)(sizeof(broken_kernels) / sizeof(broken_kernels[0]))

START_TEST(broken_kernel_fails)
{
	pb_test_broken_kernel_fails(&broken_kernels[_i], _i, "fifo.broken_kernel");
}
END_TEST

/* EMFILE from a FIFO open a check needs is the environment's limit. */
START_TEST(fifo_open_emfile_is_error)
{
	static const char *const ids[] = { "FIFO-06", "FIFO-07", "FIFO-08" };
	struct pb_sysops sys = pb_sysops_real;

	sys.open = open_fifo_emfile;
	pb_test_all_error(ids, sizeof(ids) / sizeof(ids[0]), &sys, ": EMFILE");
}
END_TEST

/*
 * In a user namespace (rootless containers, `unshare -U -r`) the
 * capabilities look complete but uid 65534 is not mapped and setgroups is
 * denied: the part of FIFO-01 that needs that identity is skipped with the
 * reason, and the check passes on what it could test.
 */
START_TEST(user_namespace_skips_the_part)
{
	int st = pb_test_userns_skips("FIFO-01", NULL);

	ck_assert(st == 0 || st == 77);   /* 77: no user namespace here */
}
END_TEST

/*
 * FIFO-06 closes every FIFO descriptor it opens, the writer it opens
 * O_WRONLY|O_NONBLOCK next to the O_RDWR one too, even when that writer is
 * descriptor 0 (the lowest free one, as when standard input is closed):
 * opens and closes of FIFO descriptors are counted in memory shared with
 * the check's process.
 */
struct fifo_fds {
	int open[256];      /* [fd]: opened through the check's open, not closed since */
	int writer_at_0;    /* the writer was handed out as descriptor 0 */
	int opens;          /* FIFO opens that succeeded (open_nth_at_0) */
	int zero_at;        /* which of them is handed out as descriptor 0 */
	int fail_at;        /* which of them is closed and said to fail (EIO) */
	int bad_closes;     /* closes that said EBADF (a descriptor closed twice, -1) */
};
static struct fifo_fds *ff;

static int open_writer_at_0(const char *path, int flags, mode_t mode)
{
	struct stat st;
	bool fifo = stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
	int fd = open(path, flags, mode);

	if (fd > 0 && fifo && (flags & O_ACCMODE) == O_WRONLY && dup3(fd, 0, O_CLOEXEC) == 0) {
		close(fd);
		fd = 0;
		ff->writer_at_0 = 1;
	}
	if (fd >= 0 && fd < 256 && fifo)
		ff->open[fd]++;
	return fd;
}

static int close_counted_fifo(int fd)
{
	int r;

	if (fd >= 0 && fd < 256 && ff->open[fd] > 0)
		ff->open[fd]--;
	r = close(fd);
	if (r < 0 && errno == EBADF)
		ff->bad_closes++;
	return r;
}

START_TEST(fifo06_closes_writer_at_0)
{
	struct pb_sysops sys = pb_sysops_real;
	struct pb_check_result r;
	int left = 0;

	ff = mmap(NULL, sizeof(*ff), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(ff, MAP_FAILED);
	memset(ff, 0, sizeof(*ff));
	sys.open = open_writer_at_0;
	sys.close = close_counted_fifo;
	r = pb_test_run("FIFO-06", &sys, PB_KIND_ANON, 0);
	ck_assert_msg(r.verdict == PB_PASS, "FIFO-06: %s: %s", pb_verdict_names[r.verdict],
		      r.detail);
	ck_assert(ff->writer_at_0);
	for (int fd = 0; fd < 256; fd++)
		left += ff->open[fd];
	ck_assert_msg(left == 0 && ff->open[0] == 0, "FIFO-06 left %d FIFO descriptors open "
		      "(descriptor 0: %d)", left, ff->open[0]);
	munmap(ff, sizeof(*ff));
}
END_TEST

/* ---- the verdict on this kernel (pb_test_expect) ---- */

static const struct pb_test_expect here[] = {
	{ "FIFO-01", PB_PASS, PB_PASS },
	{ "FIFO-02", PB_PASS, PB_PASS },
	{ "FIFO-03", PB_PASS, PB_PASS },
	{ "FIFO-04", PB_PASS, PB_PASS },
	{ "FIFO-05", PB_PASS, PB_PASS },
	{ "FIFO-06", PB_PASS, PB_PASS },
	{ "FIFO-07", PB_PASS, PB_PASS },
	{ "FIFO-08", PB_PASS, PB_PASS },
};
#define NHERE (int)(sizeof(here) / sizeof(here[0]))

/* The first also asks that every check has a row, and one only. */
START_TEST(this_kernel)
{
	if (_i == 0) {
		pb_test_every_check_has_a_row(pb_checks_fifo, here, NHERE, sizeof(here[0]),
					      "this-kernel");
		ck_assert_int_eq(NHERE, pb_test_group_size(pb_checks_fifo));
	}
	pb_test_this_kernel(&here[_i]);
}
END_TEST

/* ---- later conditions, every descriptor from open() counted (pb_test_counted) ---- */

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

/* A write of 3 that queues a 4th byte and says 3. */
static ssize_t write_3_queues_4(int fd, const void *buf, size_t n)
{
	char four[4];
	ssize_t r;

	if (n != 3 || !is_pipe_fd(fd))
		return write(fd, buf, n);
	memcpy(four, buf, 3);
	four[3] = '!';
	r = write(fd, four, 4);
	return r == 4 ? 3 : r;
}
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

/* The checks' FIFOs are their own: read and write for the owner, nothing
 * for group or others (asked of mkfifo; one asked otherwise kills). */
static int mkfifo_private_only(const char *path, mode_t mode)
{
	if ((mode & 07777) != 0600)
		raise(SIGKILL);
	return mkfifo(path, mode);
}

/* FIFO-01 says "0666 & ~umask 022": every mkfifo it makes is under that
 * umask (one made under another kills). */
static int mkfifo_umask_022(const char *path, mode_t mode)
{
	mode_t m = umask(022);

	umask(m);
	if (m != 022)
		raise(SIGKILL);
	return mkfifo(path, mode);
}

/* FIFO-01: the new FIFO's mode has the others' execute bit (0645); the
 * repeated mkfifo says 0 with a stale EEXIST in errno, or fails with
 * EACCES; the one in a missing directory says 0 with a stale ENOENT; FIFO-01 makes only its two FIFOs (one asked of another path
 * kills). */
static int stat_made_fifo_0645(const char *path, struct stat *st)
{
	int r = stat(path, st);

	if (r == 0 && ends_with(path, "/made.fifo") && S_ISFIFO(st->st_mode))
		st->st_mode |= 01;
	return r;
}

static int mkfifo_repeat_0_eexist(const char *path, mode_t mode)
{
	if (is_fifo_path(path)) {
		errno = EEXIST;
		return 0;
	}
	return mkfifo(path, mode);
}

static int mkfifo_repeat_eacces(const char *path, mode_t mode)
{
	return is_fifo_path(path) ? ifail_with(EACCES) : mkfifo(path, mode);
}

static int mkfifo_missing_0_enoent(const char *path, mode_t mode)
{
	if (ends_with(path, "/no/such/dir.fifo")) {
		errno = ENOENT;
		return 0;
	}
	return mkfifo(path, mode);
}

/* The mknod'd node has the others' execute bit (0601). */
static int stat_node_0601(const char *path, struct stat *st)
{
	int r = stat(path, st);

	if (r == 0 && ends_with(path, "/node") && S_ISFIFO(st->st_mode))
		st->st_mode |= 01;
	return r;
}

static int mkfifo_two_names_only(const char *path, mode_t mode)
{
	if (!ends_with(path, "/made.fifo") && !ends_with(path, "/no/such/dir.fifo"))
		raise(SIGKILL);
	return mkfifo(path, mode);
}

/* No interrupt timer is left running once a guarded open is over (the
 * check closes what it opened): one still armed kills. */
static int close_no_timer_armed(int fd)
{
	struct itimerval it;

	if (getitimer(ITIMER_REAL, &it) == 0 && (it.it_value.tv_sec || it.it_value.tv_usec))
		raise(SIGKILL);
	return close(fd);
}

/* A write of 3 bytes says 3 and queues nothing: the read after it would
 * block (until the check's timer interrupts it). */
static ssize_t write_3_queues_none(int fd, const void *b, size_t n)
{
	return n == 3 && is_pipe_fd(fd) ? 3 : write(fd, b, n);
}

/* A read leaves junk in the buffer past the bytes it returns: the check
 * looks only at those. */
static ssize_t read_junk_past_count(int fd, void *b, size_t n)
{
	ssize_t r = read(fd, b, n);

	if (r >= 0 && (size_t)r < n && is_pipe_fd(fd))
		memset((char *)b + r, 'J', n - (size_t)r);
	return r;
}

/* The blocking O_RDWR open is interrupted (as by the guard's timer). */
static int open_rdwr_eintr(const char *path, int flags, mode_t mode)
{
	return fifo_flags(path, flags, O_RDWR, false) ? ifail_with(EINTR) : open(path, flags, mode);
}

static const struct pb_test_counted counted[] = {
	/* FIFO-01 */
	{ "FIFO-01", 0, { .stat = stat_fifo_size_5 }, false, "st_size 5, expected 0", PB_NEED_ANY },
	{ "FIFO-01", 0, { .stat = stat_new_fifo_eio }, false, "stat of the new FIFO", PB_NEED_ANY },
	{ "FIFO-01", 0, { .mkfifo = mkfifo_repeat_succeeds }, false,
	  "repeated mkfifo: success, expected EEXIST", PB_NEED_ANY },
	{ "FIFO-01", 0, { .mkfifo = mkfifo_missing_dir_eacces }, false,
	  "mkfifo in a missing directory: EACCES, expected ENOENT", PB_NEED_ANY },
	{ "FIFO-01", 0, { .mknod = mknod_eperm }, false, ": Operation not permitted", PB_NEED_ANY },
	{ "FIFO-01", 0, { .mknod = mknod_mode_0644 }, false, "made mode 010644", PB_NEED_ANY },
	{ "FIFO-01", 0, { .mknod = mknod_regular }, false, "made mode 0100600", PB_NEED_ANY },
	{ "FIFO-01", 0, { .stat = stat_node_eio }, false, " made mode ", PB_NEED_ANY },
	/* FIFO-02..04 */
	{ "FIFO-02", 0, { .open = open_fifo_eio }, false, "O_RDONLY|O_NONBLOCK failed: EIO", PB_NEED_ANY },
	{ "FIFO-03", 0, { .open = open_enxio_as_eagain }, false,
	  "without a reader: EAGAIN, expected ENXIO", PB_NEED_ANY },
	{ "FIFO-03", 0, { .open = open_rdonly_nb_eio }, false, "reader open O_RDONLY|O_NONBLOCK: EIO", PB_NEED_ANY },
	{ "FIFO-03", 0, { .open = open_wronly_nb_enxio }, false,
	  "O_WRONLY|O_NONBLOCK with a reader: ENXIO", PB_NEED_ANY },
	{ "FIFO-04", 0, { .open = open_wronly_nonblock }, false,
	  "O_WRONLY with no reader: ENXIO, expected to block", PB_NEED_ANY },
	{ "FIFO-04", 0, { .open = open_wronly_rdwr }, false, "O_WRONLY with no reader returned at once", PB_NEED_ANY },
	{ "FIFO-04", 0, { .open = open_rdonly_eio }, false,
	  "O_RDONLY with no writer: EIO, expected to block", PB_NEED_ANY },
	/* FIFO-05 */
	{ "FIFO-05", 0, { .open = open_wronly_eio }, false, "the writer's blocking open: EIO", PB_NEED_ANY },
	{ "FIFO-05", 0, { .write = write_3_short }, false, "write of 3 bytes returned 2", PB_NEED_ANY },
	{ "FIFO-05", 0, { .read = read_flips_last }, false, "the reader did not get \"abc\"", PB_NEED_ANY },
	{ "FIFO-05", 0, { .open = open_reader_takes_data }, false,
	  "the reader's blocking open never completed", PB_NEED_ANY },
	{ "FIFO-05", 0, { .read = read_kills_reader }, false, "the reader child did not finish", PB_NEED_ANY },
	/* FIFO-06 */
	{ "FIFO-06", 0, { .open = open_rdwr_nb_eio }, false, "O_RDWR|O_NONBLOCK: EIO", PB_NEED_ANY },
	{ "FIFO-06", 0, { .open = open_rdwr_eio, .close = pb_test_close_0_dies }, false,
	  "blocking O_RDWR: EIO", PB_NEED_ANY },
	{ "FIFO-06", 0, { .open = open_wronly_nb_enxio }, false,
	  "O_WRONLY|O_NONBLOCK with only an O_RDWR opener: ENXIO", PB_NEED_ANY },
	{ "FIFO-06", 0, { .write = write_3_short }, false,
	  "write through the O_RDWR descriptor returned 2", PB_NEED_ANY },
	{ "FIFO-06", 0, { .read = read_one_short }, false, "looping 3 bytes to itself read back 2", PB_NEED_ANY },
	{ "FIFO-06", 0, { .read = read_flips_last }, false, "looping 3 bytes to itself read back 3", PB_NEED_ANY },
	/* FIFO-07 */
	{ "FIFO-07", 0, { .read = read_eagain_says_5 }, false,
	  "nonblocking read with a writer present: 5", PB_NEED_ANY },
	{ "FIFO-07", 0, { .open = open_wronly_nb_eio }, false, "writer open: EIO", PB_NEED_ANY },
	{ "FIFO-07", 0, { .write = write_32k_eio }, false,
	  "write(32 KiB) into a full FIFO: -1 (EIO), expected -1/EAGAIN", PB_NEED_ANY },
	{ "FIFO-07", 0, { .write = write_32k_one }, false, "write(32 KiB) into a full FIFO: 1 (", PB_NEED_ANY },
	/* FIFO-08 */
	{ "FIFO-08", 0, { .write = write_5_short }, false, "write of 5 bytes returned 4", PB_NEED_ANY },
	{ "FIFO-08", 0, { .fstat = fstat_ino_plus_1 }, false, "fstat(fd) inode", PB_NEED_ANY },
	{ "FIFO-08", 0, { .fstat = fstat_dev_plus_1 }, false, "fstat(fd) inode", PB_NEED_ANY },
	{ "FIFO-08", 0, { .fstat = fstat_size_5 }, false, "st_size grew with writes: fstat 5, stat 0", PB_NEED_ANY },
	{ "FIFO-08", 0, { .stat = stat_fifo_size_5 }, false,
	  "st_size grew with writes: fstat 0, stat 5", PB_NEED_ANY },
	{ "FIFO-08", 0, { .fstat = fstat_eio }, false, "fstat/stat: ", PB_NEED_ANY },
	{ "FIFO-08", 0, { .stat = stat_fifo_eio }, false, "fstat/stat: ", PB_NEED_ANY },
	{ "FIFO-08", 0, { .fcntl = fcntl_pipe_sz_0 }, false, "F_GETPIPE_SZ on a FIFO: 0", PB_NEED_ANY },
	{ "FIFO-08", 0, { .fcntl = fcntl_pipe_sz_1 }, true, "F_GETPIPE_SZ 1;", PB_NEED_ANY },
	{ "FIFO-08", 0, { .ioctl = ioctl_fionread_less_1 }, false,
	  "FIONREAD on a FIFO: 4, expected 5", PB_NEED_ANY },
	{ "FIFO-08", 0, { .ioctl = ioctl_fionread_fails }, false,
	  "FIONREAD on a FIFO: 5, expected 5", PB_NEED_ANY },
	{ "FIFO-08", 0, { .lseek = lseek_succeeds }, false, "lseek on a FIFO: 0 (success)", PB_NEED_ANY },
	{ "FIFO-08", 0, { .lseek = lseek_einval }, false, "lseek on a FIFO: -1 (EINVAL)", PB_NEED_ANY },
	/* FIFO-03 whose writer opens without a reader: FAIL, the writer closed */
	{ "FIFO-03", 0, { .open = open_wronly_nb_succeeds }, false,
	  "O_WRONLY|O_NONBLOCK succeeded without a reader", PB_NEED_ANY },
	{ "FIFO-05", 0, { .write = write_3_queues_4 }, false,
	  "the reader got more than the 3 bytes written", PB_NEED_ANY },
	/* private FIFOs; no timer left armed; an interrupted open says so */
	{ "FIFO-02", 0, { .mkfifo = mkfifo_private_only }, true,
	  "O_RDONLY|O_NONBLOCK returned at once with no writer", PB_NEED_ANY },
	{ "FIFO-08", 0, { .mkfifo = mkfifo_private_only }, true, "lseek ESPIPE", PB_NEED_ANY },
	{ "FIFO-02", 0, { .close = close_no_timer_armed }, true,
	  "O_RDONLY|O_NONBLOCK returned at once with no writer", PB_NEED_ANY },
	{ "FIFO-06", 0, { .open = open_rdwr_eintr }, false, "blocking O_RDWR: EINTR (blocked)$",
	  PB_NEED_ANY },
	{ "FIFO-01", 0, { .mkfifo = mkfifo_umask_022 }, true,
	  "mode 010644, size 0; EEXIST, ENOENT; mknod ", PB_NEED_ANY },
	{ "FIFO-01", 0, { .mkfifo = mkfifo_eio }, false, "mkfifo: Input/output error$",
	  PB_NEED_ANY },
	{ "FIFO-01", 0, { .stat = stat_made_fifo_0645 }, false, "mode 0645, expected 0644",
	  PB_NEED_ANY },
	{ "FIFO-01", 0, { .mkfifo = mkfifo_repeat_0_eexist }, false,
	  "repeated mkfifo: success, expected EEXIST", PB_NEED_ANY },
	{ "FIFO-01", 0, { .mkfifo = mkfifo_repeat_eacces }, false,
	  "repeated mkfifo: EACCES, expected EEXIST", PB_NEED_ANY },
	{ "FIFO-01", 0, { .mkfifo = mkfifo_two_names_only }, true,
	  "mode 010644, size 0; EEXIST, ENOENT; mknod ", PB_NEED_ANY },
	{ "FIFO-01", 0, { .mkfifo = mkfifo_missing_0_enoent }, false,
	  "mkfifo in a missing directory: success, expected ENOENT", PB_NEED_ANY },
	{ "FIFO-01", 0, { .stat = stat_node_0601 }, false, " made mode 010601", PB_NEED_ANY },
	{ "FIFO-06", 0, { .close = close_no_timer_armed }, true, "loops data to itself",
	  PB_NEED_ANY },
	{ "FIFO-06", 0, { .write = write_3_queues_none }, false,
	  "looping 3 bytes to itself read back -1 bytes", PB_NEED_ANY },
	{ "FIFO-06", 0, { .read = read_junk_past_count }, true, "loops data to itself",
	  PB_NEED_ANY },
};
#define NCOUNTED (sizeof(counted) / sizeof(counted[0]))

START_TEST(counted_condition)
{
	pb_test_counted_condition(&counted[_i], _i, "fifo.counted_condition");
}
END_TEST

/*
 * The checks that open a FIFO twice in a row (FIFO-03, FIFO-06, FIFO-08)
 * stop at the first open that fails: it is their verdict, named, and the
 * second open is never tried (it would run the check on with one end
 * missing).  The FIFO opens are counted in memory shared with the check.
 */
static int *fifo_opens;  /* [0]: FIFO opens; [1]: closes that said EBADF */

static int close_counting_ebadf(int fd)
{
	int r = close(fd);

	if (r < 0 && errno == EBADF)
		fifo_opens[1]++;
	return r;
}

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
	struct pb_sysops broken = { .open = open_first_fifo_fails, .close = close_counting_ebadf };
	struct pb_sysops s = pb_test_sysops(&broken);
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_FIFO, .timeout_s = 20 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);
	fifo_opens = mmap(NULL, 2 * sizeof(*fifo_opens), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(fifo_opens, MAP_FAILED);
	fifo_opens[0] = fifo_opens[1] = 0;
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_msg(r.verdict == PB_FAIL && strstr(r.detail, "EIO"), "%s: %s: %s", ids[_i],
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(*fifo_opens == 1, "%s: %d FIFO opens after the first failed", ids[_i],
		      *fifo_opens - 1);
	ck_assert_msg(fifo_opens[1] == 0, "%s: %d closes of a descriptor not open", ids[_i],
		      fifo_opens[1]);
	munmap(fifo_opens, 2 * sizeof(*fifo_opens));
}
END_TEST

/*
 * The checks that open a FIFO twice close the first end when the second
 * open fails, even when that first end is descriptor 0; and an end that is
 * descriptor 0 is an end like any other.  Of the FIFO opens that succeed,
 * the ff->zero_at'th is handed out as descriptor 0 and the ff->fail_at'th
 * is closed and said to fail (EIO); descriptor 0's opens and closes, and
 * closes of a descriptor not open, are counted in memory shared with the
 * check.
 */
static int open_nth_at_0(const char *path, int flags, mode_t mode)
{
	struct stat st;
	int fd, n;

	if (stat(path, &st) != 0 || !S_ISFIFO(st.st_mode))
		return open(path, flags, mode);
	fd = open(path, flags, mode);
	if (fd < 0)
		return fd;
	n = ++ff->opens;
	if (n == ff->fail_at) {
		close(fd);
		return ifail_with(EIO);
	}
	if (n == ff->zero_at && fd > 0) {
		if (dup3(fd, 0, O_CLOEXEC) != 0)
			raise(SIGKILL);
		close(fd);
		fd = 0;
	}
	if (fd == 0)
		ff->open[0]++;
	return fd;
}

static struct pb_check_result run_nth_at_0(const char *id, int zero_at, int fail_at)
{
	struct pb_sysops sys = pb_sysops_real;
	struct pb_check_result r;

	ff = mmap(NULL, sizeof(*ff), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(ff, MAP_FAILED);
	memset(ff, 0, sizeof(*ff));
	ff->zero_at = zero_at;
	ff->fail_at = fail_at;
	sys.open = open_nth_at_0;
	sys.close = close_counted_fifo;
	r = pb_test_run(id, &sys, PB_KIND_ANON, 0);
	ck_assert_msg(ff->opens >= 2, "%s: %d FIFO opens", id, ff->opens);
	ck_assert_msg(ff->open[0] == 0, "%s left descriptor 0 (its FIFO end %d) open", id,
		      zero_at);
	ck_assert_msg(ff->bad_closes == 0, "%s: %d closes of a descriptor not open", id,
		      ff->bad_closes);
	munmap(ff, sizeof(*ff));
	return r;
}

static const char *const twice_ids[] = { "FIFO-03", "FIFO-06", "FIFO-07", "FIFO-08" };

START_TEST(first_end_at_0_closed)
{
	struct pb_check_result r = run_nth_at_0(twice_ids[_i], 1, 2);

	ck_assert_msg(r.verdict == PB_FAIL && strstr(r.detail, ": EIO"), "%s: %s: %s",
		      twice_ids[_i], pb_verdict_names[r.verdict], r.detail);
}
END_TEST

/* FIFO-06's third open (the writer) fails: nothing is closed that is not
 * open. */
START_TEST(fifo06_writer_fails)
{
	struct pb_check_result r = run_nth_at_0("FIFO-06", 0, 3);

	ck_assert_msg(r.verdict == PB_FAIL && strstr(r.detail, "only an O_RDWR opener: EIO"),
		      "FIFO-06: %s: %s", pb_verdict_names[r.verdict], r.detail);
}
END_TEST

START_TEST(second_end_at_0_passes)
{
	struct pb_check_result r = run_nth_at_0(twice_ids[_i], 2, 0);

	ck_assert_msg(r.verdict == PB_PASS && r.detail[0], "%s: %s: %s", twice_ids[_i],
		      pb_verdict_names[r.verdict], r.detail);
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

/* FIFO-01's directory for the unprivileged mknod cannot be made (a file
 * already has its name, put there beside the first FIFO): the harness's
 * ERROR, saying so. */
static int mkfifo_and_file_open(const char *path, mode_t mode)
{
	char file[4200];
	const char *slash = strrchr(path, '/');
	int fd;

	if (slash && strcmp(slash, "/made.fifo") == 0) {
		snprintf(file, sizeof(file), "%.*s/open", (int)(slash - path), path);
		fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			raise(SIGKILL);
		close(fd);
	}
	return mkfifo(path, mode);
}

START_TEST(fifo01_no_directory_is_error)
{
	struct pb_sysops broken = { .mkfifo = mkfifo_and_file_open };
	struct pb_sysops s = pb_test_sysops(&broken);
	struct pb_check_result r = pb_test_run("FIFO-01", &s, PB_KIND_ANON, 0);

	ck_assert_msg(r.verdict == PB_ERROR &&
		      strcmp(r.detail, "harness: cannot prepare a directory: File exists") == 0,
		      "FIFO-01: %s: %s", pb_verdict_names[r.verdict], r.detail);
}
END_TEST

/* FIFO-01 removes what it made (the runner empties only the top of its
 * directory): its base directory is empty after it. */
START_TEST(fifo01_leaves_nothing)
{
	char base[4096];
	const char *tmp = getenv("TMPDIR");
	struct pb_run_opts o = { .sys = NULL, .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct pb_check_result r;

	snprintf(base, sizeof(base), "%s/pb-fifo01-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(base));
	o.base_dir = base;
	ck_assert_int_eq(pb_conformance_run_one(pb_test_check("FIFO-01"), &o, &r), 0);
	ck_assert_msg(rmdir(base) == 0, "FIFO-01 left something in %s: %s (%s: %s)", base,
		      strerror(errno), pb_verdict_names[r.verdict], r.detail);
	pb_test_assert_verdict(r, PB_PASS);
}
END_TEST

/* FIFO-01's unprivileged mknod that never returns is a FAIL saying so
 * (where this machine lets FIFO-01 become uid 65534 at all). */
static int mknod_hangs_as_nobody(const char *path, mode_t mode, dev_t dev)
{
	if (getuid() == 65534)
		pause();
	return mknod(path, mode, dev);
}

START_TEST(fifo01_unprivileged_mknod_hangs)
{
	struct pb_sysops broken = { .mknod = mknod_hangs_as_nobody };
	struct pb_sysops s = pb_test_sysops(&broken);
	struct pb_check_result r = pb_test_run("FIFO-01", NULL, PB_KIND_ANON, 0);

	if (r.verdict != PB_PASS || !strstr(r.detail, "mknod as uid 65534 works")) {
		fprintf(stderr, "# fifo01_unprivileged_mknod_hangs: skipped: %s\n", r.detail);
		return;
	}
	r = pb_test_run("FIFO-01", &s, PB_KIND_ANON, 0);
	ck_assert_msg(r.verdict == PB_FAIL && strcmp(r.detail, "mknod(S_IFIFO|0600) as uid 65534 "
						      "did not return within 2000 ms") == 0,
		      "FIFO-01: %s: %s", pb_verdict_names[r.verdict], r.detail);
}
END_TEST

/* FIFO-04's blocking open that returns at once is a FAIL on every
 * descriptor, 0 included (the FIFO end handed out as descriptor 0). */
static int open_nonblock_at_0(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags | O_NONBLOCK, mode);

	if (fd > 0 && is_pipe_fd(fd)) {
		if (dup3(fd, 0, O_CLOEXEC) != 0)
			raise(SIGKILL);
		close(fd);
		fd = 0;
	}
	return fd;
}

START_TEST(fifo04_returns_at_once_on_fd_0)
{
	struct pb_sysops broken = { .open = open_nonblock_at_0, .close = close };
	struct pb_sysops s = pb_test_sysops(&broken);
	struct pb_check_result r = pb_test_run("FIFO-04", &s, PB_KIND_ANON, 0);

	ck_assert_msg(r.verdict == PB_FAIL &&
		      strcmp(r.detail, "O_RDONLY with no writer returned at once") == 0,
		      "FIFO-04: %s: %s", pb_verdict_names[r.verdict], r.detail);
}
END_TEST

/* ---- on the real kernel, word for word (pb_test_note) ---- */

/* FIFO-01's notes depend on the filesystem and privileges: its own tests. */
static const struct pb_test_note notes[] = {
	{ "FIFO-02", PB_PASS, "O_RDONLY|O_NONBLOCK returned at once with no writer", NULL },
	{ "FIFO-03", PB_PASS, "ENXIO without a reader, success with one", NULL },
	{ "FIFO-04", PB_PASS, "both blocking opens blocked until the timer (EINTR)", NULL },
	{ "FIFO-05", PB_PASS, "both opens completed; 3 bytes passed", NULL },
	{ "FIFO-06", PB_PASS, "O_RDWR opens at once (blocking and nonblocking), counts as a "
	  "reader, loops data to itself", NULL },
	{ "FIFO-07", PB_PASS, "EOF with no writer ever; EAGAIN when empty with a writer; EAGAIN "
	  "into a full FIFO (65536 bytes)", NULL },
	{ "FIFO-08", PB_PASS, "same inode; st_size 0 after 5 bytes; F_GETPIPE_SZ 65536; FIONREAD 5; "
	  "lseek ESPIPE", NULL },
};
#define NNOTES (int)(sizeof(notes) / sizeof(notes[0]))

/* Loop index i: row i/2, anon for even i and fifo for odd. */
START_TEST(says_what_the_kernel_did)
{
	pb_test_says_what_the_kernel_did(&notes[_i / 2], _i);
}
END_TEST

PB_CHECK_SUITE_MAIN("conf_fifo",
	PB_TCASE_LOOP("broken_kernel", 60, broken_kernel_fails, NBROKEN,
		      fifo_open_emfile_is_error, user_namespace_skips_the_part),
	PB_TCASE_LOOP("this_kernel", 0, this_kernel, NHERE),
	PB_TCASE_LOOP("counted_conditions", 90, counted_condition, NCOUNTED),
	PB_TCASE_LOOP("real_kernel", 120, says_what_the_kernel_did, 2 * NNOTES),
	PB_TCASE_LOOP("first_open_fails", 30, second_open_not_tried, 3),
	PB_TCASE_LOOP("second_open_fails", 30, first_end_at_0_closed, 4),
	PB_TCASE_LOOP("second_end_at_0", 30, second_end_at_0_passes, 4, fifo06_writer_fails),
	PB_TCASE_TIMED("fifo01_directory", 30, fifo01_no_directory_is_error, fifo01_leaves_nothing),
	PB_TCASE_TIMED("descriptors", 30, fifo03_success_on_fd_0, fifo06_closes_writer_at_0,
		       fifo04_returns_at_once_on_fd_0, fifo01_unprivileged_mknod_hangs))
