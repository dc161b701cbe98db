/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Comparison of pipebench JSON result documents (`pipebench compare`).
 *
 * Loading and validating documents, matching results between a BASE and a
 * NEW document, statistics per metric with Welch's t-test, verdict diffs
 * and the regression rule.  No printing and no exit(): errors come back as
 * -errno with a one-line reason in a caller's buffer.
 *
 * Matching is generic, so every command's documents (and `report`'s `parts`,
 * recursively) can be compared without knowing their layout:
 *  - a result is an element of `results[]` or `checks[]`;
 *  - it is identified by its `id` member when it has a string one, else by
 *    all its scalar members except metric-like ones (see pb_cmp_is_metric_key)
 *    and descriptive text (title, detail, ...);
 *  - its metrics are the numeric members of the objects in its
 *    `repetitions[]`, one sample per repetition;
 *  - a result without `repetitions` but with a string `verdict` or `status`
 *    is a verdict, diffed as a string.
 *
 * What a comparison cannot vouch for is reported, never silently dropped:
 * a run that failed (pb_cmp_run_failed), results measured in BASE but
 * skipped or missing in NEW (coverage lost), and totals such as times of
 * runs that did different work (not comparable; compared per unit of work).
 */
#ifndef PB_COMPARE_H
#define PB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

struct json_object;

/* Which way is worse for a metric. */
enum pb_cmp_dir {
	PB_CMP_NEUTRAL = 0,  /* workload definition or unknown: shown, never a regression */
	PB_CMP_LOWER,        /* lower is better (times, context switches, cost per op) */
	PB_CMP_HIGHER,       /* higher is better (rates) */
};

/* Significance level of the Welch t-test. */
#define PB_CMP_ALPHA 0.05
/* Default --threshold, percent. */
#define PB_CMP_DEFAULT_THRESHOLD 5.0

/* The direction table (compare.c): the one place that knows it. */
enum pb_cmp_dir pb_cmp_direction(const char *metric);

/* "lower-is-better", "higher-is-better" or "neutral". */
const char *pb_cmp_dir_name(enum pb_cmp_dir d);

/* Whether a result member named KEY is a measurement, not part of its identity. */
bool pb_cmp_is_metric_key(const char *key);

/* Whether METRIC counts the work done (bytes, messages, calls): neutral. */
bool pb_cmp_is_workload(const char *metric);

/*
 * Whether METRIC is a total that grows with the work done (times, CPU time,
 * context switches), as opposed to a rate or a cost per byte, message or
 * call.  Totals of runs that did different work are not comparable.
 */
bool pb_cmp_is_extensive(const char *metric);

/*
 * Whether DOC records a run that did not complete: an `exit_status` other
 * than 0 (pass) or 1 (fail), or a non-empty `errors`; for a `report`, the
 * first such part is named.  WHY gets a one-line reason, e.g. "the run failed
 * (exit status 3: --timeout: timed out after 5 s)".
 */
bool pb_cmp_run_failed(struct json_object *doc, char *why, size_t len);

/*
 * Read and parse PATH as exactly one JSON document that is a pipebench
 * result document of schema version PB_SCHEMA_VERSION: `tool` "pipebench",
 * string `command`, integer `schema_version`.  On success *doc owns a
 * reference.  On failure returns -errno (-EINVAL for content problems) and
 * writes the reason, without the file name, to ERR.
 */
int pb_cmp_load(const char *path, struct json_object **doc, char *err, size_t errlen);

/* pb_cmp_load's two halves: PATH's whole content in *BUF (NUL-terminated,
 * *LEN bytes before the NUL; the caller frees it), 0 or -errno; and BUF's
 * LEN bytes parsed and checked as pb_cmp_load does. */
int pb_cmp_read_file(const char *path, char **buf, size_t *len);
int pb_cmp_parse(const char *buf, size_t len, struct json_object **doc, char *err,
		 size_t errlen);

/*
 * Whether NEW may be compared with BASE at all: same command (in `parts`
 * too) and same schema_version.  0 or -EINVAL with the reason in ERR.
 */
int pb_cmp_compatible(struct json_object *base, struct json_object *new_doc,
		      char *err, size_t errlen);

/*
 * Names of `params` members that differ between BASE and NEW (members of
 * `report` parts prefixed with the part name and a dot), comma-separated in
 * BUF; returns how many.  Settings that do not change what one repetition
 * measures (repeat, warmup, timeout_ns, the checks or modes selected) and
 * the FIFO directory are left out.
 */
size_t pb_cmp_params_diff(struct json_object *base, struct json_object *new_doc,
			  char *buf, size_t len);

/* The same for the FIFO directory (`dir`, of the document and of each
 * part), which pb_cmp_params_diff leaves out: a different directory never
 * makes documents incomparable, but compare names it. */
size_t pb_cmp_dirs_diff(struct json_object *base, struct json_object *new_doc,
			char *buf, size_t len);

/*
 * The machine state that governs a figure, where BASE and NEW differ:
 * run.cpu.model, run.virtualization, and of run.state the cpufreq driver,
 * governor and boost, the cpuidle driver, SMT, every mitigation both
 * record, the cgroup's CPU limit and cpus; and the page and pipe sizes of
 * system.  A key is compared only where both documents have it (an older
 * document has no run.state).  Names, comma-separated, in BUF; returns
 * how many.
 */
size_t pb_cmp_state_diff(struct json_object *base, struct json_object *new_doc,
			 char *buf, size_t len);

/* With this many samples on each side the rank test (Mann-Whitney U)
 * decides significance, Welch's t-test below: pipe timings are long-tailed
 * and sometimes bimodal, and a rank test is not thrown by one outlier, but
 * with fewer samples it cannot reach p < 0.05 (3 against 3: 0.1 at best). */
#define PB_CMP_RANK_MIN_N 5

/* One metric of one matched result. */
struct pb_cmp_metric {
	char *part;              /* report part name, or NULL */
	char *label;             /* identity, e.g. "kind=anon size_bytes=100" */
	struct json_object *ids; /* identity members (owned reference) */
	char *metric;            /* e.g. "tt_ns" */
	enum pb_cmp_dir dir;
	struct pb_stats base, cur;
	double change_pct;       /* NAN when the base mean is 0 */
	double p;                /* the deciding test's p-value, or -1 when n/a */
	double p_welch;          /* Welch's t-test (means), or -1 */
	double p_rank;           /* Mann-Whitney U (ranks), or -1 */
	bool by_rank;            /* Mann-Whitney decided (PB_CMP_RANK_MIN_N a side) */
	double shift, shift_lo, shift_hi; /* Hodges-Lehmann shift NEW - BASE and its
				    95% interval (NAN: none) */
	bool significant;        /* p < PB_CMP_ALPHA */
	bool regression;         /* significant, worse, and beyond the threshold */
	bool comparable;         /* false: a total of runs that did different work,
				    shown but never a regression */
	bool derived;            /* computed by compare: a total per unit of work
				    (e.g. tt_ns_per_byte), when totals are not comparable */
	bool inconclusive;       /* a side's result is not stable (its stability
				    verdict): never a regression */
	bool side;               /* does not gate (pb_cmp_gates): never a regression */
	bool detail;             /* not a headline figure (pb_cmp_is_detail): gates
				    only when --metrics names it */
	char base_stab[12], cur_stab[12]; /* the results' stability verdicts, or "" */
	char *moved;             /* --profile on both sides: the categories that moved
				    most, in words; NULL otherwise */
};

/*
 * Whether METRIC may fail a comparison: it matches one of PATTERNS (comma-
 * separated shell patterns, --metrics) or, PATTERNS NULL, is not a side
 * counter (context switches, CPU time, migrations, page faults, cycles,
 * instructions, cache misses: shown, but a noisy
 * run's side counters are no reason to fail a kernel).
 */
bool pb_cmp_gates(const char *metric, const char *patterns);

/* Whether METRIC is a rate (rate_*, *_per_s). */
bool pb_cmp_is_rate(const char *metric);

/*
 * Whether METRIC of a result is a detail rather than a headline figure: a
 * total time in a result that also has a rate (HAS_RATE: throughput's
 * tt_ns, tw_ns and tr_ns beside rate_bytes_per_s and ns_per_syscall; the
 * elapsed time beside messages or round trips per second), or a round
 * trip's extremes (rtt_min_ns, rtt_max_ns, rtt_stddev_ns, rtt_p99_9_ns,
 * rtt_p99_99_ns).  compare's text shows details with --all-metrics; they
 * gate only when --metrics names them.
 */
bool pb_cmp_is_detail(const char *metric, bool has_rate);

/* Whether M is a workload count (pb_cmp_is_workload) that changed by more
 * than 1%: the runs did different work, so their totals compare per unit. */
bool pb_cmp_workload_changed(const struct pb_cmp_metric *m);

/* One verdict that differs (or exists on one side only). */
struct pb_cmp_verdict {
	char *part;
	char *label;
	struct json_object *ids;
	char *key;               /* "status" or "verdict" */
	char *base;              /* NULL: absent in BASE */
	char *cur;               /* NULL: absent in NEW */
	bool regression;         /* became fail or error */
};

/* A result measured in BASE that NEW skipped or lacks (coverage lost). */
struct pb_cmp_lost {
	char *part;
	char *label;             /* "(all results)" for a whole report part */
	struct json_object *ids; /* NULL for a whole part */
	char *why;               /* e.g. "skip in NEW: needs root" */
};

struct pb_cmp_result {
	struct pb_cmp_metric *m;
	size_t nm;
	struct pb_cmp_verdict *v;
	size_t nv;
	struct pb_cmp_lost *lost;
	size_t nlost;
	size_t verdicts_same;    /* matched verdicts that did not change */
	size_t only_base, only_new; /* metric results found on one side only */
	size_t regressions;      /* metrics and verdicts flagged */
	size_t inconclusive;     /* metrics of results not stable on a side */
	size_t not_comparable;   /* metrics with comparable == false */
	size_t base_results, new_results; /* results (and checks) on each side */
	size_t matched;          /* BASE results matched with something compared */
	size_t paired;           /* BASE results with a NEW one of the same identity */
};

struct pb_cmp_opts {
	/* Comma-separated members left out of identities (--force with
	 * differing parameters, "part.key" for report parts); may be NULL. */
	const char *ignore;
	/* Parameters of this NEW that differ from BASE's, as from
	 * pb_cmp_params_diff: the totals of the (parts of the) documents they
	 * name are not comparable.  May be NULL. */
	const char *differ;
	double threshold_pct;
	/* The metrics that gate (pb_cmp_gates; NULL: the default). */
	const char *metrics;
};

/*
 * Compare NEW with BASE (both already checked with pb_cmp_compatible).
 * Totals (pb_cmp_is_extensive) of results whose parameters differ or whose
 * workload counts changed by more than 1% are not comparable; each is then
 * also compared per unit of work (per message, byte or syscall, the first
 * the result counts).  0 or -ENOMEM.  Free with pb_cmp_result_free.
 */
int pb_cmp_compare(struct json_object *base, struct json_object *new_doc,
		   const struct pb_cmp_opts *opts, struct pb_cmp_result *out);

/* Frees what R holds and leaves it empty: freeing it again does nothing. */
void pb_cmp_result_free(struct pb_cmp_result *r);

/*
 * Statistics, change and significance of one metric from samples; the
 * regression flag follows DIR and THRESHOLD_PCT.  0, -EINVAL (no samples) or
 * -ENOMEM.
 */
int pb_cmp_metric_eval(struct pb_cmp_metric *m, const double *base, size_t nb,
		       const double *cur, size_t nc, double threshold_pct);

/* Regression rule: significant, worse in direction DIR, |change| > threshold. */
bool pb_cmp_is_regression(enum pb_cmp_dir dir, double change_pct, bool significant,
			  double threshold_pct);

/* Verdict rule: a change to "fail" or "error" from anything else. */
bool pb_cmp_verdict_regression(const char *base, const char *cur);

#endif
