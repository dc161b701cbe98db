#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make mutation-sample: generated mutants drawn at random (HACKING,
# "Mutation testing").
#
#   sample.sh SRCDIR OUTDIR N SEED FILES [POINTS]
#
# tests/mutation/gen.pl enumerates the mutation points of FILES (paths
# relative to SRCDIR, shell patterns allowed); N of them are drawn uniformly
# with SEED (a random seed is chosen and printed when SEED is empty), or the
# points are read from the file POINTS (a survivors file of an earlier run).
# SRCDIR is copied to OUTDIR/tree, configured and built once; the unmutated
# tree runs `make check` once (tests that fail there kill no mutant).  Each
# point is then applied, built (a build failure: stillborn), run against the
# tests tests/mutation/map.tab names for its file and, when those pass,
# against the whole of `make check` (killed or survived; a run past
# MUTATION_TIMEOUT seconds is killed by timeout), and reverted.  A point
# that tests/mutation/equivalent.tab lists is equivalent and not run.
# Report: OUTDIR/sample-report.txt (also on stdout); survivors, one point a
# line: OUTDIR/survivors.txt; the failing runs' logs: OUTDIR/logs/.
set -u
me=mutation-sample
src=$(cd "${1:?usage: sample.sh SRCDIR OUTDIR N SEED FILES [POINTS]}" && pwd) || exit 2
out=${2:?usage: sample.sh SRCDIR OUTDIR N SEED FILES [POINTS]}
want=${3:-20}
seed=${4:-}
files=${5:-}
points_in=${6:-}
jobs=${MUTATION_JOBS:-2}
map_timeout=${MUTATION_TIMEOUT:-300}
check_timeout=${MUTATION_CHECK_TIMEOUT:-1800}
gen=$src/tests/mutation/gen.pl
equiv=$src/tests/mutation/equivalent.tab
map=$src/tests/mutation/map.tab
command -v perl >/dev/null || { echo "$me: perl is needed" >&2; exit 2; }
case $want in ''|*[!0-9]*) echo "$me: N: not a count: '$want'" >&2; exit 2 ;; esac
case $seed in *[!0-9]*) echo "$me: SEED: not a number: '$seed'" >&2; exit 2 ;; esac
[ -z "$points_in" ] || [ -r "$points_in" ] || { echo "$me: POINTS: $points_in: cannot read it" >&2; exit 2; }
[ -z "$points_in" ] || points_in=$(cd "$(dirname "$points_in")" && pwd)/$(basename "$points_in")
[ -n "$files" ] || files="src/checks_*.c src/conformance.c src/tsprobe.c src/cmd_*.c src/compare.c
	src/stats.c src/engine.c src/zerocopy.c src/latency.c src/histogram.c src/sysinfo.c src/units.c"
if [ -z "$seed" ]; then
	seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	[ -n "$seed" ] || seed=$$
fi

mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
tree=$out/tree
report=$out/sample-report.txt
survivors=$out/survivors.txt
rm -rf "$tree" "$out/logs"
mkdir -p "$tree" "$out/logs" || exit 2

# The source tree without git's metadata, build trees or earlier runs.
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$src" && git ls-files -co --exclude-standard | grep -v -e '^mutation' -e '^build' |
		tar -cf - -T -) | (cd "$tree" && tar -xf -)
else
	(cd "$src" && tar --exclude=.git --exclude='./build*' --exclude='./mutation*' \
		--exclude=autom4te.cache -cf - .) | (cd "$tree" && tar -xf -)
fi || { echo "$me: cannot copy $src to $tree" >&2; exit 2; }
[ ! -e "$tree/config.status" ] ||
	{ echo "$me: $src is configured in place: run make distclean there, or build out of tree" >&2; exit 2; }

cd "$tree" || exit 2
# shellcheck disable=SC2086 # FILES is a list of shell patterns
set -- $files
for f; do [ -f "$f" ] || { echo "$me: FILES: $f: no such file in $src" >&2; exit 2; }; done
total=$(perl "$gen" --list "$@" | wc -l)
if [ -n "$points_in" ]; then
	cp "$points_in" "$out/points.txt"
	echo "$me: $(wc -l <"$out/points.txt") points from $points_in"
else
	perl "$gen" --sample "$want" --seed "$seed" "$@" >"$out/points.txt" || exit 2
	echo "$me: seed $seed: $(wc -l <"$out/points.txt") of $total points over $# files"
fi

echo "$me: building a scratch copy in $tree" >&2
t0=$(date +%s)
(autoreconf -fi >/dev/null 2>&1 && mkdir -p b && cd b && ../configure >/dev/null &&
	make -j"$jobs" >/dev/null 2>&1 && make -j"$jobs" check TESTS= >/dev/null 2>&1) ||
	{ echo "$me: the unmutated tree does not build" >&2; exit 2; }
echo "$me: the unmutated tree's make check (its failures kill no mutant)" >&2
(cd b && timeout -k 10 "$check_timeout" make -j"$jobs" check >"$out/logs/baseline.log" 2>&1)
grep -E '^(FAIL|ERROR|XPASS):' "$out/logs/baseline.log" | sed 's/^[A-Z]*: //; s/ .*//' | sort -u >"$out/baseline-fails"
if [ -s "$out/baseline-fails" ]; then
	echo "$me: failing without a mutant, not counted: $(tr '\n' ' ' <"$out/baseline-fails")" >&2
fi
t_base=$(($(date +%s) - t0))

# run_tests LOG TIMEOUT [TESTS]: the first test that fails here but not in
# the unmutated tree, "timeout" past TIMEOUT, or nothing when none fails.
run_tests() {
	log=$1 limit=$2
	shift 2
	if [ $# -gt 0 ]; then
		(cd b && timeout -k 10 "$limit" make -j"$jobs" check TESTS="$*" >"$log" 2>&1)
	else
		(cd b && timeout -k 10 "$limit" make -j"$jobs" check >"$log" 2>&1)
	fi
	rc=$?
	case $rc in 124|137) echo timeout; return ;; esac
	[ $rc -ne 0 ] || return 0
	k=$(grep -E '^(FAIL|ERROR|XPASS):' "$log" | sed 's/^[A-Z]*: //; s/ .*//' |
		grep -vxF -f "$out/baseline-fails" | head -n 1)
	[ -n "$k" ] || grep -q -E '^(FAIL|ERROR|XPASS):' "$log" || k="make"
	echo "$k"
}

short() { printf '%s' "$1" | cut -c1-60; }

: >"$report"
: >"$survivors"
killed=0 bytimeout=0 survived=0 stillborn=0 equivalent=0 done=0
n=$(wc -l <"$out/points.txt")
t1=$(date +%s)
while IFS= read -r point; do
	[ -n "$point" ] || continue
	tag=$(printf '%s\n' "$point" | cut -f1)
	file=$(printf '%s\n' "$point" | cut -f2)
	where=$file:$(printf '%s\n' "$point" | cut -f3)
	rule=$(printf '%s\n' "$point" | cut -f5)
	before=$(printf '%s\n' "$point" | cut -f6)
	after=$(printf '%s\n' "$point" | cut -f7)
	by=-
	if grep -q "^$tag	" "$equiv" 2>/dev/null; then
		result=equivalent; equivalent=$((equivalent + 1))
		by=$(grep "^$tag	" "$equiv" | head -n 1 | cut -f5)
	else
		cp "$file" "$out/orig" || exit 2
		perl "$gen" --apply "$point" || { echo "$me: cannot apply $tag" >&2; exit 2; }
		tests=$(awk -F'	' -v f="$file" '$1 == f { print $2 }' "$map")
		[ -n "$tests" ] || tests=$(awk -F'	' '$1 == "*" { print $2 }' "$map")
		if ! (cd b && make -j"$jobs" >"$out/logs/$tag.build.log" 2>&1); then
			result=stillborn; stillborn=$((stillborn + 1))
		else
			rm -f "$out/logs/$tag.build.log"
			# The file's tests first (none mapped: make check at once).
			k=
			# shellcheck disable=SC2086 # a list of tests
			[ -z "$tests" ] || k=$(run_tests "$out/logs/$tag.log" "$map_timeout" $tests)
			[ -n "$k" ] || k=$(run_tests "$out/logs/$tag.log" "$check_timeout")
			if [ -z "$k" ]; then
				result=survived; survived=$((survived + 1))
				printf '%s\n' "$point" >>"$survivors"
			else
				result=killed; killed=$((killed + 1)) by=$k
				[ "$k" != timeout ] || bytimeout=$((bytimeout + 1))
				rm -f "$out/logs/$tag.log"
			fi
		fi
		perl "$gen" --revert "$point" || { echo "$me: cannot revert $tag" >&2; exit 2; }
		cmp -s "$file" "$out/orig" || { echo "$me: $file: not restored after $tag" >&2; exit 2; }
		touch "$file"
	fi
	line=$(printf '%s %-26s %-10s %s -> %s  %s %s' "$tag" "$where" "$rule" \
		"$(short "$before")" "$(short "$after")" "$result" "$by")
	echo "$line" >>"$report"
	echo "$line"
	done=$((done + 1))
	el=$(($(date +%s) - t1))
	eta=$((el * (n - done) / done))
	printf '%s: %d/%d, %dm%02ds elapsed, about %dm%02ds left\n' "$me" "$done" "$n" \
		$((el / 60)) $((el % 60)) $((eta / 60)) $((eta % 60)) >&2
done <"$out/points.txt"
(cd b && make -j"$jobs" >/dev/null 2>&1)
el=$(($(date +%s) - t1))
scored=$((killed + survived))
ci=$(awk -v k="$killed" -v n="$scored" 'BEGIN {
	if (n == 0) { print "no score (nothing killed or survived)"; exit }
	z = 1.959964; p = k / n; d = 1 + z * z / n
	c = (p + z * z / (2 * n)) / d
	h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
	printf "score %d/%d = %.1f%%, 95%% interval %.1f%% to %.1f%% (Wilson)", k, n, 100 * p, 100 * (c - h), 100 * (c + h) }')
{
	if [ -n "$points_in" ]; then echo "points: $points_in"; else echo "seed: $seed (N=$want of $total points)"; fi
	echo "files: $*"
	echo "killed $killed ($bytimeout by timeout), survived $survived, stillborn $stillborn, equivalent $equivalent"
	echo "$ci"
	[ "$done" -eq 0 ] || echo "time: build and baseline check ${t_base}s; ${el}s for $done mutants, $((el / done))s each"
	[ "$survived" -eq 0 ] || echo "survivors: $survivors (make mutation-sample POINTS=$survivors reruns them)"
} | tee -a "$report"
