#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT, SIGTERM and SIGHUP during each long-running command: the command
# exits with 128+signal, every child process is gone (checked through the
# process group) and its FIFOs and private directories are removed.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
command -v setsid >/dev/null || skip_all "setsid (util-linux) not installed"
command -v pgrep >/dev/null || skip_all "pgrep (procps) not installed"
tap_tmpdir

LONG="conformance --kind all --timeout 30
messaging --groups 4 --loops 2000000 --repeat 1 --warmup 0
messaging --threads --groups 2 --loops 2000000 --repeat 1 --warmup 0
report --parts conformance,throughput
o_noatime --loops 100000000 --repeat 1
throughput --kind all --loops 100000000"

# Wait until the command has started working: a child process in its
# group, or something in its private TMPDIR; bounded at 5 s.
wait_busy() {
	i=0
	while [ $i -lt 500 ]; do
		[ -n "$(ls -A "$TMPDIR")" ] && return 0
		[ "$(pgrep -g "$1" | wc -l)" -gt 1 ] && return 0
		[ "$(ls "/proc/$1/task" 2>/dev/null | wc -l)" -gt 1 ] && return 0
		sleep 0.01; i=$((i + 1))
	done
	return 1
}

while read -r line; do
	for sig in INT TERM HUP; do
		case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
		# The pid file names the process that becomes pipebench, whether or
		# not setsid had to fork; setsid -w passes its exit status on.
		rm -f "$TEST_TMP/pid"
		setsid -w sh -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0" && exec "$@"' \
			"$TEST_TMP/pid" $PIPEBENCH $line >/dev/null 2>&1 &
		job=$!
		i=0; while [ $i -lt 500 ] && [ ! -s "$TEST_TMP/pid" ]; do sleep 0.01; i=$((i + 1)); done
		pid=$(cat "$TEST_TMP/pid")
		wait_busy $pid; sleep 0.2
		kill -s $sig $pid
		wait $job; rc=$?
		name="${line%% *} (${line#* }) SIG$sig"
		is "$rc" "$want" "$name: exits $want"
		i=0; while [ $i -lt 200 ] && pgrep -g $pid >/dev/null; do sleep 0.01; i=$((i + 1)); done
		pgrep -g $pid >/dev/null; [ $? -ne 0 ]; ok $? "$name: no process of its group is left"
		tmp_empty; ok $? "$name: no FIFO or directory is left"
		rm -rf "${TMPDIR:?}"/*
	done
done <<EOF_LONG
$LONG
EOF_LONG
done_testing
