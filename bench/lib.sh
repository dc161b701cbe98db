# SPDX-License-Identifier: GPL-2.0-or-later
# What the make-bench scripts share; sourced as . "${0%/*}/lib.sh".

now_ns() { date +%s%N; }

# time_ns CMD...: whole-process wall time in nanoseconds; fails if CMD fails.
time_ns() {
	t0=$(now_ns)
	"$@" >/dev/null 2>&1 || return 1
	t1=$(now_ns)
	echo $((t1 - t0))
}

# median: the median of the numbers on stdin, one per line.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
