/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench conformance: run the POSIX/Linux pipe and FIFO check catalogue
 * (the groups in src/checks/), each check in a forked child under a watchdog, and
 * report the verdicts as text, JSON, TAP 13 or JUnit XML.
 */
#include <config.h>

#include <errno.h>
#include <fnmatch.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cleanup.h"
#include "cli.h"
#include "clock.h"
#include "checks/conformance.h"
#include "msg.h"
#include "lava.h"
#include "output.h"
#include "sysinfo.h"
#include "units.h"

#define NAME "conformance"
#define MAX_CHECKS 256

/* What params.kind says in JSON; --kind takes pb_kind_words. */
static const char *const kind_words[] = { "anon", "fifo", "all", NULL };
enum { KIND_ANON, KIND_FIFO, KIND_ALL };

struct conf_params {
	const struct pb_check *sel[MAX_CHECKS];
	size_t nsel;
	unsigned kind;          /* KIND_* */
	unsigned kind_words;    /* --kind, bits of pb_kind_words */
	uint64_t timeout_ns;
	int allow_global;
	int list;
	const char *dir;
	const char *only, *skip;
};

struct conf_result {
	const struct pb_check *c;
	int kind;               /* enum pb_kind, or -1: the check has no kinds */
	struct pb_check_result r;
};

/* One run of one check: a check that applies to both kinds is two. */
struct conf_item {
	const struct pb_check *c;
	int kind;               /* enum pb_kind, or -1: the check has no kinds */
};

struct conf_run {
	const struct conf_params *p;
	struct conf_item *items;  /* everything selected, in order */
	size_t nitems;
	struct conf_result *res;  /* res[i] is items[i]'s verdict, i < nres */
	size_t nres;
	unsigned count[PB_VERDICT_COUNT];
	uint64_t duration_ns;
	int intr;               /* the signal that interrupted the run, or 0;
				 * items[nres..nitems) then did not run */
	int status;             /* the exit status, for the JSON document */
};

/* Every check of the catalogue, in order, through CB. */
#define FOR_EACH_CHECK(c) \
	for (size_t g_ = 0; pb_check_groups[g_]; g_++) \
		for (const struct pb_check *c = pb_check_groups[g_]; c->id; c++)

/* A pattern names an ID or glob (WR-*), a group (write) or an ID prefix (WR). */
static bool pattern_matches(const char *pat, const struct pb_check *c)
{
	const char *dash = strchr(c->id, '-');

	if (fnmatch(pat, c->id, FNM_CASEFOLD) == 0 || strcasecmp(pat, c->group) == 0)
		return true;
	return dash && strlen(pat) == (size_t)(dash - c->id) &&
	       strncasecmp(pat, c->id, (size_t)(dash - c->id)) == 0;
}

static bool list_matches(const char *list, const struct pb_check *c)
{
	char *copy = strdup(list), *save = NULL;
	bool hit = false;

	if (!copy)
		return false;
	for (char *t = strtok_r(copy, ",", &save); t && !hit; t = strtok_r(NULL, ",", &save))
		hit = pattern_matches(t, c);
	free(copy);
	return hit;
}

/* Every item must be non-empty and match at least one check. */
static int check_list(const char *opt, const char *list)
{
	const char *p = list;

	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char item[128];
		bool hit = false;

		if (len == 0 || len >= sizeof(item)) {
			pb_usage_err(NAME, "%s: invalid list '%s'", opt, list);
			return -1;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		FOR_EACH_CHECK(c)
			hit = hit || pattern_matches(item, c);
		if (!hit) {
			pb_usage_err(NAME, "%s: '%s' matches no check (see --list)", opt, item);
			return -1;
		}
		if (!end)
			return 0;
		p = end + 1;
	}
}

/* After the rows: the kind, the --only/--skip patterns, the selection. */
static int check_params(struct pb_cli *cli, void *params)
{
	struct conf_params *p = params;
	/* "all" is both pipe kinds: the row allows no socketpair. */
	unsigned mask = pb_kind_mask(p->kind_words, PB_KIND_WORDS_PIPES);
	const char *only = p->only, *skip = p->skip;

	p->kind = mask == (1u << PB_KIND_FIFO) ? KIND_FIFO :
		  mask == (1u << PB_KIND_ANON) ? KIND_ANON : KIND_ALL;
	if (only && check_list("--only", only))
		return -1;
	if (skip && check_list("--skip", skip))
		return -1;
	FOR_EACH_CHECK(c) {
		if (only && !list_matches(only, c))
			continue;
		if (skip && list_matches(skip, c))
			continue;
		if (p->nsel < MAX_CHECKS)
			p->sel[p->nsel++] = c;
	}
	if (p->list && !cli->fmt->text && strcmp(cli->fmt->name, "json") != 0) {
		pb_usage_err(NAME, "--list: only the text and json formats");
		return -1;
	}
	return 0;
}

static void record(struct conf_run *run, const struct pb_check *c, int kind,
		   const struct pb_check_result *r)
{
	struct conf_result *x = &run->res[run->nres++];

	x->c = c;
	x->kind = kind;
	x->r = *r;
	run->count[r->verdict < PB_VERDICT_COUNT ? r->verdict : PB_ERROR]++;
}

static void plan_items(struct conf_run *run)
{
	const struct conf_params *p = run->p;

	for (size_t i = 0; i < p->nsel; i++) {
		const struct pb_check *c = p->sel[i];

		if (!(c->flags & PB_CHECK_BOTH_KINDS)) {
			run->items[run->nitems++] = (struct conf_item){ c, -1 };
			continue;
		}
		if (p->kind != KIND_FIFO)
			run->items[run->nitems++] = (struct conf_item){ c, PB_KIND_ANON };
		if (p->kind != KIND_ANON)
			run->items[run->nitems++] = (struct conf_item){ c, PB_KIND_FIFO };
	}
}

static const char *sig_name(int sig)
{
	return sigabbrev_np(sig) ? sigabbrev_np(sig) : "?";
}

/*
 * Run the items in order.  On SIGINT, SIGTERM or SIGHUP (deferred, see
 * pb_cleanup_defer_signals) the check running is stopped and recorded as
 * `error: interrupted by SIG...`; when the signal came between two checks,
 * the next one is recorded so, "before it started".  Either way exactly one
 * result says so and nothing after it runs.
 */
static void execute_checks(struct conf_run *run, bool progress)
{
	const struct conf_params *p = run->p;
	uint64_t t0 = pb_clock_ns();
	bool marked = false;
	struct pb_progress pg;

	pb_progress_start(&pg, NAME, progress, run->nitems);
	for (size_t i = 0; i < run->nitems; i++) {
		const struct conf_item *it = &run->items[i];
		const struct pb_check *c = it->c;
		struct pb_run_opts o = {
			.base_dir = p->dir,
			.kind = it->kind < 0 ? PB_KIND_ANON : (enum pb_kind)it->kind,
			.timeout_s = (double)p->timeout_ns / 1e9,
			.flags = p->allow_global ? PB_RUN_ALLOW_GLOBAL : 0,
		};
		struct pb_check_result r;
		int sig = pb_cleanup_interrupted();

		if (sig) {
			if (!marked) {
				memset(&r, 0, sizeof(r));
				r.verdict = PB_ERROR;
				snprintf(r.detail, sizeof(r.detail),
					 "interrupted by SIG%s before it started", sig_name(sig));
				record(run, c, it->kind, &r);
			}
			break;
		}
		pb_progress_show(&pg, "[%zu/%zu] %s", i + 1, run->nitems, c->id);
		if ((c->flags & PB_CHECK_GLOBAL) && !p->allow_global) {
			memset(&r, 0, sizeof(r));
			r.verdict = PB_SKIP;
			snprintf(r.detail, sizeof(r.detail), "changes global state; run with "
				 "--allow-global-changes");
		} else {
			/* Returns -errno only with r already saying ERROR. */
			pb_conformance_run_one(c, &o, &r);
		}
		record(run, c, it->kind, &r);
		marked = pb_cleanup_interrupted() && r.verdict == PB_ERROR &&
			 strncmp(r.detail, "interrupted by SIG", 18) == 0;
	}
	run->intr = pb_cleanup_interrupted();
	pb_progress_end(&pg);
	run->duration_ns = pb_clock_ns() - t0;
}

static int exit_status(const struct conf_run *run)
{
	if (run->intr)
		return 128 + run->intr;
	if (run->count[PB_ERROR])
		return PB_EXIT_ERROR;
	if (run->count[PB_FAIL])
		return PB_EXIT_FAIL;
	if (run->count[PB_SKIP] == run->nres)
		return PB_EXIT_NA;  /* also when nothing was selected */
	return PB_EXIT_OK;
}

/* The detail as shown: "[fifo] ..." when the kind is not the default one. */
static void shown_detail(const struct conf_run *run, const struct conf_result *x, char *buf,
			 size_t len)
{
	if (x->kind >= 0 && run->p->kind != KIND_ANON)
		snprintf(buf, len, "[%s] %s", pb_kind_names[x->kind], x->r.detail);
	else
		snprintf(buf, len, "%s", x->r.detail);
}

static void summary_line(const struct conf_run *run, FILE *fp)
{
	fprintf(fp, "%u passed, %u failed, %u skipped, %u known deviations, %u info",
		run->count[PB_PASS], run->count[PB_FAIL], run->count[PB_SKIP],
		run->count[PB_KNOWN_DEVIATION], run->count[PB_INFO]);
	if (run->count[PB_ERROR])
		fprintf(fp, ", %u errors", run->count[PB_ERROR]);
	if (run->intr)
		fprintf(fp, "; interrupted by SIG%s, %zu not run", sig_name(run->intr),
			run->nitems - run->nres);
	fputc('\n', fp);
}

static void emit_text(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct conf_run *run = r_;

	(void)si;
	char d[600];

	for (size_t i = 0; i < run->nres; i++) {
		const struct conf_result *x = &run->res[i];

		shown_detail(run, x, d, sizeof(d));
		fprintf(fp, "%-8s %-15s %s%s%s\n", x->c->id, pb_verdict_names[x->r.verdict],
			x->c->title, d[0] ? ": " : "", d);
	}
	summary_line(run, fp);
}

static void emit_tap(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct conf_run *run = r_;

	(void)si;
	struct pb_tap t;

	if (run->nres == 0) {
		pb_tap_skip_all(fp, "no check selected");
		return;
	}
	pb_tap_begin(&t, fp, run->nres);
	for (size_t i = 0; i < run->nres; i++) {
		const struct conf_result *x = &run->res[i];
		enum pb_verdict v = x->r.verdict;
		char kind[32] = "";

		if (x->kind >= 0 && run->p->kind != KIND_ANON)
			snprintf(kind, sizeof(kind), "[%s] ", pb_kind_names[x->kind]);
		pb_tap_point(&t, v != PB_FAIL && v != PB_ERROR,
			     v == PB_SKIP ? PB_TAP_SKIP : PB_TAP_NONE, x->r.detail, "%s %s%s",
			     x->c->id, kind, x->c->title);
		pb_tap_yaml_str(&t, "id", x->c->id);
		pb_tap_yaml_word(&t, "status", pb_verdict_names[v]);
		pb_tap_yaml_str(&t, "tag", x->c->tag);
		pb_tap_yaml_word(&t, "group", x->c->group);
		if (x->kind >= 0)
			pb_tap_yaml_word(&t, "kind", pb_kind_names[x->kind]);
		pb_tap_yaml_str(&t, "citation", x->c->citation);
		pb_tap_yaml_str(&t, "detail", x->r.detail);
		pb_tap_yaml_int(&t, "duration_ns", (int64_t)x->r.duration_ns);
	}
	if (run->intr)
		pb_tap_comment(&t, "interrupted by SIG%s: %zu of %zu checks not run",
			       sig_name(run->intr), run->nitems - run->nres, run->nitems);
	pb_tap_end(&t);
}

/*
 * Length of the valid UTF-8 sequence at P that XML 1.0 allows as a
 * character, or 0: no overlong form (C0, C1, E0 80-9F, F0 80-8F), no
 * surrogate (ED A0-BF), nothing past U+10FFFF (F4 90-BF, F5-FF), and not
 * U+FFFE or U+FFFF (EF BF BE, EF BF BF).  A NUL ends a sequence cut short.
 */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (*p >= 0xc2 && *p <= 0xdf) {
		n = 2;
	} else if (*p >= 0xe0 && *p <= 0xef) {
		n = 3;
		if (*p == 0xe0)
			lo = 0xa0;
		else if (*p == 0xed)
			hi = 0x9f;
	} else if (*p >= 0xf0 && *p <= 0xf4) {
		n = 4;
		if (*p == 0xf0)
			lo = 0x90;
		else if (*p == 0xf4)
			hi = 0x8f;
	} else {
		return 0;
	}
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe)
		return 0;
	return n;
}

/* XML 1.0 text or attribute value: escaped, no control characters, valid UTF-8. */
static void xml_str(FILE *fp, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", fp); continue;
		case '<': fputs("&lt;", fp); continue;
		case '>': fputs("&gt;", fp); continue;
		case '"': fputs("&quot;", fp); continue;
		case '\'': fputs("&apos;", fp); continue;
		default: break;
		}
		if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') {
			fputc('?', fp);
		} else if (*p < 0x80) {
			fputc(*p, fp);
		} else {
			size_t n = utf8_len(p);

			if (n == 0) {
				fputc('?', fp);
			} else {
				fwrite(p, 1, n, fp);
				p += n - 1;
			}
		}
	}
}

static void emit_junit(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct conf_run *run = r_;
	unsigned fails = run->count[PB_FAIL], errs = run->count[PB_ERROR];
	unsigned skips = run->count[PB_SKIP];
	char d[600];

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", fp);
	fprintf(fp, "<testsuites name=\"pipebench conformance\" tests=\"%zu\" failures=\"%u\" "
		"errors=\"%u\" skipped=\"%u\" time=\"%.3f\">\n", run->nres, fails, errs, skips,
		(double)run->duration_ns / 1e9);
	fprintf(fp, "  <testsuite name=\"pipebench.conformance\" tests=\"%zu\" failures=\"%u\" "
		"errors=\"%u\" skipped=\"%u\" time=\"%.3f\" hostname=\"", run->nres, fails, errs,
		skips, (double)run->duration_ns / 1e9);
	xml_str(fp, si->hostname);
	fputs("\">\n    <properties>\n      <property name=\"kernel\" value=\"", fp);
	xml_str(fp, si->kernel_release);
	fputs("\"/>\n      <property name=\"machine\" value=\"", fp);
	xml_str(fp, si->machine);
	fputs("\"/>\n", fp);
	if (run->intr)
		fprintf(fp, "      <property name=\"interrupted\" value=\"SIG%s\"/>\n"
			"      <property name=\"not_run\" value=\"%zu\"/>\n", sig_name(run->intr),
			run->nitems - run->nres);
	fputs("    </properties>\n", fp);
	for (size_t i = 0; i < run->nres; i++) {
		const struct conf_result *x = &run->res[i];
		enum pb_verdict v = x->r.verdict;

		shown_detail(run, x, d, sizeof(d));
		/* The name is the ID (ID.KIND when the run covers FIFOs), never
		 * the title: Jenkins keys a test's history on classname and name,
		 * and a title may be reworded.  The title goes to system-out,
		 * which every JUnit schema allows in a testcase. */
		fprintf(fp, "    <testcase classname=\"pipebench.conformance.%s\" name=\"",
			x->c->group);
		xml_str(fp, x->c->id);
		if (x->kind >= 0 && run->p->kind != KIND_ANON)
			fprintf(fp, ".%s", pb_kind_names[x->kind]);
		fprintf(fp, "\" time=\"%.6f\">\n", (double)x->r.duration_ns / 1e9);
		if (v == PB_FAIL || v == PB_ERROR) {
			fprintf(fp, "      <%s type=\"%s\" message=\"", v == PB_FAIL ? "failure" : "error",
				pb_verdict_names[v]);
			xml_str(fp, d);
			fputs("\">", fp);
			xml_str(fp, x->c->citation);
			fprintf(fp, "</%s>\n", v == PB_FAIL ? "failure" : "error");
		} else if (v == PB_SKIP) {
			fputs("      <skipped message=\"", fp);
			xml_str(fp, d);
			fputs("\"/>\n", fp);
		}
		fputs("      <system-out>", fp);
		xml_str(fp, x->c->title);
		if (v != PB_FAIL && v != PB_ERROR && v != PB_SKIP) {
			fprintf(fp, "\n%s: ", pb_verdict_names[v]);
			xml_str(fp, d);
		}
		fputs("</system-out>\n", fp);
		fputs("    </testcase>\n", fp);
	}
	fputs("  </testsuite>\n</testsuites>\n", fp);
}

static struct json_object *list_json(const char *list)
{
	struct json_object *a;
	char *copy, *save = NULL;

	if (!list)
		return NULL;
	a = json_object_new_array();
	copy = strdup(list);
	for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save))
		json_object_array_add(a, json_object_new_string(t));
	free(copy);
	return a;
}

static struct json_object *params_json(const struct conf_params *p)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "only", list_json(p->only));
	json_object_object_add(o, "skip", list_json(p->skip));
	pb_json_add_str(o, "kind", kind_words[p->kind]);
	pb_json_add_int(o, "timeout_ns", (int64_t)p->timeout_ns);
	json_object_object_add(o, "allow_global_changes", json_object_new_boolean(p->allow_global));
	pb_json_add_str(o, "dir", p->dir);
	return o;
}

static struct json_object *check_meta_json(const struct pb_check *c)
{
	struct json_object *o = json_object_new_object();

	pb_json_add_str(o, "id", c->id);
	pb_json_add_str(o, "tag", c->tag);
	pb_json_add_str(o, "group", c->group);
	pb_json_add_str(o, "title", c->title);
	pb_json_add_str(o, "citation", c->citation);
	return o;
}

static void emit_json(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct conf_run *run = r_;
	int status = run->status;
	struct json_object *doc = pb_doc_new(NAME, si), *a = json_object_new_array();
	struct json_object *sum = json_object_new_object();

	json_object_object_add(doc, "params", params_json(run->p));
	for (size_t i = 0; i < run->nres; i++) {
		const struct conf_result *x = &run->res[i];
		struct json_object *o = check_meta_json(x->c);

		pb_json_add_str(o, "status", pb_verdict_names[x->r.verdict]);
		pb_json_add_str(o, "kind", x->kind >= 0 ? pb_kind_names[x->kind] : NULL);
		pb_json_add_str(o, "detail", x->r.detail);
		pb_json_add_int(o, "duration_ns", (int64_t)x->r.duration_ns);
		json_object_object_add(o, "timed_out", json_object_new_boolean(x->r.timed_out));
		pb_json_add_str(o, "signal", x->r.signal ? sigabbrev_np(x->r.signal) : NULL);
		json_object_array_add(a, o);
	}
	json_object_object_add(doc, "checks", a);
	/* Selected but not run (interrupted): apart from the results. */
	a = json_object_new_array();
	for (size_t i = run->nres; i < run->nitems; i++) {
		struct json_object *o = json_object_new_object();

		pb_json_add_str(o, "id", run->items[i].c->id);
		pb_json_add_str(o, "kind", run->items[i].kind >= 0 ?
				pb_kind_names[run->items[i].kind] : NULL);
		json_object_array_add(a, o);
	}
	json_object_object_add(doc, "not_run", a);
	pb_json_add_int(sum, "total", (int64_t)run->nres);
	pb_json_add_int(sum, "passed", run->count[PB_PASS]);
	pb_json_add_int(sum, "failed", run->count[PB_FAIL]);
	pb_json_add_int(sum, "skipped", run->count[PB_SKIP]);
	pb_json_add_int(sum, "known_deviations", run->count[PB_KNOWN_DEVIATION]);
	pb_json_add_int(sum, "info", run->count[PB_INFO]);
	pb_json_add_int(sum, "errors", run->count[PB_ERROR]);
	pb_json_add_int(sum, "duration_ns", (int64_t)run->duration_ns);
	pb_json_add_int(sum, "not_run", (int64_t)(run->nitems - run->nres));
	if (run->intr) {
		char sig[32];

		snprintf(sig, sizeof(sig), "SIG%s", sig_name(run->intr));
		pb_json_add_str(sum, "interrupted", sig);
	} else {
		pb_json_add_str(sum, "interrupted", NULL);
	}
	json_object_object_add(doc, "summary", sum);
	for (size_t i = 0; i < run->nres; i++)
		if (run->res[i].r.verdict == PB_ERROR) {
			char msg[600];

			snprintf(msg, sizeof(msg), "%s: %s", run->res[i].c->id, run->res[i].r.detail);
			pb_doc_add_error(doc, msg);
		}
	pb_doc_finish(doc, NULL, NULL, status, fp);
}

static int do_list(struct pb_cli *cli, const struct conf_params *p)
{
	struct pb_out out;
	int r;

	if (pb_out_open(&out)) {
		pb_err(NAME, "cannot allocate output buffer");
		return PB_EXIT_ERROR;
	}
	if (!cli->fmt->text) {
		struct json_object *doc = pb_doc_new(NAME, NULL), *a = json_object_new_array();

		for (size_t i = 0; i < p->nsel; i++) {
			struct json_object *o = check_meta_json(p->sel[i]);
			unsigned f = p->sel[i]->flags;

			json_object_object_add(o, "both_kinds",
					       json_object_new_boolean(f & PB_CHECK_BOTH_KINDS));
			json_object_object_add(o, "global", json_object_new_boolean(f & PB_CHECK_GLOBAL));
			json_object_object_add(o, "privileged",
					       json_object_new_boolean(f & PB_CHECK_PRIV));
			json_object_array_add(a, o);
		}
		json_object_object_add(doc, "checks", a);
		pb_doc_finish(doc, NULL, NULL, PB_EXIT_OK, out.fp);
	} else {
		for (size_t i = 0; i < p->nsel; i++)
			fprintf(out.fp, "%s\t%s\t%s\t%s\t%s\n", p->sel[i]->id, p->sel[i]->tag,
				p->sel[i]->group, p->sel[i]->title, p->sel[i]->citation);
	}
	/* A listing whose reader went away is no error (as --help). */
	r = pb_out_finish(&out, NAME, cli->common.output);
	return r && r != -EPIPE ? PB_EXIT_ERROR : PB_EXIT_OK;
}

static int execute(struct pb_cli *cli, const struct conf_params *p)
{
	struct conf_run run = { .p = p };
	struct pb_sysinfo si;
	struct pb_out out;
	int status;

	run.res = calloc(2 * p->nsel + 1, sizeof(*run.res));
	run.items = calloc(2 * p->nsel + 1, sizeof(*run.items));
	if (!run.res || !run.items || pb_out_open(&out)) {
		free(run.res);
		free(run.items);
		pb_err(NAME, "out of memory");
		return PB_EXIT_ERROR;
	}
	/* From here a signal stops the run but the document is still written
	 * (conformance_main then exits 128+signal). */
	pb_cleanup_defer_signals(true);
	pb_sysinfo_collect(&si);
	plan_items(&run);
	execute_checks(&run, pb_cli_progress(cli));
	status = exit_status(&run);
	/* The harness failing is a diagnostic as well as a verdict. */
	for (size_t i = 0; i < run.nres; i++)
		if (run.res[i].r.verdict == PB_ERROR)
			pb_err(NAME, "%s: %s", run.res[i].c->id, run.res[i].r.detail);
	run.status = status;
	pb_cli_emit(cli, &run, &si, out.fp);
	free(run.res);
	free(run.items);
	if (pb_out_finish(&out, NAME, cli->common.output) && !run.intr)
		status = pb_exit_merge(status, PB_EXIT_ERROR);
	return status;
}

static int exec_params(struct pb_cli *cli, void *params)
{
	const struct conf_params *p = params;

	return p->list ? do_list(cli, p) : execute(cli, p);
}

#define P struct conf_params
static const struct pb_opt options[] = {
	{ PB_OPT("list", 'l', PB_OPT_FLAG, P, list),
	  .help = "list the selected checks (ID, tag, group, title, citation) and exit" },
	{ PB_OPT("only", 'O', PB_OPT_STRING, P, only), .list = true, .arg = "LIST",
	  .help = "run only these checks: IDs, groups or globs, comma-separated (e.g. WR-*,read)" },
	{ PB_OPT("skip", 'S', PB_OPT_STRING, P, skip), .list = true, .arg = "LIST",
	  .help = "do not run these checks: IDs, groups or globs, comma-separated" },
	{ PB_OPT("kind", 'k', PB_OPT_WORDS, P, kind_words), .words = pb_kind_words,
	  .allowed = PB_KIND_WORDS_PIPES, .def = "anon", .arg = "LIST",
	  .help = "for checks that apply to both pipe kinds, which (all: anon and fifo)" },
	{ PB_OPT("timeout", 't', PB_OPT_DURATION, P, timeout_ns), .min = 1000000ULL,
	  .max = 3600ULL * 1000000000ULL, .def = "5s", .arg = "DURATION",
	  .help = "watchdog per check, e.g. 5 or 500ms" },
	{ PB_OPT("allow-global-changes", '\0', PB_OPT_FLAG, P, allow_global),
	  .help = "run checks that change global state (sysctls), restoring it after" },
	{ PB_OPT("dir", 'd', PB_OPT_DIR, P, dir), .arg = "DIR",
	  .help = "where the checks' private directories go" },
	PB_OPT_END
};

/* Is check ID listed with a kind more than once in the arrays A and B? */
static bool lava_id_twice(struct json_object *a, struct json_object *b, const char *id)
{
	unsigned seen = 0;

	for (int k = 0; k < 2; k++) {
		struct json_object *arr = k ? b : a;

		for (size_t j = 0; id && j < pb_json_len(arr); j++) {
			const char *other = pb_json_str(json_object_array_get_idx(arr, j), "id");

			seen += other && strcmp(other, id) == 0;
		}
	}
	return seen > 1;
}

/* Conformance: one case per check, named by its ID, ID.KIND when the run
 * asked for FIFOs (--kind fifo or all) or the document holds the check for
 * several kinds: the name follows the options, never the verdicts.  A check
 * not run (interrupted) is unknown under the same name. */
static void lava_cases(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *a = pb_json_get(doc, "checks"), *nr = pb_json_get(doc, "not_run");
	const char *asked = pb_json_str(doc, "params.kind");
	bool by_kind = asked && strcmp(asked, "anon") != 0;

	for (int not_run = 0; not_run < 2; not_run++) {
		struct json_object *arr = not_run ? nr : a;

		for (size_t i = 0; i < pb_json_len(arr); i++) {
			struct json_object *c = json_object_array_get_idx(arr, i);
			const char *id = json_object_is_type(c, json_type_string) ?
					 json_object_get_string(c) : pb_json_str(c, "id");
			const char *kind = pb_json_str(c, "kind");
			const char *result = not_run ? "unknown" : pb_lava_result(pb_json_str(c, "status"));

			if (!not_run && !pb_json_get(c, "status"))
				continue;        /* a listing (--list), not a result */
			pb_lava_item(l, not_run ? NULL : c);
			if (kind && (by_kind || lava_id_twice(a, nr, id)))
				pb_lava_case(l, result, "%s.%s", id ? id : "?", kind);
			else
				pb_lava_case(l, result, "%s", id ? id : "?");
		}
	}
}

static const struct pb_format formats[] = {
	{ .name = "text", .emit = emit_text, .text = true },
	{ .name = "json", .emit = emit_json },
	{ .name = "tap", .emit = emit_tap },
	{ .name = "junit", .emit = emit_junit },
	PB_FORMAT_END
};

const struct pb_cmd pb_cmd_conformance = {
	.lava_cases = lava_cases,
	.name = NAME, .opts = options, .formats = formats, .params_size = sizeof(struct conf_params),
	.check = check_params, .exec = exec_params,
	.summary = "POSIX and Linux pipe/FIFO conformance checks with stable IDs",
};
