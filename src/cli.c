/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "cli.h"
#include "msg.h"
#include "units.h"

static void common_table(struct pb_common *c, struct poptOption *t)
{
	struct poptOption tab[] = {
		{ "format", 'f', POPT_ARG_STRING, &c->format_arg, 0,
		  "output format (see the command's list; default first)", "FMT" },
		{ "output", 'o', POPT_ARG_STRING, &c->output, 0,
		  "write results to FILE instead of standard output", "FILE" },
		{ "quiet", 'q', POPT_ARG_NONE, &c->quiet, 0,
		  "no progress or informational messages on stderr", NULL },
		{ "help", 'h', POPT_ARG_NONE, &c->help, 0,
		  "show this help and exit", NULL },
		POPT_TABLEEND
	};

	memcpy(t, tab, sizeof(tab));
}

#define COMMON_N 5
/* Codes poptGetNextOpt returns for options with values (see pb_cli_parse). */
#define OPT_CODE 1000

static void format_help(const char *const *formats, char *buf, size_t len)
{
	size_t off = 0;

	off += (size_t)snprintf(buf, len, "output format: ");
	for (size_t i = 0; formats[i] && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", formats[i]);
	if (off < len)
		snprintf(buf + off, len - off, " (default %s)", formats[0]);
}

static poptContext make_context(const struct pb_cmd *cmd, int argc, const char **argv,
				const struct poptOption *options, struct poptOption *common,
				struct poptOption *top)
{
	static char usage[256];
	poptContext pc;

	top[0] = (struct poptOption){ NULL, '\0', POPT_ARG_INCLUDE_TABLE,
				      (void *)options, 0, "Options:", NULL };
	top[1] = (struct poptOption){ NULL, '\0', POPT_ARG_INCLUDE_TABLE,
				      common, 0, "Common options:", NULL };
	top[2] = (struct poptOption)POPT_TABLEEND;
	pc = poptGetContext(PB_PROG, argc, argv, top, 0);
	snprintf(usage, sizeof(usage), "[OPTION...]%s%s", cmd->args ? " " : "",
		 cmd->args ? cmd->args : "");
	poptSetOtherOptionHelp(pc, usage);
	return pc;
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
		 const char **argv, const struct poptOption *options,
		 const char *const *formats, int min_args, int max_args)
{
	struct poptOption *common = cli->common_tab;
	unsigned char seen[100 + COMMON_N] = { 0 };
	char *prev[100 + COMMON_N] = { NULL };
	int rc, n;

	memset(cli, 0, sizeof(*cli));
	cli->cmd = cmd;
	common_table(&cli->common, common);
	format_help(formats, cli->fmt_descrip, sizeof(cli->fmt_descrip));
	common[0].descrip = cli->fmt_descrip;
	/* popt names the program after argv[0]: make it "pipebench CMD". */
	snprintf(cli->prog, sizeof(cli->prog), "%s %s", PB_PROG, cmd->name);
	cli->argv = calloc((size_t)argc + 1, sizeof(*cli->argv));
	if (!cli->argv)
		return PB_EXIT_ERROR;
	cli->argv[0] = cli->prog;
	for (int i = 1; i < argc; i++)
		cli->argv[i] = argv[i];
	/*
	 * Give every option that takes a value a code, so a repeated option can
	 * be refused: popt would silently keep the last value, and a dropped
	 * `--expect anon=...` or `--only ...` would turn into a false pass.
	 */
	for (n = 0; options[n].longName || options[n].shortName || options[n].argInfo; n++)
		;
	if ((size_t)n >= sizeof(cli->cmd_tab) / sizeof(cli->cmd_tab[0]))
		return PB_EXIT_ERROR;
	memcpy(cli->cmd_tab, options, ((size_t)n + 1) * sizeof(*options));
	for (int i = 0; i < n; i++)
		if (cli->cmd_tab[i].argInfo == POPT_ARG_STRING && cli->cmd_tab[i].val == 0)
			cli->cmd_tab[i].val = OPT_CODE + i;
	for (int i = 0; common[i].longName; i++)
		if (common[i].argInfo == POPT_ARG_STRING)
			common[i].val = OPT_CODE + 100 + i;
	cli->pc = make_context(cmd, argc, cli->argv, cli->cmd_tab, common, cli->top_tab);

	while ((rc = poptGetNextOpt(cli->pc)) > 0) {
		int idx = rc - OPT_CODE;
		const struct poptOption *o = idx >= 100 ? &common[idx - 100] : &cli->cmd_tab[idx];

		if (rc < OPT_CODE || idx >= 100 + COMMON_N)
			continue;
		/* popt has replaced the earlier copy without freeing it. */
		if (seen[idx]++)
			free(prev[idx]);
		prev[idx] = o->arg ? *(char **)o->arg : NULL;
		if (seen[idx] < 2)
			continue;
		pb_usage_err(cmd->name, "--%s given more than once; give one value (lists "
			     "take commas: --%s A,B)", o->longName, o->longName);
		return PB_EXIT_USAGE;
	}
	if (rc < -1) {
		const char *bad = poptBadOption(cli->pc, POPT_BADOPTION_NOALIAS);

		if (rc == POPT_ERROR_BADOPT)
			pb_usage_err(cmd->name, "unknown option '%s'", bad);
		else if (rc == POPT_ERROR_NOARG)
			pb_usage_err(cmd->name, "%s: missing value", bad);
		else
			pb_usage_err(cmd->name, "%s: %s", bad, poptStrerror(rc));
		return PB_EXIT_USAGE;
	}
	if (cli->common.help) {
		printf("%s %s: %s\n", PB_PROG, cmd->name, cmd->summary);
		poptPrintHelp(cli->pc, stdout, 0);
		return fflush(stdout) == 0 && !ferror(stdout) ? PB_EXIT_OK : PB_EXIT_ERROR;
	}
	cli->args = poptGetArgs(cli->pc);
	while (cli->args && cli->args[cli->nargs])
		cli->nargs++;
	if (cli->nargs > max_args && max_args >= 0) {
		pb_usage_err(cmd->name, "unexpected argument '%s'", cli->args[max_args]);
		return PB_EXIT_USAGE;
	}
	if (cli->nargs < min_args) {
		pb_usage_err(cmd->name, "missing argument: %s", cmd->args ? cmd->args : "?");
		return PB_EXIT_USAGE;
	}
	cli->common.format = 0;
	if (cli->common.format_arg &&
	    pb_opt_word(cmd->name, "--format", cli->common.format_arg, formats,
			&cli->common.format))
		return PB_EXIT_USAGE;
	cli->common.format_name = formats[cli->common.format];
	if (cli->common.output && pb_cli_check_output(cmd->name, cli->common.output))
		return PB_EXIT_USAGE;
	return PB_CLI_CONTINUE;
}

void pb_cli_free(struct pb_cli *cli)
{
	if (cli->pc)
		poptFreeContext(cli->pc);
	cli->pc = NULL;
	free(cli->argv);
	cli->argv = NULL;
	free((void *)cli->common.format_arg);
	free((void *)cli->common.output);
	cli->common.format_arg = cli->common.output = NULL;
}

int pb_opt_dir(const char *cmd, const char *val, const char **out)
{
	const char *dir = val ? val : pb_tmpdir_base();
	char probe[4096];
	int r = pb_dir_usable(dir);

	/* access() says yes to root on /proc and the like: really make one. */
	if (r == 0) {
		r = pb_tmpdir_make(dir, probe, sizeof(probe));
		if (r == 0)
			pb_tmpdir_remove(probe);
	}
	if (r) {
		pb_usage_err(cmd, "--dir: '%s' is not a writable directory: %s", dir, strerror(-r));
		return -1;
	}
	*out = dir;
	return 0;
}

int pb_bench_opts_parse(const char *cmd, struct pb_bench_opts *b)
{
	b->repeat = 5;
	b->warmup = 1;
	b->timeout_ns = 0;
	if (b->repeat_s && pb_opt_count(cmd, "--repeat", b->repeat_s, 1, 10000, &b->repeat))
		return -1;
	if (b->warmup_s && pb_opt_count(cmd, "--warmup", b->warmup_s, 0, 10000, &b->warmup))
		return -1;
	if (b->timeout_s && pb_opt_duration(cmd, "--timeout", b->timeout_s, 0,
					    86400ULL * 1000000000ULL, &b->timeout_ns))
		return -1;
	return 0;
}

void pb_bench_opts_free(struct pb_bench_opts *b)
{
	free(b->repeat_s);
	free(b->warmup_s);
	free(b->timeout_s);
	b->repeat_s = b->warmup_s = b->timeout_s = NULL;
}

bool pb_cli_progress(const struct pb_cli *cli)
{
	return !cli->common.quiet && isatty(STDERR_FILENO);
}
