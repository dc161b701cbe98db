#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The steps of lava/pipebench.yaml without a dispatcher, fast: the run
# script is put together as lava-run writes run.sh (the parameters as shell
# assignments, `set -e` and `set -x`, the steps in order) and run with
# `sh -e` in an empty directory.  The definition must fail loudly when the
# program is not this pipebench (distributions' "pipebench" is a
# stdin/stdout speed meter), report every command's exit status as a case,
# go on after a command that failed, crashed or wrote nothing, and print
# each signal once (LAVA reads the console, traces included).
# tests/lava.sh runs the same definition with the real dispatcher in a
# qemu guest.

. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
SRC=${TESTS_SRCDIR:-$(dirname "$0")}
DEF=$SRC/../lava/pipebench.yaml
PY=python3
$PY -c 'import yaml' 2>/dev/null || skip_all "python3 has no yaml module"
tap_tmpdir
W=$TEST_TMP/work
mkdir "$W"

# run.sh for parameters NAME=VALUE...: the definition's defaults overridden.
render() {
	$PY - "$DEF" "$@" > "$TEST_TMP/run.sh" <<'EOF'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
params = dict(d.get("params", {}))
for a in sys.argv[2:]:
    k, v = a.split("=", 1)
    params[k] = v
for k, v in params.items():
    print("%s='%s'" % (k, str(v).replace("'", "'\\''")))
print("set -e")
print("set -x")
for step in d["run"]["steps"]:
    print(step.rstrip("\n"))
EOF
}

# Run the definition with parameters; $rc, $out (stdout), $err.
lava() {
	render "$@" || exit 99
	(cd "$W" && exec sh -e "$TEST_TMP/run.sh") >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	out=$(cat "$TEST_TMP/out")
	err=$(cat "$TEST_TMP/err")
}
case_of() { printf '%s\n' "$out" | grep "^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$1 "; }
has() { printf '%s\n' "$out" | grep -qx "$1"; }

# The unrelated program Debian and Ubuntu install as /usr/bin/pipebench.
cat > "$TEST_TMP/other" <<'EOF'
#!/bin/sh
echo "Pipebench 0.40, by Thomas Habets <thomas@habets.pp.se>" >&2
echo "usage: pipebench [ -ehqQIoru ] [ -b <bufsize ] [ -s <file> | -S <file> ]" >&2
exit 1
EOF
# This pipebench, but throughput dies without a word and messaging fails.
cat > "$TEST_TMP/wrapped" <<EOF
#!/bin/sh
case \$1 in
throughput) kill -SEGV \$\$ ;;
messaging) echo '<LAVA_SIGNAL_TESTSET START messaging>'
	echo '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=exit-status RESULT=fail>'
	echo '<LAVA_SIGNAL_TESTSET STOP>'; exit 1 ;;
esac
exec "$PIPEBENCH" "\$@"
EOF
chmod 755 "$TEST_TMP/other" "$TEST_TMP/wrapped"


# No install step names a package "pipebench": that is the other program.
! grep -Eq '(apt-get|dnf|yum|apk)[^|;&]* install[^|;&]* pipebench([ "]|$)' "$DEF"
ok $? "the definition installs no distribution package named pipebench"
grep -q '^  LATENCY_ARGS:' "$DEF"; ok $? "LATENCY_ARGS is a parameter"

lava PIPEBENCH="$PIPEBENCH" COMMANDS="conformance timestamps latency" \
	CONFORMANCE_ARGS="--only CRE-01" LATENCY_ARGS="-n 50 -r 1 -w 0"
is "$rc" 0 "this pipebench: the steps finish"
has '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=pipebench-present RESULT=pass>'
ok $? "  pipebench-present passes"
is "$(printf '%s\n' "$out" | grep -c '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=run\.[a-z_]* RESULT=pass MEASUREMENT=0 UNITS=exit_status>$')" 3 \
	"  a run.COMMAND case per command, with its exit status"
has '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=CRE-01 RESULT=pass>'; ok $? "  the commands' own cases (CONFORMANCE_ARGS)"
case_of 'anon-1B-any-block-p50' | grep -q 'UNITS=ns>$'; ok $? "  latency runs with LATENCY_ARGS"
case_of 'anon\.write\.mtime' >/dev/null; ok $? "  timestamps cases"
is "$(ls -A "$TMPDIR" "$W" | grep -v ':$' | grep -c .)" 0 "  nothing left behind"
# LAVA reads signals from the console, where set -x traces every command.
! printf '%s\n' "$err" | grep -q '<LAVA_SIGNAL_'; ok $? "  no signal twice: the traced commands spell none out"

lava PIPEBENCH="$TEST_TMP/other" COMMANDS="conformance timestamps"
is "$rc" 0 "the unrelated pipebench: the steps still finish (LAVA sees the end)"
has '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=pipebench-present RESULT=fail>'; ok $? "  pipebench-present fails"
! printf '%s\n' "$out" | grep -q 'TESTSET\|TEST_CASE_ID=run\.'; ok $? "  and nothing is run"
printf '%s\n' "$err" | grep -q "^pipebench: .*other is not this pipebench"; ok $? "  the log says why"

lava PIPEBENCH="$TEST_TMP/none" COMMANDS=timestamps
has '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=pipebench-present RESULT=fail>' &&
	printf '%s\n' "$err" | grep -q "none: not found"
ok $? "a missing program: pipebench-present fails, not found"

lava PIPEBENCH="$PIPEBENCH" COMMANDS="timestamps bogus"
has '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=pipebench-present RESULT=fail>' &&
	printf '%s\n' "$err" | grep -q "has no command bogus"
ok $? "a command this pipebench lacks: pipebench-present fails, naming it"

lava PIPEBENCH="$TEST_TMP/wrapped" COMMANDS="throughput messaging timestamps"
is "$rc" 0 "a command that crashes or fails: the steps finish"
! printf '%s\n' "$err" | grep -q '<LAVA_SIGNAL_'; ok $? "  no signal in the trace"
case_of 'run\.throughput' | grep -q 'RESULT=fail MEASUREMENT=139 UNITS=exit_status>$'
ok $? "  a crash that wrote no results is run.COMMAND fail with its status"
printf '%s\n' "$err" | grep -q "^pipebench: throughput wrote no LAVA results (exit status 139)$"
ok $? "  the log says it wrote nothing"
case_of 'run\.messaging' | grep -q 'RESULT=fail MEASUREMENT=1 UNITS=exit_status>$'
ok $? "  exit status 1 is run.COMMAND fail"
case_of 'run\.timestamps' | grep -q 'RESULT=pass MEASUREMENT=0 '
ok $? "  the commands after them still run"

lava INSTALL=true PIPEBENCH="$PIPEBENCH" COMMANDS=timestamps
has '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=pipebench-build RESULT=fail>' &&
	has '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=pipebench-present RESULT=fail>' &&
	! printf '%s\n' "$out" | grep -q 'TEST_CASE_ID=run\.'
ok $? "INSTALL=true outside the source tree: pipebench-build fails, nothing runs"
printf '%s\n' "$err" | grep -q "is not the pipebench source tree"; ok $? "  the log says why"
done_testing
