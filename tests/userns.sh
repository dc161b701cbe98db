#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Rootless containers: in a user namespace (`unshare -U -r`, as rootless
# Podman/Docker run it) the capabilities look complete but uid 65534 is not
# mapped and setgroups is denied.  The parts of checks that need such an
# identity are skipped with the reason, never an error: conformance and
# report --quick exit 0.  Speaks TAP.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
command -v unshare >/dev/null || skip_all "unshare (util-linux) not installed"
unshare -U -r true 2>/dev/null || skip_all "unshare -U -r is not permitted here"
tap_tmpdir
# The caller becomes root of a new user namespace, setgroups denied.
USERNS="unshare -U -r"


run $USERNS "$PIPEBENCH" conformance --format json
is "$rc" 0 "conformance in a user namespace exits 0"
is "$(printf '%s' "$out" | "$JSONQ" - .summary.failed .summary.errors | tr '\n' ' ')" "0 0 " \
	"no check fails or errors"
[ -z "$err" ]; ok $? "nothing on stderr"
diag "$(printf '%s' "$out" | "$JSONQ" - .summary.passed .summary.skipped | tr '\n' ' ')(passed, skipped)"

run $USERNS "$PIPEBENCH" conformance --only FIFO-01,FC-05 --format json
is "$(printf '%s' "$out" | "$JSONQ" - .checks[0].id .checks[0].status .checks[1].id \
	.checks[1].status | tr '\n' ' ')" "FIFO-01 pass FC-05 pass " \
	"FIFO-01 and FC-05 pass on what they could test"
d1=$(printf '%s' "$out" | "$JSONQ" - .checks[0].detail)
d2=$(printf '%s' "$out" | "$JSONQ" - .checks[1].detail)
diag "FIFO-01: $d1"
diag "FC-05: $d2"
case $d1 in *"skipped: cannot become uid 65534"*) r=0 ;; *) r=1 ;; esac
ok $r "FIFO-01 names the skipped part and why"
case $d2 in *skipped*) r=0 ;; *) r=1 ;; esac
ok $r "FC-05 names the skipped part"

run $USERNS "$PIPEBENCH" report --quick
is "$rc" 0 "report --quick in a user namespace exits 0"
[ "$rc" -eq 0 ] || diag "$(printf '%s\n%s' "$out" "$err" | tail -20)"

tmp_empty; ok $? "nothing left behind"
done_testing
