/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Result documents and their destination.
 *
 * Output is collected in memory and written at the end to stdout or to
 * --output, so that a run that fails half-way never leaves half a document,
 * and a write error (full disk, closed pipe) is detected and reported.
 * JSON documents share one shape (HACKING, man page OUTPUT): tool, version, schema_version,
 * command, params, system, results/checks, summary, errors, exit_status.
 */
#ifndef PB_OUTPUT_H
#define PB_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

struct json_object;
struct pb_sysinfo;

#define PB_SCHEMA_VERSION 1

struct pb_out {
	FILE *fp;      /* write the document here */
	char *buf;
	size_t len;
};

/* Open an in-memory stream.  -errno on failure. */
int pb_out_open(struct pb_out *out);

/*
 * Write what was collected to PATH (NULL: stdout) and release the buffer.
 * Returns 0, or -errno when writing failed (the message is printed, naming
 * CMD).  EPIPE on stdout is not reported: the reader went away on purpose.
 */
int pb_out_finish(struct pb_out *out, const char *cmd, const char *path);

/* Release without writing. */
void pb_out_discard(struct pb_out *out);

/* New document with tool, version, schema_version, command and system. */
struct json_object *pb_doc_new(const char *command, const struct pb_sysinfo *si);

/* Record a diagnostic in the document's `errors` array. */
void pb_doc_add_error(struct json_object *doc, const char *msg);

/* Set `exit_status` and print the document to FP (pretty, one document). */
void pb_doc_write(struct json_object *doc, int exit_status, FILE *fp);

/* Helpers: add an int64 / double (null when not finite) / string member. */
void pb_json_add_int(struct json_object *o, const char *key, int64_t v);
void pb_json_add_double(struct json_object *o, const char *key, double v);
void pb_json_add_str(struct json_object *o, const char *key, const char *v);

/*
 * Record a command's outcome: STATUS into *STATUS_OUT and the printf
 * message into BUF (the one line printed and put in the document).
 * Commands wrap it as set_error(run, status, fmt, ...).
 */
void pb_status_set(int *status_out, char *buf, size_t len, int status, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
#define PB_SET_ERROR(run, st, ...) \
	pb_status_set(&(run)->status, (run)->error, sizeof((run)->error), (st), __VA_ARGS__)

/* Quote S for CSV (RFC 4180) into FP. */
void pb_csv_field(FILE *fp, const char *s);

#endif
