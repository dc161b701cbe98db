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
# SRCDIR is copied to OUTDIR/tree (and OUTDIR/tree.2 ... for
# MUTATION_WORKERS > 1: each worker takes every W-th point in its own copy),
# configured and built once; the unmutated tree runs `make check` once
# (tests that fail there kill no mutant), and a coverage build of it once
# (tests/mutation/cover.sh: which tests run which line).  Each point is
# then applied, built (configured --enable-werror, as CI builds: a build
# failure, a new compiler warning too, is stillborn, a change that cannot
# land; and hardened as Debian builds, CFLAGS MUTATION_CFLAGS, default
# "-g -O2 -D_FORTIFY_SOURCE=3 -fstack-protector-strong": a buffer overrun
# that CI's AddressSanitizer build would stop aborts here too), run against
# the tests
# tests/mutation/map.tab names for its file, one at a time, stopping at the
# first that fails, and when those pass against the other tests that run
# the mutated line, with the guests' tests (MUTATION_ALWAYS, default
# tests/oldkernel.sh tests/lava.sh: what runs in a guest leaves no counts
# here), at once -- or the whole of `make check` when the coverage build
# made no code for the line or MUTATION_SELECT=all (killed or survived; a
# run past MUTATION_TIMEOUT seconds is killed by timeout), and reverted.
# A test that does not run the mutated line cannot see the mutant.  A
# kill counts only when the killing test, run again alone, fails again (a
# test that passes then was flaky: it is named in the report and the mutant
# goes on to the next tests).  A point that tests/mutation/equivalent.tab
# lists is equivalent and not run; so is a mutant whose file compiles to the
# same object code as the unmutated file (debug sections aside: objcopy
# --strip-debug), which no test can tell apart ("trivial compiler
# equivalence").  MUTATION_RESUME=1 goes on with the run
# in OUTDIR that was interrupted: its points, copies and baseline are kept,
# a mutant left applied is reverted, and the points with a result are not
# run again.  The whole suite runs with make -j MUTATION_CHECK_JOBS (twice
# MUTATION_JOBS: its tests mostly wait).  Report: OUTDIR/sample-report.txt (also on
# stdout); survivors, one point a line: OUTDIR/survivors.txt; the failing
# runs' logs: OUTDIR/logs/.
set -u
me=mutation-sample
src=$(cd "${1:?usage: sample.sh SRCDIR OUTDIR N SEED FILES [POINTS]}" && pwd) || exit 2
out=${2:?usage: sample.sh SRCDIR OUTDIR N SEED FILES [POINTS]}
want=${3:-20}
seed=${4:-}
files=${5:-}
points_in=${6:-}
mcflags=${MUTATION_CFLAGS:--g -O2 -D_FORTIFY_SOURCE=3 -fstack-protector-strong}
jobs=${MUTATION_JOBS:-2}
check_jobs=${MUTATION_CHECK_JOBS:-$((jobs * 2))}
workers=${MUTATION_WORKERS:-1}
map_timeout=${MUTATION_TIMEOUT:-300}
check_timeout=${MUTATION_CHECK_TIMEOUT:-1800}
select=${MUTATION_SELECT:-cover}
always=${MUTATION_ALWAYS-tests/oldkernel.sh tests/lava.sh}
gen=$src/tests/mutation/gen.pl
equiv=$src/tests/mutation/equivalent.tab
command -v perl >/dev/null || { echo "$me: perl is needed" >&2; exit 2; }
case $want in ''|*[!0-9]*) echo "$me: N: not a count: '$want'" >&2; exit 2 ;; esac
case $workers in ''|*[!0-9]*|0) echo "$me: MUTATION_WORKERS: not a count: '$workers'" >&2; exit 2 ;; esac
case $select in cover|all) ;; *) echo "$me: MUTATION_SELECT: cover or all, not '$select'" >&2; exit 2 ;; esac
case $seed in *[!0-9]*) echo "$me: SEED: not a number: '$seed'" >&2; exit 2 ;; esac
[ -z "$points_in" ] || [ -r "$points_in" ] || { echo "$me: POINTS: $points_in: cannot read it" >&2; exit 2; }
[ -z "$points_in" ] || points_in=$(cd "$(dirname "$points_in")" && pwd)/$(basename "$points_in")
[ -n "$files" ] || files="src/checks/*.c src/tsprobe.c src/cmd_*.c src/compare.c
	src/stats.c src/engine.c src/zerocopy.c src/latency.c src/histogram.c src/sysinfo.c src/units.c"
if [ -z "$seed" ]; then
	seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	[ -n "$seed" ] || seed=$$
fi

# A mutant may leave processes behind or fork without end (one made
# --conformance-fd-probe fork about a thousand orphans).  Each worker's tests
# run in a pids cgroup of their own when one can be made (at most
# MUTATION_PIDS_MAX tasks), and after every run whatever is left in it, and
# any process running a program of the worker's copy, is killed.
pids_max=${MUTATION_PIDS_MAX:-4096}
cg_root=
for d in /sys/fs/cgroup/pids /sys/fs/cgroup; do
	if [ -w "$d" ] && [ -e "$d/cgroup.procs" ] && { [ "$d" = /sys/fs/cgroup/pids ] ||
		grep -qw pids "$d/cgroup.subtree_control" 2>/dev/null; }; then
		cg_root=$d
		break
	fi
done

# cage W: worker W's cgroup directory (made), or nothing
cage() {
	[ -n "$cg_root" ] || return 0
	c=$cg_root/pipebench-mutation.$$.$1
	if mkdir -p "$c" 2>/dev/null && echo "$pids_max" >"$c/pids.max" 2>/dev/null; then
		printf '%s\n' "$c"
	fi
}

# reap DIR [CGROUP]: kill every process in CGROUP and every process whose
# program lies under DIR, again until none is left (a forking one is caught
# by the next round)
reap() {
	rdir=$1 rcg=${2:-}
	r=0
	while [ "$r" -lt 50 ]; do
		found=
		if [ -n "$rcg" ] && [ -r "$rcg/cgroup.procs" ]; then
			found=$(cat "$rcg/cgroup.procs")
		fi
		for e in /proc/[0-9]*/exe; do
			x=$(readlink "$e" 2>/dev/null) || continue
			case $x in "$rdir"/*) p=${e#/proc/}; found="$found ${p%/exe}" ;; esac
		done
		[ -n "$(echo $found)" ] || return 0
		# shellcheck disable=SC2086 # a list of pids
		kill -9 $found 2>/dev/null
		r=$((r + 1))
		sleep 0.2
	done
	echo "$me: processes of $rdir survive being killed: $(echo $found)" >&2
}

# caged CMD...: CMD in the worker's cgroup, when it has one
caged() {
	if [ -n "$wcg" ]; then
		sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' caged "$wcg" "$@"
	else
		"$@"
	fi
}

mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
tree=$out/tree
report=$out/sample-report.txt
survivors=$out/survivors.txt
resume=0
if [ "${MUTATION_RESUME:-}" = 1 ]; then
	if [ -s "$out/points.txt" ] && [ -f "$tree/b/Makefile" ] && [ -f "$out/baseline-fails" ] &&
		[ -f "$out/pristine.tar" ]; then
		resume=1
	else
		echo "$me: MUTATION_RESUME=1: $out holds no run to resume; starting afresh" >&2
	fi
fi
if [ "$resume" = 0 ]; then
	# An earlier run's coverage map too: its lines are another source's.
	rm -rf "$tree" "$tree".[0-9]* "$out/logs" "$out"/results.* "$out/cover.map" "$out/gcda"
	mkdir -p "$tree" "$out/logs" || exit 2

	# The source tree without git's metadata, build trees or earlier runs.
	if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
		(cd "$src" && git ls-files -co --exclude-standard | grep -v -e '^mutation' -e '^build' |
			tar -cf - -T -) | (cd "$tree" && tar -xf -)
	else
		(cd "$src" && tar --exclude=.git --exclude='./build*' --exclude='./mutation*' \
			--exclude=autom4te.cache -cf - .) | (cd "$tree" && tar -xf -)
	fi || { echo "$me: cannot copy $src to $tree" >&2; exit 2; }
	(cd "$tree" && tar -cf "$out/pristine.tar" src) || exit 2
	[ ! -e "$tree/config.status" ] ||
		{ echo "$me: $src is configured in place: run make distclean there, or build out of tree" >&2; exit 2; }
fi
cd "$tree" || exit 2
# shellcheck disable=SC2086 # FILES is a list of shell patterns
set -- $files
for f; do [ -f "$f" ] || { echo "$me: FILES: $f: no such file in $src" >&2; exit 2; }; done
total=$(perl "$gen" --list "$@" | wc -l)
if [ "$resume" = 1 ]; then
	echo "$me: resuming $out: $(cat "$out"/results.* 2>/dev/null | wc -l) of $(grep -c . "$out/points.txt") points done"
elif [ -n "$points_in" ]; then
	cp "$points_in" "$out/points.txt"
	echo "$me: $(wc -l <"$out/points.txt") points from $points_in"
else
	perl "$gen" --sample "$want" --seed "$seed" "$@" >"$out/points.txt" || exit 2
	echo "$me: seed $seed: $(wc -l <"$out/points.txt") of $total points over $# files"
fi

if [ "$resume" = 1 ]; then
	# The interrupted run may have left a mutant applied in any copy: every
	# source file that differs from the pristine copy is put back (and
	# touched, so make rebuilds it), then each copy is built again.
	t0=$(date +%s)
	rm -rf "$out/pristine" && mkdir -p "$out/pristine" && tar -xf "$out/pristine.tar" -C "$out/pristine" || exit 2
	for t in "$tree" "$tree".[0-9]*; do
		[ -d "$t/b" ] || continue
		(cd "$out/pristine" && find src -type f) | while IFS= read -r f; do
			cmp -s "$out/pristine/$f" "$t/$f" || { cp "$out/pristine/$f" "$t/$f" && touch "$t/$f" &&
				echo "$me: ${t#"$out"/}/$f: restored" >&2; }
		done
		(cd "$t/b" && make -j"$jobs" >/dev/null 2>&1 && make -j"$jobs" check TESTS= >/dev/null 2>&1) ||
			{ echo "$me: $t does not build" >&2; exit 2; }
	done
	rm -rf "$out/pristine"
	t_base=$(($(date +%s) - t0))
else
	echo "$me: building a scratch copy in $tree" >&2
	t0=$(date +%s)
	(autoreconf -fi >/dev/null 2>&1 && mkdir -p b && cd b &&
		../configure --enable-werror CFLAGS="$mcflags" >/dev/null &&
		make -j"$jobs" >/dev/null 2>&1 && make -j"$jobs" check TESTS= >/dev/null 2>&1) ||
		{ echo "$me: the unmutated tree does not build" >&2; exit 2; }
	w=2
	while [ "$w" -le "$workers" ]; do
		# A configured out-of-tree build is relocatable only by building again:
		# each worker's copy is configured and built on its own.
		rm -rf "$tree.$w" && mkdir -p "$tree.$w" &&
			(tar --exclude=./b --exclude=./cov -cf - . | (cd "$tree.$w" && tar -xf -)) &&
			(cd "$tree.$w" && mkdir -p b && cd b &&
				../configure --enable-werror CFLAGS="$mcflags" >/dev/null &&
				make -j"$jobs" >/dev/null 2>&1 && make -j"$jobs" check TESTS= >/dev/null 2>&1) ||
			{ echo "$me: worker $w's copy does not build" >&2; exit 2; }
		w=$((w + 1))
	done
	echo "$me: the unmutated tree's make check (its failures kill no mutant)" >&2
	rm -rf "$tree/tmp" && mkdir -m 1777 "$tree/tmp" || exit 2
	(cd b && TMPDIR=$tree/tmp timeout -k 10 "$check_timeout" make -j"$jobs" check \
		>"$out/logs/baseline.log" 2>&1)
	reap "$tree"
	rm -rf "$tree/tmp"
	grep -E '^(FAIL|ERROR|XPASS):' "$out/logs/baseline.log" | sed 's/^[A-Z]*: //; s/ .*//' | sort -u >"$out/baseline-fails"
	if [ -s "$out/baseline-fails" ]; then
		echo "$me: failing without a mutant, not counted: $(tr '\n' ' ' <"$out/baseline-fails")" >&2
	fi
	t_base=$(($(date +%s) - t0))
fi
# The tests that run each line (tests/mutation/cover.sh): a survivor of its
# file's tests then runs those, not the whole suite.
if [ "$select" = cover ] && [ ! -s "$out/cover.map" ]; then
	echo "$me: which tests run which lines (a coverage build's make check)" >&2
	t0=$(date +%s)
	MUTATION_CHECK_JOBS=$check_jobs MUTATION_CHECK_TIMEOUT=$check_timeout \
		sh "$src/tests/mutation/cover.sh" "$tree" "$out" || exit 2
	rm -rf "$tree/cov"
	t_base=$((t_base + $(date +%s) - t0))
fi

# chosen FILE LINE: the tests that run LINE of FILE, on one line ("all":
# the coverage build made no code for it, a process that lost its test's
# environment ran it, or MUTATION_SELECT=all; nothing: no test runs it)
chosen() {
	[ "$select" = cover ] || { echo all; return; }
	awk -F'\t' -v f="$1" -v n="$2" '$1 == f && $2 == n { print "x" $3; found = 1; exit }
		END { if (!found) print "all" }' "$out/cover.map" |
		sed 's/^x//; s/.*\*.*/all/'
}

# run_tests LOG TIMEOUT [TESTS]: the tests that fail here but not in the
# unmutated tree, one a line ("timeout" past TIMEOUT, "make" when make failed
# with no test failing), or nothing when none fails.
run_tests() {
	log=$1 limit=$2
	shift 2
	# a TMPDIR of the run's own, emptied after it: what a mutant leaves
	# behind (its FIFOs, temporary directories) stays out of /tmp
	wtmp=$PWD/tmp
	rm -rf "$wtmp" && mkdir -m 1777 "$wtmp" || exit 2
	if [ $# -gt 0 ]; then
		tj=$jobs
		[ $# -eq 1 ] || tj=$check_jobs
		(cd b && TMPDIR=$wtmp caged timeout -k 10 "$limit" make -j"$tj" check \
			TESTS="$*" >"$log" 2>&1)
	else
		# the whole suite: its tests mostly wait, so more of them at once
		(cd b && TMPDIR=$wtmp caged timeout -k 10 "$limit" make -j"$check_jobs" \
			check >"$log" 2>&1)
	fi
	rc=$?
	reap "$PWD" "$wcg"
	rm -rf "$wtmp"
	case $rc in 124|137) echo timeout; return ;; esac
	[ $rc -ne 0 ] || return 0
	# mutgen.sh and mutants.sh read the source's text (equivalent.tab's
	# tags, the catalogue's snippets), not what the program does: a
	# mutant that changes a line they name fails them and is not killed.
	k=$(grep -E '^(FAIL|ERROR|XPASS):' "$log" | sed 's/^[A-Z]*: //; s/ .*//' |
		grep -vxF -f "$out/baseline-fails" | grep -vxE 'tests/(mutgen|mutants)\.sh' | sort -u)
	[ -n "$k" ] || grep -q -E '^(FAIL|ERROR|XPASS):' "$log" || k="make"
	printf '%s\n' "$k"
}

# confirm LOG TIMEOUT FAILED...: the first of FAILED that fails again when
# run alone (timeout and make count as they are); the flaky ones, those that
# pass the second time, are added to LOG.flaky.
confirm() {
	log=$1 limit=$2
	shift 2
	for t; do
		case $t in timeout|make) echo "$t"; return ;; esac
		again=$(run_tests "$log.again" "$limit" "$t")
		if [ -n "$again" ]; then rm -f "$log.again"; echo "$t"; return; fi
		echo "$t" >>"$log.flaky"
	done
}

short() { printf '%s' "$1" | cut -c1-60; }

progress() {
	d=$(cat "$out"/results.* 2>/dev/null | wc -l)
	el=$(($(date +%s) - t1))
	[ "$d" -gt 0 ] || d=1
	eta=$((el * (n - d) / d))
	printf '%s: %d/%d, %dm%02ds elapsed, about %dm%02ds left\n' "$me" "$d" "$n" \
		$((el / 60)) $((el % 60)) $((eta / 60)) $((eta % 60)) >&2
}

# work W: worker W's share of the points (every W-th, from the W-th), in
# its own copy of the tree; one tab-separated result line per point.
# True when every object compiled from FILE (b/src/*-NAME.o, b/src/NAME.o)
# is, without its debug sections, byte for byte the one in OBJS (TMP: a
# scratch file): the compiler made the same code of the mutant.
same_code() {
	_b=$(basename "$1" .c) _n=0
	for _o in b/src/*-"$_b".o b/src/"$_b".o; do
		[ -f "$_o" ] || continue
		[ -f "$2/${_o##*/}" ] || return 1
		objcopy --strip-debug "$_o" "$3" 2>/dev/null && cmp -s "$3" "$2/${_o##*/}" || return 1
		_n=$((_n + 1))
	done
	[ "$_n" -gt 0 ]
}

work() {
	wk=$1
	wtree=$tree
	[ "$wk" -eq 1 ] || wtree=$tree.$wk
	cd "$wtree" || exit 2
	wcg=$(cage "$wk")
	res=$out/results.$wk
	[ "$resume" = 1 ] || : >"$res"
	# The unmutated objects, debug sections aside, for the same-code test.
	objs=$out/objs.$wk
	rm -rf "$objs" && mkdir -p "$objs" || exit 2
	for o in b/src/*.o; do
		objcopy --strip-debug "$o" "$objs/${o##*/}" 2>/dev/null || rm -f "$objs/${o##*/}"
	done
	idx=0
	while IFS= read -r point; do
		idx=$((idx + 1))
		[ -n "$point" ] || continue
		[ $(((idx - 1) % workers + 1)) -eq "$wk" ] || continue
		cut -f1 "$out"/results.* 2>/dev/null | grep -qx "$idx" && continue
		tag=$(printf '%s\n' "$point" | cut -f1)
		file=$(printf '%s\n' "$point" | cut -f2)
		by=-
		if grep -q "^$tag	" "$equiv" 2>/dev/null; then
			result=equivalent
			by=$(grep "^$tag	" "$equiv" | head -n 1 | cut -f5)
		else
			cp "$file" "$out/orig.$wk" || exit 2
			perl "$gen" --apply "$point" || { echo "$me: cannot apply $tag" >&2; exit 2; }
			# map.tab of the copy: its tests are the copy's
			tests=$(awk -F'	' -v f="$file" '$1 == f { print $2 }' tests/mutation/map.tab)
			[ -n "$tests" ] || tests=$(awk -F'	' '$1 == "*" { print $2 }' tests/mutation/map.tab)
			if ! (cd b && make -j"$jobs" >"$out/logs/$tag.build.log" 2>&1); then
				result=stillborn
			elif same_code "$file" "$objs" "$out/m.$wk.o"; then
				result=equivalent
				by="same object code"
				rm -f "$out/logs/$tag.build.log"
			else
				rm -f "$out/logs/$tag.build.log"
				# The file's tests first, one at a time (none mapped:
				# make check at once), then the whole suite.
				k=
				for t in $tests; do
					f=$(run_tests "$out/logs/$tag.log" "$map_timeout" "$t")
					[ -z "$f" ] || k=$(confirm "$out/logs/$tag.log" "$map_timeout" $f)
					[ -z "$k" ] || break
				done
				ran=
				if [ -z "$k" ]; then
					sel=$(chosen "$file" "$(printf '%s\n' "$point" | cut -f3)")
					if [ "$sel" = all ]; then
						f=$(run_tests "$out/logs/$tag.log" "$check_timeout")
					else
						# the tests that run the line and the guests'
						# (whose counts stay in the guest), less those run
						rest=
						for t in $sel $always; do
							case " $tests $rest " in *" $t "*) ;; *) rest="$rest $t" ;; esac
						done
						n_run=$(echo $sel | wc -w)
						if [ "$n_run" -eq 0 ]; then ran=" (no test runs the line)"
						else ran=" ($n_run tests run the line)"; fi
						f=
						[ -z "$rest" ] || f=$(run_tests "$out/logs/$tag.log" "$check_timeout" $rest)
					fi
					[ -z "$f" ] || k=$(confirm "$out/logs/$tag.log" "$check_timeout" $f)
				fi
				if [ -z "$k" ]; then
					result=survived
					[ -z "$ran" ] || by="-$ran"
				else
					result=killed by=$k
					rm -f "$out/logs/$tag.log"
				fi
				if [ -s "$out/logs/$tag.log.flaky" ]; then
					by="$by (flaky, passed when run again: $(sort -u "$out/logs/$tag.log.flaky" | tr '\n' ' '))"
					rm -f "$out/logs/$tag.log.flaky"
				fi
			fi
			perl "$gen" --revert "$point" || { echo "$me: cannot revert $tag" >&2; exit 2; }
			cmp -s "$file" "$out/orig.$wk" || { echo "$me: $file: not restored after $tag" >&2; exit 2; }
			touch "$file"
		fi
		printf '%d\t%s\t%s\t%s\n' "$idx" "$result" "$by" "$point" >>"$res"
		printf '%s %-26s %-10s %s -> %s  %s %s\n' "$tag" "$file:$(printf '%s\n' "$point" | cut -f3)" \
			"$(printf '%s\n' "$point" | cut -f5)" "$(short "$(printf '%s\n' "$point" | cut -f6)")" \
			"$(short "$(printf '%s\n' "$point" | cut -f7)")" "$result" "$by"
		progress
	done <"$out/points.txt"
	(cd b && make -j"$jobs" >/dev/null 2>&1)
	[ -z "$wcg" ] || rmdir "$wcg" 2>/dev/null
}

n=$(grep -c . "$out/points.txt")
t1=$(date +%s)
pids=
w=1
while [ "$w" -le "$workers" ]; do
	work "$w" &
	pids="$pids $!"
	w=$((w + 1))
done
trap 'kill $pids 2>/dev/null; for t in "$tree" "$tree".[0-9]*; do reap "$t"; done
	rmdir "$cg_root"/pipebench-mutation.$$.* 2>/dev/null; exit 130' INT TERM HUP
st=0
for p in $pids; do wait "$p" || st=1; done
[ "$st" -eq 0 ] || { echo "$me: a worker stopped early (above)" >&2; exit 2; }
el=$(($(date +%s) - t1))

sort -n -k1,1 "$out"/results.* >"$out/results"
# Fields: index, result, by, then the point's seven (tag file line column
# rule before after; after may be empty).
awk -F'\t' '{ printf "%s %-26s %-10s %s -> %s  %s %s\n", $4, $5 ":" $6, $8,
	substr($9, 1, 60), substr($10, 1, 60), $2, $3 }' "$out/results" >"$report"
awk -F'\t' -v OFS='\t' '$2 == "survived" { print $4, $5, $6, $7, $8, $9, $10 }' \
	"$out/results" >"$survivors"
count() { awk -F'	' -v r="$1" '$2 == r' "$out/results" | wc -l | tr -d ' '; }
killed=$(count killed) survived=$(count survived) stillborn=$(count stillborn) equivalent=$(count equivalent)
bytimeout=$(awk -F'	' '$2 == "killed" && $3 == "timeout"' "$out/results" | wc -l | tr -d ' ')
bycode=$(awk -F'	' '$2 == "equivalent" && $3 == "same object code"' "$out/results" | wc -l | tr -d ' ')
done=$(grep -c . "$out/results")
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
	echo "killed $killed ($bytimeout by timeout), survived $survived, stillborn $stillborn, equivalent $equivalent ($bycode by the same object code)"
	echo "$ci"
	[ "$done" -eq 0 ] || echo "time: build and baseline check ${t_base}s; ${el}s for $done mutants with $workers worker(s), $((el / done))s each"
	[ "$survived" -eq 0 ] || echo "survivors: $survivors (make mutation-sample POINTS=$survivors reruns them)"
} | tee -a "$report"
