/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Leave nothing behind.  Paths (FIFOs, private temp directories) and child
 * processes are registered here while they exist; on SIGINT, SIGTERM or
 * SIGHUP the handler removes the paths, kills and reaps the children and
 * exits with 128+signal.  The optional watchdog (SIGALRM) does the same and
 * exits with 3.
 *
 * This module holds the only process-wide mutable state of the library,
 * because a signal handler needs it; everything in the handler is
 * async-signal-safe (unlink, rmdir, kill, waitpid, write, _exit).
 */
#ifndef PB_CLEANUP_H
#define PB_CLEANUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Install the handlers for SIGINT, SIGTERM, SIGHUP and SIGALRM. */
void pb_cleanup_install(const char *cmd);

/*
 * Deferred interruption, for commands that must still write a document of
 * what they finished (conformance, report).  With it on, the first SIGINT,
 * SIGTERM or SIGHUP only records the signal and sends SIGTERM to the
 * registered children (and their process groups); the command notices
 * pb_cleanup_interrupted() != 0, marks the interrupted work, writes its
 * output and calls pb_cleanup_exit_interrupted(), which cleans up and exits
 * 128+signal.  A second, different signal (or the same one more than a
 * second later: timeout(1) signals its child and then its group) cleans up
 * and exits at once.
 */
void pb_cleanup_defer_signals(bool on);
int pb_cleanup_interrupted(void);   /* the recorded signal, or 0 */
__attribute__((noreturn)) void pb_cleanup_exit_interrupted(void);

/* In a forked child: forget the parent's registry, default handlers. */
void pb_cleanup_child_reset(void);

/* Register a file (is_dir = 0) or directory to remove on a signal. */
int pb_cleanup_add_path(const char *path, int is_dir);
/* Forget PATH (after removing it yourself). */
void pb_cleanup_del_path(const char *path);

/*
 * fork() with the cleanup signals blocked until the child is registered
 * (parent) or has forgotten the parent's registry and handlers (child), so
 * no signal can leave a child unregistered or make a child clean up what
 * its parent owns.  Returns as fork(); -1 with errno on failure (also when
 * the child could not be registered: it is then killed and reaped).
 */
pid_t pb_cleanup_fork(void);

int pb_cleanup_add_child(pid_t pid);
void pb_cleanup_del_child(pid_t pid);

/*
 * Arm (seconds > 0) or disarm (0) the watchdog.  When it fires,
 * pb_watchdog_fired() turns true: a loop that polls it stops and reports
 * the timeout through its normal output (JSON documents still parse).  A
 * command that has not stopped PB_WATCHDOG_GRACE_S seconds later is cleaned
 * up and exits with status 3 after `pipebench CMD: WHAT: timed out after N s`.
 */
#define PB_WATCHDOG_GRACE_S 2
void pb_watchdog_arm(double seconds, const char *what);
bool pb_watchdog_fired(void);

/*
 * Make a private directory (mode 0700, unpredictable name) under BASE
 * (NULL: $TMPDIR or /tmp) and register it.  -errno on failure.
 */
int pb_tmpdir_make(const char *base, char *out, size_t len);

/* Remove a registered directory made by pb_tmpdir_make (must be empty). */
void pb_tmpdir_remove(const char *dir);

/* The base directory for temporary files: $TMPDIR if set and non-empty, else /tmp. */
const char *pb_tmpdir_base(void);

/*
 * Check that DIR is usable for FIFOs: an existing, writable, searchable
 * directory.  Returns 0 or -errno (-ENOTDIR when it is not a directory).
 */
int pb_dir_usable(const char *dir);

/*
 * Probe DIR the way the commands use it, for real (access() says yes to
 * root on /proc and the like): pb_dir_usable, then a private directory made
 * in it (pb_tmpdir_make) and removed again.  No FIFO: bad input makes none
 * (tests/badinput.sh), and a FIFO that cannot be made is the run's own
 * error.  Returns 0, or -errno of the step that failed with *STEP saying
 * which, to go before the errno in a message: "" (stat or access: the errno
 * says it all) or "cannot make a directory in it: mkdir".
 */
int pb_dir_probe(const char *dir, const char **step);

/*
 * Empty DIR one level deep (files, and empty directories) with raw
 * getdents64, async-signal-safe: whatever a killed child left in a private
 * directory.
 */
void pb_cleanup_empty_dir(const char *dir);

#endif
