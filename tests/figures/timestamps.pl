# SPDX-License-Identifier: GPL-2.0-or-later
# timestamps.pl TIMESTAMPS.json [TEXT]: each sample's state from its before/after
# times, each field's counts and state from the samples, each verdict from the
# states; TEXT, the text of a run like it, shows the same mounts, method, table
# and notes.
use strict; use warnings; use JSON::PP;
local $/; open(my $fh, "<", $ARGV[0]) or die "$ARGV[0]: $!"; my $d = JSON::PP->new->decode(<$fh>);
my $txt; if (defined $ARGV[1]) { open(my $t, "<", $ARGV[1]) or die "$ARGV[1]: $!"; $txt = <$t>; }
my ($n, @bad) = (0);
sub same { my ($p, $got, $want) = @_; $n++;
	my ($g, $w) = map { !defined $_ ? "null" : JSON::PP::is_bool($_) ? ($_ ? "true" : "false") : "$_" } ($got, $want);
	push @bad, "$p: got $g, want $w" if $g ne $w; }
my @fields = qw(atime mtime ctime);
sub target { my ($t, $p, $repeat) = @_;
	my $fs = $t->{filesystem}; my %st;
	for my $op (@{$t->{operations}}) {
		my $q = "$p.$op->{operation}";
		next unless $op->{supported};
		my @s = @{$op->{samples}};
		same("$q: samples", scalar @s, $repeat) if @s || $p !~ /reference/;
		for my $f (@fields) {
			my %c = (updated => 0, unchanged => 0, undetermined => 0);
			my $k = 0;
			for my $x (@s) {
				my $changed = $x->{"${f}_before_ns"} != $x->{"${f}_after_ns"};
				my $why;
				if (!$changed && ($f eq "ctime" || defined $x->{reset_error})) {
					$why = 1 if !$x->{clock_passed} || $x->{ctime_before_ns} % 1000000000 == 0; }
				if (!$changed && !$why && $f eq "atime") {
					$why = 1 if $fs->{atime_policy} eq "noatime" || $fs->{read_only} ||
						(defined $x->{reset_error} && $fs->{atime_policy} ne "strictatime"); }
				my $want = $changed ? "updated" : $why ? "undetermined" : "unchanged";
				same("$q.samples[$k].$f", $x->{$f}, $want); $k++;
				$c{$want}++;
			}
			my $o = $op->{fields}{$f};
			if (!@s) { %c = map { ($_ => $o->{$_}) } keys %c;
				same("$q.fields.$f: counts", $c{updated} + $c{unchanged} + $c{undetermined}, $repeat); }
			same("$q.fields.$f.$_", $o->{$_}, $c{$_}) for qw(updated unchanged undetermined);
			my $state = $c{updated} && $c{unchanged} ? "inconsistent" : $c{updated} ? "updated" :
				$c{unchanged} ? "unchanged" : "undetermined";
			same("$q.fields.$f.state", $o->{state}, $state);
			$st{$op->{operation}}{$f} = $o->{state};
		}
	}
	my ($w, $r) = @st{qw(write read)};
	if (!$w || !$r) { same("$p.verdict", $t->{verdict}, "undetermined"); return; }
	my ($inc, $det, $upd) = (0, 0, 0);
	for my $o ($w, $r) { for my $f (@fields) { my $s = $o->{$f};
		$inc += $s eq "inconsistent"; $det += $s eq "updated" || $s eq "unchanged"; $upd += $s eq "updated"; } }
	my ($edet, $eupd) = (0, 0);
	for my $s ($w->{mtime}, $w->{ctime}, $r->{atime}) { $edet += $s eq "updated" || $s eq "unchanged"; $eupd += $s eq "updated"; }
	my $v = $inc ? "inconsistent" : !$det ? "undetermined" : !$upd ? "frozen" : $edet && $eupd == $edet ? "updated" : "mixed";
	same("$p.verdict", $t->{verdict}, $v);
	my $in = sub { my $o = shift; my $s = join "+", grep { $o->{$_} eq "updated" } @fields; $s eq "" ? "nothing" : $s };
	my $det_s = sprintf("write changes %s, read changes %s", $in->($w), $in->($r));
	for my $pair (["write", $w], ["read", $r]) { for my $f (@fields) { my $s = $pair->[1]{$f};
		$det_s .= "; $pair->[0] $f $s" if $s eq "undetermined" || $s eq "inconsistent"; } }
	# A filesystem that hides the updates is named after the kernel's
	# part ("; overlayfs does not report FIFO mtime/ctime updates ..."):
	# the part recomputed is what comes before it.
	my $got_det = $t->{verdict_detail};
	$got_det =~ s/; [A-Za-z0-9_.-]+ does not report .*$// if defined $got_det;
	same("$p.verdict_detail", $got_det, $det_s);
	return $v;
}
my %v;
my $i = 0;
for my $t (@{$d->{results}}) { $v{$t->{kind}} = target($t, "results[" . $i++ . "]", $d->{params}{repeat}); }
same("summary.$_", $d->{summary}{$_}, $v{$_}) for sort keys %v;
my $ref = $d->{fifo_reference} && $d->{fifo_reference}{reference};
target($ref, "fifo_reference.reference", $d->{params}{repeat}) if $ref;
for my $e (@{$d->{expectations} || []}) {
	same("expectations[$e->{kind}].holds", $e->{holds}, $e->{expected} eq $e->{observed} ? "true" : "false"); }
# The coarse clock's resolution is the one this process sees (5: CLOCK_REALTIME_COARSE).
my $res = eval { require Time::HiRes; Time::HiRes::clock_getres(5) };
same("method.coarse_clock_res_ns", $d->{method}{coarse_clock_res_ns}, sprintf("%.0f", $res * 1e9)) if $res && $res > 0;
# Both kinds are judged when the run completed or an expectation failed.
same("results: anon and fifo", join(",", map { $_->{kind} } @{$d->{results}}), "anon,fifo") if $d->{exit_status} <= 1;
if (defined $txt) {
	my $ml = sub { my $m = shift; $m->{atime_policy} eq "internal" ? "$m->{fstype} (kernel-internal mount, no atime policy)" :
		"$m->{fstype}, $m->{atime_policy}" . ($m->{read_only} ? ", read-only" : "") . ($m->{mountpoint} ? ", mounted on $m->{mountpoint}" : "") };
	my @l = ("anon        " . $ml->($d->{results}[0]{filesystem}), "fifo        in $d->{params}{dir}: " . $ml->($d->{fifo_dir}));
	my $fr = $d->{fifo_reference};
	push @l, "reference   a FIFO " . ($fr->{method} eq "dev-shm" ? "under /dev/shm" : "on a tmpfs mounted in a private mount namespace") .
		": " . $ml->($fr->{reference}{filesystem}) if $fr && $fr->{reference};
	push @l, sprintf("method      %d repetitions; atime and mtime set to 2000-01-01 with futimens, ctime compared after the coarse clock (%.1f ms) passed it",
		$d->{params}{repeat}, $d->{method}{coarse_clock_res_ns} / 1e6);
	push @l, sprintf("%-5s %-13s %-13s %-13s %s", "kind", "operation", "atime", "mtime", "ctime");
	for my $t (@{$d->{results}}) { for my $op (@{$t->{operations}}) {
		push @l, sprintf("%-5s %-13s %-13s %-13s %s", $t->{kind}, $op->{operation},
			map { $op->{supported} ? $op->{fields}{$_}{state} : "unsupported" } @fields);
		if (!$op->{supported}) { push @l, "$t->{kind} $op->{operation}: not supported by this kernel: $op->{error}"; next }
		for my $f (@fields) { my $o = $op->{fields}{$f};
			push @l, "$t->{kind} $op->{operation} $f: $o->{state}: $o->{reason}" if defined $o->{reason}; } } }
	for my $l (@l) { $n++; push @bad, "text: no line '$l'" unless $txt =~ /^\Q$l\E$/m; }
}
print "$_\n" for @bad;
print "no figure checked\n" unless $n;
print STDERR "checked $n\n" if $ENV{FIGS_N};
