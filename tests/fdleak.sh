#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Nothing left open: every command closes each descriptor it opened (its
# pipes, FIFO ends, sockets, perf events, io_uring rings, files, the
# directory of its FIFOs) before it exits, on success and with --profile.
# faultinj.so's PB_FAULT_FDS_AT_EXIT=1 names on stderr each descriptor the
# process has open at exit() that was not open when it started (a close or
# pb_prof_close deleted shows here; issue 19).  report runs every kind of
# work in one process, so a descriptor one part forgets is also one the
# parts after it run beside.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
D=$TEST_TMP
P=$PIPEBENCH
FI=${TESTS_BUILDDIR:-.}/faultinj.so
[ -r "$FI" ] || skip_all "no $FI (make check builds it)"
case "$(ldd "$P" 2>/dev/null)" in *libasan*|*libubsan*)
	skip_all "a sanitizer build (its runtime keeps descriptors of its own)" ;; esac

# leaks NAME ARGS...: pipebench ARGS under the interposer, document to
# $D/NAME.out; prints the exit status and then each descriptor left open.
leaks() {
	_n=$1; shift
	PB_FAULT_FDS_AT_EXIT=1 LD_PRELOAD=$FI "$P" "$@" -q --output "$D/$_n.out" 2>"$D/$_n.err"
	echo "exit $?$(grep '^faultinj: descriptor' "$D/$_n.err" | sed 's/^faultinj: descriptor/;/' | tr -d '\n')"
}

# The interposer itself: a descriptor left open on purpose is named.
# (perl: a program that ends with exit(), as pipebench does, where the
# shell ends with _exit(), which runs no destructor)
if command -v perl >/dev/null 2>&1; then
	got=$(PB_FAULT_FDS_AT_EXIT=1 LD_PRELOAD=$FI perl -MPOSIX -e \
		'POSIX::dup2(POSIX::open("/dev/null", 0), 7); exit 0' 2>&1 >/dev/null)
	is "$(printf '%s\n' "$got" | grep -c 'descriptor 7 open at exit: /dev/null$')" 1 \
		"PB_FAULT_FDS_AT_EXIT names a descriptor left open"
	got=$(PB_FAULT_FDS_AT_EXIT=1 LD_PRELOAD=$FI perl -e 'exit 0' 6</dev/null 2>&1 >/dev/null)
	is "$got" "" "... but not one that was open when the program started"
else
	skip 2 "perl is not installed"
fi

is "$(leaks tp throughput --kind anon,fifo,socketpair --loops 200 --repeat 1 --warmup 0 --dir "$D")" \
	"exit 0" "throughput (anon, FIFO, socketpair): nothing left open"
is "$(leaks zc throughput --mode rw,vmsplice,splice,tee,io_uring --kind anon,fifo --size 64K \
	--loops 50 --repeat 1 --warmup 0 --dir "$D")" \
	"exit 0" "throughput's zero-copy and io_uring modes: nothing left open"
is "$(leaks lat latency --kind anon,fifo --mode rw,io_uring -n 100 -r 1 --warmup 0 --dir "$D")" \
	"exit 0" "latency (rw, io_uring): nothing left open"
is "$(leaks msg messaging --groups 1 --loops 20 --repeat 1 --warmup 0)" \
	"exit 0" "messaging: nothing left open"
is "$(leaks ts timestamps --dir "$D")" "exit 0" "timestamps: nothing left open"
is "$(leaks on o_noatime --loops 200 --repeat 1 --dir "$D")" "exit 0" "o_noatime: nothing left open"
leaks conf conformance --dir "$D" >"$D/conf.st"
is "$(sed 's/^exit [01]//' "$D/conf.st")" "" "conformance: nothing left open ($(cut -c1-6 "$D/conf.st"))"

# --profile: the perf sampler's events and ring are closed too (where
# perf_event_open is refused the run says so and opens none)
is "$(leaks ptp throughput --profile --kind anon --loops 2000 --repeat 2 --warmup 0)" \
	"exit 0" "throughput --profile: nothing left open"
is "$(leaks plat latency --profile --kind anon -n 200 -r 1 --warmup 0)" \
	"exit 0" "latency --profile: nothing left open"
is "$(leaks pmsg messaging --profile --groups 1 --loops 20 --repeat 1 --warmup 0)" \
	"exit 0" "messaging --profile: nothing left open"
done_testing
