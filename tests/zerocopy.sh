#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench throughput --mode: vmsplice, splice and tee move the bytes they
# say and check them; socketpair skips with the reason; bad values exit 2;
# every format carries the mode.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
PB="$PIPEBENCH throughput --loops 20 --warmup 0"
J="$TEST_TMP/out.json"


# Each mode on an anonymous pipe and a FIFO, every loop checked.
for mode in vmsplice splice tee; do
	$PB --mode "$mode" --kind anon,fifo --size 100,4K --repeat 2 --verify all --format json >"$J"
	rc=$?
	is "$rc" 0 "$mode: anon and fifo, 100 B and 4 KiB, --verify all: exit 0"
	bad=$("$JSONQ" "$J" '.results#' .results[0].mode .results[1].mode .results[3].kind \
		.results[0].status .params.verify | tr '\n' ' ')
	is "$bad" "4 $mode $mode fifo ok all " "$mode: one result per kind and size, mode recorded"
	allok=0
	for r in 0 1 2 3; do
		for k in 0 1; do
			set -- $("$JSONQ" "$J" .results[$r].repetitions[$k].verified_loops \
				.results[$r].repetitions[$k].bytes .results[$r].repetitions[$k].tt_ns \
				.results[$r].repetitions[$k].rate_bytes_per_s \
				.results[$r].pipe_size_bytes .results[$r].size_bytes)
			# Every loop checked; bytes moved; rate = bytes / tt as for rw;
			# at 4 KiB every loop moves the whole pipe (tee: twice).
			awk -v v="$1" -v b="$2" -v t="$3" -v rate="$4" -v ps="$5" -v sz="$6" -v m="$mode" '
				function rel(a, w) { d = a - w; if (d < 0) d = -d; return d / w }
				BEGIN { full = (m == "tee" ? 2 : 1) * 20 * ps
					exit !(v == 20 && b > 0 && rel(rate, b * 1e9 / t) < 1e-9 &&
					       (sz != 4096 || b == full)) }' || allok=1
		done
	done
	ok $allok "$mode: 20 loops checked per repetition, rate = bytes/tt, whole pipes at 4 KiB"
done
tmp_empty; ok $? "no FIFO or directory left after the fifo runs"

# The default checks a sample: loop 0, every 16th, the last.
run $PIPEBENCH throughput --warmup 0 --mode splice --loops 40 --repeat 1 --format json
is "$(printf '%s' "$out" | "$JSONQ" - .params.verify .results[0].repetitions[0].verified_loops | tr '\n' ' ')" \
   "sample 4 " "--verify sample (default) checks loops 0, 16, 32 and 39"
run $PB --mode vmsplice --repeat 1 --verify off --format json
is "$(printf '%s' "$out" | "$JSONQ" - .results[0].repetitions[0].verified_loops)" 0 "--verify off checks nothing"

# Text: the mode column and the mode/rw ratio next to the kind ratio.
run $PB --mode all --kind anon,fifo --repeat 1
is "$rc" 0 "--mode all: exit 0"
printf '%s\n' "$out" | grep -Eq '^fifo +splice +100 B .* fifo/anon [0-9.]+x, splice/rw [0-9.]+x$'
ok $? "text: fifo splice row with its kind ratio and its mode/rw ratio"
printf '%s\n' "$out" | grep -q '^modes .*rw: ' && printf '%s\n' "$out" | grep -q 'into the memfd past the source'
ok $? "text: says how each mode moves bytes (splice into a memfd)"
printf '%s\n' "$out" | grep -q '^verify  *sample'; ok $? "text: the verify setting"

# The mode/rw ratio belongs to the other modes, never to rw itself.
run $PB --mode rw,splice --repeat 1 --format json
printf '%s' "$out" | "$JSONQ" - .results[0].cost_ratio_to_rw >/dev/null 2>&1
is "$?" 2 "json: rw has no cost_ratio_to_rw"
r=$(printf '%s' "$out" | "$JSONQ" - .results[1].cost_ratio_to_rw)
awk -v r="$r" 'BEGIN { exit !(r > 0) }'; ok $? "json: splice has its cost_ratio_to_rw ($r)"

# socketpair: rw only; the others are skip with the reason.
run $PB --mode rw,splice --kind anon,socketpair --repeat 1 --format json
is "$rc" 0 "a skipped combination next to runnable ones: exit 0"
is "$(printf '%s' "$out" | "$JSONQ" - .results[3].kind .results[3].mode .results[3].status | tr '\n' ' ')" \
   "socketpair splice skip " "socketpair splice is a skip result"
printf '%s' "$out" | "$JSONQ" - .results[3].reason | grep -q 'needs a pipe'; ok $? "the skip names the reason"
is "$(printf '%s' "$out" | "$JSONQ" - .results[1].status .results[1].mode)" "ok
rw" "socketpair rw runs"
run $PB --mode splice --kind anon,socketpair --repeat 1
printf '%s\n' "$out" | grep -Eq '^socketpair +splice +100 B skip: .*socketpair runs rw only'
ok $? "text: the skip row with the reason"
run $PB --mode vmsplice,tee --kind socketpair --repeat 1
is "$rc" 4 "nothing applies: exit 4"
is "$(nlines "$err")" 1 "nothing applies: one line"
printf '%s' "$err" | grep -q 'nothing applies: .*socketpair'; ok $? "it says why"
run $PB --mode tee --kind socketpair --repeat 1 --format json
is "$(printf '%s' "$out" | "$JSONQ" - .exit_status .results[0].status | tr '\n' ' ')" "4 skip " \
   "json: exit_status 4, the result is skip"

# Bad values: one line, exit 2.
run $PB --mode sendfile
is "$rc:$(nlines "$err")" "2:1" "--mode sendfile: exit 2, one line"
run $PB --verify some
is "$rc:$(nlines "$err")" "2:1" "--verify some: exit 2, one line"

# CSV and lava carry the mode; seed names non-rw blocks.
run $PB --mode rw,tee --repeat 1 --format csv
printf '%s\n' "$out" | awk -F, 'NR == 1 { ok = ($2 == "mode") } NR > 1 { m[$2]++ } END { exit !(ok && m["rw"] == 1 && m["tee"] == 1) }'
ok $? "csv: a mode column, one row per mode"
run $PB --mode rw,vmsplice --kind anon,socketpair --repeat 1 --format lava
printf '%s\n' "$out" | grep -q 'TEST_CASE_ID=anon-100B-rate RESULT=pass' &&
	printf '%s\n' "$out" | grep -q 'TEST_CASE_ID=anon-vmsplice-100B-rate RESULT=pass' &&
	printf '%s\n' "$out" | grep -q 'TEST_CASE_ID=socketpair-vmsplice-100B-rate RESULT=skip'
ok $? "lava: rw keeps its case names, other modes are named, a skip is a skip case"
run $PB --mode splice --size 100,4K --repeat 1 --format seed
printf '%s\n' "$out" | grep -q '^# anon 4 KiB splice$'; ok $? "seed: blocks name the mode"

# With --pipe-size, --cpu and --duration.
run $PB --mode vmsplice,splice --pipe-size 16K --cpu 0 --repeat 1 --size 4K --format json
is "$(printf '%s' "$out" | "$JSONQ" - .exit_status .results[1].pipe_size_bytes .placement.cpus | tr '\n' ' ')" \
   "0 16384 0 " "--pipe-size and --cpu apply to the zero-copy modes"
run $PIPEBENCH throughput --mode tee --duration 0.2 --repeat 1 --warmup 0 --format json
is "$(printf '%s' "$out" | "$JSONQ" - .exit_status)" 0 "--duration budgets a zero-copy run"
done_testing
