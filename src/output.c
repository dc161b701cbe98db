/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output: the in-memory buffer written once, to stdout or atomically to a file; the document transform hook (output.h) */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "msg.h"
#include "output.h"

int pb_out_open(struct pb_out *out)
{
	out->buf = NULL;
	out->len = 0;
	out->fp = open_memstream(&out->buf, &out->len);
	return out->fp ? 0 : -errno;
}

void pb_out_discard(struct pb_out *out)
{
	if (out->fp)
		fclose(out->fp);
	free(out->buf);
	out->fp = NULL;
	out->buf = NULL;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Make a temporary file next to PATH (same directory, so rename() is
 * atomic), registered for removal on a signal.  The signals are blocked
 * meanwhile so it cannot exist unregistered.  Returns the fd or -errno.
 */
static int make_sibling(const char *path, char *tmp, size_t len)
{
	const char *slash = strrchr(path, '/');
	int dlen = slash ? (int)(slash - path + 1) : 0;
	sigset_t s, old;
	int fd, e = 0;

	if ((size_t)snprintf(tmp, len, "%.*s.%s.XXXXXX", dlen, path, slash ? slash + 1 : path)
	    >= len)
		return -ENAMETOOLONG;
	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGHUP);
	sigaddset(&s, SIGALRM);
	sigprocmask(SIG_BLOCK, &s, &old);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		e = -errno;
	} else if ((e = pb_cleanup_add_path(tmp, 0)) != 0) {
		close(fd);
		unlink(tmp);
		fd = -1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return fd < 0 ? e : fd;
}

/*
 * Whether PATH may be replaced by rename(): absent, or a plain file of ours
 * with one link.  Anything else (a device, a FIFO, a symbolic link, a file
 * of another user or with other names) is written in place.
 */
static bool replaceable(const char *path, mode_t *mode)
{
	struct stat st;
	mode_t mask;

	if (lstat(path, &st) == 0) {
		*mode = st.st_mode & 07777;
		return S_ISREG(st.st_mode) && st.st_nlink == 1 && st.st_uid == geteuid();
	}
	if (errno != ENOENT)
		return false;
	mask = umask(0);
	umask(mask);
	*mode = 0666 & ~mask;
	return true;
}

/*
 * To a file: written whole into a temporary file beside it, then renamed
 * over it, so a reader (or a run interrupted while writing) never sees half
 * a document.  When no temporary file can be made there, in place.
 */
static int finish_file(const struct pb_out *out, const char *cmd, const char *path)
{
	char tmp[PATH_MAX];
	mode_t mode = 0666;
	int fd = -1, r;

	if (replaceable(path, &mode))
		fd = make_sibling(path, tmp, sizeof(tmp));
	if (fd < 0) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0) {
			r = -errno;
			pb_err(cmd, "--output: cannot create '%s': %s", path, strerror(-r));
			return r;
		}
		tmp[0] = '\0';
	} else if (fchmod(fd, mode) != 0) {
		/* mkstemp's 0600 stays: stricter, still safe. */
	}
	r = write_all(fd, out->buf, out->len);
	if (close(fd) != 0 && r == 0)
		r = -errno;
	if (tmp[0]) {
		if (r == 0 && rename(tmp, path) != 0)
			r = -errno;
		if (r)
			unlink(tmp);
		pb_cleanup_del_path(tmp);
	}
	if (r)
		pb_err(cmd, "cannot write %s: %s", path, strerror(-r));
	return r;
}

/* The document transform --format asked for (pb_out_set_transform), or NULL. */
static pb_out_transform out_transform;

void pb_out_set_transform(pb_out_transform fn)
{
	out_transform = fn;
}

/* OUT's buffer, one JSON document, rewritten by the transform in place.
 * Anything that is not one JSON document is left as it is. */
static void out_apply_transform(struct pb_out *out)
{
	struct json_object *doc = out->buf ? json_tokener_parse(out->buf) : NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if (!doc)
		return;
	fp = open_memstream(&buf, &len);
	if (fp) {
		out_transform(doc, fp);
		if (fclose(fp) == 0) {
			free(out->buf);
			out->buf = buf;
			out->len = len;
		} else {
			free(buf);
		}
	}
	json_object_put(doc);
}

int pb_out_finish(struct pb_out *out, const char *cmd, const char *path)
{
	int r;

	if (fclose(out->fp) != 0) {
		r = -errno;
		out->fp = NULL;
		pb_out_discard(out);
		pb_err(cmd, "output: %s", strerror(-r));
		return r;
	}
	out->fp = NULL;
	if (out_transform)
		out_apply_transform(out);
	if (path) {
		r = finish_file(out, cmd, path);
	} else {
		r = write_all(STDOUT_FILENO, out->buf, out->len);
		if (r && r != -EPIPE)
			pb_err(cmd, "cannot write standard output: %s", strerror(-r));
	}
	pb_out_discard(out);
	return r;
}
