/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Conformance checks NB-*: see pipebench(1) CHECKS. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "checkproc.h"
#include "conformance.h"

#define EN pb_checkproc_errname

static char zeros[1 << 20];

/* A nonblocking write bounded by a 2 s timer (a blocking one shows as EINTR). */
static ssize_t nb_write(const struct pb_sysops *s, int fd, size_t n)
{
	return pb_check_timed_write(s, fd, zeros, n, 2000);
}

/* Write N page-sized chunks; false on any short or failed write (its result in *BAD). */
static bool write_pages_r(const struct pb_sysops *s, int fd, long pages, long page,
			  ssize_t *bad)
{
	for (long i = 0; i < pages; i++)
		if ((*bad = nb_write(s, fd, (size_t)page)) != page)
			return false;
	return true;
}

/*
 * NB-01 (P17): XSH write(): "if there is sufficient space... transfer all
 * the data... Otherwise... transfer no data and return -1 with errno set to
 * [EAGAIN]".  Empty, full, and 96 bytes free in the last page.
 */
static void nb01(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	long page = pb_check_page_size(), cap, q0, q1;
	int fd[2];
	char b[32];
	ssize_t r;

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	if ((r = nb_write(s, fd[1], PIPE_BUF)) != PIPE_BUF) {
		pb_check_fail(ctx, "empty %s: write(PIPE_BUF) = %s", pb_check_kind_word(ctx),
			      pb_check_res(r, errno, b, sizeof(b)));
		goto out;
	}
	if ((r = nb_write(s, fd[1], 1)) != 1) {
		pb_check_fail(ctx, "write(1) after PIPE_BUF bytes = %s",
			      pb_check_res(r, errno, b, sizeof(b)));
		goto out;
	}
	pb_check_close_pair(s, fd);
	if (pb_check_full_pipe(ctx, fd, O_NONBLOCK) < 0)
		goto out;
	q0 = pb_check_fionread(s, fd[0]);
	for (int i = 0; i < 2; i++) {
		size_t n = i ? PIPE_BUF : 1;

		r = nb_write(s, fd[1], n);
		q1 = pb_check_fionread(s, fd[0]);
		if (!(r == -1 && errno == EAGAIN) || q1 != q0) {
			pb_check_fail(ctx, "full %s: write(%zu) = %s, FIONREAD %ld -> %ld",
				      pb_check_kind_word(ctx), n, pb_check_res(r, errno, b, sizeof(b)),
				      q0, q1);
			goto out;
		}
	}
	pb_check_close_pair(s, fd);
	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	cap = pb_check_capacity(ctx, fd[1]);
	if (cap < 0 || pb_check_fill_but_96(ctx, fd[1], cap, page) < 0)
		goto out;
	q0 = pb_check_fionread(s, fd[0]);
	r = nb_write(s, fd[1], 200);
	q1 = pb_check_fionread(s, fd[0]);
	if (!(r == -1 && errno == EAGAIN) || q1 != q0) {
		pb_check_fail(ctx, "96 bytes free: write(200) = %s%s, FIONREAD %ld -> %ld",
			      pb_check_res(r, errno, b, sizeof(b)),
			      r > 0 && r < 200 ? " (a partial write)" : "", q0, q1);
		goto out;
	}
	if ((r = nb_write(s, fd[1], 96)) != 96) {
		pb_check_fail(ctx, "96 bytes free in the last page: write(96) = %s",
			      pb_check_res(r, errno, b, sizeof(b)));
		goto out;
	}
	pb_check_note(ctx, "empty: write(PIPE_BUF)=%d, write(1)=1; full: write(1) and "
		      "write(PIPE_BUF) EAGAIN, FIONREAD unchanged; 96 B free: write(200) EAGAIN, "
		      "write(96)=96", PIPE_BUF);
out:
	pb_check_close_pair(s, fd);
}

/*
 * NB-02 (P17): XSH write().  n > PIPE_BUF into a full pipe: -1/EAGAIN, not
 * 0 and not blocking.
 */
static void nb02(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int fd[2];
	char b[32];
	ssize_t r;

	if (pb_check_full_pipe(ctx, fd, O_NONBLOCK) < 0)
		goto out;
	r = nb_write(s, fd[1], 3 * PIPE_BUF);
	if (r == -1 && errno == EAGAIN)
		pb_check_note(ctx, "full %s: write(3*PIPE_BUF) = -1/EAGAIN", pb_check_kind_word(ctx));
	else
		pb_check_fail(ctx, "full %s: write(3*PIPE_BUF) = %s%s", pb_check_kind_word(ctx),
			      pb_check_res(r, errno, b, sizeof(b)),
			      r == -1 && errno == EINTR ? " (it blocked)" : "");
out:
	pb_check_close_pair(s, fd);
}

/*
 * NB-03 (P17): XSH write(): "When at least one byte can be written,
 * transfer what it can... When all data previously written to the pipe is
 * read, it shall transfer at least {PIPE_BUF} bytes".  POSIX bounds are
 * verdicts; Linux's exact counts are reported.
 */
static void nb03(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	long page = pb_check_page_size(), cap;
	int fd[2];
	char b[32], notes[3][96];
	ssize_t r;

	/* (2) Empty 64 KiB pipe, write(1 MiB); (3) empty 1-page pipe, write(3*PIPE_BUF). */
	for (int i = 0; i < 2; i++) {
		long want = i ? page : 65536;
		size_t n = i ? 3 * PIPE_BUF : sizeof(zeros);

		if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
			return;
		cap = s->fcntl(fd[1], F_SETPIPE_SZ, want);
		if (cap < 0) {
			snprintf(notes[i], sizeof(notes[i]), "F_SETPIPE_SZ(%ld): %s, "
				 "not tried", want, EN(errno));
			pb_check_close_pair(s, fd);
			continue;
		}
		r = nb_write(s, fd[1], n);
		if (r < PIPE_BUF) {
			pb_check_fail(ctx, "empty %ld-byte %s: write(%zu) = %s, expected at least "
				      "PIPE_BUF (%d)", cap, pb_check_kind_word(ctx), n,
				      pb_check_res(r, errno, b, sizeof(b)), PIPE_BUF);
			goto out;
		}
		if (r > cap) {
			pb_check_fail(ctx, "empty %ld-byte %s: write(%zu) = %zd, more than the "
				      "capacity F_SETPIPE_SZ gave", cap, pb_check_kind_word(ctx), n, r);
			goto out;
		}
		snprintf(notes[i], sizeof(notes[i]), "empty %ld B: write(%zu)=%zd", cap,
			 n, r);
		pb_check_close_pair(s, fd);
	}
	/* (1) Two free pages, write(5 pages). */
	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	cap = pb_check_capacity(ctx, fd[1]);
	if (cap < 0)
		goto out;
	if (cap < 3 * page) /* over pipe-user-pages-soft: try to grow it */
		cap = s->fcntl(fd[1], F_SETPIPE_SZ, 4 * page) < 0 ? cap :
		      s->fcntl(fd[1], F_GETPIPE_SZ, 0);
	if (cap < 3 * page) {
		pb_check_skip(ctx, "capacity %ld, and F_SETPIPE_SZ cannot grow it: two free pages "
			      "cannot be left (pipe-user-pages-soft reached?)", cap);
		goto out;
	}
	if (!write_pages_r(s, fd[1], cap / page - 2, page, &r)) {
		int e = r < 0 ? errno : 0;

		pb_check_setup(ctx, PB_RES_PIPE, e, "filling to two free pages: a page-sized write "
			       "into a %s with room gave %s", pb_check_kind_word(ctx),
			       pb_check_res(r, e, b, sizeof(b)));
		goto out;
	}
	r = nb_write(s, fd[1], (size_t)(5 * page));
	if (r <= 0 || r > 2 * page) {
		pb_check_fail(ctx, "two pages free: write(%ld) = %s, expected a partial write of "
			      "at most %ld", 5 * page, pb_check_res(r, errno, b, sizeof(b)),
			      2 * page);
		goto out;
	}
	snprintf(notes[2], sizeof(notes[2]), "2 pages free: write(5 pages)=%zd", r);
	pb_check_close_pair(s, fd);
	pb_check_note(ctx, "%s; %s; %s", notes[2], notes[0], notes[1]);
out:
	pb_check_close_pair(s, fd);
}

/*
 * NB-04 (P17): XSH fcntl() F_SETFL; ioctl FIONBIO (LX).  O_NONBLOCK
 * belongs to the open file description: shared by a dup(), not by the
 * other end.
 */
static void nb04(struct pb_check_ctx *ctx)
{
	static const char *const ends[3] = { "write end", "dup of the write end", "read end" };
	const struct pb_sysops *s = ctx->sys;
	int fd[2], d = -1, on = 1, f[3], e[3];

	if (!pb_check_make_pipe(ctx, fd, 0))
		return;
	d = s->dup(fd[1]);
	if (d < 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "dup of the write end = -1/%s; POSIX "
			       "requires a new descriptor", EN(errno));
		goto out;
	}
	if (s->ioctl(fd[1], FIONBIO, &on) != 0) {
		pb_check_fail(ctx, "ioctl(FIONBIO): %s", EN(errno));
		goto out;
	}
	f[0] = s->fcntl(fd[1], F_GETFL, 0);
	e[0] = errno;
	f[1] = s->fcntl(d, F_GETFL, 0);
	e[1] = errno;
	f[2] = s->fcntl(fd[0], F_GETFL, 0);
	e[2] = errno;
	for (int i = 0; i < 3; i++)
		if (f[i] < 0) {
			pb_check_fail(ctx, "after FIONBIO on the write end, F_GETFL on the %s: %s",
				      ends[i], EN(e[i]));
			goto out;
		}
	if (!(f[0] & O_NONBLOCK) || !(f[1] & O_NONBLOCK) || (f[2] & O_NONBLOCK)) {
		pb_check_fail(ctx, "after FIONBIO on the write end, O_NONBLOCK: write end %s, its "
			      "dup %s, read end %s (expected yes, yes, no)",
			      f[0] & O_NONBLOCK ? "yes" : "no", f[1] & O_NONBLOCK ? "yes" : "no",
			      f[2] & O_NONBLOCK ? "yes" : "no");
		goto out;
	}
	if (s->fcntl(d, F_SETFL, f[1] & ~O_NONBLOCK) != 0) {
		pb_check_fail(ctx, "F_SETFL on the dup: %s", EN(errno));
		goto out;
	}
	f[0] = s->fcntl(fd[1], F_GETFL, 0);
	if (f[0] < 0)
		pb_check_fail(ctx, "after F_SETFL on the dup, F_GETFL on the write end: %s",
			      EN(errno));
	else if (f[0] & O_NONBLOCK)
		pb_check_fail(ctx, "F_SETFL clearing O_NONBLOCK on the dup did not clear it on the "
			      "original");
	else
		pb_check_note(ctx, "FIONBIO on the write end: seen by its dup, not by the read end; "
			      "F_SETFL on the dup: seen by the original");
out:
	pb_check_close_pair(s, fd);
	if (d >= 0)
		s->close(d);
}

/*
 * NB-05 (LX, INFO): pipe(7) "Pipe capacity"; fs/pipe.c merge rule.  Capacity
 * is counted in slots (pages): report what the kernel accepts.  Only
 * inconsistent accounting (FIONREAD not matching what was accepted, or more
 * accepted than the capacity) is a FAIL.
 */
static void nb05(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	long page = pb_check_page_size(), cap, q, expect;
	ssize_t r1, r2, r3;
	char b1[32], b2[32], b3[32];
	int fd[2];

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	cap = pb_check_capacity(ctx, fd[1]);
	if (cap < 0)
		goto out;
	if (cap < 2 * page) {
		pb_check_skip(ctx, "capacity %ld is one page (pipe-user-pages-soft reached?): "
			      "the slot rule needs two", cap);
		goto out;
	}
	if ((r1 = nb_write(s, fd[1], 1)) != 1 ||
	    !write_pages_r(s, fd[1], cap / page - 1, page, &r1)) {
		int e = r1 < 0 ? errno : 0;

		pb_check_setup(ctx, PB_RES_PIPE, e, "a nonblocking write into a %ld-byte %s with "
			       "room = %s; POSIX requires all of it", cap, pb_check_kind_word(ctx),
			       pb_check_res(r1, e, b1, sizeof(b1)));
		goto out;
	}
	expect = 1 + (cap / page - 1) * page;
	q = pb_check_fionread(s, fd[0]);
	r1 = nb_write(s, fd[1], 1);
	if (q != expect || (r1 > 0 && pb_check_fionread(s, fd[0]) != q + r1)) {
		pb_check_fail(ctx, "after writing %ld bytes FIONREAD says %ld", expect, q);
		goto out;
	}
	pb_check_res(r1, errno, b1, sizeof(b1));
	pb_check_close_pair(s, fd);
	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	if (pb_check_fill_but_96(ctx, fd[1], cap, page) < 0)
		goto out;
	r2 = nb_write(s, fd[1], 10000);
	pb_check_res(r2, errno, b2, sizeof(b2));
	r3 = nb_write(s, fd[1], (size_t)page + 50);
	pb_check_res(r3, errno, b3, sizeof(b3));
	q = pb_check_fionread(s, fd[0]);
	expect = cap - 96 + (r2 > 0 ? r2 : 0) + (r3 > 0 ? r3 : 0);
	if (q != expect || q > cap) {
		pb_check_fail(ctx, "96 B free: write(10000) = %s, write(%ld) = %s, then FIONREAD "
			      "%ld (expected %ld, capacity %ld)", b2, page + 50, b3, q, expect, cap);
		goto out;
	}
	pb_check_info(ctx, "1 B + %ld pages: FIONREAD %ld of %ld, write(1) = %s; 96 B free in "
		      "the last page: write(10000) = %s, write(%ld) = %s", cap / page - 1,
		      1 + (cap / page - 1) * page, cap, b1, b2, page + 50, b3);
out:
	pb_check_close_pair(s, fd);
}

const struct pb_check pb_checks_nonblock[] = {
	{ "NB-01", "nonblock", "P17", "n <= PIPE_BUF is all-or-nothing",
	  "XSH write(): \"if there is sufficient space… transfer all the data… Otherwise… "
	  "transfer no data and return -1 with errno set to [EAGAIN]\"", PB_CHECK_BOTH_KINDS,
	  nb01 },
	{ "NB-02", "nonblock", "P17", "n > PIPE_BUF into a full pipe gives EAGAIN", "XSH write()",
	  PB_CHECK_BOTH_KINDS, nb02 },
	{ "NB-03", "nonblock", "P17",
	  "n > PIPE_BUF with some room is a partial write; into an empty pipe it transfers "
	  ">= PIPE_BUF",
	  "XSH write(): \"When at least one byte can be written, transfer what it can… When all "
	  "data previously written to the pipe is read, it shall transfer at least {PIPE_BUF} "
	  "bytes\"", PB_CHECK_BOTH_KINDS, nb03 },
	{ "NB-04", "nonblock", "P17", "O_NONBLOCK belongs to the open file description",
	  "XSH fcntl() F_SETFL; ioctl FIONBIO (LX)", PB_CHECK_BOTH_KINDS, nb04 },
	{ "NB-05", "nonblock", "LX, INFO", "Capacity is counted in slots (pages), not bytes",
	  "pipe(7) \"Pipe capacity\"; fs/pipe.c merge rule (only the len % PAGE_SIZE remainder "
	  "merges into the last page); LTP pipe12 comment", PB_CHECK_BOTH_KINDS, nb05 },
	{ .id = NULL },
};
