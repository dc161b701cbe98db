#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench conformance: exit statuses, --list, selection, formats, usage
# errors, watchdog, nothing left behind.  Speaks TAP.
set -u

PB=${PIPEBENCH:?}
# Its process helpers; this test keeps its own ok, notok and run (below).
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
JSONQ=${TESTS_BUILDDIR:?}/jsonq
T=$(mktemp -d "${TMPDIR:-/tmp}/pb-conf-test.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
# The checks' private directories go here, so leftovers can be seen.
mkdir "$T/tmp"
TMPDIR=$T/tmp
export TMPDIR

n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { # check DESCRIPTION COMMAND...: ok when the command succeeds
	d=$1; shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}
# run EXPECTED_STATUS ARGS...: stdout in $T/out, stderr in $T/err
run() {
	want=$1; shift
	"$PB" conformance "$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		ok "conformance $* exits $want"
	else
		notok "conformance $* exits $want (got $got: $(head -c 300 "$T/err"))"
	fi
}
lines() { wc -l <"$1" | tr -d ' '; }
usage_error() { # usage_error ARGS...: status 2, one line naming the option, no stdout
	run 2 "$@"
	check "  one error line, nothing on stdout" \
		test "$(lines "$T/err")" = 1 -a ! -s "$T/out"
}
# Well-formed XML without xmllint: balanced tags, only the five entities.
xml_ok() {
	awk '
	{ doc = doc $0 "\n" }
	END {
		if (doc !~ /^<\?xml version="1.0" encoding="UTF-8"\?>\n/) exit 1
		s = doc; sub(/^<\?xml[^>]*>/, "", s); depth = 0; root = 0
		while (match(s, /<[^>]*>/)) {
			pre = substr(s, 1, RSTART - 1); tag = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			if (pre ~ /</ || pre ~ />/) exit 2
			t = pre; gsub(/&(amp|lt|gt|quot|apos);/, "", t); if (t ~ /&/) exit 3
			t = tag; gsub(/&(amp|lt|gt|quot|apos);/, "", t); if (t ~ /&/) exit 3
			if (depth == 0 && pre ~ /[^ \t\n]/) exit 4
			if (tag ~ /^<\//) {
				name = substr(tag, 3, length(tag) - 3)
				if (depth == 0 || stack[depth] != name) exit 5
				depth--
			} else if (tag ~ /\/>$/) {
				if (depth == 0) exit 6
			} else {
				match(tag, /^<[A-Za-z_][-A-Za-z0-9_.]*/)
				name = substr(tag, 2, RLENGTH - 1)
				if (depth == 0 && root++) exit 7
				stack[++depth] = name
			}
		}
		if (depth != 0 || s ~ /[^ \t\n]/ || !root) exit 8
	}' "$1"
}


# ---- --list and selection
run 0 --list
check "--list: one line per check, 5 tab-separated fields" \
	awk -F '\t' 'NF != 5 { exit 1 } END { exit NR < 25 }' "$T/out"
check "--list: every group A-D ID present" sh -c '
	for id in CRE-01 CRE-07 RD-01 RD-07 WR-01 WR-06 NB-01 NB-05; do
		grep -q "^$id	" "$1" || exit 1
	done' sh "$T/out"
check "--list: citation column" grep -q '^CRE-02	P17	creation	fds are the two lowest available	XSH pipe(): "Their integer values' "$T/out"
run 0 --list --only 'WR-*'
check "--only glob: the 6 WR checks" \
	awk '!/^WR-0[1-6]\t/ { exit 1 } END { exit NR != 6 }' "$T/out"
run 0 --list --only read
check "--only group name: the 7 RD checks" \
	awk '!/^RD-/ { exit 1 } END { exit NR != 7 }' "$T/out"
run 0 --list --only nb,cre-01
check "--only ID prefix and ID, case-insensitive" \
	awk '!/^(NB-|CRE-01)/ { exit 1 } END { exit NR != 6 }' "$T/out"
run 0 --list --only 'CRE-*,RD-*,WR-*,NB-*' --skip creation,RD-0?,'WR-*'
check "--skip removes groups and globs" \
	awk '!/^NB-/ { exit 1 } END { exit NR != 5 }' "$T/out"
run 0 --list --format json --only CRE-03
check "--list json" test "$("$JSONQ" "$T/out" '.checks#' .checks[0].id .checks[0].tag)" = \
	"$(printf '1\nCRE-03\nP24, LX (2.6.27, glibc 2.9)')"

# ---- usage errors: exit 2, one line, nothing run
usage_error --only ZZ-99
check "  names the option and the value" grep -q -- "--only: 'ZZ-99' matches no check" "$T/err"
usage_error --skip 'XX-*'
usage_error --only 'RD-01,'
usage_error --kind socketpair
usage_error --timeout soon
usage_error --timeout 0
usage_error --format xml
usage_error --list --format tap
check "usage errors left nothing behind" test -z "$(ls -A "$T/tmp")"

# ---- verdicts and exit statuses
run 0 --only CRE-01,RD-03
check "text: one line per check, then the summary" sh -c '
	grep -q "^CRE-01 *pass *Basic contract of pipe()" "$1" &&
	grep -q "^RD-03 *pass " "$1" &&
	test "$(tail -n 1 "$1")" = "2 passed, 0 failed, 0 skipped, 0 known deviations, 0 info" &&
	test "$(wc -l < "$1")" -eq 3' sh "$T/out"
run 0 --only NB-05,CRE-05
check "info and known-deviation do not fail the run" \
	grep -q "^0 passed, 0 failed, 0 skipped, 1 known deviations, 1 info$" "$T/out"
# Watchdog: RD-04 blocks 300 ms by design; a 280 ms watchdog kills it; the
# suite goes on with RD-01.
run 1 --only RD-04,RD-01 --timeout 280ms
check "watchdog: timeout is a fail naming the timeout, the suite goes on" sh -c '
	grep -q "^RD-04 *fail .*timed out" "$1" && grep -q "^RD-01 *pass" "$1" &&
	grep -q "^1 passed, 1 failed" "$1"' sh "$T/out"
run 4 --only RD-01 --skip RD-01
# CRE-06 needs a hard RLIMIT_NOFILE of at least 64: below it, it skips.
(ulimit -n 40 && exec "$PB" conformance --only CRE-06) >"$T/out" 2>"$T/err"
check "everything skipped exits 4" test $? -eq 4
check "  the skip says why" grep -q "^CRE-06 *skip .*RLIMIT_NOFILE" "$T/out"
"$PB" conformance --only RD-01 --output /dev/full 2>"$T/err"
check "an output write error exits 3" test $? -eq 3

# ---- TAP
run 0 --format tap --only 'RD-*' --kind all
check "TAP: version line and plan" sh -c \
	'test "$(sed -n 1p "$1")" = "TAP version 13" && test "$(sed -n 2p "$1")" = "1..14"' \
	sh "$T/out"
check "TAP: ok/not ok lines match the plan, YAML blocks balanced" awk '
	/^(not )?ok [0-9]+ - / { tests++ } /^  ---$/ { yopen++ } /^  \.\.\.$/ { yclose++ }
	END { exit !(tests == 14 && yopen == 14 && yclose == 14) }' "$T/out"
check "TAP: both kinds shown" sh -c \
	'grep -q "^ok 1 - RD-01 \[anon\]" "$1" && grep -q "^ok 2 - RD-01 \[fifo\]" "$1" &&
	 grep -q "^  kind: fifo$" "$1"' sh "$T/out"
if prove --version >/dev/null 2>&1; then
	check "TAP: prove accepts it" sh -c "prove -Q --exec cat \"\$1\" >/dev/null 2>&1" sh "$T/out"
else
	ok "TAP: prove accepts it # SKIP no prove"
fi
run 1 --format tap --only RD-04 --timeout 20ms
check "TAP: a failure is not ok with its status" sh -c \
	'grep -q "^not ok 1 - RD-04 " "$1" && grep -q "^  status: fail$" "$1"' sh "$T/out"
(ulimit -n 40 && exec "$PB" conformance --format tap --only CRE-06) >"$T/out" 2>&1
check "TAP: a skip carries the SKIP directive" grep -q "^ok 1 - CRE-06 .* # SKIP " "$T/out"

# ---- JUnit
run 0 --format junit --only creation,RD-07
check "JUnit: well-formed XML" xml_ok "$T/out"
check "JUnit: counts match the test cases" sh -c '
	test "$(grep -c "<testcase " "$1")" = 11 &&
	grep -q "<testsuites name=\"pipebench conformance\" tests=\"11\" failures=\"0\" errors=\"0\" skipped=\"0\"" "$1"' \
	sh "$T/out"
check "JUnit: quotes and apostrophes escaped" grep -q "The last writer&apos;s close" "$T/out"
# Jenkins keys a test's history on classname and name: the name is the ID
# alone, the title (which may be reworded) is in system-out.
check "JUnit: a testcase is named by its ID, the title in system-out" sh -c '
	grep -q "<testcase classname=\"pipebench.conformance.creation\" name=\"CRE-01\" time=" "$1" &&
	grep -q "<system-out>Basic contract of pipe()$" "$1" &&
	! grep -q "<testcase [^>]*name=\"[^\"]* " "$1"' sh "$T/out"
run 0 --format junit --only CRE-01,RD-03 --kind all
check "JUnit: a check run for both kinds is ID.KIND" sh -c '
	grep -q "name=\"RD-03.anon\"" "$1" && grep -q "name=\"RD-03.fifo\"" "$1" &&
	grep -q "name=\"CRE-01\"" "$1"' sh "$T/out"
if command -v xmllint >/dev/null 2>&1; then
	check "JUnit: xmllint agrees" xmllint --noout "$T/out"
else
	ok "JUnit: xmllint agrees # SKIP no xmllint"
fi
run 1 --format junit --only RD-04,RD-01 --timeout 280ms
check "JUnit: a failure element with the detail" sh -c '
	grep -q "<failure type=\"fail\" message=\"timed out" "$1" &&
	grep -Eq "failures=\"[12]\"" "$1"' sh "$T/out"
check "JUnit with a failure: still well-formed" xml_ok "$T/out"
# The hostname (a UTS namespace's, any bytes) goes through the XML text
# filter: valid UTF-8 up to U+10FFFF (F4 8F BF BF) kept whole; a stray or
# cut-short byte, an overlong form, a surrogate, a code point past U+10FFFF
# and XML's two non-characters U+FFFE, U+FFFF one '?' a byte.  Each bound is
# tried at its value and one past it.  Rows: hostname, attribute value, in hex.
junit_host() {
	unshare -u python3 -c 'import os, socket, sys
socket.sethostname(bytes.fromhex(sys.argv[1]))
os.execv(sys.argv[2], sys.argv[2:])' "$1" "$PB" conformance --format junit --only CRE-01 |
	LC_ALL=C sed -n 's/.*<testsuite .* hostname="\([^"]*\)">$/\1/p' | tr -d '\n' | od -An -tx1 |
	tr -d ' \n'
}
while read -r host want what; do
	if command -v python3 >/dev/null && unshare -u true 2>/dev/null; then
		got=$(junit_host "$host")
		check "JUnit: hostname $what ($host -> $want, got $got)" test "$got" = "$want"
	else
		ok "JUnit: hostname $what # SKIP no unshare -u or python3"
	fi
done <<'ROWS'
f48fbfbf f48fbfbf U+10FFFF, the last code point
f09f9982 f09f9982 U+1F642
c3a9 c3a9 U+00E9
61ff62 613f62 a stray 0xFF
61f48fbf62 613f3f3f62 a 4-byte sequence cut short
2641 26616d703b41 an ampersand
f4908080 3f3f3f3f past U+10FFFF (F4 90)
f5808080 3f3f3f3f an F5 lead
f7bfbfbf 3f3f3f3f an F7 lead
f8888080 3f3f3f3f an F8 lead
c280 c280 U+0080, the first 2-byte
c1bf 3f3f an overlong 2-byte (C1)
e0a080 e0a080 U+0800, the first 3-byte
e09fbf 3f3f3f an overlong 3-byte (E0 9F)
f0908080 f0908080 U+10000, the first 4-byte
f08fbfbf 3f3f3f3f an overlong 4-byte (F0 8F)
ed9fbf ed9fbf U+D7FF, before the surrogates
eda080 3f3f3f a surrogate (ED A0)
efbfbd efbfbd U+FFFD kept
efbfbe 3f3f3f U+FFFE, not an XML character
efbfbf 3f3f3f U+FFFF, not an XML character
61c2 613f a 2-byte sequence cut short at the end
612062 612062 a space, the first character kept as it is
611f62 613f62 U+001F, a control character
610962 610962 a tab, a control character XML allows
617f62 617f62 U+007F, the last 1-byte
ROWS

# ---- JSON
run 0 --format json --only RD-03,WR-05 --kind all
check "JSON: valid, common fields" test "$("$JSONQ" "$T/out" .tool .command .exit_status \
	.params.kind .params.timeout_ns)" = "$(printf 'pipebench\nconformance\n0\nall\n5000000000')"
check "JSON: checks array (RD-03 per kind, WR-05 once)" test \
	"$("$JSONQ" "$T/out" '.checks#' .checks[0].id .checks[0].kind .checks[1].kind \
	   .checks[2].id .checks[2].kind .checks[1].status)" = \
	"$(printf '3\nRD-03\nanon\nfifo\nWR-05\nnull\npass')"
cp "$T/out" "$T/run.json"
run 0 --list --format json --only RD-03
check "JSON: a check's title, tag and citation are the catalogue's (--list)" test \
	"$("$JSONQ" "$T/run.json" .checks[0].title .checks[0].tag .checks[0].citation)" = \
	"$("$JSONQ" "$T/out" .checks[0].title .checks[0].tag .checks[0].citation)"
check "JSON: a check's detail says what was seen, its duration is within the watchdog" sh -c '
	d=$("$1" "$2" .checks[0].detail) ns=$("$1" "$2" .checks[0].duration_ns)
	[ -n "$d" ] && [ "$d" != null ] && [ "$ns" -gt 0 ] && [ "$ns" -lt 5000000000 ]' \
	sh "$JSONQ" "$T/run.json"
cp "$T/run.json" "$T/out"
check "JSON: summary (not interrupted: interrupted is there, null)" test "$("$JSONQ" "$T/out" \
	.summary.passed .summary.failed .summary.total .summary.interrupted)" = "$(printf '3\n0\n3\nnull')"
run 1 --format json --only RD-04 --timeout 20ms
check "JSON: a failed run still parses, exit_status and timed_out recorded" test \
	"$("$JSONQ" "$T/out" .exit_status .checks[0].status .checks[0].timed_out)" = \
	"$(printf '1\nfail\ntrue')"

# ---- the whole of groups A-D, both kinds, and nothing left behind
run 0 --only 'CRE-*,RD-*,WR-*,NB-*' --kind all --output "$T/all.txt"
check "--output: the file holds the report" grep -q "^[0-9]* passed, 0 failed, " "$T/all.txt"
check "no private directories left behind" test -z "$(ls -A "$T/tmp")"

# ---- interrupted: the document of the checks finished so far, then 128+n
# Not timing-dependent: wait until the second check process has started (so
# one check has finished), stop it with SIGSTOP so it cannot finish, and
# only then send the signal; the stopped check is the interrupted one.
#
# stop_check: tests/tap.sh.
# interrupt SIG FORMAT: a whole-catalogue run with a long watchdog, stopped
# at its second check, then SIG; status in $got, stopped check in $stopped.
interrupt() {
	rm -f "$T/int.out"
	"$PB" conformance --kind all --timeout 60 --format "$2" --output "$T/int.out" \
		2>"$T/err" &
	pid=$!
	stopped=$(stop_check echo "$pid")
	kill -s "$1" "$pid"
	wait "$pid"; got=$?
	kill -0 "$stopped" 2>/dev/null && kill -KILL "$stopped"
}
sig_status() { case $1 in INT) echo 130 ;; TERM) echo 143 ;; HUP) echo 129 ;; esac; }

for sig in TERM INT HUP; do
	case $sig in TERM) fmt=json ;; INT) fmt=junit ;; HUP) fmt=tap ;; esac
	want=$(sig_status $sig)
	interrupt $sig $fmt
	check "SIG$sig during a check ($fmt): exits $want (got $got)" test "$got" = "$want" -a -n "$stopped"
	check "  the stopped check process is gone" sh -c '! kill -0 "$1" 2>/dev/null' sh "$stopped"
	check "  no private directory, no temporary output file left behind" \
		test -z "$(ls -A "$T/tmp")" -a -z "$(ls -A "$T" | grep '^\.int\.out\.')"
	check "  one line on stderr names the interrupted check" sh -c \
		'test "$(wc -l <"$1")" = 1 && grep -q "^pipebench conformance: [A-Z]*-[0-9]*: interrupted by SIG$2$" "$1"' \
		sh "$T/err" "$sig"
	case $fmt in
	json)
		n_checks=$("$JSONQ" "$T/int.out" '.checks#')
		paths=
		i=0; while [ "$i" -lt "${n_checks:-0}" ]; do paths="$paths .checks[$i].detail"; i=$((i + 1)); done
		# shellcheck disable=SC2086
		"$JSONQ" "$T/int.out" $paths >"$T/details"
		check "  JSON: well-formed, exit_status $want, summary says SIG$sig" test \
			"$("$JSONQ" "$T/int.out" .exit_status .summary.interrupted .summary.total)" = \
			"$(printf '%s\nSIG%s\n%s' "$want" "$sig" "$n_checks")"
		check "  JSON: finished checks kept, exactly one interrupted, and it is the last" sh -c '
			test "$(grep -c "interrupted by SIG$2" "$1")" = 1 &&
			tail -n 1 "$1" | grep -q "^interrupted by SIG$2$" &&
			test "$(wc -l <"$1")" -ge 2' sh "$T/details" "$sig"
		check "  JSON: the checks not run are listed apart and counted" sh -c '
			n=$("$1" "$2" ".not_run#") && test "$n" -ge 1 &&
			test "$("$1" "$2" .summary.not_run .summary.errors)" = "$(printf "%s\n1" "$n")"' \
			sh "$JSONQ" "$T/int.out"
		;;
	junit)
		check "  JUnit: well-formed" xml_ok "$T/int.out"
		if command -v xmllint >/dev/null 2>&1; then
			check "  JUnit: xmllint agrees" xmllint --noout "$T/int.out"
		else
			ok "  JUnit: xmllint agrees # SKIP no xmllint"
		fi
		check "  JUnit: finished test cases kept, exactly one interrupted error" sh -c '
			test "$(grep -c "<testcase " "$1")" -ge 2 &&
			test "$(grep -c "<error type=\"error\" message=\"[^\"]*interrupted by SIG$2\"" "$1")" = 1 &&
			test "$(grep -c "interrupted by SIG$2" "$1")" = 1 &&
			grep -q "errors=\"1\"" "$1" &&
			grep -q "<property name=\"interrupted\" value=\"SIG$2\"/>" "$1"' sh "$T/int.out" "$sig"
		;;
	tap)
		check "  TAP: the plan matches the test points, YAML blocks balanced" awk '
			NR == 1 && $0 != "TAP version 13" { exit 1 }
			NR == 2 { if (!sub(/^1\.\./, "")) exit 1; plan = $0 + 0 }
			/^(not )?ok [0-9]+ - / { tests++ } /^  ---$/ { yo++ } /^  \.\.\.$/ { yc++ }
			END { exit !(plan >= 2 && tests == plan && yo == plan && yc == plan) }' "$T/int.out"
		check "  TAP: exactly one interrupted (not ok), the others kept" sh -c '
			test "$(grep -c "^  detail: \".*interrupted by SIG$2\"$" "$1")" = 1 &&
			test "$(grep -c "^not ok " "$1")" = 1 &&
			grep -q "^# interrupted by SIG$2: [1-9][0-9]* of [0-9]* checks not run$" "$1"' \
			sh "$T/int.out" "$sig"
		check "  TAP: the checks not run and the test points add up to all the checks" awk '
			NR == 2 { sub(/^1\.\./, ""); plan = $0 + 0 }
			/^# interrupted by SIG/ { notrun = $5; all = $7 }
			END { exit !(notrun >= 1 && plan >= 1 && notrun + plan == all) }' "$T/int.out"
		;;
	esac
done

# ---- README's CI example: timeout(1) sends SIGTERM when its time is up and
# pipebench writes the JUnit document of what ran and exits 143, which
# `timeout --preserve-status` passes on; plain timeout exits 124 itself.
# The second check is stopped (stop_check, on timeout's child) so the run
# cannot finish before the 3 s.
for pres in "" --preserve-status; do
	case $pres in "") want=124 ;; *) want=143 ;; esac
	rm -f "$T/int.out"
	timeout $pres -s TERM 3 "$PB" conformance --kind all --timeout 60 --format junit \
		--output "$T/int.out" 2>"$T/err" &
	tpid=$!
	stopped=$(stop_check kids "$tpid")
	wait "$tpid"; got=$?
	kill -0 "$stopped" 2>/dev/null && kill -KILL "$stopped"
	check "timeout ${pres:+$pres }-s TERM 3 pipebench conformance: exits $want (got $got), the JUnit document written" \
		sh -c 'test "$1" = "$2" && grep -q "<property name=\"interrupted\" value=\"SIGTERM\"/>" "$3"' \
		sh "$got" "$want" "$T/int.out"
done
echo "1..$n"
