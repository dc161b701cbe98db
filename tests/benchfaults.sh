#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The benchmarks on a kernel that misbehaves: throughput, latency and
# messaging under tests/faultinj.so (PB_FAULT=..., the interposer of
# tests/faults.sh), one fault a run.  Where a command observes the fault it
# must stop with the documented status (3: "the kernel lost data", see
# EXIT STATUS), one line naming what went wrong and where, and nothing left
# in TMPDIR -- never exit 0 with a figure of a
# broken pipe.  A --timeout bounds a party that never returns.  The faults
# a benchmark does not observe today (duplicated, reordered or torn bytes in
# read/write mode, which it does not verify) are not asserted here.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
PB=${PIPEBENCH:?}
SO=${TESTS_BUILDDIR:?}/faultinj.so
command -v timeout >/dev/null 2>&1 || skip_all "timeout(1) not found"
[ -f "$SO" ] || skip_all "$SO not built"
PRELOAD=$SO
asan=$(ldd "$PB" 2>/dev/null | awk '/libasan\.so/ { print $3; exit }')
[ -n "$asan" ] && PRELOAD="$asan:$SO"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS


# faulty FAULT ARGS...: run pipebench ARGS with FAULT injected (rc, out, err).
faulty() {
	f=$1; shift
	run timeout -k 5 60 env PB_FAULT="$f" "LD_PRELOAD=$PRELOAD" "$PB" "$@"
}

# expect WHAT WANT_RC PATTERN: the run's status, one line matching the
# extended regular expression PATTERN on stderr, nothing left behind (the
# text written before the fault stays on stdout).
expect() {
	is "$rc" "$2" "$1: exit $2"
	is "$(nlines "$err")" 1 "$1: one line on stderr"
	printf '%s\n' "$err" | grep -Eq -- "$3"
	ok $? "$1: the message says what the kernel did ($3)"
	tmp_empty
	ok $? "$1: nothing left in TMPDIR"
}

# read/write mode counts what the reader got against what was written: a
# write that queues one byte less than it reports loses data.
faulty lost-bytes throughput --loops 20 --warmup 0 --repeat 1 --size 4096
expect "throughput under lost-bytes" 3 \
	'anon: loop 0: wrote [0-9]+ bytes but read [0-9]+: the kernel lost or invented data$'
# ... with --precision: no row has a repetition, so no precision line (how
# close a row came) is written for one
faulty lost-bytes throughput --loops 20 --warmup 0 --repeat 2 --size 4096 --kind anon,fifo \
	--precision 5
is "$rc|$(printf '%s\n' "$out" | grep -c '^precision')" "3|0" \
	"throughput --precision under lost-bytes: exit 3, no precision line for a row never measured"
# A write that returns 0 is neither progress nor "full".
faulty write-zero throughput --loops 20 --warmup 0 --repeat 1 --size 4096
expect "throughput under write-zero" 3 \
	'write\(\) returned 0 instead of -1 with EAGAIN'
# vmsplice verifies every byte: reordered bytes are corruption, with the
# offset and both values named.
faulty reorder throughput --loops 20 --warmup 0 --repeat 1 --size 100 --mode vmsplice
expect "throughput --mode vmsplice under reorder" 3 \
	'anon vmsplice: loop 0, byte [0-9]+: received 0x[0-9a-f]{2} where 0x[0-9a-f]{2} was sent: the kernel corrupted data$'
# latency: party B reads end of file although A's write end is open.
faulty early-eof latency --loops 200 --repeat 1
expect "latency under early-eof" 3 \
	'anon any block: party B ended early: (EPIPE on the A-to-B|end of file on the B-to-A) channel$'
faulty early-eof latency --loops 200 --repeat 1 --kind fifo
# (which channel B's early end is seen on first depends on the timing)
expect "latency --kind fifo under early-eof" 3 \
	'fifo any block: party B ended early: (EPIPE on the A-to-B|end of file on the B-to-A) channel$'
# messaging: a receiver that reads end of file before its messages.
faulty early-eof messaging --loops 20 --groups 1
expect "messaging under early-eof" 3 \
	'group 0 receiver [0-9]+: read: end of file before all messages arrived'
# A read that never returns: --timeout stops the run and says so.
faulty hung-read latency --loops 200 --repeat 1 --timeout 1
expect "latency --timeout 1 under hung-read" 3 '^pipebench latency: --timeout: timed out after 1 s$'
faulty hung-read messaging --loops 20 --groups 1 --timeout 1
expect "messaging --timeout 1 under hung-read" 3 '^pipebench messaging: --timeout: timed out after 1 s$'
# throughput stops too, but names the interrupted read instead of the
# timeout, and still writes a document (known; not yet fixed).
faulty hung-read throughput --loops 20 --warmup 0 --repeat 1 --timeout 1
is "$rc" 3 "throughput --timeout 1 under hung-read: exit 3"
tmp_empty; ok $? "throughput --timeout 1 under hung-read: nothing left in TMPDIR"
tap_n=$((tap_n + 1))
if printf '%s\n' "$err" | grep -q -- '--timeout: timed out after 1 s'; then r=ok; else r="not ok"; fi
echo "$r $tap_n - throughput --timeout 1 under hung-read: the message names the timeout # TODO it says '${err#pipebench throughput: }'"
# latency's party B: end of file in the middle of a message (its read of
# 100 bytes gets 50, then 0) -- B's own message reaches the user.
faulty eof-midway latency --loops 200 --repeat 1 --size 100
expect "latency --size 100 under eof-midway" 3 \
	'anon any block: party B: read: end of file inside a message$'
done_testing
