# SPDX-License-Identifier: GPL-2.0-or-later
# Minimal TAP helpers for the shell tests; sourced, POSIX sh.
#
#   done_testing      print the plan, the count of points run (last)
#   ok STATUS DESC    one test point: STATUS 0 is "ok"
#   is GOT WANT DESC  compare two strings
#   run CMD...        run, capturing $out, $err and $rc
#   skip N REASON     N numbered test points that skip, with the directive
#   skip_all REASON   plan 0 with a SKIP directive
#   diag TEXT         a diagnostic line
#   stop_check CMD... stop a running conformance check (see below)

: "${PIPEBENCH:?PIPEBENCH must name the binary under test}"
: "${TESTS_BUILDDIR:=$(dirname "$PIPEBENCH")/../tests}"
JSONQ="$TESTS_BUILDDIR/jsonq"
tap_n=0

# The plan comes last, counted, not first and counted by hand: a script that
# dies half-way prints none, and the harness calls that an error.
done_testing() { echo "1..$tap_n"; }
diag() { printf '# %s\n' "$*" | sed '2,$s/^/# /'; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }

# A test point's number counts like any other: a skip that printed none
# ("ok - # SKIP") leaves every later point out of order.
skip() {
	_tap_k=$1; shift
	case $_tap_k in ''|*[!0-9]*) echo "Bail out! skip: '$_tap_k' is not a count"; exit 99 ;; esac
	while [ "$_tap_k" -gt 0 ]; do
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP $*"
		_tap_k=$((_tap_k - 1))
	done
}

ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
	fi
}

is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "got '$1', want '$2'"
	fi
}

run() {
	_tap_o=$(mktemp) && _tap_e=$(mktemp) || exit 99
	"$@" >"$_tap_o" 2>"$_tap_e"
	rc=$?
	out=$(cat "$_tap_o")
	err=$(cat "$_tap_e")
	rm -f "$_tap_o" "$_tap_e"
}

# A private TMPDIR for the test; removed at exit.
tap_tmpdir() {
	TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/pb-test.XXXXXX") || exit 99
	trap 'rm -rf "$TEST_TMP"' EXIT
	TMPDIR="$TEST_TMP/tmp"
	mkdir "$TMPDIR"
	export TMPDIR
}

# Number of lines in a string (0 for empty).
nlines() {
	if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l | tr -d ' '; fi
}

# Whether the private TMPDIR is empty (nothing left behind).
# What is there is named in a diagnostic, so that a failure says what was
# left (a FIFO, a part's directory, a check's) without a rerun.
tmp_empty() {
	_tap_left=$(ls -A "$TMPDIR")
	[ -z "$_tap_left" ] && return 0
	diag "left in TMPDIR: $(cd "$TMPDIR" && find . -mindepth 1 -maxdepth 3 -printf '%y %p ' 2>/dev/null | head -c 400)"
	return 1
}

. "${TESTS_SRCDIR:-$(dirname "$0")}/faulty.sh"

# ---- processes, read from /proc/PID/stat (the command name may hold
# spaces and parentheses: everything up to the last ") " is cut first).
# proc_state PID: its state letter (R, S, T, Z...), empty once it is gone.
proc_state() {
	sed 's/^[^)]*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1
}
# kids PID: the children of PID.
kids() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v p="$1" '{
		pid = $1; s = $0; sub(/^[^)]*\) /, "", s); split(s, f, " ")
		if (f[2] == p) print pid }'
}
# check_procs PID...: the conformance check processes among the children of
# the PIDs (a check runs in a process group of its own), not zombies.
check_procs() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v pp=" $* " '{
		pid = $1; s = $0; sub(/^[^)]*\) /, "", s); split(s, f, " ")
		if (index(pp, " " f[2] " ") && f[3] == pid && f[1] != "Z") print pid }'
}
# stop_check CMD...: CMD prints the parent PIDs; stop (SIGSTOP) the second
# check seen, so that one check has finished and the stopped one cannot, and
# print its PID.  Status 1 when none was stopped within about 10 s.
stop_check() {
	seen= i=0
	while [ $i -lt 1000 ]; do
		for c in $(check_procs $("$@")); do
			case " $seen " in *" $c "*) ;; *) seen="$seen $c" ;; esac
			[ "$(echo $seen | wc -w)" -ge 2 ] || continue
			kill -STOP "$c" 2>/dev/null || continue
			j=0
			while [ $j -lt 100 ]; do
				st=$(proc_state "$c")
				[ "$st" = T ] && { echo "$c"; return 0; }
				[ -z "$st" ] || [ "$st" = Z ] && break
				sleep 0.01; j=$((j + 1))
			done
		done
		sleep 0.01; i=$((i + 1))
	done
	return 1
}
