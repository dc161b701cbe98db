#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The mutant generator of make mutation-sample (tests/mutation/gen.pl) on a
# small fixture: every rule yields points, none comes from a comment, string,
# character constant, directive or #if 0 block, the same seed draws the same
# sample, every point applies and reverts to the same bytes, and every entry
# of tests/mutation/equivalent.tab names a point the generator still yields,
# with a reason.  HACKING, "Mutation testing".
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
top=${TESTS_SRCDIR:-$(dirname "$0")}/..
gen=$top/tests/mutation/gen.pl
fixture=$top/tests/mutation/fixture.c
equiv=$top/tests/mutation/equivalent.tab
[ -r "$gen" ] && [ -r "$fixture" ] || skip_all "no generator under $top/tests/mutation"
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
tap_tmpdir
cd "$TEST_TMP" || exit 99
cp "$fixture" f.c || exit 99
rules="rel eq logic logic-drop const errno neg call-del break-del arith ratio"

# --count: a header naming the rules, then the file's row.
counts=$(perl "$gen" --count f.c)
# shellcheck disable=SC2046 # the header, split into words
set -- $(printf '%s\n' "$counts" | sed -n 1p)
shift
header=$*
is "$header" "$rules total" "--count has a column per rule and a total"
row=$(printf '%s\n' "$counts" | awk '$1 == "f.c"')
# shellcheck disable=SC2086 # the row, split into words
set -- $row
shift
for r in $rules; do
	[ "${1:-0}" -gt 0 ]
	ok $? "rule $r yields points on the fixture ($1)"
	shift
done

list=$(perl "$gen" --list f.c)
# The first code line of the fixture is the declaration of f(); the lines
# above hold every operator, constant and errno name in comments, strings,
# character constants, a #define and an #if 0 block.
first=$(grep -n '^int f(int a, int b);' f.c | cut -d: -f1)
early=$(printf '%s\n' "$list" | awk -F'\t' -v n="$first" '$3 < n')
[ -n "$first" ] && [ -z "$early" ]
ok $? "no point in comments, strings, character constants, directives or #if 0"
[ -z "$early" ] || diag "$early"

# Array sizes are never mutated, also of a declaration's later declarators
# (int pr[7] = { 0, 1 }, pw[9];), while their initialisers are.
decl=$(grep -n 'int pr\[7\]' f.c | cut -d: -f1)
sizes=$(printf '%s\n' "$list" | awk -F'\t' -v n="$decl" '$3 == n && ($6 == "7" || $6 == "9")')
inits=$(printf '%s\n' "$list" | awk -F'\t' -v n="$decl" '$3 == n && $5 == "const"' | wc -l)
[ -n "$decl" ] && [ -z "$sizes" ] && [ "$inits" -eq 4 ]
ok $? "no point in an array declaration's sizes, its initialisers have theirs ($inits)"
[ -z "$sizes" ] || diag "$sizes"

# A wait's bound of 10 ms or more, fcntl's third argument with an F_GET*
# command and open's mode without O_CREAT yield no const point; the same
# calls with a short bound, F_SETFL or O_CREAT keep theirs (two each).
quiet=
for l in 'poll(p, k, 2000)' 'fcntl(fd, F_GETFL, 0)' 'open("x", O_RDONLY, 0)'; do
	n=$(grep -nF "$l" f.c | cut -d: -f1)
	c=$(grep -F "$l" f.c | awk -v s="$l" '{ print index($0, s) + length(s) - 2 }')
	k=$(printf '%s\n' "$list" | awk -F'\t' -v n="$n" -v c="$c" '$3 == n && $4 <= c && $5 == "const"' | wc -l)
	k2=$(printf '%s\n' "$list" | awk -F'\t' -v n="$n" -v c="$c" '$3 == n && $4 > c && $5 == "const"' | wc -l)
	[ -n "$n" ] && [ "$k" -eq 0 ] && [ "$k2" -eq 2 ] || quiet="$quiet [$l: $k and $k2]"
done
[ -z "$quiet" ]
ok $? "no const point in a wait's bound, an F_GET* command's argument or open's mode without O_CREAT"
[ -z "$quiet" ] || diag "$quiet"

# Units: 1000000000ULL times ten and over ten, 1024 as 1000, 7 plus and
# minus one.
n=$(grep -n 'return x \* 1000000000ULL / 1024 + 7;' f.c | cut -d: -f1)
units=$(printf '%s\n' "$list" | awk -F'\t' -v n="$n" '$3 == n && $5 == "const" { print $7 }' | LC_ALL=C sort | tr '\n' ' ')
is "$units" "1000 10000000000ULL 100000000ULL 6 8 " "a unit's constant a zero off, a binary unit as decimal, a count one off"

dups=$(printf '%s\n' "$list" | cut -f1 | sort | uniq -d)
[ -z "$dups" ]
ok $? "every point has its own tag"

a=$(perl "$gen" --sample 10 --seed 42 f.c)
b=$(perl "$gen" --sample 10 --seed 42 f.c)
c=$(perl "$gen" --sample 10 --seed 43 f.c)
[ "$(nlines "$a")" -eq 10 ] && [ "$a" = "$b" ] && [ "$a" != "$c" ]
ok $? "the same seed draws the same 10 points, another seed others"

# Every point: applied it changes the file, reverted it gives the bytes back.
bad=
printf '%s\n' "$list" >points
while IFS= read -r p; do
	perl "$gen" --apply "$p" && ! cmp -s f.c "$fixture" &&
		perl "$gen" --revert "$p" && cmp -s f.c "$fixture" ||
		{ bad="$bad $(printf '%s' "$p" | cut -f1-5)"; cp "$fixture" f.c; }
done <points
[ -z "$bad" ]
ok $? "each of the $(nlines "$list") points applies and reverts byte for byte"
[ -z "$bad" ] || diag "$bad"

p=$(printf '%s\n' "$list" | sed -n 1p)
perl "$gen" --apply "$p" && ! perl "$gen" --apply "$p" 2>err && grep -q 'the text there is not' err
ok $? "a point is refused where its text is not (applied twice)"
perl "$gen" --revert "$p"

# equivalent.tab: tag, file, rule, change, reason; the tag still generated.
stale=
while IFS='	' read -r tag file rule change why; do
	case $tag in ''|'#'*) continue ;; esac
	if [ -z "$why" ] || [ -z "$change" ] ||
		! (cd "$top" && perl "$gen" --point "$tag" "$file" 2>/dev/null | cut -f5) | grep -qx "$rule"; then
		stale="$stale $tag"
	fi
done <"$equiv"
[ -z "$stale" ]
ok $? "every equivalent.tab entry names a generated point and gives a reason"
[ -z "$stale" ] || diag "stale or unexplained:$stale"

# sample.sh's default FILES: every pattern names files (a moved file left
# `make mutation-sample` without FILES refusing to start), and every file
# map.tab maps is still there.
defaults=$(sed -n '/files="src\//,/"$/p' "$top/tests/mutation/sample.sh" | sed 's/.*files="//; s/"$//')
missing=
for pat in $defaults; do
	# shellcheck disable=SC2086 # a shell pattern, expanded
	set -- $(cd "$top" && echo $pat)
	[ -f "$top/$1" ] || missing="$missing $pat"
done
[ -n "$defaults" ] && [ -z "$missing" ]
ok $? "sample.sh's default FILES each name a file ($(echo $defaults | wc -w) patterns)"
[ -z "$missing" ] || diag "no file for:$missing"
missing=
while IFS='	' read -r f tests; do
	case $f in ''|'#'*) continue ;; esac
	[ -f "$top/$f" ] || missing="$missing $f"
done <"$top/tests/mutation/map.tab"
[ -z "$missing" ]
ok $? "every file tests/mutation/map.tab maps exists"
[ -z "$missing" ] || diag "gone:$missing"

# The coverage run's driver (tests/mutation/covdriver.sh): each test's
# counts go to a directory named for the test (/ as +, never %, which
# libgcov reads as a pid), writable by the other users tests run as.
drv=$top/tests/mutation/covdriver.sh
got=$(COVER_DIR=/cov sh "$drv" sh -c 'echo "$GCOV_PREFIX $(umask)"' driver \
	--test-name tests/check_x --log-file l -- t)
is "$got" "/cov/tests+check_x 0000" "covdriver.sh: GCOV_PREFIX names the test, umask 000"
got=$(COVER_DIR=/cov sh "$drv" sh -c 'echo "$GCOV_PREFIX"' driver --test-name=tests/a.sh -- t)
is "$got" "/cov/tests+a.sh" "covdriver.sh: --test-name=NAME too"

# sample.sh refuses a MUTATION_SELECT it does not know, in one line, exit 2,
# before it copies or builds anything.
MUTATION_SELECT=some sh "$top/tests/mutation/sample.sh" "$top" "$TEST_TMP/sample" 1 1 >out 2>err
is "$?" 2 "MUTATION_SELECT=some: exit 2"
is "$(cat err)" "mutation-sample: MUTATION_SELECT: cover or all, not 'some'" "... and says why in one line"
[ ! -e "$TEST_TMP/sample" ]
ok $? "... leaving nothing behind"
rm -f f.c points err out
done_testing
