#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make mutation-sample's test selection (HACKING, "Mutation testing").
#
#   cover.sh TREE OUT
#
# TREE is a copy of the source, autoreconf'd; it is configured again in
# TREE/cov with gcc's --coverage (and tests/mutation/gcovexit.c, so that
# children ending with _exit() count) and its make check runs once, each
# test writing its counts under a directory of its own
# (tests/mutation/covdriver.sh).  OUT/cover.map then says, for each line
# of src/ that gcc made code for, which tests ran it: "FILE<TAB>LINE<TAB>
# TESTS" (space-separated; "*" among them when a process that lost the
# test's environment ran it; empty when no test ran it).  A test that does
# not run a mutated line cannot tell the mutant from the program, so the
# sample runs only the tests that ran it.  What the counts cannot see is on
# the safe side: a process killed by a signal writes no counts (a test it
# ran in is not chosen, and the mutant may be counted as surviving when it
# would be killed), and a line absent from the map runs the whole suite.
set -u
me=mutation-sample
tree=$(cd "${1:?usage: cover.sh TREE OUT}" && pwd) || exit 2
out=${2:?usage: cover.sh TREE OUT}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
jobs=${MUTATION_CHECK_JOBS:-4}
limit=${MUTATION_CHECK_TIMEOUT:-1800}
here=$(cd "$(dirname "$0")" && pwd)
command -v gcov >/dev/null || { echo "$me: gcov is needed for the test selection (MUTATION_SELECT=all: none)" >&2; exit 2; }
cd "$tree" || exit 2
rm -rf cov "$out/gcda" "$out/cover.map" && mkdir -p cov "$out/gcda" || exit 2
cd cov || exit 2
${CC:-gcc} -O0 -c "$here/gcovexit.c" -o gcovexit.o || exit 2
../configure CFLAGS="-O0 -g --coverage" LDFLAGS="--coverage" LIBS="$PWD/gcovexit.o" >"$out/cover-build.log" 2>&1 &&
	make -j"$jobs" >>"$out/cover-build.log" 2>&1 &&
	make -j"$jobs" check TESTS= >>"$out/cover-build.log" 2>&1 ||
	{ echo "$me: the coverage build failed ($out/cover-build.log)" >&2; exit 2; }
find . -name '*.gcda' -delete
rm -rf tmp && mkdir -m 1777 tmp || exit 2
COVER_DIR=$out/gcda TMPDIR=$PWD/tmp timeout -k 10 "$limit" make -j"$jobs" check \
	LOG_DRIVER="env AM_TAP_AWK=awk sh $here/covdriver.sh sh $PWD/../build-aux/tap-driver.sh" \
	>"$out/cover-check.log" 2>&1
rm -rf tmp
# Counts written outside any test's directory (a process with a cleared
# environment) are the pseudo-test "*".
mkdir -p "$out/gcda/*" && find . -name '*.gcda' | while IFS= read -r g; do
	mkdir -p "$out/gcda/*/$PWD/${g%/*}" && mv "$g" "$out/gcda/*/$PWD/$g"
done
# gcov reads each .gcda next to its .gcno: link the notes in, read the
# counts (gcov -t: the annotated source on stdout).
for d in "$out/gcda"/*; do
	[ -d "$d" ] || continue
	t=$(basename "$d")
	find "$d" -name '*.gcda' | while IFS= read -r g; do
		rel=${g#"$d"}
		n=${rel%.gcda}.gcno
		[ -f "$n" ] || continue
		ln -sf "$n" "${g%.gcda}.gcno"
		(cd "$tree/cov" && gcov -t "$g" 2>/dev/null) | sed "s|^|$t	|"
	done
done | perl -e '
	my (%ran, %code, $src);
	while (<STDIN>) {
		my ($t, $l) = split /\t/, $_, 2;
		$t =~ tr{+}{/};
		if ($l =~ /^\s*-:\s*0:Source:(.*)$/) {
			$src = $1; $src =~ s{^(?:.*/)?(src/)}{$1}; next;
		}
		next unless defined $src && $src =~ m{^src/.*\.c$};
		next unless $l =~ /^\s*([^:]+):\s*(\d+):/;
		my ($c, $n) = ($1, $2);
		next if $c =~ /^-$/ || $n == 0;
		$code{$src}{$n} = 1;
		$ran{$src}{$n}{$t} = 1 if $c !~ /^(#####|=====)$/;
	}
	# A line with no code of its own that continues a statement (the
	# lines above it, back to one with code, end in none of ; { } and
	# are no directive) runs when that line does: an argument or operand
	# on a call'"'"'s later line.  Anything else (a static table) stays out.
	for my $f (keys %code) {
		open(my $in, "<", "../$f") or next;
		my @line = ("", <$in>);
		close $in;
		for my $n (1 .. $#line) {
			next if $code{$f}{$n};
			for (my $j = $n - 1; $j >= 1; $j--) {
				(my $t = $line[$j]) =~ s{//.*|/\*.*?\*/}{}g;
				last if $t =~ /[;{}]\s*$/ || $t =~ /^\s*#/ || $t =~ /^\s*$/;
				next unless $code{$f}{$j};
				$code{$f}{$n} = 2;
				$ran{$f}{$n} = { %{$ran{$f}{$j} || {}} };
				last;
			}
		}
	}
	for my $f (sort keys %code) {
		for my $n (sort { $a <=> $b } keys %{$code{$f}}) {
			print "$f\t$n\t", join(" ", sort keys %{$ran{$f}{$n} || {}}), "\n";
		}
	}' >"$out/cover.map.tmp" && mv "$out/cover.map.tmp" "$out/cover.map" || exit 2
[ -n "${MUTATION_KEEP_GCDA:-}" ] || rm -rf "$out/gcda"
[ -s "$out/cover.map" ] || { echo "$me: no coverage counts came back ($out/cover-check.log)" >&2; exit 2; }
