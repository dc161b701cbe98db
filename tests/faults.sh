#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end fault injection: `pipebench conformance` under tests/faultinj.so
# (an LD_PRELOAD interposer), one kernel misbehaviour at a time, as listed in
# tests/faults.tab.  Each fault must make its checks say `fail` and the run
# exit 1 -- never 3, never 0, never hang -- with no check saying `error` and
# nothing left behind.  A control run with the interposer loaded and no fault
# must exit 0.  Speaks TAP.
set -u

PB=${PIPEBENCH:?}
JSONQ=${TESTS_BUILDDIR:?}/jsonq
SO=$TESTS_BUILDDIR/faultinj.so
TAB=${TESTS_SRCDIR:?}/faults.tab
README=$TESTS_SRCDIR/../README
BACKSTOP=40   # timeout(1) per run, seconds: far above any run's own bound

n=0
pending=-
# point STATUS DESCRIPTION [TODO-REASON [KEY]]: a test point, TODO when a
# reason is given.  A pending KEY marked "KEY?" in faults.tab is racy on this
# tree: when it holds it is a plain ok (with a note), not an XPASS.
point() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then s="ok"; else s="not ok"; fi
	if [ -n "${3:-}" ] && [ "$1" -eq 0 ] && [ -n "${4:-}" ] &&
	   case " ${pending%%:*} " in *" $4? "*) true ;; *) false ;; esac; then
		echo "$s $n - $2"
		diag "pending (racy) in faults.tab, held this time: $4"
	elif [ -n "${3:-}" ]; then
		echo "$s $n - $2 # TODO $3"
	else
		echo "$s $n - $2"
	fi
}
diag() { printf '%s\n' "$*" | sed 's/^/# /'; }

command -v timeout >/dev/null 2>&1 || { echo "1..0 # SKIP timeout(1) not found"; exit 0; }
[ -f "$SO" ] || { echo "1..0 # SKIP $SO not built"; exit 0; }

T=$(mktemp -d "${TMPDIR:-/tmp}/pb-faults.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

# An ASan-instrumented pipebench needs the ASan runtime first in the preload
# list; faultinj.so (built with the same CFLAGS) comes after it, so ASan's
# interceptors call the interposer as the "real" functions.
PRELOAD=$SO
asan=$(ldd "$PB" 2>/dev/null | awk '/libasan\.so/ { print $3; exit }')
[ -n "$asan" ] && PRELOAD="$asan:$SO"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# The table without comments: fault|only|timeout|fail|pending|what, trimmed.
sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$TAB" |
	awk -F '|' '{ for (i = 1; i <= NF; i++) { gsub(/^[ \t]+|[ \t]+$/, "", $i) }
		      print $1 "|" $2 "|" $3 "|" $4 "|" $5 "|" $6 }' >"$T/tab"

# ---- the table, the interposer and README agree
LD_PRELOAD=$PRELOAD PB_FAULT=list /bin/true >"$T/names" 2>"$T/names.err"
cut -d '|' -f 1 "$T/tab" | sort >"$T/tabnames"
sort "$T/names" | cmp -s - "$T/tabnames"
point $? "every fault of faultinj.so has one row in faults.tab, and no other row"
[ -s "$T/names.err" ] && diag "$(cat "$T/names.err")"
# README's "Fault injection" rows (up to the next section's underline):
# two-space indent, the fault, its IDs.
awk '/^Fault injection$/ { on = 1; next }
     on && /^-+$/ { exit }
     on && /^  [a-z][-a-z]* +[A-Z]+-[0-9]+/ {
	ids = ""
	for (i = 2; i <= NF && $i ~ /^[A-Z]+-[0-9]+$/; i++) ids = ids (ids ? " " : "") $i
	print $1 "|" ids }' "$README" | sort >"$T/readme"
cut -d '|' -f 1,4 "$T/tab" | sort | cmp -s - "$T/readme"
point $? "README's fault injection table lists the same faults and IDs as faults.tab"

# run NAME WATCHDOG [--only SEL]: one conformance run under the interposer
# with PB_FAULT=NAME (empty: PB_FAULT unset) and a private TMPDIR, bounded
# by timeout(1); sets $rc and $dir.  Only pipebench gets the interposer.
run() {
	dir=$T/run-${1:-control}
	mkdir -p "$dir/tmp"
	if [ -n "$1" ]; then fenv="PB_FAULT=$1"; else fenv="-u PB_FAULT"; fi
	watchdog=$2
	shift 2
	# shellcheck disable=SC2086
	TMPDIR=$dir/tmp timeout -k 5 "$BACKSTOP" env $fenv "LD_PRELOAD=$PRELOAD" \
		"$PB" conformance --kind all --format json --timeout "$watchdog" \
		--output "$dir/doc.json" "$@" </dev/null >"$dir/out" 2>"$dir/err"
	rc=$?
	# A sanitizer report exits 1 too: never count it as the verdict's 1.
	if grep -Eq 'Sanitizer|runtime error:' "$dir/err"; then
		diag "$(grep -E -m 3 'Sanitizer|runtime error:' "$dir/err")"
		rc=99
	fi
}

# verdicts FILE: "ID kind status" per check, into FILE.v
verdicts() {
	cnt=$("$JSONQ" "$1" '.checks#' 2>/dev/null) || { : >"$1.v"; return 1; }
	i=0 paths=""
	while [ "$i" -lt "$cnt" ]; do
		paths="$paths .checks[$i].id .checks[$i].kind .checks[$i].status"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	"$JSONQ" "$1" $paths | paste -d ' ' - - - >"$1.v"
}

# IDs (ID/kind for checks run on both kinds) whose status is $2, in file $1.
with_status() { awk -v s="$2" '$3 == s { print ($2 == "null" ? $1 : $1 "/" $2) }' "$1" | tr '\n' ' '; }
errors_of() { with_status "$1" error; }
fails_of() { with_status "$1" fail; }

# ---- control: the interposer loaded, no fault
run "" 5
point "$([ "$rc" -eq 0 ]; echo $?)" "control (no PB_FAULT): exit 0"
[ "$rc" -eq 0 ] || diag "exit $rc: $(head -c 300 "$dir/err")"
verdicts "$dir/doc.json"
point "$([ "$(wc -l <"$dir/doc.json.v")" -gt 50 ]; echo $?)" "control: a JSON document with every check"
e=$(errors_of "$dir/doc.json.v")
point "$([ -z "$e" ]; echo $?)" "control: no check says error"
[ -z "$e" ] || diag "error: $e"
point "$([ -z "$(ls -A "$dir/tmp")" ]; echo $?)" "control: nothing left in TMPDIR"

# ---- one run per fault
while IFS='|' read -r name only watchdog ids pending what; do
	todo() { # todo KEY: the pending reason when KEY is marked pending
		case " ${pending%%:*} " in
		*" $1 "* | *" $1? "*) echo "${pending#*: }" ;;
		esac
	}
	run "$name" "$watchdog" --only "$only"
	verdicts "$dir/doc.json"
	point "$([ "$rc" -eq 1 ]; echo $?)" "$name: exit 1" "$(todo exit)" exit
	[ "$rc" -eq 1 ] || diag "$name: exit $rc; $(head -c 300 "$dir/err")"
	for id in $ids; do
		awk -v id="$id" '$1 == id && $3 == "fail" { f = 1 } END { exit !f }' \
			"$dir/doc.json.v"
		st=$?
		point "$st" "$name: $id says fail" "$(todo "$id")" "$id"
		[ "$st" -eq 0 ] || diag "$name: $id: $(awk -v id="$id" '$1 == id { printf "%s/%s ", $2, $3 }' "$dir/doc.json.v")"
	done
	e=$(errors_of "$dir/doc.json.v")
	point "$([ -z "$e" ]; echo $?)" "$name: no check says error" "$(todo error)" error
	[ -z "$e" ] || diag "$name: error: $e"
	point "$([ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]; echo $?)" \
		"$name: finished before the ${BACKSTOP} s backstop (no hang)"
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] ||
		diag "$name: stopped by the backstop; its stderr: $(tail -c 300 "$dir/err"); its document: $(head -c 200 "$dir/doc.json" 2>/dev/null)"
	point "$([ -z "$(ls -A "$dir/tmp")" ]; echo $?)" "$name: nothing left in TMPDIR"
	diag "$name: exit $rc; fail: $(fails_of "$dir/doc.json.v")${e:+; error: $e}"
done <"$T/tab"

# ---- exit-status precedence when outcomes mix: a harness error (open of
# /dev/null fails with EMFILE: CRE-02's and CRE-03's own resource) beside a
# kernel fault is exit 3 with both verdicts kept; the harness error alone is 3
# with no fail; the kernel fault alone (above) is 1.
PB_FAULT_HARNESS=devnull-emfile; export PB_FAULT_HARNESS
run reorder 3 --only creation,RD-01
verdicts "$dir/doc.json"
point "$([ "$rc" -eq 3 ]; echo $?)" "reorder + harness EMFILE: exit 3 (error beats fail)"
[ "$rc" -eq 3 ] || diag "exit $rc; $(head -c 300 "$dir/err")"
f=$(fails_of "$dir/doc.json.v") e=$(errors_of "$dir/doc.json.v")
point "$(case " $f" in *" RD-01"*) echo 0 ;; *) echo 1 ;; esac)" "reorder + harness EMFILE: RD-01 still says fail"
point "$(case " $e" in *" CRE-02"*) echo 0 ;; *) echo 1 ;; esac)" "reorder + harness EMFILE: CRE-02 says error"
diag "mixed: fail: $f; error: $e"
run "" 3 --only creation,RD-01
verdicts "$dir/doc.json"
point "$([ "$rc" -eq 3 ]; echo $?)" "harness EMFILE alone: exit 3"
f=$(fails_of "$dir/doc.json.v")
point "$([ -z "$f" ]; echo $?)" "harness EMFILE alone: no check says fail"
[ -z "$f" ] || diag "fail: $f"
point "$([ -z "$(ls -A "$dir/tmp")" ]; echo $?)" "harness EMFILE: nothing left in TMPDIR"
unset PB_FAULT_HARNESS

# ---- throughput's engine: a write returning 0 instead of EAGAIN cannot be
# measured (exit 3) and is named, not taken for a full pipe.
TMPDIR=$T timeout -k 5 "$BACKSTOP" env PB_FAULT=write-zero "LD_PRELOAD=$PRELOAD" \
	"$PB" throughput --loops 10 --repeat 1 --warmup 0 >"$T/tp.out" 2>"$T/tp.err"
rc=$?
point "$([ "$rc" -eq 3 ]; echo $?)" "throughput under write-zero: exit 3"
grep -q 'write() returned 0 instead of -1 with EAGAIN' "$T/tp.err"
point $? "throughput under write-zero: the error names the write that returned 0"

# ---- report with a failing part and an erroring part: the conformance part
# fails (exit 1), the throughput part cannot measure (exit 3, its own error
# passed through), the report exits 3.
mkdir -p "$T/rp"
TMPDIR=$T/rp timeout -k 5 120 env PB_FAULT=write-zero "LD_PRELOAD=$PRELOAD" \
	"$PB" report --quick --format json --output "$T/rp.json" >"$T/rp.out" 2>"$T/rp.err"
rc=$?
point "$([ "$rc" -eq 3 ]; echo $?)" "report under write-zero: exit 3 (an erroring part beats a failing one)"
point "$([ "$("$JSONQ" "$T/rp.json" .part_runs.conformance.exit_status)" = 1 ]; echo $?)" \
	"report under write-zero: the conformance part failed (1)"
point "$([ "$("$JSONQ" "$T/rp.json" .part_runs.throughput.exit_status)" = 3 ]; echo $?)" \
	"report under write-zero: the throughput part erred (3)"
"$JSONQ" "$T/rp.json" .part_runs.throughput.error | grep -q 'write() returned 0 instead of -1'
point $? "report under write-zero: the throughput part's own error is passed through"
echo "1..$n"
