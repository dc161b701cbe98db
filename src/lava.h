/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef PB_LAVA_H
#define PB_LAVA_H

#include <stdbool.h>
#include <stdio.h>

struct json_object;

/*
 * LAVA test-shell signals (man page, --format lava): the dispatcher reads
 * them from the console.  `--format lava` is the command's JSON document
 * turned into signals when pb_out_finish() writes it (the transform in
 * src/format.c): one test set per document, named after the command (a
 * report: one per part first), holding the cases the command's
 * `lava_cases` (struct pb_cmd) makes of its document, then exit-status.
 * This is the kit those functions use.  Case and set names keep only
 * [A-Za-z0-9_.-] (anything else becomes '_').
 */
struct pb_lava;

/*
 * Where the cases go instead of signals: --format kcidb's report
 * (src/kcidb.h), grid's columns (src/grid.h).  Each gets the case's name as
 * the command made it (not yet reduced to LAVA's characters).
 */
struct pb_lava_sink {
	void (*kase)(const struct pb_lava *l, const char *name, const char *result);
	void (*measure)(const struct pb_lava *l, const char *name, double v, const char *units);
	/* DOC's exit status (DOC NULL: a report part that left no document). */
	void (*exit)(const struct pb_lava *l, struct json_object *doc);
};

struct pb_lava {
	FILE *fp;
	bool open;           /* a test set is open */
	const struct pb_lava_sink *sink;  /* NULL: LAVA signals onto FP */
	void *ctx;           /* the sink's own */
	char set[128];       /* the open set's name */
	struct json_object *doc;  /* the document whose cases follow */
	/* The document object the next cases are made of (a check, a
	 * measured row; pb_lava_item), or NULL: a sink takes a check's own
	 * verdict, detail and duration, or a row's parameters, from it. */
	struct json_object *item;
};

/* "<LAVA_SIGNAL_TESTSET START SET>" (closing the open one). */
void pb_lava_begin(struct pb_lava *l, FILE *fp, const char *set);
/* A case with RESULT pass, fail, skip or unknown; the name is printf'd. */
void pb_lava_case(struct pb_lava *l, const char *result, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A measurement case (RESULT=pass, or unknown when V is not finite). */
void pb_lava_measure(struct pb_lava *l, double v, const char *units, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* NAME-stable of a measured ROW with a stability verdict: pass when it is
 * stable, skip (do not compare its figures) when it is not; nothing for a
 * row without one. */
void pb_lava_stability(struct pb_lava *l, struct json_object *row, const char *name);
/* --profile: a row's categories as measurements NAME-profile-CATEGORY, the
 * share of its samples in percent (none without a profile). */
void pb_lava_profile(struct pb_lava *l, struct json_object *row, const char *name);
/* "<LAVA_SIGNAL_TESTSET STOP>" when a set is open. */
void pb_lava_end(struct pb_lava *l);
/* The object the following cases come from (NULL: none). */
void pb_lava_item(struct pb_lava *l, struct json_object *item);
/* The exit-status case of DOC, a command's document. */
void pb_lava_exit(struct pb_lava *l, struct json_object *doc);
/* A verdict word as a LAVA result: pass, fail, skip; known-deviation and
 * info are pass; error and anything else unknown (LAVA has no error). */
const char *pb_lava_result(const char *verdict);
/* An exit status as a LAVA result: 0 pass, 1 fail, 4 skip, else unknown. */
const char *pb_lava_exit_result(int status);
/* SRC with every character outside [A-Za-z0-9_.-] replaced by '_'. */
void pb_lava_name(char *dst, size_t len, const char *src);
/* A plain decimal number (no exponent, no trailing zeros) into BUF. */
void pb_lava_number(double v, char *buf, size_t len);

/* --expect: an `expectations` case, pass or fail, when DOC says whether
 * its expectations hold (summary.expectations_hold). */
void pb_lava_expectations(struct pb_lava *l, struct json_object *doc);
/*
 * The timestamp probes of the targets in the array A (timestamps' results,
 * o_noatime's timestamps): a case PREFIXKIND.OPERATION.TIME
 * (anon.write.mtime) per probed operation and time.  What the kernel did is
 * the measurement, never the name: the fraction of the repetitions in which
 * the operation changed that time (1 updated, 0 unchanged, between them
 * inconsistent), UNITS=ratio.  An operation the kernel refuses, or a time no
 * repetition could judge, is skip.
 */
void pb_lava_ts_targets(struct pb_lava *l, const char *prefix, struct json_object *a);

#endif
