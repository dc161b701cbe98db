#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench throughput end to end: formats, kinds, sweeps, flags, output
# destinations, and nothing left behind.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
PB="$PIPEBENCH throughput --loops 30 --warmup 0"
J="$TEST_TMP/out.json"


run $PB --repeat 2
is "$rc" 0 "text run exits 0"
printf '%s\n' "$out" | grep -Eq '^anon +100 B +[0-9]+\.[0-9]{3} '; ok $? "text has an anon 100 B row with TW"
printf '%s\n' "$out" | grep -q '^kernel .*Linux'; ok $? "text header names the kernel"
printf '%s\n' "$out" | grep -q '^placement .*not pinned'; ok $? "text header reports placement"
# the pages line: this machine's page size in KiB, PIPE_BUF and pipe-max-size
pg=$(getconf PAGESIZE)
pms=$(cat /proc/sys/fs/pipe-max-size 2>/dev/null || echo -1)
is "$(printf '%s\n' "$out" | grep '^pages ')" \
	"pages       $((pg / 1024)) KiB; PIPE_BUF $(getconf PIPE_BUF /) B; pipe-max-size $pms B" \
	"text header: page size, PIPE_BUF and pipe-max-size"

run $PB --repeat 2 --kind all
is "$rc" 0 "--kind all exits 0"
printf '%s\n' "$out" | grep -Eq '^fifo .* fifo/anon [0-9.]+x$'; ok $? "fifo row has its ratio to anon"
printf '%s\n' "$out" | grep -Eq '^socketpair .* socketpair/anon [0-9.]+x$'; ok $? "socketpair row has its ratio"
tmp_empty; ok $? "no FIFO or directory left after a fifo run"

$PB --repeat 3 --kind anon,fifo --size 100,4K --format json >"$J"; rc=$?
is "$rc" 0 "json run exits 0"
"$JSONQ" "$J" >/dev/null; ok $? "json output is one valid document"
is "$("$JSONQ" "$J" .tool .command .schema_version .exit_status | tr '\n' ' ')" \
   "pipebench throughput 1 0 " "json common fields"
is "$("$JSONQ" "$J" '.results#')" 4 "2 kinds x 2 sizes = 4 results"
is "$("$JSONQ" "$J" '.results[0].repetitions#')" 3 "every repetition is kept"
is "$("$JSONQ" "$J" .params.flags)" none "params.flags: none when none is given"
is "$("$JSONQ" "$J" .run.hostname)" "$(uname -n)" "run.hostname is this machine's name (uname -n)"
$PB --repeat 1 --flags direct --format json >"$TEST_TMP/fl.json"
is "$("$JSONQ" "$TEST_TMP/fl.json" .params.flags)" direct "params.flags: the one given"
run $PB --repeat 1 --flags direct
printf '%s\n' "$out" | grep -q '^settings .* flags direct$'; ok $? "text settings name the flag given"
run $PB --repeat 1
printf '%s\n' "$out" | grep -q '^settings .* flags none$'; ok $? "... and none when none is"
# Where the FIFOs were made, when there were FIFOs (an anon run, above, ends at the flags).
run $PB --repeat 1 --kind anon,fifo --dir "$TEST_TMP"
printf '%s\n' "$out" | grep -qF "flags none, FIFOs in $TEST_TMP"; ok $? "text settings name the FIFOs' directory"
is "$("$JSONQ" "$J" .results[1].kind .results[2].size_bytes | tr '\n' ' ')" "fifo 4096 " \
   "results are size-major, kinds in order"
tw=$("$JSONQ" "$J" .results[0].repetitions[0].tw_ns)
tr=$("$JSONQ" "$J" .results[0].repetitions[0].tr_ns)
tt=$("$JSONQ" "$J" .results[0].repetitions[0].tt_ns)
is "$tt" "$((tw + tr))" "tt_ns = tw_ns + tr_ns"
by=$("$JSONQ" "$J" .results[0].repetitions[0].bytes)
[ "$by" -gt 0 ] && [ $((by % 100)) -eq 0 ]; ok $? "bytes are whole 100-byte chunks"
wc=$("$JSONQ" "$J" .results[0].repetitions[0].write_calls)
is "$wc" "$((by / 100 + 30))" "write calls = chunks + one EAGAIN per loop"
is "$("$JSONQ" "$J" .params.loops .params.repeat .params.warmup | tr '\n' ' ')" "30 3 0 " \
   "params record resolved values"
is "$("$JSONQ" "$J" .results[1].ratio_label)" "fifo/anon" "ratio label in json"
"$JSONQ" "$J" .system.kernel_release .system.page_size_bytes .placement.cpu_at_start >/dev/null
ok $? "system and placement recorded"
# The machine facts against their own sources, read here (hostname and
# kernel_version as uname gives them; the sysctl files where readable).
fact() { is "$("$JSONQ" "$J" ".system.$1")" "$2" "system.$1 is $3"; }
fact kernel_release "$(uname -r)" "uname -r"
fact kernel_version "$(uname -v)" "uname -v"
fact machine "$(uname -m)" "uname -m"
fact hostname "$(uname -n)" "uname -n"
fact libc "$(getconf GNU_LIBC_VERSION)" "getconf GNU_LIBC_VERSION"
fact cpus_online "$(getconf _NPROCESSORS_ONLN)" "getconf _NPROCESSORS_ONLN"
fact page_size_bytes "$(getconf PAGESIZE)" "getconf PAGESIZE"
fact pipe_buf_bytes "$(getconf PIPE_BUF /)" "getconf PIPE_BUF"
fact cpus_allowed "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)" \
	"/proc/self/status Cpus_allowed_list"
for f in pipe-max-size:pipe_max_size_bytes pipe-user-pages-soft:pipe_user_pages_soft \
	pipe-user-pages-hard:pipe_user_pages_hard; do
	if [ -r "/proc/sys/fs/${f%%:*}" ]; then
		fact "${f#*:}" "$(cat "/proc/sys/fs/${f%%:*}")" "/proc/sys/fs/${f%%:*}"
	else
		skip 1 "system.${f#*:}: /proc/sys/fs/${f%%:*} not readable"
	fi
done

run $PB --repeat 2 --kind anon,socketpair --format csv
is "$rc" 0 "csv run exits 0"
is "$(nlines "$out")" 5 "csv: header + 2 kinds x 2 repetitions"
printf '%s\n' "$out" | head -1 | grep -q '^kind,mode,size_bytes,pipe_size_bytes,repetition,tw_ns,tr_ns,tt_ns,'
ok $? "csv header"

run $PB --repeat 3 --format seed
is "$(printf '%s\n' "$out" | grep -cE '^TW = [0-9]+\.[0-9]{3} TR = [0-9]+\.[0-9]{3} TT = [0-9]+\.[0-9]{3}$')" 3 \
   "seed: exactly the mail's line per repetition"

run $PB --repeat 1 --pipe-size 8K --format json
is "$(printf '%s' "$out" | "$JSONQ" - .results[0].pipe_size_bytes)" 8192 "--pipe-size is applied and reported"

run $PB --repeat 1 --flags direct
is "$rc" 0 "--flags direct runs"
# The settings line says the flags are not applied to a socketpair only
# when both hold: flags given and a socketpair among the kinds.
for a in "anon,socketpair --flags direct:0" "anon,socketpair:1" "anon --flags direct:1" \
	"socketpair:1"; do
	run $PB --repeat 1 --kind ${a%:*}
	printf '%s\n' "$out" | grep -q '^settings .*(not applied to socketpair)'
	is "$?" "${a#*:}" "--kind ${a%:*}: $([ "${a#*:}" = 0 ] || echo "no ")note that the flags skip the socketpair"
done

run $PB --repeat 1 --flags noatime
is "$rc" 4 "--flags noatime on a kernel rejecting it: exit 4"
printf '%s' "$err" | grep -q 'O_NOATIME.*not supported'; ok $? "says plainly that O_NOATIME is unsupported"

run $PB --repeat 1 --cpu 0 --format json
is "$(printf '%s' "$out" | "$JSONQ" - .placement.pinned .placement.cpus .placement.cpu_at_end | tr '\n' ' ')" \
   "true 0 0 " "--cpu 0 pins and reports placement"

run $PB --repeat 1 --format json --output "$J"
is "$rc:$out" "0:" "--output: exit 0, nothing on stdout"
"$JSONQ" "$J" .command >/dev/null; ok $? "--output file holds the document"

if [ -w /dev/full ]; then
	$PB --repeat 1 >/dev/full 2>"$TEST_TMP/err"; rc=$?
	is "$rc" 3 "stdout on a full device: exit 3"
	grep -q 'No space left' "$TEST_TMP/err"; ok $? "full device is reported"
else
	skip 2 "no /dev/full"
fi

# A reader that goes away early: no crash, no error spam.
( $PB --repeat 1 --kind all 2>"$TEST_TMP/err"; echo $? >"$TEST_TMP/rc" ) | head -1 >/dev/null
[ ! -s "$TEST_TMP/err" ] && [ "$(cat "$TEST_TMP/rc")" -lt 128 ]
ok $? "closed stdout: no signal death, nothing on stderr"

# Derived numbers agree with the raw fields they come from, per repetition
# and in the summary (a unit slip of 1000x must not pass).
run $PB --kind all --repeat 3 --format json
derived_ok=0
for r in 0 1 2; do
	for k in 0 1; do
		set -- $(printf '%s' "$out" | "$JSONQ" - .results[$r].repetitions[$k].tw_ns \
			.results[$r].repetitions[$k].tr_ns .results[$r].repetitions[$k].tt_ns \
			.results[$r].repetitions[$k].bytes .results[$r].repetitions[$k].write_calls \
			.results[$r].repetitions[$k].read_calls .results[$r].repetitions[$k].syscalls \
			.results[$r].repetitions[$k].rate_bytes_per_s \
			.results[$r].repetitions[$k].ns_per_syscall)
		awk -v tw="$1" -v tr="$2" -v tt="$3" -v b="$4" -v wc="$5" -v rc="$6" -v sc="$7" \
			-v rate="$8" -v nps="$9" 'function rel(a, w) { d = a - w; if (d < 0) d = -d;
			return w == 0 ? d : d / w }
			BEGIN { exit !(tt == tw + tr && sc == wc + rc && b > 0 && tt > 0 &&
			rel(rate, b * 1e9 / tt) < 1e-9 && rel(nps, tt / sc) < 1e-9) }' ||
			{ derived_ok=1; diag "result $r repetition $k: $*"; }
	done
done
ok $derived_ok "rate_bytes_per_s = bytes/tt and ns_per_syscall = tt/syscalls, per repetition"
set -- $(printf '%s' "$out" | "$JSONQ" - .results[0].summary.bytes .results[0].summary.syscalls \
	.results[0].summary.tt_ns.median .results[0].summary.rate_bytes_per_s \
	.results[0].summary.ns_per_syscall .results[0].summary.rate_syscalls_per_s)
awk -v b="$1" -v sc="$2" -v tt="$3" -v rate="$4" -v nps="$5" -v sps="$6" \
	'function rel(a, w) { d = a - w; if (d < 0) d = -d; return d / w }
	BEGIN { exit !(rel(rate, b * 1e9 / tt) < 1e-9 && rel(nps, tt / sc) < 1e-9 &&
	rel(sps, sc * 1e9 / tt) < 1e-9) }'
ok $? "summary rates come from the median total time"
[ "$(printf '%s' "$out" | "$JSONQ" - .results[1].kind)" = fifo ] &&
	[ "$(printf '%s' "$out" | "$JSONQ" - .results[2].kind)" = socketpair ]
ok $? "--kind all gives anon, fifo, socketpair in order"
set -- $(printf '%s' "$out" | "$JSONQ" - .results[0].summary.tt_ns.median .results[0].summary.bytes \
	.results[2].summary.tt_ns.median .results[2].summary.bytes .results[2].cost_ratio_to_first)
awk -v t0="$1" -v b0="$2" -v t2="$3" -v b2="$4" -v r="$5" \
	'BEGIN { w = (t2 / b2) / (t0 / b0); d = r - w; if (d < 0) d = -d; exit !(d / w < 1e-9) }'
ok $? "socketpair's cost_ratio_to_first is its median time per byte over anon's"

# The emitter kit: one statistics object; CSV columns are the JSON's
# per-repetition fields plus host and kernel, and its derived numbers are
# the JSON's.
keys() { sed 's/"\([a-z_]*\)":[^,}]*/\1/g; s/[{}]//g'; }
run $PB --kind anon,socketpair --repeat 3 --format json
is "$(printf '%s' "$out" | "$JSONQ" - .results[1].summary.tt_ns | keys)" \
   "median,min,max,mean,stddev,rsd,spread,n" "summary.tt_ns is the one statistics shape"
is "$(printf '%s' "$out" | "$JSONQ" - .results[1].summary.tw_ns.n .results[1].summary.tr_ns.n | tr '\n' ' ')" \
   "3 3 " "statistics count their repetitions (n)"
repkeys=$(printf '%s' "$out" | "$JSONQ" - .results[0].repetitions[0] | keys)
run $PB --kind anon,socketpair --size 100,1K --repeat 2 --format csv
is "$(printf '%s\n' "$out" | head -1)" "kind,mode,size_bytes,pipe_size_bytes,repetition,$repkeys,stability,stability_reason,host,kernel" \
   "csv header: the result's identity, the JSON repetition fields, the stability, host, kernel"
is "$(printf '%s\n' "$out" | grep -c '^kind,')" 1 "csv: the header once, with a row per repetition"
host=$(uname -n) kernel=$(uname -r)
printf '%s\n' "$out" | awk -F, -v h="$host" -v k="$kernel" \
	'NR > 1 { n++; if ($(NF - 1) != h || $NF != k) bad = 1 } END { exit bad || n != 8 }'
ok $? "csv: every row's host and kernel are uname -n ($host) and uname -r ($kernel)"
printf '%s\n' "$out" | awk -F, 'function rel(a, w) { d = a - w; if (d < 0) d = -d; return d / w }
	NR > 1 { if ($8 != $6 + $7 || $12 != $10 + $11 || rel($13, $9 * 1e9 / $8) > 1e-12 ||
		rel($14, $8 / $12) > 1e-12 || ($1 == "socketpair") != ($4 == "") || $2 != "rw") bad = 1 }
	END { exit bad }'
ok $? "csv: rate_bytes_per_s and ns_per_syscall as in JSON; no pipe size for a socketpair"
# A size larger than the pipe's buffer is noted (any of the sizes, not only
# the first); a size exactly the buffer's is not larger.
run $PB --size 4K --repeat 1 --format json
cap=$(printf '%s' "$out" | "$JSONQ" - .results[0].pipe_size_bytes)
for a in "anon 4K,$((cap + 1))" "anon,socketpair 4K,$((cap + 1))" "anon,socketpair $((cap + 1))"; do
	run $PB --kind ${a% *} --size ${a#* } --repeat 1
	printf '%s\n' "$out" | grep -q "^note        --size $((cap + 1)) B is larger than the .* pipe buffer: every write is partial$"
	ok $? "--kind ${a% *} --size ${a#* }: a size one byte over the $cap-byte pipe buffer is noted"
done
run $PB --size "$cap" --repeat 1
! printf '%s\n' "$out" | grep -q 'is larger than'
ok $? "a --size equal to the pipe buffer is not noted"
# The pair cannot be made (one descriptor free beyond 0-2): exit 3 and one
# line naming the kind, the call and the error.
run sh -c 'exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n 4 && exec "$@"' sh $PB --kind anon --repeat 1
is "$rc|$err" "3|pipebench throughput: anon: pipe2: Too many open files" \
	"a pipe that cannot be made (EMFILE): exit 3, one line naming the kind and the call"
# ... also when only one pipe fails (the system's file table full for a
# moment), the second of the run: the first is the system facts' (the
# default size, null when it fails), the second the probe of each kind's
# buffer, before any measuring, which says so.
if fault_layer; then
	export PB_FAULT_PIPE_ENFILE=2
	run faulty "" $PB --kind anon --repeat 1
	unset PB_FAULT_PIPE_ENFILE
	is "$rc|$err" "3|pipebench throughput: anon: pipe2: Too many open files in system" \
		"the probe's pipe failing (ENFILE once): exit 3, the probe's line"
else
	skip 1 "no fault layer"
fi

# --precision: repetitions added until each row's median TT is known within
# the percent (its 95% interval by ranks, recomputed here from the JSON's
# own repetitions), or the budget is spent; a verdict of the run, exit 0.
$PIPEBENCH throughput --kind anon,fifo --size 4K --loops 300 --repeat 3 --precision 50 \
	--format json >"$J"
is "$?" 0 "--precision 50: exit 0"
got=$(perl "${TESTS_SRCDIR:-$(dirname "$0")}/figures/precision.pl" tt_ns <"$J")
is "$got" "n>=8 reached same,n>=8 reached same all" \
	"--precision 50: each row's interval recomputes from its repetitions, reached"
run $PIPEBENCH throughput --kind anon --size 4K --repeat 3 --precision 0.01 --duration 300ms
is "$rc" 0 "--precision 0.01 in a 300 ms budget: exit 0"
printf '%s\n' "$out" | grep -Eq '^precision   0.01% not reached in its 0.3 s budget: '
ok $? "... and the text says it was not reached"
run $PIPEBENCH throughput --kind anon --size 4K --loops 300 --repeat 3 --precision 0.01 \
	--precision-budget 300ms --format json
is "$rc|$(printf '%s' "$out" | "$JSONQ" - .params.precision_budget_ns .summary.precision_reached | tr '\n' ' ')" \
	"0|300000000 false " "--precision-budget 300ms bounds it: exit 0, not reached, in params"
run $PB --precision-budget 1s
is "$rc|$(printf '%s' "$err" | grep -c 'precision-budget without --precision')" "2|1" \
	"--precision-budget without --precision: exit 2, says why"
run $PB --precision 0
is "$rc|$(printf '%s' "$err" | wc -l | tr -d ' ')" "2|0" "--precision 0: exit 2, one line"
done_testing
