/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Facts about the running system that every result records. */
#ifndef PB_SYSINFO_H
#define PB_SYSINFO_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

struct pb_sysinfo {
	char kernel_release[128];
	char kernel_version[256];
	char machine[65];
	char hostname[128];
	char libc[64];
	long cpus_online;
	long page_size;
	long pipe_buf;           /* PIPE_BUF */
	long pipe_default_size;  /* F_GETPIPE_SZ of a fresh pipe; -1 unknown */
	long pipe_max_size;      /* /proc/sys/fs/pipe-max-size; -1 unknown */
	long pipe_user_pages_soft, pipe_user_pages_hard; /* -1 unknown */
	double loadavg_1m;       /* /proc/loadavg; -1 unknown */
	cpu_set_t allowed;       /* affinity mask at start */
	char allowed_list[256];
};

/* Fill SI from uname, sysconf, /proc and a probe pipe.  Never fails. */
void pb_sysinfo_collect(struct pb_sysinfo *si);

/* Read a single integer from a /proc or /sys file; -errno on failure. */
int pb_read_long_file(const char *path, long *out);

/* The first line of PATH (at most LEN - 1 bytes) without its trailing
 * newline and white space, in BUF; false when unreadable or empty. */
bool pb_read_line_file(const char *path, char *buf, size_t len);

/* The 1-, 5- and 15-minute load averages of /proc/loadavg into LA; false
 * when it cannot be read. */
bool pb_read_loadavg(double la[3]);

/* Capability numbers (linux/capability.h) for pb_sysinfo_has_cap and
 * pb_check_has_cap. */
enum {
	PB_CAP_SETUID = 7,
	PB_CAP_SYS_ADMIN = 21,
	PB_CAP_SYS_RESOURCE = 24,
	PB_CAP_MKNOD = 27,
};

/* Whether the effective capability set (CapEff) holds CAP, e.g. 24 for
 * CAP_SYS_RESOURCE: capabilities decide, never the user ID. */
bool pb_sysinfo_has_cap(int cap);

/* The `system` object of the JSON document. */
struct json_object *pb_sysinfo_json(const struct pb_sysinfo *si);

/*
 * The `run` object every JSON document carries (man page OUTPUT): when,
 * where and as whom it ran.  main() records the exact argv once;
 * pb_cmd_run() marks the start of each command (a report part, forked,
 * marks its own).  pb_run_json() is built when called: that is the end.
 */
void pb_run_set_argv(int argc, const char *const *argv);
void pb_run_mark_start(void);
struct json_object *pb_run_json(void);

/* The line of text output that says what the machine's state was: LABEL,
 * then pb_machine_summary of the run object's virtualization and state. */
void pb_text_machine(FILE *fp, const char *label);

/* The names of the capabilities set in MASK (CAP_CHOWN ...; an unknown bit
 * as "cap_N"), as a JSON array in bit order. */
struct json_object *pb_caps_json(unsigned long long mask);

/* The effective capability set (CapEff of /proc/self/status); false when unknown. */
bool pb_sysinfo_cap_eff(unsigned long long *mask);

/* Format the realtime instant NS (nanoseconds since the epoch) as RFC 3339
 * UTC with milliseconds ("2026-11-30T23:09:40.123Z"). */
void pb_format_rfc3339(long long ns, char *buf, size_t len);

/*
 * Parse an os-release file's KEY=value line into VAL: the value unquoted
 * (double or single quotes, backslash escapes in double quotes).  Returns
 * true when LINE sets KEY.
 */
bool pb_os_release_value(const char *line, const char *key, char *val, size_t len);

#endif
