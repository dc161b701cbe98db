#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Descriptor 0 closed: every command runs as it does with it open.  The
# first pipe, FIFO end or socket a command makes then lands on descriptor
# 0, so a descriptor compared with 0 where 0 is a lawful descriptor
# ("fd > 0" for "fd >= 0") shows here as a failed row, a wrong verdict or
# an error (issue 19).  Results are compared with a run that has it open
# (verdicts, statuses), never timed.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
D=$TEST_TMP
P=$PIPEBENCH

# closed NAME ARGS...: pipebench ARGS with descriptor 0 closed, its JSON to
# $D/NAME.json, its stderr to $D/NAME.err; the exit status in $rc.
closed() {
	_n=$1; shift
	"$P" "$@" -q --format json --output "$D/$_n.json" 0<&- 2>"$D/$_n.err"
	rc=$?
}
# statuses FILE: every result's status, one line.
statuses() {
	"$JSONQ" "$1" '.results#' >/dev/null 2>&1 || { echo "no document"; return; }
	n=$("$JSONQ" "$1" '.results#')
	i=0 line=
	while [ "$i" -lt "$n" ]; do
		line="$line$("$JSONQ" "$1" ".results[$i].status") "
		i=$((i + 1))
	done
	echo "$line"
}

closed tp throughput --kind anon,fifo,socketpair --loops 200 --repeat 1 --warmup 0 --dir "$D"
is "$rc|$(statuses "$D/tp.json")" "0|ok ok ok " \
	"throughput (anon, FIFO, socketpair) with descriptor 0 closed: every row ok ($(cat "$D/tp.err"))"
closed zc throughput --mode rw,vmsplice,splice,tee --kind anon,fifo --size 64K --loops 50 \
	--repeat 1 --warmup 0 --dir "$D"
is "$rc|$(statuses "$D/zc.json")" "0|ok ok ok ok ok ok ok ok " \
	"throughput's zero-copy modes with descriptor 0 closed: every row ok ($(cat "$D/zc.err"))"
closed lat latency --kind anon,fifo --mode rw,io_uring -n 100 -r 1 --warmup 0 --dir "$D"
"$P" latency --kind anon,fifo --mode rw,io_uring -n 100 -r 1 --warmup 0 --dir "$D" -q \
	--format json --output "$D/lat-open.json" 2>/dev/null
is "$rc|$(statuses "$D/lat.json")" "0|$(statuses "$D/lat-open.json")" \
	"latency (rw, and io_uring where there is one) with descriptor 0 closed: each row as with it open ($(cat "$D/lat.err"))"
closed msg messaging --groups 1 --loops 20 --repeat 1 --warmup 0
is "$rc|$("$JSONQ" "$D/msg.json" .exit_status)" "0|0" \
	"messaging with descriptor 0 closed: exit 0 ($(cat "$D/msg.err"))"
"$P" timestamps --dir "$D" -q --format json --output "$D/ts-open.json" 2>/dev/null
closed ts timestamps --dir "$D"
is "$rc|$("$JSONQ" "$D/ts.json" .summary.anon .summary.fifo_pipe | tr '\n' ' ')" \
	"0|$("$JSONQ" "$D/ts-open.json" .summary.anon .summary.fifo_pipe | tr '\n' ' ')" \
	"timestamps with descriptor 0 closed: the verdicts of a run with it open"
closed on o_noatime --loops 200 --repeat 1 --dir "$D"
is "$rc|$("$JSONQ" "$D/on.json" .summary.supported)" \
	"0|$("$P" o_noatime --loops 200 --repeat 1 --dir "$D" -q --format json 2>/dev/null |
		"$JSONQ" - .summary.supported)" \
	"o_noatime with descriptor 0 closed: pipe2(O_NOATIME) judged as with it open"

# conformance: each check's status as with descriptor 0 open.
"$P" conformance --dir "$D" -q --format json --output "$D/conf-open.json" 2>/dev/null
rc_open=$?
closed conf conformance --dir "$D"
checks() {
	n=$("$JSONQ" "$1" '.checks#')
	i=0
	while [ "$i" -lt "$n" ]; do
		echo "$("$JSONQ" "$1" ".checks[$i].id") $("$JSONQ" "$1" ".checks[$i].status")"
		i=$((i + 1))
	done
}
checks "$D/conf-open.json" >"$D/conf-open.txt"
checks "$D/conf.json" >"$D/conf.txt"
is "$rc|$(diff "$D/conf-open.txt" "$D/conf.txt" | grep '^[<>]' | tr '\n' ' ')" "$rc_open|" \
	"conformance with descriptor 0 closed: every check's status and the exit status as with it open"
is "$(wc -l <"$D/conf.txt" | tr -d ' ')" "$(wc -l <"$D/conf-open.txt" | tr -d ' ')" "... the same checks"
done_testing
