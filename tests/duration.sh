#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Time budgets (--duration) of throughput, o_noatime and messaging: refused
# with --loops; the calibration and the choice are recorded, and the choice
# is the man page's formula applied to the recorded numbers (relations
# between recorded numbers only: no wall-clock speed is asserted); the runs
# used the chosen loops; without --duration the loops are the documented
# defaults.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
J="$TEST_TMP/out.json"


# budget_ok FILE RUNS: the recorded choice, budget.loops, is
# max(1, min(max_loops, (duration_ns - calibration.total_ns) * calibration.loops
#                       / (calibration.ns * runs))) and params.loops is it.
budget_ok() {
	set -- "$2" $("$JSONQ" "$1" .budget.duration_ns .budget.runs \
		.budget.calibration.loops .budget.calibration.ns \
		.budget.calibration.total_ns .budget.max_loops \
		.budget.loops .params.loops)
	[ $# -eq 9 ] || { diag "budget fields missing: $*"; return 1; }
	[ "$3" = "$1" ] || { diag "runs $3, want $1"; return 1; }
	[ "$5" -gt 0 ] && [ "$6" -ge "$5" ] && [ "$4" -ge 1 ] ||
		{ diag "calibration: $4 loops in $5 ns, total $6 ns"; return 1; }
	left=$(( $2 > $6 ? $2 - $6 : 0 ))
	want=$(( left * $4 / ($5 * $3) ))
	[ "$want" -gt "$7" ] && want=$7
	[ "$want" -lt 1 ] && want=1
	[ "$8" = "$want" ] && [ "$9" = "$8" ] ||
		{ diag "chose $8 (params.loops $9), formula gives $want from $*"; return 1; }
}

# ---- refused: --duration with --loops, and out of range
for c in throughput o_noatime messaging; do
	run "$PIPEBENCH" $c --duration 300ms --loops 5
	[ "$rc" = 2 ] && [ -z "$out" ] && [ "$(nlines "$err")" = 1 ] &&
		printf '%s' "$err" | grep -q -- '--duration and --loops'
	ok $? "$c: --duration with --loops is a usage error naming both (exit 2, one line)"
done
run "$PIPEBENCH" throughput --duration 1ms
[ "$rc" = 2 ] && printf '%s' "$err" | grep -q -- '--duration: .*out of range'
ok $? "--duration below 100ms is out of range, with the range"
tmp_empty; ok $? "nothing left behind by refused runs"

# ---- throughput
run "$PIPEBENCH" throughput --duration 300ms --repeat 2 --warmup 1 --timeout 60s --format json -o "$J"
is "$rc" 0 "throughput --duration: exit 0"
is "$("$JSONQ" "$J" .params.duration_ns .budget.duration_ns | tr '\n' ' ')" "300000000 300000000 " "throughput: the budget is recorded in ns"
budget_ok "$J" 3; ok $? "throughput: loops = the formula on the recorded calibration, runs = repeat + warmup"
loops=$("$JSONQ" "$J" .params.loops)
set -- $("$JSONQ" "$J" .results[0].repetitions[0].bytes .results[0].repetitions[0].write_calls \
	.results[0].repetitions[1].bytes .results[0].repetitions[1].write_calls)
[ "$2" = $(($1 / 100 + loops)) ] && [ "$4" = $(($3 / 100 + loops)) ]
ok $? "throughput: every repetition ran the chosen loops (one EAGAIN write per loop)"
run "$PIPEBENCH" throughput --duration 300ms --repeat 2 --warmup 1 --timeout 60s
printf '%s\n' "$out" | grep -Eq '^budget +--duration 0\.3 s: calibration \([0-9.]+ s\) timed [0-9]+ loops? in [0-9.]+ s -> [0-9]+ loops? for 3 runs$'
ok $? "throughput text: the budget in one line"
loops=$(printf '%s\n' "$out" | sed -n 's/^budget .* -> \([0-9]*\) loops* .*/\1/p')
printf '%s\n' "$out" | grep -q "^settings    $loops loops*, 2 repetitions"
ok $? "throughput text: settings show the chosen loops"
run "$PIPEBENCH" throughput --duration 300ms --kind anon,fifo --size 100,1K --repeat 1 --warmup 0 \
	--timeout 60s --format json -o "$J"
budget_ok "$J" 1
ok $? "throughput sweep: one calibration round covers every kind and size (runs = 1)"
run "$PIPEBENCH" throughput --repeat 1 --warmup 0 --timeout 60s --format json
is "$(printf '%s' "$out" | "$JSONQ" - .params.loops .params.duration_ns .budget | tr '\n' ' ')" "3000 null null " \
   "throughput default: 3000 loops (the man page's), no budget"
run "$PIPEBENCH" throughput --repeat 1 --warmup 0 --loops 7 --timeout 60s
printf '%s\n' "$out" | grep -q '^budget' ; [ $? = 1 ]
ok $? "throughput text without --duration has no budget line"
tmp_empty; ok $? "throughput: nothing left behind"

# ---- o_noatime
run "$PIPEBENCH" o_noatime --duration 300ms --repeat 2 --timeout 60s --format json -o "$J"
is "$rc" 0 "o_noatime --duration: exit 0"
is "$("$JSONQ" "$J" .params.duration_ns .budget.duration_ns | tr '\n' ' ')" "300000000 300000000 " "o_noatime: the budget is recorded"
budget_ok "$J" 3; ok $? "o_noatime: loops = the formula, runs = pairs + the unmeasured pair"
is "$("$JSONQ" "$J" '.results[0].repetitions#' '.results[1].repetitions#' | tr '\n' ' ')" "2 2 " \
   "o_noatime: the measured pairs are all there"
run "$PIPEBENCH" o_noatime --duration 300ms --repeat 2 --timeout 60s
printf '%s\n' "$out" | grep -Eq '^  budget +--duration 0\.3 s: .* for 3 runs$'
ok $? "o_noatime text: the budget in one line"
cols=$(printf '%s\n' "$out" | awk '/^  budget / { b = index($0, "--duration") }
	/^  A / { a = index($0, "TT median") } END { print b + 0, a + 0 }')
[ "${cols% *}" = "${cols#* }" ] && [ "${cols#* }" -gt 0 ]
ok $? "o_noatime text: the budget's value is in the column of the A and B lines' values"
[ "${cols% *}" = "${cols#* }" ] || diag "columns (budget, A): $cols"
loops=$(printf '%s\n' "$out" | sed -n 's/^  budget .* -> \([0-9]*\) loops* .*/\1/p')
printf '%s\n' "$out" | grep -q "^  $loops loops* of 100 B"
ok $? "o_noatime text: the benchmark line shows the chosen loops"
run "$PIPEBENCH" o_noatime --repeat 1 --timeout 60s --format json
is "$(printf '%s' "$out" | "$JSONQ" - .params.loops .params.duration_ns .budget | tr '\n' ' ')" "2000 null null " \
   "o_noatime default: 2000 loops (the man page's), no budget"
tmp_empty; ok $? "o_noatime: nothing left behind"
# A run that timed out is an error (exit 3) whatever --expect says: the
# expectation is judged only on a run that finished.
run "$PIPEBENCH" o_noatime --loops 1000000 --repeat 3 --timeout 50ms --expect supported -q
is "$rc" 3 "o_noatime --timeout 50ms --expect supported: exit 3 (timed out), not 1"

# ---- messaging
M="$PIPEBENCH messaging --groups 1 --fds 2 --timeout 60s"
run $M --duration 300ms --repeat 2 --warmup 1 --format json -o "$J"
is "$rc" 0 "messaging --duration: exit 0"
is "$("$JSONQ" "$J" .params.duration_ns .budget.duration_ns | tr '\n' ' ')" "300000000 300000000 " "messaging: the budget is recorded"
budget_ok "$J" 3; ok $? "messaging: loops = the formula, runs = repeat + warmup"
loops=$("$JSONQ" "$J" .params.loops)
is "$("$JSONQ" "$J" .results[0].loops .results[0].repetitions[0].messages | tr '\n' ' ')" \
   "$loops $((4 * loops)) " "messaging: the result ran the chosen loops (1 x 2 x 2 x loops messages)"
run $M --duration 300ms --repeat 2 --warmup 1
printf '%s\n' "$out" | grep -Eq '^budget +--duration 0\.3 s: .* for 3 runs$'
ok $? "messaging text: the budget in one line"
loops=$(printf '%s\n' "$out" | sed -n 's/^budget .* -> \([0-9]*\) loops* .*/\1/p')
printf '%s\n' "$out" | grep -q "^messages    $loops loops* of 100 B: $((4 * loops)) messages"
ok $? "messaging text: the workload line shows the chosen loops"
run $M --repeat 1 --warmup 0 --format json
is "$(printf '%s' "$out" | "$JSONQ" - .params.loops .params.duration_ns .budget | tr '\n' ' ')" "100 null null " \
   "messaging default: 100 loops (the man page's), no budget"
done_testing
