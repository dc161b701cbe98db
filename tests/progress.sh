#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The progress line on a terminal (util-linux script(1) gives the command a
# pseudo-terminal): shown for each step of a benchmark, with an ETA that
# follows the work left (never more than a few times the whole run, never
# ">99h"), and cleared at the end; --quiet shows none.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
command -v script >/dev/null 2>&1 || skip_all "no script(1) (util-linux)"
tap_tmpdir

# on_tty OUT ARGS...: run pipebench ARGS on a pseudo-terminal, its output in OUT.
on_tty() {
	out=$1; shift
	t0=$(date +%s)
	script -qec "$PIPEBENCH $*" /dev/null >"$out" 2>&1 </dev/null
	rc=$?
	wall=$(($(date +%s) - t0 + 1))
}

# worst_eta LINES: the longest ETA of the progress lines in LINES, in seconds.
worst_eta() {
	sed -n 's/.*(ETA \([0-9hms]*\)).*/\1/p' "$1" | awk '
	{ s = 0; v = $0
	  if (match(v, /[0-9]+h/)) s += 3600 * substr(v, RSTART, RLENGTH - 1)
	  if (match(v, /[0-9]+m/)) s += 60 * substr(v, RSTART, RLENGTH - 1)
	  if (match(v, /[0-9]+s/)) s += substr(v, RSTART, RLENGTH - 1)
	  if (s > w) w = s } END { print w + 0 }'
}

on_tty "$TEST_TMP/tp" throughput --loops 300 --repeat 3 --warmup 1 --kind anon,fifo
is "$rc" 0 "throughput on a terminal: exit 0"
tr '\r' '\n' <"$TEST_TMP/tp" | grep -a 'pipebench throughput: .*repetition' >"$TEST_TMP/lines"
is "$(grep -c 'repetition [0-9]/3' "$TEST_TMP/lines")" 6 "a progress line for each of the 6 repetitions"
grep -q '>99h' "$TEST_TMP/lines"; [ $? -ne 0 ]; ok $? "no ETA past 99 hours"
# Each ETA in seconds: at most ten times the whole run, plus a minute.
worst=$(worst_eta "$TEST_TMP/lines")
[ "$worst" -le $((wall * 10 + 60)) ]; ok $? "every ETA follows the work left (worst ${worst}s, run ${wall}s)"
# latency's too: its steps are the cells' warmups and repetitions
on_tty "$TEST_TMP/lat" latency --kind anon,fifo -n 2000 -r 3 --warmup 1
tr '\r' '\n' <"$TEST_TMP/lat" | grep -a 'pipebench latency: .*repetition [23]/3' >"$TEST_TMP/lines"
is "$rc/$(grep -c '(ETA [0-9hms]*)$' "$TEST_TMP/lines")" 0/4 "latency on a terminal: exit 0, an ETA on each later step"
worst=$(worst_eta "$TEST_TMP/lines")
[ "$worst" -le $((wall * 10 + 60)) ]; ok $? "latency's ETA follows the work left (worst ${worst}s, run ${wall}s)"
grep -aq "$(printf '\033\\[K')" "$TEST_TMP/tp"; ok $? "the line is cleared (ESC [K)"
# Every step on its own line, in the order run, naming the cell it measures:
# kind, mode, the chunk size in its unit (a line whose size was never
# formatted shows stack garbage), the phase and its count -- the warmup
# steps too, one per warmup of every cell (a warmup loop that does not run
# shows none).  Sizes outer, then modes, kinds inner.
on_tty "$TEST_TMP/sweep" throughput --loops 20 --repeat 2 --warmup 1 --kind anon,fifo \
	--mode rw,vmsplice --size 100,4K
is "$rc" 0 "a sweep on a terminal: exit 0"
tr '\r' '\n' <"$TEST_TMP/sweep" | grep -a 'pipebench throughput: ' |
	sed 's/^.*pipebench throughput: //; s/ (ETA [0-9hms]*)$//' >"$TEST_TMP/got"
for sz in "100 B" "4 KiB"; do
	for m in rw vmsplice; do for k in anon fifo; do echo "$k $m $sz warmup 1/1"; done; done
	for i in 1 2; do
		for m in rw vmsplice; do for k in anon fifo; do echo "$k $m $sz repetition $i/2"; done; done
	done
done >"$TEST_TMP/want"
cmp -s "$TEST_TMP/got" "$TEST_TMP/want"; same=$?
ok $same "a line per warmup and repetition of each kind, mode and size, in order, naming them"
[ $same -eq 0 ] || diag "$(diff "$TEST_TMP/want" "$TEST_TMP/got")"
on_tty "$TEST_TMP/q" throughput --loops 300 --repeat 2 --quiet
is "$rc" 0 "--quiet on a terminal: exit 0"
grep -aq 'pipebench throughput: ' "$TEST_TMP/q"; [ $? -ne 0 ]; ok $? "--quiet: no progress line"
tmp_empty; ok $? "nothing left behind"
# --precision's rounds, counted from 1, one more each time
on_tty "$TEST_TMP/prec" throughput --kind anon --size 4K --loops 300 --repeat 3 --warmup 0 \
	--precision 0.01 --precision-budget 2s
tr '\r' '\n' <"$TEST_TMP/prec" | sed -n 's/.*, round \([0-9]*\).*/\1/p' | uniq >"$TEST_TMP/rounds"
n=$(grep -c . "$TEST_TMP/rounds")
[ "$n" -ge 2 ] && [ "$(tr '\n' ' ' <"$TEST_TMP/rounds")" = "$(seq 1 "$n" | tr '\n' ' ')" ]
ok $? "--precision: a progress line per round, numbered from 1 ($n rounds)"
on_tty "$TEST_TMP/lprec" latency --kind anon -n 200 -r 3 --warmup 0 --precision 0.01 \
	--precision-budget 2s
tr '\r' '\n' <"$TEST_TMP/lprec" | sed -n 's/.*, round \([0-9]*\).*/\1/p' | uniq >"$TEST_TMP/rounds"
n=$(grep -c . "$TEST_TMP/rounds")
[ "$n" -ge 2 ] && [ "$(tr '\n' ' ' <"$TEST_TMP/rounds")" = "$(seq 1 "$n" | tr '\n' ' ')" ]
ok $? "latency --precision: a progress line per round, numbered from 1 ($n rounds)"
# --duration's calibration: each probe's loop count on the line, from 1 up,
# the words singular at 1 (throughput, messaging and o_noatime alike)
for c in "throughput --kind anon" "messaging --groups 1 --fds 2" "o_noatime"; do
	# shellcheck disable=SC2086 # a command line, word-split on purpose
	on_tty "$TEST_TMP/cal" $c --duration 500ms --repeat 2
	tr '\r' '\n' <"$TEST_TMP/cal" | sed -n 's/.*: calibrating, \([0-9]*\) \(loops*\) .*/\1 \2/p' >"$TEST_TMP/cal.n"
	first=$(head -n 1 "$TEST_TMP/cal.n")
	awk 'NR > 1 && $1 + 0 <= prev { bad = 1 } { prev = $1 + 0 } ($1 == 1) != ($2 !~ /s$/) { bad = 1 }
		END { exit bad || NR < 2 }' "$TEST_TMP/cal.n"
	ok $? "${c%% *} --duration: a calibrating line per probe, counts rising from '$first'"
done
done_testing
