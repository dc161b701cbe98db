/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the conformance unit tests (tests/check_conf_*.c) share: finding a
 * check by ID, a pb_sysops that breaks only the calls a table row names,
 * and the calls that fail outright, which every group's fail/error-rule
 * cases use (see HACKING, "Verdicts: fail versus error").
 */
#ifndef PB_CHECK_CONF_H
#define PB_CHECK_CONF_H

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checks/conformance.h"

/* The check with this ID anywhere in the catalogue, or NULL. */
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
 * depends on the process's descriptors or on a race).  Elsewhere nothing is
 * asserted.  With PB_DETAILS_RECORD=FILE the detail is appended to FILE
 * instead (tests/mkdetails.sh makes the table from such records; HACKING).
 */
static inline void pb_test_detail_is(const char *name, int i, const char *detail)
{
	const char *rec = getenv("PB_DETAILS_RECORD"), *dir = getenv("TESTS_SRCDIR");
	char path[4096], line[2048], key[128];
	bool found = false;
	FILE *f;

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

static inline const struct pb_check *pb_test_find_check(const char *id)
{
	for (size_t g = 0; pb_check_groups[g]; g++)
		for (const struct pb_check *c = pb_check_groups[g]; c->id; c++)
			if (strcmp(c->id, id) == 0)
				return c;
	return NULL;
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

#endif
