/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench: stress, measure and check Linux pipes and FIFOs.
 * main() only: locale, global options, dispatch, exit status.
 */
#include <config.h>

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "checkproc.h"
#include "cleanup.h"
#include "cli.h"
#include "cmd.h"
#include "msg.h"
#include "sysinfo.h"

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: %s [--help|-h] [--version] COMMAND [OPTION...]\n"
		"       %s help COMMAND\n\n"
		"Stress, measure and check Linux pipes and FIFOs on the running kernel.\n\n"
		"Commands:\n", PB_PROG, PB_PROG);
	for (size_t i = 0; pb_cmds[i]; i++)
		fprintf(fp, "  %-13s %s\n", pb_cmds[i]->name, pb_cmds[i]->summary);
	fprintf(fp, "\nRun '%s COMMAND --help' for a command's options; see %s(1).\n"
		"Exit status: 0 pass, 1 fail, 2 usage error, 3 error, 4 nothing applicable.\n",
		PB_PROG, PB_PROG);
}

/* The command NAME, or NULL after a usage error (with a guess if one is close). */
static const struct pb_cmd *find_command(const char *what, const char *name)
{
	const struct pb_cmd *cmd = pb_cmd_find(name), *guess;

	if (cmd)
		return cmd;
	guess = pb_cmd_guess(name);
	if (guess)
		pb_usage_err(NULL, "%sunknown command '%s'; did you mean '%s'?", what, name,
			     guess->name);
	else
		pb_usage_err(NULL, "%sunknown command '%s'", what, name);
	return NULL;
}

/*
 * A full disk on stdout is an error, not silence (util-linux's
 * close_stdout): exit 3, saying why in the words the commands' documents
 * use.  A reader that went away (EPIPE: `pipebench --help | head -1`) is
 * not: what main writes (help, version, the listings) exits with STATUS,
 * as util-linux and git do; documents keep their own rule (pb_out_finish).
 * CMD: the command that ran (its --help included), or NULL.
 */
static int finish_stdout(const char *cmd, int status)
{
	bool failed = ferror(stdout) != 0;
	int e;

	/* Output still buffered is written now: its errno is the one to say.
	 * (What main writes fits in stdio's buffer; an error of an earlier
	 * write has lost its errno, said as "write error".) */
	errno = 0;
	if (fflush(stdout) != 0)
		failed = true;
	if (!failed)
		return status;
	e = errno;
	if (e == EPIPE)
		return status;
	pb_err(cmd, "cannot write standard output: %s", e ? strerror(e) : "write error");
	return PB_EXIT_ERROR;
}

int main(int argc, char **argv)
{
	const char **av = (const char **)argv;
	const struct pb_cmd *cmd;
	int probe = pb_checkproc_probe_main(argc, (const char *const *)av);

	/* CRE-03 re-executes this binary to see which fds survived execve. */
	if (probe >= 0)
		return probe;
	pb_run_set_argv(argc, (const char *const *)av);
	setlocale(LC_ALL, "");
	/* Numbers in output must not depend on the locale's decimal point. */
	setlocale(LC_NUMERIC, "C");
	/* A closed stdout shows as EPIPE from write(), handled quietly. */
	signal(SIGPIPE, SIG_IGN);

	if (argc < 2) {
		usage(stderr);
		return PB_EXIT_USAGE;
	}
	if (!strcmp(av[1], "--help") || !strcmp(av[1], "-h")) {
		usage(stdout);
		return finish_stdout(NULL, PB_EXIT_OK);
	}
	if (!strcmp(av[1], "--list-commands") && argc == 2) {
		for (size_t i = 0; pb_cmds[i]; i++)
			printf("%s\n", pb_cmds[i]->name);
		return finish_stdout(NULL, PB_EXIT_OK);
	}
	if (!strcmp(av[1], "--version")) {
		printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return finish_stdout(NULL, PB_EXIT_OK);
	}
	if (!strcmp(av[1], "help")) {
		if (argc == 2) {
			usage(stdout);
			return finish_stdout(NULL, PB_EXIT_OK);
		}
		if (argc > 3) {
			pb_usage_err(NULL, "help: unexpected argument '%s'", av[3]);
			return PB_EXIT_USAGE;
		}
		cmd = find_command("help: ", av[2]);
		if (!cmd)
			return PB_EXIT_USAGE;
		const char *hav[] = { cmd->name, "--help", NULL };
		return finish_stdout(cmd->name, pb_cmd_run(cmd, 2, hav));
	}
	if (av[1][0] == '-') {
		/* `pipebench -q timestamps`: say where it goes. */
		if (!pb_cli_misplaced_common(argc, av))
			pb_usage_err(NULL, "unknown option '%s'", av[1]);
		return PB_EXIT_USAGE;
	}
	cmd = find_command("", av[1]);
	if (!cmd)
		return PB_EXIT_USAGE;
	pb_cleanup_install(cmd->name);
	return finish_stdout(cmd->name, pb_cmd_run(cmd, argc - 1, av + 1));
}
