# SPDX-License-Identifier: GPL-2.0-or-later
# report.pl REPORT.json PARTS: a report's bookkeeping (which parts ran, were not
# run or were interrupted; their statuses, errors, and the report's exit
# status) and its derived figures (the copy ceiling), from the parts'
# own documents and statuses.  PARTS: the --parts list, in the parts' order.
use strict; use warnings; use JSON::PP;
my ($file, $sel) = @ARGV;
local $/; open(my $fh, "<", $file) or die "$file: $!"; my $d = JSON::PP->new->decode(<$fh>);
my ($n, @bad) = (0);
sub same { my ($p, $got, $want) = @_; $n++;
	my ($g, $w) = map { !defined $_ ? "null" : JSON::PP::is_bool($_) ? ($_ ? "true" : "false") : "$_" } ($got, $want);
	push @bad, "$p: got $g, want $w" if $g ne $w; }
sub near { my ($p, $got, $want) = @_; $n++;
	if (!defined $got || !defined $want) { same($p, $got, $want); return }
	push @bad, "$p: got $got, want $want" if abs($got - $want) > 1e-9 * (abs($want) > 1 ? abs($want) : 1); }
my @sel = split /,/, $sel;
my $runs = $d->{part_runs}; my $parts = $d->{parts};
my @ran = grep { exists $runs->{$_} } @sel;
same("part_runs: only selected parts", join(",", sort keys %$runs), join(",", sort @ran));
same("parts: the parts that ran", join(",", sort keys %$parts), join(",", sort @ran));
# The parts run in order: those not run are the last ones selected.
same("ran then not_run: the selection in order", join(",", @ran, @{$d->{not_run}}), $sel);
# Exit statuses: 0 ok, 1 fail, 2 usage, 3 error, 4 nothing applicable; a
# part that did not finish or got a usage error is the report's error (3), a
# part's 4 is fine; the worst wins (usage, error, fail, n/a, ok).
my %rank = (2 => 5, 3 => 4, 1 => 3, 4 => 2, 0 => 1);
my $st = 0; my ($intr, @errs) = (0);
for my $p (@ran) { my $r = $runs->{$p}; my $doc = $parts->{$p};
	if ($doc) {
		same("part_runs.$p.exit_status: its document's", $r->{exit_status}, $doc->{exit_status});
		same("parts.$p.command", $doc->{command}, $p =~ s/_64k$//r);
	}
	my $s = $r->{exit_status} // -1;
	$s = 3 if $s < 0 || $s == 2; $s = 0 if $s == 4;
	$st = $s if ($rank{$s} // 6) > ($rank{$st} // 6);
	$intr += $r->{interrupted} ? 1 : 0;
	push @errs, "$p: $r->{error}" if defined $r->{error};
	$n++; push @bad, "part_runs.$p.duration_ns: $r->{duration_ns}" unless $r->{interrupted} && !$doc || $r->{duration_ns} > 0;
}
my %sig = (SIGHUP => 1, SIGINT => 2, SIGTERM => 15);
my $si = $d->{summary}{interrupted};
same("exit_status", $d->{exit_status}, defined $si ? 128 + $sig{$si} : $st);
same("parts marked interrupted", $intr, defined $si && @ran ? ($intr ? 1 : 0) : 0);
$n++; push @bad, "the part marked interrupted is not the last that ran" if $intr && !$runs->{$ran[-1]}{interrupted};
same("errors: each part's, named", join("|", @{$d->{errors}}), join("|", @errs));
my $cc = $d->{summary}{copy_ceiling};
if ($cc) {
	near("copy_ceiling.pipe_ceiling_bytes_per_s (memcpy / 2)", $cc->{pipe_ceiling_bytes_per_s}, $cc->{memcpy_bytes_per_s} / 2);
	my $t = $parts->{throughput_64k}; my $r = $t && $t->{results} && $t->{results}[0];
	my $pipe = $r ? $r->{summary}{rate_bytes_per_s} : undef;
	near("copy_ceiling.pipe_64k_bytes_per_s", $cc->{pipe_64k_bytes_per_s}, $pipe);
	near("copy_ceiling.pipe_fraction_of_ceiling", $cc->{pipe_fraction_of_ceiling}, defined $pipe ? $pipe / ($cc->{memcpy_bytes_per_s} / 2) : undef);
} else {
	same("copy_ceiling: measured with throughput_64k finished", 0, grep({ $_ eq "throughput_64k" } @ran) && !defined $si ? 1 : 0);
}
# The 64 KiB part's own figures: each rate from its bytes and median time.
for my $p (grep { $parts->{$_} && $parts->{$_}{command} eq "throughput" } @ran) {
	for my $r (@{$parts->{$p}{results}}) { my @tt = sort { $a <=> $b } map { $_->{tt_ns} } @{$r->{repetitions} || []};
		next unless @tt; my $k = @tt; my $med = $k % 2 ? $tt[$k / 2] : ($tt[$k / 2 - 1] + $tt[$k / 2]) / 2;
		near("parts.$p $r->{mode}/$r->{size_bytes} rate_bytes_per_s", $r->{summary}{rate_bytes_per_s}, $r->{summary}{bytes} * 1e9 / $med); } }
# summary.stability: the parts' rows with a stability verdict, those not
# stable, the first three named ("part: verdict: reason", "; " between)
# and "; N more" past them; fit to compare when there are rows, all stable.
{
	my ($rows, $unstable, @named) = (0, 0);
	for my $p (@ran) { my $doc = $parts->{$p};
		next unless $doc && ref $doc->{results} eq "ARRAY";
		for my $r (@{$doc->{results}}) {
			next unless defined $r->{stability} && !ref $r->{stability};
			$rows++;
			next if $r->{stability} eq "stable";
			$unstable++;
			push @named, "$p: $r->{stability}: " . ($r->{stability_reason} // "");
		} }
	my $fs = $d->{summary}{stability};
	same("summary.stability.rows", $fs->{rows}, $rows);
	same("summary.stability.not_stable", $fs->{not_stable}, $unstable);
	same("summary.stability.fit_to_compare", $fs->{fit_to_compare},
		$rows ? ($unstable ? JSON::PP::false : JSON::PP::true) : undef);
	my $why = join("; ", @named[0 .. ($#named < 2 ? $#named : 2)]);
	$why .= "; " . (@named - 3) . " more" if @named > 3;
	same("summary.stability.reason", $fs->{reason}, $unstable ? $why : undef);
}
print "$_\n" for @bad;
print "no figure checked\n" unless $n;
print STDERR "checked $n\n" if $ENV{FIGS_N};
