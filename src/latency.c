/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "clock.h"
#include "latency.h"
#include "uring.h"

const char *const pb_lat_wait_words[] = { "block", "poll", "spin", "all", NULL };

/* CPUs are sampled on the first round trip and then every this many. */
#define CPU_SAMPLE_EVERY 256

uint64_t pb_lat_clock_cost(void)
{
	enum { N = 20000 };
	uint64_t t0 = pb_clock_ns(), t1;

	for (int i = 0; i < N - 1; i++)
		(void)pb_clock_ns();
	t1 = pb_clock_ns();
	return (t1 - t0) / N;
}

static int perf_open(uint64_t config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = config;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int64_t perf_value(int fd)
{
	uint64_t v;

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return -1;
	return (int64_t)v;
}

/* se.nr_migrations of the calling thread, or -1 (no CONFIG_SCHED_DEBUG). */
static int64_t proc_migrations(void)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen("/proc/thread-self/sched", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "se.nr_migrations", 16)) {
			const char *c = strchr(line, ':');

			if (!c || sscanf(c + 1, "%lld", &v) != 1)
				v = -1;
			break;
		}
	fclose(f);
	return v;
}

/* Why perf_event_open is refused, for the output. */
static void perf_refusal(int e, char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int paranoid;

	if (f && fscanf(f, "%d", &paranoid) == 1)
		snprintf(buf, len, "perf_event_open: %s; perf_event_paranoid %d", strerror(e),
			 paranoid);
	else
		snprintf(buf, len, "perf_event_open: %s", strerror(e));
	if (f)
		fclose(f);
}

const char *const pb_lat_counter_words[] = { "auto", "perf", "rusage", NULL };

int pb_lat_counters_probe(enum pb_lat_counters want, enum pb_lat_source *src, char *why,
			  size_t len)
{
	bool sched = proc_migrations() >= 0;
	char refused[160] = "";
	int fd = -1, e = 0;

	if (want != PB_LAT_CTR_RUSAGE && (want == PB_LAT_CTR_PERF || !sched)) {
		fd = perf_open(PERF_COUNT_SW_CPU_MIGRATIONS);
		e = errno;
	}
	if (fd >= 0) {
		close(fd);
		*src = PB_LAT_SRC_PERF;
		snprintf(why, len, "perf_event_open software counters (context switches, "
			 "migrations; per-task counters add a cost to every context switch) and "
			 "getrusage (voluntary, involuntary)");
		return 0;
	}
	if (e)
		perf_refusal(e, refused, sizeof(refused));
	if (want == PB_LAT_CTR_PERF) {
		snprintf(why, len, "--counters perf: %s", refused);
		return -e;
	}
	*src = PB_LAT_SRC_PROC;
	snprintf(why, len, "getrusage (voluntary, involuntary) and %s%s%s%s",
		 sched ? "/proc/thread-self/sched (migrations)"
		       : "no migrations (no se.nr_migrations in /proc/thread-self/sched)",
		 refused[0] ? " (" : "", refused, refused[0] ? ")" : "");
	return 0;
}

struct counters {
	enum pb_lat_source src;
	int cs_fd, mig_fd;
	int64_t cs0, mig0;
	struct rusage ru0;
};

static void ctr_start(struct counters *c, enum pb_lat_source src)
{
	c->src = src;
	c->cs_fd = c->mig_fd = -1;
	if (src == PB_LAT_SRC_PERF) {
		c->cs_fd = perf_open(PERF_COUNT_SW_CONTEXT_SWITCHES);
		c->mig_fd = perf_open(PERF_COUNT_SW_CPU_MIGRATIONS);
		c->cs0 = perf_value(c->cs_fd);
		c->mig0 = perf_value(c->mig_fd);
	} else {
		c->cs0 = -1;
		c->mig0 = proc_migrations();
	}
	getrusage(RUSAGE_THREAD, &c->ru0);
}

static int64_t delta(int64_t a, int64_t b)
{
	return a >= 0 && b >= 0 && b >= a ? b - a : -1;
}

static void ctr_stop(struct counters *c, struct pb_lat_party *p)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	p->vol_ctxsw = ru.ru_nvcsw - c->ru0.ru_nvcsw;
	p->invol_ctxsw = ru.ru_nivcsw - c->ru0.ru_nivcsw;
	p->user_ns = pb_timeval_ns(&ru.ru_utime) - pb_timeval_ns(&c->ru0.ru_utime);
	p->sys_ns = pb_timeval_ns(&ru.ru_stime) - pb_timeval_ns(&c->ru0.ru_stime);
	p->faults = (ru.ru_minflt - c->ru0.ru_minflt) + (ru.ru_majflt - c->ru0.ru_majflt);
	if (c->src == PB_LAT_SRC_PERF) {
		p->ctxsw = delta(c->cs0, perf_value(c->cs_fd));
		p->migrations = delta(c->mig0, perf_value(c->mig_fd));
	} else {
		p->ctxsw = -1;
		p->migrations = delta(c->mig0, proc_migrations());
	}
	if (c->cs_fd >= 0)
		close(c->cs_fd);
	if (c->mig_fd >= 0)
		close(c->mig_fd);
}

int64_t pb_lat_add_ctr(int64_t a, int64_t b)
{
	return a < 0 || b < 0 ? -1 : a + b;
}

/* latency.h; "block" through io_uring lets io_uring wait for the pipe.
 * YIELD: when both parties share one CPU the other cannot run, and so
 * cannot answer, until the spinner's time slice ends. */
ssize_t pb_lat_xfer(struct pb_uring *u, int fd, char *buf, size_t n, bool rd, enum pb_lat_wait w,
		    bool yield)
{
	size_t done = 0;

	while (done < n) {
		ssize_t k;

		if (rd && w == PB_LAT_POLL) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			if (poll(&p, 1, -1) < 0) {
				if (errno != EINTR)
					return -errno;
				if (pb_watchdog_fired())
					return -ETIMEDOUT;
				continue;
			}
		}
		if (!u)
			k = rd ? read(fd, buf + done, n - done) : write(fd, buf + done, n - done);
		else if (w == PB_LAT_BLOCK)
			k = rd ? pb_uring_read_wait(u, fd, buf + done, n - done)
			       : pb_uring_write_wait(u, fd, buf + done, n - done);
		else
			k = rd ? pb_uring_read(u, fd, buf + done, n - done)
			       : pb_uring_write(u, fd, buf + done, n - done);
		if (k > 0) {
			done += (size_t)k;
			continue;
		}
		if (k == 0 && rd)
			return done ? -EPIPE : 0;
		if (k < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (pb_watchdog_fired())
				return -ETIMEDOUT;
			if (yield && errno == EAGAIN)
				sched_yield();
			continue;
		}
		return k < 0 ? -errno : -EIO;
	}
	return (ssize_t)n;
}

static void sample_cpu(cpu_set_t *seen)
{
	int c = sched_getcpu();

	if (c >= 0 && c < CPU_SETSIZE)
		CPU_SET(c, seen);
}

static int pin(int cpu)
{
	cpu_set_t s;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(0, sizeof(s), &s) ? -errno : 0;
}

/* Party B's report, in memory shared with A (never the channels under test). */
struct shared {
	int ready, done, failed;
	char err[256];
	struct pb_lat_party b;
	struct pb_prof_ips prof_b;   /* --profile: B's samples */
};

struct party_b {
	const struct pb_lat_opts *o;
	struct shared *sh;
	int rfd, wfd;            /* A-to-B read end, B-to-A write end */
	char *buf;
};

static void *party_b_main(void *arg)
{
	struct party_b *b = arg;
	struct counters c;
	struct pb_uring *u = NULL;
	struct pb_prof prof = { 0 };
	const char *what = "";
	uint64_t i = 0;
	int r;

	CPU_ZERO(&b->sh->b.seen);
	r = pin(b->o->cpu_b);
	if (r) {
		snprintf(b->sh->err, sizeof(b->sh->err), "party B: cannot pin to CPU %d: %s",
			 b->o->cpu_b, strerror(-r));
		goto out;
	}
	if (b->o->uring && (r = pb_uring_open(&u, &what)) != 0) {
		snprintf(b->sh->err, sizeof(b->sh->err), "party B: %s: %s", what, strerror(-r));
		goto out;
	}
	/* --profile: a sampler that cannot be opened samples nothing (the
	 * command said why) */
	if (b->o->prof_period_ns && !b->o->prof_cpus &&
	    pb_prof_open(&prof, b->o->prof_period_ns, NULL, 0) == 0)
		pb_prof_enable(&prof);
	ctr_start(&c, b->o->source);
	__atomic_store_n(&b->sh->ready, 1, __ATOMIC_RELEASE);
	for (;; i++) {
		ssize_t k = pb_lat_xfer(u, b->rfd, b->buf, b->o->size, true, b->o->wait, b->o->spin_yield);

		if (k == 0)
			break;          /* A closed its end: the run is over */
		if (k > 0)
			k = pb_lat_xfer(u, b->wfd, b->buf, b->o->size, false, b->o->wait,
				 b->o->spin_yield);
		if (k < 0) {
			r = (int)k;
			snprintf(b->sh->err, sizeof(b->sh->err), "party B: %s: %s",
				 k == -EPIPE ? "read" : "read/write",
				 k == -EPIPE ? "end of file inside a message" : strerror((int)-k));
			break;
		}
		if (i % CPU_SAMPLE_EVERY == 0)
			sample_cpu(&b->sh->b.seen);
	}
	ctr_stop(&c, &b->sh->b);
	pb_prof_disable(&prof);
	pb_prof_drain(&prof, &b->sh->prof_b);
out:
	pb_prof_close(&prof);
	pb_uring_close(u);
	if (r)
		__atomic_store_n(&b->sh->failed, 1, __ATOMIC_RELEASE);
	close(b->rfd);
	close(b->wfd);
	__atomic_store_n(&b->sh->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Party A's loop: every round trip timed, one clock read each.  With IVH
 * (--interval) a round trip is recorded there only, and the interval is
 * merged into R's histogram at its boundary, outside the timed span, and
 * after the loop.
 */
static int party_a(const struct pb_lat_opts *o, struct pb_uring *u, int wfd, int rfd, char *buf,
		   struct pb_lat_result *r, struct pb_hist *ivh)
{
	uint64_t t0, prev, next_iv, end = 0, cost = o->clock_cost_ns;
	struct pb_hist *h = ivh ? ivh : &r->hist;
	int rc = 0;

	t0 = prev = pb_clock_ns();
	next_iv = o->interval_ns ? t0 + o->interval_ns : UINT64_MAX;
	if (o->duration_ns)
		end = t0 + o->duration_ns;
	for (uint64_t i = 0; !o->loops || i < o->loops; i++) {
		ssize_t k = pb_lat_xfer(u, wfd, buf, o->size, false, o->wait, o->spin_yield);
		uint64_t t, d;

		if (k > 0)
			k = pb_lat_xfer(u, rfd, buf, o->size, true, o->wait, o->spin_yield);
		if (k <= 0) {
			rc = k == 0 ? -ECONNRESET : (int)k;
			break;
		}
		t = pb_clock_ns();
		d = t - prev;
		d = d > cost ? d - cost : 0;
		prev = t;
		pb_hist_record(h, d);
		if (i % CPU_SAMPLE_EVERY == 0)
			sample_cpu(&r->a.seen);
		if (ivh) {
			if (t >= next_iv) {
				struct pb_lat_interval *n = realloc(r->iv, (r->niv + 1) * sizeof(*n));

				if (!n) {
					rc = -ENOMEM;
					break;
				}
				r->iv = n;
				n[r->niv++] = (struct pb_lat_interval){
					.end_ns = t - t0, .round_trips = ivh->count,
					.p50_ns = pb_hist_percentile(ivh, 50),
					.p99_ns = pb_hist_percentile(ivh, 99),
				};
				pb_hist_merge(&r->hist, ivh);
				pb_hist_reset(ivh);
				while (next_iv <= t)   /* a stall can span intervals */
					next_iv += o->interval_ns;
				prev = pb_clock_ns();  /* the bookkeeping is not a round trip */
			}
		}
		if (end && t >= end)
			break;
		if (pb_watchdog_fired()) {
			rc = -ETIMEDOUT;
			break;
		}
	}
	if (ivh)
		pb_hist_merge(&r->hist, ivh);   /* the last, partial interval */
	r->round_trips = r->hist.count;
	r->elapsed_ns = prev - t0;
	return rc;
}

static const char *signame(int sig)
{
	const char *s = sigabbrev_np(sig);

	return s ? s : "?";
}

int pb_lat_run(const struct pb_lat_opts *o, struct pb_lat_result *r, char *err, size_t len)
{
	struct pb_endpoint ab, ba;
	struct pb_endpoint_opts eo = { .nonblock = o->wait == PB_LAT_SPIN };
	struct shared *sh;
	struct party_b pb;
	struct counters c;
	struct pb_hist ivh = { 0 };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_pipe;
	cpu_set_t saved;
	pthread_t th;
	pid_t pid = -1;
	struct pb_uring *ring = NULL;
	struct pb_prof prof = { 0 };
	const char *what = "";
	char *buf = NULL;
	int rc, status = 0;
	bool have_saved = sched_getaffinity(0, sizeof(saved), &saved) == 0;

	r->round_trips = r->elapsed_ns = 0;
	CPU_ZERO(&r->a.seen);
	err[0] = '\0';
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		snprintf(err, len, "mmap: %s", strerror(errno));
		return -ENOMEM;
	}
	memset(sh, 0, sizeof(*sh));
	buf = malloc(o->size * 2);
	if (!buf || (o->interval_ns && pb_hist_init(&ivh))) {
		free(buf);
		munmap(sh, sizeof(*sh));
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	memset(buf, 'l', o->size * 2);
	eo.dir = o->dir[0];
	rc = pb_endpoint_open(&ab, o->kind, &eo, &what);
	if (rc) {
		snprintf(err, len, "%s: %s: %s", pb_kind_names[o->kind], what, strerror(-rc));
		goto out_mem;
	}
	eo.dir = o->dir[1];
	rc = pb_endpoint_open(&ba, o->kind, &eo, &what);
	if (rc) {
		snprintf(err, len, "%s: %s: %s", pb_kind_names[o->kind], what, strerror(-rc));
		pb_endpoint_close(&ab);
		goto out_mem;
	}
	sigaction(SIGPIPE, &ign, &old_pipe);
	pb = (struct party_b){ .o = o, .sh = sh, .rfd = ab.rfd, .wfd = ba.wfd, .buf = buf + o->size };
	if (o->threads) {
		rc = -pthread_create(&th, NULL, party_b_main, &pb);
		if (rc) {
			snprintf(err, len, "pthread_create: %s", strerror(-rc));
			goto out_ep;
		}
	} else {
		pid = pb_cleanup_fork();
		if (pid < 0) {
			rc = -errno;
			snprintf(err, len, "fork: %s", strerror(errno));
			goto out_ep;
		}
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(ab.wfd);
			close(ba.rfd);
			party_b_main(&pb);
			_exit(__atomic_load_n(&sh->failed, __ATOMIC_ACQUIRE) ? 1 : 0);
		}
		close(ab.rfd);
		close(ba.wfd);
	}
	/* B owns these now. */
	ab.rfd = ba.wfd = -1;
	rc = pin(o->cpu_a);
	if (rc)
		snprintf(err, len, "party A: cannot pin to CPU %d: %s", o->cpu_a, strerror(-rc));
	while (!rc && !__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&sh->done, __ATOMIC_ACQUIRE)) {
		if (pid > 0 && waitpid(pid, &status, WNOHANG) == pid) {
			pb_cleanup_del_child(pid);
			pid = -2;   /* reaped */
			rc = -ECONNRESET;
			break;
		}
		if (pb_watchdog_fired())
			rc = -ETIMEDOUT;
		usleep(50);
	}
	if (!rc && o->uring && (rc = pb_uring_open(&ring, &what)) != 0)
		snprintf(err, len, "party A: %s: %s", what, strerror(-rc));
	if (!rc && __atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE)) {
		if (o->prof_period_ns && (o->prof_cpus ?
			pb_prof_open_cpus(&prof, o->prof_period_ns, &saved, NULL, 0) :
			pb_prof_open(&prof, o->prof_period_ns, NULL, 0)) == 0) {
			/* on each CPU: the samples of A's process and B's */
			pb_prof_filter(&prof, getpid());
			if (pid > 0)
				pb_prof_filter(&prof, pid);
			pb_prof_enable(&prof);
		}
		ctr_start(&c, o->source);
		rc = party_a(o, ring, ab.wfd, ba.rfd, buf, r, o->interval_ns ? &ivh : NULL);
		ctr_stop(&c, &r->a);
		pb_prof_disable(&prof);
		pb_prof_drain(&prof, r->prof);
		pb_prof_close(&prof);
	} else if (!rc) {
		rc = -ECONNRESET;
	}
	/* End of the run: B reads end of file and stops. */
	close(ab.wfd);
	ab.wfd = -1;
	pb_uring_close(ring);
	if (o->threads) {
		pthread_join(th, NULL);
	} else if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		pb_cleanup_del_child(pid);
	}
	if (sh->err[0]) {
		snprintf(err, len, "%s", sh->err);
		if (!rc)
			rc = -EIO;
	} else if (!o->threads && WIFSIGNALED(status)) {
		snprintf(err, len, "party B (process) was killed by signal %d (SIG%s)",
			 WTERMSIG(status), signame(WTERMSIG(status)));
		if (!rc)
			rc = -ECONNRESET;
	} else if (rc == -ECONNRESET || rc == -EPIPE) {
		snprintf(err, len, "party B ended early: %s on the %s channel",
			 rc == -EPIPE ? "EPIPE" : "end of file",
			 rc == -EPIPE ? "A-to-B" : "B-to-A");
	} else if (rc == -ETIMEDOUT) {
		snprintf(err, len, "timed out");
	} else if (rc && !err[0]) {
		snprintf(err, len, "party A: %s", strerror(-rc));
	}
	r->b = sh->b;
	if (r->prof && !rc)
		pb_prof_merge(r->prof, &sh->prof_b);
	if (have_saved)
		sched_setaffinity(0, sizeof(saved), &saved);
out_ep:
	sigaction(SIGPIPE, &old_pipe, NULL);
	pb_endpoint_close(&ab);
	pb_endpoint_close(&ba);
out_mem:
	pb_hist_free(&ivh);
	free(buf);
	munmap(sh, sizeof(*sh));
	return rc;
}
