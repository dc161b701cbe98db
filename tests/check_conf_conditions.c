/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The other conditions of checks that test several: a broken kernel that
 * trips the first condition of a check proves little about the rest.  Each
 * case here breaks one later condition only (a write that reports EAGAIN
 * but still queued bytes, an EINTR that still queued bytes, a torn write of
 * a size the first condition does not use, a pipe whose read end is the
 * lowest free descriptor but whose write end is not, ...) and requires FAIL
 * with the detail that names that condition; a boundary is tried at its
 * value (a row with no phrase: a lawful kernel there must not FAIL) and one
 * past it.  Also the shared helpers those checks use (filling, descriptor
 * counting).
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check_conf.h"
#include "check_main.h"
#include "fast_time.h"
#include "checks/conformance.h"

/* ---- misbehaving calls, each breaking one later condition ---- */

/* A nonblocking write that cannot be done whole says EAGAIN, but one byte
 * of it was queued anyway. */
static ssize_t write_eagain_but_queued(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	if (r < 0 && errno == EAGAIN && n > 1) {
		(void)!write(fd, buf, 1);
		errno = EAGAIN;
	}
	return r;
}

/* A one-byte write into a full pipe fails with EIO instead of EAGAIN. */
static ssize_t write_full_eio(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	if (r < 0 && errno == EAGAIN && n == 1)
		errno = EIO;
	return r;
}

/* A blocking write(200) queues 10 bytes, then blocks and is interrupted:
 * EINTR although bytes were queued. */
static ssize_t write_eintr_but_queued(int fd, const void *buf, size_t n)
{
	if (n == 200 && !(fcntl(fd, F_GETFL) & O_NONBLOCK)) {
		ssize_t r = write(fd, buf, 10);

		if (r != 10)
			return r;
	}
	return write(fd, buf, n);
}

/* A blocking write(200) with room for 96 writes 50 and returns 50. */
static ssize_t write_torn_50(int fd, const void *buf, size_t n)
{
	if (n == 200 && !(fcntl(fd, F_GETFL) & O_NONBLOCK))
		return write(fd, buf, 50);
	return write(fd, buf, n);
}

/* Filling fails with EIO after three pages. */
static int fill_writes;
static ssize_t write_eio_after_3(int fd, const void *buf, size_t n)
{
	if (n >= 4096 && ++fill_writes > 3) {
		errno = EIO;
		return -1;
	}
	return write(fd, buf, n);
}

/* The pipe never fills: every write "succeeds" without queueing. */
static ssize_t write_never_full(int fd, const void *buf, size_t n)
{
	if (n >= 4096)
		return (ssize_t)n;
	return write(fd, buf, n);
}

/* The number of fill writes, counted across the check's fork. */
static long *shared_writes;

/* The pipe never fills, and every write is counted. */
static ssize_t write_never_full_counted(int fd, const void *buf, size_t n)
{
	if (n >= 4096) {
		__atomic_add_fetch(shared_writes, 1, __ATOMIC_SEQ_CST);
		return (ssize_t)n;
	}
	return write(fd, buf, n);
}

/* A failed pipe2 (invalid flags) writes the write end's slot only. */
static int pipe2_clobber_second(int fd[2], int flags)
{
	int r = (int)syscall(SYS_pipe2, fd, flags);

	if (r != 0) {
		int e = errno;

		fd[1] = 99;
		errno = e;
	}
	return r;
}

/* A read of an empty nonblocking pipe fails with EIO instead of EAGAIN. */
static ssize_t read_empty_eio(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	if (r < 0 && errno == EAGAIN)
		errno = EIO;
	return r;
}

/* Both ends on the same descriptor. */
static int pipe2_same_fd(int fd[2], int flags)
{
	if (syscall(SYS_pipe2, fd, flags) != 0)
		return -1;
	close(fd[1]);
	fd[1] = fd[0];
	return 0;
}

/* The read end is the lowest free descriptor, the write end is not. */
static int pipe2_high_write_end(int fd[2], int flags)
{
	int h;

	if (syscall(SYS_pipe2, fd, flags) != 0)
		return -1;
	h = fcntl(fd[1], F_DUPFD, 100);
	close(fd[1]);
	fd[1] = h;
	return 0;
}

/* ---- one condition each of NB, WR and RD, boundaries at the value and ±1 ---- */

static bool is_nonblock(int fd)
{
	return (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0;
}

static bool is_write_end(int fd)
{
	return is_pipe_fd(fd) && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY;
}

static long queued(int fd)
{
	int q = 0;

	return ioctl(fd, FIONREAD, &q) == 0 ? q : -1;
}

/* NB-01: after PIPE_BUF bytes, a nonblocking write(1) says EAGAIN. */
static ssize_t write_1_after_pipe_buf_eagain(int fd, const void *buf, size_t n)
{
	if (n == 1 && is_nonblock(fd) && queued(fd) == PIPE_BUF)
		return fail_with(EAGAIN);
	return write(fd, buf, n);
}

/* NB-01: a write(PIPE_BUF) into a full pipe fails with EIO; the write(1)
 * before it, and the fill, see EAGAIN as they should. */
static bool full_write_1_seen;
static ssize_t write_full_pipe_buf_eio(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	if (r < 0 && errno == EAGAIN && n == 1)
		full_write_1_seen = true;
	else if (r < 0 && errno == EAGAIN && n == PIPE_BUF && full_write_1_seen)
		errno = EIO;
	return r;
}

/* NB-01: 96 bytes free in the last page, a write(96) says EAGAIN. */
static ssize_t write_96_eagain(int fd, const void *buf, size_t n)
{
	return n == 96 && is_nonblock(fd) ? fail_with(EAGAIN) : write(fd, buf, n);
}

/* NB-03: a nonblocking write of more than PIPE_BUF moves at most LIMIT bytes. */
static ssize_t write_big_capped(int fd, const void *buf, size_t n, size_t limit)
{
	if (n > PIPE_BUF && is_nonblock(fd) && n > limit)
		n = limit;
	return write(fd, buf, n);
}

static ssize_t write_big_pipe_buf(int fd, const void *buf, size_t n)
{
	return write_big_capped(fd, buf, n, PIPE_BUF);
}

static ssize_t write_big_pipe_buf_less_1(int fd, const void *buf, size_t n)
{
	return write_big_capped(fd, buf, n, PIPE_BUF - 1);
}

/* NB-03: a nonblocking write of more than PIPE_BUF (but not the 5-page one)
 * says one byte more than it moved. */
static ssize_t write_big_overcounts(int fd, const void *buf, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	ssize_t r = write(fd, buf, n);

	return r > 0 && n > PIPE_BUF && n != (size_t)(5 * page) ? r + 1 : r;
}

/* NB-03: the write(5 pages) into two free pages says one byte more than it
 * moved, or returns 0. */
static ssize_t write_5_pages_overcounts(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	return r > 0 && n == (size_t)(5 * sysconf(_SC_PAGESIZE)) ? r + 1 : r;
}

static ssize_t write_5_pages_zero(int fd, const void *buf, size_t n)
{
	return n == (size_t)(5 * sysconf(_SC_PAGESIZE)) ? 0 : write(fd, buf, n);
}

/* NB-04: the dup of the write end, whose flags the wrappers below misreport. */
static int nb04_dup = -1;
static int dup_remembered(int fd)
{
	return nb04_dup = dup(fd);
}

/* F_GETFL: the read end says O_NONBLOCK, whatever it is. */
static int fcntl_read_end_nonblock(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	if (cmd == F_GETFL && r >= 0 && is_pipe_fd(fd) && (r & O_ACCMODE) == O_RDONLY)
		r |= O_NONBLOCK;
	return r;
}

/* F_GETFL: the dup never says O_NONBLOCK. */
static int fcntl_dup_blocking(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	return cmd == F_GETFL && r >= 0 && fd == nb04_dup ? r & ~O_NONBLOCK : r;
}

/* F_SETFL on the dup fails with EIO, or is accepted and ignored. */
static int fcntl_dup_setfl_eio(int fd, int cmd, long arg)
{
	if (cmd == F_SETFL && fd == nb04_dup) {
		errno = EIO;
		return -1;
	}
	return fcntl(fd, cmd, arg);
}

static int fcntl_dup_setfl_ignored(int fd, int cmd, long arg)
{
	return cmd == F_SETFL && fd == nb04_dup ? 0 : fcntl(fd, cmd, arg);
}

/* F_GETFL fails with EIO on its Nth call in NB-04 (1: the write end, 2: the
 * dup, 3: the read end, 4: the write end after F_SETFL on the dup). */
static int nb04_getfl_calls;
static int fcntl_getfl_eio_nth(int fd, int cmd, long arg, int nth)
{
	if (cmd == F_GETFL && ++nb04_getfl_calls == nth) {
		errno = EIO;
		return -1;
	}
	return fcntl(fd, cmd, arg);
}
#define GETFL_EIO(n) \
	static int fcntl_getfl_eio_##n(int fd, int cmd, long arg) \
	{ \
		return fcntl_getfl_eio_nth(fd, cmd, arg, n); \
	}
GETFL_EIO(1)
GETFL_EIO(2)
GETFL_EIO(3)
GETFL_EIO(4)

/* NB-03: F_SETPIPE_SZ says the pipe now holds 0 bytes (it must say at least
 * what was asked). */
static int fcntl_setpipe_sz_0(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	return cmd == F_SETPIPE_SZ && r >= 0 ? 0 : r;
}

/* NB-05: a nonblocking write(1) that cannot be done says 1. */
static ssize_t write_1_lies(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	return r < 0 && errno == EAGAIN && n == 1 ? 1 : r;
}

/* NB-05: a write(10000) with 96 bytes free says 96 but moves none. */
static ssize_t write_10000_lies(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	return r < 0 && errno == EAGAIN && n == 10000 ? 96 : r;
}

/* WR-01: a blocking write(200) with 96 bytes free says 200 (moving none),
 * or fails with EIO; a blocking write(1) into a full pipe fails with EIO. */
static ssize_t write_200_says_200(int fd, const void *buf, size_t n)
{
	return n == 200 && !is_nonblock(fd) ? 200 : write(fd, buf, n);
}

static ssize_t write_200_eio(int fd, const void *buf, size_t n)
{
	return n == 200 && !is_nonblock(fd) ? fail_with(EIO) : write(fd, buf, n);
}

static ssize_t write_1_blocking_eio(int fd, const void *buf, size_t n)
{
	return n == 1 && !is_nonblock(fd) ? fail_with(EIO) : write(fd, buf, n);
}

/* WR-02: a blocking write larger than the capacity, with no reader
 * draining, says it is done (moving none), or fails with EIO. */
static ssize_t write_huge_says_done(int fd, const void *buf, size_t n)
{
	return n > 65536 && !is_nonblock(fd) ? (ssize_t)n : write(fd, buf, n);
}

static ssize_t write_huge_eio(int fd, const void *buf, size_t n)
{
	return n > 65536 && !is_nonblock(fd) ? fail_with(EIO) : write(fd, buf, n);
}

/* WR-03: the 1 MiB+123 write moves all but its last byte and says all,
 * or moves all and says one byte less. */
static ssize_t write_huge_drops_last(int fd, const void *buf, size_t n)
{
	ssize_t r;

	if (n <= 65536 || is_nonblock(fd))
		return write(fd, buf, n);
	r = write(fd, buf, n - 1);
	return r == (ssize_t)n - 1 ? (ssize_t)n : r;
}

static ssize_t write_huge_undercounts(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	return r > 65536 && !is_nonblock(fd) ? r - 1 : r;
}

/* WR-04: a record (<= PIPE_BUF) is written whole but said to be one byte short. */
static ssize_t write_record_undercounts(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	return r >= 16 && r <= PIPE_BUF ? r - 1 : r;
}

/* WR-04: only records of 100 to 200 bytes are said to be one byte short: the
 * check's records must come in many lengths, not one or two. */
static ssize_t write_mid_record_undercounts(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	return r >= 100 && r <= 200 ? r - 1 : r;
}

/* WR-05: _PC_PIPE_BUF off by one on the write end only, on the FIFO path
 * only, or on the directory only. */
static long fpathconf_write_end_plus_1(int fd, int name)
{
	long v = fpathconf(fd, name);

	return name == _PC_PIPE_BUF && is_write_end(fd) ? v + 1 : v;
}

static long fpathconf_read_end_less_1(int fd, int name)
{
	long v = fpathconf(fd, name);

	return name == _PC_PIPE_BUF && is_pipe_fd(fd) &&
	       (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY ? v - 1 : v;
}

static bool is_fifo_path(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
}

static long pathconf_fifo_less_1(const char *path, int name)
{
	long v = pathconf(path, name);

	return name == _PC_PIPE_BUF && is_fifo_path(path) ? v - 1 : v;
}

static long pathconf_dir_less_1(const char *path, int name)
{
	long v = pathconf(path, name);

	return name == _PC_PIPE_BUF && !is_fifo_path(path) ? v - 1 : v;
}

/* WR-06: read(0) on an empty pipe says EAGAIN; write(0) on a pipe says
 * EPIPE (no signal); the first read of the (nonblocking) O_DIRECT pipe
 * returns 0, an empty packet. */
static ssize_t read_0_eagain(int fd, void *buf, size_t n)
{
	return n == 0 && is_pipe_fd(fd) ? fail_with(EAGAIN) : read(fd, buf, n);
}

static ssize_t read_0_eintr(int fd, void *buf, size_t n)
{
	return n == 0 && is_pipe_fd(fd) ? fail_with(EINTR) : read(fd, buf, n);
}

/* read(0) on an empty pipe blocks like read(1) would, until a signal: the
 * check's own 2 s interrupt must end it (-1/EINTR), not the watchdog. */
static ssize_t read_0_blocks(int fd, void *buf, size_t n)
{
	if (n == 0 && is_pipe_fd(fd)) {
		pause();
		return -1;  /* errno EINTR, from pause */
	}
	return read(fd, buf, n);
}

static ssize_t write_0_epipe(int fd, const void *buf, size_t n)
{
	return n == 0 && is_pipe_fd(fd) ? fail_with(EPIPE) : write(fd, buf, n);
}

static ssize_t read_direct_empty_packet(int fd, void *buf, size_t n)
{
	return n > 1 && is_nonblock(fd) ? 0 : read(fd, buf, n);
}

/* WR-06's O_DIRECT part, each of its two writes failing on its own. */
static bool is_direct(int fd)
{
	return (fcntl(fd, F_GETFL) & O_DIRECT) != 0;
}

static ssize_t write_direct_0_eio(int fd, const void *buf, size_t n)
{
	return n == 0 && is_direct(fd) ? fail_with(EIO) : write(fd, buf, n);
}

static ssize_t write_direct_1_eio(int fd, const void *buf, size_t n)
{
	return n == 1 && is_direct(fd) ? fail_with(EIO) : write(fd, buf, n);
}

/* RD-01, CRE-01: read_one_short and read_flips_last are in check_conf.h. */

/* RD-02: EOF does not persist: the second EOF is -1/EIO. */
static int eofs_seen;
static ssize_t read_second_eof_eio(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	return r == 0 && n > 0 && ++eofs_seen > 1 ? fail_with(EIO) : r;
}

/* RD-03: a nonblocking read of an empty pipe blocks until a signal. */
static ssize_t read_nonblock_blocks(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	if (r < 0 && errno == EAGAIN) {
		pause();
		return fail_with(EINTR);
	}
	return r;
}

/* RD-06: EOF, once every writer is gone, reads as -1/EAGAIN. */
static ssize_t read_eof_eagain(int fd, void *buf, size_t n)
{
	return read_eof_fails(EAGAIN, fd, buf, n);
}

/* ---- CRE: each end's flags, the wrong-end calls, and the EMFILE boundary ---- */

static bool is_read_end_fd(int fd)
{
	return is_pipe_fd(fd) && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY;
}

/* CRE-01: the write end alone says O_NONBLOCK, FD_CLOEXEC, or O_RDONLY. */
static int fcntl_write_end_says(int fd, int cmd, long arg, int getcmd, int set, int clear)
{
	int r = fcntl(fd, cmd, arg);

	return cmd == getcmd && r >= 0 && is_write_end(fd) ? (r & ~clear) | set : r;
}

static int fcntl_write_end_nonblock(int fd, int cmd, long arg)
{
	return fcntl_write_end_says(fd, cmd, arg, F_GETFL, O_NONBLOCK, 0);
}

static int fcntl_write_end_cloexec(int fd, int cmd, long arg)
{
	return fcntl_write_end_says(fd, cmd, arg, F_GETFD, FD_CLOEXEC, 0);
}

static int fcntl_write_end_rdonly(int fd, int cmd, long arg)
{
	return fcntl_write_end_says(fd, cmd, arg, F_GETFL, O_RDONLY, O_ACCMODE);
}

/* CRE-01: F_GETFD fails (EIO) on the write end, F_GETFL still works. */
static int fcntl_write_end_getfd_eio(int fd, int cmd, long arg)
{
	return cmd == F_GETFD && is_write_end(fd) ? (int)fail_with(EIO) : fcntl(fd, cmd, arg);
}

/* CRE-03: FD_CLOEXEC missing on the write end only. */
static int fcntl_write_end_no_cloexec(int fd, int cmd, long arg)
{
	return fcntl_write_end_says(fd, cmd, arg, F_GETFD, 0, FD_CLOEXEC);
}

/* CRE-04: O_NONBLOCK missing on the read end only (by F_GETFL). */
static int fcntl_read_end_no_nonblock(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	return cmd == F_GETFL && r >= 0 && is_read_end_fd(fd) ? r & ~O_NONBLOCK : r;
}

/* CRE-01: a write on the read end says EIO, a read on the write end EINVAL. */
static ssize_t write_read_end_eio(int fd, const void *buf, size_t n)
{
	return is_read_end_fd(fd) ? fail_with(EIO) : write(fd, buf, n);
}

static ssize_t read_write_end_einval(int fd, void *buf, size_t n)
{
	return is_write_end(fd) ? fail_with(EINVAL) : read(fd, buf, n);
}

/* CRE-01: the write end reads as if data were there: all that was asked
 * (the check asks for one byte). */
static ssize_t read_write_end_gives(int fd, void *buf, size_t n)
{
	if (!is_write_end(fd))
		return read(fd, buf, n);
	memset(buf, 'x', n);
	return (ssize_t)n;
}

/* CRE-05: unknown flags give EOPNOTSUPP instead of EINVAL. */
static int pipe2_eopnotsupp(int fd[2], int flags)
{
	int r = (int)syscall(SYS_pipe2, fd, flags);

	if (r != 0 && errno == EINVAL)
		errno = EOPNOTSUPP;
	return r;
}

/* CRE-06: out of descriptors gives ENFILE instead of EMFILE; or pipe2
 * needs a third free descriptor (fails with two). */
static int pipe2_enfile(int fd[2], int flags)
{
	int r = (int)syscall(SYS_pipe2, fd, flags);

	if (r != 0 && errno == EMFILE)
		errno = ENFILE;
	return r;
}

static int pipe2_needs_three(int fd[2], int flags)
{
	int spare = open("/dev/null", O_RDONLY | O_CLOEXEC), r;

	if (spare < 0) {
		errno = EMFILE;
		return -1;
	}
	r = (int)syscall(SYS_pipe2, fd, flags);
	PB_KEEP_ERRNO(close(spare));
	return r;
}

static const struct {
	const char *id;
	struct pb_sysops sys;  /* the calls broken; the rest are real */
	const char *phrase;    /* the detail names the condition that broke; NULL: a
				* lawful value at a boundary, which must not FAIL */
} cases[] = {
	{ "NB-01", { .write = write_eagain_but_queued },
	  "96 bytes free: write(200) = -1/EAGAIN, FIONREAD" },
	{ "NB-01", { .write = write_full_eio }, "full pipe: write(1) = -1/EIO" },
	{ "WR-01", { .write = write_eintr_but_queued }, "gave EINTR but FIONREAD went" },
	{ "WR-01", { .write = write_torn_50 }, "returned 50: a torn atomic write" },
	{ "NB-01", { .write = write_eio_after_3 }, "EIO" },
	{ "NB-01", { .write = write_never_full }, "more than 64 MiB without EAGAIN" },
	{ "CRE-01", { .pipe2 = pipe2_same_fd }, "pipe returned fds" },
	{ "CRE-02", { .pipe2 = pipe2_high_write_end }, "(the two lowest free), got" },
	{ "CRE-05", { .pipe2 = pipe2_clobber_second }, "failed but wrote pipefd" },
	{ "CRE-04", { .read = read_empty_eio }, "read of the empty pipe gave -1/EIO" },
	/* CRE: each end and each condition on its own; CRE-06 at one free
	 * descriptor (EMFILE) and at two (success) */
	{ "CRE-01", { .read = read_one_short }, "read back 5 bytes" },
	{ "CRE-01", { .fcntl = fcntl_write_end_nonblock }, "O_NONBLOCK set on fd[1]" },
	{ "CRE-01", { .fcntl = fcntl_write_end_cloexec }, "FD_CLOEXEC set on fd[1]" },
	{ "CRE-01", { .fcntl = fcntl_write_end_rdonly }, "fd[1] is O_RDONLY" },
	{ "CRE-01", { .fcntl = fcntl_write_end_getfd_eio }, "fcntl on fd[1]: EIO" },
	{ "CRE-01", { .write = write_read_end_eio }, "write on the read end gave -1/EIO" },
	{ "CRE-01", { .read = read_write_end_einval }, "read on the write end gave -1/EINVAL" },
	{ "CRE-01", { .read = read_write_end_gives }, "read on the write end gave 1, not -1/EBADF" },
	{ "CRE-03", { .fcntl = fcntl_write_end_no_cloexec }, "FD_CLOEXEC not set on fd[1]" },
	{ "CRE-04", { .fcntl = fcntl_read_end_no_nonblock }, "O_NONBLOCK not set on fd[0]" },
	{ "CRE-05", { .pipe2 = pipe2_eopnotsupp }, "not EINVAL" },
	{ "CRE-06", { .pipe2 = pipe2_enfile }, "= -1/ENFILE, not EMFILE" },
	{ "CRE-06", { .pipe2 = pipe2_clobber_second }, "pipe2 failed but wrote pipefd {-7,99}" },
	{ "CRE-06", { .pipe2 = pipe2_needs_three }, "pipe2 with two free fds = -1/EMFILE" },
	/* NB-01: each step on its own; NB-03: PIPE_BUF at the value and -1,
	 * the capacity and two free pages at the value (the real kernel) and +1 */
	{ "NB-01", { .write = write_1_after_pipe_buf_eagain }, "write(1) after PIPE_BUF bytes" },
	{ "NB-01", { .write = write_full_pipe_buf_eio }, "full pipe: write(4096) = -1/EIO" },
	{ "NB-01", { .write = write_96_eagain }, "last page: write(96) = -1/EAGAIN" },
	{ "NB-03", { .write = write_big_pipe_buf }, NULL },
	{ "NB-03", { .write = write_big_pipe_buf_less_1 }, "= 4095, expected at least PIPE_BUF" },
	{ "NB-03", { .write = write_big_overcounts }, "= 65537, more than the capacity" },
	{ "NB-03", { .write = write_5_pages_overcounts }, "expected a partial write of at most" },
	{ "NB-03", { .write = write_5_pages_zero }, ") = 0, expected a partial write" },
	{ "NB-04", { .dup = dup_remembered, .fcntl = fcntl_read_end_nonblock }, "read end yes" },
	{ "NB-04", { .dup = dup_remembered, .fcntl = fcntl_dup_blocking }, "its dup no" },
	{ "NB-04", { .dup = dup_remembered, .fcntl = fcntl_dup_setfl_eio }, "F_SETFL on the dup: EIO" },
	{ "NB-04", { .dup = dup_remembered, .fcntl = fcntl_dup_setfl_ignored },
	  "did not clear it on the original" },
	{ "NB-05", { .write = write_1_lies }, "FIONREAD says" },
	{ "NB-05", { .write = write_10000_lies }, "96 B free: write(10000) = 96" },
	/* WR: each verdict branch on its own */
	{ "WR-01", { .write = write_200_says_200 }, "returned 200 (capacity overrun" },
	{ "WR-01", { .write = write_200_eio }, "write(200) = -1/EIO, not -1/EINTR" },
	{ "WR-01", { .write = write_1_blocking_eio }, "(b) full pipe: blocking write(1) = -1/EIO" },
	{ "WR-02", { .write = write_huge_says_done }, "with no reader draining returned" },
	{ "WR-02", { .write = write_huge_eio }, "= -1/EIO" },
	{ "WR-03", { .write = write_huge_drops_last }, "the wrong number of bytes" },
	{ "WR-03", { .write = write_huge_undercounts }, "(short count, no signal)" },
	{ "WR-03", { .read = read_eio_on_pipes }, "a read error" },
	{ "WR-04", { .write = write_record_undercounts }, "a write of <= PIPE_BUF was partial" },
	{ "WR-04", { .write = write_mid_record_undercounts }, "a write of <= PIPE_BUF was partial" },
	/* WR-05: each of the four values wrong on its own, and the detail names
	 * every value in its own place (a value printed twice, or in another's
	 * place, hides the one that is wrong) */
	{ "WR-05", { .fpathconf = fpathconf_read_end_less_1 }, "PIPE_BUF 4096, but fpathconf(read "
	  "end) 4095, fpathconf(write end) 4096, pathconf(FIFO) 4096, pathconf(dir) 4096" },
	{ "WR-05", { .fpathconf = fpathconf_write_end_plus_1 }, "PIPE_BUF 4096, but fpathconf(read "
	  "end) 4096, fpathconf(write end) 4097, pathconf(FIFO) 4096, pathconf(dir) 4096" },
	{ "WR-05", { .pathconf = pathconf_fifo_less_1 }, "PIPE_BUF 4096, but fpathconf(read end) "
	  "4096, fpathconf(write end) 4096, pathconf(FIFO) 4095, pathconf(dir) 4096" },
	{ "WR-05", { .pathconf = pathconf_dir_less_1 }, "PIPE_BUF 4096, but fpathconf(read end) "
	  "4096, fpathconf(write end) 4096, pathconf(FIFO) 4096, pathconf(dir) 4095" },
	{ "WR-06", { .read = read_0_eagain }, "read(fd, buf, 0) on an empty pipe = -1/EAGAIN" },
	{ "WR-06", { .read = read_0_eintr }, "read(fd, buf, 0) on an empty pipe = -1/EINTR (it blocked)" },
	/* a read(0) that really blocks: the check's interrupt ends it, the detail
	 * says so (a check without its interrupt is stopped by the watchdog) */
	{ "WR-06", { .read = read_0_blocks }, "read(fd, buf, 0) on an empty pipe = -1/EINTR (it "
	  "blocked)" },
	{ "WR-06", { .write = write_0_epipe }, "with no reader did not return 0" },
	{ "WR-06", { .read = read_direct_empty_packet }, "(an empty packet)" },
	/* RD: the later conditions */
	{ "RD-01", { .read = read_one_short }, "read(100) with 10 bytes queued = 9" },
	{ "RD-01", { .read = read_flips_last }, "read(100) with 10 bytes queued = 10" },
	{ "RD-02", { .read = read_flips_last }, "differ from those written" },
	{ "RD-02", { .read = read_second_eof_eio }, "read #3 = -1/EIO (expected 0)" },
	{ "RD-03", { .read = read_nonblock_blocks }, "nonblocking read blocked" },
	{ "RD-06", { .read = read_eof_eagain }, "all write descriptors closed: read = -1/EAGAIN" },
	/* NB-04: F_GETFL failing on each descriptor in turn is a FAIL naming it */
	{ "NB-04", { .fcntl = fcntl_getfl_eio_1 }, "F_GETFL on the write end: EIO" },
	{ "NB-04", { .fcntl = fcntl_getfl_eio_2 }, "F_GETFL on the dup of the write end: EIO" },
	{ "NB-04", { .fcntl = fcntl_getfl_eio_3 }, "F_GETFL on the read end: EIO" },
	{ "NB-04", { .fcntl = fcntl_getfl_eio_4 }, "after F_SETFL on the dup, F_GETFL on the write "
	  "end: EIO" },
	{ "NB-03", { .fcntl = fcntl_setpipe_sz_0 }, "empty 0-byte pipe: write(1048576) = 65536, "
	  "more than the capacity F_SETPIPE_SZ gave" },
	{ "WR-06", { .write = write_direct_0_eio }, "O_DIRECT: write(0) then write(\"x\"): EIO" },
	{ "WR-06", { .write = write_direct_1_eio }, "O_DIRECT: write(0) then write(\"x\"): EIO" },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

START_TEST(later_condition_fails)
{
	const struct pb_check *c = pb_test_find_check(cases[_i].id);
	struct pb_sysops s = pb_test_sysops(&cases[_i].sys);
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_ANON, .timeout_s = 10 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);
	fill_writes = 0;
	eofs_seen = 0;
	full_write_1_seen = false;
	nb04_dup = -1;
	nb04_getfl_calls = 0;
	if (cases[_i].phrase)  /* a row that FAILs: its waits run out a quarter as long */
		pb_fast_time_on();
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	pb_fast_time_off();
	if (!cases[_i].phrase) {
		ck_assert_msg(r.verdict != PB_FAIL && r.verdict != PB_ERROR, "%s case %d (lawful): "
			      "%s: %s", cases[_i].id, _i, pb_verdict_names[r.verdict], r.detail);
		return;
	}
	ck_assert_msg(r.verdict == PB_FAIL, "%s case %d: %s: %s", cases[_i].id, _i,
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(strstr(r.detail, cases[_i].phrase) != NULL, "%s case %d: '%s' lacks '%s'",
		      cases[_i].id, _i, r.detail, cases[_i].phrase);
	pb_test_detail_is("conditions.later_condition", _i, r.detail);
}
END_TEST

/* A pipe that never fills is given up after 64 MiB: the page writes up to
 * the one that passes the bound, not more. */
START_TEST(fill_bound_is_64_mib)
{
	const struct pb_check *c = pb_test_find_check("NB-01");
	struct pb_sysops s = pb_sysops_real;
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct pb_check_result r;
	long page = sysconf(_SC_PAGESIZE);

	shared_writes = mmap(NULL, sizeof(*shared_writes), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(shared_writes, MAP_FAILED);
	*shared_writes = 0;
	s.write = write_never_full_counted;
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_int_eq(r.verdict, PB_FAIL);
	ck_assert_ptr_nonnull(strstr(r.detail, "more than 64 MiB without EAGAIN"));
	/* NB-01 writes PIPE_BUF once before filling; then the fill's pages */
	ck_assert_int_ge(*shared_writes, (64L << 20) / page + 1);
	ck_assert_int_le(*shared_writes, (64L << 20) / page + 2);
	munmap(shared_writes, sizeof(*shared_writes));
}
END_TEST

/* pb_check_count_fds agrees with a count by fcntl(F_GETFD) over every
 * descriptor below the limit, and moves by exactly one per descriptor. */
START_TEST(count_fds_is_exact)
{
	int by_fcntl = 0, before, fd;

	for (int i = 0; i < 4096; i++)
		if (fcntl(i, F_GETFD) >= 0)
			by_fcntl++;
	before = pb_check_count_fds();
	ck_assert_int_eq(before, by_fcntl);
	fd = dup(0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pb_check_count_fds(), before + 1);
	close(fd);
	ck_assert_int_eq(pb_check_count_fds(), before);
}
END_TEST

/* F_GETPIPE_SZ says half a page: the checks that leave 96 bytes free in a
 * full pipe skip, saying why, and go no further (the real pipe is empty, so
 * a check that went on would see its writes succeed and FAIL). */
static int fcntl_half_page(int fd, int cmd, long arg)
{
	return cmd == F_GETPIPE_SZ ? (int)(sysconf(_SC_PAGESIZE) / 2) : fcntl(fd, cmd, arg);
}

/* Check ID run on a kernel broken as BROKEN says: it must skip, its detail
 * holding WANT. */
static void skips_saying(const char *id, const struct pb_sysops *broken, const char *want)
{
	const struct pb_check *c = pb_test_find_check(id);
	struct pb_sysops s = pb_test_sysops(broken);
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_ANON, .timeout_s = 10 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_msg(r.verdict == PB_SKIP && strstr(r.detail, want), "%s: %s: %s", id,
		      pb_verdict_names[r.verdict], r.detail);
}

START_TEST(capacity_below_a_page_skips)
{
	const struct pb_sysops broken = { .fcntl = fcntl_half_page };
	long page = sysconf(_SC_PAGESIZE);
	char want[96];

	snprintf(want, sizeof(want), "capacity %ld is below one page (%ld)", page / 2, page);
	skips_saying("WR-01", &broken, want);
	skips_saying("NB-01", &broken, want);
}
END_TEST

/* A pipe of two pages that cannot grow: F_GETPIPE_SZ of a fresh (64 KiB)
 * pipe first really shrinks it to two pages; F_SETPIPE_SZ to four pages
 * fails with EPERM (pipe-user-pages-soft reached). */
static int fcntl_two_pages_stuck(int fd, int cmd, long arg)
{
	long page = sysconf(_SC_PAGESIZE);

	if (cmd == F_GETPIPE_SZ && fcntl(fd, F_GETPIPE_SZ) == 65536 &&
	    fcntl(fd, F_SETPIPE_SZ, 2 * page) < 0)
		return -1;
	if (cmd == F_SETPIPE_SZ && arg == 4 * page) {
		errno = EPERM;
		return -1;
	}
	return fcntl(fd, cmd, arg);
}

/* NB-03 needs three pages to leave two free: with two it skips, saying why. */
START_TEST(nb03_two_pages_skips)
{
	char want[96];

	snprintf(want, sizeof(want), "capacity %ld, and F_SETPIPE_SZ cannot grow it",
		 2 * sysconf(_SC_PAGESIZE));
	skips_saying("NB-03", &(struct pb_sysops){ .fcntl = fcntl_two_pages_stuck }, want);
}
END_TEST

/* An open() that puts its descriptor high (at 100 or above), not at the
 * lowest free one: the check's own /dev/null must not decide where it looks. */
static int open_high(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags, mode), hi;

	if (fd < 0)
		return fd;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, 100);
	PB_KEEP_ERRNO(close(fd));
	return hi;
}

/* CRE-02 with descriptor 0 free: the hole it punches is at 0, the lowest of
 * all, and a lawful pipe() there passes (the lowest free are counted from 0,
 * not from 1), and its note says the read end is on the lower one. */
START_TEST(cre02_hole_at_fd_0)
{
	const struct pb_check *c = pb_test_find_check("CRE-02");
	/* .close = close: descriptor 0 is freed below and becomes the check's */
	struct pb_sysops s = pb_test_sysops(&(struct pb_sysops){ .open = open_high, .close = close });
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_ANON, .timeout_s = 10 };
	struct pb_check_result r;
	int save = dup(0), rc;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_ge(save, 0);
	close(0);
	rc = pb_conformance_run_one(c, &o, &r);
	ck_assert_int_eq(dup2(save, 0), 0);
	close(save);
	ck_assert_int_eq(rc, 0);
	/* pipe() gives the read end the lower: 0 */
	ck_assert_msg(r.verdict == PB_PASS && !strncmp(r.detail, "{0,", 3) &&
		      strstr(r.detail, "} expected and got; read end on the lower one"), "%s: %s",
		      pb_verdict_names[r.verdict], r.detail);
}
END_TEST

/* NB-03's note on this kernel: the partial write with two pages free first
 * (at most two pages, more than none), then the two fills. */
START_TEST(nb03_note)
{
	const struct pb_check *c = pb_test_find_check("NB-03");
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct pb_check_result r;
	long page = sysconf(_SC_PAGESIZE), n = -1;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	if (r.verdict == PB_SKIP)
		return;
	ck_assert_msg(r.verdict == PB_PASS, "%s: %s", pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(sscanf(r.detail, "2 pages free: write(5 pages)=%ld; ", &n) == 1 && n > 0 &&
		      n <= 2 * page && strstr(r.detail, "; empty "), "%s", r.detail);
}
END_TEST

/* NB-05's info line on this kernel: the figures it names follow from the
 * capacity (F_GETPIPE_SZ of a fresh pipe) and the page size. */
START_TEST(nb05_figures)
{
	const struct pb_check *c = pb_test_find_check("NB-05");
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct pb_check_result r;
	long page = sysconf(_SC_PAGESIZE), cap;
	char want[160];
	int fd[2];

	ck_assert_int_eq(pipe(fd), 0);
	cap = fcntl(fd[1], F_GETPIPE_SZ);
	close(fd[0]);
	close(fd[1]);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	if (r.verdict == PB_SKIP)
		return;  /* one page: nothing to count */
	ck_assert_msg(r.verdict == PB_INFO, "%s: %s", pb_verdict_names[r.verdict], r.detail);
	snprintf(want, sizeof(want), "1 B + %ld pages: FIONREAD %ld of %ld, write(1) = ",
		 cap / page - 1, 1 + (cap / page - 1) * page, cap);
	ck_assert_msg(strstr(r.detail, want), "no '%s' in: %s", want, r.detail);
	snprintf(want, sizeof(want), "write(%ld) = ", page + 50);
	ck_assert_msg(strstr(r.detail, want), "no '%s' in: %s", want, r.detail);
}
END_TEST

/* WR-03's one write is 1 MiB + 123 bytes, more than any default capacity,
 * and its note says so. */
START_TEST(wr03_size)
{
	const struct pb_check *c = pb_test_find_check("WR-03");
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_msg(r.verdict == PB_PASS, "%s: %s", pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(strstr(r.detail, "write(1048699) returned 1048699; the reader got every "
			     "byte in order"), "%s", r.detail);
}
END_TEST

PB_CHECK_SUITE_MAIN("conf_conditions",
	PB_TCASE_LOOP("later_conditions", 30, later_condition_fails, NCASES),
	PB_TCASE_TIMED("nb05", 30, nb05_figures, wr03_size, nb03_note, nb03_two_pages_skips,
		       capacity_below_a_page_skips, cre02_hole_at_fd_0),
	PB_TCASE_TIMED("helpers", 0, count_fds_is_exact, fill_bound_is_64_mib))
