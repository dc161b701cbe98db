/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench report: a one-shot profile of the running kernel.  Each part is
 * another pipebench command run in a forked child with --format json, under
 * its own watchdog; its document is embedded whole under `parts`, so
 * `compare` reads a report like the commands it is made of.
 *
 * A part's standard output and standard error go to files in the report's
 * private temporary directory, not through a pipe: a harness must not trust
 * what it measures, and a part that fails is reported with its own one-line
 * error.  SIGINT, SIGTERM and SIGHUP stop the part running (it is marked
 * `interrupted by SIG...`), and the report of the parts finished so far is
 * still written before the exit with 128+signal.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchcmd.h"
#include "cleanup.h"
#include "cli.h"
#include "clock.h"
#include "membw.h"
#include "msg.h"
#include "lava.h"
#include "output.h"
#include "stats.h"
#include "sysinfo.h"
#include "units.h"
#include "uring.h"

#define NAME "report"
#define MAX_ARGS 24
#define MAX_DOC (64u << 20)     /* a part's document, at most */
#define MAX_STDERR 4096u        /* what is kept of a part's standard error */
#define INTR_GRACE_S 10         /* an interrupted part's time to write its document */


struct report;

/* A part's lines in the text report, from its document. */
typedef void part_text_fn(FILE *fp, const struct report *rep, struct json_object *doc);
static part_text_fn text_timestamps, text_o_noatime, text_conformance, text_throughput,
	text_throughput_64k, text_messaging, text_latency;

struct part {
	const char *name;      /* key under `parts` */
	const char *title;     /* shown in progress and text */
	const char *args;      /* command and arguments, space-separated */
	const char *quick;     /* arguments with --quick (NULL: same) */
	unsigned timeout_s;
	unsigned ds[2];        /* about how long it takes (tenths of a second, on a
				* 2-CPU VM; [1]: --quick): its weight for the ETA */
	bool wants_dir;        /* pass --dir */
	part_text_fn *text;    /* its renderer */
	bool precision;        /* takes --precision (measures figures) */
	bool profile;          /* takes --profile */
};

/* The report's parts, in order.  Loops are chosen so the whole report takes
 * about 30 s on a 2-CPU machine (about 10 s with --quick). */
static const struct part parts[] = {
	{ "timestamps", "timestamps", "timestamps", NULL, 30, { 1, 1 }, true, text_timestamps, false, true },
	{ "o_noatime", "O_NOATIME", "o_noatime --loops 1000 --repeat 3",
	  "o_noatime --loops 300 --repeat 3", 60, { 40, 13 }, true, text_o_noatime, true, true },
	{ "conformance", "conformance", "conformance", NULL, 300, { 22, 21 }, false,
	  text_conformance, false, false },
	{ "throughput", "throughput", "throughput --kind anon,fifo --size 100,4K --loops 2000 --repeat 5",
	  "throughput --kind anon,fifo --size 100,4K --loops 600 --repeat 3", 120, { 100, 22 },
	  true, text_throughput, true, true },
	{ "throughput_64k", "64 KiB throughput", "throughput --kind anon --size 64K --mode rw,vmsplice,splice --loops 20000 --repeat 5",
	  "throughput --kind anon --size 64K --mode rw,vmsplice,splice --loops 5000 --repeat 3", 90,
	  { 30, 5 }, false, text_throughput_64k, true, true },
	{ "messaging", "messaging", "messaging --groups 2 --loops 200 --repeat 3",
	  "messaging --groups 2 --loops 50 --repeat 3", 60, { 5, 2 }, false, text_messaging, true, true },
	{ "latency", "latency", "latency --kind anon --placement same,core --loops 10000 --repeat 3",
	  "latency --kind anon --placement same,core --loops 3000 --repeat 3", 60, { 36, 6 }, false,
	  text_latency, true, true },
};
/* The copy ceiling's measure, weighted as the parts are. */
static const unsigned membw_ds[2] = { 10, 3 };
#define NPARTS (sizeof(parts) / sizeof(parts[0]))

struct part_run {
	struct json_object *doc;   /* the part's document, or NULL */
	int status;                /* its exit status, or -1 when it did not finish */
	uint64_t duration_ns;
	bool ran;                  /* started (or interrupted before it started) */
	bool interrupted;
	char error[512];
};

struct report {
	const char *dir;
	char tmp[PATH_MAX];        /* private directory for the parts' output */
	int intr;                  /* the signal that interrupted the report, or 0 */
	bool quick;
	unsigned selected;         /* bit i: parts[i] */
	double precision;          /* --precision PCT for the measuring parts, 0: off */
	uint64_t precision_budget_ns; /* --precision-budget: all of theirs together */
	bool profile;              /* --profile for the parts that take it */
	struct part_run runs[NPARTS];
	struct pb_stats membw;     /* bytes/s of memcpy */
	int membw_ok;
	uint64_t membw_ns;         /* how long its measure took */
	struct pb_uring_probe uring[2]; /* io_uring on an anonymous pipe, a FIFO */
	bool uring_probed;
	int status;
};

/* Split ARGS at spaces into argv (the string is modified); returns argc. */
static int split(char *args, const char **argv, int max)
{
	int n = 0;

	for (char *tok = strtok(args, " "); tok && n < max - 1; tok = strtok(NULL, " "))
		argv[n++] = tok;
	argv[n] = NULL;
	return n;
}

/* The first MAX bytes of PATH, NUL-terminated, in *BUF (NULL: no file). */
static int read_file(const char *path, size_t max, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 0;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	for (;;) {
		ssize_t n;

		if (*len + 65536 > cap) {
			char *nb = realloc(*buf, cap = cap * 2 + 65536);

			if (!nb) {
				close(fd);
				free(*buf);
				*buf = NULL;
				return -ENOMEM;
			}
			*buf = nb;
		}
		n = read(fd, *buf + *len, (cap - *len - 1 < max - *len ? cap - *len - 1 : max - *len));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = -errno;

			close(fd);
			free(*buf);
			*buf = NULL;
			return e;
		}
		*len += (size_t)n;
		if (n == 0 || *len >= max)
			break;
	}
	close(fd);
	(*buf)[*len] = '\0';
	return 0;
}

/*
 * A part's standard error as one line: its lines joined with "; ", each
 * without the " (try 'pipebench CMD --help')" hint, which is no use to
 * whoever ran report.
 */
static void stderr_line(const char *path, char *out, size_t len)
{
	char *buf, *save = NULL;
	size_t n, off = 0;

	out[0] = '\0';
	if (read_file(path, MAX_STDERR, &buf, &n) || !buf)
		return;
	for (char *l = strtok_r(buf, "\n", &save); l && off < len; l = strtok_r(NULL, "\n", &save)) {
		char *hint = strstr(l, " (try '" PB_PROG " ");

		if (hint && strstr(hint, " --help')"))
			*hint = '\0';
		l[strcspn(l, "\r")] = '\0';
		if (*l)
			off += (size_t)snprintf(out + off, len - off, "%s%s", off ? "; " : "", l);
	}
	free(buf);
}

/*
 * Stop a part: SIGTERM first, so the command removes its own FIFOs and
 * directories and stops its children, then SIGKILL after a grace
 * period.
 */
static void stop_part(pid_t pid)
{
	struct timespec tick = { 0, 10000000 };

	kill(pid, SIGTERM);
	kill(pid, SIGCONT); /* a stopped part must run to handle it */
	for (int i = 0; i < 300; i++) {
		if (waitpid(pid, NULL, WNOHANG) != 0)
			return;
		nanosleep(&tick, NULL);
	}
	kill(pid, SIGKILL);
}

static void child_run(const struct pb_cmd *cmd, int argc, const char **argv, const char *out,
		      const char *err)
{
	int o = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
	int e = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);

	if (o < 0 || e < 0)
		_exit(PB_EXIT_ERROR);
	pb_cleanup_install(cmd->name);
	dup2(o, STDOUT_FILENO);
	dup2(e, STDERR_FILENO);
	close(o);
	close(e);
	_exit(pb_cmd_run(cmd, argc, argv) & 0xff);
}

static const char *sig_name(int sig)
{
	return sigabbrev_np(sig) ? sigabbrev_np(sig) : "?";
}

/* Wait for PID until DEADLINE (ns); on an interruption, for INTR_GRACE_S more at most. */
static int wait_part(pid_t pid, uint64_t deadline, int *st)
{
	struct timespec tick = { 0, 5000000 };
	bool intr = false;

	for (;;) {
		pid_t w = waitpid(pid, st, WNOHANG);
		uint64_t now = pb_clock_ns();

		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (!intr && pb_cleanup_interrupted()) {
			/* The handler sent it SIGTERM: give it time to write. */
			intr = true;
			if (deadline > now + INTR_GRACE_S * 1000000000ULL)
				deadline = now + INTR_GRACE_S * 1000000000ULL;
		}
		if (now >= deadline)
			return -ETIMEDOUT;
		nanosleep(&tick, NULL);
	}
}

/* The first of a part's own `errors`, else its exit status. */
static void first_error(struct part_run *pr)
{
	struct json_object *errs = pb_json_get(pr->doc, "errors");

	if (errs && json_object_is_type(errs, json_type_array) &&
	    json_object_array_length(errs) > 0)
		snprintf(pr->error, sizeof(pr->error), "%s",
			 json_object_get_string(json_object_array_get_idx(errs, 0)));
	else
		snprintf(pr->error, sizeof(pr->error), "exit status %d", pr->status);
}

/* --precision: part PT's share of the report's budget, by its weight
 * among the selected parts that take it (0: no --precision for it). */
static uint64_t part_budget_ns(const struct report *rep, const struct part *pt)
{
	uint64_t ds = 0, b;

	if (!(rep->precision > 0) || !pt->precision)
		return 0;
	for (size_t i = 0; i < NPARTS; i++)
		if ((rep->selected & (1u << i)) && parts[i].precision)
			ds += parts[i].ds[rep->quick];
	b = ds ? rep->precision_budget_ns / ds * pt->ds[rep->quick] : 0;
	return b > PB_BUDGET_MIN_NS ? b : PB_BUDGET_MIN_NS;
}

static void run_part(const struct report *rep, const struct part *pt, struct part_run *pr)
{
	char pct[32], budget[32];
	uint64_t budget_ns = part_budget_ns(rep, pt);
	char args[512], out[PATH_MAX], err[PATH_MAX], msg[sizeof(pr->error)];
	const char *argv[MAX_ARGS];
	const struct pb_cmd *cmd;
	uint64_t t0 = pb_clock_ns();
	char *buf = NULL;
	size_t len = 0;
	int argc, st = 0, r, intr;
	pid_t pid;

	pr->status = -1;
	pr->ran = true;
	snprintf(args, sizeof(args), "%s", rep->quick && pt->quick ? pt->quick : pt->args);
	argc = split(args, argv, MAX_ARGS - 10);
	if (rep->profile && pt->profile)
		argv[argc++] = "--profile";
	if (budget_ns) {
		snprintf(pct, sizeof(pct), "%g", rep->precision);
		snprintf(budget, sizeof(budget), "%llums",
			 (unsigned long long)(budget_ns / 1000000));
		argv[argc++] = "--precision";
		argv[argc++] = pct;
		argv[argc++] = "--precision-budget";
		argv[argc++] = budget;
	}
	argv[argc++] = "--format";
	argv[argc++] = "json";
	argv[argc++] = "--quiet";
	if (pt->wants_dir && rep->dir) {
		argv[argc++] = "--dir";   /* whole, whatever it contains */
		argv[argc++] = rep->dir;
	}
	argv[argc] = NULL;
	cmd = pb_cmd_find(argv[0]);
	if (!cmd) {
		snprintf(pr->error, sizeof(pr->error), "command not built in");
		return;
	}
	if ((size_t)snprintf(out, sizeof(out), "%s/%s.json", rep->tmp, pt->name) >= sizeof(out) ||
	    (size_t)snprintf(err, sizeof(err), "%s/%s.err", rep->tmp, pt->name) >= sizeof(err)) {
		snprintf(pr->error, sizeof(pr->error), "temporary file names: %s", strerror(ENAMETOOLONG));
		return;
	}
	if (pb_cleanup_add_path(out, 0) || pb_cleanup_add_path(err, 0)) {
		pb_cleanup_del_path(out);
		snprintf(pr->error, sizeof(pr->error), "too many temporary files");
		return;
	}
	fflush(NULL);
	pid = pb_cleanup_fork();
	if (pid < 0) {
		snprintf(pr->error, sizeof(pr->error), "fork: %s", strerror(errno));
	} else {
		if (pid == 0)
			child_run(cmd, argc, argv, out, err);
		r = wait_part(pid, t0 + (uint64_t)pt->timeout_s * 1000000000ULL + budget_ns, &st);
		if (r)
			stop_part(pid);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		pb_cleanup_del_child(pid);
		pr->duration_ns = pb_clock_ns() - t0;
		intr = pb_cleanup_interrupted();
		stderr_line(err, msg, sizeof(msg));
		if (WIFEXITED(st))
			pr->status = WEXITSTATUS(st);
		if (pr->status >= 0 && read_file(out, MAX_DOC, &buf, &len) == 0 && len)
			pr->doc = json_tokener_parse(buf);
		/* Interrupted: stopped (report's handler sent it SIGTERM, a
		 * terminal may have sent it the signal too), not finished. */
		pr->interrupted = intr && (r || WIFSIGNALED(st) || pr->status == 128 + SIGTERM ||
					   pr->status == 128 + intr);
		if (pr->interrupted)
			snprintf(pr->error, sizeof(pr->error), "interrupted by SIG%s", sig_name(intr));
		else if (r == -ETIMEDOUT)
			snprintf(pr->error, sizeof(pr->error), "timed out after %.0f s",
				 pt->timeout_s + (double)budget_ns / 1e9);
		else if (r)
			snprintf(pr->error, sizeof(pr->error), "waiting for it: %s", strerror(-r));
		else if (WIFSIGNALED(st))
			snprintf(pr->error, sizeof(pr->error), "killed by signal SIG%s%s%.400s",
				 sig_name(WTERMSIG(st)), msg[0] ? ": " : "", msg);
		else if (msg[0] && (!pr->doc || pr->status == PB_EXIT_USAGE ||
				    pr->status == PB_EXIT_ERROR))
			snprintf(pr->error, sizeof(pr->error), "%s", msg);
		else if (!pr->doc)
			snprintf(pr->error, sizeof(pr->error), "exit status %d without a JSON document",
				 pr->status);
		if (!pr->error[0] && pr->doc &&
		    (pr->status == PB_EXIT_USAGE || pr->status == PB_EXIT_ERROR))
			first_error(pr);
		if (r)
			pr->status = -1; /* stopped, whatever it exited with */
		free(buf);
	}
	unlink(out);
	unlink(err);
	pb_cleanup_del_path(out);
	pb_cleanup_del_path(err);
}

/* ---- text summaries: read from the parts' documents ---- */

static const char *gets(struct json_object *o, const char *path, const char *dflt)
{
	struct json_object *v = pb_json_get(o, path);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : dflt;
}

static double getd(struct json_object *o, const char *path)
{
	struct json_object *v = pb_json_get(o, path);

	return v ? json_object_get_double(v) : -1;
}

/* A part that did not finish, or finished with an error: say why. */
static void text_part_failed(FILE *fp, const char *title, const struct part_run *pr)
{
	fprintf(fp, "%-16s not measured: %s\n", title, pr->error[0] ? pr->error : "no result");
}

/* One line of a result R, LABEL in the first column; false: nothing written. */
typedef bool (*result_line_fn)(FILE *fp, const char *label, struct json_object *r);

/* The lines of DOC's results, LABEL on the first one written. */
static void result_lines(FILE *fp, const char *label, struct json_object *doc,
			 result_line_fn line)
{
	struct json_object *res = pb_json_get(doc, "results");

	for (size_t i = 0, n = 0; res && i < json_object_array_length(res); i++)
		if (line(fp, n ? "" : label, json_object_array_get_idx(res, i)))
			n++;
}

static bool timestamps_line(FILE *fp, const char *label, struct json_object *r)
{
	fprintf(fp, "%-16s %s: %s (%s)\n", label,
		strcmp(gets(r, "kind", "?"), "anon") ? "FIFOs" : "anonymous pipes",
		gets(r, "verdict", "?"), gets(r, "verdict_detail", ""));
	return true;
}

static void text_timestamps(FILE *fp, const struct report *rep, struct json_object *doc)
{
	struct json_object *f = pb_json_get(doc, "timestamp_cost.fifo.kernel_share");
	struct json_object *a = pb_json_get(doc, "timestamp_cost.anon.kernel_share");

	result_lines(fp, "timestamps", doc, timestamps_line);
	/* --profile: what the updates cost here */
	if (f && a)
		fprintf(fp, "%-16s timestamp updates: %.1f%% of kernel time on FIFOs, %.1f%% on "
			"anonymous pipes (--profile)\n", "", 100 * json_object_get_double(f),
			100 * json_object_get_double(a));
	else if (rep->profile && pb_json_get(doc, "timestamp_cost.reason"))
		fprintf(fp, "%-16s timestamp updates: not profiled: %s\n", "",
			gets(doc, "timestamp_cost.reason", "?"));
}

static void text_o_noatime(FILE *fp, const struct report *rep, struct json_object *doc)
{
	(void)rep;
	struct json_object *acc = pb_json_get(doc, "pipe2_o_noatime.accepted");
	double ratio = getd(doc, "summary.tt_ratio_median");

	if (acc && json_object_get_boolean(acc))
		fprintf(fp, "%-16s pipe2(O_NOATIME) accepted; O_NOATIME/plain TT ratio %.2fx (spread %.1f%%)\n",
			"O_NOATIME", ratio, 100 * getd(doc, "summary.tt_ratio_spread"));
	else
		fprintf(fp, "%-16s pipe2(O_NOATIME) rejected (%s); substitute FIFO/anon TT ratio %.2fx (spread %.1f%%)\n",
			"O_NOATIME", gets(doc, "pipe2_o_noatime.errno", "?"), ratio,
			100 * getd(doc, "summary.tt_ratio_spread"));
}

static void text_conformance(FILE *fp, const struct report *rep, struct json_object *doc)
{
	(void)rep;
	struct json_object *checks = pb_json_get(doc, "checks");
	unsigned counts[8] = { 0 };
	static const char *const words[] = { "pass", "fail", "known-deviation", "info", "skip",
					     "error" };

	for (size_t i = 0; checks && i < json_object_array_length(checks); i++) {
		const char *s = gets(json_object_array_get_idx(checks, i), "status", "");

		for (unsigned w = 0; w < 6; w++)
			if (!strcmp(s, words[w]))
				counts[w]++;
	}
	fprintf(fp, "%-16s %u passed, %u failed, %u skipped, %u known deviations, %u info%s\n",
		"conformance", counts[0], counts[1], counts[4], counts[2], counts[3],
		counts[5] ? " (harness errors)" : "");
	for (size_t i = 0; checks && i < json_object_array_length(checks); i++) {
		struct json_object *c = json_object_array_get_idx(checks, i);
		const char *s = gets(c, "status", "");

		if (!strcmp(s, "fail") || !strcmp(s, "error"))
			fprintf(fp, "%-16s %s %s: %s: %s\n", "", s, gets(c, "id", "?"),
				gets(c, "title", ""), gets(c, "detail", ""));
	}
}

static bool throughput_line(FILE *fp, const char *label, struct json_object *r)
{
	char sz[32], ratio[64] = "";

	if (strcmp(gets(r, "mode", "rw"), "rw") != 0)
		return false; /* the zero-copy modes go with the copy ceiling */
	pb_format_size((uint64_t)getd(r, "size_bytes"), sz, sizeof(sz));
	if (pb_json_get(r, "ratio_label") && getd(r, "cost_ratio_to_first") > 0)
		snprintf(ratio, sizeof(ratio), "  %s %.2fx", gets(r, "ratio_label", ""),
			 getd(r, "cost_ratio_to_first"));
	fprintf(fp, "%-16s %-5s %7s  %9.1f MB/s  %6.1f ns/syscall  spread %4.1f%%%s\n",
		label, gets(r, "kind", "?"), sz,
		getd(r, "summary.rate_bytes_per_s") / 1e6, getd(r, "summary.ns_per_syscall"),
		getd(r, "summary.tt_ns.spread") * 100, ratio);
	return true;
}

static void text_throughput(FILE *fp, const struct report *rep, struct json_object *doc)
{
	(void)rep;
	result_lines(fp, "throughput", doc, throughput_line);
}

/* Under the throughput part's lines when both ran: no label of its own. */
static void text_throughput_64k(FILE *fp, const struct report *rep, struct json_object *doc)
{
	result_lines(fp, rep->selected & 8 ? "" : "throughput", doc, throughput_line);
}

static void text_messaging(FILE *fp, const struct report *rep, struct json_object *doc)
{
	(void)rep;
	struct json_object *r = pb_json_get(doc, "results");

	r = r ? json_object_array_get_idx(r, 0) : NULL;
	fprintf(fp, "%-16s %.0f messages/s, elapsed %.3f s, context switches %.0f voluntary, %.0f involuntary (medians)\n",
		"messaging", getd(r, "summary.rate_messages_per_s.median"),
		getd(r, "summary.elapsed_ns.median") / 1e9,
		getd(r, "summary.voluntary_ctxsw.median"),
		getd(r, "summary.involuntary_ctxsw.median"));
}

/* The anonymous pipe's round trip on one CPU and across CPUs: p50 and p99. */
static bool latency_line(FILE *fp, const char *label, struct json_object *r)
{
	const char *place = gets(r, "placement", "?");

	if (!strcmp(gets(r, "status", ""), "skip"))
		fprintf(fp, "%-16s anon %-4s skip: %s\n", label, place, gets(r, "reason", "?"));
	else
		fprintf(fp, "%-16s anon %-4s CPUs %-5s p50 %.2f us, p99 %.2f us round trip\n",
			label, place, gets(r, "asked_cpus", "?"),
			getd(r, "summary.rtt_p50_ns") / 1e3, getd(r, "summary.rtt_p99_ns") / 1e3);
	return true;
}

static void text_latency(FILE *fp, const struct report *rep, struct json_object *doc)
{
	(void)rep;
	result_lines(fp, "latency", doc, latency_line);
}

/* 64 KiB pipe rate against memcpy: each byte is copied twice through a pipe. */
static double pipe_64k_rate(const struct report *rep)
{
	const struct part_run *pr = &rep->runs[4];
	struct json_object *res = pr->doc ? pb_json_get(pr->doc, "results") : NULL;

	if (!res || json_object_array_length(res) == 0)
		return -1;
	return getd(json_object_array_get_idx(res, 0), "summary.rate_bytes_per_s");
}

/* The same pipe without the user-space copies: vmsplice and splice at 64 KiB. */
static void text_zerocopy(FILE *fp, const struct report *rep)
{
	struct json_object *res = rep->runs[4].doc ? pb_json_get(rep->runs[4].doc, "results") : NULL;
	double v = -1, s = -1;

	for (size_t i = 0; res && i < json_object_array_length(res); i++) {
		struct json_object *r = json_object_array_get_idx(res, i);
		const char *m = gets(r, "mode", "rw");

		if (!strcmp(m, "vmsplice") && pb_json_get(r, "summary.rate_bytes_per_s"))
			v = getd(r, "summary.rate_bytes_per_s");
		else if (!strcmp(m, "splice") && pb_json_get(r, "summary.rate_bytes_per_s"))
			s = getd(r, "summary.rate_bytes_per_s");
	}
	if (v > 0 && s > 0)
		fprintf(fp, "%-16s vmsplice+splice at 64 KiB: vmsplice %.2f GB/s, splice %.2f GB/s "
			"(bytes checked on a sample of loops)\n", "", v / 1e9, s / 1e9);
}

static void text_ceiling(FILE *fp, const struct report *rep)
{
	double pipe = pipe_64k_rate(rep), ceiling = rep->membw.median / 2;

	if (!rep->membw_ok) {
		fprintf(fp, "%-16s not measured\n", "copy ceiling");
		return;
	}
	fprintf(fp, "%-16s memcpy %.2f GB/s (64 KiB blocks, in cache); a pipe copies twice: ceiling %.2f GB/s\n",
		"copy ceiling", rep->membw.median / 1e9, ceiling / 1e9);
	if (pipe > 0)
		fprintf(fp, "%-16s anonymous pipe at 64 KiB: %.2f GB/s = %.0f%% of the ceiling\n", "",
			pipe / 1e9, 100 * pipe / ceiling);
	text_zerocopy(fp, rep);
}

static void cap_names(char *buf, size_t len)
{
	static const struct { int bit; const char *name; } caps[] = {
		{ 7, "CAP_SETUID" }, { 21, "CAP_SYS_ADMIN" }, { 24, "CAP_SYS_RESOURCE" },
	};
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]) && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s %s", i ? ", " : "", caps[i].name,
					pb_sysinfo_has_cap(caps[i].bit) ? "yes" : "no");
}

static void limit_text(int res, char *buf, size_t len)
{
	struct rlimit rl;

	if (getrlimit(res, &rl) != 0)
		snprintf(buf, len, "?");
	else if (rl.rlim_max == RLIM_INFINITY)
		snprintf(buf, len, "%llu (hard unlimited)", (unsigned long long)rl.rlim_cur);
	else
		snprintf(buf, len, "%llu (hard %llu)", (unsigned long long)rl.rlim_cur,
			 (unsigned long long)rl.rlim_max);
}

/* {"soft": N, "hard": N}, null for unlimited; null when unknown. */
static struct json_object *limit_json(int res)
{
	struct json_object *o;
	struct rlimit rl;

	if (getrlimit(res, &rl) != 0)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "soft", rl.rlim_cur == RLIM_INFINITY ? NULL :
			       json_object_new_int64((int64_t)rl.rlim_cur));
	json_object_object_add(o, "hard", rl.rlim_max == RLIM_INFINITY ? NULL :
			       json_object_new_int64((int64_t)rl.rlim_max));
	return o;
}

/*
 * Interrupted: the selected parts that did not run, by name, and the copy
 * ceiling when it was not measured; or, when everything had started, the
 * signal and the part it stopped.
 */
static void text_not_run(FILE *fp, const struct report *rep)
{
	const char *stopped = NULL;
	size_t n = 0;

	for (size_t i = 0; i < NPARTS; i++) {
		if (!(rep->selected & (1u << i)))
			continue;
		if (rep->runs[i].interrupted)
			stopped = parts[i].name;
		if (rep->runs[i].ran)
			continue;
		fprintf(fp, "%s%s", n++ ? ", " : "not run          ", parts[i].name);
	}
	if ((rep->selected & (1u << 4)) && rep->runs[4].ran && !rep->membw_ok)
		fprintf(fp, "%s%s", n++ ? ", " : "not run          ", "copy ceiling");
	if (n)
		fprintf(fp, " (interrupted by SIG%s)\n", sig_name(rep->intr));
	else
		fprintf(fp, "%-16s by SIG%s%s%s\n", "interrupted", sig_name(rep->intr),
			stopped ? " during " : "", stopped ? stopped : "");
}

/* Whether the parts' measured rows may be compared with another machine's
 * or another run's: every row with a stability verdict (stability.h) is
 * stable.  Counts the rows and those not stable; WHY names the first few
 * ("throughput: disturbed: other work used 63% of its CPUs"). */
static void fitness(const struct report *rep, int *rows, int *unstable, char *why, size_t len)
{
	size_t off = 0;
	int named = 0;

	*rows = *unstable = 0;
	if (len)
		why[0] = '\0';
	for (size_t i = 0; i < NPARTS; i++) {
		struct json_object *res, *r, *v, *rs;
		const char *verdict;

		if (!(rep->selected & (1u << i)) || !rep->runs[i].doc ||
		    !json_object_object_get_ex(rep->runs[i].doc, "results", &res) ||
		    !json_object_is_type(res, json_type_array))
			continue;
		for (size_t k = 0; k < json_object_array_length(res); k++) {
			r = json_object_array_get_idx(res, k);
			if (!json_object_object_get_ex(r, "stability", &v) ||
			    !json_object_is_type(v, json_type_string))
				continue;
			(*rows)++;
			verdict = json_object_get_string(v);
			if (!strcmp(verdict, "stable"))
				continue;
			(*unstable)++;
			if (named++ >= 3 || off >= len)
				continue;
			json_object_object_get_ex(r, "stability_reason", &rs);
			off += (size_t)snprintf(why + off, len - off, "%s%s: %s: %s", off ? "; " : "",
						parts[i].name, verdict,
						rs ? json_object_get_string(rs) : "");
		}
	}
	if (named > 3 && off < len)
		snprintf(why + off, len - off, "; %d more", named - 3);
}

/* --precision over the parts' measured rows: how many have a precision
 * object, how many reached it, and the farthest from it (WHERE: its part;
 * NAN: too few repetitions for an interval). */
struct reach {
	int rows, reached;
	double worst;
	const char *where;
};

static void precision_reach(const struct report *rep, struct reach *rc)
{
	*rc = (struct reach){ .worst = 0 };
	for (size_t i = 0; i < NPARTS; i++) {
		struct json_object *res, *r;

		if (!(rep->selected & (1u << i)) || !rep->runs[i].doc ||
		    !json_object_object_get_ex(rep->runs[i].doc, "results", &res) ||
		    !json_object_is_type(res, json_type_array))
			continue;
		for (size_t k = 0; k < json_object_array_length(res); k++) {
			double got;

			r = json_object_array_get_idx(res, k);
			if (!pb_json_get(r, "precision"))
				continue;
			rc->rows++;
			got = pb_json_get(r, "precision.reached_pct") ?
			      getd(r, "precision.reached_pct") : NAN;
			if (got <= rep->precision) {
				rc->reached++;
				continue;
			}
			if (!rc->where || pb_stats_precision_worse(got, rc->worst)) {
				rc->worst = got;
				rc->where = parts[i].name;
			}
		}
	}
}

/* "anon: inline, RWF_NOWAIT taken (after splice: inline)" */
static void uring_words(const struct pb_uring_probe *u, const char *kind, char *buf, size_t len)
{
	if (!u->available || u->fresh == PB_URING_UNKNOWN) {
		snprintf(buf, len, "%s: not probed", kind);
		return;
	}
	snprintf(buf, len, "%s: %s, RWF_NOWAIT %s%s%s%s", kind, pb_uring_path_words[u->fresh],
		 u->nowait == 1 ? "taken" : u->nowait == 0 ? "refused" : "?",
		 u->spliced ? " (after splice: " : "",
		 u->spliced ? pb_uring_path_words[u->spliced] : "", u->spliced ? ")" : "");
}

/* The io_uring line of the header: the path of each kind's reads, or why
 * io_uring is not there. */
static void uring_text(FILE *fp, const struct report *rep)
{
	char a[160], f[160];

	if (!rep->uring_probed)
		return;
	if (!rep->uring[0].available) {
		fprintf(fp, "%-16s unavailable: %s\n", "io_uring", rep->uring[0].why);
		return;
	}
	uring_words(&rep->uring[0], "anon", a, sizeof(a));
	uring_words(&rep->uring[1], "fifo", f, sizeof(f));
	fprintf(fp, "%-16s %s; %s (inline: completed without an io-wq worker; io-wq: punted "
		"to one)\n", "io_uring", a, f);
}

static struct json_object *uring_json(const struct pb_uring_probe *u)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "available", json_object_new_boolean(u->available));
	pb_json_add_str(o, "path", u->available && u->fresh ? pb_uring_path_words[u->fresh] :
			NULL);
	pb_json_add_str(o, "path_after_splice", u->available && u->spliced ?
			pb_uring_path_words[u->spliced] : NULL);
	json_object_object_add(o, "nowait", u->available && u->nowait >= 0 ?
			       json_object_new_boolean(u->nowait == 1) : NULL);
	pb_json_add_int(o, "workers", u->workers_fresh);
	pb_json_add_str(o, "note", u->why[0] ? u->why : NULL);
	return o;
}

static void emit_text(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct report *rep = r_;
	char b1[64], b2[64], caps[160], why[1024];
	int rows, unstable;
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(b1, sizeof(b1), "%Y-%m-%d %H:%M UTC", &tm);
	fprintf(fp, "pipebench %s report, %s\n\n", PACKAGE_VERSION, b1);
	fprintf(fp, "%-16s Linux %s %s (%s), %s\n", "kernel", si->kernel_release, si->machine,
		si->kernel_version, si->libc);
	fprintf(fp, "%-16s %ld online, allowed %s; load average %.2f\n", "CPUs", si->cpus_online,
		si->allowed_list, si->loadavg_1m);
	pb_text_machine(fp, "machine          ");
	pb_format_size((uint64_t)si->page_size, b1, sizeof(b1));
	fprintf(fp, "%-16s %s; PIPE_BUF %ld B\n", "page size", b1, si->pipe_buf);
	fprintf(fp, "%-16s default %ld B, pipe-max-size %ld B, pipe-user-pages soft %ld hard %ld (0: no limit)\n",
		"pipe sizes", si->pipe_default_size, si->pipe_max_size, si->pipe_user_pages_soft,
		si->pipe_user_pages_hard);
	limit_text(RLIMIT_NOFILE, b1, sizeof(b1));
	limit_text(RLIMIT_NPROC, b2, sizeof(b2));
	fprintf(fp, "%-16s RLIMIT_NOFILE %s; RLIMIT_NPROC %s\n", "user limits", b1, b2);
	cap_names(caps, sizeof(caps));
	fprintf(fp, "%-16s %s (uid %d)\n", "capabilities", caps, (int)geteuid());
	uring_text(fp, rep);
	fputc('\n', fp);
	for (size_t i = 0; i < NPARTS; i++) {
		const struct part_run *pr = &rep->runs[i];

		if (!(rep->selected & (1u << i)) || !pr->ran)
			continue;
		if (!pr->doc || pr->error[0]) {
			text_part_failed(fp, parts[i].title, pr);
			continue;
		}
		parts[i].text(fp, rep, pr->doc);
	}
	if ((rep->selected & (1u << 4)) && (!rep->intr || rep->membw_ok))
		text_ceiling(fp, rep);
	if (rep->intr)
		text_not_run(fp, rep);
	if (rep->precision > 0) {
		struct reach rc;

		precision_reach(rep, &rc);
		if (rc.rows && rc.reached == rc.rows)
			fprintf(fp, "\n%-16s %g%% reached by all %d measured rows (95%% interval of "
				"the median, within %.0f s)\n", "precision", rep->precision, rc.rows,
				(double)rep->precision_budget_ns / 1e9);
		else if (rc.rows && isnan(rc.worst))
			fprintf(fp, "\n%-16s %g%% reached by %d of %d measured rows in %.0f s; %s had "
				"too few repetitions for an interval\n", "precision", rep->precision,
				rc.reached, rc.rows, (double)rep->precision_budget_ns / 1e9, rc.where);
		else if (rc.rows)
			fprintf(fp, "\n%-16s %g%% reached by %d of %d measured rows in %.0f s; %s came "
				"to %.1f%%\n", "precision", rep->precision, rc.reached, rc.rows,
				(double)rep->precision_budget_ns / 1e9, rc.where, rc.worst);
	}
	fitness(rep, &rows, &unstable, why, sizeof(why));
	if (rows && !unstable)
		fprintf(fp, "\n%-16s fit to compare: all %d measured rows stable\n", "figures", rows);
	else if (rows)
		fprintf(fp, "\n%-16s NOT fit to compare: %d of %d measured rows not stable (%s)\n",
			"figures", unstable, rows, why);
	fprintf(fp, "\n%s report: exit status %d; run with --format json for every figure\n",
		PB_PROG, rep->status);
}

static void emit_json(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct report *rep = r_;
	struct json_object *doc = pb_doc_new(NAME, si), *params = json_object_new_object();
	struct json_object *pj = json_object_new_object(), *runs = json_object_new_object();
	struct json_object *sum = json_object_new_object(), *mb = json_object_new_object();
	struct json_object *not_run = json_object_new_array();
	char b[160];

	json_object_object_add(params, "quick", json_object_new_boolean(rep->quick));
	json_object_object_add(params, "precision_pct", rep->precision > 0 ?
			       json_object_new_double(rep->precision) : NULL);
	pb_json_add_int(params, "precision_budget_ns",
			rep->precision > 0 ? (int64_t)rep->precision_budget_ns : 0);
	json_object_object_add(params, "profile", json_object_new_boolean(rep->profile));
	pb_json_add_str(params, "dir", rep->dir ? rep->dir : pb_tmpdir_base());
	json_object_object_add(doc, "params", params);
	/* Structured, not prose: the effective capabilities as a list, the
	 * limits as numbers (null: unlimited). */
	{
		struct json_object *sys = json_object_object_get(doc, "system");
		unsigned long long caps;

		json_object_object_add(sys, "capabilities",
				       pb_sysinfo_cap_eff(&caps) ? pb_caps_json(caps) : NULL);
		json_object_object_add(sys, "rlimit_nofile", limit_json(RLIMIT_NOFILE));
		json_object_object_add(sys, "rlimit_nproc", limit_json(RLIMIT_NPROC));
		if (rep->uring_probed) {
			struct json_object *u = json_object_new_object();

			json_object_object_add(u, "anon", uring_json(&rep->uring[0]));
			json_object_object_add(u, "fifo", uring_json(&rep->uring[1]));
			json_object_object_add(sys, "io_uring", u);
		} else {
			json_object_object_add(sys, "io_uring", NULL);
		}
	}
	for (size_t i = 0; i < NPARTS; i++) {
		const struct part_run *pr = &rep->runs[i];
		struct json_object *r;

		if (!(rep->selected & (1u << i)))
			continue;
		if (!pr->ran) {
			json_object_array_add(not_run, json_object_new_string(parts[i].name));
			continue;
		}
		r = json_object_new_object();
		json_object_object_add(r, "exit_status",
				       pr->status >= 0 ? json_object_new_int(pr->status) : NULL);
		pb_json_add_int(r, "duration_ns", (int64_t)pr->duration_ns);
		/* what the progress line's ETA planned for it (ds: tenths of a second) */
		pb_json_add_int(r, "estimate_ns", (int64_t)parts[i].ds[rep->quick] * 100000000);
		pb_json_add_int(r, "precision_budget_ns", (int64_t)part_budget_ns(rep, &parts[i]));
		pb_json_add_str(r, "error", pr->error[0] ? pr->error : NULL);
		json_object_object_add(runs, parts[i].name, r);
		json_object_object_add(pj, parts[i].name, pr->doc ? json_object_get(pr->doc) : NULL);
		json_object_object_add(r, "interrupted", json_object_new_boolean(pr->interrupted));
		if (pr->error[0]) {
			char e[sizeof(pr->error) + 32];

			snprintf(e, sizeof(e), "%s: %s", parts[i].name, pr->error);
			pb_doc_add_error(doc, e);
		}
	}
	json_object_object_add(doc, "parts", pj);
	json_object_object_add(doc, "part_runs", runs);
	/* Selected but not run (interrupted): apart from the parts. */
	json_object_object_add(doc, "not_run", not_run);
	if (rep->intr) {
		snprintf(b, sizeof(b), "SIG%s", sig_name(rep->intr));
		pb_json_add_str(sum, "interrupted", b);
	} else {
		pb_json_add_str(sum, "interrupted", NULL);
	}
	if (rep->membw_ok) {
		double pipe = pipe_64k_rate(rep);

		pb_json_add_double(mb, "memcpy_bytes_per_s", rep->membw.median);
		pb_json_add_double(mb, "memcpy_rsd", rep->membw.rsd);
		pb_json_add_double(mb, "pipe_ceiling_bytes_per_s", rep->membw.median / 2);
		pb_json_add_double(mb, "pipe_64k_bytes_per_s", pipe > 0 ? pipe : 0.0 / 0.0);
		pb_json_add_double(mb, "pipe_fraction_of_ceiling",
				   pipe > 0 ? pipe / (rep->membw.median / 2) : 0.0 / 0.0);
		/* as part_runs has for each part: how long, and the ETA's plan */
		pb_json_add_int(mb, "duration_ns", (int64_t)rep->membw_ns);
		pb_json_add_int(mb, "estimate_ns", (int64_t)membw_ds[rep->quick] * 100000000);
		json_object_object_add(sum, "copy_ceiling", mb);
	} else {
		json_object_put(mb);
	}
	{
		struct json_object *fit = json_object_new_object();
		char why[1024];
		int rows, unstable;

		fitness(rep, &rows, &unstable, why, sizeof(why));
		json_object_object_add(fit, "fit_to_compare",
				       rows ? json_object_new_boolean(!unstable) : NULL);
		pb_json_add_int(fit, "rows", rows);
		pb_json_add_int(fit, "not_stable", unstable);
		pb_json_add_str(fit, "reason", unstable ? why : NULL);
		json_object_object_add(sum, "stability", fit);
	}
	if (rep->precision > 0) {
		struct json_object *pr = json_object_new_object();
		struct reach rc;

		precision_reach(rep, &rc);
		pb_json_add_int(pr, "rows", rc.rows);
		pb_json_add_int(pr, "reached", rc.reached);
		json_object_object_add(pr, "all_reached", json_object_new_boolean(rc.rows &&
									       rc.reached == rc.rows));
		pb_json_add_str(pr, "worst_part", rc.where);
		json_object_object_add(pr, "worst_pct", rc.where && !isnan(rc.worst) ?
				       json_object_new_double(rc.worst) : NULL);
		json_object_object_add(sum, "precision", pr);
	}
	pb_doc_finish(doc, sum, NULL, rep->status, fp);
}

static int part_status(const struct part_run *pr)
{
	/* a part that left no document has no results to report, whatever
	 * it exited with: the report's own failure */
	if (pr->ran && !pr->doc && pr->status >= 0)
		return PB_EXIT_ERROR;
	return pb_exit_of_part(pr->status);
}

/* The progress line's total: the selected parts' weights, with the copy
 * ceiling when the 64 KiB throughput part runs. */
static uint64_t planned_ds(const struct report *rep)
{
	uint64_t ds = 0;

	for (size_t i = 0; i < NPARTS; i++)
		if (rep->selected & (1u << i))
			ds += parts[i].ds[rep->quick] + part_budget_ns(rep, &parts[i]) / 100000000;
	if (rep->selected & (1u << 4))
		ds += membw_ds[rep->quick];
	return ds;
}

static int execute(struct pb_cli *cli, struct report *rep)
{
	struct pb_progress pg;
	struct pb_sysinfo si;
	struct pb_out out;

	pb_sysinfo_collect(&si);
	if (pb_out_open(&out)) {
		pb_err(NAME, "cannot allocate output buffer");
		return PB_EXIT_ERROR;
	}
	/* From here a signal stops the part running; the report of what ran
	 * is still written (report_main then exits 128+signal). */
	pb_cleanup_defer_signals(true);
	/* The parts' lengths differ by orders of magnitude: each counts for
	 * about how long it takes, so the ETA follows this machine's pace. */
	pb_progress_start(&pg, NAME, pb_cli_progress(cli), planned_ds(rep));
	pb_progress_budget(&pg, planned_ds(rep) * 100000000ULL);   /* until a part is done */
	for (size_t i = 0; i < NPARTS; i++) {
		struct part_run *pr = &rep->runs[i];
		int sig;

		if (!(rep->selected & (1u << i)))
			continue;
		if ((sig = pb_cleanup_interrupted()) != 0) {
			/* Between two parts: this one is the interrupted one,
			 * unless the last one already was. */
			bool marked = false;

			for (size_t j = 0; j < i; j++)
				marked = marked || rep->runs[j].interrupted;
			if (!marked) {
				pr->ran = pr->interrupted = true;
				pr->status = -1;
				snprintf(pr->error, sizeof(pr->error),
					 "interrupted by SIG%s before it started", sig_name(sig));
			}
			break;
		}
		pb_progress_item(&pg, parts[i].ds[rep->quick] + part_budget_ns(rep, &parts[i]) /
				 100000000, "%s ...", parts[i].title);
		run_part(rep, &parts[i], pr);
		rep->status = pb_exit_merge(rep->status, part_status(pr));
		if (pr->error[0] && !cli->common.quiet)
			pb_warn(NAME, "%s: %s", parts[i].name, pr->error);
	}
	/* io_uring on pipes: how this kernel completes their reads (under 1 s),
	 * after the parts, as the copy ceiling is */
	if (!pb_cleanup_interrupted() && !pb_uring_probe(PB_KIND_ANON, rep->tmp, &rep->uring[0]) &&
	    !pb_uring_probe(PB_KIND_FIFO, rep->tmp, &rep->uring[1]))
		rep->uring_probed = true;
	/* The copy ceiling goes with the 64 KiB throughput it puts in context. */
	if ((rep->selected & (1u << 4)) && !pb_cleanup_interrupted()) {
		uint64_t t0 = pb_clock_ns();

		pb_progress_item(&pg, membw_ds[rep->quick], "memory copy bandwidth ...");
		rep->membw_ok = pb_membw_measure(65536, 4 * 65536, rep->quick ? 50000000 : 200000000,
						 5, &rep->membw) == 0;
		rep->membw_ns = pb_clock_ns() - t0;
	}
	pb_progress_end(&pg);
	rep->intr = pb_cleanup_interrupted();
	if (rep->intr)
		rep->status = 128 + rep->intr;
	pb_cli_emit(cli, rep, &si, out.fp);
	for (size_t i = 0; i < NPARTS; i++)
		if (rep->runs[i].doc)
			json_object_put(rep->runs[i].doc);
	if (pb_out_finish(&out, NAME, cli->common.output) && !rep->intr)
		rep->status = pb_exit_merge(rep->status, PB_EXIT_ERROR);
	return rep->status;
}

/*
 * Validate the directories up front, as the commands do: --dir (given to
 * the parts that make FIFOs) and $TMPDIR (the other parts' and the
 * report's own), where the report's private directory is made now.
 */
static int prepare_dirs(struct report *rep)
{
	const char *base = pb_tmpdir_base(), *step, *env = getenv("TMPDIR");
	int r;

	r = pb_dir_probe(base, &step);
	if (r == 0) {
		step = "cannot make a directory in it: mkdir";
		r = pb_tmpdir_make(base, rep->tmp, sizeof(rep->tmp));
	}
	if (r) {
		rep->tmp[0] = '\0';
		pb_usage_err(NAME, "%s: '%s' is not a writable directory: %s%s%s",
			     env && *env ? "TMPDIR" : "TMPDIR (not set)",
			     base, step, *step ? ": " : "", strerror(-r));
		return -1;
	}
	return 0;
}

/* report --precision: all measuring parts' budget together, by default */
#define REPORT_PRECISION_BUDGET_NS (120ULL * 1000000000ULL)

struct rep_params {
	double precision;
	uint64_t precision_budget_ns;
	int profile;
	int quick;
	const char *dir;
	unsigned parts;            /* bit i: parts[i] */
};

/* --parts' vocabulary: the parts' names, in order (check_params verifies). */
static const char *const part_words[] = {
	"timestamps", "o_noatime", "conformance", "throughput", "throughput_64k", "messaging",
	"latency", NULL
};

static int check_params(struct pb_cli *cli, void *params)
{
	struct rep_params *p = params;

	for (size_t i = 0; i < NPARTS; i++)
		if (!part_words[i] || strcmp(part_words[i], parts[i].name) != 0) {
			pb_err(NAME, "internal error: --parts words differ from the parts");
			return -1;
		}
	if (!pb_cli_given(cli, "parts"))
		p->parts = (1u << NPARTS) - 1;
	if (!p->precision_budget_ns)
		p->precision_budget_ns = REPORT_PRECISION_BUDGET_NS;
	return pb_precision_check(cli, NAME);
}

static int exec_params(struct pb_cli *cli, void *params)
{
	const struct rep_params *p = params;
	struct report rep = { .dir = p->dir, .quick = p->quick, .selected = p->parts,
			      .precision = p->precision,
			      .precision_budget_ns = p->precision_budget_ns,
			      .profile = p->profile != 0 };
	int rc = PB_CLI_CONTINUE;

	if (prepare_dirs(&rep))
		rc = PB_EXIT_USAGE;
	if (rc == PB_CLI_CONTINUE)
		rc = execute(cli, &rep);
	if (rep.tmp[0])
		pb_tmpdir_remove(rep.tmp);
	return rc;
}

#define P struct rep_params
static const struct pb_opt options[] = {
	{ PB_OPT("quick", 'Q', PB_OPT_FLAG, P, quick),
	  .help = "shorter runs: about 10 s instead of 30 s" },
	{ PB_OPT("dir", 'd', PB_OPT_DIR, P, dir), .if_given = true, .arg = "DIR",
	  .help = "directory for FIFOs" },
	{ PB_OPT("parts", 'P', PB_OPT_WORDS, P, parts), .words = part_words, .def_help = "all",
	  .arg = "LIST", .help = "only these parts" },
	PB_OPT_PRECISION(P, precision, precision_budget_ns,
			 "each measured row's headline figure (the parts' --precision)",
			 "120 s, shared by the measuring parts by their length"),
	PB_OPT_PROFILE(P, profile),
	PB_OPT_END
};

/* --format lava: report's own set (its parts' sets are the transform's):
 * a case per part, named by it, from the part's exit status; the copy
 * ceiling. */
static void lava_cases(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *pj = pb_json_get(doc, "parts");

	if (json_object_is_type(pj, json_type_object)) {
		json_object_object_foreach(pj, name, part) {
			(void)part;
			char path[128];

			snprintf(path, sizeof(path), "part_runs.%s.exit_status", name);
			pb_lava_case(l, pb_lava_exit_result((int)pb_json_int(doc, path, 3)), "%s", name);
		}
	}
	if (pb_json_get(doc, "summary.copy_ceiling")) {
		pb_lava_measure(l, pb_json_num(doc, "summary.copy_ceiling.memcpy_bytes_per_s"), "B/s",
				"memcpy-rate");
		pb_lava_measure(l, pb_json_num(doc, "summary.copy_ceiling.pipe_fraction_of_ceiling"),
				"ratio", "pipe-64k-fraction-of-ceiling");
	}
}

static const struct pb_format formats[] = {
	{ .name = "text", .emit = emit_text, .text = true },
	{ .name = "json", .emit = emit_json },
	PB_FORMAT_END
};

const struct pb_cmd pb_cmd_report = {
	.lava_cases = lava_cases,
	.name = NAME, .opts = options, .formats = formats, .params_size = sizeof(struct rep_params),
	.check = check_params, .exec = exec_params,
	.summary = "one-shot profile of the running kernel's pipes (the main job)",
};
