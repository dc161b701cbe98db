/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Conformance checks MD-*: see pipebench(1) CHECKS. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "checkproc.h"
#include "conformance.h"
#include "tsprobe.h"

/* MD-01: XSH fstat(); XBD <sys/stat.h> (st_size "unspecified" for pipes) */
static void md01(struct pb_check_ctx *ctx)
{
	static const char data[5000];
	struct stat r, w;
	int fd[2];

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	if (!pb_check_io_exact(ctx, ctx->sys->write(fd[1], data, sizeof(data)), sizeof(data),
		      "write(5000) into the empty end"))
		goto out;
	if (ctx->sys->fstat(fd[0], &r) != 0 || ctx->sys->fstat(fd[1], &w) != 0) {
		pb_check_fail(ctx, "fstat: %s", strerror(errno));
		goto out;
	}
	if (!S_ISFIFO(r.st_mode) || !S_ISFIFO(w.st_mode))
		pb_check_fail(ctx, "file type 0%o (read end) and 0%o (write end), expected "
			      "S_IFIFO (0%o)", (unsigned)(r.st_mode & S_IFMT),
			      (unsigned)(w.st_mode & S_IFMT), (unsigned)S_IFIFO);
	if (r.st_dev != w.st_dev || r.st_ino != w.st_ino)
		pb_check_fail(ctx, "the ends are different files: dev/ino %ju/%ju and %ju/%ju",
			      (uintmax_t)r.st_dev, (uintmax_t)r.st_ino, (uintmax_t)w.st_dev,
			      (uintmax_t)w.st_ino);
	if (ctx->verdict != PB_PASS)
		goto out;
	/* Implementation-defined values: for the record; INFO when they are not
	 * the usual Linux ones for an anonymous pipe. */
	if (ctx->kind == PB_KIND_ANON &&
	    ((r.st_mode & 07777) != 0600 || r.st_uid != geteuid() || r.st_nlink != 1 ||
	     r.st_size != 0 || r.st_blocks != 0))
		pb_check_info(ctx, "S_IFIFO, same inode; unusual for Linux:");
	pb_check_note(ctx, "mode 0%o, uid %u, nlink %ju, st_size %jd with %zu bytes queued, "
		      "st_blksize %ld, st_blocks %jd", (unsigned)(r.st_mode & 07777),
		      (unsigned)r.st_uid, (uintmax_t)r.st_nlink, (intmax_t)r.st_size,
		      sizeof(data), (long)r.st_blksize, (intmax_t)r.st_blocks);
out:
	pb_check_close_pair(ctx->sys, fd);
}

/* Expect -1/ERR from a call that returned RET (errno already set). */
static void expect_err(struct pb_check_ctx *ctx, const char *what, long ret, int err)
{
	int e = errno;

	if (ret != -1)
		pb_check_fail(ctx, "%s returned %ld, expected -1/%s", what, ret,
			      pb_checkproc_errname(err));
	else if (e != err)
		pb_check_fail(ctx, "%s: %s, expected %s", what, pb_checkproc_errname(e),
			      pb_checkproc_errname(err));
}

/*
 * MD-02: XSH lseek/pread/pwrite [ESPIPE]; posix_fadvise [ESPIPE]; fsync/fdatasync
 * [EINVAL]; mmap [ENODEV]; ftruncate (unspecified for pipes, so Linux EINVAL)
 */
static void md02(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	long page = pb_check_page_size();
	char c;
	void *map;
	int fd[2], ret;

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	if (!pb_check_io_exact(ctx, s->write(fd[1], "abc", 3), 3, "write(3) into the empty end"))
		goto out;
	expect_err(ctx, "lseek(read end)", (long)s->lseek(fd[0], 0, SEEK_CUR), ESPIPE);
	expect_err(ctx, "lseek(write end)", (long)s->lseek(fd[1], 0, SEEK_CUR), ESPIPE);
	expect_err(ctx, "pread", (long)s->pread(fd[0], &c, 1, 0), ESPIPE);
	expect_err(ctx, "pwrite", (long)s->pwrite(fd[1], "x", 1, 0), ESPIPE);
	ret = s->posix_fadvise(fd[0], 0, 0, POSIX_FADV_NORMAL);
	if (ret != ESPIPE)
		pb_check_fail(ctx, "posix_fadvise returned %d (%s), expected ESPIPE", ret,
			      pb_check_err_name(-ret, ret));
	expect_err(ctx, "fsync", s->fsync(fd[1]), EINVAL);
	expect_err(ctx, "fdatasync", s->fdatasync(fd[1]), EINVAL);
	expect_err(ctx, "ftruncate", s->ftruncate(fd[1], 0), EINVAL);
	map = s->mmap(NULL, (size_t)page, PROT_READ, MAP_PRIVATE, fd[0], 0);
	if (map != MAP_FAILED) {
		pb_check_fail(ctx, "mmap of the read end succeeded, expected ENODEV");
		s->munmap(map, (size_t)page);
	} else {
		expect_err(ctx, "mmap", -1, ENODEV);
	}
	/* The data must not have moved: the failed calls have no side effects. */
	if (s->read(fd[0], &c, 1) != 1 || c != 'a')
		pb_check_fail(ctx, "after the failed calls the first byte is not 'a'");
	if (ctx->verdict == PB_PASS)
		pb_check_note(ctx, "lseek x2, pread, pwrite: ESPIPE; posix_fadvise returns ESPIPE; "
			      "fsync, fdatasync, ftruncate: EINVAL; mmap: ENODEV");
out:
	pb_check_close_pair(ctx->sys, fd);
}

/*
 * MD-03: XSH pipe(): "shall mark for update the last data access, last data
 * modification, and last file status change timestamps"
 */
static void md03(struct pb_check_ctx *ctx)
{
	static const char *const name[] = { "st_atim", "st_mtim", "st_ctim" };

	/* A wall-clock step between the readings can give a false FAIL: retry once. */
	for (int attempt = 0; attempt < 2; attempt++) {
		struct timespec before, after;
		const struct timespec *t[3];
		struct stat st;
		int fd[2], bad = -1;

		clock_gettime(CLOCK_REALTIME_COARSE, &before);
		if (!pb_check_anon_pipe(ctx, fd, O_CLOEXEC))
			return;
		if (ctx->sys->fstat(fd[0], &st) != 0) {
			pb_check_fail(ctx, "fstat: %s", strerror(errno));
			ctx->sys->close(fd[0]), ctx->sys->close(fd[1]);
			return;
		}
		clock_gettime(CLOCK_REALTIME, &after);
		ctx->sys->close(fd[0]);
		ctx->sys->close(fd[1]);
		t[0] = &st.st_atim, t[1] = &st.st_mtim, t[2] = &st.st_ctim;
		for (int i = 0; i < 3 && bad < 0; i++)
			if (pb_ts_cmp(t[i], &before) < 0 || pb_ts_cmp(t[i], &after) > 0)
				bad = i;
		if (bad < 0) {
			pb_check_set(ctx, PB_PASS, "coarse clock before %lld.%09ld <= a/m/ctime "
				     "%lld.%09ld <= clock after %lld.%09ld",
				     (long long)before.tv_sec, before.tv_nsec,
				     (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
				     (long long)after.tv_sec, after.tv_nsec);
			return;
		}
		if (attempt == 1)
			pb_check_fail(ctx, "%s %lld.%09ld is outside [%lld.%09ld, %lld.%09ld] "
				      "(CLOCK_REALTIME_COARSE before, CLOCK_REALTIME after; twice)",
				      name[bad], (long long)t[bad]->tv_sec, t[bad]->tv_nsec,
				      (long long)before.tv_sec, before.tv_nsec,
				      (long long)after.tv_sec, after.tv_nsec);
	}
}

/* What one write and one read did to the timestamps. */
struct ts_probe {
	bool mtime, ctime, atime;
};

static const struct timespec past_ts = { 946684800, 0 };  /* 2000-01-01 00:00:00 UTC */

/*
 * Set a/mtime to the past, record ctime, and wait (bounded, no fixed sleep)
 * until the coarse clock the kernel stamps with has passed that ctime, so a
 * later update is visible as a larger ctime.  Returns 0 or -errno.
 */
static int ts_reset(struct pb_check_ctx *ctx, int fd, struct timespec *ctime)
{
	const struct timespec ts[2] = { past_ts, past_ts };
	struct stat st;

	if (ctx->sys->futimens(fd, ts) != 0 || ctx->sys->fstat(fd, &st) != 0)
		return -errno;
	if (pb_ts_cmp(&st.st_mtim, &past_ts) != 0 ||
	    pb_ts_cmp(&st.st_atim, &past_ts) != 0)
		return -EPROTO;  /* futimens did not take */
	*ctime = st.st_ctim;
	return pb_check_wait_clock_past(ctime, 1, 3000) ? 0 : -ETIMEDOUT;
}

/* Probe the timestamp effect of a 1-byte write then a 1-byte read. */
static int ts_probe_io(struct pb_check_ctx *ctx, int rfd, int wfd, struct ts_probe *p)
{
	struct timespec c0;
	struct stat st;
	char c;
	int ret;

	memset(p, 0, sizeof(*p));
	ret = ts_reset(ctx, wfd, &c0);
	if (ret)
		return ret;
	if (ctx->sys->write(wfd, "x", 1) != 1 || ctx->sys->fstat(wfd, &st) != 0)
		return -errno;
	p->mtime = pb_ts_cmp(&st.st_mtim, &past_ts) != 0;
	p->ctime = pb_ts_cmp(&st.st_ctim, &c0) > 0;
	ret = ts_reset(ctx, rfd, &c0);
	if (ret)
		return ret;
	if (ctx->sys->read(rfd, &c, 1) != 1 || ctx->sys->fstat(rfd, &st) != 0)
		return -errno;
	p->atime = pb_ts_cmp(&st.st_atim, &past_ts) != 0;
	return 0;
}

static const char *yes_no(bool b)
{
	return b ? "updated" : "unchanged";
}

#define PROBE_CALLS "the timestamp probe (futimens, fstat, 1-byte write and read)"

/* A timestamp probe of WHAT (a "pipe" or a "FIFO") could not run. */
static void probe_failed(struct pb_check_ctx *ctx, const char *what, const char *call, int ret)
{
	if (ret == -EPROTO)
		pb_check_fail(ctx, "setup: futimens on a %s did not set atime and mtime (fstat "
			      "shows other values); POSIX requires them set", what);
	else if (ret == -ETIMEDOUT)
		pb_check_fail(ctx, "setup: the ctime futimens left on a %s was not reached by "
			      "CLOCK_REALTIME_COARSE within 3 s; Linux stamps ctime from that clock",
			      what);
	else
		pb_check_setup(ctx, PB_RES_PIPE, -ret, "%s on a %s: %s", call, what,
			       pb_checkproc_errname(-ret));
}

/* The probe of MD-04 on a FIFO in ctx->dir; 0 or -errno with *CALL set. */
static int fifo_probe(struct pb_check_ctx *ctx, struct ts_probe *p, const char **call)
{
	const struct pb_sysops *s = ctx->sys;
	char path[4200];
	int rfd = -1, wfd = -1, ret;

	snprintf(path, sizeof(path), "%s/md04.fifo", ctx->dir);
	*call = "mkfifo(0600) in an empty private directory";
	if (s->mkfifo(path, 0600) != 0)
		return -errno;
	*call = "open(O_NONBLOCK) of both ends";
	rfd = s->open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
	wfd = rfd < 0 ? -1 : s->open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC, 0);
	if (wfd < 0) {
		ret = -errno;
	} else {
		*call = PROBE_CALLS;
		ret = ts_probe_io(ctx, rfd, wfd, p);
	}
	pb_check_close(s, &rfd);
	pb_check_close(s, &wfd);
	unlink(path);
	return ret;
}

/*
 * MD-04: XSH write(): "where nbyte is greater than 0, write() shall mark for update the
 * last data modification and last file status change timestamps"; XSH read() (atime);
 * XBD 4.9 (marked times are updated before fstat)
 *
 * Judged by the behaviour's signature, never by the version number:
 *   - an anonymous pipe's write updates mtime and ctime and its read atime:
 *     pass (POSIX);
 *   - none of the three moves while a FIFO's still do: the Linux 6.15 change
 *     "pipe: don't update {a,c,m}time for anonymous pipes" (f017b0a4951f),
 *     known-deviation, "backported?" when uname says an older release;
 *   - anything partial, or FIFOs frozen too: fail, that is not the change.
 */
static void md04(struct pb_check_ctx *ctx)
{
	const char *call = PROBE_CALLS;
	struct ts_probe a, f;
	char rel[65];
	int fd[2] = { -1, -1 }, ret, recent;

	if (!pb_check_anon_pipe(ctx, fd, O_NONBLOCK | O_CLOEXEC))
		return;
	ret = ts_probe_io(ctx, fd[0], fd[1], &a);
	pb_check_close_pair(ctx->sys, fd);
	if (ret) {
		probe_failed(ctx, "pipe", call, ret);
		return;
	}
	recent = pb_check_kernel_at_least(ctx, 6, 15, rel, sizeof(rel));  /* context only */
	if (a.mtime && a.ctime && a.atime) {
		pb_check_note(ctx, "write updated mtime and ctime, read updated atime (kernel %s)",
			      rel);
		if (recent > 0)
			pb_check_note(ctx, "6.15 and later normally leave anonymous pipes alone "
				      "(f017b0a4951f): a distribution revert?");
		return;
	}
	if (a.mtime || a.ctime || a.atime) {
		pb_check_fail(ctx, "partial update: write: mtime %s, ctime %s; read: atime %s; "
			      "POSIX requires all three, and the Linux 6.15 change (f017b0a4951f) "
			      "updates none (kernel %s)", yes_no(a.mtime), yes_no(a.ctime),
			      yes_no(a.atime), rel);
		return;
	}
	ret = fifo_probe(ctx, &f, &call);
	if (ret) {
		probe_failed(ctx, "FIFO", call, ret);
		return;
	}
	if (!f.mtime && !f.ctime && !f.atime) {
		pb_check_fail(ctx, "write and read update no timestamp of an anonymous pipe, nor "
			      "of a FIFO: POSIX requires mtime, ctime and atime, and the Linux 6.15 "
			      "change (f017b0a4951f) stops them for anonymous pipes only "
			      "(kernel %s)", rel);
		return;
	}
	pb_check_set(ctx, PB_KNOWN_DEVIATION, "mtime, ctime and atime all unchanged by write and "
		     "read while a FIFO's still change: the Linux 6.15 change \"pipe: don't "
		     "update {a,c,m}time for anonymous pipes\" (commit f017b0a4951f); kernel %s%s",
		     rel, recent == 0 ? ", older than 6.15: backported?" : "");
	if (!f.mtime || !f.ctime || !f.atime)
		pb_check_note(ctx, "the FIFO: write: mtime %s, ctime %s; read: atime %s (see MD-05)",
			      yes_no(f.mtime), yes_no(f.ctime), yes_no(f.atime));
}

/* One FIFO in a directory, through ctx->sys: what a write and a read did to its times. */
struct md05_obs {
	int ret;                 /* 0, or -errno of the step WHAT */
	const char *what;
	struct ts_probe p;
	bool noatime;            /* the directory is on a noatime mount */
	char fstype[64];
};

/* MD-05's probe of a FIFO in DIR (removed afterwards). */
static void md05_observe(struct pb_check_ctx *ctx, const char *dir, struct md05_obs *o)
{
	const struct pb_sysops *s = ctx->sys;
	struct pb_ts_mount m;
	struct statvfs vfs;
	char path[4200];
	int rfd = -1, wfd = -1;

	memset(o, 0, sizeof(*o));
	snprintf(o->fstype, sizeof(o->fstype), "%s",
		 pb_ts_mount_describe(dir, -1, &m) == 0 ? m.fstype : "unknown");
	o->noatime = statvfs(dir, &vfs) == 0 && (vfs.f_flag & ST_NOATIME);
	snprintf(path, sizeof(path), "%s/md05.fifo", dir);
	o->what = "mkfifo";
	if (s->mkfifo(path, 0600) != 0) {
		o->ret = -errno;
		return;
	}
	o->what = "open of the FIFO's read end";
	rfd = s->open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
	if (rfd >= 0) {
		o->what = "open of the FIFO's write end";
		wfd = s->open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC, 0);
	}
	if (rfd < 0 || wfd < 0)
		o->ret = -errno;
	else
		o->what = "timestamp probe";
	if (!o->ret)
		o->ret = ts_probe_io(ctx, rfd, wfd, &o->p);
	pb_check_close(s, &rfd);
	pb_check_close(s, &wfd);
	unlink(path);
}

/* The bits of the POSIX-required updates O saw, and those it could judge. */
static unsigned md05_bits(const struct md05_obs *o, unsigned *judged)
{
	*judged = PB_TS_BIT_WRITE_MTIME | PB_TS_BIT_WRITE_CTIME |
		  (o->noatime ? 0 : PB_TS_BIT_READ_ATIME);
	return (o->p.mtime ? PB_TS_BIT_WRITE_MTIME : 0) | (o->p.ctime ? PB_TS_BIT_WRITE_CTIME : 0) |
	       (o->p.atime ? PB_TS_BIT_READ_ATIME : 0);
}

struct md05_ref {
	struct pb_check_ctx *ctx;
	int done;
	struct md05_obs o;
};

static void md05_ref_probe(const char *dir, void *arg)
{
	struct md05_ref *r = arg;

	md05_observe(r->ctx, dir, &r->o);
	r->done = 1;
}

/*
 * MD-05: same as MD-04; the 6.15 change explicitly keeps FIFOs
 * (fifo_pipe_read/fifo_pipe_write still call file_accessed/file_update_time).
 * A FIFO's times are shown through its directory's filesystem: when an update
 * is missing there, the same probe on tmpfs (/dev/shm or a private mount,
 * see pb_ts_with_tmpfs) tells the pipe code from the filesystem (overlayfs
 * hides a FIFO write's mtime/ctime).
 */
static void md05(struct pb_check_ctx *ctx)
{
	struct md05_obs d;
	struct md05_ref *ref;
	enum pb_ts_ref_method m = PB_TS_REF_NONE;
	char why[256] = "", quirk[256], fs[64];
	unsigned upd, judged, rupd, rjudged;

	md05_observe(ctx, ctx->dir, &d);
	if (d.ret && strcmp(d.what, "timestamp probe") != 0) {
		pb_check_setup(ctx, PB_RES_PIPE, -d.ret, "%s: %s", d.what, strerror(-d.ret));
		return;
	}
	if (d.ret) {
		probe_failed(ctx, "FIFO", PROBE_CALLS, d.ret);
		return;
	}
	upd = md05_bits(&d, &judged);
	if ((upd & judged) == judged) {
		if (d.noatime)
			pb_check_skip(ctx, "write updated mtime and ctime; atime not testable: %s "
				      "is on a noatime mount", ctx->dir);
		else
			pb_check_note(ctx, "write updated mtime and ctime, read updated atime "
				      "(%s)", d.fstype);
		return;
	}
	/* Something is missing: the pipe code's doing, or the filesystem's? */
	snprintf(fs, sizeof(fs), "%s", pb_ts_fs_name(d.fstype));
	if (strcmp(d.fstype, "tmpfs") == 0) {
		pb_check_fail(ctx, "FIFO write: mtime %s, ctime %s; read: atime %s (all must be "
			      "updated), on tmpfs: the pipe code's own behaviour", yes_no(d.p.mtime),
			      yes_no(d.p.ctime), d.noatime ? "not testable" : yes_no(d.p.atime));
		return;
	}
	ref = pb_check_shared(ctx, sizeof(*ref));  /* ERROR recorded when NULL */
	if (!ref)
		return;
	ref->ctx = ctx;
	m = pb_ts_with_tmpfs(ctx->dir, md05_ref_probe, ref, 2000, why, sizeof(why));
	if (m != PB_TS_REF_NONE && (!ref->done || ref->o.ret)) {
		snprintf(why, sizeof(why), "a FIFO on tmpfs: %s: %s", ref->o.what ?
			 ref->o.what : "probe", ref->done ? strerror(-ref->o.ret) :
			 "did not finish");
		m = PB_TS_REF_NONE;
	}
	if (m == PB_TS_REF_NONE) {
		pb_check_fail(ctx, "FIFO write: mtime %s, ctime %s; read: atime %s (all must be "
			      "updated), in %s on %s; no FIFO on tmpfs to compare with (%.200s): "
			      "the result may be %s's rather than the pipe code's",
			      yes_no(d.p.mtime), yes_no(d.p.ctime),
			      d.noatime ? "not testable" : yes_no(d.p.atime), ctx->dir, fs, why, fs);
		goto out;
	}
	rupd = md05_bits(&ref->o, &rjudged);
	if ((rupd & rjudged) != rjudged) {
		pb_check_fail(ctx, "FIFO write: mtime %s, ctime %s; read: atime %s, on %s and on "
			      "tmpfs (%s) alike: the pipe code does not update them (all must be)",
			      yes_no(ref->o.p.mtime), yes_no(ref->o.p.ctime),
			      ref->o.noatime ? "not testable" : yes_no(ref->o.p.atime), fs,
			      pb_ts_ref_method_names[m]);
		goto out;
	}
	if (!pb_ts_fs_quirk(d.fstype, upd, rupd, judged & rjudged, quirk, sizeof(quirk)))
		snprintf(quirk, sizeof(quirk), "%s hides FIFO timestamp updates", fs);
	pb_check_set(ctx, PB_KNOWN_DEVIATION, "%s: in %s, FIFO write: mtime %s, ctime %s; read: "
		     "atime %s; a FIFO on tmpfs (%s) shows every update, so the pipe code "
		     "conforms and the filesystem hides it", quirk, ctx->dir, yes_no(d.p.mtime),
		     yes_no(d.p.ctime), d.noatime ? "not testable" : yes_no(d.p.atime),
		     pb_ts_ref_method_names[m]);
out:
	munmap(ref, sizeof(*ref));
}

/* MD-06: proc(5) /proc/pid/fd */
static void md06(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	char link[64], want[64], path[64], buf[16];
	struct stat st;
	int fd[2] = { -1, -1 }, wfd2 = -1;
	ssize_t n;

	if (stat("/proc/self/fd", &st) != 0 || !S_ISDIR(st.st_mode)) {
		pb_check_skip(ctx, "/proc is not mounted");
		return;
	}
	if (!pb_check_anon_pipe(ctx, fd, O_NONBLOCK | O_CLOEXEC))
		return;
	if (s->fstat(fd[0], &st) != 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "fstat of a pipe's read end: %s; POSIX "
			       "requires its status", pb_checkproc_errname(errno));
		goto out;
	}
	snprintf(want, sizeof(want), "pipe:[%ju]", (uintmax_t)st.st_ino);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd[i]);
		n = s->readlink(path, link, sizeof(link) - 1);
		if (n < 0) {
			pb_check_fail(ctx, "readlink %s: %s", path, strerror(errno));
			goto out;
		}
		link[n] = '\0';
		if (strcmp(link, want) != 0) {
			pb_check_fail(ctx, "readlink %s is '%s', expected '%s'", path, link, want);
			goto out;
		}
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd[0]);
	wfd2 = s->open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC, 0);
	if (wfd2 < 0) {
		pb_check_fail(ctx, "reopening %s O_WRONLY: %s", path, strerror(errno));
		goto out;
	}
	pb_check_close(ctx->sys, &fd[1]);
	n = s->read(fd[0], buf, sizeof(buf));
	if (!(n < 0 && errno == EAGAIN)) {
		pb_check_fail(ctx, "original writer closed, reopened writer open: read gave %s, "
			      "expected EAGAIN", n == 0 ? "0 (EOF)" : n < 0 ? strerror(errno)
			      : "data");
		goto out;
	}
	if (s->write(wfd2, "hi", 2) != 2) {
		pb_check_fail(ctx, "write through the reopened fd: %s", strerror(errno));
		goto out;
	}
	n = s->read(fd[0], buf, sizeof(buf));
	if (n != 2 || memcmp(buf, "hi", 2) != 0) {
		pb_check_fail(ctx, "data written through the reopened fd: read gave %zd, "
			      "expected \"hi\"", n);
		goto out;
	}
	pb_check_close(ctx->sys, &wfd2);
	n = s->read(fd[0], buf, sizeof(buf));
	if (n != 0) {
		pb_check_fail(ctx, "after closing the reopened writer: read gave %zd (%s), "
			      "expected 0 (EOF)", n, n < 0 ? strerror(errno) : "data");
		goto out;
	}
	pb_check_note(ctx, "link '%s'; reopened writer: EAGAIN, data, then EOF", want);
out:
	pb_check_close(ctx->sys, &wfd2);
	pb_check_close_pair(ctx->sys, fd);
}

const struct pb_check pb_checks_metadata[] = {
	{ "MD-01", "metadata", "P17 + LX INFO", "fstat on both ends",
	  "XSH fstat(); XBD <sys/stat.h> (st_size \"unspecified\" for pipes)",
	  PB_CHECK_BOTH_KINDS, md01 },
	{ "MD-02", "metadata", "P17 (+LX for unspecified cases)",
	  "Unsupported operations fail with the right errno",
	  "XSH lseek/pread/pwrite [ESPIPE]; posix_fadvise [ESPIPE]; fsync/fdatasync [EINVAL]; "
	  "mmap [ENODEV]; ftruncate (unspecified for pipes, so Linux EINVAL)",
	  PB_CHECK_BOTH_KINDS, md02 },
	{ "MD-03", "metadata", "P17", "pipe() sets all three timestamps",
	  "XSH pipe(): \"shall mark for update the last data access, last data modification, "
	  "and last file status change timestamps\"", 0, md03 },
	{ "MD-04", "metadata", "P17 vs LX >= 6.15", "Anonymous pipe I/O updates timestamps",
	  "XSH write(): \"where nbyte is greater than 0, write() shall mark for update the last "
	  "data modification and last file status change timestamps\"; XSH read() (atime); "
	  "XBD 4.9 (marked times are updated before fstat)", 0, md04 },
	{ "MD-05", "metadata", "P17",
	  "FIFO I/O still updates timestamps (on every Linux version)",
	  "same as MD-04; the 6.15 change explicitly keeps FIFOs (fifo_pipe_read/fifo_pipe_write "
	  "still call file_accessed/file_update_time)", 0, md05 },
	{ "MD-06", "metadata", "LX", "/proc identity of a pipe", "proc(5) /proc/pid/fd",
	  0, md06 },
	{ .id = NULL },
};
