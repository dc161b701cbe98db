#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A representative subset of commands under valgrind memcheck: no errors,
# no leaks.  Skipped when valgrind is missing or the binary carries a
# sanitizer runtime (the two do not mix).
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
command -v valgrind >/dev/null || skip_all "valgrind not installed"
if ldd "$PIPEBENCH" 2>/dev/null | grep -Eq 'lib(a|ub|t)san'; then
	skip_all "binary built with a sanitizer"
fi
tap_tmpdir
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect"

# One command line per test point; DOC marks the JSON file a run writes.
A="$TEST_TMP/a.json" B="$TEST_TMP/b.json"
# compare's most NEW files (63): every column label freed, the last too.
MAXNEW=$(i=0; while [ $i -lt 63 ]; do printf ' %s' "$B"; i=$((i + 1)); done)
# grid past its most documents (256): refused, its table freed
MAXGRID=$(i=0; while [ $i -lt 257 ]; do printf ' %s' "$B"; i=$((i + 1)); done)
# compare of two reports: a metric, a verdict change and results lost, each
# row naming its part (throughput, conformance; timestamps absent in NEW):
# every row's part name freed with the row.
RA="$TEST_TMP/ra.json" RB="$TEST_TMP/rb.json"
rep() {
	printf '{ "tool": "pipebench", "version": "0.1.0", "schema_version": 1, "command": "report",
  "params": {}, "system": { "kernel_release": "6.18.0-test" }, "errors": [], "exit_status": 0,
  "parts": { "throughput": { "command": "throughput", "params": {}, "results": [ %s ] },
    "conformance": { "command": "conformance", "params": {}, "checks": [
      { "id": "CK-01", "status": "%s" } ] }%s } }\n' "$@"
}
rep '{ "kind": "anon", "repetitions": [ { "tt_ns": 100 }, { "tt_ns": 110 } ] },
  { "kind": "fifo", "repetitions": [ { "tt_ns": 100 }, { "tt_ns": 120 } ] }' pass ',
    "timestamps": { "command": "timestamps", "params": {}, "results": [
      { "kind": "anon", "verdict": "updated" } ] }' >"$RA"
rep '{ "kind": "anon", "repetitions": [ { "tt_ns": 200 }, { "tt_ns": 210 } ] }' fail '' >"$RB"
CMDS="throughput --kind all --size 100,4K --loops 20 --repeat 2 --warmup 1 --format json --output $A
throughput --loops 20 --repeat 2 --warmup 0 --format json --output $B
throughput --loops 10 --repeat 1 --format csv
throughput --loops 10 --repeat 1 --format seed
throughput --loops 10 --repeat 1 --size 0
compare $A $B --force
compare $A $B --force --format json
compare $A$MAXNEW --force
compare $A /nonexistent.json
compare $RA $RB
grid $A $B $RA
grid $A $B --format json
grid$MAXGRID
bisect --good $A $B
throughput --copies 2 --loops 10 --repeat 1 --warmup 0
plot $A --format gnuplot
plot $A $B --label old,new --format gnuplot
plot $A $B --output $TEST_TMP/ab.svg
report --quick --parts throughput_64k --format json
report --quick --parts timestamps --format json
conformance --only CRE-01,RD-02,WR-06,FIFO-03,MD-04,LX-01 --format json
conformance --list
timestamps --format json
o_noatime --loops 20 --repeat 2 --format json
messaging --groups 1 --fds 4 --loops 10 --repeat 1 --warmup 0 --format json
messaging --threads --groups 1 --fds 4 --loops 10 --repeat 1 --warmup 0
latency --kind all --loops 50 --repeat 2 --warmup 1 --placement same,numa --interval 1ms --format json
latency --threads --wait poll --loops 50 --repeat 1 --warmup 0 --format csv
--help
help throughput"

while read -r line; do
	[ -n "$line" ] || continue
	$VG "$PIPEBENCH" $line >/dev/null 2>"$TEST_TMP/vg.err" </dev/null
	rc=$?
	[ $rc -ne 99 ] && ! grep -q '^==[0-9]*==' "$TEST_TMP/vg.err"
	ok $? "valgrind clean: $line"
	[ $rc -ne 99 ] || diag "$(head -30 "$TEST_TMP/vg.err")"
done <<EOF_CMDS
$CMDS
EOF_CMDS
# The run object where the machine says little: /proc/loadavg empty and a
# /sys of nothing (a mount namespace): every object made for a fact that
# then could not be read is freed.
: >"$TEST_TMP/empty"
if unshare -m sh -c 'mount --bind "$1" /proc/loadavg && mount -t tmpfs pb-sys /sys' sh \
	"$TEST_TMP/empty" 2>/dev/null; then
	unshare -m sh -c 'mount --bind "$1" /proc/loadavg && mount -t tmpfs pb-sys /sys &&
		shift && exec "$@"' sh "$TEST_TMP/empty" $VG "$PIPEBENCH" conformance --list \
		--format json >"$TEST_TMP/bare.json" 2>"$TEST_TMP/vg.err" </dev/null
	rc=$?
	[ $rc -ne 99 ] && ! grep -q '^==[0-9]*==' "$TEST_TMP/vg.err" &&
		[ "$("$JSONQ" "$TEST_TMP/bare.json" .run.loadavg)" = null ]
	ok $? "valgrind clean: the run object without /proc/loadavg and /sys"
	[ $rc -ne 99 ] || diag "$(head -30 "$TEST_TMP/vg.err")"
else
	skip 1 "cannot hide /proc/loadavg and /sys (unshare -m, mount)"
fi
done_testing
