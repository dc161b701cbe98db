/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "machine.h"
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
	double la[3];
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
	si->loadavg_1m = pb_read_loadavg(la) ? la[0] : -1;
	if (sched_getaffinity(0, sizeof(si->allowed), &si->allowed) != 0)
		CPU_ZERO(&si->allowed);
	pb_format_cpu_list(&si->allowed, si->allowed_list, sizeof(si->allowed_list));
}

bool pb_sysinfo_has_cap(int cap)
{
	unsigned long long eff;

	return pb_sysinfo_cap_eff(&eff) && cap >= 0 && cap < 64 && (eff >> cap) & 1;
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

/* ---- the `run` object ------------------------------------------------ */

static const char *const *run_argv;
static int run_argc;
static long long run_start_ns = -1;

static void add_str(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, v ? json_object_new_string(v) : NULL);
}

static long long realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void pb_run_set_argv(int argc, const char *const *argv)
{
	run_argc = argc;
	run_argv = argv;
}

void pb_run_mark_start(void)
{
	run_start_ns = realtime_ns();
	pb_machine_mark_start();
}

void pb_format_rfc3339(long long ns, char *buf, size_t len)
{
	time_t s = (time_t)(ns / 1000000000LL);
	struct tm tm;
	char b[32];

	if (!gmtime_r(&s, &tm) || !strftime(b, sizeof(b), "%Y-%m-%dT%H:%M:%S", &tm)) {
		snprintf(buf, len, "%s", "");
		return;
	}
	snprintf(buf, len, "%s.%03lldZ", b, ns % 1000000000LL / 1000000LL);
}

bool pb_os_release_value(const char *line, const char *key, char *val, size_t len)
{
	size_t kl = strlen(key), o = 0;
	const char *p = line + kl;
	char q = 0;

	if (strncmp(line, key, kl) != 0 || *p != '=')
		return false;
	p++;
	if (*p == '"' || *p == '\'')
		q = *p++;
	for (; *p && *p != '\n' && *p != q; p++) {
		if (q == '"' && *p == '\\' && p[1] && p[1] != '\n')
			p++;
		if (o + 1 < len)
			val[o++] = *p;
	}
	if (len)
		val[o < len ? o : len - 1] = '\0';
	return true;
}

static void os_release(struct json_object *o)
{
	static const char *const keys[] = { "ID", "VERSION_ID", "PRETTY_NAME" };
	static const char *const names[] = { "id", "version_id", "pretty_name" };
	char vals[3][256] = { "", "", "" }, line[512];
	bool got[3] = { false, false, false };
	FILE *f = fopen("/etc/os-release", "re");

	if (!f)
		f = fopen("/usr/lib/os-release", "re");
	while (f && fgets(line, sizeof(line), f))
		for (int i = 0; i < 3; i++)
			if (!got[i])
				got[i] = pb_os_release_value(line, keys[i], vals[i], sizeof(vals[i]));
	if (f)
		fclose(f);
	for (int i = 0; i < 3; i++)
		json_object_object_add(o, names[i], got[i] ? json_object_new_string(vals[i]) : NULL);
}

/* The first "KEY : value" line of /proc/cpuinfo among KEYS, into VAL. */
static bool cpuinfo_value(const char *const *keys, char *val, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[1024];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *e;
		size_t kl;

		if (!colon)
			continue;
		for (e = colon; e > line && (e[-1] == ' ' || e[-1] == '\t'); e--)
			;
		kl = (size_t)(e - line);
		for (size_t i = 0; keys[i] && !found; i++) {
			if (strlen(keys[i]) != kl || strncmp(line, keys[i], kl) != 0)
				continue;
			colon++;
			colon += strspn(colon, " \t");
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(val, len, "%s", colon);
			found = true;
		}
	}
	if (f)
		fclose(f);
	return found;
}

static bool meminfo_bytes(const char *key, long long *out)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	size_t kl = strlen(key);
	long long kb;
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		if (strncmp(line, key, kl) == 0 && line[kl] == ':' &&
		    sscanf(line + kl + 1, "%lld", &kb) == 1) {
			*out = kb * 1024;
			found = true;
		}
	if (f)
		fclose(f);
	return found;
}

bool pb_read_loadavg(double la[3])
{
	FILE *f = fopen("/proc/loadavg", "re");
	bool ok = f && fscanf(f, "%lf %lf %lf", &la[0], &la[1], &la[2]) == 3;

	if (f)
		fclose(f);
	return ok;
}

bool pb_read_line_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return false;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return n > 0;
}

/*
 * Virtualisation as the kernel reports it: the CPU's "hypervisor" flag
 * (x86), /sys/hypervisor/type (Xen), the firmware's DMI vendor and product
 * names; a container by the files its engine leaves.  Unknown stays null.
 */
static struct json_object *virt_json(void)
{
	static const struct { const char *match, *name; } dmi[] = {
		{ "QEMU", "qemu" }, { "KVM", "kvm" }, { "VMware", "vmware" },
		{ "VirtualBox", "oracle" }, { "innotek", "oracle" }, { "Xen", "xen" },
		{ "Bochs", "bochs" }, { "Amazon EC2", "amazon" }, { "Google Compute Engine", "google" },
		{ "Parallels", "parallels" }, { "BHYVE", "bhyve" }, { "Virtual Machine", "microsoft" },
	};
	static const char *const flags_keys[] = { "flags", NULL };
	struct json_object *o = json_object_new_object();
	const char *hv = NULL, *container = NULL;
	char b[1024], hvbuf[64];
	int virt = -1;

	if (cpuinfo_value(flags_keys, b, sizeof(b))) {
		size_t n = strlen(b);

		b[n < sizeof(b) - 1 ? n : n - 1] = ' ';
		b[n < sizeof(b) - 1 ? n + 1 : n] = '\0';
		virt = strstr(b, " hypervisor ") != NULL || strncmp(b, "hypervisor ", 11) == 0;
	}
	if (pb_read_line_file("/sys/hypervisor/type", hvbuf, sizeof(hvbuf))) {
		hv = hvbuf;
		virt = 1;
	}
	for (int f = 0; !hv && f < 2; f++) {
		if (!pb_read_line_file(f ? "/sys/class/dmi/id/product_name" :
				    "/sys/class/dmi/id/sys_vendor", b, sizeof(b)))
			continue;
		for (size_t i = 0; !hv && i < sizeof(dmi) / sizeof(dmi[0]); i++)
			if (strstr(b, dmi[i].match)) {
				hv = dmi[i].name;
				virt = 1;
			}
	}
	if (access("/run/.containerenv", F_OK) == 0)
		container = "podman";
	else if (access("/.dockerenv", F_OK) == 0)
		container = "docker";
	json_object_object_add(o, "virtualized", virt < 0 ? NULL : json_object_new_boolean(virt));
	add_str(o, "hypervisor", hv);
	add_str(o, "container", container);
	return o;
}

bool pb_sysinfo_cap_eff(unsigned long long *mask)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", mask) == 1;
	if (f)
		fclose(f);
	return found;
}

struct json_object *pb_caps_json(unsigned long long mask)
{
	/* linux/capability.h, in bit order. */
	static const char *const names[] = {
		"CHOWN", "DAC_OVERRIDE", "DAC_READ_SEARCH", "FOWNER", "FSETID", "KILL", "SETGID",
		"SETUID", "SETPCAP", "LINUX_IMMUTABLE", "NET_BIND_SERVICE", "NET_BROADCAST",
		"NET_ADMIN", "NET_RAW", "IPC_LOCK", "IPC_OWNER", "SYS_MODULE", "SYS_RAWIO",
		"SYS_CHROOT", "SYS_PTRACE", "SYS_PACCT", "SYS_ADMIN", "SYS_BOOT", "SYS_NICE",
		"SYS_RESOURCE", "SYS_TIME", "SYS_TTY_CONFIG", "MKNOD", "LEASE", "AUDIT_WRITE",
		"AUDIT_CONTROL", "SETFCAP", "MAC_OVERRIDE", "MAC_ADMIN", "SYSLOG", "WAKE_ALARM",
		"BLOCK_SUSPEND", "AUDIT_READ", "PERFMON", "BPF", "CHECKPOINT_RESTORE",
	};
	struct json_object *a = json_object_new_array();
	char b[32];

	for (unsigned bit = 0; bit < 64; bit++) {
		if (!((mask >> bit) & 1))
			continue;
		if (bit < sizeof(names) / sizeof(names[0]))
			snprintf(b, sizeof(b), "CAP_%s", names[bit]);
		else
			snprintf(b, sizeof(b), "cap_%u", bit);
		json_object_array_add(a, json_object_new_string(b));
	}
	return a;
}

static struct json_object *num_or_null(bool ok, long long v)
{
	return ok ? json_object_new_int64(v) : NULL;
}

struct json_object *pb_run_json(void)
{
	static const char *const model_keys[] = {
		"model name", "Processor", "cpu model", "cpu", "uarch", NULL,
	};
	struct json_object *run = json_object_new_object(), *o;
	unsigned long long caps;
	long long now = realtime_ns(), v;
	double la[3];
	char b[256];
	bool ok;
	struct utsname u;
	cpu_set_t set;

	pb_format_rfc3339(run_start_ns >= 0 ? run_start_ns : now, b, sizeof(b));
	add_str(run, "start", b);
	pb_format_rfc3339(now, b, sizeof(b));
	add_str(run, "end", b);
	if (uname(&u) != 0)
		memset(&u, 0, sizeof(u));
	add_str(run, "hostname", u.nodename);

	o = json_object_new_object();
	os_release(o);
	json_object_object_add(run, "os", o);

	o = json_object_new_object();
	add_str(o, "release", u.release);
	add_str(o, "version", u.version);
	add_str(o, "machine", u.machine);
	json_object_object_add(run, "kernel", o);

	o = json_object_new_object();
	add_str(o, "model", cpuinfo_value(model_keys, b, sizeof(b)) ? b : NULL);
	v = sysconf(_SC_NPROCESSORS_ONLN);
	json_object_object_add(o, "online", num_or_null(v > 0, v));
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		json_object_object_add(o, "allowed", json_object_new_int(CPU_COUNT(&set)));
		pb_format_cpu_list(&set, b, sizeof(b));
		add_str(o, "allowed_list", b);
	} else {
		json_object_object_add(o, "allowed", NULL);
		json_object_object_add(o, "allowed_list", NULL);
	}
	json_object_object_add(run, "cpu", o);

	o = json_object_new_object();
	/* Two statements: an argument's order of evaluation is unspecified. */
	ok = meminfo_bytes("MemTotal", &v);
	json_object_object_add(o, "total_bytes", num_or_null(ok, v));
	ok = meminfo_bytes("MemAvailable", &v);
	json_object_object_add(o, "available_bytes", num_or_null(ok, v));
	json_object_object_add(run, "memory", o);

	json_object_object_add(run, "virtualization", virt_json());

	o = json_object_new_object();
	json_object_object_add(o, "uid", json_object_new_int64(getuid()));
	json_object_object_add(o, "euid", json_object_new_int64(geteuid()));
	json_object_object_add(o, "gid", json_object_new_int64(getgid()));
	json_object_object_add(o, "egid", json_object_new_int64(getegid()));
	json_object_object_add(o, "capabilities",
			       pb_sysinfo_cap_eff(&caps) ? pb_caps_json(caps) : NULL);
	json_object_object_add(run, "user", o);

	o = NULL;
	if (pb_read_loadavg(la)) {
		o = json_object_new_object();
		json_object_object_add(o, "1m", json_object_new_double(la[0]));
		json_object_object_add(o, "5m", json_object_new_double(la[1]));
		json_object_object_add(o, "15m", json_object_new_double(la[2]));
	}
	json_object_object_add(run, "loadavg", o);
	json_object_object_add(run, "state", pb_machine_json());

	o = json_object_new_object();
	add_str(o, "version", PACKAGE_VERSION);
	/* No program interpreter (ld.so): linked statically. */
	json_object_object_add(o, "static", json_object_new_boolean(getauxval(AT_BASE) == 0));
	{
		struct json_object *a = json_object_new_array();

		for (int i = 0; run_argv && i < run_argc; i++)
			json_object_array_add(a, json_object_new_string(run_argv[i]));
		json_object_object_add(o, "argv", a);
	}
	json_object_object_add(run, "pipebench", o);
	return run;
}

void pb_text_machine(FILE *fp, const char *label)
{
	/* the two members of a run object the summary reads, not the rest */
	struct json_object *run = json_object_new_object();
	char b[1024];

	json_object_object_add(run, "virtualization", virt_json());
	json_object_object_add(run, "state", pb_machine_json());
	pb_machine_summary(run, b, sizeof(b));
	json_object_put(run);
	fprintf(fp, "%s%s\n", label, b);
}
