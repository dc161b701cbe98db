#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --profile of throughput and latency: each measured row's samples add up
# (kernel + user, every category, shares summing to 1, time per operation
# from the sample count), the top functions ranked; where timestamps says
# this kernel freezes anonymous pipes' times and moves FIFOs', the profile
# agrees (FIFO time in timestamp code, less on anonymous pipes); perf
# refused (a seccomp filter) or kernel samples refused (unprivileged) are
# said, never an error; combinations it does not take are exit 2.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
P=$PIPEBENCH
J=$TEST_TMP/p.json
NOURING=$TESTS_BUILDDIR/nouring
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
perl -MJSON::PP -e 1 2>/dev/null || skip_all "perl's JSON::PP is not installed (Debian package perl)"

# The figures of every profiled row of document $1 (ops: the row's
# operations in its measured repetitions, by command).
check_rows() {
	perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>); my $n = 0;
		my $period = $d->{profile}{period_ns};
		for my $r (@{ $d->{results} }) {
			next if defined $r->{status} && $r->{status} ne "ok";
			my $p = $r->{profile}; my $id = "$r->{kind} $r->{size_bytes}";
			do { print "$id: no profile\n"; next } unless $p; $n++;
			print "$id: samples $p->{samples} != kernel + user\n"
				unless $p->{samples} == $p->{kernel_samples} + $p->{user_samples};
			print "$id: no samples\n" unless $p->{samples} > 0;
			print "$id: share_margin_95 $p->{share_margin_95}\n"
				if $p->{samples} && abs($p->{share_margin_95} - 0.98 / sqrt($p->{samples})) > 1e-9;
			my ($cs, $sh, $ops, $unit) = (0, 0, 0, "");
			if ($d->{command} eq "throughput") {
				$ops += $_->{write_calls} + $_->{read_calls} for @{ $r->{repetitions} };
				$unit = "ns_per_syscall";
			} elsif ($d->{command} eq "messaging") {
				$ops += $_->{messages} for @{ $r->{repetitions} };
				$unit = "ns_per_message";
			} else {
				$ops += $_->{round_trips} for @{ $r->{repetitions} };
				$unit = "ns_per_round_trip";
			}
			for my $c (values %{ $p->{categories} }) {
				$cs += $c->{samples}; $sh += $c->{share};
				my $want = $c->{samples} * $period / $ops;
				print "$id: $unit $c->{$unit}, want $want\n"
					if abs($c->{$unit} - $want) > 1e-9 * ($want + 1);
			}
			print "$id: categories hold $cs of $p->{samples} samples\n" unless $cs == $p->{samples};
			print "$id: shares sum to $sh\n" if abs($sh - 1) > 1e-9;
			print "$id: user category $p->{categories}{user}{samples}\n"
				unless $p->{categories}{user}{samples} == $p->{user_samples};
			my $prev = 1e18; my $top = 0;
			for my $t (@{ $p->{top_kernel_functions} }) {
				print "$id: top not ranked\n" if $t->{samples} > $prev;
				$prev = $t->{samples}; $top += $t->{samples};
			}
			print "$id: top functions hold $top of $p->{kernel_samples} kernel samples\n"
				if $top > $p->{kernel_samples};
		}
		print "rows $n\n"' <"$1"
}

"$P" throughput --profile --kind anon,fifo --loops 3000 --repeat 2 --warmup 0 --format json \
	-o "$J" 2>"$TEST_TMP/err"
is "$?" 0 "throughput --profile, anon and fifo: exit 0"
avail=$("$JSONQ" "$J" .profile.available)
ksyms=$("$JSONQ" "$J" .profile.kernel_symbols)
if [ "$avail" = true ]; then
	is "$(check_rows "$J")" "rows 2" "throughput: each row's samples add up, shares sum to 1, ns per syscall, ranked"
else
	skip 1 "throughput rows' profiles: $("$JSONQ" "$J" .profile.reason)"
fi

# The counters per syscall and per byte: the repetitions' sums over theirs
got=$(perl -MJSON::PP -e '
	my $d = decode_json(do { local $/; <STDIN> }); my $n = 0;
	for my $r (@{ $d->{results} }) {
		my ($sys, $bytes, %sum) = (0, 0);
		for my $e (@{ $r->{repetitions} }) {
			$sys += $e->{syscalls}; $bytes += $e->{bytes};
			for my $k (keys %{ $r->{summary}{counters_per_syscall} }) {
				$sum{$k} = defined $e->{$k} && (!exists $sum{$k} || defined $sum{$k})
					? ($sum{$k} // 0) + $e->{$k} : undef;
			}
		}
		for my $k (keys %sum) {
			my ($ps, $pb) = ($r->{summary}{counters_per_syscall}{$k}, $r->{summary}{counters_per_byte}{$k});
			if (!defined $sum{$k}) { print "$k: null expected\n" if defined $ps; next }
			print "$k per syscall $ps, want ", $sum{$k} / $sys, "\n"
				if abs($ps - $sum{$k} / $sys) > 1e-9 * ($ps + 1);
			print "$k per byte $pb, want ", $sum{$k} / $bytes, "\n"
				if abs($pb - $sum{$k} / $bytes) > 1e-9 * ($pb + 1);
		}
		$n++;
	}
	print "rows $n\n"' <"$J")
is "$got" "rows 2" "throughput: the counters per syscall and per byte are the repetitions' sums over theirs"

# The profile against the timestamps command's observation (not the version).
"$P" timestamps --format json -o "$TEST_TMP/ts.json" 2>/dev/null
anon=$("$JSONQ" "$TEST_TMP/ts.json" .summary.anon) fifo=$("$JSONQ" "$TEST_TMP/ts.json" .summary.fifo)
if [ "$ksyms" = true ] && [ "$anon/$fifo" = frozen/updated ]; then
	a=$("$JSONQ" "$J" .results[0].profile.categories.timestamps.share)
	f=$("$JSONQ" "$J" .results[1].profile.categories.timestamps.share)
	awk -v a="$a" -v f="$f" 'BEGIN { exit !(f > 0 && a < f) }'
	ok $? "timestamps: anon frozen, FIFO updated here; the profile puts FIFO time in timestamp code ($f) and less on anon ($a)"
elif [ "$ksyms" = true ] && [ "$anon/$fifo" = updated/updated ]; then
	a=$("$JSONQ" "$J" .results[0].profile.categories.timestamps.share)
	awk -v a="$a" 'BEGIN { exit !(a > 0) }'
	ok $? "timestamps: anon updated here; the profile finds anon time in timestamp code ($a)"
else
	skip 1 "the profile against timestamps: symbols $ksyms, anon $anon, fifo $fifo"
fi

"$P" throughput --profile --loops 2000 --repeat 1 --warmup 0 >"$TEST_TMP/out" 2>/dev/null
if [ "$avail" = true ]; then
	grep -q '^profile     perf cpu-clock samples every 1 ms' "$TEST_TMP/out"; ok $? "text: how it sampled"
	grep -Eq '^    [0-9]+ samples \([0-9]+% kernel; each share within [0-9.]+ points, 95%\):.* user space [0-9.]+%' "$TEST_TMP/out"
	ok $? "text: the row's categories"
else
	grep -q '^profile     not taken: ' "$TEST_TMP/out"; ok $? "text: why no profile"
	skip 1 "text: the row's categories (no profile here)"
fi

# timestamps --profile: the cost of the updates, against its own verdicts
"$P" timestamps --profile --format json -o "$TEST_TMP/tsp.json" 2>/dev/null
is "$?" 0 "timestamps --profile: exit 0"
if [ "$ksyms" = true ]; then
	set -- $("$JSONQ" "$TEST_TMP/tsp.json" .summary.anon .summary.fifo \
		.timestamp_cost.anon.kernel_share .timestamp_cost.fifo.kernel_share \
		.timestamp_cost.fifo.timestamp_samples .timestamp_cost.fifo.kernel_samples)
	# anon frozen: nothing in timestamp code; updated: something.  A FIFO
	# whose times the filesystem keeps (an overlay's "mixed") says nothing
	# about the pipe's cost, only an updated one does.
	case $1 in frozen) a_ok='a == 0' ;; updated) a_ok='a > 0' ;; *) a_ok=0 ;; esac
	case $2 in updated) f_ok='f > 0' ;; *) f_ok=1 ;; esac
	awk -v a="$3" -v f="$4" "BEGIN { exit !(($a_ok) && ($f_ok)) }"
	ok $? "timestamps --profile: the cost follows the verdicts (anon $1 $3, fifo $2 $4)"
	awk -v t="$5" -v k="$6" -v f="$4" 'BEGIN { exit !(k > 0 && (t / k - f) ^ 2 < 1e-18) }'
	ok $? "timestamps --profile: the share is the timestamp samples over the kernel samples"
	"$P" timestamps --profile 2>/dev/null | grep -q '^cost        timestamp updates: [0-9.]*% of kernel time on FIFOs'
	ok $? "timestamps --profile: the text's cost line"
else
	skip 3 "timestamps --profile: no kernel profile here"
fi

"$P" throughput --profile --kind anon,fifo --loops 2000 --repeat 2 --warmup 0 --format csv \
	>"$TEST_TMP/csv" 2>/dev/null
if [ "$avail" = true ]; then
	# the ten share columns on every repetition's line, summing to 1 (counted
	# from the line's end: a quoted reason before them may hold commas)
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^profile_.*_share$/) c[++n] = NF - i; next }
		{ s = 0; for (k = 1; k <= n; k++) s += $(NF - c[k]); if (s < 0.999999 || s > 1.000001) bad = 1; rows++ }
		END { exit !(n == 10 && rows == 4 && !bad) }' "$TEST_TMP/csv"
	ok $? "csv: each category's share on every repetition's line, summing to 1"
else
	skip 1 "csv: the profile's columns (no profile here)"
fi
"$P" throughput --profile --loops 2000 --repeat 1 --warmup 0 --format lava >"$TEST_TMP/lava" 2>/dev/null
if [ "$avail" = true ]; then
	is "$(grep -c 'TEST_CASE_ID=anon-100B-profile-[a-z]* RESULT=pass MEASUREMENT=[0-9.e+-]* UNITS=percent>' \
		"$TEST_TMP/lava")" 10 "lava: a measurement per category of the row, in percent"
else
	is "$(grep -c 'profile-' "$TEST_TMP/lava")" 0 "lava: no profile cases without a profile"
fi

"$P" latency --profile --kind anon,fifo --loops 3000 --repeat 2 --warmup 0 --format json -o "$J" \
	2>/dev/null
is "$?" 0 "latency --profile: exit 0"
if [ "$("$JSONQ" "$J" .profile.available)" = true ]; then
	is "$(check_rows "$J")" "rows 2" "latency: each row's samples add up, shares sum to 1, ns per round trip"
	case $("$JSONQ" "$J" .profile.scope) in cpus | threads) ok 0 "latency: the scope is said" ;;
	*) ok 1 "latency: the scope is said" ;; esac
else
	skip 2 "latency rows' profiles: $("$JSONQ" "$J" .profile.reason)"
fi

# messaging: samplers on each CPU keep the workers' samples
"$P" messaging --profile --groups 1 --loops 100 --repeat 2 --warmup 0 --format json -o "$J" 2>/dev/null
is "$?" 0 "messaging --profile: exit 0"
if [ "$("$JSONQ" "$J" .profile.available)" = true ]; then
	is "$(check_rows "$J")" "rows 1" "messaging: the row's samples add up, shares sum to 1, ns per message"
else
	"$JSONQ" "$J" .profile.reason | grep -Eq 'each CPU|perf_event'
	ok $? "messaging: no profile here, and why"
fi

# o_noatime and report take it too
"$P" o_noatime --profile --loops 1000 --repeat 3 --format json -o "$TEST_TMP/on.json" 2>/dev/null
rc=$?
case $rc in 0 | 4) ok 0 "o_noatime --profile: exit $rc, as without it" ;; *) ok 1 "o_noatime --profile: exit $rc" ;; esac
if [ "$avail" = true ]; then
	is "$("$JSONQ" "$TEST_TMP/on.json" '.results[0].profile.event' '.results[1].profile.event' | tr '\n' ' ')" \
		"cpu-clock cpu-clock " "o_noatime: each side has its profile"
	# its categories' times are per syscall; o_noatime counts no bytes, so
	# none is per byte
	grep -q '"ns_per_syscall"' "$TEST_TMP/on.json" && ! grep -q '"ns_per_byte"' "$TEST_TMP/on.json"
	ok $? "o_noatime: profile times per syscall, none per byte"
else
	skip 2 "o_noatime: each side's profile (no profile here)"
fi
# ... and its text: A's profile, then B's, each once, each with its samples
"$P" o_noatime --profile --loops 1000 --repeat 3 2>/dev/null >"$TEST_TMP/on.txt"
if [ "$avail" = true ]; then
	is "$(grep --no-group-separator -A1 '^  profile of [AB] ' "$TEST_TMP/on.txt" | sed 's/^    [0-9][0-9]* samples .*/samples/; s/^  profile of \([AB]\) .*/\1/' |
		tr '\n' ' ')" "A samples B samples " "o_noatime --profile text: A's profile, then B's, each with its samples"
else
	is "$(grep -c '^  profile: not taken: ' "$TEST_TMP/on.txt")" 1 "o_noatime --profile text: not taken, and why"
fi
"$P" report --quick --profile --parts timestamps,throughput --format json -o "$TEST_TMP/rep.json" \
	2>/dev/null
is "$?|$("$JSONQ" "$TEST_TMP/rep.json" .params.profile)" "0|true" "report --profile: exit 0, recorded"
if [ "$avail" = true ] && [ "$ksyms" = true ]; then
	"$JSONQ" "$TEST_TMP/rep.json" '.parts.throughput.results[0].profile.categories.timestamps.share' |
		grep -Eq '^[0-9.e+-]+$'
	ok $? "report --profile: the throughput part's rows carry their profiles"
	"$P" report --quick --profile --parts timestamps 2>/dev/null |
		grep -Eq '^ +timestamp updates: [0-9.]+% of kernel time on FIFOs, [0-9.]+% on anonymous pipes'
	ok $? "report --profile: the text says what timestamp updates cost here"
else
	skip 2 "report --profile: no kernel profile here"
fi

# compare names what moved: the same row made slower on one side, where
# only the timestamp category grew
if [ "$avail" = true ] && [ "$ksyms" = true ]; then
	"$P" throughput --profile --kind anon --loops 1000 --repeat 5 --warmup 0 --format json \
		-o "$TEST_TMP/two.json" 2>/dev/null
	perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>); my ($a) = @{ $d->{results} };
		my %o = (%$d); my %n = (%$d);
		$a->{stability} = "stable";
		# BASE: its repetitions made steady (the figures of the first,
		# 0.1% apart), so that the noise of a loaded machine decides nothing
		my $r0 = $a->{repetitions}[0];
		for my $i (0 .. $#{ $a->{repetitions} }) {
			my $e = $a->{repetitions}[$i];
			$e->{$_} = $r0->{$_} * (1 + 0.001 * $i)
				for grep { defined $r0->{$_} } qw(tw_ns tr_ns tt_ns ns_per_syscall);
			$e->{$_} = $r0->{$_} / (1 + 0.001 * $i)
				for grep { defined $r0->{$_} } qw(rate_bytes_per_s rate_syscalls_per_s);
		}
		# NEW: the same row, every time 3 times longer than BASE (a clear
		# regression whatever the noise), with a profile in which only the
		# timestamp category grew
		my %fn = %$a;
		$fn{repetitions} = [];   # its own array, not the one of BASE
		for my $i (0 .. $#{ $a->{repetitions} }) {
			my %e = %{ $a->{repetitions}[$i] };
			$e{$_} *= 3 for qw(tw_ns tr_ns tt_ns ns_per_syscall);
			$e{rate_bytes_per_s} /= 3; $e{rate_syscalls_per_s} /= 3 if $e{rate_syscalls_per_s};
			$fn{repetitions}[$i] = \%e;
		}
		my $p = decode_json(encode_json($a->{profile}));
		$p->{categories}{timestamps}{share} = 0.31;
		$p->{categories}{timestamps}{ns_per_syscall} += 180;
		# and copy moved by less than sampling explains: not named
		$p->{categories}{copy}{share} += 0.001;
		$p->{categories}{copy}{ns_per_syscall} += 1;
		$fn{profile} = $p;
		$o{results} = [$a]; $n{results} = [\%fn];
		# each also as the throughput part of a report
		for my $x ([\%o, "base"], [\%n, "new"]) {
			my ($doc, $name) = @$x;
			my %r = (%$doc, command => "report", parts => { throughput => $doc });
			delete @r{qw(results budget placement profile counters summary)};
			open(my $b, ">", "$ARGV[0]/$name.json") or die; print $b encode_json($doc); close $b;
			open($b, ">", "$ARGV[0]/r$name.json") or die; print $b encode_json(\%r); close $b;
		}' \
		"$TEST_TMP" <"$TEST_TMP/two.json"
	"$P" compare "$TEST_TMP/base.json" "$TEST_TMP/new.json" >"$TEST_TMP/cmp" 2>&1
	is "$?" 1 "compare: the slower row is a regression"
	grep -Eq '^ +what moved: timestamps [0-9.]+% -> 31\.0% of samples, \+180\.0 ns/syscall$' "$TEST_TMP/cmp"
	ok $? "compare: what moved under it: the timestamp category, not copy's change within the noise"
	is "$(grep -c 'what moved' "$TEST_TMP/cmp")" 1 "... once, under the first of the result's significant changes"
	"$P" compare "$TEST_TMP/rbase.json" "$TEST_TMP/rnew.json" >"$TEST_TMP/rcmp" 2>&1
	is "$?|$(grep -c '^ *what moved: timestamps ' "$TEST_TMP/rcmp")" "1|1" \
		"compare of two reports: what moved, once under the throughput part's first change"
	"$P" compare --format json "$TEST_TMP/base.json" "$TEST_TMP/new.json" 2>/dev/null |
		"$JSONQ" - .results[0].moved | grep -q '^timestamps '
	ok $? "compare JSON: each metric of the result says what moved"
else
	skip 5 "compare names what moved: no kernel profile here"
fi

# Agreement with perf itself: perf record -e cpu-clock around the same run,
# the top five kernel functions' shares within 5 percentage points.  perf
# sees the whole process (start, kallsyms, the document) and this sampler
# the loop alone; a load spike in one of them (once in a parallel
# distcheck: do_syscall_64 32.8% here, 23.6% by perf) is no disagreement of
# method, so up to three runs are made and one that agrees is enough; a
# sampler that misattributes disagrees in all three.
PERF=$(command -v perf 2>/dev/null)
if [ "$avail" = true ] && [ "$ksyms" = true ] && [ -n "$PERF" ] &&
   "$PERF" record -q -e cpu-clock -o "$TEST_TMP/perf.data" -- true >/dev/null 2>&1; then
	try=0 got=
	while [ "$try" -lt 3 ] && [ "$got" != agree ]; do
		try=$((try + 1))
		[ -z "$got" ] || diag "try $((try - 1)): $got"
		"$PERF" record -q -e cpu-clock -o "$TEST_TMP/perf.data" -- "$P" throughput --profile \
			--kind fifo --loops 8000 --repeat 1 --warmup 0 --format json -o "$TEST_TMP/agree.json" \
			>/dev/null 2>&1
		"$PERF" report -i "$TEST_TMP/perf.data" --sort sym --stdio 2>/dev/null |
			awk '$2 == "[k]" { sub(/%$/, "", $1); print $3, $1 }' >"$TEST_TMP/perf.txt"
		got=$(perl -MJSON::PP -e '
			my $d = decode_json(do { local $/; <STDIN> }); my %perf;
			open(my $f, "<", $ARGV[0]) or die; while (<$f>) { my ($s, $p) = split; $perf{$s} //= $p }
			my @top = @{ $d->{results}[0]{profile}{top_kernel_functions} }[0 .. 4];
			for my $t (@top) {
				my $ours = 100 * $t->{share}; my $theirs = $perf{$t->{function}} // 0;
				printf "%s %.1f%% here, %.1f%% by perf; ", $t->{function}, $ours, $theirs
					if abs($ours - $theirs) > 5;
			}
			print "agree\n"' "$TEST_TMP/perf.txt" <"$TEST_TMP/agree.json")
	done
	is "$got" agree "perf record -e cpu-clock: the top five kernel functions' shares agree within 5 points (try $try of 3)"
else
	skip 1 "agreement with perf record: perf not installed or not allowed here, or no kernel profile"
fi

# perf_event_open refused outright (a container's seccomp profile)
if "$NOURING" -p true 2>/dev/null; then
	"$NOURING" -p "$P" throughput --profile --loops 200 --repeat 1 --warmup 0 --format json \
		-o "$J" 2>/dev/null
	is "$?|$("$JSONQ" "$J" .profile.available)" "0|false" "seccomp: no profile, exit 0"
	"$JSONQ" "$J" .profile.reason | grep -q "seccomp"; ok $? "... the reason names it"
	"$NOURING" -p "$P" latency --profile --loops 200 --repeat 1 --warmup 0 --format json \
		-o "$J" 2>/dev/null
	is "$?|$("$JSONQ" "$J" .profile.available)" "0|false" "seccomp: latency without a profile, exit 0"
	"$NOURING" -p "$P" messaging --profile --groups 1 --loops 20 --repeat 1 --warmup 0 \
		--format json -o "$J" 2>/dev/null
	is "$?|$("$JSONQ" "$J" .profile.available)" "0|false" "seccomp: messaging without a profile, exit 0"
	"$NOURING" -p "$P" timestamps --profile --format json -o "$J" 2>/dev/null
	is "$?|$("$JSONQ" "$J" .timestamp_cost.fifo)" "0|null" "seccomp: timestamps without a cost, exit 0"
	"$JSONQ" "$J" .timestamp_cost.reason | grep -q "seccomp"; ok $? "... saying why"
	"$NOURING" -p "$P" report -Q --parts timestamps --profile >"$TEST_TMP/rep.txt" 2>/dev/null
	grep -Eq '^ +timestamp updates: not profiled: perf_event_open .*seccomp' "$TEST_TMP/rep.txt"
	ok $? "seccomp: report --profile says the timestamps part's cost was not profiled, and why"
else
	skip 7 "seccomp refusal: tests/nouring cannot install its filter here"
fi

# CPU-wide events refused, a task's own allowed (perf_event_paranoid 1 and
# up without CAP_PERFMON): latency samples each party's threads instead;
# messaging, which needs the workers' CPUs, says why it has no profile.
if "$NOURING" -c true 2>/dev/null && [ "$avail" = true ]; then
	"$NOURING" -c "$P" latency --profile --kind anon,fifo --loops 3000 --repeat 2 --warmup 0 \
		--format json -o "$J" 2>/dev/null
	is "$?|$("$JSONQ" "$J" .profile.available .profile.scope | tr '\n' ' ')" "0|true threads " \
		"no CPU-wide events: latency samples each party's threads, exit 0"
	is "$(check_rows "$J")" "rows 2" "... each row's samples add up, shares sum to 1, ns per round trip"
	"$NOURING" -c "$P" messaging --profile --groups 1 --loops 20 --repeat 1 --warmup 0 \
		--format json -o "$J" 2>/dev/null
	is "$?|$("$JSONQ" "$J" .profile.available)" "0|false" "no CPU-wide events: messaging without a profile, exit 0"
	"$JSONQ" "$J" .profile.reason | grep -q "each CPU"
	ok $? "... saying it needs events on each CPU ($("$JSONQ" "$J" .profile.reason))"
else
	skip 4 "CPU-wide refusal: no kernel profile here, or tests/nouring cannot install its filter"
fi

# messaging's table of samples cannot be allocated: no profile, saying
# why, and the run goes on (exit 0).  98352 is sizeof(struct pb_prof_ips)
# where long is 64 bits (five counters, a count, 4096 entries of 24 bytes).
if [ "$avail" = true ] && fault_layer && [ "$(getconf LONG_BIT 2>/dev/null)" = 64 ] &&
   ! ldd "$P" 2>/dev/null | grep -q libasan; then
	"$P" messaging --profile --groups 1 --loops 20 --repeat 1 --warmup 0 --format json \
		-o "$J" 2>/dev/null
	if [ "$("$JSONQ" "$J" .profile.available)" = true ]; then
		faulty "" env PB_FAULT_CALLOC_BYTES=98352 "$P" messaging --profile --groups 1 \
			--loops 20 --repeat 1 --warmup 0 --format json -o "$J" 2>/dev/null
		is "$?|$("$JSONQ" "$J" .profile.available .profile.reason | tr '\n' ' ')" \
			"0|false no memory for its samples " \
			"messaging --profile without memory for its samples: no profile, said why, exit 0"
	else
		skip 1 "messaging has no profile here (no events on each CPU)"
	fi
else
	skip 1 "no profile, no fault layer, not LP64, or a sanitizer build (its calloc comes first)"
fi

# unprivileged with perf_event_paranoid 2: user-space samples only, said
pz=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
chmod 777 "$TEST_TMP" "$TMPDIR"
nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }
if [ "$(id -u)" = 0 ] && [ "$pz" = 2 ] && command -v setpriv >/dev/null 2>&1 &&
   nobody test -w "$TMPDIR"; then
	nobody "$P" throughput --profile --loops 2000 \
		--repeat 1 --warmup 0 --format json -o "$TEST_TMP/nobody.json" 2>/dev/null
	is "$?|$("$JSONQ" "$TEST_TMP/nobody.json" .profile.available .profile.kernel_samples | tr '\n' ' ')" \
		"0|true false " "unprivileged: user samples only, exit 0"
	"$JSONQ" "$TEST_TMP/nobody.json" .profile.reason | grep -q "perf_event_paranoid 2"
	ok $? "... the reason names perf_event_paranoid"
	is "$("$JSONQ" "$TEST_TMP/nobody.json" .results[0].profile.kernel_samples)" 0 "... no kernel sample"
else
	skip 3 "unprivileged: needs root, setpriv, perf_event_paranoid 2 (it is ${pz:-unknown}) and a TMPDIR nobody can reach"
fi

# in a user namespace (root there, nobody outside): what it may do, said
if unshare -U -r true 2>/dev/null; then
	unshare -U -r "$P" throughput --profile --loops 500 --repeat 1 --warmup 0 --format json \
		-o "$TEST_TMP/userns.json" 2>/dev/null
	is "$?" 0 "user namespace: throughput --profile exits 0"
	perl -MJSON::PP -e '
		my $p = decode_json(do { local $/; <STDIN> })->{profile};
		exit !(($p->{available} && $p->{kernel_samples} && $p->{kernel_symbols}) ||
		       ($p->{reason} // $p->{symbols_reason} // "") ne "")' <"$TEST_TMP/userns.json"
	ok $? "user namespace: a full profile, or the reason for what is missing"
else
	skip 2 "user namespace: unshare -U -r is not allowed here"
fi

for a in "throughput --profile --copies 2" "throughput --profile --writers 2" \
	 "latency --profile --copies 2"; do
	# shellcheck disable=SC2086
	"$P" $a >/dev/null 2>"$TEST_TMP/err"
	is "$?|$(wc -l <"$TEST_TMP/err" | tr -d ' ')" "2|1" "$a: exit 2, one line"
done
tmp_empty; ok $? "nothing left behind"
done_testing
