/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pipe endpoints: an anonymous pipe, a FIFO in a private directory, or an
 * AF_UNIX stream socketpair as a non-pipe reference, with pipe2 flags and
 * buffer size.
 */
#ifndef PB_ENDPOINT_H
#define PB_ENDPOINT_H

#include <limits.h>
#include <stdbool.h>

enum pb_kind {
	PB_KIND_ANON,
	PB_KIND_FIFO,
	PB_KIND_SOCKETPAIR,
	PB_KIND_COUNT
};

/* Kind names in enum order, NULL-terminated ("anon", "fifo", "socketpair"). */
extern const char *const pb_kind_names[];

/* Whether K is among the N kinds of KINDS (a command's --kind list). */
bool pb_kind_listed(const enum pb_kind *kinds, size_t n, enum pb_kind k);

/* pipebench's flag words for pipe2 (bit i = pb_flag_names[i]). */
enum { PB_FLAG_DIRECT = 1u << 0, PB_FLAG_NOATIME = 1u << 1 };
extern const char *const pb_flag_names[];

struct pb_endpoint_opts {
	bool nonblock;        /* O_NONBLOCK on both ends */
	unsigned flags;       /* PB_FLAG_* */
	long pipe_size;       /* F_SETPIPE_SZ request, 0 = leave default */
	const char *dir;      /* private directory for FIFOs (must exist) */
};

struct pb_endpoint {
	enum pb_kind kind;
	int rfd, wfd;
	long pipe_size;       /* size in effect (F_GETPIPE_SZ), -1 for sockets */
	char path[PATH_MAX];  /* FIFO path, "" otherwise */
};

/*
 * Open an endpoint of KIND.  Returns 0 or -errno; *what (if not NULL) names
 * the call that failed ("pipe2", "mkfifo", "F_SETPIPE_SZ", ...).  A FIFO is
 * registered for removal on signals and removed by pb_endpoint_close.
 */
int pb_endpoint_open(struct pb_endpoint *ep, enum pb_kind kind,
		     const struct pb_endpoint_opts *opts, const char **what);

/* Close both ends and remove the FIFO, if any. */
void pb_endpoint_close(struct pb_endpoint *ep);

/* pipe2 flag bits (O_DIRECT, O_NOATIME) for PB_FLAG_* bits. */
int pb_endpoint_pipe2_flags(unsigned flags);

#endif
