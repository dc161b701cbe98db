#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench latency: options, usage errors, JSON and CSV shape, relations
# the numbers must obey (never their size: no timed tests), placements this
# machine cannot provide skipped with a reason, a dying party, signals and
# --timeout leaving nothing behind.  TAP.
set -u
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap_late.sh"
mkdir "$T/tmp"
TMPDIR=$T/tmp
export TMPDIR
empty_tmp() { [ -z "$(ls -A "$TMPDIR")" ]; }

# --- text
"$PB" latency -n 200 -r 2 -w 0 >"$T/out" 2>"$T/err"
is "small run exits 0 (with --timeout too)" "$("$PB" latency -n 50 -r 1 -w 0 -t 5s -f json |
	"$JSONQ" - .watchdog_ns)" 5000000000
is "small run exits 0" "$?" 0
grep -q '^clock       CLOCK_MONOTONIC, [0-9]* ns per read' "$T/out"; ok $? "text states the clock's read cost"
grep -Eq '^counters    (perf_event_open|getrusage)' "$T/out"; ok $? "text says where the counters come from"
grep -q '^anon  *1 B any  *block any ' "$T/out"; ok $? "one line for anon, 1 B, any, block"
# The row's times under their own headings (the first "p50"; "1 B" and
# "ran A/B" are two words each): min <= p50 <= p90 <= p99 <= p99.9 <=
# p99.99 <= max, each a number, the mean within [min, max].
awk '$1 == "kind" { for (i = 1; i <= NF; i++) if (!($i in col)) col[$i] = i; next }
	$1 == "anon" && col["max"] { n = split("min p50 p90 p99 p99.9 p99.99 max", h, " ")
		for (i = 1; i <= n; i++) { v = $(col[h[i]]); if (v !~ /^[0-9]+\.[0-9][0-9]$/) bad = 1
			if (i > 1 && v + 0 < prev) bad = 1; prev = v + 0 }
		mean = $(col["mean"]); if (mean + 0 < $(col["min"]) || mean + 0 > $(col["max"])) bad = 1
		seen = 1 }
	END { exit bad || !seen }' "$T/out"
ok $? "text: min, the percentiles and max in order under their headings, the mean between"
[ ! -s "$T/err" ]; ok $? "nothing on stderr"

# --- JSON: every repetition, relations between the figures
"$PB" latency -k all -n 300 -r 2 -w 1 --placement same -f json -o "$T/j" 2>"$T/err"
is "json run exits 0" "$?" 0
# without --timeout the default watchdog is armed: 10 s + 10 ms per round
# trip of every repetition (3 kinds x (2 + 1) runs x 300 round trips)
is "default watchdog armed and recorded" "$(q "$T/j" .watchdog_ns)" \
	"$((10000000000 + 3 * 3 * 300 * 10000000))"
# ... and an estimate past what 64 bits hold (10^9 round trips x 1000
# repetitions x 10 ms) is capped at 2^63-1 ns, not wrapped round (a run
# that ends at once: party B's first read finds end of file)
if fault_layer; then
	faulty early-eof "$PB" latency -n 1000000000 -r 1000 -w 0 -f json -o "$T/wd" 2>/dev/null
	is "a watchdog estimate past 64 bits: capped at 2^63-1 ns" "$?:$(q "$T/wd" .watchdog_ns)" \
		"3:9223372036854775807"
	# 700 repetitions: 7 x 10^18 ns and 10 s, under the cap, as estimated
	faulty early-eof "$PB" latency -n 1000000000 -r 700 -w 0 -f json -o "$T/wd" 2>/dev/null
	is "a watchdog estimate just under the cap: as estimated" "$?:$(q "$T/wd" .watchdog_ns)" \
		"3:7000000010000000000"
else
	skip "a watchdog estimate past 64 bits" "no fault layer"
	skip "a watchdog estimate just under the cap" "no fault layer"
fi
"$JSONQ" "$T/j" >/dev/null 2>&1; ok $? "json is one valid document"
is "command" "$(q "$T/j" .command)" latency
is "three results (anon, fifo, socketpair)" "$(q "$T/j" '.results#')" 3
is "result kinds in order" "$(q "$T/j" '.results[0].kind') $(q "$T/j" '.results[1].kind') $(q "$T/j" '.results[2].kind')" "anon fifo socketpair"
# the usable CPUs: as many as nproc says this process may use (online and
# in its affinity mask), where sysfs lists them
if [ -r /sys/devices/system/cpu/online ] && command -v nproc >/dev/null; then
	is "usable_cpus: as many CPUs as nproc counts" "$(q "$T/j" .usable_cpus | awk -F, '{
		for (i = 1; i <= NF; i++) { split($i, r, "-"); n += (r[2] == "" ? 1 : r[2] - r[1] + 1) }
		print n }')" "$(nproc)"
else
	skip "usable_cpus: the CPUs this process may use" "no /sys/devices/system/cpu here"
fi
src=$(q "$T/j" .counters.source)
case $src in perf_event | rusage+sched) ok 0 "counters.source names the source" ;; *) ok 1 "counters.source (got '$src')" ;; esac
q "$T/j" .clock.read_ns | grep -Eq '^[0-9]+$'; ok $? "clock.read_ns is an integer"
cpu=$(q "$T/j" '.results[0].asked_cpus')
case $cpu in [0-9]*,[0-9]*) ok 0 "same: an explicit pair asked" ;; *) ok 1 "same: asked_cpus '$cpu'" ;; esac
is "same: both parties on one CPU" "${cpu%,*}" "${cpu#*,}"
is "same: party A ran where asked" "$(q "$T/j" '.results[0].repetitions[0].cpus_a')" "${cpu%,*}"
is "same: party B ran where asked" "$(q "$T/j" '.results[0].repetitions[0].cpus_b')" "${cpu#*,}"
for r in 0 1 2; do
	is "result $r: repetitions = --repeat" "$(q "$T/j" ".results[$r].repetitions#")" 2
	for i in 0 1; do
		R=".results[$r].repetitions[$i]"
		is "result $r rep $i: round trips = --loops" "$(q "$T/j" "$R.round_trips")" 300
		set -- $(for k in rtt_min_ns rtt_p50_ns rtt_p90_ns rtt_p99_ns rtt_p99_9_ns rtt_p99_99_ns rtt_max_ns; do q "$T/j" "$R.$k"; done)
		[ $# -eq 7 ] && [ "$1" -le "$2" ] && [ "$2" -le "$3" ] && [ "$3" -le "$4" ] &&
			[ "$4" -le "$5" ] && [ "$5" -le "$6" ] && [ "$6" -le "$7" ]
		ok $? "result $r rep $i: min <= p50 <= p90 <= p99 <= p99.9 <= p99.99 <= max ($*)"
		sum=$(q "$T/j" "$R.histogram" | tr -d '[] \n' | awk -F, '{ for (i = 3; i <= NF; i += 3) s += $i } END { print s + 0 }')
		is "result $r rep $i: histogram counts add up to the round trips" "$sum" 300
	done
	is "result $r: summary counts every repetition" "$(q "$T/j" ".results[$r].summary.round_trips")" 600
done
is "fifo/anon ratio labelled" "$(q "$T/j" '.results[1].ratio_label')" fifo/anon
q "$T/j" '.results[0].repetitions[0].voluntary_ctxsw_per_round_trip' | grep -Eq '^[0-9.e+-]+$'
ok $? "voluntary context switches per round trip are counted"
empty_tmp; ok $? "nothing left in TMPDIR after FIFOs"

# --- the summary's medians take every repetition, past 64 too
"$PB" latency -n 20 -r 65 -w 0 -f json -o "$T/j65" 2>"$T/err"
is "65 repetitions: exits 0" "$?" 0
med=$(i=0; while [ $i -lt 65 ]; do q "$T/j65" ".results[0].repetitions[$i].round_trips_per_s"; i=$((i + 1)); done |
	sort -g | sed -n 33p)
is "65 repetitions: round_trips_per_s is the median of all 65" \
	"$(q "$T/j65" .results[0].summary.round_trips_per_s)" "$med"
"$PB" compare "$T/j" "$T/j" >"$T/cmp" 2>&1
is "compare reads latency documents (a run against itself: no regression)" "$?" 0
grep -q 'rtt_p99_ns' "$T/cmp"; ok $? "compare shows the percentiles"

# --- placements: every one measured or skipped with a reason
"$PB" latency -n 50 -r 1 -w 0 --placement all -f json -o "$T/p" 2>/dev/null
rc=$?
is "--placement all exits 0" "$rc" 0
is "six placements" "$(q "$T/p" '.results#')" 6
bad=0
for i in 0 1 2 3 4 5; do
	st=$(q "$T/p" ".results[$i].status")
	case $st in
	ok) [ "$(q "$T/p" ".results[$i].repetitions[0].round_trips")" = 50 ] || bad=1 ;;
	skip) [ -n "$(q "$T/p" ".results[$i].reason")" ] || bad=1 ;;
	*) bad=1 ;;
	esac
done
ok $bad "each placement measured, or skipped with a reason"
is "any and same always run" "$(q "$T/p" '.results[0].status') $(q "$T/p" '.results[1].status')" "ok ok"
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
if [ "$nodes" -lt 2 ]; then
	is "numa skipped on a machine with one node" "$(q "$T/p" '.results[5].status')" skip
	"$PB" latency -n 10 -r 1 -w 0 --placement numa >"$T/out" 2>"$T/err"
	is "only impossible placements: exit 4" "$?" 4
	[ "$(wc -l <"$T/err")" -eq 1 ] && grep -q 'NUMA' "$T/err"
	ok $? "exit 4 with one line giving the reason"
else
	skip "numa skipped" "this machine has $nodes NUMA nodes"
	skip "exit 4" "this machine has $nodes NUMA nodes"
	skip "exit 4 reason" "this machine has $nodes NUMA nodes"
fi

# --- options: threads, --cpu, --duration, --interval, waits, sizes
"$PB" latency -T -n 100 -r 1 -w 0 -f json -o "$T/t" 2>/dev/null
is "threads exits 0" "$?" 0
is "thread mode recorded" "$(q "$T/t" '.results[0].mode')" thread
"$PB" latency -c 0 -n 100 -r 1 -w 0 -f json -o "$T/c0" 2>/dev/null
is "--cpu 0 exits 0" "$?" 0
is "--cpu 0: both parties on CPU 0" "$(q "$T/c0" '.results[0].asked_cpus') $(q "$T/c0" '.results[0].repetitions[0].cpus_a') $(q "$T/c0" '.results[0].repetitions[0].cpus_b')" "0,0 0 0"
# Pinned before their counters start, the parties cannot migrate: a counter
# that did not move is 0, not unknown (null), whichever source counts.
for ctr in auto perf; do
	"$PB" latency -c 0 -n 100 -r 1 -w 0 --counters "$ctr" -f json -o "$T/c0$ctr" 2>/dev/null
	src=$(q "$T/c0$ctr" '.counters.source')
	case $src in
	*sched*|perf*)
		is "--cpu 0 --counters $ctr ($src): no migration is 0 per round trip, not unknown" \
			"$(q "$T/c0$ctr" '.results[0].repetitions[0].migrations_per_round_trip')" 0.0 ;;
	*) skip "--cpu 0 --counters $ctr: no migration is 0" "no migration counter here (${src:-refused})" ;;
	esac
done
"$PB" latency --duration 100ms --interval 20ms -r 1 -w 0 -f json -o "$T/d" 2>/dev/null
is "--duration with --interval exits 0" "$?" 0
rt=$(q "$T/d" '.results[0].repetitions[0].round_trips')
[ "${rt:-0}" -gt 0 ]; ok $? "--duration: some round trips ($rt)"
ni=$(q "$T/d" '.results[0].repetitions[0].intervals#')
[ "${ni:-0}" -ge 1 ] && [ "${ni:-0}" -le 6 ]; ok $? "--interval: 1 to 6 intervals in 100 ms ($ni)"
"$PB" latency -n 3000 --interval 1ms -r 1 -w 0 -f json -o "$T/iv" 2>/dev/null
is "--loops with --interval exits 0" "$?" 0
is "--interval: every round trip is in the repetition" "$(q "$T/iv" '.results[0].repetitions[0].round_trips')" 3000
sum=$(q "$T/iv" '.results[0].repetitions[0].histogram' | tr -d '[] \n' | awk -F, '{ for (i = 3; i <= NF; i += 3) s += $i } END { print s + 0 }')
is "--interval: the histogram holds every round trip" "$sum" 3000
# The text's intervals: a line per repetition, in order, each interval's
# end (s) after the one before and within the run, its p50 at most its p99,
# both within the row's min and max (us; the histogram's 1% error allowed)
"$PB" latency -n 3000 --interval 1ms -r 2 -w 0 >"$T/ivt" 2>/dev/null
is "--interval, text: exits 0" "$?" 0
is "--interval, text: $(grep -c '^  intervals of' "$T/ivt") interval lines, each judged" "$(awk '
	/^kind / { for (i = 1; i <= NF; i++) { if ($i == "min") cmin = i; if ($i == "max") cmax = i } }
	/^anon / && !row { row = 1; lo = $cmin; hi = $cmax }
	/^  intervals of repetition / {
		if ($4 != n + 1 ":" && $4 != n + 1) { print "repetition " $4 " after " n; exit }
		n++; prev = -1; k = 0
		for (i = 9; i + 1 <= NF; i += 2) {
			end = $i; sub(/:$/, "", end); split($(i + 1), q, "/"); k++
			if (end + 0 < prev || end + 0 > 10) print "rep " n " end " end " after " prev
			if (q[1] + 0 > q[2] + 0) print "rep " n " p50 " q[1] " > p99 " q[2]
			if (q[1] < lo * 0.99 || q[2] > hi * 1.01) print "rep " n " " q[1] "/" q[2] " outside " lo "-" hi
			prev = end + 0
		}
		if (!k) print "rep " n " has no interval"
	}
	END { print n " lines" }' "$T/ivt")" "2 lines"
"$PB" latency --wait all -s 1,4K -n 50 -r 1 -w 0 -f json -o "$T/w" 2>/dev/null
is "--wait all with two sizes exits 0" "$?" 0
is "sizes x waits results" "$(q "$T/w" '.results#')" 6
is "wait words in order" "$(q "$T/w" '.results[0].wait') $(q "$T/w" '.results[1].wait') $(q "$T/w" '.results[2].wait')" "block poll spin"
is "second size" "$(q "$T/w" '.results[3].size_bytes')" 4096
# Spinning on one CPU yields (sched_yield), and the document says so; on two
# CPUs, or waiting another way, it does not.
"$PB" latency --wait block,spin -c 0 -n 50 -r 1 -w 0 -f json -o "$T/sy" 2>/dev/null
is "--cpu 0 --wait block,spin exits 0" "$?" 0
is "one CPU: spin yields, block does not (spin_yield)" \
	"$(q "$T/sy" '.results[0].spin_yield') $(q "$T/sy" '.results[1].spin_yield')" "false true"
"$PB" latency --wait spin -c 0 -n 50 -r 1 -w 0 >"$T/syt" 2>/dev/null
grep -q '^spin on one CPU yields: .*sched_yield()' "$T/syt"; ok $? "text says the one-CPU spin yielded"
if [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] && taskset -c 0,1 true 2>/dev/null; then
	"$PB" latency --wait spin -c 0,1 -n 50 -r 1 -w 0 -f json -o "$T/sy2" 2>/dev/null
	is "two CPUs: spin does not yield" "$(q "$T/sy2" '.results[0].spin_yield')" false
	# what the parties call, as strace sees it: sched_yield on one CPU only
	if command -v strace >/dev/null 2>&1; then
		for c in 0,1 0; do
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq \
				-e trace=sched_yield -o "$T/yield.$c" "$PB" latency --wait spin -c "$c" \
				-n 200 -r 1 -w 0 -q >/dev/null 2>&1
		done
		is "strace: sched_yield calls on two CPUs, on one" \
			"$(grep -c sched_yield "$T/yield.0,1") $(grep -c sched_yield "$T/yield.0" | sed 's/^[1-9][0-9]*$/some/')" \
			"0 some"
	else
		skip "strace: sched_yield calls on two CPUs, on one" "strace not installed"
	fi
else
	skip "two CPUs: spin does not yield" "CPUs 0 and 1 are not both usable"
fi
if taskset -c 0 true 2>/dev/null; then
	taskset -c 0 "$PB" latency --wait spin -n 50 -r 1 -w 0 -f json -o "$T/sy1" 2>/dev/null
	is "unpinned in a one-CPU affinity mask: spin yields" "$(q "$T/sy1" '.results[0].spin_yield')" true
else
	skip "unpinned in a one-CPU affinity mask: spin yields" "no taskset -c 0"
fi

"$PB" latency -n 50 -r 1 -w 0 --counters rusage -f json -o "$T/r" 2>/dev/null
is "--counters rusage exits 0" "$?" 0
is "--counters rusage: source recorded" "$(q "$T/r" .counters.source)" rusage+sched
is "--counters rusage: no perf total" "$(q "$T/r" '.results[0].repetitions[0].context_switches_per_round_trip')" null
"$PB" latency -n 50 -r 1 -w 0 --counters perf -f json -o "$T/pf" 2>"$T/err"
case $? in
0) is "--counters perf: source recorded" "$(q "$T/pf" .counters.source)" perf_event ;;
3) grep -q 'perf_event_open' "$T/err"; ok $? "--counters perf refused: exit 3 saying why" ;;
*) ok 1 "--counters perf exits 0 or 3" ;;
esac
# Refused by a seccomp filter: the line names perf_event_paranoid where it
# can be read, and says only the refusal where it cannot (/proc/sys/kernel
# hidden under a tmpfs in a mount namespace of its own).
NOURING=${TESTS_BUILDDIR:-tests}/nouring
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 && "$NOURING" -p true 2>/dev/null &&
   [ -r /proc/sys/kernel/perf_event_paranoid ]; then
	"$NOURING" -p "$PB" latency -n 50 -r 1 -w 0 --counters perf -q >/dev/null 2>"$T/err"
	is "--counters perf refused by seccomp: exit 3" "$?" 3
	is "... the line names perf_event_paranoid" "$(cat "$T/err")" \
		"pipebench latency: --counters perf: perf_event_open: $(perl -e '$! = 1; print "$!"'); perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid)"
	unshare -m sh -c 'mount -t tmpfs none /proc/sys/kernel && exec "$@"' sh \
		"$NOURING" -p "$PB" latency -n 50 -r 1 -w 0 --counters perf -q >/dev/null 2>"$T/err"
	is "... without perf_event_paranoid to read: exit 3" "$?" 3
	is "... the line says the refusal alone" "$(cat "$T/err")" \
		"pipebench latency: --counters perf: perf_event_open: $(perl -e '$! = 1; print "$!"')"
else
	for d in "refused by seccomp: exit 3" "names perf_event_paranoid" "without it: exit 3" \
		 "the refusal alone"; do
		skip "--counters perf $d" "needs root, unshare, tests/nouring's filter and perf_event_paranoid"
	done
fi

# --- CSV: one row per repetition
"$PB" latency -n 50 -r 3 -w 0 -f csv >"$T/csv" 2>/dev/null
is "csv exits 0" "$?" 0
is "csv rows = repetitions + header" "$(wc -l <"$T/csv" | tr -d ' ')" 4
head -1 "$T/csv" | grep -q '^kind,size_bytes,placement,wait,io,mode,asked_cpus,repetition,round_trips,'
ok $? "csv header"
is "csv repetitions numbered from 1" "$(awk -F, 'NR > 1 { printf "%s ", $8 }' "$T/csv")" "1 2 3 "
awk -F, 'NR > 1 && $9 != 50 { bad = 1 } END { exit bad }' "$T/csv"; ok $? "csv round_trips = --loops"

# --- usage errors: exit 2, one line naming the problem, nothing on stdout
usage() {
	what=$1; shift
	"$PB" latency "$@" >"$T/out" 2>"$T/err"
	is "$* exits 2" "$?" 2
	[ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "$what" "$T/err"
	ok $? "$* gives one line naming $what"
}
usage --loops --loops 0
usage --duration --loops 5 --duration 1s
usage --placement --placement nearby
usage --wait --wait nap
usage --cpu --cpu 0 --placement same
usage --size --size 0
usage --size --size 2M
usage --interval --interval 2s --duration 1s
usage --duration --duration 10us
usage --kind --kind tcp
usage --counters --counters papi
usage --repeat --repeat 0
usage extra extra
# --cpu takes one CPU or two: three are refused for being three, also where
# the machine has three (glibc counts the CPUs in /sys/devices/system/cpu/
# possible, which a tmpfs of this test's own, in a mount namespace, says
# are 0-3; this VM has two).
rc=77
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1; then
	unshare -m sh -c '{ mount --make-rprivate / && [ -d /sys/devices/system/cpu ] &&
		mount -t tmpfs pb-cpus /sys/devices/system/cpu &&
		echo 0-3 >/sys/devices/system/cpu/possible; } 2>/dev/null || exit 77
		exec "$0" latency --cpu 0,1,2 --loops 10' "$PB" >"$T/out" 2>"$T/err"
	rc=$?
fi
if [ "$rc" != 77 ]; then
	is "--cpu 0,1,2 where CPUs 0-3 exist exits 2" "$rc" 2
	[ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
		grep -q -- "--cpu 0,1,2: one CPU (both parties) or two (A,B), not 3" "$T/err"
	ok $? "--cpu 0,1,2 where CPUs 0-3 exist: one line, one CPU or two, not 3"
else
	skip "--cpu 0,1,2 where CPUs 0-3 exist exits 2" "needs root, unshare(1) and /sys"
	skip "--cpu 0,1,2 where CPUs 0-3 exist: one line" "needs root, unshare(1) and /sys"
fi
empty_tmp; ok $? "usage errors leave nothing in TMPDIR"

# --- a party that dies, signals and the watchdog: nothing survives
survivors() { ps -e -o sid= -o pid= | awk -v s="$1" '$1 == s' | wc -l | tr -d ' '; }
child_of() {
	i=0
	while [ "$i" -lt 200 ]; do
		c=$(ps -o pid= --ppid "$1" 2>/dev/null | head -1 | tr -d ' ')
		[ -n "$c" ] && { echo "$c"; return 0; }
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}
start() {
	rm -f "$T/pid"
	setsid -f -w sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$T/pid" "$@" >/dev/null 2>"$T/err" &
	bg=$!
	i=0
	while [ ! -s "$T/pid" ] && [ "$i" -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	pid=$(cat "$T/pid" 2>/dev/null)
}
if command -v setsid >/dev/null 2>&1 && command -v ps >/dev/null 2>&1; then
	start "$PB" latency -k fifo -n 1000000000 -r 1 -w 0 -t 60s
	b=$(child_of "$pid"); ok $? "party B started"
	kill -KILL "$b"
	wait "$bg"
	is "party B killed: exit 3" "$?" 3
	grep -q 'party B.*signal 9' "$T/err"; ok $? "the error names party B and the signal"
	is "party B killed: one line" "$(wc -l <"$T/err" | tr -d ' ')" 1
	empty_tmp; ok $? "party B killed: nothing left in TMPDIR"

	start "$PB" latency -k fifo -n 1000000000 -r 1 -w 0 -t 60s
	child_of "$pid" >/dev/null; ok $? "run started"
	kill -TERM "$pid"
	wait "$bg"
	is "SIGTERM mid-run exits 143" "$?" 143
	is "no process of the session survives SIGTERM" "$(survivors "$pid")" 0
	empty_tmp; ok $? "SIGTERM: nothing left in TMPDIR"

	start "$PB" latency -k fifo -n 1000000000 -r 1 -w 0 -t 0.5s
	wait "$bg"
	is "--timeout exits 3" "$?" 3
	grep -q 'timed out' "$T/err"; ok $? "--timeout says it timed out"
	is "no process of the session survives the watchdog" "$(survivors "$pid")" 0
	empty_tmp; ok $? "--timeout: nothing left in TMPDIR"

	start "$PB" latency -T --wait spin -n 1000000000 -r 1 -w 0 -t 60s
	sleep 0.3
	kill -INT "$pid"
	wait "$bg"
	is "SIGINT in thread mode, spinning, exits 130" "$?" 130
else
	for t in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do skip "signal test $t" "setsid or ps missing"; done
fi

# --- LAVA: measurements with units, an impossible placement is a skip case
"$PB" latency -n 100 -r 1 -w 0 --placement same,numa -f lava >"$T/lava" 2>"$T/err"
is "lava run exits 0" "$?" 0
grep -Eq '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-1B-same-block-p50 RESULT=pass MEASUREMENT=[0-9]+ UNITS=ns>$' "$T/lava"
ok $? "lava: p50 of the same-CPU placement is a measurement in ns"
grep -Eq '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-1B-numa-block-p50 RESULT=skip>$' "$T/lava" ||
	grep -q 'TEST_CASE_ID=anon-1B-numa-block-p50 RESULT=pass' "$T/lava"
ok $? "lava: the numa placement is a skip case (or measured on a NUMA machine)"
[ "$(sed -n 1p "$T/lava")" = "<LAVA_SIGNAL_TESTSET START latency>" ] &&
	[ "$(tail -n 1 "$T/lava")" = "<LAVA_SIGNAL_TESTSET STOP>" ]
ok $? "lava: one test set, started and stopped"

# A skipped placement's line: "*" stands for the kinds and the waits only
# when there are several; one of each is named.
"$PB" latency -n 10 -r 1 -w 0 --kind anon --wait block --placement smt,numa >"$T/out" 2>/dev/null
if grep -q ' skip: ' "$T/out"; then
	awk '/ skip: / { n++; if ($1 != "anon" || $5 != "block") bad = 1 } END { exit bad || !n }' "$T/out"
	ok $? "a skipped placement's line names the one kind and the one wait"
	"$PB" latency -n 10 -r 1 -w 0 --kind anon,fifo --wait block,spin --placement smt,numa >"$T/out" 2>/dev/null
	awk '/ skip: / { n++; if ($1 != "*" || $5 != "*") bad = 1 } END { exit bad || !n }' "$T/out"
	ok $? "... and '*' for several kinds and several waits"
else
	skip "one kind and wait on a skip line" "this machine has SMT siblings and several NUMA nodes"
	skip "several kinds and waits on a skip line" "this machine has SMT siblings and several NUMA nodes"
fi

# --precision: repetitions added until every row's median p50 is known
# within the percent (its 95% interval by ranks, recomputed from the JSON's
# own repetitions), or --precision-budget is spent; exit 0 either way.
PREC=${TESTS_SRCDIR:-$(dirname "$0")}/figures/precision.pl
"$PB" latency -n 200 -r 3 -w 0 --placement same --precision 50 --precision-budget 20s -f json \
	>"$T/p.json" 2>/dev/null
is "--precision 50: exit 0" "$?" 0
is "--precision 50: reached with 8 repetitions or more, the interval recomputes" \
	"$(perl "$PREC" rtt_p50_ns <"$T/p.json")" "n>=8 reached same all"
is "--precision in params" "$("$JSONQ" "$T/p.json" .params.precision_pct .params.precision_budget_ns |
	tr '\n' ' ')" "50.0 20000000000 "
# (three repetitions of 50000 round trips outlast 100 ms: no interval yet)
"$PB" latency -n 50000 -r 3 -w 0 --placement same --precision 0.01 --precision-budget 100ms \
	>"$T/out" 2>/dev/null
is "--precision in 100 ms: exit 0, the text says it was not reached and why" \
	"$?/$(grep -c '^precision   0.01% not reached in its 0.1 s budget: anon 1 B same block had 3 repetitions, too few for an interval (8)$' "$T/out")" "0/1"
"$PB" latency --precision-budget 1s >/dev/null 2>"$T/err"
is "--precision-budget without --precision: exit 2, one line" \
	"$?/$(wc -l <"$T/err" | tr -d ' ')" "2/1"

# One round trip: the CPUs each party ran on are still taken (the first
# round trip is sampled), a list of this machine's CPU numbers.
"$PB" latency --kind anon -n 1 -r 1 --warmup 0 --format json -q >"$T/one.json" 2>/dev/null
is "-n 1: cpus_a and cpus_b name CPUs" "$("$JSONQ" "$T/one.json" .results[0].repetitions[0].cpus_a \
	.results[0].repetitions[0].cpus_b | grep -c '^[0-9][0-9,-]*$')" 2

tap_late_end
