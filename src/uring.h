/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_uring on pipes (liburing): reads and writes submitted one at a time
 * for throughput --mode io_uring, and the probe of how the running kernel
 * completes them.
 *
 * Until Linux 6.4 pipes lacked FMODE_NOWAIT, so io_uring could not try a
 * pipe read or write without blocking and handed every one to a worker
 * thread of its io-wq pool ("iou-wrk-PID" in the process's task list);
 * with it, a read of an empty pipe waits on poll and no worker appears.
 * The probe observes which: it submits a read of an empty pipe, waits,
 * writes a byte, and looks for worker threads while it waits and after it
 * completed (a worker stays a while, idle), in a process of its own (io-wq
 * is per task, so no earlier worker is counted), once on a fresh pipe and
 * once on a pipe that vmsplice and splice have moved pages through.  It
 * also tries an RWF_NOWAIT read, which a file without FMODE_NOWAIT refuses.
 */
#ifndef PB_URING_H
#define PB_URING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "endpoint.h"

struct pb_uring;

/* Whether pipebench was built with liburing. */
bool pb_uring_built(void);

/* A ring of a few entries: 0, or -errno with *WHAT naming the call
 * ("io_uring_queue_init"; -ENOSYS when built without liburing). */
int pb_uring_open(struct pb_uring **u, const char **what);
void pb_uring_close(struct pb_uring *u);

/* write(2) and read(2) through the ring: one submission, its completion;
 * the count, or -1 with errno. */
ssize_t pb_uring_write(struct pb_uring *u, int fd, const void *buf, size_t n);
ssize_t pb_uring_read(struct pb_uring *u, int fd, void *buf, size_t n);

/* The same without RWF_NOWAIT: io_uring waits for the pipe (poll armed in
 * the kernel, or an io-wq worker blocked in the call); -1 with ETIMEDOUT
 * once the watchdog fired (pb_watchdog_fired, looked at every 100 ms). */
ssize_t pb_uring_write_wait(struct pb_uring *u, int fd, const void *buf, size_t n);
ssize_t pb_uring_read_wait(struct pb_uring *u, int fd, void *buf, size_t n);

/* pb_uring_write and pb_uring_read go with RWF_NOWAIT, so that io_uring says EAGAIN instead of
 * waiting for the pipe (it does not take O_NONBLOCK to mean that); on a
 * descriptor where the kernel refuses RWF_NOWAIT (EOPNOTSUPP: the file
 * has no FMODE_NOWAIT, as FIFOs before they got it) an op is submitted
 * only when poll() says the end is ready, linked to a 100 ms timeout.
 * pb_uring_reset forgets those descriptors (new pipe, same numbers);
 * pb_uring_used_plain says whether any op since the ring was opened went
 * that way. */
void pb_uring_reset(struct pb_uring *u);
bool pb_uring_used_plain(const struct pb_uring *u);

/* Why io_uring cannot be used, for a skip: ERR (a positive errno from
 * pb_uring_open) in words. */
const char *pb_uring_why(int err);

enum pb_uring_path { PB_URING_UNKNOWN, PB_URING_INLINE, PB_URING_IOWQ };
extern const char *const pb_uring_path_words[];   /* "unknown", "inline", "io-wq" */

struct pb_uring_probe {
	bool available;             /* a ring could be set up */
	int err;                    /* else why not (errno) */
	char why[200];              /* ... in words, or what went wrong probing */
	enum pb_uring_path fresh;   /* a fresh pipe */
	enum pb_uring_path spliced; /* after vmsplice and splice moved pages through it */
	int workers_fresh, workers_spliced; /* io-wq workers seen waiting */
	int nowait;                 /* RWF_NOWAIT on the fresh pipe: 1 taken (the file has
				       FMODE_NOWAIT), 0 refused (EOPNOTSUPP), -1 unknown */
};

/* Probe KIND (FIFOs made in DIR); 0, or -errno of the harness's own
 * failure (fork). */
int pb_uring_probe(enum pb_kind kind, const char *dir, struct pb_uring_probe *out);

/* A row's io_uring_* fields from the probe of its kind (null where not
 * PROBED or it found nothing). */
struct json_object;
void pb_uring_probe_fields(struct json_object *o, const struct pb_uring_probe *u, bool probed);

/* The text's "io_uring" lines: each of KINDS that was probed (PROBE and
 * PROBED indexed by kind), its path in words. */
void pb_uring_probe_text(FILE *fp, const struct pb_uring_probe *probe, const bool *probed,
			 const enum pb_kind *kinds, size_t nkinds);

#endif
