#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench report: every part runs and is embedded whole, the text names
# each section, compare reads the document, and a part that cannot run is
# reported as not measured with exit 3, with its own error message, while
# the rest still runs.  TMPDIR is checked up front.  Interrupted, it still
# writes the report of the parts finished so far and exits 128+signal.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
J="$TEST_TMP/report.json"


"$PIPEBENCH" report --quick --format json --output "$J" 2>"$TEST_TMP/err"; rc=$?
is "$rc" 0 "report --quick exits 0 on this kernel"
is "$("$JSONQ" "$J" .command .exit_status | tr '\n' ' ')" "report 0 " "one report document"
for p in timestamps o_noatime conformance throughput throughput_64k messaging latency; do
	is "$("$JSONQ" "$J" ".parts.$p.command" ".part_runs.$p.exit_status" | tr '\n' ' ')" \
		"${p%_64k} 0 " "part $p: its own document, exit 0"
done
# What the ETA planned for each part (part_runs.NAME.estimate_ns), --quick
# and in full (timestamps and o_noatime: the full o_noatime takes 4 s).
est=$(for p in timestamps o_noatime conformance throughput throughput_64k messaging latency; do
	"$JSONQ" "$J" ".part_runs.$p.estimate_ns"; done | tr '\n' ' ')
is "$est" "100000000 1300000000 2100000000 2200000000 500000000 200000000 600000000 " \
	"each part's estimate in the --quick document"
set -- $("$JSONQ" "$J" .summary.copy_ceiling.estimate_ns .summary.copy_ceiling.duration_ns)
[ "$1" = 300000000 ] && [ "${2:-0}" -gt 0 ]
ok $? "the copy ceiling's estimate (0.3 s) and duration in the --quick document ($*)"
"$PIPEBENCH" report --parts timestamps,o_noatime --format json --output "$TEST_TMP/full.json"
is "$("$JSONQ" "$TEST_TMP/full.json" .part_runs.timestamps.estimate_ns .part_runs.o_noatime.estimate_ns | tr '\n' ' ')" \
	"100000000 4000000000 " "... and in full"
# The full latency and messaging parts take seconds; with 6 descriptors
# neither can make its pipes, so each fails at once and its run (exit 3),
# with the estimate, is still recorded.
run sh -c 'exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n 6 && exec "$0" report --parts messaging,latency --format json --output "$1"' "$PIPEBENCH" "$TEST_TMP/full.json"
is "$rc $("$JSONQ" "$TEST_TMP/full.json" .part_runs.messaging.exit_status .part_runs.latency.exit_status .part_runs.messaging.estimate_ns .part_runs.latency.estimate_ns | tr '\n' ' ')" \
	"3 3 3 500000000 3600000000 " "... in full, messaging and latency (both failing at once: exit 3)"
# The fraction is derived from the figures beside it (the two are measured
# at different times, and a sanitizer build slows memcpy but not the kernel,
# so its size is not asserted): pipe rate / (memcpy rate / 2), the pipe rate
# being the 64 KiB part's own summary.
set -- $("$JSONQ" "$J" .summary.copy_ceiling.pipe_fraction_of_ceiling \
	.summary.copy_ceiling.memcpy_bytes_per_s .summary.copy_ceiling.pipe_ceiling_bytes_per_s \
	.summary.copy_ceiling.pipe_64k_bytes_per_s .parts.throughput_64k.results[0].summary.rate_bytes_per_s)
awk -v f="$1" -v m="$2" -v c="$3" -v p="$4" -v r="$5" 'function rel(a, w) { d = a - w; if (d < 0) d = -d; return d / w }
	BEGIN { exit !(f > 0 && rel(c, m / 2) < 1e-9 && rel(p, r) < 1e-9 && rel(f, p / c) < 1e-9) }'
ok $? "64 KiB throughput as a fraction of the copy ceiling ($1) agrees with the rates it comes from"
"$PIPEBENCH" compare "$J" "$J" >/dev/null 2>&1; is "$?" 0 "compare reads a report against itself"
"$PIPEBENCH" report --quick --parts latency >"$TEST_TMP/text" 2>/dev/null
grep -Eq '^latency +anon same CPUs [0-9]+,[0-9]+ +p50 [0-9.]+ us, p99 [0-9.]+ us' "$TEST_TMP/text"
ok $? "text report: a latency line, same CPU, p50 and p99"
# The conformance line's counts cover every check the part ran (as many as
# the full document above holds), and most pass here; no check erred, so
# the line ends at "info" (" (harness errors)" follows only an error).
"$PIPEBENCH" report --quick --parts conformance >"$TEST_TMP/text" 2>/dev/null
line=$(grep '^conformance ' "$TEST_TMP/text")
printf '%s\n' "$line" | awk -v n="$("$JSONQ" "$J" '.parts.conformance.checks#')" '
	NF == 12 && $3 == "passed," && $5 == "failed," && $7 == "skipped," && $10 == "deviations," &&
	$12 == "info" {
		exit !(n > 0 && $2 + $4 + $6 + $8 + $11 == n && $2 > n / 2) }
	{ exit 1 }'
ok $? "text report: conformance's counts add up to its checks, no harness errors ($line)"
# Under a broken kernel (tests/faultinj.so's eof-midway) each failed check
# has its line, as many as the count says.
if fault_layer; then
	faulty eof-midway "$PIPEBENCH" report --quick --parts conformance >"$TEST_TMP/text" 2>/dev/null
	f=$(sed -n 's/^conformance .* passed, \([0-9]*\) failed, .*/\1/p' "$TEST_TMP/text")
	l=$(grep -Ec '^ +fail [A-Z]+-[0-9]+: ' "$TEST_TMP/text")
	[ "${f:-0}" -gt 0 ] && [ "$l" = "$f" ]
	ok $? "text report under a broken kernel: a line for each of the $f failed checks ($l)"
else
	skip 1 "no fault layer"
fi
tmp_empty; ok $? "nothing left behind"

run "$PIPEBENCH" report --quick --parts timestamps,throughput_64k
is "$rc" 0 "text report exits 0"
printf '%s\n' "$out" | grep -q '^timestamps  *anonymous pipes: ' && printf '%s\n' "$out" | grep -q '^copy ceiling  *memcpy '
ok $? "text has the timestamps verdicts and the copy ceiling"
printf '%s\n' "$out" | grep -q '^conformance'; [ $? -ne 0 ]; ok $? "--parts leaves the others out"
# The text's share of the ceiling is the two rates beside it, divided
# (each printed to 0.01 GB/s, so within what that rounding allows).
printf '%s\n' "$out" | awk '
	/^copy ceiling +memcpy / { c = $NF; sub(/GB\/s$/, "", c); if (c == "") c = $(NF - 1) }
	/^ +anonymous pipe at 64 KiB: / { p = $6; q = $9; sub(/%$/, "", q) }
	END { if (!(c > 0 && p > 0 && q != "")) exit 1
		lo = 100 * (p - 0.005) / (c + 0.005) - 0.5; hi = 100 * (p + 0.005) / (c - 0.005) + 0.5
		exit !(q >= lo && q <= hi) }'
ok $? "text: the 64 KiB pipe's share of the copy ceiling is its rate over the ceiling's"

# A part that cannot run: with 6 descriptors timestamps cannot make its
# FIFOs, while the anonymous-pipe throughput part still fits.
run sh -c 'exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n 6 && exec "$0" report --quick --parts timestamps,throughput_64k' "$PIPEBENCH"
is "$rc" 3 "a part that fails makes the report exit 3"
printf '%s\n' "$out" | grep -Eq '^timestamps +not measured: .+' && printf '%s\n' "$out" | grep -Eq '^throughput +anon +64 KiB'
ok $? "the failed part says 'not measured' and the others are still there"
printf '%s\n' "$out" | grep -Eq '^timestamps +not measured: pipebench timestamps: .*Too many open files$'
ok $? "... and why, in the part's own words"

# A part whose standard error is longer than the error field holds (five
# descriptors: conformance's harness fails in many checks, one line each):
# its lines joined with "; ", cut at 511 bytes, and nothing else harmed.
run sh -c 'exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n 5 && exec "$0" report --quick --parts conformance --format json --output "$1"' "$PIPEBENCH" "$TEST_TMP/long.json"
is "$rc" 3 "a part's long standard error: exit 3 (no crash)"
e=$("$JSONQ" "$TEST_TMP/long.json" .part_runs.conformance.error)
is "${#e}" 511 "... its error is the joined lines cut at 511 bytes"
case $e in "pipebench conformance: "*"; pipebench conformance: "*) r=0 ;; *) r=1 ;; esac
ok $r "... line after line, each whole, joined with '; '"
is "$("$JSONQ" "$TEST_TMP/long.json" .part_runs.conformance.exit_status)" 3 "... and its exit status kept"

# ---- TMPDIR is checked before anything runs: one line naming it, exit 2,
# nothing made.  A mode-555 directory is no obstacle to root, so root gets a
# read-only tmpfs mounted there instead (unmounted at exit).
: >"$TEST_TMP/afile"
mkdir "$TEST_TMP/ro" && chmod 555 "$TEST_TMP/ro"
if [ -w "$TEST_TMP/ro" ] && mount -t tmpfs -o ro,size=64k pb-test-ro "$TEST_TMP/ro" 2>/dev/null; then
	trap 'umount "$TEST_TMP/ro" 2>/dev/null || umount -l "$TEST_TMP/ro"; rm -rf "$TEST_TMP"' EXIT
fi
for bad in "$TEST_TMP/missing" "$TEST_TMP/afile" "$TEST_TMP/ro"; do
	if [ "$bad" = "$TEST_TMP/ro" ] && [ -w "$bad" ] && ! touch "$bad/.probe" 2>/dev/null; then
		: # root on a read-only mount: -w says yes, writing says no
	elif [ "$bad" = "$TEST_TMP/ro" ] && [ -w "$bad" ]; then
		rm -f "$bad/.probe"
		for i in 1 2 3; do ok 0 "TMPDIR read-only # SKIP writable anyway (root, no mount)"; done
		continue
	fi
	before=$(ls -A "$TEST_TMP" "$bad" 2>/dev/null)
	run env TMPDIR="$bad" "$PIPEBENCH" report --quick --parts timestamps
	is "$rc" 2 "TMPDIR=${bad##*/}: exit 2"
	is "$(nlines "$err")" 1 "TMPDIR=${bad##*/}: one line on stderr"
	printf '%s\n' "$err" | grep -q "^pipebench report: TMPDIR: '$bad' is not a writable directory: " &&
		[ -z "$out" ] && [ "$(ls -A "$TEST_TMP" "$bad" 2>/dev/null)" = "$before" ]
	ok $? "TMPDIR=${bad##*/}: names the directory; nothing on stdout, nothing made"
done

# ---- --dir reaches the parts whole, spaces included
mkdir "$TEST_TMP/a b"
"$PIPEBENCH" report --quick --parts timestamps --dir "$TEST_TMP/a b" --format json \
	--output "$J" 2>/dev/null; rc=$?
is "$rc $("$JSONQ" "$J" .parts.timestamps.params.dir)" "0 $TEST_TMP/a b" "--dir with a space: the part gets it whole"

# ---- a part's own error passes through (text and JSON).  A --dir of 4078
# characters: report accepts it (the parts' private directories fit in
# PATH_MAX) but no part can make a FIFO in it (the FIFO's path cannot).
D="$TEST_TMP/deep"
while [ $((${#D} + 201)) -lt 4078 ]; do D="$D/$(printf '%0200d' 0)"; done
D="$D/$(printf '%0*d' $((4078 - ${#D} - 1)) 0)"
mkdir -p "$D"; is "${#D}" 4078 "a 4078-character directory"
"$PIPEBENCH" report --quick --parts timestamps,throughput_64k --dir "$D" --format json \
	--output "$J" 2>"$TEST_TMP/err"; rc=$?
is "$rc" 3 "--dir no part can use: exit 3"
"$JSONQ" "$J" .part_runs.timestamps.error | grep -q '^pipebench timestamps: .*File name too long$'
ok $? "JSON: part_runs.timestamps.error is the part's own message"
"$JSONQ" "$J" '.errors#' .errors[0] | tr '\n' ' ' | grep -q '^1 timestamps: pipebench timestamps: .*File name too long $'
ok $? "JSON: and it is the report's one error, named by part"
is "$("$JSONQ" "$J" .part_runs.throughput_64k.exit_status .part_runs.throughput_64k.error | tr '\n' ' ')" \
	"0 null " "JSON: the part that needs no FIFO is measured"
grep -q '^pipebench report: warning: timestamps: pipebench timestamps: .*File name too long$' "$TEST_TMP/err"
ok $? "stderr: the warning carries the part's message"
run "$PIPEBENCH" report --quick --parts timestamps --dir "$D"
printf '%s\n' "$out" | grep -Eq '^timestamps +not measured: pipebench timestamps: .*File name too long$'
ok $? "text: not measured, and why"
tmp_empty; ok $? "nothing left behind"

# ---- interrupted.  Not timing-dependent: wait until the conformance part
# has started its second check (so timestamps and one check are done), stop
# that check with SIGSTOP so nothing can finish, then send SIGTERM.
# stop_check, kids: tests/tap.sh.
rm -f "$J"
"$PIPEBENCH" report --quick --parts timestamps,conformance,throughput_64k --format json \
	--output "$J" 2>"$TEST_TMP/err" &
pid=$!
stopped=$(stop_check kids "$pid")
kill -s TERM "$pid"
wait "$pid"; rc=$?
kill -0 "$stopped" 2>/dev/null && kill -KILL "$stopped"
[ -n "$stopped" ] && [ "$rc" = 143 ]; ok $? "SIGTERM during the conformance part: exit 143 (got $rc)"
is "$("$JSONQ" "$J" .exit_status .summary.interrupted | tr '\n' ' ')" "143 SIGTERM " \
	"the report is written: exit_status 143, summary.interrupted"
is "$("$JSONQ" "$J" .parts.timestamps.command .part_runs.timestamps.exit_status .part_runs.timestamps.interrupted | tr '\n' ' ')" \
	"timestamps 0 false " "the finished part is kept"
is "$("$JSONQ" "$J" .part_runs.conformance.error .part_runs.conformance.interrupted | tr '\n' ' ')" \
	"interrupted by SIGTERM true " "the running part is marked interrupted"
n=$("$JSONQ" "$J" '.parts.conformance.checks#')
i=0; paths=
while [ "$i" -lt "${n:-0}" ]; do paths="$paths .parts.conformance.checks[$i].detail"; i=$((i + 1)); done
# shellcheck disable=SC2086
"$JSONQ" "$J" $paths >"$TEST_TMP/details"
[ "${n:-0}" -ge 2 ] && [ "$(grep -c 'interrupted by SIGTERM' "$TEST_TMP/details")" = 1 ] &&
	tail -n 1 "$TEST_TMP/details" | grep -q '^interrupted by SIGTERM$'
ok $? "its own document keeps the checks it finished; exactly one interrupted"
is "$("$JSONQ" "$J" '.not_run#' '.not_run[0]' | tr '\n' ' ')" "1 throughput_64k " \
	"the part not run is listed apart"
"$JSONQ" "$J" '.part_runs.throughput_64k' >/dev/null 2>&1; [ $? -eq 2 ]
ok $? "... and not as a result"
kill -0 "$stopped" 2>/dev/null; [ $? -ne 0 ]; ok $? "the stopped check process is gone"
tmp_empty; ok $? "nothing left behind"

# ---- interrupted, text: the parts not run are named on the "not run" line;
# with none left, the line names the signal and the part it stopped.
# interrupt_text PARTS: the report of PARTS, stopped at conformance's
# second check, then SIGTERM; its text in $TEST_TMP/int.txt.
interrupt_text() {
	"$PIPEBENCH" report --quick --parts "$1" --output "$TEST_TMP/int.txt" 2>/dev/null &
	pid=$!
	stopped=$(stop_check kids "$pid")
	kill -s TERM "$pid"
	wait "$pid"; rc=$?
	kill -0 "$stopped" 2>/dev/null && kill -KILL "$stopped"
}
interrupt_text timestamps,conformance,throughput_64k
grep -Eq '^not run +throughput_64k \(interrupted by SIGTERM\)$' "$TEST_TMP/int.txt"; st=$?
ok $st "text: 'not run' names the part not run and the signal (exit $rc)"
[ $st -eq 0 ] || diag "$(grep -E '^(not run|interrupted)' "$TEST_TMP/int.txt")"
interrupt_text timestamps,conformance
grep -Eq '^interrupted +by SIGTERM during conformance$' "$TEST_TMP/int.txt" &&
	! grep -q '^not run' "$TEST_TMP/int.txt"
ok $? "text: every part started: no 'not run' line, the signal and the part it stopped"
# Stopped in latency, after the 64 KiB throughput part: the copy ceiling
# that goes with it was not measured, and the line says so.
"$PIPEBENCH" report --quick --parts throughput_64k,latency --output "$TEST_TMP/int.txt" 2>/dev/null &
pid=$!
# Each part runs in a child of its own, one after the other: the second
# child seen is latency's, stopped (SIGSTOP) so that it cannot finish first.
i=0 seen= found=
while [ $i -lt 2000 ] && [ -z "$found" ] && kill -0 "$pid" 2>/dev/null; do
	for k in $(kids "$pid"); do
		case " $seen " in *" $k "*) ;; *) seen="$seen $k" ;; esac
		[ "$(echo $seen | wc -w)" -ge 2 ] && kill -STOP "$k" 2>/dev/null && found=$k && break
	done
	i=$((i + 1))
done
kill -s TERM "$pid"
wait "$pid"; rc=$?
[ -z "$found" ] || kill -KILL "$found" 2>/dev/null
grep -Eq '^not run +copy ceiling \(interrupted by SIGTERM\)$' "$TEST_TMP/int.txt"; st=$?
[ -n "$found" ] && [ $st -eq 0 ]
ok $? "text: stopped in latency, after throughput_64k: the copy ceiling not run (exit $rc)"
[ $st -eq 0 ] || diag "$(grep -E '^(not run|interrupted)' "$TEST_TMP/int.txt")"
# The header's limits are the process's own, soft and hard.
sh -c 'ulimit -Sn 900 && ulimit -Hn 1000 && exec "$0" report --quick --parts timestamps' "$PIPEBENCH" \
	>"$TEST_TMP/lim.txt" 2>/dev/null
grep -Eq '^user limits +RLIMIT_NOFILE 900 \(hard 1000\); RLIMIT_NPROC [0-9]+ \(hard ([0-9]+|unlimited)\)$' "$TEST_TMP/lim.txt"
ok $? "the header's descriptor limit is the process's, soft and hard"
# The header's capabilities are the process's: each "yes" exactly when the
# run object lists it, and "no" once it is dropped from the bounding set.
held=$("$PIPEBENCH" timestamps --format json | "$JSONQ" - .run.user.capabilities)
want=
for c in CAP_SETUID CAP_SYS_ADMIN CAP_SYS_RESOURCE; do
	case $held in *"\"$c\""*) w=yes ;; *) w=no ;; esac
	want="$want${want:+, }$c $w"
done
is "$("$PIPEBENCH" report --quick --parts timestamps 2>/dev/null | sed -n 's/^capabilities *//p')" \
	"$want (uid $(id -u))" "the header's capabilities are the ones held"
if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" = 0 ] &&
   setpriv --bounding-set=-sys_time true 2>/dev/null; then
	for c in setuid sys_admin sys_resource; do
		C=CAP_$(echo "$c" | tr a-z A-Z)
		setpriv --bounding-set=-$c "$PIPEBENCH" report --quick --parts timestamps 2>/dev/null |
			grep -q "^capabilities .*$C no"
		ok $? "without $C the header says no"
	done
else
	skip 3 "setpriv cannot drop capabilities here"
fi

# --precision: the measuring parts get it, with shares of the budget that
# add up to it at most; the summary counts the rows that reached it.
"$PIPEBENCH" report --quick --parts timestamps,messaging,latency --precision 50 \
	--precision-budget 20s --format json --output "$TEST_TMP/prec.json" 2>/dev/null
is "$?" 0 "report --precision 50: exit 0"
is "$("$JSONQ" "$TEST_TMP/prec.json" .params.precision_pct .parts.messaging.params.precision_pct \
	.parts.latency.params.precision_pct .part_runs.timestamps.precision_budget_ns | tr '\n' ' ')" \
	"50.0 50.0 50.0 0 " "the measuring parts get --precision, timestamps does not"
got=$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my ($b, $rows, $ok) = (0, 0, 0);
	for my $p (qw(messaging latency)) {
		$b += $d->{part_runs}{$p}{precision_budget_ns};
		die "$p: its budget differs from its share\n"
			if $d->{parts}{$p}{params}{precision_budget_ns} != $d->{part_runs}{$p}{precision_budget_ns};
		for my $r (@{ $d->{parts}{$p}{results} }) {
			next unless $r->{precision}; $rows++; $ok++ if $r->{precision}{reached} }
	}
	my $s = $d->{summary}{precision};
	print $b <= 20e9 && $b >= 19e9 ? "shares" : "shares $b", " ",
		$s->{rows} == $rows && $s->{reached} == $ok ? "counted" : "counted $s->{rows}/$s->{reached} want $rows/$ok"' \
	<"$TEST_TMP/prec.json" 2>&1)
is "$got" "shares counted" "the parts' budgets share 20 s; the summary counts their rows"
"$PIPEBENCH" report --quick --parts messaging --precision 50 --precision-budget 5s \
	>"$TEST_TMP/text" 2>/dev/null
grep -Eq '^precision +50% reached by (all [0-9]+ measured rows|[0-9]+ of [0-9]+ measured rows in 5 s)' \
	"$TEST_TMP/text"
ok $? "report --precision: its text says whether the rows reached it"
"$PIPEBENCH" report --precision-budget 5s >/dev/null 2>"$TEST_TMP/err"
is "$?|$(wc -l <"$TEST_TMP/err" | tr -d ' ')" "2|1" "report --precision-budget alone: exit 2, one line"
tmp_empty; ok $? "nothing left behind"
# The io_uring line names what each kind did, anonymous pipe then FIFO (or
# why io_uring is unavailable here)
"$PIPEBENCH" report --quick --parts timestamps 2>/dev/null | grep '^io_uring ' >"$TEST_TMP/uring"
# (both probed: a path each, not "not probed")
grep -Eq '^io_uring +(unavailable: .+|anon: (inline|io-wq), .*; fifo: (inline|io-wq), RWF_NOWAIT .* \(inline: )' "$TEST_TMP/uring"
ok $? "text: io_uring's line, anon's words then the FIFO's ($(cut -c1-60 "$TEST_TMP/uring"))"
done_testing
