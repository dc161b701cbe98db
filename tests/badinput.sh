#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Malformed invocations across every command (throughput's own table is in
# cli.sh): each exits 2 with one line on stderr naming the option and the
# value, writes nothing to stdout, creates nothing, and - proven with strace
# when it is installed - never reaches the workload (no pipe, FIFO or child
# process is made).
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
GOOD="$TEST_TMP/good.json"
"$PIPEBENCH" throughput --loops 5 --repeat 2 --warmup 0 --format json --output "$GOOD" || exit 99
printf 'not json at all\n' >"$TEST_TMP/junk.json"
printf '{"tool":"iperf3","command":"x","schema_version":1}\n' >"$TEST_TMP/other.json"
sed 's/"schema_version": 1/"schema_version": 99/' "$GOOD" >"$TEST_TMP/schema.json"
: >"$TEST_TMP/empty.json"

# command|option|value   (the value is what the message must name)
TABLE="conformance|--only|NOPE-99
conformance|--skip|NOPE-*
conformance|--kind|socketpair
conformance|--timeout|500us
conformance|--timeout|0
conformance|--timeout|abc
conformance|--timeout|-5
conformance|--format|yaml
conformance|--dir|/nonexistent-pipebench
conformance|--output|/nonexistent-pipebench/x.xml
conformance|--only|CRE-01,,RD-01
messaging|--groups|0
messaging|--groups|ten
messaging|--fds|-3
messaging|--fds|99999999999999999999999
messaging|--loops|0
messaging|--size|2M
messaging|--size|12Q
messaging|--kind|fifo
messaging|--kind|anon,socketpair
messaging|--timeout|0
messaging|--repeat|0
messaging|--timeout|1x
messaging|--format|seed
compare|--threshold|abc
compare|--threshold|-5
compare|--format|tap
compare|FILE|$TEST_TMP/missing.json
compare|FILE|$TEST_TMP/junk.json
compare|FILE|$TEST_TMP/other.json
compare|FILE|$TEST_TMP/schema.json
compare|FILE|$TEST_TMP/empty.json
compare|FILE|$TEST_TMP
report|--parts|speed
report|--parts|throughput,,messaging
report|--dir|/nonexistent-pipebench
report|--format|csv
report|--output|/nonexistent-pipebench/r.json
timestamps|--expect|anon=maybe
timestamps|--expect|pipe=frozen
timestamps|--expect|,
timestamps|--expect|anon=frozen,
timestamps|--expect|,anon=frozen
timestamps|--expect|anon=frozen,,fifo=updated
timestamps|--expect|anon=frozen,anon=updated
timestamps|--expect|anon
timestamps|--expect|=frozen
timestamps|--expect|anon=frozenx
timestamps|--expect|anonx=frozen
timestamps|--expect|anon=frozen,fifo
timestamps|--repeat|0
timestamps|--dir|/nonexistent-pipebench
timestamps|--format|csv
o_noatime|--loops|0
o_noatime|--size|65M
o_noatime|--expect|maybe
o_noatime|--repeat|x
o_noatime|--timeout|soon
o_noatime|--timeout|0"

if command -v strace >/dev/null && strace -f -qq -e trace=pipe2 -o /dev/null true 2>/dev/null; then
	STRACE=1
else
	STRACE=0
fi

while IFS='|' read -r cmd opt val; do
	case $opt in
	FILE) args="$GOOD $val"; what="$cmd $val" ;;
	*) args="$opt $val"; [ "$cmd" = compare ] && args="$args $GOOD $GOOD"; what="$cmd $opt '$val'" ;;
	esac
	if [ $STRACE -eq 1 ]; then
		# LeakSanitizer cannot run under ptrace; leaks are checked elsewhere.
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		run strace -f -qq -o "$TEST_TMP/trace" \
			-e trace=pipe,pipe2,mknod,mknodat,fork,vfork,clone,clone3,socketpair \
			"$PIPEBENCH" $cmd $args
	else
		run "$PIPEBENCH" $cmd $args
	fi
	is "$rc" 2 "$what: exit 2"
	is "$(nlines "$err")" 1 "$what: one line on stderr"
	case $opt in FILE) name=$val ;; *) name=$opt ;; esac
	printf '%s' "$err" | grep -qF -- "$name" && printf '%s' "$err" | grep -qF -- "${val##*/}"
	ok $? "$what: the message names the option and the value"
	[ -z "$out" ] && tmp_empty &&
		{ [ $STRACE -eq 0 ] || ! grep -Eq '^[0-9]+ +(pipe|pipe2|mknod|mknodat|fork|vfork|clone|clone3|socketpair)\(' "$TEST_TMP/trace"; }
	ok $? "$what: nothing made, nothing on stdout$([ $STRACE -eq 1 ] && echo ', no pipe/FIFO/child (strace)')"
done <<EOF_TABLE
$TABLE
EOF_TABLE

run "$PIPEBENCH" compare "$GOOD"
is "$rc:$(nlines "$err")" "2:1" "compare with one file: exit 2, one line"
run "$PIPEBENCH" report stray
is "$rc:$(nlines "$err")" "2:1" "report with a stray argument: exit 2, one line"
# compare takes BASE and at most 63 NEW files: 63 are compared, 64 refused.
set -- "$GOOD"
i=0; while [ $i -lt 63 ]; do set -- "$@" "$GOOD"; i=$((i + 1)); done
run "$PIPEBENCH" compare --format json "$@"
is "$rc" 0 "compare BASE and 63 NEW files: compared (exit 0)"
run "$PIPEBENCH" compare "$@" "$GOOD"
is "$rc:$(nlines "$err")" "2:1" "compare BASE and 64 NEW files: exit 2, one line"
printf '%s' "$err" | grep -q 'at most 63 NEW files'; ok $? "compare with 64 NEW files: the message names the limit"

# An option given twice is refused, never silently reduced to one value
# (a dropped --expect or --only would be a false pass).
for args in "timestamps --expect anon=updated --expect fifo=updated" \
	    "conformance --only RD-01 --only RD-02" \
	    "throughput --kind anon --kind fifo" \
	    "compare --threshold 1 --threshold 2 $GOOD $GOOD" \
	    "messaging --threads --threads" \
	    "compare --force --force $GOOD $GOOD"; do
	run "$PIPEBENCH" $args
	is "$rc:$(nlines "$err")" "2:1" "${args%% -*} with a repeated option: exit 2, one line"
	opt=$(printf '%s' "$args" | awk '{ print $2 }')
	printf '%s' "$err" | grep -q -- "$opt given more than once"; ok $? "${args%% -*}: the message names $opt"
done
done_testing
