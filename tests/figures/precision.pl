# SPDX-License-Identifier: GPL-2.0-or-later
# precision.pl KEY < DOC.json: every result of a document that has a
# `precision` object, its 95% interval of the median recomputed from its own
# repetitions' KEY (ranks from the normal approximation of the binomial, as
# pipebench(1) says): "n>=8 reached same" (enough repetitions, reached, the
# reached_pct agrees), one per result, comma-separated; then " all" or
# " not all" when the summary has precision_reached.
use strict; use warnings; use JSON::PP;
my $key = shift or die "usage: precision.pl KEY < DOC.json\n";
my $d = do { local $/; decode_json(<STDIN>) };
my @o;
for my $r (@{ $d->{results} }) {
	next unless ref $r->{precision};
	my @t = sort { $a <=> $b } map { $_->{$key} } @{ $r->{repetitions} }; my $n = @t;
	my $h = 0.9799819922700 * sqrt($n); my ($j, $k) = (int($n / 2 - $h), $n / 2 + 1 + $h);
	$k = int($k) == $k ? $k : int($k) + 1;
	my $m = $n % 2 ? $t[($n - 1) / 2] : ($t[$n / 2 - 1] + $t[$n / 2]) / 2;
	my $want = $j >= 1 && $k <= $n ? (($m - $t[$j - 1]) > ($t[$k - 1] - $m) ?
		$m - $t[$j - 1] : $t[$k - 1] - $m) / $m * 100 : undef;
	my $got = $r->{precision}{reached_pct};
	my $same = defined $want ? defined $got && abs($want - $got) <= 1e-6 * ($want > 1 ? $want : 1)
				 : !defined $got;
	push @o, ($n >= 8 ? "n>=8" : "n=$n") . " " . ($r->{precision}{reached} ? "reached" : "not") .
		($same ? " same" : " differs");
}
print join(",", @o);
print $d->{summary}{precision_reached} ? " all" : " not all" if exists $d->{summary}{precision_reached};
print "\n";
