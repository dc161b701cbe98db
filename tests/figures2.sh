#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Derived figures, recomputed (issue 19), continued from figures.sh: what
# compare derives from the documents it reads (each metric's statistics,
# %change, Welch's p, significance, regression, comparability, the per-unit
# rows, verdict changes and their grid, the summary counts, and the same
# figures in its text, CSV and markdown), timestamps' per-sample states and
# counts and the verdicts they make, the run facts every document records
# (memory from /proc/meminfo, CPUs from sysconf and the affinity, the user,
# capabilities, pipe limits, virtualisation from the CPU flags), and report's bookkeeping (parts run, not run,
# interrupted or failed; statuses, errors, exit status) and copy ceiling.
# The recomputations are the perl scripts in tests/figures/; each prints
# one line per figure that disagrees, nothing when all agree.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
D=$TEST_TMP
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
perl -MJSON::PP -e 1 2>/dev/null || skip_all "perl's JSON::PP is not installed (Debian package perl)"
F=${TESTS_SRCDIR:-$(dirname "$0")}/figures
P=$PIPEBENCH


# ---- compare.  compare_all NAME ARGS...: compare ARGS in every format, the JSON
# to $D/NAME.json, text, CSV and markdown beside it; then the figures.
compare_all() {
	name=$1; shift
	"$P" compare --format json -o "$D/$name.json" "$@" 2>/dev/null
	"$P" compare -o "$D/$name.txt" "$@" 2>/dev/null
	"$P" compare --format csv -o "$D/$name.csv" "$@" 2>/dev/null
	"$P" compare --format markdown -o "$D/$name.md" "$@" 2>/dev/null
}
cd "$D" || exit 99
perl "$F/tpdoc.pl" 1 1 3 100 >b.json
perl "$F/tpdoc.pl" 2 1 3 100 >n1.json       # noise
perl "$F/tpdoc.pl" 3 1.25 3 100 >n2.json    # a quarter slower
perl "$F/tpdoc.pl" 4 0.9 1 100 >n3.json     # one repetition: no p
perl "$F/tpdoc.pl" 5 1 4 200 2 >n4.json     # twice the loops: per unit
perl "$F/tpdoc.pl" 6 1.1 3 100 >n5.json
perl "$F/tpdoc.pl" 7 0.7 2 100 >n6.json
perl "$F/tpdoc.pl" 8 1 3 100 | perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
	$d->{results} = [grep { $_->{kind} eq "anon" } @{$d->{results}}]; print encode_json($d)' >n7.json

compare_all c1 b.json n1.json n2.json n3.json
is "$(perl "$F/compare.pl" c1.json c1.txt c1.csv c1.md)" "" \
	"compare, three NEW (noise, 25% slower, one repetition): JSON, text, CSV and markdown figures recompute"
r=$("$JSONQ" c1.json .summary.regressions)
[ "${r:-0}" -gt 0 ]; ok $? "... with regressions to count ($r)"
compare_all c2 --force b.json n4.json
is "$(perl "$F/compare.pl" c2.json c2.txt c2.csv c2.md)" "" \
	"compare --force, twice the loops: totals not comparable, per-unit rows recompute"
# Different work and no unit of work to divide by (no bytes, messages,
# syscalls or round trips): the totals are not comparable, no per-unit row.
for f in b n4; do
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); for my $r (@{$d->{results}}) {
		for my $x (@{$r->{repetitions}}) { delete @$x{qw(bytes syscalls write_calls read_calls rate_bytes_per_s ns_per_syscall)} } }
		print encode_json($d)' <$f.json >u$f.json
done
compare_all c6 --force ub.json un4.json
is "$(perl "$F/compare.pl" c6.json c6.txt c6.csv c6.md)$("$JSONQ" c6.json .summary.not_comparable)" "20" \
	"compare --force without a unit of work: 20 totals (5 of each of 4 results) not comparable, no per-unit rows, the rest recomputes"
compare_all c3 --label A,B,C,D,E,F b.json n1.json n2.json n3.json n5.json n6.json
is "$(perl "$F/compare.pl" c3.json c3.txt c3.csv c3.md A,B,C,D,E,F)" "" \
	"compare, a fleet of five NEW: the blocks, CSV and markdown figures recompute"
compare_all c4 --allow-partial b.json n7.json n2.json
is "$(perl "$F/compare.pl" c4.json c4.txt c4.csv c4.md)" "" \
	"compare, a NEW without the fifo results: its cells are '-', the rest recomputes"
is "$("$JSONQ" c4.json .summary.coverage_lost)" 2 "... the two results it lacks are coverage lost"

# Documents from different hosts, users, capabilities and versions: the
# labels (HOST/KERNEL, of different lengths), the notes, the documents
# table.  withrun HOST EUID CAPS VERSION <DOC: DOC with that run.
withrun() {
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my ($h, $u, $c, $v) = @ARGV;
		$d->{run} = { hostname => $h, kernel => { release => "6.$u" }, user => { euid => $u + 0,
			capabilities => [split /,/, $c] }, pipebench => { version => $v } };
		print JSON::PP->new->canonical->encode($d)' "$@"
}
withrun base 0 CAP_CHOWN,CAP_KILL,CAP_SYS_ADMIN 0.1.0 <b.json >hb.json
withrun h1 0 CAP_CHOWN,CAP_KILL,CAP_SYS_ADMIN 0.1.0 <n1.json >h1.json
withrun host-two 1000 "" 0.1.0 <n2.json >h2.json
withrun h3 0 CAP_CHOWN,CAP_NET_RAW,CAP_SETUID,CAP_SETGID,CAP_MKNOD,CAP_BPF 0.1.0 <n5.json >h3.json
withrun h1 0 CAP_CHOWN,CAP_KILL,CAP_SYS_ADMIN 0.2.0 <n6.json >h4.json
compare_all h5 hb.json h1.json h2.json h3.json
is "$(perl "$F/compare.pl" h5.json h5.txt h5.csv h5.md)" "" \
	"compare, three NEW from other users, capabilities: labels, notes and the documents table recompute"
compare_all h6 hb.json h1.json h2.json h3.json h4.json
is "$(perl "$F/compare.pl" h6.json h6.txt h6.csv h6.md)" "" \
	"compare, a fleet with a label given twice (#N) and another version: labels, notes, blocks recompute"
compare_all h7 --label base,a,bbbbbbbbbbbb,cc,d hb.json h1.json h2.json h3.json h4.json
is "$(perl "$F/compare.pl" h7.json h7.txt h7.csv h7.md base,a,bbbbbbbbbbbb,cc,d)" "" \
	"compare --label of different lengths in a fleet: the blocks are aligned to the longest"
# Capabilities of absurd length: the difference is cut where its buffer
# ends (511 bytes shown), however far "and N more" would reach.  The
# documents' differences, before " and 2 more", end at 499, 500, 501, 511
# and 512 bytes: the tail fits with room to spare, exactly, one byte short,
# only its NUL fits, nothing of it fits.  Catches the tail written past the
# buffer (a longer line, or a crash).
capn() { perl -e 'print "CAP_", $ARGV[0] x ($ARGV[1] - 4)' "$@"; }
k=0
for l3 in 163 164 165 175 176; do
	k=$((k + 1))
	withrun "k$k" 0 "$(capn A 160),$(capn B 160),$(capn C "$l3"),$(capn D 10),CAP_KILL" 0.1.0 <n1.json >k$k.json
done
withrun kbase 0 CAP_CHOWN 0.1.0 <b.json >kb.json
compare_all k6 kb.json k1.json k2.json k3.json k4.json k5.json
is "$(perl "$F/compare.pl" k6.json k6.txt k6.csv k6.md 2>&1)" "" \
	"compare, capability differences of 499 to 512 bytes: the notes and the documents table, cut at 511 bytes"
is "$(grep -c "^  k[1-5]/6\.0 .* and 2 mor" k6.txt)" 3 "... the tail shown whole, whole, cut by one byte"

perl "$F/confdoc.pl" pass pass skip fail pass error >ca.json
perl "$F/confdoc.pl" pass fail pass fail error error pass >cb.json
perl "$F/confdoc.pl" error pass pass skip pass error >cc.json
compare_all v1 ca.json cb.json cc.json
is "$(perl "$F/compare.pl" v1.json v1.txt v1.csv v1.md)" "" \
	"compare, verdicts in two NEW: changes, regressions, the grid and the counts recompute"
is "$("$JSONQ" v1.json .summary.verdict_changes .summary.verdicts_unchanged .summary.regressions | tr '\n' ' ')" \
	"7 6 3 " "... 7 changes (3 to fail or error), 6 unchanged"
perl "$F/repdoc.pl" throughput=b.json conformance=ca.json >ra.json
perl "$F/repdoc.pl" throughput=n2.json conformance=cb.json >rb.json
compare_all r1 ra.json rb.json
is "$(perl "$F/compare.pl" r1.json r1.txt r1.csv r1.md)" "" \
	"compare, reports: each part's metrics and verdicts recompute"
# The same checks at the top of a document and in two of its parts: a
# verdict row is its part's, the top level's (no part) or the other part's,
# never another's with the same check and key.  NEW 1 changes only the
# conformance part, NEW 2 the top level and the other part, so the grid's
# rows come from parts first and the top level after.  Catches rows of a
# part and of the top level taken for one (or compared as names that are
# not there).
# toplevel CHECKS.json <DOC: DOC with CHECKS.json's checks at its top level.
toplevel() {
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); open(my $f, "<", $ARGV[0]) or die;
		$d->{checks} = decode_json(<$f>)->{checks}; print JSON::PP->new->canonical->encode($d)' "$1"
}
perl "$F/repdoc.pl" conformance=ca.json other=ca.json | toplevel ca.json >g0.json
perl "$F/repdoc.pl" conformance=cb.json other=ca.json | toplevel ca.json >g1.json
perl "$F/repdoc.pl" conformance=ca.json other=cb.json | toplevel cb.json >g2.json
compare_all g3 g0.json g1.json g2.json
is "$(perl "$F/compare.pl" g3.json g3.txt g3.csv g3.md 2>&1)" "" \
	"compare, the same checks at the top level and in two parts: verdict changes and the grid recompute"
is "$("$JSONQ" g3.json .summary.verdict_changes .verdict_grid# | tr '\n' ' ')" "12 12 " \
	"... 4 changes in NEW 1, 8 in NEW 2, a grid row for each"

# Real documents: a throughput run against another.
"$P" throughput --kind anon,fifo --size 4K --loops 100 --repeat 3 --dir "$D" -q --format json -o t1.json
"$P" throughput --kind anon,fifo --size 4K --loops 100 --repeat 4 --dir "$D" -q --format json -o t2.json
compare_all c5 --threshold 1e6 t1.json t2.json
is "$(perl "$F/compare.pl" c5.json c5.txt c5.csv c5.md)" "" "compare, two real throughput runs: every figure recomputes"

# The recomputation can fail: one figure changed, each way, is reported.
for change in 'base_mean *= 1.001' 'change_pct = -$r->{change_pct}' 'p_value /= 2' \
	'significant = !$r->{significant} ? JSON::PP::true : JSON::PP::false'; do
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my ($r) = grep { $_->{metric} eq "tt_ns" &&
		defined $_->{p_value} } @{$d->{results}}; eval "\$r->{'"${change%% *}"'} '"${change#* }"'"; die $@ if $@;
		print JSON::PP->new->encode($d)' <c1.json >bad.json
	printf '%s\n' "$(perl "$F/compare.pl" bad.json | sed 's/: got .*//; s/^results\[[0-9]*\]//')" >bad.out
	is "$(cat bad.out)" "(tt_ns).${change%% *}" "a compare document with $change is caught, and nothing else"
done

# ---- timestamps: every sample's state from its times, every field's
# counts and state, every verdict and expectation.
"$P" timestamps --repeat 4 --dir "$D" -q --format json -o ts1.json 2>/dev/null
"$P" timestamps --repeat 4 --dir "$D" -q -o ts1.txt 2>/dev/null
is "$(perl "$F/timestamps.pl" ts1.json ts1.txt)" "" \
	"timestamps --repeat 4: per-sample states, counts, verdicts recompute; the text shows them"
"$P" timestamps --repeat 2 --dir "$D" --expect anon=updated,fifo=frozen -q --format json -o ts2.json 2>/dev/null
is "$(perl "$F/timestamps.pl" ts2.json)" "" "timestamps --expect: the expectations' holds recompute too"
# A broken kernel whose anonymous-pipe read moves ctime but not mtime (and
# write mtime and ctime but not atime): columns that differ, each where it
# belongs in the text.
if fault_layer; then
	faulty ts-partial-anon "$P" timestamps --repeat 2 --dir "$D" -q --format json -o ts5.json 2>/dev/null
	faulty ts-partial-anon "$P" timestamps --repeat 2 --dir "$D" -q -o ts5.txt 2>/dev/null
	r=$(perl "$F/timestamps.pl" ts5.json ts5.txt)
	grep -Eq '^anon +read +unchanged +unchanged +updated$' ts5.txt || r="no row 'anon read unchanged unchanged updated'; $r"
	is "$r" "" "timestamps under ts-partial-anon: mtime and ctime differ, each in its column"
else
	skip 1 "no fault layer"
fi
# o_noatime runs an unmeasured warmup pair before its measured ones: the
# pipe reads and writes strace sees (3000 bytes each, a size nothing else
# uses) are the repetitions' syscalls and about one pair more; at least half
# a pair more than the measured ones.
if command -v strace >/dev/null 2>&1; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=read,write \
		-o "$D/on.tr" "$P" o_noatime --loops 20 --repeat 2 --size 3000 --dir "$D" -q \
		--format json -o on0.json 2>/dev/null
	seen=$(grep -c ', 3000) = ' "$D/on.tr")
	measured=$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my $n = 0;
		for my $r (@{$d->{results}}) { next unless ($r->{role} // "") =~ /^[AB]$/;
			$n += $_->{syscalls} for @{$r->{repetitions}}; } print $n' <on0.json)
	[ "$measured" -gt 0 ] && [ "$seen" -ge $((measured + measured / 4)) ]
	ok $? "o_noatime: a warmup pair before the measured ones ($seen pipe calls seen, $measured measured)"
else
	skip 1 "strace not installed"
fi

# o_noatime's substitute caveat follows the two kinds' timestamp verdicts in
# the same document: "bounds" only for a frozen anonymous pipe and an
# updated FIFO (this kernel), "does NOT isolate" for every other pair (a
# FIFO that is frozen too under ts-frozen-fifo).
caveat() {	# caveat FILE: what the caveat should be, from the verdicts there
	set -- $("$JSONQ" "$1" '.timestamps[0].verdict' '.timestamps[1].verdict')
	if [ "$1" = frozen ] && [ "$2" = updated ]; then
		echo "on this kernel the FIFO updates its timestamps and the anonymous pipe does not, so the ratio bounds what timestamp updates cost (it also includes other FIFO-only work)"
	else
		echo "on this kernel anonymous pipes are '$1' and FIFOs '$2', so the ratio does NOT isolate what timestamp updates cost"
	fi
}
"$P" o_noatime --loops 10 --repeat 1 --dir "$D" -q --format json -o on1.json 2>/dev/null
is "$("$JSONQ" on1.json .benchmark.caveat)" "$(caveat on1.json)" \
	"o_noatime: the substitute's caveat follows the verdicts ($("$JSONQ" on1.json '.timestamps[0].verdict' '.timestamps[1].verdict' | tr '\n' ' '))"
if fault_layer; then
	faulty ts-frozen-fifo "$P" o_noatime --loops 10 --repeat 1 --dir "$D" -q --format json -o on2.json 2>/dev/null
	is "$("$JSONQ" on2.json .benchmark.caveat)" "$(caveat on2.json)" \
		"o_noatime under ts-frozen-fifo: the caveat says the ratio does not isolate the cost"
else
	skip 1 "no fault layer"
fi
if mkdir ro && mount -t tmpfs -o noatime,size=64k pb-fig-noatime "$D/ro" 2>/dev/null; then
	"$P" timestamps --repeat 3 --dir "$D/ro" -q --format json -o ts3.json 2>/dev/null
	"$P" timestamps --repeat 3 --dir "$D/ro" -q -o ts3.txt 2>/dev/null
	umount "$D/ro"
	is "$(perl "$F/timestamps.pl" ts3.json ts3.txt)" "" "timestamps on a noatime mount: atime undetermined, the rest recomputes"
else
	skip 1 "cannot mount a noatime tmpfs here"
fi
perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my $f = $d->{results}[0]{operations}[0]{fields}{mtime};
	$f->{updated}++; print JSON::PP->new->encode($d)' <ts1.json >bad.json
is "$(perl "$F/timestamps.pl" bad.json | sed 's/: got .*//')" "results[0].write.fields.mtime.updated" \
	"a count one too many is caught, and nothing else"

# ---- run facts: this process's machine, user, affinity and limits.
on=$(getconf _NPROCESSORS_ONLN); pg=$(getconf PAGESIZE)
"$P" throughput --loops 10 --repeat 1 -q --format json -o rf1.json
is "$(perl "$F/run.pl" rf1.json "$on" "$pg" "$P" throughput --loops 10 --repeat 1 -q --format json -o rf1.json)" "" \
	"run and system facts: memory, CPUs, user, capabilities, pipe limits, kernel, argv"
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	taskset -c 0 "$P" messaging --groups 1 --fds 2 --loops 5 --repeat 1 -q --format json -o rf2.json 2>/dev/null
	is "$(taskset -c 0 perl "$F/run.pl" rf2.json "$on" "$pg" "$P" messaging --groups 1 --fds 2 --loops 5 --repeat 1 -q --format json -o rf2.json)" "" \
		"run facts under taskset -c 0: one CPU allowed, the list '0'"
else
	skip 1 "taskset is not installed"
fi
perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); $d->{run}{memory}{total_bytes} /= 1024;
	print JSON::PP->new->encode($d)' <rf1.json >bad.json
is "$(perl "$F/run.pl" bad.json "$on" "$pg" "$P" throughput --loops 10 --repeat 1 -q --format json -o rf1.json | sed 's/: got .*//')" \
	"throughput run.memory.total_bytes (MemTotal x 1024)" "memory in KiB where bytes are due is caught, and nothing else"

# Virtualisation from the CPU's flags: "hypervisor" as a whole word
# anywhere in /proc/cpuinfo's flags line (first, between, last, alone) is a
# virtual machine; a longer word containing it, or a line without it, is
# not; no flags line says nothing (null).  Each row runs in a mount
# namespace with its own /proc/cpuinfo, the DMI names and Xen's
# /sys/hypervisor/type hidden (empty), so nothing else decides.  Catches a
# flag taken for the word when it only starts or ends with it, and a
# machine called virtual for a flag that is not there.
# virt FLAGS: virtualized and hypervisor with that flags line ("-": none).
virt() {
	{ printf 'processor\t: 0\n'; [ "$1" = - ] || printf 'flags\t\t: %s\n' "$1"
	  printf 'model name\t: test\n'; } >"$D/cpuinfo"
	: >"$D/empty"
	rm -f "$D/virt.json"
	unshare -m sh -c 'mount --bind "$1/cpuinfo" /proc/cpuinfo || exit 77
		for f in /sys/hypervisor/type /sys/class/dmi/id/sys_vendor /sys/class/dmi/id/product_name; do
			[ ! -e "$f" ] || mount --bind "$1/empty" "$f" || exit 77
		done
		exec "$2" conformance --list --format json -o "$1/virt.json"' sh "$D" "$P" 2>/dev/null &&
	"$JSONQ" "$D/virt.json" .run.virtualization.virtualized .run.virtualization.hypervisor | tr '\n' ' '
}
if virt - >/dev/null; then
	while IFS='|' read -r want flags; do
		is "$(virt "$flags")" "$want null " "virtualized $want for the flags '$flags'"
	done <<'EOF_VIRT'
true|fpu vme hypervisor lm
true|hypervisor fpu vme
true|fpu vme hypervisor
true|hypervisor
false|fpu vme lm
false|hypervisorx fpu vme
false|fpu xhypervisor vme
false|fpu vme hypervisorx
false|fpu vme xhypervisor
null|-
EOF_VIRT
else
	skip 10 "cannot give pipebench a /proc/cpuinfo of its own (unshare -m, mount --bind)"
fi
# Xen's /sys/hypervisor/type, on a /sys of its own (tmpfs) and flags without
# "hypervisor": its first line names the hypervisor; a blank one names
# nothing and says nothing.
# hvtype TEXT: virtualized and hypervisor with that file (printf's format).
hvtype() {
	printf 'processor\t: 0\nflags\t\t: fpu vme lm\n' >"$D/cpuinfo"
	rm -f "$D/virt.json"
	unshare -m sh -c 'mount --bind "$1/cpuinfo" /proc/cpuinfo && mount -t tmpfs pb-sys /sys &&
		mkdir /sys/hypervisor && printf "$3" >/sys/hypervisor/type || exit 77
		exec "$2" conformance --list --format json -o "$1/virt.json"' sh "$D" "$P" "$1" \
		2>/dev/null &&
	"$JSONQ" "$D/virt.json" .run.virtualization.virtualized .run.virtualization.hypervisor | tr '\n' ' '
}
if hvtype 'xen\n' >/dev/null; then
	is "$(hvtype 'xen\n')" "true xen " "/sys/hypervisor/type 'xen': virtualized, hypervisor xen"
	is "$(hvtype '\nxen\n')" "false null " "/sys/hypervisor/type with a blank first line: nothing said"
else
	skip 2 "cannot give pipebench a /sys of its own (unshare -m, mount -t tmpfs)"
fi

# ---- report: its bookkeeping and copy ceiling, each part's run facts.
"$P" report --quick --parts timestamps,throughput_64k --dir "$D" --format json -o rep1.json 2>/dev/null
is "$(perl "$F/report.pl" rep1.json timestamps,throughput_64k)" "" \
	"report: parts, statuses, errors, exit status and the copy ceiling recompute"
is "$(perl "$F/run.pl" rep1.json "$on" "$pg" "$P" report --quick --parts timestamps,throughput_64k --dir "$D" --format json -o rep1.json)" "" \
	"report: its run facts and each part's"
sh -c 'exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n 6 && exec "$0" report --quick --parts timestamps,throughput_64k --format json -o "$1"' \
	"$P" "$D/rep2.json" 2>/dev/null
is "$(perl "$F/report.pl" rep2.json timestamps,throughput_64k)" "" \
	"report with a part that cannot run (6 descriptors): its status, error and the exit status recompute"
is "$("$JSONQ" rep2.json .exit_status)" 3 "... exit status 3"
# Interrupted in the conformance part (its second check stopped, then
# SIGTERM): the part marked, the rest not run, 128 + 15.
"$P" report --quick --parts timestamps,conformance,throughput_64k --format json -o "$D/rep3.json" 2>/dev/null &
pid=$!
stopped=$(stop_check kids "$pid")
kill -s TERM "$pid"
wait "$pid"
kill -0 "$stopped" 2>/dev/null && kill -KILL "$stopped"
is "$(perl "$F/report.pl" rep3.json timestamps,conformance,throughput_64k)" "" \
	"report interrupted in conformance: marked, not run, exit status and errors recompute"
# A part killed by a signal (its process, not the report, SIGKILLed while
# its second check is stopped): not interrupted, no status, exit 3, and the
# report goes on to the next part.
"$P" report --quick --parts conformance,messaging --format json -o "$D/rep4.json" 2>/dev/null &
pid=$!
stopped=$(stop_check kids "$pid")
part=$(kids "$pid")
[ -n "$part" ] && kill -KILL $part
wait "$pid"; rc=$?
kill -0 "$stopped" 2>/dev/null && kill -KILL "$stopped"
is "$(perl "$F/report.pl" rep4.json conformance,messaging)" "" \
	"report with a part killed by SIGKILL: not interrupted, no status, the next part run, exit status recomputes"
is "$rc $("$JSONQ" rep4.json .part_runs.conformance.error .part_runs.messaging.exit_status | tr '\n' ' ')" \
	"3 killed by signal SIGKILL 0 " "... exit 3, 'killed by signal SIGKILL', messaging still measured"
done_testing
