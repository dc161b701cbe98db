/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test helper: faultinj.so, an LD_PRELOAD interposer that makes pipes and
 * FIFOs misbehave the way a broken kernel would (tests/faults.sh).
 *
 *   PB_FAULT=NAME   inject the misbehaviour NAME (the table below);
 *                   unset or empty: pass every call through unchanged
 *   PB_FAULT=list   print the names, one a line, and exit 0
 *   PB_FAULT_HARNESS=devnull-emfile   open("/dev/null") fails with EMFILE
 *                   (the harness's own resource), alone or with PB_FAULT
 *   PB_FAULT_HARNESS=memstream   open_memstream() fails with ENOMEM (the
 *                   in-memory buffer a document is built in)
 *   PB_FAULT_HARNESS=memstream-close   open_memstream() works, but fclose()
 *                   of such a stream says EOF/ENOMEM (its last flush found no
 *                   memory); the stream is closed and its buffer set all the same
 *   PB_FAULT_CALLOC_BYTES=N   calloc() of exactly N bytes in all fails with
 *                   ENOMEM (a command's one large table); the others work.
 *                   Not under AddressSanitizer, whose calloc comes first.
 *   PB_FAULT_FDS_AT_EXIT=1   at exit() of the process the program started
 *                   as (not its children), each descriptor open then that
 *                   was not open when it started is named on standard
 *                   error, "faultinj: descriptor N open at exit: LINK"
 *   PB_FAULT_ALLOC_AT=N   the Nth allocation (malloc, calloc, realloc or
 *                   strdup) that the program's own code makes (its caller is
 *                   in the executable, not in a library such as libc or
 *                   json-c) fails with ENOMEM, once; each process counts its
 *                   own, from the count it was forked with.  Not under
 *                   AddressSanitizer, whose allocator comes first.
 *   PB_FAULT_ALLOC_COUNT=1   at exit() of the process the program started as,
 *                   "faultinj: N allocations" on standard error (N: as
 *                   PB_FAULT_ALLOC_AT counts them); with PB_FAULT_ALLOC_AT,
 *                   "faultinj: refused at +ADDR" when it refuses (for
 *                   addr2line -e PROGRAM ADDR)
 *   PB_FAULT_PIPE_ENFILE=N   the process's Nth pipe (counting pipe, pipe2
 *                   and the raw system call from 1) fails with ENFILE, the
 *                   system's file table full for a moment; the others work
 *
 * Only descriptors above 2 that are pipes or FIFOs at the time of the call
 * (fstat says S_IFIFO) misbehave: standard input, output and error (even
 * when they are pipes), regular files, /dev/null and /proc are untouched,
 * so the program under test still writes its document.  Run it with
 * descriptors 0-2 open, or its own pipes could land there.  Interposed: pipe, pipe2 and syscall(SYS_pipe2, ...) (pipebench
 * makes its judged pipes with the raw system call), read, write, close,
 * open/open64 (FIFO paths), fstat/fstat64, lseek/lseek64, fcntl, ioctl,
 * poll and select.  The real functions come from dlsym(RTLD_NEXT, ...).
 *
 * Under AddressSanitizer the ASan runtime must come first in the preload
 * list (LD_PRELOAD="libasan.so.N faultinj.so"): its interceptors then call
 * these wrappers as the "real" functions.
 */
#define _GNU_SOURCE 1
#undef _FILE_OFFSET_BITS

#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PIPEFS_MAGIC_ 0x50495045

enum fault {
	F_NONE,
	F_TORN_WRITE, F_WRITE_ZERO, F_LOST_BYTES, F_EARLY_EOF, F_DUP_BYTES, F_REORDER,
	F_HUNG_READ, F_EOF_NEVER, F_LOST_SIGPIPE, F_SIGPIPE_PROCESS,
	F_CLOEXEC_DROPPED, F_NONBLOCK_DROPPED, F_DIRECT_DROPPED, F_LAX_FLAGS,
	F_FD_LEAK, F_NON_LOWEST, F_PIPEFD_CLOBBERED, F_EFAULT_LEAK,
	F_FSTAT_TYPE, F_LSEEK_OK, F_FIONREAD_LIES, F_FIONBIO_IGNORED,
	F_SETPIPE_NOROUND, F_GETPIPE_LIES,
	F_POLLOUT_FULL, F_NO_POLLHUP, F_NO_POLLERR, F_SELECT_EOF,
	F_TS_UNSET, F_TS_PARTIAL_ANON, F_TS_FROZEN_FIFO,
	F_FIFO_ENXIO_LOST, F_FIFO_OPEN_NOBLOCK, F_EOF_MIDWAY,
	F_COUNT
};

/* Names as PB_FAULT spells them; tests/faults.tab has one row per name. */
static const char *const fault_names[F_COUNT] = {
	[F_NONE] = "",
	[F_TORN_WRITE] = "torn-write",          /* write(2..PIPE_BUF) writes half, returns it */
	[F_WRITE_ZERO] = "write-zero",          /* -1/EAGAIN from a pipe write becomes 0 */
	[F_LOST_BYTES] = "lost-bytes",          /* write(n) queues n-1 bytes, returns n */
	[F_EARLY_EOF] = "early-eof",            /* empty pipe with a writer: read returns 0 */
	[F_DUP_BYTES] = "dup-bytes",            /* a short read repeats its last byte */
	[F_REORDER] = "reorder",                /* a read swaps its first two bytes */
	[F_HUNG_READ] = "hung-read",            /* every read blocks forever */
	[F_EOF_NEVER] = "eof-never",            /* close of a write end keeps a hidden writer */
	[F_LOST_SIGPIPE] = "lost-sigpipe",      /* write with no reader succeeds, no SIGPIPE */
	[F_SIGPIPE_PROCESS] = "sigpipe-process", /* SIGPIPE sent to the process, not the thread */
	[F_CLOEXEC_DROPPED] = "cloexec-dropped", /* pipe2 ignores O_CLOEXEC */
	[F_NONBLOCK_DROPPED] = "nonblock-dropped", /* pipe2 ignores O_NONBLOCK */
	[F_DIRECT_DROPPED] = "direct-dropped",  /* pipe2 ignores O_DIRECT */
	[F_LAX_FLAGS] = "lax-flags",            /* pipe2 accepts invalid flags */
	[F_FD_LEAK] = "fd-leak",                /* pipe2 leaves a third descriptor open */
	[F_NON_LOWEST] = "non-lowest",          /* pipe2 fds are not the lowest free */
	[F_PIPEFD_CLOBBERED] = "pipefd-clobbered", /* a failed pipe2 writes pipefd */
	[F_EFAULT_LEAK] = "efault-leak",        /* pipe2 EFAULT leaks two descriptors */
	[F_FSTAT_TYPE] = "fstat-type",          /* fstat of a pipe says S_IFREG */
	[F_LSEEK_OK] = "lseek-ok",              /* lseek on a pipe returns 0 */
	[F_FIONREAD_LIES] = "fionread-lies",    /* FIONREAD says one byte more */
	[F_FIONBIO_IGNORED] = "fionbio-ignored", /* FIONBIO returns 0, changes nothing */
	[F_SETPIPE_NOROUND] = "setpipe-noround", /* F_SETPIPE_SZ returns the size asked */
	[F_GETPIPE_LIES] = "getpipe-lies",      /* F_GETPIPE_SZ says twice the capacity */
	[F_POLLOUT_FULL] = "pollout-full",      /* poll: POLLOUT on a full write end */
	[F_NO_POLLHUP] = "no-pollhup",          /* poll never reports POLLHUP */
	[F_NO_POLLERR] = "no-pollerr",          /* poll never reports POLLERR */
	[F_SELECT_EOF] = "select-eof",          /* select: a read end at EOF is not readable */
	[F_TS_UNSET] = "ts-unset",              /* a new pipe's a/mtime are the epoch */
	[F_TS_PARTIAL_ANON] = "ts-partial-anon", /* anon pipe: write moves mtime, read no atime */
	[F_TS_FROZEN_FIFO] = "ts-frozen-fifo",  /* FIFO I/O leaves a/mtime unchanged */
	[F_FIFO_ENXIO_LOST] = "fifo-enxio-lost", /* O_WRONLY|O_NONBLOCK opens without a reader */
	[F_FIFO_OPEN_NOBLOCK] = "fifo-open-noblock", /* blocking FIFO opens do not wait */
	[F_EOF_MIDWAY] = "eof-midway",          /* read(n >= 2) gets n/2, the next read 0 (EOF) */
};

static enum fault fault;
static void alloc_note_start(void);
/* PB_FAULT_HARNESS=devnull-emfile: open("/dev/null") fails with EMFILE, a
 * failure of the harness's own resources (not a pipe), so that a run can mix
 * a kernel fault with a harness error (exit-status precedence). */
static bool harness_devnull;
/* PB_FAULT_HARNESS=memstream: open_memstream() fails with ENOMEM. */
static bool harness_memstream;
/* PB_FAULT_HARNESS=memstream-close: the memory streams opened (up to 16),
 * whose fclose() says ENOMEM. */
static bool harness_memstream_close;
static FILE *memstreams[16];
/* PB_FAULT_PIPE_ENFILE=N: the Nth pipe fails with ENFILE (0: none). */
static long pipe_fail_at;
static long pipes_made;

/* Whether this pipe call is the one that fails (errno set). */
static bool pipe_fails_once(void)
{
	if (!pipe_fail_at || __atomic_add_fetch(&pipes_made, 1, __ATOMIC_SEQ_CST) != pipe_fail_at)
		return false;
	errno = ENFILE;
	return true;
}

static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_close)(int);
static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_fstat)(int, struct stat *);
static int (*real_fstat64)(int, struct stat64 *);
static off_t (*real_lseek)(int, off_t, int);
static off64_t (*real_lseek64)(int, off64_t, int);
static int (*real_fcntl)(int, int, ...);
static int (*real_ioctl)(int, unsigned long, ...);
static int (*real_poll)(struct pollfd *, nfds_t, int);
static int (*real_select)(int, fd_set *, fd_set *, fd_set *, struct timeval *);
static int (*real_pipe)(int *);
static int (*real_pipe2)(int *, int);
static long (*real_syscall)(long, ...);

static void say_to(int fd, const char *s)
{
	ssize_t r = real_write ? real_write(fd, s, strlen(s)) : -1;

	(void)r;
}

static void say(const char *s)
{
	say_to(2, s);
}

static void *next(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p) {
		say("faultinj: dlsym(RTLD_NEXT) cannot find ");
		say(name);
		say("\n");
		_exit(99);
	}
	return p;
}

#define RESOLVE(f) (real_##f = (__typeof__(real_##f))next(#f))

/* PB_FAULT_FDS_AT_EXIT: the descriptors open at the start, and whose. */
#define FDS_SEEN 4096
static bool fds_at_exit;
static pid_t fds_pid;
static unsigned char fds_open_at_start[FDS_SEEN / 8];

static void fds_note_start(void)
{
	const char *want = getenv("PB_FAULT_FDS_AT_EXIT");

	if (!want || strcmp(want, "1") != 0)
		return;
	fds_at_exit = true;
	fds_pid = getpid();
	for (int fd = 0; fd < FDS_SEEN; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			fds_open_at_start[fd / 8] |= (unsigned char)(1u << (fd % 8));
}

__attribute__((destructor)) static void fds_check_exit(void)
{
	char path[64], link[256], num[16];
	ssize_t n;

	if (!fds_at_exit || getpid() != fds_pid)
		return;
	for (int fd = 3; fd < FDS_SEEN; fd++) {
		if (fds_open_at_start[fd / 8] & (1u << (fd % 8)) || fcntl(fd, F_GETFD) < 0)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n = readlink(path, link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = '\0';
		snprintf(num, sizeof(num), "%d", fd);
		say("faultinj: descriptor ");
		say(num);
		say(" open at exit: ");
		say(link);
		say("\n");
	}
}

__attribute__((constructor)) static void init(void)
{
	const char *want;

	if (real_syscall)
		return;
	RESOLVE(read), RESOLVE(write), RESOLVE(close), RESOLVE(open), RESOLVE(open64);
	RESOLVE(fstat), RESOLVE(fstat64), RESOLVE(lseek), RESOLVE(lseek64);
	RESOLVE(fcntl), RESOLVE(ioctl), RESOLVE(poll), RESOLVE(select);
	RESOLVE(pipe), RESOLVE(pipe2), RESOLVE(syscall);
	fds_note_start();
	alloc_note_start();
	want = getenv("PB_FAULT_HARNESS");
	if (want && *want) {
		if (strcmp(want, "devnull-emfile") == 0) {
			harness_devnull = true;
		} else if (strcmp(want, "memstream") == 0) {
			harness_memstream = true;
		} else if (strcmp(want, "memstream-close") == 0) {
			harness_memstream_close = true;
		} else {
			say("faultinj: unknown PB_FAULT_HARNESS '");
			say(want);
			say("' (devnull-emfile, memstream or memstream-close)\n");
			_exit(99);
		}
	}
	want = getenv("PB_FAULT_PIPE_ENFILE");
	if (want && *want)
		pipe_fail_at = strtol(want, NULL, 10);
	want = getenv("PB_FAULT");
	if (!want || !*want)
		return;
	if (strcmp(want, "list") == 0) {
		for (int i = 1; i < F_COUNT; i++) {
			say_to(1, fault_names[i]);
			say_to(1, "\n");
		}
		_exit(0);
	}
	for (int i = 1; i < F_COUNT; i++)
		if (strcmp(want, fault_names[i]) == 0)
			fault = (enum fault)i;
	if (fault == F_NONE) {
		say("faultinj: unknown PB_FAULT '");
		say(want);
		say("' (PB_FAULT=list names them)\n");
		_exit(99);
	}
}

/* ---- what a descriptor is (errno preserved) ---- */

static bool is_pipe(int fd)
{
	struct stat st;
	int e = errno;
	bool r = fd > 2 && real_fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);

	errno = e;
	return r;
}

/* A pipe from pipe()/pipe2() (pipefs), not a named FIFO. */
static bool is_anon(int fd)
{
	struct statfs sf;
	int e = errno;
	bool r = fstatfs(fd, &sf) == 0 && sf.f_type == PIPEFS_MAGIC_;

	errno = e;
	return r;
}

static int accmode(int fd)
{
	int e = errno, fl = real_fcntl(fd, F_GETFL);

	errno = e;
	return fl < 0 ? -1 : fl & O_ACCMODE;
}

/* revents of FD for EVENTS right now (0 on error). */
static short poll_now(int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	int e = errno, n = real_poll(&p, 1, 0);

	errno = e;
	return n == 1 ? p.revents : 0;
}

/* Set a/mtime of FD (UTIME_OMIT keeps one); errno preserved. */
static void set_times(int fd, struct timespec a, struct timespec m)
{
	struct timespec ts[2] = { a, m };
	int e = errno;

	futimens(fd, ts);
	errno = e;
}

/* FD's times before the call a timestamp fault rewrites; errno preserved. */
static bool times_before(int fd, struct stat *st)
{
	int e = errno;
	bool r = real_fstat(fd, st) == 0;

	errno = e;
	return r;
}

static const struct timespec omit = { 0, UTIME_OMIT }, now = { 0, UTIME_NOW };

/* A read or write that returned r: when it moved bytes, FD's a/mtime become
 * a and m.  Returns r. */
static ssize_t moved_then_times(ssize_t r, int fd, struct timespec a, struct timespec m)
{
	if (r > 0)
		set_times(fd, a, m);
	return r;
}

/* ---- pipe creation ---- */

static int sys_pipe2(int *fd, int flags)
{
	return (int)real_syscall(SYS_pipe2, fd, flags);
}

/* Move a new pipe's ends above the lowest free descriptors. */
static void move_up(int *fd, int flags)
{
	int cmd = flags & O_CLOEXEC ? F_DUPFD_CLOEXEC : F_DUPFD;
	int a = real_fcntl(fd[0], cmd, (fd[0] > fd[1] ? fd[0] : fd[1]) + 3);
	int b = a < 0 ? -1 : real_fcntl(fd[1], cmd, a + 1);

	if (a < 0 || b < 0) {
		if (a >= 0)
			real_close(a);
		return;
	}
	real_close(fd[0]);
	real_close(fd[1]);
	fd[0] = a;
	fd[1] = b;
}

static int do_pipe2(int *fd, int flags, int (*call)(int *, int))
{
	static const struct timespec epoch = { 0, 0 };
	int r, e, leak[2];

	switch (fault) {
	case F_CLOEXEC_DROPPED: flags &= ~O_CLOEXEC; break;
	case F_NONBLOCK_DROPPED: flags &= ~O_NONBLOCK; break;
	case F_DIRECT_DROPPED: flags &= ~O_DIRECT; break;
	case F_LAX_FLAGS: flags &= O_CLOEXEC | O_NONBLOCK | O_DIRECT | O_EXCL; break;
	default: break;
	}
	r = call(fd, flags);
	e = errno;
	if (r != 0) {
		if (fault == F_EFAULT_LEAK && e == EFAULT)
			call(leak, 0);        /* installed, never returned: leaked */
		else if (fault == F_PIPEFD_CLOBBERED && e != EFAULT)
			fd[0] = fd[1] = -1;
		errno = e;
		return r;
	}
	switch (fault) {
	case F_FD_LEAK:
		real_fcntl(fd[0], F_DUPFD, 0); /* a third descriptor nobody knows of */
		break;
	case F_NON_LOWEST:
		move_up(fd, flags);
		break;
	case F_TS_UNSET:
		set_times(fd[0], epoch, epoch);
		break;
	default:
		break;
	}
	errno = e;
	return 0;
}

int pipe2(int fd[2], int flags)
{
	init();
	if (pipe_fails_once())
		return -1;
	return fault ? do_pipe2(fd, flags, real_pipe2) : real_pipe2(fd, flags);
}

int pipe(int fd[2])
{
	init();
	if (pipe_fails_once())
		return -1;
	return fault ? do_pipe2(fd, 0, real_pipe2) : real_pipe(fd);
}

long syscall(long nr, ...)
{
	va_list ap;
	long a[6];

	/* Six register arguments, as the C library's own syscall() takes them. */
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	init();
	if (nr == SYS_pipe2 && pipe_fails_once())
		return -1;
	if (fault && nr == SYS_pipe2)
		return do_pipe2((int *)a[0], (int)a[1], sys_pipe2);
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* ---- read and write ---- */

/* A call on FD that a fault may change: one is set and FD is a pipe or FIFO. */
static bool faulty_pipe(int fd)
{
	init();
	return fault && is_pipe(fd);
}

/* A read that never completes: it sleeps in a read of a private pipe that
 * nobody writes, so signals interrupt or restart it as the kernel would. */
static ssize_t hang(void)
{
	static int hang_fd = -1;
	char c;

	if (hang_fd < 0) {
		int p[2];

		if (real_pipe2(p, O_CLOEXEC) != 0) {
			for (;;)
				pause();
		}
		hang_fd = p[0]; /* p[1] stays open: the read never sees EOF */
	}
	return real_read(hang_fd, &c, 1);
}

/* eof-midway: the descriptors whose next read returns end of file. */
static bool midway[1024];

ssize_t read(int fd, void *buf, size_t n)
{
	struct stat st;
	ssize_t r;

	if (!faulty_pipe(fd))
		return real_read(fd, buf, n);
	switch (fault) {
	case F_EARLY_EOF:
		if (n > 0 && !(poll_now(fd, POLLIN) & (POLLIN | POLLHUP | POLLERR)))
			return 0;
		break;
	case F_DUP_BYTES:
		r = real_read(fd, buf, n);
		if (r >= 1 && (size_t)r < n) {
			((char *)buf)[r] = ((char *)buf)[r - 1];
			r++;
		}
		return r;
	case F_REORDER:
		r = real_read(fd, buf, n);
		if (r >= 2) {
			char t = ((char *)buf)[0];

			((char *)buf)[0] = ((char *)buf)[1];
			((char *)buf)[1] = t;
		}
		return r;
	case F_EOF_MIDWAY:
		/* A read of n >= 2 bytes gets at most n / 2; the next read on
		 * that descriptor returns 0 (end of file) although bytes are
		 * queued and the writer is open. */
		if (fd >= (int)(sizeof(midway) / sizeof(midway[0])))
			break;
		if (midway[fd]) {
			midway[fd] = false;
			return 0;
		}
		if (n < 2)
			break;
		r = real_read(fd, buf, n / 2);
		midway[fd] = r > 0;
		return r;
	case F_HUNG_READ:
		return hang();
	case F_TS_PARTIAL_ANON:
	case F_TS_FROZEN_FIFO:
		if (is_anon(fd) != (fault == F_TS_PARTIAL_ANON) || !times_before(fd, &st))
			break;
		/* atime stays */
		return moved_then_times(real_read(fd, buf, n), fd, st.st_atim, omit);
	default:
		break;
	}
	return real_read(fd, buf, n);
}

/* write() with SIGPIPE blocked around it: what happens to the signal a
 * write with no reader raises is the fault's business. */
static ssize_t write_sigpipe(int fd, const void *buf, size_t n)
{
	struct timespec zero = { 0, 0 };
	sigset_t pipe_set, old, pend;
	ssize_t r;
	int e, was;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &old);
	sigpending(&pend);
	was = sigismember(&pend, SIGPIPE);
	r = real_write(fd, buf, n);
	e = errno;
	if (r < 0 && e == EPIPE && !was) {
		sigtimedwait(&pipe_set, NULL, &zero);  /* the thread's SIGPIPE */
		if (fault == F_LOST_SIGPIPE)
			r = (ssize_t)n;                /* "written", and no signal */
		else
			kill(getpid(), SIGPIPE);       /* to the process instead */
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return r;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	struct stat st;
	ssize_t r;
	int e;

	if (!faulty_pipe(fd))
		return real_write(fd, buf, n);
	switch (fault) {
	case F_TORN_WRITE:
		if (n >= 2 && n <= PIPE_BUF)
			return real_write(fd, buf, n / 2);
		break;
	case F_WRITE_ZERO:
		e = errno;
		r = real_write(fd, buf, n);
		if (r < 0 && errno == EAGAIN) {
			errno = e;
			return 0;
		}
		return r;
	case F_LOST_BYTES:
		if (n < 2)
			break;
		r = real_write(fd, buf, n - 1);
		return r == (ssize_t)n - 1 ? (ssize_t)n : r;
	case F_LOST_SIGPIPE:
	case F_SIGPIPE_PROCESS:
		return write_sigpipe(fd, buf, n);
	case F_TS_PARTIAL_ANON:
		if (!is_anon(fd))
			break;
		/* mtime (and ctime) move */
		return moved_then_times(real_write(fd, buf, n), fd, omit, now);
	case F_TS_FROZEN_FIFO:
		if (is_anon(fd) || !times_before(fd, &st))
			break;
		return moved_then_times(real_write(fd, buf, n), fd, st.st_atim, st.st_mtim);
	default:
		break;
	}
	return real_write(fd, buf, n);
}

int close(int fd)
{
	init();
	if (fault == F_EOF_NEVER && is_pipe(fd) && accmode(fd) == O_WRONLY) {
		int e = errno;

		real_fcntl(fd, F_DUPFD_CLOEXEC, 0); /* a hidden writer: no EOF, ever */
		errno = e;
	}
	return real_close(fd);
}

/* ---- FIFO opens ---- */

static bool is_fifo_path(const char *path)
{
	struct stat st;
	int e = errno;
	bool r = stat(path, &st) == 0 && S_ISFIFO(st.st_mode);

	errno = e;
	return r;
}

static int do_open(int (*call)(const char *, int, ...), const char *path, int flags,
		   mode_t mode)
{
	int fd, e;

	if (fault == F_FIFO_OPEN_NOBLOCK && !(flags & O_NONBLOCK) &&
	    (flags & O_ACCMODE) != O_RDWR && is_fifo_path(path)) {
		fd = call(path, flags | O_NONBLOCK, mode);
		if (fd >= 0) {
			e = errno;
			real_fcntl(fd, F_SETFL, real_fcntl(fd, F_GETFL) & ~O_NONBLOCK);
			errno = e;
		}
		return fd;
	}
	fd = call(path, flags, mode);
	if (fd < 0 && fault == F_FIFO_ENXIO_LOST && errno == ENXIO &&
	    (flags & O_ACCMODE) == O_WRONLY) {
		e = errno;
		fd = call(path, (flags & ~O_ACCMODE) | O_RDWR, mode);
		if (fd < 0)
			errno = e;
	}
	return fd;
}

static mode_t open_mode(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

/* PB_FAULT_ALLOC_AT / PB_FAULT_ALLOC_COUNT: the executable's own code (its
 * executable segments), the allocations it made, the one to refuse. */
static uintptr_t exe_lo[4], exe_hi[4], exe_base;
static long alloc_made, alloc_fail_at;
static bool alloc_count;
static pid_t alloc_pid;

static int find_exe(struct dl_phdr_info *info, size_t size, void *data)
{
	int k = 0;

	(void)size;
	(void)data;
	if (info->dlpi_name && info->dlpi_name[0])
		return 0;   /* a library: the program comes first, named "" */
	exe_base = info->dlpi_addr;
	for (int i = 0; i < info->dlpi_phnum && k < 4; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD && (info->dlpi_phdr[i].p_flags & PF_X)) {
			exe_lo[k] = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
			exe_hi[k] = exe_lo[k] + info->dlpi_phdr[i].p_memsz;
			k++;
		}
	return 1;
}

static void alloc_note_start(void)
{
	const char *at = getenv("PB_FAULT_ALLOC_AT"), *count = getenv("PB_FAULT_ALLOC_COUNT");

	alloc_fail_at = at && *at ? strtol(at, NULL, 10) : 0;
	alloc_count = count && strcmp(count, "1") == 0;
	alloc_pid = getpid();
	if (alloc_fail_at > 0 || alloc_count)
		dl_iterate_phdr(find_exe, NULL);
}

/* Whether the allocation CALLER (a return address) asks for is the one to
 * refuse (errno set); counted when the program's own code asks. */
static bool alloc_refused(const void *caller)
{
	bool own = false;

	for (int k = 0; k < 4 && exe_hi[k]; k++)
		own |= (uintptr_t)caller >= exe_lo[k] && (uintptr_t)caller < exe_hi[k];
	if (!own || ++alloc_made != alloc_fail_at)
		return false;
	if (alloc_count) {   /* where, for addr2line -e PROGRAM */
		char where[64];

		snprintf(where, sizeof(where), "faultinj: refused at +%#lx\n",
			 (unsigned long)((uintptr_t)caller - exe_base));
		say(where);
	}
	errno = ENOMEM;
	return true;
}

__attribute__((destructor)) static void alloc_say_count(void)
{
	char num[24];

	if (!alloc_count || getpid() != alloc_pid)
		return;
	snprintf(num, sizeof(num), "%ld", alloc_made);
	say("faultinj: ");
	say(num);
	say(" allocations\n");
}

extern void *__libc_malloc(size_t n);
extern void *__libc_realloc(void *p, size_t n);

void *malloc(size_t n)
{
	if (alloc_refused(__builtin_return_address(0)))
		return NULL;
	return __libc_malloc(n);
}

void *realloc(void *p, size_t n)
{
	if (alloc_refused(__builtin_return_address(0)))
		return NULL;
	return __libc_realloc(p, n);
}

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d;

	if (alloc_refused(__builtin_return_address(0)))
		return NULL;
	d = __libc_malloc(n);
	return d ? memcpy(d, s, n) : NULL;
}

/* PB_FAULT_CALLOC_BYTES=N: that one size is refused.  glibc's own calloc
 * underneath (dlsym itself may call calloc), the variable read each time
 * (no allocation, and calloc may come before init). */
extern void *__libc_calloc(size_t n, size_t size);

void *calloc(size_t n, size_t size)
{
	const char *e = getenv("PB_FAULT_CALLOC_BYTES");

	if (alloc_refused(__builtin_return_address(0)))
		return NULL;

	if (e && *e && n && size <= (size_t)-1 / n && n * size == strtoull(e, NULL, 10)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(n, size);
}

/* PB_FAULT_HARNESS=memstream: no in-memory stream. */
FILE *open_memstream(char **ptr, size_t *size)
{
	static FILE *(*real_open_memstream)(char **, size_t *);

	init();
	if (harness_memstream) {
		errno = ENOMEM;
		return NULL;
	}
	if (!real_open_memstream)
		real_open_memstream = (FILE *(*)(char **, size_t *))dlsym(RTLD_NEXT, "open_memstream");
	FILE *fp = real_open_memstream(ptr, size);

	for (size_t i = 0; fp && harness_memstream_close && i < 16; i++)
		if (!memstreams[i]) {
			memstreams[i] = fp;
			break;
		}
	return fp;
}

/* PB_FAULT_HARNESS=memstream-close: closing a memory stream fails. */
int fclose(FILE *fp)
{
	static int (*real_fclose)(FILE *);
	bool fail = false;

	init();
	if (!real_fclose)
		real_fclose = (int (*)(FILE *))dlsym(RTLD_NEXT, "fclose");
	for (size_t i = 0; fp && harness_memstream_close && i < 16; i++)
		if (memstreams[i] == fp) {
			memstreams[i] = NULL;
			fail = true;
		}
	int r = real_fclose(fp);

	if (!fail || r != 0)
		return r;
	errno = ENOMEM;
	return EOF;
}

/* open() and open64() differ only in the real function they call. */
static int open_with(int (*call)(const char *, int, ...), const char *path, int flags,
		     mode_t mode)
{
	init();
	if (harness_devnull && strcmp(path, "/dev/null") == 0) {
		errno = EMFILE;
		return -1;
	}
	return fault ? do_open(call, path, flags, mode) : call(path, flags, mode);
}

/* The interposer NAME (open, open64) around REAL. */
#define OPEN_INTERPOSER(name, real) \
	int name(const char *path, int flags, ...) \
	{ \
		va_list ap; \
		mode_t mode; \
		\
		va_start(ap, flags); \
		mode = open_mode(flags, ap); \
		va_end(ap); \
		return open_with(real, path, flags, mode); \
	}

OPEN_INTERPOSER(open, real_open)
OPEN_INTERPOSER(open64, real_open64)

/* ---- metadata and control ---- */

/* fstat and fstat64, lseek and lseek64: the same fault, the two types. */
#define FSTAT_INTERPOSER(name, stat_type, real) \
	int name(int fd, stat_type *st) \
	{ \
		int r; \
		\
		init(); \
		r = real(fd, st); \
		if (r == 0 && fault == F_FSTAT_TYPE && S_ISFIFO(st->st_mode)) \
			st->st_mode = (st->st_mode & ~S_IFMT) | S_IFREG; \
		return r; \
	}
#define LSEEK_INTERPOSER(name, off_type, real) \
	off_type name(int fd, off_type off, int whence) \
	{ \
		init(); \
		if (fault == F_LSEEK_OK && is_pipe(fd)) \
			return 0; \
		return real(fd, off, whence); \
	}

FSTAT_INTERPOSER(fstat, struct stat, real_fstat)
FSTAT_INTERPOSER(fstat64, struct stat64, real_fstat64)
LSEEK_INTERPOSER(lseek, off_t, real_lseek)
LSEEK_INTERPOSER(lseek64, off64_t, real_lseek64)

int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;
	int r;

	/* As the C library does: one pointer-sized argument, used or not. */
	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	init();
	r = real_fcntl(fd, cmd, arg);
	if (r < 0 || !fault)
		return r;
	if (fault == F_SETPIPE_NOROUND && cmd == F_SETPIPE_SZ && is_pipe(fd))
		return (int)(long)arg;
	if (fault == F_GETPIPE_LIES && cmd == F_GETPIPE_SZ && is_pipe(fd))
		return 2 * r;
	return r;
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	int r;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	init();
	if (fault == F_FIONBIO_IGNORED && req == FIONBIO && is_pipe(fd))
		return 0;
	r = real_ioctl(fd, req, arg);
	if (r == 0 && fault == F_FIONREAD_LIES && req == FIONREAD && arg && is_pipe(fd))
		(*(int *)arg)++;
	return r;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	int r, e, count = 0;

	init();
	r = real_poll(fds, n, timeout);
	if (r < 0 || (fault != F_POLLOUT_FULL && fault != F_NO_POLLHUP && fault != F_NO_POLLERR))
		return r;
	e = errno;
	for (nfds_t i = 0; i < n; i++) {
		if (fds[i].fd >= 0 && is_pipe(fds[i].fd)) {
			if (fault == F_POLLOUT_FULL && (fds[i].events & POLLOUT) &&
			    accmode(fds[i].fd) != O_RDONLY)
				fds[i].revents |= POLLOUT;
			else if (fault == F_NO_POLLHUP)
				fds[i].revents &= ~POLLHUP;
			else if (fault == F_NO_POLLERR)
				fds[i].revents &= ~POLLERR;
		}
		if (fds[i].revents)
			count++;
	}
	errno = e;
	return count;
}

int select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *tv)
{
	int r;

	init();
	r = real_select(nfds, rd, wr, ex, tv);
	if (r <= 0 || fault != F_SELECT_EOF || !rd)
		return r;
	for (int fd = 0; fd < nfds && fd < FD_SETSIZE; fd++)
		if (FD_ISSET(fd, rd) && is_pipe(fd) &&
		    (poll_now(fd, POLLIN) & (POLLIN | POLLHUP)) == POLLHUP) {
			FD_CLR(fd, rd);       /* EOF, yet "not readable" */
			r--;
		}
	return r;
}
