/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report's handling of a part that does not finish: stopped at its own
 * timeout, or, when the report is interrupted, after the grace period
 * rather than its whole timeout; either way sent SIGTERM (so it cleans up
 * after itself) before SIGCONT.  The report runs in a child of this process
 * (interrupted, it exits 128+signal) on a scripted clock that stands still
 * until the part hangs and then moves on a second a reading, so its 10 s
 * and 30 s bounds pass in a few readings (no timed tests); the part, a
 * forked copy of the report, hangs at its first clock reading until a
 * SIGCONT, and records what it had then.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "cleanup.h"
#include "cli.h"
#include "cmd.h"
#include "membw.h"
#include "output.h"

/* What the part saw and how it ended, in memory shared by the processes. */
struct part_seen {
	volatile int hung;          /* the part is waiting for SIGCONT */
	volatile int conts;         /* SIGCONTs it received */
	volatile int term_at_cont;  /* a SIGTERM was pending at the first of them */
	volatile int chld_code, chld_status;  /* the report's SIGCHLD for it */
	volatile pid_t part_pid;    /* the first child that hung: the part */
	volatile int started;       /* part_docs: the parts that wrote theirs */
};

static struct part_seen *seen;
static bool clk_on;               /* while the report runs (Check reads the clock too) */
static pid_t report_pid;
static bool interrupt_once_hung;  /* then SIGTERM the report at its next reading */
static uint64_t clk_now;

/* The part: block SIGTERM, wait for SIGCONT, note whether SIGTERM came
 * first, then let it in (the part's own handler cleans up and exits 143);
 * without one, wait again.  It never outlives the report, nor a minute. */
static void part_hangs(void)
{
	struct timespec backstop = { 60, 0 };
	sigset_t both, term, cont, pending;

	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigemptyset(&cont);
	sigaddset(&cont, SIGCONT);
	both = term;
	sigaddset(&both, SIGCONT);
	sigprocmask(SIG_BLOCK, &both, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != report_pid)
		_exit(99);
	if (!seen->part_pid)
		seen->part_pid = getpid();
	seen->hung = 1;
	for (;;) {
		int sig = sigtimedwait(&cont, NULL, &backstop);

		if (sig < 0 && errno == EAGAIN)
			_exit(99);
		if (sig != SIGCONT)
			continue;
		sigpending(&pending);
		if (seen->conts++ == 0)
			seen->term_at_cont = sigismember(&pending, SIGTERM);
		sigprocmask(SIG_UNBLOCK, &term, NULL);
		sigprocmask(SIG_BLOCK, &term, NULL);
	}
}

/* What the part does at its first clock reading, instead of hanging:
 * write PART_DOC as its document and exit PART_EXIT with nothing on its
 * standard error; or (part_dies) interrupt the report and die of SIGKILL. */
static const char *part_doc;
static int part_exit;
static bool part_dies;
/* Or each part in turn writes the next of PART_DOCS and exits 0 (one that
 * begins with '!' sends the report SIGTERM first). */
static const char *const *part_docs;
static int part_ndocs;

static void part_acts(void)
{
	if (part_docs) {
		const char *d;

		if (seen->started >= part_ndocs)
			return;   /* the report's later children */
		d = part_docs[seen->started++];
		if (*d == '!') {   /* the report is interrupted as the part ends */
			sigset_t all;

			sigfillset(&all);   /* the SIGTERM the report passes on stays out */
			sigprocmask(SIG_BLOCK, &all, NULL);
			kill(report_pid, SIGTERM);
			d++;
		}
		_exit(write(STDOUT_FILENO, d, strlen(d)) < 0 ? 99 : 0);
	}
	if (seen->part_pid && seen->part_pid != getpid())
		return;   /* a later child of the report (its io_uring probe) */
	seen->part_pid = getpid();
	if (part_dies) {
		sigset_t all;

		sigfillset(&all);   /* the report's SIGTERM for it must not come first */
		sigprocmask(SIG_BLOCK, &all, NULL);
		kill(report_pid, SIGTERM);
		raise(SIGKILL);
	}
	if (write(STDOUT_FILENO, part_doc, strlen(part_doc)) < 0)
		_exit(99);
	_exit(part_exit);
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	if (clk_on && getpid() != report_pid && (part_doc || part_dies || part_docs))
		part_acts();
	else if (clk_on && getpid() != report_pid)
		part_hangs();
	if (clk_on && id == CLOCK_MONOTONIC) {
		clk_now += seen->hung ? 1000000000u : 1u;
		if (seen->hung && interrupt_once_hung) {
			interrupt_once_hung = false;
			kill(report_pid, SIGTERM);
		}
		ts->tv_sec = (time_t)(clk_now / 1000000000u);
		ts->tv_nsec = (long)(clk_now % 1000000000u);
		return 0;
	}
	return (int)syscall(SYS_clock_gettime, id, ts);
}

/* How the part ended, from the SIGCHLD the report got for it (not for
 * the report's later children, such as its io_uring probe). */
static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_pid != seen->part_pid)
		return;
	seen->chld_code = si->si_code;
	seen->chld_status = si->si_status;
}

/* report --quick --parts PART with the part hanging, in a child; its
 * exit status, the document in *DOC. */
/* A TMPDIR of its own for a report (DIR, a mkdtemp template), and its
 * --output file NAME in it (OUT). */
static void report_dir(char *dir, char *out, size_t len, const char *name)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(out, len, "%s/%s", dir, name);
	ck_assert_int_eq(setenv("TMPDIR", dir, 1), 0);
}

/* pb_cmd_run(report, AV) in a child of this process, as main() runs it, on
 * the scripted clock, after SETUP (in the child), with fresh shared memory
 * for what its parts see; its wait status. */
static int forked_report(const char **av, void (*setup)(void))
{
	int argc = 0, st;
	pid_t pid;

	while (av[argc])
		argc++;
	seen = mmap(NULL, sizeof(*seen), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(seen, MAP_FAILED);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		report_pid = getpid();
		setup();
		pb_cleanup_install("report");   /* as main() does */
		clk_on = true;
		_exit(pb_cmd_run(&pb_cmd_report, argc, av) & 0xff);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return st;
}

static bool hung_interrupt;

static void hung_setup(void)
{
	struct sigaction sa = { .sa_sigaction = on_chld, .sa_flags = SA_SIGINFO | SA_RESTART };

	sigaction(SIGCHLD, &sa, NULL);
	interrupt_once_hung = hung_interrupt;
}

static int hung_report(const char *part, bool interrupt, struct json_object **doc)
{
	char dir[] = "/tmp/pb-check-report.XXXXXX", out[64];
	const char *av[] = { "report", "--quick", "--quiet", "--parts", part,
			     "--format", "json", "--output", out, NULL };
	int st;

	report_dir(dir, out, sizeof(out), "out.json");
	hung_interrupt = interrupt;
	st = forked_report(av, hung_setup);
	ck_assert_msg(WIFEXITED(st), "report: wait status %#x", st);
	*doc = json_object_from_file(out);
	ck_assert_ptr_nonnull(*doc);
	ck_assert_int_eq(unlink(out), 0);
	ck_assert_int_eq(rmdir(dir), 0);   /* nothing else left in TMPDIR */
	return WEXITSTATUS(st);
}

/* Each part and its own watchdog (seconds): a part that hangs is stopped then. */
static const struct { const char *name; long long timeout_s; } part_timeouts[] = {
	{ "timestamps", 30 }, { "o_noatime", 60 }, { "conformance", 300 }, { "throughput", 120 },
	{ "throughput_64k", 90 }, { "messaging", 60 }, { "latency", 60 },
};

/*
 * A part past its timeout is stopped with SIGTERM and then SIGCONT: it ends
 * through its own handler (exit 143), not by the SIGKILL that follows when
 * it does not; recorded as timed out after its own timeout, not a second
 * sooner, with no exit status, and the report exits 3.  Every part.
 */
START_TEST(part_past_its_timeout_gets_sigterm)
{
	const char *name = part_timeouts[_i].name;
	long long t = part_timeouts[_i].timeout_s;
	struct json_object *doc;
	char path[96], want[64];

	ck_assert_int_eq(hung_report(name, false, &doc), PB_EXIT_ERROR);
	ck_assert_int_eq(seen->conts, 1);
	ck_assert_int_eq(seen->term_at_cont, 1);
	ck_assert_int_eq(seen->chld_code, CLD_EXITED);
	ck_assert_int_eq(seen->chld_status, 128 + SIGTERM);
	snprintf(path, sizeof(path), "part_runs.%s.error", name);
	snprintf(want, sizeof(want), "timed out after %lld s", t);
	ck_assert_str_eq(pb_json_str(doc, path), want);
	snprintf(path, sizeof(path), "part_runs.%s.exit_status", name);
	ck_assert_ptr_null(pb_json_get(doc, path));
	snprintf(path, sizeof(path), "part_runs.%s.duration_ns", name);
	ck_assert_int_ge(pb_json_int(doc, path, -1), t * 1000000000LL);
	ck_assert_int_lt(pb_json_int(doc, path, -1), (t + 2) * 1000000000LL);
	json_object_put(doc);
}
END_TEST

/*
 * With --precision, a measuring part's watchdog is its own timeout plus its
 * share of the budget (all of it for the one part: 60 s + 20 s); past that
 * it is stopped, timed out "after 80 s", not 60 or 40.
 */
START_TEST(timeout_counts_the_precision_budget)
{
	char dir[] = "/tmp/pb-check-report.XXXXXX", out[64];
	const char *av[] = { "report", "--quick", "--quiet", "--parts", "messaging", "--precision", "5",
			     "--precision-budget", "20s", "--format", "json", "--output", out, NULL };
	struct json_object *doc;
	long long d;
	int st;

	report_dir(dir, out, sizeof(out), "out.json");
	hung_interrupt = false;
	st = forked_report(av, hung_setup);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == PB_EXIT_ERROR, "wait status %#x", st);
	doc = json_object_from_file(out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(pb_json_str(doc, "part_runs.messaging.error"), "timed out after 80 s");
	d = pb_json_int(doc, "part_runs.messaging.duration_ns", -1);
	ck_assert_msg(d >= 80000000000LL && d < 82000000000LL, "stopped after %lld ns", d);
	json_object_put(doc);
	ck_assert_int_eq(unlink(out), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/*
 * Interrupted (SIGTERM) while the part hangs: the report passes the signal
 * on and waits 10 s for the part, not the 30 s of its own timeout, then
 * stops it (SIGTERM, SIGCONT); the part is marked interrupted and the report
 * exits 143.
 */
START_TEST(interrupted_part_gets_the_grace_not_its_timeout)
{
	struct json_object *doc;
	long long d;

	ck_assert_int_eq(hung_report("timestamps", true, &doc), 128 + SIGTERM);
	ck_assert_int_eq(seen->conts, 1);
	ck_assert_int_eq(seen->term_at_cont, 1);
	ck_assert_int_eq(seen->chld_code, CLD_EXITED);
	ck_assert_int_eq(seen->chld_status, 128 + SIGTERM);
	ck_assert_str_eq(pb_json_str(doc, "part_runs.timestamps.error"), "interrupted by SIGTERM");
	ck_assert(json_object_get_boolean(pb_json_get(doc, "part_runs.timestamps.interrupted")));
	ck_assert_str_eq(pb_json_str(doc, "summary.interrupted"), "SIGTERM");
	d = pb_json_int(doc, "part_runs.timestamps.duration_ns", -1);
	ck_assert_msg(d >= 10000000000LL && d < 30000000000LL,
		      "waited %lld ns for the interrupted part: not the 10 s grace", d);
	json_object_put(doc);
	/* the parts after it are not run, none marked interrupted as well
	 * (whatever parts lie between, not selected) */
	ck_assert_int_eq(hung_report("timestamps,messaging", true, &doc), 128 + SIGTERM);
	ck_assert_str_eq(pb_json_str(doc, "part_runs.timestamps.error"), "interrupted by SIGTERM");
	ck_assert_ptr_null(pb_json_get(doc, "part_runs.messaging"));
	json_object_put(doc);
}
END_TEST

/*
 * A part that exits 2 or 3 with a document and nothing on its standard
 * error: its error is the first of the document's own errors, else its exit
 * status; one that leaves no document (or not JSON) says so, whatever its
 * status.  The report exits 3 either way.
 */
START_TEST(silent_part_error_from_its_document)
{
	static const struct { const char *doc; int exit; const char *error; } rows[] = {
		{ "{\"errors\":[\"first thing broke\",\"second\"]}", 3, "first thing broke" },
		{ "{\"errors\":[\"only usage\"]}", 2, "only usage" },
		{ "{\"errors\":[]}", 3, "exit status 3" },
		{ "{\"errors\":\"not a list\"}", 3, "exit status 3" },
		{ "{}", 2, "exit status 2" },
		{ "", 3, "exit status 3 without a JSON document" },
		{ "not JSON", 0, "exit status 0 without a JSON document" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct json_object *doc;

		part_doc = rows[i].doc;
		part_exit = rows[i].exit;
		ck_assert_int_eq(hung_report("timestamps", false, &doc), PB_EXIT_ERROR);
		part_doc = NULL;
		ck_assert_int_eq(seen->hung, 0);
		ck_assert_msg(!strcmp(pb_json_str(doc, "part_runs.timestamps.error"), rows[i].error),
			      "row %zu: error '%s', expected '%s'", i,
			      pb_json_str(doc, "part_runs.timestamps.error"), rows[i].error);
		ck_assert_int_eq(pb_json_int(doc, "part_runs.timestamps.exit_status", -1), rows[i].exit);
		ck_assert(!json_object_get_boolean(pb_json_get(doc, "part_runs.timestamps.interrupted")));
		json_object_put(doc);
	}
}
END_TEST

/*
 * Interrupted, and the part dies of a signal of its own (SIGKILL) rather
 * than exiting through its handler: it is marked interrupted by the
 * report's signal, not "killed by signal", and the report exits 143.
 */
START_TEST(interrupted_part_killed_by_a_signal)
{
	struct json_object *doc;

	part_dies = true;
	ck_assert_int_eq(hung_report("timestamps", false, &doc), 128 + SIGTERM);
	part_dies = false;
	ck_assert_int_eq(seen->chld_code, CLD_KILLED);
	ck_assert_int_eq(seen->chld_status, SIGKILL);
	ck_assert_str_eq(pb_json_str(doc, "part_runs.timestamps.error"), "interrupted by SIGTERM");
	ck_assert(json_object_get_boolean(pb_json_get(doc, "part_runs.timestamps.interrupted")));
	ck_assert_ptr_null(pb_json_get(doc, "part_runs.timestamps.exit_status"));
	json_object_put(doc);
}
END_TEST

/*
 * The copy ceiling: report measures memcpy with 64 KiB blocks round a
 * 256 KiB working set, 5 repetitions (of at least 50 ms with --quick), and
 * derives the pipe's ceiling (half the memcpy rate: a pipe copies twice) and
 * the 64 KiB throughput's fraction of it.  The measurement is this test's
 * own (the library's is not linked in), so every derived figure is checked
 * against the value it was given.
 */
static struct { size_t chunk, span; uint64_t min_ns; unsigned repeat, calls; } membw_asked;

int pb_membw_measure(size_t chunk, size_t span, uint64_t min_ns, unsigned repeat,
		     struct pb_stats *bytes_per_s)
{
	membw_asked.chunk = chunk;
	membw_asked.span = span;
	membw_asked.min_ns = min_ns;
	membw_asked.repeat = repeat;
	membw_asked.calls++;
	memset(bytes_per_s, 0, sizeof(*bytes_per_s));
	bytes_per_s->n = repeat;
	bytes_per_s->median = bytes_per_s->mean = 8e9;
	bytes_per_s->rsd = 0.0125;
	return 0;
}

START_TEST(copy_ceiling_from_its_measure)
{
	char dir[] = "/tmp/pb-check-report.XXXXXX", out[64];
	const char *av[] = { "report", "--quick", "--quiet", "--parts", "throughput_64k",
			     "--format", "json", "--output", out, NULL };
	struct json_object *doc;
	double pipe;

	report_dir(dir, out, sizeof(out), "out.json");
	memset(&membw_asked, 0, sizeof(membw_asked));
	ck_assert_int_eq(pb_cmd_run(&pb_cmd_report, 9, av), PB_EXIT_OK);
	ck_assert_uint_eq(membw_asked.calls, 1);
	ck_assert_uint_eq(membw_asked.chunk, 65536);
	ck_assert_uint_eq(membw_asked.span, 4 * 65536);
	ck_assert_uint_eq(membw_asked.min_ns, 50000000);
	ck_assert_uint_eq(membw_asked.repeat, 5);
	doc = json_object_from_file(out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_double_eq(pb_json_num(doc, "summary.copy_ceiling.memcpy_bytes_per_s"), 8e9);
	ck_assert_double_eq(pb_json_num(doc, "summary.copy_ceiling.memcpy_rsd"), 0.0125);
	ck_assert_double_eq(pb_json_num(doc, "summary.copy_ceiling.pipe_ceiling_bytes_per_s"), 4e9);
	/* The pipe's figure is the part's read/write 64 KiB rate. */
	pipe = NAN;
	for (size_t i = 0; i < pb_json_len(pb_json_get(doc, "parts.throughput_64k.results")); i++) {
		struct json_object *r = json_object_array_get_idx(
			pb_json_get(doc, "parts.throughput_64k.results"), i);

		if (pb_json_str(r, "mode") && strcmp(pb_json_str(r, "mode"), "rw") == 0)
			pipe = pb_json_num(r, "summary.rate_bytes_per_s");
	}
	ck_assert(pipe > 0);
	ck_assert_double_eq(pb_json_num(doc, "summary.copy_ceiling.pipe_64k_bytes_per_s"), pipe);
	ck_assert_double_eq_tol(pb_json_num(doc, "summary.copy_ceiling.pipe_fraction_of_ceiling"),
				pipe / 4e9, 1e-12);
	json_object_put(doc);
	ck_assert_int_eq(unlink(out), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* The whole of the text file PATH (up to LEN - 1 bytes) into BUF. */
static void read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* splice(2) refused (EINVAL) while set: the 64 KiB part measures rw and
 * vmsplice, then fails in splice, which has no rate. */
static bool splice_refused;

ssize_t splice(int in, loff_t *off_in, int out, loff_t *off_out, size_t n, unsigned int flags)
{
	if (splice_refused) {
		errno = EINVAL;
		return -1;
	}
	return syscall(SYS_splice, in, off_in, out, off_out, n, flags);
}

/* The text's zero-copy line: its two rates when the kernel does both, and
 * no line at all when splice is refused (a rate it does not have is never
 * printed, and one alone is no comparison). */
START_TEST(zero_copy_line_needs_both_rates)
{
	char dir[] = "/tmp/pb-check-report.XXXXXX", out[64], text[8192];
	const char *av[] = { "report", "--quick", "--quiet", "--parts", "throughput_64k",
			     "--output", out, NULL };
	double v = 0, sp = 0;
	const char *z;

	report_dir(dir, out, sizeof(out), "out.txt");
	for (int refused = 0; refused < 2; refused++) {
		splice_refused = refused;
		pb_cmd_run(&pb_cmd_report, 7, av);
		splice_refused = false;
		read_text(out, text, sizeof(text));
		z = strstr(text, "vmsplice+splice at 64 KiB: ");
		if (!refused)
			ck_assert_msg(z && sscanf(z, "vmsplice+splice at 64 KiB: vmsplice %lf GB/s, "
						  "splice %lf GB/s", &v, &sp) == 2 && v > 0 && sp > 0,
				      "%s", text);
		else
			ck_assert_msg(!z, "%s", text);
		if (getenv("PB_TEST_VERBOSE"))
			fprintf(stderr, "%s", text);
	}
	ck_assert_int_eq(unlink(out), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* write(2) into a pipe or FIFO fails with EIO while set: the throughput
 * part's rw mode measures nothing. */
static bool pipe_write_fails;

ssize_t write(int fd, const void *buf, size_t n)
{
	struct stat st;

	if (pipe_write_fails && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
		errno = EIO;
		return -1;
	}
	return syscall(SYS_write, fd, buf, n);
}

/* A 64 KiB part whose rw mode moved nothing has no pipe rate (its summary
 * is null): the copy ceiling is still measured, but its pipe figure and
 * fraction are null, not 0 or negative, and the text has no line for them. */
START_TEST(no_rate_no_fraction)
{
	char dir[] = "/tmp/pb-check-report.XXXXXX", out[64], text[8192];
	const char *av[] = { "report", "--quick", "--quiet", "--parts", "throughput_64k",
			     "--format", "json", "--output", out, NULL };
	struct json_object *doc, *cc, *v;

	report_dir(dir, out, sizeof(out), "out.json");
	pipe_write_fails = true;
	pb_cmd_run(&pb_cmd_report, 9, av);
	pipe_write_fails = false;
	doc = json_object_from_file(out);
	ck_assert_ptr_nonnull(doc);
	cc = pb_json_get(doc, "summary.copy_ceiling");
	ck_assert_msg(cc != NULL, "%s", json_object_to_json_string(doc));
	ck_assert_double_eq(pb_json_num(cc, "memcpy_bytes_per_s"), 8e9);
	ck_assert_msg(json_object_object_get_ex(cc, "pipe_64k_bytes_per_s", &v) && v == NULL,
		      "pipe_64k_bytes_per_s: %s", json_object_to_json_string(cc));
	ck_assert_msg(json_object_object_get_ex(cc, "pipe_fraction_of_ceiling", &v) && v == NULL,
		      "pipe_fraction_of_ceiling: %s", json_object_to_json_string(cc));
	json_object_put(doc);
	av[6] = "text";
	pipe_write_fails = true;
	pb_cmd_run(&pb_cmd_report, 9, av);
	pipe_write_fails = false;
	read_text(out, text, sizeof(text));
	ck_assert_msg(strstr(text, "copy ceiling") && !strstr(text, "anonymous pipe at 64 KiB"),
		      "%s", text);
	ck_assert_int_eq(unlink(out), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/*
 * Interrupted between two parts (SIGTERM as the first one ends, having
 * finished): the first keeps its results, the next is marked interrupted
 * "before it started", the rest are not run, and the report exits 143.
 */
static const char *const between_docs[] = { "!{\"results\":[]}" };

static void between_setup(void)
{
	part_docs = between_docs;
	part_ndocs = 1;
}

START_TEST(interrupted_between_parts)
{
	char dir[] = "/tmp/pb-check-report.XXXXXX", out[64];
	const char *av[] = { "report", "--quick", "--quiet", "--parts", "timestamps,o_noatime,messaging",
			     "--format", "json", "--output", out, NULL };
	struct json_object *doc;
	int st;

	report_dir(dir, out, sizeof(out), "out.json");
	st = forked_report(av, between_setup);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGTERM, "wait status %#x", st);
	ck_assert_int_eq(seen->started, 1);
	doc = json_object_from_file(out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_msg(!pb_json_str(doc, "part_runs.timestamps.error"), "%s",
		      pb_json_str(doc, "part_runs.timestamps.error"));
	ck_assert(!json_object_get_boolean(pb_json_get(doc, "part_runs.timestamps.interrupted")));
	ck_assert_str_eq(pb_json_str(doc, "part_runs.o_noatime.error"),
			 "interrupted by SIGTERM before it started");
	ck_assert(json_object_get_boolean(pb_json_get(doc, "part_runs.o_noatime.interrupted")));
	ck_assert_ptr_null(pb_json_get(doc, "part_runs.messaging"));
	ck_assert_str_eq(pb_json_str(doc, "summary.interrupted"), "SIGTERM");
	json_object_put(doc);
	ck_assert_int_eq(unlink(out), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* ---- the text, from the parts' documents */

/* report --quick --parts PARTS --precision 5 --format text, each part
 * writing the next of DOCS; the text in TEXT. */
static const char *const *text_docs;
static int text_ndocs;

static void text_setup(void)
{
	part_docs = text_docs;
	part_ndocs = text_ndocs;
}

static void report_text(const char *parts, const char *const *docs, int ndocs, char *text,
			size_t len)
{
	char dir[] = "/tmp/pb-check-report.XXXXXX", out[64];
	const char *av[] = { "report", "--quick", "--quiet", "--parts", parts, "--precision", "5",
			     "--format", "text", "--output", out, NULL };
	int st;

	report_dir(dir, out, sizeof(out), "out.txt");
	text_docs = docs;
	text_ndocs = ndocs;
	st = forked_report(av, text_setup);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "report: wait status %#x", st);
	ck_assert_int_eq(seen->started, ndocs);
	read_text(out, text, len);
	ck_assert_int_eq(unlink(out), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}

/* TEXT has LINE, whole. */
static void has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p += n)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return;
	ck_abort_msg("no line '%s' in:\n%s", line, text);
}

/*
 * Every part's lines, the copy ceiling, the --precision line and the
 * figures' fitness, from documents this test wrote for the parts: each
 * figure where its heading says, in its unit, rounded as documented.
 */
START_TEST(text_from_the_parts_documents)
{
	static const char *const all[] = {
		/* timestamps */
		"{\"results\":[{\"kind\":\"anon\",\"verdict\":\"frozen\",\"verdict_detail\":\"no update\"},"
		"{\"kind\":\"fifo\",\"verdict\":\"updated\",\"verdict_detail\":\"write changes mtime\"}],"
		"\"timestamp_cost\":{\"fifo\":{\"kernel_share\":0.123},\"anon\":{\"kernel_share\":0.063}}}",
		/* o_noatime */
		"{\"pipe2_o_noatime\":{\"accepted\":false,\"errno\":\"EINVAL\"},"
		"\"summary\":{\"tt_ratio_median\":1.234,\"tt_ratio_spread\":0.071}}",
		/* conformance */
		"{\"checks\":[{\"id\":\"CRE-01\",\"status\":\"pass\"},{\"id\":\"CRE-02\",\"status\":\"fail\","
		"\"title\":\"T2\",\"detail\":\"D2\"},{\"id\":\"CRE-03\",\"status\":\"skip\"},{\"id\":\"CRE-04\","
		"\"status\":\"known-deviation\"},{\"id\":\"CRE-05\",\"status\":\"info\"},{\"id\":\"CRE-06\","
		"\"status\":\"error\",\"title\":\"T6\",\"detail\":\"D6\"},{\"id\":\"CRE-07\",\"status\":\"pass\"}]}",
		/* throughput */
		"{\"results\":[{\"kind\":\"anon\",\"size_bytes\":100,\"stability\":\"stable\","
		"\"precision\":{\"reached_pct\":3},\"summary\":{\"rate_bytes_per_s\":123400000,"
		"\"ns_per_syscall\":45.67,\"tt_ns\":{\"spread\":0.031}}},"
		"{\"kind\":\"fifo\",\"size_bytes\":4096,\"ratio_label\":\"fifo/anon\",\"cost_ratio_to_first\":1.5,"
		"\"stability\":\"unstable\",\"stability_reason\":\"noisy\",\"precision\":{\"reached_pct\":7.5},"
		"\"summary\":{\"rate_bytes_per_s\":98765432,\"ns_per_syscall\":41.5,\"tt_ns\":{\"spread\":0.0271}}}]}",
		/* throughput_64k */
		"{\"results\":[{\"kind\":\"anon\",\"size_bytes\":65536,\"stability\":\"disturbed\","
		"\"stability_reason\":\"load\",\"summary\":{\"rate_bytes_per_s\":2000000000,"
		"\"ns_per_syscall\":30.4,\"tt_ns\":{\"spread\":0.012}}},"
		"{\"kind\":\"anon\",\"mode\":\"vmsplice\",\"size_bytes\":65536,\"stability\":\"stable\","
		"\"summary\":{\"rate_bytes_per_s\":3000000000}},"
		"{\"kind\":\"anon\",\"mode\":\"splice\",\"size_bytes\":65536,\"stability\":\"bimodal\","
		"\"stability_reason\":\"two modes\",\"summary\":{\"rate_bytes_per_s\":4000000000}}]}",
		/* messaging */
		"{\"results\":[{\"stability\":\"unstable\",\"stability_reason\":\"spread\","
		"\"precision\":{\"reached_pct\":9.3},\"summary\":{\"rate_messages_per_s\":{\"median\":12345.6},"
		"\"elapsed_ns\":{\"median\":1500000000},\"voluntary_ctxsw\":{\"median\":100},"
		"\"involuntary_ctxsw\":{\"median\":7}}}]}",
		/* latency */
		"{\"results\":[{\"placement\":\"same\",\"asked_cpus\":\"0\",\"stability\":\"unstable\","
		"\"stability_reason\":\"tail\",\"precision\":{},\"summary\":{\"rtt_p50_ns\":2500,"
		"\"rtt_p99_ns\":12340}},{\"placement\":\"core\",\"status\":\"skip\",\"reason\":\"one CPU\"}]}",
	};
	static const char *const some[] = {
		/* o_noatime, accepted */
		"{\"pipe2_o_noatime\":{\"accepted\":true},"
		"\"summary\":{\"tt_ratio_median\":0.876,\"tt_ratio_spread\":0.023}}",
		/* throughput_64k alone: labelled throughput; no splice rate, no zero-copy line */
		"{\"results\":[{\"kind\":\"anon\",\"size_bytes\":65536,\"stability\":\"stable\","
		"\"precision\":{\"reached_pct\":6.4},\"summary\":{\"rate_bytes_per_s\":1000000000,"
		"\"ns_per_syscall\":60.1,\"tt_ns\":{\"spread\":0.02}}},"
		"{\"kind\":\"anon\",\"mode\":\"vmsplice\",\"size_bytes\":65536,\"stability\":\"stable\","
		"\"precision\":{\"reached_pct\":8.6},\"summary\":{\"rate_bytes_per_s\":3000000000}},"
		"{\"kind\":\"anon\",\"mode\":\"splice\",\"size_bytes\":65536,\"precision\":{\"reached_pct\":4}}]}",
	};
	static const char *const one[] = {
		"{}",   /* timestamps without results: no line */
		"{\"results\":[{\"precision\":{\"reached_pct\":2},\"summary\":{\"rate_messages_per_s\":"
		"{\"median\":10},\"elapsed_ns\":{\"median\":2000000},\"voluntary_ctxsw\":{\"median\":1},"
		"\"involuntary_ctxsw\":{\"median\":0}}}]}",
	};
	static char text[16384];

	report_text("timestamps,o_noatime,conformance,throughput,throughput_64k,messaging,latency",
		    all, 7, text, sizeof(text));
	has_line(text, "timestamps       anonymous pipes: frozen (no update)");
	has_line(text, "                 FIFOs: updated (write changes mtime)");
	has_line(text, "                 timestamp updates: 12.3% of kernel time on FIFOs, 6.3% on "
		 "anonymous pipes (--profile)");
	has_line(text, "O_NOATIME        pipe2(O_NOATIME) rejected (EINVAL); substitute FIFO/anon TT "
		 "ratio 1.23x (spread 7.1%)");
	has_line(text, "conformance      2 passed, 1 failed, 1 skipped, 1 known deviations, 1 info "
		 "(harness errors)");
	has_line(text, "                 fail CRE-02: T2: D2");
	has_line(text, "                 error CRE-06: T6: D6");
	has_line(text, "throughput       anon    100 B      123.4 MB/s    45.7 ns/syscall  spread  3.1%");
	has_line(text, "                 fifo    4 KiB       98.8 MB/s    41.5 ns/syscall  spread  2.7%"
		 "  fifo/anon 1.50x");
	has_line(text, "                 anon   64 KiB     2000.0 MB/s    30.4 ns/syscall  spread  1.2%");
	has_line(text, "copy ceiling     memcpy 8.00 GB/s (64 KiB blocks, in cache); a pipe copies "
		 "twice: ceiling 4.00 GB/s");
	has_line(text, "                 anonymous pipe at 64 KiB: 2.00 GB/s = 50% of the ceiling");
	has_line(text, "                 vmsplice+splice at 64 KiB: vmsplice 3.00 GB/s, splice 4.00 "
		 "GB/s (bytes checked on a sample of loops)");
	has_line(text, "messaging        12346 messages/s, elapsed 1.500 s, context switches 100 "
		 "voluntary, 7 involuntary (medians)");
	has_line(text, "latency          anon same CPUs 0     p50 2.50 us, p99 12.34 us round trip");
	has_line(text, "                 anon core skip: one CPU");
	has_line(text, "precision        5% reached by 1 of 4 measured rows in 120 s; latency had too "
		 "few repetitions for an interval");
	has_line(text, "figures          NOT fit to compare: 5 of 7 measured rows not stable "
		 "(throughput: unstable: noisy; throughput_64k: disturbed: load; throughput_64k: "
		 "bimodal: two modes; 2 more)");
	ck_assert_msg(!strstr(text, "not measured") && !strstr(text, "vmsplice  ") &&
		      !strstr(text, "splice   "), "%s", text);

	report_text("o_noatime,throughput_64k", some, 2, text, sizeof(text));
	has_line(text, "O_NOATIME        pipe2(O_NOATIME) accepted; O_NOATIME/plain TT ratio 0.88x "
		 "(spread 2.3%)");
	has_line(text, "throughput       anon   64 KiB     1000.0 MB/s    60.1 ns/syscall  spread  2.0%");
	has_line(text, "                 anonymous pipe at 64 KiB: 1.00 GB/s = 25% of the ceiling");
	has_line(text, "precision        5% reached by 1 of 3 measured rows in 120 s; throughput_64k "
		 "came to 8.6%");
	has_line(text, "figures          fit to compare: all 2 measured rows stable");
	ck_assert_msg(!strstr(text, "vmsplice+splice"), "%s", text);

	report_text("timestamps,messaging", one, 2, text, sizeof(text));
	ck_assert_msg(!strstr(text, "\ntimestamps "), "%s", text);
	has_line(text, "precision        5% reached by all 1 measured rows (95% interval of the "
		 "median, within 120 s)");
	ck_assert_msg(!strstr(text, "fit to compare"), "%s", text);
}
END_TEST

PB_CHECK_SUITE_MAIN("report",
	PB_TCASE_LOOP("stop", 30, part_past_its_timeout_gets_sigterm,
		      sizeof(part_timeouts) / sizeof(part_timeouts[0]),
		      interrupted_part_gets_the_grace_not_its_timeout,
		      silent_part_error_from_its_document, interrupted_part_killed_by_a_signal,
		      timeout_counts_the_precision_budget),
	PB_TCASE_TIMED("ceiling", 60, copy_ceiling_from_its_measure,
		       zero_copy_line_needs_both_rates, no_rate_no_fraction),
	PB_TCASE_TIMED("text", 60, text_from_the_parts_documents, interrupted_between_parts))
