# SPDX-License-Identifier: GPL-2.0-or-later
# tpdoc.pl SEED SCALE REPS LOOPS [WORK]: a throughput-shaped document, repetition values
# drawn from SEED, times scaled by SCALE, WORK times the bytes and calls.
use strict; use warnings; use JSON::PP;
my ($seed, $scale, $reps, $loops, $work) = @ARGV; $work //= 1; srand($seed);
my @res;
for my $kind (qw(anon fifo)) { for my $size (100, 4096) {
	my @r;
	for (1 .. $reps) {
		my $tw = int((50000 + rand(9000)) * $scale * $work * ($kind eq "fifo" ? 1.3 : 1));
		my $tr = int((40000 + rand(7000)) * $scale * $work);
		my $bytes = $size * $loops * $work; my $calls = 2 * $loops * $work;
		push @r, { tw_ns => $tw, tr_ns => $tr, tt_ns => $tw + $tr, bytes => $bytes,
			write_calls => $calls / 2, read_calls => $calls / 2, syscalls => $calls,
			cpu_user_ns => int(3000 + rand(800)), cpu_sys_ns => 0,
			rate_bytes_per_s => $bytes * 1e9 / ($tw + $tr), ns_per_syscall => ($tw + $tr) / $calls };
	}
	push @res, { kind => $kind, mode => "rw", size_bytes => $size, repetitions => \@r };
} }
print JSON::PP->new->canonical->encode({ tool => "pipebench", version => "0.1.0", schema_version => 1,
	command => "throughput", params => { loops => $loops + 0, repeat => $reps + 0 },
	system => { kernel_release => "6.18.0-test" }, results => \@res, errors => [], exit_status => 0 });
