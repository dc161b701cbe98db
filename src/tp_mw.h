/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * throughput --writers N --readers M: the rows of many writers and readers
 * on one pipe (contention.h runs one), measured, judged and written in
 * every format of the throughput command.
 */
#ifndef PB_TP_MW_H
#define PB_TP_MW_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "benchcmd.h"
#include "contention.h"
#include "endpoint.h"
#include "lava.h"
#include "output.h"
#include "stability.h"
#include "stats.h"

/* --wait's words: block in read() and write(), or O_NONBLOCK and poll(). */
enum pb_mw_wait { PB_MW_BLOCK, PB_MW_POLL, PB_MW_WAIT_COUNT };
extern const char *const pb_mw_wait_words[];

struct pb_tp_mw_params {
	const enum pb_kind *kinds;
	size_t nkinds;
	const uint64_t *sizes;
	size_t nsizes;
	unsigned waits;             /* bits of enum pb_mw_wait */
	unsigned writers, readers;
	uint64_t records;           /* per writer and repetition (--loops) */
	uint64_t duration_ns;       /* --duration: the whole run; 0: RECORDS decide */
	uint64_t repeat, warmup;
	long pipe_size;
	unsigned flags;
};

struct pb_tp_mw_cell {
	enum pb_kind kind;
	uint64_t size;
	enum pb_mw_wait wait;
	long pipe_size;
	size_t nreps;
	struct pb_mw_result *reps;
	struct pb_stats tt;
	enum pb_stab stab;
	char stab_why[240];
	uint64_t bad;               /* repetitions whose records were not all whole */
	char bad_why[200];          /* the first one's first failure */
};

struct pb_tp_mw {
	const struct pb_tp_mw_params *p;
	struct pb_tp_mw_cell *cells; /* size, wait, kind: kind fastest */
	size_t ncells;
	uint64_t per_run_ns;        /* with --duration: each run's share */
	unsigned failed;            /* rows with a failure of the kernel */
};

int pb_tp_mw_setup(struct pb_tp_mw *mw, const struct pb_tp_mw_params *p);
/* Every row's repetitions (after WARMUP unmeasured ones), kinds
 * interleaved; FIFOs in TMPDIR.  A torn, lost or duplicated record, or a
 * read or write that fails, is the kernel's failure: B's status 1, its
 * first one named; the harness's own (threads, descriptors) status 3. */
void pb_tp_mw_measure(struct pb_tp_mw *mw, struct pb_bench *b, const char *tmpdir);
void pb_tp_mw_free(struct pb_tp_mw *mw);

void pb_tp_mw_text(const struct pb_tp_mw *mw, FILE *fp);
struct json_object *pb_tp_mw_results_json(const struct pb_tp_mw *mw);
void pb_tp_mw_csv(const struct pb_tp_mw *mw, struct pb_csv *csv);
/* --format lava: a row of many writers and readers (R has "writers"):
 * KIND-SIZEB-NxM[-poll]-rate (B/s), -fairness, and -integrity pass or fail. */
void pb_tp_mw_lava(struct pb_lava *l, struct json_object *r);

#endif
