/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fnmatch.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "output.h"

/*
 * The direction table, first match wins.  Workload definitions (how much
 * was moved, how many calls the loop made) are neutral: a change there means
 * the runs did different work, not that one was worse.  Anything unknown is
 * neutral too, so a new metric can never cause a false regression.
 * Documented in pipebench(1), compare subsection; keep the two in step.
 */
enum match { EXACT, PREFIX, SUFFIX, CONTAINS };

static const struct dir_rule {
	const char *pat;
	enum match how;
	enum pb_cmp_dir dir;
} dir_rules[] = {
	{ "bytes", EXACT, PB_CMP_NEUTRAL },
	{ "messages", EXACT, PB_CMP_NEUTRAL },
	{ "write_calls", EXACT, PB_CMP_NEUTRAL },
	{ "read_calls", EXACT, PB_CMP_NEUTRAL },
	{ "syscalls", EXACT, PB_CMP_NEUTRAL },
	{ "verified_loops", EXACT, PB_CMP_NEUTRAL },
	{ "rate_", PREFIX, PB_CMP_HIGHER },
	{ "_per_s", SUFFIX, PB_CMP_HIGHER },
	{ "ns_per_", PREFIX, PB_CMP_LOWER },
	{ "syscalls_per_", PREFIX, PB_CMP_LOWER },
	{ "cpu_", PREFIX, PB_CMP_LOWER },
	{ "ctxsw", CONTAINS, PB_CMP_LOWER },
	{ "context_switches", PREFIX, PB_CMP_LOWER },
	{ "migrations", PREFIX, PB_CMP_LOWER },
	{ "page_faults", PREFIX, PB_CMP_LOWER },
	{ "cycles", PREFIX, PB_CMP_LOWER },
	{ "instructions", PREFIX, PB_CMP_LOWER },
	{ "cache_misses", PREFIX, PB_CMP_LOWER },
	{ "_ns", SUFFIX, PB_CMP_LOWER },
	{ "round_trips", EXACT, PB_CMP_NEUTRAL },
	{ "_per_round_trip", SUFFIX, PB_CMP_LOWER },
};

static bool rule_matches(const struct dir_rule *r, const char *s)
{
	size_t n = strlen(s), p = strlen(r->pat);

	switch (r->how) {
	case EXACT: return strcmp(s, r->pat) == 0;
	case PREFIX: return strncmp(s, r->pat, p) == 0;
	case SUFFIX: return n >= p && strcmp(s + n - p, r->pat) == 0;
	case CONTAINS: return strstr(s, r->pat) != NULL;
	}
	return false;
}

static const struct dir_rule *find_rule(const char *metric)
{
	for (size_t i = 0; i < sizeof(dir_rules) / sizeof(dir_rules[0]); i++)
		if (rule_matches(&dir_rules[i], metric))
			return &dir_rules[i];
	return NULL;
}

enum pb_cmp_dir pb_cmp_direction(const char *metric)
{
	const struct dir_rule *r = find_rule(metric);

	return r ? r->dir : PB_CMP_NEUTRAL;
}

const char *pb_cmp_dir_name(enum pb_cmp_dir d)
{
	switch (d) {
	case PB_CMP_LOWER: return "lower-is-better";
	case PB_CMP_HIGHER: return "higher-is-better";
	default: return "neutral";
	}
}

bool pb_cmp_is_metric_key(const char *key)
{
	return find_rule(key) != NULL || strstr(key, "ratio") != NULL;
}

bool pb_cmp_is_workload(const char *metric)
{
	const struct dir_rule *r = find_rule(metric);

	return r && r->dir == PB_CMP_NEUTRAL;
}

bool pb_cmp_workload_changed(const struct pb_cmp_metric *m)
{
	return pb_cmp_is_workload(m->metric) && isfinite(m->change_pct) && fabs(m->change_pct) > 1;
}

bool pb_cmp_is_extensive(const char *metric)
{
	/* rtt_*: statistics of one round trip (latency), not totals. */
	return pb_cmp_direction(metric) == PB_CMP_LOWER && !strstr(metric, "_per_") &&
	       strncmp(metric, "rtt_", 4) != 0;
}

/* Text that describes a result but may vary between runs of the same one. */
static const char *const descriptive_keys[] = {
	"title", "detail", "details", "message", "note", "reason", "description",
	"label", "tag", "status", "verdict", "summary", "stability", "stability_reason", NULL,
};

static bool in_words(const char *const *words, const char *s)
{
	for (size_t i = 0; words[i]; i++)
		if (strcmp(words[i], s) == 0)
			return true;
	return false;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Descriptive by name, or by suffix: "verdict_detail" changes with the verdict. */
static bool is_descriptive(const char *key)
{
	return in_words(descriptive_keys, key) || ends_with(key, "_detail") ||
	       ends_with(key, "_description") || ends_with(key, "_label");
}

/* Whether comma-separated LIST holds PART.KEY (or KEY without a part). */
static bool in_list(const char *list, const char *part, const char *key)
{
	char name[512];
	size_t n;

	if (!list || !*list)
		return false;
	if (part)
		snprintf(name, sizeof(name), "%s.%s", part, key);
	else
		snprintf(name, sizeof(name), "%s", key);
	n = strlen(name);
	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && strncmp(p, name, n) == 0)
			return true;
		if (!e)
			break;
		p = e + 1;
	}
	return false;
}

/* ------------------------------------------------------------ loading */

int pb_cmp_read_file(const char *path, char **buf, size_t *len)
{
	FILE *fp = fopen(path, "re");
	size_t cap = 0, n = 0;
	char *b = NULL;
	int r = 0;

	if (!fp)
		return -errno;
	for (;;) {
		if (cap - n < 4096) {
			char *nb = realloc(b, cap ? cap * 2 : 65536);

			if (!nb) {
				r = -ENOMEM;
				break;
			}
			b = nb;
			cap = cap ? cap * 2 : 65536;
		}
		size_t got = fread(b + n, 1, cap - n - 1, fp);

		n += got;
		if (got == 0) {
			if (ferror(fp))
				r = errno ? -errno : -EIO;
			break;
		}
	}
	fclose(fp);
	if (r) {
		free(b);
		return r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int pb_cmp_load(const char *path, struct json_object **doc, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	int r = pb_cmp_read_file(path, &buf, &len);

	*doc = NULL;
	if (r) {
		snprintf(err, errlen, "cannot read: %s", strerror(-r));
		return r;
	}
	r = pb_cmp_parse(buf, len, doc, err, errlen);
	free(buf);
	return r;
}

int pb_cmp_parse(const char *buf, size_t len, struct json_object **doc, char *err,
		 size_t errlen)
{
	struct json_tokener *tok;
	struct json_object *o, *v;
	size_t end;

	*doc = NULL;
	if (strlen(buf) != len) {
		snprintf(err, errlen, "not a JSON document (binary data)");
		return -EINVAL;
	}
	tok = json_tokener_new();
	if (!tok) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	o = json_tokener_parse_ex(tok, buf, (int)len);
	end = json_tokener_get_parse_end(tok);
	if (!o) {
		enum json_tokener_error e = json_tokener_get_error(tok);

		snprintf(err, errlen, "not a JSON document (%s)",
			 e == json_tokener_continue ? "unexpected end of file"
						    : json_tokener_error_desc(e));
	} else {
		while (end < len && strchr(" \t\r\n", buf[end]))
			end++;
		if (end < len) {
			snprintf(err, errlen, "not a single JSON document (more after offset %zu)",
				 end);
			json_object_put(o);
			o = NULL;
		}
	}
	json_tokener_free(tok);
	if (!o)
		return -EINVAL;
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "tool", &v) || !json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), "pipebench") != 0) {
		snprintf(err, errlen, "not a pipebench result document (no \"tool\": \"pipebench\")");
		goto bad;
	}
	if (!json_object_object_get_ex(o, "command", &v) || !json_object_is_type(v, json_type_string)) {
		snprintf(err, errlen, "not a pipebench result document (no \"command\")");
		goto bad;
	}
	if (!json_object_object_get_ex(o, "schema_version", &v) ||
	    !json_object_is_type(v, json_type_int)) {
		snprintf(err, errlen, "not a pipebench result document (no \"schema_version\")");
		goto bad;
	}
	if (json_object_get_int64(v) != PB_SCHEMA_VERSION) {
		snprintf(err, errlen, "schema_version %lld is not supported (this pipebench reads %d)",
			 (long long)json_object_get_int64(v), PB_SCHEMA_VERSION);
		goto bad;
	}
	*doc = o;
	return 0;
bad:
	json_object_put(o);
	return -EINVAL;
}

static const char *str_member(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static struct json_object *obj_member(struct json_object *o, const char *key,
				      enum json_type type)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

static int compatible(struct json_object *a, struct json_object *b, const char *part,
		      char *err, size_t errlen)
{
	const char *ca = str_member(a, "command"), *cb = str_member(b, "command");
	struct json_object *va = NULL, *vb = NULL, *pa, *pb;

	if (ca && cb && strcmp(ca, cb) != 0) {
		snprintf(err, errlen, "%s%scommand '%s' differs from BASE's '%s'",
			 part ? part : "", part ? ": " : "", cb, ca);
		return -EINVAL;
	}
	json_object_object_get_ex(a, "schema_version", &va);
	json_object_object_get_ex(b, "schema_version", &vb);
	if ((va || vb) && !json_object_equal(va, vb)) {
		snprintf(err, errlen, "%s%sschema_version %s differs from BASE's %s",
			 part ? part : "", part ? ": " : "",
			 vb ? json_object_to_json_string(vb) : "(none)",
			 va ? json_object_to_json_string(va) : "(none)");
		return -EINVAL;
	}
	pa = obj_member(a, "parts", json_type_object);
	pb = obj_member(b, "parts", json_type_object);
	if (!pa || !pb)
		return 0;
	json_object_object_foreach(pa, pname, pdoc) {
		struct json_object *other = obj_member(pb, pname, json_type_object);

		if (other && json_object_is_type(pdoc, json_type_object) &&
		    compatible(pdoc, other, pname, err, errlen))
			return -EINVAL;
	}
	return 0;
}

int pb_cmp_compatible(struct json_object *base, struct json_object *new_doc,
		      char *err, size_t errlen)
{
	return compatible(base, new_doc, NULL, err, errlen);
}

/* ------------------------------------------------------------ health */

/*
 * Whether the document DOC (a report's part when IN_PART) records a run that
 * did not complete.  A report counts its parts' "nothing applicable" (4) as
 * fine, so a part's 4 is too.
 */
static bool doc_failed(struct json_object *doc, bool in_part, char *why, size_t len)
{
	struct json_object *st = obj_member(doc, "exit_status", json_type_int);
	struct json_object *errs = obj_member(doc, "errors", json_type_array);
	size_t nerr = errs ? json_object_array_length(errs) : 0;
	int status = st ? (int)json_object_get_int64(st) : 0;
	const char *first = NULL;
	char detail[400] = "";

	if (in_part && status == 4)
		return false;
	if ((status == 0 || status == 1) && nerr == 0)
		return false;
	for (size_t i = 0; i < nerr && !first; i++) {
		struct json_object *e = json_object_array_get_idx(errs, i);

		if (json_object_is_type(e, json_type_string))
			first = json_object_get_string(e);
	}
	if (first && nerr > 1)
		snprintf(detail, sizeof(detail), ": %s (and %zu more)", first, nerr - 1);
	else if (first)
		snprintf(detail, sizeof(detail), ": %s", first);
	if (status == 0 || status == 1)
		snprintf(why, len, "the run reported %zu error%s (exit status %d%s)", nerr,
			 nerr == 1 ? "" : "s", status, detail);
	else if (status == 4)
		snprintf(why, len, "the run had nothing to measure (exit status 4%s)", detail);
	else if (status > 128)
		snprintf(why, len, "the run was interrupted (exit status %d%s)", status, detail);
	else
		snprintf(why, len, "the run failed (exit status %d%s)", status, detail);
	return true;
}

bool pb_cmp_run_failed(struct json_object *doc, char *why, size_t len)
{
	struct json_object *parts = obj_member(doc, "parts", json_type_object);
	char sub[480];

	if (parts) {
		json_object_object_foreach(parts, pname, pdoc) {
			if (json_object_is_type(pdoc, json_type_object) &&
			    doc_failed(pdoc, true, sub, sizeof(sub))) {
				snprintf(why, len, "part %s: %s", pname, sub);
				return true;
			}
		}
	}
	return doc_failed(doc, false, why, len);
}

/* ------------------------------------------------------------ params */

/*
 * Identity members and parameters added after documents were written, with
 * what an older document means by leaving them out: throughput's --mode
 * (a result without "mode" measured the rw loop), --verify, and latency's
 * --mode ("io").
 */
static const struct { const char *key, *value; } added_later[] = {
	{ "mode", "rw" }, { "verify", "sample" }, { "io", "rw" },
};

/* Whether V, present on one side only under KEY, is what its absence means
 * (each default is a string). */
static bool is_added_later_default(const char *key, struct json_object *v)
{
	for (size_t i = 0; i < sizeof(added_later) / sizeof(added_later[0]); i++)
		if (strcmp(added_later[i].key, key) == 0)
			return json_object_is_type(v, json_type_string) &&
			       strcmp(json_object_get_string(v), added_later[i].value) == 0;
	return false;
}

/* Settings that do not change what is measured: how often, how long,
 * which checks or throughput modes were selected (verdicts are matched by
 * ID, results by mode, anyway), and report's --profile (its parts' rows
 * carry their own profile). */
static const char *const ignored_params[] = { "repeat", "warmup", "timeout_ns", "only",
					      "skip", "modes", "profile", NULL };

static void append(char *buf, size_t len, size_t *off, const char *part, const char *key)
{
	int w;

	if (*off >= len)
		return;
	w = snprintf(buf + *off, len - *off, "%s%s%s%s", *off ? "," : "",
		     part ? part : "", part ? "." : "", key);
	if (w > 0)
		*off += (size_t)w;
	if (*off >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

/* The directory FIFOs are made in: never a reason to refuse a comparison
 * (per-job temporary directories are the norm in CI, and runs without
 * FIFOs do not use it); a difference is named (pb_cmp_dirs_diff). */
static bool is_dir_param(const char *key)
{
	return strcmp(key, "dir") == 0;
}

/* The members of the params objects of A and B (and of their parts) that
 * differ, appended to BUF at *OFF: the DIRS members only (is_dir_param), or
 * every other but the ignored ones. */
static size_t params_diff(struct json_object *a, struct json_object *b, const char *part,
			  bool dirs, char *buf, size_t len, size_t *off)
{
	struct json_object *pa = obj_member(a, "params", json_type_object);
	struct json_object *pb = obj_member(b, "params", json_type_object);
	struct json_object *empty = json_object_new_object();
	struct json_object *parts_a, *parts_b;
	size_t n = 0;

	if (!pa)
		pa = empty;
	if (!pb)
		pb = empty;
	json_object_object_foreach(pa, ka, va) {
		struct json_object *vb;

		if (in_words(ignored_params, ka) || is_dir_param(ka) != dirs)
			continue;
		if (!json_object_object_get_ex(pb, ka, &vb) && is_added_later_default(ka, va))
			continue;
		if (!json_object_object_get_ex(pb, ka, &vb) || !json_object_equal(va, vb)) {
			append(buf, len, off, part, ka);
			n++;
		}
	}
	json_object_object_foreach(pb, kb, vb2) {
		if (in_words(ignored_params, kb) || is_dir_param(kb) != dirs ||
		    json_object_object_get_ex(pa, kb, NULL) || is_added_later_default(kb, vb2))
			continue;
		append(buf, len, off, part, kb);
		n++;
	}
	json_object_put(empty);
	parts_a = obj_member(a, "parts", json_type_object);
	parts_b = obj_member(b, "parts", json_type_object);
	if (parts_a && parts_b) {
		json_object_object_foreach(parts_a, pname, pdoc) {
			struct json_object *other = obj_member(parts_b, pname, json_type_object);

			if (other && json_object_is_type(pdoc, json_type_object))
				n += params_diff(pdoc, other, pname, dirs, buf, len, off);
		}
	}
	return n;
}

/* params_diff of the whole documents into an emptied BUF. */
static size_t docs_diff(struct json_object *base, struct json_object *new_doc, bool dirs,
			char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	return params_diff(base, new_doc, NULL, dirs, buf, len, &off);
}

size_t pb_cmp_params_diff(struct json_object *base, struct json_object *new_doc,
			  char *buf, size_t len)
{
	return docs_diff(base, new_doc, false, buf, len);
}

size_t pb_cmp_dirs_diff(struct json_object *base, struct json_object *new_doc,
			char *buf, size_t len)
{
	return docs_diff(base, new_doc, true, buf, len);
}

/* The member at the dotted PATH of O, or NULL; *HAS: whether it is there
 * (a member whose value is null is there). */
static struct json_object *at_path(struct json_object *o, const char *path, bool *has)
{
	char key[64];

	*has = false;
	while (o && *path) {
		size_t n = strcspn(path, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		path += n + (path[n] == '.');
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, key, &o))
			return NULL;
		*has = !*path;
	}
	return o;
}

size_t pb_cmp_state_diff(struct json_object *base, struct json_object *new_doc,
			 char *buf, size_t len)
{
	static const char *const keys[] = {
		"run.cpu.model", "run.virtualization.virtualized",
		"run.virtualization.hypervisor", "run.virtualization.container",
		"run.state.cpufreq.driver", "run.state.cpufreq.governor",
		"run.state.cpufreq.boost", "run.state.cpuidle.driver", "run.state.smt.control",
		"run.state.smt.active", "run.state.cgroup.cpu_limit", "run.state.cgroup.cpus",
		"system.page_size_bytes", "system.pipe_default_size_bytes",
		"system.pipe_max_size_bytes", NULL,
	};
	struct json_object *mb, *mn;
	size_t off = 0, n = 0;
	bool hb, hn;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; keys[i]; i++) {
		struct json_object *a = at_path(base, keys[i], &hb), *b = at_path(new_doc, keys[i], &hn);

		if (hb && hn && !json_object_equal(a, b)) {
			append(buf, len, &off, NULL, keys[i]);
			n++;
		}
	}
	mb = at_path(base, "run.state.mitigations", &hb);
	mn = at_path(new_doc, "run.state.mitigations", &hn);
	if (mb && mn && json_object_is_type(mb, json_type_object) &&
	    json_object_is_type(mn, json_type_object)) {
		json_object_object_foreach(mb, k, v) {
			struct json_object *w;
			char name[96];

			if (!json_object_object_get_ex(mn, k, &w) || json_object_equal(v, w))
				continue;
			snprintf(name, sizeof(name), "run.state.mitigations.%s", k);
			append(buf, len, &off, NULL, name);
			n++;
		}
	}
	return n;
}

/* ------------------------------------------------------------ rules */

bool pb_cmp_is_regression(enum pb_cmp_dir dir, double change_pct, bool significant,
			  double threshold_pct)
{
	if (!significant || !isfinite(change_pct))
		return false;
	if (dir == PB_CMP_LOWER)
		return change_pct > threshold_pct;
	if (dir == PB_CMP_HIGHER)
		return -change_pct > threshold_pct;
	return false;
}

bool pb_cmp_verdict_regression(const char *base, const char *cur)
{
	bool bad_now = cur && (!strcmp(cur, "fail") || !strcmp(cur, "error"));

	return bad_now && !(base && !strcmp(base, cur));
}

int pb_cmp_metric_eval(struct pb_cmp_metric *m, const double *base, size_t nb,
		       const double *cur, size_t nc, double threshold_pct)
{
	struct pb_rank_test rt;
	double t, df;
	int e = pb_stats_compute(base, nb, &m->base);

	if (e || (e = pb_stats_compute(cur, nc, &m->cur)) != 0 ||
	    (e = pb_stats_mann_whitney(base, nb, cur, nc, &rt)) != 0)
		return e;
	m->change_pct = m->base.mean != 0
		? (m->cur.mean - m->base.mean) / fabs(m->base.mean) * 100 : NAN;
	if (m->base.n < 2 || m->cur.n < 2)
		m->p_welch = -1;
	else if (m->base.stddev == 0 && m->cur.stddev == 0)
		/* Constant samples: the limit of the test is certainty either way. */
		m->p_welch = m->base.mean == m->cur.mean ? 1 : 0;
	else
		m->p_welch = pb_stats_welch(&m->base, &m->cur, &t, &df);
	m->p_rank = m->base.n < 2 || m->cur.n < 2 ? -1 : rt.p;
	m->by_rank = m->base.n >= PB_CMP_RANK_MIN_N && m->cur.n >= PB_CMP_RANK_MIN_N;
	m->p = m->by_rank ? m->p_rank : m->p_welch;
	m->shift = rt.shift;
	m->shift_lo = rt.lo;
	m->shift_hi = rt.hi;
	m->significant = m->p >= 0 && m->p < PB_CMP_ALPHA;
	m->regression = pb_cmp_is_regression(m->dir, m->change_pct, m->significant,
					     threshold_pct);
	return 0;
}

/* ------------------------------------------------------------ matching */

struct entry {
	struct json_object *obj;
	struct json_object *ids;  /* owned */
	char *label;
	const char *vkey;         /* verdict member, or NULL */
	bool used;
};

struct side {
	struct entry *e;
	size_t n;
};

static void side_free(struct side *s)
{
	for (size_t i = 0; i < s->n; i++) {
		json_object_put(s->e[i].ids);
		free(s->e[i].label);
	}
	free(s->e);
	s->e = NULL;
	s->n = 0;
}

static void label_add(char **label, const char *key, struct json_object *v)
{
	const char *val = v ? (json_object_is_type(v, json_type_string)
			       ? json_object_get_string(v) : json_object_to_json_string(v))
			    : "null";
	char *old = *label, *nl;

	if (asprintf(&nl, "%s%s%s=%s", old ? old : "", old ? " " : "", key, val) < 0)
		return;
	free(old);
	*label = nl;
}

static int make_entry(struct entry *en, struct json_object *obj, const char *part,
		      const char *ignore)
{
	const char *id = str_member(obj, "id");

	memset(en, 0, sizeof(*en));
	en->obj = obj;
	en->ids = json_object_new_object();
	if (!en->ids)
		return -ENOMEM;
	if (!obj_member(obj, "repetitions", json_type_array)) {
		if (str_member(obj, "verdict"))
			en->vkey = "verdict";
		else if (str_member(obj, "status"))
			en->vkey = "status";
	}
	if (id) {
		json_object_object_add(en->ids, "id", json_object_new_string(id));
		en->label = strdup(id);
		return en->label ? 0 : -ENOMEM;
	}
	json_object_object_foreach(obj, key, val) {
		enum json_type t = json_object_get_type(val);

		if (t == json_type_object || t == json_type_array || t == json_type_double ||
		    is_descriptive(key) || pb_cmp_is_metric_key(key) ||
		    in_list(ignore, part, key))
			continue;
		json_object_object_add(en->ids, key, json_object_get(val));
		label_add(&en->label, key, val);
	}
	if (!en->label)
		en->label = strdup("(all)");
	return en->label ? 0 : -ENOMEM;
}

static int collect(struct side *s, struct json_object *doc, const char *part,
		   const char *ignore)
{
	static const char *const lists[] = { "results", "checks", NULL };

	for (size_t l = 0; lists[l]; l++) {
		struct json_object *arr = obj_member(doc, lists[l], json_type_array);
		size_t n = arr ? json_object_array_length(arr) : 0;
		struct entry *ne;

		if (!n)
			continue;
		ne = realloc(s->e, (s->n + n) * sizeof(*ne));
		if (!ne)
			return -ENOMEM;
		s->e = ne;
		for (size_t i = 0; i < n; i++) {
			struct json_object *o = json_object_array_get_idx(arr, i);

			if (!json_object_is_type(o, json_type_object))
				continue;
			if (make_entry(&s->e[s->n], o, part, ignore)) {
				json_object_put(s->e[s->n].ids);
				return -ENOMEM;
			}
			s->n++;
		}
	}
	return 0;
}

/* Every member of A is B's, or missing from B with the value its absence
 * means (added_later). */
static bool ids_cover(struct json_object *a, struct json_object *b)
{
	json_object_object_foreach(a, k, va) {
		struct json_object *vb;

		if (json_object_object_get_ex(b, k, &vb) ? !json_object_equal(va, vb) :
		    !is_added_later_default(k, va))
			return false;
	}
	return true;
}

/* The same result: the same identity, an older document's missing members
 * taken as their added_later values (mode rw). */
static bool ids_match(struct json_object *a, struct json_object *b)
{
	return json_object_equal(a, b) || (ids_cover(a, b) && ids_cover(b, a));
}

static struct entry *find_match(struct side *s, const struct entry *want)
{
	for (size_t i = 0; i < s->n; i++)
		if (!s->e[i].used && ids_match(s->e[i].ids, want->ids))
			return &s->e[i];
	return NULL;
}

static bool numeric(struct json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

/*
 * Samples of METRIC: one per element of REPS, or (REPS NULL) the member of
 * the result itself; with UNIT, each divided by that member (where it is a
 * positive number: a total per unit of work).  Returns how many were taken.
 */
static size_t samples(struct json_object *res, struct json_object *reps, const char *metric,
		      const char *unit, double *out, size_t max)
{
	size_t n = 0, len = reps ? json_object_array_length(reps) : 1;

	for (size_t i = 0; i < len && n < max; i++) {
		struct json_object *o = reps ? json_object_array_get_idx(reps, i) : res, *v, *u = NULL;

		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, metric, &v) || !numeric(v))
			continue;
		if (!unit)
			out[n++] = json_object_get_double(v);
		else if (json_object_object_get_ex(o, unit, &u) && numeric(u) &&
			 json_object_get_double(u) > 0)
			out[n++] = json_object_get_double(v) / json_object_get_double(u);
	}
	return n;
}

static char *xstrdup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int add_metric(struct pb_cmp_result *r, const char *part, const struct entry *be,
		      const char *metric, enum pb_cmp_dir dir, bool derived, const double *bv,
		      size_t nb, const double *cv, size_t nc, double threshold)
{
	struct pb_cmp_metric *nm = realloc(r->m, (r->nm + 1) * sizeof(*nm)), *m;
	int e;

	if (!nm)
		return -ENOMEM;
	r->m = nm;
	m = &r->m[r->nm];
	memset(m, 0, sizeof(*m));
	m->dir = dir;
	m->comparable = true;
	m->derived = derived;
	/* both sides have samples: only memory can fail, and a metric left
	 * out without a word would be a comparison that lies */
	e = pb_cmp_metric_eval(m, bv, nb, cv, nc, threshold);
	if (e)
		return e;
	m->part = xstrdup_or_null(part);
	m->label = strdup(be->label);
	m->metric = strdup(metric);
	m->ids = json_object_get(be->ids);
	r->nm++;
	if (!m->label || !m->metric || (part && !m->part))
		return -ENOMEM;
	if (m->regression)
		r->regressions++;
	return 0;
}

static int add_lost(struct pb_cmp_result *r, const char *part, const char *label,
		    struct json_object *ids, const char *why)
{
	struct pb_cmp_lost *nl = realloc(r->lost, (r->nlost + 1) * sizeof(*nl)), *l;

	if (!nl)
		return -ENOMEM;
	r->lost = nl;
	l = &r->lost[r->nlost++];
	l->part = xstrdup_or_null(part);
	l->label = strdup(label);
	l->ids = ids ? json_object_get(ids) : NULL;
	l->why = strdup(why);
	if (!l->label || !l->why || (part && !l->part))
		return -ENOMEM;
	return 0;
}

/* Whether the parameters listed in DIFFER (pb_cmp_params_diff) concern PART:
 * a document's own ("loops") concern it and all its parts, a part's
 * ("throughput.loops") that part. */
static bool params_differ_for(const char *differ, const char *part)
{
	size_t plen = part ? strlen(part) : 0;

	for (const char *p = differ ? differ : ""; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *dot = memchr(p, '.', len);

		if (!dot || (part && (size_t)(dot - p) == plen && !strncmp(p, part, plen)))
			return true;
		if (!e)
			break;
		p = e + 1;
	}
	return false;
}

/* Whether BASE's result holds a measurement: a repetition, or a directional scalar. */
static bool entry_has_data(const struct entry *e)
{
	struct json_object *reps = obj_member(e->obj, "repetitions", json_type_array);

	if (reps)
		return json_object_array_length(reps) > 0;
	json_object_object_foreach(e->obj, key, v) {
		if (numeric(v) && pb_cmp_direction(key) != PB_CMP_NEUTRAL)
			return true;
	}
	return false;
}

/* Samples of METRIC divided by UNIT, repetition by repetition. */
/* Units of work to divide totals by, in order of preference, and their singular. */
static const char *const work_units[][2] = {
	{ "messages", "message" }, { "bytes", "byte" }, { "syscalls", "syscall" },
	{ "round_trips", "round_trip" },
};

/*
 * The runs behind metrics [FIRST, r->nm) did different work: their totals
 * are shown but cannot regress; each total is compared per unit of work.
 */
static int per_unit(struct pb_cmp_result *r, size_t first, const char *part,
		    const struct entry *be, const struct entry *ce, struct json_object *br,
		    struct json_object *cr, double *bv, size_t nb, double *cv, size_t nc,
		    double threshold)
{
	size_t end = r->nm, u, nunits = sizeof(work_units) / sizeof(work_units[0]);
	int rc = 0;

	for (u = 0; u < nunits; u++) {
		size_t i;

		for (i = first; i < end && strcmp(r->m[i].metric, work_units[u][0]); i++)
			;
		if (i < end)
			break;
	}
	for (size_t i = first; i < end && !rc; i++) {
		struct pb_cmp_metric *m = &r->m[i];
		char name[160];
		size_t gb, gc;

		if (!pb_cmp_is_extensive(m->metric))
			continue;
		m->comparable = false;
		r->not_comparable++;
		if (m->regression) {
			m->regression = false;
			r->regressions--;
		}
		if (u == nunits)
			continue;
		snprintf(name, sizeof(name), "%s_per_%s", m->metric, work_units[u][1]);
		gb = samples(be->obj, br, m->metric, work_units[u][0], bv, nb);
		gc = samples(ce->obj, cr, m->metric, work_units[u][0], cv, nc);
		if (gb && gc)
			rc = add_metric(r, part, be, name, PB_CMP_LOWER, true, bv, gb, cv, gc,
					threshold);
	}
	return rc;
}

/* The side counters: a noisy run's context switches, CPU time, migrations,
 * page faults and hardware counts are shown, never a regression unless
 * --metrics names them. */
static const struct dir_rule side_rules[] = {
	{ "ctxsw", CONTAINS, PB_CMP_LOWER },
	{ "context_switches", CONTAINS, PB_CMP_LOWER },
	{ "migrations", CONTAINS, PB_CMP_LOWER },
	{ "cpu_", PREFIX, PB_CMP_LOWER },
	{ "page_faults", PREFIX, PB_CMP_LOWER },
	{ "cycles", PREFIX, PB_CMP_LOWER },
	{ "instructions", PREFIX, PB_CMP_LOWER },
	{ "cache_misses", PREFIX, PB_CMP_LOWER },
};

bool pb_cmp_gates(const char *metric, const char *patterns)
{
	char pat[256];

	if (!patterns) {
		for (size_t i = 0; i < sizeof(side_rules) / sizeof(side_rules[0]); i++)
			if (rule_matches(&side_rules[i], metric))
				return false;
		return true;
	}
	for (const char *p = patterns; *p; p += *p == ',') {
		size_t n = strcspn(p, ",");

		snprintf(pat, sizeof(pat), "%.*s", (int)n, p);
		p += n;
		if (*pat && fnmatch(pat, metric, 0) == 0)
			return true;
	}
	return false;
}

bool pb_cmp_is_rate(const char *metric)
{
	size_t n = strlen(metric);

	return strncmp(metric, "rate_", 5) == 0 || (n > 6 && !strcmp(metric + n - 6, "_per_s"));
}

bool pb_cmp_is_detail(const char *metric, bool has_rate)
{
	static const char *const extremes[] = {
		"rtt_min_ns", "rtt_max_ns", "rtt_stddev_ns", "rtt_p99_9_ns", "rtt_p99_99_ns", NULL,
	};

	return (has_rate && pb_cmp_is_extensive(metric) && ends_with(metric, "_ns")) ||
	       in_words(extremes, metric);
}

/* The metrics [FIRST, r->nm) of the pair BE/CE: which gate (PATTERNS), and
 * all of them inconclusive when either result's stability is not stable. */
static void gate(struct pb_cmp_result *r, size_t first, const struct entry *be,
		 const struct entry *ce, const char *patterns)
{
	const char *sb = str_member(be->obj, "stability"), *sc = str_member(ce->obj, "stability");
	bool unstable = (sb && strcmp(sb, "stable") != 0) || (sc && strcmp(sc, "stable") != 0);
	bool has_rate = false;

	for (size_t i = first; i < r->nm; i++)
		has_rate |= pb_cmp_is_rate(r->m[i].metric);
	for (size_t i = first; i < r->nm; i++) {
		struct pb_cmp_metric *m = &r->m[i];

		snprintf(m->base_stab, sizeof(m->base_stab), "%s", sb ? sb : "");
		snprintf(m->cur_stab, sizeof(m->cur_stab), "%s", sc ? sc : "");
		m->detail = !m->derived && pb_cmp_is_detail(m->metric, has_rate);
		m->side = !pb_cmp_gates(m->metric, patterns) || (!patterns && m->detail);
		m->inconclusive = unstable;
		r->inconclusive += unstable;
		if (m->regression && (m->side || m->inconclusive)) {
			m->regression = false;
			r->regressions--;
		}
	}
}

/*
 * Every metric of the matched pair BE/CE; *COMPARED counts them.  DIFFERS:
 * the runs' parameters differ.  BASE's metrics that NEW lacks are coverage
 * lost.
 */
/* A category's time per operation: its ns_per_OP member other than
 * ns_per_byte (the op in *OP), or NAN. */
static double per_op(struct json_object *cat, const char **op)
{
	json_object_object_foreach(cat, k, v) {
		if (!strncmp(k, "ns_per_", 7) && strcmp(k, "ns_per_byte") && numeric(v)) {
			*op = k + 7;
			return json_object_get_double(v);
		}
	}
	return NAN;
}

/*
 * --profile on both sides: the categories whose time per operation (else
 * share) moved most, up to three, in words ("timestamps 0.2% -> 31.0% of
 * samples, +180.0 ns/syscall"); NULL when a side has no profile or nothing
 * moved beyond what sampling explains (a share's change within 1.96
 * standard errors of the two binomial proportions).  malloc'd.
 */
static char *what_moved(struct json_object *b, struct json_object *c)
{
	struct json_object *pb = obj_member(b, "profile", json_type_object);
	struct json_object *pc = obj_member(c, "profile", json_type_object);
	struct json_object *cb = obj_member(pb, "categories", json_type_object);
	struct json_object *cc = obj_member(pc, "categories", json_type_object);
	struct json_object *xb = obj_member(pb, "samples", json_type_int);
	struct json_object *xc = obj_member(pc, "samples", json_type_int);
	double nsb = xb ? json_object_get_double(xb) : 0, nsc = xc ? json_object_get_double(xc) : 0;
	struct { const char *name, *op; double sb, sc, nb, nc, key; } m[16];
	size_t n = 0;
	char buf[512] = "";
	size_t off = 0;

	if (!cb || !cc)
		return NULL;
	json_object_object_foreach(cb, name, vb) {
		struct json_object *vc, *x;
		const char *op = NULL, *op2 = NULL;

		if (n == sizeof(m) / sizeof(m[0]) || !json_object_object_get_ex(cc, name, &vc))
			continue;
		m[n].name = name;
		m[n].sb = json_object_object_get_ex(vb, "share", &x) ? json_object_get_double(x) : NAN;
		m[n].sc = json_object_object_get_ex(vc, "share", &x) ? json_object_get_double(x) : NAN;
		m[n].nb = per_op(vb, &op);
		m[n].nc = per_op(vc, &op2);
		m[n].op = op && op2 && !strcmp(op, op2) ? op : NULL;
		m[n].key = m[n].op ? fabs(m[n].nc - m[n].nb) : 1e9 * fabs(m[n].sc - m[n].sb);
		if (!isfinite(m[n].key) || m[n].key <= 0 || nsb <= 0 || nsc <= 0 ||
		    fabs(m[n].sc - m[n].sb) <= 1.96 * sqrt(m[n].sb * (1 - m[n].sb) / nsb +
							   m[n].sc * (1 - m[n].sc) / nsc))
			continue;   /* sampling explains it */
		n++;
	}
	for (size_t k = 0; k < 3 && k < n; k++) {
		size_t best = k;

		for (size_t i = k + 1; i < n; i++)
			if (m[i].key > m[best].key)
				best = i;
		if (best != k) {
			__typeof__(m[0]) t = m[k];

			m[k] = m[best];
			m[best] = t;
		}
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s %.1f%% -> %.1f%% of "
					"samples", k ? "; " : "", m[k].name, 100 * m[k].sb,
					100 * m[k].sc);
		if (off < sizeof(buf) && m[k].op)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, ", %+.1f ns/%s",
						m[k].nc - m[k].nb, m[k].op);
		if (off >= sizeof(buf))
			break;
	}
	return n ? strdup(buf) : NULL;
}

static int compare_entry(struct pb_cmp_result *r, const char *part, const struct entry *be,
			 const struct entry *ce, const struct pb_cmp_opts *opts, bool differs,
			 size_t *compared)
{
	double threshold = opts->threshold_pct;
	struct json_object *br = obj_member(be->obj, "repetitions", json_type_array);
	struct json_object *cr = obj_member(ce->obj, "repetitions", json_type_array);
	struct json_object *names;
	size_t nb = br ? json_object_array_length(br) : 1;
	size_t nc = cr ? json_object_array_length(cr) : 1;
	size_t first = r->nm, nmissing = 0;
	char missing[256] = "";
	double *bv, *cv;
	int rc = 0;

	*compared = 0;
	if (!br != !cr)
		return br && nb ? add_lost(r, part, be->label, be->ids, "no repetitions in NEW") : 0;
	/* Metric names in the order of BASE's first repetition (or the result). */
	names = br ? json_object_array_get_idx(br, 0) : be->obj;
	if (!names || !json_object_is_type(names, json_type_object))
		return 0;
	bv = malloc((nb + 1) * sizeof(*bv));
	cv = malloc((nc + 1) * sizeof(*cv));
	if (!bv || !cv) {
		free(bv);
		free(cv);
		return -ENOMEM;
	}
	json_object_object_foreach(names, metric, v) {
		size_t gb, gc, off = strlen(missing);

		if (!numeric(v))
			continue;
		/* Without repetitions only directional scalars are measurements. */
		if (!br && pb_cmp_direction(metric) == PB_CMP_NEUTRAL)
			continue;
		gb = samples(be->obj, br, metric, NULL, bv, nb);
		gc = samples(ce->obj, cr, metric, NULL, cv, nc);
		if (gb && gc) {
			rc = add_metric(r, part, be, metric, pb_cmp_direction(metric), false,
					bv, gb, cv, gc, threshold);
			if (rc)
				break;
		} else if (gb && off < sizeof(missing)) {
			snprintf(missing + off, sizeof(missing) - off, "%s%s", nmissing ? ", " : "",
				 metric);
			nmissing++;
		}
	}
	*compared = r->nm - first;
	if (!rc && nmissing) {
		char why[300];

		/* NEW's repetitions empty: no metric could be compared */
		if (cr && !nc)
			snprintf(why, sizeof(why), "no repetitions in NEW");
		else
			snprintf(why, sizeof(why), "not measured in NEW: %s", missing);
		rc = add_lost(r, part, be->label, be->ids, why);
	}
	/* A workload count that changed means different work, as differing params do. */
	for (size_t i = first; !rc && i < r->nm && !differs; i++)
		differs = pb_cmp_workload_changed(&r->m[i]);
	if (!rc && differs)
		rc = per_unit(r, first, part, be, ce, br, cr, bv, nb, cv, nc, threshold);
	if (!rc)
		gate(r, first, be, ce, opts->metrics);
	if (!rc && r->nm > first) {
		char *moved = what_moved(be->obj, ce->obj);

		/* every metric of the result says it; the first owns nothing more */
		for (size_t i = first; i < r->nm && moved; i++)
			if (!(r->m[i].moved = strdup(moved)))
				rc = -ENOMEM;
		free(moved);
	}
	free(bv);
	free(cv);
	return rc;
}

static int add_verdict(struct pb_cmp_result *r, const char *part, const struct entry *e,
		       const char *key, const char *b, const char *c)
{
	struct pb_cmp_verdict *nv = realloc(r->v, (r->nv + 1) * sizeof(*nv)), *v;

	if (!nv)
		return -ENOMEM;
	r->v = nv;
	v = &r->v[r->nv++];
	memset(v, 0, sizeof(*v));
	v->part = xstrdup_or_null(part);
	v->label = strdup(e->label);
	v->ids = json_object_get(e->ids);
	v->key = strdup(key);
	v->base = xstrdup_or_null(b);
	v->cur = xstrdup_or_null(c);
	v->regression = pb_cmp_verdict_regression(b, c);
	if (v->regression)
		r->regressions++;
	if (!v->label || !v->key || (b && !v->base) || (c && !v->cur) || (part && !v->part))
		return -ENOMEM;
	return 0;
}

/* A verdict that says nothing was observed: a skipped check, an undetermined timestamp. */
static bool unobserved(const char *verdict)
{
	return !strcmp(verdict, "skip") || !strcmp(verdict, "undetermined");
}

/* A verdict BASE had that NEW skipped or lacks: coverage lost. */
static int verdict_lost(struct pb_cmp_result *r, const char *part, const struct entry *be,
			const struct entry *ce, const char *bs, const char *cs)
{
	const char *detail = ce ? str_member(ce->obj, "detail") : NULL;
	char why[400];

	if (!detail && ce)
		detail = str_member(ce->obj, "verdict_detail");
	if (unobserved(bs) || (cs && !unobserved(cs)))
		return 0;
	if (!ce)
		snprintf(why, sizeof(why), "absent in NEW");
	else if (!cs)
		snprintf(why, sizeof(why), "no %s in NEW", be->vkey);
	else
		snprintf(why, sizeof(why), "%s in NEW%s%s", cs, detail && *detail ? ": " : "",
			 detail && *detail ? detail : "");
	return add_lost(r, part, be->label, be->ids, why);
}

static size_t count_results(struct json_object *doc)
{
	static const char *const lists[] = { "results", "checks", NULL };
	struct json_object *parts = obj_member(doc, "parts", json_type_object);
	size_t n = 0;

	for (size_t l = 0; lists[l]; l++) {
		struct json_object *arr = obj_member(doc, lists[l], json_type_array);

		n += arr ? json_object_array_length(arr) : 0;
	}
	if (parts) {
		json_object_object_foreach(parts, pname, pdoc) {
			(void)pname;
			if (json_object_is_type(pdoc, json_type_object))
				n += count_results(pdoc);
		}
	}
	return n;
}

static int compare_doc(struct pb_cmp_result *r, struct json_object *a, struct json_object *b,
		       const char *part, const struct pb_cmp_opts *opts);

/* A part BASE measured that NEW lacks, with NEW's reason when it has one. */
static int part_lost(struct pb_cmp_result *r, struct json_object *b, const char *pname,
		     const char *sub)
{
	struct json_object *runs = obj_member(b, "part_runs", json_type_object);
	struct json_object *run = obj_member(runs, pname, json_type_object);
	struct json_object *st = obj_member(run, "exit_status", json_type_int);
	struct json_object *parts = obj_member(b, "parts", json_type_object);
	const char *err = str_member(run, "error");
	char why[600];

	if (!parts || !json_object_object_get_ex(parts, pname, NULL))
		snprintf(why, sizeof(why), "part absent in NEW");
	else if (st && err)
		snprintf(why, sizeof(why), "part not measured in NEW (exit status %d: %s)",
			 (int)json_object_get_int64(st), err);
	else if (err)
		snprintf(why, sizeof(why), "part not measured in NEW (%s)", err);
	else
		snprintf(why, sizeof(why), "part not measured in NEW");
	return add_lost(r, sub, "(all results)", NULL, why);
}

static int compare_parts(struct pb_cmp_result *r, struct json_object *a, struct json_object *b,
			 const char *part, const struct pb_cmp_opts *opts)
{
	struct json_object *pa = obj_member(a, "parts", json_type_object);
	struct json_object *pb = obj_member(b, "parts", json_type_object);

	if (pb) {
		json_object_object_foreach(pb, pname, pdoc) {
			if (json_object_is_type(pdoc, json_type_object) &&
			    !obj_member(pa, pname, json_type_object))
				r->new_results += count_results(pdoc);
		}
	}
	if (!pa)
		return 0;
	json_object_object_foreach(pa, pname, pdoc) {
		struct json_object *other = obj_member(pb, pname, json_type_object);
		char *sub;
		int rc;

		if (!json_object_is_type(pdoc, json_type_object))
			continue;
		if (asprintf(&sub, "%s%s%s", part ? part : "", part ? "." : "", pname) < 0)
			return -ENOMEM;
		if (other) {
			rc = compare_doc(r, pdoc, other, sub, opts);
		} else {
			size_t n = count_results(pdoc);

			r->base_results += n;
			rc = n ? part_lost(r, b, pname, sub) : 0;
		}
		free(sub);
		if (rc)
			return rc;
	}
	return 0;
}

static int compare_doc(struct pb_cmp_result *r, struct json_object *a, struct json_object *b,
		       const char *part, const struct pb_cmp_opts *opts)
{
	struct side sa = { 0 }, sb = { 0 };
	bool differs = params_differ_for(opts->differ, part);
	int rc = collect(&sa, a, part, opts->ignore);

	if (!rc)
		rc = collect(&sb, b, part, opts->ignore);
	r->base_results += sa.n;
	r->new_results += sb.n;
	for (size_t i = 0; !rc && i < sa.n; i++) {
		struct entry *be = &sa.e[i], *ce = find_match(&sb, be);

		if (ce) {
			ce->used = true;
			r->paired++;
		}
		if (be->vkey) {
			const char *bs = str_member(be->obj, be->vkey);
			const char *cs = ce ? str_member(ce->obj, be->vkey) : NULL;

			r->matched += cs != NULL;
			if (cs && !strcmp(bs, cs))
				r->verdicts_same++;
			else
				rc = add_verdict(r, part, be, be->vkey, bs, cs);
			if (!rc)
				rc = verdict_lost(r, part, be, ce, bs, cs);
		} else if (!ce) {
			r->only_base++;
			if (entry_has_data(be))
				rc = add_lost(r, part, be->label, be->ids, "absent in NEW");
		} else {
			size_t n = 0;

			rc = compare_entry(r, part, be, ce, opts, differs, &n);
			r->matched += n > 0;
		}
	}
	for (size_t i = 0; !rc && i < sb.n; i++) {
		struct entry *ce = &sb.e[i];

		if (ce->used)
			continue;
		if (ce->vkey)
			rc = add_verdict(r, part, ce, ce->vkey, NULL, str_member(ce->obj, ce->vkey));
		else
			r->only_new++;
	}
	side_free(&sa);
	side_free(&sb);
	if (!rc)
		rc = compare_parts(r, a, b, part, opts);
	return rc;
}

int pb_cmp_compare(struct json_object *base, struct json_object *new_doc,
		   const struct pb_cmp_opts *opts, struct pb_cmp_result *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	rc = compare_doc(out, base, new_doc, NULL, opts);
	if (rc)
		pb_cmp_result_free(out);
	return rc;
}

/* What every metric, verdict and lost row owns to say where it is. */
static void place_free(char *part, char *label, struct json_object *ids)
{
	free(part);
	free(label);
	json_object_put(ids);
}

void pb_cmp_result_free(struct pb_cmp_result *r)
{
	for (size_t i = 0; i < r->nm; i++) {
		place_free(r->m[i].part, r->m[i].label, r->m[i].ids);
		free(r->m[i].metric);
		free(r->m[i].moved);
	}
	for (size_t i = 0; i < r->nv; i++) {
		place_free(r->v[i].part, r->v[i].label, r->v[i].ids);
		free(r->v[i].key);
		free(r->v[i].base);
		free(r->v[i].cur);
	}
	for (size_t i = 0; i < r->nlost; i++) {
		place_free(r->lost[i].part, r->lost[i].label, r->lost[i].ids);
		free(r->lost[i].why);
	}
	free(r->m);
	free(r->v);
	free(r->lost);
	memset(r, 0, sizeof(*r));
}
