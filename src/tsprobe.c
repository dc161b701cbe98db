/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#include <unistd.h>

#include <json-c/json.h>

#include "checkproc.h"
#include "cleanup.h"
#include "clock.h"
#include "output.h"
#include "tsprobe.h"

int pb_ts_cmp(const struct timespec *a, const struct timespec *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}

const char *const pb_ts_op_names[] = {
	"write", "read", "splice_in", "splice_out", "vmsplice_in", "vmsplice_out",
	"tee_in", "tee_out", NULL
};
const char *const pb_ts_op_descr[] = {
	"write(2) into the pipe",
	"read(2) from the pipe",
	"splice(2) from a memfd into the pipe",
	"splice(2) from the pipe into a memfd",
	"vmsplice(2) of user memory into the pipe",
	"vmsplice(2) from the pipe into user memory",
	"tee(2) from another pipe into the pipe",
	"tee(2) from the pipe into another pipe",
	NULL
};
const char *const pb_ts_field_names[] = { "atime", "mtime", "ctime", NULL };
const char *const pb_ts_state_names[] = {
	"unchanged", "updated", "undetermined", "inconsistent", NULL
};
const char *const pb_ts_verdict_names[] = {
	"frozen", "updated", "mixed", "inconsistent", "undetermined", NULL
};

#define PAST_SEC 946684800L    /* 2000-01-01 00:00:00 UTC: representable everywhere */
#define DATA_LEN 16
#define PIPEFS_MAGIC_ 0x50495045
#define DEFAULT_WAIT_CAP_NS (200ULL * 1000000ULL)

/* Everything one (target, operation) needs for one repetition. */
struct slot {
	struct pb_ts_target *t;
	enum pb_ts_op op;
	int rfd, wfd;           /* the pipe or FIFO under test */
	int aux_r, aux_w;       /* helper pipe for tee */
	int memfd;              /* helper file for splice */
	char path[PATH_MAX];    /* FIFO path */
	struct pb_ts_sample *s;
	bool skip;              /* set up failed or op known unsupported */
};

static const char data[DATA_LEN] = "pipebench-tsprob";

long pb_ts_coarse_res_ns(void)
{
	struct timespec r;

	if (clock_getres(CLOCK_REALTIME_COARSE, &r) != 0)
		return 10000000L;
	return r.tv_sec * 1000000000L + r.tv_nsec;
}

long pb_ts_nap_ns(long res_ns)
{
	long nap = res_ns / 8;

	return nap < 50000 ? 50000 : nap > 1000000 ? 1000000 : nap;
}

static void stat_times(const struct stat *st, struct timespec *t)
{
	t[PB_TS_ATIME] = st->st_atim;
	t[PB_TS_MTIME] = st->st_mtim;
	t[PB_TS_CTIME] = st->st_ctim;
}

/* ---------------------------------------------------------- mount info */

static const struct { unsigned long magic; const char *name; } magics[] = {
	{ 0x01021994, "tmpfs" }, { 0xEF53, "ext4" }, { 0x58465342, "xfs" },
	{ 0x9123683E, "btrfs" }, { 0x2FC12FC1, "zfs" }, { 0x794C7630, "overlay" },
	{ 0x6969, "nfs" }, { 0x4d44, "vfat" }, { 0x858458f6, "ramfs" },
	{ 0xF2F52010, "f2fs" }, { 0x65735546, "fuse" }, { PIPEFS_MAGIC_, "pipefs" },
};

const char *pb_ts_magic_name(unsigned long magic)
{
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (magic == magics[i].magic)
			return magics[i].name;
	return NULL;
}

/* Find the mountinfo line for DEV whose mount point is the longest prefix of REAL. */
static void mountinfo_lookup(dev_t dev, const char *real, struct pb_ts_mount *m)
{
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	size_t best = 0;

	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		unsigned maj, min;
		char mp[1024], *sep, fstype[64];
		size_t len;

		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &maj, &min, mp) != 3)
			continue;
		if (makedev(maj, min) != dev)
			continue;
		len = strlen(mp);
		if (strncmp(real, mp, len) != 0 ||
		    (len > 1 && real[len] != '/' && real[len] != '\0'))
			continue;
		if (len < best)
			continue;
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%63s", fstype) != 1)
			continue;
		best = len;
		snprintf(m->fstype, sizeof(m->fstype), "%s", fstype);
		snprintf(m->mountpoint, sizeof(m->mountpoint), "%s", mp);
	}
	fclose(fp);
}

int pb_ts_mount_describe(const char *path, int fd, struct pb_ts_mount *m)
{
	struct statfs sf;
	struct statvfs sv;
	struct stat st;
	char real[PATH_MAX];
	int r;

	memset(m, 0, sizeof(*m));
	r = path ? statfs(path, &sf) : fstatfs(fd, &sf);
	if (r != 0)
		return -errno;
	if (pb_ts_magic_name((unsigned long)sf.f_type))
		snprintf(m->fstype, sizeof(m->fstype), "%s", pb_ts_magic_name((unsigned long)sf.f_type));
	else
		snprintf(m->fstype, sizeof(m->fstype), "unknown (magic 0x%lx)",
			 (unsigned long)sf.f_type);
	if ((unsigned long)sf.f_type == PIPEFS_MAGIC_) {
		/* Kernel-internal mount: no mount options apply. */
		snprintf(m->atime_policy, sizeof(m->atime_policy), "internal");
		return 0;
	}
	r = path ? statvfs(path, &sv) : fstatvfs(fd, &sv);
	if (r != 0)
		return -errno;
	m->noatime = sv.f_flag & ST_NOATIME;
	m->readonly = sv.f_flag & ST_RDONLY;
	snprintf(m->atime_policy, sizeof(m->atime_policy), "%s",
		 m->noatime ? "noatime" : (sv.f_flag & ST_RELATIME) ? "relatime" : "strictatime");
	if (path && realpath(path, real) && stat(real, &st) == 0)
		mountinfo_lookup(st.st_dev, real, m);
	return 0;
}

/* ------------------------------------------------------------- set-up */

static void slot_close(struct slot *sl)
{
	int *fds[] = { &sl->rfd, &sl->wfd, &sl->aux_r, &sl->aux_w, &sl->memfd };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
	if (sl->path[0]) {
		unlink(sl->path);
		pb_cleanup_del_path(sl->path);
		sl->path[0] = '\0';
	}
}

static int open_target(struct slot *sl, const struct pb_ts_opts *o, unsigned idx,
		       const char **what)
{
	int noatime = (sl->t->flags & PB_FLAG_NOATIME) ? O_NOATIME : 0;
	int fd[2];

	if (sl->t->kind == PB_KIND_ANON) {
		*what = noatime ? "pipe2(O_NOATIME)" : "pipe2";
		if (pipe2(fd, O_CLOEXEC | O_NONBLOCK | noatime) != 0)
			return -errno;
		sl->rfd = fd[0];
		sl->wfd = fd[1];
		return 0;
	}
	*what = "mkfifo";
	if (!o->dir)
		return -EINVAL;
	if ((size_t)snprintf(sl->path, sizeof(sl->path), "%s/ts-%u", o->dir, idx) >=
	    sizeof(sl->path)) {
		sl->path[0] = '\0';
		return -ENAMETOOLONG;
	}
	if (mkfifo(sl->path, 0600) != 0) {
		sl->path[0] = '\0';
		return -errno;
	}
	if (pb_cleanup_add_path(sl->path, 0) != 0)
		return -ENOMEM;
	/* Read end first and nonblocking, so neither open can block. */
	*what = "open FIFO read end";
	sl->rfd = open(sl->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | noatime);
	if (sl->rfd < 0)
		return -errno;
	*what = "open FIFO write end";
	sl->wfd = open(sl->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (sl->wfd < 0)
		return -errno;
	return 0;
}

static int prefill(int fd)
{
	ssize_t n = write(fd, data, DATA_LEN);

	if (n == DATA_LEN)
		return 0;
	return n < 0 ? -errno : -EIO;
}

/* Make the endpoint and whatever the operation needs, with data in place. */
static int slot_setup(struct slot *sl, const struct pb_ts_opts *o, unsigned idx,
		      const char **what)
{
	int r = open_target(sl, o, idx, what);
	int fd[2];

	if (r)
		return r;
	switch (sl->op) {
	case PB_TS_READ: case PB_TS_SPLICE_OUT: case PB_TS_VMSPLICE_OUT: case PB_TS_TEE_OUT:
		*what = "write (prefill)";
		r = prefill(sl->wfd);
		if (r)
			return r;
		break;
	default:
		break;
	}
	if (sl->op == PB_TS_SPLICE_IN || sl->op == PB_TS_SPLICE_OUT) {
		*what = "memfd_create";
		sl->memfd = (int)memfd_create("pipebench-ts", MFD_CLOEXEC);
		if (sl->memfd < 0)
			return -errno;
		if (sl->op == PB_TS_SPLICE_IN) {
			*what = "write (memfd)";
			if (write(sl->memfd, data, DATA_LEN) != DATA_LEN)
				return -EIO;
		}
	}
	if (sl->op == PB_TS_TEE_IN || sl->op == PB_TS_TEE_OUT) {
		*what = "pipe2 (helper)";
		if (pipe2(fd, O_CLOEXEC | O_NONBLOCK) != 0)
			return -errno;
		sl->aux_r = fd[0];
		sl->aux_w = fd[1];
		if (sl->op == PB_TS_TEE_IN) {
			*what = "write (helper pipe)";
			r = prefill(sl->aux_w);
			if (r)
				return r;
		}
	}
	return 0;
}

/* Run the operation once; 0 or -errno. */
static int slot_do(struct slot *sl)
{
	char buf[DATA_LEN];
	struct iovec iov = { .iov_base = buf, .iov_len = DATA_LEN };
	struct iovec iov_in = { .iov_base = (void *)data, .iov_len = DATA_LEN };
	loff_t off = 0;
	ssize_t n = -1;

	switch (sl->op) {
	case PB_TS_WRITE: n = write(sl->wfd, data, DATA_LEN); break;
	case PB_TS_READ: n = read(sl->rfd, buf, DATA_LEN); break;
	case PB_TS_SPLICE_IN:
		n = splice(sl->memfd, &off, sl->wfd, NULL, DATA_LEN, SPLICE_F_NONBLOCK);
		break;
	case PB_TS_SPLICE_OUT:
		n = splice(sl->rfd, NULL, sl->memfd, &off, DATA_LEN, SPLICE_F_NONBLOCK);
		break;
	case PB_TS_VMSPLICE_IN: n = vmsplice(sl->wfd, &iov_in, 1, SPLICE_F_NONBLOCK); break;
	case PB_TS_VMSPLICE_OUT: n = vmsplice(sl->rfd, &iov, 1, SPLICE_F_NONBLOCK); break;
	case PB_TS_TEE_IN: n = tee(sl->aux_r, sl->wfd, DATA_LEN, SPLICE_F_NONBLOCK); break;
	case PB_TS_TEE_OUT: n = tee(sl->rfd, sl->aux_w, DATA_LEN, SPLICE_F_NONBLOCK); break;
	default: errno = EINVAL; break;
	}
	if (n > 0)
		return 0;
	return n == 0 ? -EIO : -errno;
}

static bool unsupported_errno(int e)
{
	return e == -ENOSYS || e == -EINVAL || e == -EOPNOTSUPP;
}

/* ----------------------------------------------------------- judging */

/* Judge one sample's three fields (see the header comment for the method). */
static void judge(struct slot *sl)
{
	pb_ts_judge(sl->s, &sl->t->mount);
}

void pb_ts_judge(struct pb_ts_sample *s, const struct pb_ts_mount *m)
{
	/* Every field, ctime included, on a whole second: 1 s granularity. */
	bool coarse_gran = s->before[PB_TS_CTIME].tv_nsec == 0;

	for (int f = 0; f < PB_TS_FIELD_COUNT; f++) {
		bool changed = pb_ts_cmp(&s->before[f], &s->after[f]) != 0;
		const char *why = NULL;

		if (changed) {
			s->state[f] = PB_TS_UPDATED;
			continue;
		}
		if (f == PB_TS_CTIME || s->reset_err) {
			if (!s->waited)
				why = "the coarse clock did not pass the recorded time within the bound";
			else if (coarse_gran)
				why = "the filesystem keeps 1 s timestamps; a change within the "
				      "second cannot be seen";
		}
		if (!why && f == PB_TS_ATIME) {
			if (m->noatime)
				why = "noatime mount: atime is never updated there";
			else if (m->readonly)
				why = "read-only mount: atime is never updated there";
			else if (s->reset_err && strcmp(m->atime_policy, "strictatime") != 0)
				why = "futimens was refused and relatime may suppress the update";
		}
		s->state[f] = why ? PB_TS_UNDETERMINED : PB_TS_UNCHANGED;
		s->reason[f] = why;
	}
}

void pb_ts_fold(const struct pb_ts_sample *samples, size_t n, enum pb_ts_field f,
		struct pb_ts_obs *obs)
{
	const char *why = NULL;

	memset(obs, 0, sizeof(*obs));
	for (size_t i = 0; i < n; i++) {
		switch (samples[i].state[f]) {
		case PB_TS_UPDATED: obs->n_updated++; break;
		case PB_TS_UNCHANGED: obs->n_unchanged++; break;
		default:
			obs->n_undetermined++;
			if (!why)
				why = samples[i].reason[f];
			break;
		}
	}
	if (obs->n_updated && obs->n_unchanged) {
		obs->state = PB_TS_INCONSISTENT;
		snprintf(obs->reason, sizeof(obs->reason),
			 "updated in %u, unchanged in %u of %zu repetitions", obs->n_updated,
			 obs->n_unchanged, n);
	} else if (obs->n_updated) {
		obs->state = PB_TS_UPDATED;
	} else if (obs->n_unchanged) {
		obs->state = PB_TS_UNCHANGED;
	} else {
		obs->state = PB_TS_UNDETERMINED;
		snprintf(obs->reason, sizeof(obs->reason), "%s", why ? why : "no repetition ran");
	}
}

/* One repetition of every (target, op) slot, with one shared wait. */
static int run_round(struct slot *slots, size_t ns, const struct pb_ts_opts *o,
		     unsigned round, char *err, size_t errlen)
{
	const struct timespec past[2] = { { PAST_SEC, 0 }, { PAST_SEC, 0 } };
	struct timespec target = { 0, 0 }, now;
	uint64_t cap = o->wait_cap_ns ? o->wait_cap_ns : DEFAULT_WAIT_CAP_NS;
	struct timespec nap = { 0, pb_ts_nap_ns(pb_ts_coarse_res_ns()) };
	bool waited = true;
	uint64_t t0;
	int r = 0;

	for (size_t i = 0; i < ns; i++) {
		struct slot *sl = &slots[i];
		const char *what = "?";
		struct stat st;

		sl->s = &sl->t->ops[sl->op].samples[round];
		memset(sl->s, 0, sizeof(*sl->s));
		sl->rfd = sl->wfd = sl->aux_r = sl->aux_w = sl->memfd = -1;
		sl->path[0] = '\0';
		if (sl->skip)
			continue;
		r = slot_setup(sl, o, (unsigned)i, &what);
		if (r) {
			struct pb_ts_opres *op = &sl->t->ops[sl->op];

			/* The kernel refusing a flag or a helper: an answer, not an error. */
			if (sl->t->flags && r == -EINVAL) {
				op->err = r;
				op->failed_call = what;
				sl->skip = true;
				r = 0;
				continue;
			}
			snprintf(err, errlen, "%s %s: %s: %s", pb_kind_names[sl->t->kind],
				 pb_ts_op_names[sl->op], what, strerror(-r));
			return r;
		}
		if (futimens(sl->rfd, past) != 0)
			sl->s->reset_err = -errno;
		if (fstat(sl->rfd, &st) != 0) {
			r = -errno;
			snprintf(err, errlen, "fstat: %s", strerror(-r));
			return r;
		}
		stat_times(&st, sl->s->before);
		/* With a refused reset every field must be waited past. */
		for (int f = sl->s->reset_err ? 0 : PB_TS_CTIME; f < PB_TS_FIELD_COUNT; f++)
			if (pb_ts_cmp(&sl->s->before[f], &target) > 0)
				target = sl->s->before[f];
	}
	/* Bounded wait until the coarse clock, which stamps inodes, passes them all. */
	t0 = pb_clock_ns();
	for (;;) {
		clock_gettime(CLOCK_REALTIME_COARSE, &now);
		if (pb_ts_cmp(&now, &target) > 0)
			break;
		if (pb_clock_ns() - t0 > cap) {
			waited = false;
			break;
		}
		nanosleep(&nap, NULL);
	}
	for (size_t i = 0; i < ns; i++) {
		struct slot *sl = &slots[i];
		struct pb_ts_opres *op = &sl->t->ops[sl->op];
		struct stat st;

		if (sl->skip)
			continue;
		sl->s->waited = waited;
		sl->s->op_err = slot_do(sl);
		if (sl->s->op_err) {
			if (unsupported_errno(sl->s->op_err)) {
				op->supported = false;
				op->err = sl->s->op_err;
				op->failed_call = pb_ts_op_names[sl->op];
				sl->skip = true;
				continue;
			}
			snprintf(err, errlen, "%s %s: %s", pb_kind_names[sl->t->kind],
				 pb_ts_op_descr[sl->op], strerror(-sl->s->op_err));
			return sl->s->op_err;
		}
		if (fstat(sl->rfd, &st) != 0) {
			r = -errno;
			snprintf(err, errlen, "fstat: %s", strerror(-r));
			return r;
		}
		stat_times(&st, sl->s->after);
		judge(sl);
		op->nsamples = round + 1;
	}
	return 0;
}

static void describe_target(struct pb_ts_target *t, const struct pb_ts_opts *o)
{
	int fd[2];
	int noatime = (t->flags & PB_FLAG_NOATIME) ? O_NOATIME : 0;

	t->end_noatime[0] = t->end_noatime[1] = -1;
	if (t->kind == PB_KIND_FIFO) {
		pb_ts_mount_describe(o->dir, -1, &t->mount);
		return;
	}
	if (pipe2(fd, O_CLOEXEC | noatime) != 0 && pipe2(fd, O_CLOEXEC) != 0)
		return;
	pb_ts_mount_describe(NULL, fd[0], &t->mount);
	t->end_noatime[0] = (fcntl(fd[0], F_GETFL) & O_NOATIME) ? 1 : 0;
	t->end_noatime[1] = (fcntl(fd[1], F_GETFL) & O_NOATIME) ? 1 : 0;
	close(fd[0]);
	close(fd[1]);
}

int pb_ts_probe(struct pb_ts_target *targets, size_t n, const struct pb_ts_opts *o,
		char *err, size_t errlen)
{
	struct slot *slots = calloc(n * PB_TS_OP_COUNT, sizeof(*slots));
	size_t ns = 0;
	int r = 0;

	if (!slots) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct pb_ts_target *t = &targets[i];

		describe_target(t, o);
		for (int op = 0; op < PB_TS_OP_COUNT; op++) {
			struct pb_ts_opres *res = &t->ops[op];

			memset(res, 0, sizeof(*res));
			if (!(o->ops & (1u << op)))
				continue;
			res->probed = true;
			res->supported = true;
			res->samples = calloc(o->repeat, sizeof(*res->samples));
			if (!res->samples) {
				snprintf(err, errlen, "out of memory");
				r = -ENOMEM;
				goto out;
			}
			slots[ns].t = t;
			slots[ns].op = (enum pb_ts_op)op;
			slots[ns].rfd = slots[ns].wfd = slots[ns].aux_r = slots[ns].aux_w = -1;
			slots[ns].memfd = -1;
			ns++;
		}
	}
	for (unsigned round = 0; round < o->repeat && !r; round++) {
		r = run_round(slots, ns, o, round, err, errlen);
		for (size_t i = 0; i < ns; i++)
			slot_close(&slots[i]);
	}
	for (size_t i = 0; i < n && !r; i++) {
		struct pb_ts_target *t = &targets[i];

		for (int op = 0; op < PB_TS_OP_COUNT; op++)
			for (int f = 0; f < PB_TS_FIELD_COUNT; f++)
				pb_ts_fold(t->ops[op].samples, t->ops[op].nsamples,
					   (enum pb_ts_field)f, &t->ops[op].field[f]);
		pb_ts_verdict_compute(t);
	}
out:
	free(slots);
	return r;
}

void pb_ts_target_free(struct pb_ts_target *t)
{
	for (int op = 0; op < PB_TS_OP_COUNT; op++) {
		free(t->ops[op].samples);
		t->ops[op].samples = NULL;
		t->ops[op].nsamples = 0;
	}
}

/* "mtime+ctime" of the fields of OP in STATE, or "nothing". */
static void fields_in(const struct pb_ts_opres *op, enum pb_ts_state state, char *buf,
		      size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int f = 0; f < PB_TS_FIELD_COUNT; f++)
		if (op->field[f].state == state)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "+" : "",
						pb_ts_field_names[f]);
	if (!off)
		snprintf(buf, len, "nothing");
}

void pb_ts_verdict_compute(struct pb_ts_target *t)
{
	const struct pb_ts_opres *w = &t->ops[PB_TS_WRITE], *rd = &t->ops[PB_TS_READ];
	/* What read/write updated before Linux 6.15: write m+c, read a. */
	const struct { const struct pb_ts_opres *op; int f; } expect_upd[] = {
		{ w, PB_TS_MTIME }, { w, PB_TS_CTIME }, { rd, PB_TS_ATIME },
	};
	char wu[32], ru[32];
	unsigned e_det = 0, e_upd = 0;  /* of the fields expect_upd names */
	bool det = false, upd = false, incons = false;  /* of any field */
	size_t off;

	if (!w->probed || !rd->probed || !w->nsamples || !rd->nsamples) {
		t->verdict = PB_TS_V_UNDETERMINED;
		snprintf(t->detail, sizeof(t->detail), "read and write were not both observed%s%s",
			 w->err || rd->err ? ": " : "",
			 w->err ? strerror(-w->err) : rd->err ? strerror(-rd->err) : "");
		return;
	}
	for (int i = 0; i < 2; i++) {
		const struct pb_ts_opres *op = i ? rd : w;

		for (int f = 0; f < PB_TS_FIELD_COUNT; f++) {
			enum pb_ts_state s = op->field[f].state;

			incons |= s == PB_TS_INCONSISTENT;
			det |= s == PB_TS_UPDATED || s == PB_TS_UNCHANGED;
			upd |= s == PB_TS_UPDATED;
		}
	}
	for (size_t i = 0; i < 3; i++) {
		enum pb_ts_state s = expect_upd[i].op->field[expect_upd[i].f].state;

		e_det += s == PB_TS_UPDATED || s == PB_TS_UNCHANGED;
		e_upd += s == PB_TS_UPDATED;
	}
	fields_in(w, PB_TS_UPDATED, wu, sizeof(wu));
	fields_in(rd, PB_TS_UPDATED, ru, sizeof(ru));
	if (incons)
		t->verdict = PB_TS_V_INCONSISTENT;
	else if (!det)
		t->verdict = PB_TS_V_UNDETERMINED;
	else if (!upd)
		t->verdict = PB_TS_V_FROZEN;
	else if (e_det && e_upd == e_det)
		t->verdict = PB_TS_V_UPDATED;
	else
		t->verdict = PB_TS_V_MIXED;
	off = (size_t)snprintf(t->detail, sizeof(t->detail), "write changes %s, read changes %s",
			       wu, ru);
	for (int i = 0; i < 2 && off < sizeof(t->detail); i++) {
		const struct pb_ts_opres *op = i ? rd : w;

		for (int f = 0; f < PB_TS_FIELD_COUNT && off < sizeof(t->detail); f++)
			if (op->field[f].state == PB_TS_UNDETERMINED ||
			    op->field[f].state == PB_TS_INCONSISTENT)
				off += (size_t)snprintf(t->detail + off, sizeof(t->detail) - off,
							"; %s %s %s", i ? "read" : "write",
							pb_ts_field_names[f],
							pb_ts_state_names[op->field[f].state]);
	}
}

/* ---------------------------------------------------------------- JSON */

static int64_t ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000LL + t->tv_nsec;
}

struct json_object *pb_ts_mount_json(const struct pb_ts_mount *m, const char *path)
{
	struct json_object *o = json_object_new_object();

	if (path)
		pb_json_add_str(o, "path", path);
	pb_json_add_str(o, "fstype", m->fstype);
	pb_json_add_str(o, "mountpoint", m->mountpoint[0] ? m->mountpoint : NULL);
	pb_json_add_str(o, "atime_policy", m->atime_policy);
	json_object_object_add(o, "read_only", json_object_new_boolean(m->readonly));
	return o;
}

struct json_object *pb_ts_target_json(const struct pb_ts_target *t)
{
	struct json_object *o = json_object_new_object(), *ops = json_object_new_array();

	pb_json_add_str(o, "kind", pb_kind_names[t->kind]);
	json_object_object_add(o, "pipe2_noatime", json_object_new_boolean(t->flags & PB_FLAG_NOATIME));
	json_object_object_add(o, "filesystem", pb_ts_mount_json(&t->mount, NULL));
	pb_json_add_str(o, "verdict", pb_ts_verdict_names[t->verdict]);
	pb_json_add_str(o, "verdict_detail", t->detail);
	for (int e = 0; e < 2; e++)
		json_object_object_add(o, e ? "write_end_o_noatime" : "read_end_o_noatime",
				       t->end_noatime[e] < 0 ? NULL :
				       json_object_new_boolean(t->end_noatime[e]));
	for (int i = 0; i < PB_TS_OP_COUNT; i++) {
		const struct pb_ts_opres *op = &t->ops[i];
		struct json_object *x, *fields, *samples;

		if (!op->probed)
			continue;
		x = json_object_new_object();
		pb_json_add_str(x, "operation", pb_ts_op_names[i]);
		pb_json_add_str(x, "description", pb_ts_op_descr[i]);
		json_object_object_add(x, "supported", json_object_new_boolean(op->supported));
		pb_json_add_str(x, "error", op->err ? strerror(-op->err) : NULL);
		pb_json_add_str(x, "failed_call", op->err ? op->failed_call : NULL);
		fields = json_object_new_object();
		for (int f = 0; f < PB_TS_FIELD_COUNT && op->supported; f++) {
			struct json_object *ob = json_object_new_object();

			pb_json_add_str(ob, "state", pb_ts_state_names[op->field[f].state]);
			pb_json_add_str(ob, "reason", op->field[f].reason[0] ? op->field[f].reason : NULL);
			pb_json_add_int(ob, "updated", op->field[f].n_updated);
			pb_json_add_int(ob, "unchanged", op->field[f].n_unchanged);
			pb_json_add_int(ob, "undetermined", op->field[f].n_undetermined);
			json_object_object_add(fields, pb_ts_field_names[f], ob);
		}
		json_object_object_add(x, "fields", fields);
		samples = json_object_new_array();
		for (size_t s = 0; s < op->nsamples; s++) {
			const struct pb_ts_sample *sm = &op->samples[s];
			struct json_object *so = json_object_new_object();
			char key[32];

			pb_json_add_str(so, "reset_error", sm->reset_err ? strerror(-sm->reset_err) : NULL);
			json_object_object_add(so, "clock_passed", json_object_new_boolean(sm->waited));
			for (int f = 0; f < PB_TS_FIELD_COUNT; f++) {
				snprintf(key, sizeof(key), "%s_before_ns", pb_ts_field_names[f]);
				pb_json_add_int(so, key, ts_ns(&sm->before[f]));
				snprintf(key, sizeof(key), "%s_after_ns", pb_ts_field_names[f]);
				pb_json_add_int(so, key, ts_ns(&sm->after[f]));
				pb_json_add_str(so, pb_ts_field_names[f], pb_ts_state_names[sm->state[f]]);
			}
			json_object_array_add(samples, so);
		}
		json_object_object_add(x, "samples", samples);
		json_object_array_add(ops, x);
	}
	json_object_object_add(o, "operations", ops);
	return o;
}


/* ------------------------------------------------ filesystem vs pipe code */

#define TMPFS_MAGIC_ 0x01021994

const char *const pb_ts_ref_method_names[] = {
	"none", "fifo-dir", "dev-shm", "private-mount", NULL
};
const char *const pb_ts_attr_names[] = { "pipe", "filesystem", "undetermined", NULL };

bool pb_ts_on_tmpfs(const char *path, int fd)
{
	struct statfs sf;

	if ((path ? statfs(path, &sf) : fstatfs(fd, &sf)) != 0)
		return false;
	return (unsigned long)sf.f_type == TMPFS_MAGIC_;
}

const char *pb_ts_fs_name(const char *fstype)
{
	return strcmp(fstype, "overlay") == 0 ? "overlayfs" : fstype;
}

/*
 * Run FN on a tmpfs mounted over WORKDIR/tmpfs-ref in a child's private
 * mount namespace.  0, or -errno with WHY saying which step failed.
 */
static int private_mount_run(const char *workdir, void (*fn)(const char *dir, void *arg),
			     void *arg, unsigned timeout_ms, char *why, size_t whylen)
{
	static const char *const steps[] = {
		"", "unshare(CLONE_NEWNS)", "making / private", "mount -t tmpfs"
	};
	char mp[PATH_MAX];
	volatile int *sh;       /* [0] failed step, [1] its errno, [2] FN finished */
	int wst = 0, r = 0;
	bool late = false;
	pid_t pid;

	if (!workdir) {
		snprintf(why, whylen, "no work directory for a mount point");
		return -EINVAL;
	}
	if ((size_t)snprintf(mp, sizeof(mp), "%s/tmpfs-ref", workdir) >= sizeof(mp)) {
		snprintf(why, whylen, "mount point path too long");
		return -ENAMETOOLONG;
	}
	sh = mmap(NULL, 3 * sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		r = -errno;
		snprintf(why, whylen, "mmap: %s", strerror(-r));
		return r;
	}
	if (mkdir(mp, 0700) != 0) {
		r = -errno;
		snprintf(why, whylen, "mkdir %.100s: %s", mp, strerror(-r));
		munmap((void *)sh, 3 * sizeof(int));
		return r;
	}
	pb_cleanup_add_path(mp, 1);
	pid = pb_cleanup_fork();
	if (pid == 0) {
		int step = 1;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (unshare(CLONE_NEWNS) == 0 && ++step &&
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 && ++step &&
		    mount("pipebench-ref", mp, "tmpfs", MS_NOSUID | MS_NOEXEC,
			  "mode=0700,size=1m") == 0) {
			fn(mp, arg);
			sh[2] = 1;
			_exit(0);   /* the namespace, and the mount, die with this process */
		}
		sh[1] = errno;
		sh[0] = step;
		_exit(1);
	}
	if (pid < 0) {
		r = -errno;
		snprintf(why, whylen, "fork: %s", strerror(-r));
	} else {
		late = pb_checkproc_wait(pid, timeout_ms, &wst) == -ETIMEDOUT;
		pb_cleanup_del_child(pid);
		if (sh[0] > 0 && sh[0] < 4) {
			r = sh[1] ? -sh[1] : -EIO;
			snprintf(why, whylen, "%s: %s", steps[sh[0]], strerror(-r));
		} else if (!sh[2]) {
			r = -ETIMEDOUT;
			snprintf(why, whylen, "the child on the private mount did not finish%s",
				 late ? " in time" : "");
		}
	}
	rmdir(mp);
	pb_cleanup_del_path(mp);
	munmap((void *)sh, 3 * sizeof(int));
	return r;
}

enum pb_ts_ref_method pb_ts_with_tmpfs(const char *workdir, void (*fn)(const char *dir, void *arg),
				       void *arg, unsigned timeout_ms, char *why, size_t whylen)
{
	char dir[PATH_MAX], shm[128], mnt[160];
	int r;

	if (!pb_ts_on_tmpfs("/dev/shm", -1)) {
		snprintf(shm, sizeof(shm), "/dev/shm is not a tmpfs");
	} else if ((r = pb_tmpdir_make("/dev/shm", dir, sizeof(dir))) != 0) {
		snprintf(shm, sizeof(shm), "/dev/shm: %s", strerror(-r));
	} else {
		fn(dir, arg);
		pb_tmpdir_remove(dir);
		return PB_TS_REF_DEV_SHM;
	}
	if (private_mount_run(workdir, fn, arg, timeout_ms, mnt, sizeof(mnt)) == 0)
		return PB_TS_REF_PRIVATE_MOUNT;
	snprintf(why, whylen, "%s; no private tmpfs mount: %s", shm, mnt);
	return PB_TS_REF_NONE;
}

void pb_ts_bits(const struct pb_ts_target *t, unsigned *updated, unsigned *determined)
{
	const struct { enum pb_ts_op op; enum pb_ts_field f; unsigned bit; } map[] = {
		{ PB_TS_WRITE, PB_TS_MTIME, PB_TS_BIT_WRITE_MTIME },
		{ PB_TS_WRITE, PB_TS_CTIME, PB_TS_BIT_WRITE_CTIME },
		{ PB_TS_READ, PB_TS_ATIME, PB_TS_BIT_READ_ATIME },
	};

	*updated = *determined = 0;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		const struct pb_ts_opres *op = &t->ops[map[i].op];
		const struct pb_ts_obs *ob = &op->field[map[i].f];
		enum pb_ts_state s = ob->state;

		/* Judged by the folded counts: a reference keeps no samples. */
		if (!op->probed || !op->supported || !(ob->n_updated + ob->n_unchanged))
			continue;
		if (s == PB_TS_UPDATED || s == PB_TS_UNCHANGED)
			*determined |= map[i].bit;
		if (s == PB_TS_UPDATED)
			*updated |= map[i].bit;
	}
}

/* "mtime/ctime" of BITS. */
static void bit_words(unsigned bits, char *buf, size_t len)
{
	static const char *const names[] = { "mtime", "ctime", "atime" };
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < 3; i++)
		if (bits & (1u << i))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "/" : "",
						names[i]);
}

bool pb_ts_fs_quirk(const char *fstype, unsigned dir_upd, unsigned ref_upd, unsigned det,
		    char *buf, size_t len)
{
	unsigned missing = ref_upd & ~dir_upd & det, extra = dir_upd & ~ref_upd & det;
	char m[32], e[32];

	buf[0] = '\0';
	if (!missing && !extra)
		return false;
	bit_words(missing, m, sizeof(m));
	bit_words(extra, e, sizeof(e));
	if (missing && extra)
		snprintf(buf, len, "%s does not report FIFO %s updates through stat, and reports "
			 "%s updates the pipe code does not make", pb_ts_fs_name(fstype), m, e);
	else if (missing)
		snprintf(buf, len, "%s does not report FIFO %s updates through stat",
			 pb_ts_fs_name(fstype), m);
	else
		snprintf(buf, len, "%s reports FIFO %s updates the pipe code does not make",
			 pb_ts_fs_name(fstype), e);
	return true;
}

void pb_ts_attribute(const struct pb_ts_target *fifo, const struct pb_ts_target *ref,
		     struct pb_ts_fifo_ref *out)
{
	const char *fs = pb_ts_fs_name(fifo->mount.fstype);
	unsigned du, dd, ru, rd;

	out->pipe_verdict = fifo->verdict;
	if (strcmp(fifo->mount.fstype, "tmpfs") == 0) {
		out->method = PB_TS_REF_FIFO_DIR;
		out->attr = PB_TS_ATTR_PIPE;
		snprintf(out->words, sizeof(out->words), "the FIFO directory is on tmpfs: "
			 "the result is the pipe code's");
		return;
	}
	if (!ref) {
		out->method = PB_TS_REF_NONE;
		out->attr = PB_TS_ATTR_UNDETERMINED;
		snprintf(out->words, sizeof(out->words), "no FIFO on tmpfs to compare with (%.120s): "
			 "the result may be %.40s's rather than the pipe code's", out->why_none, fs);
		return;
	}
	pb_ts_bits(fifo, &du, &dd);
	pb_ts_bits(ref, &ru, &rd);
	if (pb_ts_fs_quirk(fifo->mount.fstype, du, ru, dd & rd, out->words, sizeof(out->words))) {
		out->attr = PB_TS_ATTR_FILESYSTEM;
		out->pipe_verdict = ref->verdict;
	} else {
		out->attr = PB_TS_ATTR_PIPE;
		snprintf(out->words, sizeof(out->words), "a FIFO on tmpfs shows the same: the "
			 "result is the pipe code's, not %.40s's", fs);
	}
}

struct ref_shared {
	unsigned repeat;
	int rc;
	char err[256];
	struct pb_ts_target t;
};

static void ref_probe(const char *dir, void *arg)
{
	struct ref_shared *sh = arg;
	struct pb_ts_opts o = { .repeat = sh->repeat, .ops = PB_TS_OPS_RW, .dir = dir };
	struct pb_ts_target t;

	memset(&t, 0, sizeof(t));
	t.kind = PB_KIND_FIFO;
	sh->rc = pb_ts_probe(&t, 1, &o, sh->err, sizeof(sh->err));
	pb_ts_target_free(&t);   /* the folded observations stay; samples do not */
	sh->t = t;
}

void pb_ts_fifo_reference(const struct pb_ts_target *fifo, const char *workdir, unsigned repeat,
			  struct pb_ts_fifo_ref *out)
{
	struct ref_shared *sh;

	memset(out, 0, sizeof(*out));
	if (strcmp(fifo->mount.fstype, "tmpfs") == 0) {
		pb_ts_attribute(fifo, NULL, out);
		return;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		snprintf(out->why_none, sizeof(out->why_none), "mmap: %s", strerror(errno));
		pb_ts_attribute(fifo, NULL, out);
		return;
	}
	sh->repeat = repeat ? repeat : 1;
	sh->rc = -EIO;
	snprintf(sh->err, sizeof(sh->err), "the probe did not finish");
	out->method = pb_ts_with_tmpfs(workdir, ref_probe, sh, 10000, out->why_none,
				       sizeof(out->why_none));
	if (out->method != PB_TS_REF_NONE && sh->rc != 0) {
		snprintf(out->why_none, sizeof(out->why_none), "FIFO on tmpfs (%s): %.200s",
			 pb_ts_ref_method_names[out->method], sh->err);
		out->method = PB_TS_REF_NONE;
	}
	if (out->method != PB_TS_REF_NONE) {
		out->ref = sh->t;
		pb_ts_attribute(fifo, &out->ref, out);
	} else {
		pb_ts_attribute(fifo, NULL, out);
	}
	munmap(sh, sizeof(*sh));
}

struct json_object *pb_ts_fifo_ref_json(const struct pb_ts_target *fifo,
					const struct pb_ts_fifo_ref *r)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_object();
	struct json_object *d = json_object_new_object(), *ref = NULL;
	bool have_ref = r->method == PB_TS_REF_DEV_SHM || r->method == PB_TS_REF_PRIVATE_MOUNT;

	pb_json_add_str(o, "method", pb_ts_ref_method_names[r->method]);
	pb_json_add_str(o, "unavailable_reason", r->method == PB_TS_REF_NONE ? r->why_none : NULL);
	pb_json_add_str(o, "fifo_dir_fstype", fifo->mount.fstype);
	pb_json_add_str(o, "reference_fstype", r->method == PB_TS_REF_NONE ? NULL :
			have_ref ? r->ref.mount.fstype : fifo->mount.fstype);
	json_object_object_add(o, "reference", have_ref ? pb_ts_target_json(&r->ref) : NULL);
	/* Which result is attributed to which: the FIFO directory's, the reference's. */
	pb_json_add_str(d, "fstype", fifo->mount.fstype);
	pb_json_add_str(d, "verdict", pb_ts_verdict_names[fifo->verdict]);
	pb_json_add_str(d, "attributed_to", pb_ts_attr_names[r->attr]);
	json_object_object_add(a, "fifo_dir", d);
	if (have_ref) {
		ref = json_object_new_object();
		pb_json_add_str(ref, "fstype", r->ref.mount.fstype);
		pb_json_add_str(ref, "verdict", pb_ts_verdict_names[r->ref.verdict]);
		pb_json_add_str(ref, "attributed_to", pb_ts_attr_names[PB_TS_ATTR_PIPE]);
	}
	json_object_object_add(a, "reference", ref);
	pb_json_add_str(a, "attributed_to", pb_ts_attr_names[r->attr]);
	pb_json_add_str(a, "pipe_verdict", r->attr == PB_TS_ATTR_UNDETERMINED ? NULL :
			pb_ts_verdict_names[r->pipe_verdict]);
	pb_json_add_str(a, "filesystem_effect", r->attr == PB_TS_ATTR_FILESYSTEM ? r->words : NULL);
	pb_json_add_str(a, "detail", r->words);
	json_object_object_add(o, "attribution", a);
	return o;
}
