#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make mutation-sweep: every generated mutant of one file against one unit
# test program (HACKING, "Mutation testing").
#
#   sweep.sh SRCDIR BUILDDIR FILE TEST OUTDIR [JOBS] [LINES]
#
# Every point tests/mutation/gen.pl yields for FILE (a path under SRCDIR,
# src/stats.c), or those on lines LINES (FROM-TO), is applied to a copy of
# SRCDIR/src, FILE alone is compiled (SWEEP_CC, SWEEP_CPPFLAGS, -O1, no
# warnings) and linked ahead of BUILDDIR's src/.libs/libpipebench.a into
# TEST (a Check program, tests/check_stats: its objects, SWEEP_LDFLAGS,
# SWEEP_LIBS), which runs in BUILDDIR for at most SWEEP_TIMEOUT seconds
# (default 20).  A point is killed (the program failed), survived,
# stillborn (it does not compile), same (the mutant's object code is the
# unmutated file's: nothing can tell them apart) or equivalent (listed in
# tests/mutation/equivalent.tab: not run).  JOBS copies (default 2)
# take every JOBS-th point.  Seconds for a file, not the hours of
# make mutation-sample, and an upper bound on its survivors: the shell tests
# and the other programs never run.  Results: OUTDIR/results (tag, result,
# the point), OUTDIR/survivors.txt (points, for gen.pl --apply or
# make mutation-sample POINTS=...), and the counts on stdout.
#
# TEST may be a shell test instead (tests/compare.sh): FILE is then linked
# ahead of the library into pipebench itself (BUILDDIR's src/pipebench-main.o),
# and the script runs with PIPEBENCH naming that binary and TESTS_SRCDIR,
# TESTS_BUILDDIR and MANPAGE as make check sets them, for at most
# SWEEP_TIMEOUT seconds (default 300 there); a point is killed when the
# script exits non-zero or prints a "not ok" that is not a TODO.  Seconds a
# point become the script's own time: use LINES for a region.  Several
# scripts, space-separated, run in turn; the first that fails kills.
# SWEEP_POINTS names a file of points (survivors.txt, or gen.pl --list
# lines): only those of FILE that it lists are run.
set -u
me=mutation-sweep
usage="usage: sweep.sh SRCDIR BUILDDIR FILE TEST OUTDIR [JOBS] [LINES]"
src=$(cd "${1:?$usage}" && pwd) || exit 2
bld=$(cd "${2:?$usage}" && pwd) || exit 2
file=${3:?$usage} test=${4:?$usage} out=${5:?$usage} jobs=${6:-2} lines=${7:-}
gen=$src/tests/mutation/gen.pl
equiv=$src/tests/mutation/equivalent.tab
lib=$bld/src/.libs/libpipebench.a
cc=${SWEEP_CC:-cc}
case $test in
*.sh) shtest=1 tmo=${SWEEP_TIMEOUT:-300} ;;
*) shtest=0 tmo=${SWEEP_TIMEOUT:-20} ;;
esac
[ -f "$src/$file" ] || { echo "$me: FILE: $file: no such file in $src" >&2; exit 2; }
[ -f "$lib" ] || { echo "$me: no $lib: configure with static libraries (the default)" >&2; exit 2; }
case $jobs in ''|*[!0-9]*|0) echo "$me: JOBS: $jobs: not a positive number" >&2; exit 2 ;; esac
from=0 to=999999999
if [ -n "$lines" ]; then
	case $lines in
	*[!0-9-]*|-*|*-|*-*-*) echo "$me: LINES: $lines: not FROM-TO" >&2; exit 2 ;;
	*-*) ;;
	*) echo "$me: LINES: $lines: not FROM-TO" >&2; exit 2 ;;
	esac
	from=${lines%-*} to=${lines#*-}
fi
objs=
if [ "$shtest" = 1 ]; then
	for t in $test; do
		case $t in *.sh) ;; *) echo "$me: TEST: $t: several tests must all be scripts" >&2; exit 2 ;; esac
		[ -f "$src/$t" ] || { echo "$me: TEST: $t: no such script in $src" >&2; exit 2; }
	done
	objs=$bld/src/pipebench-main.o
	[ -f "$objs" ] || { echo "$me: no $objs (make check TESTS= first)" >&2; exit 2; }
else
	for o in "$bld/$test".o "$bld/$(dirname "$test")/$(basename "$test")"-*.o; do
		[ -f "$o" ] && objs="$objs $o"
	done
	[ -n "$objs" ] || { echo "$me: TEST: no objects of $test in $bld (make $test first)" >&2; exit 2; }
fi

rm -rf "$out" && mkdir -p "$out" || exit 2
perl "$gen" --list "$src/$file" >/dev/null || exit 2
(cd "$src" && perl "$gen" --list "$file") |
	awk -F'\t' -v a="$from" -v b="$to" '$3 >= a && $3 <= b' >"$out/points" || exit 2
if [ -n "${SWEEP_POINTS:-}" ]; then
	[ -r "$SWEEP_POINTS" ] || { echo "$me: SWEEP_POINTS: $SWEEP_POINTS: cannot read it" >&2; exit 2; }
	awk -F'\t' 'NR == FNR { want[$1] = 1; next } $1 in want' "$SWEEP_POINTS" "$out/points" \
		>"$out/points.want" && mv "$out/points.want" "$out/points" || exit 2
fi
total=$(wc -l <"$out/points")
[ "$total" -gt 0 ] || { echo "$me: no points in $file${lines:+ on lines $lines}" >&2; exit 2; }

# compile DIR OBJ: FILE of the tree DIR/src into OBJ; link OBJ into EXE
compile() {
	# shellcheck disable=SC2086 # flag lists
	$cc -std=gnu11 -O1 -g0 -w ${SWEEP_CPPFLAGS:-} -I"$1/$(dirname "$file")" -I"$1/src" \
		-c "$1/$file" -o "$2" 2>/dev/null
}
link() {
	# shellcheck disable=SC2086 # flag and object lists
	$cc -o "$2" $objs "$1" "$lib" ${SWEEP_LDFLAGS:-} ${SWEEP_LIBS:-} 2>/dev/null
}
# (stdin /dev/null: a test that reads or replaces descriptor 0 must not
# take the points the worker reads there)
# A shell test's binary is named pipebench, in a directory of its own.
run() {
	if [ "$shtest" = 1 ]; then
		mkdir -p "$1.d" && ln -f "$1" "$1.d/pipebench" || return 2
		for t in $test; do
			(cd "$bld" && PIPEBENCH=$1.d/pipebench TESTS_SRCDIR=$src/tests \
				TESTS_BUILDDIR=$bld/tests MANPAGE=$src/man/pipebench.1 \
				timeout -k 5 "$tmo" sh "$src/$t" </dev/null >"$1.tap" 2>&1) || return 1
			! grep -av '# TODO' "$1.tap" | grep -aEq '^(not ok|Bail out)' || return 1
		done
	else
		(cd "$bld" && timeout -k 5 "$tmo" "$1" </dev/null >/dev/null 2>&1)
	fi
}

mkdir "$out/base" && cp -R "$src/src" "$out/base/" || exit 2
compile "$out/base" "$out/base.o" || { echo "$me: $file does not compile unmutated" >&2; exit 2; }
link "$out/base.o" "$out/base.exe" || { echo "$me: $test does not link" >&2; exit 2; }
run "$out/base.exe" || { echo "$me: $test fails unmutated: nothing to measure" >&2; exit 2; }
echo "$me: $total points of $file${lines:+ (lines $lines)} against $test, $jobs at once"

worker() {
	w=$out/w.$1
	mkdir "$w" && cp -R "$src/src" "$w/" || exit 2
	compile "$w" "$w/base.o" || exit 2  # here: the object may hold its path
	awk -v j="$jobs" -v k="$1" '(NR - 1) % j == k' "$out/points" | while IFS= read -r p; do
		if grep -q "^${p%%	*}	" "$equiv"; then
			printf '%s\t%s\t%s\n' "${p%%	*}" equivalent "$p" >>"$out/results.$1"
			continue
		fi
		(cd "$w" && perl "$gen" --apply "$p") >/dev/null 2>&1 || { echo "$me: cannot apply: $p" >&2; exit 2; }
		if ! compile "$w" "$w/m.o" || ! link "$w/m.o" "$w/m.exe"; then r=stillborn
		elif cmp -s "$w/m.o" "$w/base.o"; then r=same
		elif run "$w/m.exe"; then r=survived
		else r=killed
		fi
		(cd "$w" && perl "$gen" --revert "$p") >/dev/null 2>&1 || { echo "$me: cannot revert: $p" >&2; exit 2; }
		printf '%s\t%s\t%s\n' "${p%%	*}" "$r" "$p" >>"$out/results.$1"
	done
}
pids=
trap 'kill $pids 2>/dev/null; exit 130' INT TERM
j=0
while [ "$j" -lt "$jobs" ]; do
	worker "$j" & pids="$pids $!"
	j=$((j + 1))
done
st=0
for p in $pids; do wait "$p" || st=2; done
cat "$out"/results.* >"$out/results" 2>/dev/null
awk -F'\t' '$2 == "survived"' "$out/results" | cut -f3- >"$out/survivors.txt"
awk -F'\t' -v f="$file" -v t="$test" -v n="$total" '
	{ c[$2]++ }
	END {
		k = c["killed"] + 0; s = c["survived"] + 0
		printf "%s: %d of %d points: %d killed, %d survived, %d stillborn, %d same object code, %d listed equivalent",
			f, NR, n, k, s, c["stillborn"] + 0, c["same"] + 0, c["equivalent"] + 0
		if (k + s) printf "; %.1f%% killed by %s alone", 100 * k / (k + s), t
		printf "\n"
	}' "$out/results"
echo "$me: survivors: $out/survivors.txt"
[ "$(wc -l <"$out/results")" -eq "$total" ] || st=2
exit $st
