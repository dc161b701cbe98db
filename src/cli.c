/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "cli.h"
#include "format.h"
#include "sysinfo.h"
#include "msg.h"
#include "output.h"
#include "units.h"

const char *const pb_kind_words[] = { "anon", "fifo", "socketpair", "all", NULL };

unsigned pb_kind_mask(unsigned words_mask, unsigned allowed)
{
	/* Bits 0-2 are enum pb_kind's anon, fifo, socketpair; bit 3 is "all". */
	unsigned kinds = allowed ? allowed & 7u : 7u;

	return words_mask & (1u << PB_KIND_WORD_ALL) ? kinds : words_mask & kinds;
}

const struct pb_opt pb_common_opts[] = {
	{ PB_OPT("format", 'f', PB_OPT_WORD, struct pb_common, format), .arg = "FMT",
	  .help = "output format" },
	{ PB_OPT("output", 'o', PB_OPT_FILE, struct pb_common, output), .arg = "FILE",
	  .def_help = "standard output", .help = "write results to FILE" },
	{ PB_OPT("quiet", 'q', PB_OPT_FLAG, struct pb_common, quiet),
	  .help = "no progress or informational messages on stderr" },
	{ PB_OPT("help", 'h', PB_OPT_FLAG, struct pb_common, help),
	  .help = "show this help and exit" },
	PB_OPT_END
};

static const char *const type_names[] = {
	[PB_OPT_FLAG] = "flag", [PB_OPT_COUNT] = "count", [PB_OPT_SIZE] = "size",
	[PB_OPT_SIZES] = "sizes", [PB_OPT_DURATION] = "duration", [PB_OPT_DOUBLE] = "double",
	[PB_OPT_WORD] = "word", [PB_OPT_WORDS] = "words", [PB_OPT_CPUS] = "cpus",
	[PB_OPT_DIR] = "dir", [PB_OPT_FILE] = "file", [PB_OPT_STRING] = "string",
};

/* Codes poptGetNextOpt returns: OPT_CODE + the row's index in cli->rows. */
#define OPT_CODE 1000

#define MAX_WORDS 32

/* The words row O accepts: its vocabulary (or CMD's --format words) less
 * those outside o->allowed, into W (NULL-terminated); IDX[j] is W[j]'s
 * index in the vocabulary (NULL: not wanted). */
static const char *const *row_words_idx(const struct pb_cmd *cmd, const struct pb_opt *o,
					const char **w, unsigned *idx)
{
	const char *const *all = o->words ? o->words : pb_format_words(cmd);
	size_t n = 0;

	for (unsigned i = 0; all[i] && n < MAX_WORDS; i++) {
		if (o->allowed && i < 32 && !(o->allowed & (1u << i)))
			continue;
		if (idx)
			idx[n] = i;
		w[n++] = all[i];
	}
	w[n] = NULL;
	return w;
}

/* The same into a buffer of its own (valid until the next call). */
static const char *const *row_words(const struct pb_cmd *cmd, const struct pb_opt *o)
{
	static const char *w[MAX_WORDS + 1];

	return row_words_idx(cmd, o, w, NULL);
}

static const char *row_default(const struct pb_cmd *cmd, const struct pb_opt *o)
{
	if (o->def || o->type != PB_OPT_WORD || o->words)
		return o->def;
	return pb_format_words(cmd)[0];
}

static bool row_is_list(const struct pb_opt *o)
{
	return o->type == PB_OPT_SIZES || o->type == PB_OPT_WORDS || o->type == PB_OPT_CPUS ||
	       o->list;
}

/* ---- option values: parse, or the one-line usage error naming the option ---- */

static const char *why(int r, const char *kind)
{
	static __thread char b[96];

	if (r == -E2BIG)
		snprintf(b, sizeof(b), "too many %s items", kind);
	else
		snprintf(b, sizeof(b), "invalid %s", kind);
	return b;
}

/*
 * R's one-line usage error: "--OPT: VALUE is out of range (MIN..MAX)", the
 * range as the user types it, or "--OPT: invalid KIND 'VALUE'".  Returns -1.
 */
static int opt_fail(const char *cmd, const char *opt, const char *val, int r, const char *kind,
		    const char *min, const char *max)
{
	if (r == -ERANGE)
		pb_usage_err(cmd, "%s: %s is out of range (%s..%s)", opt, val, min, max);
	else
		pb_usage_err(cmd, "%s: %s '%s'", opt, why(r, kind), val ? val : "");
	return -1;
}

enum { U_SIZE, U_COUNT, U_DURATION };

/* A size, count or duration option: parse, else the error with the range. */
static int opt_u64(const char *cmd, const char *opt, const char *val, int unit,
		   uint64_t min, uint64_t max, uint64_t *out)
{
	static const char *const kind[] = { "size", "number", "duration" };
	int r = unit == U_SIZE ? pb_parse_size(val, min, max, out) :
		unit == U_COUNT ? pb_parse_count(val, min, max, out) :
		pb_parse_duration(val, min, max, out);
	char b[2][32];

	if (!r)
		return 0;
	for (int i = 0; i < 2; i++) {
		uint64_t v = i ? max : min;

		if (unit == U_SIZE)
			pb_format_size_arg(v, b[i], sizeof(b[i]));
		else if (unit == U_DURATION)
			pb_format_duration_arg(v, b[i], sizeof(b[i]));
		else
			snprintf(b[i], sizeof(b[i]), "%llu", (unsigned long long)v);
	}
	return opt_fail(cmd, opt, val, r, kind[unit], b[0], b[1]);
}

static int opt_size(const char *cmd, const char *opt, const char *val,
		uint64_t min, uint64_t max, uint64_t *out)
{
	return opt_u64(cmd, opt, val, U_SIZE, min, max, out);
}

static int opt_count(const char *cmd, const char *opt, const char *val,
		 uint64_t min, uint64_t max, uint64_t *out)
{
	return opt_u64(cmd, opt, val, U_COUNT, min, max, out);
}

static int opt_duration(const char *cmd, const char *opt, const char *val,
		    uint64_t min_ns, uint64_t max_ns, uint64_t *out_ns)
{
	return opt_u64(cmd, opt, val, U_DURATION, min_ns, max_ns, out_ns);
}

static int opt_double(const char *cmd, const char *opt, const char *val,
		  double min, double max, double *out)
{
	int r = pb_parse_double(val, min, max, out);
	char a[32], b[32];

	if (!r)
		return 0;
	snprintf(a, sizeof(a), "%g", min);
	snprintf(b, sizeof(b), "%g", max);
	return opt_fail(cmd, opt, val, r, "number", a, b);
}

static int opt_size_list(const char *cmd, const char *opt, const char *val,
		     uint64_t min, uint64_t max, uint64_t *out,
		     size_t max_items, size_t *n)
{
	int r = pb_parse_size_list(val, min, max, out, max_items, n);
	char a[32], b[32];

	if (!r)
		return 0;
	if (r == -ERANGE) {
		pb_format_size_arg(min, a, sizeof(a));
		pb_format_size_arg(max, b, sizeof(b));
		pb_usage_err(cmd, "%s: a size in '%s' is out of range (%s..%s)", opt, val, a, b);
	} else if (r == -E2BIG) {
		pb_usage_err(cmd, "%s: %s '%s'; at most %zu", opt, why(r, "size"), val, max_items);
	} else {
		pb_usage_err(cmd, "%s: %s '%s'", opt, why(r, "size"), val ? val : "");
	}
	return -1;
}

static void list_words(const char *const *words, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; words[i] && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", words[i]);
}

static int opt_word_list(const char *cmd, const char *opt, const char *val,
		     const char *const *words, unsigned *mask)
{
	size_t off = 0, len = 0;
	char allowed[256];

	if (pb_parse_word_list(val, words, mask, &off, &len) == 0)
		return 0;
	list_words(words, allowed, sizeof(allowed));
	if (len == 0)
		pb_usage_err(cmd, "%s: empty item in '%s'; expected a list of: %s", opt,
			     val ? val : "", allowed);
	else
		pb_usage_err(cmd, "%s: unknown value '%.*s'; expected a list of: %s", opt,
			     (int)len, val + off, allowed);
	return -1;
}

static int opt_word(const char *cmd, const char *opt, const char *val,
		const char *const *words, unsigned *index)
{
	char allowed[256];

	int i = val ? pb_match_word(words, val, strlen(val)) : -1;

	if (i >= 0) {
		*index = (unsigned)i;
		return 0;
	}
	list_words(words, allowed, sizeof(allowed));
	pb_usage_err(cmd, "%s: unknown value '%s'; expected one of: %s", opt,
		     val ? val : "", allowed);
	return -1;
}

static int opt_cpu_list(const char *cmd, const char *opt, const char *val,
		    cpu_set_t *set)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	int r = pb_parse_cpu_list(val, n > 0 ? (int)n : CPU_SETSIZE, set);

	if (!r)
		return 0;
	if (r == -ERANGE)
		pb_usage_err(cmd, "%s: CPU out of range in '%s'; this machine has CPUs 0-%ld",
			     opt, val, n - 1);
	else
		pb_usage_err(cmd, "%s: invalid CPU list '%s'", opt, val ? val : "");
	return -1;
}

/* Collect the command's rows and then the common ones into cli->rows. */
static int gather_rows(struct pb_cli *cli, const struct pb_cmd *cmd)
{
	cli->nrows = 0;
	for (const struct pb_opt *o = cmd->opts; o && o->name; o++) {
		if (cli->nrows >= PB_CLI_MAX_OPTS)
			return -1;
		cli->rows[cli->nrows++] = o;
	}
	cli->ncmd = cli->nrows;
	for (const struct pb_opt *o = pb_common_opts; o->name; o++) {
		if (cli->nrows >= PB_CLI_MAX_OPTS)
			return -1;
		cli->base[cli->nrows] = &cli->common;
		cli->rows[cli->nrows++] = o;
	}
	/* Then those of the transforms offered to CMD, stored in theirs. */
	for (const struct pb_transform *t = pb_transforms; t->name; t++) {
		if (t->params)
			memset(t->params, 0, t->params_size);
		for (const struct pb_opt *o = t->opts; t->offered(cmd) && o && o->name; o++) {
			if (cli->nrows >= PB_CLI_MAX_OPTS)
				return -1;
			cli->base[cli->nrows] = t->params;
			cli->owner[cli->nrows] = t;
			cli->rows[cli->nrows++] = o;
		}
	}
	return 0;
}

static size_t add_words(char *buf, size_t len, const char *const *words, const char *last)
{
	size_t off = 0;

	for (size_t i = 0; words[i] && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i == 0 ? "" : words[i + 1] ? ", " : last, words[i]);
	return off < len ? off : len;
}

/* "help; one of a, b or c (default a)" into BUF. */
static size_t describe(const struct pb_cmd *cmd, const struct pb_opt *o, char *buf, size_t len)
{
	const char *def = row_default(cmd, o);
	size_t off = (size_t)snprintf(buf, len, "%s", o->help);

	if (off < len && (o->type == PB_OPT_WORD || o->type == PB_OPT_WORDS)) {
		off += (size_t)snprintf(buf + off, len - off, o->type == PB_OPT_WORD ?
					": " : ", comma-separated: ");
		if (off < len)
			off += add_words(buf + off, len - off, row_words(cmd, o),
					 o->type == PB_OPT_WORD ? " or " : ", ");
	}
	if (off < len && def)
		off += (size_t)snprintf(buf + off, len - off, " (default %s)", def);
	else if (off < len && (o->def_help || o->type == PB_OPT_DIR))
		off += (size_t)snprintf(buf + off, len - off, " (default: %s)",
					o->def_help ? o->def_help : "$TMPDIR or /tmp");
	return off < len ? off + 1 : len;
}

static void build_tables(struct pb_cli *cli, const struct pb_cmd *cmd)
{
	size_t used = 0;

	for (size_t i = 0; i < cli->nrows; i++) {
		const struct pb_opt *o = cli->rows[i];
		struct poptOption *t = i < cli->ncmd ? &cli->cmd_tab[i]
						      : &cli->common_tab[i - cli->ncmd];
		char *d = cli->help_buf + used;

		used += describe(cmd, o, d, sizeof(cli->help_buf) - used);
		*t = (struct poptOption){ o->name, o->letter,
					  o->type == PB_OPT_FLAG ? POPT_ARG_NONE : POPT_ARG_STRING,
					  NULL, OPT_CODE + (int)i, d,
					  o->type == PB_OPT_FLAG ? NULL : o->arg ? o->arg : "VALUE" };
	}
	cli->cmd_tab[cli->ncmd] = (struct poptOption)POPT_TABLEEND;
	cli->common_tab[cli->nrows - cli->ncmd] = (struct poptOption)POPT_TABLEEND;
	cli->top_tab[0] = (struct poptOption){ NULL, '\0', POPT_ARG_INCLUDE_TABLE,
					       cli->cmd_tab, 0, "Options:", NULL };
	cli->top_tab[1] = (struct poptOption){ NULL, '\0', POPT_ARG_INCLUDE_TABLE,
					       cli->common_tab, 0, "Common options:", NULL };
	cli->top_tab[2] = (struct poptOption)POPT_TABLEEND;
	/* A command without options of its own shows only the common ones. */
	if (cli->ncmd == 0)
		cli->top_tab[0] = cli->top_tab[1], cli->top_tab[1] = cli->top_tab[2];
}

/* Convert VAL (the given text, or the default) for row O into BASE. */
static int convert(const struct pb_cmd *cmd, const struct pb_opt *o, const char *val,
		   void *base)
{
	char opt[64];
	void *p = (char *)base + o->off;
	const char *w[MAX_WORDS + 1];
	unsigned u, idx[MAX_WORDS];

	snprintf(opt, sizeof(opt), "--%s", o->name);
	switch (o->type) {
	case PB_OPT_FLAG:
		*(int *)p = 1;
		return 0;
	case PB_OPT_COUNT:
		return opt_count(cmd->name, opt, val, o->min, o->max, p);
	case PB_OPT_SIZE:
		return opt_size(cmd->name, opt, val, o->min, o->max, p);
	case PB_OPT_SIZES:
		return opt_size_list(cmd->name, opt, val, o->min, o->max, p, o->max_items,
					(size_t *)((char *)base + o->off_n));
	case PB_OPT_DURATION:
		return opt_duration(cmd->name, opt, val, o->min, o->max, p);
	case PB_OPT_DOUBLE:
		return opt_double(cmd->name, opt, val, o->dmin, o->dmax, p);
	case PB_OPT_WORD:
		if (opt_word(cmd->name, opt, val, row_words_idx(cmd, o, w, idx), &u))
			return -1;
		*(unsigned *)p = idx[u];
		return 0;
	case PB_OPT_WORDS:
		if (opt_word_list(cmd->name, opt, val, row_words_idx(cmd, o, w, idx), &u))
			return -1;
		*(unsigned *)p = 0;
		for (unsigned j = 0; w[j]; j++)
			if (u & (1u << j))
				*(unsigned *)p |= 1u << idx[j];
		return 0;
	case PB_OPT_CPUS:
		return opt_cpu_list(cmd->name, opt, val, p);
	case PB_OPT_DIR:
		return pb_opt_dir(cmd->name, val, p);
	case PB_OPT_FILE:
		if (pb_cli_check_output(cmd->name, val))
			return -1;
		*(const char **)p = val;
		return 0;
	case PB_OPT_STRING:
		*(const char **)p = val;
		return 0;
	}
	return -1;
}

/* The rows in order: the given value, else the default through the same converter. */
static int convert_all(struct pb_cli *cli, const struct pb_cmd *cmd, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		const struct pb_opt *o = cli->rows[i];
		void *base = i < cli->ncmd ? cli->params : cli->base[i];
		const char *val = cli->seen[i] ? cli->val[i] : row_default(cmd, o);

		if (o->type == PB_OPT_FLAG && !cli->seen[i])
			continue;
		if (!cli->seen[i] && !val && (o->type != PB_OPT_DIR || o->if_given))
			continue;
		if (convert(cmd, o, val, base))
			return -1;
	}
	return 0;
}

static void unknown_option(struct pb_cli *cli, const char *bad)
{
	const char *names[PB_CLI_MAX_OPTS];
	char name[64];
	const char *hit = NULL;

	if (strncmp(bad, "--", 2) == 0) {
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(bad + 2, "="), bad + 2);
		for (size_t i = 0; i < cli->nrows; i++)
			names[i] = cli->rows[i]->name;
		hit = pb_did_you_mean(name, names, cli->nrows);
	}
	if (hit)
		pb_usage_err(cli->cmd->name, "unknown option '%s'; did you mean '--%s'?", bad, hit);
	else
		pb_usage_err(cli->cmd->name, "unknown option '%s'", bad);
}

int pb_cli_check_output(const char *cmd, const char *path)
{
	struct stat st;
	char *copy, *dir;
	int ok;

	if (!*path) {
		pb_usage_err(cmd, "--output: empty file name");
		return -1;
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			pb_usage_err(cmd, "--output: '%s' is a directory", path);
			return -1;
		}
		if (access(path, W_OK) != 0) {
			pb_usage_err(cmd, "--output: cannot write '%s': %s", path, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (errno != ENOENT) {
		pb_usage_err(cmd, "--output: cannot use '%s': %s", path, strerror(errno));
		return -1;
	}
	copy = strdup(path);
	if (!copy)
		return -1;
	dir = dirname(copy);
	ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0;
	if (!ok)
		pb_usage_err(cmd, "--output: cannot create '%s': %s", path,
			     errno ? strerror(errno) : "not a writable directory");
	free(copy);
	return ok ? 0 : -1;
}

int pb_cli_parse(struct pb_cli *cli, const struct pb_cmd *cmd, int argc,
		 const char **argv, void *params)
{
	int rc;

	memset(cli, 0, sizeof(*cli));
	cli->cmd = cmd;
	cli->params = params;
	if (gather_rows(cli, cmd)) {
		pb_err(cmd->name, "too many options (at most %d)", PB_CLI_MAX_OPTS);
		return PB_EXIT_ERROR;
	}
	build_tables(cli, cmd);
	/* popt names the program after argv[0]: make it "pipebench CMD". */
	snprintf(cli->prog, sizeof(cli->prog), "%s %s", PB_PROG, cmd->name);
	cli->argv = calloc((size_t)argc + 1, sizeof(*cli->argv));
	if (!cli->argv) {
		pb_err(cmd->name, "out of memory");
		return PB_EXIT_ERROR;
	}
	cli->argv[0] = cli->prog;
	for (int i = 1; i < argc; i++)
		cli->argv[i] = argv[i];
	cli->pc = poptGetContext(PB_PROG, argc, cli->argv, cli->top_tab, 0);
	snprintf(cli->usage, sizeof(cli->usage), "[OPTION...]%s%s", cmd->args ? " " : "",
		 cmd->args ? cmd->args : "");
	poptSetOtherOptionHelp(cli->pc, cli->usage);

	/*
	 * Every option, flags included, is refused when given twice: popt
	 * would keep the last value, and a dropped `--expect anon=...` or
	 * `--only ...` would turn into a false pass.
	 */
	while ((rc = poptGetNextOpt(cli->pc)) > 0) {
		size_t i = (size_t)(rc - OPT_CODE);
		char *arg = poptGetOptArg(cli->pc);
		const struct pb_opt *o;

		if (rc < OPT_CODE || i >= cli->nrows) {
			free(arg);
			continue;
		}
		o = cli->rows[i];
		free(cli->val[i]);
		cli->val[i] = arg;
		if (cli->seen[i]++ == 0)
			continue;
		if (row_is_list(o))
			pb_usage_err(cmd->name, "--%s given more than once; give one value (lists "
				     "take commas: --%s A,B)", o->name, o->name);
		else
			pb_usage_err(cmd->name, "--%s given more than once; give it once", o->name);
		return PB_EXIT_USAGE;
	}
	if (rc < -1) {
		const char *bad = poptBadOption(cli->pc, POPT_BADOPTION_NOALIAS);

		if (rc == POPT_ERROR_BADOPT)
			unknown_option(cli, bad);
		else if (rc == POPT_ERROR_NOARG)
			pb_usage_err(cmd->name, "%s: missing value", bad);
		else
			pb_usage_err(cmd->name, "%s: %s", bad, poptStrerror(rc));
		return PB_EXIT_USAGE;
	}
	if (pb_cli_given(cli, "help")) {
		printf("%s %s: %s\n", PB_PROG, cmd->name, cmd->summary);
		poptPrintHelp(cli->pc, stdout, 0);
		/* Not flushed here: main's finish_stdout writes it and says
		 * why when that fails (the errno would be lost by then). */
		return PB_EXIT_OK;
	}
	cli->args = poptGetArgs(cli->pc);
	while (cli->args && cli->args[cli->nargs])
		cli->nargs++;
	if (cli->nargs > cmd->max_args && cmd->max_args >= 0) {
		pb_usage_err(cmd->name, "unexpected argument '%s'", cli->args[cmd->max_args]);
		return PB_EXIT_USAGE;
	}
	if (cli->nargs < cmd->min_args) {
		pb_usage_err(cmd->name, "missing argument: %s", cmd->args ? cmd->args : "?");
		return PB_EXIT_USAGE;
	}
	/* Options that exclude each other (a row's `excludes`): one message. */
	for (size_t i = 0; i < cli->nrows; i++) {
		const struct pb_opt *o = cli->rows[i];

		if (cli->seen[i] && o->excludes && pb_cli_given(cli, o->excludes)) {
			pb_usage_err(cmd->name, "--%s and --%s: give one or the other", o->name,
				     o->excludes);
			return PB_EXIT_USAGE;
		}
	}
	/* The common options first (as before rows), then the command's. */
	if (convert_all(cli, cmd, cli->ncmd, cli->nrows) ||
	    convert_all(cli, cmd, 0, cli->ncmd))
		return PB_EXIT_USAGE;
	cli->common.format_name = pb_format_words(cmd)[cli->common.format];
	/* A transform: the command writes the format it rewrites, and the
	 * transform rewrites it as it is written (format.h). */
	cli->transform = pb_transform_find(cmd, cli->common.format_name);
	cli->fmt = pb_format_find(cmd, cli->transform ? cli->transform->from
						    : cli->common.format_name);
	pb_out_set_transform(cli->transform ? cli->transform->apply : NULL);
	/* A transform's own options only with it. */
	for (size_t i = cli->ncmd; i < cli->nrows; i++) {
		if (cli->owner[i] && cli->seen[i] && cli->owner[i] != cli->transform) {
			pb_usage_err(cmd->name, "--%s: only with --format %s", cli->rows[i]->name,
				     cli->owner[i]->name);
			return PB_EXIT_USAGE;
		}
	}
	if (cli->transform && cli->transform->check && cli->transform->check(cmd->name))
		return PB_EXIT_USAGE;
	if (!cli->fmt) {
		pb_err(cmd->name, "--format %s: no such format row", cli->common.format_name);
		return PB_EXIT_ERROR;
	}
	return PB_CLI_CONTINUE;
}

void pb_cli_emit(const struct pb_cli *cli, const void *run, const struct pb_sysinfo *si,
		 FILE *fp)
{
	if (cli->fmt && cli->fmt->emit)
		cli->fmt->emit(run, si, fp);
}

bool pb_cli_given(const struct pb_cli *cli, const char *longname)
{
	for (size_t i = 0; i < cli->nrows; i++)
		if (strcmp(cli->rows[i]->name, longname) == 0)
			return cli->seen[i] > 0;
	return false;
}

const char *pb_cli_value(const struct pb_cli *cli, const char *longname)
{
	for (size_t i = 0; i < cli->nrows; i++)
		if (strcmp(cli->rows[i]->name, longname) == 0)
			return cli->seen[i] ? cli->val[i] : NULL;
	return NULL;
}

void pb_cli_free(struct pb_cli *cli)
{
	if (cli->pc)
		poptFreeContext(cli->pc);
	cli->pc = NULL;
	free(cli->argv);
	cli->argv = NULL;
	for (size_t i = 0; i < PB_CLI_MAX_OPTS; i++) {
		free(cli->val[i]);
		cli->val[i] = NULL;
	}
}

static void list_rows(const struct pb_cmd *cmd, const struct pb_opt *o, FILE *fp)
{
	for (; o && o->name; o++) {
		char letter[3] = { '-', o->letter, '\0' };

		fprintf(fp, "--%s\t%s\t%s\t", o->name, letter, type_names[o->type]);
		if (o->type == PB_OPT_WORD || o->type == PB_OPT_WORDS) {
			const char *const *w = row_words(cmd, o);

			for (size_t i = 0; w[i]; i++)
				fprintf(fp, "%s%s", i ? "," : "", w[i]);
		}
		fputc('\n', fp);
	}
}

void pb_cli_list_options(const struct pb_cmd *cmd, FILE *fp)
{
	list_rows(cmd, cmd->opts, fp);
	list_rows(cmd, pb_common_opts, fp);
	for (const struct pb_transform *t = pb_transforms; t->name; t++)
		if (t->offered(cmd))
			list_rows(cmd, t->opts, fp);
}

void pb_cli_list_operands(const struct pb_cmd *cmd, FILE *fp)
{
	if (cmd->operands)
		fprintf(fp, "%s\n", cmd->operands);
}

int pb_cli_misplaced_common(int argc, const char **argv)
{
	const char *a = argv[1], *val = NULL;
	const struct pb_opt *o = pb_common_opts;
	const struct pb_cmd *cmd = NULL;
	int next = 2;

	if (a[0] != '-' || !a[1])
		return 0;
	for (; o->name; o++) {
		size_t n = strlen(o->name);

		if (a[1] == '-' && strncmp(a + 2, o->name, n) == 0 &&
		    (a[2 + n] == '\0' || a[2 + n] == '='))
			break;
		if (a[1] != '-' && a[1] == o->letter)
			break;
	}
	if (!o->name)
		return 0;
	/* Its value, if it takes one and it is not attached. */
	if (o->type != PB_OPT_FLAG && !strchr(a, '=') && (a[1] == '-' || !a[2]) &&
	    argc > 2) {
		val = argv[2];
		next = 3;
	}
	for (int i = next; i < argc && !cmd; i++)
		cmd = pb_cmd_find(argv[i]);
	pb_usage_err(NULL, "%s is an option of the commands; put it after the command: "
		     "%s %s %s%s%s", a, PB_PROG, cmd ? cmd->name : "COMMAND", a,
		     val ? " " : "", val ? val : "");
	return 1;
}

int pb_opt_dir(const char *cmd, const char *val, const char **out)
{
	const char *dir = val ? val : pb_tmpdir_base(), *step, *env = getenv("TMPDIR");
	int r = pb_dir_probe(dir, &step);

	if (r) {
		/* Name where DIR came from (--dir, or its default) and the step. */
		const char *from = val ? "--dir" : env && *env ? "TMPDIR (the default of --dir)"
			: "the default of --dir";

		pb_usage_err(cmd, "%s: '%s' is not a writable directory: %s%s%s", from, dir, step,
			     *step ? ": " : "", strerror(-r));
		return -1;
	}
	*out = dir;
	return 0;
}

long pb_cli_labels(const char *list, char **labels, size_t max)
{
	long n = 0;

	for (size_t i = 0; i < max; i++)
		labels[i] = NULL;
	while (list && *list) {
		size_t len = strcspn(list, ",");

		if ((size_t)n < max && len && !(labels[n] = strndup(list, len))) {
			for (size_t i = 0; i < max; i++) {
				free(labels[i]);
				labels[i] = NULL;
			}
			return -ENOMEM;
		}
		n++;
		list += len + (list[len] == ',');
	}
	return n;
}

int pb_cli_labels_one_each(const char *cmd, const char *list, char **labels, size_t n)
{
	long given = pb_cli_labels(list, labels, n);

	if (given < 0) {
		pb_err(cmd, "out of memory");
		return PB_EXIT_ERROR;
	}
	if ((size_t)given != n) {
		pb_usage_err(cmd, "--label: %ld label%s for %zu document%s (one per file)", given,
			     given == 1 ? "" : "s", n, n == 1 ? "" : "s");
		return PB_EXIT_USAGE;
	}
	return PB_EXIT_OK;
}

bool pb_cli_progress(const struct pb_cli *cli)
{
	return !cli->common.quiet && isatty(STDERR_FILENO);
}

int pb_cmd_run(const struct pb_cmd *cmd, int argc, const char **argv)
{
	struct pb_cli cli;
	void *params;
	int rc;

	if (argc == 2 && strcmp(argv[1], "--list-options") == 0) {
		pb_cli_list_options(cmd, stdout);
		return PB_EXIT_OK;
	}
	if (argc == 2 && strcmp(argv[1], "--list-operands") == 0) {
		pb_cli_list_operands(cmd, stdout);
		return PB_EXIT_OK;
	}
	pb_run_mark_start();
	params = calloc(1, cmd->params_size ? cmd->params_size : 1);
	if (!params) {
		pb_err(cmd->name, "out of memory");
		return PB_EXIT_ERROR;
	}
	rc = pb_cli_parse(&cli, cmd, argc, argv, params);
	if (rc == PB_CLI_CONTINUE && cmd->check && cmd->check(&cli, params))
		rc = PB_EXIT_USAGE;
	if (rc == PB_CLI_CONTINUE)
		rc = cmd->exec(&cli, params);
	pb_cli_free(&cli);
	free(params);
	/* Interrupted with signals deferred (conformance, report): the document
	 * of what ran is out; remove what is left and exit 128+signal. */
	if (pb_cleanup_interrupted())
		pb_cleanup_exit_interrupted();
	return rc;
}
