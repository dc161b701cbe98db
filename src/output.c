/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "msg.h"
#include "output.h"
#include "sysinfo.h"

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

struct json_object *pb_doc_new(const char *command, const struct pb_sysinfo *si)
{
	struct json_object *doc = json_object_new_object();

	json_object_object_add(doc, "tool", json_object_new_string(PACKAGE_NAME));
	json_object_object_add(doc, "version", json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(doc, "schema_version", json_object_new_int(PB_SCHEMA_VERSION));
	json_object_object_add(doc, "command", json_object_new_string(command));
	if (si)
		json_object_object_add(doc, "system", pb_sysinfo_json(si));
	json_object_object_add(doc, "errors", json_object_new_array());
	return doc;
}

void pb_doc_add_error(struct json_object *doc, const char *msg)
{
	struct json_object *errs;

	if (!json_object_object_get_ex(doc, "errors", &errs)) {
		errs = json_object_new_array();
		json_object_object_add(doc, "errors", errs);
	}
	json_object_array_add(errs, json_object_new_string(msg));
}

void pb_doc_write(struct json_object *doc, int exit_status, FILE *fp)
{
	json_object_object_add(doc, "exit_status", json_object_new_int(exit_status));
	fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE), fp);
	fputc('\n', fp);
}

void pb_json_add_int(struct json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

void pb_json_add_double(struct json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, isfinite(v) ? json_object_new_double(v) : NULL);
}

void pb_json_add_str(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, v ? json_object_new_string(v) : NULL);
}

void pb_status_set(int *status_out, char *buf, size_t len, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	*status_out = status;
}

void pb_csv_field(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}
