#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Make tests/conf_details.tab, the snapshots of the details the conformance
# unit tests' broken kernels get (pb_test_detail_is in tests/check_conf.h;
# HACKING, "Tests").  Run in the build directory of a 4 KiB-page machine
# with 64 KiB pipes, after `make check`:
#
#   sh ../tests/mkdetails.sh > ../tests/conf_details.tab
#
# Each program runs four times: as it is, with seven more descriptors
# open (3 to 9: every descriptor number moves), so again while two busy
# loops load the CPUs (a count a race decides may move), and with TMPDIR on
# tmpfs (/dev/shm: a filesystem's name or device number moves).  A number that
# differs between the runs becomes '#'; a '#', '*' or backslash of the text
# is escaped; a detail whose words differ between the runs keeps what they
# share, then '*'.  Read the diff before committing it: a detail that
# changed is a change of what users are told.
set -u
progs="tests/check_conf_creation tests/check_conf_read tests/check_conf_write
	tests/check_conf_nonblock tests/check_conf_sigpipe tests/check_conf_fifo
	tests/check_conf_fcntl tests/check_conf_poll tests/check_conf_metadata
	tests/check_conf_linux"
tmp=$(mktemp -d) || exit 2
trap 'kill $hogs 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
hogs=
for p in $progs; do
	[ -x "$p" ] || { echo "mkdetails.sh: no $p here (run in the build directory after make check)" >&2; exit 2; }
done
run() {	# run FILE: every program, recording into FILE
	for p in $progs; do
		PB_DETAILS_RECORD=$1 "$p" >/dev/null 2>&1
	done
}
run "$tmp/a"
(exec 3</dev/null 4</dev/null 5</dev/null 6</dev/null 7</dev/null 8</dev/null 9</dev/null;
	run "$tmp/b")
for i in 1 2; do sh -c 'while :; do :; done' & hogs="$hogs $!"; done
(exec 3</dev/null 4</dev/null 5</dev/null 6</dev/null 7</dev/null 8</dev/null 9</dev/null;
	run "$tmp/c")
kill $hogs 2>/dev/null
hogs=
# and with TMPDIR on another filesystem (tmpfs): a filesystem's name or
# device number moves too
if [ -d /dev/shm ] && d=$(mktemp -d /dev/shm/pb-mkdetails.XXXXXX); then
	TMPDIR=$d run "$tmp/d"
	rm -rf "$d"
else
	cp "$tmp/c" "$tmp/d"
fi
echo "# Snapshots of the conformance unit tests' details (tests/mkdetails.sh makes this"
echo "# file; pb_test_detail_is reads it): test, loop index, the detail as a pattern"
echo "# ('#' one or more digits, a backslash escapes the next character)."
perl -e '
	my %run;
	for my $i (0 .. 3) {
		open my $f, "<", $ARGV[$i] or die "$ARGV[$i]: $!";
		while (<$f>) {
			chomp;
			my ($name, $idx, $d) = split /\t/, $_, 3;
			push @{ $run{"$name\t$idx"} }, $d;
		}
	}
	for my $k (sort { my ($an, $ai) = split /\t/, $a; my ($bn, $bi) = split /\t/, $b;
			   $an cmp $bn || $ai <=> $bi } keys %run) {
		my @d = @{ $run{$k} };
		my @parts = map { [ split /(\d+)/, $_, -1 ] } @d;
		my $same = 1;
		for my $p (@parts[1 .. $#parts]) {
			$same = 0 if @$p != @{ $parts[0] };
			for my $j (0 .. $#$p) { $same = 0 if $j % 2 == 0 && $p->[$j] ne $parts[0][$j] }
		}
		if (!$same || @d != 4) {
			# What all runs share, then anything.
			my $p = $d[0];
			for my $x (@d) { chop $p while index($x, $p) != 0 }
			$p =~ s/([#\\*])/\\$1/g;
			warn "mkdetails.sh: $k: the words differ between runs, kept up to there:\n  "
				. join("\n  ", @d) . "\n";
			print "$k\t$p*\n";
			next;
		}
		my $out = "";
		for my $j (0 .. $#{ $parts[0] }) {
			my $t = $parts[0][$j];
			if ($j % 2) {
				my $vary = grep { $_->[$j] ne $t } @parts;
				$out .= $vary ? "#" : $t;
			} else {
				$t =~ s/([#\\*])/\\$1/g;
				$out .= $t;
			}
		}
		print "$k\t$out\n";
	}
' "$tmp/a" "$tmp/b" "$tmp/c" "$tmp/d"
