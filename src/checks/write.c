/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Conformance checks WR-*: see pipebench(1) CHECKS. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "checkproc.h"
#include "clock.h"
#include "conformance.h"

#define EN pb_checkproc_errname

/*
 * WR-01 (P17): XSH write(): "Write requests of {PIPE_BUF} bytes or less
 * shall not be interleaved..."; [EINTR].  (a) 96 bytes free, no free slot:
 * a blocking 200-byte write must not write 96 and must not overrun: EINTR
 * from the 300 ms timer, FIONREAD unchanged.  (b) Full: write(1) EINTR.
 */
static void wr01(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	long page = pb_check_page_size(), cap, before, after, q;
	char buf[200], rb[32];
	int fd[2];
	ssize_t r;

	memset(buf, 'w', sizeof(buf));
	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	cap = pb_check_capacity(ctx, fd[1]);
	if (cap < 0 || pb_check_fill_but_96(ctx, fd[1], cap, page) < 0)
		goto out;
	if ((q = pb_check_set_nonblock(s, fd[1], false)) != 0) {
		pb_check_setup(ctx, PB_RES_PIPE, (int)-q, "fcntl(F_SETFL) clearing O_NONBLOCK on "
			       "the write end: %s; POSIX requires 0", EN((int)-q));
		goto out;
	}
	before = pb_check_fionread(s, fd[0]);
	r = pb_check_timed_write(s, fd[1], buf, 200, 300);
	after = pb_check_fionread(s, fd[0]);
	if (r == 96 || (r > 0 && r < 200))
		pb_check_fail(ctx, "(a) 96 bytes free: blocking write(200) returned %zd: a torn "
			      "atomic write", r);
	else if (r == 200)
		pb_check_fail(ctx, "(a) 96 bytes free: blocking write(200) returned 200 "
			      "(capacity overrun; FIONREAD %ld -> %ld)", before, after);
	else if (!(r == -1 && errno == EINTR))
		pb_check_fail(ctx, "(a) blocking write(200) = %s, not -1/EINTR",
			      pb_check_res(r, errno, rb, sizeof(rb)));
	else if (after != before)
		pb_check_fail(ctx, "(a) write(200) gave EINTR but FIONREAD went %ld -> %ld",
			      before, after);
	if (ctx->verdict == PB_FAIL)
		goto out;
	pb_check_close_pair(s, fd);
	if (pb_check_full_pipe(ctx, fd, O_NONBLOCK) < 0)
		goto out;
	if ((q = pb_check_set_nonblock(s, fd[1], false)) != 0) {
		pb_check_setup(ctx, PB_RES_PIPE, (int)-q, "(b) fcntl(F_SETFL) clearing O_NONBLOCK "
			       "on the write end: %s; POSIX requires 0", EN((int)-q));
		goto out;
	}
	r = pb_check_timed_write(s, fd[1], buf, 1, 300);
	if (!(r == -1 && errno == EINTR))
		pb_check_fail(ctx, "(b) full %s: blocking write(1) = %s, not -1/EINTR",
			      pb_check_kind_word(ctx), pb_check_res(r, errno, rb, sizeof(rb)));
	else
		pb_check_note(ctx, "(a) 96 B free: write(200) blocked, EINTR, FIONREAD stayed %ld; "
			      "(b) full: write(1) blocked, EINTR", before);
out:
	pb_check_close_pair(s, fd);
}

/*
 * WR-02 (P17): XSH write(): "interrupted by a signal after it successfully
 * writes some data, it shall return the number of bytes written".  EINTR
 * with data queued is silent data loss (FAIL); EINTR before any byte was
 * copied is inconclusive (load), retried once with 1 s.
 */
static void wr02(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	unsigned timers[2] = { 300, 1000 };
	int fd[2] = { -1, -1 };
	char *buf = NULL;

	for (int attempt = 0; attempt < 2; attempt++) {
		long cap, queued;
		size_t n;
		ssize_t r;

		if (!pb_check_make_pipe(ctx, fd, 0))
			break;
		cap = pb_check_capacity(ctx, fd[1]);
		if (cap < 0)
			break;
		n = (size_t)cap + 2 * PIPE_BUF;
		free(buf);
		buf = malloc(n);
		if (!buf) {
			pb_check_setup(ctx, PB_RES_HARNESS, ENOMEM, "out of memory");
			break;
		}
		memset(buf, 'p', n);
		r = pb_check_timed_write(s, fd[1], buf, n, timers[attempt]);
		queued = pb_check_fionread(s, fd[0]);
		if (r > 0 && (size_t)r < n) {
			pb_check_note(ctx, "interrupted write of %zu returned %zd (capacity %ld)", n,
				      r, cap);
			break;
		}
		if (r == (ssize_t)n) {
			pb_check_fail(ctx, "write of %zu into a %ld-byte %s with no reader "
				      "draining returned %zd", n, cap, pb_check_kind_word(ctx), r);
			break;
		}
		if (r == -1 && errno == EINTR && queued > 0) {
			pb_check_fail(ctx, "write of %zu returned -1/EINTR after %ld bytes were "
				      "queued (data loss)", n, queued);
			break;
		}
		if (!(r == -1 && errno == EINTR)) {
			pb_check_fail(ctx, "write of %zu = %zd/%s", n, r, EN(errno));
			break;
		}
		if (attempt == 1)
			pb_check_skip(ctx, "inconclusive: interrupted twice before any byte was "
				      "copied (machine overloaded?)");
		pb_check_close_pair(s, fd);
	}
	free(buf);
	pb_check_close_pair(s, fd);
}

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 7 + i / 251);
}

/*
 * WR-03 (P17): XSH write(): "on normal completion it shall return nbyte".
 * One blocking write of 1 MiB+123, larger than the capacity, with a reader
 * child that checks every byte against the pattern.
 */
static void wr03(struct pb_check_ctx *ctx)
{
	const size_t n = (1u << 20) + 123;
	const struct pb_sysops *s = ctx->sys;
	int fd[2], status, e;
	unsigned char *buf;
	ssize_t r;
	pid_t pid;

	buf = malloc(n);
	if (!buf) {
		pb_check_setup(ctx, PB_RES_HARNESS, ENOMEM, "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++)
		buf[i] = pattern(i);
	if (!pb_check_make_pipe(ctx, fd, 0)) {
		free(buf);
		return;
	}
	pid = pb_checkproc_fork();
	if (pid < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "fork: %s", EN(errno));
		goto out;
	}
	if (pid == 0) {
		static unsigned char in[65536];
		size_t got = 0;

		s->close(fd[1]);
		for (;;) {
			ssize_t k = s->read(fd[0], in, sizeof(in));

			if (k == 0)
				break;
			if (k < 0)
				_exit(3);
			for (ssize_t j = 0; j < k; j++)
				if (in[j] != pattern(got + (size_t)j))
					_exit(2);
			got += (size_t)k;
		}
		_exit(got == n ? 0 : 1);
	}
	pb_check_close(s, &fd[0]);
	/* A reader that gave up shows as EPIPE here, and its own finding below. */
	signal(SIGPIPE, SIG_IGN);
	r = pb_check_timed_write(s, fd[1], buf, n, 3000);
	e = errno;
	pb_check_close(s, &fd[1]);
	if (pb_checkproc_wait(pid, 3000, &status) != 0) {
		pb_check_fail(ctx, "the reader did not finish");
		goto out;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		pb_check_fail(ctx, "the reader saw %s (write returned %zd)",
			      !WIFEXITED(status) ? "a signal" :
			      WEXITSTATUS(status) == 2 ? "corrupted data" :
			      WEXITSTATUS(status) == 1 ? "the wrong number of bytes" : "a read error",
			      r);
	else if (r != (ssize_t)n)
		pb_check_fail(ctx, "blocking write of %zu returned %zd%s%s", n, r,
			      r < 0 ? "/" : "", r < 0 ? EN(e) : " (short count, no signal)");
	else
		pb_check_note(ctx, "write(%zu) returned %zu; the reader got every byte in order",
			      n, n);
out:
	pb_check_close_pair(s, fd);
	free(buf);
}

/* ---- WR-04 ---- */

#define WR04_WRITERS 4
#define WR04_RECORDS 3000
#define WR04_MAGIC 0x50425743u
#define WR04_BUDGET_NS 1500000000ULL  /* per mode */

struct rec_hdr {
	uint32_t magic;
	uint16_t writer;
	uint16_t len;     /* whole record, header included */
	uint32_t seq;
};

static unsigned char rec_byte(unsigned w, uint32_t seq, size_t i)
{
	return (unsigned char)(w * 31u + seq * 7u + i);
}

/* The writer's records: sizes 16..PIPE_BUF from a fixed LCG, every 10th PIPE_BUF. */
static void wr04_writer(const struct pb_sysops *s, int wfd, unsigned w, bool nonblock)
{
	static unsigned char rec[PIPE_BUF];
	uint32_t rng = 12345u + w;

	for (uint32_t seq = 0; seq < WR04_RECORDS; seq++) {
		struct rec_hdr h = { WR04_MAGIC, (uint16_t)w, 0, seq };
		size_t len;
		ssize_t r;

		rng = rng * 1103515245u + 12345u;
		len = seq % 10 == 9 ? PIPE_BUF : 16 + (rng >> 8) % (PIPE_BUF - 15);
		h.len = (uint16_t)len;
		memcpy(rec, &h, sizeof(h));
		for (size_t i = sizeof(h); i < len; i++)
			rec[i] = rec_byte(w, seq, i);
		for (;;) {
			r = s->write(wfd, rec, len);
			if (r == (ssize_t)len)
				break;
			if (r >= 0)
				_exit(2); /* partial write of <= PIPE_BUF */
			if (nonblock && errno == EAGAIN) {
				struct pollfd p = { .fd = wfd, .events = POLLOUT };

				s->poll(&p, 1, 1000);
				continue;
			}
			_exit(3);
		}
	}
	_exit(0);
}

/*
 * Parse the stream; returns true when every record was whole and in order.
 * Past DEADLINE (ns) it stops early with *CUT set: a loaded machine checks
 * fewer records instead of running into the watchdog.
 */
static bool wr04_read(struct pb_check_ctx *ctx, int rfd, const char *mode, long *records,
		      uint64_t deadline, bool *cut)
{
	static unsigned char buf[4 * PIPE_BUF + 65536];
	uint32_t next[WR04_WRITERS] = { 0 };
	size_t have = 0;

	*records = 0;
	*cut = false;
	for (;;) {
		if (pb_clock_ns() > deadline) {
			*cut = true;
			return true;
		}
		struct pollfd p = { .fd = rfd, .events = POLLIN };
		size_t off = 0;
		ssize_t k;

		if (ctx->sys->poll(&p, 1, 3000) == 0) {
			pb_check_fail(ctx, "%s: the stream stalled after %ld records", mode, *records);
			return false;
		}
		k = ctx->sys->read(rfd, buf + have, sizeof(buf) - have);
		if (k == 0)
			break;
		if (k < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			pb_check_fail(ctx, "%s: read: %s", mode, EN(errno));
			return false;
		}
		have += (size_t)k;
		while (have - off >= sizeof(struct rec_hdr)) {
			struct rec_hdr h;

			memcpy(&h, buf + off, sizeof(h));
			if (h.magic != WR04_MAGIC || h.writer >= WR04_WRITERS || h.len < 16 ||
			    h.len > PIPE_BUF) {
				pb_check_fail(ctx, "%s: torn record after %ld whole records (bad "
					      "header)", mode, *records);
				return false;
			}
			if (have - off < h.len)
				break;
			if (h.seq != next[h.writer]) {
				pb_check_fail(ctx, "%s: writer %u: seq %u after %u", mode, h.writer,
					      h.seq, next[h.writer]);
				return false;
			}
			for (size_t i = sizeof(h); i < h.len; i++)
				if (buf[off + i] != rec_byte(h.writer, h.seq, i)) {
					pb_check_fail(ctx, "%s: torn record (payload) from writer %u "
						      "seq %u", mode, h.writer, h.seq);
					return false;
				}
			next[h.writer]++;
			(*records)++;
			off += h.len;
		}
		memmove(buf, buf + off, have - off);
		have -= off;
	}
	if (have) {
		pb_check_fail(ctx, "%s: %zu bytes of a partial record at EOF", mode, have);
		return false;
	}
	return true;
}

static bool wr04_mode(struct pb_check_ctx *ctx, bool nonblock, long *records, long *psize)
{
	const struct pb_sysops *s = ctx->sys;
	const char *mode = nonblock ? "nonblocking" : "blocking";
	long page = pb_check_page_size();
	pid_t pid[WR04_WRITERS];
	int fd[2], n = 0, bad = 0;
	bool ok, cut = false;

	if (!pb_check_make_pipe(ctx, fd, nonblock ? O_NONBLOCK : 0))
		return false;
	/* Shrink the buffer so writers sleep mid-stream; best effort. */
	*psize = s->fcntl(fd[1], F_SETPIPE_SZ, 2 * page);
	if (*psize < 0)
		*psize = s->fcntl(fd[1], F_GETPIPE_SZ, 0);
	if (nonblock)
		pb_check_set_nonblock(s, fd[0], false);
	for (; n < WR04_WRITERS; n++) {
		pid_t p = pb_checkproc_fork();

		if (p < 0)
			break;
		if (p == 0) {
			s->close(fd[0]);
			wr04_writer(s, fd[1], (unsigned)n, nonblock);
		}
		pid[n] = p;
	}
	pb_check_close(s, &fd[1]);
	ok = n == WR04_WRITERS &&
	     wr04_read(ctx, fd[0], mode, records, pb_clock_ns() + WR04_BUDGET_NS, &cut);
	pb_check_close(s, &fd[0]);
	for (int i = 0; i < n; i++) {
		int status;

		if (cut) {
			pb_checkproc_wait(pid[i], 0, &status);
			continue;
		}
		if (pb_checkproc_wait(pid[i], ok ? 2000 : 0, &status) != 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			if (ok && WIFEXITED(status) && WEXITSTATUS(status) == 2)
				pb_check_fail(ctx, "%s: writer %d: a write of <= PIPE_BUF was partial",
					      mode, i);
			bad++;
		}
	}
	if (n != WR04_WRITERS)
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "fork: %s", EN(errno));
	else if (ok && bad)
		pb_check_fail(ctx, "%s: %d writer(s) failed", mode, bad);
	else if (ok && !cut && *records != WR04_WRITERS * WR04_RECORDS)
		pb_check_fail(ctx, "%s: %ld records, expected %d", mode, *records,
			      WR04_WRITERS * WR04_RECORDS);
	return ctx->verdict == PB_PASS;
}

/*
 * WR-04 (P17): XSH write(); <limits.h> {PIPE_BUF}.  Detection test, by
 * nature probabilistic: 4 writers x 3000 records of 16..PIPE_BUF bytes
 * through a 2-page pipe; the reader parses the stream and requires whole
 * records in per-writer order, blocking and nonblocking.
 */
static void wr04(struct pb_check_ctx *ctx)
{
	long rb = 0, rn = 0, sb = 0, sn = 0;

	if (!wr04_mode(ctx, false, &rb, &sb) || !wr04_mode(ctx, true, &rn, &sn))
		return;
	pb_check_note(ctx, "%ld/%d records whole and in order blocking, %ld/%d nonblocking "
		      "(%d writers, %ld-byte %s)", rb, WR04_WRITERS * WR04_RECORDS, rn,
		      WR04_WRITERS * WR04_RECORDS, WR04_WRITERS, sb, pb_check_kind_word(ctx));
	if (rb < WR04_WRITERS * WR04_RECORDS || rn < WR04_WRITERS * WR04_RECORDS)
		pb_check_note(ctx, "stopped at the %.1f s budget per mode (loaded machine)",
			      (double)WR04_BUDGET_NS / 1e9);
}

/*
 * WR-05 (P17): XBD <limits.h> {PIPE_BUF} >= _POSIX_PIPE_BUF (512); XSH
 * fpathconf() _PC_PIPE_BUF.  A libc-level check: glibc returns the constant.
 */
static void wr05(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	char path[4200];
	long v[4];
	int fd[2];

	if (PIPE_BUF < 512) {
		pb_check_fail(ctx, "PIPE_BUF is %d, below _POSIX_PIPE_BUF (512)", PIPE_BUF);
		return;
	}
	if (!pb_check_anon_pipe(ctx, fd, O_CLOEXEC))
		return;
	snprintf(path, sizeof(path), "%s/wr05.fifo", ctx->dir);
	if (s->mkfifo(path, 0600) != 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "mkfifo in an empty writable directory = "
			       "-1/%s; POSIX requires 0", EN(errno));
		pb_check_close_pair(s, fd);
		return;
	}
	v[0] = s->fpathconf(fd[0], _PC_PIPE_BUF);
	v[1] = s->fpathconf(fd[1], _PC_PIPE_BUF);
	v[2] = s->pathconf(path, _PC_PIPE_BUF);
	v[3] = s->pathconf(ctx->dir, _PC_PIPE_BUF);
	unlink(path);
	pb_check_close_pair(s, fd);
	for (int i = 0; i < 4; i++)
		if (v[i] != PIPE_BUF) {
			pb_check_fail(ctx, "PIPE_BUF %d, but fpathconf(read end) %ld, "
				      "fpathconf(write end) %ld, pathconf(FIFO) %ld, pathconf(dir) "
				      "%ld", PIPE_BUF, v[0], v[1], v[2], v[3]);
			return;
		}
	pb_check_note(ctx, "PIPE_BUF %d everywhere (both pipe ends, FIFO, directory)", PIPE_BUF);
}

/*
 * WR-06 (LX; P17: unspecified for non-regular files): XSH write(): "If
 * nbyte is zero and the file is not a regular file, the results are
 * unspecified"; read() nbyte 0.  read(0) does not block; write(0) without a
 * reader returns 0 and raises no SIGPIPE; in O_DIRECT mode it adds no
 * (empty) packet.
 */
static void wr06(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int fd[2], status;
	char buf[100];
	ssize_t r;
	pid_t pid;

	if (!pb_check_make_pipe(ctx, fd, 0))
		return;
	r = 0;
	errno = 0;
	pb_check_arm_interrupt(2000);
	r = s->read(fd[0], buf, 0);
	pb_check_disarm();
	if (r != 0) {
		pb_check_fail(ctx, "read(fd, buf, 0) on an empty %s = %zd/%s%s", pb_check_kind_word(ctx), r,
			      EN(errno), errno == EINTR ? " (it blocked)" : "");
		goto out;
	}
	pb_check_close(s, &fd[0]);
	pid = pb_checkproc_fork();
	if (pid < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "fork: %s", EN(errno));
		goto out;
	}
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		_exit(s->write(fd[1], buf, 0) == 0 ? 0 : 1);
	}
	if (pb_checkproc_wait(pid, 2000, &status) != 0) {
		pb_check_fail(ctx, "write(fd, buf, 0) with no reader blocked");
		goto out;
	}
	if (WIFSIGNALED(status)) {
		pb_check_fail(ctx, "write(fd, buf, 0) with no reader killed the writer with SIG%s",
			      sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
		goto out;
	}
	if (WEXITSTATUS(status) != 0) {
		pb_check_fail(ctx, "write(fd, buf, 0) with no reader did not return 0");
		goto out;
	}
	pb_check_close(s, &fd[1]);
	if (ctx->kind != PB_KIND_ANON) {
		pb_check_note(ctx, "read(0) = 0 without blocking; write(0) with no reader = 0, "
			      "no SIGPIPE");
		goto out;
	}
	if (s->pipe2(fd, O_DIRECT | O_NONBLOCK | O_CLOEXEC) != 0) {
		int e = errno;

		fd[0] = fd[1] = -1;
		if (e == EINVAL)
			pb_check_note(ctx, "read(0) = 0 without blocking; write(0) with no reader = "
				      "0, no SIGPIPE; O_DIRECT not available (EINVAL: before Linux "
				      "3.4)");
		else
			pb_check_setup(ctx, PB_RES_PIPE, e, "pipe2(O_DIRECT|O_NONBLOCK|O_CLOEXEC) = "
				       "-1/%s; Linux 3.4 and later require 0 (EINVAL before)",
				       EN(e));
		goto out;
	}
	if (s->write(fd[1], buf, 0) != 0 || s->write(fd[1], "x", 1) != 1) {
		pb_check_fail(ctx, "O_DIRECT: write(0) then write(\"x\"): %s", EN(errno));
		goto out;
	}
	r = s->read(fd[0], buf, sizeof(buf));
	if (r != 1)
		pb_check_fail(ctx, "O_DIRECT: after write(0) and write(\"x\"), the first read "
			      "returned %zd%s", r, r == 0 ? " (an empty packet)" : "");
	else
		pb_check_note(ctx, "read(0) = 0 without blocking; write(0) with no reader = 0, "
			      "no SIGPIPE; O_DIRECT write(0) adds no packet");
out:
	pb_check_close_pair(s, fd);
}

const struct pb_check pb_checks_write[] = {
	{ "WR-01", "write", "P17", "Blocking write of n <= PIPE_BUF is never partial",
	  "XSH write(): \"Write requests of {PIPE_BUF} bytes or less shall not be "
	  "interleaved…\"; [EINTR]", PB_CHECK_BOTH_KINDS, wr01 },
	{ "WR-02", "write", "P17",
	  "Blocking write of n > PIPE_BUF interrupted after transferring data returns a partial "
	  "count",
	  "XSH write(): \"interrupted by a signal after it successfully writes some data, it "
	  "shall return the number of bytes written\"", PB_CHECK_BOTH_KINDS, wr02 },
	{ "WR-03", "write", "P17", "A blocking write larger than the capacity completes fully",
	  "XSH write(): \"on normal completion it shall return nbyte\"", PB_CHECK_BOTH_KINDS,
	  wr03 },
	{ "WR-04", "write", "P17", "PIPE_BUF atomicity under contention",
	  "XSH write(); <limits.h> {PIPE_BUF}", PB_CHECK_BOTH_KINDS, wr04 },
	{ "WR-05", "write", "P17", "The PIPE_BUF value",
	  "XBD <limits.h> {PIPE_BUF} ≥ _POSIX_PIPE_BUF (512); XSH fpathconf() _PC_PIPE_BUF", 0,
	  wr05 },
	{ "WR-06", "write", "LX (P17: unspecified for non-regular files)", "Zero-length I/O",
	  "XSH write(): \"If nbyte is zero and the file is not a regular file, the results are "
	  "unspecified\"; read() nbyte 0", PB_CHECK_BOTH_KINDS, wr06 },
	{ .id = NULL },
};
