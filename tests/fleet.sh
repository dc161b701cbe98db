#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fleet scale: every JSON document (report's parts included) carries the
# `run` object with typed members; report's system limits and capabilities
# are numbers and lists; CSV rows carry host and kernel; --format lava
# writes LAVA test-shell signals for every command that has verdicts or
# measurements, with the verdict mapping of the man page.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
D="$TEST_TMP"


# run_ok FILE CMD: the run object of FILE is complete and typed.
run_ok() {
	f=$1 cmd=$2
	v=$("$JSONQ" "$f" .run.start .run.end .run.user.euid .run.user.uid .run.cpu.online \
		.run.cpu.allowed .run.memory.total_bytes .run.pipebench.static \
		.run.pipebench.argv[1] .run.kernel.release .run.loadavg.1m 2>&1 | tr '\n' ' ')
	echo "$v" | grep -Eq "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z [0-9T:.Z-]+Z [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ (true|false) $cmd $(uname -r) [0-9.]+ \$"
	ok $? "$cmd: run has RFC 3339 start/end, numeric ids, CPUs, memory, boolean static, argv, kernel, load"
	[ -n "$v" ] || diag "$v"
	case $("$JSONQ" "$f" .run.user.capabilities) in
	"["*) ok 0 "$cmd: capabilities are a list" ;;
	*) ok 1 "$cmd: capabilities are a list" ;;
	esac
}

P="$PIPEBENCH"
"$P" timestamps --dir "$D" --format json --output "$D/ts.json"; run_ok "$D/ts.json" timestamps
"$P" o_noatime --dir "$D" --loops 50 --repeat 1 --format json --output "$D/on.json"; run_ok "$D/on.json" o_noatime
"$P" conformance --only MD-04,WR-02 --format json --output "$D/cf.json"; run_ok "$D/cf.json" conformance
"$P" throughput --dir "$D" --loops 5 --repeat 2 --warmup 0 --format json --output "$D/tp.json"; run_ok "$D/tp.json" throughput
"$P" messaging --groups 1 --fds 2 --loops 5 --repeat 1 --warmup 0 --format json --output "$D/ms.json"; run_ok "$D/ms.json" messaging
"$P" compare "$D/tp.json" "$D/tp.json" --format json --output "$D/cmp.json"; run_ok "$D/cmp.json" compare
is "$("$JSONQ" "$D/ts.json" .run.pipebench.argv# .run.pipebench.argv[3])" "$(printf '8\n%s' "$D")" "argv is the exact command line"
is "$("$JSONQ" "$D/ts.json" .run.os.id)" "$(. /etc/os-release 2>/dev/null || . /usr/lib/os-release; echo "${ID:-null}")" "os-release ID"
s=$("$JSONQ" "$D/ts.json" .run.start) e=$("$JSONQ" "$D/ts.json" .run.end)
[ "$s" \< "$e" ] || [ "$s" = "$e" ]; ok $? "start is not after end"

"$P" report --quick --parts timestamps,o_noatime --dir "$D" --format json --output "$D/rep.json"
run_ok "$D/rep.json" report
is "$("$JSONQ" "$D/rep.json" .parts.timestamps.run.pipebench.argv[1])" report "a report part carries its own run (the process argv)"
"$JSONQ" "$D/rep.json" .parts.timestamps.run.start | grep -Eq 'Z$'; ok $? "a report part has its own start"
case $("$JSONQ" "$D/rep.json" .system.capabilities) in
"["*) ok 0 "report: system.capabilities is a list" ;;
*) ok 1 "report: system.capabilities is a list" ;;
esac
h=$("$JSONQ" "$D/rep.json" .system.rlimit_nofile.soft .system.rlimit_nofile.hard | tr '\n' ' ')
echo "$h" | grep -Eq '^([0-9]+|null) ([0-9]+|null) $'; ok $? "report: rlimit_nofile is numbers (null: unlimited): $h"

# CSV: host and kernel on every row.
"$P" throughput --loops 5 --repeat 2 --warmup 0 --format csv --output "$D/tp.csv"
is "$(head -1 "$D/tp.csv" | awk -F, '{print $(NF-1) "," $NF}')" "host,kernel" "throughput CSV header ends with host,kernel"
is "$(sed -n 2p "$D/tp.csv" | awk -F, '{print $NF}')" "$(uname -r)" "throughput CSV rows carry the kernel"
"$P" messaging --groups 1 --fds 2 --loops 5 --repeat 1 --warmup 0 --format csv --output "$D/ms.csv"
is "$(sed -n 2p "$D/ms.csv" | awk -F, '{print $(NF-1)}')" "$(uname -n)" "messaging CSV rows carry the host"

# --format lava.
sig='^<LAVA_SIGNAL_(TESTSET (START [A-Za-z0-9_.-]+|STOP)|TESTCASE TEST_CASE_ID=[A-Za-z0-9_.-]+ RESULT=(pass|fail|skip|unknown)( MEASUREMENT=-?[0-9]+(\.[0-9]+)? UNITS=[A-Za-z0-9_./-]+)?)>$'
lava_ok() {
	name=$1; shift
	"$P" "$@" --format lava >"$D/l.out" 2>"$D/l.err"; rc=$?
	bad=$(grep -Evc "$sig" "$D/l.out")
	is "$rc/$bad/$(head -1 "$D/l.out")/$(tail -1 "$D/l.out")" \
		"0/0/<LAVA_SIGNAL_TESTSET START $name>/<LAVA_SIGNAL_TESTSET STOP>" \
		"$name --format lava: only signals, one test set, exit 0"
}
lava_ok conformance conformance --only MD-04,WR-01,NB-01 --kind all
grep -q '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=WR-01.fifo RESULT=pass>$' "$D/l.out"; ok $? "a check run for two kinds is ID.KIND"
grep -q '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=MD-04 RESULT=pass>$' "$D/l.out"; ok $? "MD-04 (known-deviation or pass) is pass"
is "$(grep -c TESTCASE "$D/l.out")" 6 "one case per check and kind, plus exit-status"
lava_ok timestamps timestamps --dir "$D"
grep -Eq '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon\.write\.mtime RESULT=pass MEASUREMENT=(0|1) UNITS=ratio>$' "$D/l.out"; ok $? "a probe is a stable case, what it saw the measurement"
is "$(grep -c 'TEST_CASE_ID=\(anon\|fifo\)\.[a-z_]*\.[acm]time ' "$D/l.out")" 48 "a case per kind, operation and time"
! grep -Eq 'TEST_CASE_ID=[^ ]*(frozen|updated|mixed|unchanged|accepted|rejected)' "$D/l.out"; ok $? "no observation word in a case name"
lava_ok o_noatime o_noatime --dir "$D" --loops 50 --repeat 2
is "$(grep -c '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=tt-ratio-stable RESULT=\(pass\|skip\)>$' "$D/l.out")" 1 "one stability case, the B/A ratio's (not A's or B's)"
grep -Eq '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=pipe2_o_noatime RESULT=pass MEASUREMENT=(0|1) UNITS=accepted>$' "$D/l.out"; ok $? "pipe2(O_NOATIME) is one case, accepted or not its measurement"
grep -Eq '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=timestamps\.fifo\.write\.mtime RESULT=(pass MEASUREMENT=(0|1) UNITS=ratio|skip)>$' "$D/l.out"; ok $? "o_noatime's timestamp probes are stable cases"
! grep -Eq 'TEST_CASE_ID=[^ ]*(frozen|updated|mixed|unchanged|accepted|rejected)' "$D/l.out"; ok $? "no observation word in an o_noatime case name"
lava_ok throughput throughput --dir "$D" --loops 5 --repeat 2 --warmup 0 --kind anon,fifo --size 100,4K
grep -Eq '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=fifo-4096B-rate RESULT=pass MEASUREMENT=[0-9.]+ UNITS=B/s>$' "$D/l.out"; ok $? "a rate is a measurement in B/s"
is "$(grep -c 'UNITS=ns>' "$D/l.out")" 4 "ns per system call for each kind and size"
lava_ok messaging messaging --groups 1 --fds 2 --loops 5 --repeat 1 --warmup 0
grep -Eq '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=pipe-process-g1-f2-100B-rate RESULT=pass MEASUREMENT=[0-9.]+ UNITS=msg/s>$' "$D/l.out"; ok $? "messages per second"

"$P" report --quick --parts timestamps,throughput_64k --dir "$D" --format lava >"$D/l.out" 2>/dev/null; rc=$?
is "$rc/$(grep -Evc "$sig" "$D/l.out")" "0/0" "report --format lava: only signals"
is "$(grep -o 'TESTSET START [a-z_0-9]*' "$D/l.out" | tr '\n' ' ')" \
	"TESTSET START timestamps TESTSET START throughput_64k TESTSET START report " "report: one test set per part, then report"
is "$(grep -c 'TESTSET STOP' "$D/l.out")" 3 "every set is closed"
grep -q 'TEST_CASE_ID=anon-65536B-rate RESULT=pass MEASUREMENT' "$D/l.out"; ok $? "a part's measurements"

# A failed check is fail; --output still writes signals; an exit status survives.
case $("$JSONQ" "$D/ts.json" .summary.anon) in frozen) other=updated ;; *) other=frozen ;; esac
"$P" timestamps --dir "$D" --expect anon=$other --format lava >"$D/l.out" 2>/dev/null; rc=$?
is "$rc" 1 "a failed expectation exits 1 with --format lava"
grep -q '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=expectations RESULT=fail>$' "$D/l.out"; ok $? "a failed expectation is a fail case"
grep -q '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon.expect RESULT=fail>$' "$D/l.out"; ok $? "the kind's expectation is a fail case"
grep -q '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=exit-status RESULT=fail>$' "$D/l.out"; ok $? "exit-status 1 is fail"
"$P" conformance --only MD-04 --format lava --output "$D/l.file"; rc=$?
is "$rc/$(head -1 "$D/l.file")" "0/<LAVA_SIGNAL_TESTSET START conformance>" "--output FILE gets the signals"
run "$P" compare "$D/tp.json" "$D/tp.json" --format lava
is "$rc" 2 "compare has no lava format (usage error)"
# run.pipebench.static says how the binary was linked; the static build
# (tests/pipebench-static, or --enable-static-binary) has no interpreter.
if ldd "$P" >/dev/null 2>&1; then want=false; else want=true; fi
is "$("$JSONQ" "$D/ts.json" .run.pipebench.static)" "$want" "run.pipebench.static is $want for this build"
S="$TESTS_BUILDDIR/pipebench-static"
if [ -x "$S" ]; then
	"$S" timestamps --dir "$D" --format json --output "$D/st.json"; rc=$?
	v=$("$JSONQ" "$D/st.json" .run.pipebench.static 2>&1)
	ldd "$S" >/dev/null 2>&1; l=$?
	is "$rc/$v/$l" "0/true/1" "the static build runs, says static, and ldd finds no libraries"
else
	ok 0 "the static build # SKIP no static build here (no .a files, or a sanitizer build)"
fi
# compare for a fleet: 20 documents labelled host/kernel from `run`.
"$P" conformance --only WR-01,WR-02 --format json --output "$D/f0.json"
host=$("$JSONQ" "$D/f0.json" .run.hostname)
i=1
while [ $i -le 19 ]; do
	b=$(printf 'board%02d' $i)
	sed -e "s/\"hostname\": \"[^\"]*\"/\"hostname\": \"$b\"/" "$D/f0.json" > "$D/f$i.json"
	case $i in
	5) sed -i 's/"euid": [0-9]*/"euid": 4242/' "$D/f$i.json" ;;
	7|8) awk '!done && /"status": "pass"/ { sub(/"pass"/, "\"fail\""); done = 1 } { print }' \
		"$D/f$i.json" > "$D/t.json" && mv "$D/t.json" "$D/f$i.json" ;;
	esac
	i=$((i + 1))
done
set -- "$D/f0.json"
i=1; while [ $i -le 19 ]; do set -- "$@" "$D/f$i.json"; i=$((i + 1)); done
"$P" compare "$@" >"$D/fleet.txt" 2>"$D/fleet.err"; rc=$?
is "$rc" 1 "compare of 20 documents: exit 1 when one regresses"
w=$(awk '{ if (length > m) m = length } END { print m + 0 }' "$D/fleet.txt")
[ "$w" -lt 200 ]; ok $? "20 documents stay readable: longest line $w characters"
grep -q "^ 19 board19/$(uname -r) " "$D/fleet.txt"; ok $? "columns are labelled host/kernel from run, whole"
grep -Eq '^ +ok +ok( +ok){5} +FAIL! +FAIL!( +ok){11} +WR-01 status$' "$D/fleet.txt"; ok $? "the verdict grid: WR-01 fails in documents 7 and 8 only"
grep -q 'different users (euid)' "$D/fleet.txt" && grep -Eq "^  board05/$(uname -r) +4242$" "$D/fleet.txt"
ok $? "the header flags the document run under another user"
"$P" compare --format markdown "$@" >"$D/fleet.md"; rc=$?
grep -q "^| WR-01 status | pass | pass | pass | pass | pass | pass | pass | fail \*\*!\*\* |" "$D/fleet.md"
ok $? "markdown: a verdict grid row per changed check (exit $rc)"
"$P" compare --format csv "$D/f0.json" "$D/f7.json" >"$D/fleet.csv"
is "$(sed -n 3p "$D/fleet.csv")" "verdict,,WR-01,status,1,board07/$(uname -r),$D/f7.json,,,,!,fail,board07,$(uname -r)" \
	"csv: a row per verdict and document, with the document's host and kernel"
"$P" compare --format json --label old,new "$D/f0.json" "$D/f8.json" >"$D/fleet.json"
is "$("$JSONQ" "$D/fleet.json" .inputs[0].label .inputs[1].label .verdict_grid[0].verdicts[1] | tr '\n' ' ')" \
	"old new fail " "--label names the columns; the grid is in JSON"
"$P" compare --format json "$D/f0.json" "$D/f5.json" | "$JSONQ" - .documents_differ_in[0] >"$D/t.out"
is "$(cat "$D/t.out")" "run.user.euid" "JSON says which run members differ"
run "$P" compare --label a,b,c,d "$D/f0.json" "$D/f1.json"
is "$rc/$(nlines "$err")" "2/1" "more labels than documents: usage error, one line"
case $err in *"4 labels for 2 documents"*) ok 0 "the error counts every label given" ;;
*) ok 1 "the error counts every label given"; diag "$err" ;; esac
# A document whose capabilities differ from the base's: the base's counted,
# the other's as the difference, in the header of text and markdown.
caps() { perl -0pe 's/"capabilities": \[[^]]*\]/"capabilities": ['"$1"']/' "$2"; }
caps '"CAP_CHOWN", "CAP_KILL"' "$D/f0.json" >"$D/fc0.json"
caps '"CAP_KILL", "CAP_SYS_ADMIN"' "$D/f6.json" >"$D/fc1.json"
"$P" compare --format markdown "$D/fc0.json" "$D/fc1.json" >"$D/fleet.md"
is "$(grep '^| [01] ' "$D/fleet.md" | awk -F' [|] ' '{ print $7 }' | tr '\n' /)" \
	"2/-CAP_CHOWN +CAP_SYS_ADMIN/" "markdown: the base's capabilities counted, the other's as a difference"
"$P" compare "$D/fc0.json" "$D/fc1.json" >"$D/fleet.txt"
grep -Eq "^  board06/$(uname -r) +-CAP_CHOWN \+CAP_SYS_ADMIN$" "$D/fleet.txt"
ok $? "text: the note names the capabilities board06 lacks and has"
rm -f "$D"/f*.json "$D/fleet."* "$D/t.out"
ok "$(tmp_empty; echo $?)" "nothing left behind"
done_testing
