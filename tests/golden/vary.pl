#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-or-later
# vary.pl IN OUT CHANGE...: a variant of the pipebench document IN, written
# to OUT (canonical JSON), for tests/golden.sh.  Each CHANGE, in order:
#   scale=MEMBER:FACTOR[:ROW]  every repetition's MEMBER times FACTOR (of
#                              results[ROW] only, when given)
#   reps=N                     the first N repetitions of every result kept
#   droprow=I                  results[I] removed
#   set=PATH:VALUE             PATH (a.b.c) set to VALUE (a number, true,
#                              false, null or a string)
#   spread=MEMBER:PCT          every result's repetitions of MEMBER made
#                              their mean times 1 - PCT/100, 1, 1 + PCT/100,
#                              1 - PCT/100... (a known spread)
#   stability=WORD[:REASON]    every result's stability WORD, its reason
#                              REASON (else null)
#   rset=PATH:VALUE            as set, in every result (PATH from it)
#   capdrop=N                  the first N of run.user.capabilities removed
#   capadd=NAME                NAME added to run.user.capabilities
#   check=ID:STATUS            every check ID (each kind) given STATUS
#   dropcheck=ID               every check ID removed
#   in=PART                    the changes after it (but set) apply to a
#                              report's part PART; in= to the document again
#   droppart=PART              a report's part PART removed (and its run)
use strict;
use warnings;
use JSON::PP;

my ($in, $out, @changes) = @ARGV;
die "usage: vary.pl IN OUT CHANGE...\n" unless defined $out;
open(my $fh, '<', $in) or die "vary.pl: $in: $!\n";
my $d = do { local $/; decode_json(<$fh>) };
close $fh;

sub value {
	my ($v) = @_;
	return $v + 0 if $v =~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;
	return JSON::PP->new->decode($v) if $v =~ /^[\[{]/;
	return JSON::PP::true if $v eq 'true';
	return JSON::PP::false if $v eq 'false';
	return undef if $v eq 'null';
	return $v;
}

my $t = $d;   # the document the changes apply to: the whole, or a report's part
for my $c (@changes) {
	my ($op, $arg) = split /=/, $c, 2;
	die "vary.pl: $c: not OP=ARG\n" unless defined $arg;
	if ($op eq 'scale') {
		my ($m, $f, $row) = split /:/, $arg;
		my @res = @{ $t->{results} };
		@res = ($res[$row]) if defined $row;
		for my $r (@res) {
			for my $rep (@{ $r->{repetitions} }) {
				$rep->{$m} = $rep->{$m} * $f if defined $rep->{$m};
			}
		}
	} elsif ($op eq 'spread') {
		my ($m, $p) = split /:/, $arg;
		for my $r (@{ $t->{results} }) {
			my @reps = grep { defined $_->{$m} } @{ $r->{repetitions} };
			next unless @reps;
			my $mean = 0;
			$mean += $_->{$m} / @reps for @reps;
			my @f = (1 - $p / 100, 1, 1 + $p / 100);
			$reps[$_]->{$m} = $mean * $f[$_ % 3] for 0 .. $#reps;
		}
	} elsif ($op eq 'stability') {
		my ($w, $why) = split /:/, $arg, 2;
		for my $r (@{ $t->{results} }) {
			$r->{stability} = $w;
			$r->{stability_reason} = $why;
		}
	} elsif ($op eq 'reps') {
		for my $r (@{ $t->{results} }) {
			splice @{ $r->{repetitions} }, $arg if @{ $r->{repetitions} } > $arg;
		}
	} elsif ($op eq 'droprow') {
		splice @{ $t->{results} }, $arg, 1;
	} elsif ($op eq 'set' || $op eq 'rset') {
		my ($path, $v) = split /:/, $arg, 2;
		my @k = split /\./, $path;
		my $last = pop @k;
		for my $top ($op eq 'set' ? ($d) : @{ $t->{results} }) {
			my $o = $top;
			$o = ($o->{$_} //= {}) for @k;
			$o->{$last} = value($v);
		}
	} elsif ($op eq 'check') {
		my ($id, $st) = split /:/, $arg;
		$_->{status} = $st for grep { $_->{id} eq $id } @{ $t->{checks} };
	} elsif ($op eq 'dropcheck') {
		$t->{checks} = [ grep { $_->{id} ne $arg } @{ $t->{checks} } ];
	} elsif ($op eq 'capdrop') {
		splice @{ $d->{run}{user}{capabilities} }, 0, $arg;
	} elsif ($op eq 'capadd') {
		push @{ $d->{run}{user}{capabilities} }, $arg;
	} elsif ($op eq 'in') {
		$t = $arg eq '' ? $d : $d->{parts}{$arg} // die "vary.pl: no part $arg\n";
	} elsif ($op eq 'droppart') {
		delete $d->{parts}{$arg};
		delete $d->{part_runs}{$arg};
	} else {
		die "vary.pl: $op: no such change\n";
	}
}
open($fh, '>', $out) or die "vary.pl: $out: $!\n";
print $fh JSON::PP->new->utf8->canonical->indent->indent_length(1)->space_after->encode($d);
close $fh or die "vary.pl: $out: $!\n";
