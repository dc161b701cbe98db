# SPDX-License-Identifier: GPL-2.0-or-later
# repdoc.pl NAME=FILE...: a report-shaped document with those parts.
use strict; use warnings; use JSON::PP;
my (%p, %r);
for (@ARGV) { my ($k, $f) = split /=/, $_, 2; local $/; open(my $h, "<", $f) or die; $p{$k} = JSON::PP->new->decode(<$h>);
	$r{$k} = { exit_status => 0, duration_ns => 5, error => undef, interrupted => JSON::PP::false }; }
print JSON::PP->new->canonical->encode({ tool => "pipebench", version => "0.1.0", schema_version => 1,
	command => "report", params => { quick => JSON::PP::true }, system => { kernel_release => "6.18.0-test" },
	parts => \%p, part_runs => \%r, not_run => [], errors => [], exit_status => 0 });
