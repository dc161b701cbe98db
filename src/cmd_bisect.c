/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench bisect: a `git bisect run` predicate.  It re-runs the
 * measurement a good document recorded (its command line, run.pipebench.
 * argv) on the running kernel, run after run, until the figure is decided
 * against the good one, and exits 0 (good), 1 (bad) or 125 (cannot decide:
 * git bisect's "skip").  With a NEW document it only judges the two.
 *
 * A metric is bad when it is significantly worse (compare's tests: Mann-
 * Whitney U from 5 samples a side, else Welch) by more than --threshold;
 * good when its Hodges-Lehmann interval says it is at most --threshold
 * worse; anything else wants more samples, until --duration is spent.  A
 * check is good when it passes, bad when it fails.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "cli.h"
#include "clock.h"
#include "compare.h"
#include "msg.h"
#include "output.h"

#define NAME "bisect"
#define EXIT_SKIP 125

enum bs_verdict { BS_GOOD, BS_BAD, BS_UNDECIDED, BS_BROKEN };

struct bs_params {
	const char *good;
	const char *metric;
	const char *check;
	double threshold;
	uint64_t duration_ns;
};

/* The figure a command's document is judged on by default: one that does
 * not depend on how much work a run did. */
static const struct {
	const char *cmd, *metric;
} headline[] = {
	{ "throughput", "ns_per_syscall" },
	{ "latency", "rtt_p50_ns" },
	{ "messaging", "rate_messages_per_s" },
};

static const char *doc_str(struct json_object *doc, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(doc, key, &v) && json_object_is_type(v, json_type_string)
	       ? json_object_get_string(v) : NULL;
}

/* ---- judging */

/* METRIC of every result of NEW against BASE; WHY says the deciding row. */
static enum bs_verdict judge_metric(struct json_object *base, struct json_object *cur,
				    const char *metric, double threshold, char *why, size_t len)
{
	struct pb_cmp_opts o = { .threshold_pct = threshold, .metrics = metric };
	struct pb_cmp_result r;
	char differ[1024], err[256];
	size_t rows = 0, good = 0;
	enum bs_verdict v = BS_UNDECIDED;

	snprintf(why, len, "no result has %s", metric);
	if (pb_cmp_compatible(base, cur, err, sizeof(err))) {
		snprintf(why, len, "%s", err);
		return BS_BROKEN;
	}
	/* parameters a --duration budget calibrates (loops) leave totals
	 * incomparable, not the metric */
	o.ignore = o.differ = pb_cmp_params_diff(base, cur, differ, sizeof(differ)) ? differ : NULL;
	if (pb_cmp_compare(base, cur, &o, &r)) {
		snprintf(why, len, "out of memory");
		return BS_BROKEN;
	}
	for (size_t i = 0; i < r.nm && v != BS_BAD; i++) {
		const struct pb_cmp_metric *m = &r.m[i];
		double worst, scale = fabs(m->base.median);

		if (strcmp(m->metric, metric) != 0 || m->dir == PB_CMP_NEUTRAL)
			continue;
		rows++;
		/* the worse end of the shift's interval, in percent of BASE */
		worst = m->dir == PB_CMP_LOWER ? m->shift_hi : -m->shift_lo;
		worst = scale > 0 ? worst / scale * 100 : NAN;
		if (pb_cmp_is_regression(m->dir, m->change_pct, m->significant, threshold)) {
			v = BS_BAD;
			snprintf(why, len, "%s of %s: %+.1f%%, worse beyond %g%% (p %.3g, %s; %zu "
				 "samples against %zu)", metric, m->label, m->change_pct, threshold,
				 m->p, m->by_rank ? "Mann-Whitney" : "Welch", m->cur.n, m->base.n);
		} else if (isfinite(worst) && worst <= threshold) {
			/* a good row says why only while every row so far is good */
			if (++good == rows)
				snprintf(why, len, "%s of %s: %+.1f%%, at worst %+.1f%% (Hodges-"
					 "Lehmann 95%%) within %g%% (%zu samples against %zu)", metric,
					 m->label, m->change_pct, worst, threshold, m->cur.n,
					 m->base.n);
		} else if (good == rows - 1) {  /* the first row undecided says why */
			snprintf(why, len, "%s of %s: %+.1f%%, %s (%zu samples against %zu)", metric,
				 m->label, m->change_pct, isfinite(worst) ?
				 "its interval reaches past the threshold" : "too few samples for an "
				 "interval", m->cur.n, m->base.n);
		}
	}
	if (v != BS_BAD && rows && good == rows)
		v = BS_GOOD;
	pb_cmp_result_free(&r);
	return v;
}

/* Check ID's verdicts in NEW: any fail is bad, all passing good. */
static enum bs_verdict judge_check(struct json_object *cur, const char *id, char *why,
				   size_t len)
{
	struct json_object *checks;
	size_t n = 0, pass = 0;

	snprintf(why, len, "%s is not in the document", id);
	if (!json_object_object_get_ex(cur, "checks", &checks) ||
	    !json_object_is_type(checks, json_type_array))
		return BS_BROKEN;
	for (size_t i = 0; i < json_object_array_length(checks); i++) {
		struct json_object *c = json_object_array_get_idx(checks, i);
		const char *cid = doc_str(c, "id"), *st = doc_str(c, "status");

		if (!cid || strcmp(cid, id) != 0 || !st)
			continue;
		n++;
		if (!strcmp(st, "fail")) {
			snprintf(why, len, "%s: fail: %s", id, doc_str(c, "detail") ?
				 doc_str(c, "detail") : "");
			return BS_BAD;
		}
		if (!strcmp(st, "pass") || !strcmp(st, "known-deviation") || !strcmp(st, "info"))
			pass++;
		else
			snprintf(why, len, "%s: %s: %s", id, st, doc_str(c, "detail") ?
				 doc_str(c, "detail") : "");
	}
	if (n && pass == n) {
		snprintf(why, len, "%s: pass", id);
		return BS_GOOD;
	}
	return BS_BROKEN;  /* absent, or an error or a skip: nothing to judge */
}

/* ---- running BASE's command again */

/* BASE's command line without its output options, then "--format json
 * --output FILE" (and "--only ID" for a check, which replaces BASE's --only
 * and --skip, -O and -S); NULL-terminated in ARGV.  FILE is stored, not
 * read: it may be filled in later. */
static int rebuild_argv(struct json_object *base, const char *file, const char *check,
			const char **argv, size_t max)
{
	struct json_object *a, *run, *pb;
	size_t n = 0, len;

	if (!json_object_object_get_ex(base, "run", &run) ||
	    !json_object_object_get_ex(run, "pipebench", &pb) ||
	    !json_object_object_get_ex(pb, "argv", &a) || !json_object_is_type(a, json_type_array) ||
	    (len = json_object_array_length(a)) < 2)
		return -1;
	argv[n++] = "pipebench";
	for (size_t i = 1; i < len && n + 8 < max; i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(a, i));
		bool valued = !strcmp(s, "--format") || !strcmp(s, "-f") || !strcmp(s, "--output") ||
			      !strcmp(s, "-o") || (check && (!strcmp(s, "--only") ||
							     !strcmp(s, "--skip") ||
							     !strcmp(s, "-O") || !strcmp(s, "-S")));

		if (valued) {
			i++;
			continue;
		}
		if (!strncmp(s, "--format=", 9) || !strncmp(s, "--output=", 9) ||
		    (check && (!strncmp(s, "--only=", 7) || !strncmp(s, "--skip=", 7))) ||
		    !strcmp(s, "-q") || !strcmp(s, "--quiet") ||
		    (s[0] == '-' && (s[1] == 'f' || s[1] == 'o' ||
				     (check && (s[1] == 'O' || s[1] == 'S'))) && s[2]))
			continue;
		argv[n++] = s;
	}
	argv[n++] = "--quiet";
	argv[n++] = "--format";
	argv[n++] = "json";
	argv[n++] = "--output";
	argv[n++] = file;
	if (check) {
		argv[n++] = "--only";
		argv[n++] = check;
	}
	argv[n] = NULL;
	return 0;
}

/* Run ARGV (this program), its output to /dev/null; its exit status, or -1. */
static int run_child(const char *const *argv)
{
	int status, fd;
	pid_t pid = pb_cleanup_fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execv("/proc/self/exe", (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	pb_cleanup_del_child(pid);
	return status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Append the repetitions of MORE's results to ACC's, result by result. */
static void accumulate(struct json_object *acc, struct json_object *more)
{
	struct json_object *ra, *rm;

	if (!json_object_object_get_ex(acc, "results", &ra) ||
	    !json_object_object_get_ex(more, "results", &rm))
		return;
	for (size_t i = 0; i < json_object_array_length(ra) &&
			   i < json_object_array_length(rm); i++) {
		struct json_object *a, *m;

		if (!json_object_object_get_ex(json_object_array_get_idx(ra, i), "repetitions", &a) ||
		    !json_object_object_get_ex(json_object_array_get_idx(rm, i), "repetitions", &m))
			continue;
		for (size_t k = 0; k < json_object_array_length(m); k++)
			json_object_array_add(a, json_object_get(json_object_array_get_idx(m, k)));
	}
}

static const char *const verdict_words[] = {
	[BS_GOOD] = "good", [BS_BAD] = "bad", [BS_UNDECIDED] = "cannot decide",
	[BS_BROKEN] = "cannot decide",
};

struct bs_out {
	enum bs_verdict v;
	const char *why;
};

static void emit_text(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct bs_out *o = r_;

	(void)si;
	fprintf(fp, "%s: %s\n", verdict_words[o->v], o->why);
}

/* The verdict's line (--output or stdout) and exit status. */
static int finish(struct pb_cli *cli, enum bs_verdict v, const char *why)
{
	struct bs_out o = { v, why };
	struct pb_out out;

	if (pb_out_open(&out)) {
		pb_err(NAME, "cannot allocate output buffer");
		return EXIT_SKIP;
	}
	pb_cli_emit(cli, &o, NULL, out.fp);
	if (pb_out_finish(&out, NAME, cli->common.output))
		return EXIT_SKIP;
	return v == BS_GOOD ? 0 : v == BS_BAD ? 1 : EXIT_SKIP;
}

static int check_params(struct pb_cli *cli, void *params)
{
	const struct bs_params *p = params;

	(void)cli;
	if (!p->good) {
		pb_usage_err(NAME, "--good BASE.json is required: the document of a good kernel");
		return -1;
	}
	return 0;
}

static int exec_params(struct pb_cli *cli, void *params)
{
	const struct bs_params *p = params;
	struct json_object *base = NULL, *cur = NULL, *acc = NULL;
	const char *argv[160], *metric = p->metric, *cmd;
	char err[512], why[768] = "", dir[4096], file[4200] = "";
	enum bs_verdict v = BS_UNDECIDED;
	uint64_t start = pb_clock_ns();
	int runs = 0, rc;

	if (pb_cmp_load(p->good, &base, err, sizeof(err))) {
		pb_err(NAME, "%s: %s", p->good, err);
		return PB_EXIT_USAGE;
	}
	cmd = doc_str(base, "command");
	if (p->check && (!cmd || strcmp(cmd, "conformance") != 0)) {
		pb_err(NAME, "%s: --check needs a conformance document, not %s", p->good,
		       cmd ? cmd : "this");
		json_object_put(base);
		return PB_EXIT_USAGE;
	}
	for (size_t i = 0; !metric && !p->check && i < sizeof(headline) / sizeof(headline[0]); i++)
		if (cmd && !strcmp(cmd, headline[i].cmd))
			metric = headline[i].metric;
	if (!metric && !p->check) {
		pb_err(NAME, "%s: a %s document has no default metric: give --metric or --check",
		       p->good, cmd ? cmd : "pipebench");
		json_object_put(base);
		return PB_EXIT_USAGE;
	}
	if (cli->nargs == 1) {  /* judge only */
		if (pb_cmp_load(cli->args[0], &cur, err, sizeof(err))) {
			pb_err(NAME, "%s: %s", cli->args[0], err);
			json_object_put(base);
			return PB_EXIT_USAGE;
		}
		v = p->check ? judge_check(cur, p->check, why, sizeof(why))
			     : judge_metric(base, cur, metric, p->threshold, why, sizeof(why));
		json_object_put(cur);
		json_object_put(base);
		return finish(cli, v, why);
	}
	/* a BASE without a command line is bad input, as one without a
	 * default metric is: exit 2, before anything is made */
	if (rebuild_argv(base, file, p->check, argv, sizeof(argv) / sizeof(argv[0]))) {
		pb_err(NAME, "%s: no command line in run.pipebench.argv", p->good);
		json_object_put(base);
		return PB_EXIT_USAGE;
	}
	if (pb_tmpdir_make(NULL, dir, sizeof(dir))) {
		pb_err(NAME, "cannot make a directory in %s: %s", pb_tmpdir_base(), strerror(errno));
		json_object_put(base);
		return PB_EXIT_ERROR;
	}
	snprintf(file, sizeof(file), "%s/new.json", dir);
	pb_cleanup_add_path(file, 0);
	/* run after run until decided, or the budget is spent */
	while (v == BS_UNDECIDED && !pb_cleanup_interrupted() &&
	       (!runs || pb_clock_ns() - start < p->duration_ns)) {
		runs++;
		unlink(file);
		rc = run_child(argv);
		if ((rc != 0 && !(p->check && rc == 1)) ||
		    pb_cmp_load(file, &cur, err, sizeof(err))) {
			snprintf(why, sizeof(why), "run %d of `%s` broke (exit %d)", runs, cmd, rc);
			v = BS_BROKEN;
			break;
		}
		if (p->check) {
			v = judge_check(cur, p->check, why, sizeof(why));
			json_object_put(cur);
			break;
		}
		if (!acc)
			acc = cur;
		else {
			accumulate(acc, cur);
			json_object_put(cur);
		}
		cur = NULL;
		v = judge_metric(base, acc, metric, p->threshold, why, sizeof(why));
		if (!cli->common.quiet)
			fprintf(stderr, "%s: run %d: %s: %s\n", NAME, runs, verdict_words[v], why);
	}
	if (v == BS_UNDECIDED) {
		size_t off = strlen(why);

		snprintf(why + off, sizeof(why) - off, "; undecided after %d runs in %.1f s "
			 "(--duration)", runs, (double)(pb_clock_ns() - start) / 1e9);
	}
	json_object_put(acc);
	json_object_put(base);
	unlink(file);
	pb_cleanup_del_path(file);
	pb_tmpdir_remove(dir);
	if (pb_cleanup_interrupted())
		pb_cleanup_exit_interrupted();
	return finish(cli, v, why);
}

#define P struct bs_params
static const struct pb_opt options[] = {
	{ PB_OPT("good", '\0', PB_OPT_FILE, P, good), .arg = "BASE.json",
	  .help = "a document measured on a good kernel: its command is run again" },
	{ PB_OPT("metric", '\0', PB_OPT_STRING, P, metric), .arg = "NAME", .excludes = "check",
	  .def_help = "throughput ns_per_syscall, latency rtt_p50_ns, messaging "
	  "rate_messages_per_s", .help = "the figure to judge, in every result" },
	{ PB_OPT("check", '\0', PB_OPT_STRING, P, check), .arg = "ID",
	  .help = "judge a conformance check instead: pass is good, fail bad" },
	{ PB_OPT("threshold", '\0', PB_OPT_DOUBLE, P, threshold), .dmin = 0, .dmax = 1e9,
	  .def = "10", .arg = "PCT",
	  .help = "worse by more than PCT percent is bad; at most PCT (the interval) good" },
	{ PB_OPT("duration", '\0', PB_OPT_DURATION, P, duration_ns), .min = 1000000ULL,
	  .max = 86400000000000ULL, .def = "60s", .arg = "TIME",
	  .help = "run again until decided or this is spent (then exit 125)" },
	PB_OPT_END
};

static const struct pb_format formats[] = {
	{ .name = "text", .emit = emit_text, .text = true },
	PB_FORMAT_END
};

const struct pb_cmd pb_cmd_bisect = {
	.name = NAME, .opts = options, .formats = formats, .params_size = sizeof(struct bs_params),
	.check = check_params, .exec = exec_params,
	.args = "[NEW.json]", .min_args = 0, .max_args = 1, .operands = "file",
	.summary = "a git bisect run predicate: good (0), bad (1) or cannot decide (125)",
};
