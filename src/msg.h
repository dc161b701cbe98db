/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages on stderr, one line each: `pipebench[ <command>]: <what>: <why>`.
 */
#ifndef PB_MSG_H
#define PB_MSG_H

#include <stdarg.h>

#define PB_PROG "pipebench"

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
