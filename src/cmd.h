/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command table: one `struct pb_cmd` per subcommand, defined in its own
 * cmd_<name>.c file.  cmd.c holds the table, which is the single source for
 * the command list in --help, the man-page test and completion.
 */
#ifndef PB_CMD_H
#define PB_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Exit statuses, documented in pipebench(1) EXIT STATUS. */
enum pb_exit {
	PB_EXIT_OK = 0,      /* everything requested ran and passed */
	PB_EXIT_FAIL = 1,    /* a check failed / expectation did not hold / regression */
	PB_EXIT_USAGE = 2,   /* bad command, flag, value or file; nothing was run */
	PB_EXIT_ERROR = 3,   /* resource failure, watchdog, output write error */
	PB_EXIT_NA = 4,      /* nothing applicable: all skipped or unsupported */
};

struct pb_opt;
struct pb_cli;
struct pb_sysinfo;
struct pb_lava;
struct json_object;

/*
 * One --format a command writes (HACKING, "Adding an output format").  A
 * command lists its formats as an array of these rows, the default first,
 * ended by PB_FORMAT_END; the command's exec calls pb_cli_emit() (cli.h),
 * which calls the chosen row's emitter.  The document transforms (lava)
 * are not rows: src/format.c offers them to every command that supplies
 * what they need.
 */
struct pb_format {
	const char *name;    /* the --format word */
	/* Write the command's result RUN (the command's own run structure),
	 * measured on SI, to FP.  NULL: the command writes this format itself
	 * (plot's images). */
	void (*emit)(const void *run, const struct pb_sysinfo *si, FILE *fp);
	bool text;           /* the human-readable text (default of most commands) */
	const char *exts;    /* --output extensions that mean this format (plot), or NULL */
	int arg;             /* the command's own datum for the format (plot: the terminal) */
};
#define PB_FORMAT_END { .name = NULL }

/*
 * A command's static facts; cli.c's pb_cmd_run does the rest: options
 * (the rows in OPTS plus the common ones), formats, operand counts.
 */
struct pb_cmd {
	const char *name;
	const char *summary;   /* one line for `pipebench --help` */
	const char *args;      /* shown after [OPTION...] in usage, or NULL */
	const struct pb_opt *opts;      /* the command's option rows (cli.h), PB_OPT_END */
	const struct pb_format *formats;  /* its --format rows, the default first */
	int min_args, max_args;         /* operands; max_args -1: no limit */
	const char *operands;           /* what operands are, for completion ("file"), or NULL */
	size_t params_size;             /* the struct the rows' values land in */
	/* After conversion: cross-checks and derived values; 0, or -1 after a
	 * usage error was printed.  May be NULL. */
	int (*check)(struct pb_cli *cli, void *params);
	/* The work; returns an enum pb_exit value. */
	int (*exec)(struct pb_cli *cli, void *params);
	/* --format lava (src/lava.h): the test cases of a JSON document of
	 * this command, in the set the transform opens for it.  NULL: the
	 * command has no --format lava. */
	void (*lava_cases)(struct pb_lava *l, struct json_object *doc);
};

extern const struct pb_cmd pb_cmd_throughput;
extern const struct pb_cmd pb_cmd_report;
extern const struct pb_cmd pb_cmd_compare;
extern const struct pb_cmd pb_cmd_bisect;
extern const struct pb_cmd pb_cmd_conformance;
extern const struct pb_cmd pb_cmd_messaging;
extern const struct pb_cmd pb_cmd_timestamps;
extern const struct pb_cmd pb_cmd_o_noatime;
extern const struct pb_cmd pb_cmd_latency;
extern const struct pb_cmd pb_cmd_plot;
extern const struct pb_cmd pb_cmd_grid;

/* NULL-terminated table of every command, in --help order. */
extern const struct pb_cmd *const pb_cmds[];

/* Look a command up by name; NULL if there is none. */
const struct pb_cmd *pb_cmd_find(const char *name);

/* The command closest to a misspelt NAME, or NULL. */
const struct pb_cmd *pb_cmd_guess(const char *name);

/* Combine two statuses: error beats failure beats n/a-or-pass (HACKING, "Exit status"). */
int pb_exit_merge(int a, int b);

/* What a report part's exit STATUS (-1: it did not run) counts as in the
 * report's status: a usage error or a part that did not run is an error of
 * report's own, "nothing applicable" does not count, the rest as is. */
int pb_exit_of_part(int status);

/*
 * Record a command's outcome: STATUS into *STATUS_OUT and the printf
 * message into BUF (the one line printed and put in the document).
 * Commands wrap it as set_error(run, status, fmt, ...).
 */
void pb_status_set(int *status_out, char *buf, size_t len, int status, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
#define PB_SET_ERROR(run, st, ...) \
	pb_status_set(&(run)->status, (run)->error, sizeof((run)->error), (st), __VA_ARGS__)

/*
 * pb_tmpdir_make(BASE) into OUT (LEN bytes).  When it fails, OUT is
 * emptied and the run's status set to ST (PB_EXIT_ERROR) with "cannot make
 * a directory in BASE: why".  Returns pb_tmpdir_make's result.  Commands
 * call it as PB_TMPDIR_MAKE(run, base, out) with the same run as
 * PB_SET_ERROR.
 */
int pb_tmpdir_make_or_error(const char *base, char *out, size_t len, int *status, char *error,
			    size_t errlen, int st);
#define PB_TMPDIR_MAKE(run, base, out) \
	pb_tmpdir_make_or_error((base), (out), sizeof(out), &(run)->status, (run)->error, \
				sizeof((run)->error), PB_EXIT_ERROR)

#endif
