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

echo "1..44"

# ---- synthetic documents
run "$T/base.json" "$T/same.json"
check "no change: exit 0" [ "$rc" = 0 ]
check "no change: nothing on stderr" [ ! -s "$T/err" ]
check "text shows the robot's layout" grep -Eq '^ +100000 ~ +1% +\+0\.0% +100000 ~ +1%  kind=anon size_bytes=100 pipe_size_bytes=65536 tt_ns$' "$T/out"

run "$T/base.json" "$T/slow.json"
check "10% slower: exit 1 (regression)" [ "$rc" = 1 ]
check "regression marked with !" grep -Eq '\+10\.0% ! +110000 ~ +1%.* tt_ns$' "$T/out"
check "neutral count not flagged" grep -Eq '\+0\.0%   +1000 ~ +0%.* bytes$' "$T/out"

run --threshold 15 "$T/base.json" "$T/slow.json"
check "10% slower with --threshold 15: exit 0" [ "$rc" = 0 ]
check "still significant with --threshold 15" grep -Eq '\+10\.0% \* .* tt_ns$' "$T/out"

run "$T/base.json" "$T/fast.json"
check "10% faster: exit 0" [ "$rc" = 0 ]

run "$T/base.json" "$T/same.json" "$T/slow.json"
check "two NEW files: exit 1" [ "$rc" = 1 ]
check "two NEW files side by side" grep -Eq '\+0\.0% .* \+10\.0% ! +110000 ~ +1%.* tt_ns$' "$T/out"

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
check "--force: results matched without pipe_size_bytes" grep -Eq '\+100\.0% ! .*kind=anon size_bytes=100 tt_ns$' "$T/out"

check "same workload: no note" sh -c '! grep -q "^note:" "$0"' "$T/out"
doc "$T/lessbytes.json" throughput "$P" "$(tp_body 100000 | sed 's/"bytes": 1000/"bytes": 125/')"
run "$T/base.json" "$T/lessbytes.json"
check "different workload: exit 0, bytes never a regression" [ "$rc" = 0 ]
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

# ---- real throughput documents
if "$PB" throughput --format json --loops 50 --repeat 3 --warmup 0 -o "$T/r1.json" &&
   "$PB" throughput --format json --loops 50 --repeat 3 --warmup 0 -o "$T/r2.json"; then
	run --threshold 100000 "$T/r1.json" "$T/r2.json"
	check "real throughput A/A with a huge threshold: exit 0" [ "$rc" = 0 ]
	check "real throughput: tt_ns row" grep -q 'kind=anon size_bytes=100 .*tt_ns$' "$T/out"
else
	not_ok "real throughput runs"
	not_ok "real throughput runs"
fi

# ---- o_noatime and timestamps documents
if "$PB" o_noatime --format json --loops 50 --repeat 2 -o "$T/o1.json" &&
   "$PB" o_noatime --format json --loops 50 --repeat 2 -o "$T/o2.json"; then
	run --threshold 100000 "$T/o1.json" "$T/o2.json"
	check "o_noatime A/A: exit 0" [ "$rc" = 0 ]
	check "o_noatime: both sides and their ratio are compared" sh -c '
		grep -q "role=A kind=anon tt_ns$" "$1" && grep -q "role=B kind=fifo tt_ns$" "$1" &&
		grep -q "role=B/A tt_ratio$" "$1"' sh "$T/out"
else
	not_ok "o_noatime runs"
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

