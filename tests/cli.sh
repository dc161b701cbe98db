#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The command line: usage, help, version, and bad input (exit 2, one line
# naming the option and value, nothing created).
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir

# option|value|more args   (value "-" means: no value given)
BAD='--loops|0|
--loops|-1|
--loops|abc|
--loops|99999999999999999999999|
--loops|12x|
--repeat|0|
--warmup|-1|
--size|64Q|
--size|65M|
--size|0|
--size|100,,4K|
--size|100,|
--pipe-size|1x|
--pipe-size|3G|
--kind|pipe|
--kind|anon,,fifo|
--flags|bogus|
--format|xml|
--cpu|99999|
--cpu|x|
--cpu|3-1|
--timeout|5x|
--timeout|-1|
--dir|/nonexistent-pipebench-dir|
--dir|/etc/passwd|
--output|/nonexistent-pipebench-dir/out.json|'
nbad=$(printf '%s\n' "$BAD" | wc -l)

plan $((14 + 4 * nbad + 6))

run "$PIPEBENCH"
is "$rc" 2 "bare pipebench exits 2"
ok "$(printf '%s' "$err" | grep -c '^Usage: pipebench' | grep -qx 1; echo $?)" "bare pipebench prints usage on stderr"
is "$out" "" "bare pipebench prints nothing on stdout"

run "$PIPEBENCH" --help
is "$rc" 0 "--help exits 0"
printf '%s' "$out" | grep -q '^  throughput ' ; ok $? "--help lists throughput"

run "$PIPEBENCH" --version
is "$rc" 0 "--version exits 0"
printf '%s' "$out" | grep -Eq '^pipebench [0-9]+\.[0-9]+\.[0-9]+$'; ok $? "--version prints name and version"

run "$PIPEBENCH" help throughput
h1=$out
is "$rc" 0 "help throughput exits 0"
run "$PIPEBENCH" throughput --help
is "$out" "$h1" "throughput --help equals help throughput"
printf '%s' "$out" | grep -q '^Usage: pipebench throughput \[OPTION...\]'; ok $? "help shows the usage line"

run "$PIPEBENCH" frobnicate
is "$rc:$(nlines "$err")" "2:1" "unknown command: exit 2, one line"
printf '%s' "$err" | grep -q "unknown command 'frobnicate'"; ok $? "unknown command is named"

run "$PIPEBENCH" --frob
is "$rc:$(nlines "$err")" "2:1" "unknown top-level option: exit 2, one line"

run "$PIPEBENCH" help nosuch
is "$rc" 2 "help of an unknown command exits 2"

while IFS='|' read -r opt val more; do
	run "$PIPEBENCH" throughput "$opt" "$val" $more </dev/null
	is "$rc" 2 "throughput $opt '$val': exit 2"
	is "$(nlines "$err")" 1 "throughput $opt '$val': one line"
	printf '%s' "$err" | grep -qF -- "$opt" && printf '%s' "$err" | grep -qF -- "$val"
	ok $? "throughput $opt '$val': message names option and value"
	tmp_empty && [ -z "$out" ]
	ok $? "throughput $opt '$val': nothing created, nothing on stdout"
done <<EOF_BAD
$BAD
EOF_BAD

run "$PIPEBENCH" throughput stray
is "$rc:$(nlines "$err")" "2:1" "stray argument: exit 2, one line"
printf '%s' "$err" | grep -q "'stray'"; ok $? "stray argument is named"

run "$PIPEBENCH" throughput --loops
is "$rc:$(nlines "$err")" "2:1" "missing value: exit 2, one line"
printf '%s' "$err" | grep -q -- "--loops"; ok $? "missing value names the option"

run "$PIPEBENCH" throughput --bogus-option
is "$rc" 2 "unknown command option exits 2"
printf '%s' "$err" | grep -q "try 'pipebench throughput --help'"; ok $? "usage errors point to --help"
