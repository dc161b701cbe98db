/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The --format vocabulary of a command: its own rows (struct pb_format in
 * cmd.h) and the document transforms, registered once here.  A transform
 * rewrites the JSON document a command builds as it is written
 * (pb_out_set_transform); it is offered to each command that supplies what
 * it needs through its `struct pb_cmd` entry, so no output code names a
 * command.  HACKING, "Adding an output format".
 */
#ifndef PB_FORMAT_H
#define PB_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cmd.h"

struct json_object;
struct pb_opt;

struct pb_transform {
	const char *name;     /* the --format word */
	const char *from;     /* the command's format it rewrites ("json") */
	/* Whether CMD supplies what the transform needs. */
	bool (*offered)(const struct pb_cmd *cmd);
	/* DOC, a document of some command, rewritten onto FP. */
	void (*apply)(struct json_object *doc, FILE *fp);
	/* Options of the transform's own (cli.h rows), offered with it and
	 * stored in PARAMS; CHECK judges them when the transform is chosen
	 * (0, or -1 after a usage error).  NULL: none. */
	const struct pb_opt *opts;
	void *params;
	size_t params_size;
	int (*check)(const char *cmd);
};

/* Every transform, ended by a row with a NULL name. */
extern const struct pb_transform pb_transforms[];

#define PB_FORMAT_MAX_WORDS 16

/*
 * CMD's --format words: its rows' names, then the transforms it is offered
 * (the default first), NULL-terminated.  The array is CMD's until the next
 * call for another command.
 */
const char *const *pb_format_words(const struct pb_cmd *cmd);

/* CMD's row called NAME, or NULL. */
const struct pb_format *pb_format_find(const struct pb_cmd *cmd, const char *name);

/* The transform called NAME offered to CMD, or NULL. */
const struct pb_transform *pb_transform_find(const struct pb_cmd *cmd, const char *name);

/* --format lava: the test sets of one pipebench JSON document (lava.h). */
void pb_lava_doc(struct json_object *doc, FILE *fp);
/* The sets and cases of DOC (a report's parts first) through the kit L,
 * which writes them as LAVA signals or collects them (--format kcidb). */
struct pb_lava;
void pb_cases_doc(struct pb_lava *l, struct json_object *doc, FILE *fp);

#endif
