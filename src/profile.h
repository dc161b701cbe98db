/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --profile: where the time of a measured loop goes.  Each party samples
 * its own thread with perf_event_open(2) (software cpu-clock: it works in
 * virtual machines without a PMU) only while its measured loop runs; the
 * samples' instruction pointers are counted in a table of fixed size that
 * may live in memory shared with the party's process; after the run the
 * kernel's addresses are resolved through /proc/kallsyms, ranked, and put
 * in categories (timestamps, copy, locking, ...) by a table of function
 * name patterns (pb_prof_category_rules), whatever is unmatched in
 * "other", never dropped.
 */
#ifndef PB_PROFILE_H
#define PB_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include <stdio.h>
#include <sys/types.h>

/* The sampling period: a sample every 1 ms of CPU time (1 kHz).  Each
 * sample is a timer interrupt, dear in a virtual machine: at 4 kHz a
 * 2-CPU VM's fill/drain loop took 8% longer, at 1 kHz about 2%
 * (bench/bench-profile.sh measures it). */
#define PB_PROF_PERIOD_NS 1000000ULL

/* Distinct instruction pointers a row keeps; more are counted as "other". */
#define PB_PROF_MAX_IPS 4096

enum pb_prof_cat {
	PB_PROF_TIMESTAMPS, PB_PROF_COPY, PB_PROF_LOCKING, PB_PROF_SYSCALL, PB_PROF_SCHED,
	PB_PROF_MEMORY, PB_PROF_SECURITY, PB_PROF_PIPE, PB_PROF_USER, PB_PROF_OTHER,
	PB_PROF_NCAT
};
extern const char *const pb_prof_cat_names[];   /* "timestamps", ... JSON keys */
extern const char *const pb_prof_cat_words[];   /* "timestamp updates", ... in text */

/* The category table: a kernel function whose name matches PATTERN
 * (fnmatch) is in CAT; the first rule that matches decides. */
struct pb_prof_rule {
	const char *pattern;
	enum pb_prof_cat cat;
};
extern const struct pb_prof_rule pb_prof_category_rules[];

/* The samples of one row (or party): instruction pointers and counts. */
struct pb_prof_ip {
	uint64_t ip, count;
	bool kernel;
};

struct pb_prof_ips {
	uint64_t samples, kernel, user, lost;
	uint64_t overflow;          /* kernel samples past the table (in kernel too) */
	uint32_t n;
	struct pb_prof_ip e[PB_PROF_MAX_IPS];
};

/* A sampler: one ring (the calling thread) or one per CPU. */
struct pb_prof_ring {
	int fd;
	void *base;
	size_t len;
};

struct pb_prof {
	struct pb_prof_ring *ring;
	int nring;
	uint64_t period_ns;
	bool user_only;             /* the kernel refused kernel samples */
	bool per_cpu;               /* every task on the CPUs: PIDS' samples count */
	pid_t *pids;                /* malloc'd */
	int npids, cap;
};

/*
 * Open a sampler of the calling thread, disabled, every PERIOD_NS of its
 * CPU time.  Kernel and user samples when allowed, else user samples only
 * (P->user_only, the reason in WHY).  0, or -errno with the reason in WHY
 * (perf_event_paranoid, seccomp, no perf events).  A per-task cpu-clock
 * event starts and stops a timer at each of the thread's context
 * switches, which costs microseconds in a virtual machine: fine for a
 * loop that does not switch, not for ping-pong.
 */
int pb_prof_open(struct pb_prof *p, uint64_t period_ns, char *why, size_t len);
/*
 * Open one sampler on each CPU of CPUS instead (needs what system-wide
 * perf needs: CAP_PERFMON or perf_event_paranoid 0 or less): its timer
 * runs whatever runs there, so context switches cost nothing more; only
 * the samples of the processes given to pb_prof_filter count.
 */
int pb_prof_open_cpus(struct pb_prof *p, uint64_t period_ns, const cpu_set_t *cpus, char *why,
		      size_t len);
/* Count the samples of process PID too (per CPU); 0 or -ENOMEM.
 * pb_prof_filter_reset forgets them all (a new run's processes). */
int pb_prof_filter(struct pb_prof *p, pid_t pid);
void pb_prof_filter_reset(struct pb_prof *p);
void pb_prof_enable(struct pb_prof *p);
void pb_prof_disable(struct pb_prof *p);
/* Move the samples taken so far into INTO (NULL: drop them). */
void pb_prof_drain(struct pb_prof *p, struct pb_prof_ips *into);
void pb_prof_close(struct pb_prof *p);

/* Add A's samples to SUM. */
void pb_prof_merge(struct pb_prof_ips *sum, const struct pb_prof_ips *a);

/* The kernel's symbols, from /proc/kallsyms. */
struct pb_prof_syms;
/* 0, or -errno with the reason in WHY (hidden by kptr_restrict, unreadable);
 * *S is usable (it resolves nothing) either way. */
int pb_prof_syms_load(struct pb_prof_syms **s, const char *path, char *why, size_t len);
void pb_prof_syms_free(struct pb_prof_syms *s);
/* The category of the kernel function NAME. */
enum pb_prof_cat pb_prof_categorize(const char *name);

#define PB_PROF_TOP 10

struct pb_prof_top {
	char name[64];
	uint64_t samples;
};

/* How far a share of N samples may be off, 95% of the time (a fraction):
 * the binomial interval's half-width at a share of one half. */
double pb_prof_share_margin(uint64_t n);

/* A row's profile, resolved: the top kernel functions (from kallsyms) and
 * the top user-space ones (this program's own symbol table, its libraries'
 * through dladdr; "[user]" where neither names one). */
struct pb_prof_summary {
	uint64_t samples, kernel, user, lost;
	uint64_t cat[PB_PROF_NCAT];
	struct pb_prof_top top[PB_PROF_TOP], top_user[PB_PROF_TOP];
	size_t ntop, ntop_user;
};

void pb_prof_summarize(const struct pb_prof_syms *s, const struct pb_prof_ips *ips,
		       struct pb_prof_summary *out);

/*
 * The row's "profile" object: samples, period, the top kernel functions
 * with their share of all samples and of kernel samples, each category's
 * share and its time per OPS_UNIT (OPS of them in the measured
 * repetitions; e.g. "syscall", "round_trip"), and per byte when BYTES.
 */
struct json_object;
struct json_object *pb_prof_json(const struct pb_prof_summary *sm, uint64_t period_ns,
				 double ops, const char *ops_unit, double bytes);
/* The row's profile in text: the categories that have samples, the top
 * kernel functions; each line starts with INDENT. */
void pb_prof_text(FILE *fp, const char *indent, const struct pb_prof_summary *sm,
		  uint64_t period_ns, double ops, const char *ops_unit);

/* CSV: the row's share of each category, profile_CATEGORY_share (empty
 * where SM is NULL or has no samples), on each repetition's line. */
struct pb_row;
void pb_prof_row_fields(struct pb_row *r, const struct pb_prof_summary *sm);

/* A command's --profile: whether sampling works here (else why), and the
 * kernel's symbols for the rows' summaries. */
struct pb_prof_run {
	bool on;                    /* --profile given */
	bool ok;                    /* a sampler could be opened here */
	bool user_only;             /* kernel samples refused */
	bool per_cpu;               /* samplers on each CPU (else of each party's thread) */
	char why[256];              /* why not, or why user samples only */
	struct pb_prof_syms *syms;
	char syms_why[200];         /* why kernel functions are not named ("" they are) */
	uint64_t period_ns;
};

/* --profile ON: try a sampler on each CPU this process may use when
 * WANT_CPUS (the parties switch), else or when refused one of this thread
 * (closed again: each run opens its own), and load the kernel's symbols.  Never a harness error: what
 * cannot be done is said in R->why and R->syms_why. */
void pb_prof_run_begin(struct pb_prof_run *r, bool on, bool want_cpus);
void pb_prof_run_end(struct pb_prof_run *r);
/* The document's "profile" object (null without --profile). */
struct json_object *pb_prof_run_json(const struct pb_prof_run *r);
/* The text's "profile" line (nothing without --profile). */
void pb_prof_run_text(const struct pb_prof_run *r, FILE *fp);

#endif
