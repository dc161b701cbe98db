#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# No memory, everywhere: each allocation pipebench's own code makes
# (malloc, calloc, realloc, strdup; not libc's or json-c's own) refused in
# turn, one per run (faultinj.so's PB_FAULT_ALLOC_AT=N, N from 1 to the
# number a clean run makes).  Whatever fails, the run ends by itself: no
# signal, no hang; when it does not exit 0 it says why (one or more
# "pipebench CMD:" lines, or bisect's verdict line); nothing is left in
# TMPDIR.  A run that exits 0 printed a whole document (its allocation was
# one it can do without, such as a machine fact).
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
P=$PIPEBENCH
fault_layer || skip_all "tests/faultinj.so or timeout(1) missing"
case "$(ldd "$P" 2>/dev/null)" in
*libasan*) skip_all "AddressSanitizer's allocator comes before faultinj.so's" ;;
esac
D=$TEST_TMP/docs
mkdir "$D"
"$P" throughput --loops 5 --repeat 2 --warmup 0 --format json -o "$D/tp.json" 2>/dev/null &&
	"$P" conformance --only CRE-01 --format json -o "$D/conf.json" 2>/dev/null &&
	"$P" latency --loops 50 --repeat 2 --warmup 0 --format json -o "$D/lat.json" 2>/dev/null ||
	{ echo "Bail out! cannot make the documents the sweep reads"; exit 99; }

# how many allocations a clean run of CMD... makes
allocations() {
	PB_FAULT_ALLOC_COUNT=1 faulty "" "$P" "$@" 2>&1 >/dev/null |
		sed -n 's/^faultinj: \([0-9]*\) allocations$/\1/p' | tail -n 1
}

while IFS= read -r c; do
	set -f
	# shellcheck disable=SC2086 # a command line, word-split on purpose
	set -- $c
	set +f
	k=$(allocations "$@")
	[ "${k:-0}" -gt 0 ]; ok $? "$1: a clean run counts its allocations (${k:-none})"
	bad=
	n=1
	while [ "$n" -le "${k:-0}" ]; do
		PB_FAULT_ALLOC_AT=$n faulty "" "$P" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
		rc=$?
		why=
		case $rc in
		0) case $c in *"--format json"*) "$JSONQ" "$TEST_TMP/out" >/dev/null 2>&1 || why="exit 0, not one JSON document" ;; esac ;;
		1|2|3|4|125)
			grep -q "^pipebench $1: " "$TEST_TMP/err" ||
				{ [ "$1" = bisect ] && grep -q '^cannot decide: ' "$TEST_TMP/out"; } ||
				why="exit $rc, saying nothing" ;;
		*) why="exit $rc (a signal, or a hang)" ;;
		esac
		tmp_empty || why="${why:+$why, }left $(ls "$TMPDIR" | head -3 | tr '\n' ' ')"
		if [ -n "$why" ]; then
			bad="$bad allocation $n: $why;"
			rm -rf "${TMPDIR:?}"/* 2>/dev/null
		fi
		n=$((n + 1))
	done
	[ -z "$bad" ]; ok $? "$(echo "$c" | sed "s|$D/||g"): each of its ${k:-0} allocations refused in turn ends cleanly${bad:+:$bad}"
done <<EOF_CMDS
throughput --loops 5 --repeat 2 --kind anon,fifo --size 100,4K --format json
throughput --copies 2 --loops 5 --repeat 1 --warmup 0
throughput --mode vmsplice,splice,tee --loops 5 --repeat 1 --format csv
throughput --loops 50 --repeat 2 --profile
conformance --only CRE-01,RD-02,FIFO-01,MD-05 --format json
timestamps --format tap
o_noatime --loops 20 --repeat 3 --precision 50 --precision-budget 1s --format json
messaging --groups 2 --fds 2 --loops 5 --repeat 2 --warmup 0 --format csv
latency --kind all --loops 50 --repeat 2 --warmup 0 --interval 1ms --format json
latency --copies 2 --loops 50 --repeat 1 --warmup 0
report --quick --parts timestamps,messaging --format json
compare $D/tp.json $D/tp.json
grid $D/tp.json $D/conf.json $D/lat.json
plot --format gnuplot $D/lat.json
bisect --good $D/tp.json $D/tp.json
bisect --good $D/conf.json --check CRE-01 $D/conf.json
EOF_CMDS
done_testing
