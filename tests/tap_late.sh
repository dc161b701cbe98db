# SPDX-License-Identifier: GPL-2.0-or-later
# TAP helpers for tests that print their plan at the end (the number of
# points depends on the machine); sourced, POSIX sh.  Sets PB, JSONQ and a
# private directory $T removed at exit.
#
#   ok STATUS DESC      one test point: STATUS 0 is "ok"; failures counted
#   skip DESC REASON    one skipped point
#   is WHAT GOT WANT    compare two strings
#   q FILE PATH         value at PATH in the JSON document FILE
#   tap_late_end        print the plan; status 0 when nothing failed
#   fault_layer, faulty FAULT CMD...   tests/faulty.sh
PB=${PIPEBENCH:?PIPEBENCH must name the binary under test}
JSONQ=${TESTS_BUILDDIR:-tests}/jsonq
T=$(mktemp -d "${TMPDIR:-/tmp}/pb-test.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
n=0
fails=0

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fails=$((fails + 1))
	fi
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
q() { "$JSONQ" "$1" "$2" 2>/dev/null; }
is() {
	if [ "$2" = "$3" ]; then ok 0 "$1"; else ok 1 "$1 (got '$2', want '$3')"; fi
}
. "${TESTS_SRCDIR:-$(dirname "$0")}/faulty.sh"
tap_late_end() {
	echo "1..$n"
	[ "$fails" -eq 0 ]
}
