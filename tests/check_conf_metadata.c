/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The metadata checks, MD-* (src/checks/metadata.c): each one FAILs on a
 * kernel that misbehaves the way the catalogue says a broken one shows (an
 * injected pb_sysops: its main bug, then each further condition and setup
 * step on its own, the Nth call faked), gives the expected verdict on the
 * running kernel, and says exactly what the kernel did.  Also MD-04's
 * timestamp signatures (each kernel release against each behaviour,
 * emulated), and MD-05 on the filesystems a FIFO may live on (tmpfs, one
 * that hides a FIFO's times, a noatime mount).
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* These checks end within a second: a short watchdog catches a hang early. */
#define PB_TEST_WATCHDOG_S 3
#include "fast_time.h"  /* first: check_conf.h's row runners use it */
#include "check_conf.h"
#include "check_main.h"
#include "cleanup.h"
#include "checks/conformance.h"
#include "tsprobe.h"

/* ---- misbehaving kernels ---- */

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

/* MD-04/05: futimens sets one of the two times it is given (the other
 * UTIME_OMIT): 0 atime only, 1 mtime only. */
static int futimens_one(int fd, const struct timespec t[2], int which)
{
	struct timespec one[2] = { t[0], t[1] };

	one[1 - which].tv_nsec = UTIME_OMIT;
	return futimens(fd, one);
}

static int futimens_atime_only(int fd, const struct timespec t[2])
{
	return futimens_one(fd, t, 0);
}

static int futimens_mtime_only(int fd, const struct timespec t[2])
{
	return futimens_one(fd, t, 1);
}

/* MD-05: a FIFO's ctime an hour ahead: the coarse clock never passes it. */
static int fstat_ctime_ahead(int fd, struct stat *st)
{
	int ret = fstat(fd, st);

	if (ret == 0 && is_pipe_fd(fd))
		st->st_ctim.tv_sec += 3600;
	return ret;
}

/* MD-05: a one-byte write into a pipe queues the byte twice (says 1). */
static ssize_t write_byte_twice(int fd, const void *b, size_t n)
{
	ssize_t r = write(fd, b, n);

	if (r == 1 && n == 1 && is_pipe_fd(fd))
		PB_KEEP_ERRNO(write(fd, b, 1));
	return r;
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

/* ---- a kernel broken the way each row says: FAIL (pb_test_broken_pipe) ---- */

static const struct pb_test_broken_pipe broken_kernels[] = {
	{ "MD-01", true, .sys.fstat = fstat_regular },
	{ "MD-02", false, .sys.lseek = lseek_ok },
	{ "MD-02", false, .sys.fsync = fsync_ok_on_write_end, .says = "fsync returned 0" },
	{ "MD-02", false, .sys.fdatasync = fdatasync_ok_on_write_end,
	  .says = "fdatasync returned 0" },
	{ "MD-03", false, .sys.fstat = fstat_zero_times },
	{ "MD-05", false, .sys.fstat = fstat_frozen_times },
	{ "MD-06", false, .sys.readlink = readlink_wrong },
	/* An old kernel that does not update: must FAIL, never known-deviation. */
	{ "MD-04", false, .sys = { .uname = uname_old, .fstat = fstat_frozen_times } },
};
#define NBROKEN ((int)(sizeof(broken_kernels) / sizeof(broken_kernels[0])))

START_TEST(broken_kernel_fails)
{
	pb_test_broken_pipe_fails(&broken_kernels[_i], _i, "metadata.broken_kernel");
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

	ck_assert_int_eq(pb_conformance_run_one(pb_test_check(id), &o, &r), 0);
	if (getenv("PB_TEST_VERBOSE"))
		fprintf(stderr, "# %s: %s: %s\n", id, pb_verdict_names[r.verdict], r.detail);
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
	pb_test_assert_verdict(r, PB_FAIL);
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
	pb_test_assert_verdict(r, PB_KNOWN_DEVIATION);
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

/* ---- setup faults: FAIL, never the harness's ERROR (pb_test_setup_fault) ---- */

/* write_eio_on_pipes, read_eio_on_pipes, pipe2_einval, pipe2_emfile and
 * mkfifo_eio: tests/check_conf.h. */

/* fstat fails on a pipe or FIFO. */
static int fstat_eio_on_pipes(int fd, struct stat *st)
{
	if (is_pipe_fd(fd)) {
		errno = EIO;
		return -1;
	}
	return fstat(fd, st);
}

#define A PB_KIND_ANON
#define F PB_KIND_FIFO
static const struct pb_test_setup_fault setup_faults[] = {
	/* pb_check_make_pipe / pipe2 in every group. */
	{ "MD-01", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "MD-02", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "MD-03", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "MD-04", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "MD-06", A, "pipe2 EINVAL", "EINVAL", .sys.pipe2 = pipe2_einval },
	{ "MD-01", F, "mkfifo EIO", "EIO", .sys.mkfifo = mkfifo_eio },
	/* I/O a setup step needs. */
	{ "MD-01", A, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "MD-02", A, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "MD-06", A, "fstat EIO", "fstat", .sys.fstat = fstat_eio_on_pipes },
	/* MD-05's FIFO timestamp probe: the FIFO misbehaving is FAIL, not ERROR. */
	{ "MD-05", A, "write EIO", "EIO", .sys.write = write_eio_on_pipes },
	{ "MD-05", A, "read EIO", "EIO", .sys.read = read_eio_on_pipes },
	{ "MD-05", A, "futimens ignored", "futimens", .sys.futimens = futimens_ignored },
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
	static const char *const ids[] = { "MD-01", "MD-04" };
	struct pb_sysops s = pb_sysops_real;

	s.pipe2 = pipe2_emfile;
	pb_test_all_error(ids, sizeof(ids) / sizeof(ids[0]), &s, NULL);
}
END_TEST

/* ---- MD-04 signatures ---- */
/*
 * An emulated timestamp behaviour per kind (anonymous pipe, FIFO), so MD-04
 * can be shown every signature whatever the running kernel does: futimens
 * sets the fake times, write and read move the ones the mode says, fstat
 * reports them.  uname is faked separately: the verdict must not follow it.
 */
/* The times a mode's write (mtime, ctime) and read (atime) move: TS_NO_MTIME:
 * write moves ctime alone, read atime; TS_x_ONLY: that one time alone */
enum ts_mode {
	TS_FROZEN = 0, TS_MTIME_ONLY = 1, TS_CTIME_ONLY = 2, TS_ATIME_ONLY = 4,
	TS_WRITE_ONLY = 3, TS_NO_MTIME = 6, TS_NO_CTIME = 5, TS_UPDATE = 7
};
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

	if (ret > 0 && k >= 0 && (ts_mode_of[k] & TS_MTIME_ONLY))
		ts_fake[k].m = ts_now();
	if (ret > 0 && k >= 0 && (ts_mode_of[k] & TS_CTIME_ONLY))
		ts_fake[k].c = ts_now();
	return ret;
}

static ssize_t ts_read(int fd, void *b, size_t n)
{
	int k = ts_kind(fd);
	ssize_t ret = read(fd, b, n);

	if (ret > 0 && k >= 0 && (ts_mode_of[k] & TS_ATIME_ONLY))
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
	return pb_test_run("MD-04", &s, PB_KIND_ANON, 0);
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
	{ "6.1.0-37-amd64", TS_FROZEN, TS_UPDATE, PB_KNOWN_DEVIATION, "f017b0a4951f",
	  "(see MD-05)" },
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
	/* Each time alone missing, or alone moved, is partial: never a pass, and
	 * a FAIL that names it, never the "nor of a FIFO" one */
	{ "6.18.0", TS_NO_CTIME, TS_UPDATE, PB_FAIL, "mtime updated, ctime unchanged; read: "
	  "atime updated", NULL },
	{ "6.18.0", TS_MTIME_ONLY, TS_UPDATE, PB_FAIL, "partial", NULL },
	{ "6.18.0", TS_ATIME_ONLY, TS_UPDATE, PB_FAIL, "partial", NULL },
	/* Anonymous pipes frozen and a FIFO that moves any one time: the 6.15
	 * change, its FIFO's missing times noted; each alone missing, noted */
	{ "6.18.0", TS_FROZEN, TS_MTIME_ONLY, PB_KNOWN_DEVIATION, "the FIFO: write: mtime "
	  "updated, ctime unchanged; read: atime unchanged", NULL },
	{ "6.18.0", TS_FROZEN, TS_CTIME_ONLY, PB_KNOWN_DEVIATION, "the FIFO: write: mtime "
	  "unchanged, ctime updated; read: atime unchanged", NULL },
	{ "6.18.0", TS_FROZEN, TS_ATIME_ONLY, PB_KNOWN_DEVIATION, "the FIFO: write: mtime "
	  "unchanged, ctime unchanged; read: atime updated", NULL },
	{ "6.18.0", TS_FROZEN, TS_NO_CTIME, PB_KNOWN_DEVIATION, "ctime unchanged; read: atime "
	  "updated (see MD-05)", NULL },
	{ "6.18.0", TS_FROZEN, TS_WRITE_ONLY, PB_KNOWN_DEVIATION, "ctime updated; read: atime "
	  "unchanged (see MD-05)", NULL },
};
#define NMD04_SIGNATURES ((int)(sizeof(md04_signatures) / sizeof(md04_signatures[0])))

START_TEST(md04_signature)
{
	const struct md04_signature *g = &md04_signatures[_i];
	struct pb_check_result r = md04_with(g->release, g->anon, g->fifo);

	pb_test_assert_verdict(r, g->verdict);
	if (g->says)
		ck_assert_msg(strstr(r.detail, g->says), "%s: the detail does not say \"%s\": %s",
			      g->release, g->says, r.detail);
	if (g->not_says)
		ck_assert_msg(!strstr(r.detail, g->not_says), "%s: the detail says \"%s\": %s",
			      g->release, g->not_says, r.detail);
}
END_TEST

/* ---- one condition at a time, the Nth call faked (pb_test_step) ---- */

/* ---- fstat: one field of one end changed ---- */

static int fstat_edit(int fd, struct stat *st, bool (*which)(int), void (*edit)(struct stat *))
{
	int r = fstat(fd, st);

	if (r == 0 && which(fd))
		edit(st);
	return r;
}

static void set_regular(struct stat *st)
{
	st->st_mode = (st->st_mode & ~S_IFMT) | S_IFREG;
}

static void ino_plus_1(struct stat *st)
{
	st->st_ino++;
}

static void dev_plus_1(struct stat *st)
{
	st->st_dev++;
}

static void mode_0644(struct stat *st)
{
	st->st_mode = (st->st_mode & ~07777) | 0644;
}

/* one bit off 0600, the lowest of the permission bits */
static void mode_0601(struct stat *st)
{
	st->st_mode = (st->st_mode & ~07777) | 0601;
}

static void uid_plus_1(struct stat *st)
{
	st->st_uid++;
}

static void nlink_2(struct stat *st)
{
	st->st_nlink = 2;
}

static void size_5000(struct stat *st)
{
	st->st_size = 5000;
}

static void blocks_8(struct stat *st)
{
	st->st_blocks = 8;
}

#define FSTAT_EDIT(name, which, edit) \
	static int name(int fd, struct stat *st) \
	{ \
		return fstat_edit(fd, st, which, edit); \
	}
FSTAT_EDIT(fstat_w_regular, is_write_end, set_regular)
FSTAT_EDIT(fstat_r_regular, is_read_end, set_regular)
FSTAT_EDIT(fstat_w_ino, is_write_end, ino_plus_1)
FSTAT_EDIT(fstat_w_dev, is_write_end, dev_plus_1)
FSTAT_EDIT(fstat_r_mode, is_read_end, mode_0644)
FSTAT_EDIT(fstat_r_mode_0601, is_read_end, mode_0601)
FSTAT_EDIT(fstat_r_uid, is_read_end, uid_plus_1)
FSTAT_EDIT(fstat_r_nlink, is_read_end, nlink_2)
FSTAT_EDIT(fstat_r_size, is_read_end, size_5000)
FSTAT_EDIT(fstat_r_blocks, is_read_end, blocks_8)
#undef FSTAT_EDIT

static int fstat_w_eio(int fd, struct stat *st)
{
	return is_write_end(fd) ? (int)fail_with(EIO) : fstat(fd, st);
}

/* MD-03: one timestamp of a new pipe before the clock read before pipe(),
 * or after the one read after fstat; or all three at the coarse clock's
 * "now" (lawful: the kernel stamps from it); or bad on the first try only. */
static void set_ts(struct stat *st, int which, struct timespec t)
{
	if (which == 0)
		st->st_atim = t;
	else if (which == 1)
		st->st_mtim = t;
	else
		st->st_ctim = t;
}

static int fstat_ts_shifted(int fd, struct stat *st, int which, long sec, bool first_only)
{
	int r = fstat(fd, st);
	struct timespec now;

	if (r != 0 || !is_pipe_fd(fd) || (first_only && ++pb_test_seen.calls > 1))
		return r;
	clock_gettime(CLOCK_REALTIME_COARSE, &now);
	now.tv_sec += sec;
	if (which < 0)
		for (int i = 0; i < 3; i++)
			set_ts(st, i, now);
	else
		set_ts(st, which, now);
	return r;
}

/* While set (in the check's process), CLOCK_REALTIME reads this: the test
 * executable's clock_gettime comes before libc's for the statically linked
 * library (as in fake_clock.h); otherwise it is the system call. */
static bool realtime_pinned;
static struct timespec realtime_pin;

int clock_gettime(clockid_t id, struct timespec *ts)
{
	if (realtime_pinned && id == CLOCK_REALTIME) {
		*ts = realtime_pin;
		return 0;
	}
	return (int)syscall(SYS_clock_gettime, id, ts);
}

/* All three times at the coarse clock's now, and the check's CLOCK_REALTIME
 * after fstat reads exactly that: the window's end is lawful too. */
static int fstat_ts_at_clock_after(int fd, struct stat *st)
{
	int r = fstat_ts_shifted(fd, st, -1, 0, false);

	if (r == 0 && is_pipe_fd(fd)) {
		realtime_pin = st->st_mtim;
		realtime_pinned = true;
	}
	return r;
}

static int fstat_atime_early(int fd, struct stat *st)
{
	return fstat_ts_shifted(fd, st, 0, -2, false);
}

static int fstat_mtime_early(int fd, struct stat *st)
{
	return fstat_ts_shifted(fd, st, 1, -2, false);
}

static int fstat_ctime_late(int fd, struct stat *st)
{
	return fstat_ts_shifted(fd, st, 2, 60, false);
}

static int fstat_atime_late(int fd, struct stat *st)
{
	return fstat_ts_shifted(fd, st, 0, 60, false);
}

static int fstat_ts_coarse_now(int fd, struct stat *st)
{
	return fstat_ts_shifted(fd, st, -1, 0, false);
}

static int fstat_mtime_early_once(int fd, struct stat *st)
{
	return fstat_ts_shifted(fd, st, 1, -2, true);
}

/* Bad twice; a third try (the check retries once) kills the check's
 * process, which the runner would report instead of the FAIL. */
static int fstat_atime_early_twice(int fd, struct stat *st)
{
	if (is_pipe_fd(fd) && ++pb_test_seen.calls == 3)
		raise(SIGKILL);
	return fstat_ts_shifted(fd, st, 0, -2, false);
}

/* ---- MD-02: one unsupported call on one end that "works" or says another errno ---- */

static off_t lseek_w_ok(int fd, off_t off, int whence)
{
	return is_write_end(fd) ? 0 : lseek(fd, off, whence);
}

static off_t lseek_r_einval(int fd, off_t off, int whence)
{
	return is_read_end(fd) ? (off_t)fail_with(EINVAL) : lseek(fd, off, whence);
}

static ssize_t pread_zero(int fd, void *buf, size_t n, off_t off)
{
	return is_pipe_fd(fd) ? 0 : pread(fd, buf, n, off);
}

static ssize_t pread_einval(int fd, void *buf, size_t n, off_t off)
{
	return is_pipe_fd(fd) ? fail_with(EINVAL) : pread(fd, buf, n, off);
}

static ssize_t pwrite_one(int fd, const void *buf, size_t n, off_t off)
{
	return is_pipe_fd(fd) ? 1 : pwrite(fd, buf, n, off);
}

static ssize_t pwrite_ebadf(int fd, const void *buf, size_t n, off_t off)
{
	return is_pipe_fd(fd) ? fail_with(EBADF) : pwrite(fd, buf, n, off);
}

static int fadvise_zero(int fd, off_t off, off_t len, int advice)
{
	return is_pipe_fd(fd) ? 0 : posix_fadvise(fd, off, len, advice);
}

static int fadvise_einval(int fd, off_t off, off_t len, int advice)
{
	return is_pipe_fd(fd) ? EINVAL : posix_fadvise(fd, off, len, advice);
}

/* posix_fadvise's contract is the error number returned; one that also
 * returns -1 (the syscall convention) is wrong even if errno says ESPIPE. */
static int fadvise_minus_1(int fd, off_t off, off_t len, int advice)
{
	return is_pipe_fd(fd) ? (int)fail_with(ESPIPE) : posix_fadvise(fd, off, len, advice);
}

static int fsync_eio(int fd)
{
	return is_pipe_fd(fd) ? (int)fail_with(EIO) : fsync(fd);
}

static int fdatasync_erofs(int fd)
{
	return is_pipe_fd(fd) ? (int)fail_with(EROFS) : fdatasync(fd);
}

static int ftruncate_ok(int fd, off_t len)
{
	return is_pipe_fd(fd) ? 0 : ftruncate(fd, len);
}

static int ftruncate_eperm(int fd, off_t len)
{
	return is_pipe_fd(fd) ? (int)fail_with(EPERM) : ftruncate(fd, len);
}

static bool mapped_ok;
static void *mmap_ok(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (!is_pipe_fd(fd))
		return mmap(addr, len, prot, flags, fd, off);
	mapped_ok = true;
	return mmap(addr, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static void *mmap_eacces(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (!is_pipe_fd(fd))
		return mmap(addr, len, prot, flags, fd, off);
	errno = EACCES;
	return MAP_FAILED;
}

/* MD-02 on a kernel whose pipes act as a regular file holding the 3 bytes
 * queued, each end opened as the pipe's is (O_RDONLY, O_WRONLY): each call
 * "works" only with the arguments the check passes (offset 0 from where it
 * is, one byte, a page at offset 0) and on the end it asks, and a wrong
 * argument or end shows in the detail. */
static off_t lseek_file(int fd, off_t off, int whence)
{
	if (!is_pipe_fd(fd))
		return lseek(fd, off, whence);
	return whence == SEEK_CUR && off >= 0 ? off : fail_with(EINVAL);
}

static off_t lseek_w_file(int fd, off_t off, int whence)
{
	return is_write_end(fd) ? lseek_file(fd, off, whence) : lseek(fd, off, whence);
}

static ssize_t pread_file(int fd, void *buf, size_t n, off_t off)
{
	if (!is_pipe_fd(fd))
		return pread(fd, buf, n, off);
	if (is_write_end(fd))
		return fail_with(EBADF);
	if (off < 0)
		return fail_with(EINVAL);
	n = off >= 3 ? 0 : n < (size_t)(3 - off) ? n : (size_t)(3 - off);
	memcpy(buf, "abc" + off, n);
	return (ssize_t)n;
}

static ssize_t pwrite_file(int fd, const void *buf, size_t n, off_t off)
{
	if (!is_pipe_fd(fd))
		return pwrite(fd, buf, n, off);
	if (is_read_end(fd))
		return fail_with(EBADF);
	return off < 0 ? fail_with(EINVAL) : (ssize_t)(n + (size_t)off);
}

/* (posix_fadvise takes either end of a file: the read end alone is one) */
static int fadvise_file(int fd, off_t off, off_t len, int advice)
{
	if (!is_read_end(fd))
		return posix_fadvise(fd, off, len, advice);
	return off < 0 || len < 0 ? EINVAL : off + len;
}

static int ftruncate_file(int fd, off_t len)
{
	if (!is_pipe_fd(fd))
		return ftruncate(fd, len);
	if (is_read_end(fd))  /* POSIX: EBADF or EINVAL, not open for writing */
		return (int)fail_with(EBADF);
	return len < 0 ? (int)fail_with(EINVAL) : (int)len;
}

static void *mmap_file(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (!is_pipe_fd(fd))
		return mmap(addr, len, prot, flags, fd, off);
	if (is_write_end(fd)) {
		errno = EACCES;
		return MAP_FAILED;
	}
	if (off != 0 || len != (size_t)sysconf(_SC_PAGESIZE) || prot != PROT_READ) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	return mmap(addr, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/* munmap counted in memory shared with the check (md02_mmap_unmapped):
 * [0] calls of the address and length mmap_ok gave, [1] any other */
static int *unmapped;
static void *mapped_at;

static void *mmap_ok_recorded(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = mmap_ok(addr, len, prot, flags, fd, off);

	if (is_pipe_fd(fd))
		mapped_at = p;
	return p;
}

static int munmap_counted(void *addr, size_t len)
{
	unmapped[addr == mapped_at && len == (size_t)sysconf(_SC_PAGESIZE) ? 0 : 1]++;
	return munmap(addr, len);
}

/* ---- MD-06: /proc/self/fd ---- */

static ssize_t readlink_second_fails(const char *path, char *buf, size_t n)
{
	return ++pb_test_seen.calls == 2 ? fail_with(ENOENT) : readlink(path, buf, n);
}

static ssize_t readlink_second_wrong(const char *path, char *buf, size_t n)
{
	if (++pb_test_seen.calls != 2)
		return readlink(path, buf, n);
	snprintf(buf, n, "pipe:[1]");
	return (ssize_t)strlen(buf);
}

static int open_proc_fd_eacces(const char *path, int flags, mode_t mode)
{
	return strncmp(path, "/proc/self/fd/", 14) == 0 ? (int)fail_with(EACCES)
							 : open(path, flags, mode);
}

/* ---- MD-04: anonymous pipes frozen (the 6.15 signature on any kernel) ---- */

static const struct timespec past = { 946684800, 0 };
static const struct timespec ctime_then = { 1000000000, 1 };

static int fstat_times(int fd, struct stat *st, bool freeze_fifo_mtime, bool anon_ctime_now)
{
	int r = fstat(fd, st);
	struct timespec now;

	if (r != 0 || !is_pipe_fd(fd))
		return r;
	if (is_anon(fd)) {
		clock_gettime(CLOCK_REALTIME_COARSE, &now);
		st->st_atim = st->st_mtim = past;
		st->st_ctim = anon_ctime_now ? now : ctime_then;
	} else if (freeze_fifo_mtime) {
		st->st_mtim = past;
	}
	return r;
}

static int fstat_anon_frozen(int fd, struct stat *st)
{
	return fstat_times(fd, st, false, false);
}

static int fstat_anon_frozen_fifo_no_mtime(int fd, struct stat *st)
{
	return fstat_times(fd, st, true, false);
}

static int fstat_anon_ctime_only(int fd, struct stat *st)
{
	return fstat_times(fd, st, false, true);
}

static int open_fifo_eio_any(const char *path, int flags, mode_t mode)
{
	size_t l = strlen(path);

	return l > 5 && strcmp(path + l - 5, ".fifo") == 0 ? (int)fail_with(EIO)
							    : open(path, flags, mode);
}

static const struct pb_test_step steps[] = {
	/* MD-04 with anonymous pipes frozen: the FIFO probe, its setup, its note */
	{ "MD-04", A, { .fstat = fstat_anon_frozen }, .v = PB_KNOWN_DEVIATION,
	  .phrase = "while a FIFO's still change: the Linux 6.15 change", .base = "/dev/shm" },
	{ "MD-04", A, { .fstat = fstat_anon_frozen_fifo_no_mtime }, .v = PB_KNOWN_DEVIATION,
	  .phrase = "the FIFO: write: mtime unchanged, ctime updated; read: atime updated "
	  "(see MD-05)",
	  .base = "/dev/shm" },
	{ "MD-04", A, { .fstat = fstat_anon_frozen, .mkfifo = mkfifo_eio }, .v = PB_FAIL,
	  .phrase = "mkfifo(0600) in an empty private directory on a FIFO: EIO" },
	{ "MD-04", A, { .fstat = fstat_anon_frozen, .open = open_fifo_eio_any }, .v = PB_FAIL,
	  .phrase = "open(O_NONBLOCK) of both ends on a FIFO: EIO" },
	{ "MD-04", A, { .fstat = fstat_anon_ctime_only }, .v = PB_FAIL,
	  .phrase = "partial update: write: mtime unchanged, ctime updated; read: atime "
	  "unchanged" },
	/* MD-01: fstat of each end on its own; the implementation-defined
	 * values, each alone, are INFO on an anonymous pipe, nothing on a FIFO */
	{ "MD-01", A, {}, PASSES "nlink 1, st_size 0 with 5000 bytes queued" },
	{ "MD-01", A, { .fstat = fstat_w_eio }, FAILS "fstat: Input/output error" },
	{ "MD-01", A, { .fstat = fstat_w_regular }, FAILS
	  "file type 010000 (read end) and 0100000 (write end), expected S_IFIFO" },
	{ "MD-01", A, { .fstat = fstat_r_regular }, FAILS
	  "file type 0100000 (read end) and 010000 (write end), expected S_IFIFO" },
	{ "MD-01", A, { .fstat = fstat_w_ino }, FAILS "the ends are different files" },
	{ "MD-01", A, { .fstat = fstat_w_dev }, FAILS "the ends are different files" },
	{ "MD-01", F, { .fstat = fstat_w_ino }, FAILS "the ends are different files" },
	{ "MD-01", A, { .fstat = fstat_r_mode }, SAYS(PB_INFO) "unusual for Linux:; mode 0644," },
	{ "MD-01", A, { .fstat = fstat_r_uid },
	  SAYS(PB_INFO) "unusual for Linux:; mode 0600, uid " },
	{ "MD-01", A, { .fstat = fstat_r_nlink }, SAYS(PB_INFO) ", nlink 2, st_size 0" },
	{ "MD-01", A, { .fstat = fstat_r_size }, SAYS(PB_INFO) "st_size 5000 with 5000 bytes" },
	{ "MD-01", A, { .fstat = fstat_r_blocks }, SAYS(PB_INFO) "st_blocks 8" },
	{ "MD-01", F, { .fstat = fstat_r_uid }, PASSES ", nlink 1, st_size 0 with 5000" },
	/* MD-02: each call, each end, each of expect_err's two branches */
	{ "MD-02", A, {}, PASSES "fsync, fdatasync, ftruncate: EINVAL; mmap: ENODEV" },
	{ "MD-02", A, { .lseek = lseek_w_ok }, FAILS
	  "lseek(write end) returned 0, expected -1/ESPIPE" },
	{ "MD-02", A, { .lseek = lseek_r_einval }, FAILS
	  "lseek(read end): EINVAL, expected ESPIPE" },
	{ "MD-02", A, { .pread = pread_zero }, FAILS "pread returned 0, expected -1/ESPIPE" },
	{ "MD-02", A, { .pread = pread_einval }, FAILS "pread: EINVAL, expected ESPIPE" },
	{ "MD-02", A, { .pwrite = pwrite_one }, FAILS "pwrite returned 1, expected -1/ESPIPE" },
	{ "MD-02", A, { .pwrite = pwrite_ebadf }, FAILS "pwrite: EBADF, expected ESPIPE" },
	{ "MD-02", A, { .posix_fadvise = fadvise_zero }, FAILS
	  "posix_fadvise returned 0 (success), expected ESPIPE" },
	{ "MD-02", A, { .posix_fadvise = fadvise_einval }, FAILS
	  "posix_fadvise returned 22 (EINVAL), expected ESPIPE" },
	{ "MD-02", A, { .posix_fadvise = fadvise_minus_1 }, FAILS
	  "posix_fadvise returned -1 (" },
	{ "MD-02", A, { .fsync = fsync_eio }, FAILS "fsync: EIO, expected EINVAL" },
	{ "MD-02", A, { .fdatasync = fdatasync_erofs }, FAILS "fdatasync: EROFS, expected EINVAL" },
	{ "MD-02", A, { .ftruncate = ftruncate_ok }, FAILS
	  "ftruncate returned 0, expected -1/EINVAL" },
	{ "MD-02", A, { .ftruncate = ftruncate_eperm }, FAILS "ftruncate: EPERM, expected EINVAL" },
	{ "MD-02", A, { .mmap = mmap_ok },
	  FAILS "mmap of the read end succeeded, expected ENODEV" },
	{ "MD-02", A, { .mmap = mmap_eacces }, FAILS "mmap: EACCES, expected ENODEV" },
	/* ... and with the arguments the check gives each call */
	{ "MD-02", A, { .lseek = lseek_file }, FAILS
	  "lseek(read end) returned 0, expected -1/ESPIPE" },
	{ "MD-02", A, { .lseek = lseek_w_file }, FAILS
	  "lseek(write end) returned 0, expected -1/ESPIPE" },
	{ "MD-02", A, { .pread = pread_file }, FAILS "pread returned 1, expected -1/ESPIPE" },
	{ "MD-02", A, { .pwrite = pwrite_file }, FAILS "pwrite returned 1, expected -1/ESPIPE" },
	{ "MD-02", A, { .posix_fadvise = fadvise_file }, FAILS
	  "posix_fadvise returned 0 (success), expected ESPIPE" },
	{ "MD-02", A, { .ftruncate = ftruncate_file }, FAILS
	  "ftruncate returned 0, expected -1/EINVAL" },
	{ "MD-02", A, { .mmap = mmap_file },
	  FAILS "mmap of the read end succeeded, expected ENODEV" },
	{ "MD-02", A, {}, FAILS "after the failed calls the first byte is not 'a'",
	  RD(1, 1, 0, "b") },
	{ "MD-02", A, {}, FAILS "after the failed calls the first byte is not 'a'",
	  RD(1, -1, EIO) },
	{ "MD-02", A, {}, FAILS "setup: write(3) into the empty end on a pipe returned 2",
	  WR(1, 2) },
	/* MD-03: each timestamp, before and after the window; the coarse clock's
	 * own "now" at the window's start is lawful; a bad first try is retried */
	{ "MD-03", A, {}, PASSES "coarse clock before" },
	{ "MD-03", A, { .fstat = fstat_ts_coarse_now }, PASSES "<= a/m/ctime" },
	{ "MD-03", A, { .fstat = fstat_atime_early }, FAILS "st_atim " },
	{ "MD-03", A, { .fstat = fstat_mtime_early }, FAILS "st_mtim " },
	{ "MD-03", A, { .fstat = fstat_ctime_late }, FAILS "st_ctim " },
	{ "MD-03", A, { .fstat = fstat_atime_late }, FAILS "is outside [" },
	{ "MD-03", A, { .fstat = fstat_mtime_early_once }, PASSES "coarse clock before" },
	{ "MD-03", A, { .fstat = fstat_eio_on_pipes }, FAILS "fstat: Input/output error" },
	/* MD-06: the second link, the reopen, and every read and write after it:
	 * reads 1 (writer closed, reopened one open), 2 "hi", 3 EOF */
	{ "MD-06", A, {}, PASSES "; reopened writer: EAGAIN, data, then EOF" },
	{ "MD-06", A, { .readlink = readlink_second_fails }, FAILS
	  ": No such file or directory" },
	{ "MD-06", A, { .readlink = readlink_second_wrong }, FAILS "is 'pipe:[1]', expected" },
	{ "MD-06", A, { .open = open_proc_fd_eacces }, FAILS "O_WRONLY: Permission denied" },
	{ "MD-06", A, {}, FAILS "read gave 0 (EOF), expected EAGAIN", RD(1, 0) },
	{ "MD-06", A, {}, FAILS "read gave data, expected EAGAIN", RD(1, 2, 0, "hi") },
	{ "MD-06", A, {}, FAILS "read gave Input/output error, expected EAGAIN", RD(1, -1, EIO) },
	{ "MD-06", A, {}, FAILS "write through the reopened fd", WR(1, 1) },
	{ "MD-06", A, {}, FAILS "read gave 1, expected \"hi\"", RD(2, 1) },
	{ "MD-06", A, {}, FAILS "read gave 2, expected \"hi\"", RD(2, 2, 0, "ho") },
	{ "MD-06", A, {}, FAILS "reopened writer: read gave 1 (data), expected 0", RD(3, 1) },
	{ "MD-06", A, {}, FAILS "reopened writer: read gave -1 (Resource temporarily "
	  "unavailable)", RD(3, -1, EAGAIN) },
	{ "MD-03", A, { .fstat = fstat_atime_early_twice }, FAILS "st_atim " },
	/* ---- later rows: appended, the snapshot's loop indexes stay ---- */
	/* MD-01: the lowest permission bit alone is unusual too */
	{ "MD-01", A, { .fstat = fstat_r_mode_0601 }, SAYS(PB_INFO) "unusual for Linux:; mode 0601," },
	/* MD-03 judges the read end's times: the write end's fstat failing is no matter */
	{ "MD-03", A, { .fstat = fstat_w_eio }, PASSES "coarse clock before" },
	{ "MD-03", A, { .fstat = fstat_ts_at_clock_after }, PASSES "<= a/m/ctime" },
	/* MD-05's probe: futimens not taking, either time alone; a ctime the
	 * clock never passes; a byte queued twice (the probe reads one) */
	{ "MD-05", A, { .futimens = futimens_ignored }, FAILS
	  "setup: futimens on a FIFO did not set atime and mtime" },
	{ "MD-05", A, { .futimens = futimens_atime_only }, FAILS
	  "setup: futimens on a FIFO did not set atime and mtime" },
	{ "MD-05", A, { .futimens = futimens_mtime_only }, FAILS
	  "setup: futimens on a FIFO did not set atime and mtime" },
	{ "MD-05", A, { .fstat = fstat_ctime_ahead }, FAILS
	  "setup: the ctime futimens left on a FIFO was not reached by CLOCK_REALTIME_COARSE" },
	{ "MD-05", A, { .write = write_byte_twice }, PASSES
	  "write updated mtime and ctime, read updated atime", .base = "/dev/shm" },
};
#undef A
#undef F
#define NSTEPS (sizeof(steps) / sizeof(steps[0]))

START_TEST(one_condition)
{
	mapped_ok = false;
	pb_test_one_condition(&steps[_i], _i, "metadata.one_condition");
}
END_TEST

/*
 * MD-05 where /dev/shm is a tmpfs: a FIFO there shows every update (pass,
 * and descriptor 0 is as good as any: stdin closed first); a filesystem
 * that hides a FIFO write's mtime/ctime, compared with it, is a known
 * deviation, never a "may be" failure.
 */
static int fstat_hides_off_tmpfs(int fd, struct stat *st)
{
	int ret = fstat(fd, st);

	if (ret == 0 && is_pipe_fd(fd) && !pb_ts_on_tmpfs(NULL, fd)) {
		st->st_mtim = (struct timespec){ 946684800, 0 };
		st->st_ctim = (struct timespec){ 1000000000, 1 };
	}
	return ret;
}

START_TEST(md05_with_tmpfs)
{
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 10, .base_dir = "/dev/shm" };
	struct pb_sysops s = pb_sysops_real;
	struct pb_check_result r;
	struct statvfs vfs;
	const char *other = NULL, *cand[] = { "/var/tmp", "/tmp", "." };

	if (pb_dir_usable("/dev/shm") != 0 || !pb_ts_on_tmpfs("/dev/shm", -1) ||
	    statvfs("/dev/shm", &vfs) != 0 || (vfs.f_flag & ST_NOATIME)) {
		fprintf(stderr, "# md05_with_tmpfs: skipped: no usable tmpfs at /dev/shm\n");
		return;
	}
	close(0);
	ck_assert_int_eq(pb_conformance_run_one(pb_test_find_check("MD-05"), &o, &r), 0);
	ck_assert_msg(r.verdict == PB_PASS, "MD-05 on /dev/shm: %s: %s",
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(strstr(r.detail, "write updated mtime and ctime, read updated atime (tmpfs)"),
		      "%s", r.detail);
	for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]) && !other; i++)
		if (pb_dir_usable(cand[i]) == 0 && !pb_ts_on_tmpfs(cand[i], -1))
			other = cand[i];
	if (!other)
		return;
	s.fstat = fstat_hides_off_tmpfs;
	o.sys = &s;
	o.base_dir = other;
	ck_assert_int_eq(pb_conformance_run_one(pb_test_find_check("MD-05"), &o, &r), 0);
	ck_assert_msg(r.verdict == PB_KNOWN_DEVIATION, "MD-05 in %s: %s: %s", other,
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_ptr_nonnull(strstr(r.detail, "so the pipe code conforms and the filesystem "
				     "hides it"));
}
END_TEST

/*
 * MD-03 when fstat fails: FAIL naming it, and both ends of the pipe it made
 * closed (through the judged close; the ends as pipe2 returned them).
 */
static int *md03_fds;   /* shared: [0..1] the pipe's ends, [2..3] closed (1 each) */

static int pipe2_recorded(int fd[2], int flags)
{
	int r = pipe2(fd, flags);

	if (r == 0)
		md03_fds[0] = fd[0], md03_fds[1] = fd[1];
	return r;
}

static int close_recorded(int fd)
{
	for (int i = 0; i < 2; i++)
		if (fd == md03_fds[i])
			md03_fds[2 + i]++;
	return close(fd);
}

static int fstat_eio(int fd, struct stat *st)
{
	(void)fd, (void)st;
	return (int)fail_with(EIO);
}

START_TEST(md03_fstat_fails_closes_both)
{
	struct pb_sysops s = pb_sysops_real;
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_ANON, .timeout_s = 10 };
	struct pb_check_result r;

	md03_fds = mmap(NULL, 4 * sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			-1, 0);
	ck_assert_ptr_ne(md03_fds, MAP_FAILED);
	md03_fds[0] = md03_fds[1] = -1;
	md03_fds[2] = md03_fds[3] = 0;
	s.pipe2 = pipe2_recorded;
	s.close = close_recorded;
	s.fstat = fstat_eio;
	ck_assert_int_eq(pb_conformance_run_one(pb_test_find_check("MD-03"), &o, &r), 0);
	ck_assert_msg(r.verdict == PB_FAIL && strstr(r.detail, "fstat: Input/output error"),
		      "%s: %s", pb_verdict_names[r.verdict], r.detail);
	ck_assert_int_ge(md03_fds[0], 0);
	ck_assert_msg(md03_fds[2] == 1 && md03_fds[3] == 1, "read end closed %d times, write end "
		      "%d times", md03_fds[2], md03_fds[3]);
	munmap(md03_fds, 4 * sizeof(int));
}
END_TEST

/* MD-02 when mmap of a pipe "succeeds": FAIL, and the page it mapped is
 * unmapped, once, whole. */
START_TEST(md02_mmap_unmapped)
{
	struct pb_sysops s = pb_sysops_real;
	struct pb_check_result r;

	unmapped = mmap(NULL, 2 * sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			-1, 0);
	ck_assert_ptr_ne(unmapped, MAP_FAILED);
	s.mmap = mmap_ok_recorded;
	s.munmap = munmap_counted;
	r = pb_test_run("MD-02", &s, PB_KIND_ANON, 0);
	pb_test_assert_verdict(r, PB_FAIL);
	ck_assert_msg(unmapped[0] == 1 && unmapped[1] == 0, "the mapped page unmapped %d times, "
		      "other munmap calls %d", unmapped[0], unmapped[1]);
	munmap(unmapped, 2 * sizeof(int));
}
END_TEST

/*
 * MD-05 in a directory on a noatime mount: a read's atime cannot be judged
 * there, so the check skips with write's mtime and ctime seen, never fails
 * on the atime the mount keeps (a tmpfs mounted noatime in a mount
 * namespace of this test's own).
 */
START_TEST(md05_on_noatime)
{
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 10 };
	struct pb_check_result r;
	char dir[] = "/tmp/pb-md05-noatime.XXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* Needs CAP_SYS_ADMIN; the mount is gone with this process. */
	if (!pb_test_own_tmpfs(dir, MS_NOATIME)) {
		fprintf(stderr, "# md05_on_noatime: not run (%s)\n", strerror(errno));
		rmdir(dir);
		return;
	}
	o.base_dir = dir;
	close(0);
	ck_assert_int_eq(pb_conformance_run_one(pb_test_find_check("MD-05"), &o, &r), 0);
	umount2(dir, MNT_DETACH);
	rmdir(dir);
	ck_assert_msg(r.verdict == PB_SKIP, "MD-05 on a noatime tmpfs: %s: %s",
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(strstr(r.detail, "atime not testable") && strstr(r.detail, "noatime mount"),
		      "%s", r.detail);
}
END_TEST

/* ---- this kernel ---- */

START_TEST(md_here)
{
	struct pb_check_result r;

	pb_test_expect_here("MD-01", PB_PASS);
	pb_test_expect_here("MD-02", PB_PASS);
	pb_test_expect_here("MD-03", PB_PASS);
	pb_test_expect_here("MD-06", PB_PASS);
	/* Environment: atime needs a mount without noatime; TMPDIR's filesystem
	 * may hide FIFO updates (overlayfs): then known-deviation naming it, or,
	 * with no tmpfs to compare with, a fail that says it may be the
	 * filesystem's.  Never a plain fail. */
	r = pb_test_run("MD-05", NULL, PB_KIND_ANON, 0);
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
	struct pb_check_result r = pb_test_run("MD-04", NULL, PB_KIND_ANON, 0);

	if (pb_test_kernel_at_least(6, 15)) {
		/* Expected unless the distribution reverted f017b0a4951f (then pass). */
		pb_test_assert_verdict(r, PB_KNOWN_DEVIATION);
		ck_assert_ptr_nonnull(strstr(r.detail, "f017b0a4951f"));
		ck_assert_ptr_nonnull(strstr(r.detail, "6.15"));
	} else if (r.verdict == PB_KNOWN_DEVIATION) {
		/* An older release carrying the change: the detail says so. */
		ck_assert_ptr_nonnull(strstr(r.detail, "backported?"));
	} else {
		pb_test_assert_verdict(r, PB_PASS);
	}
}
END_TEST

/* ---- on the real kernel, word for word (pb_test_note) ---- */

/* MD-03..05's notes depend on the filesystem and the kernel version: their
 * own tests. */
static const struct pb_test_note notes[] = {
	{ "MD-01", PB_PASS, "mode 0600, uid #, nlink 1, st_size 0 with 5000 bytes queued, "
	  "st_blksize 4096, st_blocks 0", NULL },
	{ "MD-02", PB_PASS, "lseek x2, pread, pwrite: ESPIPE; posix_fadvise returns ESPIPE; fsync, "
	  "fdatasync, ftruncate: EINVAL; mmap: ENODEV", NULL },
	{ "MD-06", PB_PASS, "link 'pipe:[#]'; reopened writer: EAGAIN, data, then EOF", NULL },
};
#define NNOTES (int)(sizeof(notes) / sizeof(notes[0]))

/* Loop index i: row i/2, anon for even i and fifo for odd. */
START_TEST(says_what_the_kernel_did)
{
	pb_test_says_what_the_kernel_did(&notes[_i / 2], _i);
}
END_TEST

PB_CHECK_SUITE_MAIN("conf_metadata",
	PB_TCASE_LOOP("broken", 10, broken_kernel_fails, NBROKEN, md05_broken_not_tmpfs,
		      md05_filesystem_hides),
	PB_TCASE_LOOP("setup_faults", 10, setup_fault_fails, NSETUP_FAULTS,
		      resource_limit_is_error),
	PB_TCASE_LOOP("md04_signatures", 20, md04_signature, NMD04_SIGNATURES),
	PB_TCASE_LOOP("one_condition", 30, one_condition, NSTEPS),
	PB_TCASE_LOOP("real_kernel", 120, says_what_the_kernel_did, 2 * NNOTES),
	PB_TCASE_TIMED("here", 10, md_here, md04_here),
	PB_TCASE_TIMED("md05_md03", 60, md05_with_tmpfs, md05_on_noatime,
		       md03_fstat_fails_closes_both, md02_mmap_unmapped))
