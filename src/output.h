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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;
struct pb_stats;
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

/*
 * End a command's document: add SUMMARY (unless NULL) as `summary`, ERROR
 * (unless NULL or empty) to `errors`, write it with EXIT_STATUS to FP and
 * release it.
 */
void pb_doc_finish(struct json_object *doc, struct json_object *summary, const char *error,
		   int exit_status, FILE *fp);

/* Helpers: add an int64 / double (null when not finite) / string member. */
void pb_json_add_int(struct json_object *o, const char *key, int64_t v);
void pb_json_add_double(struct json_object *o, const char *key, double v);
void pb_json_add_str(struct json_object *o, const char *key, const char *v);

/* A new JSON array of the N sizes V (the params' "sizes_bytes"). */
struct json_object *pb_json_u64_array(const uint64_t *v, size_t n);

/* A new JSON array of the words WORDS[IDX[0]] .. WORDS[IDX[N - 1]]: an
 * option's list of enum values (kinds, modes, placements) by name. */
#define PB_JSON_WORDS(words, idx, n) __extension__ ({ \
	struct json_object *pb_a_ = json_object_new_array(); \
	for (size_t pb_i_ = 0; pb_i_ < (size_t)(n); pb_i_++) \
		json_object_array_add(pb_a_, json_object_new_string((words)[(idx)[pb_i_]])); \
	pb_a_; })
/* Member PATH ("a.b.c", keys of nested objects) of O, or NULL. */
struct json_object *pb_json_get(struct json_object *o, const char *path);
/* The string, number (int or double; NAN otherwise), integer (DFLT
 * otherwise) at PATH; the length of an array (0 for anything else). */
const char *pb_json_str(struct json_object *o, const char *path);
double pb_json_num(struct json_object *o, const char *path);
long long pb_json_int(struct json_object *o, const char *path, long long dflt);
size_t pb_json_len(struct json_object *a);

/*
 * The emitter kit (man page OUTPUT): every command writes its
 * statistics, TAP, CSV and progress line through these, so that one shape
 * and one set of escaping rules hold everywhere.
 */

/*
 * The one statistics object: median, mean, min, max, stddev, rsd, spread
 * and n.  INTEGER: median, min and max are integers (nanoseconds, counts);
 * else numbers.  A value that is not finite is null.
 */
struct json_object *pb_json_stats(const struct pb_stats *s, bool integer);

/* Quote S for CSV (RFC 4180) into FP. */
void pb_csv_field(FILE *fp, const char *s);

/*
 * CSV: the header row once, then one row per repetition whose columns are
 * the JSON document's per-repetition fields; every row ends with the host
 * and kernel columns so CSVs from several machines can be concatenated.
 */
struct pb_csv {
	FILE *fp;
	const char *host, *kernel;
	bool any;            /* a field was written in this row */
	bool header_done;
};

/* Start a CSV on FP; HOST and KERNEL come from SI (NULL: the caller sets
 * c->host and c->kernel before each row, e.g. per compared document). */
void pb_csv_begin(struct pb_csv *c, FILE *fp, const struct pb_sysinfo *si);
/* The header: the NULL-terminated COLS, then host and kernel.  Only once. */
void pb_csv_header(struct pb_csv *c, const char *const *cols);
void pb_csv_str(struct pb_csv *c, const char *s);
void pb_csv_int(struct pb_csv *c, int64_t v);
/* The shortest text that reads back as V (as JSON's value); empty when not finite. */
void pb_csv_double(struct pb_csv *c, double v);
/* End a data row: host, kernel, newline. */
void pb_csv_row_end(struct pb_csv *c);

/*
 * One list of a result's fields for every format (HACKING, "Adding an
 * output format"): a command writes one function that names each field
 * once, in order, e.g.
 *   static void rep_fields(struct pb_row *r, const struct pb_engine_result *e)
 *   {
 *           pb_row_int(r, "tw_ns", (int64_t)e->tw_ns);
 *           pb_row_double(r, "rate_bytes_per_s", rep_rate(e));
 *   }
 * and calls it with a sink: into a JSON object (pb_row_json), as a CSV
 * header (pb_row_csv_header: the names; the values are not read, so a
 * zeroed row will do) or as a CSV data row (pb_row_csv), each CSV one ended
 * by pb_row_end (host, kernel, newline).  A field added there is in every
 * format.
 */
enum pb_row_kind { PB_ROW_JSON, PB_ROW_CSV_HEADER, PB_ROW_CSV };
struct pb_row {
	enum pb_row_kind kind;
	struct json_object *obj;   /* PB_ROW_JSON */
	struct pb_csv *csv;        /* the CSV kinds */
};
struct pb_row pb_row_json(struct json_object *obj);
/* NULL when C's header is written already: every field call is then a no-op. */
struct pb_row pb_row_csv_header(struct pb_csv *c);
struct pb_row pb_row_csv(struct pb_csv *c);
void pb_row_int(struct pb_row *r, const char *name, int64_t v);
/* Not finite: null in JSON, empty in CSV. */
void pb_row_double(struct pb_row *r, const char *name, double v);
/* NULL: null in JSON, empty in CSV. */
void pb_row_str(struct pb_row *r, const char *name, const char *v);
/* V when HAVE, else null (empty in CSV). */
void pb_row_int_or_null(struct pb_row *r, const char *name, bool have, int64_t v);
void pb_row_end(struct pb_row *r);

/*
 * TAP version 13.  Descriptions and directive reasons are escaped ('#' and
 * '\\' get a backslash, a newline becomes a space); YAML diagnostics follow
 * their test point and are closed by the next point or pb_tap_end().
 */
enum pb_tap_directive { PB_TAP_NONE, PB_TAP_SKIP, PB_TAP_TODO };

struct pb_tap {
	FILE *fp;
	unsigned n;          /* test points written */
	bool yaml;           /* a YAML block is open */
};

/* "TAP version 13" and the plan 1..PLAN. */
void pb_tap_begin(struct pb_tap *t, FILE *fp, size_t plan);
/* A whole document that runs nothing: "1..0 # SKIP WHY". */
void pb_tap_skip_all(FILE *fp, const char *why);
/* "ok N - DESC" or "not ok N - DESC", with " # SKIP|TODO REASON" for D. */
void pb_tap_point(struct pb_tap *t, bool ok, enum pb_tap_directive d, const char *reason,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* YAML diagnostics of the last point: a quoted string (NULL: null), a bare word, an integer. */
void pb_tap_yaml_str(struct pb_tap *t, const char *key, const char *val);
void pb_tap_yaml_word(struct pb_tap *t, const char *key, const char *word);
void pb_tap_yaml_int(struct pb_tap *t, const char *key, int64_t v);
/* A comment line "# ..." (after the open YAML block is closed). */
void pb_tap_comment(struct pb_tap *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Close the open YAML block, if any. */
void pb_tap_end(struct pb_tap *t);
/* Escaped TAP description text into FP. */
void pb_tap_text(FILE *fp, const char *s);
/* YAML double-quoted scalar into FP. */
void pb_yaml_quoted(FILE *fp, const char *s);

/*
 * The progress line: "pipebench CMD: what ... (ETA 1m05s)" on stderr,
 * redrawn in place.  Shown only when ON (stderr is a terminal and not
 * --quiet: pb_cli_progress).  TOTAL is the planned work in units when
 * known (0: unknown); each pb_progress_show() starts an item of one unit,
 * pb_progress_item() one of a given weight (parts whose lengths differ).
 * A duration budget (pb_progress_budget) gives an ETA before any item is
 * done, or when the work is not counted (a --duration calibration).
 */
struct pb_progress {
	FILE *fp;            /* stderr */
	const char *cmd;
	bool on;
	uint64_t total;      /* planned units, 0: unknown */
	uint64_t done;       /* units of the items finished */
	uint64_t current;    /* units of the item in progress */
	uint64_t t0_ns;      /* pb_progress_start's time */
	uint64_t budget_ns;  /* the whole work should take this long, 0: no budget */
};

void pb_progress_start(struct pb_progress *p, const char *cmd, bool on, uint64_t total);
/* The work started by pb_progress_start should take about NS in all. */
void pb_progress_budget(struct pb_progress *p, uint64_t ns);
/* Start an item of one unit, the previous one done. */
void pb_progress_show(struct pb_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Start an item of UNITS units (0 counts as 1), the previous one done. */
void pb_progress_item(struct pb_progress *p, uint64_t units, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Seconds left at NOW_NS (CLOCK_MONOTONIC), or NAN when unknown: from the
 * rate of the units done so far when some are done and the total is known
 * (the item in progress counts as left), else what the budget leaves
 * (NAN once it is spent), else NAN.  With both, the budget's until a
 * tenth of the total is done.
 */
double pb_progress_eta(const struct pb_progress *p, uint64_t now_ns);
/* Clear the line. */
void pb_progress_end(struct pb_progress *p);

/*
 * Remaining time as "ETA 42s", "ETA 3m07s", "ETA 2h05m" (">99h" above);
 * empty when SECONDS is negative or not finite.  Returns the length.
 */
int pb_format_eta(double seconds, char *buf, size_t len);

/*
 * A document transform (--format lava; src/format.c has the table): when
 * set, pb_out_finish() parses the buffer it is about to write as one JSON
 * document and writes what FN makes of it instead.
 */
typedef void (*pb_out_transform)(struct json_object *doc, FILE *fp);
void pb_out_set_transform(pb_out_transform fn);

#endif
