#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The mutation catalogue (tests/mutation/mutants.tab) stays usable while
# src/ changes: every mutant's snippet occurs exactly once in its file (a
# refactor that moves or copies it makes `make mutation` count the mutant
# stale), the mutant differs from the snippet, IDs are unique, and
# tests/mutation/map.tab names the tests of every mutated file.
# HACKING, "Mutation testing".
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
top=${TESTS_SRCDIR:-$(dirname "$0")}/..
tab=$top/tests/mutation/mutants.tab
map=$top/tests/mutation/map.tab
[ -r "$tab" ] && [ -r "$map" ] || skip_all "no mutation catalogue under $top/tests/mutation"
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"

# One line per catalogue problem; nothing printed when there is none.
problems=$(TOP=$top MAP=$map perl -e '
	my %e = (n => "\n", t => "\t", "\\" => "\\");
	my (%seen, %mapped, %text);
	open(my $m, "<", $ENV{MAP}) or die "map.tab: $!";
	while (<$m>) { next if /^#|^\s*$/; my ($f) = split /\t/; $mapped{$f} = 1; }
	while (<STDIN>) {
		chomp;
		next if /^#|^\s*$/;
		my ($id, $file, $old, $new, $note) = split /\t/, $_, -1;
		my ($o, $w) = map { (my $x = $_ // "") =~ s/\\([nt\\])/$e{$1}/g; $x } ($old, $new);
		print "dup $id: the ID is used twice\n" if $seen{$id}++;
		print "same $id: the mutant equals its snippet\n" if $o eq $w;
		print "unmapped $id: map.tab names no tests for $file\n" unless $mapped{$file};
		unless (exists $text{$file}) {
			local $/;
			open(my $f, "<", "$ENV{TOP}/$file") or do { print "missing $id: $file: $!\n"; next };
			$text{$file} = <$f>;
		}
		next unless defined $text{$file};
		my $c = () = $text{$file} =~ /\Q$o\E/g;
		print "stale $id: the snippet occurs $c times in $file\n" if $c != 1;
	}' <"$tab")
rows=$(grep -c '^[A-Z]' "$tab")
for what in stale dup same unmapped; do
	pat=$what
	[ "$what" = stale ] && pat="stale|missing"
	found=$(printf '%s\n' "$problems" | grep -E "^($pat) " || :)
	case $what in
	stale) desc="every snippet of the $rows rows occurs once in its file" ;;
	dup) desc="mutant IDs are unique" ;;
	same) desc="every mutant changes its snippet" ;;
	unmapped) desc="map.tab names the tests of every mutated file" ;;
	esac
	[ -z "$found" ]
	ok $? "$desc"
	[ -z "$found" ] || diag "$found"
done
done_testing
