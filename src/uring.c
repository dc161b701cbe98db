/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <dirent.h>
#include <json-c/json.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

#include "cleanup.h"
#include "output.h"
#include "uring.h"

const char *const pb_uring_path_words[] = { "unknown", "inline", "io-wq", NULL };

const char *pb_uring_why(int err)
{
	switch (err) {
	case ENOSYS:
		return pb_uring_built() ? "this kernel has no io_uring (CONFIG_IO_URING off), or a "
					  "seccomp filter refuses io_uring_setup" :
					  "built without liburing (Debian: liburing-dev)";
	case EPERM:
	case EACCES:
		return "io_uring is disabled (sysctl kernel.io_uring_disabled) or refused by a "
		       "seccomp filter (containers)";
	case ENOMEM:
		return "no memory for a ring (RLIMIT_MEMLOCK?)";
	default:
		return strerror(err);
	}
}

void pb_uring_probe_fields(struct json_object *o, const struct pb_uring_probe *u, bool probed)
{
	bool ok = probed && u->available && u->fresh != PB_URING_UNKNOWN;

	pb_json_add_str(o, "io_uring_path", ok ? pb_uring_path_words[u->fresh] : NULL);
	pb_json_add_str(o, "io_uring_path_after_splice",
			ok && u->spliced ? pb_uring_path_words[u->spliced] : NULL);
	json_object_object_add(o, "io_uring_workers", ok ?
			       json_object_new_int(u->workers_fresh) : NULL);
	json_object_object_add(o, "io_uring_nowait", ok && u->nowait >= 0 ?
			       json_object_new_boolean(u->nowait == 1) : NULL);
	json_object_object_add(o, "io_uring_workers_after_splice", ok && u->spliced ?
			       json_object_new_int(u->workers_spliced) : NULL);
	pb_json_add_str(o, "io_uring_probe_note", probed && u->why[0] ?
			u->why : NULL);
}

void pb_uring_probe_text(FILE *fp, const struct pb_uring_probe *probe, const bool *probed,
			 const enum pb_kind *kinds, size_t nkinds)
{
	bool any = false;

	for (size_t k = 0; k < nkinds; k++) {
		const struct pb_uring_probe *u = &probe[kinds[k]];

		if (!probed[kinds[k]])
			continue;
		fprintf(fp, "\n%-11s %s: ", any ? "" : "io_uring", pb_kind_names[kinds[k]]);
		any = true;
		if (!u->available || u->fresh == PB_URING_UNKNOWN) {
			fprintf(fp, "not probed: %s", u->why);
			continue;
		}
		fprintf(fp, "%s", u->fresh == PB_URING_IOWQ ? "io-wq: a read of the empty pipe "
			"is done by an io-wq worker thread (punted)" : "inline: a read of the empty "
			"pipe waits on poll and completes without an io-wq worker");
		if (u->nowait >= 0)
			fprintf(fp, "; RWF_NOWAIT %s", u->nowait ? "taken" : "refused (no "
				"FMODE_NOWAIT: polled, 100 ms timeout linked)");
		if (u->spliced)
			fprintf(fp, "; after vmsplice and splice: %s", u->spliced == PB_URING_IOWQ ?
				"punted to io-wq" : "inline");
		else if (u->why[0])
			fprintf(fp, "; after vmsplice and splice: not probed: %s", u->why);
	}
}

#ifdef HAVE_LIBURING

struct pb_uring {
	struct io_uring ring;
	/* RWF_NOWAIT on each op: O_NONBLOCK alone does not keep io_uring from
	 * waiting on a full pipe; the descriptors for which the kernel refuses
	 * it (EOPNOTSUPP: no FMODE_NOWAIT) since pb_uring_reset go plain_op */
	int plain[4];
	unsigned nplain;
	bool used_plain;
};

bool pb_uring_built(void)
{
	return true;
}

int pb_uring_open(struct pb_uring **u, const char **what)
{
	int r;

	*what = "io_uring_queue_init";
	*u = calloc(1, sizeof(**u));
	if (!*u)
		return -ENOMEM;
	r = io_uring_queue_init(4, &(*u)->ring, 0);
	if (r) {
		free(*u);
		*u = NULL;
	}
	return r;
}

void pb_uring_close(struct pb_uring *u)
{
	if (!u)
		return;
	io_uring_queue_exit(&u->ring);
	free(u);
}

/* The one submission in the ring, and its completion. */
/*
 * Without RWF_NOWAIT (the kernel refuses it for this file: no FMODE_NOWAIT)
 * io_uring may wait for the pipe whatever O_NONBLOCK says: an op is then
 * submitted only when poll() says the end is ready, linked to a 100 ms
 * timeout; one cancelled by it (a write larger than the room left) counts
 * what it moved, or is EAGAIN.
 */
static ssize_t complete(struct pb_uring *u);

#define PLAIN_TIMEOUT_NS 100000000LL

/* A write (WRITE) or read of N bytes at BUF in the ring's next entry, or
 * NULL with errno EBUSY when the ring is full. */
static struct io_uring_sqe *prep(struct pb_uring *u, bool write, int fd, void *buf, size_t n)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe) {
		errno = EBUSY;
		return NULL;
	}
	if (write)
		io_uring_prep_write(sqe, fd, buf, (unsigned)n, 0);
	else
		io_uring_prep_read(sqe, fd, buf, (unsigned)n, 0);
	return sqe;
}

static ssize_t plain_op(struct pb_uring *u, bool write, int fd, void *buf, size_t n)
{
	struct pollfd p = { .fd = fd, .events = write ? POLLOUT : POLLIN };
	struct __kernel_timespec ts = { 0, PLAIN_TIMEOUT_NS };
	struct io_uring_sqe *sqe, *t;
	int res = -EIO, r;

	if (poll(&p, 1, 0) == 0) {
		errno = EAGAIN;
		return -1;
	}
	sqe = prep(u, write, fd, buf, n);
	t = sqe ? io_uring_get_sqe(&u->ring) : NULL;
	if (!t) {
		errno = EBUSY;
		return -1;
	}
	sqe->flags |= IOSQE_IO_LINK;
	io_uring_sqe_set_data64(sqe, 1);
	io_uring_prep_link_timeout(t, &ts, 0);
	io_uring_sqe_set_data64(t, 2);
	r = io_uring_submit_and_wait(&u->ring, 2);
	for (int got = 0; r >= 0 && got < 2; got++) {
		struct io_uring_cqe *cqe;

		r = io_uring_wait_cqe(&u->ring, &cqe);
		if (r < 0)
			break;
		if (io_uring_cqe_get_data64(cqe) == 1)
			res = cqe->res;
		io_uring_cqe_seen(&u->ring, cqe);
	}
	if (r < 0) {
		errno = -r;
		return -1;
	}
	if (res == -ECANCELED || res == -EINTR)
		res = -EAGAIN;
	if (res < 0) {
		errno = -res;
		return -1;
	}
	return res;
}

/* One write (WRITE) or read of N bytes at BUF through the ring. */
static ssize_t op(struct pb_uring *u, bool write, int fd, void *buf, size_t n)
{
	struct io_uring_sqe *sqe;
	ssize_t r;

	for (unsigned i = 0; i < u->nplain; i++)
		if (u->plain[i] == fd)
			return plain_op(u, write, fd, buf, n);
	sqe = prep(u, write, fd, buf, n);
	if (!sqe)
		return -1;
	sqe->rw_flags = RWF_NOWAIT;
	r = complete(u);
	if (r < 0 && errno == EOPNOTSUPP) {
		if (u->nplain < sizeof(u->plain) / sizeof(u->plain[0]))
			u->plain[u->nplain++] = fd;
		u->used_plain = true;
		return plain_op(u, write, fd, buf, n);
	}
	return r;
}

void pb_uring_reset(struct pb_uring *u)
{
	if (u)
		u->nplain = 0;
}

bool pb_uring_used_plain(const struct pb_uring *u)
{
	return u && u->used_plain;
}

/* R < 0: its errno; else CQE's result (consumed), as a system call's. */
static ssize_t result_of(struct pb_uring *u, int r, struct io_uring_cqe *cqe)
{
	int res;

	if (r < 0) {
		errno = -r;
		return -1;
	}
	res = cqe->res;
	io_uring_cqe_seen(&u->ring, cqe);
	if (res < 0) {
		errno = -res;
		return -1;
	}
	return res;
}

static ssize_t complete(struct pb_uring *u)
{
	struct io_uring_cqe *cqe = NULL;
	int r = io_uring_submit_and_wait(&u->ring, 1);

	if (r >= 0)
		r = io_uring_peek_cqe(&u->ring, &cqe);
	return result_of(u, r, cqe);
}

ssize_t pb_uring_write(struct pb_uring *u, int fd, const void *buf, size_t n)
{
	return op(u, true, fd, (void *)buf, n);
}

ssize_t pb_uring_read(struct pb_uring *u, int fd, void *buf, size_t n)
{
	return op(u, false, fd, buf, n);
}

/*
 * One op without RWF_NOWAIT: io_uring waits for the pipe its own way (poll
 * armed inside the kernel, or an io-wq worker that blocks in the read),
 * which is what latency's "block" measures.  The wait is cut into 100 ms
 * slices so that the watchdog is seen (ETIMEDOUT; the op left in flight is
 * cancelled when the ring is closed).
 */
static ssize_t op_wait(struct pb_uring *u, bool write, int fd, void *buf, size_t n)
{
	struct __kernel_timespec ts = { 0, PLAIN_TIMEOUT_NS };
	struct io_uring_cqe *cqe = NULL;
	int r;

	if (!prep(u, write, fd, buf, n))
		return -1;
	r = io_uring_submit(&u->ring);
	while (r >= 0) {
		r = io_uring_wait_cqe_timeout(&u->ring, &cqe, &ts);
		if (r == 0)
			break;
		if (r != -ETIME && r != -EINTR)
			break;
		if (pb_watchdog_fired()) {
			errno = ETIMEDOUT;
			return -1;
		}
		r = 0;
	}
	return result_of(u, r, cqe);
}

ssize_t pb_uring_write_wait(struct pb_uring *u, int fd, const void *buf, size_t n)
{
	return op_wait(u, true, fd, (void *)buf, n);
}

ssize_t pb_uring_read_wait(struct pb_uring *u, int fd, void *buf, size_t n)
{
	return op_wait(u, false, fd, buf, n);
}

/* The io-wq worker threads of this process ("iou-wrk-PID"). */
static int count_workers(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		char path[300], comm[64] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		if ((f = fopen(path, "re"))) {
			if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "iou-wrk", 7))
				n++;
			fclose(f);
		}
	}
	if (d)
		closedir(d);
	return n;
}

struct probe_msg {
	int err;                    /* io_uring_queue_init's, positive; 0 ok */
	int workers;                /* -1: the probe itself failed (why) */
	int nowait;                 /* an RWF_NOWAIT read of the empty pipe: 1 EAGAIN,
				       0 EOPNOTSUPP (no FMODE_NOWAIT), -1 else */
	char why[160];
};

/* Move a page through the pipe with vmsplice, then with splice from a
 * memfd, each read back. */
static int splice_through(const struct pb_endpoint *ep, char *why, size_t len)
{
	static char page[4096];
	struct iovec iov = { page, sizeof(page) };
	loff_t off = 0;
	int mfd;

	if (vmsplice(ep->wfd, &iov, 1, 0) != (ssize_t)sizeof(page) ||
	    read(ep->rfd, page, sizeof(page)) != (ssize_t)sizeof(page)) {
		snprintf(why, len, "vmsplice through the pipe: %s", strerror(errno));
		return -1;
	}
	mfd = memfd_create("pipebench-probe", MFD_CLOEXEC);
	if (mfd < 0 || write(mfd, page, sizeof(page)) != (ssize_t)sizeof(page) ||
	    splice(mfd, &off, ep->wfd, NULL, sizeof(page), 0) != (ssize_t)sizeof(page) ||
	    read(ep->rfd, page, sizeof(page)) != (ssize_t)sizeof(page)) {
		snprintf(why, len, "splice through the pipe: %s", strerror(errno));
		if (mfd >= 0)
			close(mfd);
		return -1;
	}
	close(mfd);
	return 0;
}

/* In a child: one read of the empty pipe through a fresh ring, and the
 * io-wq workers that appear while it waits. */
static void probe_child(enum pb_kind kind, const char *dir, bool spliced, int out)
{
	struct pb_endpoint_opts eo = { .dir = dir };
	struct probe_msg m = { .workers = -1 };
	struct __kernel_timespec two = { 2, 0 };
	struct io_uring_cqe *cqe;
	struct pb_endpoint ep;
	struct io_uring ring;
	const char *what = NULL;
	char c = 'x';
	int r;

	r = pb_endpoint_open(&ep, kind, &eo, &what);
	if (r) {
		snprintf(m.why, sizeof(m.why), "%s: %s", what ? what : "open", strerror(-r));
		goto out;
	}
	if (spliced && splice_through(&ep, m.why, sizeof(m.why)))
		goto close;
	r = io_uring_queue_init(4, &ring, 0);
	if (r) {
		m.err = -r;
		snprintf(m.why, sizeof(m.why), "%s", pb_uring_why(-r));
		goto close;
	}
	/* RWF_NOWAIT: whether the kernel lets io_uring try the pipe without waiting */
	{
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		io_uring_prep_read(sqe, ep.rfd, &c, 1, 0);
		sqe->rw_flags = RWF_NOWAIT;
		m.nowait = -1;
		if (io_uring_submit(&ring) == 1 &&
		    io_uring_wait_cqe_timeout(&ring, &cqe, &two) == 0) {
			m.nowait = cqe->res == -EAGAIN ? 1 : cqe->res == -EOPNOTSUPP ? 0 : -1;
			io_uring_cqe_seen(&ring, cqe);
		}
	}
	io_uring_prep_read(io_uring_get_sqe(&ring), ep.rfd, &c, 1, 0);
	if ((r = io_uring_submit(&ring)) != 1) {
		snprintf(m.why, sizeof(m.why), "io_uring_submit: %s", strerror(r < 0 ? -r : EIO));
		goto exit;
	}
	/* A worker, when the read is punted, appears within milliseconds. */
	for (int i = 0; i < 20 && (m.workers = count_workers()) == 0; i++)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	if (write(ep.wfd, &c, 1) != 1 || io_uring_wait_cqe_timeout(&ring, &cqe, &two) != 0) {
		snprintf(m.why, sizeof(m.why), "the read of the pipe did not complete after a write");
		m.workers = -1;
		goto exit;
	}
	if (cqe->res != 1) {
		snprintf(m.why, sizeof(m.why), "the read of the pipe gave %d", cqe->res);
		m.workers = -1;
	}
	io_uring_cqe_seen(&ring, cqe);
	/* a read that waited on poll may still be done by a worker once the
	 * byte is there (no FMODE_NOWAIT): the worker stays a while, idle */
	if (m.workers == 0)
		m.workers = count_workers();
exit:
	io_uring_queue_exit(&ring);
close:
	pb_endpoint_close(&ep);
out:
	if (write(out, &m, sizeof(m)) != (ssize_t)sizeof(m))
		_exit(2);
	_exit(0);
}

/* One probe in a child process of its own; its message in M. */
static int probe_once(enum pb_kind kind, const char *dir, bool spliced, struct probe_msg *m)
{
	int fd[2], st;
	pid_t pid;
	ssize_t n;

	memset(m, 0, sizeof(*m));
	if (pipe2(fd, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	pid = pb_cleanup_fork();
	if (pid < 0) {
		int e = errno;

		close(fd[0]);
		close(fd[1]);
		return -e;
	}
	if (pid == 0) {
		close(fd[0]);
		probe_child(kind, dir, spliced, fd[1]);
	}
	close(fd[1]);
	n = read(fd[0], m, sizeof(*m));
	close(fd[0]);
	/* the child is done once it wrote; a child that died wrote nothing */
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	pb_cleanup_del_child(pid);
	if (n != (ssize_t)sizeof(*m)) {
		m->workers = -1;
		snprintf(m->why, sizeof(m->why), "the probe's process ended without an answer");
	}
	return 0;
}

int pb_uring_probe(enum pb_kind kind, const char *dir, struct pb_uring_probe *out)
{
	struct probe_msg m;
	int r;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < 2; i++) {
		r = probe_once(kind, dir, i == 1, &m);
		if (r)
			return r;
		if (m.err) {
			out->err = m.err;
			snprintf(out->why, sizeof(out->why), "%s", m.why);
			return 0;
		}
		out->available = true;
		if (m.workers < 0) {
			snprintf(out->why, sizeof(out->why), "%s", m.why);
			return 0;
		}
		if (i == 0) {
			out->nowait = m.nowait;
			out->workers_fresh = m.workers;
			out->fresh = m.workers ? PB_URING_IOWQ : PB_URING_INLINE;
		} else {
			out->workers_spliced = m.workers;
			out->spliced = m.workers ? PB_URING_IOWQ : PB_URING_INLINE;
		}
	}
	return 0;
}

#else /* !HAVE_LIBURING */

bool pb_uring_built(void)
{
	return false;
}

int pb_uring_open(struct pb_uring **u, const char **what)
{
	*u = NULL;
	*what = "liburing";
	return -ENOSYS;
}

void pb_uring_close(struct pb_uring *u)
{
	(void)u;
}

void pb_uring_reset(struct pb_uring *u)
{
	(void)u;
}

bool pb_uring_used_plain(const struct pb_uring *u)
{
	(void)u;
	return false;
}

ssize_t pb_uring_write(struct pb_uring *u, int fd, const void *buf, size_t n)
{
	(void)u, (void)fd, (void)buf, (void)n;
	errno = ENOSYS;
	return -1;
}

ssize_t pb_uring_read(struct pb_uring *u, int fd, void *buf, size_t n)
{
	(void)u, (void)fd, (void)buf, (void)n;
	errno = ENOSYS;
	return -1;
}

ssize_t pb_uring_write_wait(struct pb_uring *u, int fd, const void *buf, size_t n)
{
	return pb_uring_write(u, fd, buf, n);
}

ssize_t pb_uring_read_wait(struct pb_uring *u, int fd, void *buf, size_t n)
{
	return pb_uring_read(u, fd, buf, n);
}

int pb_uring_probe(enum pb_kind kind, const char *dir, struct pb_uring_probe *out)
{
	(void)kind, (void)dir;
	memset(out, 0, sizeof(*out));
	out->err = ENOSYS;
	snprintf(out->why, sizeof(out->why), "%s", pb_uring_why(ENOSYS));
	return 0;
}

#endif
