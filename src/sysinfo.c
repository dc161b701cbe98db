/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sysinfo.h"
#include "units.h"

int pb_read_long_file(const char *path, long *out)
{
	FILE *f = fopen(path, "re");
	int r = 0;

	if (!f)
		return -errno;
	if (fscanf(f, "%ld", out) != 1)
		r = -EINVAL;
	fclose(f);
	return r;
}

static long read_or_minus1(const char *path)
{
	long v;

	return pb_read_long_file(path, &v) == 0 ? v : -1;
}

void pb_sysinfo_collect(struct pb_sysinfo *si)
{
	struct utsname u;
	int fd[2];

	memset(si, 0, sizeof(*si));
	if (uname(&u) == 0) {
		snprintf(si->kernel_release, sizeof(si->kernel_release), "%s", u.release);
		snprintf(si->kernel_version, sizeof(si->kernel_version), "%s", u.version);
		snprintf(si->machine, sizeof(si->machine), "%s", u.machine);
		snprintf(si->hostname, sizeof(si->hostname), "%s", u.nodename);
	}
	snprintf(si->libc, sizeof(si->libc), "glibc %s", gnu_get_libc_version());
	si->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	si->page_size = sysconf(_SC_PAGESIZE);
	si->pipe_buf = PIPE_BUF;
	si->pipe_default_size = -1;
	if (pipe2(fd, O_CLOEXEC) == 0) {
		si->pipe_default_size = fcntl(fd[0], F_GETPIPE_SZ);
		close(fd[0]);
		close(fd[1]);
	}
	si->pipe_max_size = read_or_minus1("/proc/sys/fs/pipe-max-size");
	si->pipe_user_pages_soft = read_or_minus1("/proc/sys/fs/pipe-user-pages-soft");
	si->pipe_user_pages_hard = read_or_minus1("/proc/sys/fs/pipe-user-pages-hard");
	si->loadavg_1m = -1;
	{
		FILE *f = fopen("/proc/loadavg", "re");

		if (f && fscanf(f, "%lf", &si->loadavg_1m) != 1)
			si->loadavg_1m = -1;
		if (f)
			fclose(f);
	}
	if (sched_getaffinity(0, sizeof(si->allowed), &si->allowed) != 0)
		CPU_ZERO(&si->allowed);
	pb_format_cpu_list(&si->allowed, si->allowed_list, sizeof(si->allowed_list));
}

bool pb_sysinfo_has_cap(int cap)
{
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long eff = 0;
	char line[256];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &eff) == 1;
	fclose(f);
	return found && cap >= 0 && cap < 64 && (eff >> cap) & 1;
}

static struct json_object *long_or_null(long v)
{
	return v < 0 ? NULL : json_object_new_int64(v);
}

struct json_object *pb_sysinfo_json(const struct pb_sysinfo *si)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "kernel_release", json_object_new_string(si->kernel_release));
	json_object_object_add(o, "kernel_version", json_object_new_string(si->kernel_version));
	json_object_object_add(o, "machine", json_object_new_string(si->machine));
	json_object_object_add(o, "hostname", json_object_new_string(si->hostname));
	json_object_object_add(o, "libc", json_object_new_string(si->libc));
	json_object_object_add(o, "cpus_online", long_or_null(si->cpus_online));
	json_object_object_add(o, "page_size_bytes", long_or_null(si->page_size));
	json_object_object_add(o, "pipe_buf_bytes", long_or_null(si->pipe_buf));
	json_object_object_add(o, "pipe_default_size_bytes", long_or_null(si->pipe_default_size));
	json_object_object_add(o, "pipe_max_size_bytes", long_or_null(si->pipe_max_size));
	json_object_object_add(o, "pipe_user_pages_soft", long_or_null(si->pipe_user_pages_soft));
	json_object_object_add(o, "pipe_user_pages_hard", long_or_null(si->pipe_user_pages_hard));
	json_object_object_add(o, "cpus_allowed", json_object_new_string(si->allowed_list));
	/* Recorded so a comparison can tell a busy machine from a slow kernel. */
	json_object_object_add(o, "loadavg_1m", si->loadavg_1m >= 0 ?
			       json_object_new_double(si->loadavg_1m) : NULL);
	return o;
}
