#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `timestamps` and `o_noatime` on the host kernel: verdicts, --expect exit
# statuses, JSON and TAP shape, bad input, nothing left behind.
PB=${PIPEBENCH:?PIPEBENCH is not set}
JQ=${TESTS_BUILDDIR:-.}/jsonq

work=$(mktemp -d "${TMPDIR:-/tmp}/pb-ts-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'rm -rf "$work"; exit 130' INT TERM HUP
mkdir "$work/d"

n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { desc=$1; shift; if "$@"; then ok "$desc"; else nok "$desc"; fi; }
# run EXPECTED-STATUS ARGS...: stdout to $work/out, stderr to $work/err
run() { want=$1; shift; "$PB" "$@" >"$work/out" 2>"$work/err"; got=$?; [ "$got" = "$want" ]; }
empty_dir() { [ -z "$(ls -A "$work/d")" ]; }
one_line_err() { [ "$(wc -l < "$work/err")" -eq 1 ] && [ ! -s "$work/out" ]; }


# Which verdict the host should give: 6.15 froze anonymous pipes (f017b0a4951f).
set -- $(uname -r | sed -n 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
if [ "$1" -gt 6 ] || { [ "$1" -eq 6 ] && [ "$2" -ge 15 ]; }; then anon=frozen other=updated
else anon=updated other=frozen; fi

check "timestamps --expect anon=$anon,fifo=updated exits 0" \
	run 0 timestamps --dir "$work/d" --expect "anon=$anon,fifo=updated"
check "text names both verdicts" grep -q "^anonymous pipes  $anon" "$work/out"
check "text reports the FIFO filesystem and atime policy" \
	grep -Eq '^fifo +in .*: [a-z0-9]+, (relatime|noatime|strictatime)' "$work/out"
check "nothing left in --dir" empty_dir
check "timestamps --expect anon=$other exits 1" run 1 timestamps --dir "$work/d" --expect "anon=$other"
check "the failed expectation is said" grep -q "expect anon=$other: does NOT hold" "$work/out"
check "timestamps --expect fifo=frozen exits 1" run 1 timestamps --dir "$work/d" --expect fifo=frozen
# Every expectation is in the document (in the kinds' order), the first
# verdict (frozen) too.
check "JSON: --expect fifo=frozen,anon=$anon: both expectations, each judged; exit 1" \
	eval 'run 1 timestamps --dir "$work/d" --format json --expect "fifo=frozen,anon=$anon" &&
	[ "$("$JQ" "$work/out" ".expectations#" .expectations[0].kind .expectations[0].expected \
		.expectations[0].observed .expectations[0].holds .expectations[1].kind \
		.expectations[1].expected .expectations[1].observed .expectations[1].holds \
		.summary.expectations_hold | tr "\n" " ")" = \
		"2 anon $anon $anon true fifo frozen updated false false " ]'
# ... and params.expect says what was asked, each kind ("anon" first)
check "JSON: params.expect has each kind's expectation" \
	eval '[ "$("$JQ" "$work/out" .params.expect.anon .params.expect.fifo | tr "\n" " ")" = \
		"$anon frozen " ]'

run 0 timestamps --dir "$work/d" --format json --repeat 2
# The FIFO verdict of the pipe code: TMPDIR's filesystem may hide updates
# (overlayfs), and then the FIFO on tmpfs's verdict is the pipe code's.
check "JSON: valid, verdicts anon=$anon fifo (pipe code)=updated" \
	[ "$("$JQ" "$work/out" .summary.anon .summary.fifo_pipe | tr '\n' ' ')" = "$anon updated " ]
fs=$("$JQ" "$work/out" .fifo_dir.fstype)
attr=$("$JQ" "$work/out" .summary.fifo_attributed_to)
method=$("$JQ" "$work/out" .fifo_reference.method)
case "$fs/$method/$attr" in
tmpfs/fifo-dir/pipe | */dev-shm/pipe | */private-mount/pipe) good=1 ;;
*/dev-shm/filesystem | */private-mount/filesystem)
	"$JQ" "$work/out" .fifo_reference.attribution.filesystem_effect | grep -q "does not report FIFO" && good=1 ;;
*) good= ;;
esac
check "JSON: FIFO result on $fs compared with tmpfs ($method): attributed to the $attr" [ -n "$good" ]
check "JSON: every operation of both kinds is reported" \
	[ "$("$JQ" "$work/out" '.results[0].operations#' '.results[1].operations#' | tr '\n' ' ')" = "8 8 " ]
check "JSON: every repetition's samples are there" \
	[ "$("$JQ" "$work/out" '.results[1].operations[0].samples#')" = 2 ]
if [ "$attr" = filesystem ]; then fifo=.fifo_reference.reference; else fifo='.results[1]'; fi
check "JSON: FIFO write updates mtime, read updates atime (${fifo#.})" \
	[ "$("$JQ" "$work/out" "$fifo.operations[0].fields.mtime.state" "$fifo.operations[1].fields.atime.state" | tr '\n' ' ')" = "updated updated " ]
check "JSON: params.repeat and fifo_dir recorded" \
	[ "$("$JQ" "$work/out" .params.repeat .fifo_dir.path | tr '\n' ' ')" = "2 $work/d " ]

# The plan counts an expectation whatever it expects: frozen is verdict 0.
"$PB" timestamps --dir "$work/d" --format tap --expect anon=frozen,fifo=frozen >"$work/out" 2>"$work/err"
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$work/out")
check "TAP with --expect anon=frozen,fifo=frozen: plan matches the number of results ($plan)" \
	[ "$plan" = "$(grep -Ec '^(not )?ok ' "$work/out")" ]
check "TAP with --expect anon=frozen,fifo=frozen: both expectations are points" \
	[ "$(grep -Ec '^(not )?ok [0-9]* - expect (anon|fifo)=frozen' "$work/out")" = 2 ]
run 0 timestamps --dir "$work/d" --format tap --expect fifo=updated
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$work/out")
check "TAP: plan matches the number of results ($plan)" \
	[ "$plan" = "$(grep -Ec '^(not )?ok ' "$work/out")" ]
check "TAP: the expectation is an ok line" grep -q '^ok [0-9]* - expect fifo=updated' "$work/out"
check "TAP: the expectation's YAML says expected and observed" sh -c \
	'grep -A3 "^ok [0-9]* - expect fifo=updated" "$1" | tr "\n" " " | grep -q "  expected: updated   observed: updated"' \
	sh "$work/out"
check "TAP: every YAML block follows a test point and is closed" awk '
	/^  ---$/ { if (open || !point) exit 1; open = 1; next }
	/^  \.\.\.$/ { if (!open) exit 1; open = 0; point = 0; next }
	/^(not )?ok / { if (open) exit 1; point = 1; next }
	open && !/^  [a-z_]+: / { exit 1 }
	END { exit open }' "$work/out"
mkdir "$work/d#1"
run 0 timestamps --dir "$work/d#1" --repeat 1 --format tap
check "TAP: a '#' in --dir is quoted in the FIFO's YAML" grep -qxF "  dir: \"$work/d#1\"" "$work/out"
if command -v prove >/dev/null 2>&1; then
	check "TAP: prove accepts it" sh -c 'prove -Q --exec cat "$1" >/dev/null 2>&1' sh "$work/out"
else
	ok "TAP: prove accepts it # SKIP no prove"
fi
rmdir "$work/d#1"
# A FIFO on a noatime mount (a tmpfs of this test's own, in a private mount
# namespace): each atime observation is undetermined, a SKIP point whose
# YAML counts the repetitions (0 updated, 0 unchanged, all 3 undetermined)
# and says why; mtime and ctime are judged as anywhere
if unshare -m true 2>/dev/null; then
	mkdir "$work/na"
	unshare -m sh -c 'mount -t tmpfs -o noatime none "$1" && exec "$2" timestamps --dir "$1" --repeat 3 --format tap' \
		sh "$work/na" "$PB" >"$work/out" 2>"$work/err"
	got=$?
	check "TAP on a noatime mount: exit 0 ($got)" [ "$got" = 0 ]
	check "TAP on a noatime mount: every FIFO atime point is a SKIP with counts 0/0/3 and the reason" awk '
		/^ok [0-9]+ - fifo [a-z_]+ atime / { if ($0 !~ / undetermined # SKIP noatime mount/) exit 1; pts++; want = 1; next }
		/^ok [0-9]+ - fifo [a-z_]+ [cm]time (updated|unchanged)$/ { judged++; want = 0; next }
		want == 1 && /^  ---$/ { y = ""; next }
		want == 1 && /^  [a-z]+: / { y = y $0 "|"; next }
		want == 1 && /^  \.\.\.$/ { if (y != "  updated: 0|  unchanged: 0|  undetermined: 3|  reason: \"noatime mount: atime is never updated there\"|") exit 1; blocks++; want = 0 }
		END { exit !(pts == 8 && blocks == 8 && judged == 16) }' "$work/out"
	rmdir "$work/na"
else
	ok "TAP on a noatime mount # SKIP unshare -m not permitted"
	ok "TAP on a noatime mount: atime points # SKIP unshare -m not permitted"
fi

bad=
for e in anon=x fifo anon=frozen,anon=frozen 'anon=frozen,' ',fifo=updated' 'sock=frozen' 'anon=mixed' ''; do
	run 2 timestamps --dir "$work/d" --expect "$e" && one_line_err &&
		grep -q -- "--expect: invalid expectation" "$work/err" || bad="$bad '$e'"
done
check "malformed --expect values are one-line usage errors (exit 2)${bad:+; not:$bad}" [ -z "$bad" ]
check "--dir that does not exist: exit 2, one line" \
	eval 'run 2 timestamps --dir "$work/nonexistent" && one_line_err'
touch "$work/file"
check "--dir that is a file: exit 2, one line" eval 'run 2 timestamps --dir "$work/file" && one_line_err'
rm -f "$work/file"
check "--repeat 0: exit 2, one line" eval 'run 2 timestamps --repeat 0 && one_line_err'
check "--repeat x: exit 2, one line" eval 'run 2 timestamps --repeat x && one_line_err'
check "nothing left in --dir after errors" empty_dir

if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	run 0 timestamps --dir /dev/shm --format json --repeat 1
	check "--dir /dev/shm: reported as tmpfs" [ "$("$JQ" "$work/out" .fifo_dir.fstype)" = tmpfs ]
	# the FIFO directory is its own reference: the text names no other
	# (no "reference" line, neither a FIFO elsewhere nor "none")
	run 0 timestamps --dir /dev/shm --repeat 1
	check "--dir /dev/shm: text has no reference line" \
		eval '! grep -q "^reference " "$work/out" && grep -q "tmpfs" "$work/out"'
else
	ok "--dir /dev/shm # SKIP no writable /dev/shm"
	ok "--dir /dev/shm: text # SKIP no writable /dev/shm"
fi

# o_noatime: mainline rejects pipe2(O_NOATIME).
check "o_noatime --expect unsupported exits 0" \
	run 0 o_noatime --dir "$work/d" --loops 20 --repeat 2 --expect unsupported
check "o_noatime says the flag is rejected" grep -q '^pipe2(O_NOATIME)  rejected: EINVAL' "$work/out"
check "o_noatime labels the substitute benchmark" \
	grep -q '^SUBSTITUTE benchmark (not an O_NOATIME measurement): FIFO against anonymous pipe' "$work/out"
check "o_noatime prints the substitute ratio" grep -q 'TT ratio fifo/anon: median .*\[substitute\]' "$work/out"
check "o_noatime --expect supported exits 1" \
	run 1 o_noatime --dir "$work/d" --loops 5 --repeat 1 --expect supported
# The text's lines, each by its first word ("-" an empty line): one line per
# probed target, a blank line between the blocks.
# The stability block that ends it has a line per row that is not stable.
shape() { awk '/^$/ { print "-"; next } /^stability / { print $1; exit } { print $1 }' "$work/out" |
	tr '\n' ' '; }
run 0 o_noatime --dir "$work/d" --loops 200 --repeat 1
check "o_noatime text: one line each, anon and fifo on lines of their own" \
	[ "$(shape)" = "kernel machine pipe2(O_NOATIME) This Linux - timestamps anon fifo - SUBSTITUTE on 200 A B TT stability " ]
run 0 o_noatime --dir "$work/d" --loops 10 --repeat 2 --format json
check "o_noatime JSON: rejected, substitute mode, 2 ratios" \
	[ "$("$JQ" "$work/out" .pipe2_o_noatime.accepted .benchmark.mode '.benchmark.tt_ratios_b_over_a#' .summary.substitute | tr '\n' ' ')" = "false substitute_fifo_vs_anon 2 true " ]
stats() { "$JQ" "$work/out" "$1" | sed 's/"\([a-z_]*\)":[^,}]*/\1/g; s/[{}]//g'; }
check "o_noatime JSON: the one statistics shape for each side and for the ratio" \
	[ "$(stats .results[0].tt_ns) $(stats .results[1].tt_ns) $(stats .benchmark.tt_ratio)" = \
	  "median,min,max,mean,stddev,rsd,spread,n median,min,max,mean,stddev,rsd,spread,n median,min,max,mean,stddev,rsd,spread,n" ]
check "o_noatime JSON: statistics count the pairs (n = 2)" \
	[ "$("$JQ" "$work/out" .results[1].tt_ns.n .benchmark.tt_ratio.n | tr '\n' ' ')" = "2 2 " ]
# --precision: pairs added until the median B/A ratio is known within the
# percent (recomputed from the JSON's own ratios); A and B keep step.
check "o_noatime --precision 50: exit 0" \
	run 0 o_noatime --dir "$work/d" --loops 50 --repeat 3 --precision 50 --precision-budget 20s \
	--format json
check "o_noatime --precision 50: the ratio's interval recomputes, reached with 8 pairs or more" \
	[ "$(perl "${TESTS_SRCDIR:-$(dirname "$0")}/figures/precision.pl" tt_ratio <"$work/out")" = \
	  "n>=8 reached same all" ]
check "o_noatime --precision: A, B and the ratios have as many repetitions" \
	[ "$("$JQ" "$work/out" '.results[0].repetitions#' '.results[1].repetitions#' \
	     '.benchmark.tt_ratios_b_over_a#' | sort -u | wc -l)" = 1 ]
check "o_noatime --precision 0.01 in 300 ms: exit 0, the text says it was not reached" \
	run 0 o_noatime --dir "$work/d" --loops 50 --repeat 3 --precision 0.01 \
	--precision-budget 300ms
check "... the text says it was not reached" \
	grep -Eq '^precision   0.01% not reached in its 0.3 s budget: ([0-9.]+% after [0-9]+ repetitions|[0-9]+ repetitions, too few for an interval \(8\))$' \
	"$work/out"
run 0 o_noatime --dir "$work/d" --loops 10 --repeat 1 --format json --expect unsupported
check "o_noatime JSON: summary.expectations_hold, as in timestamps (no expectation_holds)" \
	eval '[ "$("$JQ" "$work/out" .summary.expectations_hold)" = true ] && ! grep -q expectation_holds "$work/out"'
check "o_noatime --expect maybe: exit 2, one line" \
	eval 'run 2 o_noatime --expect maybe && one_line_err'
check "o_noatime --loops 0 and --size 0: exit 2" \
	eval 'run 2 o_noatime --loops 0 && run 2 o_noatime --size 0'
# With four descriptors the first side (anon) cannot make its pipe: the run
# stops there, exit 3, and its one error is that failure.  A run that went
# on to the FIFO side (which gets one end open, then fails too) after the
# first failure would replace the error with the FIFO's.  Both ways in: the
# unmeasured pair of --loops and the calibration of --duration.
for budget in "--loops 10" "--duration 100ms"; do
	# shellcheck disable=SC2086
	sh -c 'exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n 4 && exec "$0" "$@"' "$PB" \
		o_noatime --dir "$work/d" $budget --repeat 1 --format json >"$work/out" 2>"$work/err"
	got=$?
	check "o_noatime $budget with 4 descriptors: exit 3" [ "$got" = 3 ]
	check "o_noatime $budget with 4 descriptors: the one error is the anon side's" \
		[ "$("$JQ" "$work/out" .exit_status '.errors#' '.errors[0]' | tr '\n' '|')" = \
		  "3|1|anon: pipe2: Too many open files|" ]
	check "o_noatime $budget with 4 descriptors: stderr names the anon side, not the FIFO" \
		eval 'grep -q "^pipebench o_noatime: anon: pipe2: Too many open files$" "$work/err" &&
			! grep -q "fifo:" "$work/err"'
done
check "nothing left in --dir after o_noatime" empty_dir
echo "1..$n"
