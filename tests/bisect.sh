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
# only CRE-01's entries count: another check's fail, an entry without an id
# or with a status that is not a string, are none of its business
printf '{"tool": "pipebench", "version": "0.1.0", "schema_version": 1, "command": "conformance", "params": {}, "checks": [{"id": "CRE-02", "status": "fail", "detail": "x"}, {"status": "fail"}, {"id": "CRE-01", "status": 1}, {"id": "CRE-01", "status": "pass"}], "errors": [], "exit_status": 0}\n' >"$D/c5.json"
run --good "$D/c0.json" --check CRE-01 "$D/c5.json"
is "$rc|$(cat "$D/out")" "0|good: CRE-01: pass" "judge a check: other checks' entries and malformed ones do not count"
# "checks" missing, or not an array: nothing to judge
for checks in missing: 'an object:"checks": {"id": "CRE-01", "status": "pass"}, '; do
	printf '{"tool": "pipebench", "version": "0.1.0", "schema_version": 1, "command": "conformance", "params": {}, %s"errors": [], "exit_status": 0}\n' "${checks#*:}" >"$D/c6.json"
	run --good "$D/c0.json" --check CRE-01 "$D/c6.json"
	is "$rc|$(cat "$D/out")|$(cat "$D/err")" "125|cannot decide: CRE-01 is not in the document|" \
		"judge a check: \"checks\" ${checks%%:*}: cannot decide"
done

# ---- judging, the figures exactly (Hodges-Lehmann's interval of these
# samples is a difference of two of them, so every figure below is exact)
# mdoc FILE CMD METRIC V...: a CMD document, one result (kind=anon) whose
# repetitions have METRIC = V...
mdoc() {
	f=$1 c=$2 m=$3; shift 3
	reps=
	for v in "$@"; do reps="$reps${reps:+,}{\"$m\": $v}"; done
	printf '{"tool": "pipebench", "version": "0.1.0", "schema_version": 1, "command": "%s", "params": {}, "results": [{"kind": "anon", "repetitions": [%s]}], "errors": [], "exit_status": 0}\n' "$c" "$reps" >"$f"
}
# lower is better: 30% faster is good, the interval's worse end (its upper
# one) still 28% better; judged by its other end it would not be
doc "$D/fast.json" 70 71 69 70 72 68
run --good "$D/base.json" "$D/fast.json"
is "$rc|$(cat "$D/out")" "0|good: ns_per_syscall of kind=anon: -30.0%, at worst -28.0% (Hodges-Lehmann 95%) within 10% (6 samples against 6)" \
	"judge: 30% faster: good, at worst the interval's upper end"
# higher is better (messaging's default, rate_messages_per_s): 30% fewer
# messages a second is bad, 30% more good (the worse end now the lower one)
mdoc "$D/m0.json" messaging rate_messages_per_s 1000 1010 990 1000 1020 980
mdoc "$D/m1.json" messaging rate_messages_per_s 700 707 693 700 714 686
mdoc "$D/m2.json" messaging rate_messages_per_s 1300 1313 1287 1300 1326 1274
run --good "$D/m0.json" "$D/m1.json"
is "$rc|$(cat "$D/out")" "1|bad: rate_messages_per_s of kind=anon: -30.0%, worse beyond 10% (p 0.00492, Mann-Whitney; 6 samples against 6)" \
	"judge messaging: its default metric, 30% lower: bad"
run --good "$D/m0.json" "$D/m2.json"
is "$rc|$(cat "$D/out")" "0|good: rate_messages_per_s of kind=anon: +30.0%, at worst -27.4% (Hodges-Lehmann 95%) within 10% (6 samples against 6)" \
	"judge messaging: 30% higher: good"
# latency's default is rtt_p50_ns
mdoc "$D/l0.json" latency rtt_p50_ns 100 101 99 100 102 98
mdoc "$D/l1.json" latency rtt_p50_ns 130 131 129 130 132 128
run --good "$D/l0.json" "$D/l1.json"
is "$rc|$(cut -c1-36 "$D/out")" "1|bad: rtt_p50_ns of kind=anon: +30.0%" "judge latency: its default metric, rtt_p50_ns"
# figures below 1 are judged as any other (the scale is the base's median)
doc "$D/tiny.json" 0.50 0.51 0.49 0.50 0.52 0.48
run --good "$D/tiny.json" "$D/tiny.json"
is "$rc|$(cat "$D/out")" "0|good: ns_per_syscall of kind=anon: +0.0%, at worst +4.0% (Hodges-Lehmann 95%) within 10% (6 samples against 6)" \
	"judge: figures below 1: good"
# --threshold's edge: 25% slower, the interval's worse end exactly 18/64 =
# 28.125% worse: at most --threshold is good (the edge included), a hair
# below it cannot decide
doc "$D/b64.json" 62 63 64 64 65 66
doc "$D/n64.json" 78 79 80 80 81 82
for t in 28.124 28.125 28.126; do
	run --good "$D/b64.json" --threshold "$t" "$D/n64.json"
	echo "$rc|$(cat "$D/out")"
done >"$D/edge"
is "$(cat "$D/edge")" "125|cannot decide: ns_per_syscall of kind=anon: +25.0%, its interval reaches past the threshold (6 samples against 6)
0|good: ns_per_syscall of kind=anon: +25.0%, at worst +28.1% (Hodges-Lehmann 95%) within 28.125% (6 samples against 6)
0|good: ns_per_syscall of kind=anon: +25.0%, at worst +28.1% (Hodges-Lehmann 95%) within 28.126% (6 samples against 6)" \
	"judge: at worst 28.125%: --threshold 28.124 cannot decide, 28.125 and 28.126 good"
# only the metric judged counts: tt_ns 30% worse, ns_per_syscall the same
printf '{"tool": "pipebench", "version": "0.1.0", "schema_version": 1, "command": "throughput", "params": {}, "results": [{"kind": "anon", "repetitions": [%s]}], "errors": [], "exit_status": 0}\n' \
	'{"ns_per_syscall": 100, "tt_ns": 100}, {"ns_per_syscall": 101, "tt_ns": 101}, {"ns_per_syscall": 99, "tt_ns": 99}, {"ns_per_syscall": 100, "tt_ns": 100}, {"ns_per_syscall": 102, "tt_ns": 102}, {"ns_per_syscall": 98, "tt_ns": 98}' >"$D/tt0.json"
perl -pe 's/"tt_ns": ([0-9]+)/"tt_ns": @{[$1 * 1.3]}/g' "$D/tt0.json" >"$D/tt1.json"
run --good "$D/tt0.json" "$D/tt1.json"
is "$rc|$(cut -c1-50 "$D/out")" "0|good: ns_per_syscall of kind=anon: +0.0%, at worst" "judge: another metric 30% worse does not count"
run --good "$D/tt0.json" --metric tt_ns "$D/tt1.json"
is "$rc|$(cut -c1-31 "$D/out")" "1|bad: tt_ns of kind=anon: +30.0%" "... until --metric names it"
# a neutral figure (the work done, syscalls) has no better or worse: nothing
# to judge
run --good "$D/base.json" --metric syscalls "$D/same.json"
is "$rc|$(cat "$D/out")" "125|cannot decide: no result has syscalls" "judge: a neutral metric: cannot decide"
# every result: one bad is bad, and the line names it (whether it comes
# first or last); all good is good (fifo's interval at most exactly 10%
# worse); one undecided cannot decide, and the line names the first
# undecided, not a good one after it
# rdoc FILE NS1 NS2: two results, kind=anon with ns_per_syscall NS1 + 0,
# +1, -1, 0, +2, -2 and kind=fifo with NS2 + the same
rdoc() {
	r=
	for k in anon:$2 fifo:$3; do
		reps=
		for d in 0 1 -1 0 2 -2; do reps="$reps${reps:+,}{\"ns_per_syscall\": $((${k#*:} + d))}"; done
		r="$r${r:+,}{\"kind\": \"${k%%:*}\", \"repetitions\": [$reps]}"
	done
	printf '{"tool": "pipebench", "version": "0.1.0", "schema_version": 1, "command": "throughput", "params": {}, "results": [%s], "errors": [], "exit_status": 0}\n' "$r" >"$1"
}
rdoc "$D/r0.json" 100 200
for w in "130 200|1|bad: ns_per_syscall of kind=anon: +30.0%, worse" "100 260|1|bad: ns_per_syscall of kind=fifo: +30.0%, worse" \
	"100 218|0|good: ns_per_syscall of kind=fifo: +9.0%, at worst +10.0% (Hodges-Lehmann 95%) within 10%" \
	"100 219|125|cannot decide: ns_per_syscall of kind=fifo: +9.5%, its interval" \
	"109 200|125|cannot decide: ns_per_syscall of kind=anon: +9.0%, its interval" \
	"109 219|125|cannot decide: ns_per_syscall of kind=anon: +9.0%, its interval"; do
	# shellcheck disable=SC2086 # two numbers
	rdoc "$D/r1.json" ${w%%|*}
	w=${w#*|}
	line=${w#*|}
	run --good "$D/r0.json" "$D/r1.json"
	is "$rc|$(cut -c1-${#line} "$D/out")" "$w" "judge two results: $w"
done
# a NEW of another command cannot be judged against BASE
run --good "$D/base.json" "$D/m0.json"
is "$rc|$(cat "$D/out")" "125|cannot decide: command 'messaging' differs from BASE's 'throughput'" \
	"judge: NEW of another command: cannot decide, and why"

# ---- --check, running the good document's command again: a check that
# fails makes conformance exit 1, which is the verdict (bad), not a run
# that broke (faultinj.so's torn writes, inherited by the run)
if fault_layer && "$P" conformance --only CRE-01 --format json -o "$D/cre01.json" 2>/dev/null; then
	faulty torn-write "$P" bisect --good "$D/cre01.json" --check CRE-01 >"$D/out" 2>"$D/err"
	is "$?:$(cut -c1-11 "$D/out")" "1:bad: CRE-01" "run --check: a kernel where the check fails is bad (exit 1)"
	# ... and only with --check: judging a metric, exit 1 is a run that broke
	faulty torn-write "$P" bisect --good "$D/cre01.json" --metric rtt_p50_ns >"$D/out" 2>"$D/err"
	is "$?|$(cat "$D/out")" "125|cannot decide: run 1 of \`conformance\` broke (exit 1)" \
		"run --metric: a run that exits 1 broke"
else
	skip 2 "run --check under faultinj.so (no fault layer, or CRE-01 does not pass here)"
fi

# ---- running a conformance document's command again, cheaply (CRE-01
# takes milliseconds): bisect owns the output options and the check
# selection (it appends --quiet --format json --output FILE --only ID), so
# BASE's own are dropped in every spelling -- the run would refuse an
# option given twice, exit 2 -- and every other option is passed on as
# written.  The run's own output and messages go to /dev/null: bisect
# prints its verdict's line alone, and leaves nothing in TMPDIR.  A check
# is run once, whatever --duration.
# cargv FILE ARG...: a conformance document whose run.pipebench.argv is
# "pipebench ARG..."
cargv() {
	f=$1; shift
	a='"pipebench"'
	for x in "$@"; do a="$a, \"$x\""; done
	printf '{"tool": "pipebench", "version": "0.1.0", "schema_version": 1, "command": "conformance", "params": {}, "run": {"pipebench": {"argv": [%s]}}, "checks": [], "errors": [], "exit_status": 0}\n' "$a" >"$f"
}
# crun WANT DESC ARG...: bisect --check CRE-01 with a document recorded as
# "pipebench ARG..."; WANT: its exit status and line
crun() {
	want=$1 desc=$2; shift 2
	cargv "$D/argv.json" "$@"
	run --good "$D/argv.json" --check CRE-01 --duration 1ms
	is "$rc|$(cat "$D/out")|$(cat "$D/err")|$(ls -A "$TMPDIR")" "$want||" "run --check: $desc"
}
if "$P" conformance --only CRE-01 -q >/dev/null 2>&1; then
	broke='cannot decide: run 1 of `conformance` broke'
	crun "0|good: CRE-01: pass" "the shortest command line" conformance
	crun "0|good: CRE-01: pass" "BASE's --format, -f, --output, -o, --only and --skip dropped" \
		conformance --format tap -f text --output "$D/o1" -o "$D/o2" --only CRE-02 --skip CRE-01
	crun "0|good: CRE-01: pass" "... and their --name=VALUE and -xVALUE spellings, --quiet and -q" \
		conformance --format=tap --output="$D/o1" --only=CRE-02 --skip=CRE-01 -q --quiet -ftap -ox
	crun "0|good: CRE-01: pass" "... and --only's and --skip's short forms, -O and -S" \
		conformance -O CRE-02 -S CRE-01
	crun "0|good: CRE-01: pass" "... -OVALUE and -SVALUE too" conformance -OCRE-02 -SCRE-01
	crun "125|$broke (exit 2)" "another option is passed on (--kind=bogus: exit 2)" conformance --kind=bogus
	crun "125|$broke (exit 2)" "... in its -kVALUE spelling too" conformance -kbogus
	crun "125|$broke (exit 0)" "a run that prints help (on /dev/null) and no document broke" conformance --help
	# a check skipped here whatever the machine: nothing applicable, exit 4
	cargv "$D/argv.json" conformance
	run --good "$D/argv.json" --check LX-07
	is "$rc|$(cat "$D/out")" "125|$broke (exit 4)" "run --check: a run that exits 4 (the check skipped) broke"
	# killed by a signal (SIGXFSZ: its document is larger than 1 KiB, the
	# verdict's line is not); the run, killed, leaves its own directory.
	# SIGXFSZ back to its default first: a shell cannot undo an ignore it
	# inherited (python, for one, ignores it), and then the write fails
	# with EFBIG instead.
	(ulimit -f 1 && exec perl -e '$SIG{XFSZ} = "DEFAULT"; exec @ARGV or die "$ARGV[0]: $!\n"' \
		"$P" bisect --good "$D/argv.json" --check CRE-01 >"$D/out" 2>"$D/err")
	is "$?|$(cat "$D/out")|$(cat "$D/err")" "125|$broke (exit -1)|" "run --check: a run killed by a signal broke (exit -1)"
	rm -rf "${TMPDIR:?}"/pipebench.*
	# with standard input closed /dev/null may be descriptor 0: the run's
	# messages go there all the same
	cargv "$D/argv.json" conformance -kbogus
	"$P" bisect --good "$D/argv.json" --check CRE-01 >"$D/out" 2>"$D/err" 0<&-
	is "$?|$(cat "$D/out")|$(cat "$D/err")" "125|$broke (exit 2)|" "run --check, standard input closed: the run's message is not shown"
	# judging a metric, --only is not bisect's: passed on, given twice is
	# refused (outside --check, a conformance run is a run like any other)
	for o in "--only CRE-01 -O CRE-02" "--only=CRE-01 -OCRE-02"; do
		# shellcheck disable=SC2086 # options, word-split on purpose
		cargv "$D/argv.json" conformance --list $o
		run --good "$D/argv.json" --metric rtt_p50_ns
		is "$rc|$(cat "$D/out")" "125|$broke (exit 2)" "run --metric: $o passed on (the run refuses it twice)"
	done
	# no TMPDIR to make the run's directory in: exit 3, one line
	cargv "$D/argv.json" conformance
	TMPDIR=$D/none "$P" bisect --good "$D/argv.json" --check CRE-01 >"$D/out" 2>"$D/err"
	is "$?|$(cat "$D/out")|$(cat "$D/err")" "3||pipebench bisect: cannot make a directory in $D/none: No such file or directory" \
		"run: TMPDIR missing: exit 3, one line"
else
	skip 14 "conformance --only CRE-01 does not pass here"
fi
# BASE without a command line to run (run.pipebench.argv missing, not an
# array, or without the command): bad input, exit 2, one line, nothing made
cargv "$D/argv.json"
sed 's/"argv": \["pipebench"\]/"argv": "pipebench conformance"/' "$D/argv.json" >"$D/argv2.json"
sed 's/"run": {[^}]*}}, //' "$D/argv.json" >"$D/argv3.json"
for f in argv argv2 argv3; do
	run --good "$D/$f.json" --check CRE-01
	is "$rc|$(cat "$D/out")|$(cat "$D/err")|$(ls -A "$TMPDIR")" \
		"2||pipebench bisect: $D/$f.json: no command line in run.pipebench.argv|" \
		"run: BASE without a command line ($(grep -o '"run": {.*}}, \|"argv": [^]]*\]' "$D/$f.json" | head -n 1)): exit 2, one line"
done

# ---- bad input: exit 2, one line
run "$D/slow.json"
is "$rc $(wc -l <"$D/err" | tr -d ' ')" "2 1" "no --good: exit 2, one line"
run --good "$D/nothing.json"
is "$rc $(wc -l <"$D/err" | tr -d ' ')" "2 1" "a --good that does not exist: exit 2, one line"
run --good "$D/base.json" --check CRE-01
is "$rc" 2 "--check with a throughput document: exit 2"
run --good "$D/base.json" --metric tt_ns --check CRE-01
is "$rc" 2 "--metric and --check together: exit 2"
# the line says what is wrong
run --good "$D/base.json" --check CRE-01 "$D/c0.json"
is "$rc|$(cat "$D/out")|$(cat "$D/err")" \
	"2||pipebench bisect: $D/base.json: --check needs a conformance document, not throughput" \
	"--check with a throughput document: the line says so"
mdoc "$D/grid.json" grid rate_bytes_per_s 100 101 99 100 102 98
run --good "$D/grid.json" "$D/grid.json"
is "$rc|$(cat "$D/out")|$(cat "$D/err")" \
	"2||pipebench bisect: $D/grid.json: a grid document has no default metric: give --metric or --check" \
	"a command without a default metric, no --metric: exit 2, one line"
run --good "$D/grid.json" --metric rate_bytes_per_s "$D/grid.json"
is "$rc|$(cut -c1-22 "$D/out")" "0|good: rate_bytes_per_s" "... with --metric: judged"
run --good "$D/base.json" "$D/nothing.json"
is "$rc|$(cat "$D/out")|$(grep -c "$D/nothing.json" "$D/err")|$(wc -l <"$D/err" | tr -d ' ')" "2||1|1" \
	"a NEW that does not exist: exit 2, one line naming it"
run --good "$D/base.json" "$D/same.json" "$D/same.json"
is "$rc|$(cat "$D/out")|$(wc -l <"$D/err" | tr -d ' ')" "2||1" "two NEW documents: exit 2, one line"
# --threshold from 0; --duration from 1 ms to 24 h (judging, it is not spent)
for a in "--threshold -0.001|2" "--threshold 0|125" "--threshold 0.5|125" "--duration 999999ns|2" \
	"--duration 1ms|0" "--duration 24h|0" "--duration 86400000000001ns|2"; do
	# shellcheck disable=SC2086 # an option and its value
	run --good "$D/base.json" ${a%|*} "$D/same.json"
	is "$rc" "${a#*|}" "$a"
done
# the verdict's line cannot be written: cannot decide (125), one line
if [ -w /dev/full ]; then
	"$P" bisect --good "$D/base.json" "$D/slow.json" >/dev/full 2>"$D/err"
	is "$?|$(wc -l <"$D/err" | tr -d ' ')" "125|1" "the verdict's line cannot be written: 125, one line"
else
	skip 1 "no /dev/full"
fi

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
	t0=$(date +%s)
	"$P" bisect --good "$D/noisy.json" --duration 2s >"$D/out" 2>"$D/err"
	is "$?" 125 "run: noisy good document, 2 s: cannot decide"
	t1=$(date +%s)
	# the time it says it took: the budget spent, at least 2 s, and no more
	# than the run took by the wall clock
	secs=$(sed -n 's/.*; undecided after [0-9]* runs in \([0-9]*\.[0-9]\) s (--duration)$/\1/p' "$D/out")
	awk -v s="${secs:-none}" -v w=$((t1 - t0 + 1)) 'BEGIN { exit !(s + 0 == s && s >= 2 && s <= w) }'
	ok $? "... after ${secs:-?} s, at least the 2 s budget and at most the $((t1 - t0 + 1)) s it took"
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
	skip 10 "throughput did not run"
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
