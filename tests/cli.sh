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
--kind|pipes|
--timeout|0|
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

# A directory that cannot be used says where it came from (--dir, or its
# default TMPDIR) and which step failed (/proc: mkdir, not "no such file").
run env TMPDIR=/nonexistent-pipebench-dir "$PIPEBENCH" conformance --only CRE-01
is "$rc:$(nlines "$err")" "2:1" "TMPDIR=/nonexistent: exit 2, one line"
printf '%s' "$err" | grep -q "^pipebench conformance: TMPDIR (the default of --dir): '/nonexistent-pipebench-dir' is not a writable directory: No such file or directory" &&
	! printf '%s' "$err" | grep -q -- "--dir:"
ok $? "TMPDIR=/nonexistent: the error names TMPDIR, not --dir"
run env TMPDIR=/nonexistent-pipebench-dir "$PIPEBENCH" report --quick
printf '%s' "$err" | grep -q "^pipebench report: TMPDIR: '/nonexistent-pipebench-dir' is not a writable directory: No such file or directory"
ok $? "report with TMPDIR=/nonexistent: the error names TMPDIR"
run "$PIPEBENCH" throughput --dir /proc
is "$rc:$(nlines "$err")" "2:1" "--dir /proc: exit 2, one line"
# Root may write there and gets mkdir's own errno; others are refused first.
printf '%s' "$err" | grep -Eq -- "--dir: '/proc' is not a writable directory: (cannot make a directory in it: mkdir: [A-Z].*|Permission denied) \\(try"
ok $? "--dir /proc: names the step that failed and its errno"

run "$PIPEBENCH" throughput stray
is "$rc:$(nlines "$err")" "2:1" "stray argument: exit 2, one line"
printf '%s' "$err" | grep -q "'stray'"; ok $? "stray argument is named"

run "$PIPEBENCH" throughput --loops
is "$rc:$(nlines "$err")" "2:1" "missing value: exit 2, one line"
printf '%s' "$err" | grep -q -- "--loops"; ok $? "missing value names the option"

run "$PIPEBENCH" throughput --bogus-option
is "$rc" 2 "unknown command option exits 2"
printf '%s' "$err" | grep -q "try 'pipebench throughput --help'"; ok $? "usage errors point to --help"

# Did you mean: a misspelt command or option gets the nearest name.
run "$PIPEBENCH" conformanc
is "$rc:$(nlines "$err")" "2:1" "misspelt command: exit 2, one line"
printf '%s' "$err" | grep -q "did you mean 'conformance'?"; ok $? "misspelt command: did you mean 'conformance'"
run "$PIPEBENCH" messaging --thread
printf '%s' "$err" | grep -q "did you mean '--threads'?"; ok $? "misspelt option: did you mean '--threads'"

# A common option before the command says where it goes.
run "$PIPEBENCH" -q timestamps
is "$rc:$(nlines "$err")" "2:1" "pipebench -q timestamps: exit 2, one line"
printf '%s' "$err" | grep -q "put it after the command: pipebench timestamps -q"
ok $? "pipebench -q timestamps: put it after the command"
run "$PIPEBENCH" -f json timestamps
printf '%s' "$err" | grep -q "put it after the command: pipebench timestamps -f json"
ok $? "pipebench -f json timestamps: put it after the command, with its value"

# Every option, flags included, is refused when given twice; the hint about
# commas only for options that take lists.
run "$PIPEBENCH" throughput -q -q
is "$rc:$(nlines "$err")" "2:1" "throughput -q -q: exit 2, one line"
printf '%s' "$err" | grep -q -- "--quiet given more than once"; ok $? "throughput -q -q: names --quiet"
run "$PIPEBENCH" throughput --format json --format csv
printf '%s' "$err" | grep -q -- "--format given more than once" && ! printf '%s' "$err" | grep -q "A,B"
ok $? "--format twice: refused without suggesting a list"

# Range errors state the range as it is typed.
run "$PIPEBENCH" throughput --repeat 0
printf '%s' "$err" | grep -q -- "--repeat: 0 is out of range (1..10000)"; ok $? "--repeat 0 states the range"
run "$PIPEBENCH" conformance --timeout 500us
printf '%s' "$err" | grep -q -- "--timeout: 500us is out of range (1ms..1h)"; ok $? "--timeout 500us states the minimum"

# Words in any case; "pipe" is anon.
run "$PIPEBENCH" conformance --kind FIFO --list -f JSON --only RD-01
is "$rc" 0 "conformance --kind FIFO -f JSON is accepted"
run "$PIPEBENCH" throughput --kind PIPE --loops 1 --repeat 1 --warmup 0 -f Json
is "$rc:$(printf '%s' "$out" | tr -d ' \n' | grep -o '"kinds":\[[^]]*\]')" '0:"kinds":["anon"]' \
	"throughput --kind PIPE measures anon"

# The listing interface (completion and the man-page test use it).
cmds=$("$PIPEBENCH" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z_]*\) .*/\1/p')
is "$("$PIPEBENCH" --list-commands | tr '\n' ' ')" "$(printf '%s ' $cmds)" "--list-commands lists --help's commands in order"
bad=
for c in $cmds; do
	bad=$bad$("$PIPEBENCH" "$c" --list-options | awk -F '\t' -v c="$c" '
		NF != 4 || $1 !~ /^--[a-z][a-z0-9-]*$/ || $2 !~ /^-[a-zA-Z]?$/ ||
		$3 !~ /^(flag|count|size|sizes|duration|double|word|words|cpus|dir|file|string)$/ ||
		(($3 == "word" || $3 == "words") != ($4 != "")) { print c ": " $0 }')
done
is "$bad" "" "every --list-options line is --LONG, -L or -, a type and the words of word options"
is "$("$PIPEBENCH" compare --list-operands)|$("$PIPEBENCH" throughput --list-operands)" "file|" \
	"--list-operands: compare takes files, throughput nothing"

# One vocabulary: a short letter means the same option in every command.
clash=$(for c in $cmds; do "$PIPEBENCH" "$c" --list-options; done |
	awk -F '\t' '$2 != "-" { print $2 " " $1 }' | sort -u | awk '{ print $1 }' | uniq -d)
is "$clash" "" "no short letter has two meanings across commands"
done_testing
