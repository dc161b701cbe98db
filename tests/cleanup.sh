#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Signals and the watchdog: FIFOs and private directories are removed and
# the exit status is 128+signal (3 for --timeout).
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir

plan 13

# Start a long FIFO run, wait until its private directory exists.
start_long() {
	$PIPEBENCH throughput --kind fifo --loops 100000000 --repeat 1 --warmup 0 \
		>/dev/null 2>"$TEST_TMP/err" &
	pid=$!
	i=0
	while [ $i -lt 500 ] && [ -z "$(ls -A "$TMPDIR")" ]; do
		sleep 0.01; i=$((i + 1))
	done
}

for sig in INT TERM HUP; do
	start_long
	ls "$TMPDIR" | grep -q '^pipebench\.'; seen=$?
	kill -s $sig $pid
	wait $pid; rc=$?
	case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
	is "$rc" "$want" "SIG$sig mid-run exits $want"
	[ $seen -eq 0 ] && tmp_empty
	ok $? "SIG$sig: the FIFO and its directory are gone"
	kill -0 $pid 2>/dev/null; [ $? -ne 0 ]; ok $? "SIG$sig: no process left"
done

run $PIPEBENCH throughput --kind fifo --loops 100000000 --repeat 1 --warmup 0 --timeout 300ms
is "$rc" 3 "--timeout fires: exit 3"
printf '%s' "$err" | grep -q 'timed out after 0.3 s'; ok $? "--timeout says it timed out"

# A --timeout still leaves a document that parses, with the error in it.
run $PIPEBENCH throughput --kind fifo --loops 100000000 --repeat 1 --warmup 0 --timeout 300ms --format json
is "$rc" 3 "--timeout with --format json: exit 3"
is "$(printf '%s' "$out" | "$JSONQ" - .exit_status .errors[0] | tr '\n' ' ')" \
	"3 --timeout: timed out after 0.3 s " "the JSON document parses and records the timeout"

