#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Output failures for every command: standard output on a full device, or
# an --output file that fails while being written, is exit 3 with a message;
# a reader that closes standard output early causes no crash and no noise.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
[ -w /dev/full ] || skip_all "no /dev/full"
tap_tmpdir
A="$TEST_TMP/a.json"
"$PIPEBENCH" throughput --loops 5 --repeat 2 --warmup 0 --format json --output "$A" || exit 99

CMDS="throughput --loops 5 --repeat 1
conformance --only CRE-01,RD-02
timestamps
o_noatime --loops 20 --repeat 1
messaging --groups 1 --fds 2 --loops 5 --repeat 1 --warmup 0
compare $A $A
report --quick --parts timestamps"
# What main writes itself: help, version and the listings, each with the
# errno in one line (prefix|arguments).
HELPS="pipebench|--help
pipebench|--version
pipebench|help
pipebench throughput|help throughput
pipebench throughput|throughput --help
pipebench plot|plot --help
pipebench|--list-commands
pipebench throughput|throughput --list-options
pipebench compare|compare --list-operands"
LISTS="conformance --list
conformance --list --format json"

while IFS='|' read -r who args; do
	$PIPEBENCH $args >/dev/full 2>"$TEST_TMP/err"; rc=$?
	is "$rc" 3 "$args: stdout on a full device exits 3"
	is "$(cat "$TEST_TMP/err")" "$who: cannot write standard output: No space left on device" \
		"$args: one line with the errno"
done <<EOF_HELPS
$HELPS
EOF_HELPS

# A reader that went away before help or a listing is written: exit 0, as
# written, and nothing said.  gone_reader runs its command with standard
# output on a pipe whose read end is already closed (perl-base is in every
# Debian root), so the write always comes after the reader has gone.
gone_reader() {
	perl -e 'pipe(my $r, my $w) or die "pipe: $!"; close $r;
		open(STDOUT, ">&", $w) or die "dup: $!"; close $w;
		exec { $ARGV[0] } @ARGV or die "exec: $!"' -- "$@"
}
closed_reader() {
	gone_reader $PIPEBENCH "$@" 2>"$TEST_TMP/err"; echo $? >"$TEST_TMP/rc"
	is "$(cat "$TEST_TMP/rc")" 0 "$*: a reader that went away: exit 0"
	is "$(cat "$TEST_TMP/err")" "" "$*: a reader that went away: nothing said"
}
while IFS='|' read -r who args; do
	closed_reader $args
done <<EOF_HELPS
$HELPS
EOF_HELPS
while read -r line; do
	closed_reader $line
done <<EOF_LISTS
$LISTS
EOF_LISTS
# ... while a document whose reader went away is still exit 3, quietly.
for f in json text; do
	gone_reader $PIPEBENCH timestamps --format $f 2>"$TEST_TMP/err"; echo $? >"$TEST_TMP/rc"
	is "$(cat "$TEST_TMP/rc")" 3 "timestamps --format $f to a reader that went away: exit 3"
done
gone_reader $PIPEBENCH conformance --only CRE-01 2>"$TEST_TMP/err"; echo $? >"$TEST_TMP/rc"
is "$(cat "$TEST_TMP/rc")" 3 "conformance to a reader that went away: exit 3"
is "$(cat "$TEST_TMP/err")" "" "... and nothing said"

while read -r line; do
	name=${line%% *}
	$PIPEBENCH $line >/dev/full 2>"$TEST_TMP/err"; rc=$?
	is "$rc" 3 "$name: stdout on a full device exits 3"
	grep -q 'No space left on device' "$TEST_TMP/err"; ok $? "$name: the write error is reported"
	$PIPEBENCH $line --output /dev/full 2>"$TEST_TMP/err"; rc=$?
	is "$rc" 3 "$name: --output that fails while written exits 3"
	( $PIPEBENCH $line --format json 2>"$TEST_TMP/err"; echo $? >"$TEST_TMP/rc" ) | head -1 >/dev/null
	[ "$(cat "$TEST_TMP/rc")" -lt 128 ]; ok $? "$name: closed stdout is no crash"
	[ ! -s "$TEST_TMP/err" ]; ok $? "$name: closed stdout is no error spam"
	if [ -s "$TEST_TMP/err" ]; then diag "$(head -3 "$TEST_TMP/err")"; fi
done <<EOF_CMDS
$CMDS
latency --loops 50 --repeat 1 --warmup 0
EOF_CMDS

# No memory for the document: every command exits 3 with one line saying
# so (its output buffer, or the script plot builds first), writes nothing
# and leaves nothing behind.
if fault_layer; then
	while IFS= read -r c; do
		set -f
		# shellcheck disable=SC2086 # a command line, word-split on purpose
		set -- $c
		set +f
		PB_FAULT_HARNESS=memstream faulty "" "$PIPEBENCH" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
		rc=$?
		is "$rc/$(wc -l <"$TEST_TMP/err" | tr -d ' ')/$(wc -c <"$TEST_TMP/out" | tr -d ' ')" "3/1/0" \
			"$1 without memory for its document: exit 3, one line, no output"
		grep -Eq "^pipebench $1: (cannot allocate output buffer|out of memory)\$" "$TEST_TMP/err"
		ok $? "$1 without memory for its document: the line says so"
		tmp_empty; ok $? "$1 without memory for its document: nothing left behind"
	done <<EOF_CMDS
$CMDS
latency --loops 50 --repeat 1 --warmup 0
grid $A
plot $A
EOF_CMDS
else
	skip 30 "tests/faultinj.so or timeout(1) missing"
fi

# The document built, and closing its memory stream fails (the last flush
# finds no memory): exit 3 (bisect: 125, cannot decide), the error's line
# (report's part warns first), nothing written, nothing left behind.
if fault_layer; then
	while IFS= read -r c; do
		set -f
		# shellcheck disable=SC2086 # a command line, word-split on purpose
		set -- $c
		set +f
		PB_FAULT_HARNESS=memstream-close faulty "" "$PIPEBENCH" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
		rc=$?
		want=3/1/0
		case $1 in report) want=3/2/0 ;; bisect) want=125/1/0 ;; esac
		is "$rc/$(wc -l <"$TEST_TMP/err" | tr -d ' ')/$(wc -c <"$TEST_TMP/out" | tr -d ' ')" "$want" \
			"$1 whose document's stream fails to close: exit, lines, no output ($want)"
		tail -n 1 "$TEST_TMP/err" | grep -Eq "^pipebench $1: (output: Cannot allocate memory|out of memory)\$"
		ok $? "$1 whose document's stream fails to close: the line says so"
		tmp_empty; ok $? "$1 whose document's stream fails to close: nothing left behind"
	done <<EOF_CMDS
$CMDS
latency --loops 50 --repeat 1 --warmup 0
grid $A
plot $A
plot --format gnuplot $A
bisect --good $A $A
throughput --loops 5 --repeat 1 --format kcidb
EOF_CMDS
else
	skip 39 "tests/faultinj.so or timeout(1) missing"
fi
done_testing
