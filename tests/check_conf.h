/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the conformance unit tests share: each check group's tests are in
 * tests/check_conf_GROUP.c (creation, read, write, nonblock, sigpipe, fifo,
 * fcntl, poll, metadata, linux), the runner's, the catalogue's and the
 * helpers' (src/checks/util.c) in check_conf_runner.c.  Here: finding and
 * running a check by ID, a pb_sysops that breaks only the calls a table row
 * names, the calls that fail outright, which every group's fail/error-rule
 * cases use (see HACKING, "Verdicts: fail versus error"), the misbehaving
 * calls more than one group's rows need, and the runners of the kinds of
 * table several group files fill (one row per broken kernel, per verdict,
 * per later condition, per real-kernel note).
 */
#ifndef PB_CHECK_CONF_H
#define PB_CHECK_CONF_H

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "checks/conformance.h"

/*
 * A tmpfs mounted at TARGET (MS_* FLAGS) in a mount namespace of this
 * process alone, gone when it exits: a /proc or a noatime directory of a
 * test's own.  Needs CAP_SYS_ADMIN; false (errno set) when it cannot.
 */
static inline bool pb_test_own_tmpfs(const char *target, unsigned long flags)
{
	return unshare(CLONE_NEWNS) == 0 && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
	       mount("pb-test-tmpfs", target, "tmpfs", flags, "size=64k") == 0;
}

/* TEXT written to PATH in one write(), as a uid_map must be. */
static inline bool pb_test_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));

	if (fd >= 0 && close(fd) != 0)
		return false;
	return n == (ssize_t)strlen(text);
}

/* The initial user namespace's uid_map: all of 0..2^32-2 mapped to itself. */
#define PB_TEST_INIT_UID_MAP "         0          0 4294967295"

/*
 * A /proc of the test's own (pb_test_own_tmpfs) with empty self/ and
 * sys/fs/ for the files the test writes there (pb_test_write_file,
 * pb_test_proc_self): the capabilities, limits or user namespace this
 * machine lacks, shown to a check.  The test ends with
 * umount2("/proc", MNT_DETACH).  False (errno set) when no mount namespace
 * can be made.
 */
static inline bool pb_test_fake_proc(void)
{
	if (!pb_test_own_tmpfs("/proc", 0))
		return false;
	ck_assert_int_eq(mkdir("/proc/self", 0755), 0);
	ck_assert_int_eq(mkdir("/proc/sys", 0755), 0);
	ck_assert_int_eq(mkdir("/proc/sys/fs", 0755), 0);
	return true;
}

/* The fake /proc's self/status says CapEff CAPEFF (hex), its uid_map UID_MAP. */
static inline void pb_test_proc_self(const char *capeff, const char *uid_map)
{
	char text[128];

	snprintf(text, sizeof(text), "Name:\tpipebench\nCapEff:\t%s\n", capeff);
	ck_assert(pb_test_write_file("/proc/self/status", text));
	snprintf(text, sizeof(text), "%s\n", uid_map);
	ck_assert(pb_test_write_file("/proc/self/uid_map", text));
}

/*
 * True when S matches PATTERN: '#' matches one or more digits (descriptor
 * numbers, a uid, an inode), a '*' that ends the pattern anything at all,
 * a backslash the character after it ("read \\#2" is "read #2"), every
 * other character itself.
 */
static inline bool pb_test_matches(const char *pattern, const char *s)
{
	for (; *pattern; pattern++) {
		if (pattern[0] == '*' && pattern[1] == '\0') {
			return true;
		} else if (pattern[0] == '\\' && pattern[1] != '\0') {
			if (*s++ != *++pattern)
				return false;
		} else if (*pattern == '#') {
			if (*s < '0' || *s > '9')
				return false;
			while (*s >= '0' && *s <= '9')
				s++;
		} else if (*s++ != *pattern) {
			return false;
		}
	}
	return *s == '\0';
}

/* A 4 KiB page, PIPE_BUF 4096 and a 64 KiB default pipe: the machine the
 * figures in the tests' expected details are written for. */
static inline bool pb_test_reference_machine(void)
{
	int fd[2];
	long cap;

	if (sysconf(_SC_PAGESIZE) != 4096 || PIPE_BUF != 4096 || pipe(fd) != 0)
		return false;
	cap = fcntl(fd[0], F_GETPIPE_SZ);
	close(fd[0]);
	close(fd[1]);
	return cap == 65536;
}

/*
 * A loop test's detail against its snapshot: tests/conf_details.tab holds,
 * for each loop test NAME and index I, the detail the check gives on the
 * reference machine, as a pattern (pb_test_matches: '#' where a number
 * depends on the process's descriptors or on a race; UNAME-R for the running
 * kernel's release, which differs between machines).  Elsewhere nothing is
 * asserted.  With PB_DETAILS_RECORD=FILE the detail is appended to FILE
 * instead (tests/mkdetails.sh makes the table from such records; HACKING).
 */
static inline void pb_test_detail_is(const char *name, int i, const char *raw)
{
	const char *rec = getenv("PB_DETAILS_RECORD"), *dir = getenv("TESTS_SRCDIR");
	char path[4096], line[2048], key[128], detail[2048];
	bool found = false;
	struct utsname u;
	const char *at;
	FILE *f;

	/* The running kernel's release (a check may name it: "backported?")
	 * differs from machine to machine; the snapshot says UNAME-R. */
	snprintf(detail, sizeof(detail), "%s", raw);
	if (uname(&u) == 0 && u.release[0] && (at = strstr(raw, u.release)))
		snprintf(detail, sizeof(detail), "%.*sUNAME-R%s", (int)(at - raw), raw,
			 at + strlen(u.release));
	if (rec && *rec) {
		f = fopen(rec, "a");
		ck_assert_msg(f != NULL, "%s: %s", rec, strerror(errno));
		fprintf(f, "%s\t%d\t%s\n", name, i, detail);
		fclose(f);
		return;
	}
	if (!pb_test_reference_machine())
		return;
	if (dir && *dir) {
		snprintf(path, sizeof(path), "%s/conf_details.tab", dir);
	} else {  /* run by hand: next to this header, as the compiler found it */
		const char *slash = strrchr(__FILE__, '/');

		snprintf(path, sizeof(path), "%.*sconf_details.tab",
			 slash ? (int)(slash - __FILE__ + 1) : 0, __FILE__);
	}
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	snprintf(key, sizeof(key), "%s\t%d\t", name, i);
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, key, strlen(key)) == 0) {
			found = true;
			ck_assert_msg(pb_test_matches(line + strlen(key), detail),
				      "%s #%d says\n  %s\nexpected (%s)\n  %s", name, i, detail,
				      path, line + strlen(key));
		}
	}
	fclose(f);
	ck_assert_msg(found, "%s #%d has no line in %s (tests/mkdetails.sh makes it): %s", name,
		      i, path, detail);
}

/* The check with this ID anywhere in the catalogue, or NULL. */
static inline const struct pb_check *pb_test_find_check(const char *id)
{
	for (size_t g = 0; pb_check_groups[g]; g++)
		for (const struct pb_check *c = pb_check_groups[g]; c->id; c++)
			if (strcmp(c->id, id) == 0)
				return c;
	return NULL;
}

/* Become UID, a fresh user with no process of its own yet, limited to
 * NPROC processes (RLIMIT_NPROC), so that a check's fork past them fails
 * with EAGAIN.  False, said on stderr as NAME "not run", where this
 * process cannot change its user. */
static inline bool pb_test_fresh_uid(const char *name, uid_t uid, rlim_t nproc)
{
	struct rlimit rl = { nproc, nproc };

	if (setgroups(0, NULL) != 0 || setgid((gid_t)uid) != 0 || setuid(uid) != 0) {
		fprintf(stderr, "# %s: not run (cannot become uid %u: %s)\n", name,
			(unsigned)uid, strerror(errno));
		return false;
	}
	ck_assert_int_eq(setrlimit(RLIMIT_NPROC, &rl), 0);
	/* the check's scratch files go to TMPDIR: one only root may write
	 * to (a 0755 build directory) is no test of the check */
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	if (access(tmp, W_OK | X_OK) != 0) {
		fprintf(stderr, "# %s: not run (uid %u cannot write to TMPDIR %s: %s)\n", name,
			(unsigned)uid, tmp, strerror(errno));
		return false;
	}
	return true;
}

/* close() that kills the process on descriptor 0: open in every test
 * process (pb_test_sysops sees to it), so never one a check made. */
static inline int pb_test_close_0_dies(int fd)
{
	if (fd == 0)
		kill(getpid(), SIGKILL);
	return close(fd);
}

/*
 * The real kernel but for the calls `broken` sets: a table row of broken
 * kernels names only those ({ .write = ..., .open = ... }).  Unless the row
 * fakes close(), a close of descriptor 0 kills the check (it closes only
 * what it opened, on every path: a failure's clean-up too), so descriptor
 * 0 is opened on /dev/null here when it is not open.
 */
static inline struct pb_sysops pb_test_sysops(const struct pb_sysops *broken)
{
	struct pb_sysops s = pb_sysops_real;

	if (fcntl(0, F_GETFD) < 0)
		ck_assert_int_eq(open("/dev/null", O_RDONLY), 0);
	s.close = pb_test_close_0_dies;

#define PB_TAKE(call) \
	do { \
		if (broken->call) \
			s.call = broken->call; \
	} while (0)
	PB_TAKE(pipe2);
	PB_TAKE(read);
	PB_TAKE(write);
	PB_TAKE(close);
	PB_TAKE(dup);
	PB_TAKE(fcntl);
	PB_TAKE(ioctl);
	PB_TAKE(open);
	PB_TAKE(mkfifo);
	PB_TAKE(mknod);
	PB_TAKE(fstat);
	PB_TAKE(stat);
	PB_TAKE(poll);
	PB_TAKE(select);
	PB_TAKE(lseek);
	PB_TAKE(pread);
	PB_TAKE(pwrite);
	PB_TAKE(futimens);
	PB_TAKE(splice);
	PB_TAKE(tee);
	PB_TAKE(vmsplice);
	PB_TAKE(fpathconf);
	PB_TAKE(pathconf);
	PB_TAKE(uname);
	PB_TAKE(readlink);
	PB_TAKE(mmap);
	PB_TAKE(munmap);
	PB_TAKE(fsync);
	PB_TAKE(fdatasync);
	PB_TAKE(ftruncate);
	PB_TAKE(posix_fadvise);
	PB_TAKE(epoll_create1);
	PB_TAKE(epoll_ctl);
	PB_TAKE(epoll_wait);
#undef PB_TAKE
	return s;
}

/* A wrapper's clean-up call (putting a signal state back) after the call it
 * wraps: errno stays what the wrapped call said. */
#define PB_KEEP_ERRNO(cleanup) \
	do { \
		int pb_errno_ = errno; \
		(void)(cleanup); \
		errno = pb_errno_; \
	} while (0)

/* ---- calls that fail outright, or only on pipes and FIFOs ---- */

/* A call that fails with ERR: -1 and errno, for a fake's return. */
static inline ssize_t fail_with(int err)
{
	errno = err;
	return -1;
}

static inline int ifail_with(int err)
{
	errno = err;
	return -1;
}

static inline bool is_pipe_fd(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

/* RD-01, CRE-01 and the FIFO checks: a read of a pipe or FIFO says one byte
 * less than it took (the last is lost), or the right count with its last
 * byte changed. */
static inline ssize_t read_one_short(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	return r > 1 && is_pipe_fd(fd) ? r - 1 : r;
}

static inline ssize_t read_flips_last(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	if (r > 0 && is_pipe_fd(fd))
		((char *)buf)[r - 1] ^= 1;
	return r;
}

/* A full nonblocking pipe: write() returns 0 instead of -1/EAGAIN. */
static inline ssize_t write_zero_when_full(int fd, const void *b, size_t n)
{
	ssize_t r = write(fd, b, n);

	return r < 0 && errno == EAGAIN ? 0 : r;
}

/* Writes into pipes and FIFOs fail with EIO (regular files still work). */
static inline ssize_t write_eio_on_pipes(int fd, const void *b, size_t n)
{
	if (is_pipe_fd(fd)) {
		errno = EIO;
		return -1;
	}
	return write(fd, b, n);
}

static inline ssize_t read_eio_on_pipes(int fd, void *b, size_t n)
{
	if (is_pipe_fd(fd)) {
		errno = EIO;
		return -1;
	}
	return read(fd, b, n);
}

/* EOF (a read of N > 0 that returns 0) fails with ERR instead. */
static inline ssize_t read_eof_fails(int err, int fd, void *b, size_t n)
{
	ssize_t r = read(fd, b, n);

	if (r == 0 && n > 0) {
		errno = err;
		return -1;
	}
	return r;
}

static inline ssize_t read_eof_eio(int fd, void *b, size_t n)
{
	return read_eof_fails(EIO, fd, b, n);
}

/* A write that moved some but not all of its bytes says -1/err instead:
 * the bytes are in the pipe, but the caller is told none went. */
static inline ssize_t write_partial_as(int err, int fd, const void *b, size_t n)
{
	ssize_t r = write(fd, b, n);

	if (r > 0 && (size_t)r < n) {
		errno = err;
		return -1;
	}
	return r;
}

/* Every pipe and FIFO creation fails with an I/O error: the kernel is broken. */
static inline int pipe2_eio(int fd[2], int flags)
{
	(void)fd, (void)flags;
	errno = EIO;
	return -1;
}

static inline int pipe2_einval(int fd[2], int flags)
{
	(void)fd, (void)flags;
	errno = EINVAL;
	return -1;
}

/* The process is out of descriptors: the harness's resource, not the kernel.
 * The check must say ERROR, not FAIL. */
static inline int pipe2_emfile(int fd[2], int flags)
{
	(void)fd, (void)flags;
	errno = EMFILE;
	return -1;
}

static inline int mkfifo_eio(const char *path, mode_t mode)
{
	(void)path, (void)mode;
	errno = EIO;
	return -1;
}

/* Opens of an existing FIFO fail with ERR: EIO (a broken FIFO) or EMFILE
 * (the process is out of descriptors: the harness's limit). */
static inline int open_fifo_fails(int err, const char *path, int flags, mode_t mode)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
		errno = err;
		return -1;
	}
	return open(path, flags, mode);
}

static inline int open_fifo_eio(const char *path, int flags, mode_t mode)
{
	return open_fifo_fails(EIO, path, flags, mode);
}

static inline int open_fifo_emfile(const char *path, int flags, mode_t mode)
{
	return open_fifo_fails(EMFILE, path, flags, mode);
}

/* ---- the ends of a pipe or FIFO, and what a path or descriptor is ---- */

/* The access mode of FD (O_RDONLY, O_WRONLY, O_RDWR), or -1. */
static inline int accmode(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fl & O_ACCMODE;
}

static inline bool is_read_end(int fd)
{
	return is_pipe_fd(fd) && accmode(fd) == O_RDONLY;
}

static inline bool is_write_end(int fd)
{
	return is_pipe_fd(fd) && accmode(fd) == O_WRONLY;
}

static inline bool is_nonblock(int fd)
{
	return (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0;
}

static inline bool is_fifo_path(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
}

/* An anonymous pipe (not a FIFO): its /proc/self/fd link reads "pipe:[". */
static inline bool is_anon(int fd)
{
	char path[64], link[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	return n > 6 && strncmp(link, "pipe:[", 6) == 0;
}

/* ---- the environment a row needs ---- */

/* The running kernel is MAJOR.MINOR or later (by uname's release). */
static inline bool pb_test_kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	ck_assert_int_eq(uname(&u), 0);
	ck_assert_int_eq(sscanf(u.release, "%d.%d", &ma, &mi), 2);
	return ma > major || (ma == major && mi >= minor);
}

/* Root in the initial user namespace (uid_map maps all of 0..2^32-2),
 * holding CAP_SYS_RESOURCE and CAP_SETUID there. */
static inline bool pb_test_root_in_init_ns(void)
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

/* What `unshare -U -r` does: a user namespace mapping the caller to 0,
 * setgroups denied.  False when one cannot be had here. */
static inline bool pb_test_userns_as_root(void)
{
	char umap[64], gmap[64];

	snprintf(umap, sizeof(umap), "0 %u 1", (unsigned)getuid());
	snprintf(gmap, sizeof(gmap), "0 %u 1", (unsigned)getgid());
	return unshare(CLONE_NEWUSER) == 0 && pb_test_write_file("/proc/self/setgroups", "deny") &&
	       pb_test_write_file("/proc/self/uid_map", umap) &&
	       pb_test_write_file("/proc/self/gid_map", gmap);
}

/* ---- misbehaving calls the rows of more than one group use ---- */

/* dup fails: with EIO (a broken kernel), or EMFILE (the process is out of
 * descriptors: the harness's limit). */
static inline int dup_eio(int fd)
{
	(void)fd;
	errno = EIO;
	return -1;
}

static inline int dup_emfile(int fd)
{
	(void)fd;
	errno = EMFILE;
	return -1;
}

/* pipe2(O_DIRECT) fails with an error other than "not supported". */
static inline int pipe2_direct_eio(int fd[2], int flags)
{
	if (flags & O_DIRECT) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_pipe2, fd, flags);
}

/* A "FIFO" that is a regular file: data persists, size grows, wrong type. */
static inline int mkfifo_regular(const char *path, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);

	return fd < 0 ? -1 : close(fd);
}

/* Writes whatever fits, even of n <= PIPE_BUF (torn atomic writes). */
static inline ssize_t write_torn(int fd, const void *buf, size_t n)
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

/* Never more than 1000 bytes per call, even into an empty pipe. */
static inline ssize_t write_small(int fd, const void *buf, size_t n)
{
	return write(fd, buf, n > 1000 ? 1000 : n);
}

/* Writes into pipes fail: the environment is out of memory. */
static inline ssize_t write_enomem_on_pipes(int fd, const void *buf, size_t n)
{
	if (is_pipe_fd(fd)) {
		errno = ENOMEM;
		return -1;
	}
	return write(fd, buf, n);
}

/* F_GETPIPE_SZ fails on a pipe (Linux 2.6.35 and later answer it). */
static inline int fcntl_getpipesz_eio(int fd, int cmd, long arg)
{
	if (cmd == F_GETPIPE_SZ) {
		errno = EIO;
		return -1;
	}
	return fcntl(fd, cmd, arg);
}

/* F_GETPIPE_SZ says half a page: the checks that leave 96 bytes free in a
 * full pipe skip, saying why, and go no further (the real pipe is empty, so
 * a check that went on would see its writes succeed and FAIL). */
static inline int fcntl_half_page(int fd, int cmd, long arg)
{
	return cmd == F_GETPIPE_SZ ? (int)(sysconf(_SC_PAGESIZE) / 2) : fcntl(fd, cmd, arg);
}

/* FIONREAD says one byte more than is queued. */
static inline int ioctl_fionread_plus_1(int fd, unsigned long req, void *arg)
{
	int r = ioctl(fd, req, arg);

	if (r == 0 && req == FIONREAD)
		(*(int *)arg)++;
	return r;
}

/* FIONREAD on one end only (ACC: its access mode) is one too many, or
 * fails with ERR. */
static inline int ioctl_fionread_end(int fd, unsigned long req, void *arg, int acc, int err)
{
	if (req != FIONREAD || (fcntl(fd, F_GETFL) & O_ACCMODE) != acc)
		return ioctl(fd, req, arg);
	if (err) {
		errno = err;
		return -1;
	}
	if (ioctl(fd, req, arg) != 0)
		return -1;
	(*(int *)arg)++;
	return 0;
}

static inline int ioctl_read_end_enotty(int fd, unsigned long req, void *arg)
{
	return ioctl_fionread_end(fd, req, arg, O_RDONLY, ENOTTY);
}

/* ---- running a check ---- */

/* Every check run here leaves no descriptor open: the runner's audit
 * (PB_CHECK_FD_AUDIT, HACKING) makes one that does an ERROR. */
__attribute__((constructor)) static void pb_test_fd_audit_on(void)
{
	setenv("PB_CHECK_FD_AUDIT", "1", 1);
}

/*
 * The watchdog of a check pb_test_run() runs, in seconds: a test file
 * whose checks all end within a second defines a short one before it
 * includes this header, so that a hang is caught early.
 */
#ifndef PB_TEST_WATCHDOG_S
#define PB_TEST_WATCHDOG_S 20
#endif

/* The check with this ID; the test fails when there is none. */
static inline const struct pb_check *pb_test_check(const char *id)
{
	const struct pb_check *c = pb_test_find_check(id);

	ck_assert_msg(c != NULL, "no check %s", id);
	return c;
}

/*
 * Check ID through the runner (a forked child under the watchdog) on a
 * kernel broken as SYS says (NULL: this one), on KIND, with the runner's
 * FLAGS (PB_RUN_*).  PB_TEST_VERBOSE=1 shows each verdict's detail (why a
 * broken kernel failed).
 */
static inline struct pb_check_result pb_test_run(const char *id, const struct pb_sysops *sys,
						 enum pb_kind kind, unsigned flags)
{
	struct pb_run_opts o = { .sys = sys, .kind = kind, .timeout_s = PB_TEST_WATCHDOG_S,
				 .flags = flags };
	struct pb_check_result r;

	ck_assert_int_eq(pb_conformance_run_one(pb_test_check(id), &o, &r), 0);
	if (getenv("PB_TEST_VERBOSE"))
		fprintf(stderr, "# %s: %s: %s\n", id, pb_verdict_names[r.verdict], r.detail);
	return r;
}

/*
 * Check ID in a user namespace (pb_test_userns_as_root), in a child: it
 * must pass with the part it could not test named ("skipped"); then MORE
 * (NULL: none) may judge more and return the child's exit status.  The
 * child's exit status: 0 as expected, 77 no user namespace here, 1 ID
 * wrong, or MORE's.
 */
static inline int pb_test_userns_skips(const char *id, int (*more)(void))
{
	int status = 0;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct pb_check_result r;

		if (!pb_test_userns_as_root())
			_exit(77);
		r = pb_test_run(id, NULL, PB_KIND_ANON, 0);
		fprintf(stderr, "# in a user namespace: %s: %s: %s\n", id,
			pb_verdict_names[r.verdict], r.detail);
		if (r.verdict != PB_PASS || !strstr(r.detail, "skipped"))
			_exit(1);
		_exit(more ? more() : 0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	if (WEXITSTATUS(status) == 1)
		ck_abort_msg("%s in a user namespace: not a pass with the skipped part named "
			     "(see the log)", id);
	return WEXITSTATUS(status);
}

/* Check C on S (NULL: this kernel) with a watchdog of TIMEOUT seconds. */
static inline void pb_test_run_check(const struct pb_check *c, const struct pb_sysops *s,
				     enum pb_kind kind, double timeout, struct pb_check_result *r)
{
	struct pb_run_opts o = { .sys = s, .kind = kind, .timeout_s = timeout };

	ck_assert_int_eq(pb_conformance_run_one(c, &o, r), 0);
}

#define pb_test_assert_verdict(r, v) \
	ck_assert_msg((r).verdict == (v), "verdict %s, expected %s: %s", \
		      pb_verdict_names[(r).verdict], pb_verdict_names[v], (r).detail)

/* Check ID on SYS must FAIL (on KIND, with the runner's FLAGS) and say why. */
static inline struct pb_check_result pb_test_expect_fail(const char *id,
							 const struct pb_sysops *sys,
							 enum pb_kind kind, unsigned flags)
{
	struct pb_check_result r = pb_test_run(id, sys, kind, flags);

	/* A check that says the machine gave its process no time (SIG-04's
	 * spinning writer on a loaded machine) judged nothing: up to two
	 * more runs, and the verdict of the last counts. */
	for (int again = 0; again < 2 && r.verdict == PB_ERROR &&
	     strstr(r.detail, "gave it no time (overloaded?)"); again++) {
		fprintf(stderr, "# %s: %s; running it again\n", id, r.detail);
		r = pb_test_run(id, sys, kind, flags);
	}
	pb_test_assert_verdict(r, PB_FAIL);
	ck_assert_msg(r.detail[0] != '\0', "%s failed without a detail", id);
	return r;
}

/* Check ID on this kernel says V, on a FIFO too when it runs on both. */
static inline void pb_test_expect_here(const char *id, enum pb_verdict v)
{
	struct pb_check_result r = pb_test_run(id, NULL, PB_KIND_ANON, 0);

	pb_test_assert_verdict(r, v);
	if (pb_test_check(id)->flags & PB_CHECK_BOTH_KINDS) {
		r = pb_test_run(id, NULL, PB_KIND_FIFO, 0);
		pb_test_assert_verdict(r, v);
	}
}

/* Checks IDS (N of them) under SYS all say ERROR, their detail holding SAYS
 * (unless NULL): the environment's limit, not the kernel's misbehaviour. */
static inline void pb_test_all_error(const char *const *ids, size_t n,
				     const struct pb_sysops *sys, const char *says)
{
	for (size_t i = 0; i < n; i++) {
		struct pb_check_result r = pb_test_run(ids[i], sys, PB_KIND_ANON, 0);

		ck_assert_msg(r.verdict == PB_ERROR, "%s: verdict %s: %s", ids[i],
			      pb_verdict_names[r.verdict], r.detail);
		ck_assert_msg(!says || strstr(r.detail, says), "%s: %s", ids[i], r.detail);
	}
}

/* Check ID run on a kernel broken as BROKEN says: it must skip, its detail
 * holding WANT. */
static inline void pb_test_skips_saying(const char *id, const struct pb_sysops *broken,
					const char *want)
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

/* ---- tables that cover a group ---- */

/*
 * Every check of GROUP has a row in ROWS (N rows of SIZE bytes, each
 * starting with its check's ID): a new check needs one.  WHAT names the
 * table.
 */
static inline void pb_test_every_check_has_a_row(const struct pb_check *group, const void *rows,
						 size_t n, size_t size, const char *what)
{
	for (const struct pb_check *c = group; c->id; c++) {
		bool found = false;

		for (size_t i = 0; i < n; i++)
			found = found ||
				strcmp(*(const char *const *)((const char *)rows + i * size), c->id) == 0;
		ck_assert_msg(found, "%s has no %s row", c->id, what);
	}
}

/* The number of checks in GROUP. */
static inline size_t pb_test_group_size(const struct pb_check *group)
{
	size_t n = 0;

	while (group[n].id)
		n++;
	return n;
}

/* ---- what a check says on the real kernel (each group's notes[]) ---- */

/* A verdict that depends on the C library or limits: anything but fail or error. */
#define PB_TEST_LAWFUL ((enum pb_verdict)-1)

/*
 * A check on the real kernel, word for word: the verdict must be exactly
 * the one a Linux kernel without pipe bugs earns, and the detail the one
 * its behaviour dictates, with every size, count and errno in it.  The
 * sizes are those of a 4 KiB page and a 64 KiB default pipe (16 pages);
 * on another machine the verdicts are still asserted and the details are
 * not.  '#' in a pattern stands for one or more digits (descriptor
 * numbers, a uid, an inode), a final '*' for anything (pb_test_matches):
 * on a loaded machine WR-04 may stop at its time budget, and RD-05 and
 * SIG-04 may not see the other process asleep in time; their notes then
 * say so.
 */
struct pb_test_note {
	const char *id;
	enum pb_verdict verdict;  /* or PB_TEST_LAWFUL */
	const char *anon;  /* the detail on an anonymous pipe */
	const char *fifo;  /* on a FIFO (checks that run on both); NULL: the same words */
};

/* Loop index I over twice a notes table: row W (I/2), on an anonymous pipe
 * for even I and on a FIFO for odd (checks that run on both). */
static inline void pb_test_says_what_the_kernel_did(const struct pb_test_note *w, int i)
{
	const struct pb_check *c = pb_test_find_check(w->id);
	bool both, fd0_free = i % 2;
	enum pb_kind kind;
	struct pb_run_opts o = { .sys = NULL, .timeout_s = 30 };
	struct pb_check_result r;
	const char *want, *how;

	ck_assert_msg(c != NULL, "%s is not in the catalogue", w->id);
	/* The second run of each row (a FIFO where the check takes both kinds,
	 * else the pipe again) is made with descriptor 0 free, so the check's
	 * own pipe or FIFO end may be descriptor 0: a test of a descriptor
	 * against 0 that should take 0 shows here. */
	both = c->flags & PB_CHECK_BOTH_KINDS;
	kind = fd0_free && both ? PB_KIND_FIFO : PB_KIND_ANON;
	o.kind = kind;
	how = !fd0_free ? pb_kind_names[kind] : kind == PB_KIND_FIFO ?
	      "fifo, descriptor 0 free" : "anon, descriptor 0 free";
	if (fd0_free) {
		close(0);
		ck_assert_int_lt(fcntl(0, F_GETFD), 0);
	}
	want = kind == PB_KIND_FIFO && w->fifo ? w->fifo : w->anon;
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_msg(!r.timed_out, "%s (%s): the watchdog, not the check, ended it: %s", w->id,
		      how, r.detail);
	ck_assert_msg(r.detail[0] != '\0', "%s (%s) says nothing", w->id, how);
	if (w->verdict == PB_TEST_LAWFUL) {
		ck_assert_msg(r.verdict != PB_FAIL && r.verdict != PB_ERROR, "%s (%s): %s: %s",
			      w->id, how, pb_verdict_names[r.verdict], r.detail);
		return;
	}
	ck_assert_msg(r.verdict == w->verdict, "%s (%s): %s, expected %s: %s", w->id,
		      how, pb_verdict_names[r.verdict],
		      pb_verdict_names[w->verdict], r.detail);
	if (pb_test_reference_machine())
		ck_assert_msg(pb_test_matches(want, r.detail), "%s (%s) says\n  %s\nexpected\n  %s",
			      w->id, how, r.detail, want);
}

/* ---- the verdict each check must give on this kernel (SIG, FIFO, FC) ---- */

struct pb_test_expect {
	const char *id;
	enum pb_verdict verdict, alt;  /* alt: also acceptable (environment-dependent) */
};

/* Check X->id on this kernel, on a FIFO too when it runs on both. */
static inline void pb_test_this_kernel(const struct pb_test_expect *x)
{
	const struct pb_check *c = pb_test_find_check(x->id);
	int kinds = c && (c->flags & PB_CHECK_BOTH_KINDS) ? 2 : 1;

	for (int k = 0; k < kinds; k++) {
		struct pb_check_result r = pb_test_run(x->id, NULL,
						       k ? PB_KIND_FIFO : PB_KIND_ANON, 0);

		ck_assert_msg(r.verdict == x->verdict || r.verdict == x->alt,
			      "%s (%s): verdict %s: %s", x->id, k ? "fifo" : "anon",
			      pb_verdict_names[r.verdict], r.detail);
	}
}

/* ---- broken kernels of PL, MD and LX: FAIL, on a pipe and a FIFO ---- */

/* A kernel broken the way a row's check looks for: the check FAILs (on a FIFO
 * too where `fifo_too`). */
struct pb_test_broken_pipe {
	const char *id;
	bool fifo_too;
	struct pb_sysops sys;  /* the calls broken; the rest are real */
	const char *says;      /* the detail must say this too, or NULL */
};

/* Row B (index I of its table): FAIL, saying B->says, and KEY's snapshot
 * (KEY.fifo on the FIFO) holds the detail. */
static inline void pb_test_broken_pipe_fails(const struct pb_test_broken_pipe *b, int i,
					     const char *key)
{
	struct pb_sysops s = pb_test_sysops(&b->sys);
	struct pb_check_result r = pb_test_expect_fail(b->id, &s, PB_KIND_ANON, 0);
	char fifo_key[128];

	if (b->says)
		ck_assert_ptr_nonnull(strstr(r.detail, b->says));
	pb_test_detail_is(key, i, r.detail);
	if (b->fifo_too) {
		r = pb_test_expect_fail(b->id, &s, PB_KIND_FIFO, 0);
		snprintf(fifo_key, sizeof(fifo_key), "%s.fifo", key);
		pb_test_detail_is(fifo_key, i, r.detail);
	}
}

/*
 * A pipe or FIFO call failing in a check's setup is the kernel's FAIL, never
 * the harness's ERROR (see pb_check_setup): a setup fault breaks a call the
 * check only needs to get going.
 */
struct pb_test_setup_fault {
	const char *id;
	enum pb_kind kind;
	const char *how;
	const char *says;  /* the detail must contain this */
	struct pb_sysops sys;  /* the calls broken; the rest are real */
};

static inline void pb_test_setup_fault_fails(const struct pb_test_setup_fault *f)
{
	struct pb_sysops s = pb_test_sysops(&f->sys);
	struct pb_check_result r;

	r = pb_test_run(f->id, &s, f->kind, 0);
	ck_assert_msg(r.verdict == PB_FAIL, "%s %s (%s): verdict %s, expected fail: %s", f->id,
		      f->kind == PB_KIND_FIFO ? "fifo" : "anon", f->how,
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(strstr(r.detail, f->says), "%s (%s): the detail does not say \"%s\": %s",
		      f->id, f->how, f->says, r.detail);
}

/*
 * ---- the row runners that shorten a failing row's waits ----
 * For a test file that includes fast_time.h before this header.
 */
#ifdef PB_FAST_TIME_H

#include <sys/mman.h>

#include "cleanup.h"
#include "tsprobe.h"

/*
 * Broken kernels and exact verdicts of groups A-D and SIG: a row names a
 * check and one of its test file's `enum bug`, which that file's
 * broken_ops() turns into a pb_sysops (or into the harness's resources
 * failing: fork, a thread, a buffer).
 */
struct pb_test_bug {
	const char *id;
	int bug;
};

struct pb_test_verdict {
	const char *id;
	int bug;
	enum pb_kind kind;
	enum pb_verdict verdict;
	const char *words;  /* the detail must hold them */
};

/*
 * Loop index I over twice a broken[] table: check ID, on an anonymous pipe
 * for even I and on a FIFO for odd (checks that run on both), on the kernel
 * S must say FAIL itself (not its watchdog), with the detail KEY's snapshot
 * has for I: the failure's figures are the report a user reads.
 */
static inline void pb_test_fails_on_broken_kernel(const char *id, const struct pb_sysops *s,
						  int i, const char *key)
{
	const struct pb_check *c = pb_test_find_check(id);
	enum pb_kind kind = i % 2 ? PB_KIND_FIFO : PB_KIND_ANON;
	struct pb_check_result r;

	ck_assert_msg(c != NULL, "%s is not in the catalogue", id);
	if (kind == PB_KIND_FIFO && !(c->flags & PB_CHECK_BOTH_KINDS))
		return;
	pb_fast_time_on();  /* every row FAILs: its waits run out a quarter as long */
	pb_test_run_check(c, s, kind, 10, &r);
	pb_fast_time_off();
	if (getenv("PB_TEST_VERBOSE"))  /* to read why each check failed */
		fprintf(stderr, "%s %s: %s\n", c->id, pb_kind_names[kind], r.detail);
	ck_assert_msg(r.verdict == PB_FAIL, "%s (%s) with a broken kernel: %s: %s", c->id,
		      pb_kind_names[kind], pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(!r.timed_out, "%s: the watchdog, not the check, caught it", c->id);
	pb_test_detail_is(key, i, r.detail);
}

/*
 * Row V (index I of its table) on the kernel S: the check itself (not its
 * watchdog) says V->verdict with V->words in the detail; a FAIL's or
 * ERROR's detail is KEY's snapshot for I.
 */
static inline void pb_test_verdict_is(const struct pb_test_verdict *v, const struct pb_sysops *s,
				      int i, const char *key)
{
	const struct pb_check *c = pb_test_find_check(v->id);
	struct pb_check_result r;

	ck_assert_msg(c != NULL, "%s is not in the catalogue", v->id);
	if (v->verdict == PB_FAIL)
		pb_fast_time_on();
	pb_test_run_check(c, s, v->kind, 10, &r);
	pb_fast_time_off();
	if (getenv("PB_TEST_VERBOSE"))
		fprintf(stderr, "%s %s: %s: %s\n", c->id, pb_kind_names[v->kind],
			pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(r.verdict == v->verdict && strstr(r.detail, v->words),
		      "%s (%s), case %d: expected %s with \"%s\", got %s: %s", c->id,
		      pb_kind_names[v->kind], i, pb_verdict_names[v->verdict], v->words,
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(!r.timed_out, "%s: the watchdog, not the check, decided", c->id);
	if (v->verdict == PB_FAIL || v->verdict == PB_ERROR)
		pb_test_detail_is(key, i, r.detail);
}

/* ---- broken kernels of SIG, FIFO and FC: one call misbehaving, FAIL ---- */

struct pb_test_broken {
	const char *id;
	const char *how;
	struct pb_sysops sys;  /* the calls broken; the rest are real */
	enum pb_kind kind;
	const char *says;  /* the detail must contain this */
};

/* Row B (index I of its table): FAIL, saying B->says, the check alive to
 * the end, and KEY's snapshot holds the detail. */
static inline void pb_test_broken_kernel_fails(const struct pb_test_broken *b, int i,
					       const char *key)
{
	struct pb_sysops sys = pb_test_sysops(&b->sys);
	struct pb_check_result r;

	pb_fast_time_on();  /* every row FAILs: its waits run out a quarter as long */
	r = pb_test_run(b->id, &sys, b->kind, 0);
	pb_fast_time_off();
	ck_assert_msg(r.verdict == PB_FAIL, "%s (%s): verdict %s: %s", b->id, b->how,
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(!b->says || strstr(r.detail, b->says), "%s (%s): the detail does not "
		      "say \"%s\": %s", b->id, b->how, b->says, r.detail);
	ck_assert_msg(r.signal == 0 && !r.timed_out, "%s: the check itself died: %s", b->id,
		      r.detail);
	pb_test_detail_is(key, i, r.detail);
}

/*
 * ---- later conditions: a check that tests several conditions, one broken ----
 *
 * A broken kernel that trips the first condition of a check proves little
 * about the rest.  Each row breaks one later condition only and requires
 * FAIL with the detail that names that condition; a boundary is tried at
 * its value (a row with no phrase: a lawful kernel there must not FAIL)
 * and one past it.
 */
struct pb_test_later {
	const char *id;
	struct pb_sysops sys;  /* the calls broken; the rest are real */
	const char *phrase;    /* the detail names the condition that broke; NULL: a
				* lawful value at a boundary, which must not FAIL */
};

/* Row W (index I of its table), its file's per-row state already reset: a
 * FAIL's detail is KEY's snapshot for I. */
static inline void pb_test_later_condition_fails(const struct pb_test_later *w, int i,
						 const char *key)
{
	const struct pb_check *c = pb_test_find_check(w->id);
	struct pb_sysops s = pb_test_sysops(&w->sys);
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_ANON, .timeout_s = 10 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);
	if (w->phrase)  /* a row that FAILs: its waits run out a quarter as long */
		pb_fast_time_on();
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	pb_fast_time_off();
	if (!w->phrase) {
		ck_assert_msg(r.verdict != PB_FAIL && r.verdict != PB_ERROR, "%s case %d (lawful): "
			      "%s: %s", w->id, i, pb_verdict_names[r.verdict], r.detail);
		return;
	}
	ck_assert_msg(r.verdict == PB_FAIL, "%s case %d: %s: %s", w->id, i,
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(strstr(r.detail, w->phrase) != NULL, "%s case %d: '%s' lacks '%s'",
		      w->id, i, r.detail, w->phrase);
	pb_test_detail_is(key, i, r.detail);
}

/*
 * ---- later conditions, every descriptor from open() counted ----
 *
 * As pb_test_later, with a kind and an environment per row, and a lawful
 * row (a kernel at a boundary, or one that behaves as an older kernel did)
 * must not FAIL or ERROR and its detail must say what the check saw.  Every
 * descriptor a check gets from open() it closes, on every path (a FAIL's
 * too): counted per descriptor number in memory shared with the check's
 * process (the child of this test's; a helper the check forks ends with
 * _exit, which closes what it had), around the row's own open and close.
 * The watchdog is generous (60 s): the checks' own bounded waits count
 * sleeps of 1 ms, which stretch on a loaded machine.
 */
enum pb_test_need {
	PB_NEED_ANY,       /* any environment */
	PB_NEED_ROOT,      /* root in the initial user namespace with CAP_SYS_RESOURCE:
			    * FC-05 asks as uid 65534 and then as the privileged caller */
	PB_NEED_5_14       /* Linux 5.14 or later (every write into a pipe signals) */
};

struct pb_test_counted {
	const char *id;
	enum pb_kind kind;
	struct pb_sysops sys;  /* the calls broken; the rest are real */
	bool lawful;           /* must not FAIL or ERROR; else must FAIL */
	const char *phrase;    /* the detail must hold this (end with it: "...$") */
	enum pb_test_need need;
};

/* Two descriptors a row's pipe2 may name without opening them (the runner
 * closes both first: a shell may have handed them down). */
#define PB_TEST_NOT_OPEN 250

/* Open before each row, in the test's process: a descriptor the check did
 * not make, which a wrapper may hand back or close instead of the real one. */
static int pb_test_spare = -1;

/* Shared across the check's forks (RD-07's readers): which one misbehaves. */
static int *pb_test_shared_count;

/* The reader's process ends with its read: any judged call it makes after
 * (the check's own code run by the reader) is counted in *PB_TEST_STRAY. */
static int *pb_test_stray;
static bool pb_test_reader_returned;

static int *pb_test_opened;  /* [256], shared */
static pid_t pb_test_pid;
static int (*pb_test_inner_open)(const char *path, int flags, mode_t mode);
static int (*pb_test_inner_close)(int fd);

static inline int pb_test_counted_open(const char *path, int flags, mode_t mode)
{
	int fd = pb_test_inner_open(path, flags, mode);

	if (fd >= 0 && fd < 256 && getppid() == pb_test_pid)
		__atomic_add_fetch(&pb_test_opened[fd], 1, __ATOMIC_SEQ_CST);
	return fd;
}

static inline int pb_test_counted_close(int fd)
{
	if (fd >= 0 && fd < 256 && getppid() == pb_test_pid &&
	    __atomic_load_n(&pb_test_opened[fd], __ATOMIC_SEQ_CST) > 0)
		__atomic_sub_fetch(&pb_test_opened[fd], 1, __ATOMIC_SEQ_CST);
	return pb_test_inner_close(fd);
}

/* PHRASE in DETAIL; a PHRASE ending in '$' must end it. */
static inline bool pb_test_has_phrase(const char *detail, const char *phrase)
{
	size_t d = strlen(detail), p = strlen(phrase);

	if (p == 0 || phrase[p - 1] != '$')
		return strstr(detail, phrase) != NULL;
	return d >= p - 1 && strncmp(detail + d - (p - 1), phrase, p - 1) == 0;
}

/* Row W (index I of its table), its file's per-row state already reset: a
 * FAIL's detail is KEY's snapshot for I. */
static inline void pb_test_counted_condition(const struct pb_test_counted *w, int i,
					     const char *key)
{
	const struct pb_check *c = pb_test_find_check(w->id);
	struct pb_sysops s = pb_test_sysops(&w->sys);
	struct pb_run_opts o = { .sys = &s, .kind = w->kind, .timeout_s = 60 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);  /* descriptor 0 is open: pb_test_sysops saw to it */
	close(PB_TEST_NOT_OPEN);
	close(PB_TEST_NOT_OPEN + 1);
	if ((w->need == PB_NEED_ROOT && !pb_test_root_in_init_ns()) ||
	    (w->need == PB_NEED_5_14 && !pb_test_kernel_at_least(5, 14)))
		return;
	pb_test_spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(pb_test_spare, 0);
	pb_test_opened = mmap(NULL, 256 * sizeof(*pb_test_opened), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(pb_test_opened, MAP_FAILED);
	pb_test_pid = getpid();
	pb_test_inner_open = s.open;
	pb_test_inner_close = s.close;
	s.open = pb_test_counted_open;
	s.close = pb_test_counted_close;
	pb_test_stray = mmap(NULL, sizeof(*pb_test_stray), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(pb_test_stray, MAP_FAILED);
	*pb_test_stray = 0;
	pb_test_reader_returned = false;
	pb_test_shared_count = mmap(NULL, sizeof(*pb_test_shared_count), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(pb_test_shared_count, MAP_FAILED);
	*pb_test_shared_count = 0;
	if (!w->lawful)  /* a row that FAILs: its waits run out a quarter as long */
		pb_fast_time_on();
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	pb_fast_time_off();
	if (getenv("PB_TEST_VERBOSE"))
		fprintf(stderr, "# %s case %d: %s: %s\n", w->id, i, pb_verdict_names[r.verdict],
			r.detail);
	if (w->lawful)
		ck_assert_msg(r.verdict != PB_FAIL && r.verdict != PB_ERROR, "%s case %d (lawful): "
			      "%s: %s", w->id, i, pb_verdict_names[r.verdict], r.detail);
	else
		ck_assert_msg(r.verdict == PB_FAIL, "%s case %d: %s: %s", w->id, i,
			      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(pb_test_has_phrase(r.detail, w->phrase), "%s case %d: '%s' lacks '%s'",
		      w->id, i, r.detail, w->phrase);
	if (!w->lawful)
		pb_test_detail_is(key, i, r.detail);
	ck_assert_msg(*pb_test_stray == 0, "%s case %d: the reader made %d judged calls after its "
		      "read returned", w->id, i, *pb_test_stray);
	for (int fd = 0; fd < 256; fd++)
		ck_assert_msg(pb_test_opened[fd] == 0, "%s case %d: descriptor %d from open() left "
			      "open", w->id, i, fd);
	munmap(pb_test_opened, 256 * sizeof(*pb_test_opened));
	munmap(pb_test_stray, sizeof(*pb_test_stray));
	ck_assert_msg(!r.timed_out, "%s case %d: the watchdog, not the check, decided", w->id, i);
	munmap(pb_test_shared_count, sizeof(*pb_test_shared_count));
}

/*
 * ---- one condition at a time, the Nth call faked ----
 *
 * Each row breaks one condition of a check, a step the first condition
 * never looks at, and requires the verdict the check must then give (FAIL,
 * or INFO and SKIP where a branch says so) with the detail that names that
 * step.  A row that expects PASS is a lawful kernel at a boundary: it must
 * not be judged broken, and its note must say what it saw.  Most rows need
 * no wrapper of their own: the Nth read, write or FIONREAD on a pipe or
 * FIFO (counted from 1 in the check's process) says what the row's `rd`,
 * `wr` or `io` says instead of what the kernel did.
 */

/* The Nth call of a kind on a pipe: what it says instead.  nth 0: untouched.
 * A read does the real read first, then returns RET (copying DATA, when
 * given, into the buffer) or -1/ERR; a write writes nothing and returns RET
 * or -1/ERR; a FIONREAD adds RET to what the kernel said. */
struct pb_test_fake {
	int nth;
	ssize_t ret;
	int err;
	const char *data;
};

struct pb_test_step {
	const char *id;
	enum pb_kind kind;
	struct pb_sysops sys;  /* the calls broken; the rest are real */
	enum pb_verdict v;     /* the verdict the check must give */
	const char *phrase;    /* the detail must say this */
	struct pb_test_fake rd, wr, io;
	struct pb_test_fake sz;  /* the Nth F_GETPIPE_SZ of a write end returns RET instead */
	int setsz_err;         /* F_SETPIPE_SZ fails with this instead */
	const char *base;      /* the check's directory goes here (NULL: $TMPDIR) */
	unsigned flags;        /* PB_RUN_* */
};

/* A row's verdict and the phrase its detail must carry; its Nth read,
 * write or FIONREAD. */
#define FAILS .v = PB_FAIL, .phrase =
#define PASSES .v = PB_PASS, .phrase =
#define SAYS(verdict) .v = (verdict), .phrase =
#define RD(n, ...) .rd = { (n), __VA_ARGS__ }
#define WR(n, ...) .wr = { (n), __VA_ARGS__ }
#define IO(n, delta) .io = { (n), (delta), 0, NULL }

/* The row being run: set before the check forks, so its process sees it. */
static const struct pb_test_step *pb_test_cur;

/* The calls seen so far in the check's process; `calls` is for a row's own
 * wrapper to count with. */
static struct {
	int reads, writes, ioctls, calls, sizes;
} pb_test_seen;

static inline ssize_t pb_test_nth_read(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);
	const struct pb_test_fake *f = &pb_test_cur->rd;

	if (!is_pipe_fd(fd) || ++pb_test_seen.reads != f->nth)
		return r;
	if (f->err)
		return fail_with(f->err);
	if (f->data)
		memcpy(buf, f->data, strlen(f->data) < n ? strlen(f->data) : n);
	return f->ret;
}

static inline ssize_t pb_test_nth_write(int fd, const void *buf, size_t n)
{
	const struct pb_test_fake *f = &pb_test_cur->wr;

	if (!is_pipe_fd(fd) || ++pb_test_seen.writes != f->nth)
		return write(fd, buf, n);
	return f->err ? fail_with(f->err) : f->ret;
}

static inline int pb_test_nth_ioctl(int fd, unsigned long req, void *arg)
{
	int r = ioctl(fd, req, arg);

	if (r == 0 && req == FIONREAD && is_pipe_fd(fd) && ++pb_test_seen.ioctls == pb_test_cur->io.nth)
		*(int *)arg += (int)pb_test_cur->io.ret;
	return r;
}

static inline int pb_test_nth_fcntl(int fd, int cmd, long arg)
{
	if (cmd == F_SETPIPE_SZ && pb_test_cur->setsz_err)
		return (int)fail_with(pb_test_cur->setsz_err);
	/* Counted on a pipe's write end only: a size asked of any other
	 * descriptor is the kernel's answer for that descriptor. */
	if (cmd == F_GETPIPE_SZ && is_write_end(fd) && ++pb_test_seen.sizes == pb_test_cur->sz.nth)
		return (int)pb_test_cur->sz.ret;
	return fcntl(fd, cmd, arg);
}

/* Row W's check run through the runner with its fakes (a 10 s watchdog). */
static inline struct pb_check_result pb_test_run_step(const struct pb_test_step *w)
{
	const struct pb_check *c = pb_test_find_check(w->id);
	struct pb_sysops s = pb_test_sysops(&w->sys);
	struct pb_run_opts o = { .sys = &s, .kind = w->kind, .timeout_s = 10, .flags = w->flags,
				 .base_dir = w->base };
	struct pb_check_result r;

	ck_assert_msg(c != NULL, "no check %s", w->id);
	if (w->rd.nth)
		s.read = pb_test_nth_read;
	if (w->wr.nth)
		s.write = pb_test_nth_write;
	if (w->io.nth)
		s.ioctl = pb_test_nth_ioctl;
	if (w->sz.nth || w->setsz_err)
		s.fcntl = pb_test_nth_fcntl;
	pb_test_cur = w;
	memset(&pb_test_seen, 0, sizeof(pb_test_seen));
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	if (getenv("PB_TEST_VERBOSE"))
		fprintf(stderr, "# %s: %s: %s\n", w->id, pb_verdict_names[r.verdict], r.detail);
	return r;
}

/* Row W (index I of its table): its verdict and phrase; a FAIL's detail is
 * KEY's snapshot for I (a row in a directory of its own has none: the
 * filesystem's words are no part of a snapshot).  A row whose directory is
 * not a usable tmpfs here is skipped. */
static inline void pb_test_one_condition(const struct pb_test_step *w, int i, const char *key)
{
	struct pb_check_result r;

	if (w->base && (pb_dir_usable(w->base) != 0 || !pb_ts_on_tmpfs(w->base, -1))) {
		fprintf(stderr, "# %s row %d: skipped: %s is not a usable tmpfs\n", w->id, i,
			w->base);
		return;
	}
	if (w->v == PB_FAIL)  /* its waits run out a quarter as long */
		pb_fast_time_on();
	r = pb_test_run_step(w);
	pb_fast_time_off();

	ck_assert_msg(r.verdict == w->v, "%s row %d: %s, expected %s: %s", w->id, i,
		      pb_verdict_names[r.verdict], pb_verdict_names[w->v], r.detail);
	ck_assert_msg(strstr(r.detail, w->phrase) != NULL, "%s row %d: '%s' lacks '%s'", w->id,
		      i, r.detail, w->phrase);
	if (w->v == PB_FAIL && !w->base)
		pb_test_detail_is(key, i, r.detail);
}

#endif /* PB_FAST_TIME_H */

#endif
