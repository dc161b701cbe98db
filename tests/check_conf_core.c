/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The conformance runner and checks CRE/RD/WR/NB: every check is run through
 * pb_conformance_run_one (fork + watchdog) in front of a misbehaving
 * pb_sysops and must say FAIL; with the real kernel it must not.  Also the
 * fail/error rule for CRE/RD/WR/NB/SIG (a pipe or FIFO misbehaving at any
 * step, setup included, is FAIL; a harness resource limit is ERROR), the
 * effect of an accepted pipe2(O_NOATIME) (CRE-05, timestamps emulated),
 * descriptor leaks on success (CRE-08..10), the watchdog (a check that
 * blocks forever) and a check killed by a signal, the harness's own
 * resources failing (a check's thread or buffer, the conformance command's
 * tables: pthread_create, malloc and calloc fail on request); and the
 * helpers every check group shares (src/checks/util.c), each on a case
 * where it must tell a misbehaving call or environment from a good one.
 */
#include <config.h>

#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_conf.h"
#include "check_main.h"
#include "fast_time.h"
#include "checkproc.h"
#include "cli.h"
#include "cmd.h"
#include "cleanup.h"
#include "checks/conformance.h"
#include "tsprobe.h"

/* ---- misbehaving system calls, each imitating one kernel or libc bug ---- */

/* Bytes come out in the wrong order. */
static ssize_t read_reversed(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);
	char *b = buf;

	for (ssize_t i = 0; i < r / 2; i++) {
		char t = b[i];

		b[i] = b[r - 1 - i];
		b[r - 1 - i] = t;
	}
	return r;
}

/* The pipe's fds are not the lowest free ones. */
static int pipe2_high(int fd[2], int flags)
{
	if (syscall(SYS_pipe2, fd, flags) != 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		int h = fcntl(fd[i], F_DUPFD, 100);

		close(fd[i]);
		fd[i] = h;
	}
	return 0;
}

/* O_CLOEXEC silently ignored. */
static int pipe2_no_cloexec(int fd[2], int flags)
{
	return (int)syscall(SYS_pipe2, fd, flags & ~O_CLOEXEC);
}

/* O_NONBLOCK applied to the read end only. */
static int pipe2_nonblock_one_end(int fd[2], int flags)
{
	if (syscall(SYS_pipe2, fd, flags & ~O_NONBLOCK) != 0)
		return -1;
	if (flags & O_NONBLOCK)
		fcntl(fd[0], F_SETFL, fcntl(fd[0], F_GETFL) | O_NONBLOCK);
	return 0;
}

/* Unknown flags silently dropped instead of EINVAL. */
static int pipe2_lenient(int fd[2], int flags)
{
	return (int)syscall(SYS_pipe2, fd, flags & (O_CLOEXEC | O_NONBLOCK | O_DIRECT));
}

/* A failing pipe2 leaves a half-pipe behind. */
static int pipe2_leaky(int fd[2], int flags)
{
	int r = (int)syscall(SYS_pipe2, fd, flags), e = errno;

	if (r != 0) {
		if (open("/dev/null", O_RDONLY) < 0) {
			int p[2];

			if (syscall(SYS_pipe2, p, 0) == 0) /* at least one slot */
				close(p[1]);
		}
		errno = e;
	}
	return r;
}

/* Waits to fill the whole buffer. */
static ssize_t read_greedy(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* An empty pipe reads as EOF even with writers. */
static ssize_t read_empty_is_eof(int fd, void *buf, size_t n)
{
	int q = 0;

	if (ioctl(fd, FIONREAD, &q) == 0 && q == 0)
		return 0;
	return read(fd, buf, n);
}

/* Interrupted reads are not restarted (a wait that ignores SA_RESTART). */
static ssize_t read_no_restart(int fd, void *buf, size_t n)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, -1) < 0)
		return -1;
	return read(fd, buf, n);
}

/* The last writer's close never wakes the reader. */
static ssize_t read_no_eof_wakeup(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	while (r == 0 && n > 0)
		pause();
	return r;
}

/* Writes whatever fits, even of n <= PIPE_BUF (torn atomic writes). */
static ssize_t write_torn(int fd, const void *buf, size_t n)
{
	int fl = fcntl(fd, F_GETFL);
	size_t done = 0;

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	while (done < n && write(fd, (const char *)buf + done, 1) == 1)
		done++;
	fcntl(fd, F_SETFL, fl);
	if (done > 0 || n == 0)
		return (ssize_t)done;
	return write(fd, buf, n);
}

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

/* A full pipe reports 0 instead of EAGAIN. */
static ssize_t write_full_is_zero(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	return r < 0 && errno == EAGAIN ? 0 : r;
}

/* Never more than 1000 bytes per call, even into an empty pipe. */
static ssize_t write_small(int fd, const void *buf, size_t n)
{
	return write(fd, buf, n > 1000 ? 1000 : n);
}

/* Page-sized writes into pipes fail (a fill step; the checks' own writes of
 * other sizes work): with EIO, or out of memory. */
static ssize_t write_page_fails(int fd, const void *buf, size_t n, int e)
{
	if (is_pipe_fd(fd) && (long)n == sysconf(_SC_PAGESIZE)) {
		errno = e;
		return -1;
	}
	return write(fd, buf, n);
}

static ssize_t write_page_eio(int fd, const void *buf, size_t n)
{
	return write_page_fails(fd, buf, n, EIO);
}

static ssize_t write_page_enomem(int fd, const void *buf, size_t n)
{
	return write_page_fails(fd, buf, n, ENOMEM);
}

/* Writes into pipes fail: the environment is out of memory. */
static ssize_t write_enomem_on_pipes(int fd, const void *buf, size_t n)
{
	if (is_pipe_fd(fd)) {
		errno = ENOMEM;
		return -1;
	}
	return write(fd, buf, n);
}

static long fpathconf_small(int fd, int name)
{
	return name == _PC_PIPE_BUF ? 256 : fpathconf(fd, name);
}

/* FIONBIO accepted but ignored; FIONREAD off by one. */
static int ioctl_fionbio_noop(int fd, unsigned long req, void *arg)
{
	return req == FIONBIO ? 0 : ioctl(fd, req, arg);
}

static int ioctl_fionread_off(int fd, unsigned long req, void *arg)
{
	int r = ioctl(fd, req, arg);

	if (r == 0 && req == FIONREAD)
		(*(int *)arg)++;
	return r;
}

/* ---- the fail/error rule: calls that fail outright ---- */

/* pipe2_eio, mkfifo_eio and pipe2_emfile: tests/check_conf.h. */

static int dup_eio(int fd)
{
	(void)fd;
	errno = EIO;
	return -1;
}

static int dup_emfile(int fd)
{
	(void)fd;
	errno = EMFILE;
	return -1;
}

/* A read that cannot be interrupted: signals stay pending while it sleeps. */
static ssize_t read_uninterruptible(int fd, void *buf, size_t n)
{
	sigset_t all, old;
	ssize_t r;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	r = read(fd, buf, n);
	PB_KEEP_ERRNO(sigprocmask(SIG_SETMASK, &old, NULL));
	return r;
}

/* F_GETPIPE_SZ says one page and F_SETPIPE_SZ is refused (a user over
 * pipe-user-pages-soft): an environment limit, not a kernel bug. */
static int fcntl_one_page(int fd, int cmd, long arg)
{
	if (cmd == F_GETPIPE_SZ)
		return (int)sysconf(_SC_PAGESIZE);
	if (cmd == F_SETPIPE_SZ) {
		errno = EPERM;
		return -1;
	}
	return fcntl(fd, cmd, arg);
}

/* F_GETPIPE_SZ fails on a pipe (Linux 2.6.35 and later answer it). */
static int fcntl_getpipesz_eio(int fd, int cmd, long arg)
{
	if (cmd == F_GETPIPE_SZ) {
		errno = EIO;
		return -1;
	}
	return fcntl(fd, cmd, arg);
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

/* pipe2(O_DIRECT) fails with an error other than "not supported". */
static int pipe2_direct_eio(int fd[2], int flags)
{
	if (flags & O_DIRECT) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_pipe2, fd, flags);
}

/* ---- CRE-08..10: descriptors leaked by successful calls ---- */

/* Every successful pipe2 leaves a third descriptor open. */
static int pipe2_extra_fd(int fd[2], int flags)
{
	if (syscall(SYS_pipe2, fd, flags) != 0)
		return -1;
	(void)dup(fd[0]);
	return 0;
}

/* Every successful open leaves a second descriptor open. */
static int open_extra_fd(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags, mode);

	if (fd >= 0)
		(void)dup(fd);
	return fd;
}

/* close of a pipe or FIFO end returns 0 but a reference stays open. */
static int close_keeps_ref(int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)dup(fd);
	return close(fd);
}

/* ---- CRE-05: pipe2(O_NOATIME) accepted; timestamps emulated as before 6.15 ---- */

enum na_mode { NA_EFFECTIVE, NA_IGNORED, NA_ATIME_ONLY, NA_ALL_FROZEN, NA_INVERTED };
static enum na_mode na_mode;
static struct na_inode {
	ino_t ino;
	bool noatime;
	struct timespec t[3];  /* atime, mtime, ctime */
} na_inodes[64];
static int na_count;

static struct timespec na_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME_COARSE, &t);
	return t;
}

static struct na_inode *na_find(int fd, bool fresh)
{
	struct stat st;
	struct na_inode *in = NULL;

	if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
		return NULL;
	for (int i = 0; i < na_count && !in; i++)
		if (na_inodes[i].ino == st.st_ino)
			in = &na_inodes[i];
	if (!in && na_count < 64)
		in = &na_inodes[na_count++];
	if (in && (fresh || in->ino != st.st_ino)) {
		in->ino = st.st_ino;
		in->noatime = false;
		in->t[0] = in->t[1] = in->t[2] = na_now();
	}
	return in;
}

/* Whether field F (0 atime, 1 mtime, 2 ctime) of IN moves on I/O. */
static bool na_moves(const struct na_inode *in, int f)
{
	if (na_mode == NA_ALL_FROZEN)
		return false;  /* anonymous pipes since 6.15 */
	if (na_mode == NA_INVERTED)
		return in->noatime;  /* plain pipes frozen, the O_NOATIME one moves */
	if (!in->noatime || na_mode == NA_IGNORED)
		return true;
	return na_mode == NA_ATIME_ONLY && f != 0;
}

static int na_pipe2(int fd[2], int flags)
{
	struct na_inode *in;

	if (syscall(SYS_pipe2, fd, flags & ~O_NOATIME) != 0)
		return -1;
	in = na_find(fd[0], true);
	if (in)
		in->noatime = (flags & O_NOATIME) != 0;
	return 0;
}

static ssize_t na_write(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);
	struct na_inode *in = r > 0 ? na_find(fd, false) : NULL;

	if (in && na_moves(in, 1))
		in->t[1] = in->t[2] = na_now();
	return r;
}

static ssize_t na_read(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);
	struct na_inode *in = r > 0 ? na_find(fd, false) : NULL;

	if (in && na_moves(in, 0))
		in->t[0] = na_now();
	return r;
}

static int na_fstat(int fd, struct stat *st)
{
	struct na_inode *in;

	if (fstat(fd, st) != 0)
		return -1;
	in = na_find(fd, false);
	if (in) {
		st->st_atim = in->t[0];
		st->st_mtim = in->t[1];
		st->st_ctim = in->t[2];
	}
	return 0;
}

/* ---- fork() failing in the check's process (the harness's resource) ---- */

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

/* ---- the harness's own resources failing on request ---- */

/* When set, pthread_create fails with EAGAIN (the process is out of
 * threads): a check's helper thread is the harness's resource. */
static bool threads_fail;

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

	if (threads_fail)
		return EAGAIN;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
	return real(t, attr, fn, arg);
}

/* When nonzero, malloc of exactly this many bytes fails with ENOMEM: one
 * allocation of a check's (WR-03's 1 MiB + 123-byte buffer), every other
 * allocation of the process untouched. */
static size_t malloc_fails_for;

void *malloc(size_t n)
{
	static void *(*real)(size_t);

	if (malloc_fails_for && n == malloc_fails_for) {
		errno = ENOMEM;
		return NULL;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "malloc");
	return real(n);
}

/* When calloc_nmemb is nonzero, the calloc_nth calloc of that many
 * elements (counted in calloc_seen) fails with ENOMEM. */
static size_t calloc_nmemb;
static int calloc_nth, calloc_seen;

void *calloc(size_t nmemb, size_t size)
{
	static void *(*real)(size_t, size_t);

	if (calloc_nmemb && nmemb == calloc_nmemb && ++calloc_seen == calloc_nth) {
		errno = ENOMEM;
		return NULL;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "calloc");
	return real(nmemb, size);
}

/* When set, the next shared anonymous mmap fails with ENOMEM (the page the
 * runner shares with a check's process), once. */
static bool shared_mmap_fails;

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);

	if (shared_mmap_fails && (flags & MAP_SHARED) && (flags & MAP_ANONYMOUS)) {
		shared_mmap_fails = false;
		errno = ENOMEM;
		return MAP_FAILED;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "mmap");
	return real(addr, len, prot, flags, fd, off);
}

/* ---- the table: each of this file's checks and the bug it must catch ---- */

enum bug {
	READ_REVERSED, PIPE2_HIGH, PIPE2_NO_CLOEXEC, PIPE2_NONBLOCK_ONE, PIPE2_LENIENT,
	PIPE2_LEAKY, READ_GREEDY, READ_EOF_ERROR, READ_EMPTY_EOF, READ_NO_RESTART,
	READ_NO_WAKEUP, WRITE_TORN, WRITE_EINTR, WRITE_CORRUPT, WRITE_ZERO_SIGPIPE,
	WRITE_FULL_ZERO, WRITE_SMALL, FPATHCONF_SMALL, IOCTL_FIONBIO, IOCTL_FIONREAD,
	PIPES_EIO, PIPE2_EMFILE, DUP_EIO, DUP_EMFILE, READ_UNINTERRUPTIBLE, FCNTL_ONE_PAGE,
	PIPE2_EXTRA_FD, OPEN_EXTRA_FD, CLOSE_KEEPS_REF, FCNTL_GETPIPESZ_EIO, FCNTL_SETFL_EIO,
	PIPE2_DIRECT_EIO, WRITE_EIO, WRITE_ENOMEM, WRITE_PAGE_EIO, WRITE_PAGE_ENOMEM,
	NOATIME_EFFECTIVE, NOATIME_IGNORED, NOATIME_ATIME_ONLY, NOATIME_ALL_FROZEN,
	NOATIME_INVERTED, NOATIME_READ_EIO, NOATIME_WRITE_EIO, FORK_EAGAIN, THREADS_EAGAIN,
	BUFFER_ENOMEM,
};

static struct pb_sysops broken_ops(enum bug b)
{
	struct pb_sysops s = pb_sysops_real;

	fork_only_in = b == FORK_EAGAIN ? getpid() : 0;
	threads_fail = b == THREADS_EAGAIN;
	malloc_fails_for = b == BUFFER_ENOMEM ? (1u << 20) + 123 : 0;
	switch (b) {
	case FORK_EAGAIN: case THREADS_EAGAIN: case BUFFER_ENOMEM: break;
	case READ_REVERSED: s.read = read_reversed; break;
	case PIPE2_HIGH: s.pipe2 = pipe2_high; break;
	case PIPE2_NO_CLOEXEC: s.pipe2 = pipe2_no_cloexec; break;
	case PIPE2_NONBLOCK_ONE: s.pipe2 = pipe2_nonblock_one_end; break;
	case PIPE2_LENIENT: s.pipe2 = pipe2_lenient; break;
	case PIPE2_LEAKY: s.pipe2 = pipe2_leaky; break;
	case READ_GREEDY: s.read = read_greedy; break;
	case READ_EOF_ERROR: s.read = read_eof_eio; break;
	case READ_EMPTY_EOF: s.read = read_empty_is_eof; break;
	case READ_NO_RESTART: s.read = read_no_restart; break;
	case READ_NO_WAKEUP: s.read = read_no_eof_wakeup; break;
	case WRITE_TORN: s.write = write_torn; break;
	case WRITE_EINTR: s.write = write_eintr_after_data; break;
	case WRITE_CORRUPT: s.write = write_corrupt; break;
	case WRITE_ZERO_SIGPIPE: s.write = write_zero_sigpipe; break;
	case WRITE_FULL_ZERO: s.write = write_full_is_zero; break;
	case WRITE_SMALL: s.write = write_small; break;
	case FPATHCONF_SMALL: s.fpathconf = fpathconf_small; break;
	case IOCTL_FIONBIO: s.ioctl = ioctl_fionbio_noop; break;
	case IOCTL_FIONREAD: s.ioctl = ioctl_fionread_off; break;
	case PIPES_EIO: s.pipe2 = pipe2_eio; s.mkfifo = mkfifo_eio; break;
	case PIPE2_EMFILE: s.pipe2 = pipe2_emfile; break;
	case DUP_EIO: s.dup = dup_eio; break;
	case DUP_EMFILE: s.dup = dup_emfile; break;
	case READ_UNINTERRUPTIBLE: s.read = read_uninterruptible; break;
	case FCNTL_ONE_PAGE: s.fcntl = fcntl_one_page; break;
	case PIPE2_EXTRA_FD: s.pipe2 = pipe2_extra_fd; break;
	case OPEN_EXTRA_FD: s.open = open_extra_fd; break;
	case CLOSE_KEEPS_REF: s.close = close_keeps_ref; break;
	case FCNTL_GETPIPESZ_EIO: s.fcntl = fcntl_getpipesz_eio; break;
	case FCNTL_SETFL_EIO: s.fcntl = fcntl_setfl_eio; break;
	case PIPE2_DIRECT_EIO: s.pipe2 = pipe2_direct_eio; break;
	case WRITE_EIO: s.write = write_eio_on_pipes; break;
	case WRITE_ENOMEM: s.write = write_enomem_on_pipes; break;
	case WRITE_PAGE_EIO: s.write = write_page_eio; break;
	case WRITE_PAGE_ENOMEM: s.write = write_page_enomem; break;
	case NOATIME_EFFECTIVE: case NOATIME_IGNORED: case NOATIME_ATIME_ONLY:
	case NOATIME_ALL_FROZEN: case NOATIME_INVERTED: case NOATIME_READ_EIO:
	case NOATIME_WRITE_EIO:
		na_mode = b == NOATIME_IGNORED ? NA_IGNORED : b == NOATIME_ATIME_ONLY ? NA_ATIME_ONLY :
			  b == NOATIME_INVERTED ? NA_INVERTED :
			  b == NOATIME_ALL_FROZEN ? NA_ALL_FROZEN : NA_EFFECTIVE;
		s.pipe2 = na_pipe2;
		s.write = b == NOATIME_WRITE_EIO ? write_eio_on_pipes : na_write;
		s.read = b == NOATIME_READ_EIO ? read_eio_on_pipes : na_read;
		s.fstat = na_fstat;
		break;
	}
	return s;
}

static const struct { const char *id; enum bug bug; } cases[] = {
	{ "CRE-01", READ_REVERSED }, { "CRE-02", PIPE2_HIGH }, { "CRE-03", PIPE2_NO_CLOEXEC },
	{ "CRE-04", PIPE2_NONBLOCK_ONE }, { "CRE-05", PIPE2_LENIENT }, { "CRE-06", PIPE2_LEAKY },
	{ "CRE-07", PIPE2_LEAKY }, { "CRE-08", PIPE2_EXTRA_FD }, { "CRE-09", OPEN_EXTRA_FD },
	{ "CRE-10", CLOSE_KEEPS_REF },
	{ "RD-01", READ_GREEDY }, { "RD-02", READ_EOF_ERROR }, { "RD-03", READ_EMPTY_EOF },
	{ "RD-04", READ_EMPTY_EOF }, { "RD-05", READ_NO_RESTART }, { "RD-06", READ_EMPTY_EOF },
	{ "RD-07", READ_NO_WAKEUP },
	{ "WR-01", WRITE_TORN }, { "WR-02", WRITE_EINTR }, { "WR-03", WRITE_CORRUPT },
	{ "WR-04", WRITE_CORRUPT }, { "WR-05", FPATHCONF_SMALL }, { "WR-06", WRITE_ZERO_SIGPIPE },
	{ "NB-01", WRITE_TORN }, { "NB-02", WRITE_FULL_ZERO }, { "NB-03", WRITE_SMALL },
	{ "NB-04", IOCTL_FIONBIO }, { "NB-05", IOCTL_FIONREAD },
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

static void run(const struct pb_check *c, const struct pb_sysops *s, enum pb_kind kind,
		double timeout, struct pb_check_result *r)
{
	struct pb_run_opts o = { .sys = s, .kind = kind, .timeout_s = timeout };

	ck_assert_int_eq(pb_conformance_run_one(c, &o, r), 0);
}

/* Loop index i: case i/2, anon for even i and fifo for odd (both-kind checks). */
START_TEST(check_fails_on_broken_kernel)
{
	const struct pb_check *c = pb_test_find_check(cases[_i / 2].id);
	struct pb_sysops s = broken_ops(cases[_i / 2].bug);
	enum pb_kind kind = _i % 2 ? PB_KIND_FIFO : PB_KIND_ANON;
	struct pb_check_result r;

	ck_assert_msg(c != NULL, "%s is not in the catalogue", cases[_i / 2].id);
	if (kind == PB_KIND_FIFO && !(c->flags & PB_CHECK_BOTH_KINDS))
		return;
	pb_fast_time_on();  /* every row FAILs: its waits run out a quarter as long */
	run(c, &s, kind, 10, &r);
	pb_fast_time_off();
	if (getenv("CONF_CORE_VERBOSE"))  /* to read why each check failed */
		fprintf(stderr, "%s %s: %s\n", c->id, pb_kind_names[kind], r.detail);
	ck_assert_msg(r.verdict == PB_FAIL, "%s (%s) with a broken kernel: %s: %s", c->id,
		      pb_kind_names[kind], pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(!r.timed_out, "%s: the watchdog, not the check, caught it", c->id);
	/* the failure's figures are the report a user reads: word for word */
	pb_test_detail_is("core.broken_kernel", _i, r.detail);
}
END_TEST

/* CRE-03's probe of the pipe dies (the control probe answers): the
 * harness's trouble, ERROR, never a verdict on the kernel's FD_CLOEXEC. */
START_TEST(probe_dies)
{
	struct pb_check_result r;

	ck_assert_int_eq(setenv("PB_TEST_PROBE_DIES", "1", 1), 0);
	run(pb_test_find_check("CRE-03"), NULL, PB_KIND_ANON, 10, &r);
	unsetenv("PB_TEST_PROBE_DIES");
	ck_assert_msg(r.verdict == PB_ERROR && strcmp(r.detail, "harness: the exec probe of the "
		      "pipe's descriptors gave no answer (killed, or past 3 s)") == 0, "%s: %s",
		      pb_verdict_names[r.verdict], r.detail);
}
END_TEST

/* CRE-03: pipe2(O_CLOEXEC) leaves one end without FD_CLOEXEC while F_GETFD
 * says it is set on every descriptor: only the exec probe can tell, and it
 * must look at each end. */
static int cloexec_lost_end = -1;

static int pipe2_cloexec_lost(int fd[2], int flags)
{
	int r = pipe2(fd, flags);

	if (r == 0)
		fcntl(fd[cloexec_lost_end], F_SETFD, 0);
	return r;
}

static int fcntl_says_cloexec(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	return cmd == F_GETFD && r >= 0 ? r | FD_CLOEXEC : r;
}

START_TEST(cloexec_lost_after_exec)
{
	static const char *const said[] = {
		"FD_CLOEXEC set, but after execve the read end is still open",
		"FD_CLOEXEC set, but after execve the write end is still open",
	};
	struct pb_sysops s = pb_sysops_real;
	struct pb_check_result r;

	s.pipe2 = pipe2_cloexec_lost;
	s.fcntl = fcntl_says_cloexec;
	for (cloexec_lost_end = 0; cloexec_lost_end < 2; cloexec_lost_end++) {
		run(pb_test_find_check("CRE-03"), &s, PB_KIND_ANON, 10, &r);
		ck_assert_msg(r.verdict == PB_FAIL && strcmp(r.detail, said[cloexec_lost_end]) == 0,
			      "end %d: %s: %s", cloexec_lost_end, pb_verdict_names[r.verdict],
			      r.detail);
	}
}
END_TEST

/* Every check of groups A-D has a broken-kernel case above. */
START_TEST(every_check_has_a_case)
{
	const struct pb_check *const groups[] = { pb_checks_creation, pb_checks_read,
						  pb_checks_write, pb_checks_nonblock };
	int n = 0;

	for (size_t g = 0; g < 4; g++)
		for (const struct pb_check *c = groups[g]; c->id; c++, n++) {
			bool found = false;

			for (int i = 0; i < NCASES; i++)
				found = found || strcmp(cases[i].id, c->id) == 0;
			ck_assert_msg(found, "%s has no broken-kernel test", c->id);
			ck_assert(c->title && c->tag && c->citation && c->group && c->run);
		}
	ck_assert_int_eq(n, 28);
}
END_TEST

/*
 * Exact verdicts for situations the table above does not show: the
 * fail/error rule (a pipe or FIFO call misbehaving at any step, setup
 * included, is FAIL naming it; a harness resource is ERROR), and CRE-05's
 * judgement of an accepted pipe2(O_NOATIME).  WORDS must be in the detail.
 */
static const struct {
	const char *id;
	enum bug bug;
	enum pb_kind kind;
	enum pb_verdict verdict;
	const char *words;
} verdicts[] = {
	/* write() on a full nonblocking pipe returns 0 instead of -1/EAGAIN */
	{ "NB-01", WRITE_FULL_ZERO, PB_KIND_ANON, PB_FAIL, "returned 0; POSIX requires -1 with EAGAIN" },
	{ "NB-01", WRITE_FULL_ZERO, PB_KIND_FIFO, PB_FAIL, "returned 0; POSIX requires -1 with EAGAIN" },
	{ "NB-02", WRITE_FULL_ZERO, PB_KIND_ANON, PB_FAIL, "returned 0; POSIX requires -1 with EAGAIN" },
	{ "WR-01", WRITE_FULL_ZERO, PB_KIND_ANON, PB_FAIL, "returned 0; POSIX requires -1 with EAGAIN" },
	{ "WR-01", WRITE_FULL_ZERO, PB_KIND_FIFO, PB_FAIL, "returned 0; POSIX requires -1 with EAGAIN" },
	/* a write with room that is short, during setup */
	{ "WR-01", WRITE_SMALL, PB_KIND_ANON, PB_FAIL, "there is room" },
	{ "NB-05", WRITE_SMALL, PB_KIND_ANON, PB_FAIL, "with room" },
	{ "SIG-04", WRITE_SMALL, PB_KIND_ANON, PB_FAIL, "while the reader was still open" },
	/* a write failing during setup: FAIL naming the errno; out of memory: ERROR */
	{ "WR-01", WRITE_EIO, PB_KIND_ANON, PB_FAIL, "there is room" },
	{ "WR-01", WRITE_EIO, PB_KIND_ANON, PB_FAIL, "EIO" },
	{ "NB-05", WRITE_EIO, PB_KIND_ANON, PB_FAIL, "EIO" },
	{ "WR-01", WRITE_ENOMEM, PB_KIND_ANON, PB_ERROR, "harness" },
	{ "NB-05", WRITE_ENOMEM, PB_KIND_ANON, PB_ERROR, "harness" },
	{ "NB-03", WRITE_PAGE_EIO, PB_KIND_ANON, PB_FAIL, "two free pages" },
	{ "NB-03", WRITE_PAGE_EIO, PB_KIND_ANON, PB_FAIL, "EIO" },
	{ "NB-03", WRITE_PAGE_ENOMEM, PB_KIND_ANON, PB_ERROR, "harness" },
	/* the read end sees EOF while a write end is open */
	{ "RD-05", READ_EMPTY_EOF, PB_KIND_ANON, PB_FAIL, "EOF while a write end was open" },
	{ "RD-05", READ_EMPTY_EOF, PB_KIND_FIFO, PB_FAIL, "EOF while a write end was open" },
	{ "RD-05", READ_NO_RESTART, PB_KIND_ANON, PB_FAIL, "EINTR despite SA_RESTART" },
	{ "RD-05", READ_UNINTERRUPTIBLE, PB_KIND_ANON, PB_FAIL, "must be interruptible" },
	/* pipe/FIFO creation broken: FAIL; out of descriptors: ERROR */
	{ "CRE-01", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "EIO" },
	{ "CRE-02", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "EIO" },
	{ "CRE-03", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "EIO" },
	{ "CRE-04", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "EIO" },
	{ "CRE-08", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "EIO" },
	{ "CRE-09", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "mkfifo" },
	{ "CRE-10", PIPES_EIO, PB_KIND_FIFO, PB_FAIL, "cannot make a FIFO" },
	{ "RD-05", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "cannot make a pipe" },
	{ "WR-05", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "pipe2" },
	{ "NB-03", PIPES_EIO, PB_KIND_FIFO, PB_FAIL, "cannot make a FIFO" },
	{ "SIG-01", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "cannot make a pipe" },
	{ "SIG-04", PIPES_EIO, PB_KIND_FIFO, PB_FAIL, "cannot make a FIFO" },
	{ "SIG-05", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "mkfifo" },
	{ "CRE-01", PIPE2_EMFILE, PB_KIND_ANON, PB_ERROR, "harness" },
	{ "RD-01", PIPE2_EMFILE, PB_KIND_ANON, PB_ERROR, "harness" },
	{ "SIG-04", PIPE2_EMFILE, PB_KIND_ANON, PB_ERROR, "harness" },
	{ "RD-06", DUP_EIO, PB_KIND_ANON, PB_FAIL, "dup of the write end" },
	{ "NB-04", DUP_EIO, PB_KIND_ANON, PB_FAIL, "dup of the write end" },
	{ "RD-06", DUP_EMFILE, PB_KIND_ANON, PB_ERROR, "harness" },
	/* CRE-06 cannot exhaust descriptors when dup fails from the first:
	 * an error of its own, saying it held none (and closing none) */
	{ "CRE-06", DUP_EMFILE, PB_KIND_ANON, PB_ERROR,
	  "could not exhaust descriptors by dup of /dev/null (held 0)" },
	/* fcntl on a pipe failing during setup */
	{ "WR-01", FCNTL_GETPIPESZ_EIO, PB_KIND_ANON, PB_FAIL, "F_GETPIPE_SZ" },
	{ "WR-02", FCNTL_GETPIPESZ_EIO, PB_KIND_FIFO, PB_FAIL, "F_GETPIPE_SZ" },
	{ "NB-01", FCNTL_GETPIPESZ_EIO, PB_KIND_ANON, PB_FAIL, "F_GETPIPE_SZ" },
	{ "NB-03", FCNTL_GETPIPESZ_EIO, PB_KIND_ANON, PB_FAIL, "F_GETPIPE_SZ" },
	{ "NB-05", FCNTL_GETPIPESZ_EIO, PB_KIND_ANON, PB_FAIL, "F_GETPIPE_SZ" },
	{ "SIG-04", FCNTL_GETPIPESZ_EIO, PB_KIND_ANON, PB_FAIL, "F_GETPIPE_SZ" },
	{ "WR-01", FCNTL_SETFL_EIO, PB_KIND_ANON, PB_FAIL, "F_SETFL" },
	{ "WR-06", PIPE2_DIRECT_EIO, PB_KIND_ANON, PB_FAIL, "O_DIRECT" },
	/* a small capacity is the environment's: SKIP, not ERROR */
	{ "NB-03", FCNTL_ONE_PAGE, PB_KIND_ANON, PB_SKIP, "pipe-user-pages-soft" },
	{ "NB-05", FCNTL_ONE_PAGE, PB_KIND_ANON, PB_SKIP, "pipe-user-pages-soft" },
	/* descriptors left open by successful calls */
	{ "CRE-08", PIPE2_EXTRA_FD, PB_KIND_ANON, PB_FAIL, "a descriptor beyond the two returned" },
	{ "CRE-09", OPEN_EXTRA_FD, PB_KIND_ANON, PB_FAIL, "a descriptor beyond the one returned" },
	{ "CRE-10", CLOSE_KEEPS_REF, PB_KIND_ANON, PB_FAIL, "close must free it" },
	{ "CRE-10", CLOSE_KEEPS_REF, PB_KIND_FIFO, PB_FAIL, "close must free it" },
	/* pipe2(O_NOATIME) accepted: judged by its effect against a plain pipe */
	{ "CRE-05", NOATIME_EFFECTIVE, PB_KIND_ANON, PB_KNOWN_DEVIATION,
	  "accepted and effective: write+read left atime/mtime/ctime of that pipe unchanged" },
	{ "CRE-05", NOATIME_EFFECTIVE, PB_KIND_ANON, PB_KNOWN_DEVIATION,
	  "Feb 2025 pipe2(O_NOATIME) proposal, not merged upstream" },
	{ "CRE-05", NOATIME_ALL_FROZEN, PB_KIND_ANON, PB_KNOWN_DEVIATION,
	  "its effect cannot be observed" },
	{ "CRE-05", NOATIME_IGNORED, PB_KIND_ANON, PB_FAIL, "accepted but ineffective" },
	{ "CRE-05", NOATIME_ATIME_ONLY, PB_KIND_ANON, PB_FAIL, "only partly effective" },
	/* the flag makes timestamps move where a plain pipe's stay put */
	{ "CRE-05", NOATIME_INVERTED, PB_KIND_ANON, PB_FAIL,
	  "while those of a plain pipe2(fd, 0) pipe stayed put" },
	/* the check cannot fork its reader, make its helper thread or allocate
	 * its buffer: the harness's resource, named */
	{ "WR-03", FORK_EAGAIN, PB_KIND_ANON, PB_ERROR, "fork: EAGAIN" },
	{ "WR-03", BUFFER_ENOMEM, PB_KIND_ANON, PB_ERROR, "harness: out of memory" },
	{ "SIG-03", THREADS_EAGAIN, PB_KIND_ANON, PB_ERROR,
	  "harness: pthread_create: Resource temporarily unavailable" },
	{ "SIG-03", THREADS_EAGAIN, PB_KIND_FIFO, PB_ERROR,
	  "harness: pthread_create: Resource temporarily unavailable" },
	/* the write succeeds and the read fails, or the write fails: the detail
	 * names the call that did */
	{ "CRE-05", NOATIME_READ_EIO, PB_KIND_ANON, PB_FAIL,
	  "the pipe2(O_NOATIME) pipe, a read with 1 byte queued of 1 byte = -1/EIO" },
	{ "CRE-05", NOATIME_WRITE_EIO, PB_KIND_ANON, PB_FAIL,
	  "the pipe2(O_NOATIME) pipe, a write into the empty pipe of 1 byte = -1/EIO" },
};
#define NVERDICTS (int)(sizeof(verdicts) / sizeof(verdicts[0]))

START_TEST(verdict_per_situation)
{
	const struct pb_check *c = pb_test_find_check(verdicts[_i].id);
	struct pb_sysops s = broken_ops(verdicts[_i].bug);
	struct pb_check_result r;

	ck_assert_msg(c != NULL, "%s is not in the catalogue", verdicts[_i].id);
	if (verdicts[_i].verdict == PB_FAIL)
		pb_fast_time_on();
	run(c, &s, verdicts[_i].kind, 10, &r);
	pb_fast_time_off();
	if (getenv("CONF_CORE_VERBOSE"))
		fprintf(stderr, "%s %s: %s: %s\n", c->id, pb_kind_names[verdicts[_i].kind],
			pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(r.verdict == verdicts[_i].verdict && strstr(r.detail, verdicts[_i].words),
		      "%s (%s), case %d: expected %s with \"%s\", got %s: %s", c->id,
		      pb_kind_names[verdicts[_i].kind], _i, pb_verdict_names[verdicts[_i].verdict],
		      verdicts[_i].words, pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(!r.timed_out, "%s: the watchdog, not the check, decided", c->id);
	if (verdicts[_i].verdict == PB_FAIL || verdicts[_i].verdict == PB_ERROR)
		pb_test_detail_is("core.verdict_per_situation", _i, r.detail);
}
END_TEST

START_TEST(ids_unique)
{
	for (size_t g = 0; pb_check_groups[g]; g++)
		for (const struct pb_check *c = pb_check_groups[g]; c->id; c++)
			ck_assert_ptr_eq(pb_test_find_check(c->id), c);
}
END_TEST

static void block_forever(struct pb_check_ctx *ctx)
{
	(void)ctx;
	for (;;)
		pause();
}

static void die_of_sigpipe(struct pb_check_ctx *ctx)
{
	int fd[2];

	if (pipe(fd) == 0) {
		close(fd[0]);
		(void)!write(fd[1], "x", 1);  /* SIGPIPE is SIG_DFL in a check */
	}
	pb_check_set(ctx, PB_PASS, "survived");
}

START_TEST(watchdog_kills_blocked_check)
{
	const struct pb_check c = { "T-01", "test", "T", "blocks forever", "none", 0,
				    block_forever };
	struct pb_check_result r;

	run(&c, NULL, PB_KIND_ANON, 0.3, &r);
	ck_assert_int_eq(r.verdict, PB_FAIL);
	ck_assert(r.timed_out);
	ck_assert_msg(strstr(r.detail, "timed out") != NULL, "%s", r.detail);
	/* The runner goes on: the next check runs normally. */
	run(pb_test_find_check("RD-01"), NULL, PB_KIND_ANON, 5, &r);
	ck_assert_int_eq(r.verdict, PB_PASS);
}
END_TEST

START_TEST(signal_is_fail_naming_it)
{
	const struct pb_check c = { "T-02", "test", "T", "dies", "none", 0, die_of_sigpipe };
	struct pb_check_result r;

	signal(SIGPIPE, SIG_IGN);  /* the runner must reset it in the child */
	run(&c, NULL, PB_KIND_ANON, 5, &r);
	ck_assert_int_eq(r.verdict, PB_FAIL);
	ck_assert_int_eq(r.signal, SIGPIPE);
	ck_assert(!r.timed_out);
	ck_assert_msg(strstr(r.detail, "SIGPIPE") != NULL, "%s", r.detail);
}
END_TEST

/* A check that forks a long-lived helper (it inherits the result pipe),
 * tells the test its pid, and dies. */
static int helper_pid_pipe[2];

static void die_leaving_helper(struct pb_check_ctx *ctx)
{
	pid_t h = fork();

	(void)ctx;
	if (h == 0) {
		sleep(20);
		_exit(0);
	}
	if (write(helper_pid_pipe[1], &h, sizeof(h)) != sizeof(h))
		_exit(1);
	kill(getpid(), SIGKILL);
}

START_TEST(helper_holding_result_pipe)
{
	const struct pb_check c = { "T-03", "test", "T", "dies, helper lives", "none", 0,
				    die_leaving_helper };
	struct pb_check_result r;
	pid_t h = 0;
	int gone = 0;

	ck_assert_int_eq(pipe(helper_pid_pipe), 0);
	run(&c, NULL, PB_KIND_ANON, 5, &r);
	/* Seen as killed by SIGKILL at once, not as a 5 s timeout. */
	ck_assert_int_eq(r.verdict, PB_FAIL);
	ck_assert_int_eq(r.signal, SIGKILL);
	ck_assert(!r.timed_out);
	ck_assert_int_eq(read(helper_pid_pipe[0], &h, sizeof(h)), (ssize_t)sizeof(h));
	/* The helper went with the check's process group. */
	for (int i = 0; i < 200 && !gone; i++) {
		char path[64], st = '?';
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)h);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%*d (%*[^)]) %c", &st) != 1 || st == 'Z')
			gone = 1;
		if (f)
			fclose(f);
		if (!gone)
			usleep(10000);
	}
	ck_assert_msg(gone, "helper %d survived its check", (int)h);
}
END_TEST

/* The verdict channel is not a descriptor: a check that closes every fd it
 * has (as a kernel that breaks pipes would break a result pipe) still
 * reports. */
static void close_every_fd(struct pb_check_ctx *ctx)
{
	for (int fd = 0; fd < 1024; fd++)
		close(fd);
	pb_check_set(ctx, PB_PASS, "closed everything");
}

static void exit_without_verdict(struct pb_check_ctx *ctx)
{
	pb_check_fail(ctx, "never delivered");
	_exit(7);
}

START_TEST(verdict_survives_closed_descriptors)
{
	const struct pb_check c = { "T-04", "test", "T", "closes fds", "none", 0, close_every_fd };
	struct pb_check_result r;

	run(&c, NULL, PB_KIND_ANON, 5, &r);
	ck_assert_int_eq(r.verdict, PB_PASS);
	ck_assert_str_eq(r.detail, "closed everything");
}
END_TEST

START_TEST(exit_without_verdict_is_error)
{
	const struct pb_check c = { "T-05", "test", "T", "exits", "none", 0, exit_without_verdict };
	struct pb_check_result r;

	run(&c, NULL, PB_KIND_ANON, 5, &r);
	ck_assert_int_eq(r.verdict, PB_ERROR);
	ck_assert_msg(strstr(r.detail, "exited 7 without a verdict") != NULL, "%s", r.detail);
}
END_TEST

/* An interruption (deferred signal) stops the running check at once and
 * marks it error, naming the signal. */
START_TEST(interrupted_check_is_error)
{
	const struct pb_check c = { "T-06", "test", "T", "blocks forever", "none", 0,
				    block_forever };
	struct pb_check_result r;

	pb_cleanup_install("test");
	pb_cleanup_defer_signals(true);
	raise(SIGTERM);
	ck_assert_int_eq(pb_cleanup_interrupted(), SIGTERM);
	run(&c, NULL, PB_KIND_ANON, 5, &r);
	ck_assert_int_eq(r.verdict, PB_ERROR);
	ck_assert(!r.timed_out);
	ck_assert_str_eq(r.detail, "interrupted by SIGTERM");
}
END_TEST

/* The fail/error rule of HACKING, decided in one place. */
START_TEST(setup_rule)
{
	struct pb_check_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	pb_check_setup(&ctx, PB_RES_PIPE, EAGAIN, "write returned %d", 0);
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
	ck_assert_str_eq(ctx.detail, "setup: write returned 0");
	for (int i = 0; i < 3; i++) {
		static const int res_errs[] = { EMFILE, ENFILE, ENOMEM };

		memset(&ctx, 0, sizeof(ctx));
		pb_check_setup(&ctx, PB_RES_PIPE, res_errs[i], "pipe2");
		ck_assert_int_eq(ctx.verdict, PB_ERROR);
		ck_assert_str_eq(ctx.detail, "harness: pipe2");
		ck_assert(pb_check_err_is_resource(res_errs[i]));
	}
	memset(&ctx, 0, sizeof(ctx));
	pb_check_setup(&ctx, PB_RES_PIPE, EMFILE, "pipe2: EMFILE; POSIX requires a new pipe");
	ck_assert_str_eq(ctx.detail, "harness: pipe2: EMFILE");
	memset(&ctx, 0, sizeof(ctx));
	pb_check_setup(&ctx, PB_RES_PIPE, EINVAL, "pipe2: EINVAL; POSIX requires a new pipe");
	ck_assert_str_eq(ctx.detail, "setup: pipe2: EINVAL; POSIX requires a new pipe");
	ck_assert(!pb_check_err_is_resource(EINVAL));
	ck_assert(!pb_check_err_is_resource(EBADF));
	memset(&ctx, 0, sizeof(ctx));
	pb_check_setup(&ctx, PB_RES_HARNESS, 0, "fork");
	ck_assert_int_eq(ctx.verdict, PB_ERROR);
	memset(&ctx, 0, sizeof(ctx));
	pb_check_setup(&ctx, PB_RES_PIPE, EINVAL, "fcntl");
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
}
END_TEST

/* The first FAIL or ERROR stays; lower verdicts replace each other. */
START_TEST(first_failure_stays)
{
	struct pb_check_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	pb_check_skip(&ctx, "no cap");
	ck_assert_int_eq(ctx.verdict, PB_SKIP);
	pb_check_info(&ctx, "size %d", 4);
	ck_assert_int_eq(ctx.verdict, PB_INFO);
	pb_check_fail(&ctx, "first");
	pb_check_error(&ctx, "then a harness error");
	pb_check_set(&ctx, PB_PASS, "then a pass");
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
	ck_assert_str_eq(ctx.detail, "first");
	memset(&ctx, 0, sizeof(ctx));
	pb_check_error(&ctx, "harness first");
	pb_check_fail(&ctx, "then a failure");
	ck_assert_int_eq(ctx.verdict, PB_ERROR);
	ck_assert_str_eq(ctx.detail, "harness first");
	memset(&ctx, 0, sizeof(ctx));
	pb_check_set(&ctx, PB_PASS, "a");
	pb_check_note(&ctx, "b %d", 1);
	ck_assert_str_eq(ctx.detail, "a; b 1");
	ck_assert_int_eq(ctx.verdict, PB_PASS);
}
END_TEST

/* ---- the helpers every check group shares (src/checks/util.c) ---- */

/* A context on the real kernel, or on SYS. */
static struct pb_check_ctx helper_ctx(const struct pb_sysops *sys, enum pb_kind kind)
{
	struct pb_check_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.sys = sys ? sys : &pb_sysops_real;
	ctx.dir = "/nonexistent";
	ctx.kind = kind;
	return ctx;
}

static int closes;
static int counting_close(int fd)
{
	closes++;
	return close(fd);
}

START_TEST(helper_close_pair)
{
	struct pb_sysops sys = pb_sysops_real;
	int fd[2];

	sys.close = counting_close;
	ck_assert_int_eq(pipe(fd), 0);
	closes = 0;
	pb_check_close_pair(&sys, fd);
	ck_assert_int_eq(closes, 2);
	ck_assert_int_eq(fd[0], -1);
	ck_assert_int_eq(fd[1], -1);
	pb_check_close_pair(&sys, fd);  /* already closed: no close() at all */
	ck_assert_int_eq(closes, 2);
}
END_TEST

/* A call that would block forever comes back -1/EINTR; one that can go on
 * returns at once with errno as the call left it.  (No time is measured.) */
START_TEST(helper_timed_io)
{
	const struct pb_sysops *s = &pb_sysops_real;
	char buf[8];
	int fd[2];
	long cap;

	ck_assert_int_eq(pipe(fd), 0);
	ck_assert_int_eq(pb_check_timed_read(s, fd[0], buf, sizeof(buf), 50), -1);
	ck_assert_int_eq(errno, EINTR);
	ck_assert_int_eq(pb_check_timed_write(s, fd[1], "abc", 3, 2000), 3);
	ck_assert_int_eq(errno, 0);
	ck_assert_int_eq(pb_check_timed_read(s, fd[0], buf, sizeof(buf), 2000), 3);
	ck_assert(memcmp(buf, "abc", 3) == 0);
	ck_assert_int_eq(pb_check_timed_read(s, -1, buf, 1, 2000), -1);
	ck_assert_int_eq(errno, EBADF);
	/* Full and blocking: the write is interrupted, nothing is queued. */
	ck_assert_int_eq(pb_check_set_nonblock(s, fd[1], true), 0);
	ck_assert(fcntl(fd[1], F_GETFL) & O_NONBLOCK);
	cap = pb_check_fill(s, fd[1]);
	ck_assert_int_gt(cap, 0);
	ck_assert_int_eq(pb_check_fionread(s, fd[0]), cap);
	ck_assert_int_eq(pb_check_set_nonblock(s, fd[1], false), 0);
	ck_assert(!(fcntl(fd[1], F_GETFL) & O_NONBLOCK));
	ck_assert_int_eq(pb_check_timed_write(s, fd[1], "x", 1, 50), -1);
	ck_assert_int_eq(errno, EINTR);
	ck_assert_int_eq(pb_check_fionread(s, fd[0]), cap);
	close(fd[0]);
	close(fd[1]);
	ck_assert_int_eq(pb_check_set_nonblock(s, fd[1], true), -EBADF);
	ck_assert_int_eq(pb_check_fionread(s, fd[0]), -1);
	ck_assert(signal(SIGALRM, SIG_DFL) == SIG_DFL);  /* disarmed */
}
END_TEST

START_TEST(helper_timespecs)
{
	const struct timespec a = { 5, 10 }, b = { 5, 20 }, c = { 6, 0 }, past = { 1000, 0 };
	const struct timespec far = { INT32_MAX, 0 };

	ck_assert_int_eq(pb_ts_cmp(&a, &b), -1);
	ck_assert_int_eq(pb_ts_cmp(&b, &a), 1);
	ck_assert_int_eq(pb_ts_cmp(&b, &c), -1);
	ck_assert_int_eq(pb_ts_cmp(&c, &b), 1);
	ck_assert_int_eq(pb_ts_cmp(&a, &a), 0);
	ck_assert(pb_check_wait_clock_past(&past, 1, 3000));
	ck_assert(!pb_check_wait_clock_past(&far, 1, 1));
}
END_TEST

static const char *fake_release;
static int fake_uname(struct utsname *u)
{
	if (!fake_release) {
		errno = EFAULT;
		return -1;
	}
	memset(u, 0, sizeof(*u));
	snprintf(u->release, sizeof(u->release), "%s", fake_release);
	return 0;
}

/* uname gives context only; an unknown or unparsable release is -1. */
START_TEST(helper_kernel_at_least)
{
	struct pb_sysops sys = pb_sysops_real;
	struct pb_check_ctx ctx;
	char rel[64];

	sys.uname = fake_uname;
	ctx = helper_ctx(&sys, PB_KIND_ANON);
	fake_release = "6.15.2-test";
	ck_assert_int_eq(pb_check_kernel_at_least(&ctx, 6, 15, rel, sizeof(rel)), 1);
	ck_assert_str_eq(rel, "6.15.2-test");
	ck_assert_int_eq(pb_check_kernel_at_least(&ctx, 6, 16, NULL, 0), 0);
	ck_assert_int_eq(pb_check_kernel_at_least(&ctx, 5, 99, NULL, 0), 1);
	ck_assert_int_eq(pb_check_kernel_at_least(&ctx, 7, 0, NULL, 0), 0);
	fake_release = "weird";
	ck_assert_int_eq(pb_check_kernel_at_least(&ctx, 6, 15, rel, sizeof(rel)), -1);
	ck_assert_str_eq(rel, "weird");
	fake_release = NULL;
	ck_assert_int_eq(pb_check_kernel_at_least(&ctx, 6, 15, rel, sizeof(rel)), -1);
	ck_assert_str_eq(rel, "unknown");
	ck_assert_int_eq(ctx.verdict, PB_PASS);
}
END_TEST

START_TEST(helper_words)
{
	char path[] = "/tmp/pb-checkutil-XXXXXX", buf[32];
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, " 42\n", 4), 4);
	close(fd);
	ck_assert_int_eq(pb_check_proc_long(path), 42);
	fd = open(path, O_WRONLY | O_TRUNC);
	ck_assert_int_eq(write(fd, "many", 4), 4);
	close(fd);
	ck_assert_int_eq(pb_check_proc_long(path), -1);
	unlink(path);
	ck_assert_int_eq(pb_check_proc_long(path), -1);
	ck_assert_int_eq(pb_check_page_size(), sysconf(_SC_PAGESIZE));
	ck_assert_str_eq(pb_check_err_name(-1, EAGAIN), "EAGAIN");
	ck_assert_str_eq(pb_check_err_name(0, EAGAIN), "success");
	ck_assert_str_eq(pb_check_err_name(-ESPIPE, ESPIPE), "ESPIPE");
	ck_assert_str_eq(pb_check_res(-1, EPIPE, buf, sizeof(buf)), "-1/EPIPE");
	ck_assert_str_eq(pb_check_res(96, EPIPE, buf, sizeof(buf)), "96");
	ck_assert_str_eq(pb_check_res(0, 0, buf, sizeof(buf)), "0");
}
END_TEST

/* Setup I/O that moves less than asked is FAIL naming the call; an errno
 * that is the environment's limit is ERROR (pb_check_setup). */
START_TEST(helper_io_exact)
{
	struct pb_check_ctx ctx = helper_ctx(NULL, PB_KIND_FIFO);

	ck_assert(pb_check_io_exact(&ctx, 5, 5, "write(5)"));
	ck_assert_int_eq(ctx.verdict, PB_PASS);
	ck_assert(!pb_check_io_exact(&ctx, 3, 5, "write(5) into the empty end"));
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
	ck_assert_str_eq(ctx.detail, "setup: write(5) into the empty end on a FIFO returned 3; "
			 "POSIX requires all 5 bytes");
	ctx = helper_ctx(NULL, PB_KIND_ANON);
	errno = EIO;
	ck_assert(!pb_check_io_exact(&ctx, -1, 1, "read(1)"));
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
	ck_assert_str_eq(ctx.detail, "setup: read(1) on a pipe: EIO; POSIX requires all 1 bytes");
	ctx = helper_ctx(NULL, PB_KIND_ANON);
	errno = ENOMEM;
	ck_assert(!pb_check_io_exact(&ctx, -1, 1, "read(1)"));
	ck_assert_int_eq(ctx.verdict, PB_ERROR);
}
END_TEST

static int pipe2_einval_garbage(int fd[2], int flags)
{
	(void)flags;
	fd[0] = fd[1] = 42;  /* garbage the helper must not hand back */
	errno = EINVAL;
	return -1;
}

START_TEST(helper_anon_pipe)
{
	struct pb_sysops sys = pb_sysops_real;
	struct pb_check_ctx ctx = helper_ctx(NULL, PB_KIND_FIFO);
	int fd[2];

	ck_assert(pb_check_anon_pipe(&ctx, fd, O_CLOEXEC));
	ck_assert(fcntl(fd[0], F_GETFD) & FD_CLOEXEC);
	ck_assert_int_eq(lseek(fd[0], 0, SEEK_CUR), -1);  /* a pipe, not a FIFO */
	pb_check_close_pair(ctx.sys, fd);
	sys.pipe2 = pipe2_einval_garbage;
	ctx = helper_ctx(&sys, PB_KIND_ANON);
	ck_assert(!pb_check_anon_pipe(&ctx, fd, O_DIRECT | O_CLOEXEC));
	ck_assert_int_eq(fd[0], -1);
	ck_assert_int_eq(fd[1], -1);
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
	ck_assert_str_eq(ctx.detail, "setup: pipe2(O_DIRECT|O_CLOEXEC): EINVAL; Linux requires "
			 "a new pipe");
	ctx = helper_ctx(&sys, PB_KIND_ANON);
	ck_assert(!pb_check_anon_pipe(&ctx, fd, 0));
	ck_assert_str_eq(ctx.detail, "setup: pipe2(0): EINVAL; POSIX requires a new pipe");
}
END_TEST

static int getpipesz_ret;
static int fcntl_getpipesz(int fd, int cmd, long arg)
{
	if (cmd == F_GETPIPE_SZ) {
		errno = getpipesz_ret < 0 ? EIO : 0;
		return getpipesz_ret;
	}
	return fcntl(fd, cmd, arg);
}

static ssize_t write_short(int fd, const void *buf, size_t n)
{
	return write(fd, buf, n > 10 ? n - 10 : n);
}

/* The capacity is > 0 or the check has said why; filling to 96 bytes free
 * leaves exactly that, and a short write with room is FAIL; a full pipe is
 * full, or the check has said why. */
START_TEST(helper_capacity_and_fill)
{
	struct pb_sysops sys = pb_sysops_real;
	struct pb_check_ctx ctx = helper_ctx(NULL, PB_KIND_ANON);
	long page = pb_check_page_size(), cap, q;
	int fd[2];

	ck_assert(pb_check_make_pipe(&ctx, fd, O_NONBLOCK));
	cap = pb_check_capacity(&ctx, fd[1]);
	ck_assert_int_gt(cap, 0);
	q = pb_check_fill_but_96(&ctx, fd[1], cap, page);
	ck_assert_int_eq(q, cap - 96);
	ck_assert_int_eq(pb_check_fionread(ctx.sys, fd[0]), cap - 96);
	ck_assert_int_eq(ctx.verdict, PB_PASS);
	pb_check_close_pair(ctx.sys, fd);
	ck_assert_int_eq(pb_check_fill_but_96(&ctx, -1, page - 1, page), -1);
	ck_assert_int_eq(ctx.verdict, PB_SKIP);

	q = pb_check_full_pipe(&ctx, fd, 0);
	ck_assert_int_gt(q, 0);
	ck_assert_int_eq(pb_check_fionread(ctx.sys, fd[0]), q);
	ck_assert(fcntl(fd[1], F_GETFL) & O_NONBLOCK);
	pb_check_close_pair(ctx.sys, fd);
	sys.pipe2 = pipe2_einval_garbage;
	ctx = helper_ctx(&sys, PB_KIND_ANON);
	ck_assert_int_eq(pb_check_full_pipe(&ctx, fd, 0), -1);
	ck_assert_int_eq(fd[0], -1);
	ck_assert_int_eq(ctx.verdict, PB_FAIL);

	sys = pb_sysops_real;
	sys.fcntl = fcntl_getpipesz;
	for (int i = 0; i < 2; i++) {
		getpipesz_ret = i ? 0 : -1;
		ctx = helper_ctx(&sys, PB_KIND_ANON);
		ck_assert_int_eq(pb_check_capacity(&ctx, 0), -1);
		ck_assert_int_eq(ctx.verdict, PB_FAIL);
		ck_assert_ptr_nonnull(strstr(ctx.detail, "F_GETPIPE_SZ"));
	}
	sys = pb_sysops_real;
	sys.write = write_short;
	ctx = helper_ctx(&sys, PB_KIND_FIFO);
	ck_assert(pb_check_anon_pipe(&ctx, fd, O_NONBLOCK | O_CLOEXEC));
	cap = fcntl(fd[1], F_GETPIPE_SZ);
	ck_assert_int_eq(pb_check_fill_but_96(&ctx, fd[1], cap, page), -1);
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
	ck_assert_ptr_nonnull(strstr(ctx.detail, "there is room"));
	ck_assert_ptr_nonnull(strstr(ctx.detail, "FIFO"));
	pb_check_close_pair(ctx.sys, fd);
}
END_TEST

static void report_ids(const struct pb_sysops *s, void *arg, struct pb_nobody_out *out)
{
	(void)s;
	(void)arg;
	out->value = (long)getuid() << 20 | (long)getgid();
	out->err = getgroups(0, NULL);
}

static void sleep_forever(const struct pb_sysops *s, void *arg, struct pb_nobody_out *out)
{
	(void)s, (void)arg, (void)out;
	for (;;)
		pause();
}

/*
 * The uid 65534 helper: the function runs under that identity with no
 * supplementary groups; a function that never returns is HUNG; a missing
 * directory is the harness's ERROR.  Without CAP_SETUID the switch is
 * refused (EPERM): a SKIP with the reason, never an error.
 */
START_TEST(helper_as_nobody)
{
	struct pb_check_ctx ctx = helper_ctx(NULL, PB_KIND_ANON);
	struct pb_nobody_out out = { -7, -7 };
	char why[200] = "";
	int r = pb_check_as_nobody(&ctx, NULL, 3000, report_ids, NULL, &out, why, sizeof(why));

	if (!pb_check_has_cap(PB_CAP_SETUID)) {
		ck_assert_int_eq(r, PB_NOBODY_SKIP);
		ck_assert_ptr_nonnull(strstr(why, "cannot become uid 65534"));
		ck_assert_int_eq(ctx.verdict, PB_PASS);
		return;
	}
	if (r == PB_NOBODY_SKIP)
		return;  /* 65534 is not mapped here (a user namespace) */
	ck_assert_int_eq(r, PB_NOBODY_OK);
	ck_assert_int_eq(out.value, 65534L << 20 | 65534L);
	ck_assert_int_eq(out.err, 0);
	r = pb_check_as_nobody(&ctx, NULL, 100, sleep_forever, NULL, &out, why, sizeof(why));
	ck_assert_int_eq(r, PB_NOBODY_HUNG);
	ck_assert_int_eq(ctx.verdict, PB_PASS);  /* the caller words the FAIL */
	r = pb_check_as_nobody(&ctx, "/nonexistent/dir", 3000, report_ids, NULL, &out, why,
			       sizeof(why));
	ck_assert_int_eq(r, PB_NOBODY_ERROR);
	ck_assert_int_eq(ctx.verdict, PB_ERROR);
	ck_assert_ptr_nonnull(strstr(ctx.detail, "chdir"));
}
END_TEST

/* A capability held only inside a user namespace does not lift the pipe
 * limits: the kernel checks it in the initial namespace. */
START_TEST(helper_limit_cap_userns)
{
	int status = 0;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWUSER) != 0)
			_exit(77);
		_exit(pb_check_has_cap(PB_CAP_SYS_RESOURCE) &&
		      !pb_check_has_limit_cap(PB_CAP_SYS_RESOURCE) ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert(WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 77);
}
END_TEST

/*
 * The conformance command's two tables (its results and its items, 2 x N + 1
 * entries each for N checks selected) cannot be had, each on its own: the
 * command says "out of memory" and exits 3 before anything is run or
 * written (the --output file is not made), having asked for both tables
 * and nothing more of their size.  Run in this process: its stderr goes to
 * a file for the while.
 */
START_TEST(conformance_tables_out_of_memory)
{
	char dir[4096], out[4200], errs[4200], msg[512];
	const char *argv[] = { "conformance", "--only=RD-*,WR-*", "-q", "-o", out, NULL };
	size_t n = 0;

	for (const struct pb_check *c = pb_checks_read; c->id; c++)
		n++;
	for (const struct pb_check *c = pb_checks_write; c->id; c++)
		n++;
	ck_assert_int_eq(pb_tmpdir_make(NULL, dir, sizeof(dir)), 0);
	snprintf(out, sizeof(out), "%s/out.txt", dir);
	snprintf(errs, sizeof(errs), "%s/stderr.txt", dir);
	for (int nth = 1; nth <= 2; nth++) {
		int keep = dup(2), fd = open(errs, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		int status;
		ssize_t len;

		ck_assert(keep >= 0 && fd >= 0);
		ck_assert_int_eq(dup2(fd, 2), 2);
		close(fd);
		calloc_nmemb = 2 * n + 1;
		calloc_nth = nth;
		calloc_seen = 0;
		status = pb_cmd_run(pb_cmd_find("conformance"), 5, argv);
		calloc_nmemb = 0;
		ck_assert_int_eq(dup2(keep, 2), 2);
		close(keep);
		fd = open(errs, O_RDONLY | O_CLOEXEC);
		len = read(fd, msg, sizeof(msg) - 1);
		close(fd);
		msg[len > 0 ? len : 0] = '\0';
		unlink(errs);
		ck_assert_msg(status == PB_EXIT_ERROR, "table %d of 2 missing: exit %d", nth, status);
		ck_assert_msg(strstr(msg, "pipebench conformance: out of memory\n"), "table %d: "
			      "stderr: %s", nth, msg);
		ck_assert_msg(access(out, F_OK) != 0 && errno == ENOENT, "table %d: %s was made",
			      nth, out);
		ck_assert_int_eq(calloc_seen, 2);
	}
	pb_tmpdir_remove(dir);
}
END_TEST

/* The runner without the page it shares with the check's process: an
 * error of the harness's, naming mmap, and the check's private directory
 * removed (its base directory is left empty). */
START_TEST(runner_without_its_shared_page)
{
	char base[4096];
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 10, .base_dir = base };
	struct pb_check_result r;
	DIR *d;
	struct dirent *e;
	int left = 0;

	ck_assert_int_eq(pb_tmpdir_make(NULL, base, sizeof(base)), 0);
	shared_mmap_fails = true;
	ck_assert_int_eq(pb_conformance_run_one(pb_test_find_check("RD-01"), &o, &r), -ENOMEM);
	shared_mmap_fails = false;
	ck_assert_int_eq(r.verdict, PB_ERROR);
	ck_assert_str_eq(r.detail, "harness: mmap: Cannot allocate memory");
	d = opendir(base);
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		left += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	ck_assert_msg(left == 0, "%d entries left in the base directory", left);
	pb_tmpdir_remove(base);
}
END_TEST

static Suite *conf_core_suite(void)
{
	return pb_test_suite("conf_core", (const struct pb_tcase *const[]){
		PB_TCASE_LOOP("broken_kernel", 30, check_fails_on_broken_kernel, 2 * NCASES),
		PB_TCASE_LOOP("verdicts", 30, verdict_per_situation, NVERDICTS),
		PB_TCASE_TIMED("catalogue", 0, every_check_has_a_case, ids_unique, probe_dies,
			       cloexec_lost_after_exec),
		PB_TCASE_TIMED("runner", 30, watchdog_kills_blocked_check, signal_is_fail_naming_it,
			       helper_holding_result_pipe, verdict_survives_closed_descriptors,
			       exit_without_verdict_is_error, interrupted_check_is_error,
			       setup_rule, first_failure_stays, conformance_tables_out_of_memory,
			       runner_without_its_shared_page),
		PB_TCASE_TIMED("helpers", 30, helper_close_pair, helper_timed_io, helper_timespecs,
			       helper_kernel_at_least, helper_words, helper_io_exact,
			       helper_anon_pipe, helper_capacity_and_fill, helper_as_nobody,
			       helper_limit_cap_userns),
		NULL });
}

int main(int argc, char **argv)
{
	/* CRE-03 re-executes /proc/self/exe, which is this test program.  With
	 * PB_TEST_PROBE_DIES set, the probe of descriptors execve closed (the
	 * pipe's, not the control ones) dies by SIGKILL (probe_dies). */
	int probe;

	if (argc == 4 && strcmp(argv[1], PB_CHECKPROC_PROBE_ARG) == 0 &&
	    getenv("PB_TEST_PROBE_DIES") && fcntl(atoi(argv[2]), F_GETFD) < 0)
		raise(SIGKILL);
	probe = pb_checkproc_probe_main(argc, (const char *const *)argv);

	return probe >= 0 ? probe : pb_test_run_suite(conf_core_suite());
}
