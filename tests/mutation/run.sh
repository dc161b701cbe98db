#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make mutation: the project's own mutation run (HACKING, "Mutation testing").
#
#   run.sh SRCDIR OUTDIR [ID...]
#
# Copies SRCDIR (without .git and build trees) to OUTDIR/tree, configures and
# builds it once, then for each mutant of tests/mutation/mutants.tab (or the
# IDs given) replaces its one-line snippet in a scratch copy of the file,
# rebuilds, and runs the tests that tests/mutation/map.tab names for that
# file.  A mutant is "killed" when a test fails, "survived" when all pass,
# "stillborn" when it does not compile (a catalogue error), "equivalent" when
# the catalogue says so with a reason (not built).  The report goes to
# OUTDIR/mutation-report.txt; the score is killed / (killed + survived).
set -u
src=$(cd "${1:?usage: run.sh SRCDIR OUTDIR [ID...]}" && pwd)
out=${2:?usage: run.sh SRCDIR OUTDIR [ID...]}
shift 2
tab="$src/tests/mutation/mutants.tab"
map="$src/tests/mutation/map.tab"
per_test_timeout=${MUTATION_TIMEOUT:-300}
command -v perl >/dev/null || { echo "mutation: perl is needed" >&2; exit 2; }

mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
tree="$out/tree"
report="$out/mutation-report.txt"
rm -rf "$tree"
mkdir -p "$tree"
(cd "$src" && tar --exclude=.git --exclude='./build*' --exclude=./mutation --exclude=autom4te.cache -cf - .) |
	(cd "$tree" && tar -xf -) || exit 2
echo "mutation: building a scratch copy in $tree"
(cd "$tree" && autoreconf -fi >/dev/null 2>&1 && mkdir -p b && cd b &&
	../configure >/dev/null && make -j2 >/dev/null 2>&1 && make -j2 check TESTS= >/dev/null 2>&1) ||
	{ echo "mutation: the unmutated tree does not build" >&2; exit 2; }

: >"$report"
killed=0 survived=0 stillborn=0 equivalent=0
want_ids=" $* "
# The catalogue writes newlines and tabs as \n and \t.
unesc='my %e = (n => "\n", t => "\t", "\\" => "\\"); my ($o, $w) = map { (my $x = $_) =~ s/\\([nt\\])/$e{$1}/g; $x } ($ENV{OLD}, $ENV{NEW} // "");'

while IFS='	' read -r id file old new note; do
	case $id in ''|'#'*) continue ;; esac
	[ $# -eq 0 ] || case $want_ids in *" $id "*) ;; *) continue ;; esac
	case $note in
	equivalent:*)
		equivalent=$((equivalent + 1))
		printf '%-8s equivalent  %s: %s\n' "$id" "$file" "${note#equivalent: }" >>"$report"
		continue ;;
	esac
	f="$tree/$file"
	n=$(OLD="$old" perl -0ne "$unesc"' $c = () = /\Q$o\E/g; print $c' "$f")
	if [ "$n" != 1 ]; then
		echo "mutation: $id: the snippet occurs $n times in $file (stale catalogue)" >&2
		printf '%-8s stale       %s: %s\n' "$id" "$file" "$old" >>"$report"
		stillborn=$((stillborn + 1))
		continue
	fi
	cp "$f" "$f.orig"
	OLD="$old" NEW="$new" perl -0pi -e "$unesc"' s/\Q$o\E/$w/' "$f"
	tests=$(awk -F'	' -v f="$file" '$1 == f { print $2 }' "$map")
	[ -n "$tests" ] || tests=$(awk -F'	' '$1 == "*" { print $2 }' "$map")
	if ! (cd "$tree/b" && make -j2 >/dev/null 2>&1); then
		result=stillborn; stillborn=$((stillborn + 1))
	elif (cd "$tree/b" && timeout "$per_test_timeout" make -j2 check TESTS="$tests" \
		>"$out/$id.log" 2>&1); then
		result=survived; survived=$((survived + 1))
	else
		result=killed; killed=$((killed + 1))
	fi
	mv "$f.orig" "$f"
	touch "$f"
	printf '%-8s %-11s %s: %s -> %s\n' "$id" "$result" "$file" "$old" "$new" >>"$report"
	echo "mutation: $id $result ($file)"
	[ "$result" = survived ] || rm -f "$out/$id.log"
done <"$tab"
(cd "$tree/b" && make -j2 >/dev/null 2>&1)
scored=$((killed + survived))
score=0
[ $scored -eq 0 ] || score=$((100 * killed / scored))
summary="mutation score: $killed killed of $scored ($score%), $survived survived, $equivalent equivalent, $stillborn stillborn or stale"
echo "$summary" >>"$report"
cat "$report"
[ $stillborn -eq 0 ] && [ $score -ge "${MUTATION_TARGET:-90}" ]
