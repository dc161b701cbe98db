/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The write checks, WR-* (src/checks/write.c): each one FAILs on a kernel
 * broken the way it looks for (an injected pb_sysops), first its main bug,
 * then each later condition on its own; it gives the exact verdict the
 * fail/error rule asks for (a pipe or FIFO misbehaving at any step, setup
 * included, is FAIL; a harness resource is ERROR: here fork and malloc fail
 * on request, as the check's reader and buffer); and on the real kernel it
 * says exactly what the kernel did.
 */
#include <config.h>

#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fast_time.h"  /* first: check_conf.h's row runners use it */
#include "check_conf.h"
#include "check_main.h"
#include "checks/conformance.h"

/* ---- misbehaving system calls, each imitating one kernel or libc bug ---- */

/* write_torn, write_small, write_enomem_on_pipes, write_zero_when_full,
 * write_eio_on_pipes, fcntl_getpipesz_eio and pipe2_direct_eio:
 * tests/check_conf.h. */

/* Interrupted after a partial transfer, reports EINTR (data loss). */
static ssize_t write_eintr_after_data(int fd, const void *buf, size_t n)
{
	return write_partial_as(EINTR, fd, buf, n);
}

/* Corrupts one byte of every write. */
static ssize_t write_corrupt(int fd, const void *buf, size_t n)
{
	char *copy = malloc(n ? n : 1);
	ssize_t r;

	if (!copy)
		return write(fd, buf, n);
	memcpy(copy, buf, n);
	if (n)
		copy[n / 2] ^= 0x55;
	r = write(fd, copy, n);
	free(copy);
	return r;
}

/* A zero-length write checks for readers first and raises SIGPIPE. */
static ssize_t write_zero_sigpipe(int fd, const void *buf, size_t n)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	if (n == 0 && poll(&p, 1, 0) == 1 && (p.revents & POLLERR)) {
		kill(getpid(), SIGPIPE);
		errno = EPIPE;
		return -1;
	}
	return write(fd, buf, n);
}

/* _PC_PIPE_BUF says 256, not the PIPE_BUF the headers give. */
static long fpathconf_small(int fd, int name)
{
	return name == _PC_PIPE_BUF ? 256 : fpathconf(fd, name);
}

/* F_SETFL fails on a pipe. */
static int fcntl_setfl_eio(int fd, int cmd, long arg)
{
	if (cmd == F_SETFL) {
		errno = EIO;
		return -1;
	}
	return fcntl(fd, cmd, arg);
}

/* ---- the harness's own resources failing on request ---- */

/* When set, fork() fails with EAGAIN in every process but this one: the
 * runner's fork of the check works, the check's own fork of a helper fails. */
static pid_t fork_only_in;

pid_t fork(void)
{
	static pid_t (*real)(void);

	if (fork_only_in && getpid() != fork_only_in) {
		errno = EAGAIN;
		return -1;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "fork");
	return real();
}

/* When nonzero, malloc of exactly this many bytes fails with ENOMEM: one
 * allocation of a check's (WR-03's 1 MiB + 123-byte buffer), every other
 * allocation of the process untouched. */
static size_t malloc_fails_for;

/* When set, the buffers of exactly buffers->size bytes are counted, as
 * they are allocated and freed, in memory shared with the check's process:
 * a check frees every buffer it allocates, a retry's too. */
static struct buffers {
	size_t size;
	int allocs, frees, overruns;  /* overruns: a byte written past the end */
	void *live[8];
} *buffers;

void *malloc(size_t n)
{
	static void *(*real)(size_t);
	void *p;

	if (malloc_fails_for && n == malloc_fails_for) {
		errno = ENOMEM;
		return NULL;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "malloc");
	if (buffers && n == buffers->size) {
		p = real(n + 16);  /* 16 bytes of 0xa5 past the end, checked by free */
		if (p) {
			memset(p, 0x5a, n);  /* not zeros: what the check must set */
			memset((char *)p + n, 0xa5, 16);
		}
	} else {
		p = real(n);
	}
	if (p && buffers && n == buffers->size) {
		buffers->allocs++;
		for (int i = 0; i < 8; i++)
			if (!buffers->live[i]) {
				buffers->live[i] = p;
				break;
			}
	}
	return p;
}

void free(void *p)
{
	static void (*real)(void *);
	static bool resolving;

	if (p && buffers)
		for (int i = 0; i < 8; i++)
			if (buffers->live[i] == p) {
				for (size_t k = 0; k < 16; k++)
					if (((unsigned char *)p)[buffers->size + k] != 0xa5)
						buffers->overruns++;
				buffers->live[i] = NULL;
				buffers->frees++;
			}
	if (!real) {
		if (resolving)
			return;  /* dlsym's own clean-up while it looks free up: kept */
		resolving = true;
		*(void **)&real = dlsym(RTLD_NEXT, "free");
		resolving = false;
	}
	real(p);
}

/* ---- the table: each check and the bug it must catch ---- */

enum bug {
	WRITE_TORN, WRITE_EINTR, WRITE_CORRUPT, FPATHCONF_SMALL, WRITE_ZERO_SIGPIPE,
	WRITE_FULL_ZERO, WRITE_SMALL, WRITE_EIO, WRITE_ENOMEM, PIPES_EIO, FCNTL_GETPIPESZ_EIO,
	FCNTL_SETFL_EIO, PIPE2_DIRECT_EIO, FORK_EAGAIN, BUFFER_ENOMEM, WR02_BUFFER_ENOMEM,
};

/* WR-02's buffer: a new pipe's capacity and 2 x PIPE_BUF. */
static size_t wr02_buffer_size(void)
{
	int fd[2];
	long cap;

	ck_assert_int_eq(pipe(fd), 0);
	cap = fcntl(fd[1], F_GETPIPE_SZ);
	close(fd[0]);
	close(fd[1]);
	ck_assert_int_gt(cap, 0);
	return (size_t)cap + 2 * PIPE_BUF;
}

static struct pb_sysops broken_ops(enum bug b)
{
	struct pb_sysops s = pb_sysops_real;

	fork_only_in = b == FORK_EAGAIN ? getpid() : 0;
	malloc_fails_for = b == BUFFER_ENOMEM ? (1u << 20) + 123 :
			   b == WR02_BUFFER_ENOMEM ? wr02_buffer_size() : 0;
	switch (b) {
	case FORK_EAGAIN: case BUFFER_ENOMEM: case WR02_BUFFER_ENOMEM: break;
	case WRITE_TORN: s.write = write_torn; break;
	case WRITE_EINTR: s.write = write_eintr_after_data; break;
	case WRITE_CORRUPT: s.write = write_corrupt; break;
	case FPATHCONF_SMALL: s.fpathconf = fpathconf_small; break;
	case WRITE_ZERO_SIGPIPE: s.write = write_zero_sigpipe; break;
	case WRITE_FULL_ZERO: s.write = write_zero_when_full; break;
	case WRITE_SMALL: s.write = write_small; break;
	case WRITE_EIO: s.write = write_eio_on_pipes; break;
	case WRITE_ENOMEM: s.write = write_enomem_on_pipes; break;
	case PIPES_EIO: s.pipe2 = pipe2_eio; s.mkfifo = mkfifo_eio; break;
	case FCNTL_GETPIPESZ_EIO: s.fcntl = fcntl_getpipesz_eio; break;
	case FCNTL_SETFL_EIO: s.fcntl = fcntl_setfl_eio; break;
	case PIPE2_DIRECT_EIO: s.pipe2 = pipe2_direct_eio; break;
	}
	return s;
}

static const struct pb_test_bug broken_kernels[] = {
	{ "WR-01", WRITE_TORN }, { "WR-02", WRITE_EINTR }, { "WR-03", WRITE_CORRUPT },
	{ "WR-04", WRITE_CORRUPT }, { "WR-05", FPATHCONF_SMALL }, { "WR-06", WRITE_ZERO_SIGPIPE },
};
#define NBROKEN (int)(sizeof(broken_kernels) / sizeof(broken_kernels[0]))

/* Loop index i: row i/2, anon for even i and fifo for odd (both-kind
 * checks).  The first also asks that every check has a row. */
START_TEST(broken_kernel_fails)
{
	struct pb_sysops s = broken_ops(broken_kernels[_i / 2].bug);

	if (_i == 0)
		pb_test_every_check_has_a_row(pb_checks_write, broken_kernels, NBROKEN,
					      sizeof(broken_kernels[0]), "broken-kernel");
	pb_test_fails_on_broken_kernel(broken_kernels[_i / 2].id, &s, _i, "write.broken_kernel");
}
END_TEST

/* Exact verdicts for situations the table above does not show: the
 * fail/error rule (a pipe or FIFO call misbehaving at any step, setup
 * included, is FAIL naming it; a harness resource is ERROR).  WORDS must be
 * in the detail. */
static const struct pb_test_verdict verdicts[] = {
	/* write() on a full nonblocking pipe returns 0 instead of -1/EAGAIN */
	{ "WR-01", WRITE_FULL_ZERO, PB_KIND_ANON, PB_FAIL, "returned 0; POSIX requires -1 with EAGAIN" },
	{ "WR-01", WRITE_FULL_ZERO, PB_KIND_FIFO, PB_FAIL, "returned 0; POSIX requires -1 with EAGAIN" },
	/* a write with room that is short, during setup */
	{ "WR-01", WRITE_SMALL, PB_KIND_ANON, PB_FAIL, "there is room" },
	/* a write failing during setup: FAIL naming the errno; out of memory: ERROR */
	{ "WR-01", WRITE_EIO, PB_KIND_ANON, PB_FAIL, "there is room" },
	{ "WR-01", WRITE_EIO, PB_KIND_ANON, PB_FAIL, "EIO" },
	{ "WR-01", WRITE_ENOMEM, PB_KIND_ANON, PB_ERROR, "harness" },
	/* pipe/FIFO creation broken: FAIL; out of descriptors: ERROR */
	{ "WR-05", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "pipe2" },
	/* fcntl on a pipe failing during setup */
	{ "WR-01", FCNTL_GETPIPESZ_EIO, PB_KIND_ANON, PB_FAIL, "F_GETPIPE_SZ" },
	{ "WR-02", FCNTL_GETPIPESZ_EIO, PB_KIND_FIFO, PB_FAIL, "F_GETPIPE_SZ" },
	{ "WR-01", FCNTL_SETFL_EIO, PB_KIND_ANON, PB_FAIL, "F_SETFL" },
	{ "WR-06", PIPE2_DIRECT_EIO, PB_KIND_ANON, PB_FAIL, "O_DIRECT" },
	/* the check cannot fork its reader or allocate its buffer: the harness's
	 * resource, named */
	{ "WR-03", FORK_EAGAIN, PB_KIND_ANON, PB_ERROR, "fork: EAGAIN" },
	{ "WR-03", BUFFER_ENOMEM, PB_KIND_ANON, PB_ERROR, "harness: out of memory" },
	{ "WR-02", WR02_BUFFER_ENOMEM, PB_KIND_ANON, PB_ERROR, "harness: out of memory" },
};
#define NVERDICTS (int)(sizeof(verdicts) / sizeof(verdicts[0]))

START_TEST(verdict_per_situation)
{
	struct pb_sysops s = broken_ops(verdicts[_i].bug);

	pb_test_verdict_is(&verdicts[_i], &s, _i, "write.verdict_per_situation");
}
END_TEST

/* ---- later conditions, one at a time (pb_test_later) ---- */

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

/* WR-01 and WR-02 ask F_GETPIPE_SZ of the write end: here only that end
 * fails (the read end still answers). */
static int fcntl_getpipesz_write_end_eio(int fd, int cmd, long arg)
{
	return cmd == F_GETPIPE_SZ && is_write_end(fd) ? ifail_with(EIO) : fcntl(fd, cmd, arg);
}

/* WR-01 reads FIONREAD on the read end: the write end's answer is one too
 * many (a lawful row: the check never asks that end). */
static int ioctl_write_end_fionread_plus_1(int fd, unsigned long req, void *arg)
{
	return ioctl_fionread_end(fd, req, arg, O_WRONLY, 0);
}

/* WR-01 (a): the blocking write(200) with 96 bytes free returns 0 with
 * errno EINTR, moves 1 byte and says 1, or says 199 (moving none). */
static ssize_t write_200_zero_eintr(int fd, const void *buf, size_t n)
{
	if (n == 200 && !is_nonblock(fd)) {
		errno = EINTR;
		return 0;
	}
	return write(fd, buf, n);
}

static ssize_t write_200_torn_1(int fd, const void *buf, size_t n)
{
	return n == 200 && !is_nonblock(fd) ? write(fd, buf, 1) : write(fd, buf, n);
}

static ssize_t write_200_says_199(int fd, const void *buf, size_t n)
{
	return n == 200 && !is_nonblock(fd) ? 199 : write(fd, buf, n);
}

/* WR-01 (b): a blocking write(1) into the full pipe says 1 (an overrun), or
 * returns 0 with errno EINTR. */
static ssize_t write_1_blocking_says_1(int fd, const void *buf, size_t n)
{
	return n == 1 && !is_nonblock(fd) ? 1 : write(fd, buf, n);
}

static ssize_t write_1_blocking_zero_eintr(int fd, const void *buf, size_t n)
{
	if (n == 1 && !is_nonblock(fd)) {
		errno = EINTR;
		return 0;
	}
	return write(fd, buf, n);
}

/* WR-01 (b): F_SETFL fails on a full pipe's write end only: (a)'s pipe,
 * 96 bytes short of full, still gets its O_NONBLOCK cleared. */
static int fcntl_setfl_eio_when_full(int fd, int cmd, long arg)
{
	int queued = -1;

	if (cmd == F_SETFL && is_write_end(fd) && ioctl(fd, FIONREAD, &queued) == 0 &&
	    queued == fcntl(fd, F_GETPIPE_SZ))
		return ifail_with(EIO);
	return fcntl(fd, cmd, arg);
}

/* WR-02's big write (more than the capacity, blocking): returns 0 with
 * errno EINTR after 10 bytes went in; moves 1 byte and says 1 (a lawful
 * partial count); says -1/EINTR after 1 byte went in; says -1/EIO after a
 * partial transfer. */
static bool is_huge_blocking(int fd, size_t n)
{
	return n > 65536 && is_pipe_fd(fd) && !is_nonblock(fd);
}

static ssize_t write_huge_zero_eintr_queued(int fd, const void *buf, size_t n)
{
	if (!is_huge_blocking(fd, n))
		return write(fd, buf, n);
	if (write(fd, buf, 10) != 10)
		return -1;
	errno = EINTR;
	return 0;
}

static ssize_t write_huge_moves_1(int fd, const void *buf, size_t n)
{
	return write(fd, buf, is_huge_blocking(fd, n) ? 1 : n);
}

static ssize_t write_huge_eintr_after_1(int fd, const void *buf, size_t n)
{
	if (!is_huge_blocking(fd, n))
		return write(fd, buf, n);
	if (write(fd, buf, 1) != 1)
		return -1;
	return fail_with(EINTR);
}

static ssize_t write_huge_eio_after_data(int fd, const void *buf, size_t n)
{
	return is_huge_blocking(fd, n) ? write_partial_as(EIO, fd, buf, n) : write(fd, buf, n);
}

/* ... the first big write says -1/EINTR (data lost) or -1/EIO, the next
 * would be a lawful partial count: the check stops at the first. */
static ssize_t write_huge_eintr_lost_once(int fd, const void *buf, size_t n)
{
	static bool done;

	if (is_huge_blocking(fd, n) && !done) {
		done = true;
		return write_partial_as(EINTR, fd, buf, n);
	}
	return write(fd, buf, n);
}

static ssize_t write_huge_eio_once(int fd, const void *buf, size_t n)
{
	static bool done;

	if (is_huge_blocking(fd, n) && !done) {
		done = true;
		return fail_with(EIO);
	}
	return write(fd, buf, n);
}

/* WR-03's one big write with a stale byte: the byte at DST replaced by the
 * one at SRC, as a kernel that copied from the wrong place would.  Each
 * pair is one the check's pattern (i * 7 + i / 251) tells apart and a
 * weaker one would not (i / 7, i * 6, i * 8, i * 7 - i / 251, i * 258,
 * i / 250, i / 252): the reader must see corrupted data. */
static ssize_t write_huge_stale(int fd, const void *buf, size_t n, size_t dst, size_t src)
{
	char *copy;
	ssize_t r;

	if (n <= 65536 || !is_pipe_fd(fd) || is_nonblock(fd))
		return write(fd, buf, n);
	copy = malloc(n);
	if (!copy)
		return write(fd, buf, n);
	memcpy(copy, buf, n);
	copy[dst] = copy[src];
	r = write(fd, copy, n);
	free(copy);
	return r;
}

#define STALE(name, dst, src) \
	static ssize_t name(int fd, const void *buf, size_t n) \
	{ \
		return write_huge_stale(fd, buf, n, (dst), (src)); \
	}
STALE(write_stale_2_from_1, 2, 1)
STALE(write_stale_630_from_502, 630, 502)
STALE(write_stale_40_from_8, 40, 8)
STALE(write_stale_300_from_117, 300, 117)
STALE(write_stale_200_from_72, 200, 72)
STALE(write_stale_250_from_177, 250, 177)
STALE(write_stale_324_from_251, 324, 251)
#undef STALE

static const struct pb_test_later later[] = {
	{ "WR-01", { .write = write_eintr_but_queued }, "gave EINTR but FIONREAD went" },
	{ "WR-01", { .write = write_torn_50 }, "returned 50: a torn atomic write" },
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
	/* WR-06's O_DIRECT part, each of its two writes failing on its own */
	{ "WR-06", { .write = write_direct_0_eio }, "O_DIRECT: write(0) then write(\"x\"): EIO" },
	{ "WR-06", { .write = write_direct_1_eio }, "O_DIRECT: write(0) then write(\"x\"): EIO" },
	/* WR-01 and WR-02 ask the capacity of the write end */
	{ "WR-01", { .fcntl = fcntl_getpipesz_write_end_eio }, "fcntl(F_GETPIPE_SZ) on the write "
	  "end = -1/EIO" },
	{ "WR-02", { .fcntl = fcntl_getpipesz_write_end_eio }, "fcntl(F_GETPIPE_SZ) on the write "
	  "end = -1/EIO" },
	/* WR-01's FIONREAD, before and after, is the read end's */
	{ "WR-01", { .ioctl = ioctl_write_end_fionread_plus_1 }, NULL },
	/* WR-01 (a): each count at the edges of "torn" (1, 199) and 0 */
	{ "WR-01", { .write = write_200_zero_eintr }, "(a) blocking write(200) = 0, not -1/EINTR" },
	{ "WR-01", { .write = write_200_torn_1 }, "returned 1: a torn atomic write" },
	{ "WR-01", { .write = write_200_says_199 }, "returned 199: a torn atomic write" },
	/* WR-01 (b): its own F_SETFL, a write(1) that overruns, 0 with EINTR */
	{ "WR-01", { .fcntl = fcntl_setfl_eio_when_full }, "(b) fcntl(F_SETFL) clearing O_NONBLOCK "
	  "on the write end: EIO" },
	{ "WR-01", { .write = write_1_blocking_says_1 }, "(b) full pipe: blocking write(1) = 1, "
	  "not -1/EINTR" },
	{ "WR-01", { .write = write_1_blocking_zero_eintr }, "(b) full pipe: blocking write(1) = 0, "
	  "not -1/EINTR" },
	/* WR-02: 0 with EINTR is no partial count and no -1/EINTR; 1 byte moved
	 * is a partial count; 1 byte queued before EINTR is data lost; -1 with
	 * another errno after data went in is that errno */
	{ "WR-02", { .write = write_huge_zero_eintr_queued }, "write of 73728 = 0/EINTR" },
	{ "WR-02", { .write = write_huge_moves_1 }, NULL },
	{ "WR-02", { .write = write_huge_eintr_after_1 }, "after 1 bytes were queued (data loss)" },
	{ "WR-02", { .write = write_huge_eio_after_data }, "write of 73728 = -1/EIO" },
	/* ... the bytes queued are the read end's FIONREAD */
	{ "WR-02", { .write = write_eintr_after_data, .ioctl = ioctl_write_end_fionread_plus_1 },
	  "after 65536 bytes were queued (data loss)" },
	/* ... a failure ends the check: no second attempt adds its note */
	{ "WR-02", { .write = write_huge_eintr_lost_once }, "after 65536 bytes were queued (data "
	  "loss)" },
	{ "WR-02", { .write = write_huge_eio_once }, "write of 73728 = -1/EIO" },
	/* WR-03: one stale byte, wherever it is, is corrupted data */
	{ "WR-03", { .write = write_stale_2_from_1 }, "the reader saw corrupted data" },
	{ "WR-03", { .write = write_stale_630_from_502 }, "the reader saw corrupted data" },
	{ "WR-03", { .write = write_stale_40_from_8 }, "the reader saw corrupted data" },
	{ "WR-03", { .write = write_stale_300_from_117 }, "the reader saw corrupted data" },
	{ "WR-03", { .write = write_stale_200_from_72 }, "the reader saw corrupted data" },
	{ "WR-03", { .write = write_stale_250_from_177 }, "the reader saw corrupted data" },
	{ "WR-03", { .write = write_stale_324_from_251 }, "the reader saw corrupted data" },
};
#define NLATER (sizeof(later) / sizeof(later[0]))

START_TEST(later_condition_fails)
{
	pb_test_later_condition_fails(&later[_i], _i, "write.later_condition");
}
END_TEST

/* F_GETPIPE_SZ says half a page (fcntl_half_page): WR-01, which leaves 96
 * bytes free in a full pipe, skips, saying why. */
START_TEST(capacity_below_a_page_skips)
{
	const struct pb_sysops broken = { .fcntl = fcntl_half_page };
	long page = sysconf(_SC_PAGESIZE);
	char want[96];

	snprintf(want, sizeof(want), "capacity %ld is below one page (%ld)", page / 2, page);
	pb_test_skips_saying("WR-01", &broken, want);
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

/* WR-01's write(200) and WR-02's big write send bytes the check set ('w',
 * 'p'), not whatever its stack or heap held: the fake notes in memory
 * shared with the check's process whether the bytes were all that (1) or
 * not (2), then writes. */
static int *bytes_seen;

static ssize_t write_notes_bytes(int fd, const void *buf, size_t n)
{
	const unsigned char *b = buf;
	char want = n == 200 ? 'w' : 'p';

	if ((n == 200 || n > 65536) && !is_nonblock(fd) && is_pipe_fd(fd)) {
		size_t i = 0;

		while (i < n && b[i] == want)
			i++;
		if (*bytes_seen != 2)
			*bytes_seen = i == n ? 1 : 2;
	}
	return write(fd, buf, n);
}

START_TEST(writes_defined_bytes)
{
	const struct pb_sysops broken = { .write = write_notes_bytes };
	const char *id = _i == 0 ? "WR-01" : "WR-02";
	const struct pb_check *c = pb_test_find_check(id);
	struct pb_sysops s = pb_test_sysops(&broken);
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_ANON, .timeout_s = 10 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);
	bytes_seen = mmap(NULL, sizeof(*bytes_seen), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(bytes_seen, MAP_FAILED);
	*bytes_seen = 0;
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_msg(r.verdict == PB_PASS, "%s: %s: %s", id, pb_verdict_names[r.verdict],
		      r.detail);
	ck_assert_msg(*bytes_seen == 1, "%s: its blocking write sent %s", id,
		      *bytes_seen ? "bytes it never set" : "nothing");
	munmap(bytes_seen, sizeof(*bytes_seen));
}
END_TEST

/* ---- one condition at a time, the Nth call faked (pb_test_step) ---- */

/* WR-04: a reader slow enough that the time budget cuts the stream. */
static ssize_t read_slowly(int fd, void *buf, size_t n)
{
	struct timespec t = { 0, 2000000 };

	if (is_pipe_fd(fd))
		nanosleep(&t, NULL);
	return read(fd, buf, n > 512 ? 512 : n);
}

/* WR-02: the big write interrupted before any byte was copied, on both
 * attempts (a machine too loaded for the timer to find it blocked). */
static ssize_t write_huge_eintr_at_once(int fd, const void *buf, size_t n)
{
	return n > 65536 && is_pipe_fd(fd) ? fail_with(EINTR) : write(fd, buf, n);
}

/* ... on the first attempt only: the retry (1 s) decides. */
static ssize_t write_huge_eintr_once(int fd, const void *buf, size_t n)
{
	static bool done;

	if (n > 65536 && is_pipe_fd(fd) && !done) {
		done = true;
		return fail_with(EINTR);
	}
	return write(fd, buf, n);
}

/* ... twice, and a third big write would say it is done: the check makes
 * two attempts, no more. */
static ssize_t write_huge_eintr_twice_then_done(int fd, const void *buf, size_t n)
{
	static int calls;

	if (n > 65536 && is_pipe_fd(fd))
		return ++calls <= 2 ? fail_with(EINTR) : (ssize_t)n;
	return write(fd, buf, n);
}

/* WR-04's reader waits on its one descriptor: a poll of more (entries
 * it never filled in) is answered "nothing ready", a stall. */
static int poll_one_only(struct pollfd *p, nfds_t n, int ms)
{
	return n == 1 && is_pipe_fd(p[0].fd) && p[0].events == POLLIN ? poll(p, n, ms) : 0;
}

#define A PB_KIND_ANON
static const struct pb_test_step steps[] = {
	/* WR-02: EINTR with nothing queued, twice: inconclusive, a skip */
	{ "WR-02", A, { .write = write_huge_eintr_at_once }, .v = PB_SKIP,
	  .phrase = "inconclusive: interrupted twice before any byte was copied" },
	/* ... once: the second attempt's verdict stands */
	{ "WR-02", A, { .write = write_huge_eintr_once }, PASSES "interrupted write of " },
	/* WR-04: the time budget cutting a slow stream is not a failure */
	{ "WR-04", A, { .read = read_slowly }, PASSES "stopped at the 1.5 s budget" },
	/* WR-04 cannot shrink the pipe: it names the size F_GETPIPE_SZ gives
	 * for its write end (the fake answers that end only) */
	{ "WR-04", A, {}, .setsz_err = EPERM, .sz = { 1, 12288, 0, NULL },
	  PASSES "(4 writers, 12288-byte pipe)" },
	{ "WR-04", A, { .poll = poll_one_only }, PASSES "/12000 records whole and in order" },
	{ "WR-02", A, { .write = write_huge_eintr_twice_then_done }, .v = PB_SKIP,
	  .phrase = "inconclusive: interrupted twice before any byte was copied" },
};
#undef A
#define NSTEPS (sizeof(steps) / sizeof(steps[0]))

START_TEST(one_condition)
{
	pb_test_one_condition(&steps[_i], _i, "write.one_condition");
}
END_TEST

/* A check frees the buffer it allocates on every path: WR-02 allocates one
 * per attempt (here two: the first is interrupted before any byte), WR-03
 * one, freed also when it cannot make its pipe. */
static const struct {
	const char *id;
	struct pb_sysops sys;
	bool wr02;  /* the buffer is WR-02's (else WR-03's 1 MiB + 123) */
	int allocs;
	enum pb_verdict v;  /* with every byte it uses set by the check */
} frees[] = {
	{ "WR-02", { .write = write_huge_eintr_once }, true, 2, PB_PASS },
	{ "WR-03", {}, false, 1, PB_PASS },
	{ "WR-03", { .pipe2 = pipe2_eio }, false, 1, PB_FAIL },
};

START_TEST(frees_its_buffers)
{
	const struct pb_check *c = pb_test_find_check(frees[_i].id);
	struct pb_sysops s = pb_test_sysops(&frees[_i].sys);
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_ANON, .timeout_s = 10 };
	struct pb_check_result r;
	size_t size = frees[_i].wr02 ? wr02_buffer_size() : (1u << 20) + 123;
	struct buffers *b;

	ck_assert_ptr_nonnull(c);
	b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(b, MAP_FAILED);
	memset(b, 0, sizeof(*b));
	b->size = size;
	buffers = b;
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	buffers = NULL;
	ck_assert_msg(r.verdict == frees[_i].v, "%s case %d: %s: %s", frees[_i].id, _i,
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(b->overruns == 0, "%s case %d: %d bytes written past the buffer's end",
		      frees[_i].id, _i, b->overruns);
	ck_assert_msg(b->allocs == frees[_i].allocs && b->frees == b->allocs,
		      "%s case %d: %d buffers of %zu bytes allocated, %d freed (%s: %s)",
		      frees[_i].id, _i, b->allocs, size, b->frees, pb_verdict_names[r.verdict],
		      r.detail);
	munmap(b, sizeof(*b));
}
END_TEST

/* WR-02 ends where its setup fails: no call on the descriptors it did not
 * get (its pipe2 failed) or on the pipe whose capacity it could not learn
 * (F_GETPIPE_SZ failed).  Counted in memory shared with the check's
 * process, from the failure on. */
static int *after_failure;  /* [0]: failed yet; [1]: calls since */

static void count_after_failure(void)
{
	if (after_failure[0])
		after_failure[1]++;
}

static int pipe2_eio_noted(int fd[2], int flags)
{
	after_failure[0] = 1;
	return pipe2_eio(fd, flags);
}

static int fcntl_getpipesz_eio_noted(int fd, int cmd, long arg)
{
	if (cmd == F_GETPIPE_SZ) {
		after_failure[0] = 1;
		return ifail_with(EIO);
	}
	count_after_failure();
	return fcntl(fd, cmd, arg);
}

static int fcntl_counted(int fd, int cmd, long arg)
{
	count_after_failure();
	return fcntl(fd, cmd, arg);
}

static ssize_t write_counted(int fd, const void *buf, size_t n)
{
	count_after_failure();
	return write(fd, buf, n);
}

static int ioctl_counted(int fd, unsigned long req, void *arg)
{
	count_after_failure();
	return ioctl(fd, req, arg);
}

static const struct pb_sysops stops_at[] = {
	{ .pipe2 = pipe2_eio_noted, .fcntl = fcntl_counted, .write = write_counted,
	  .ioctl = ioctl_counted },
	{ .fcntl = fcntl_getpipesz_eio_noted, .write = write_counted, .ioctl = ioctl_counted },
};

START_TEST(stops_at_a_failed_setup)
{
	const struct pb_check *c = pb_test_find_check("WR-02");
	struct pb_sysops s = pb_test_sysops(&stops_at[_i]);
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_ANON, .timeout_s = 10 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);
	after_failure = mmap(NULL, 2 * sizeof(int), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(after_failure, MAP_FAILED);
	after_failure[0] = after_failure[1] = 0;
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_msg(r.verdict == PB_FAIL, "WR-02 case %d: %s: %s", _i,
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(after_failure[0] == 1 && after_failure[1] == 0, "WR-02 case %d: %d calls "
		      "after its setup failed (%s)", _i, after_failure[1], r.detail);
	munmap(after_failure, 2 * sizeof(int));
}
END_TEST

/* WR-04's note counts against 4 x 3000 records and names the size the pipe
 * was given (F_SETPIPE_SZ of 2 pages, what this kernel answers for a pipe
 * of its own); a stream read whole is not said to have stopped at the
 * budget. */
START_TEST(wr04_note)
{
	const struct pb_test_step w = { "WR-04", PB_KIND_ANON, {}, .v = PB_PASS, .phrase = "" };
	long page = sysconf(_SC_PAGESIZE), size;
	struct pb_check_result r;
	char want[96];
	int fd[2];

	ck_assert_int_eq(pipe(fd), 0);
	size = fcntl(fd[1], F_SETPIPE_SZ, 2 * page);
	if (size < 0)
		size = fcntl(fd[1], F_GETPIPE_SZ);
	close(fd[0]);
	close(fd[1]);
	r = pb_test_run_step(&w);

	ck_assert_msg(r.verdict == PB_PASS, "WR-04: %s: %s", pb_verdict_names[r.verdict],
		      r.detail);
	snprintf(want, sizeof(want), "nonblocking (4 writers, %ld-byte pipe)", size);
	ck_assert_msg(strstr(r.detail, want), "'%s' lacks '%s'", r.detail, want);
	ck_assert_msg(strstr(r.detail, "/12000 records whole and in order blocking, ") &&
		      strstr(r.detail, "/12000 nonblocking (4 writers, "), "%s", r.detail);
	if (strstr(r.detail, "12000/12000 records whole and in order blocking, 12000/12000"))
		ck_assert_msg(!strstr(r.detail, "stopped at"), "%s", r.detail);
}
END_TEST

/* ---- on the real kernel, word for word (pb_test_note) ---- */

static const struct pb_test_note notes[] = {
	{ "WR-01", PB_PASS, "(a) 96 B free: write(200) blocked, EINTR, FIONREAD stayed 65440; "
	  "(b) full: write(1) blocked, EINTR", NULL },
	{ "WR-02", PB_PASS, "interrupted write of 73728 returned 65536 (capacity 65536)", NULL },
	{ "WR-03", PB_PASS, "write(1048699) returned 1048699; the reader got every byte in order",
	  NULL },
	{ "WR-04", PB_PASS, "#/12000 records whole and in order blocking, #/12000 nonblocking "
	  "(4 writers, 8192-byte pipe)*", "#/12000 records whole and in order blocking, #/12000 "
	  "nonblocking (4 writers, 8192-byte FIFO)*" },
	{ "WR-05", PB_PASS, "PIPE_BUF 4096 everywhere (both pipe ends, FIFO, directory)", NULL },
	{ "WR-06", PB_PASS, "read(0) = 0 without blocking; write(0) with no reader = 0, no SIGPIPE; "
	  "O_DIRECT write(0) adds no packet", "read(0) = 0 without blocking; write(0) with no "
	  "reader = 0, no SIGPIPE" },
};
#define NNOTES (int)(sizeof(notes) / sizeof(notes[0]))

/* Loop index i: row i/2, anon for even i and fifo for odd.  The first also
 * asks that every check has a row. */
START_TEST(says_what_the_kernel_did)
{
	if (_i == 0)
		pb_test_every_check_has_a_row(pb_checks_write, notes, NNOTES, sizeof(notes[0]),
					      "real-kernel");
	pb_test_says_what_the_kernel_did(&notes[_i / 2], _i);
}
END_TEST

PB_CHECK_SUITE_MAIN("conf_write",
	PB_TCASE_LOOP("broken_kernel", 30, broken_kernel_fails, 2 * NBROKEN),
	PB_TCASE_LOOP("verdicts", 30, verdict_per_situation, NVERDICTS),
	PB_TCASE_LOOP("later_conditions", 30, later_condition_fails, NLATER),
	PB_TCASE_LOOP("one_condition", 30, one_condition, NSTEPS),
	PB_TCASE_LOOP("real_kernel", 120, says_what_the_kernel_did, 2 * NNOTES),
	PB_TCASE_TIMED("figures", 30, wr03_size, capacity_below_a_page_skips),
	PB_TCASE_LOOP("bytes", 30, writes_defined_bytes, 2),
	PB_TCASE_LOOP("frees", 30, frees_its_buffers, (int)(sizeof(frees) / sizeof(frees[0]))),
	PB_TCASE_LOOP("stops", 30, stops_at_a_failed_setup, 2),
	PB_TCASE_TIMED("wr04", 60, wr04_note))
