/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "cmd.h"
#include "units.h"

const struct pb_cmd *const pb_cmds[] = {
	&pb_cmd_report,
	&pb_cmd_throughput,
	&pb_cmd_conformance,
	&pb_cmd_timestamps,
	&pb_cmd_o_noatime,
	&pb_cmd_messaging,
	&pb_cmd_latency,
	&pb_cmd_compare,
	&pb_cmd_bisect,
	&pb_cmd_grid,
	&pb_cmd_plot,
	NULL,
};

const struct pb_cmd *pb_cmd_find(const char *name)
{
	for (size_t i = 0; pb_cmds[i]; i++)
		if (strcmp(pb_cmds[i]->name, name) == 0)
			return pb_cmds[i];
	return NULL;
}

const struct pb_cmd *pb_cmd_guess(const char *name)
{
	const char *names[16];
	const char *hit;
	size_t n = 0;

	for (; pb_cmds[n] && n < 16; n++)
		names[n] = pb_cmds[n]->name;
	hit = pb_did_you_mean(name, names, n);
	return hit ? pb_cmd_find(hit) : NULL;
}

static int exit_rank(int s)
{
	switch (s) {
	case PB_EXIT_USAGE: return 5;
	case PB_EXIT_ERROR: return 4;
	case PB_EXIT_FAIL: return 3;
	case PB_EXIT_NA: return 2;
	case PB_EXIT_OK: return 1;
	default: return 6; /* 128+signal and anything unexpected wins */
	}
}

int pb_exit_merge(int a, int b)
{
	return exit_rank(a) >= exit_rank(b) ? a : b;
}

int pb_exit_of_part(int status)
{
	/* report built the part's arguments itself: a usage error there, or
	 * a part that could not even run, is report's own failure. */
	if (status < 0 || status == PB_EXIT_USAGE)
		return PB_EXIT_ERROR;
	return status == PB_EXIT_NA ? PB_EXIT_OK : status;
}

void pb_status_set(int *status_out, char *buf, size_t len, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	*status_out = status;
}

int pb_tmpdir_make_or_error(const char *base, char *out, size_t len, int *status, char *error,
			    size_t errlen, int st)
{
	int r = pb_tmpdir_make(base, out, len);

	if (r) {
		out[0] = '\0';
		pb_status_set(status, error, errlen, st, "cannot make a directory in %s: %s",
			      base, strerror(-r));
	}
	return r;
}
