/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a measured row can be believed: its stability verdict (man page
 * "STABILITY").  A verdict, never a failure: no exit status changes for it.
 *
 *   disturbed  the machine was busy elsewhere during the run: other work
 *              used more than PB_STAB_OTHERS_PCT of the time of the CPUs
 *              the run may use (where that is not known, a run too short:
 *              the load average at the start above their number), steal
 *              time above PB_STAB_STEAL_PCT, the cgroup throttled it, or
 *              the row's parties migrated between CPUs: at all when they
 *              were pinned (the affinity changed under the run), more
 *              than once per PB_STAB_MIGRATE_EVERY operations when not
 *   bimodal    the round trips fall into two separate groups (two modes of
 *              the histogram, each with PB_STAB_MODE_PCT of the values
 *              or more, a valley between them)
 *   noisy      the repetitions disagree: coefficient of variation above
 *              PB_STAB_RSD_PCT or spread (max - min) / median above
 *              PB_STAB_SPREAD_PCT
 *   stable     none of these
 *
 * The first that holds is the verdict; the reason names every one that
 * holds, with its figures.
 */
#ifndef PB_STABILITY_H
#define PB_STABILITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "histogram.h"
#include "stats.h"

#define PB_STAB_RSD_PCT 5.0
#define PB_STAB_SPREAD_PCT 20.0
#define PB_STAB_STEAL_PCT 2.0
#define PB_STAB_OTHERS_PCT 25.0
#define PB_STAB_MODE_PCT 10.0
#define PB_STAB_MIGRATE_EVERY 100

enum pb_stab { PB_STAB_STABLE, PB_STAB_NOISY, PB_STAB_BIMODAL, PB_STAB_DISTURBED };

extern const char *const pb_stab_names[];  /* "stable", "noisy", ... */

/* The run's machine: what disturbs every row alike. */
struct pb_stab_machine {
	double load;          /* the 1-minute load average at the start; < 0 unknown */
	long cpus;            /* CPUs the run may use; <= 0 unknown */
	double steal_pct;     /* of all CPU time during the run; < 0 unknown */
	double others_pct;    /* CPU time others used, of all; < 0 unknown */
	long long throttled;  /* cgroup periods throttled during the run; < 0 unknown */
	/* the row's own, where it counts them (latency): */
	long long migrations; /* its parties' migrations; <= 0 none or unknown */
	long long ops;        /* its operations (round trips) */
	bool pinned;          /* its parties were pinned to their CPUs */
};

/* The machine now, against pb_machine_mark_start: load, allowed CPUs,
 * steal, others' CPU time and throttling. */
void pb_stab_machine_now(struct pb_stab_machine *m);

/* Two modes of a histogram: where each lies (the median of its values, in
 * ns) and its share of the values, in percent, lower first. */
struct pb_stab_modes {
	double at_ns[2], pct[2];
};

/* Whether H has two modes (see above); when it does and MODES is not NULL,
 * they are stored there. */
bool pb_stab_bimodal(const struct pb_hist *h, struct pb_stab_modes *modes);

/*
 * The verdict of a row: REPS the statistics of its repetitions' headline
 * figure (NULL: none), HIST its values' histogram (NULL: none), M the
 * machine (NULL: unknown).  WHY gets the reasons ("load average 5.30 on 2
 * CPUs; spread 31.6%"), or the figures that make it stable.
 */
enum pb_stab pb_stab_judge(const struct pb_stats *reps, const struct pb_hist *hist,
			   const struct pb_stab_machine *m, char *why, size_t len);

/* A result's verdict as fields of its row (output.h): stability and
 * stability_reason, in JSON and as CSV columns. */
struct pb_row;
void pb_stab_fields(struct pb_row *r, enum pb_stab v, const char *why);

/*
 * Text output: the verdicts of a command's rows under a "stability"
 * heading of WIDTH columns: each row that is not stable on a line of its
 * own ("fifo 4 KiB: noisy: CV 7.1%, spread 19.4% over 5 repetitions"),
 * then how many are, or one line when all are.
 */
struct pb_stab_text {
	FILE *fp;
	int width;
	unsigned rows, stable, lines;
};
void pb_stab_text_begin(struct pb_stab_text *t, FILE *fp, int width);
void pb_stab_text_row(struct pb_stab_text *t, const char *label, enum pb_stab v,
		      const char *why);
void pb_stab_text_end(struct pb_stab_text *t);

#endif
