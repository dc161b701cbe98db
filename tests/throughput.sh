#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench throughput end to end: formats, kinds, sweeps, flags, output
# destinations, and nothing left behind.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
PB="$PIPEBENCH throughput --loops 30 --warmup 0"
J="$TEST_TMP/out.json"

plan 34

run $PB --repeat 2
is "$rc" 0 "text run exits 0"
printf '%s\n' "$out" | grep -Eq '^anon +100 B +[0-9]+\.[0-9]{3} '; ok $? "text has an anon 100 B row with TW"
printf '%s\n' "$out" | grep -q '^kernel .*Linux'; ok $? "text header names the kernel"
printf '%s\n' "$out" | grep -q '^placement .*not pinned'; ok $? "text header reports placement"

run $PB --repeat 2 --kind all
is "$rc" 0 "--kind all exits 0"
printf '%s\n' "$out" | grep -Eq '^fifo .* fifo/anon [0-9.]+x$'; ok $? "fifo row has its ratio to anon"
printf '%s\n' "$out" | grep -Eq '^socketpair .* socketpair/anon [0-9.]+x$'; ok $? "socketpair row has its ratio"
tmp_empty; ok $? "no FIFO or directory left after a fifo run"

$PB --repeat 3 --kind anon,fifo --size 100,4K --format json >"$J"; rc=$?
is "$rc" 0 "json run exits 0"
"$JSONQ" "$J" >/dev/null; ok $? "json output is one valid document"
is "$("$JSONQ" "$J" .tool .command .schema_version .exit_status | tr '\n' ' ')" \
   "pipebench throughput 1 0 " "json common fields"
is "$("$JSONQ" "$J" '.results#')" 4 "2 kinds x 2 sizes = 4 results"
is "$("$JSONQ" "$J" '.results[0].repetitions#')" 3 "every repetition is kept"
is "$("$JSONQ" "$J" .results[1].kind .results[2].size_bytes | tr '\n' ' ')" "fifo 4096 " \
   "results are size-major, kinds in order"
tw=$("$JSONQ" "$J" .results[0].repetitions[0].tw_ns)
tr=$("$JSONQ" "$J" .results[0].repetitions[0].tr_ns)
tt=$("$JSONQ" "$J" .results[0].repetitions[0].tt_ns)
is "$tt" "$((tw + tr))" "tt_ns = tw_ns + tr_ns"
by=$("$JSONQ" "$J" .results[0].repetitions[0].bytes)
[ "$by" -gt 0 ] && [ $((by % 100)) -eq 0 ]; ok $? "bytes are whole 100-byte chunks"
wc=$("$JSONQ" "$J" .results[0].repetitions[0].write_calls)
is "$wc" "$((by / 100 + 30))" "write calls = chunks + one EAGAIN per loop"
is "$("$JSONQ" "$J" .params.loops .params.repeat .params.warmup | tr '\n' ' ')" "30 3 0 " \
   "params record resolved values"
is "$("$JSONQ" "$J" .results[1].ratio_label)" "fifo/anon" "ratio label in json"
"$JSONQ" "$J" .system.kernel_release .system.page_size_bytes .placement.cpu_at_start >/dev/null
ok $? "system and placement recorded"

run $PB --repeat 2 --kind anon,socketpair --format csv
is "$rc" 0 "csv run exits 0"
is "$(nlines "$out")" 5 "csv: header + 2 kinds x 2 repetitions"
printf '%s\n' "$out" | head -1 | grep -q '^kind,size_bytes,pipe_size_bytes,repetition,tw_ns,tr_ns,tt_ns,'
ok $? "csv header"

run $PB --repeat 3 --format seed
is "$(printf '%s\n' "$out" | grep -cE '^TW = [0-9]+\.[0-9]{3} TR = [0-9]+\.[0-9]{3} TT = [0-9]+\.[0-9]{3}$')" 3 \
   "seed: exactly the mail's line per repetition"

run $PB --repeat 1 --pipe-size 8K --format json
is "$(printf '%s' "$out" | "$JSONQ" - .results[0].pipe_size_bytes)" 8192 "--pipe-size is applied and reported"

run $PB --repeat 1 --flags direct
is "$rc" 0 "--flags direct runs"

run $PB --repeat 1 --flags noatime
is "$rc" 4 "--flags noatime on a kernel rejecting it: exit 4"
printf '%s' "$err" | grep -q 'O_NOATIME.*not supported'; ok $? "says plainly that O_NOATIME is unsupported"

run $PB --repeat 1 --cpu 0 --format json
is "$(printf '%s' "$out" | "$JSONQ" - .placement.pinned .placement.cpus .placement.cpu_at_end | tr '\n' ' ')" \
   "true 0 0 " "--cpu 0 pins and reports placement"

run $PB --repeat 1 --format json --output "$J"
is "$rc:$out" "0:" "--output: exit 0, nothing on stdout"
"$JSONQ" "$J" .command >/dev/null; ok $? "--output file holds the document"

if [ -w /dev/full ]; then
	$PB --repeat 1 >/dev/full 2>"$TEST_TMP/err"; rc=$?
	is "$rc" 3 "stdout on a full device: exit 3"
	grep -q 'No space left' "$TEST_TMP/err"; ok $? "full device is reported"
else
	echo "ok 32 # SKIP no /dev/full"; echo "ok 33 # SKIP no /dev/full"; tap_n=33
fi

# A reader that goes away early: no crash, no error spam.
( $PB --repeat 1 --kind all 2>"$TEST_TMP/err"; echo $? >"$TEST_TMP/rc" ) | head -1 >/dev/null
[ ! -s "$TEST_TMP/err" ] && [ "$(cat "$TEST_TMP/rc")" -lt 128 ]
ok $? "closed stdout: no signal death, nothing on stderr"
