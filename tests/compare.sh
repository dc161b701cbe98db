#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench compare: exit codes, one-line errors, --force, JSON output.
# TAP; runs the built binary from $PIPEBENCH.

PB=${PIPEBENCH:-./src/pipebench}
JSONQ=${TESTS_BUILDDIR:-./tests}/jsonq
T=$(mktemp -d "${TMPDIR:-/tmp}/pb-compare-test.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP

n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc"; fi; }

# run ARGS...: sets rc, out ($T/out), err ($T/err)
run() { "$PB" compare "$@" >"$T/out" 2>"$T/err"; rc=$?; }
lines() { wc -l <"$1" | tr -d ' '; }
# One line on stderr, starting with the command's prefix, naming $1.
one_line_err() { [ "$(lines "$T/err")" = 1 ] && grep -q "^pipebench compare: .*$1" "$T/err"; }
# Exit 2 with one line naming $1, nothing on stdout.
exit2_err() { [ "$rc" = 2 ] && one_line_err "$1" && [ ! -s "$T/out" ]; }

# doc FILE COMMAND PARAMS BODY [TOOL] [SCHEMA]
doc() {
	cat >"$1" <<EOF
{ "tool": "${5:-pipebench}", "version": "0.1.0", "schema_version": ${6:-1},
  "command": "$2", "params": $3,
  "system": { "kernel_release": "6.18.0-test" },
  $4, "errors": [], "exit_status": 0 }
EOF
}

# Three repetitions of tt_ns around $2 and a constant workload.
tp_body() {
	cat <<EOF
"results": [ { "kind": "anon", "size_bytes": 100, "pipe_size_bytes": 65536,
  "repetitions": [
    { "tt_ns": $1, "bytes": 1000, "syscalls": 20 },
    { "tt_ns": $(($1 + 1000)), "bytes": 1000, "syscalls": 20 },
    { "tt_ns": $(($1 - 1000)), "bytes": 1000, "syscalls": 20 } ] } ]
EOF
}

P='{ "loops": 100, "repeat": 3, "pipe_size_bytes": null }'
doc "$T/base.json" throughput "$P" "$(tp_body 100000)"
doc "$T/same.json" throughput "$P" "$(tp_body 100000)"
doc "$T/slow.json" throughput "$P" "$(tp_body 110000)"
doc "$T/fast.json" throughput "$P" "$(tp_body 90000)"


# ---- synthetic documents
run "$T/base.json" "$T/same.json"
check "no change: exit 0" [ "$rc" = 0 ]
check "no change: nothing on stderr" [ ! -s "$T/err" ]
check "text shows the robot's layout" grep -Eq '^ +100 us ~ +1% +\+0\.0% +100 us ~ +1%  kind=anon size_bytes=100 pipe_size_bytes=65536 tt_ns$' "$T/out"

run "$T/base.json" "$T/slow.json"
check "10% slower: exit 1 (regression)" [ "$rc" = 1 ]
check "regression marked with !" grep -Eq '\+10\.0% ! +110 us ~ +1%.* tt_ns$' "$T/out"
check "workload counts left out of the text, and said so" sh -c '! grep -q " bytes\$" "$1" &&
	grep -Eq "^[0-9]+ more rows?: workload counts, side counters \(context switches, CPU time, migrations\) and details" "$1"' sh "$T/out"
run --all-metrics "$T/base.json" "$T/slow.json"
check "--all-metrics: the neutral count shown, not flagged" grep -Eq '\+0\.0%   +1000 ~ +0%.* bytes$' "$T/out"

run --threshold 15 "$T/base.json" "$T/slow.json"
check "10% slower with --threshold 15: exit 0" [ "$rc" = 0 ]
check "still significant with --threshold 15" grep -Eq '\+10\.0% \* .* tt_ns$' "$T/out"

run "$T/base.json" "$T/fast.json"
check "10% faster: exit 0" [ "$rc" = 0 ]

run "$T/base.json" "$T/same.json" "$T/slow.json"
check "two NEW files: exit 1" [ "$rc" = 1 ]
check "two NEW files side by side" grep -Eq '\+0\.0% .* \+10\.0% ! +110 us ~ +1%.* tt_ns$' "$T/out"

# Verdicts: a check that starts failing is a regression.
doc "$T/conf-a.json" conformance '{}' '"checks": [
  { "id": "CRE-01", "status": "pass", "title": "t", "detail": "a", "duration_ns": 10 },
  { "id": "CRE-02", "status": "skip", "title": "t", "detail": "a", "duration_ns": 10 } ]'
doc "$T/conf-b.json" conformance '{}' '"checks": [
  { "id": "CRE-01", "status": "fail", "title": "t", "detail": "b", "duration_ns": 12 },
  { "id": "CRE-02", "status": "pass", "title": "t", "detail": "b", "duration_ns": 12 } ]'
run "$T/conf-a.json" "$T/conf-b.json"
check "pass -> fail: exit 1" [ "$rc" = 1 ]
check "verdict change listed" grep -q '^! CRE-01: status pass -> fail$' "$T/out"
run "$T/conf-b.json" "$T/conf-a.json"
check "fail -> pass: exit 0" [ "$rc" = 0 ]

# ---- errors: one line, exit 2
run "$T/base.json" "$T/missing.json"
check "missing file: exit 2" [ "$rc" = 2 ]
check "missing file: one line naming it" one_line_err "missing.json: cannot read"
check "missing file: no output" [ ! -s "$T/out" ]

echo 'this is not json' >"$T/text.json"
run "$T/text.json" "$T/base.json"
check "non-JSON: exit 2" [ "$rc" = 2 ]
check "non-JSON: one line" one_line_err "text.json: not a JSON document"

doc "$T/other.json" throughput "$P" "$(tp_body 1)" iperf3
run "$T/base.json" "$T/other.json"
check "another tool's JSON: exit 2, one line" sh -c '[ "$0" = 2 ]' "$rc"
check "another tool's JSON: says so" one_line_err "other.json: not a pipebench"

doc "$T/msg.json" messaging "$P" '"results": []'
run "$T/base.json" "$T/msg.json"
check "different command: exit 2" [ "$rc" = 2 ]
check "different command: one line" one_line_err "msg.json: command 'messaging' differs"

doc "$T/schema.json" throughput "$P" "$(tp_body 1)" pipebench 2
run "$T/base.json" "$T/schema.json"
check "different schema_version: exit 2" [ "$rc" = 2 ]
check "different schema_version: one line" one_line_err "schema.json: schema_version 2"

# ---- parameters
doc "$T/p8k.json" throughput '{ "loops": 100, "repeat": 5, "pipe_size_bytes": 8192 }' \
	"$(tp_body 200000 | sed 's/65536/8192/')"
run "$T/base.json" "$T/p8k.json"
check "different params: exit 2 without --force" [ "$rc" = 2 ]
check "different params: one line naming the key" one_line_err "p8k.json: parameters differ .*: pipe_size_bytes"
run --force "$T/base.json" "$T/p8k.json"
check "different params with --force: compared (exit 1: twice as slow)" [ "$rc" = 1 ]
check "different params with --force: one warning" \
	grep -q '^pipebench compare: warning: .*p8k.json: parameters differ .*pipe_size_bytes' "$T/err"
check "--force: results matched without pipe_size_bytes; tt_ns not comparable (~)" \
	grep -Eq '\+100\.0% ~ .*kind=anon size_bytes=100 tt_ns$' "$T/out"
check "--force: time per byte is the regression" \
	grep -Eq '\+100\.0% ! .*kind=anon size_bytes=100 tt_ns_per_byte$' "$T/out"

# ---- the FIFO directory (per-job temporary directories in CI): named,
# never a reason to refuse, and the totals stay comparable
doc "$T/dirA.json" throughput '{ "loops": 100, "repeat": 3, "pipe_size_bytes": null, "dir": "/tmp/job1" }' \
	"$(tp_body 100000)"
doc "$T/dirB.json" throughput '{ "loops": 100, "repeat": 3, "pipe_size_bytes": null, "dir": "/tmp/job2" }' \
	"$(tp_body 110000)"
run "$T/dirA.json" "$T/dirB.json"
check "another FIFO directory: compared without --force (exit 1: 10% slower)" [ "$rc" = 1 ]
check "another FIFO directory: one warning naming it" sh -c '[ "$(wc -l <"$1")" -eq 1 ] &&
	grep -q "^pipebench compare: warning: .*dirB.json: the FIFO directory differs from .*dirA.json (dir); compared" "$1"' sh "$T/err"
check "another FIFO directory: tt_ns still comparable, the regression" \
	grep -Eq '\+10\.0% ! +110 us ~ +1%.* tt_ns$' "$T/out"
run "$T/dirA.json" "$T/dirA.json"
check "the same FIFO directory: exit 0, no warning" sh -c '[ "$1" = 0 ] && [ ! -s "$2" ]' sh "$rc" "$T/err"

# ---- the machine's state: documents measured in another one cannot be
# compared (exit 4: cannot decide) unless --force, which warns; verdicts
# (conformance) are compared whatever the machine
st() {  # st GOVERNOR: a run object with that cpufreq governor
	printf '"run": { "state": { "cpufreq": { "driver": "acpi-cpufreq", "governor": "%s" }, "smt": { "control": "on" } } }' "$1"
}
doc "$T/stA.json" throughput "$P" "$(tp_body 100000), $(st performance)"
doc "$T/stB.json" throughput "$P" "$(tp_body 100000), $(st powersave)"
run "$T/stA.json" "$T/stB.json"
check "another cpufreq governor: exit 4 (cannot decide), nothing on stdout" sh -c '[ "$1" = 4 ] && [ ! -s "$2" ]' sh "$rc" "$T/out"
check "another cpufreq governor: one line naming the key" \
	one_line_err "stB.json: measured on a machine in another state than .*stA.json: run.state.cpufreq.governor (cannot decide; --force compares anyway)"
run --force "$T/stA.json" "$T/stB.json"
check "another cpufreq governor with --force: compared (exit 0), a warning names it" sh -c '[ "$1" = 0 ] &&
	grep -q "^pipebench compare: warning: .*stB.json: measured on a machine in another state than .*: run.state.cpufreq.governor; compared anyway" "$2"' sh "$rc" "$T/err"
run "$T/stA.json" "$T/stA.json"
check "the same state: exit 0, no warning" sh -c '[ "$1" = 0 ] && [ ! -s "$2" ]' sh "$rc" "$T/err"
doc "$T/cfA.json" conformance '{}' "\"checks\": [ { \"id\": \"CRE-01\", \"status\": \"pass\" } ], $(st performance)"
doc "$T/cfB.json" conformance '{}' "\"checks\": [ { \"id\": \"CRE-01\", \"status\": \"pass\" } ], $(st powersave)"
run "$T/cfA.json" "$T/cfB.json"
check "conformance verdicts of machines in other states: compared (exit 0)" [ "$rc" = 0 ]

# A fleet (four NEW) whose third document fails a check: one verdict
# change, counted as a regression in the summary line.
for i in 1 2 3 4; do
	v=pass
	[ "$i" = 3 ] && v=fail
	doc "$T/fl$i.json" conformance '{}' "\"checks\": [ { \"id\": \"CRE-01\", \"status\": \"$v\" } ]"
done
run "$T/cfA.json" "$T/fl1.json" "$T/fl2.json" "$T/fl3.json" "$T/fl4.json"
check "a fleet with one check failing: exit 1, the summary counts 1 verdict change, 1 a regression" \
	sh -c '[ "$1" = 1 ] && grep -q " 1 verdict changes, 1 of them regressions " "$2"' sh "$rc" "$T/out"

# Twice the loops: twice the time for twice the bytes is no regression.
doc "$T/twice.json" throughput '{ "loops": 200, "repeat": 3, "pipe_size_bytes": null }' \
	"$(tp_body 200000 | sed 's/"bytes": 1000/"bytes": 2000/')"
run --force "$T/base.json" "$T/twice.json"
check "--force, twice the work in twice the time: exit 0" [ "$rc" = 0 ]
check "--force: tt_ns +100% shown as not comparable, not a regression" \
	grep -Eq '\+100\.0% ~ +200 us ~ +[0-9]+%.* tt_ns$' "$T/out"
check "--force: tt_ns_per_byte unchanged" grep -Eq '\+0\.0%   +100 ns ~ .* tt_ns_per_byte$' "$T/out"
check "--force: the legend explains ~" grep -q '^~ not comparable' "$T/out"
run --force --format json "$T/base.json" "$T/twice.json"
check "--force JSON: tt_ns comparable false, tt_ns_per_byte derived, 1 not comparable" sh -c '
	[ "$("$1" "$2" .exit_status .results[0].metric .results[0].comparable .results[0].regression \
		.results[3].metric .results[3].derived .results[3].comparable \
		.summary.not_comparable)" = "0
tt_ns
false
false
tt_ns_per_byte
true
true
1" ]' sh "$JSONQ" "$T/out"

check "same workload: no note" sh -c '! grep -q "^note:" "$0"' "$T/out"
doc "$T/lessbytes.json" throughput "$P" "$(tp_body 100000 | sed 's/"bytes": 1000/"bytes": 125/')"
run --all-metrics "$T/base.json" "$T/lessbytes.json"
check "different workload: bytes never a regression, tt_ns not comparable" sh -c '
	grep -Eq "[-]87\.5% [^!] .* bytes\$" "$0" && grep -Eq "\+0\.0% ~ .* tt_ns\$" "$0"' "$T/out"
check "different workload: an eighth of the bytes in the same time regresses per byte (exit 1)" \
	sh -c '[ "$1" = 1 ] && grep -Eq "\+700\.0% ! .* tt_ns_per_byte\$" "$0"' "$T/out" "$rc"
check "different workload: noted" grep -q '^note: 1 workload counts .*different work' "$T/out"

# ---- usage
run "$T/base.json"
check "one file: exit 2" [ "$rc" = 2 ]
run --threshold=abc "$T/base.json" "$T/same.json"
check "bad --threshold: exit 2, one line" one_line_err "--threshold: .*abc"

# ---- JSON output
run --format json --output "$T/cmp.json" "$T/base.json" "$T/slow.json"
check "JSON to --output: exit 1" [ "$rc" = 1 ]
check "JSON valid, command compare, regression recorded" sh -c '
	[ "$("$1" "$2" .command .results# .exit_status .summary.regressions)" = "compare
3
1
1" ]' sh "$JSONQ" "$T/cmp.json"
check "JSON result fields" sh -c '
	[ "$("$1" "$2" .results[0].metric .results[0].direction .results[0].base_mean \
		.results[0].new_mean .results[0].change_pct .results[0].significant \
		.results[0].regression .results[0].ids.kind)" = "tt_ns
lower-is-better
100000
110000
10
true
true
anon" ]' sh "$JSONQ" "$T/cmp.json"

# ---- details: a total beside a rate is shown with --all-metrics and gates
# only when --metrics names it; the rate is the headline
rated() {
	cat <<EOF
"results": [ { "kind": "anon", "size_bytes": 100, "pipe_size_bytes": 65536,
  "repetitions": [
    { "tt_ns": $1, "rate_bytes_per_s": 1000000, "verified_loops": 0, "bytes": 1000 },
    { "tt_ns": $(($1 + 1000)), "rate_bytes_per_s": 1010000, "verified_loops": 0, "bytes": 1000 },
    { "tt_ns": $(($1 - 1000)), "rate_bytes_per_s": 990000, "verified_loops": 0, "bytes": 1000 } ] } ]
EOF
}
doc "$T/rA.json" throughput "$P" "$(rated 100000)"
doc "$T/rB.json" throughput "$P" "$(rated 110000)"
run "$T/rA.json" "$T/rB.json"
check "tt_ns 10% slower beside an unchanged rate: a detail, exit 0, not shown" sh -c '
	[ "$0" = 0 ] && ! grep -q "tt_ns\$" "$1" && ! grep -q "verified_loops\$" "$1" &&
	grep -Eq "^ +1 MB/s ~ +1% +\+0\.0% +1 MB/s ~ +1%  kind=anon .*rate_bytes_per_s\$" "$1" &&
	grep -Eq "^3 more rows: workload counts, side counters .* and details" "$1"' "$rc" "$T/out"
run --format json "$T/rA.json" "$T/rB.json"
check "JSON: tt_ns a detail that does not gate, the rate a headline that does" sh -c '
	[ "$("$1" "$2" .results[0].metric .results[0].detail .results[0].gates \
	     .results[1].metric .results[1].detail .results[1].gates | tr "\n" " ")" = \
	  "tt_ns true false rate_bytes_per_s false true " ]' sh "$JSONQ" "$T/out"
run --metrics 'tt_*' "$T/rA.json" "$T/rB.json"
check "--metrics tt_*: the detail gates: exit 1, shown as the regression" sh -c '
	[ "$0" = 1 ] && grep -Eq "\+10\.0% ! +110 us ~ +1%  kind=anon .*tt_ns\$" "$1"' "$rc" "$T/out"
run --all-metrics "$T/rA.json" "$T/rB.json"
check "--all-metrics: the detail shown, significant but no regression" sh -c '
	[ "$0" = 0 ] && grep -Eq "\+10\.0% \* +110 us ~ +1%  kind=anon .*tt_ns\$" "$1"' "$rc" "$T/out"

# ---- real throughput documents
if "$PB" throughput --format json --loops 50 --repeat 3 --warmup 0 -o "$T/r1.json" &&
   "$PB" throughput --format json --loops 50 --repeat 3 --warmup 0 -o "$T/r2.json"; then
	run --threshold 100000 "$T/r1.json" "$T/r2.json"
	check "real throughput A/A with a huge threshold: exit 0" [ "$rc" = 0 ]
	check "real throughput: the rate and time per syscall shown, the totals beside them not" sh -c '
		grep -Eq "^ +[0-9.]+ [kMG]?B/s ~ .*kind=anon mode=rw size_bytes=100 .*rate_bytes_per_s$" "$1" &&
		grep -Eq "^ +[0-9.]+ [nu]s ~ .*kind=anon mode=rw size_bytes=100 .*ns_per_syscall$" "$1" &&
		! grep -Eq " t[twr]_ns$" "$1"' sh "$T/out"
	# A document against itself, default threshold: nothing can differ.
	run "$T/r1.json" "$T/r1.json"
	check "real throughput against itself, default threshold: exit 0, no regression" \
		sh -c '[ "$0" = 0 ] && grep -q " 0 regressions beyond 5%" "$1"' "$rc" "$T/out"
	# The same document with every time longer by ten times the longest
	# repetition (tw and tr by five): a significant regression at the default
	# threshold whatever the noise of 3 runs.  (Scaling by 4 also scales the
	# spread: on a loaded machine, with 3 runs 100% apart, +300% was not
	# significant.)
	# Both sides called stable whatever this machine's load: what is tested
	# here is the regression, not the stability verdict (a row not stable
	# is inconclusive, never a regression: below).
	m=$(perl -ne '$m = $1 if /"tt_ns": ([0-9]+)/ && $1 > $m; END { print $m + 0 }' "$T/r1.json")
	perl -pe 's/"stability": "[a-z]+"/"stability": "stable"/' "$T/r1.json" >"$T/r1s.json"
	# (each repetition's rate and time per syscall follow its TT)
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my $m = $ARGV[0];
		for my $r (@{ $d->{results} }) { for my $x (@{ $r->{repetitions} }) {
			my $f = ($x->{tt_ns} + 10 * $m) / $x->{tt_ns};
			$x->{tw_ns} += 5 * $m; $x->{tr_ns} += 5 * $m; $x->{tt_ns} += 10 * $m;
			$x->{ns_per_syscall} *= $f; $x->{rate_bytes_per_s} /= $f } }
		print JSON::PP->new->canonical->encode($d)' "$m" <"$T/r1s.json" >"$T/slow.json"
	run "$T/r1s.json" "$T/slow.json"
	check "real throughput with every time 10 runs longer: exit 1, ns_per_syscall >= +1000% is a regression" \
		sh -c '[ "$0" = 1 ] && grep -Eq "\+[0-9]{4,}\.[0-9]% !.*kind=anon mode=rw size_bytes=100 .*ns_per_syscall$" "$1"' \
		"$rc" "$T/out"
	# The same slowdown with NEW's row noisy: inconclusive, exit 0.
	perl -pe 's/"stability": ?"[a-z]+"/"stability": "noisy"/g' "$T/slow.json" >"$T/slown.json"
	run "$T/r1s.json" "$T/slown.json"
	check "real throughput 10 runs longer but noisy in NEW: exit 0, ns_per_syscall inconclusive (u)" \
		sh -c '[ "$0" = 0 ] && grep -Eq "\+[0-9]{4,}\.[0-9]% u.*kind=anon mode=rw size_bytes=100 .*ns_per_syscall$" "$1" &&
			grep -q "^u inconclusive" "$1"' "$rc" "$T/out"
else
	not_ok "real throughput runs"
	not_ok "real throughput runs"
	not_ok "real throughput runs"
	not_ok "real throughput runs"
	not_ok "real throughput runs"
fi

# ---- o_noatime and timestamps documents
if "$PB" o_noatime --format json --loops 50 --repeat 2 -o "$T/o1.json" &&
   "$PB" o_noatime --format json --loops 50 --repeat 2 -o "$T/o2.json"; then
	run --threshold 100000 "$T/o1.json" "$T/o2.json"
	check "o_noatime A/A: exit 0" [ "$rc" = 0 ]
	# how many it compares depends on the counters this machine has
	aa=$(grep -o '^[0-9]* comparisons' "$T/out")
	check "o_noatime: both sides and their ratio are compared" sh -c '
		grep -q "role=A kind=anon tt_ns$" "$1" && grep -q "role=B kind=fifo tt_ns$" "$1" &&
		grep -q "role=B/A tt_ratio$" "$1"' sh "$T/out"
else
	not_ok "o_noatime runs"
	not_ok "o_noatime runs"
fi
# The previous shape (statistics without n, o_noatime's expectation_holds)
# still compares with this one, metric for metric.
if "$PB" o_noatime --format json --loops 50 --repeat 2 --expect unsupported -o "$T/o3.json"; then
	awk 'have && !/^ *"n": [0-9]+$/ { print prev }
	     /^ *"n": [0-9]+$/ { sub(/,$/, "", prev); next }
	     { prev = $0; have = 1 } END { print prev }' "$T/o3.json" |
		sed 's/"expectations_hold"/"expectation_holds"/' >"$T/o3old.json"
	run --threshold 100000 "$T/o3old.json" "$T/o3.json"
	check "previous shape against this one: exit 0, the same ${aa:-?} comparisons as A/A" sh -c '
		[ "$1" = 0 ] && ! grep -q "\"n\":" "$2" && grep -q expectation_holds "$2" &&
		"$4" "$2" >/dev/null && [ -n "$5" ] && grep -q "^$5, 0 significant" "$3"' \
		sh "$rc" "$T/o3old.json" "$T/out" "$JSONQ" "${aa:-}"
else
	not_ok "o_noatime runs"
fi
if "$PB" timestamps --format json -o "$T/t1.json"; then
	# The kernel changed its mind: anon now updated, with a new detail text.
	sed -e '0,/"verdict": "frozen"/s//"verdict": "updated"/' \
	    -e '0,/"verdict_detail": "[^"]*"/s//"verdict_detail": "write changes mtime+ctime"/' \
		"$T/t1.json" >"$T/t2.json"
	run "$T/t1.json" "$T/t2.json"
	check "timestamps: a changed verdict is found despite its new detail text" \
		grep -q 'verdict frozen -> updated' "$T/out"
else
	not_ok "timestamps runs"
fi

# A busy machine is called out.
sed 's/"loadavg_1m": [0-9.]*/"loadavg_1m": 99.5/' "$T/r1.json" >"$T/busy.json"
run --threshold 100000 "$T/r1.json" "$T/busy.json"
check "a document measured under load gets a note" grep -q 'busy.json was measured with a load average of 99.5' "$T/out"
# ... but not one whose CPU count or load is unknown (null): nothing to
# weigh the load against
sed 's/"cpus_online": [0-9]*/"cpus_online": null/' "$T/busy.json" >"$T/busy-nocpus.json"
sed 's/"loadavg_1m": [0-9.]*/"loadavg_1m": null/' "$T/busy.json" >"$T/busy-noload.json"
run --threshold 100000 "$T/r1.json" "$T/busy-nocpus.json" "$T/busy-noload.json"
check "no load note where the CPU count or the load is null" eval \
	'grep -q "cpus_online\": null" "$T/busy-nocpus.json" && grep -q "loadavg_1m\": null" "$T/busy-noload.json" &&
	! grep -q "busy-no[a-z]*\.json was measured with a load average" "$T/out"'


# ---- runs that did not complete, and files that match nothing (exit 2)
if "$PB" throughput --format json --loops 50 --repeat 3 --warmup 0 --timeout 1ns \
	-o "$T/to.json" 2>/dev/null; then
	not_ok "throughput --timeout 1ns times out"
else
	check "throughput --timeout 1ns times out (exit 3)" [ "$?" = 3 ]
fi
run "$T/r1.json" "$T/to.json"
check "timed-out NEW: exit 2" [ "$rc" = 2 ]
check "timed-out NEW: one line naming the file, why and the way out" \
	one_line_err "to.json: the run failed (exit status 3: --timeout: timed out after .*); use --allow-partial to compare what it has$"
check "timed-out NEW: nothing on stdout" [ ! -s "$T/out" ]
run "$T/to.json" "$T/r1.json"
check "timed-out BASE: exit 2, one line naming it" \
	exit2_err "to.json: the run failed (exit status 3"
run --threshold 100000 --allow-partial "$T/r1.json" "$T/to.json"
check "--allow-partial: exit 0" [ "$rc" = 0 ]
check "--allow-partial: a warning names the failed run" \
	grep -q '^pipebench compare: warning: .*to.json: the run failed (exit status 3' "$T/err"
check "--allow-partial: the result without repetitions is coverage lost" \
	grep -q '^- kind=anon mode=rw size_bytes=100 pipe_size_bytes=65536: no repetitions in NEW$' "$T/out"
check "--allow-partial: counted in the summary" grep -q '^0 comparisons, .*; 1 coverage lost' "$T/out"
run --threshold 100000 --allow-partial --strict "$T/r1.json" "$T/to.json"
check "--allow-partial --strict: lost coverage fails (exit 1)" [ "$rc" = 1 ]
run --threshold 100000 --allow-partial --format json "$T/r1.json" "$T/to.json"
check "--allow-partial JSON: coverage_lost array and count, run_failed recorded" sh -c '
	[ "$("$1" "$2" .exit_status .coverage_lost# .coverage_lost[0].reason .coverage_lost[0].ids.kind \
		.summary.coverage_lost .params.allow_partial .inputs[0].run_failed)" = "0
1
no repetitions in NEW
anon
1
true
null" ] && "$1" "$2" .inputs[1].run_failed | grep -q "^the run failed (exit status 3"' \
	sh "$JSONQ" "$T/out"

sed 's/"errors": \[/"errors": [ "anon: something broke"/' "$T/r1.json" >"$T/errs.json"
run --threshold 100000 "$T/r1.json" "$T/errs.json"
check "errors in a run that exited 0: exit 2, one line" \
	exit2_err "errs.json: the run reported 1 error (exit status 0: anon: something broke); use --allow-partial"

doc "$T/fifo.json" throughput "$P" "$(tp_body 100000 | sed 's/"anon"/"fifo"/')"
run "$T/base.json" "$T/fifo.json"
check "NEW matching nothing in BASE: exit 2, one line" \
	exit2_err "fifo.json: none of its 1 results matches one of .*base.json's 1; use --allow-partial"
check "NEW matching nothing: nothing on stdout" [ ! -s "$T/out" ]
run --allow-partial "$T/base.json" "$T/fifo.json"
check "NEW matching nothing with --allow-partial: exit 0, warned, coverage lost" sh -c '
	[ "$0" = 0 ] && grep -q "warning: .*fifo.json: none of its 1 results" "$1" &&
	grep -q "^- kind=anon size_bytes=100 pipe_size_bytes=65536: absent in NEW$" "$2"' \
	"$rc" "$T/err" "$T/out"
doc "$T/empty.json" throughput "$P" '"results": []'
run "$T/base.json" "$T/empty.json"
check "NEW without results: exit 2, one line" \
	exit2_err "empty.json: it has no results (.*base.json has 1)"
run "$T/empty.json" "$T/base.json"
check "BASE without results: exit 2, one line naming BASE" \
	exit2_err "empty.json: it has no results (.*base.json has 1)"
run "$T/empty.json" "$T/empty.json"
check "neither with results: exit 2, one line" \
	exit2_err "empty.json: nothing to compare: neither it nor .*empty.json has results"

# ---- coverage lost, for every kind of document
if "$PB" conformance --format json --only CRE-01,CRE-02,CRE-04 -o "$T/c1.json" &&
   "$PB" conformance --format json --only CRE-01,CRE-02 -o "$T/c2.json"; then
	sed -i '0,/"status": "pass"/! {0,/"status": "pass"/s//"status": "skip"/}' "$T/c2.json"
	run "$T/c1.json" "$T/c2.json"
	check "conformance: skipped and absent checks: exit 0 without --strict" [ "$rc" = 0 ]
	check "conformance: the skipped check is coverage lost" grep -q '^- CRE-02: skip in NEW' "$T/out"
	check "conformance: the absent check is coverage lost" grep -q '^- CRE-04: absent in NEW$' "$T/out"
	check "conformance: counted in the summary" grep -q '; 2 coverage lost' "$T/out"
	run --strict "$T/c1.json" "$T/c2.json"
	check "conformance --strict: exit 1" [ "$rc" = 1 ]
	run --strict --format json "$T/c1.json" "$T/c2.json"
	check "conformance --strict JSON: coverage_lost and exit_status" sh -c '
		[ "$("$1" "$2" .exit_status .summary.coverage_lost .coverage_lost[1].id \
			.coverage_lost[1].reason)" = "1
2
CRE-04
absent in NEW" ]' sh "$JSONQ" "$T/out"
	run --strict "$T/c2.json" "$T/c1.json"
	check "conformance: more checks in NEW lose nothing (--strict exit 0)" [ "$rc" = 0 ]
else
	for i in 1 2 3 4 5 6 7; do not_ok "conformance runs"; done
fi

if [ -s "$T/t1.json" ]; then
	# the first result's verdict (anon), not the FIFO reference's before it
	awk '/"results": \[/ { r = 1 } r && !done && sub(/"verdict": "[a-z]*"/, "\"verdict\": \"undetermined\"") { done = 1 } { print }' \
		"$T/t1.json" >"$T/t3.json"
	run --strict "$T/t1.json" "$T/t3.json"
	check "timestamps: an undetermined verdict is coverage lost (--strict exit 1)" \
		sh -c '[ "$0" = 1 ] && grep -q "^! kind=anon.*: undetermined in NEW" "$1"' "$rc" "$T/out"
else
	not_ok "timestamps document"
fi

if [ -s "$T/o1.json" ]; then
	"$PB" o_noatime --format json --loops 50 --repeat 2 --timeout 1ns -o "$T/oto.json" 2>/dev/null
	run "$T/o1.json" "$T/oto.json"
	check "o_noatime timed out: exit 2, one line" \
		exit2_err "oto.json: the run failed (exit status 3"
	run --allow-partial "$T/o1.json" "$T/oto.json"
	check "o_noatime timed out, --allow-partial: its results are coverage lost" sh -c '
		[ "$0" = 0 ] && grep -q "^- role=A kind=anon: absent in NEW$" "$1" &&
		grep -q "^- role=B/A: absent in NEW$" "$1"' "$rc" "$T/out"
else
	not_ok "o_noatime document"
	not_ok "o_noatime document"
fi

if "$PB" messaging --format json --groups 2 --loops 20 --repeat 2 --warmup 0 -o "$T/m1.json" &&
   "$PB" messaging --format json --groups 2 --loops 40 --repeat 2 --warmup 0 -o "$T/m2.json"; then
	sed '/"voluntary_ctxsw": [0-9]/d' "$T/m1.json" >"$T/m1-noctx.json"
	run --threshold 100000 --strict "$T/m1.json" "$T/m1-noctx.json"
	check "messaging: a metric NEW lacks is coverage lost (--strict exit 1)" sh -c '
		[ "$0" = 1 ] && grep -q "^! kind=pipe .*: not measured in NEW: voluntary_ctxsw$" "$1"' \
		"$rc" "$T/out"
	run --force --all-metrics --threshold 100000 "$T/m1.json" "$T/m2.json"
	check "messaging --force, twice the loops: elapsed_ns not comparable, compared per message" \
		sh -c 'grep -Eq " ~ .* elapsed_ns\$" "$0" && grep -Eq "[^~] .* elapsed_ns_per_message\$" "$0" &&
		grep -Eq " ~ .* cpu_user_ns\$" "$0"' "$T/out"
else
	not_ok "messaging runs"
	not_ok "messaging runs"
fi

# report: a part absent in NEW, and a part that failed.
if "$PB" report --quick --parts timestamps,throughput --format json -o "$T/rep1.json" &&
   "$PB" report --quick --parts timestamps --format json -o "$T/rep2.json"; then
	run "$T/rep1.json" "$T/rep2.json"
	check "report: a part NEW did not run is coverage lost" sh -c '
		[ "$0" = 0 ] && grep -q "^- throughput: (all results): part absent in NEW$" "$1"' \
		"$rc" "$T/out"
else
	not_ok "report runs"
fi
# rep_wrap FILE PART.json EXIT ERRORS: a report of one throughput part
rep_wrap() {
	{ printf '{ "tool": "pipebench", "version": "0.1.0", "schema_version": 1, "command": "report",
  "params": { "quick": true }, "system": { "kernel_release": "6.18.0-test" },
  "parts": { "throughput": '
	  cat "$2"
	  printf ' }, "errors": %s, "exit_status": %s }\n' "$4" "$3"; } >"$1"
}
rep_wrap "$T/rep-ok.json" "$T/r1.json" 0 '[]'
rep_wrap "$T/rep-to.json" "$T/to.json" 3 '[ "--timeout: timed out" ]'
run "$T/rep-ok.json" "$T/rep-to.json"
check "report with a timed-out part: exit 2, one line naming the part" \
	exit2_err "rep-to.json: part throughput: the run failed (exit status 3: --timeout"
run --allow-partial --strict "$T/rep-ok.json" "$T/rep-to.json"
check "report with a timed-out part, --allow-partial --strict: exit 1, the part's result lost" sh -c '
	[ "$0" = 1 ] && grep -q "^! throughput: kind=anon .*: no repetitions in NEW$" "$1"' "$rc" "$T/out"

# A NEW that can compare nothing names the first result lost and counts the
# others: "; and 2 more" for three, nothing more for one.
lost_docs() {
	r= k=
	for k in $1; do
		r="$r${r:+, }{\"kind\": \"$k\", \"mode\": \"rw\", \"size_bytes\": 4096, \"status\": \"ok\", \"repetitions\": [{\"tt_ns\": 100}, {\"tt_ns\": 110}]}"
	done
	printf '{"tool": "pipebench", "schema_version": 1, "command": "throughput", "exit_status": 0, "results": [%s]}\n' "$r" >"$T/lb.json"
	sed 's/"status": "ok", "repetitions": \[{"tt_ns": 100}, {"tt_ns": 110}\]/"status": "skip", "reason": "not here"/g' \
		"$T/lb.json" >"$T/ln.json"
}
lost_docs "anon fifo socketpair"
run "$T/lb.json" "$T/ln.json"
check "three results lost: exit 2 naming the first, '; and 2 more'" sh -c '
	[ "$0" = 2 ] && grep -q "(kind=anon mode=rw size_bytes=4096: no repetitions in NEW; and 2 more); use --allow-partial" "$1"' "$rc" "$T/err"
lost_docs anon
run "$T/lb.json" "$T/ln.json"
check "one result lost: no 'and more'" sh -c '
	[ "$0" = 2 ] && grep -q "(kind=anon mode=rw size_bytes=4096: no repetitions in NEW); use --allow-partial" "$1"' "$rc" "$T/err"

# Two parts with the same result and metric (report's throughput and
# throughput_64k) are two rows, each with its own changes in every NEW:
# a row is the part, label and metric together.
# twoparts FILE TP... TP64...: a report of both parts, three repetitions each.
twoparts() {
	f=$1; shift
	r() { printf '{"tool":"pipebench","version":"0.1.0","schema_version":1,"command":"throughput","params":{"loops":1},"results":[{"kind":"anon","repetitions":[{"rate_bytes_per_s":%s},{"rate_bytes_per_s":%s},{"rate_bytes_per_s":%s}]}]}' "$@"; }
	printf '{"tool":"pipebench","version":"0.1.0","schema_version":1,"command":"report","params":{},"parts":{"throughput":%s,"throughput_64k":%s}}\n' \
		"$(r "$1" "$2" "$3")" "$(r "$4" "$5" "$6")" >"$f"
}
twoparts "$T/pb.json" 99 100 101 99 100 101
twoparts "$T/p1.json" 109 110 111 49 50 51
twoparts "$T/p2.json" 108 110 112 48 50 52
run "$T/pb.json" "$T/p1.json" "$T/p2.json"
check "two parts, one label and metric: each row its own part's changes in both NEWs" sh -c '
	[ "$0" = 1 ] && grep -Eq "^ +100 B/s ~ +1% +\+10\.0% \* +110 B/s ~ +1% +\+10\.0% \* +110 B/s ~ +2%  throughput: kind=anon rate_bytes_per_s$" "$1" &&
	grep -Eq "^ +100 B/s ~ +1% +-50\.0% ! +50 B/s ~ +2% +-50\.0% ! +50 B/s ~ +4%  throughput_64k: kind=anon rate_bytes_per_s$" "$1" &&
	[ "$(grep -c "kind=anon rate_bytes_per_s$" "$1")" = 2 ]' "$rc" "$T/out"

# A part of BASE with no results that NEW lacks loses nothing: no row, no
# coverage lost, and the comparison of the rest goes on (exit 0).
printf '{"tool":"pipebench","version":"0.1.0","schema_version":1,"command":"report","params":{},"parts":{"throughput":%s,"messaging":{"tool":"pipebench","version":"0.1.0","schema_version":1,"command":"messaging","params":{},"results":[]}}}\n' \
	"$(sed 's/^{.*"parts":{"throughput":\(.*\),"throughput_64k":.*$/\1/' "$T/pb.json")" >"$T/pe.json"
printf '{"tool":"pipebench","version":"0.1.0","schema_version":1,"command":"report","params":{},"parts":{"throughput":%s}}\n' \
	"$(sed 's/^{.*"parts":{"throughput":\(.*\),"throughput_64k":.*$/\1/' "$T/pb.json")" >"$T/pn.json"
run "$T/pe.json" "$T/pn.json"
check "BASE's part without results, absent in NEW: exit 0, nothing lost, nothing on stderr" sh -c '
	[ "$0" = 0 ] && [ ! -s "$2" ] && grep -q "0 coverage lost" "$1" &&
	grep -q "throughput: kind=anon rate_bytes_per_s" "$1"' "$rc" "$T/out" "$T/err"

echo "1..$n"
