#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --format kcidb: every command that writes a document gives a KCIDB v5.3
# report (tests/kcidbcheck checks its keys, patterns, statuses and numbers)
# whose tests are pipebench.COMMAND.CASE, for a healthy run and under the
# fault-injection layer; the checkout and build stand for the running
# kernel unless --kcidb-build-id names one; bad options are usage errors.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
D="$TEST_TMP"
P="$PIPEBENCH"
JSONQ=$TESTS_BUILDDIR/jsonq
KC=$TESTS_BUILDDIR/kcidbcheck

# kcidb_ok NAME ARGS...: the command exits 0 and writes a valid report
# whose test paths all start pipebench.NAME. (or a report part's set).
kcidb_ok() {
	name=$1; shift
	"$P" "$@" --format kcidb >"$D/k.json" 2>"$D/k.err"; rc=$?
	"$KC" "$D/k.json" >"$D/k.paths" 2>"$D/k.bad"; krc=$?
	is "$rc/$krc/$(grep -vc "^pipebench\.$name\." "$D/k.paths")" "0/0/0" \
		"$name --format kcidb: exit 0, a valid report, every path pipebench.$name.*"
	[ -s "$D/k.bad" ] && diag "$(cat "$D/k.bad")"
	grep -qx "pipebench\.$name\.exit-status PASS" "$D/k.paths"; ok $? "$name: exit-status is PASS"
}
# status_of PATH: the status of the test at PATH in the last report.
status_of() { awk -v p="$1" '$1 == p { print $2 }' "$D/k.paths"; }
# field PATH KEY: KEY (a jsonq path below the test) of the test at PATH.
field() {
	i=$(awk -v p="$1" '$1 == p { print NR - 1; exit }' "$D/k.paths")
	[ -n "$i" ] && "$JSONQ" "$D/k.json" ".tests[$i]$2"
}

kcidb_ok conformance conformance --only MD-04,WR-01,NB-05,LX-07 --kind all
is "$(status_of pipebench.conformance.WR-01.anon)/$(status_of pipebench.conformance.WR-01.fifo)" \
	PASS/PASS "a check run for two kinds is two tests, ID.KIND"
is "$(status_of pipebench.conformance.MD-04)" PASS "MD-04 (pass or a known deviation) is PASS"
case $(field pipebench.conformance.MD-04 .misc.verdict) in
pass|known-deviation) ok 0 "MD-04's own verdict is in misc" ;;
*) ok 1 "MD-04's own verdict is in misc" ;;
esac
[ -n "$(field pipebench.conformance.MD-04 .misc.detail)" ]; ok $? "and its detail"
is "$(status_of pipebench.conformance.NB-05.anon)$(status_of pipebench.conformance.NB-05)" DONE \
	"an info check is DONE: no verdict"
is "$(status_of pipebench.conformance.LX-07)" SKIP "a skipped check is SKIP"
is "$(grep -c . "$D/k.paths")" 7 "one test per check and kind, plus exit-status"
field pipebench.conformance.WR-01.anon .duration | grep -Eq '^[0-9.e-]+$'; ok $? "a check's duration in seconds"
# The running kernel's checkout and build, tied to the tests.
is "$("$JSONQ" "$D/k.json" '.checkouts#' '.builds#')" "$(printf '1\n1')" "one checkout and one build"
is "$("$JSONQ" "$D/k.json" .builds[0].checkout_id)" "$("$JSONQ" "$D/k.json" .checkouts[0].id)" "the build is of the checkout"
is "$("$JSONQ" "$D/k.json" .tests[0].build_id)" "$("$JSONQ" "$D/k.json" .builds[0].id)" "the tests are of the build"
is "$("$JSONQ" "$D/k.json" .builds[0].architecture)" "$(uname -m | tr 'A-Z' 'a-z' | tr -c 'a-z0-9_\n' _)" "architecture is uname -m"
"$JSONQ" "$D/k.json" .checkouts[0].comment | grep -qF "Linux $(uname -r) "; ok $? "the checkout names uname -r"
is "$("$JSONQ" "$D/k.json" .tests[0].environment.misc.kernel.release)" "$(uname -r)" "the environment is the run's machine"
is "$("$JSONQ" "$D/k.json" .tests[0].origin)" pipebench "origin pipebench by default"

kcidb_ok timestamps timestamps --dir "$D"
grep -Eq '^pipebench\.timestamps\.anon\.write\.mtime DONE$' "$D/k.paths"; ok $? "a probe is a figure (DONE)"
kcidb_ok o_noatime o_noatime --dir "$D" --loops 50 --repeat 1
kcidb_ok throughput throughput --dir "$D" --loops 5 --repeat 2 --warmup 0 --kind anon,fifo --size 100,4K
is "$(field pipebench.throughput.fifo-4096B-rate .number.unit)/$(field pipebench.throughput.fifo-4096B-rate .number.prefix)" \
	"B/s/metric" "a rate: B/s, metric prefixes"
is "$(field pipebench.throughput.fifo-4096B-syscall .number.unit)" s "time per system call in seconds"
is "$(field pipebench.throughput.fifo-4096B-rate .misc.params.size_bytes)/$(field pipebench.throughput.fifo-4096B-rate .misc.params.kind)" \
	4096/fifo "the row's parameters in misc"
kcidb_ok latency latency --dir "$D" --loops 50 --repeat 1 --warmup 0
kcidb_ok messaging messaging --groups 1 --fds 2 --loops 5 --repeat 1 --warmup 0
"$P" report --quick --parts timestamps,throughput_64k --dir "$D" --format kcidb >"$D/k.json" 2>/dev/null; rc=$?
"$KC" "$D/k.json" >"$D/k.paths"; krc=$?
is "$rc/$krc" 0/0 "report --format kcidb: exit 0, a valid report"
is "$(cut -d. -f2 "$D/k.paths" | uniq | tr '\n' ' ')" "timestamps throughput_64k report " \
	"report: each part's tests, then report's"
is "$(status_of pipebench.report.throughput_64k)" PASS "a part's exit status is a test of report's"

# Options.
"$P" conformance --only RD-01 --format kcidb --kcidb-origin lab_1 --kcidb-build-id lab_1:k42 \
	--output "$D/o.json"; rc=$?
"$KC" "$D/o.json" >/dev/null; krc=$?
is "$rc/$krc/$("$JSONQ" "$D/o.json" .tests[0].build_id .tests[0].origin | tr '\n' ' ')" "0/0/lab_1:k42 lab_1 " \
	"--kcidb-origin and --kcidb-build-id name the origin and the build (--output gets the report)"
"$JSONQ" "$D/o.json" .tests[0].id | grep -q '^lab_1:'; ok $? "ids start with the origin"
"$JSONQ" "$D/o.json" .builds >/dev/null 2>&1; is $? 2 "a build id given: no checkout or build of pipebench's"
run "$P" conformance --format kcidb --kcidb-origin Lab
is "$rc/$(nlines "$err")" 2/1 "an origin outside [a-z0-9_] is a usage error, one line"
case $err in *--kcidb-origin*) ok 0 "it names --kcidb-origin" ;; *) ok 1 "it names --kcidb-origin"; diag "$err" ;; esac
run "$P" conformance --format kcidb --kcidb-build-id k42
is "$rc/$(nlines "$err")" 2/1 "a build id without ORIGIN: is a usage error"
run "$P" conformance --format json --kcidb-origin lab
is "$rc" 2 "--kcidb-origin without --format kcidb is a usage error"
case $err in *"only with --format kcidb"*) ok 0 "it says so" ;; *) ok 1 "it says so"; diag "$err" ;; esac
run "$P" compare "$D/o.json" "$D/o.json" --format kcidb
is "$rc" 2 "compare has no kcidb format"
"$P" conformance --help | grep -q -- '--kcidb-build-id=ID'; ok $? "conformance --help lists the kcidb options"
! "$P" plot --help | grep -q -- '--kcidb'; ok $? "plot --help does not"

# A failed expectation: FAIL with an excerpt; exit-status FAIL names it.
case $("$P" timestamps --dir "$D" --format json | "$JSONQ" - .summary.anon) in
frozen) other=updated ;; *) other=frozen ;; esac
"$P" timestamps --dir "$D" --expect anon=$other --format kcidb >"$D/k.json" 2>/dev/null; rc=$?
"$KC" "$D/k.json" >"$D/k.paths"; krc=$?
is "$rc/$krc/$(status_of pipebench.timestamps.anon.expect)" 1/0/FAIL "a failed expectation is FAIL (exit 1)"
field pipebench.timestamps.exit-status .log_excerpt | grep -q 'FAIL pipebench.timestamps.anon.expect'
ok $? "exit-status's excerpt names the failed test"

# Under the fault-injection layer: the kernel's misbehaviour is FAIL, with
# the check's detail as the excerpt; a benchmark that sees data lost ends
# with exit-status ERROR saying so.
if fault_layer; then
	faulty torn-write "$P" conformance --only CRE-01,WR-01 --timeout 3 --format kcidb \
		>"$D/k.json" 2>/dev/null; rc=$?
	"$KC" "$D/k.json" >"$D/k.paths"; krc=$?
	is "$rc/$krc/$(status_of pipebench.conformance.CRE-01)" 1/0/FAIL "torn writes: CRE-01 FAIL, a valid report, exit 1"
	[ -n "$(field pipebench.conformance.CRE-01 .log_excerpt)" ]; ok $? "the failure's excerpt is the check's detail"
	is "$(status_of pipebench.conformance.exit-status)" FAIL "exit-status FAIL"
	faulty lost-bytes "$P" throughput --loops 20 --warmup 0 --repeat 1 --size 4096 --format kcidb \
		>"$D/k.json" 2>/dev/null; rc=$?
	"$KC" "$D/k.json" >"$D/k.paths"; krc=$?
	is "$rc/$krc/$(status_of pipebench.throughput.exit-status)" 3/0/ERROR "lost bytes: exit-status ERROR, a valid report"
	field pipebench.throughput.exit-status .log_excerpt | grep -q 'lost or invented data'
	ok $? "its excerpt says what the kernel did"
	# Every command whose run a fault breaks still writes a valid report
	# whose exit-status says so, with an excerpt.
	for c in "latency early-eof latency --loops 200 --repeat 1" \
		 "messaging early-eof messaging --loops 20 --groups 1" \
		 "throughput_64k lost-bytes report --quick --parts throughput_64k --dir $D"; do
		# shellcheck disable=SC2086 # the words of one case
		set -- $c
		set_=$1 fault=$2; shift 2
		faulty "$fault" "$P" "$@" --format kcidb >"$D/k.json" 2>/dev/null; rc=$?
		"$KC" "$D/k.json" >"$D/k.paths"; krc=$?
		st=$(status_of "pipebench.$set_.exit-status")
		is "$([ "$rc" -ne 0 ] && echo broken)/$krc/$(echo "$st" | grep -Ecx 'FAIL|ERROR')" \
			"broken/0/1" "$1 under $fault: a valid report, exit-status FAIL or ERROR ($st)"
		[ -n "$(field "pipebench.$set_.exit-status" .log_excerpt)" ]; ok $? "$1 under $fault: with an excerpt"
	done
else
	skip 12 "tests/faultinj.so or timeout(1) missing"
fi
tmp_empty; ok $? "nothing left in TMPDIR"
done_testing
