/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The injectable system-call layer used by conformance checks.
 *
 * Checks make every kernel call whose result they judge through a
 * `struct pb_sysops`; pb_sysops_real is the real kernel (raw syscalls where
 * libc could mask the kernel: pipe2).  Tests hand a check a table in which
 * one call misbehaves, and prove the check then reports FAIL.
 */
#ifndef PB_SYSOPS_H
#define PB_SYSOPS_H

#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/utsname.h>

struct pb_sysops {
	int (*pipe2)(int fd[2], int flags);          /* raw SYS_pipe2 */
	ssize_t (*read)(int fd, void *buf, size_t n);
	ssize_t (*write)(int fd, const void *buf, size_t n);
	int (*close)(int fd);
	int (*dup)(int fd);
	int (*fcntl)(int fd, int cmd, long arg);
	int (*ioctl)(int fd, unsigned long req, void *arg);
	int (*open)(const char *path, int flags, mode_t mode);
	int (*mkfifo)(const char *path, mode_t mode);
	int (*mknod)(const char *path, mode_t mode, dev_t dev);
	int (*fstat)(int fd, struct stat *st);
	int (*stat)(const char *path, struct stat *st);
	int (*poll)(struct pollfd *fds, nfds_t n, int timeout_ms);
	int (*select)(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv);
	off_t (*lseek)(int fd, off_t off, int whence);
	ssize_t (*pread)(int fd, void *buf, size_t n, off_t off);
	ssize_t (*pwrite)(int fd, const void *buf, size_t n, off_t off);
	int (*futimens)(int fd, const struct timespec ts[2]);
	ssize_t (*splice)(int in, loff_t *off_in, int out, loff_t *off_out, size_t len,
			  unsigned flags);
	ssize_t (*tee)(int in, int out, size_t len, unsigned flags);
	ssize_t (*vmsplice)(int fd, const struct iovec *iov, unsigned long n, unsigned flags);
	long (*fpathconf)(int fd, int name);
	long (*pathconf)(const char *path, int name);
	/* Added for the PL/MD/LX checks. */
	int (*uname)(struct utsname *u);             /* kernel version gates */
	ssize_t (*readlink)(const char *path, char *buf, size_t n);
	void *(*mmap)(void *addr, size_t len, int prot, int flags, int fd, off_t off);
	int (*munmap)(void *addr, size_t len);
	int (*fsync)(int fd);
	int (*fdatasync)(int fd);
	int (*ftruncate)(int fd, off_t len);
	int (*posix_fadvise)(int fd, off_t off, off_t len, int advice); /* returns errno */
	/* Added for the wake-up checks (LX-09). */
	int (*epoll_create1)(int flags);
	int (*epoll_ctl)(int ep, int op, int fd, struct epoll_event *ev);
	int (*epoll_wait)(int ep, struct epoll_event *evs, int max, int timeout_ms);
	/* Add new calls at the end; keep pb_sysops_real in the same order. */
};

/* The real kernel. */
extern const struct pb_sysops pb_sysops_real;

#endif
