/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format kcidb: a command's JSON document as a KernelCI KCIDB v5.3 report
 * (pipebench(1), "KCIDB"): {"version": {"major": 5, "minor": 3},
 * "checkouts", "builds", "tests"}.  The tests are the cases the command's
 * `lava_cases` makes (src/lava.h), fed through the same kit: one test per
 * check, measured figure and exit status, path pipebench.SET.CASE.
 *
 *   pass PASS, fail FAIL, skip SKIP, error ERROR;
 *   known-deviation PASS (the kernel does what Linux is known to do; the
 *     verdict and its reason are in misc), info DONE (no verdict);
 *   a check not run MISS; a figure DONE with number {value, unit, prefix};
 *   exit status 0 PASS, 1 FAIL, 4 SKIP, anything else ERROR.
 *
 * No key outside KCIDB's schema is written (it refuses them); pipebench's
 * own facts go in `misc`.
 */
#ifndef PB_KCIDB_H
#define PB_KCIDB_H

#include <stdio.h>

#include "cli.h"

struct json_object;

/* --kcidb-origin and --kcidb-build-id (pb_kcidb_opts). */
struct pb_kcidb_params {
	const char *origin;
	const char *build_id;
};
extern struct pb_kcidb_params pb_kcidb_params;
extern const struct pb_opt pb_kcidb_opts[];

/* The options' values checked for command CMD: 0, or -1 after a usage error. */
int pb_kcidb_check(const char *cmd);

/* The transform: DOC, a document of some command, as a KCIDB report onto FP. */
void pb_kcidb_doc(struct json_object *doc, FILE *fp);

/* What a verdict word (pass, fail, skip, known-deviation, info, error) is
 * as a KCIDB status; NULL for any other word. */
const char *pb_kcidb_status(const char *verdict);

#endif
