/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages on stderr, one line each: `pipebench[ <command>]: <what>: <why>`,
 * where "pipebench" is the installed name (PB_PROG).
 */
#ifndef PB_MSG_H
#define PB_MSG_H

#include <stdarg.h>

/*
 * The name the program is installed under, after configure's
 * --program-prefix, --program-suffix and --program-transform-name (config.h,
 * which every source file includes first).  Every message, usage line and
 * help text names the program through this string literal, so a user who
 * installed `pb-pipebench` is never told to try `pipebench --help`.
 */
#ifndef PB_PROG_NAME
#error "config.h must be included before msg.h"
#endif
#define PB_PROG PB_PROG_NAME

/* Error line for command CMD (NULL for the top level). */
void pb_err(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Warning line: `pipebench CMD: warning: ...`. */
void pb_warn(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Usage error: the message, then ` (try 'pipebench CMD --help')` on the same
 * line so scripts can rely on a single line per error.
 */
void pb_usage_err(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
