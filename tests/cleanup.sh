#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Signals and the watchdog: FIFOs and private directories are removed and
# the exit status is 128+signal (3 for --timeout).
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir


# Start a long FIFO run and wait (up to 20 s, for loaded machines) until the
# FIFO itself exists: not merely the first entry in TMPDIR, which can be the
# short-lived directory that --dir validation makes and removes.
start_long() {
	$PIPEBENCH throughput --kind fifo --loops 100000000 --repeat 1 --warmup 0 \
		>/dev/null 2>"$TEST_TMP/err" &
	pid=$!
	i=0
	while [ $i -lt 2000 ] && [ -z "$(find "$TMPDIR" -type p 2>/dev/null)" ]; do
		sleep 0.01; i=$((i + 1))
	done
}

for sig in INT TERM HUP; do
	start_long
	find "$TMPDIR" -type p -path "$TMPDIR/pipebench.*" | grep -q .; seen=$?
	kill -s $sig $pid
	wait $pid; rc=$?
	case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
	is "$rc" "$want" "SIG$sig mid-run exits $want"
	[ $seen -eq 0 ] && tmp_empty
	ok $? "SIG$sig: the FIFO was made and it and its directory are gone"
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
done_testing
