# SPDX-License-Identifier: GPL-2.0-or-later
# confdoc.pl STATUS...: a conformance-shaped document, check CK-0N with the Nth status ("-": absent).
use strict; use warnings; use JSON::PP;
my @c; my $i = 0;
for my $s (@ARGV) { $i++; next if $s eq "-";
	push @c, { id => "CK-0$i", status => $s, title => "t", detail => "d$s", duration_ns => 1000 * $i }; }
print JSON::PP->new->canonical->encode({ tool => "pipebench", version => "0.1.0", schema_version => 1,
	command => "conformance", params => {}, system => { kernel_release => "6.18.0-test" },
	checks => \@c, errors => [], exit_status => 0 });
