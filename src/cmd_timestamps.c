/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench timestamps: do read, write, splice, vmsplice and tee change the
 * atime, mtime and ctime of anonymous pipes and of FIFOs on the running
 * kernel?  Linux 6.15 (commit f017b0a4951f, "pipe: don't update {a,c,m}time
 * for anonymous pipes") froze them for anonymous pipes; FIFOs still update.
 * The answer is observed (src/tsprobe.c), never inferred from uname -r.
 * A FIFO's times are shown through its directory's filesystem, so unless
 * that is tmpfs the FIFO probe is repeated on tmpfs and a difference is
 * attributed to the filesystem (overlayfs hides a FIFO write's mtime/ctime).
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchcmd.h"
#include "cleanup.h"
#include "cli.h"
#include "msg.h"
#include "lava.h"
#include "output.h"
#include "profile.h"
#include "sysinfo.h"
#include "tsprobe.h"
#include "units.h"

#define NAME "timestamps"


enum { K_ANON, K_FIFO, K_COUNT };
#define NOT_EXPECTED (-1)        /* no --expect for the kind */
static const char *const key_names[] = { "anon", "fifo" };

struct ts_params {
	const char *dir;
	uint64_t repeat;
	int expect[K_COUNT];     /* NOT_EXPECTED, PB_TS_V_FROZEN or PB_TS_V_UPDATED */
	const char *expect_s;
	int profile;             /* --profile: what the updates cost here */
};

struct ts_run {
	const struct ts_params *p;
	struct pb_ts_target t[K_COUNT];
	struct pb_ts_mount dir_mount;
	struct pb_ts_fifo_ref ref;      /* the FIFO result against a FIFO on tmpfs */
	bool have_ref;                  /* ref was computed */
	char tmpdir[4096];
	char error[512];
	int status;
	long coarse_res_ns;
	/* --profile: each kind's profiled fill/drain loop, or why not */
	struct pb_prof_run prof;
	struct pb_prof_summary cost[K_COUNT];
	double cost_syscalls[K_COUNT];
	char cost_why[K_COUNT][256];
	bool cost_ok[K_COUNT];
};

/* Whether the N bytes at P are the word W. */
static bool word_is(const char *p, size_t n, const char *w)
{
	return strlen(w) == n && strncmp(p, w, n) == 0;
}

/*
 * Parse "anon=frozen,fifo=updated" into EXPECT (set NOT_EXPECTED by the
 * caller): either or both keys, each once, no empty item.  False when S is
 * not such a list (nothing printed).
 */
static bool parse_expect(const char *s, int expect[K_COUNT])
{
	for (;;) {
		size_t len = strcspn(s, ","), klen;
		const char *eq = memchr(s, '=', len);
		int k = K_COUNT, v = NOT_EXPECTED;

		if (!eq)
			return false;
		klen = (size_t)(eq - s);
		for (int i = 0; i < K_COUNT; i++)
			if (word_is(s, klen, key_names[i]))
				k = i;
		if (word_is(eq + 1, len - klen - 1, "frozen"))
			v = PB_TS_V_FROZEN;
		else if (word_is(eq + 1, len - klen - 1, "updated"))
			v = PB_TS_V_UPDATED;
		if (k == K_COUNT || v == NOT_EXPECTED || expect[k] != NOT_EXPECTED)
			return false;
		expect[k] = v;
		if (!s[len])
			return true;
		s += len + 1;
	}
}

/* After the rows: --expect's pairs. */
static int check_params(struct pb_cli *cli, void *params)
{
	struct ts_params *p = params;

	(void)cli;
	p->expect[K_ANON] = p->expect[K_FIFO] = NOT_EXPECTED;
	if (p->expect_s) {
		if (!parse_expect(p->expect_s, p->expect)) {
			pb_usage_err(NAME, "--expect: invalid expectation '%s'; expected "
				     "anon=frozen|updated and/or fifo=frozen|updated, comma-separated",
				     p->expect_s);
			return -1;
		}
	}
	return 0;
}

static const char *kind_title(int k)
{
	return k == K_ANON ? "anonymous pipes" : "FIFOs";
}

/* The verdict in plain words, e.g. "frozen: read and write change ...". */
static void verdict_words(const struct pb_ts_target *t, int k, char *buf, size_t len)
{
	switch (t->verdict) {
	case PB_TS_V_FROZEN:
		snprintf(buf, len, "frozen: read and write change none of atime, mtime and ctime%s",
			 k == K_ANON ? " (the Linux 6.15 behaviour, commit f017b0a4951f)" : "");
		break;
	case PB_TS_V_UPDATED:
		snprintf(buf, len, "updated: %s%s", t->detail,
			 k == K_ANON ? " (the behaviour before Linux 6.15)" : "");
		break;
	default:
		snprintf(buf, len, "%s: %s", pb_ts_verdict_names[t->verdict], t->detail);
		break;
	}
}

/*
 * The verdict an expectation is held against: for FIFOs, the pipe code's,
 * i.e. the FIFO on tmpfs's when the FIFO directory's filesystem changes
 * what stat shows.
 */
static enum pb_ts_verdict judged_verdict(const struct ts_run *run, int k)
{
	if (k == K_FIFO && run->have_ref && run->ref.attr == PB_TS_ATTR_FILESYSTEM)
		return run->ref.pipe_verdict;
	return run->t[k].verdict;
}

static bool expect_holds(const struct ts_run *run, int k)
{
	return (int)judged_verdict(run, k) == run->p->expect[k];
}

static bool ref_probed(const struct ts_run *run)
{
	return run->have_ref && (run->ref.method == PB_TS_REF_DEV_SHM ||
				 run->ref.method == PB_TS_REF_PRIVATE_MOUNT);
}

static const char *ref_where(const struct pb_ts_fifo_ref *r)
{
	return r->method == PB_TS_REF_DEV_SHM ? "under /dev/shm" :
	       "on a tmpfs mounted in a private mount namespace";
}

static void mount_line(const struct pb_ts_mount *m, char *buf, size_t len)
{
	if (!strcmp(m->atime_policy, "internal"))
		snprintf(buf, len, "%s (kernel-internal mount, no atime policy)", m->fstype);
	else
		snprintf(buf, len, "%.63s, %.15s%s%s%.400s", m->fstype, m->atime_policy,
			 m->readonly ? ", read-only" : "", m->mountpoint[0] ? ", mounted on " : "",
			 m->mountpoint);
}

/* Every probed operation, kind by kind: kind k, operation o, its result op.
 * In the body, `continue` moves on to the next one (there is no `break`). */
#define FOR_EACH_PROBED(run, k, o, op) \
	for (int k = 0; k < K_COUNT; k++) \
		for (int o = 0; o < PB_TS_OP_COUNT; o++) \
			for (const struct pb_ts_opres *op = &(run)->t[k].ops[o]; \
			     op != NULL && op->probed; op = NULL)

/* Why an operation was not observed: the kernel refused it. */
static void unsupported_words(const struct pb_ts_opres *op, char *buf, size_t len)
{
	snprintf(buf, len, "not supported by this kernel: %s", strerror(-op->err));
}

static const char *cell(const struct pb_ts_opres *op, int f)
{
	if (!op->supported)
		return "unsupported";
	return pb_ts_state_names[op->field[f].state];
}

/* Fill/drain loops of 100 bytes per kind for --profile: about 0.6 s each,
 * 600 samples. */
#define COST_LOOPS 3000

/* --profile: the share of timestamp code in a profiled fill/drain loop of
 * each kind; what cannot be done is said, never an error. */
static void measure_cost(struct ts_run *run)
{
	pb_prof_run_begin(&run->prof, run->p->profile, false);
	for (int k = 0; k < K_COUNT && run->prof.on; k++) {
		if (!run->prof.ok) {
			snprintf(run->cost_why[k], sizeof(run->cost_why[k]), "%s", run->prof.why);
			continue;
		}
		run->cost_ok[k] = pb_bench_timestamp_cost(run->t[k].kind, run->tmpdir, &run->prof,
							  COST_LOOPS, &run->cost[k],
							  &run->cost_syscalls[k], run->cost_why[k],
							  sizeof(run->cost_why[k])) == 0;
	}
}

static double cost_ns(const struct ts_run *run, int k)
{
	return run->cost_syscalls[k] > 0 ? (double)run->cost[k].cat[PB_PROF_TIMESTAMPS] *
		(double)run->prof.period_ns / run->cost_syscalls[k] : NAN;
}

/* The cost line of the text. */
static void cost_text(const struct ts_run *run, FILE *fp)
{
	if (!run->prof.on)
		return;
	if (!run->cost_ok[K_ANON] || !run->cost_ok[K_FIFO]) {
		fprintf(fp, "cost        not profiled: %s\n",
			run->cost_ok[K_ANON] ? run->cost_why[K_FIFO] : run->cost_why[K_ANON]);
		return;
	}
	if (run->prof.syms_why[0] || run->prof.user_only) {
		fprintf(fp, "cost        not known: %s\n", run->prof.user_only ? run->prof.why :
			run->prof.syms_why);
		return;
	}
	fprintf(fp, "cost        timestamp updates: %.1f%% of kernel time on FIFOs (%.1f ns a "
		"syscall), %.1f%% on anonymous pipes (%.1f ns), from %llu and %llu samples of a "
		"100-byte fill/drain loop (--profile)\n", 100 * pb_prof_timestamp_kshare(&run->cost[K_FIFO]),
		cost_ns(run, K_FIFO), 100 * pb_prof_timestamp_kshare(&run->cost[K_ANON]), cost_ns(run, K_ANON),
		(unsigned long long)run->cost[K_FIFO].samples,
		(unsigned long long)run->cost[K_ANON].samples);
}

/* The cost in JSON: per kind, or null without --profile. */
static struct json_object *cost_json(const struct ts_run *run)
{
	struct json_object *o;
	bool named = !run->prof.syms_why[0] && !run->prof.user_only;

	if (!run->prof.on)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "profile", pb_prof_run_json(&run->prof));
	for (int k = 0; k < K_COUNT; k++) {
		struct json_object *c = NULL;

		if (run->cost_ok[k] && named) {
			c = json_object_new_object();
			pb_json_add_int(c, "samples", (int64_t)run->cost[k].samples);
			pb_json_add_int(c, "kernel_samples", (int64_t)run->cost[k].kernel);
			pb_json_add_int(c, "timestamp_samples",
					(int64_t)run->cost[k].cat[PB_PROF_TIMESTAMPS]);
			pb_json_add_double(c, "kernel_share", pb_prof_timestamp_kshare(&run->cost[k]));
			pb_json_add_double(c, "ns_per_syscall", cost_ns(run, k));
		}
		json_object_object_add(o, key_names[k], c);
	}
	pb_json_add_str(o, "reason", !run->cost_ok[K_ANON] ? run->cost_why[K_ANON] :
			!run->cost_ok[K_FIFO] ? run->cost_why[K_FIFO] :
			run->prof.user_only ? run->prof.why :
			run->prof.syms_why[0] ? run->prof.syms_why : NULL);
	return o;
}

static void emit_text(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct ts_run *run = r_;
	char line[512];
	unsigned notes = 0;

	if (run->status == PB_EXIT_ERROR)
		return;           /* the error says why */
	fprintf(fp, "kernel      Linux %s %s\n", si->kernel_release, si->machine);
	pb_text_machine(fp, "machine     ");
	mount_line(&run->t[K_ANON].mount, line, sizeof(line));
	fprintf(fp, "anon        %s\n", line);
	mount_line(&run->dir_mount, line, sizeof(line));
	fprintf(fp, "fifo        in %s: %s\n", run->p->dir, line);
	if (ref_probed(run)) {
		mount_line(&run->ref.ref.mount, line, sizeof(line));
		fprintf(fp, "reference   a FIFO %s: %s\n", ref_where(&run->ref), line);
	} else if (run->have_ref && run->ref.method == PB_TS_REF_NONE) {
		fprintf(fp, "reference   none: %s\n", run->ref.why_none);
	}
	fprintf(fp, "method      %llu repetitions; atime and mtime set to 2000-01-01 with "
		"futimens, ctime compared after the coarse clock (%.1f ms) passed it\n\n",
		(unsigned long long)run->p->repeat, run->coarse_res_ns / 1e6);
	fprintf(fp, "%-5s %-13s %-13s %-13s %s\n", "kind", "operation", "atime", "mtime",
		"ctime");
	FOR_EACH_PROBED(run, k, o, op)
		fprintf(fp, "%-5s %-13s %-13s %-13s %s\n", key_names[k], pb_ts_op_names[o],
			cell(op, 0), cell(op, 1), cell(op, 2));
	FOR_EACH_PROBED(run, k, o, op) {
		if (!op->supported) {
			unsupported_words(op, line, sizeof(line));
			fprintf(fp, "%s%s %s: %s\n", notes++ ? "" : "\n", key_names[k],
				pb_ts_op_names[o], line);
			continue;
		}
		for (int f = 0; f < PB_TS_FIELD_COUNT; f++)
			if (op->field[f].reason[0])
				fprintf(fp, "%s%s %s %s: %s: %s\n", notes++ ? "" : "\n",
					key_names[k], pb_ts_op_names[o], pb_ts_field_names[f],
					pb_ts_state_names[op->field[f].state], op->field[f].reason);
	}
	fputc('\n', fp);
	for (int k = 0; k < K_COUNT; k++) {
		verdict_words(&run->t[k], k, line, sizeof(line));
		fprintf(fp, "%-16s %s\n", kind_title(k), line);
	}
	if (ref_probed(run)) {
		verdict_words(&run->ref.ref, K_FIFO, line, sizeof(line));
		fprintf(fp, "%-16s %s\n", "FIFOs on tmpfs", line);
	}
	if (run->have_ref)
		fprintf(fp, "%-16s %s\n", run->ref.attr == PB_TS_ATTR_FILESYSTEM ? "filesystem" :
			"attribution", run->ref.words);
	for (int k = 0; k < K_COUNT; k++)
		if (run->p->expect[k] != NOT_EXPECTED)
			fprintf(fp, "expect %s=%s: %s\n", key_names[k],
				pb_ts_verdict_names[run->p->expect[k]],
				expect_holds(run, k) ? "holds" : "does NOT hold");
	cost_text(run, fp);
}

/* Counts behind one observation, as YAML diagnostics of its test point. */
static void tap_obs_yaml(struct pb_tap *t, const struct pb_ts_obs *ob)
{
	pb_tap_yaml_int(t, "updated", ob->n_updated);
	pb_tap_yaml_int(t, "unchanged", ob->n_unchanged);
	pb_tap_yaml_int(t, "undetermined", ob->n_undetermined);
	if (ob->reason[0])
		pb_tap_yaml_str(t, "reason", ob->reason);
}

static void emit_tap(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct ts_run *run = r_;
	struct pb_tap t;
	unsigned total = 0;
	char line[512];

	(void)si;
	if (run->status == PB_EXIT_ERROR) {
		pb_tap_skip_all(fp, run->error);
		return;
	}
	FOR_EACH_PROBED(run, k, o, op)
		total += op->supported ? PB_TS_FIELD_COUNT : 1;
	for (int k = 0; k < K_COUNT; k++)
		total += 1 + (run->p->expect[k] != NOT_EXPECTED);
	total += run->have_ref;
	pb_tap_begin(&t, fp, total);
	FOR_EACH_PROBED(run, k, o, op) {
		if (!op->supported) {
			unsupported_words(op, line, sizeof(line));
			pb_tap_point(&t, true, PB_TAP_SKIP, line, "%s %s", key_names[k],
				     pb_ts_op_names[o]);
			continue;
		}
		for (int f = 0; f < PB_TS_FIELD_COUNT; f++) {
			const struct pb_ts_obs *ob = &op->field[f];

			pb_tap_point(&t, ob->state != PB_TS_INCONSISTENT,
				     ob->state == PB_TS_UNDETERMINED ? PB_TAP_SKIP :
				     ob->state == PB_TS_INCONSISTENT ? PB_TAP_TODO : PB_TAP_NONE,
				     ob->reason, "%s %s %s %s", key_names[k], pb_ts_op_names[o],
				     pb_ts_field_names[f], pb_ts_state_names[ob->state]);
			if (ob->state == PB_TS_UNDETERMINED || ob->state == PB_TS_INCONSISTENT)
				tap_obs_yaml(&t, ob);
		}
	}
	for (int k = 0; k < K_COUNT; k++) {
		verdict_words(&run->t[k], k, line, sizeof(line));
		pb_tap_point(&t, true, PB_TAP_NONE, NULL, "%s verdict %s", key_names[k], line);
		pb_tap_yaml_word(&t, "kind", key_names[k]);
		pb_tap_yaml_word(&t, "verdict", pb_ts_verdict_names[run->t[k].verdict]);
		pb_tap_yaml_str(&t, "fstype", run->t[k].mount.fstype);
		if (k == K_FIFO)
			pb_tap_yaml_str(&t, "dir", run->p->dir);
		if (k == K_FIFO && run->have_ref) {
			if (run->ref.attr == PB_TS_ATTR_UNDETERMINED)
				pb_tap_point(&t, true, PB_TAP_SKIP, run->ref.words,
					     "fifo attribution");
			else
				pb_tap_point(&t, true, PB_TAP_NONE, NULL,
					     "fifo attributed to the %s: %s",
					     pb_ts_attr_names[run->ref.attr], run->ref.words);
		}
		if (run->p->expect[k] != NOT_EXPECTED) {
			pb_tap_point(&t, expect_holds(run, k), PB_TAP_NONE, NULL,
				     "expect %s=%s (observed %s)", key_names[k],
				     pb_ts_verdict_names[run->p->expect[k]],
				     pb_ts_verdict_names[judged_verdict(run, k)]);
			pb_tap_yaml_word(&t, "expected", pb_ts_verdict_names[run->p->expect[k]]);
			pb_tap_yaml_word(&t, "observed",
					 pb_ts_verdict_names[judged_verdict(run, k)]);
		}
	}
	pb_tap_end(&t);
}

static void emit_json(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct ts_run *run = r_;
	struct json_object *doc = pb_doc_new(NAME, si), *params = json_object_new_object();
	struct json_object *exp = json_object_new_object(), *method = json_object_new_object();
	struct json_object *res = json_object_new_array(), *sum = json_object_new_object();
	struct json_object *exps = json_object_new_array();
	bool any = false, all = true;

	pb_json_add_str(params, "dir", run->p->dir);
	pb_json_add_int(params, "repeat", (int64_t)run->p->repeat);
	for (int k = 0; k < K_COUNT; k++)
		pb_json_add_str(exp, key_names[k], run->p->expect[k] != NOT_EXPECTED ?
				pb_ts_verdict_names[run->p->expect[k]] : NULL);
	json_object_object_add(params, "expect", exp);
	json_object_object_add(doc, "params", params);
	pb_json_add_int(method, "past_time_s", 946684800);
	pb_json_add_int(method, "coarse_clock_res_ns", run->coarse_res_ns);
	json_object_object_add(doc, "method", method);
	json_object_object_add(doc, "fifo_dir", pb_ts_mount_json(&run->dir_mount, run->p->dir));
	json_object_object_add(doc, "fifo_reference", run->have_ref ?
			       pb_ts_fifo_ref_json(&run->t[K_FIFO], &run->ref) : NULL);
	if (!run->status || run->status == PB_EXIT_FAIL)
		for (int k = 0; k < K_COUNT; k++)
			json_object_array_add(res, pb_ts_target_json(&run->t[k]));
	json_object_object_add(doc, "results", res);
	json_object_object_add(doc, "timestamp_cost", cost_json(run));
	for (int k = 0; k < K_COUNT; k++) {
		pb_json_add_str(sum, key_names[k], json_object_array_length(res) ?
				pb_ts_verdict_names[run->t[k].verdict] : NULL);
		if (k == K_FIFO) {
			pb_json_add_str(sum, "fifo_attributed_to", run->have_ref ?
					pb_ts_attr_names[run->ref.attr] : NULL);
			pb_json_add_str(sum, "fifo_pipe", run->have_ref &&
					run->ref.attr != PB_TS_ATTR_UNDETERMINED ?
					pb_ts_verdict_names[run->ref.pipe_verdict] : NULL);
		}
		if (run->p->expect[k] != NOT_EXPECTED) {
			struct json_object *e = json_object_new_object();

			pb_json_add_str(e, "kind", key_names[k]);
			pb_json_add_str(e, "expected", pb_ts_verdict_names[run->p->expect[k]]);
			pb_json_add_str(e, "observed", pb_ts_verdict_names[judged_verdict(run, k)]);
			json_object_object_add(e, "holds", json_object_new_boolean(expect_holds(run, k)));
			json_object_array_add(exps, e);
			any = true;
			all = all && expect_holds(run, k);
		}
	}
	json_object_object_add(doc, "expectations", exps);
	json_object_object_add(sum, "expectations_hold", any ? json_object_new_boolean(all) : NULL);
	pb_doc_finish(doc, sum, run->error, run->status, fp);
}

/*
 * Compare the FIFO result with a FIFO on tmpfs and say in the FIFO's detail
 * (which `report` shows) when the filesystem, not the pipe code, made it.
 */
static void attribute_fifo(struct ts_run *run, const struct ts_params *p)
{
	struct pb_ts_target *t = &run->t[K_FIFO];
	size_t off = strlen(t->detail);

	pb_ts_fifo_reference(t, run->tmpdir, (unsigned)p->repeat, &run->ref);
	run->have_ref = true;
	if (run->ref.attr == PB_TS_ATTR_FILESYSTEM)
		snprintf(t->detail + off, sizeof(t->detail) - off, "; %s (a FIFO on tmpfs: %s)",
			 run->ref.words, pb_ts_verdict_names[run->ref.ref.verdict]);
	else if (run->ref.attr == PB_TS_ATTR_UNDETERMINED && t->verdict != PB_TS_V_UPDATED)
		snprintf(t->detail + off, sizeof(t->detail) - off, "; %s", run->ref.words);
}

static int exec_params(struct pb_cli *cli, void *params)
{
	const struct ts_params *p = params;
	struct ts_run run = { .p = p };
	struct pb_ts_opts o = { .repeat = (unsigned)p->repeat, .ops = PB_TS_OPS_ALL };
	struct pb_sysinfo si;
	struct pb_out out;

	pb_sysinfo_collect(&si);
	run.coarse_res_ns = pb_ts_coarse_res_ns();
	if (pb_out_open(&out)) {
		pb_err(NAME, "cannot allocate output buffer");
		return PB_EXIT_ERROR;
	}
	pb_ts_mount_describe(p->dir, -1, &run.dir_mount);
	run.t[K_ANON].kind = PB_KIND_ANON;
	run.t[K_FIFO].kind = PB_KIND_FIFO;
	if (PB_TMPDIR_MAKE(&run, p->dir, run.tmpdir) == 0) {
		o.dir = run.tmpdir;
		/* Bounded anyway (one bounded wait per repetition); this is a backstop. */
		pb_watchdog_arm(30.0 + (double)p->repeat, "probe");
		if (pb_ts_probe(run.t, K_COUNT, &o, run.error, sizeof(run.error)))
			run.status = PB_EXIT_ERROR;
		else
			attribute_fifo(&run, p);
		if (!run.status)
			measure_cost(&run);
		pb_watchdog_arm(0, NULL);
		pb_tmpdir_remove(run.tmpdir);
	}
	for (int k = 0; k < K_COUNT && !run.status; k++)
		if (p->expect[k] != NOT_EXPECTED && !expect_holds(&run, k))
			run.status = PB_EXIT_FAIL;
	if (run.error[0])
		pb_err(NAME, "%s", run.error);
	pb_cli_emit(cli, &run, &si, out.fp);
	for (int k = 0; k < K_COUNT; k++)
		pb_ts_target_free(&run.t[k]);
	pb_prof_run_end(&run.prof);
	if (pb_out_finish(&out, NAME, cli->common.output) && run.status == 0)
		run.status = PB_EXIT_ERROR;
	return run.status;
}

#define P struct ts_params
static const struct pb_opt options[] = {
	{ PB_OPT("dir", 'd', PB_OPT_DIR, P, dir), .arg = "DIR",
	  .help = "directory for the FIFOs; its filesystem and atime policy are reported" },
	{ PB_OPT("repeat", 'r', PB_OPT_COUNT, P, repeat), .min = 1, .max = 1000, .def = "3",
	  .arg = "N", .help = "repetitions of every observation; disagreement is reported as "
	  "inconsistent" },
	{ PB_OPT("profile", '\0', PB_OPT_FLAG, P, profile), .def_help = "off",
	  .help = "also what timestamp updates cost here: a profiled fill/drain loop per kind "
		  "(perf cpu-clock; about 0.6 s each)" },
	{ PB_OPT("expect", 'e', PB_OPT_STRING, P, expect_s), .list = true, .arg = "LIST",
	  .help = "exit 1 unless the verdicts are these: anon=frozen|updated,"
	  "fifo=frozen|updated (either or both)" },
	PB_OPT_END
};

/* --expect of timestamps: KIND.expect, pass or fail, per kind expected. */
static void lava_ts_expect(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *a = pb_json_get(doc, "expectations");

	for (size_t i = 0; i < pb_json_len(a); i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		struct json_object *holds = pb_json_get(e, "holds");

		pb_lava_item(l, e);
		if (pb_json_str(e, "kind") && json_object_is_type(holds, json_type_boolean))
			pb_lava_case(l, json_object_get_boolean(holds) ? "pass" : "fail", "%s.expect",
				     pb_json_str(e, "kind"));
	}
	pb_lava_item(l, NULL);
}

/* Timestamps: the probes' cases, then the expectations. */
static void lava_cases(struct pb_lava *l, struct json_object *doc)
{
	pb_lava_ts_targets(l, "", pb_json_get(doc, "results"));
	lava_ts_expect(l, doc);
	pb_lava_expectations(l, doc);
}

static const struct pb_format formats[] = {
	{ .name = "text", .emit = emit_text, .text = true },
	{ .name = "json", .emit = emit_json },
	{ .name = "tap", .emit = emit_tap },
	PB_FORMAT_END
};

const struct pb_cmd pb_cmd_timestamps = {
	.lava_cases = lava_cases,
	.name = NAME, .opts = options, .formats = formats, .params_size = sizeof(struct ts_params),
	.check = check_params, .exec = exec_params,
	.summary = "whether pipe and FIFO operations update atime, mtime and ctime",
};
