/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hackbench messaging workload (see messaging.h).
 *
 * Structure, as in rt-tests' hackbench: per group, one pipe per receiver,
 * the receiver forked right after its pipe is made, then the senders; each
 * worker writes one byte to the "ready" pipe and polls the "wake" pipe; the
 * parent collects every ready byte, reads the clock and writes the wake
 * byte; the clock stops when every worker has been reaped (or joined).
 *
 * What hackbench does not do, and we must: nothing may hang and nothing may
 * be left behind.  So every worker drops the descriptors it does not use,
 * which makes a dead worker visible to its peers (EOF for receivers, EPIPE
 * for senders; SIGPIPE is ignored by main()), the first failed child gets
 * the others killed, and children die with the parent (PR_SET_PDEATHSIG).
 * In thread mode the last sender of a group closes the group's write ends
 * and a failed receiver closes its read end, for the same effect.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "clock.h"
#include "messaging.h"

const char *const pb_messaging_kind_names[] = { "pipe", "socketpair", NULL };

enum role { SENDER, RECEIVER };

struct group {
	int *rfd, *wfd;             /* fds entries each; -1 when closed */
	atomic_uint senders_left;   /* thread mode: the last one closes wfd[] */
};

struct worker {
	struct mrun *run;
	enum role role;
	unsigned group, index;
	pid_t pid;                  /* process mode */
	bool live;                  /* process mode: not reaped yet */
	pthread_t tid;
	int err;                    /* thread mode: the worker's result */
	struct rusage ru;
};

struct mrun {
	const struct pb_messaging_params *p;
	char *buf;                  /* senders' message */
	int ready[2], wake[2];
	struct group *groups;
	struct worker *w;
	size_t nw, created;
	struct worker **by_pid;     /* created workers sorted by pid */
	atomic_bool abort;
	pid_t parent;
	sigset_t oldmask;
	char *err;
	size_t errlen;
};

uint64_t pb_messaging_workers(const struct pb_messaging_params *p)
{
	return 2 * p->groups * p->fds;
}

static long count_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	long n = 0;

	if (!d)
		return 3;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n > 0 ? n - 1 : 3; /* not the directory's own descriptor */
}

int pb_messaging_check_limits(const struct pb_messaging_params *p, char *why, size_t len)
{
	struct rlimit rl;
	uint64_t workers = pb_messaging_workers(p);
	/* Process mode holds one group's pipes at a time; threads hold them all. */
	uint64_t pipes = p->threads ? p->groups * p->fds : p->fds;
	long open_now = count_open_fds();
	uint64_t need = (uint64_t)open_now + 4 + 2 * pipes;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    need > rl.rlim_cur) {
		snprintf(why, len, "%llu %s%s need %llu descriptors at once (%ld already open) "
			 "but RLIMIT_NOFILE is %llu; raise it (ulimit -n) or use fewer --fds%s",
			 (unsigned long long)pipes, pb_messaging_kind_names[p->kind],
			 pipes == 1 ? "" : "s", (unsigned long long)need, open_now,
			 (unsigned long long)rl.rlim_cur, p->threads ? " or --groups" : "");
		return -EMFILE;
	}
	/* Privileged processes are not held to RLIMIT_NPROC. */
	if (geteuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && workers + 1 > rl.rlim_cur) {
		snprintf(why, len, "%llu workers (%s) do not fit RLIMIT_NPROC %llu; raise it "
			 "(ulimit -u) or use fewer --groups or --fds",
			 (unsigned long long)workers, p->threads ? "threads" : "processes",
			 (unsigned long long)rl.rlim_cur);
		return -EAGAIN;
	}
	return 0;
}

/* ---------------------------------------------------------------- workers */

static int send_all(const int *out, uint64_t nfds, uint64_t loops, const char *buf,
		    uint64_t size)
{
	for (uint64_t l = 0; l < loops; l++)
		for (uint64_t j = 0; j < nfds; j++) {
			uint64_t done = 0;

			while (done < size) {
				ssize_t n = write(out[j], buf + done, size - done);

				if (n < 0) {
					if (errno == EINTR)
						continue;
					return -errno;
				}
				done += (uint64_t)n;
			}
		}
	return 0;
}

static int receive_all(int fd, uint64_t msgs, char *buf, uint64_t size)
{
	for (uint64_t m = 0; m < msgs; m++) {
		uint64_t done = 0;

		while (done < size) {
			ssize_t n = read(fd, buf + done, size - done);

			if (n < 0) {
				if (errno == EINTR)
					continue;
				return -errno;
			}
			if (n == 0)
				return -ENODATA;
			done += (uint64_t)n;
		}
	}
	return 0;
}

/* Say ready, then wait for the start byte (or for an abort). */
static int wait_start(struct mrun *r)
{
	struct pollfd pfd = { .fd = r->wake[0], .events = POLLIN };
	char c = 'r';

	if (write(r->ready[1], &c, 1) != 1)
		return errno ? -errno : -EIO;
	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			return -errno;
	if (!(pfd.revents & POLLIN) || atomic_load(&r->abort))
		return -ECANCELED;
	return 0;
}

static int worker_body(struct mrun *r, const struct worker *w)
{
	const struct pb_messaging_params *p = r->p;
	struct group *g = &r->groups[w->group];
	char *rbuf = NULL;
	int rc;

	if (w->role == RECEIVER)
		rbuf = malloc(p->size);
	rc = wait_start(r);
	if (!rc && w->role == RECEIVER && !rbuf)
		rc = -ENOMEM;
	if (!rc && w->role == RECEIVER)
		rc = receive_all(g->rfd[w->index], p->fds * p->loops, rbuf, p->size);
	else if (!rc)
		rc = send_all(g->wfd, p->fds, p->loops, r->buf, p->size);
	free(rbuf);
	return rc;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

__attribute__((noreturn))
static void child_main(struct mrun *r, struct worker *w)
{
	struct group *g = &r->groups[w->group];
	int rc;

	pb_cleanup_child_reset();
	/* A dead peer must show as EPIPE, whatever the caller's disposition. */
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != r->parent)
		_exit(ECANCELED);
	sigprocmask(SIG_SETMASK, &r->oldmask, NULL);
	close(r->ready[0]);
	close(r->wake[1]);
	/* Write ends made so far, own pipe's included: a receiver holding
	 * them would never see its senders die. */
	if (w->role == RECEIVER)
		for (unsigned k = 0; k <= w->index; k++)
			close(g->wfd[k]);
	rc = worker_body(r, w);
	_exit(rc == 0 ? 0 : (-rc > 0 && -rc < 126 ? -rc : 125));
}

static void *thread_main(void *arg)
{
	struct worker *w = arg;
	struct mrun *r = w->run;
	struct group *g = &r->groups[w->group];
	int rc = worker_body(r, w);

	if (w->role == RECEIVER && rc)
		close_fd(&g->rfd[w->index]);     /* senders see EPIPE */
	if (w->role == SENDER && atomic_fetch_sub(&g->senders_left, 1) == 1)
		for (uint64_t k = 0; k < r->p->fds; k++)
			close_fd(&g->wfd[k]);    /* short receivers see EOF */
	getrusage(RUSAGE_THREAD, &w->ru);
	w->err = rc;
	return NULL;
}

/* ---------------------------------------------------------------- parent */

static void set_err(struct mrun *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_err(struct mrun *r, const char *fmt, ...)
{
	va_list ap;

	if (r->err[0])
		return; /* the first failure is the cause */
	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
}

static const char *role_name(const struct worker *w)
{
	return w->role == RECEIVER ? "receiver" : "sender";
}

static void worker_err(struct mrun *r, const struct worker *w, int code)
{
	if (code == ENODATA)
		set_err(r, "group %u receiver %u: read: end of file before all messages arrived "
			"(a sender failed)", w->group, w->index);
	else
		set_err(r, "group %u %s %u: %s: %s", w->group, role_name(w), w->index,
			w->role == RECEIVER ? "read" : "write", strerror(code));
}

/*
 * Block the cleanup signals (and, for threads, which inherit the mask,
 * SIGPIPE: a dead peer must show as EPIPE, not end the process).
 */
static void cleanup_block(sigset_t *old, bool threads)
{
	sigset_t s;

	sigemptyset(&s);
	if (threads)
		sigaddset(&s, SIGPIPE);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGHUP);
	sigaddset(&s, SIGALRM);
	sigprocmask(SIG_BLOCK, &s, old);
}

static int make_pipe(const struct mrun *r, int fds[2])
{
	if (r->p->kind == PB_MESSAGING_SOCKETPAIR)
		return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) ? -errno : 0;
	return pipe2(fds, O_CLOEXEC) ? -errno : 0;
}

static int start_worker(struct mrun *r, enum role role, unsigned group, unsigned index)
{
	struct worker *w = &r->w[r->created];

	w->run = r;
	w->role = role;
	w->group = group;
	w->index = index;
	if (r->p->threads) {
		pthread_attr_t a;
		int e;

		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, 256 * 1024);
		e = pthread_create(&w->tid, &a, thread_main, w);
		pthread_attr_destroy(&a);
		if (e) {
			set_err(r, "pthread_create: %s (%zu of %zu workers started)", strerror(e),
				r->created, r->nw);
			return -e;
		}
	} else {
		pid_t pid = fork();

		if (pid < 0) {
			int e = errno;

			set_err(r, "fork: %s (%zu of %zu workers started)", strerror(e), r->created,
				r->nw);
			return -e;
		}
		if (pid == 0)
			child_main(r, w);
		w->pid = pid;
		w->live = true;
		if (pb_cleanup_add_child(pid)) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			set_err(r, "too many children to track");
			return -EAGAIN;
		}
	}
	r->created++;
	return 0;
}

/* Process mode: per group, each receiver right after its pipe, then senders. */
static int spawn_processes(struct mrun *r)
{
	const struct pb_messaging_params *p = r->p;

	for (unsigned g = 0; g < p->groups; g++) {
		struct group *gr = &r->groups[g];
		int rc = 0;

		for (unsigned i = 0; i < p->fds && !rc; i++) {
			int fds[2];

			rc = make_pipe(r, fds);
			if (rc) {
				set_err(r, "group %u: %s: %s", g, pb_messaging_kind_names[p->kind],
					strerror(-rc));
				break;
			}
			gr->rfd[i] = fds[0];
			gr->wfd[i] = fds[1];
			rc = start_worker(r, RECEIVER, g, i);
			close_fd(&gr->rfd[i]);
		}
		for (unsigned i = 0; i < p->fds && !rc; i++)
			rc = start_worker(r, SENDER, g, i);
		for (unsigned i = 0; i < p->fds; i++)
			close_fd(&gr->wfd[i]);
		if (rc)
			return rc;
	}
	return 0;
}

/* Thread mode: all pipes exist for the whole run. */
static int spawn_threads(struct mrun *r)
{
	const struct pb_messaging_params *p = r->p;

	for (unsigned g = 0; g < p->groups; g++) {
		struct group *gr = &r->groups[g];

		atomic_init(&gr->senders_left, (unsigned)p->fds);
		for (unsigned i = 0; i < p->fds; i++) {
			int fds[2], rc = make_pipe(r, fds);

			if (rc) {
				set_err(r, "group %u: %s: %s", g, pb_messaging_kind_names[p->kind],
					strerror(-rc));
				return rc;
			}
			gr->rfd[i] = fds[0];
			gr->wfd[i] = fds[1];
		}
	}
	for (unsigned g = 0; g < p->groups; g++) {
		for (unsigned i = 0; i < p->fds; i++) {
			int rc = start_worker(r, RECEIVER, g, i);

			if (rc)
				return rc;
		}
		for (unsigned i = 0; i < p->fds; i++) {
			int rc = start_worker(r, SENDER, g, i);

			if (rc)
				return rc;
		}
	}
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = (*(struct worker *const *)a)->pid, y = (*(struct worker *const *)b)->pid;

	return (x > y) - (x < y);
}

static struct worker *find_pid(const struct mrun *r, pid_t pid)
{
	size_t lo = 0, hi = r->created;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->by_pid[mid]->pid == pid)
			return r->by_pid[mid];
		if (r->by_pid[mid]->pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void kill_all(struct mrun *r)
{
	for (size_t i = 0; i < r->created; i++)
		if (r->w[i].live)
			kill(r->w[i].pid, SIGKILL);
}

/* Whether a worker process has exited already (without reaping it). */
static bool any_child_gone(const struct mrun *r)
{
	for (size_t i = 0; i < r->created; i++) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		if (r->w[i].live &&
		    waitid(P_PID, (id_t)r->w[i].pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid != 0)
			return true;
	}
	return false;
}

/* Collect one ready byte per worker; bounded: a worker that died early ends it. */
static int await_ready(struct mrun *r)
{
	size_t got = 0;
	char buf[512];

	while (got < r->created) {
		struct pollfd pfd = { .fd = r->ready[0], .events = POLLIN };
		int k = poll(&pfd, 1, 200);
		ssize_t n;

		if (k < 0 && errno != EINTR)
			return -errno;
		if (k <= 0) {
			if (!r->p->threads && any_child_gone(r)) {
				set_err(r, "a worker exited before the start");
				return -EIO;
			}
			continue;
		}
		n = read(r->ready[0], buf, r->created - got < sizeof(buf) ? r->created - got :
			 sizeof(buf));
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (n == 0) {
			set_err(r, "every worker exited before the start");
			return -EIO;
		}
		if (n > 0)
			got += (size_t)n;
	}
	return 0;
}

/* Reap every created process; the first failure gets the others killed. */
static int reap_processes(struct mrun *r, bool killing)
{
	size_t left = 0;
	int rc = 0;

	for (size_t i = 0; i < r->created; i++)
		left += r->w[i].live;
	while (left) {
		struct rusage ru;
		int st;
		pid_t pid = wait4(-1, &st, 0, &ru);
		struct worker *w;

		if (pid < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			/* ECHILD: someone else reaped ours; reap what is left by pid. */
			for (size_t i = 0; i < r->created; i++)
				if (r->w[i].live) {
					kill(r->w[i].pid, SIGKILL);
					waitpid(r->w[i].pid, NULL, 0);
					pb_cleanup_del_child(r->w[i].pid);
					r->w[i].live = false;
				}
			set_err(r, "wait4: %s", strerror(e));
			return -EIO;
		}
		w = find_pid(r, pid);
		if (!w || !w->live)
			continue; /* not one of ours */
		pb_cleanup_del_child(pid);
		w->live = false;
		w->ru = ru;
		left--;
		if (killing || (WIFEXITED(st) && WEXITSTATUS(st) == 0))
			continue;
		if (WIFSIGNALED(st))
			set_err(r, "group %u %s %u: killed by signal %d (%s)", w->group,
				role_name(w), w->index, WTERMSIG(st), strsignal(WTERMSIG(st)));
		else
			worker_err(r, w, WEXITSTATUS(st));
		rc = -EIO;
		killing = true;
		kill_all(r);
	}
	return rc;
}

static int join_threads(struct mrun *r)
{
	int rc = 0;

	for (size_t i = 0; i < r->created; i++) {
		struct worker *w = &r->w[i];

		pthread_join(w->tid, NULL);
		if (w->err && w->err != -ECANCELED && !atomic_load(&r->abort)) {
			worker_err(r, w, -w->err);
			rc = -EIO;
		}
	}
	return rc;
}

static void add_ru(struct pb_messaging_result *res, const struct rusage *ru)
{
	res->voluntary_ctxsw += (uint64_t)ru->ru_nvcsw;
	res->involuntary_ctxsw += (uint64_t)ru->ru_nivcsw;
	res->cpu_user_ns += (uint64_t)pb_timeval_ns(&ru->ru_utime);
	res->cpu_sys_ns += (uint64_t)pb_timeval_ns(&ru->ru_stime);
	res->page_faults += (uint64_t)(ru->ru_minflt + ru->ru_majflt);
}

static int alloc_run(struct mrun *r)
{
	const struct pb_messaging_params *p = r->p;

	r->nw = (size_t)pb_messaging_workers(p);
	r->buf = malloc(p->size);
	r->groups = calloc(p->groups, sizeof(*r->groups));
	r->w = calloc(r->nw, sizeof(*r->w));
	r->by_pid = calloc(r->nw, sizeof(*r->by_pid));
	if (!r->buf || !r->groups || !r->w || !r->by_pid)
		return -ENOMEM;
	memset(r->buf, 'm', p->size);
	for (uint64_t g = 0; g < p->groups; g++) {
		r->groups[g].rfd = malloc(p->fds * sizeof(int));
		r->groups[g].wfd = malloc(p->fds * sizeof(int));
		if (!r->groups[g].rfd || !r->groups[g].wfd)
			return -ENOMEM;
		for (uint64_t i = 0; i < p->fds; i++)
			r->groups[g].rfd[i] = r->groups[g].wfd[i] = -1;
	}
	return 0;
}

static void free_run(struct mrun *r)
{
	for (uint64_t g = 0; r->groups && g < r->p->groups; g++) {
		for (uint64_t i = 0; i < r->p->fds; i++) {
			if (r->groups[g].rfd)
				close_fd(&r->groups[g].rfd[i]);
			if (r->groups[g].wfd)
				close_fd(&r->groups[g].wfd[i]);
		}
		free(r->groups[g].rfd);
		free(r->groups[g].wfd);
	}
	for (int i = 0; i < 2; i++) {
		close_fd(&r->ready[i]);
		close_fd(&r->wake[i]);
	}
	free(r->groups);
	free(r->w);
	free(r->by_pid);
	free(r->buf);
}

/* Undo a half-started run: kill or release the workers, then reap or join. */
static void abort_run(struct mrun *r)
{
	char c = 'x';

	if (r->p->threads) {
		atomic_store(&r->abort, true);
		if (write(r->wake[1], &c, 1) != 1)
			close_fd(&r->wake[1]); /* POLLHUP releases them as well */
		join_threads(r);
	} else {
		kill_all(r);
		reap_processes(r, true);
	}
}

int pb_messaging_run(const struct pb_messaging_params *p, struct pb_messaging_result *res,
		     char *err, size_t errlen)
{
	struct mrun r = { .p = p, .ready = { -1, -1 }, .wake = { -1, -1 }, .err = err,
			  .errlen = errlen, .parent = getpid() };
	uint64_t t0, t1;
	char c = 's';
	int rc;

	memset(res, 0, sizeof(*res));
	if (errlen)
		err[0] = '\0';
	atomic_init(&r.abort, false);
	rc = alloc_run(&r);
	if (rc) {
		set_err(&r, "out of memory");
		goto out;
	}
	if (pipe2(r.ready, O_CLOEXEC) || pipe2(r.wake, O_CLOEXEC)) {
		rc = -errno;
		set_err(&r, "pipe: %s", strerror(-rc));
		goto out;
	}
	/* No signal between fork() and registering the child. */
	cleanup_block(&r.oldmask, p->threads);
	rc = p->threads ? spawn_threads(&r) : spawn_processes(&r);
	if (!p->threads) {
		for (size_t i = 0; i < r.created; i++)
			r.by_pid[i] = &r.w[i];
		qsort(r.by_pid, r.created, sizeof(*r.by_pid), cmp_pid);
	}
	sigprocmask(SIG_SETMASK, &r.oldmask, NULL);
	if (rc) {
		abort_run(&r);
		goto out;
	}
	if (!p->threads) {
		/* Only the workers keep these, so a dead worker shows as EOF. */
		close_fd(&r.ready[1]);
		close_fd(&r.wake[0]);
	}
	rc = await_ready(&r);
	if (rc) {
		abort_run(&r);
		goto out;
	}
	if (p->prof) {
		/* the workers' samples, whichever CPU they ran on */
		pb_prof_filter_reset(p->prof);
		if (p->threads)
			pb_prof_filter(p->prof, getpid());
		for (size_t i = 0; !p->threads && i < r.created; i++)
			pb_prof_filter(p->prof, r.w[i].pid);
		pb_prof_enable(p->prof);
	}
	t0 = pb_clock_ns();
	if (write(r.wake[1], &c, 1) != 1) {
		rc = -errno;
		set_err(&r, "write: %s", strerror(errno));
		abort_run(&r);
		goto out;
	}
	rc = p->threads ? join_threads(&r) : reap_processes(&r, false);
	t1 = pb_clock_ns();
	pb_prof_disable(p->prof);   /* the measured span ends here */
	if (rc)
		goto out;
	for (size_t i = 0; i < r.created; i++)
		add_ru(res, &r.w[i].ru);
	res->elapsed_ns = t1 - t0;
	res->messages = p->groups * p->fds * p->fds * p->loops;
	res->bytes = res->messages * p->size;
out:
	if (p->prof) {
		/* every path ends sampling; a failed run's samples are nobody's */
		pb_prof_disable(p->prof);
		pb_prof_drain(p->prof, rc ? NULL : p->prof_into);
	}
	free_run(&r);
	return rc;
}
