/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Facts about the running system that every result records. */
#ifndef PB_SYSINFO_H
#define PB_SYSINFO_H

#include <sched.h>
#include <stdbool.h>

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

/* Whether the effective capability set (CapEff) holds CAP, e.g. 24 for
 * CAP_SYS_RESOURCE: capabilities decide, never the user ID. */
bool pb_sysinfo_has_cap(int cap);

/* The `system` object of the JSON document. */
struct json_object *pb_sysinfo_json(const struct pb_sysinfo *si);

#endif
