/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the benchmarking commands (throughput, o_noatime, messaging) share:
 * the run's harness (system facts, buffered output, error and status,
 * progress, the --timeout watchdog), the --duration time budget with its
 * calibration, and one fill/drain run on a fresh endpoint.  See HACKING
 * ("how data flows") and the man page's --duration entries.
 */
#ifndef PB_BENCHCMD_H
#define PB_BENCHCMD_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "endpoint.h"
#include "engine.h"
#include "output.h"
#include "profile.h"
#include "sysinfo.h"
#include "zerocopy.h"

/* ---------------------------------------------------------------- harness */

/* A run's --duration budget and what its calibration found (below). */
struct pb_budget {
	uint64_t duration_ns;    /* --duration; 0: not given, nothing below is used */
	uint64_t runs;           /* rounds of the run: measured + warmup */
	uint64_t max_loops;      /* upper bound of the choice (>= 1) */
	uint64_t calib_loops;    /* the last calibration round: loops */
	uint64_t calib_ns;       /* ... and its wall-clock time */
	uint64_t calib_rounds;   /* calibration rounds made */
	uint64_t calib_total_ns; /* ... and their time, taken from the budget */
	uint64_t loops;          /* the choice */
	uint64_t (*clock)(void); /* NULL: CLOCK_MONOTONIC (tests pass a fake) */
};

struct pb_bench {
	const char *name;        /* the command, for messages */
	struct pb_sysinfo si;
	struct pb_out out;
	struct pb_progress pg;
	int progress;            /* show the progress line */
	int status;              /* enum pb_exit; PB_SET_ERROR(b, ...) sets it */
	char error[512];         /* the one-line reason of a non-zero status */
	uint64_t timeout_ns;     /* --timeout, 0: none */
	uint64_t loops;          /* --loops, or the budget's choice (0 until it is made) */
	struct pb_budget budget; /* --duration, and the calibration's findings */
	/* --profile: the sampler of this thread (NULL: off) and where the
	 * samples of the loop that runs go (NULL: dropped, as a warmup's) */
	struct pb_prof *prof;
	struct pb_prof_ips *prof_into;
	/* the counters of this thread, around each loop (NULL: none) */
	struct pb_ctrs *ctrs;
};

/*
 * Collect the system facts and open the output buffer for command NAME,
 * with --timeout TIMEOUT_NS, --loops LOOPS and --duration DURATION_NS (a
 * budget leaves b->loops 0 for pb_bench_calibrate to choose).
 * Returns 0, or PB_EXIT_ERROR with the message printed (nothing to free).
 */
int pb_bench_begin(struct pb_bench *b, const char *name, struct pb_cli *cli,
		   uint64_t timeout_ns, uint64_t loops, uint64_t duration_ns);

/* Arm the --timeout watchdog (when one was given) / disarm it and print
 * the error, if any, as the command's one line on stderr. */
void pb_bench_arm(struct pb_bench *b);
void pb_bench_disarm(struct pb_bench *b);

/*
 * Write the document to --output PATH (NULL: stdout), or drop it when
 * DISCARD; returns the command's exit status (PB_EXIT_ERROR when writing
 * failed on an otherwise clean run).
 */
int pb_bench_end(struct pb_bench *b, const char *path, bool discard);

/*
 * LOOPS fill/drain loops (pb_engine_run) of SIZE-byte chunks from BUF on
 * a fresh endpoint of KIND opened with EO, closed before returning.
 * Returns 0 or -errno with B's error set, prefixed with LABEL: the call
 * that could not open the endpoint (pipe2(O_NOATIME) refused with EINVAL
 * is PB_EXIT_NA: nothing to measure), the engine's reason (PB_EXIT_ERROR),
 * or the --timeout.
 */
int pb_bench_fill_drain(struct pb_bench *b, const char *label, enum pb_kind kind,
			const struct pb_endpoint_opts *eo, void *buf, uint64_t size,
			uint64_t loops, struct pb_engine_result *res);

/* The same with ZC's mode (pb_zc_run) when ZC is not NULL and its mode is
 * not rw; a kernel that corrupted the bytes (-EBADMSG) is PB_EXIT_ERROR
 * with the loop and offset named, like the engine's other alarms. */
int pb_bench_fill_drain_zc(struct pb_bench *b, const char *label, enum pb_kind kind,
			   const struct pb_endpoint_opts *eo, const struct pb_zc *zc, void *buf,
			   uint64_t size, uint64_t loops, struct pb_engine_result *res);

/*
 * A result's per-repetition objects REPS (an array) under "repetitions" in
 * O, then its "summary": null and NULL when N, the repetitions measured, is
 * 0, else a new object that the caller fills.
 */
struct json_object *pb_bench_json_reps(struct json_object *o, struct json_object *reps,
				       size_t n);

/* A loop count for JSON: null when 0 (a --duration run whose calibration
 * did not finish chose none). */
struct json_object *pb_bench_loops_json(uint64_t loops);

/* ---------------------------------------------------------------- budget */

/* The --duration row of each benchmarking command: a budget in ns. */
#define PB_BUDGET_MIN_NS 100000000ULL          /* 100ms */
#define PB_BUDGET_MAX_NS (86400ULL * 1000000000ULL)
#define PB_OPT_BUDGET(T, F) \
	{ PB_OPT("duration", '\0', PB_OPT_DURATION, T, F), .min = PB_BUDGET_MIN_NS, \
	  .max = PB_BUDGET_MAX_NS, .def_help = "none, --loops decides", .arg = "DURATION", \
	  .help = "choose the loops so that the run takes about this long, after a short " \
		  "calibration; not with --loops", .excludes = "loops" }

/* ---------------------------------------------------------------- precision */

/* The --precision and --precision-budget rows of each benchmarking command:
 * WHAT is the figure whose median is sampled until known within the
 * percent, FB the budget's field, BUDGET_DEF its default in words. */
#define PB_OPT_PRECISION(T, F, FB, WHAT, BUDGET_DEF) \
	{ PB_OPT("precision", '\0', PB_OPT_DOUBLE, T, F), .dmin = 0.01, .dmax = 100, \
	  .arg = "PCT", .def_help = "off", \
	  .help = "add repetitions until " WHAT " is known within PCT percent (its 95% " \
		  "interval), or --precision-budget is spent" }, \
	{ PB_OPT("precision-budget", '\0', PB_OPT_DURATION, T, FB), .min = PB_BUDGET_MIN_NS, \
	  .max = PB_BUDGET_MAX_NS, .def_help = BUDGET_DEF, .arg = "DURATION", \
	  .help = "with --precision: add no repetition once the measurement has taken this " \
		  "long" }

/* --precision stops at --precision-budget, else at the run's --duration
 * budget where that bounds the whole run, else after this long. */
#define PB_PRECISION_BUDGET_NS (60ULL * 1000000000ULL)

/* The budget in force: BUDGET_NS (--precision-budget), else DURATION_NS,
 * else PB_PRECISION_BUDGET_NS. */
uint64_t pb_precision_budget(uint64_t budget_ns, uint64_t duration_ns);

/* Whether --precision's time, counted from START (the measurement's), is
 * spent: BUDGET_NS (--precision-budget), else DURATION_NS, else
 * PB_PRECISION_BUDGET_NS. */
bool pb_precision_spent(uint64_t start, uint64_t budget_ns, uint64_t duration_ns);

/* check_params' part: --precision-budget only with --precision (exit 2
 * with one line; returns -1 then). */
struct pb_cli;
int pb_precision_check(struct pb_cli *cli, const char *cmd);

/*
 * --precision in text, a "precision" line: TARGET reached after NREPS
 * repetitions, WHAT (e.g. "every row's median TT") within WORST percent;
 * or not reached in BUDGET_NS (pb_precision_budget), WORST percent (NAN: too few repetitions for
 * an interval) at WHERE ("fifo 4 KiB", or NULL).
 */
void pb_precision_text(FILE *fp, double target, bool reached, double worst, size_t nreps,
		       uint64_t budget_ns, const char *what, const char *where);

/* Room for one more repetition in REPS (N used of *CAP, SIZE bytes each),
 * doubled when full: REPS or where it moved; NULL without memory (REPS is
 * then as it was). */
void *pb_bench_room(void *reps, size_t n, size_t *cap, size_t size);

/* A result's `precision` object: target_pct, reached_pct (null: NAN, too
 * few repetitions), reached. */
struct json_object *pb_precision_json(double target, double reached);

/* The bounds of a chosen loop count (the --loops row's). */
#define PB_BUDGET_MAX_LOOPS 1000000000ULL


/*
 * The choice: floor(DURATION_NS * CALIB_LOOPS / (CALIB_NS * RUNS)), that
 * is the budget per run over the calibration's time per loop, within
 * [1, MAX_LOOPS].  CALIB_NS or RUNS of 0 count as 1.
 */
uint64_t pb_budget_loops(uint64_t duration_ns, uint64_t runs, uint64_t calib_loops,
			 uint64_t calib_ns, uint64_t max_loops);

/*
 * How long the calibration's last round should take: a 25th of the
 * budget within [20 ms, 1 s], but at least ten times FIRST_NS, the first
 * round's time (one loop: mostly the round's fixed costs, which the time
 * per loop then hardly inflates), and at most a fifth of the budget.
 */
uint64_t pb_budget_target_ns(uint64_t duration_ns, uint64_t first_ns);

/*
 * One round of the run with LOOPS loops (every kind and size, both sides:
 * what one repetition does).  Returns 0, or non-zero with the reason
 * already recorded by the caller.
 */
typedef int (*pb_budget_round_fn)(void *ctx, uint64_t loops);

/*
 * Calibrate and choose: time rounds of ROUND with growing loop counts
 * (1, then scaled towards the target, at most 100 times more per round)
 * until one takes pb_budget_target_ns (of the first round's time) or
 * reaches max_loops; then set B->loops with pb_budget_loops for what the
 * calibration left of the budget (duration_ns - calib_total_ns, or 0).
 * The time per loop includes the round's fixed costs (fresh endpoints,
 * workers), so the run stays within the budget.  B->duration_ns, runs
 * and max_loops must be set.  Returns 0, or ROUND's non-zero result (that
 * round's time counts in calib_total_ns, nothing else of it; B->loops
 * stays 0).
 */
int pb_budget_calibrate(struct pb_budget *b, pb_budget_round_fn round, void *ctx);

/*
 * pb_budget_calibrate of B's budget for RUNS rounds of at most MAX_LOOPS
 * loops, the calibration shown as unknown work on the progress line; on
 * success b->loops is the choice.  Returns ROUND's non-zero result, or 0.
 */
int pb_bench_calibrate(struct pb_bench *b, uint64_t runs, uint64_t max_loops,
		       pb_budget_round_fn round, void *ctx);

/*
 * Start B's progress line for TOTAL units of measured work; with a budget,
 * what the calibration left of it gives the ETA until the first unit is
 * done.
 */
void pb_bench_progress_start(struct pb_bench *b, uint64_t total);

/*
 * JSON: the document's "budget", what the calibration found and chose:
 * {duration_ns, runs, calibration: {loops, ns, rounds, total_ns},
 * max_loops, loops}, or null without a budget (or before the first
 * calibration round).  What was asked, the params' "duration_ns", is
 * pb_budget_duration_json: the budget in ns or null.  (compare then sees
 * two runs on one budget differ in loops only.)
 */
struct json_object *pb_budget_json(const struct pb_budget *b);
struct json_object *pb_budget_duration_json(const struct pb_budget *b);

/*
 * Text: one "budget ..." line, or nothing without a budget.  The label is
 * padded to WIDTH columns so that the value lines up with the values of the
 * lines around it (11 for throughput's and messaging's headers).
 */
void pb_budget_text(const struct pb_budget *b, FILE *fp, int width);


/*
 * What timestamp updates cost here (timestamps --profile): LOOPS loops of
 * the 100-byte fill/drain loop on KIND (FIFOs in DIR), sampled as
 * --profile samples (PR: its period and the kernel's symbols); the
 * summary in OUT and the system calls made.  0, or -errno with the
 * reason in WHY (the sampler refused, the endpoint or the loop failed).
 */
int pb_bench_timestamp_cost(enum pb_kind kind, const char *dir, const struct pb_prof_run *pr,
			    uint64_t loops, struct pb_prof_summary *out, double *syscalls,
			    char *why, size_t len);

/*
 * --profile of a command whose loops run in this thread through
 * pb_bench_fill_drain*: PR says what sampling can do here (ON: --profile
 * given; PR->ok false, with the reason, when this thread's sampler cannot
 * be opened), SAMPLER becomes B's when it opens; each
 * loop's samples then go to B->prof_into (set it per loop; NULL drops
 * them).  pb_bench_profile_end closes the sampler (pb_prof_run_end frees
 * PR's symbols once the rows are summarised).
 */
void pb_bench_profile_begin(struct pb_bench *b, struct pb_prof_run *pr, struct pb_prof *sampler,
			    bool on);
void pb_bench_profile_end(struct pb_bench *b, struct pb_prof *sampler);
/* The timestamp category's share of S's kernel samples (0 without any). */
double pb_prof_timestamp_kshare(const struct pb_prof_summary *s);

/* --copies ARG (throughput, latency): parsed into OUT (at most MAX counts,
 * ncpu: those of ALLOWED), and none of the options ALONE given with it
 * (NULL-terminated); 0, or -1 with the usage error printed for CMD. */
int pb_bench_copies_check(struct pb_cli *cli, const char *cmd, const char *arg,
			  const cpu_set_t *allowed, unsigned *out, size_t max, size_t *n,
			  const char *const *alone);

/* The system calls and bytes written of the N repetitions REPS, all of them
 * (--profile's and the counters' operations). */
void pb_bench_reps_ops(const struct pb_engine_result *reps, size_t n, double *syscalls,
		       double *bytes);

#endif
