#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench bisect: judging two documents (good, bad, cannot decide; a
# check); running a good document's command again until decided; and
# `git bisect run` over a throw-away history of 16 commits in which commit
# k makes every pipe write() slower (tests/delaywrite.so): it names k, for
# several k.  A step whose run breaks, or that cannot gather enough samples
# within --duration, is 125.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
D=$TEST_TMP
P=$PIPEBENCH
DW=$TESTS_BUILDDIR/delaywrite.so
# A sanitizer build's runtime must come first (as in tests/faults.sh).
asan=$(ldd "$P" 2>/dev/null | awk '/libasan\.so/ { print $3; exit }')
[ -z "$asan" ] || DW="$asan:$DW"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS
run() { "$P" bisect "$@" >"$D/out" 2>"$D/err"; rc=$?; }

# doc FILE NS...: a throughput document, one result whose repetitions have
# these ns_per_syscall
doc() {
	f=$1; shift
	reps=
	for v in "$@"; do reps="$reps${reps:+,}{\"ns_per_syscall\": $v, \"syscalls\": 100}"; done
	printf '{"tool": "pipebench", "version": "0.1.0", "schema_version": 1, "command": "throughput", "params": {}, "results": [{"kind": "anon", "repetitions": [%s]}], "errors": [], "exit_status": 0}\n' "$reps" >"$f"
}
doc "$D/base.json" 100 101 99 100 102 98
doc "$D/slow.json" 130 131 129 130 132 128
doc "$D/same.json" 100.5 101 99.5 100 101.5 99
doc "$D/few.json" 130 100

# ---- judging two documents
run --good "$D/base.json" "$D/slow.json"
is "$rc" 1 "judge: 30% slower: bad (1)"
ok "$(grep -q '^bad: ns_per_syscall of kind=anon: +30.0%, worse beyond 10% (p [0-9.e-]*, Mann-Whitney; 6 samples against 6)$' "$D/out"; echo $?)" \
	"judge: the line names the metric, the change and the test"
run --good "$D/base.json" "$D/same.json"
is "$rc" 0 "judge: the same figure: good (0)"
ok "$(grep -q '^good: ns_per_syscall of kind=anon: +[0-9.]*%, at worst +[0-9.]*% (Hodges-Lehmann 95%) within 10%' "$D/out"; echo $?)" \
	"judge: good says the worst the interval allows"
run --good "$D/base.json" --threshold 40 "$D/slow.json"
is "$rc" 0 "judge: 30% slower with --threshold 40: good"
run --good "$D/base.json" "$D/few.json"
is "$rc" 125 "judge: two samples, no interval: cannot decide (125)"
run --good "$D/base.json" --metric rate_bytes_per_s "$D/slow.json"
is "$rc" 125 "judge: a metric no result has: 125"
ok "$(grep -q 'no result has rate_bytes_per_s' "$D/out"; echo $?)" "... and says so"
# a check
cdoc() {
	printf '{"tool": "pipebench", "version": "0.1.0", "schema_version": 1, "command": "conformance", "params": {}, "checks": [{"id": "CRE-01", "status": "%s", "detail": "d"}, {"id": "CRE-02", "status": "pass"}], "errors": [], "exit_status": 0}\n' "$2" >"$1"
}
cdoc "$D/c0.json" pass
cdoc "$D/c1.json" fail
cdoc "$D/c2.json" error
run --good "$D/c0.json" --check CRE-01 "$D/c0.json"
is "$rc|$(cat "$D/out")" "0|good: CRE-01: pass" "judge a check: pass is good"
run --good "$D/c0.json" --check CRE-01 "$D/c1.json"
is "$rc|$(cat "$D/out")" "1|bad: CRE-01: fail: d" "judge a check: fail is bad, with its detail"
run --good "$D/c0.json" --check CRE-01 "$D/c2.json"
is "$rc|$(cat "$D/out")" "125|cannot decide: CRE-01: error: d" "judge a check: error cannot decide"
for st in known-deviation info; do
	cdoc "$D/c3.json" "$st"
	run --good "$D/c0.json" --check CRE-01 "$D/c3.json"
	is "$rc|$(cat "$D/out")" "0|good: CRE-01: pass" "judge a check: $st counts as passing"
done
cdoc "$D/c3.json" skip
run --good "$D/c0.json" --check CRE-01 "$D/c3.json"
is "$rc|$(cat "$D/out")" "125|cannot decide: CRE-01: skip: d" "judge a check: a skip cannot decide"
# a check run twice (once per kind): one fail is bad, whichever comes first;
# both passing is good; an entry without a status is not counted
# judge_twice FIRST SECOND WANT DESC: CRE-01's statuses FIRST, none, then SECOND
judge_twice() {
	printf '{"tool": "pipebench", "version": "0.1.0", "schema_version": 1, "command": "conformance", "params": {}, "checks": [{"id": "CRE-01", "status": "%s", "detail": "a"}, {"id": "CRE-01"}, {"id": "CRE-01", "status": "%s", "detail": "f"}], "errors": [], "exit_status": 0}\n' "$1" "$2" >"$D/c4.json"
	run --good "$D/c0.json" --check CRE-01 "$D/c4.json"
	is "$rc|$(cat "$D/out")" "$3" "judge a check run twice: $4"
}
judge_twice pass fail "1|bad: CRE-01: fail: f" "pass then fail is bad"
judge_twice fail pass "1|bad: CRE-01: fail: a" "fail then pass is bad"
judge_twice pass pass "0|good: CRE-01: pass" "both passing is good"
judge_twice pass skip "125|cannot decide: CRE-01: skip: f" "a pass and a skip cannot decide"
run --good "$D/c0.json" --check CRE-09 "$D/c0.json"
is "$rc|$(cat "$D/out")" "125|cannot decide: CRE-09 is not in the document" \
	"judge a check the document lacks: cannot decide"

# ---- --check, running the good document's command again: a check that
# fails makes conformance exit 1, which is the verdict (bad), not a run
# that broke (faultinj.so's torn writes, inherited by the run)
if fault_layer && "$P" conformance --only CRE-01 --format json -o "$D/cre01.json" 2>/dev/null; then
	faulty torn-write "$P" bisect --good "$D/cre01.json" --check CRE-01 >"$D/out" 2>"$D/err"
	is "$?:$(cut -c1-11 "$D/out")" "1:bad: CRE-01" "run --check: a kernel where the check fails is bad (exit 1)"
else
	skip 1 "run --check under faultinj.so (no fault layer, or CRE-01 does not pass here)"
fi

# ---- bad input: exit 2, one line
run "$D/slow.json"
is "$rc $(wc -l <"$D/err" | tr -d ' ')" "2 1" "no --good: exit 2, one line"
run --good "$D/nothing.json"
is "$rc $(wc -l <"$D/err" | tr -d ' ')" "2 1" "a --good that does not exist: exit 2, one line"
run --good "$D/base.json" --check CRE-01
is "$rc" 2 "--check with a throughput document: exit 2"
run --good "$D/base.json" --metric tt_ns --check CRE-01
is "$rc" 2 "--metric and --check together: exit 2"

# ---- running the good document's command again
if "$P" throughput --kind anon --size 4096 --loops 2000 --repeat 5 --format json -o "$D/real.json" 2>/dev/null; then
	tt=$("$JSONQ" "$D/real.json" .results[0].summary.tt_ns.median)
	wc=$("$JSONQ" "$D/real.json" .results[0].repetitions[0].write_calls)
	# every write spinning ten times as long as a write and its read took:
	# about eleven times slower, far past what this machine's own drift
	# between runs (other tests, CPU hogs beside them) can do; the git
	# bisect below judges with --threshold 300
	slow=$(awk -v t="$tt" -v w="$wc" 'BEGIN { printf "%d", 10 * t / w + 1 }')
	PB_DELAY_NS=$slow LD_PRELOAD=$DW "$P" bisect --good "$D/real.json" --duration 30s >"$D/out" 2>"$D/err"
	is "$?" 1 "run: a kernel with slower pipe writes is bad"
	# one line a run on stderr; the first run that decides is the last
	# (the budget left is not spent on more)
	grep '^bisect: run [0-9]*: ' "$D/err" >"$D/runs"
	first=$(grep -n -v '^bisect: run [0-9]*: cannot decide' "$D/runs" | head -n 1 | cut -d: -f1)
	is "${first:-none}:$(grep -c . "$D/runs")" "$(grep -c . "$D/runs"):$(grep -c . "$D/runs")" \
		"... and stops at the run that decided it ($(tail -n 1 "$D/runs" | cut -c1-40))"
	# a hopelessly noisy good document (its repetitions a hundredth and a
	# hundred times what they were) and no budget for a second run
	perl -pe 'BEGIN { $i = 0 } s/("ns_per_syscall": )([0-9.e+]+)/$1 . ($i++ % 2 ? $2 * 100 : $2 \/ 100)/ge' \
		"$D/real.json" >"$D/noisy.json"
	"$P" bisect --good "$D/noisy.json" --duration 1ms -q >"$D/out" 2>"$D/err"
	is "$?" 125 "run: a hopelessly noisy good document, no budget: cannot decide"
	ok "$(grep -q 'undecided after 1 runs' "$D/out"; echo $?)" "... and says after how many runs"
	# ... with budget for more runs: each run's repetitions join the ones
	# before (run k is judged on 5k samples), until the budget is spent
	"$P" bisect --good "$D/noisy.json" --duration 2s >"$D/out" 2>"$D/err"
	is "$?" 125 "run: noisy good document, 2 s: cannot decide"
	sed -n 's/^bisect: run \([0-9]*\): cannot decide: .*(\([0-9]*\) samples against 5)$/\1 \2/p' \
		"$D/err" >"$D/counts"
	bad=$(awk '$2 != 5 * $1 { print }' "$D/counts")
	n=$(grep -c '^bisect: run [0-9]*: cannot decide: ' "$D/err")
	[ "$n" -ge 2 ] && [ -z "$bad" ] && [ "$(grep -c . "$D/counts")" = "$n" ] &&
		[ "$(sed -n 's/^bisect: run \([0-9]*\):.*/\1/p' "$D/err" | tr '\n' ' ')" = "$(seq 1 "$n" | tr '\n' ' ')" ] &&
		grep -q "undecided after $n runs" "$D/out"
	ok $? "... run after run, each on the samples of all so far ($n runs${bad:+; wrong count: $bad})"
	ls "$TMPDIR" >"$D/left"
	is "$(cat "$D/left")" "" "run: nothing left in TMPDIR"
	# a run that breaks: its FIFO directory is gone
	mkdir "$D/gone"
	"$P" throughput --kind fifo --dir "$D/gone" --loops 100 --repeat 2 --format json -o "$D/fifo.json" 2>/dev/null
	rmdir "$D/gone"
	"$P" bisect --good "$D/fifo.json" -q >"$D/out" 2>"$D/err"
	is "$?" 125 "run: a run that breaks (its directory gone): cannot decide"
	ok "$(grep -q '^cannot decide: run 1 of `throughput` broke (exit 2)' "$D/out"; echo $?)" "... and says so"
else
	skip 7 "throughput did not run"
fi

# ---- git bisect run over 16 commits, commit k slower
if command -v git >/dev/null 2>&1 && [ -n "${slow:-}" ]; then
	for k in 4 13; do
		R=$D/repo$k
		git init -q "$R"
		i=1
		while [ "$i" -le 16 ]; do
			if [ "$i" -ge "$k" ]; then echo "$slow" >"$R/delay"; else echo 0 >"$R/delay"; fi
			git -C "$R" add delay
			git -C "$R" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "commit $i"
			i=$((i + 1))
		done
		want=$(git -C "$R" rev-list --reverse HEAD | sed -n "${k}p")
		first=$(git -C "$R" rev-list --reverse HEAD | head -n 1)
		git -C "$R" bisect start HEAD "$first" >/dev/null 2>&1
		(cd "$R" && git bisect run sh -c 'PB_DELAY_NS=$(cat delay) LD_PRELOAD="$1" "$2" bisect --good "$3" --threshold 300 --duration 30s -q' \
			sh "$DW" "$P" "$D/real.json") >"$D/bisect$k.log" 2>&1
		got=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit.*/\1/p' "$D/bisect$k.log" | head -n 1)
		is "$got" "$want" "git bisect run finds commit $k of 16"
		[ "$got" = "$want" ] || diag "$(tail -n 5 "$D/bisect$k.log")"
		git -C "$R" bisect reset >/dev/null 2>&1
	done
else
	skip 2 "git is not installed (or throughput did not run)"
fi
done_testing
