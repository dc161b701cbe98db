#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench messaging: exit codes, JSON and CSV shape, usage errors, resource
# errors, and that a signal or the watchdog leaves no worker behind.  TAP.
set -u
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap_late.sh"

SMALL="-g 1 --fds 2 -n 10"

# --- text, exit 0
"$PB" messaging $SMALL -r 2 -w 0 >"$T/out" 2>"$T/err"
is "small run exits 0" "$?" 0
grep -q '^elapsed s ' "$T/out"; ok $? "text shows elapsed median"
grep -q '^involuntary ctxsw ' "$T/out"; ok $? "text shows involuntary context switches"
grep -q '40 messages, 4000 bytes per repetition' "$T/out"; ok $? "text states the message count"
# Each metric's row in its own units and decimals: median, min, max.
awk -v want='elapsed s=3;messages/s=0;MB/s=1;voluntary ctxsw=0;involuntary ctxsw=0;CPU user s=3;CPU sys s=3' '
	BEGIN { n = split(want, w, ";"); for (i = 1; i <= n; i++) { split(w[i], kv, "="); dec[kv[1]] = kv[2] } }
	{ for (m in dec) if (index($0, m " ") == 1 && substr($0, length(m) + 1) ~ /^ +[0-9]/) {
		split(substr($0, length(m) + 1), v, " "); seen[m] = 1
		re = "^[0-9]+" (dec[m] ? "\\." : ""); for (i = 0; i < dec[m]; i++) re = re "[0-9]"; re = re "$"
		for (i = 1; i <= 3; i++) if (v[i] !~ re) bad = 1 } }
	END { for (m in dec) if (!seen[m]) bad = 1; exit bad }' "$T/out"
ok $? "text: each metric with its decimals (ctxsw and messages/s whole, seconds to 3, MB/s to 1)"
[ ! -s "$T/err" ]; ok $? "nothing on stderr"
# The table's figures in their units, recomputed from one another (3
# repetitions, each of the same 2 messages of 10^6 bytes): MB/s (10^6 bytes
# a second) is then messages/s itself, to the digits printed, in each
# column; messages/s is 2 messages over the elapsed row's time, within what
# its 3 decimals allow (a rate falls as the time grows: the median rate is
# the median time's, the least rate the longest time's); the header's counts.
"$PB" messaging -g 1 --fds 1 -n 2 -s 1000000 -r 3 -w 0 >"$T/mb" 2>"$T/err"
is "2 messages of 10^6 bytes: exit 0" "$?" 0
grep -q '^messages    2 loops of .*: 2 messages, 2000000 bytes per repetition$' "$T/mb"
ok $? "the header counts 2 messages, 2000000 bytes"
awk 'function row(l) { if (index($0, l " ") != 1) return 0
		med[l] = $(NF - 3); mn[l] = $(NF - 2); mx[l] = $(NF - 1); sp[l] = $NF + 0; return 1 }
	function off(a, b) { return a > b ? a - b : b - a }
	# time t printed to 3 decimals: the rate 2/t, printed whole, lies in
	function within(r, t) { return r >= 2 / (t + 0.0005) - 0.5 &&
		(t <= 0.0005 || r <= 2 / (t - 0.0005) + 0.5) }
	row("elapsed s") || row("messages/s") || row("MB/s") { n++ }
	END { m = "messages/s"; b = "MB/s"; e = "elapsed s"
		if (n != 3) exit 1
		if (off(med[b], med[m]) > 0.6 || off(mn[b], mn[m]) > 0.6 || off(mx[b], mx[m]) > 0.6 ||
		    off(sp[b], sp[m]) > 0.1) exit 1
		if (!(within(med[m], med[e]) && within(mn[m], mx[e]) && within(mx[m], mn[e]))) exit 1
		# spread = (max - min) / median in percent, to what 1 decimal allows
		if (med[b] < 1) exit 0
		tol = 100 * (0.1 + 0.05 * sp[b] / 100) / (med[b] - 0.05) + 0.06
		exit off(sp[b], 100 * (mx[b] - mn[b]) / med[b]) > tol }' "$T/mb"
ok $? "text: MB/s is messages/s x 10^6 bytes / 10^6, messages/s is 2 over elapsed s (median, min, max), spread is (max-min)/median"

# --- JSON
"$PB" messaging $SMALL -r 3 -w 1 -f json -o "$T/j" 2>"$T/err"
is "json run exits 0" "$?" 0
"$JSONQ" "$T/j" >/dev/null 2>&1; ok $? "json is one valid document"
# path, the value it must have, the test's name
while read -r path want name; do
	is "$name" "$(q "$T/j" "$path" </dev/null)" "$want"
done <<'EOF'
.command messaging command
.exit_status 0 exit_status
.params.groups 1 params.groups
.params.fds 2 params.fds
.params.loops 10 params.loops
.params.size_bytes 100 params.size_bytes default
.params.repeat 3 params.repeat
.params.warmup 1 params.warmup
.params.kind pipe params.kind default
.params.timeout_ns 0 params.timeout_ns default
.results# 1 one result
.results[0].kind pipe result kind
.results[0].mode process result mode
.results[0].groups 1 result groups
.results[0].fds 2 result fds
.results[0].loops 10 result loops
.results[0].size_bytes 100 result size_bytes
.results[0].repetitions# 3 repetitions = --repeat
.results[0].repetitions[2].messages 40 messages per repetition
.results[0].repetitions[0].bytes 4000 bytes per repetition
EOF
for k in elapsed_ns rate_messages_per_s rate_bytes_per_s voluntary_ctxsw \
	involuntary_ctxsw cpu_user_ns cpu_sys_ns; do
	v=$(q "$T/j" ".results[0].repetitions[0].$k")
	case $v in
	'' | null | -*) ok 1 "repetition has $k (got '$v')" ;;
	*) ok 0 "repetition has $k" ;;
	esac
	for s in median min max mean stddev rsd spread; do
		q "$T/j" ".results[0].summary.$k.$s" >/dev/null || { ok 1 "summary.$k.$s"; continue 2; }
	done
	ok 0 "summary.$k has median..spread"
done
e=$(q "$T/j" '.results[0].repetitions[0].elapsed_ns')
[ "${e:-0}" -gt 0 ]; ok $? "elapsed_ns is positive"

"$PB" messaging $SMALL -r 1 -w 0 -T -k socketpair -f json >"$T/j2" 2>/dev/null
is "threads + socketpair exits 0" "$?" 0
is "thread mode recorded" "$(q "$T/j2" '.results[0].mode')" thread
is "socketpair recorded" "$(q "$T/j2" '.results[0].kind')" socketpair

# --- CSV: a header, then one row per repetition
"$PB" messaging $SMALL -r 4 -w 0 -f csv >"$T/c" 2>/dev/null
is "csv exits 0" "$?" 0
is "csv rows = repetitions + header" "$(wc -l <"$T/c" | tr -d ' ')" 5
head -1 "$T/c" | grep -q '^kind,mode,groups,fds,loops,size_bytes,repetition,messages,bytes,elapsed_ns,'
ok $? "csv header"
is "csv row fields" "$(sed -n 2p "$T/c" | cut -d, -f1,2,7,8)" "pipe,process,1,40"
is "csv: the header once" "$(grep -c '^kind,' "$T/c")" 1
keys() { sed 's/"\([a-z_]*\)":[^,}]*/\1/g; s/[{}]//g' | tr , '\n' | sort | tr '\n' ' '; }
is "csv columns: the identity, then the JSON repetition fields (as a set), the stability, host, kernel" \
   "$(head -1 "$T/c" | cut -d, -f8-17 | keys)/$(head -1 "$T/c" | cut -d, -f1-7,18-)" \
   "$(q "$T/j" '.results[0].repetitions[0]' | keys)/kind,mode,groups,fds,loops,size_bytes,repetition,stability,stability_reason,host,kernel"
awk -F, -v h="$(uname -n)" -v k="$(uname -r)" \
	'NR > 1 { n++; if ($(NF - 1) != h || $NF != k) bad = 1 } END { exit bad || n != 4 }' "$T/c"
ok $? "csv: every row's host and kernel are uname -n and uname -r"
awk -F, 'function rel(a, w) { d = a - w; if (d < 0) d = -d; return d / w }
	NR > 1 && (rel($11, $8 * 1e9 / $10) > 1e-12 || rel($12, $9 * 1e9 / $10) > 1e-12) { bad = 1 }
	END { exit bad }' "$T/c"
ok $? "csv: rates are messages and bytes over elapsed_ns, as in JSON"
for k in elapsed_ns rate_messages_per_s cpu_sys_ns; do
	is "summary.$k is the one statistics shape, n = 3" \
	   "$(q "$T/j" ".results[0].summary.$k" | sed 's/"\([a-z_]*\)":[^,}]*/\1/g; s/[{}]//g')/$(q "$T/j" ".results[0].summary.$k.n")" \
	   "median,min,max,mean,stddev,rsd,spread,n/3"
done

# --- usage errors: exit 2, one line naming the option, nothing on stdout
usage() {
	opt=$1; shift
	"$PB" messaging "$@" >"$T/out" 2>"$T/err"
	rc=$?
	is "$* exits 2" "$rc" 2
	[ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "$opt" "$T/err"
	ok $? "$* gives one line naming $opt"
}
usage --groups --groups 0
usage --fds --fds x
usage --loops --loops -1
usage --size --size 2M
usage --kind --kind fifo
usage --repeat --repeat 0
usage --timeout --timeout 5parsecs
usage --groups --groups 300 --fds 20
# 2^22 messages of 1 MiB per loop: 2^21 loops are 2^63 bytes, one past int64
usage "--loops 2097152 with --size 1048576: more than 2^63 bytes per repetition" \
	-g 1 --fds 2048 -s 1M -n 2097152
usage extra extra

# --- resource errors: exit 3, a clear message; JSON still parses
(ulimit -n 24 && exec "$PB" messaging --fds 20 -n 1 -r 1 -w 0) >"$T/out" 2>"$T/err"
is "fd limit too low exits 3" "$?" 3
grep -q 'RLIMIT_NOFILE' "$T/err"; ok $? "fd limit error names RLIMIT_NOFILE"
(ulimit -n 24 && exec "$PB" messaging --fds 20 -n 1 -r 1 -w 0 -f json) >"$T/j3" 2>/dev/null
is "fd limit error recorded in JSON exit_status" "$(q "$T/j3" .exit_status)" 3
is "fd limit error recorded in JSON errors" "$(q "$T/j3" '.errors#')" 1

# --- signals and watchdog: no worker survives
# run_session PIDFILE ARGS...: run pipebench as leader of a new session (so
# its workers can be found by session id) in the background.
survivors() { ps -e -o sid= -o pid= | awk -v s="$1" '$1 == s' | wc -l | tr -d ' '; }
wait_children() {
	i=0
	while [ "$i" -lt 200 ]; do
		c=$(ps -o pid= --ppid "$1" 2>/dev/null | wc -l)
		[ "$c" -ge "$2" ] && return 0
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}
if command -v setsid >/dev/null 2>&1 && command -v ps >/dev/null 2>&1; then
	rm -f "$T/pid"
	setsid -f -w sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$T/pid" \
		"$PB" messaging -g 2 --fds 5 -n 1000000000 -r 1 -w 0 -t 60s >/dev/null 2>&1 &
	bg=$!
	i=0
	while [ ! -s "$T/pid" ] && [ "$i" -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	pid=$(cat "$T/pid" 2>/dev/null)
	wait_children "$pid" 20; ok $? "all 20 workers started"
	sleep 0.2
	kill -TERM "$pid"
	wait "$bg"
	is "SIGTERM mid-run exits 143" "$?" 143
	is "no process of the session survives SIGTERM" "$(survivors "$pid")" 0

	rm -f "$T/pid"
	setsid -f -w sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$T/pid" \
		"$PB" messaging -g 1 --fds 4 -n 1000000000 -r 1 -w 0 -t 0.5s >/dev/null 2>"$T/err" &
	bg=$!
	wait "$bg"
	is "--timeout exits 3" "$?" 3
	grep -q 'timed out' "$T/err"; ok $? "--timeout says it timed out"
	is "no process of the session survives the watchdog" "$(survivors "$(cat "$T/pid")")" 0

	"$PB" messaging -T -g 1 --fds 4 -n 1000000000 -r 1 -w 0 -t 60s >/dev/null 2>&1 &
	tpid=$!
	sleep 0.3
	kill -INT "$tpid"
	wait "$tpid"
	is "SIGINT in thread mode exits 130" "$?" 130
else
	for t in start sigterm survivors timeout msg survivors2 threads; do
		skip "signal test $t" "setsid or ps missing"
	done
fi

# Warmup repetitions run before the measured ones, as many as asked: the
# senders' writes of an unusual size (77 bytes) that strace sees are 40 a
# repetition (1 group, 2 senders, 2 receivers, 10 loops), warmup included.
if command -v strace >/dev/null 2>&1; then
	seen=
	for w in 0 2; do
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=write \
			-o "$T/mtr" "$PB" messaging $SMALL -r 1 -w $w -s 77 -q >/dev/null 2>&1
		seen="$seen $(grep -cE ', 77( <unfinished|\) = )' "$T/mtr")"
	done
	is "strace: 77-byte writes with --warmup 0 and 2 (one measured repetition)" "$seen" " 40 120"
else
	skip "strace: 77-byte writes with --warmup 0 and 2 (one measured repetition)" "strace not installed"
fi

# --precision: repetitions added until the median elapsed time is known
# within the percent (its 95% interval by ranks, recomputed here from the
# JSON's own repetitions), or the budget is spent; exit 0 either way
"$PB" messaging $SMALL -r 3 -w 0 --precision 50 -f json >"$T/p.json" 2>/dev/null
is "--precision 50: exit 0" "$?" 0
is "--precision 50: reached, at least 8 repetitions, the interval recomputes" \
	"$(perl "${TESTS_SRCDIR:-$(dirname "$0")}/figures/precision.pl" elapsed_ns <"$T/p.json")" \
	"n>=8 reached same all"
"$PB" messaging $SMALL -r 3 -w 0 --precision 0 >/dev/null 2>"$T/err"
is "--precision 0: exit 2, one line" "$?/$(wc -l <"$T/err" | tr -d ' ')" "2/1"

tap_late_end
