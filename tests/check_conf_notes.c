/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What each check says on the real kernel, word for word.  The broken-kernel
 * tests (check_conf_core.c, check_conf_conditions*.c) make each condition
 * fail; these make the pass path's own figures count: the verdict must be
 * exactly the one a Linux kernel without pipe bugs earns (pass, or info for
 * NB-05's slot accounting), and the detail must be the one the kernel's
 * behaviour dictates, with every size, count and errno in it.  A check that
 * quietly skipped, reported the wrong figure or dropped one of its notes
 * fails here.
 *
 * The sizes in the notes are those of a 4 KiB page and a 64 KiB default
 * pipe (16 pages); on another machine the verdicts are still asserted and
 * the details are not.  Descriptor numbers, a uid and an inode depend on
 * the process, so '#' in a pattern stands for one or more digits
 * (pb_test_matches, check_conf.h).  On a
 * loaded machine WR-04 may stop at its time budget, and RD-05 and SIG-04 may
 * not see the other process asleep in time; their notes then say so, which
 * a final '*' (anything) takes.  The rest of a pattern is literal.  Checks whose notes depend on the kernel version,
 * the C library, the filesystem, privileges or limits (FIFO-01, FC-05,
 * FC-06, PL-04, MD-03..05, LX-03, LX-04, LX-07) are left to their own tests;
 * CRE-05 and CRE-06 only must not fail and must say something.  Every check
 * of groups A-D is here (this replaces check_conf_core's "holds on the real
 * kernel", which asked only for no fail).
 */
#include <config.h>

#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check_conf.h"
#include "check_main.h"
#include "checkproc.h"
#include "checks/conformance.h"

/* A verdict that depends on the C library or limits: anything but fail or error. */
#define LAWFUL ((enum pb_verdict)-1)

static const struct row {
	const char *id;
	enum pb_verdict verdict;  /* or LAWFUL */
	const char *anon;  /* the detail on an anonymous pipe */
	const char *fifo;  /* on a FIFO (checks that run on both); NULL: the same words */
} rows[] = {
	{ "CRE-01", PB_PASS, "fds #,# distinct; \"abcdef\" in order; O_RDONLY/O_WRONLY, no "
	  "O_NONBLOCK or FD_CLOEXEC; wrong-end read/write give EBADF", NULL },
	{ "CRE-02", PB_PASS, "{#,#} expected and got; read end on the lower one", NULL },
	{ "CRE-03", PB_PASS, "FD_CLOEXEC on both ends; both closed after execve (control "
	  "descriptors stayed open)", NULL },
	{ "CRE-04", PB_PASS, "O_NONBLOCK on both ends; empty read -1/EAGAIN", NULL },
	{ "CRE-05", LAWFUL, NULL, NULL },
	{ "CRE-06", LAWFUL, NULL, NULL },
	{ "CRE-07", PB_PASS, "(int *)8 and a read-only page: -1/EFAULT; open fds # -> #", NULL },
	{ "CRE-08", PB_PASS, "5 calls (pipe(), pipe2() with 0, O_CLOEXEC, O_NONBLOCK, O_DIRECT): "
	  "each added exactly its two descriptors (# -> #), closing both brought back #", NULL },
	{ "CRE-09", PB_PASS, "mkfifo: # -> # descriptors; open read end, write end: # -> # -> #; "
	  "both closed: #", NULL },
	{ "CRE-10", PB_PASS, "close of each end returned 0, freed its fd (EBADF after) and "
	  "dropped the open count by one, to #", NULL },
	{ "RD-01", PB_PASS, "read(100) returned the 10 queued bytes at once", NULL },
	{ "RD-02", PB_PASS, "reads after the writer closed: 5, 0, 0", NULL },
	{ "RD-03", PB_PASS, "nonblocking read of an empty pipe with a writer: -1/EAGAIN",
	  "nonblocking read of an empty FIFO with a writer: -1/EAGAIN" },
	{ "RD-04", PB_PASS, "blocking read of an empty pipe blocked until the 300 ms SIGALRM (EINTR)",
	  "blocking read of an empty FIFO blocked until the 300 ms SIGALRM (EINTR)" },
	{ "RD-05", PB_PASS, "read() restarted after the SA_RESTART handler and returned 'X'*",
	  NULL },
	{ "RD-06", PB_PASS, "dup of the write end open: EAGAIN; all closed: EOF", NULL },
	{ "RD-07", PB_PASS, "6/6 blocked readers woke with EOF (#/6 confirmed sleeping)", NULL },
	{ "WR-01", PB_PASS, "(a) 96 B free: write(200) blocked, EINTR, FIONREAD stayed 65440; "
	  "(b) full: write(1) blocked, EINTR", NULL },
	{ "WR-02", PB_PASS, "interrupted write of 73728 returned 65536 (capacity 65536)", NULL },
	{ "WR-03", PB_PASS, "write(1048699) returned 1048699; the reader got every byte in order",
	  NULL },
	{ "WR-04", PB_PASS, "#/12000 records whole and in order blocking, #/12000 nonblocking "
	  "(4 writers, 8192-byte pipe)*", "#/12000 records whole and in order blocking, #/12000 "
	  "nonblocking (4 writers, 8192-byte FIFO)*" },
	{ "WR-05", PB_PASS, "PIPE_BUF 4096 everywhere (both pipe ends, FIFO, directory)", NULL },
	{ "WR-06", PB_PASS, "read(0) = 0 without blocking; write(0) with no reader = 0, no SIGPIPE; "
	  "O_DIRECT write(0) adds no packet", "read(0) = 0 without blocking; write(0) with no "
	  "reader = 0, no SIGPIPE" },
	{ "NB-01", PB_PASS, "empty: write(PIPE_BUF)=4096, write(1)=1; full: write(1) and "
	  "write(PIPE_BUF) EAGAIN, FIONREAD unchanged; 96 B free: write(200) EAGAIN, write(96)=96",
	  NULL },
	{ "NB-02", PB_PASS, "full pipe: write(3*PIPE_BUF) = -1/EAGAIN",
	  "full FIFO: write(3*PIPE_BUF) = -1/EAGAIN" },
	{ "NB-03", PB_PASS, "2 pages free: write(5 pages)=8192; empty 65536 B: write(1048576)=65536; "
	  "empty 4096 B: write(12288)=4096", NULL },
	{ "NB-04", PB_PASS, "FIONBIO on the write end: seen by its dup, not by the read end; "
	  "F_SETFL on the dup: seen by the original", NULL },
	{ "NB-05", PB_INFO, "1 B + 15 pages: FIONREAD 61441 of 65536, write(1) = -1/EAGAIN; 96 B "
	  "free in the last page: write(10000) = -1/EAGAIN, write(4146) = 50", NULL },
	{ "SIG-01", PB_PASS, "writer killed by SIGPIPE", NULL },
	{ "SIG-02", PB_PASS, "SIG_IGN: EPIPE; handler: EPIPE, handler ran once first", NULL },
	{ "SIG-03", PB_PASS, "SIGPIPE pending in the writing thread only", NULL },
	{ "SIG-04", PB_PASS, "write returned 65536 of 131072; SIGPIPE x1 after the partial write, "
	  "x2 after the next; then EPIPE*", NULL },
	{ "SIG-05", PB_PASS, "data discarded: the reopened FIFO is empty (EAGAIN)", NULL },
	{ "FIFO-02", PB_PASS, "O_RDONLY|O_NONBLOCK returned at once with no writer", NULL },
	{ "FIFO-03", PB_PASS, "ENXIO without a reader, success with one", NULL },
	{ "FIFO-04", PB_PASS, "both blocking opens blocked until the timer (EINTR)", NULL },
	{ "FIFO-05", PB_PASS, "both opens completed; 3 bytes passed", NULL },
	{ "FIFO-06", PB_PASS, "O_RDWR opens at once (blocking and nonblocking), counts as a "
	  "reader, loops data to itself", NULL },
	{ "FIFO-07", PB_PASS, "EOF with no writer ever; EAGAIN when empty with a writer; EAGAIN "
	  "into a full FIFO (65536 bytes)", NULL },
	{ "FIFO-08", PB_PASS, "same inode; st_size 0 after 5 bytes; F_GETPIPE_SZ 65536; FIONREAD 5; "
	  "lseek ESPIPE", NULL },
	{ "FC-01", PB_PASS, "FIONREAD 123 on both ends", NULL },
	{ "FC-02", PB_PASS, "default capacity 65536 (16 pages of 4096)", NULL },
	{ "FC-03", PB_PASS, "5000 -> 8192, 0 -> 4096, 65537 -> 131072, 12288 -> 16384, the other "
	  "end agrees", NULL },
	{ "FC-04", PB_PASS, "EBUSY below the occupied slots (size and data kept), 4 pages then set; "
	  "EINVAL for (1U<<31)+1 and -1; EBADF on a regular file", NULL },
	{ "PL-01", PB_PASS, "empty: 0/POLLOUT; data: POLLIN; full (65536 bytes): no POLLOUT; "
	  "POLLOUT again after reading 4096", NULL },
	{ "PL-02", PB_PASS, "data left: 0x11; drained: 0x10", NULL },
	{ "PL-03", PB_PASS, "revents 0xc", NULL },
	{ "PL-05", PB_PASS, "EOF read end readable; full reader-less write end writable", NULL },
	{ "MD-01", PB_PASS, "mode 0600, uid #, nlink 1, st_size 0 with 5000 bytes queued, "
	  "st_blksize 4096, st_blocks 0", NULL },
	{ "MD-02", PB_PASS, "lseek x2, pread, pwrite: ESPIPE; posix_fadvise returns ESPIPE; fsync, "
	  "fdatasync, ftruncate: EINVAL; mmap: ENODEV", NULL },
	{ "MD-06", PB_PASS, "link 'pipe:[#]'; reopened writer: EAGAIN, data, then EOF", NULL },
	{ "LX-01", PB_PASS, "packets kept; short read discards the rest; 4106 -> 4096+10; write(0) "
	  "adds no packet", NULL },
	{ "LX-02", PB_PASS, "write end only; F_SETFL enables packets; FIFO quirk verified: "
	  "open(O_RDWR|O_DIRECT) EINVAL, F_SETFL O_DIRECT enables packets", NULL },
	{ "LX-05", PB_PASS, "tee 5/5/5; splice off_in ESPIPE; splice 5/0/10; tee self EINVAL; "
	  "vmsplice full EAGAIN", NULL },
	{ "LX-06", PB_PASS, "not vulnerable: the file still reads \"AAAA\"", NULL },
};
#define NROWS (int)(sizeof(rows) / sizeof(rows[0]))

/* Loop index i: row i/2, anon for even i and fifo for odd (both-kind checks). */
START_TEST(says_what_the_kernel_did)
{
	const struct row *w = &rows[_i / 2];
	const struct pb_check *c = pb_test_find_check(w->id);
	enum pb_kind kind = _i % 2 ? PB_KIND_FIFO : PB_KIND_ANON;
	struct pb_run_opts o = { .sys = NULL, .kind = kind, .timeout_s = 30 };
	struct pb_check_result r;
	const char *want;

	ck_assert_msg(c != NULL, "%s is not in the catalogue", w->id);
	if (kind == PB_KIND_FIFO && !(c->flags & PB_CHECK_BOTH_KINDS))
		return;
	want = kind == PB_KIND_FIFO && w->fifo ? w->fifo : w->anon;
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_msg(!r.timed_out, "%s (%s): the watchdog, not the check, ended it: %s", w->id,
		      pb_kind_names[kind], r.detail);
	ck_assert_msg(r.detail[0] != '\0', "%s (%s) says nothing", w->id, pb_kind_names[kind]);
	if (w->verdict == LAWFUL) {
		ck_assert_msg(r.verdict != PB_FAIL && r.verdict != PB_ERROR, "%s (%s): %s: %s",
			      w->id, pb_kind_names[kind], pb_verdict_names[r.verdict], r.detail);
		return;
	}
	ck_assert_msg(r.verdict == w->verdict, "%s (%s): %s, expected %s: %s", w->id,
		      pb_kind_names[kind], pb_verdict_names[r.verdict],
		      pb_verdict_names[w->verdict], r.detail);
	if (pb_test_reference_machine())
		ck_assert_msg(pb_test_matches(want, r.detail), "%s (%s) says\n  %s\nexpected\n  %s",
			      w->id, pb_kind_names[kind], r.detail, want);
}
END_TEST

/* Every check of groups A-D has a row (they had a real-kernel test before). */
START_TEST(every_core_check_has_a_row)
{
	const struct pb_check *const groups[] = { pb_checks_creation, pb_checks_read,
						  pb_checks_write, pb_checks_nonblock };

	for (size_t g = 0; g < 4; g++)
		for (const struct pb_check *c = groups[g]; c->id; c++) {
			bool found = false;

			for (int i = 0; i < NROWS; i++)
				found = found || strcmp(rows[i].id, c->id) == 0;
			ck_assert_msg(found, "%s has no real-kernel row", c->id);
		}
}
END_TEST

/* The matcher itself: '#' is one or more digits, all else literal. */
START_TEST(pattern_matcher)
{
	ck_assert(pb_test_matches("fds #,# x", "fds 3,4 x"));
	ck_assert(pb_test_matches("a #", "a 1234567"));
	ck_assert(!pb_test_matches("a #", "a "));
	ck_assert(!pb_test_matches("a #", "a x"));
	ck_assert(!pb_test_matches("a #", "a 12x"));
	ck_assert(!pb_test_matches("a b", "a bc"));
	ck_assert(!pb_test_matches("a bc", "a b"));
	ck_assert(pb_test_matches("", ""));
	ck_assert(pb_test_matches("read \\#2 x", "read #2 x"));
	ck_assert(!pb_test_matches("read \\#2", "read 12"));
	ck_assert(pb_test_matches("a*", "a"));
	ck_assert(pb_test_matches("a*", "abc; more"));
	ck_assert(!pb_test_matches("a*", "b"));
	ck_assert(!pb_test_matches("a", "a*"));
}
END_TEST

int main(int argc, char **argv)
{
	/* CRE-03 re-executes /proc/self/exe, which is this test program. */
	int probe = pb_checkproc_probe_main(argc, (const char *const *)argv);

	if (probe >= 0)
		return probe;
	return pb_test_run_suite(pb_test_suite("conf_notes", (const struct pb_tcase *const[]){
		PB_TCASE("matcher", pattern_matcher, every_core_check_has_a_row),
		PB_TCASE_LOOP("real_kernel", 120, says_what_the_kernel_did, 2 * NROWS), NULL }));
}
