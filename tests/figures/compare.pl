# SPDX-License-Identifier: GPL-2.0-or-later
# compare.pl COMPARE.json [TEXT CSV MARKDOWN [LABELS]]: every figure of a compare
# document recomputed from the BASE and NEW documents it names (params.base,
# params.new): each metric's samples, n, mean, rsd, %change, Welch p, significance,
# regression and comparability, the per-unit rows of different work, verdict
# changes, the grid and the summary counts; and the same figures in the text,
# CSV and markdown of the same comparison (LABELS: the --label list, for the
# fleet layout).  Prints one line per figure that disagrees.
use strict; use warnings; use JSON::PP; use POSIX ();
sub slurp { local $/; open(my $f, "<", $_[0]) or die "$_[0]: $!"; my $t = <$f>; $t }
my ($cf, $textf, $csvf, $mdf, $labels) = @ARGV;
my $c = JSON::PP->new->decode(slurp($cf));
my ($n, @bad) = (0);
sub bad { push @bad, $_[0] }
sub near { my ($p, $got, $want, $rel) = @_; $n++; $rel //= 1e-9;
	if (!defined $got || !defined $want) {
		bad("$p: got " . ($got // "null") . ", want " . ($want // "null")) if defined($got) != defined($want);
		return; }
	my $tol = $rel * (abs($want) > 1 ? abs($want) : 1);
	bad("$p: got $got, want $want") if abs($got - $want) > $tol; }
sub same { my ($p, $got, $want) = @_; $n++;
	my ($g, $w) = map { !defined $_ ? "null" : JSON::PP::is_bool($_) ? ($_ ? "true" : "false") : "$_" } ($got, $want);
	bad("$p: got $g, want $w") if $g ne $w; }
my $alpha = $c->{params}{alpha}; my $thr = $c->{params}{threshold_pct};
near("params.alpha", $alpha, 0.05);
my $base = JSON::PP->new->decode(slurp($c->{params}{base}));
my %new = map { ($_ => JSON::PP->new->decode(slurp($_))) } @{$c->{params}{new}};
# The man page's direction table, first match wins.
my @rules = (["bytes", "=", "n"], ["messages", "=", "n"], ["write_calls", "=", "n"],
	["read_calls", "=", "n"], ["syscalls", "=", "n"], ["verified_loops", "=", "n"], ["rate_", "^", "h"], ["_per_s", '$', "h"],
	["ns_per_", "^", "l"], ["syscalls_per_", "^", "l"], ["cpu_", "^", "l"], ["ctxsw", "~", "l"],
	["context_switches", "^", "l"], ["migrations", "^", "l"], ["page_faults", "^", "l"],
	["cycles", "^", "l"], ["instructions", "^", "l"], ["cache_misses", "^", "l"],
	["_ns", '$', "l"], ["round_trips", "=", "n"], ["_per_round_trip", '$', "l"]);
sub rule { my $m = shift; for my $r (@rules) { my ($p, $h) = @$r;
	return $r->[2] if $h eq "=" ? $m eq $p : $h eq "^" ? index($m, $p) == 0 :
		$h eq '$' ? (length($m) >= length($p) && substr($m, -length($p)) eq $p) : index($m, $p) >= 0; }
	return undef; }
my %dirname = (l => "lower-is-better", h => "higher-is-better", n => "neutral");
sub dir { rule($_[0]) // "n" }
sub workload { (rule($_[0]) // "") eq "n" }
sub extensive { dir($_[0]) eq "l" && $_[0] !~ /_per_/ && $_[0] !~ /^rtt_/ }
sub is_rate { $_[0] =~ /^rate_|_per_s$/ }
# a detail: a total beside a rate in its result, or a round trip's extremes
sub detail { my ($m, $has_rate) = @_;
	($has_rate && extensive($m) && $m =~ /_ns$/) || $m =~ /^rtt_(min|max|stddev|p99_9|p99_99)_ns$/ }
sub part_of { my ($d, $part) = @_; return $d unless defined $part;
	for my $p (split /\./, $part) { $d = $d->{parts}{$p} or return undef } $d }
sub entries { my $d = shift; return () unless $d; map { @{$d->{$_} || []} } qw(results checks) }
sub find { my ($d, $ids) = @_;
	for my $e (entries($d)) { my $ok = 1;
		for my $k (keys %$ids) { my $v = $e->{$k};
			$ok = 0, last unless defined $v && JSON::PP->new->canonical->encode([$v]) eq JSON::PP->new->canonical->encode([$ids->{$k}]); }
		return $e if $ok; }
	return undef; }
sub stat_of { my @v = sort { $a <=> $b } @_; my $k = @v; my $s = 0; $s += $_ for @v;
	my $mean = $s / $k; my $q = 0; $q += ($_ - $mean) * ($_ - $mean) for @v;
	my $sd = $k > 1 ? sqrt($q / ($k - 1)) : 0;
	return { n => $k, mean => $mean, sd => $sd, rsd => $mean != 0 ? $sd / abs($mean) : 0 }; }
# Student's t, two-sided: I_{df/(df+t^2)}(df/2, 1/2), by a plain continued fraction.
sub lgam { my $x = shift; my @c = (76.18009172947146, -86.50532032941677, 24.01409824083091,
	-1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5);
	my $y = $x; my $t = $x + 5.5; $t -= ($x + 0.5) * log($t); my $s = 1.000000000190015;
	$s += $_ / ++$y for @c; return -$t + log(2.5066282746310005 * $s / $x); }
sub bcf { my ($a, $b, $x) = @_; my ($qab, $qap, $qam) = ($a + $b, $a + 1, $a - 1);
	my $c = 1; my $d = 1 - $qab * $x / $qap; $d = 1e-300 if abs($d) < 1e-300; $d = 1 / $d; my $h = $d;
	for my $m (1 .. 300) { my $m2 = 2 * $m;
		for my $aa ($m * ($b - $m) * $x / (($qam + $m2) * ($a + $m2)),
			-($a + $m) * ($qab + $m) * $x / (($a + $m2) * ($qap + $m2))) {
			$d = 1 + $aa * $d; $d = 1e-300 if abs($d) < 1e-300; $c = 1 + $aa / $c;
			$c = 1e-300 if abs($c) < 1e-300; $d = 1 / $d; $h *= $d * $c; }
		last if abs($d * $c - 1) < 1e-13; }
	return $h; }
sub ibeta { my ($a, $b, $x) = @_; return 0 if $x <= 0; return 1 if $x >= 1;
	my $bt = exp(lgam($a + $b) - lgam($a) - lgam($b) + $a * log($x) + $b * log(1 - $x));
	return $x < ($a + 1) / ($a + $b + 2) ? $bt * bcf($a, $b, $x) / $a : 1 - $bt * bcf($b, $a, 1 - $x) / $b; }
sub pval { my ($a, $b) = @_; return undef if $a->{n} < 2 || $b->{n} < 2;
	return $a->{mean} == $b->{mean} ? 1 : 0 if $a->{sd} == 0 && $b->{sd} == 0;
	my ($va, $vb) = ($a->{sd} ** 2 / $a->{n}, $b->{sd} ** 2 / $b->{n}); my $se2 = $va + $vb;
	my $t = ($b->{mean} - $a->{mean}) / sqrt($se2);
	my $df = $se2 * $se2 / ($va * $va / ($a->{n} - 1) + $vb * $vb / ($b->{n} - 1));
	return ibeta($df / 2, 0.5, $df / ($df + $t * $t)); }
# Mann-Whitney U of B against A, two-sided p (exact without ties up to 400
# pairs, else normal with the tie and continuity corrections), and the
# Hodges-Lehmann shift with its 95% interval.
sub rank_test { my ($xa, $xb) = @_; my ($na, $nb) = (scalar @$xa, scalar @$xb); my $nd = $na * $nb;
	my $u = 0; for my $x (@$xa) { for my $y (@$xb) { $u += $y > $x ? 1 : $y == $x ? 0.5 : 0 } }
	my %c; $c{$_}++ for @$xa, @$xb; my $tie = 0; $tie += $_ ** 3 - $_ for grep { $_ > 1 } values %c;
	my $n = $na + $nb; my $mean = $nd / 2; my $var = $nd * (($n + 1) - $tie / ($n * ($n - 1))) / 12;
	my ($p, $k) = (1, 0);
	if (!$tie && $nd <= 400) {
		my @f; # f[n][m][u] by the recurrence
		for my $i (0 .. $na) { for my $j (0 .. $nb) {
			if (!$i || !$j) { $f[$i][$j] = [1]; next }
			my @r; for my $w (0 .. $i * $j) { $r[$w] = ($w >= $j ? ($f[$i - 1][$j][$w - $j] // 0) : 0) + ($f[$i][$j - 1][$w] // 0) }
			$f[$i][$j] = \@r; } }
		my @cnt = @{$f[$na][$nb]}; my ($tot, $le, $ge) = (0, 0, 0);
		for my $w (0 .. $nd) { $tot += $cnt[$w]; $le += $cnt[$w] if $w <= $u; $ge += $cnt[$w] if $w >= $u }
		$p = 2 * ($le < $ge ? $le : $ge) / $tot; $p = 1 if $p > 1;
		my $cum = 0; for my $w (0 .. $nd) { last if $cum + $cnt[$w] > 0.025 * $tot; $cum += $cnt[$w]; $k = $w + 1 }
	} elsif ($var > 0) {
		my $z = (abs($u - $mean) - 0.5) / sqrt($var); $z = 0 if $z < 0;
		$p = POSIX::erfc($z / sqrt(2)); $p = 1 if $p > 1;
		my $kk = POSIX::floor($mean - 1.959963984540054 * sqrt($var)); $k = $kk > 0 ? $kk : 0;
	}
	my @d = sort { $a <=> $b } map { my $x = $_; map { $_ - $x } @$xb } @$xa;
	my $shift = $nd % 2 ? $d[$nd / 2] : ($d[$nd / 2 - 1] + $d[$nd / 2]) / 2;
	my ($lo, $hi) = $k >= 1 && $k <= $nd - $k + 1 ? ($d[$k - 1], $d[$nd - $k]) : (undef, undef);
	return ($p, $shift, $lo, $hi); }
my %units = (message => "messages", byte => "bytes", syscall => "syscalls", round_trip => "round_trips");
sub samples { my ($e, $metric, $derived) = @_; my ($m, $u) = ($metric, undef);
	($m, $u) = ($1, $units{$2}) if $derived && $metric =~ /^(.*)_per_(message|byte|syscall|round_trip)$/;
	my @o = $e->{repetitions} ? @{$e->{repetitions}} : ($e); my @v;
	for my $x (@o) { next unless defined $x->{$m} && !ref $x->{$m};
		if (!$u) { push @v, $x->{$m} } elsif (defined $x->{$u} && $x->{$u} > 0) { push @v, $x->{$m} / $x->{$u} } }
	return @v; }
my (%sum, %rows, @order, %ent, %wchg);
my $i = 0;
# First pass: the entries whose workload changed (totals not comparable).
for my $r (@{$c->{results}}) {
	next unless workload($r->{metric}) && defined $r->{change_pct} && abs($r->{change_pct}) > 1;
	$wchg{join "\0", $r->{new_file}, $r->{part} // "", $r->{id}} = 1; }
# The results that have a rate among their metrics (details beside it).
my %rated;
for my $r (@{$c->{results}}) {
	$rated{join "\0", $r->{new_file}, $r->{part} // "", $r->{id}} = 1 if is_rate($r->{metric}); }
my %differ = map { ($_->{file} => $_->{params_differ}) } @{$c->{inputs}};
for my $r (@{$c->{results}}) {
	my $p = "results[" . $i++ . "]($r->{metric})";
	my $be = find(part_of($base, $r->{part}), $r->{ids}); my $ne = find(part_of($new{$r->{new_file}}, $r->{part}), $r->{ids});
	if (!$be || !$ne) { bad("$p: no such result in BASE or NEW"); next }
	my @bv = samples($be, $r->{metric}, $r->{derived}); my @cv = samples($ne, $r->{metric}, $r->{derived});
	if (!@bv || !@cv) { bad("$p: no samples"); next }
	my ($sb, $sc) = (stat_of(@bv), stat_of(@cv));
	my $chg = $sb->{mean} != 0 ? ($sc->{mean} - $sb->{mean}) / abs($sb->{mean}) * 100 : undef;
	my $pw = pval($sb, $sc);
	my ($pr, $hl, $hlo, $hhi) = rank_test(\@bv, \@cv);
	$pr = undef if @bv < 2 || @cv < 2;
	my $by_rank = @bv >= 5 && @cv >= 5;
	my $pv = $by_rank ? $pr : $pw;
	near("$p.p_welch", $r->{p_welch}, $pw, 1e-7);
	near("$p.p_mann_whitney", $r->{p_mann_whitney}, $pr, 1e-7);
	same("$p.decided_by", $r->{decided_by}, defined $pv ? ($by_rank ? "mann_whitney" : "welch") : undef);
	near("$p.shift", $r->{shift}, $hl, 1e-9);
	near("$p.shift_low", $r->{shift_low}, $hlo, 1e-9);
	near("$p.shift_high", $r->{shift_high}, $hhi, 1e-9);
	same("$p.direction", $r->{direction}, $r->{derived} ? $dirname{l} : $dirname{dir($r->{metric})});
	same("$p.base_n", $r->{base_n}, $sb->{n}); same("$p.new_n", $r->{new_n}, $sc->{n});
	near("$p.base_mean", $r->{base_mean}, $sb->{mean}, 1e-9); near("$p.new_mean", $r->{new_mean}, $sc->{mean}, 1e-9);
	near("$p.base_rsd", $r->{base_rsd}, $sb->{rsd}, 1e-9); near("$p.new_rsd", $r->{new_rsd}, $sc->{rsd}, 1e-9);
	near("$p.change_pct", $r->{change_pct}, $chg, 1e-9);
	near("$p.p_value", $r->{p_value}, $pv, 1e-7);
	my $sig = defined $pv && $pv < $alpha;
	same("$p.significant", $r->{significant}, $sig ? "true" : "false");
	my $key = join "\0", $r->{new_file}, $r->{part} // "", $r->{id};
	my $comparable = !($r->{derived} ? 0 : extensive($r->{metric}) && (defined $differ{$r->{new_file}} || $wchg{$key}));
	same("$p.comparable", $r->{comparable}, $comparable ? "true" : "false");
	my $d = $r->{derived} ? "l" : dir($r->{metric});
	# what gates: --metrics' patterns, or all but the side counters and details
	my $det = !$r->{derived} && detail($r->{metric}, $rated{$key});
	my $gates = defined $c->{params}{metrics}
		? scalar grep({ my $g = quotemeta($_); $g =~ s/\\\*/.*/g; $g =~ s/\\\?/./g; $_ ne "" && $r->{metric} =~ /^$g$/ } split /,/, $c->{params}{metrics})
		: $r->{metric} !~ /ctxsw|context_switches|migrations|^cpu_|^page_faults|^cycles|^instructions|^cache_misses/ && !$det;
	same("$p.gates", $r->{gates}, $gates ? "true" : "false");
	same("$p.detail", $r->{detail}, $det ? "true" : "false");
	# a side's result not stable: inconclusive
	my ($bs, $ns) = ($be->{stability}, $ne->{stability});
	my $inc = (defined $bs && $bs ne "stable") || (defined $ns && $ns ne "stable");
	same("$p.inconclusive", $r->{inconclusive}, $inc ? "true" : "false");
	same("$p.base_stability", $r->{base_stability}, $bs);
	same("$p.new_stability", $r->{new_stability}, $ns);
	my $reg = $sig && $comparable && $gates && !$inc && defined $chg && ($d eq "l" ? $chg > $thr : $d eq "h" ? -$chg > $thr : 0);
	same("$p.regression", $r->{regression}, $reg ? "true" : "false");
	$sum{comparisons}++; $sum{significant} += $sig; $sum{regressions} += $reg; $sum{inconclusive} += $inc ? 1 : 0;
	$sum{not_comparable} += !$comparable; $sum{workload_changed} += workload($r->{metric}) && defined $chg && abs($chg) > 1;
	push @{$ent{$key}}, $r;
	my $rk = join "\0", $r->{part} // "", $r->{id}, $r->{metric};
	push @order, $rk unless $rows{$rk};
	$rows{$rk}{$r->{new_file}} = { %$r, _b => $sb, _c => $sc, _chg => $chg, _p => $pv, _sig => $sig, _reg => $reg, _cmp => $comparable, _inc => $inc };
}
# Every metric of a matched pair is compared: BASE's first repetition's
# numbers that NEW has too; a total of different work also per unit.
for my $key (sort keys %ent) {
	my ($file, $part) = split /\0/, $key; my $r0 = $ent{$key}[0];
	my $be = find(part_of($base, $r0->{part}), $r0->{ids}); my $ne = find(part_of($new{$file}, $r0->{part}), $r0->{ids});
	my $first = $be->{repetitions} ? $be->{repetitions}[0] : $be;
	my @want = grep { !ref $first->{$_} && defined $first->{$_} && $first->{$_} =~ /^-?[0-9.e+-]+$/ &&
		($be->{repetitions} || dir($_) ne "n") && samples($ne, $_, 0) } sort keys %$first;
	my $diff = defined $differ{$file} || $wchg{$key};
	my ($unit) = grep { my $u = $_; grep { $_ eq $units{$u} } @want } qw(message byte syscall round_trip);
	push @want, map { "${_}_per_$unit" } grep { extensive($_) } @want if $diff && $unit;
	same("$file $r0->{id}: metrics compared", join(",", sort map { $_->{metric} } @{$ent{$key}}), join(",", sort @want));
}
# Verdicts: NEW's now fail or error and BASE's was not the same is a regression.
my $j = 0;
for my $v (@{$c->{verdict_changes}}) {
	my $p = "verdict_changes[" . $j++ . "]";
	my $be = find(part_of($base, $v->{part}), $v->{ids}); my $ne = find(part_of($new{$v->{new_file}}, $v->{part}), $v->{ids});
	same("$p.base", $v->{base}, $be ? $be->{$v->{key}} : undef);
	same("$p.new", $v->{new}, $ne ? $ne->{$v->{key}} : undef);
	bad("$p: unchanged verdict listed") if defined $v->{base} && defined $v->{new} && $v->{base} eq $v->{new};
	my $reg = defined $v->{new} && ($v->{new} eq "fail" || $v->{new} eq "error") && !(defined $v->{base} && $v->{base} eq $v->{new});
	same("$p.regression", $v->{regression}, $reg ? "true" : "false");
	$sum{regressions} += $reg; $sum{verdict_changes}++;
}
# Verdicts unchanged: BASE's verdict entries NEW has with the same verdict.
for my $f (@{$c->{params}{new}}) {
	for my $pp (undef, sort keys %{$base->{parts} || {}}) {
		for my $e (entries(part_of($base, $pp))) {
			next if $e->{repetitions};
			my $vk = defined $e->{verdict} ? "verdict" : defined $e->{status} ? "status" : next;
			my %ids = defined $e->{id} ? (id => $e->{id}) : next;
			my $ne = find(part_of($new{$f}, $pp), \%ids);
			$sum{verdicts_unchanged}++ if $ne && defined $ne->{$vk} && $ne->{$vk} eq $e->{$vk};
		}
	}
}
$sum{coverage_lost} = @{$c->{coverage_lost}};
# The verdict grid: a row per verdict that changed anywhere, a cell per
# document with its own verdict (null: absent), ! where it regressed.
my (@grid, %gseen, %greg);
for my $v (@{$c->{verdict_changes}}) { my $gk = join "\0", $v->{part} // "", $v->{id}, $v->{key};
	$greg{$gk}{$v->{new_file}} = $v->{regression} ? 1 : 0;
	push @grid, [$v->{part}, $v->{id}, $v->{key}, $v->{ids}] unless $gseen{$gk}++; }
my @docs = ($base, map { $new{$_} } @{$c->{params}{new}});
my @gcells;
for my $g (0 .. $#grid) { my ($pt, $id, $key, $ids) = @{$grid[$g]}; my $jg = $c->{verdict_grid}[$g];
	same("verdict_grid[$g]", join(" ", map { $_ // "null" } @$jg{qw(part id key)}), join(" ", map { $_ // "null" } $pt, $id, $key));
	my @cells = map { my $e = find(part_of($_, $pt), $ids); $e ? $e->{$key} : undef } @docs;
	push @gcells, \@cells;
	same("verdict_grid[$g].verdicts", join(",", map { $_ // "null" } @{$jg->{verdicts} || []}), join(",", map { $_ // "null" } @cells)); }
same("verdict_grid rows", scalar @{$c->{verdict_grid} || []}, scalar @grid);
for my $k (qw(comparisons significant regressions verdict_changes verdicts_unchanged not_comparable inconclusive workload_changed coverage_lost)) {
	same("summary.$k", $c->{summary}{$k}, $sum{$k} // 0); }
same("exit_status", $c->{exit_status}, $sum{regressions} ? 1 : 0) unless $c->{params}{strict} || @{$c->{coverage_lost}};
# The text, CSV and markdown show the same figures.
sub fnum { my $v = shift; return "n/a" unless defined $v;
	return sprintf("%.4g", $v) if abs($v) >= 1e12;
	return sprintf("%.0f", $v) if abs($v) >= 100 || $v == POSIX::floor($v);
	return sprintf("%.4g", $v); }
# the text's human units: times, byte rates, other rates; else fnum
sub fval { my ($m, $v) = @_; return "n/a" unless defined $v;
	my @u = $m =~ /_ns$|_ns_per_|^ns_per_/ ? qw(ns us ms s) : $m =~ /bytes_per_s$/ ? qw(B/s kB/s MB/s GB/s)
		: is_rate($m) ? ("/s", "k/s", "M/s", "G/s") : ();
	return fnum($v) unless @u;
	my $i = 0; while ($i < 3 && abs($v) >= 1000) { $v /= 1000; $i++ }
	my $s = sprintf("%.4g", $v); $s =~ s/e\+0?(\d+)$/e+$1/; return "$s $u[$i]"; }
sub mark { my $m = shift; return "!" if $m->{_reg}; return "~" if !$m->{_cmp}; return "u" if $m->{_inc}; return "*" if $m->{_sig};
	return "?" if !defined $m->{_p}; return " "; }
my @files = @{$c->{params}{new}};
if (defined $textf && -s $textf) {
	my $txt = slurp($textf); my $fleet = @files >= 4;
	my $hidden = 0;
	for my $rk (@order) {
		my ($part, $id, $metric) = split /\0/, $rk; my $h = $rows{$rk};
		my ($any) = values %$h; my $b = $any->{_b};
		my $name = ($part ne "" ? "$part: " : "") . "$id $metric";
		# the text leaves out workload counts, side counters and details
		# (unless --all-metrics, --metrics makes them gate, or one regressed)
		my $side = $metric =~ /ctxsw|context_switches|migrations|^cpu_|^page_faults|^cycles|^instructions|^cache_misses/;
		if (!$c->{params}{all_metrics} && !grep({ $_->{_reg} } values %$h) &&
		    (workload($metric) || (($side || $any->{detail}) && !$any->{gates}))) {
			$hidden++; $n++;
			bad("text: a hidden row shown: '$name'") if index($txt, "  $name\n") >= 0;
			next; }
		if (!$fleet) {
			my $l = sprintf("%12s ~%3.0f%%", fval($metric, $b->{mean}), $b->{rsd} * 100);
			for my $f (@files) { my $m = $h->{$f};
				$l .= $m ? sprintf("  %9s %s %12s ~%3.0f%%", defined $m->{_chg} ? sprintf("%+.1f%%", $m->{_chg}) : "n/a",
					mark($m), fval($metric, $m->{_c}{mean}), $m->{_c}{rsd} * 100) : sprintf("  %9s   %18s", "-", "-"); }
			$l .= "  $name"; $n++;
			bad("text: no line '$l'") unless index($txt, "$l\n") >= 0;
		} elsif (defined $labels) {
			my @lb = split /,/, $labels; my $w = 0; for (@lb) { $w = length if length > $w }
			my $l = sprintf("\n%s (%s)\n  %-*s %12s ~%3.0f%%  base\n", $name,
				$any->{direction}, $w, $lb[0], fval($metric, $b->{mean}), $b->{rsd} * 100);
			for my $k (0 .. $#files) { my $m = $h->{$files[$k]};
				$l .= $m ? sprintf("  %-*s %12s ~%3.0f%%  %9s %s\n", $w, $lb[$k + 1], fval($metric, $m->{_c}{mean}), $m->{_c}{rsd} * 100,
					defined $m->{_chg} ? sprintf("%+.1f%%", $m->{_chg}) : "n/a", mark($m))
					: sprintf("  %-*s %18s\n", $w, $lb[$k + 1], "-"); }
			$n++; bad("fleet text: no block '$l'") unless index($txt, $l) >= 0;
		}
		# a fleet has blocks only, no row of the two-document layout
		$n++; bad("fleet text: a two-document row for '$name'") if $fleet && index($txt, "  $name\n") >= 0;
	}
	if ($hidden) { $n++; bad("text: no line for the $hidden hidden rows") unless
		$txt =~ /^$hidden more rows?: workload counts, side counters \(context switches, CPU time, migrations\) and details/m; }
	my ($vr) = (0); $vr += $_->{regression} ? 1 : 0 for @{$c->{verdict_changes}};
	my $sl = sprintf("%d comparisons, %d significant, %d regressions beyond %g%%; %d verdict changes, %d of them regressions (now fail or error); %d coverage lost",
		$sum{comparisons} // 0, $sum{significant} // 0, ($sum{regressions} // 0) - $vr, $thr, $sum{verdict_changes} // 0, $vr, $sum{coverage_lost});
	$n++; bad("text: no summary '$sl'") unless index($txt, "\n$sl") >= 0;
	for my $v (@{$c->{verdict_changes}}) { next if $fleet;
		my $l = sprintf("%s %s%s: %s %s -> %s", $v->{regression} ? "!" : " ", defined $v->{part} ? "$v->{part}: " : "",
			$v->{id}, $v->{key}, $v->{base} // "(absent)", $v->{new} // "(absent)");
		$n++; bad("text: no verdict line '$l'") unless index($txt, "\n$l\n") >= 0; }
	my %short = (pass => "ok", fail => "FAIL", error => "ERR", skip => "skip", "known-deviation" => "kdev",
		info => "info", updated => "upd", frozen => "frzn");
	my $w = 4; for my $cl (@gcells) { for (@$cl) { my $s = defined $_ ? $short{$_} // $_ : "-"; $w = length $s if length $s > $w } }
	if (@files > 1 && @grid) { for my $g (0 .. $#grid) { my ($pt, $id, $key) = @{$grid[$g]};
		my $gk = join "\0", $pt // "", $id, $key; my $l = "  ";
		for my $k (0 .. $#docs) { my $v = $gcells[$g][$k]; my $reg = $k ? $greg{$gk}{$files[$k - 1]} : 0;
			$l .= sprintf(" %*s%s", $w, defined $v ? $short{$v} // $v : "-", $reg ? "!" : " "); }
		$l .= "  " . (defined $pt ? "$pt: " : "") . "$id $key";
		$n++; bad("text: no grid line '$l'") unless index($txt, "\n$l\n") >= 0; } }
	if ($sum{not_comparable}) { $n++; bad("text: no ~ legend") unless $txt =~ /^~ not comparable/m; }
	if ($sum{inconclusive}) { $n++; bad("text: no u legend") unless $txt =~ /^u inconclusive/m;
		$n++; bad("text: no count of $sum{inconclusive} inconclusive") unless $txt =~ /; $sum{inconclusive} inconclusive \(not stable\)/; }
	if ($sum{workload_changed}) { $n++; bad("text: no workload note") unless $txt =~ /^note: $sum{workload_changed} workload counts/m; }
}
if (defined $csvf && -s $csvf) {
	my %csv;
	open(my $f, "<", $csvf) or die; my $hdr = <$f>;
	$n++; bad("csv header: $hdr") unless $hdr =~ /^type,part,result,metric,document,label,file,mean,rsd,change_pct,marker,verdict/;
	while (my $l = <$f>) { chomp $l; my @c;
		while (length $l) { if ($l =~ s/^"((?:[^"]|"")*)"(,|$)//) { (my $x = $1) =~ s/""/"/g; push @c, $x }
			elsif ($l =~ s/^([^,]*)(,|$)//) { push @c, $1 } else { last } }
		next unless $c[0] eq "metric";
		$csv{join "\0", $c[1], $c[2], $c[3], $c[4]} = \@c; }
	for my $rk (@order) { my ($part, $id, $metric) = split /\0/, $rk; my $h = $rows{$rk}; my ($any) = values %$h;
		my $r0 = $csv{join "\0", $part, $id, $metric, 0};
		if (!$r0) { bad("csv: no base row for $id $metric"); next }
		near("csv $id $metric base mean", $r0->[7], $any->{_b}{mean}, 1e-12);
		near("csv $id $metric base rsd", $r0->[8], $any->{_b}{rsd}, 1e-12);
		same("csv $id $metric base path", $r0->[6], $c->{params}{base});
		for my $k (0 .. $#files) { my $m = $h->{$files[$k]}; my $r = $csv{join "\0", $part, $id, $metric, $k + 1};
			if (!$m) { bad("csv: row for $id $metric in document " . ($k + 1)) if $r; next }
			if (!$r) { bad("csv: no row for $id $metric in document " . ($k + 1)); next }
			near("csv $id $metric mean", $r->[7], $m->{_c}{mean}, 1e-12);
			near("csv $id $metric rsd", $r->[8], $m->{_c}{rsd}, 1e-12);
			near("csv $id $metric change_pct", $r->[9] eq "" ? undef : $r->[9], $m->{_chg}, 1e-12);
			(my $mk = mark($m)) =~ s/ //; same("csv $id $metric marker", $r->[10], $mk);
			same("csv $id $metric file", $r->[6], $files[$k]); } }
}
if (defined $mdf && -s $mdf) {
	my $md = slurp($mdf);
	for my $rk (@order) { my ($part, $id, $metric) = split /\0/, $rk; my $h = $rows{$rk}; my ($any) = values %$h;
		my $l = "| " . ($part ne "" ? "$part: " : "") . "$id | $metric |" . sprintf(" %s ~%.0f%% |", fnum($any->{_b}{mean}), $any->{_b}{rsd} * 100);
		for my $f (@files) { my $m = $h->{$f};
			if (!$m) { $l .= " - |"; next }
			$l .= sprintf(" %s ~%.0f%%", fnum($m->{_c}{mean}), $m->{_c}{rsd} * 100);
			if (defined $m->{_chg}) { my $mk = mark($m); $l .= sprintf(" (%+.1f%%", $m->{_chg});
				$l .= " " . ($mk eq "*" ? "\\" : "") . $mk if $mk ne " "; $l .= ")"; }
			$l .= " |"; }
		$n++; bad("markdown: no row '$l'") unless index($md, "$l\n") >= 0; }
}
# The documents: labels (--label's, else HOST/KERNEL, "#N" on a label
# given twice), and what differs between them (euid, capabilities, version).
my @paths = ($c->{params}{base}, @files);
sub jp { my ($o, $path) = @_; for (split /\./, $path) { return undef unless ref $o eq "HASH" && exists $o->{$_}; $o = $o->{$_} } $o }
sub jstr { my $v = shift; return undef unless defined $v; ref $v || JSON::PP::is_bool($v) ? JSON::PP->new->canonical->encode($v) : "$v" }
my @lab = defined $labels ? split(/,/, $labels) : ();
for my $k (0 .. $#docs) { $lab[$k] //= (jstr(jp($docs[$k], "run.hostname")) // jstr(jp($docs[$k], "system.hostname")) // "?") . "/" .
	(jstr(jp($docs[$k], "run.kernel.release")) // jstr(jp($docs[$k], "system.kernel_release")) // "?"); }
my %cnt; $cnt{$_}++ for @lab; @lab = map { $cnt{$lab[$_]} > 1 ? "$lab[$_]#$_" : $lab[$_] } 0 .. $#lab;
my $lw = 0; for (@lab) { $lw = length if length > $lw }
my @fk = (["users (euid)", "run.user.euid"], ["capabilities", "run.user.capabilities", "system.capabilities"],
	["pipebench versions", "run.pipebench.version", "version"]);
sub fv { my ($k, $key) = @_; my $v = jstr(jp($docs[$k], $fk[$key][1]));
	$v //= jstr(jp($docs[$k], $fk[$key][2])) if $fk[$key][2]; $v // "unknown" }
# compare writes the difference into a buffer of 512 bytes: what does not
# fit with its NUL is cut there, never written past the end.
sub capsdiff { substr(capsdiff_whole(@_), 0, 511) }
sub capsdiff_whole { my $k = shift; my ($b, $x) = map { my $v = jp($docs[$_], "run.user.capabilities") // jp($docs[$_], "system.capabilities"); $v } (0, $k);
	return fv($k, 1) unless ref $b eq "ARRAY" && ref $x eq "ARRAY";
	return sprintf("none (base has %d)", scalar @$b) unless @$x;
	my (@s, $more) = (); $more = 0;
	for my $side (0, 1) { my ($from, $other) = $side ? ($x, $b) : ($b, $x);
		for my $cap (@$from) { next if grep { $_ eq $cap } @$other;
			if (@s < 4) { push @s, ($side ? "+" : "-") . $cap } else { $more++ } } }
	return join(" ", @s) . ($more ? " and $more more" : ""); }
my @differ = grep { my $key = $_; grep { fv($_, $key) ne fv(0, $key) } 1 .. $#docs } 0 .. $#fk;
same("documents_differ_in", join(",", @{$c->{documents_differ_in} || []}), join(",", map { $fk[$_][1] } @differ));
my %ign = map { ($_ => 1) } qw(repeat warmup timeout_ns only skip modes);
for my $k (0 .. $#docs) { my $in = $c->{inputs}[$k];
	same("inputs[$k].file", $in->{file}, $paths[$k]); same("inputs[$k].label", $in->{label}, $lab[$k]);
	same("inputs[$k].command", $in->{command}, $docs[$k]{command});
	same("inputs[$k].kernel_release", $in->{kernel_release}, jstr(jp($docs[$k], "system.kernel_release")) // "?");
	same("inputs[$k].host", $in->{host}, jstr(jp($docs[$k], "run.hostname")) // jstr(jp($docs[$k], "system.hostname")) // "?");
	next unless $k;
	my ($pa, $pb) = map { $_->{params} || {} } ($base, $docs[$k]);
	my @d = grep { !$ign{$_} && (!exists $pb->{$_} || jstr($pa->{$_}) ne jstr($pb->{$_})) } sort keys %$pa;
	push @d, grep { !$ign{$_} && !exists $pa->{$_} } sort keys %$pb;
	same("inputs[$k].params_differ", join(",", sort split /,/, $in->{params_differ} // ""), join(",", sort @d));
	my %m; $m{join "\0", $_->{part} // "", $_->{id}} = 1 for grep { $_->{new_file} eq $paths[$k] } @{$c->{results}};
	my $vm = 0;
	for my $pp (undef, sort keys %{$base->{parts} || {}}) { for my $e (entries(part_of($base, $pp))) {
		next if $e->{repetitions} || !defined $e->{id}; my $vk = defined $e->{verdict} ? "verdict" : defined $e->{status} ? "status" : next;
		my $ne = find(part_of($docs[$k], $pp), { id => $e->{id} }); $vm++ if $ne && defined $ne->{$vk}; } }
	same("inputs[$k].matched", $in->{matched}, scalar(keys %m) + $vm);
}
# Results no NEW matched and NEW's no BASE result matched (not verdicts).
my ($ob, $on) = (0, 0);
for my $k (1 .. $#docs) { for my $pp (undef, sort keys %{$base->{parts} || {}}) {
	my @be = grep { $_->{repetitions} || (!defined $_->{verdict} && !defined $_->{status}) } entries(part_of($base, $pp));
	my @ne = grep { $_->{repetitions} || (!defined $_->{verdict} && !defined $_->{status}) } entries(part_of($docs[$k], $pp));
	my %desc = map { ($_ => 1) } qw(title detail details message note reason description label tag status verdict summary stability stability_reason);
	my $key = sub { my $e = shift; join ",", map { "$_=" . jstr($e->{$_}) } grep { !ref $e->{$_} && defined $e->{$_} &&
		!defined rule($_) && !/ratio/ && !$desc{$_} && !/_(detail|description|label)$/ && "$e->{$_}" !~ /^-?\d+(\.\d*)?[eE.]|^-?\d*\.\d/ } sort keys %$e };
	my %bk; $bk{$key->($_)}++ for @be; my %nk; $nk{$key->($_)}++ for @ne;
	$ob += grep { !$nk{$key->($_)} } @be; $on += grep { !$bk{$key->($_)} } @ne; } }
same("summary.only_in_base", $c->{summary}{only_in_base}, $ob); same("summary.only_in_new", $c->{summary}{only_in_new}, $on);
if (defined $textf && -s $textf) { my $txt = slurp($textf); my $fleet = @files >= 4;
	my $hd = sprintf("base   %s: %s, Linux %s\n", $paths[0], $base->{command}, jstr(jp($base, "system.kernel_release")) // "?");
	for my $k (1 .. $#docs) { my $in = $c->{inputs}[$k];
		$hd .= sprintf("new%-3d %s: %s, Linux %s%s\n", $k, $paths[$k], $docs[$k]{command}, jstr(jp($docs[$k], "system.kernel_release")) // "?",
			defined $in->{params_differ} ? "; parameters differ: $in->{params_differ}" : ""); }
	$n++; bad("text: no header '$hd'") unless index($txt, $hd) >= 0;
	if ($fleet) { my $l = sprintf("documents (%d; column N below is document N):\n", scalar @docs);
		$l .= sprintf("%3d %-*s %s%s\n", $_, $lw, $lab[$_], $paths[$_], $_ ? "" : " (base)") for 0 .. $#docs;
		$n++; bad("text: no fleet header '$l'") unless index($txt, $l) == 0; }
	else { my $l = sprintf("\n%18s", "base") . join("", map { sprintf("  %32s", $_) } @lab[1 .. $#lab]) . "\n";
		$n++; bad("text: no column header '$l'") unless index($txt, $l) >= 0; }
	for my $key (@differ) {
		my $l = sprintf("note: the documents ran under different %s, so coverage and numbers differ; base %s has %s, these differ:\n",
			$fk[$key][0], $lab[0], $key == 1 ? "its own set" : fv(0, $key));
		for my $k (1 .. $#docs) { next if fv($k, $key) eq fv(0, $key);
			$l .= sprintf("  %-*s %s\n", $lw, $lab[$k], $key == 1 ? capsdiff($k) : fv($k, $key)); }
		$n++; bad("text: no note '$l'") unless index($txt, $l) >= 0; }
	my $tail = ($ob || $on ? "; unmatched results: $ob only in base, $on only in new" : "") .
		($sum{not_comparable} ? "; $sum{not_comparable} totals not comparable" : "") .
		($sum{inconclusive} ? "; $sum{inconclusive} inconclusive (not stable)" : "") . "\n";
	$n++; bad("text: the summary line does not end '$tail'") unless $txt =~ /^\d+ comparisons, .*coverage lost\Q$tail\E/m;
}
if (defined $mdf && -s $mdf) { my $md = slurp($mdf);
	my $l = "| # | label | file | command | kernel | euid | capabilities | pipebench |\n|---|---|---|---|---|---|---|---|\n";
	for my $k (0 .. $#docs) { my $caps;
		if ($k == 0 || fv($k, 1) eq fv(0, 1)) { my $a = jp($docs[$k], "run.user.capabilities") // jp($docs[$k], "system.capabilities");
			$caps = ref $a eq "ARRAY" ? ($k ? "same: " : "") . scalar @$a : fv($k, 1); }
		else { $caps = capsdiff($k) }
		$l .= sprintf("| %d%s | %s | %s | %s | %s | %s | %s | %s |\n", $k, $k ? "" : " (base)", $lab[$k], $paths[$k], $docs[$k]{command},
			jstr(jp($docs[$k], "run.kernel.release")) // jstr(jp($docs[$k], "system.kernel_release")) // "?", fv($k, 0), $caps, fv($k, 2)); }
	$n++; bad("markdown: no documents table '$l'") unless index($md, $l) >= 0;
	for my $key (@differ) { my $t = "\n**Note:** the documents ran under different $fk[$key][0], so coverage and numbers differ.\n";
		$n++; bad("markdown: no note '$t'") unless index($md, $t) >= 0; }
	my $h = "| result | metric |" . join("", map { " $_ |" } @lab) . "\n|---|---|" . ("---|" x @lab) . "\n";
	$n++; bad("markdown: no metrics header '$h'") unless index($md, $h) >= 0;
	if (@grid) { my $g = "| check |" . join("", map { " $_ |" } @lab) . "\n|---|" . ("---|" x @lab) . "\n";
		for my $r (0 .. $#grid) { my ($pt, $id, $key) = @{$grid[$r]}; my $gk = join "\0", $pt // "", $id, $key;
			$g .= "| " . (defined $pt ? "$pt: " : "") . "$id $key |";
			for my $k (0 .. $#docs) { my $v = $gcells[$r][$k]; my $reg = $k ? $greg{$gk}{$files[$k - 1]} : 0;
				$g .= sprintf(" %s%s |", $v // "-", $reg ? " **!**" : ""); }
			$g .= "\n"; }
		$n++; bad("markdown: no verdict table '$g'") unless index($md, $g) >= 0; }
}
print "$_\n" for @bad;
print "no figure checked\n" unless $n; print STDERR "checked $n\n" if $ENV{FIGS_N};
