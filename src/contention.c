/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cleanup.h"
#include "clock.h"
#include "contention.h"

#define MAGIC 0x50425257u       /* "PBRW" */
#define POLL_MS 1000

/* A record's header; the payload after it is made from writer and seq. */
struct hdr {
	uint32_t magic;
	uint16_t writer, size;
	uint64_t seq;
	uint32_t check, zero;
};

_Static_assert(sizeof(struct hdr) == PB_MW_HEADER, "the header is PB_MW_HEADER bytes");

struct mw {
	const struct pb_mw_opts *o;
	struct pb_mw_result *res;
	pthread_mutex_t lock;       /* first_bad, call_err, the start gate */
	pthread_cond_t gate;
	int go;                     /* 1 start, -1 give up (a thread could not be made) */
	atomic_int stop;            /* a writer's call failed: the others stop too */
	atomic_int readers_left;
	uint64_t deadline;
	uint64_t sent[PB_MW_MAX];
	atomic_uint_fast64_t got[PB_MW_MAX], got_sum[PB_MW_MAX];
	atomic_uint_fast64_t short_writes, torn, disorder;
};

struct party {
	struct mw *mw;
	unsigned id;
	bool writer;
};

static uint32_t check_of(unsigned writer, uint64_t seq)
{
	uint64_t x = (seq + 1) * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)writer << 40);

	x ^= x >> 29;
	return (uint32_t)(x ^ (x >> 32));
}

static uint8_t payload_byte(unsigned writer, uint64_t seq, size_t i)
{
	return (uint8_t)(writer * 31u + seq * 7u + i);
}

static void make_record(uint8_t *buf, size_t size, unsigned writer, uint64_t seq)
{
	struct hdr h = { MAGIC, (uint16_t)writer, (uint16_t)size, seq, check_of(writer, seq), 0 };

	memcpy(buf, &h, sizeof(h));
	for (size_t i = sizeof(h); i < size; i++)
		buf[i] = payload_byte(writer, seq, i);
}

/* The first failure in words: kept, later ones only counted. */
static void say_bad(struct mw *mw, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say_bad(struct mw *mw, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&mw->lock);
	if (!mw->res->first_bad[0]) {
		va_start(ap, fmt);
		vsnprintf(mw->res->first_bad, sizeof(mw->res->first_bad), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&mw->lock);
}

static void call_failed(struct mw *mw, const char *what, int err)
{
	pthread_mutex_lock(&mw->lock);
	if (!mw->res->call_err) {
		mw->res->call_err = err;
		snprintf(mw->res->call_what, sizeof(mw->res->call_what), "%s", what);
	}
	pthread_mutex_unlock(&mw->lock);
}

/* Wait at the gate; false when the run is given up. */
static bool wait_gate(struct mw *mw)
{
	int go;

	pthread_mutex_lock(&mw->lock);
	while (!mw->go)
		pthread_cond_wait(&mw->gate, &mw->lock);
	go = mw->go;
	pthread_mutex_unlock(&mw->lock);
	return go > 0;
}

/* Wait in poll() for FD to be ready for EV; false after a failure. */
static bool wait_ready(struct mw *mw, int fd, short ev)
{
	struct pollfd p = { .fd = fd, .events = ev };

	if (poll(&p, 1, POLL_MS) < 0 && errno != EINTR) {
		call_failed(mw, "poll", errno);
		return false;
	}
	return true;
}

static void usage_of(struct pb_mw_party *p, const struct rusage *a, const struct rusage *b)
{
	p->vcsw = b->ru_nvcsw - a->ru_nvcsw;
	p->ivcsw = b->ru_nivcsw - a->ru_nivcsw;
}

static void writer(struct party *pt)
{
	struct mw *mw = pt->mw;
	const struct pb_mw_opts *o = mw->o;
	struct pb_mw_party *me = &mw->res->w[pt->id];
	uint8_t buf[4096];
	uint64_t seq = 0;

	for (;; seq++) {
		ssize_t r;

		if (o->records ? seq >= o->records : pb_clock_ns() >= mw->deadline)
			break;
		if (atomic_load(&mw->stop) || pb_watchdog_fired())
			break;
		make_record(buf, o->size, pt->id, seq);
		for (;;) {
			r = write(o->wfd, buf, o->size);
			me->calls++;
			if (r == (ssize_t)o->size)
				break;
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 && errno == EAGAIN && o->nonblock) {
				me->eagain++;
				if (wait_ready(mw, o->wfd, POLLOUT))
					continue;
			} else if (r < 0) {
				call_failed(mw, "write", errno);
			} else {
				/* At most PIPE_BUF bytes: all or nothing (POSIX). */
				atomic_fetch_add(&mw->short_writes, 1);
				say_bad(mw, "writer %u: write(%zu) of record %llu returned %zd: a torn "
					"atomic write", pt->id + 1, o->size, (unsigned long long)seq, r);
			}
			atomic_store(&mw->stop, 1);
			goto out;
		}
		me->bytes += o->size;
		me->records++;
	}
out:
	mw->sent[pt->id] = me->records;
}

/* One record read whole: its header and payload checked, its order among
 * its writer's records this reader saw (LAST), and counted. */
static void check_record(struct mw *mw, unsigned reader, const uint8_t *buf, int64_t *last)
{
	const struct pb_mw_opts *o = mw->o;
	struct hdr h;
	size_t i = sizeof(h);

	memcpy(&h, buf, sizeof(h));
	if (h.magic == MAGIC && h.writer < o->writers && h.size == o->size &&
	    h.check == check_of(h.writer, h.seq))
		for (; i < o->size && buf[i] == payload_byte(h.writer, h.seq, i); i++)
			;
	if (h.magic != MAGIC || h.writer >= o->writers || h.size != o->size ||
	    h.check != check_of(h.writer, h.seq) || i < o->size) {
		atomic_fetch_add(&mw->torn, 1);
		say_bad(mw, "reader %u: a record that is not whole (magic %#x, writer %u, seq %llu, "
			"size %u%s)", reader + 1, (unsigned)h.magic, (unsigned)h.writer + 1,
			(unsigned long long)h.seq, (unsigned)h.size,
			i < o->size && h.magic == MAGIC ? ", payload differs" : "");
		return;
	}
	if (last[h.writer] >= 0 && (int64_t)h.seq <= last[h.writer]) {
		atomic_fetch_add(&mw->disorder, 1);
		say_bad(mw, "reader %u: writer %u's record %llu after its record %lld", reader + 1,
			(unsigned)h.writer + 1, (unsigned long long)h.seq, (long long)last[h.writer]);
	}
	last[h.writer] = (int64_t)h.seq;
	atomic_fetch_add(&mw->got[h.writer], 1);
	atomic_fetch_add(&mw->got_sum[h.writer], h.seq);
}

static void reader(struct party *pt)
{
	struct mw *mw = pt->mw;
	const struct pb_mw_opts *o = mw->o;
	struct pb_mw_party *me = &mw->res->r[pt->id];
	int64_t last[PB_MW_MAX];
	uint8_t buf[4096];

	for (unsigned w = 0; w < PB_MW_MAX; w++)
		last[w] = -1;
	for (;;) {
		ssize_t r = read(o->rfd, buf, o->size);

		me->calls++;
		if (r == (ssize_t)o->size) {
			me->bytes += (uint64_t)r;
			me->records++;
			check_record(mw, pt->id, buf, last);
			continue;
		}
		if (r == 0)
			break;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN && o->nonblock) {
			me->eagain++;
			if (wait_ready(mw, o->rfd, POLLIN))
				continue;
			break;
		}
		if (r < 0) {
			call_failed(mw, "read", errno);
			break;
		}
		/* Part of a record: records of SIZE are all the pipe ever holds. */
		me->bytes += (uint64_t)r;
		atomic_fetch_add(&mw->torn, 1);
		say_bad(mw, "reader %u: read(%zu) returned %zd: part of a record", pt->id + 1,
			o->size, r);
	}
	/* The last reader out closes the read end: a writer still blocked on
	 * the full pipe gets EPIPE instead of waiting for ever. */
	if (atomic_fetch_sub(&mw->readers_left, 1) == 1)
		close(o->rfd);
}

static void *party_main(void *arg)
{
	struct party *pt = arg;
	struct rusage a, b;
	int ok = getrusage(RUSAGE_THREAD, &a) == 0;

	if (!wait_gate(pt->mw))
		return NULL;
	if (pt->writer)
		writer(pt);
	else
		reader(pt);
	if (ok && getrusage(RUSAGE_THREAD, &b) == 0)
		usage_of(pt->writer ? &pt->mw->res->w[pt->id] : &pt->mw->res->r[pt->id], &a, &b);
	return NULL;
}

double pb_mw_fairness(const uint64_t *v, unsigned n)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (unsigned i = 0; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	return n < 2 || lo == 0 ? NAN : (double)hi / (double)lo;
}

/* After the run: each writer's records against those read. */
static void tally(struct mw *mw)
{
	struct pb_mw_result *res = mw->res;

	res->short_writes = atomic_load(&mw->short_writes);
	res->torn = atomic_load(&mw->torn);
	res->disorder = atomic_load(&mw->disorder);
	for (unsigned w = 0; w < mw->o->writers; w++) {
		uint64_t got = atomic_load(&mw->got[w]), sum = atomic_load(&mw->got_sum[w]);
		uint64_t n = mw->sent[w], want = n ? n * (n - 1) / 2 : 0;

		if (got < n) {
			res->lost += n - got;
			say_bad(mw, "writer %u: %llu records written, %llu read", w + 1,
				(unsigned long long)n, (unsigned long long)got);
		} else if (got > n) {
			res->duplicated += got - n;
			say_bad(mw, "writer %u: %llu records written, %llu read", w + 1,
				(unsigned long long)n, (unsigned long long)got);
		} else if (sum != want) {
			/* as many as written, but not those: one lost, another twice */
			res->lost++;
			res->duplicated++;
			say_bad(mw, "writer %u: %llu records read, but not the %llu written (their "
				"sequence numbers differ)", w + 1, (unsigned long long)got,
				(unsigned long long)n);
		}
	}
}

int pb_mw_run(const struct pb_mw_opts *o, struct pb_mw_result *res)
{
	struct party pt[2 * PB_MW_MAX];
	pthread_t th[2 * PB_MW_MAX];
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	struct mw mw = { .o = o, .res = res };
	unsigned n = 0, nr = o->readers, nw = o->writers;
	uint64_t t0;
	int err = 0;

	memset(res, 0, sizeof(*res));
	for (unsigned i = 0; i < PB_MW_MAX; i++)
		res->w[i].vcsw = res->w[i].ivcsw = res->r[i].vcsw = res->r[i].ivcsw = -1;
	pthread_mutex_init(&mw.lock, NULL);
	pthread_cond_init(&mw.gate, NULL);
	atomic_init(&mw.stop, 0);
	atomic_init(&mw.readers_left, (int)nr);
	/* A writer after the last reader is gone gets EPIPE, not the signal. */
	sigaction(SIGPIPE, &ign, &old);
	for (unsigned i = 0; i < nr + nw && !err; i++) {
		pt[i] = (struct party){ &mw, i < nr ? i : i - nr, i >= nr };
		err = pthread_create(&th[i], NULL, party_main, &pt[i]);
		if (!err)
			n++;
	}
	pthread_mutex_lock(&mw.lock);
	mw.go = err ? -1 : 1;
	t0 = pb_clock_ns();
	mw.deadline = t0 + o->duration_ns;
	pthread_cond_broadcast(&mw.gate);
	pthread_mutex_unlock(&mw.lock);
	if (err) {
		res->harness_err = err;
		snprintf(res->harness_what, sizeof(res->harness_what), "pthread_create (thread %u "
			 "of %u)", n + 1, nr + nw);
	}
	/* The writers (started after the readers), then the write end closes. */
	for (unsigned i = nr; i < n; i++)
		pthread_join(th[i], NULL);
	close(o->wfd);
	for (unsigned i = 0; i < n && i < nr; i++)
		pthread_join(th[i], NULL);
	res->elapsed_ns = pb_clock_ns() - t0;
	if (n < nr || atomic_load(&mw.readers_left) > 0)
		close(o->rfd);  /* no reader got to close it */
	sigaction(SIGPIPE, &old, NULL);
	if (!err)
		tally(&mw);
	pthread_cond_destroy(&mw.gate);
	pthread_mutex_destroy(&mw.lock);
	if (err)
		return -err;
	if (res->call_err)
		return -res->call_err;
	if (res->short_writes || res->torn || res->disorder || res->lost || res->duplicated)
		return -EIO;
	return 0;
}
