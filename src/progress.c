/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The progress line on stderr, with an ETA (output.h) */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "clock.h"
#include "msg.h"
#include "output.h"

int pb_format_eta(double seconds, char *buf, size_t len)
{
	unsigned long long s;

	if (!isfinite(seconds) || seconds < 0)
		return snprintf(buf, len, "%s", "");
	if (ceil(seconds) >= 100 * 3600)
		return snprintf(buf, len, "ETA >99h");
	s = (unsigned long long)ceil(seconds);
	if (s < 60)
		return snprintf(buf, len, "ETA %llus", s);
	if (s < 3600)
		return snprintf(buf, len, "ETA %llum%02llus", s / 60, s % 60);
	return snprintf(buf, len, "ETA %lluh%02llum", s / 3600, s / 60 % 60);
}

void pb_progress_start(struct pb_progress *p, const char *cmd, bool on, uint64_t total)
{
	*p = (struct pb_progress){ .fp = stderr, .cmd = cmd, .on = on, .total = total,
				   .t0_ns = pb_clock_ns() };
}

void pb_progress_budget(struct pb_progress *p, uint64_t ns)
{
	p->budget_ns = ns;
}

double pb_progress_eta(const struct pb_progress *p, uint64_t now_ns)
{
	double elapsed = now_ns > p->t0_ns ? (double)(now_ns - p->t0_ns) / 1e9 : 0;
	bool paced = p->total && p->done && p->done <= p->total;
	bool budget = p->budget_ns && elapsed < (double)p->budget_ns / 1e9;

	/* A budget is the plan until a tenth of the work shows the pace: the
	 * first items (a report's 30 ms timestamps part) say little. */
	if (paced && (!budget || p->done >= (p->total + 9) / 10))
		return elapsed / (double)p->done * (double)(p->total - p->done);
	if (budget)
		return (double)p->budget_ns / 1e9 - elapsed;
	return NAN;
}

static void progress_vshow(struct pb_progress *p, uint64_t units, const char *fmt, va_list ap)
{
	char eta[32] = "";

	/* The items before this one are done: the rate so far gives the rest. */
	p->done += p->current;
	p->current = units ? units : 1;
	if (!p->on)
		return;
	pb_format_eta(pb_progress_eta(p, pb_clock_ns()), eta, sizeof(eta));
	fprintf(p->fp, "\r\033[K%s %s: ", PB_PROG, p->cmd);
	vfprintf(p->fp, fmt, ap);
	if (eta[0])
		fprintf(p->fp, " (%s)", eta);
	fflush(p->fp);
}

void pb_progress_show(struct pb_progress *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	progress_vshow(p, 1, fmt, ap);
	va_end(ap);
}

void pb_progress_item(struct pb_progress *p, uint64_t units, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	progress_vshow(p, units, fmt, ap);
	va_end(ap);
}

void pb_progress_end(struct pb_progress *p)
{
	if (p->on)
		fputs("\r\033[K", p->fp);
}
