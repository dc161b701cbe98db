/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench plot: charts of result documents.  plot.c writes the gnuplot
 * script (data inline); this file loads the documents, and either writes
 * the script (--format gnuplot) or runs gnuplot as a child with the script
 * on its standard input and the image on its standard output.  The child is
 * registered with cleanup.c (a signal kills and reaps it), watched by the
 * watchdog (--timeout) and always reaped.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "cli.h"
#include "compare.h"
#include "msg.h"
#include "output.h"
#include "plot.h"

#define NAME "plot"
#define GNUPLOT "gnuplot"

/* The formats: an image drawn by gnuplot on terminal .arg, or (.arg -1)
 * the gnuplot script itself; .exts are the --output extensions that mean
 * each. */
#define SCRIPT (-1)
static const struct pb_format formats[] = {
	{ .name = "svg", .exts = "svg", .arg = PB_PLOT_SVG },
	{ .name = "png", .exts = "png", .arg = PB_PLOT_PNG },
	{ .name = "pdf", .exts = "pdf", .arg = PB_PLOT_PDF },
	{ .name = "jpeg", .exts = "jpg jpeg", .arg = PB_PLOT_JPEG },
	{ .name = "gnuplot", .exts = "gp", .arg = SCRIPT },
	PB_FORMAT_END
};

/* Whether EXT is one of the space-separated words of F's extensions. */
static bool means(const struct pb_format *f, const char *ext)
{
	size_t n = strlen(ext);

	for (const char *w = f->exts; w && *w; w += strcspn(w, " "), w += *w == ' ') {
		if (strcspn(w, " ") == n && strncasecmp(w, ext, n) == 0)
			return true;
	}
	return false;
}

struct plot_params {
	const char *title;
	const char *metric;
	const char *label;
	const char *part;
	unsigned chart;
	uint64_t timeout_ns;
};

/* The gnuplot executable in $PATH, into BUF; false when there is none. */
static bool find_gnuplot(char *buf, size_t len)
{
	const char *path = getenv("PATH");

	while (path && *path) {
		size_t n = strcspn(path, ":");
		struct stat st;

		if (n)
			snprintf(buf, len, "%.*s/%s", (int)n, path, GNUPLOT);
		else
			snprintf(buf, len, "./%s", GNUPLOT);
		if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * Run gnuplot (EXE) with SCRIPT on its stdin; its stdout goes to OUT, the
 * first line of its stderr to ERRLINE.  Returns an exit status: 0, 3 after
 * printing why (gnuplot failed, timed out, could not be started), or 4 when
 * it lacks the terminal (the script's PB_PLOT_NO_TERMINAL line).
 */
static int run_gnuplot(const char *exe, const char *script, size_t slen, double timeout_s,
		       FILE *out, bool quiet)
{
	int in[2] = { -1, -1 }, op[2] = { -1, -1 }, ep[2] = { -1, -1 };
	char errbuf[4096], chunk[65536];
	size_t elen = 0, off = 0;
	pid_t pid;
	int status = 0, rc = PB_EXIT_OK;
	bool timed_out = false;

	if (pipe2(in, O_CLOEXEC) || pipe2(op, O_CLOEXEC) || pipe2(ep, O_CLOEXEC)) {
		pb_err(NAME, "cannot make pipes for gnuplot: %s", strerror(errno));
		rc = PB_EXIT_ERROR;
		goto out;
	}
	pid = pb_cleanup_fork();
	if (pid < 0) {
		pb_err(NAME, "cannot start gnuplot: fork: %s", strerror(errno));
		rc = PB_EXIT_ERROR;
		goto out;
	}
	if (pid == 0) {
		if (dup2(in[0], 0) < 0 || dup2(op[1], 1) < 0 || dup2(ep[1], 2) < 0)
			_exit(127);
		execl(exe, GNUPLOT, (char *)NULL);
		dprintf(2, "cannot run %s: %s\n", exe, strerror(errno));
		_exit(127);
	}
	close_fd(&in[0]);
	close_fd(&op[1]);
	close_fd(&ep[1]);
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	pb_watchdog_arm(timeout_s, "gnuplot");
	/* Feed the script and drain both outputs at once: gnuplot may write
	 * (a warning, the image) before it has read everything. */
	while (op[0] >= 0 || ep[0] >= 0) {
		struct pollfd fds[3] = {
			{ .fd = op[0], .events = POLLIN }, { .fd = ep[0], .events = POLLIN },
			{ .fd = in[1], .events = POLLOUT },
		};

		if (pb_watchdog_fired()) {
			timed_out = true;
			break;
		}
		if (in[1] >= 0 && off == slen)
			close_fd(&in[1]);
		fds[2].fd = in[1];
		if (poll(fds, 3, 100) < 0) {
			if (errno == EINTR)
				continue;
			pb_err(NAME, "poll: %s", strerror(errno));
			rc = PB_EXIT_ERROR;
			break;
		}
		if (fds[2].revents & (POLLOUT | POLLERR | POLLHUP)) {
			ssize_t w = write(in[1], script + off, slen - off);

			if (w > 0)
				off += (size_t)w;
			else if (w < 0 && errno != EAGAIN && errno != EINTR)
				close_fd(&in[1]);   /* gnuplot went away: its status says why */
		}
		for (int k = 0; k < 2; k++) {
			int *fd = k ? &ep[0] : &op[0];
			ssize_t r;

			if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			r = read(*fd, chunk, sizeof(chunk));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close_fd(fd);
				continue;
			}
			if (!k) {
				fwrite(chunk, 1, (size_t)r, out);
			} else if (elen < sizeof(errbuf) - 1) {
				size_t take = (size_t)r < sizeof(errbuf) - 1 - elen ?
					      (size_t)r : sizeof(errbuf) - 1 - elen;

				memcpy(errbuf + elen, chunk, take);
				elen += take;
			}
		}
	}
	if (timed_out || rc)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	pb_cleanup_del_child(pid);
	pb_watchdog_arm(0, "gnuplot");
	errbuf[elen] = '\0';
	errbuf[strcspn(errbuf, "\n")] = '\0';
	if (rc)
		goto out;
	if (timed_out) {
		pb_err(NAME, "gnuplot did not finish within %g s (--timeout)", timeout_s);
		rc = PB_EXIT_ERROR;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFSIGNALED(status))
			pb_err(NAME, "gnuplot was killed by signal %d%s%s", WTERMSIG(status),
			       *errbuf ? ": " : "", errbuf);
		else
			pb_err(NAME, "gnuplot failed with status %d%s%s", WEXITSTATUS(status),
			       *errbuf ? ": " : "", errbuf);
		rc = PB_EXIT_ERROR;
	} else if (!strncmp(errbuf, PB_PLOT_NO_TERMINAL, strlen(PB_PLOT_NO_TERMINAL))) {
		/* The script's own test: this gnuplot cannot write the format. */
		pb_err(NAME, "%s", errbuf + strlen("pipebench plot: "));
		rc = PB_EXIT_NA;
	} else if (*errbuf && !quiet) {
		pb_warn(NAME, "gnuplot: %s", errbuf);
	}
out:
	close_fd(&in[0]);
	close_fd(&in[1]);
	close_fd(&op[0]);
	close_fd(&op[1]);
	close_fd(&ep[0]);
	close_fd(&ep[1]);
	return rc;
}

/*
 * The format into *FMT: --format when given, else from --output's extension
 * (none, or no --output: SVG).  An extension that names no format, or names
 * another than --format, is a usage error (-1, printed): no file's name
 * says one thing while it holds another.
 */
static int pick_format(const struct pb_cli *cli, const struct pb_format **fmt)
{
	const char *o = cli->common.output, *base, *dot;
	bool given = pb_cli_given(cli, "format");
	const struct pb_format *found = NULL;

	*fmt = given ? cli->fmt : &formats[0];
	if (!o)
		return 0;
	base = strrchr(o, '/');
	base = base ? base + 1 : o;
	dot = strrchr(base, '.');
	if (!dot || dot == base || !dot[1])
		return 0;
	for (const struct pb_format *f = formats; f->name && !found; f++)
		if (means(f, dot + 1))
			found = f;
	if (!found && !given) {
		pb_usage_err(NAME, "--output %s: no image format is called %s (.svg, .png, .pdf, "
			     ".jpg or .gp; or give --format)", o, dot);
		return -1;
	}
	if (found && given && found != *fmt) {
		pb_usage_err(NAME, "--output %s: the name says %s, --format says %s", o,
			     found->name, (*fmt)->name);
		return -1;
	}
	if (found)
		*fmt = found;
	return 0;
}

static int exec_plot(struct pb_cli *cli, void *params)
{
	const struct plot_params *p = params;
	struct json_object *docs[PB_PLOT_MAX_DOCS] = { NULL };
	const char *paths[PB_PLOT_MAX_DOCS];
	size_t n = (size_t)cli->nargs;
	const struct pb_format *fmt;
	char *labels[PB_PLOT_MAX_DOCS] = { NULL };
	struct pb_plot_opts o = { .title = p->title, .metric = p->metric, .part = p->part,
				  .chart = (enum pb_plot_chart)p->chart };
	char err[1024], exe[4096];
	char *script = NULL;
	size_t slen = 0;
	FILE *sfp;
	struct pb_out out;
	int rc = PB_EXIT_OK;

	if (n > PB_PLOT_MAX_DOCS) {
		pb_usage_err(NAME, "at most %d documents in one chart", PB_PLOT_MAX_DOCS);
		return PB_EXIT_USAGE;
	}
	if (p->metric && !*p->metric) {
		pb_usage_err(NAME, "--metric: empty metric name");
		return PB_EXIT_USAGE;
	}
	if (p->part && !*p->part) {
		pb_usage_err(NAME, "--part: empty part name");
		return PB_EXIT_USAGE;
	}
	if (pick_format(cli, &fmt))
		return PB_EXIT_USAGE;
	o.term = fmt->arg == SCRIPT ? PB_PLOT_SVG : (enum pb_plot_term)fmt->arg;
	if (p->label) {
		rc = pb_cli_labels_one_each(NAME, p->label, labels, n);
		if (rc != PB_EXIT_OK)
			goto done;
		o.labels = (const char *const *)labels;
	}
	for (size_t i = 0; i < n; i++) {
		paths[i] = cli->args[i];
		if (pb_cmp_load(paths[i], &docs[i], err, sizeof(err))) {
			pb_err(NAME, "%s: %s", paths[i], err);
			rc = PB_EXIT_USAGE;
			goto done;
		}
	}
	sfp = open_memstream(&script, &slen);
	if (!sfp) {
		pb_err(NAME, "out of memory");
		rc = PB_EXIT_ERROR;
		goto done;
	}
	switch (pb_plot_script(docs, paths, n, &o, sfp, NULL, err, sizeof(err))) {
	case 0:
		break;
	case -EINVAL:
		fclose(sfp);
		pb_err(NAME, "%s", err);
		rc = PB_EXIT_USAGE;
		goto done;
	default:
		fclose(sfp);
		pb_err(NAME, "out of memory");
		rc = PB_EXIT_ERROR;
		goto done;
	}
	if (fclose(sfp) != 0) {
		pb_err(NAME, "out of memory");
		rc = PB_EXIT_ERROR;
		goto done;
	}
	if (fmt->arg != SCRIPT && !find_gnuplot(exe, sizeof(exe))) {
		pb_err(NAME, "gnuplot is not installed (not in PATH): install it (Debian, Ubuntu: "
		       "apt-get install gnuplot-nox) or write the script with --format gnuplot");
		rc = PB_EXIT_NA;
		goto done;
	}
	if (pb_out_open(&out)) {
		pb_err(NAME, "cannot allocate output buffer");
		rc = PB_EXIT_ERROR;
		goto done;
	}
	if (fmt->arg == SCRIPT)
		fwrite(script, 1, slen, out.fp);
	else
		rc = run_gnuplot(exe, script, slen, (double)p->timeout_ns / 1e9, out.fp,
				 cli->common.quiet);
	if (rc) {
		pb_out_discard(&out);
		goto done;
	}
	if (pb_out_finish(&out, NAME, cli->common.output))
		rc = PB_EXIT_ERROR;
done:
	free(script);
	for (size_t i = 0; i < n && i < PB_PLOT_MAX_DOCS; i++)
		free(labels[i]);
	for (size_t i = 0; i < n && i < PB_PLOT_MAX_DOCS; i++)
		json_object_put(docs[i]);
	return rc;
}

#define P struct plot_params
static const struct pb_opt options[] = {
	{ PB_OPT("title", '\0', PB_OPT_STRING, P, title), .arg = "TEXT",
	  .help = "the chart's title (default: what it shows, host and kernel)" },
	{ PB_OPT("metric", '\0', PB_OPT_STRING, P, metric), .arg = "NAME",
	  .help = "the metric drawn: a member of the results' repetitions (default: "
	  "rate_bytes_per_s for throughput, rtt_p50_ns for latency (then bars instead of "
	  "the CDF), rate_messages_per_s for messaging, tt_ns for o_noatime; compare: "
	  "all metrics)" },
	PB_OPT_LABEL(P, label, "the documents' names in the chart, comma-separated, one per "
		     "file (an empty one: the default, host and kernel from its run)"),
	{ PB_OPT("part", '\0', PB_OPT_STRING, P, part), .arg = "NAME",
	  .help = "the part of report documents drawn: throughput, throughput_64k, latency, "
	  "messaging, o_noatime or conformance (default: throughput, else the first of "
	  "those the report has)" },
	{ PB_OPT("chart", '\0', PB_OPT_WORD, P, chart), .words = pb_plot_chart_words,
	  .def = "auto", .arg = "WORD",
	  .help = "the chart (auto: what the documents call for; intervals: latency "
	  "--interval series)" },
	{ PB_OPT("timeout", 't', PB_OPT_DURATION, P, timeout_ns), .min = 1,
	  .max = 86400ULL * 1000000000ULL, .def = "60s", .arg = "DURATION",
	  .help = "stop gnuplot with exit 3 after this long" },
	PB_OPT_END
};

const struct pb_cmd pb_cmd_plot = {
	.name = NAME, .opts = options, .formats = formats, .params_size = sizeof(P),
	.exec = exec_plot,
	.args = "FILE.json [FILE.json...]", .min_args = 1, .max_args = -1,
	.operands = "file",
	.summary = "draw charts of JSON results with gnuplot (SVG, PNG, PDF, JPEG or the script)",
};
