# SPDX-License-Identifier: GPL-2.0-or-later
# Minimal TAP helpers for the shell tests; sourced, POSIX sh.
#
#   plan N            print the plan
#   ok STATUS DESC    one test point: STATUS 0 is "ok"
#   is GOT WANT DESC  compare two strings
#   run CMD...        run, capturing $out, $err and $rc
#   skip_all REASON   plan 0 with a SKIP directive
#   diag TEXT         a diagnostic line

: "${PIPEBENCH:?PIPEBENCH must name the binary under test}"
: "${TESTS_BUILDDIR:=$(dirname "$PIPEBENCH")/../tests}"
JSONQ="$TESTS_BUILDDIR/jsonq"
tap_n=0

plan() { echo "1..$1"; }
diag() { printf '# %s\n' "$*" | sed '2,$s/^/# /'; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }

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
tmp_empty() {
	[ -z "$(ls -A "$TMPDIR")" ]
}
