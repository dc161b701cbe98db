#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Stability verdicts on real runs: every measured row of throughput,
# latency, messaging and o_noatime has one (JSON, CSV, text); the verdict
# agrees with the row's own figures (noisy exactly when its CV or spread
# passes the limit, on a calm machine); a run beside two CPU hogs is
# disturbed, never called stable, and its exit status does not change;
# report ends with whether its figures are fit to compare.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
D=$TEST_TMP
P=$PIPEBENCH
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
perl -MJSON::PP -e 1 2>/dev/null || skip_all "perl's JSON::PP is not installed (Debian package perl)"

# verdicts FILE: "kind verdict" of each measured row, and an error line for
# a row whose verdict or reason is missing or does not follow its figures
# (noisy listed with its CV and spread exactly when one passes its limit,
# unless a disturbance comes first).
verdicts() {
	perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>);
		for my $r (@{ $d->{results} }) {
			next if ($r->{status} // "ok") ne "ok";
			my ($v, $why) = ($r->{stability}, $r->{stability_reason});
			if (!defined $v || !defined $why) { print "no verdict\n"; next; }
			print(($r->{kind} // $r->{role} // "?"), " $v\n");
			my $s = $r->{summary} ? ($r->{summary}{tt_ns} // $r->{summary}{elapsed_ns}) : $r->{tt_ns};
			next unless $s && $s->{n} && $s->{n} >= 2;
			my $noisy = 100 * $s->{rsd} > 5 || 100 * $s->{spread} > 20;
			# the figures are named when they make it noisy, or when stable
			my $said = $why =~ /CV [0-9.]+%, spread [0-9.]+% over $s->{n} repetitions/ ? 1 : 0;
			my $due = ($noisy || $v eq "stable") ? 1 : 0;
			print "$v row names CV and spread: $said, expected $due\n" if $said != $due;
			print "noisy row with CV $s->{rsd} spread $s->{spread}\n"
				if $v eq "noisy" && !$noisy;
			print "stable row with CV $s->{rsd} spread $s->{spread}\n"
				if $v eq "stable" && $noisy;
		}' <"$1"
}
words_ok() { ! grep -qv -e ' stable$' -e ' noisy$' -e ' bimodal$' -e ' disturbed$' "$1"; }

"$P" throughput --kind all --loops 200 --size 4096 --repeat 3 --format json -o "$D/tp.json" 2>/dev/null
verdicts "$D/tp.json" >"$D/v"
is "$(wc -l <"$D/v" | tr -d ' ')" 3 "throughput: a verdict for each of the 3 rows"
ok "$(words_ok "$D/v"; echo $?)" "throughput: each verdict one of the four words, following its figures"
"$P" throughput --kind anon --loops 200 --size 4096 --repeat 3 --format csv -o "$D/tp.csv" 2>/dev/null
is "$(head -n 1 "$D/tp.csv" | tr ',' '\n' | grep -c '^stability')" 2 "throughput CSV: stability and stability_reason columns"
is "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "stability") s = i; next }
	s && $s ~ /^(stable|noisy|bimodal|disturbed)$/' "$D/tp.csv" | wc -l | tr -d ' ')" 3 \
	"throughput CSV: each repetition's row carries its result's verdict"
"$P" throughput --kind anon --loops 200 --size 4096 --repeat 3 >"$D/tp.txt" 2>/dev/null
ok "$(grep -Eq '^stability   (the row is stable|anon 4 KiB: (noisy|bimodal|disturbed): )' "$D/tp.txt"; echo $?)" \
	"throughput text: a stability line"

"$P" latency --kind anon --loops 2000 --repeat 3 --format json -o "$D/lat.json" 2>/dev/null
verdicts "$D/lat.json" >"$D/v"
ok "$( [ -s "$D/v" ] && words_ok "$D/v"; echo $?)" "latency: each measured row has a verdict"
"$P" messaging --loops 20 --repeat 3 --format json -o "$D/msg.json" 2>/dev/null
verdicts "$D/msg.json" >"$D/v"
ok "$( [ "$(wc -l <"$D/v")" -eq 1 ] && words_ok "$D/v"; echo $?)" "messaging: its row has a verdict"
"$P" o_noatime --loops 100 --repeat 3 --dir "$D" --format json -o "$D/on.json" 2>/dev/null
verdicts "$D/on.json" >"$D/v"
ok "$( [ "$(wc -l <"$D/v")" -eq 3 ] && words_ok "$D/v"; echo $?)" "o_noatime: A, B and the ratio have verdicts"

# Beside two CPU hogs (more than the CPUs this runs on, for a second and a
# half of measuring): disturbed, and the figures still reported (exit 0).
hogs=
n=$(nproc 2>/dev/null || echo 2)
i=0
while [ "$i" -lt "$n" ]; do sh -c 'while :; do :; done' & hogs="$hogs $!"; i=$((i + 1)); done
"$P" throughput --kind anon --duration 1500ms --repeat 3 --size 4096 --format json -o "$D/hog.json" 2>/dev/null
rc=$?
"$P" throughput --kind anon --duration 1500ms --repeat 3 --size 4096 >"$D/hog.txt" 2>/dev/null
"$P" throughput --kind anon --duration 1500ms --repeat 3 --size 4096 --format json -o "$D/hog2.json" 2>/dev/null
kill $hogs 2>/dev/null
wait 2>/dev/null
is "$rc" 0 "beside CPU hogs: exit 0 (a verdict, not a failure)"
is "$(verdicts "$D/hog.json")" "anon disturbed" "beside CPU hogs: disturbed"
ok "$(grep -q 'other work used [0-9]*% of its CPUs' "$D/hog.json"; echo $?)" \
	"beside CPU hogs: the reason says how much of the CPUs other work used"
ok "$(grep -q '^stability   anon 4 KiB: disturbed: other work used' "$D/hog.txt"; echo $?)" \
	"beside CPU hogs: the text says so"
# Two such runs of one kernel, compared as a CI gate would (--force: a
# --duration budget calibrates its own loops): no regression (their rows
# are inconclusive), whatever the noise made of their figures.
"$P" compare --force --threshold 1 "$D/hog.json" "$D/hog2.json" >"$D/cmp.txt" 2>&1
is "$?" 0 "two runs beside CPU hogs compared with --threshold 1: exit 0"
ok "$(grep -q '^u inconclusive' "$D/cmp.txt"; echo $?)" "... their rows inconclusive"

# A real slowdown (tests/delaywrite.so: every pipe write() first spins as
# long as a write and its read took, so the loop takes about twice as long:
# a fifth was within what a busy CI machine's noise between the two runs
# can hide), five repetitions a side: on
# tight documents (both stable) a regression (exit 1, '!'); where this
# machine made either side noisy or disturbed, inconclusive (exit 0, 'u'),
# never a regression the noise could explain.
DW=$TESTS_BUILDDIR/delaywrite.so
# A sanitizer build's runtime must come first (as in tests/faults.sh).
asan=$(ldd "$P" 2>/dev/null | awk '/libasan\.so/ { print $3; exit }')
[ -z "$asan" ] || DW="$asan:$DW"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS
"$P" throughput --kind anon --size 4096 --loops 3000 --repeat 5 --format json -o "$D/fast.json" 2>/dev/null
tt=$("$JSONQ" "$D/fast.json" .results[0].summary.tt_ns.median)
wc=$("$JSONQ" "$D/fast.json" .results[0].repetitions[0].write_calls)
delay=$(awk -v t="$tt" -v w="$wc" 'BEGIN { printf "%d", t / w + 1 }')
PB_DELAY_NS=$delay LD_PRELOAD=$DW "$P" throughput --kind anon --size 4096 --loops 3000 --repeat 5 \
	--format json -o "$D/slow.json" 2>/dev/null
"$P" compare --format json -o "$D/cmp.json" "$D/fast.json" "$D/slow.json" 2>/dev/null
rc=$?
tight=$("$JSONQ" "$D/fast.json" .results[0].stability)/$("$JSONQ" "$D/slow.json" .results[0].stability)
m=$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
	for (@{ $d->{results} }) { next unless $_->{metric} eq "ns_per_syscall";
		printf "%.0f %s %s %s", $_->{change_pct}, $_->{decided_by},
			$_->{regression} ? "regression" : "-", $_->{inconclusive} ? "inconclusive" : "-" }' <"$D/cmp.json")
diag "delay $delay ns a write; $tight; ns_per_syscall: $m; exit $rc"
case $m in
[1-9][0-9]" "*|[1-9][0-9][0-9]*" "*) ok 0 "the delayed write() made ns_per_syscall at least 10% slower" ;;
*) ok 1 "the delayed write() made ns_per_syscall at least 10% slower" ;;
esac
if [ "$tight" = stable/stable ]; then
	is "$rc ${m#* }" "1 mann_whitney regression -" "tight documents, a real slowdown: exit 1, a regression by ranks"
else
	is "$rc ${m#* }" "0 mann_whitney - inconclusive" "noisy documents ($tight), a real slowdown: exit 0, inconclusive"
fi

"$P" report --quick --parts throughput_64k --dir "$D" --format json -o "$D/rep.json" 2>/dev/null
is "$("$JSONQ" "$D/rep.json" .summary.stability.rows)" "$("$JSONQ" "$D/rep.json" '.parts.throughput_64k.results#')" \
	"report: the part's rows counted"
f=$("$JSONQ" "$D/rep.json" .summary.stability.fit_to_compare .summary.stability.not_stable | tr '\n' ' ')
case $f in
"true 0 "|"false "[1-9]" ") ok 0 "report: fit to compare exactly when no row is unstable ($f)" ;;
*) ok 1 "report: fit to compare exactly when no row is unstable ($f)" ;;
esac
"$P" report --quick --parts throughput_64k --dir "$D" >"$D/rep.txt" 2>/dev/null
ok "$(grep -Eq '^figures +(fit to compare: all [0-9]+ measured rows stable|NOT fit to compare: [0-9]+ of [0-9]+ measured rows not stable \(throughput_64k: )' "$D/rep.txt"; echo $?)" \
	"report text: the figures line"

# Parties pinned to one CPU and moved to another mid-run (taskset on both
# threads) migrated: the row is disturbed, and says so.
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null 2>&1; then
	"$P" latency --threads --cpu 0 --duration 1500ms -r 1 -w 0 -f json -o "$D/mig.json" -q &
	pid=$!
	sleep 0.7
	taskset -a -p -c 1 "$pid" >/dev/null 2>&1
	wait "$pid"
	is "$?|$("$JSONQ" "$D/mig.json" .results[0].stability)" "0|disturbed" \
		"latency pinned to CPU 0, moved to CPU 1 mid-run: disturbed, exit 0"
	"$JSONQ" "$D/mig.json" .results[0].stability_reason |
		grep -Eq '(^|; )[0-9]+ migrations? of pinned parties \(their affinity changed under the run\?\)'
	ok $? "... the reason counts the pinned parties' migrations"
	"$P" latency --threads --cpu 0 -n 20000 -r 1 -w 0 -f json -o "$D/nomig.json" -q
	"$JSONQ" "$D/nomig.json" .results[0].stability_reason | grep -q 'migration'
	ok "$((! $?))" "left where they were pinned: no migration named"
else
	skip 3 "one CPU, or no taskset: cannot move pinned parties"
fi
done_testing
