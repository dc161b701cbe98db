/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Options as typed rows (git's parse-options is the model).  A command
 * declares each option once, as a `struct pb_opt` row: long name, short
 * letter, type, bounds, default as the user would type it, argument name
 * and help.  This module turns the rows into a popt table (popt has no
 * subcommands, so each command gets its own context with the common rows
 * included), refuses an option given twice (flags too), converts every
 * value with the one parser of units.h (bounds and words included, the
 * default through the same converter), stores it at the row's offset in the
 * command's params struct, and prints --help and the --list-* answers from
 * the same rows.  Commands receive converted values and free no strings
 * (string values stay valid until the command's exec returns).
 *
 * Adding an option: add a member to the command's params struct and one row
 * to its table, e.g.
 *   { PB_OPT("loops", 'n', PB_OPT_COUNT, struct tp_params, loops), .min = 1,
 *     .max = 1000000000ULL, .def = "10000", .arg = "N",
 *     .help = "fill/drain loops per repetition" },
 * then document it in man/pipebench.1 (tests/manpage.sh checks the page,
 * the letter table included, from --list-options).  A short letter must
 * mean the same option in every command (tests/cli.sh and check_cli
 * fail otherwise).  Two options that exclude each other are a row's
 * `.excludes`; other checks that involve several options go in the
 * command's `check` function.
 */
#ifndef PB_CLI_H
#define PB_CLI_H

#include <popt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd.h"

enum pb_opt_type {
	PB_OPT_FLAG,      /* int: 1 when given */
	PB_OPT_COUNT,     /* uint64_t: plain decimal in [min, max] */
	PB_OPT_SIZE,      /* uint64_t: bytes, K/M/G suffixes, in [min, max] */
	PB_OPT_SIZES,     /* uint64_t[max_items], count in the size_t at off_n */
	PB_OPT_DURATION,  /* uint64_t nanoseconds: "5", "500ms", in [min, max] ns */
	PB_OPT_DOUBLE,    /* double in [dmin, dmax] */
	PB_OPT_WORD,      /* unsigned: index into words (case-insensitive) */
	PB_OPT_WORDS,     /* unsigned: bit i set for words[i], comma list */
	PB_OPT_CPUS,      /* cpu_set_t: "0,2-3" */
	PB_OPT_DIR,       /* const char *: a writable directory ($TMPDIR or /tmp if not given) */
	PB_OPT_FILE,      /* const char *: a path */
	PB_OPT_STRING,    /* const char *: checked by the command */
};

struct pb_opt {
	const char *name;          /* long name without "--"; NULL ends a table */
	char letter;               /* short letter, or 0 (see the man page's letter table) */
	enum pb_opt_type type;
	size_t off;                /* where the value lands in the params struct */
	size_t off_n;              /* PB_OPT_SIZES: where the item count (size_t) lands */
	uint64_t min, max;         /* count, size, sizes, duration (ns) */
	double dmin, dmax;         /* double */
	size_t max_items;          /* sizes */
	const char *const *words;  /* word, words: the vocabulary (NULL: the command's --format
				      words, format.h) */
	unsigned allowed;          /* word, words: bit i when this command accepts words[i]
				      (0: every word); --help, --list-options and completion
				      show only those */
	const char *def;           /* default as typed, converted like a given value; or NULL */
	const char *def_help;      /* shown as "(default: ...)" when def is NULL, or NULL */
	const char *arg;           /* argument name in --help ("N", "LIST") */
	const char *help;          /* without the default: --help adds "(default X)" */
	bool list;                 /* string: a comma list (for the repeated-option hint) */
	bool if_given;             /* dir: not checked (left NULL) when not given */
	const char *excludes;      /* the long name of an option not to be given with this
				      one, or NULL: one usage error names both */
};

/*
 * Start of a row: long name, letter, type, params struct, member.  The
 * member's C type must be the one the row's type stores (the list above):
 * a COUNT row aimed at an `unsigned`, or a WORD row at a uint64_t, does not
 * compile ("size of unnamed array is negative"), as git's OPT_UNSIGNED
 * refuses such a row.
 */
#define PB_OPT(L, S, TYPE, T, F) \
	.name = (L), .letter = (S), .type = (TYPE), \
	.off = offsetof(T, F) + PB_OPT_ASSERT_(PB_OPT_TYPED_##TYPE(T, F))
#define PB_OPT_ASSERT_(OK) (0 * sizeof(char[(OK) ? 1 : -1]))
#define PB_OPT_IS_(T, F, CT) __builtin_types_compatible_p(__typeof__(((T *)0)->F), CT)
#define PB_OPT_TYPED_PB_OPT_FLAG(T, F) PB_OPT_IS_(T, F, int)
#define PB_OPT_TYPED_PB_OPT_COUNT(T, F) PB_OPT_IS_(T, F, uint64_t)
#define PB_OPT_TYPED_PB_OPT_SIZE(T, F) PB_OPT_IS_(T, F, uint64_t)
#define PB_OPT_TYPED_PB_OPT_SIZES(T, F) PB_OPT_IS_(T, F[0], uint64_t)
#define PB_OPT_TYPED_PB_OPT_DURATION(T, F) PB_OPT_IS_(T, F, uint64_t)
#define PB_OPT_TYPED_PB_OPT_DOUBLE(T, F) PB_OPT_IS_(T, F, double)
#define PB_OPT_TYPED_PB_OPT_WORD(T, F) PB_OPT_IS_(T, F, unsigned)
#define PB_OPT_TYPED_PB_OPT_WORDS(T, F) PB_OPT_IS_(T, F, unsigned)
#define PB_OPT_TYPED_PB_OPT_CPUS(T, F) PB_OPT_IS_(T, F, cpu_set_t)
#define PB_OPT_TYPED_PB_OPT_DIR(T, F) PB_OPT_IS_(T, F, const char *)
#define PB_OPT_TYPED_PB_OPT_FILE(T, F) PB_OPT_IS_(T, F, const char *)
#define PB_OPT_TYPED_PB_OPT_STRING(T, F) PB_OPT_IS_(T, F, const char *)
#define PB_OPT_END { .name = NULL }

/* The benchmarking commands' rows, the same everywhere. */
#define PB_OPT_REPEAT(T, F, HELP) \
	{ PB_OPT("repeat", 'r', PB_OPT_COUNT, T, F), .min = 1, .max = 10000, .def = "5", \
	  .arg = "N", .help = (HELP) }
#define PB_OPT_WARMUP(T, F) \
	{ PB_OPT("warmup", 'w', PB_OPT_COUNT, T, F), .min = 0, .max = 10000, .def = "1", \
	  .arg = "N", .help = "unmeasured repetitions first" }
/* --copies (throughput, latency): N independent copies of each row at once,
 * for each N of the list (copies.h parses it); WHAT names a copy. */
#define PB_OPT_COPIES(T, F, WHAT) \
	{ PB_OPT("copies", '\0', PB_OPT_STRING, T, F), .def_help = "one", .arg = "LIST", \
	  .help = "N independent " WHAT " at once, for each N of LIST (1,2,4 or 1-ncpu), " \
		  "each pinned to a CPU of its own when they fit; efficiency against linear " \
		  "scaling" }
/* --profile (throughput, latency): sample where the measured loops' time
 * goes (profile.h). */
#define PB_OPT_PROFILE(T, F) \
	{ PB_OPT("profile", '\0', PB_OPT_FLAG, T, F), .def_help = "off", \
	  .help = "sample the measured loops (perf cpu-clock, every 1 ms of CPU time): " \
		  "time by category (timestamps, copy, locking, ...) and the top kernel " \
		  "functions of each row" }
/* --label (compare, plot): a comma-separated list, one per document. */
#define PB_OPT_LABEL(T, F, HELP) \
	{ PB_OPT("label", '\0', PB_OPT_STRING, T, F), .arg = "LIST", .list = true, \
	  .help = (HELP) }
#define PB_OPT_TIMEOUT(T, F) \
	{ PB_OPT("timeout", 't', PB_OPT_DURATION, T, F), .min = 1, \
	  .max = 86400ULL * 1000000000ULL, .def_help = "no limit", .arg = "DURATION", \
	  .help = "give up with exit 3 after this long, e.g. 90s" }

/*
 * The --kind vocabulary of every command ("pipe" is a synonym of anon; "all"
 * is every kind the command runs).
 */
extern const char *const pb_kind_words[];
#define PB_KIND_WORD_ALL 3u
/* The --kind words a command accepts (a row's .allowed): the pipe kinds and
 * "all" (conformance), anon or socketpair (messaging); 0 is every word. */
#define PB_KIND_WORDS_PIPES 0xbu       /* anon, fifo, all */
#define PB_KIND_WORDS_ANON_SOCKET 0x5u /* anon, socketpair */
/* A --kind mask (bits of pb_kind_words) as bit k for enum pb_kind k, "all"
 * expanded to every kind the row allows (ALLOWED: its .allowed). */
unsigned pb_kind_mask(unsigned words_mask, unsigned allowed);

struct pb_common {
	unsigned format;         /* cli.c's own: index into pb_format_words(cmd) */
	const char *format_name; /* the --format word given (or the default) */
	const char *output;      /* --output FILE or NULL for stdout */
	int quiet;
	int help;
};

#define PB_CLI_MAX_OPTS 32

struct pb_transform;

struct pb_cli {
	const struct pb_cmd *cmd;
	/* --format: the command's row that writes (a transform's `from` row
	 * under a transform), and the transform or NULL. */
	const struct pb_format *fmt;
	const struct pb_transform *transform;
	poptContext pc;
	struct pb_common common;
	void *params;              /* the command's params struct (cmd->params_size) */
	const char **args;         /* operands (NULL-terminated), may be NULL */
	int nargs;
	/* Rows: the command's, then the common ones; popt keeps pointers to
	 * the tables for the context's lifetime. */
	const struct pb_opt *rows[PB_CLI_MAX_OPTS];
	/* Where a common row's value goes (the command's rows: params), and
	 * the transform whose row it is (format.h), or NULL. */
	void *base[PB_CLI_MAX_OPTS];
	const struct pb_transform *owner[PB_CLI_MAX_OPTS];
	size_t nrows, ncmd;
	unsigned seen[PB_CLI_MAX_OPTS];
	char *val[PB_CLI_MAX_OPTS];  /* the given text (owned) */
	struct poptOption cmd_tab[PB_CLI_MAX_OPTS + 1], common_tab[PB_CLI_MAX_OPTS + 1];
	struct poptOption top_tab[3];
	char help_buf[8192];
	char usage[256];
	char prog[64];
	const char **argv;
};

/* Result of pb_cli_parse besides the exit codes. */
#define PB_CLI_CONTINUE (-1)

/*
 * Run CMD with ARGV (argv[0] is the command name): parse and convert its
 * options, run cmd->check and cmd->exec.  Returns an enum pb_exit value.
 */
int pb_cmd_run(const struct pb_cmd *cmd, int argc, const char **argv);

/*
 * The parsing half of pb_cmd_run, for tests: fills CLI (and PARAMS, which
 * must be cmd->params_size bytes, zeroed) and returns PB_CLI_CONTINUE, or
 * an exit status to return at once (0 after --help, 2 after a usage error,
 * already printed).  Call pb_cli_free when done.
 */
int pb_cli_parse(struct pb_cli *cli, const struct pb_cmd *cmd, int argc,
		 const char **argv, void *params);

void pb_cli_free(struct pb_cli *cli);

/* Write RUN (the command's run structure), measured on SI, to FP in the
 * chosen --format: cli->fmt's emitter. */
void pb_cli_emit(const struct pb_cli *cli, const void *run, const struct pb_sysinfo *si,
		 FILE *fp);

/* Whether the option named LONG was given on the command line. */
bool pb_cli_given(const struct pb_cli *cli, const char *longname);

/* The text given for the option named LONG, or NULL. */
const char *pb_cli_value(const struct pb_cli *cli, const char *longname);

/* --list-options / --list-operands of CMD on FP (see pipebench(1)). */
void pb_cli_list_options(const struct pb_cmd *cmd, FILE *fp);
void pb_cli_list_operands(const struct pb_cmd *cmd, FILE *fp);

/* The common rows (--format, --output, --quiet, --help). */
extern const struct pb_opt pb_common_opts[];

/*
 * A common option given before the command (`pipebench -q timestamps`):
 * prints "put it after the command" and returns 1; 0 when ARGV[1] is not
 * a common option.
 */
int pb_cli_misplaced_common(int argc, const char **argv);

/* Whether the --output path can be created (checked before any work). */
int pb_cli_check_output(const char *cmd, const char *path);

/*
 * --dir: VAL, or $TMPDIR/tmp when VAL is NULL, must be an existing writable
 * directory.  Stores the directory in *OUT; on failure prints the one-line
 * usage error naming --dir and returns -1.
 */
int pb_opt_dir(const char *cmd, const char *val, const char **out);

/*
 * --label's LIST split at commas into LABELS[0..MAX): each word strdup'd, an
 * empty word left NULL (the caller's default).  Returns how many words LIST
 * has, counting those past MAX (which are not stored), 0 for NULL or ""; or
 * -ENOMEM with nothing left allocated.
 */
long pb_cli_labels(const char *list, char **labels, size_t max);

/*
 * --label of a command that takes one label per file (plot, grid): LIST
 * into LABELS[0..N) as pb_cli_labels does.  PB_EXIT_OK; PB_EXIT_USAGE after
 * "--label: K labels for N documents (one per file)", the labels left for
 * the caller to free; or PB_EXIT_ERROR after "out of memory".  CMD names
 * the command in the message.
 */
int pb_cli_labels_one_each(const char *cmd, const char *list, char **labels, size_t n);

/* Whether progress may be shown: stderr is a terminal and not --quiet. */
bool pb_cli_progress(const struct pb_cli *cli);

#endif
