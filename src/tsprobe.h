/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Timestamp probing: does an operation on a pipe or FIFO change its atime,
 * mtime or ctime on the running kernel?  Shared by `timestamps`,
 * `o_noatime` and any report that wants the answer.
 *
 * Method (no fixed sleeps): for every (kind, operation) a fresh endpoint is
 * made and prepared; atime and mtime are set to a past value (2000-01-01)
 * with futimens(), which also defeats relatime; the inode is fstat()ed and
 * its ctime recorded; then ONE bounded wait per repetition lets
 * CLOCK_REALTIME_COARSE move past every recorded ctime; then each operation
 * runs once and the inode is fstat()ed again.  Linux 6.15 stopped anonymous
 * pipes from updating their times on read/write (commit f017b0a4951f);
 * FIFOs still do.
 */
#ifndef PB_TSPROBE_H
#define PB_TSPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "endpoint.h"

enum pb_ts_op {
	PB_TS_WRITE, PB_TS_READ,
	PB_TS_SPLICE_IN, PB_TS_SPLICE_OUT,
	PB_TS_VMSPLICE_IN, PB_TS_VMSPLICE_OUT,
	PB_TS_TEE_IN, PB_TS_TEE_OUT,
	PB_TS_OP_COUNT
};
#define PB_TS_OPS_ALL ((1u << PB_TS_OP_COUNT) - 1)
#define PB_TS_OPS_RW ((1u << PB_TS_WRITE) | (1u << PB_TS_READ))

/* "write", "read", "splice_in", ... and a longer description of each. */
extern const char *const pb_ts_op_names[];
extern const char *const pb_ts_op_descr[];

enum pb_ts_field { PB_TS_ATIME, PB_TS_MTIME, PB_TS_CTIME, PB_TS_FIELD_COUNT };
extern const char *const pb_ts_field_names[];   /* "atime", "mtime", "ctime" */

enum pb_ts_state { PB_TS_UNCHANGED, PB_TS_UPDATED, PB_TS_UNDETERMINED, PB_TS_INCONSISTENT };
extern const char *const pb_ts_state_names[];

/* Per kind: read/write change nothing, the fields they used to, or a mix. */
enum pb_ts_verdict {
	PB_TS_V_FROZEN, PB_TS_V_UPDATED, PB_TS_V_MIXED, PB_TS_V_INCONSISTENT,
	PB_TS_V_UNDETERMINED
};
extern const char *const pb_ts_verdict_names[];

/* Filesystem of an endpoint: type and atime mount policy. */
struct pb_ts_mount {
	char fstype[64];        /* "tmpfs", "ext4", "pipefs", ... */
	char mountpoint[1024];  /* "" when unknown or internal */
	char atime_policy[16];  /* "relatime", "noatime", "strictatime", "internal" */
	bool noatime, readonly;
};

/* One repetition of one operation. */
struct pb_ts_sample {
	int op_err;                 /* 0 or -errno of the operation */
	int reset_err;              /* 0 or -errno of futimens */
	bool waited;                /* coarse clock passed the recorded times */
	struct timespec before[PB_TS_FIELD_COUNT], after[PB_TS_FIELD_COUNT];
	enum pb_ts_state state[PB_TS_FIELD_COUNT];
	const char *reason[PB_TS_FIELD_COUNT];   /* static, for undetermined */
};

/* One field of one operation over all repetitions. */
struct pb_ts_obs {
	enum pb_ts_state state;
	unsigned n_updated, n_unchanged, n_undetermined;
	char reason[160];           /* why undetermined / inconsistent, else "" */
};

struct pb_ts_opres {
	bool probed;                /* in the requested set */
	bool supported;             /* false: the kernel refused the call */
	int err;                    /* -errno when unsupported or failed */
	const char *failed_call;    /* what failed, when err != 0 */
	struct pb_ts_obs field[PB_TS_FIELD_COUNT];
	struct pb_ts_sample *samples;
	size_t nsamples;
};

struct pb_ts_target {
	/* Set by the caller. */
	enum pb_kind kind;          /* PB_KIND_ANON or PB_KIND_FIFO */
	unsigned flags;             /* PB_FLAG_NOATIME: pipe2(O_NOATIME) / FIFO read end O_NOATIME */
	/* Results. */
	struct pb_ts_mount mount;
	int end_noatime[2];         /* O_NOATIME in F_GETFL of read, write end; -1 unknown */
	struct pb_ts_opres ops[PB_TS_OP_COUNT];
	enum pb_ts_verdict verdict;
	char detail[256];           /* plain words: which fields read/write change */
};

struct pb_ts_opts {
	unsigned repeat;            /* >= 1 */
	unsigned ops;               /* mask of 1u << enum pb_ts_op */
	const char *dir;            /* existing private directory for FIFOs */
	uint64_t wait_cap_ns;       /* bound on the coarse-clock wait; 0 = default */
};

/*
 * Probe every target with every requested operation, REPEAT times.
 * Returns 0 (observations, including unsupported operations, are in the
 * targets) or -errno when the probe could not run; then ERR (of ERRLEN)
 * says what failed.  Call pb_ts_target_free on each target afterwards.
 */
int pb_ts_probe(struct pb_ts_target *targets, size_t n, const struct pb_ts_opts *o,
		char *err, size_t errlen);

/* Release the samples of T. */
void pb_ts_target_free(struct pb_ts_target *t);

/*
 * Judge one sample's fields from its before/after times, whether the coarse
 * clock was seen to pass them (waited), the futimens reset's result and the
 * mount M: updated, unchanged, or undetermined with a static reason (clock
 * did not pass, 1 s granularity, noatime or read-only mount, refused reset
 * under relatime).  Exposed for unit tests.
 */
void pb_ts_judge(struct pb_ts_sample *s, const struct pb_ts_mount *m);

/*
 * Fold SAMPLES into one observation: all determined samples agree -> that
 * state; updated and unchanged both seen -> inconsistent; none determined ->
 * undetermined.  Exposed for unit tests.
 */
void pb_ts_fold(const struct pb_ts_sample *samples, size_t n, enum pb_ts_field f,
		struct pb_ts_obs *obs);

/* Compute T's verdict and detail from its write and read observations. */
void pb_ts_verdict_compute(struct pb_ts_target *t);

/* Describe the filesystem holding PATH (or, when PATH is NULL, the fd FD). */
int pb_ts_mount_describe(const char *path, int fd, struct pb_ts_mount *m);

struct json_object;

/* The filesystem as JSON (PATH, when not NULL, is recorded as `path`). */
struct json_object *pb_ts_mount_json(const struct pb_ts_mount *m, const char *path);

/* Every observation of T as JSON, samples included. */
struct json_object *pb_ts_target_json(const struct pb_ts_target *t);

/* ------------------------------------------------ filesystem vs pipe code */

/*
 * A FIFO's inode lives on the filesystem of its directory, so what stat
 * shows of its times can be the filesystem's doing rather than the pipe
 * code's: overlayfs (container roots) shows a read's new atime but not a
 * write's new mtime/ctime.  The reference is a FIFO on tmpfs, which reports
 * exactly what the pipe code did.
 */
enum pb_ts_ref_method {
	PB_TS_REF_NONE,          /* no tmpfs the tool can use */
	PB_TS_REF_FIFO_DIR,      /* the FIFO directory is itself on tmpfs */
	PB_TS_REF_DEV_SHM,       /* a private directory under /dev/shm */
	PB_TS_REF_PRIVATE_MOUNT, /* a tmpfs mounted in a child's private mount namespace */
};
/* "none", "fifo-dir", "dev-shm", "private-mount" */
extern const char *const pb_ts_ref_method_names[];

/* Whether PATH (or, when PATH is NULL, the fd FD) is on tmpfs (statfs f_type). */
bool pb_ts_on_tmpfs(const char *path, int fd);

/*
 * The name pb_ts_mount_describe() gives a statfs f_type MAGIC ("ext4" for
 * 0xEF53, "pipefs" for PIPEFS_MAGIC), or NULL for a magic it does not know.
 */
const char *pb_ts_magic_name(unsigned long magic);

/* The filesystem's usual name: "overlayfs" for "overlay", else FSTYPE. */
const char *pb_ts_fs_name(const char *fstype);

/*
 * Run FN(DIR, ARG) with DIR a fresh, empty, private directory on tmpfs, and
 * remove it afterwards: under /dev/shm when that is a writable tmpfs (FN
 * runs in this process), else on a tmpfs mounted over a directory made under
 * WORKDIR in the private mount namespace of a child process (needs
 * CAP_SYS_ADMIN; FN runs in the child, so ARG must be MAP_SHARED memory for
 * results to come back; the mount dies with the child).  The child is killed
 * after TIMEOUT_MS.  Returns the method used, or PB_TS_REF_NONE with WHY (of
 * WHYLEN) saying why neither was available or FN could not finish.
 */
enum pb_ts_ref_method pb_ts_with_tmpfs(const char *workdir, void (*fn)(const char *dir, void *arg),
				       void *arg, unsigned timeout_ms, char *why, size_t whylen);

/* Bits for the three FIFO timestamp effects POSIX requires. */
enum {
	PB_TS_BIT_WRITE_MTIME = 1u << 0,
	PB_TS_BIT_WRITE_CTIME = 1u << 1,
	PB_TS_BIT_READ_ATIME = 1u << 2,
};
#define PB_TS_BITS_ALL 7u

/* The bits T's write/read observations show updated, and those they determined. */
void pb_ts_bits(const struct pb_ts_target *t, unsigned *updated, unsigned *determined);

/*
 * What a filesystem does to FIFO timestamps, in words, from the bits a FIFO
 * in its directory showed updated (DIR_UPD) against those a FIFO on tmpfs
 * showed (REF_UPD), both over the bits determined on both sides (DET):
 * "overlayfs does not report FIFO mtime/ctime updates through stat".
 * Returns whether they differ: BUF is then the sentence, else empty.
 */
bool pb_ts_fs_quirk(const char *fstype, unsigned dir_upd, unsigned ref_upd, unsigned det,
		    char *buf, size_t len);

/* Who a FIFO result is attributed to. */
enum pb_ts_attr {
	PB_TS_ATTR_PIPE,          /* the pipe code: on tmpfs, or the same as on tmpfs */
	PB_TS_ATTR_FILESYSTEM,    /* differs from a FIFO on tmpfs: the filesystem's */
	PB_TS_ATTR_UNDETERMINED,  /* no tmpfs reference: may be the filesystem's */
};
extern const char *const pb_ts_attr_names[];   /* "pipe", "filesystem", "undetermined" */

/* The FIFO result in the --dir directory against the same probe on tmpfs. */
struct pb_ts_fifo_ref {
	enum pb_ts_ref_method method;
	char why_none[256];         /* PB_TS_REF_NONE: why */
	struct pb_ts_target ref;    /* the FIFO on tmpfs (method DEV_SHM/PRIVATE_MOUNT);
				     * its samples are not kept */
	enum pb_ts_attr attr;
	char words[256];            /* the filesystem's effect, or why attributed so */
	enum pb_ts_verdict pipe_verdict;  /* the pipe code's FIFO verdict (attr != UNDETERMINED) */
};

/*
 * Probe a FIFO on tmpfs (unless FIFO, the result in DIR, is on tmpfs) and
 * attribute FIFO's result.  WORKDIR: an existing private directory for a
 * private mount point.  Never fails: an unusable reference is
 * PB_TS_REF_NONE with the reason.
 */
void pb_ts_fifo_reference(const struct pb_ts_target *fifo, const char *workdir, unsigned repeat,
			  struct pb_ts_fifo_ref *out);

/* Attribute FIFO's result given REF (NULL: no reference, WHY says why). */
void pb_ts_attribute(const struct pb_ts_target *fifo, const struct pb_ts_target *ref,
		     struct pb_ts_fifo_ref *out);

/* OUT as JSON: method, reference filesystem and observations, attribution. */
struct json_object *pb_ts_fifo_ref_json(const struct pb_ts_target *fifo,
					const struct pb_ts_fifo_ref *out);

/* CLOCK_REALTIME_COARSE resolution in ns (4000000 at HZ=250). */
long pb_ts_coarse_res_ns(void);

/* The nap between looks at the coarse clock while waiting for it to pass
 * a timestamp: an eighth of its resolution RES_NS (the wait overshoots by
 * at most that), at least 50 us, at most 1 ms. */
long pb_ts_nap_ns(long res_ns);

/* -1, 0 or 1 as A is before, equal to or after B (seconds, then nanoseconds). */
int pb_ts_cmp(const struct timespec *a, const struct timespec *b);

#endif
