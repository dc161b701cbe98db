/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysops.h"

/* Raw syscall: glibc's wrapper could validate flags or fall back. */
static int raw_pipe2(int fd[2], int flags)
{
	return (int)syscall(SYS_pipe2, fd, flags);
}

static int real_fcntl(int fd, int cmd, long arg)
{
	return fcntl(fd, cmd, arg);
}

static int real_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg);
}

static int real_open(const char *path, int flags, mode_t mode)
{
	return open(path, flags, mode);
}

const struct pb_sysops pb_sysops_real = {
	.pipe2 = raw_pipe2,
	.read = read,
	.write = write,
	.close = close,
	.dup = dup,
	.fcntl = real_fcntl,
	.ioctl = real_ioctl,
	.open = real_open,
	.mkfifo = mkfifo,
	.mknod = mknod,
	.fstat = fstat,
	.stat = stat,
	.poll = poll,
	.select = select,
	.lseek = lseek,
	.pread = pread,
	.pwrite = pwrite,
	.futimens = futimens,
	.splice = splice,
	.tee = tee,
	.vmsplice = vmsplice,
	.fpathconf = fpathconf,
	.pathconf = pathconf,
	.uname = uname,
	.readlink = readlink,
	.mmap = mmap,
	.munmap = munmap,
	.fsync = fsync,
	.fdatasync = fdatasync,
	.ftruncate = ftruncate,
	.posix_fadvise = posix_fadvise,
	.epoll_create1 = epoll_create1,
	.epoll_ctl = epoll_ctl,
	.epoll_wait = epoll_wait,
};
