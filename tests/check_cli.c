/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The option-row resolver (src/cli.c): conversion into the params struct,
 * defaults through the same converter, bounds, repeated options (flags
 * included), words in any case, "did you mean", --help and --list-options
 * from the rows, and every real command's rows.
 */
#include <config.h>

#include <check.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "cli.h"
#include "format.h"
#include "lava.h"
#include "output.h"
#include "cmd.h"

struct tparams {
	int flag;
	uint64_t count, size, sizes[4], dur;
	size_t nsizes;
	double dbl;
	unsigned word, words;
	cpu_set_t cpus;
	const char *str;
};

static const char *const abc[] = { "alpha", "beta", "gamma", NULL };
static const struct pb_format fmts[] = {
	{ .name = "text", .text = true }, { .name = "json" }, PB_FORMAT_END
};

#define P struct tparams
static const struct pb_opt rows[] = {
	{ PB_OPT("flag", 'x', PB_OPT_FLAG, P, flag), .help = "a flag" },
	{ PB_OPT("count", 'c', PB_OPT_COUNT, P, count), .min = 1, .max = 10, .def = "3",
	  .arg = "N", .help = "a count" },
	{ PB_OPT("size", 's', PB_OPT_SIZE, P, size), .min = 1, .max = 1 << 20, .def = "1K",
	  .help = "a size" },
	{ PB_OPT("sizes", '\0', PB_OPT_SIZES, P, sizes), .off_n = offsetof(P, nsizes), .min = 1,
	  .max = 1 << 20, .max_items = 4, .help = "sizes" },
	{ PB_OPT("duration", '\0', PB_OPT_DURATION, P, dur), .min = 1000000, .max = 60000000000ULL,
	  .def = "5s", .help = "a duration" },
	{ PB_OPT("double", '\0', PB_OPT_DOUBLE, P, dbl), .dmin = 0, .dmax = 100, .def = "5",
	  .help = "a double" },
	{ PB_OPT("word", 'W', PB_OPT_WORD, P, word), .words = abc, .def = "gamma", .help = "a word" },
	{ PB_OPT("words", '\0', PB_OPT_WORDS, P, words), .words = abc, .help = "words" },
	{ PB_OPT("cpus", '\0', PB_OPT_CPUS, P, cpus), .help = "cpus" },
	{ PB_OPT("string", '\0', PB_OPT_STRING, P, str), .help = "a string" },
	PB_OPT_END
};
#undef P

static int no_exec(struct pb_cli *cli, void *params)
{
	(void)cli, (void)params;
	return 0;
}

static const struct pb_cmd tcmd = {
	.name = "tcmd", .summary = "test", .opts = rows, .formats = fmts,
	.params_size = sizeof(struct tparams), .exec = no_exec,
};

/* Parse ARGV (NULL-terminated, without the command name); stderr into ERR. */
static int parse(struct pb_cli *cli, struct tparams *p, char *err, size_t errlen,
		 const char **argv)
{
	const char *av[32] = { "tcmd" };
	int ac = 1, rc, saved = dup(STDERR_FILENO);
	FILE *tmp = tmpfile();
	size_t n;

	while (*argv)
		av[ac++] = *argv++;
	memset(p, 0, sizeof(*p));
	ck_assert_ptr_nonnull(tmp);
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	rc = pb_cli_parse(cli, &tcmd, ac, av, p);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(err, 1, errlen - 1, tmp);
	err[n] = '\0';
	fclose(tmp);
	return rc;
}

#define PARSE(...) parse(&cli, &p, err, sizeof(err), (const char *[]){ __VA_ARGS__, NULL })

START_TEST(converts_into_params)
{
	struct pb_cli cli;
	struct tparams p;
	char err[512];

	ck_assert_int_eq(PARSE("--flag", "-c", "7", "--size", "4K", "--sizes", "1,2K",
			       "--duration", "500ms", "--double", "2.5", "--word", "beta",
			       "--words", "alpha,gamma", "--cpus", "0", "--string", "hi",
			       "-f", "json"), PB_CLI_CONTINUE);
	ck_assert_int_eq(p.flag, 1);
	ck_assert_uint_eq(p.count, 7);
	ck_assert_uint_eq(p.size, 4096);
	ck_assert_uint_eq(p.nsizes, 2);
	ck_assert_uint_eq(p.sizes[1], 2048);
	ck_assert_uint_eq(p.dur, 500000000ULL);
	ck_assert(p.dbl == 2.5);
	ck_assert_uint_eq(p.word, 1);
	ck_assert_uint_eq(p.words, 5);
	ck_assert(CPU_ISSET(0, &p.cpus));
	ck_assert_str_eq(p.str, "hi");
	ck_assert_ptr_eq(cli.fmt, &fmts[1]);
	ck_assert_ptr_null(cli.transform);
	ck_assert_str_eq(cli.common.format_name, "json");
	ck_assert(pb_cli_given(&cli, "count") && pb_cli_given(&cli, "words"));
	ck_assert(!pb_cli_given(&cli, "help"));
	ck_assert_str_eq(pb_cli_value(&cli, "string"), "hi");
	ck_assert_str_eq(err, "");
	pb_cli_free(&cli);
}
END_TEST

/* Defaults are typed like values and go through the same converter. */
START_TEST(defaults_as_typed)
{
	struct pb_cli cli;
	struct tparams p;
	char err[512];

	ck_assert_int_eq(PARSE("--string", "x"), PB_CLI_CONTINUE);
	ck_assert_int_eq(p.flag, 0);
	ck_assert_uint_eq(p.count, 3);
	ck_assert_uint_eq(p.size, 1024);
	ck_assert_uint_eq(p.dur, 5000000000ULL);
	ck_assert(p.dbl == 5);
	ck_assert_uint_eq(p.word, 2);
	ck_assert_uint_eq(p.words, 0);       /* no default: untouched */
	ck_assert_uint_eq(p.nsizes, 0);
	ck_assert_ptr_eq(cli.fmt, &fmts[0]);
	ck_assert(!pb_cli_given(&cli, "count"));
	pb_cli_free(&cli);
}
END_TEST

START_TEST(bounds_state_the_range)
{
	static const struct {
		const char *opt, *val;
		int rc;
		const char *msg;      /* part of the error, or NULL */
	} cases[] = {
		{ "--count", "0", PB_EXIT_USAGE, "--count: 0 is out of range (1..10)" },
		{ "--count", "11", PB_EXIT_USAGE, "(1..10)" },
		{ "--count", "10", PB_CLI_CONTINUE, NULL },
		{ "--count", "x", PB_EXIT_USAGE, "invalid number 'x'" },
		{ "--duration", "500us", PB_EXIT_USAGE, "--duration: 500us is out of range (1ms..1m)" },
		{ "--size", "2M", PB_EXIT_USAGE, "--size: 2M is out of range (1..1M)" },
		{ "--double", "101", PB_EXIT_USAGE, "(0..100)" },
		{ "--sizes", "1,2,3,4,5", PB_EXIT_USAGE, "at most 4" },
	};
	struct pb_cli cli;
	struct tparams p;
	char err[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(PARSE(cases[i].opt, cases[i].val), cases[i].rc);
		ck_assert_msg(!cases[i].msg || strstr(err, cases[i].msg), "%s %s: %s",
			      cases[i].opt, cases[i].val, err);
		pb_cli_free(&cli);
	}
}
END_TEST

/* Given twice is refused for every type, flags and common options too. */
START_TEST(repeated_options)
{
	static const char *const twice[][5] = {
		{ "--flag", "--flag" }, { "-x", "-x" }, { "-xx" }, { "-q", "--quiet" },
		{ "--count", "1", "-c", "2" }, { "--word", "alpha", "--word", "beta" },
		{ "-f", "text", "-f", "json" }, { "--words", "alpha", "--words", "beta" },
	};
	struct pb_cli cli;
	struct tparams p;
	char err[512];

	for (size_t i = 0; i < sizeof(twice) / sizeof(twice[0]); i++) {
		const char *av[6] = { 0 };

		memcpy(av, twice[i], sizeof(twice[i]));
		ck_assert_int_eq(parse(&cli, &p, err, sizeof(err), av), PB_EXIT_USAGE);
		ck_assert_msg(strstr(err, "given more than once"), "%s: %s", av[0], err);
		pb_cli_free(&cli);
	}
	/* Only list options suggest a list. */
	ck_assert_int_eq(PARSE("--words", "alpha", "--words", "beta"), PB_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(err, "--words A,B"));
	pb_cli_free(&cli);
	ck_assert_int_eq(PARSE("-f", "text", "-f", "json"), PB_EXIT_USAGE);
	ck_assert_ptr_null(strstr(err, "A,B"));
	pb_cli_free(&cli);
}
END_TEST

START_TEST(words_in_any_case)
{
	struct pb_cli cli;
	struct tparams p;
	char err[512];

	ck_assert_int_eq(PARSE("--word", "BETA", "--words", "Gamma,ALPHA", "-f", "JSON"),
			 PB_CLI_CONTINUE);
	ck_assert_uint_eq(p.word, 1);
	ck_assert_uint_eq(p.words, 5);
	ck_assert_ptr_eq(cli.fmt, &fmts[1]);
	pb_cli_free(&cli);
	ck_assert_int_eq(PARSE("--word", "delta"), PB_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(err, "expected one of: alpha, beta, gamma"));
	pb_cli_free(&cli);
}
END_TEST

START_TEST(did_you_mean_option)
{
	struct pb_cli cli;
	struct tparams p;
	char err[512];

	ck_assert_int_eq(PARSE("--cuont", "3"), PB_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(err, "did you mean '--count'?"));
	pb_cli_free(&cli);
	ck_assert_int_eq(PARSE("--quite"), PB_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(err, "did you mean '--quiet'?"));
	pb_cli_free(&cli);
	ck_assert_int_eq(PARSE("--zzzzzzzz"), PB_EXIT_USAGE);
	ck_assert_ptr_null(strstr(err, "did you mean"));
	pb_cli_free(&cli);
	ck_assert_ptr_eq(pb_cmd_guess("conformanc"), pb_cmd_find("conformance"));
	ck_assert_ptr_eq(pb_cmd_guess("thruoghput"), pb_cmd_find("throughput"));
	ck_assert_ptr_null(pb_cmd_guess("frobnicate"));
}
END_TEST

START_TEST(list_options_from_rows)
{
	static const char *const want[] = {
		"--flag\t-x\tflag\t\n", "--sizes\t-\tsizes\t\n",
		"--word\t-W\tword\talpha,beta,gamma\n", "--format\t-f\tword\ttext,json\n",
		"--quiet\t-q\tflag\t\n",
	};
	char buf[4096];
	FILE *fp = tmpfile();
	size_t n;

	pb_cli_list_options(&tcmd, fp);
	rewind(fp);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_msg(strstr(buf, want[i]), "no row '%s' in:\n%s", want[i], buf);
}
END_TEST

/* Every real command: rows within bounds, defaults that convert, and one
 * meaning per short letter across commands. */
START_TEST(real_commands)
{
	const char *meaning[128] = { 0 };

	for (size_t i = 0; pb_cmds[i]; i++) {
		const struct pb_cmd *c = pb_cmds[i];
		const char *av[] = { c->name, "a.json", "b.json", NULL };
		void *params = calloc(1, c->params_size);
		struct pb_cli cli;
		size_t n = 0;

		ck_assert_ptr_nonnull(c->formats);
		ck_assert_ptr_nonnull(c->exec);
		for (const struct pb_opt *o = c->opts; o->name; o++, n++) {
			ck_assert_ptr_nonnull(o->help);
			if (!o->letter)
				continue;
			if (!meaning[(int)o->letter])
				meaning[(int)o->letter] = o->name;
			ck_assert_msg(strcmp(meaning[(int)o->letter], o->name) == 0,
				      "-%c is --%s and --%s", o->letter,
				      meaning[(int)o->letter], o->name);
		}
		ck_assert_uint_lt(n + 4, PB_CLI_MAX_OPTS);
		ck_assert_int_eq(pb_cli_parse(&cli, c, c->min_args ? 3 : 1, av, params),
				 PB_CLI_CONTINUE);
		pb_cli_free(&cli);
		free(params);
	}
	for (const struct pb_opt *o = pb_common_opts; o->name; o++)
		ck_assert_msg(!meaning[(int)o->letter], "-%c is a common option's", o->letter);
}
END_TEST

static void tcmd_cases(struct pb_lava *l, struct json_object *doc)
{
	(void)doc;
	pb_lava_case(l, "pass", "tcmd-case");
}

static const struct pb_cmd tcmd_lava = {
	.name = "tcmd", .summary = "test", .opts = rows, .formats = fmts,
	.params_size = sizeof(struct tparams), .exec = no_exec, .lava_cases = tcmd_cases,
};

static const struct pb_format no_json[] = { { .name = "text", .text = true }, PB_FORMAT_END };
static const struct pb_cmd tcmd_nojson = {
	.name = "tcmd", .summary = "test", .opts = rows, .formats = no_json,
	.params_size = sizeof(struct tparams), .exec = no_exec, .lava_cases = tcmd_cases,
};

/* The --format words: the command's rows, then a transform only where the
 * command supplies what it needs (lava: cases and a json row); choosing it
 * writes the json row and sets the transform. */
/* plot's and grid's --label: exactly one label per file, else a usage
 * error (fewer or more); the labels are the caller's to free either way. */
START_TEST(labels_one_each)
{
	char *l[3];

	ck_assert_int_eq(pb_cli_labels_one_each("t", "a,b,c", l, 3), PB_EXIT_OK);
	ck_assert_str_eq(l[2], "c");
	for (int i = 0; i < 3; i++)
		free(l[i]);
	ck_assert_int_eq(pb_cli_labels_one_each("t", "a,b", l, 3), PB_EXIT_USAGE);
	for (int i = 0; i < 3; i++)
		free(l[i]);
	ck_assert_int_eq(pb_cli_labels_one_each("t", "a,b,c,d", l, 3), PB_EXIT_USAGE);
	for (int i = 0; i < 3; i++)
		free(l[i]);
}
END_TEST

START_TEST(format_registry)
{
	const char *const *w = pb_format_words(&tcmd);
	struct pb_cli cli;
	struct tparams p;
	char err[512];

	ck_assert_str_eq(w[0], "text");
	ck_assert_str_eq(w[1], "json");
	ck_assert_ptr_null(w[2]);
	w = pb_format_words(&tcmd_lava);
	ck_assert_str_eq(w[2], "lava");
	ck_assert_str_eq(w[3], "kcidb");
	ck_assert_ptr_null(w[4]);
	ck_assert_ptr_null(pb_format_words(&tcmd_nojson)[1]);
	ck_assert_ptr_null(pb_transform_find(&tcmd, "lava"));
	ck_assert_ptr_null(pb_transform_find(&tcmd_nojson, "lava"));
	ck_assert_ptr_nonnull(pb_transform_find(&tcmd_lava, "lava"));
	ck_assert_ptr_eq(pb_format_find(&tcmd, "json"), &fmts[1]);
	ck_assert_ptr_null(pb_format_find(&tcmd, "lava"));
	ck_assert_int_eq(PARSE("--format", "lava"), PB_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(err, "expected one of: text, json"));
	pb_cli_free(&cli);
	/* the same words for the command with cases */
	{
		const char *av[] = { "tcmd", "--format", "lava", NULL };

		memset(&p, 0, sizeof(p));
		ck_assert_int_eq(pb_cli_parse(&cli, &tcmd_lava, 3, av, &p), PB_CLI_CONTINUE);
		ck_assert_ptr_eq(cli.fmt, &fmts[1]);
		ck_assert_ptr_nonnull(cli.transform);
		ck_assert_str_eq(cli.transform->name, "lava");
		ck_assert_str_eq(cli.common.format_name, "lava");
		pb_cli_free(&cli);
		pb_out_set_transform(NULL);
	}
	/* a transform's own options: only with it, and judged by it */
	{
		const char *kc[] = { "tcmd", "--format", "kcidb", "--kcidb-origin", "lab", NULL };
		const char *js[] = { "tcmd", "--format", "json", "--kcidb-origin", "lab", NULL };
		const char *bad[] = { "tcmd", "--format", "kcidb", "--kcidb-origin", "Lab", NULL };

		memset(&p, 0, sizeof(p));
		ck_assert_int_eq(pb_cli_parse(&cli, &tcmd_lava, 5, kc, &p), PB_CLI_CONTINUE);
		ck_assert_str_eq(cli.transform->name, "kcidb");
		pb_cli_free(&cli);
		ck_assert_int_eq(pb_cli_parse(&cli, &tcmd_lava, 5, js, &p), PB_EXIT_USAGE);
		pb_cli_free(&cli);
		ck_assert_int_eq(pb_cli_parse(&cli, &tcmd_lava, 5, bad, &p), PB_EXIT_USAGE);
		pb_cli_free(&cli);
		/* not offered to a command without cases */
		ck_assert_int_eq(pb_cli_parse(&cli, &tcmd, 5, js, &p), PB_EXIT_USAGE);
		pb_cli_free(&cli);
		pb_out_set_transform(NULL);
	}
	/* every real command: the default row first, every row named and
	 * emitting (plot draws its own), lava where it has cases */
	for (size_t i = 0; pb_cmds[i]; i++) {
		const struct pb_cmd *c = pb_cmds[i];
		bool lava = false, kcidb = false;

		ck_assert_ptr_nonnull(c->formats[0].name);
		for (const char *const *x = pb_format_words(c); *x; x++) {
			lava |= strcmp(*x, "lava") == 0;
			kcidb |= strcmp(*x, "kcidb") == 0;
		}
		ck_assert_msg(lava == (c->lava_cases != NULL), "%s: lava offered %d", c->name, lava);
		ck_assert_msg(kcidb == lava, "%s: kcidb offered %d", c->name, kcidb);
		for (const struct pb_format *f = c->formats; f->name; f++)
			ck_assert_msg(f->emit || strcmp(c->name, "plot") == 0, "%s: %s emits nothing",
				      c->name, f->name);
	}
}
END_TEST

#define P struct tparams
static const struct pb_opt excl_rows[] = {
	{ PB_OPT("count", 'n', PB_OPT_COUNT, P, count), .min = 1, .max = 9, .help = "a count" },
	{ PB_OPT("dur", '\0', PB_OPT_DURATION, P, dur), .min = 1, .max = 1000000000ULL,
	  .excludes = "count", .help = "a duration" },
	PB_OPT_END
};
#undef P
static const struct pb_cmd excl_cmd = {
	.name = "xcmd", .summary = "test", .opts = excl_rows, .formats = fmts,
	.params_size = sizeof(struct tparams), .exec = no_exec,
};

#define P struct tparams
static const struct pb_opt allow_rows[] = {
	{ PB_OPT("word", 'W', PB_OPT_WORD, P, word), .words = abc, .allowed = 0x6,
	  .def = "gamma", .help = "a word" },
	{ PB_OPT("words", '\0', PB_OPT_WORDS, P, words), .words = abc, .allowed = 0x5,
	  .help = "words" },
	PB_OPT_END
};
#undef P
static const struct pb_cmd allow_cmd = {
	.name = "acmd", .summary = "test", .opts = allow_rows, .formats = fmts,
	.params_size = sizeof(struct tparams), .exec = no_exec,
};

/* A row's allowed words: only those are listed and accepted, and the values
 * are the words' places in the whole vocabulary. */
START_TEST(allowed_words)
{
	const char *ok[] = { "acmd", "--word", "beta", "--words", "gamma,alpha", NULL };
	const char *bad1[] = { "acmd", "--word", "alpha", NULL };
	const char *bad2[] = { "acmd", "--words", "alpha,beta", NULL };
	struct tparams p = { 0 };
	struct pb_cli cli;
	char buf[4096];
	FILE *fp = tmpfile();
	size_t n;

	ck_assert_int_eq(pb_cli_parse(&cli, &allow_cmd, 5, ok, &p), PB_CLI_CONTINUE);
	ck_assert_uint_eq(p.word, 1);
	ck_assert_uint_eq(p.words, 5);
	pb_cli_free(&cli);
	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(pb_cli_parse(&cli, &allow_cmd, 1, ok, &p), PB_CLI_CONTINUE);
	ck_assert_uint_eq(p.word, 2);       /* the default, gamma */
	pb_cli_free(&cli);
	{
		FILE *ef = tmpfile();
		int saved = dup(2);

		dup2(fileno(ef), 2);
		ck_assert_int_eq(pb_cli_parse(&cli, &allow_cmd, 3, bad1, &p), PB_EXIT_USAGE);
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		rewind(ef);
		n = fread(buf, 1, sizeof(buf) - 1, ef);
		buf[n] = '\0';
		fclose(ef);
		/* the refusal lists the words it takes, and only those */
		ck_assert_msg(strstr(buf, "unknown value 'alpha'; expected one of: beta, gamma"),
			      "%s", buf);
	}
	pb_cli_free(&cli);
	ck_assert_int_eq(pb_cli_parse(&cli, &allow_cmd, 3, bad2, &p), PB_EXIT_USAGE);
	pb_cli_free(&cli);
	pb_cli_list_options(&allow_cmd, fp);
	rewind(fp);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	ck_assert_msg(strstr(buf, "--word\t-W\tword\tbeta,gamma\n"), "%s", buf);
	ck_assert_msg(strstr(buf, "--words\t-\twords\talpha,gamma\n"), "%s", buf);
	ck_assert_uint_eq(pb_kind_mask(1u << PB_KIND_WORD_ALL, PB_KIND_WORDS_PIPES), 3);
	ck_assert_uint_eq(pb_kind_mask(1u << PB_KIND_WORD_ALL, 0), 7);
	ck_assert_uint_eq(pb_kind_mask(5, PB_KIND_WORDS_ANON_SOCKET), 5);
}
END_TEST

/* Options that exclude each other: either alone is fine, both one line naming both. */
START_TEST(exclusive_rows)
{
	const char *both[] = { "xcmd", "--count", "3", "--dur", "1s", NULL };
	const char *rev[] = { "xcmd", "--dur", "1s", "-n", "3", NULL };
	const char *one[] = { "xcmd", "--dur", "1s", NULL };
	const char *other[] = { "xcmd", "-n", "3", NULL };
	const char **cases[] = { both, rev, one, other };
	char err[512];

	for (size_t i = 0; i < 4; i++) {
		struct tparams p = { 0 };
		struct pb_cli cli;
		FILE *fp = tmpfile();
		int saved = dup(2), rc, n = 0;
		size_t len;

		while (cases[i][n])
			n++;
		dup2(fileno(fp), 2);
		rc = pb_cli_parse(&cli, &excl_cmd, n, cases[i], &p);
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		rewind(fp);
		len = fread(err, 1, sizeof(err) - 1, fp);
		err[len] = '\0';
		fclose(fp);
		pb_cli_free(&cli);
		if (i < 2) {
			ck_assert_int_eq(rc, PB_EXIT_USAGE);
			ck_assert_msg(strstr(err, "xcmd: --dur and --count: give one or the other"), "%s",
				      err);
			ck_assert_ptr_eq(strchr(err, '\n'), err + len - 1);
		} else {
			ck_assert_int_eq(rc, PB_CLI_CONTINUE);
			ck_assert_str_eq(err, "");
		}
	}
}
END_TEST

PB_CHECK_SUITE_MAIN("cli",
	PB_TCASE("rows", converts_into_params, defaults_as_typed, bounds_state_the_range,
		 repeated_options, words_in_any_case, did_you_mean_option, list_options_from_rows,
		 real_commands, format_registry, exclusive_rows, allowed_words, labels_one_each))
