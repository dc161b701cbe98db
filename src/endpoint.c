/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "endpoint.h"

const char *const pb_kind_names[] = { "anon", "fifo", "socketpair", NULL };

bool pb_kind_listed(const enum pb_kind *kinds, size_t n, enum pb_kind k)
{
	for (size_t i = 0; i < n; i++)
		if (kinds[i] == k)
			return true;
	return false;
}
const char *const pb_flag_names[] = { "direct", "noatime", NULL };

int pb_endpoint_pipe2_flags(unsigned flags)
{
	return ((flags & PB_FLAG_DIRECT) ? O_DIRECT : 0) |
	       ((flags & PB_FLAG_NOATIME) ? O_NOATIME : 0);
}

static int open_anon(struct pb_endpoint *ep, const struct pb_endpoint_opts *o,
		     const char **what)
{
	int fd[2];
	int fl = O_CLOEXEC | pb_endpoint_pipe2_flags(o->flags) | (o->nonblock ? O_NONBLOCK : 0);

	*what = "pipe2";
	if (pipe2(fd, fl) != 0)
		return -errno;
	ep->rfd = fd[0];
	ep->wfd = fd[1];
	return 0;
}

static int open_fifo(struct pb_endpoint *ep, const struct pb_endpoint_opts *o,
		     const char **what)
{
	int extra = (o->flags & PB_FLAG_NOATIME) ? O_NOATIME : 0;
	int r;

	*what = "mkfifo";
	if (!o->dir)
		return -EINVAL;
	if ((size_t)snprintf(ep->path, sizeof(ep->path), "%s/fifo", o->dir) >= sizeof(ep->path))
		return -ENAMETOOLONG;
	if (mkfifo(ep->path, 0600) != 0) {
		ep->path[0] = '\0';
		return -errno;
	}
	r = pb_cleanup_add_path(ep->path, 0);
	if (r)
		return r;
	/* Read end first, nonblocking, so the write-end open cannot block. */
	*what = "open FIFO read end";
	ep->rfd = open(ep->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | extra);
	if (ep->rfd < 0)
		return -errno;
	*what = "open FIFO write end";
	ep->wfd = open(ep->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | extra);
	if (ep->wfd < 0)
		return -errno;
	if (!o->nonblock) {
		int fl = fcntl(ep->rfd, F_GETFL);

		fcntl(ep->rfd, F_SETFL, fl & ~O_NONBLOCK);
		fl = fcntl(ep->wfd, F_GETFL);
		fcntl(ep->wfd, F_SETFL, fl & ~O_NONBLOCK);
	}
	if (o->flags & PB_FLAG_DIRECT) {
		/* open() refuses O_DIRECT on a FIFO; F_SETFL enables packets. */
		*what = "F_SETFL O_DIRECT";
		if (fcntl(ep->wfd, F_SETFL, fcntl(ep->wfd, F_GETFL) | O_DIRECT) < 0)
			return -errno;
	}
	return 0;
}

static int open_socketpair(struct pb_endpoint *ep, const struct pb_endpoint_opts *o,
			   const char **what)
{
	int sv[2];

	*what = "socketpair";
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (o->nonblock ? SOCK_NONBLOCK : 0),
		       0, sv) != 0)
		return -errno;
	ep->rfd = sv[0];
	ep->wfd = sv[1];
	*what = "shutdown";
	if (shutdown(sv[0], SHUT_WR) != 0 || shutdown(sv[1], SHUT_RD) != 0)
		return -errno;
	return 0;
}

int pb_endpoint_open(struct pb_endpoint *ep, enum pb_kind kind,
		     const struct pb_endpoint_opts *opts, const char **what)
{
	const char *dummy;
	int r;

	if (!what)
		what = &dummy;
	memset(ep, 0, sizeof(*ep));
	ep->kind = kind;
	ep->rfd = ep->wfd = -1;
	ep->pipe_size = -1;
	switch (kind) {
	case PB_KIND_ANON: r = open_anon(ep, opts, what); break;
	case PB_KIND_FIFO: r = open_fifo(ep, opts, what); break;
	case PB_KIND_SOCKETPAIR: r = open_socketpair(ep, opts, what); break;
	default: r = -EINVAL; break;
	}
	if (r == 0 && kind != PB_KIND_SOCKETPAIR) {
		if (opts->pipe_size > 0) {
			*what = "F_SETPIPE_SZ";
			if (fcntl(ep->wfd, F_SETPIPE_SZ, (int)opts->pipe_size) < 0)
				r = -errno;
		}
		if (r == 0) {
			ep->pipe_size = fcntl(ep->wfd, F_GETPIPE_SZ);
			if (ep->pipe_size < 0) {
				*what = "F_GETPIPE_SZ";
				r = -errno;
			}
		}
	}
	if (r)
		pb_endpoint_close(ep);
	return r;
}

void pb_endpoint_close(struct pb_endpoint *ep)
{
	if (ep->rfd >= 0)
		close(ep->rfd);
	if (ep->wfd >= 0)
		close(ep->wfd);
	ep->rfd = ep->wfd = -1;
	if (ep->path[0]) {
		unlink(ep->path);
		pb_cleanup_del_path(ep->path);
		ep->path[0] = '\0';
	}
}
