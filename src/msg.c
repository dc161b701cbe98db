/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdio.h>

#include "msg.h"

static void vline(const char *cmd, const char *kind, const char *hint_cmd,
		  const char *fmt, va_list ap)
{
	char body[1024];

	vsnprintf(body, sizeof(body), fmt, ap);
	/* One line, whatever a file name or a file's content holds. */
	for (char *c = body; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	/* Build the whole line first so it reaches stderr in one write. */
	if (hint_cmd)
		fprintf(stderr, "%s%s%s: %s%s (try '%s%s%s --help')\n", PB_PROG,
			cmd ? " " : "", cmd ? cmd : "", kind, body, PB_PROG,
			cmd ? " " : "", cmd ? cmd : "");
	else
		fprintf(stderr, "%s%s%s: %s%s\n", PB_PROG, cmd ? " " : "",
			cmd ? cmd : "", kind, body);
}

void pb_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(cmd, "", NULL, fmt, ap);
	va_end(ap);
}

void pb_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(cmd, "warning: ", NULL, fmt, ap);
	va_end(ap);
}

void pb_usage_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(cmd, "", cmd ? cmd : "", fmt, ap);
	va_end(ap);
}
