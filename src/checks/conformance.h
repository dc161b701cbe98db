/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The conformance check registry and runner.
 *
 * A check is a function that examines one behaviour and records a verdict
 * in its context.  The runner runs each check in a forked child under a
 * watchdog, in a private temporary directory, with inherited state reset
 * (SIGPIPE default, empty signal mask, umask 022); a child killed by a signal
 * or by the watchdog is a FAIL naming the signal or the timeout.
 *
 * Checks are grouped per file, src/checks_<group>.c, each exporting one
 * array terminated by an entry with id == NULL.
 */
#ifndef PB_CONFORMANCE_H
#define PB_CONFORMANCE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "endpoint.h"
#include "sysinfo.h"
#include "sysops.h"

enum pb_verdict {
	PB_PASS,
	PB_FAIL,
	PB_KNOWN_DEVIATION,
	PB_INFO,
	PB_SKIP,
	PB_ERROR,      /* the harness itself failed */
	PB_VERDICT_COUNT
};

/* "pass", "fail", "known-deviation", "info", "skip", "error". */
extern const char *const pb_verdict_names[];

/* Check flags. */
enum {
	PB_CHECK_BOTH_KINDS = 1u << 0,  /* runs on anon and on fifo (--kind) */
	PB_CHECK_GLOBAL = 1u << 1,      /* changes global state: --allow-global-changes */
	PB_CHECK_PRIV = 1u << 2,        /* needs capabilities (tested, not euid) */
};

/* Runner options (PB_RUN_*). */
enum { PB_RUN_ALLOW_GLOBAL = 1u << 0 };

struct pb_check_ctx {
	const struct pb_sysops *sys;  /* make judged kernel calls through this */
	const char *dir;              /* private empty directory for this check */
	enum pb_kind kind;            /* PB_KIND_ANON or PB_KIND_FIFO */
	unsigned run_flags;           /* PB_RUN_* */
	enum pb_verdict verdict;      /* starts as PB_PASS */
	char detail[512];
};

struct pb_check {
	const char *id;        /* stable, never renumbered: "CRE-01" */
	const char *group;     /* "creation", "read", ... */
	const char *tag;       /* "P17", "LX", "LX!=P", ... */
	const char *title;
	const char *citation;
	unsigned flags;        /* PB_CHECK_* */
	void (*run)(struct pb_check_ctx *ctx);
};

/* Verdict helpers: set the verdict and a printf detail.  The first FAIL or
 * ERROR recorded stays: later calls change neither verdict nor detail. */
void pb_check_set(struct pb_check_ctx *ctx, enum pb_verdict v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define pb_check_fail(ctx, ...) pb_check_set((ctx), PB_FAIL, __VA_ARGS__)
#define pb_check_skip(ctx, ...) pb_check_set((ctx), PB_SKIP, __VA_ARGS__)
#define pb_check_info(ctx, ...) pb_check_set((ctx), PB_INFO, __VA_ARGS__)
#define pb_check_error(ctx, ...) pb_check_set((ctx), PB_ERROR, __VA_ARGS__)

/*
 * The fail/error rule, decided here for every check group (see HACKING,
 * "Verdicts", and the man page's CHECKS section):
 *   - a pipe or FIFO operation that misbehaves at any step of a check,
 *     setup included, is FAIL: the detail names the operation, what it did
 *     and what POSIX/Linux requires;
 *   - ERROR is only for the harness's own resources: fork, mmap, memory,
 *     files that are not pipes, descriptor/memory limits (EMFILE, ENFILE,
 *     ENOMEM) hit before the check could judge anything, the watchdog.
 * Checks report unexpected outcomes of setup steps through pb_check_setup
 * with the resource the step used; the errno decides the rest.
 */
enum pb_res {
	PB_RES_PIPE,     /* pipe2, mkfifo, open of a FIFO, read/write/fcntl/poll... on one */
	PB_RES_HARNESS,  /* fork, mmap, pthread, /dev/null, temp files, rlimits */
};
void pb_check_setup(struct pb_check_ctx *ctx, enum pb_res res, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Whether ERR from a pipe/FIFO call is the environment's limit (EMFILE,
 * ENFILE, ENOMEM) rather than the kernel misbehaving. */
bool pb_check_err_is_resource(int err);

/* Append to the detail of a passing check without changing the verdict. */
void pb_check_note(struct pb_check_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct pb_check_result {
	enum pb_verdict verdict;
	char detail[512];
	uint64_t duration_ns;
	int signal;        /* the child died of this signal (verdict FAIL) */
	bool timed_out;    /* the watchdog killed it (verdict FAIL) */
};

struct pb_run_opts {
	const struct pb_sysops *sys;  /* NULL: pb_sysops_real */
	const char *base_dir;         /* where private dirs go; NULL: $TMPDIR */
	enum pb_kind kind;
	double timeout_s;             /* watchdog per check; <= 0: 5 s */
	unsigned flags;               /* PB_RUN_* */
};

/*
 * Run one check in a forked child under the watchdog.  Returns 0 with R
 * filled (whatever the verdict), or -errno when the harness could not even
 * start it (R then says ERROR).
 */
int pb_conformance_run_one(const struct pb_check *c, const struct pb_run_opts *o,
			   struct pb_check_result *r);

/* The groups, in catalogue order. */
extern const struct pb_check pb_checks_creation[];  /* CRE-* */
extern const struct pb_check pb_checks_read[];      /* RD-*  */
extern const struct pb_check pb_checks_write[];     /* WR-*  */
extern const struct pb_check pb_checks_nonblock[];  /* NB-*  */
extern const struct pb_check pb_checks_sigpipe[];   /* SIG-* */
extern const struct pb_check pb_checks_fifo[];      /* FIFO-* */
extern const struct pb_check pb_checks_fcntl[];     /* FC-*  */
extern const struct pb_check pb_checks_poll[];      /* PL-*  */
extern const struct pb_check pb_checks_metadata[];  /* MD-*  */
extern const struct pb_check pb_checks_linux[];     /* LX-*  */

/* The groups in order, NULL-terminated. */
extern const struct pb_check *const pb_check_groups[];

/* ---- helpers shared by checks (src/checks/util.c) ---- */

/* "FIFO" or "pipe", for details. */
const char *pb_check_kind_word(const struct pb_check_ctx *ctx);

/* Close *FD through SYS if open, and mark it closed (-1). */
void pb_check_close(const struct pb_sysops *sys, int *fd);

/* Make a pipe of ctx->kind with FLAGS|O_CLOEXEC: anonymous via
 * sys->pipe2, or a FIFO in ctx->dir opened read end O_RDONLY|O_NONBLOCK
 * first, then the write end, FLAGS' O_NONBLOCK/O_CLOEXEC applied to both.
 * On failure both fds are -1 and the verdict is recorded per pb_check_setup
 * ("cannot make a pipe: ...").  Returns whether it worked. */
bool pb_check_make_pipe(struct pb_check_ctx *ctx, int fd[2], int flags);

/* Fill WFD (nonblocking) with page-sized writes until EAGAIN; returns the
 * bytes written, PB_FILL_ZERO when a write returned 0 (not an errno: a real
 * EIO stays -EIO), or -errno.  Bounded: -EOVERFLOW past 64 MiB. */
#define PB_FILL_ZERO (-4096L)
long pb_check_fill(const struct pb_sysops *sys, int wfd);

/* pb_check_fill, and on failure record FAIL naming what the write did and
 * what POSIX requires (a full nonblocking pipe: -1 with EAGAIN); returns the
 * bytes written, or -1 after recording the verdict. */
long pb_check_fill_or_fail(struct pb_check_ctx *ctx, int wfd);

/* A full pipe of ctx->kind: pb_check_make_pipe(FLAGS|O_NONBLOCK), then
 * pb_check_fill_or_fail on its write end.  Returns the bytes queued, or -1
 * with the verdict recorded; the fds are then -1 if the pipe could not be
 * made, else open for the caller to close (pb_check_close_pair does both). */
long pb_check_full_pipe(struct pb_check_ctx *ctx, int fd[2], int flags);

/*
 * Messages between a check and its helper processes travel through shared
 * memory, never through a pipe: the harness must not trust what it tests.
 * pb_check_shared maps LEN zeroed bytes MAP_SHARED|MAP_ANONYMOUS (inherited
 * by fork) or records ERROR and returns NULL; pb_check_wait_flag waits up to
 * MS milliseconds for *FLAG to become non-zero.
 */
void *pb_check_shared(struct pb_check_ctx *ctx, size_t len);
bool pb_check_wait_flag(const volatile int *flag, unsigned ms);

/* Arm a one-shot SIGALRM after MS milliseconds whose handler is installed
 * WITHOUT SA_RESTART, so a blocked call returns EINTR (harness rule 4).
 * pb_check_disarm cancels it and restores the default disposition. */
void pb_check_arm_interrupt(unsigned ms);
void pb_check_disarm(void);

/* Wait (bounded by MS) until process PID is in state S (sleeping) per
 * /proc/PID/stat.  true when seen; coverage only, never a verdict. */
bool pb_check_wait_sleeping(pid_t pid, unsigned ms);

/* Process PID's state letter per /proc/PID/stat ('R', 'S', 'D', ...; '?'
 * when it cannot be read) and, unless CPU_MS is NULL, the CPU time it has
 * used, user and system, in ms (-1 when unknown). */
char pb_check_proc_stat(pid_t pid, long *cpu_ms);

/* Number of open descriptors per /proc/self/fd; -errno without /proc. */
int pb_check_count_fds(void);

/* Whether the effective capability set has CAP (PB_CAP_*, sysinfo.h). */
bool pb_check_has_cap(int cap);

/* ---- one copy of each small helper; no check group keeps its own ---- */

/* Whether CAP lifts the kernel's pipe limits (pipe-max-size, the per-user
 * page limits): held in CapEff AND this process is in the initial user
 * namespace, where the kernel's capable() looks; a capability held only
 * inside another user namespace (rootless containers, `unshare -U -r`) does
 * not count.  Unknown namespace (no /proc): the initial one. */
bool pb_check_has_limit_cap(int cap);

/* Close both ends through SYS (those that are open) and mark them -1. */
void pb_check_close_pair(const struct pb_sysops *sys, int fd[2]);

/* One read/write bounded by the non-restart timer of MS milliseconds
 * (pb_check_arm_interrupt): a call that would block returns -1/EINTR.
 * errno is 0 before the call and kept across the disarm. */
ssize_t pb_check_timed_read(const struct pb_sysops *sys, int fd, void *buf, size_t n,
			    unsigned ms);
ssize_t pb_check_timed_write(const struct pb_sysops *sys, int fd, const void *buf, size_t n,
			     unsigned ms);

/* The capacity of the pipe whose write end is WFD (fcntl F_GETPIPE_SZ
 * through ctx->sys): > 0, or -1 with the verdict recorded (FAIL naming the
 * call, or ERROR per pb_check_setup). */
long pb_check_capacity(struct pb_check_ctx *ctx, int wfd);

/* Leave 96 bytes free in the last page and no free slot in the pipe of
 * capacity CAP (page size PAGE) whose nonblocking write end is WFD:
 * (slots-1) full pages, then page-96 bytes into a fresh slot, each write
 * bounded by a 2 s timer.  Returns the bytes queued, or -1 with the verdict
 * recorded: SKIP when CAP is below one page, else FAIL naming the write that
 * did not go through (each has room: POSIX requires it whole). */
long pb_check_fill_but_96(struct pb_check_ctx *ctx, int wfd, long cap, long page);

/* Turn O_NONBLOCK on or off on FD (F_GETFL, F_SETFL through SYS); 0 or -errno. */
int pb_check_set_nonblock(const struct pb_sysops *sys, int fd, bool on);

/* Bytes queued per ioctl(FIONREAD) through SYS; -1 (errno set) when it fails. */
long pb_check_fionread(const struct pb_sysops *sys, int fd);

/*
 * Wait (bounded by MS milliseconds, no fixed sleep) until
 * CLOCK_REALTIME_COARSE, the clock the VFS stamps inodes with, is past each
 * of the N times in T, so that an update made afterwards cannot write back
 * an identical value.  When every time has tv_nsec == 0 the filesystem may
 * keep whole seconds: then wait a second more (the method src/tsprobe.c
 * uses for the timestamps command).  false when MS ran out.
 */
bool pb_check_wait_clock_past(const struct timespec *t, int n, unsigned ms);

/* sysconf(_SC_PAGESIZE), or 4096 when unknown. */
long pb_check_page_size(void);

/* The first decimal number in the file PATH (a /proc or /sys value: the
 * environment, not a judged call); -1 when unreadable. */
long pb_check_proc_long(const char *path);

/* Whether sys->uname says MAJOR.MINOR or later: 1, 0, or -1 (unknown); the
 * release (or "unknown") in REL when REL is not NULL.  Context for a detail
 * only, never a verdict: distributions backport and revert. */
int pb_check_kernel_at_least(const struct pb_check_ctx *ctx, int major, int minor, char *rel,
			     size_t len);

/* For details: "success" when RET >= 0, else ERR's name ("EAGAIN"). */
const char *pb_check_err_name(long ret, int err);

/* For details: "-1/EAGAIN" (ERR's name) when R < 0, else the count; in BUF. */
const char *pb_check_res(ssize_t r, int err, char *buf, size_t len);

/* One I/O call of a check's setup that must move exactly N bytes (GOT is
 * what CALL returned, errno still its): anything else is the kernel's FAIL
 * naming CALL ("setup: CALL on a pipe returned 3; POSIX requires all 5
 * bytes"), or ERROR per pb_check_setup for EMFILE/ENFILE/ENOMEM. */
bool pb_check_io_exact(struct pb_check_ctx *ctx, ssize_t got, size_t n, const char *call);

/* An anonymous pipe whatever ctx->kind: pipe2(FLAGS) through ctx->sys.  On
 * failure both fds are -1 and the verdict is recorded per pb_check_setup
 * ("pipe2(O_DIRECT|O_CLOEXEC): EINVAL; Linux requires a new pipe"). */
bool pb_check_anon_pipe(struct pb_check_ctx *ctx, int fd[2], int flags);
/* The verdict of pb_check_anon_pipe for a pipe2(FLAGS) that just failed,
 * errno still its; both fds become -1. */
void pb_check_anon_pipe_failed(struct pb_check_ctx *ctx, int fd[2], int flags);

/*
 * Run FN(SYS, ARG, OUT) as uid/gid 65534 with no supplementary groups, in a
 * helper child (pb_checkproc_fork) that first enters DIR when DIR is not
 * NULL (while still privileged, so DIR's ancestors need not be searchable by
 * 65534).  OUT lives in shared memory: the helper reports there, never
 * through a pipe.  Waits MS milliseconds.  Returns
 *   PB_NOBODY_OK     FN returned; *OUT is what it wrote;
 *   PB_NOBODY_HUNG   FN began and did not return in time (the caller words
 *                    the FAIL: it knows what FN called);
 *   PB_NOBODY_SKIP   the environment cannot give that identity (EINVAL:
 *                    65534 unmapped in a user namespace; EPERM: setgroups
 *                    denied); WHY says which step and why;
 *   PB_NOBODY_ERROR  ERROR recorded: mmap, fork, chdir, another errno, or
 *                    the helper died before it switched identity.
 * The caller needs CAP_SETUID (PB_CAP_SETUID) for the switch to work.
 */
struct pb_nobody_out {
	long value;
	int err;
};
typedef void pb_nobody_fn(const struct pb_sysops *sys, void *arg, struct pb_nobody_out *out);
enum { PB_NOBODY_OK = 0, PB_NOBODY_ERROR = -1, PB_NOBODY_SKIP = -2, PB_NOBODY_HUNG = -3 };
int pb_check_as_nobody(struct pb_check_ctx *ctx, const char *dir, unsigned ms,
		       pb_nobody_fn *fn, void *arg, struct pb_nobody_out *out, char *why,
		       size_t len);

#endif
