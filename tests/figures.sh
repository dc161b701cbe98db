#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Derived figures, recomputed: every figure a document derives from raw
# values in the same document (rates, per-call times, call sums, ratios,
# the statistics of the repetitions with the man page's definitions) is
# computed again here from those raw values and must agree to 1e-9
# relative.  A ratio the wrong way round, a unit factor, a sum of the
# wrong counts or a statistic of the wrong sample changes a figure that
# nothing else recomputes (issue 19's survivors).
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
D=$TEST_TMP
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
perl -MJSON::PP -e 1 2>/dev/null || skip_all "perl's JSON::PP is not installed (Debian package perl)"


# figures FILE: one line per figure that does not agree ("path: got X,
# want Y"), nothing when every figure does; a count of figures checked on
# stderr's last line is not needed: a document with no result fails.
figures() {
	perl -MJSON::PP -MPOSIX -e '
	use strict; use warnings;
	local $/; open(my $f, "<", $ARGV[0]) or die "$ARGV[0]: $!";
	my $d = JSON::PP->new->decode(<$f>);
	my ($n, $ratios, @bad) = (0, 0);
	sub near { my ($p, $got, $want) = @_; $n++;
		if (!defined $got || !defined $want) {
			push @bad, "$p: got " . ($got // "null") . ", want " . ($want // "null") if defined($got) != defined($want);
			return; }
		my $tol = 1e-9 * (abs($want) > 1 ? abs($want) : 1);
		push @bad, "$p: got $got, want $want" if abs($got - $want) > $tol; }
	sub stats { my ($p, $s, @v) = @_; my $float = $p =~ /rate_/;
		@v = sort { $a <=> $b } @v; my $k = @v;
		my $med = $k % 2 ? $v[$k / 2] : ($v[$k / 2 - 1] + $v[$k / 2]) / 2;
		my $mean = 0; $mean += $_ / $k for @v;
		my $ss = 0; $ss += ($_ - $mean) ** 2 for @v;
		my $sd = $k > 1 ? sqrt($ss / ($k - 1)) : 0;
		near("$p.n", $s->{n}, $k); near("$p.min", $s->{min}, $v[0]);
		near("$p.max", $s->{max}, $v[-1]);
		# Nanoseconds print as integers: the median of an even count is
		# truncated in the document, the figures use the exact one.
		near("$p.median", $s->{median}, $float ? $med : int($med));
		near("$p.mean", $s->{mean}, $mean);
		near("$p.stddev", $s->{stddev}, $sd) if $k > 1;
		near("$p.rsd", $s->{rsd}, $sd / $mean) if $k > 1 && $mean;
		near("$p.spread", $s->{spread}, ($v[-1] - $v[0]) / $med) if $med;
		return $med; }
	# latency: the percentiles of a histogram ([low, high, count] buckets:
	# the bucket holding rank ceil(p/100 * n), its middle, within min..max),
	# rates and per-round-trip figures, the summary over the repetitions.
	sub pct { my ($h, $pc, $lo, $hi) = @_;
		my $n = 0; $n += $_->[2] for @$h;
		my $rank = POSIX::ceil($pc / 100 * $n); $rank = 1 if $rank < 1;
		my $seen = 0;
		for my $b (@$h) { $seen += $b->[2];
			if ($seen >= $rank) { my $v = $b->[0] + int(($b->[1] - $b->[0]) / 2);
				$v = $lo if $v < $lo; $v = $hi if $v > $hi; return $v; } }
		return $hi; }
	sub median { my @v = sort { $a <=> $b } @_; my $k = @v;
		return $k % 2 ? $v[$k / 2] : ($v[$k / 2 - 1] + $v[$k / 2]) / 2; }
	my %pcs = (p50 => 50, p90 => 90, p99 => 99, p99_9 => 99.9, p99_99 => 99.99);
	if ($d->{command} eq "latency") {
		my $i = 0;
		for my $r (@{$d->{results}}) {
			my $p = "results[$i]"; $i++;
			my @reps = @{$r->{repetitions} || []};
			next unless @reps;
			my $j = 0;
			for my $x (@reps, $r->{summary}) {
				my $q = $j < @reps ? "$p.repetitions[$j]" : "$p.summary"; $j++;
				for my $k (sort keys %pcs) {
					near("$q.rtt_${k}_ns", $x->{"rtt_${k}_ns"},
						pct($x->{histogram}, $pcs{$k}, $x->{rtt_min_ns}, $x->{rtt_max_ns}))
						if $x->{histogram};
				}
				my $n = 0; $n += $_->[2] for @{$x->{histogram} || []};
				near("$q.round_trips (the histogram'"'"'s count)", $n, $x->{round_trips}) if $x->{histogram};
				# the non-empty buckets (the man page), each past the one before
				my $prev = -1;
				for my $b (@{$x->{histogram} || []}) {
					push @bad, "$q.histogram: bucket [@$b] is empty" if $b->[2] <= 0;
					push @bad, "$q.histogram: bucket [@$b] not past $prev" if $b->[0] <= $prev || $b->[1] < $b->[0];
					$prev = $b->[1];
				}
			}
			for my $x (@reps) {
				near("$p.repetitions[].round_trips_per_s", $x->{round_trips_per_s},
					$x->{round_trips} * 1e9 / $x->{elapsed_ns});
			}
			my $s = $r->{summary};
			my ($n, $sum, $mn, $mx) = (0, 0, undef, undef);
			for my $x (@reps) { $n += $x->{round_trips}; $sum += $x->{rtt_mean_ns} * $x->{round_trips};
				$mn = $x->{rtt_min_ns} if !defined $mn || $x->{rtt_min_ns} < $mn;
				$mx = $x->{rtt_max_ns} if !defined $mx || $x->{rtt_max_ns} > $mx; }
			near("$p.summary.round_trips", $s->{round_trips}, $n);
			near("$p.summary.rtt_min_ns", $s->{rtt_min_ns}, $mn);
			near("$p.summary.rtt_max_ns", $s->{rtt_max_ns}, $mx);
			near("$p.summary.rtt_mean_ns", $s->{rtt_mean_ns}, $sum / $n);
			for my $k (qw(round_trips_per_s voluntary_ctxsw_per_round_trip
				involuntary_ctxsw_per_round_trip migrations_per_round_trip
				cpu_user_ns_per_round_trip cpu_sys_ns_per_round_trip
				page_faults_per_round_trip)) {
				my @v = grep { defined } map { $_->{$k} } @reps;
				near("$p.summary.$k", $s->{$k}, @v ? median(@v) : undef);
			}
			# against the first kind'"'"'s result of the same size, placement,
			# wait and mode: its p50 and p99 over the first'"'"'s
			next unless defined $r->{ratio_label};
			my (undef, $fk) = split m{/}, $r->{ratio_label};
			my ($f) = grep { $_->{kind} eq $fk && $_->{size_bytes} == $r->{size_bytes} &&
				$_->{placement} eq $r->{placement} && $_->{wait} eq $r->{wait} &&
				$_->{mode} eq $r->{mode} } @{$d->{results}};
			$ratios++;
			for my $k (qw(p50 p99)) {
				near("$p.${k}_ratio_to_first", $r->{"${k}_ratio_to_first"},
					$f ? $s->{"rtt_${k}_ns"} / $f->{summary}{"rtt_${k}_ns"} : undef);
			}
		}
		push @bad, "no result has a ratio to the first kind'"'"'s"
			if @{$d->{params}{kinds}} > 1 && !$ratios;
	}
	# messaging: the hackbench message count (groups x fds senders, each to
	# fds receivers, loops times), bytes, rates, and the statistics.
	if ($d->{command} eq "messaging") {
		my $i = 0;
		for my $r (@{$d->{results}}) {
			my $p = "results[$i]"; $i++;
			my @reps = @{$r->{repetitions} || []};
			next unless @reps;
			my $msgs = $r->{groups} * $r->{fds} * $r->{fds} * $r->{loops};
			my $j = 0;
			for my $x (@reps) {
				my $q = "$p.repetitions[" . $j++ . "]";
				near("$q.messages", $x->{messages}, $msgs);
				near("$q.bytes", $x->{bytes}, $msgs * $r->{size_bytes});
				near("$q.rate_messages_per_s", $x->{rate_messages_per_s}, $x->{messages} * 1e9 / $x->{elapsed_ns});
				near("$q.rate_bytes_per_s", $x->{rate_bytes_per_s}, $x->{bytes} * 1e9 / $x->{elapsed_ns});
			}
			my $s = $r->{summary};
			near("$p.summary.messages", $s->{messages}, $msgs);
			near("$p.summary.bytes", $s->{bytes}, $msgs * $r->{size_bytes});
			for my $k (qw(elapsed_ns cpu_user_ns cpu_sys_ns voluntary_ctxsw involuntary_ctxsw
				page_faults rate_messages_per_s rate_bytes_per_s)) {
				stats("$p.summary.$k", $s->{$k}, map { $_->{$k} } @reps);
			}
		}
	}
	# o_noatime: each pair'"'"'s TT ratio B/A, their median and spread, and
	# the statistics of each side.
	if ($d->{command} eq "o_noatime") {
		my %role = map { ($_->{role} // "") => $_ } @{$d->{results}};
		my ($ra, $rb, $ba) = @role{qw(A B B/A)};
		if ($ra && $rb && $ba) {
			for my $x ($ra, $rb) {
				stats("results[$x->{role}].tt_ns", $x->{tt_ns}, map { $_->{tt_ns} } @{$x->{repetitions}});
				near("results[$x->{role}].repetitions[].tt_ns", $_->{tt_ns}, $_->{tw_ns} + $_->{tr_ns})
					for @{$x->{repetitions}};
			}
			my @r;
			for my $k (0 .. $#{$ba->{repetitions}}) {
				push @r, $rb->{repetitions}[$k]{tt_ns} / $ra->{repetitions}[$k]{tt_ns};
				near("results[B/A].repetitions[$k].tt_ratio", $ba->{repetitions}[$k]{tt_ratio}, $r[-1]);
			}
			my @v = sort { $a <=> $b } @r;
			my $m = median(@r);
			near("summary.tt_ratio_median", $d->{summary}{tt_ratio_median}, $m);
			near("summary.tt_ratio_spread", $d->{summary}{tt_ratio_spread}, ($v[-1] - $v[0]) / $m);
		}
	}
	my %first;
	my $i = 0;
	for my $r ($d->{command} eq "throughput" ? @{$d->{results}} : ()) {
		my $p = "results[$i]"; $i++;
		next unless $r->{repetitions} && @{$r->{repetitions}};
		my $j = 0;
		for my $x (@{$r->{repetitions}}) {
			my $q = "$p.repetitions[" . $j++ . "]";
			near("$q.syscalls", $x->{syscalls}, $x->{write_calls} + $x->{read_calls});
			near("$q.tt_ns", $x->{tt_ns}, $x->{tw_ns} + $x->{tr_ns});
			near("$q.rate_bytes_per_s", $x->{rate_bytes_per_s}, $x->{bytes} * 1e9 / $x->{tt_ns});
			near("$q.ns_per_syscall", $x->{ns_per_syscall}, $x->{tt_ns} / $x->{syscalls});
		}
		my $s = $r->{summary};
		my %med;
		for my $t (qw(tw_ns tr_ns tt_ns)) {
			$med{$t} = stats("$p.summary.$t", $s->{$t}, map { $_->{$t} } @{$r->{repetitions}});
		}
		near("$p.summary.rate_bytes_per_s", $s->{rate_bytes_per_s}, $s->{bytes} * 1e9 / $med{tt_ns});
		near("$p.summary.rate_syscalls_per_s", $s->{rate_syscalls_per_s}, $s->{syscalls} * 1e9 / $med{tt_ns});
		near("$p.summary.ns_per_syscall", $s->{ns_per_syscall}, $med{tt_ns} / $s->{syscalls});
		# Time per byte relative to the first kind of the same mode and
		# size (null for the first itself), and to rw of the same kind.
		my $g = "$r->{mode}/$r->{size_bytes}";
		if (!$first{$g}) {
			$first{$g} = [$r, $med{tt_ns}];
			near("$p.cost_ratio_to_first", $r->{cost_ratio_to_first}, undef);
		} else {
			my ($f, $fm) = @{$first{$g}};
			near("$p.cost_ratio_to_first", $r->{cost_ratio_to_first},
				($med{tt_ns} / $s->{bytes}) / ($fm / $f->{summary}{bytes}));
		}
		$r->{_med} = $med{tt_ns};
		if ($r->{mode} ne "rw" && exists $r->{cost_ratio_to_rw}) {
			my ($rw) = grep { $_->{mode} eq "rw" && $_->{kind} eq $r->{kind} &&
				$_->{size_bytes} == $r->{size_bytes} && $_->{_med} } @{$d->{results}};
			near("$p.cost_ratio_to_rw", $r->{cost_ratio_to_rw},
				$rw ? ($med{tt_ns} / $s->{bytes}) / ($rw->{_med} / $rw->{summary}{bytes}) : undef);
		}
	}
	print "$_\n" for @bad;
	print "no figure checked\n" unless $n;
	' "$1" 2>&1
}

P=$PIPEBENCH
"$P" throughput --kind anon --size 4K --loops 300 --repeat 4 -q --format json --output "$D/t1.json"
is "$(figures "$D/t1.json")" "" "throughput, one kind, 4 repetitions: every derived figure recomputes"
"$P" throughput --kind anon --size 100 --loops 200 --repeat 3 -q --format json --output "$D/t2.json"
is "$(figures "$D/t2.json")" "" "throughput, 100-byte writes, 3 repetitions (odd median): every figure recomputes"
"$P" throughput --kind anon,fifo,socketpair --size 4K --loops 200 --repeat 2 --dir "$D" -q --format json --output "$D/t3.json"
is "$(figures "$D/t3.json")" "" "throughput --kind anon,fifo,socketpair: rates, statistics and cost_ratio_to_first recompute"
n=$("$JSONQ" "$D/t3.json" '.results#')
is "$n" 3 "... three results to recompute"
"$P" throughput --kind fifo,anon --size 4K --loops 200 --repeat 2 --dir "$D" -q --format json --output "$D/t4.json"
is "$(figures "$D/t4.json")" "" "throughput --kind fifo,anon: the ratio is to the first kind given (fifo)"
"$P" throughput --mode rw,vmsplice,splice --kind anon --size 64K --loops 100 --repeat 2 -q --format json --output "$D/t5.json"
is "$(figures "$D/t5.json")" "" "throughput --mode rw,vmsplice,splice: every figure recomputes, cost_ratio_to_rw too"
"$P" throughput --mode vmsplice,splice --kind anon,fifo --size 64K --loops 100 --repeat 2 --dir "$D" -q \
	--format json --output "$D/t0.json"
is "$(figures "$D/t0.json")" "" "throughput --mode vmsplice,splice: no rw measured, so no cost_ratio_to_rw (null)"
is "$("$JSONQ" "$D/t0.json" .results[1].mode .results[1].cost_ratio_to_rw | tr '\n' ' ')" "vmsplice null " \
	"... the second row is vmsplice's fifo row, its ratio to rw null"

"$P" latency --kind anon --loops 1500 --repeat 3 -q --format json --output "$D/l1.json" 2>/dev/null
is "$(figures "$D/l1.json")" "" "latency: percentiles from the histograms, rates, the summary over 3 repetitions"
"$P" latency --kind anon,fifo --placement same --loops 500 --repeat 2 --dir "$D" -q --format json --output "$D/l2.json" 2>/dev/null
is "$(figures "$D/l2.json")" "" "latency --kind anon,fifo --placement same: every derived figure recomputes"
"$P" latency --kind anon --loops 400 --repeat 2 --interval 1ms -q --format json --output "$D/l3.json" 2>/dev/null
is "$(figures "$D/l3.json")" "" "latency --interval: every derived figure recomputes"

"$P" messaging --groups 2 --fds 5 --loops 40 --size 200 --repeat 3 -q --format json --output "$D/m1.json" 2>/dev/null
is "$(figures "$D/m1.json")" "" "messaging: message count, bytes, rates and the statistics of 3 repetitions"
"$P" messaging --groups 1 --fds 4 --loops 30 --repeat 2 --threads -q --format json --output "$D/m2.json" 2>/dev/null
is "$(figures "$D/m2.json")" "" "messaging --threads: every derived figure recomputes"

"$P" o_noatime --loops 200 --repeat 3 --dir "$D" -q --format json --output "$D/o1.json" 2>/dev/null
is "$(figures "$D/o1.json")" "" "o_noatime: each pair's TT ratio B/A, their median and spread, each side's statistics"

# The text shows the JSON's figures: the headline rate (MB/s, 10^6) and
# ns per system call of the same run.
"$P" throughput --kind anon --size 4K --loops 300 --repeat 3 -q --format json --output "$D/t6.json"
rate=$("$JSONQ" "$D/t6.json" .results[0].summary.rate_bytes_per_s)
[ -n "$rate" ] && perl -e 'exit !($ARGV[0] > 0)' "$rate"
ok $? "the document has a positive summary rate ($rate)"

# The text table's figures recompute from its own whole columns (bytes and
# syscalls, medians of 3 repetitions or 1: whole numbers), to the digits it
# prints: Msys/s x ns/sys = 1000, MB/s x syscalls = Msys/s x bytes, TT s =
# ns/sys x syscalls within TT's min-max, and each "time/byte" ratio from the
# ns/sys, syscalls and bytes of its row and of the row it names (the first
# kind of the same mode and size, or rw of the same kind and size); with one
# repetition TT is TW + TR, min and max are TT and the spread is 0.  A unit
# or scale slip in any column, or a ratio taken against the wrong row, fails.
text_figures() {
	perl -e '
	use strict; use warnings;
	my ($modes, $one, @rows, @bad) = (0, 0);
	while (<STDIN>) {
		$modes = 1 if /^kind +mode /;
		$one = 1 if /^medians of 1 repetition;/;
		next unless /^(anon|fifo|socketpair) /;
		my @f = split;
		my %r = (kind => shift @f);
		$r{mode} = $modes ? shift @f : "rw";
		$r{size} = shift(@f) . " " . shift(@f);
		next if $f[0] eq "skip:";
		@r{qw(tw tr tt range spread bytes sc mbs msys nps)} = splice(@f, 0, 10);
		$r{ratios} = join(" ", @f);
		push @rows, \%r;
	}
	for my $r (@rows) {
		my ($b, $c, $q, $n, $m) = @$r{qw(bytes sc msys nps mbs)};
		my $id = "$r->{kind} $r->{mode} $r->{size}";
		push @bad, "$id: Msys/s $q x ns/sys $n is not 1000"
			if abs($q * $n - 1000) > 0.0005 * $n + ($q + 0.0005) * 0.05;
		push @bad, "$id: MB/s $m x syscalls $c is not Msys/s $q x bytes $b"
			if abs($m * $c - $q * $b) > 0.05 * $c + 0.0005 * $b;
		push @bad, "$id: TT s $r->{tt} is not ns/sys $n x syscalls $c"
			if abs($r->{tt} - $n * $c / 1e9) > 0.0005 + 0.05 * $c / 1e9;
		my ($lo, $hi) = split /-/, $r->{range};
		push @bad, "$id: TT s $r->{tt} is not within its min-max $r->{range}"
			unless $lo <= $r->{tt} && $r->{tt} <= $hi;
		# One repetition: its TT is TW + TR, its own min and max, no spread.
		push @bad, "$id: one repetition: TW $r->{tw} + TR $r->{tr} is not TT $r->{tt}, " .
			"or min-max $r->{range} not TT, or spread $r->{spread} not 0"
			if $one && (abs($r->{tw} + $r->{tr} - $r->{tt}) > 0.0015 ||
				$r->{range} ne "$r->{tt}-$r->{tt}" || $r->{spread} ne "0.0%");
		for my $x (split /, /, $r->{ratios}) {
			my ($a, $o, $v) = $x =~ m{^(\S+)/(\S+) ([0-9.]+)x$} or do { push @bad, "$id: ratio \"$x\""; next };
			my ($f) = grep { $_->{size} eq $r->{size} && ($o eq "rw" ?
				$_->{kind} eq $r->{kind} && $_->{mode} eq "rw" :
				$_->{kind} eq $o && $_->{mode} eq $r->{mode}) } @rows;
			push(@bad, "$id: \"$x\" names no row"), next unless $f;
			my $w = ($n * $c / $b) / ($f->{nps} * $f->{sc} / $f->{bytes});
			push @bad, "$id: \"$x\", want ${w}x"
				if abs($v - $w) > 0.005 + $w * (0.05 / $n + 0.05 / $f->{nps}) + 1e-9;
		}
	}
	print "$_\n" for @bad;
	print "no row\n" unless @rows;
	' 2>&1
}
"$P" throughput --kind anon,fifo,socketpair --size 4K --loops 200 --repeat 3 --dir "$D" -q >"$D/t7.txt"
is "$(text_figures <"$D/t7.txt")" "" "throughput text, three kinds: every figure recomputes from the row's bytes and syscalls"
is "$(grep -c '/anon [0-9.]*x$' "$D/t7.txt")" 2 "... fifo and socketpair have their ratio to anon"
"$P" throughput --kind anon,fifo --mode rw,vmsplice,splice --size 64K --loops 100 --repeat 3 --dir "$D" \
	-q >"$D/t8.txt"
is "$(text_figures <"$D/t8.txt")" "" "throughput text, two kinds, three modes: every figure and each ratio recomputes"
is "$(grep -c ' [a-z]*/rw [0-9.]*x$' "$D/t8.txt")" 4 "... vmsplice and splice of each kind have their ratio to rw"
is "$(grep -c '^fifo .* fifo/anon [0-9.]*x, [a-z]*/rw [0-9.]*x$' "$D/t8.txt")" 2 \
	"... and fifo's, its ratio to anon first"
"$P" throughput --kind anon,fifo --size 1K --loops 200 --repeat 1 --dir "$D" -q >"$D/t9.txt"
is "$(text_figures <"$D/t9.txt")" "" "throughput text, one repetition: TT is TW + TR, its own min and max"

# The recomputation itself can fail: a document with one figure changed
# by a factor 1000/1024 (KiB taken as 1000) is caught.
perl -MJSON::PP -e 'local $/; open(my $f, "<", $ARGV[0]) or die; my $d = JSON::PP->new->decode(<$f>);
	$d->{results}[0]{summary}{rate_bytes_per_s} *= 1000 / 1024; print JSON::PP->new->encode($d)' \
	"$D/t1.json" >"$D/bad.json"
is "$(figures "$D/bad.json" | sed 's/: got .*//')" "results[0].summary.rate_bytes_per_s" \
	"a rate off by 1000/1024 is reported, and nothing else"
done_testing
