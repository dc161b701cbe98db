/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-command option parsing on top of popt.  popt has no subcommands, so
 * (as in authselect) each command gets its own popt context with the
 * common options table included; this module owns that table, --help,
 * stray-argument and --format/--output validation.
 */
#ifndef PB_CLI_H
#define PB_CLI_H

#include <popt.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd.h"

struct pb_common {
	const char *format_arg;  /* raw --format value or NULL */
	const char *output;      /* --output FILE or NULL for stdout */
	int quiet;
	int help;
	unsigned format;         /* index into the command's format list */
	const char *format_name; /* resolved format word */
};

struct pb_cli {
	const struct pb_cmd *cmd;
	poptContext pc;
	struct pb_common common;
	const char **args;  /* positional arguments (NULL-terminated), may be NULL */
	int nargs;
	/* popt keeps pointers to the tables for the context's lifetime. */
	struct poptOption common_tab[5], top_tab[3];
	struct poptOption cmd_tab[40];  /* the command's table, with vals set */
	char fmt_descrip[160];
	char prog[64];
	const char **argv;
};

/* Result of pb_cli_parse besides the exit codes. */
#define PB_CLI_CONTINUE (-1)

/*
 * Parse ARGV for CMD with OPTIONS (a popt table, POPT_TABLEEND-terminated,
 * without the common options) and the accepted FORMATS (first is the
 * default).  Positional arguments must number between MIN_ARGS and MAX_ARGS
 * (-1: unlimited).  Returns PB_CLI_CONTINUE to go on, or an exit status to
 * return at once (0 after --help, 2 after a usage error, already printed).
 * Call pb_cli_free when done.
 */
int pb_cli_parse(struct pb_cli *cli, const struct pb_cmd *cmd, int argc,
		 const char **argv, const struct poptOption *options,
		 const char *const *formats, int min_args, int max_args);

void pb_cli_free(struct pb_cli *cli);

/* Whether the --output path can be created (checked before any work). */
int pb_cli_check_output(const char *cmd, const char *path);

/*
 * --dir: VAL, or $TMPDIR/tmp when VAL is NULL, must be an existing writable
 * directory.  Stores the directory in *OUT; on failure prints the one-line
 * usage error naming --dir and returns -1.
 */
int pb_opt_dir(const char *cmd, const char *val, const char **out);

/*
 * --repeat, --warmup and --timeout of the benchmarking commands: popt fills
 * the strings (PB_BENCH_OPT_* table entries), pb_bench_opts_parse resolves
 * them (defaults 5, 1 and no limit) with the usual one-line errors, and
 * pb_bench_opts_free releases the strings.
 */
struct pb_bench_opts {
	char *repeat_s, *warmup_s, *timeout_s;
	uint64_t repeat, warmup, timeout_ns;
};
#define PB_BENCH_OPT_REPEAT(b, help) \
	{ "repeat", 'r', POPT_ARG_STRING, &(b)->repeat_s, 0, (help), "N" }
#define PB_BENCH_OPT_WARMUP(b) \
	{ "warmup", 'w', POPT_ARG_STRING, &(b)->warmup_s, 0, \
	  "unmeasured repetitions first (default 1)", "N" }
#define PB_BENCH_OPT_TIMEOUT(b) \
	{ "timeout", 't', POPT_ARG_STRING, &(b)->timeout_s, 0, \
	  "give up with exit 3 after this long, e.g. 90s (default: no limit)", "DURATION" }
int pb_bench_opts_parse(const char *cmd, struct pb_bench_opts *b);
void pb_bench_opts_free(struct pb_bench_opts *b);

/* Whether progress may be shown: stderr is a terminal and not --quiet. */
bool pb_cli_progress(const struct pb_cli *cli);

#endif
