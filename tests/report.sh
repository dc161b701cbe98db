#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench report: every part runs and is embedded whole, the text names
# each section, compare reads the document, and a part that cannot run is
# reported as not measured with exit 3 while the rest still runs.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
J="$TEST_TMP/report.json"

plan 16

"$PIPEBENCH" report --quick --format json --output "$J" 2>"$TEST_TMP/err"; rc=$?
is "$rc" 0 "report --quick exits 0 on this kernel"
is "$("$JSONQ" "$J" .command .exit_status | tr '\n' ' ')" "report 0 " "one report document"
for p in timestamps o_noatime conformance throughput throughput_64k messaging; do
	is "$("$JSONQ" "$J" ".parts.$p.command" ".part_runs.$p.exit_status" | tr '\n' ' ')" \
		"${p%_64k} 0 " "part $p: its own document, exit 0"
done
f=$("$JSONQ" "$J" .summary.copy_ceiling.pipe_fraction_of_ceiling)
awk -v f="$f" 'BEGIN { exit !(f > 0 && f < 1.5) }'; ok $? "64 KiB throughput as a fraction of the copy ceiling ($f)"
"$PIPEBENCH" compare "$J" "$J" >/dev/null 2>&1; is "$?" 0 "compare reads a report against itself"
tmp_empty; ok $? "nothing left behind"

run "$PIPEBENCH" report --quick --parts timestamps,throughput_64k
is "$rc" 0 "text report exits 0"
printf '%s\n' "$out" | grep -q '^timestamps  *anonymous pipes: ' && printf '%s\n' "$out" | grep -q '^copy ceiling  *memcpy '
ok $? "text has the timestamps verdicts and the copy ceiling"
printf '%s\n' "$out" | grep -q '^conformance'; [ $? -ne 0 ]; ok $? "--parts leaves the others out"

# A part that cannot run: with 6 descriptors timestamps cannot make its
# FIFOs, while the anonymous-pipe throughput part still fits.
run sh -c 'exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n 6 && exec "$0" report --quick --parts timestamps,throughput_64k' "$PIPEBENCH"
is "$rc" 3 "a part that fails makes the report exit 3"
printf '%s\n' "$out" | grep -Eq '^timestamps +not measured: .+' && printf '%s\n' "$out" | grep -Eq '^throughput +anon +64 KiB'
ok $? "the failed part says 'not measured' and the others are still there"
