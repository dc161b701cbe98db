#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The conformance runner's bookkeeping, recomputed from the JSON document:
# every selected check exactly once (a result or not_run, in catalogue
# order), the summary's counts per verdict equal to the results', the exit
# status of each mix of verdicts (man page, EXIT STATUS), and an interrupted
# run's not_run exactly the checks after the interrupted one.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
J=$TEST_TMP/doc.json

# planned SEL KIND: the items a run of SEL plans, "ID KIND" a line (KIND
# null for single-kind checks; KIND all: both kinds, anon then fifo).
planned() {
	"$PIPEBENCH" conformance --list --format json --only "$1" >"$TEST_TMP/list" || return 1
	cnt=$("$JSONQ" "$TEST_TMP/list" '.checks#') i=0
	while [ "$i" -lt "$cnt" ]; do
		set -- "$1" "$2" $("$JSONQ" "$TEST_TMP/list" .checks[$i].id .checks[$i].both_kinds)
		if [ "$4" = false ]; then echo "$3 null"
		elif [ "$2" = all ]; then printf '%s anon\n%s fifo\n' "$3" "$3"
		else echo "$3 $2"; fi
		i=$((i + 1))
	done
}
# items FILE ARRAY: "ID KIND" a line of each entry of ARRAY (checks, not_run).
items() {
	cnt=$("$JSONQ" "$1" ".$2#") i=0
	while [ "$i" -lt "$cnt" ]; do
		"$JSONQ" "$1" ".$2[$i].id" ".$2[$i].kind" | paste -d ' ' - -
		i=$((i + 1))
	done
}
# counted FILE: the summary's counts and the counts recomputed from .checks,
# "p f kd i s e total not_run" each; equal when the bookkeeping holds.
counted() {
	"$JSONQ" "$1" .summary.passed .summary.failed .summary.known_deviations .summary.info \
		.summary.skipped .summary.errors .summary.total .summary.not_run | tr '\n' ' '
	echo
	cnt=$("$JSONQ" "$1" '.checks#') i=0 st=
	while [ "$i" -lt "$cnt" ]; do st="$st $("$JSONQ" "$1" .checks[$i].status)"; i=$((i + 1)); done
	echo "$st" | awk -v nr="$("$JSONQ" "$1" '.not_run#')" '{ for (i = 1; i <= NF; i++) c[$i]++ }
		END { printf "%d %d %d %d %d %d %d %d \n", c["pass"], c["fail"], c["known-deviation"],
		      c["info"], c["skip"], c["error"], NF, nr }'
}

# Rows: selection | --timeout | exit status | the per-verdict counts "p f kd i s e".
ROWS='CRE-01,RD-03|5s|0|2 0 0 0 0 0
NB-05,CRE-05|5s|0|0 0 1 1 0 0
RD-01,LX-07|5s|0|1 0 0 0 1 0
LX-07|5s|4|0 0 0 0 1 0
RD-04,RD-01|280ms|1|1 1 0 0 0 0
RD-04,LX-07|280ms|1|0 1 0 0 1 0
RD-04,NB-05,CRE-05|280ms|1|0 1 1 1 0 0
RD-04|1ms|1|0 1 0 0 0 0
RD-04|1s|0|1 0 0 0 0 0'

while IFS='|' read -r sel to want counts; do
	"$PIPEBENCH" conformance --only "$sel" --timeout "$to" --format json >"$J" 2>/dev/null
	is "$?:$("$JSONQ" "$J" .exit_status)" "$want:$want" "$sel --timeout $to: exit $want"
	set -- $(counted "$J" | tr '\n' ' ')
	is "$*" "$counts $(echo "$counts" | awk '{ print $1+$2+$3+$4+$5+$6 }') 0 $counts $(echo "$counts" | awk '{ print $1+$2+$3+$4+$5+$6 }') 0" \
		"$sel: summary counts = the results' = the expected"
	is "$(items "$J" checks)" "$(planned "$sel" anon)" "$sel: every selected check once, in order"
done <<EOF_ROWS
$ROWS
EOF_ROWS

# The watchdog's detail names the timeout; the check is not stopped early.
"$PIPEBENCH" conformance --only RD-04 --timeout 280ms --format json >"$J"
is "$("$JSONQ" "$J" .checks[0].status .checks[0].timed_out .checks[0].detail | tr '\n' '|')" \
	"fail|true|timed out after 0.28 s (watchdog killed the check)|" "watchdog: fail, timed_out, the detail"
ns=$("$JSONQ" "$J" .checks[0].duration_ns)
[ "$ns" -ge 280000000 ]; ok $? "watchdog: not before the timeout ($ns ns)"
# --timeout at its bounds: 1ms and 3600s are accepted, one unit past is not.
for v in 999us 3601s; do
	run "$PIPEBENCH" conformance --only CRE-01 --timeout "$v"
	is "$rc:$(nlines "$err")" "2:1" "--timeout $v: exit 2, one line"
done

# ---- interrupted at a check held stopped (SIGSTOP), then SIGINT.
SEL='CRE-*,RD-*'
"$PIPEBENCH" conformance --only "$SEL" --kind all --timeout 60 --format json --output "$J" \
	2>/dev/null &
pid=$!
stopped=$(stop_check echo "$pid")
kill -s INT "$pid"
wait "$pid"; rc=$?
[ -n "$stopped" ] && kill -0 "$stopped" 2>/dev/null && kill -KILL "$stopped"
is "$rc:$("$JSONQ" "$J" .exit_status .summary.interrupted | tr '\n' ' ')" "130:130 SIGINT " \
	"interrupted: exit 130, the document says so"
planned "$SEL" all >"$TEST_TMP/plan"
{ items "$J" checks; items "$J" not_run; } >"$TEST_TMP/seen"
cmp -s "$TEST_TMP/seen" "$TEST_TMP/plan"
ok $? "interrupted: the results then not_run are exactly the selection, each once, in order"
n=$("$JSONQ" "$J" '.checks#')
is "$("$JSONQ" "$J" .checks[$((n - 1))].status .checks[$((n - 1))].detail | tr '\n' '|')" \
	"error|interrupted by SIGINT|" "interrupted: the last result is the interrupted check"
set -- $(counted "$J" | tr '\n' ' ')
is "$1 $2 $3 $4 $5 $6 $7 $8" "$9 ${10} ${11} ${12} ${13} ${14} ${15} ${16}" \
	"interrupted: the summary's counts, total and not_run are the document's"
is "$6:$(($7 + $8))" "1:$(wc -l <"$TEST_TMP/plan" | tr -d ' ')" \
	"interrupted: one error, results + not run = the selection"
tmp_empty; ok $? "nothing left behind"
done_testing
