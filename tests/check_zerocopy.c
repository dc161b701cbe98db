/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The zero-copy modes' counts (src/zerocopy.c) against a recomputation
 * from the parameters, and each of pb_zc_run's count and data checks made
 * to fire on its own by a "kernel" that misbehaves once.
 *
 * The kernel here is this file: it defines vmsplice, splice, tee, read and
 * write, which the statically linked library calls instead of libc's (the
 * executable's definitions come first).  They pass through to the system
 * calls, except while a row's fault is armed: then the AT-th call of the
 * row's kind (counted only inside pb_zc_run) misbehaves, once.
 */
#undef _FORTIFY_SOURCE /* this file defines read() and write() itself */
#include <config.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "check_main.h"
#include "checks/conformance.h"
#include "engine.h"
#include "zerocopy.h"
#include "fake_clock.h"

/* Rows name only the fields they judge. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

enum call { C_VMSPLICE, C_SPLICE_IN, C_SPLICE_OUT, C_TEE, C_WRITE, C_READ, C_READ_COPY,
	    C_COUNT };
enum how {
	H_NONE,
	H_SHORT,   /* moves one byte less than asked, says it moved them all */
	H_UNDER,   /* moves what it says plus one byte: returns one less */
	H_ZERO,    /* moves nothing, returns 0 */
	H_ZERO_AGAIN, /* ... and leaves errno EAGAIN from before (not an error) */
	H_ERR,     /* fails with ENOSYS */
	H_AGAIN,   /* fails with EAGAIN */
	H_CORRUPT, /* delivers the bytes with the first one flipped (0x40) */
};

static bool armed;
static enum call f_call;
static enum how f_how;
static unsigned f_at, calls[C_COUNT];
static ino_t copy_ino; /* tee's second pipe, whose reads are C_READ_COPY */

/* What the AT-th call of kind C (counted while armed) must do. */
static enum how fault(enum call c)
{
	if (!armed)
		return H_NONE;
	return calls[c]++ == f_at && c == f_call ? f_how : H_NONE;
}

static ino_t ino(int fd)
{
	struct stat st;
	int e = errno;
	ino_t r = fstat(fd, &st) == 0 ? st.st_ino : 0;

	errno = e;
	return r;
}

/* The result of a call that misbehaves as H says (not H_CORRUPT). */
static ssize_t result(enum how h, ssize_t n)
{
	if (h == H_ZERO_AGAIN)
		errno = EAGAIN;
	if (h == H_ZERO || h == H_ZERO_AGAIN)
		return 0;
	if (h == H_ERR || h == H_AGAIN) {
		errno = h == H_ERR ? ENOSYS : EAGAIN;
		return -1;
	}
	if (h == H_SHORT && n >= 0)
		return n + 1;
	if (h == H_UNDER && n > 0)
		return n - 1;
	return n;
}

/* The length to ask the real call for. */
static size_t asked(enum how h, size_t len)
{
	return h == H_SHORT && len > 1 ? len - 1 : len;
}

ssize_t vmsplice(int fd, const struct iovec *iov, size_t nr, unsigned int flags)
{
	enum how h = fault(C_VMSPLICE);
	struct iovec v = iov[0];

	if (h == H_ZERO || h == H_ERR || h == H_AGAIN)
		return result(h, 0);
	v.iov_len = asked(h, v.iov_len);
	return result(h, syscall(SYS_vmsplice, fd, &v, nr, flags));
}

ssize_t splice(int in, loff_t *off_in, int out, loff_t *off_out, size_t len, unsigned int flags)
{
	enum how h = fault(off_in ? C_SPLICE_IN : C_SPLICE_OUT);
	loff_t at = off_out ? *off_out : 0;
	ssize_t n;

	if (h == H_ZERO || h == H_ERR || h == H_AGAIN)
		return result(h, 0);
	n = syscall(SYS_splice, in, off_in, out, off_out, asked(h, len), flags);
	if (h == H_CORRUPT && n > 0 && off_out) {
		unsigned char b;

		ck_assert_int_eq(pread(out, &b, 1, at), 1);
		b ^= 0x40;
		ck_assert_int_eq(pwrite(out, &b, 1, at), 1);
	}
	return result(h, n);
}

ssize_t tee(int in, int out, size_t len, unsigned int flags)
{
	enum how h = fault(C_TEE);

	copy_ino = ino(out);
	if (h == H_ZERO || h == H_ERR || h == H_AGAIN)
		return result(h, 0);
	return result(h, syscall(SYS_tee, in, out, asked(h, len), flags));
}

ssize_t write(int fd, const void *buf, size_t len)
{
	enum how h = armed ? fault(C_WRITE) : H_NONE;

	if (h == H_ZERO || h == H_ZERO_AGAIN || h == H_ERR || h == H_AGAIN)
		return result(h, 0);
	return result(h, syscall(SYS_write, fd, buf, asked(h, len)));
}

ssize_t read(int fd, void *buf, size_t len)
{
	enum how h = armed ? fault(copy_ino && ino(fd) == copy_ino ? C_READ_COPY : C_READ) :
		     H_NONE;
	ssize_t n;

	if (h == H_ZERO || h == H_ERR || h == H_AGAIN)
		return result(h, 0);
	n = syscall(SYS_read, fd, buf, asked(h, len));
	if (h == H_CORRUPT && n > 0)
		((unsigned char *)buf)[0] ^= 0x40;
	return result(h, n);
}

/* ---- the rows: a 64 KiB pipe, 4 KiB chunks (one page a pipe buffer), so
 * every loop moves exactly one pipe of bytes in PS/S calls plus the EAGAIN. */
#define PS 65536u
#define S 4096u
#define ANY UINT64_MAX

struct row {
	const char *what;
	enum pb_mode mode;
	enum pb_verify verify;
	uint64_t loops, fill_limit;  /* fill_limit 0: the engine's own */
	enum call call;
	enum how how;
	unsigned at;                 /* the call (0-based, counted per kind) */
	int ret;
	uint64_t bad_loop, bad_written, bad_read, bad_offset; /* ANY: not judged */
	const char *failed_call;     /* NULL: not judged */
	unsigned bad_pipe;
};

/* Calls per loop of a fault-free run. */
static uint64_t puts_per_loop(enum pb_mode m) { return PS / S + 1 + (m == PB_MODE_TEE); }
static uint64_t takes_per_loop(enum pb_mode m) { return (PS / S + 1) * (m == PB_MODE_TEE ? 2 : 1); }
static uint64_t pipes(enum pb_mode m) { return m == PB_MODE_TEE ? 2 : 1; }

/* The first call of loop 1, per kind (loop 0 made PS/S + 1 of them). */
#define L1 (PS / S + 1)
#define VM PB_MODE_VMSPLICE
#define SP PB_MODE_SPLICE
#define TE PB_MODE_TEE
#define V_ALL PB_VERIFY_ALL
#define V_OFF PB_VERIFY_OFF
#define V_SMP PB_VERIFY_SAMPLE

static const struct row rows[] = {
	/* No fault: the counts, per mode and verify setting. */
	{ "vmsplice clean", VM, V_ALL, 3, 0, C_COUNT, H_NONE, 0, 0 },
	{ "splice clean", SP, V_ALL, 3, 0, C_COUNT, H_NONE, 0, 0 },
	{ "tee clean", TE, V_ALL, 3, 0, C_COUNT, H_NONE, 0, 0 },
	{ "vmsplice sampled", VM, V_SMP, 18, 0, C_COUNT, H_NONE, 0, 0 },
	{ "splice sampled", SP, V_SMP, 17, 0, C_COUNT, H_NONE, 0, 0 },
	{ "tee unverified", TE, V_OFF, 3, 0, C_COUNT, H_NONE, 0, 0 },
	/* The fill limit at the edge: one pipe is allowed, one byte less is not. */
	{ "vmsplice limit = pipe", VM, V_ALL, 2, PS, C_COUNT, H_NONE, 0, 0 },
	{ "vmsplice limit < pipe", VM, V_ALL, 2, PS - 1, C_COUNT, H_NONE, 0, -EOVERFLOW },
	{ "tee limit < pipe", TE, V_ALL, 2, PS - 1, C_COUNT, H_NONE, 0, -EOVERFLOW },
	/* A writer that claims a byte it did not queue: bytes read < written. */
	{ "vmsplice short", VM, V_OFF, 3, 0, C_VMSPLICE, H_SHORT, L1, -EIO, 1, PS, PS - 1, ANY },
	{ "splice-in short", SP, V_OFF, 3, 0, C_SPLICE_IN, H_SHORT, L1, -EIO, 1, PS, PS - 1, ANY },
	{ "tee's write short", TE, V_OFF, 3, 0, C_WRITE, H_SHORT, L1, -EIO, 1, ANY, ANY, ANY },
	/* ... and one that queues a byte more than it says: read > written.  The
	 * next chunks start a byte before a page and take two pipe buffers each:
	 * 1 + 7 * 2 buffers, then one byte fits the last (1 + 7 * S + 1 moved). */
	{ "vmsplice under", VM, V_OFF, 3, 0, C_VMSPLICE, H_UNDER, L1, -EIO, 1, PS / 2, PS / 2 + 1,
	  ANY },
	{ "splice-in under", SP, V_OFF, 3, 0, C_SPLICE_IN, H_UNDER, L1, -EIO, 1, PS / 2,
	  PS / 2 + 1, ANY },
	/* The secondary count: the tee copy against what tee() said. */
	{ "tee short", TE, V_OFF, 3, 0, C_TEE, H_SHORT, 1, -EIO, 1, 2 * PS, 2 * PS - 1, ANY },
	{ "tee under", TE, V_ALL, 3, 0, C_TEE, H_UNDER, 1, -EIO, 1, 2 * PS - 1, 2 * PS, ANY },
	{ "tee EAGAIN: no copy", TE, V_ALL, 3, 0, C_TEE, H_AGAIN, 1, 0 },
	/* A reader that loses a byte from its count. */
	{ "read under", VM, V_OFF, 3, 0, C_READ, H_UNDER, L1, -EIO, 1, PS, PS - 1, ANY },
	{ "splice-out under", SP, V_OFF, 3, 0, C_SPLICE_OUT, H_UNDER, L1, -EIO, 1, PS, PS - 1, ANY },
	{ "tee copy read under", TE, V_OFF, 3, 0, C_READ_COPY, H_UNDER, L1, -EIO, 1, 2 * PS,
	  2 * PS - 1, ANY },
	/* Shifted bytes caught by the data check when it looks. */
	{ "vmsplice short, checked", VM, V_ALL, 3, 0, C_VMSPLICE, H_SHORT, L1, -EBADMSG, 1 },
	{ "read under, checked", VM, V_ALL, 3, 0, C_READ, H_UNDER, L1, -EBADMSG, 1 },
	/* Wrong bytes: named by loop, byte and pipe. */
	{ "read corrupt", VM, V_ALL, 3, 0, C_READ, H_CORRUPT, L1, -EBADMSG, 1, ANY, ANY, 0 },
	{ "splice-out corrupt", SP, V_ALL, 3, 0, C_SPLICE_OUT, H_CORRUPT, L1 + 1, -EBADMSG, 1,
	  ANY, ANY, S },
	{ "tee primary corrupt", TE, V_ALL, 3, 0, C_READ, H_CORRUPT, L1, -EBADMSG, 1, ANY, ANY, 0 },
	{ "tee copy corrupt", TE, V_ALL, 3, 0, C_READ_COPY, H_CORRUPT, L1 + 2, -EBADMSG, 1, ANY,
	  ANY, 2 * S, NULL, 1 },
	/* Sampled: loop 1 of 3 is not looked at, the last loop is. */
	{ "sampled skips loop 1", VM, V_SMP, 3, 0, C_READ, H_CORRUPT, L1, 0 },
	{ "sampled checks the last", VM, V_SMP, 3, 0, C_READ, H_CORRUPT, 2 * L1, -EBADMSG, 2 },
	{ "unverified misses it", SP, V_OFF, 3, 0, C_SPLICE_OUT, H_CORRUPT, L1, 0 },
	/* A put that returns 0 is not a full pipe; a failing call is named. */
	{ "vmsplice 0", VM, V_ALL, 3, 0, C_VMSPLICE, H_ZERO, L1, -EPROTO, 1, ANY, ANY, ANY,
	  "vmsplice" },
	{ "splice-in 0", SP, V_ALL, 3, 0, C_SPLICE_IN, H_ZERO, 3, -EPROTO, 0, ANY, ANY, ANY,
	  "splice" },
	{ "tee's write 0", TE, V_ALL, 3, 0, C_WRITE, H_ZERO, L1, -EPROTO, 1, ANY, ANY, ANY,
	  "write" },
	/* ... the second put of loop 1, with bytes put before it */
	{ "tee's write 0, errno EAGAIN", TE, V_ALL, 3, 0, C_WRITE, H_ZERO_AGAIN, L1 + 1, -EPROTO, 1,
	  ANY, ANY, ANY, "write" },
	{ "tee fails", TE, V_ALL, 3, 0, C_TEE, H_ERR, 1, -ENOSYS, ANY, ANY, ANY, ANY, "tee" },
	{ "vmsplice fails", VM, V_ALL, 3, 0, C_VMSPLICE, H_ERR, 2, -ENOSYS, ANY, ANY, ANY, ANY,
	  "vmsplice" },
	{ "read fails", VM, V_ALL, 3, 0, C_READ, H_ERR, L1, -ENOSYS, ANY, ANY, ANY, ANY, "read" },
	{ "splice-out fails", SP, V_ALL, 3, 0, C_SPLICE_OUT, H_ERR, 0, -ENOSYS, ANY, ANY, ANY, ANY,
	  "splice" },
	{ "tee copy read fails", TE, V_ALL, 3, 0, C_READ_COPY, H_ERR, 0, -ENOSYS, ANY, ANY, ANY,
	  ANY, "read" },
};

/* Loops a verify setting checks out of LOOPS: 0, every PB_ZC_SAMPLE-th, the last. */
static uint64_t verified(enum pb_verify v, uint64_t loops)
{
	if (v == PB_VERIFY_OFF)
		return 0;
	if (v == PB_VERIFY_ALL)
		return loops;
	return (loops - 1) / PB_ZC_SAMPLE + 1 + ((loops - 1) % PB_ZC_SAMPLE != 0);
}

#define JUDGE(field, want) \
	do { \
		if ((want) != ANY) \
			ck_assert_msg(res.field == (want), "%s: " #field " %llu, want %llu", \
				      w->what, (unsigned long long)res.field, \
				      (unsigned long long)(want)); \
	} while (0)

START_TEST(zc_counts)
{
	const struct row *w = &rows[_i];
	uint64_t limit = w->fill_limit ? w->fill_limit : pb_engine_fill_limit(PS, S);
	struct pb_engine_result res;
	const char *what;
	struct pb_zc z;
	int p[2], r, fds = pb_check_count_fds(), saved0 = dup(0);

	ck_assert_int_ge(fds, 0);
	ck_assert_int_ge(saved0, 0);
	ck_assert_int_eq(pb_zc_open(&z, w->mode, w->verify, S, &what), 0);
	ck_assert_int_eq(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
	ck_assert_int_eq(fcntl(p[1], F_SETPIPE_SZ, PS), (int)PS);
	f_call = w->call, f_how = w->how, f_at = w->at;
	memset(calls, 0, sizeof(calls));
	/* Descriptor 0 free (a run with standard input closed): tee's second
	 * pipe gets it, and must close it like any other. */
	close(0);
	armed = true;
	r = pb_zc_run(&z, p[0], p[1], S, w->loops, limit, &res);
	armed = false;
	ck_assert_msg(fcntl(0, F_GETFD) == -1, "%s: descriptor 0 left open by the run", w->what);
	ck_assert_int_eq(dup2(saved0, 0), 0);
	close(saved0);
	ck_assert_msg(r == w->ret, "%s: returned %d (%s), want %d", w->what, r, strerror(-r),
		      w->ret);
	if (w->how != H_NONE)
		ck_assert_msg(calls[w->call] > w->at, "%s: the fault never fired", w->what);
	if (w->ret == 0 && w->how == H_NONE) {
		uint64_t l = w->loops;

		ck_assert_uint_eq(res.loops_done, l);
		ck_assert_uint_eq(res.bytes_written, l * PS * pipes(w->mode));
		ck_assert_uint_eq(res.bytes_read, res.bytes_written);
		ck_assert_uint_eq(res.write_calls, l * puts_per_loop(w->mode));
		ck_assert_uint_eq(res.read_calls, l * takes_per_loop(w->mode));
		ck_assert_uint_eq(res.verified_loops, verified(w->verify, l));
	} else if (w->ret == 0 && w->how == H_AGAIN) {
		/* One loop without its copy: a pipe less, a copy drain of 1 call. */
		ck_assert_uint_eq(res.bytes_written, 3 * 2 * PS - PS);
		ck_assert_uint_eq(res.bytes_read, res.bytes_written);
		ck_assert_uint_eq(res.read_calls, 3 * takes_per_loop(w->mode) - PS / S);
	} else if (w->ret == 0) {
		ck_assert_uint_eq(res.loops_done, w->loops);
		ck_assert_uint_eq(res.verified_loops, verified(w->verify, w->loops));
	} else if (w->ret == -EIO || w->ret == -EBADMSG || w->ret == -EPROTO) {
		JUDGE(bad_loop, w->bad_loop);
	}
	/* A put that returned 0 ends the loop there: no tee of what it put
	 * before, whatever errno an earlier call left. */
	if (w->ret == -EPROTO && w->mode == PB_MODE_TEE)
		ck_assert_uint_eq(calls[C_TEE], w->bad_loop);
	if (w->ret == -EIO) {
		JUDGE(bad_written, w->bad_written);
		JUDGE(bad_read, w->bad_read);
		/* The loop that failed the count is counted, the next is not. */
		ck_assert_uint_eq(res.loops_done, w->bad_loop + 1);
	}
	if (w->ret == -EBADMSG) {
		ck_assert_uint_eq(res.bad_pipe, w->bad_pipe);
		if (w->how == H_CORRUPT) {
			JUDGE(bad_offset, w->bad_offset);
			ck_assert_uint_eq(res.bad_got, res.bad_expected ^ 0x40);
		}
	}
	if (w->failed_call)
		ck_assert_str_eq(res.failed_call ? res.failed_call : "(none)", w->failed_call);
	close(p[0]), close(p[1]);
	pb_zc_close(&z);
	r = pb_check_count_fds();
	ck_assert_msg(r == fds, "%s: %d descriptors open after the run, %d before", w->what, r, fds);
}
END_TEST

/* pb_zc_run refuses each thing it cannot do, each on its own: the rw mode
 * (no zero-copy call), a size of 0, a size past the one it was opened for;
 * that size itself runs. */
START_TEST(zc_refuses)
{
	struct pb_engine_result res;
	const char *what;
	struct pb_zc z;
	int p[2];

	ck_assert_int_eq(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
	ck_assert_int_eq(fcntl(p[1], F_SETPIPE_SZ, PS), (int)PS);
	ck_assert_int_eq(pb_zc_open(&z, PB_MODE_RW, V_ALL, S, &what), 0);
	ck_assert_int_eq(pb_zc_run(&z, p[0], p[1], S, 1, pb_engine_fill_limit(PS, S), &res), -EINVAL);
	pb_zc_close(&z);
	ck_assert_int_eq(pb_zc_open(&z, VM, V_ALL, S, &what), 0);
	ck_assert_int_eq(pb_zc_run(&z, p[0], p[1], 0, 1, pb_engine_fill_limit(PS, S), &res), -EINVAL);
	ck_assert_int_eq(pb_zc_run(&z, p[0], p[1], S + 1, 1, pb_engine_fill_limit(PS, S + 1), &res),
			 -EINVAL);
	ck_assert_int_eq(pb_zc_run(&z, p[0], p[1], S, 1, pb_engine_fill_limit(PS, S), &res), 0);
	ck_assert_uint_eq(res.loops_done, 1);
	pb_zc_close(&z);
	close(p[0]), close(p[1]);
}
END_TEST

/* While set, pwrite(2) moves at most this many bytes a call, as a write to
 * a file may (a signal, a filesystem's own limit). */
static size_t pwrite_cap;

/* pb_zc_open's steps, each made to fail on its own (OF_NONE: none). */
enum open_fault { OF_NONE, OF_ALLOC_SRC, OF_ALLOC_DST, OF_MEMFD, OF_PWRITE_ZERO, OF_PWRITE_ERR,
		  OF_FTRUNCATE };
static enum open_fault open_fault;
static unsigned allocs;  /* posix_memalign calls while an OF_ALLOC_ fault is set */

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	if (open_fault == OF_PWRITE_ZERO)
		return 0;     /* a file that takes nothing, with no error */
	if (open_fault == OF_PWRITE_ERR) {
		errno = ENOSPC;
		return -1;
	}
	if (pwrite_cap && len > pwrite_cap)
		len = pwrite_cap;
	return syscall(SYS_pwrite64, fd, buf, len, off);
}

int posix_memalign(void **p, size_t align, size_t size)
{
	/* The source's buffer is the first, the destination's the second. */
	if ((open_fault == OF_ALLOC_SRC || open_fault == OF_ALLOC_DST) &&
	    allocs++ == (open_fault == OF_ALLOC_DST))
		return ENOMEM;
	*p = memalign(align, size);
	return *p ? 0 : ENOMEM;
}

int memfd_create(const char *name, unsigned int flags)
{
	if (open_fault == OF_MEMFD) {
		errno = EMFILE;
		return -1;
	}
	return (int)syscall(SYS_memfd_create, name, flags);
}

int ftruncate(int fd, off_t len)
{
	if (open_fault == OF_FTRUNCATE) {
		errno = EFBIG;
		return -1;
	}
	return (int)syscall(SYS_ftruncate, fd, len);
}

/*
 * splice's memfd: the whole source, even when pwrite(2) moves it a piece at
 * a time, and the sink at the first page boundary past it, so the file is
 * the source, the gap to that boundary and SIZE bytes.
 */
START_TEST(zc_splice_memfd)
{
	size_t n = PB_ZC_PERIOD + S, pg = (size_t)sysconf(_SC_PAGESIZE), got = 0;
	static unsigned char back[PB_ZC_PERIOD + S];
	const char *what;
	struct stat st;
	struct pb_zc z;

	pwrite_cap = 65536;
	ck_assert_int_eq(pb_zc_open(&z, PB_MODE_SPLICE, PB_VERIFY_ALL, S, &what), 0);
	pwrite_cap = 0;
	while (got < n) {
		ssize_t r = pread(z.src_fd, back + got, n - got, (off_t)got);

		ck_assert_int_gt(r, 0);
		got += (size_t)r;
	}
	ck_assert_msg(memcmp(back, z.src, n) == 0, "the memfd does not hold the source");
	ck_assert_uint_eq(n % pg, 0);   /* the source ends on a page boundary */
	ck_assert_uint_eq(z.sink_off, n);
	ck_assert_int_eq(fstat(z.src_fd, &st), 0);
	ck_assert_uint_eq((uint64_t)st.st_size, n + S);
	pb_zc_close(&z);
	ck_assert_int_eq(pb_zc_open(&z, PB_MODE_SPLICE, PB_VERIFY_ALL, S + 1, &what), 0);
	ck_assert_uint_eq(z.sink_off, n + pg);
	pb_zc_close(&z);
}
END_TEST

/*
 * Each step of pb_zc_open failing alone: its error (the source's and the
 * destination's memory ENOMEM, memfd_create's and pwrite's own errno, a
 * pwrite that moves nothing without an error EIO, never success or a stale
 * errno) and the step *what names; pb_zc_close then releases what was made
 * (the memfd is closed).
 */
static const struct {
	enum open_fault fault;
	enum pb_mode mode;
	int ret;
	const char *what;    /* NULL: a success, nothing to name */
} open_rows[] = {
	{ OF_NONE, PB_MODE_SPLICE, 0, NULL },
	{ OF_ALLOC_SRC, PB_MODE_VMSPLICE, -ENOMEM, "memory" },
	{ OF_ALLOC_DST, PB_MODE_VMSPLICE, -ENOMEM, "memory" },
	{ OF_ALLOC_DST, PB_MODE_SPLICE, -ENOMEM, "memory" },
	{ OF_MEMFD, PB_MODE_SPLICE, -EMFILE, "memfd_create" },
	{ OF_PWRITE_ZERO, PB_MODE_SPLICE, -EIO, "write to the source memfd" },
	{ OF_PWRITE_ERR, PB_MODE_SPLICE, -ENOSPC, "write to the source memfd" },
	{ OF_FTRUNCATE, PB_MODE_SPLICE, -EFBIG, "ftruncate" },
	/* Only splice needs the memfd: the others are done after the memory. */
	{ OF_MEMFD, PB_MODE_VMSPLICE, 0, NULL },
	{ OF_PWRITE_ZERO, PB_MODE_TEE, 0, NULL },
};

START_TEST(zc_open_fails)
{
	const char *what = NULL;
	struct pb_zc z;
	int r, fd;

	open_fault = open_rows[_i].fault;
	allocs = 0;
	errno = 0;
	r = pb_zc_open(&z, open_rows[_i].mode, PB_VERIFY_ALL, S, &what);
	open_fault = OF_NONE;
	ck_assert_msg(r == open_rows[_i].ret, "row %d: returned %d (%s), want %d", _i, r,
		      strerror(-r), open_rows[_i].ret);
	if (open_rows[_i].what)
		ck_assert_str_eq(what, open_rows[_i].what);
	fd = z.src_fd;
	pb_zc_close(&z);
	ck_assert_ptr_null(z.src);
	ck_assert_int_eq(z.src_fd, -1);
	if (fd >= 0)
		ck_assert_int_eq(fcntl(fd, F_GETFD), -1);
}
END_TEST

/* The published lowbias32 (Chris Wellons' hash-prospector), written out
 * here independently of the library's. */
static uint32_t lowbias32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

/*
 * The pattern: byte I is byte I % 4 (little end first) of lowbias32(I / 4 +
 * 0x5a5a5a5a), over the whole period (a hash with a shift or constant off
 * sends other bytes, and names other bytes in a corruption message); known
 * values of it; the source buffer holds it, repeating every period, for
 * the SIZE bytes past the period too; and a shift by any amount changes
 * most bytes (a stale or moved chunk cannot pass the check).
 */
START_TEST(zc_pattern)
{
	static const unsigned char first[8] = { 0xb5, 0x4d, 0xb9, 0x33, 0x2f, 0x70, 0x12, 0xcf };
	static const unsigned shifts[] = { 1, 2, 3, 4, 5, 8, 100, 4096, 65536 };
	const char *what;
	struct pb_zc z;

	for (unsigned i = 0; i < 8; i++)
		ck_assert_uint_eq(pb_zc_pattern(i), first[i]);
	ck_assert_uint_eq(pb_zc_pattern(4096), 0xae);
	ck_assert_uint_eq(pb_zc_pattern(PB_ZC_PERIOD - 1), 0x38);
	for (uint32_t i = 0; i < PB_ZC_PERIOD; i++)
		if (pb_zc_pattern(i) != (unsigned char)(lowbias32(i / 4 + 0x5a5a5a5au) >> (8 * (i % 4))))
			ck_abort_msg("byte %u: 0x%02x, lowbias32 gives 0x%02x", i, pb_zc_pattern(i),
				     (unsigned char)(lowbias32(i / 4 + 0x5a5a5a5au) >> (8 * (i % 4))));
	ck_assert_int_eq(pb_zc_open(&z, PB_MODE_VMSPLICE, PB_VERIFY_ALL, S, &what), 0);
	for (size_t i = 0; i < PB_ZC_PERIOD + S; i++)
		if (z.src[i] != pb_zc_pattern(i % PB_ZC_PERIOD))
			ck_abort_msg("source byte %zu is not the pattern's", i);
	for (size_t k = 0; k < sizeof(shifts) / sizeof(shifts[0]); k++) {
		unsigned same = 0;

		for (size_t i = 0; i < 65536; i++)
			same += z.src[i] == z.src[i + shifts[k]];
		/* about 1 in 256 alike by chance (256 of 65536); 4 times that at most */
		ck_assert_msg(same < 1024, "shift %u: %u of 65536 bytes unchanged", shifts[k], same);
	}
	pb_zc_close(&z);
}
END_TEST

/*
 * The write phase is one step a loop (nothing reads the clock between its
 * ends).  The read phase spans the drain(s); every chunk checked adds two
 * readings around the check, whose one step is kept out of the read time,
 * so a loop's read time is one step plus one a checked chunk: verification
 * must not make a mode look slower, nor faster.
 */
static const struct { enum pb_mode mode; enum pb_verify verify; } clock_rows[] = {
	{ VM, V_ALL }, { VM, V_OFF }, { VM, V_SMP }, { SP, V_ALL }, { SP, V_OFF },
	{ TE, V_ALL }, { TE, V_OFF }, { TE, V_SMP },
};

START_TEST(zc_phase_times)
{
	const uint64_t loops = 40;
	enum pb_mode m = clock_rows[_i].mode;
	enum pb_verify v = clock_rows[_i].verify;
	struct pb_engine_result res;
	const char *what;
	struct pb_zc z;
	uint64_t checked;
	int p[2], r;

	ck_assert_int_eq(pb_zc_open(&z, m, v, S, &what), 0);
	ck_assert_int_eq(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
	ck_assert_int_eq(fcntl(p[1], F_SETPIPE_SZ, PS), (int)PS);
	pb_fake_clock_on();
	r = pb_zc_run(&z, p[0], p[1], S, loops, pb_engine_fill_limit(PS, S), &res);
	pb_fake_clock_off();
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(res.loops_done, loops);
	/* Each verified loop checks every chunk it read: its takes less the
	 * EAGAIN that ends each drain. */
	checked = res.verified_loops * (takes_per_loop(m) - pipes(m));
	ck_assert_uint_eq(res.verified_loops, verified(v, loops));
	ck_assert_uint_eq(res.tw_ns, loops * PB_FAKE_STEP);
	ck_assert_msg(res.tr_ns == (loops + checked) * PB_FAKE_STEP,
		      "%s verify %s: read time %llu ns, want %llu (%llu loops, %llu chunks checked)",
		      pb_mode_words[m], pb_verify_words[v], (unsigned long long)res.tr_ns,
		      (unsigned long long)((loops + checked) * PB_FAKE_STEP), (unsigned long long)loops,
		      (unsigned long long)checked);
	close(p[0]), close(p[1]);
	pb_zc_close(&z);
}
END_TEST

PB_CHECK_SUITE_MAIN("zerocopy",
	PB_TCASE_LOOP("counts", 30, zc_counts, sizeof(rows) / sizeof(rows[0])),
	PB_TCASE_LOOP("phase_times", 30, zc_phase_times, sizeof(clock_rows) / sizeof(clock_rows[0])),
	PB_TCASE("memfd", zc_splice_memfd, zc_pattern, zc_refuses),
	PB_TCASE_LOOP("open", 30, zc_open_fails, sizeof(open_rows) / sizeof(open_rows[0])))
