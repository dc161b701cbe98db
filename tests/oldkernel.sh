#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Prove `timestamps` and `o_noatime` on a kernel from before Linux 6.15
# (commit f017b0a4951f froze anonymous pipes' a/m/ctime): boot a stock
# pre-6.15 kernel image (Debian 12's linux-image-amd64, 6.1) under
# qemu-system-x86_64 with a tiny initramfs holding pipebench, its shared
# libraries and busybox, run the commands there and check what comes back
# on the serial console.  Then the same on the host kernel.
#
# Needs (Debian packages): qemu-system-x86, linux-image-amd64, busybox-static,
# cpio.  Skips, saying why, when any of them is missing.
# PB_OLDKERNEL=/path/to/vmlinuz overrides the kernel image, PB_QEMU_ACCEL=kvm|tcg
# the accelerator; PB_OLDKERNEL_LOG=FILE keeps the serial console output.  KVM is used
# when it works; otherwise QEMU falls back to software emulation (TCG).

PB=${PIPEBENCH:?PIPEBENCH is not set}
QEMU_TIMEOUT=${PB_QEMU_TIMEOUT:-100}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

. "${TESTS_SRCDIR:-$(dirname "$0")}/guest.sh"
guest_find_kernel
qemu=$(command -v qemu-system-x86_64 2>/dev/null)
busybox=$(command -v busybox 2>/dev/null)
[ "$(uname -m)" = x86_64 ] || skip_all "host is $(uname -m), the test boots an x86_64 kernel"
[ -n "$qemu" ] || skip_all "qemu-system-x86_64 not installed (Debian package qemu-system-x86)"
[ -n "$kernel" ] || skip_all "no readable pre-6.15 kernel image /boot/vmlinuz-* (Debian package linux-image-amd64)"
[ -n "$busybox" ] || skip_all "busybox not installed (Debian package busybox-static)"
command -v cpio >/dev/null 2>&1 || skip_all "cpio not installed (Debian package cpio)"
command -v ldd >/dev/null 2>&1 || skip_all "ldd not installed"
command -v timeout >/dev/null 2>&1 || skip_all "timeout(1) not installed"

work=$(mktemp -d "${TMPDIR:-/tmp}/pb-oldkernel.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'rm -rf "$work"; exit 130' INT TERM HUP
root=$work/root
guest_root "$root" || skip_all "cannot copy $PB or busybox into the guest"
mkdir -p "$root/fifo" "$root/fifo2"

cat > "$root/init" <<'EOF'
#!/bin/busybox sh
B=/bin/busybox
$B mount -t proc proc /proc
if $B grep -q pbprobe /proc/cmdline; then
	echo PB-PROBE-OK
	$B poweroff -f
fi
$B mount -t sysfs sys /sys
$B mount -t devtmpfs dev /dev 2>/dev/null
$B mount -t tmpfs tmp /tmp
$B mount -t tmpfs -o relatime fifo /fifo
$B mount -t tmpfs -o noatime fifo2 /fifo2
export PATH=/bin TMPDIR=/tmp
echo "PB-KERNEL $($B uname -r)"
pipebench timestamps --expect anon=updated,fifo=updated --dir /fifo
echo "PB-RC ts_updated $?"
pipebench timestamps --expect anon=frozen --dir /fifo >/dev/null
echo "PB-RC ts_frozen $?"
echo PB-JSON-BEGIN
pipebench timestamps --format json --dir /fifo
echo PB-JSON-END
pipebench o_noatime --expect unsupported --loops 20 --repeat 2 --dir /fifo
echo "PB-RC on_unsupported $?"
pipebench o_noatime --expect supported --loops 5 --repeat 1 --dir /fifo >/dev/null
echo "PB-RC on_supported $?"
pipebench timestamps --dir /fifo2 --format tap --expect fifo=updated >/fifo2.tap
echo "PB-RC noatime $?"
echo "PB-NOATIME $($B grep ' fifo read atime ' /fifo2.tap)"
echo PB-CONF-BEGIN
pipebench conformance --only MD-04,MD-05 --format json --quiet
echo PB-CONF-END
pipebench conformance --only LX-08,LX-09,LX-10 --kind all --dir /fifo --quiet
echo "PB-RC wakeups $?"
echo PB-URING-BEGIN
pipebench throughput --mode io_uring --kind anon,fifo --size 100,4K --loops 20 --repeat 1 \
	--warmup 0 --verify all --dir /fifo --format json --quiet
echo PB-URING-END
echo PB-TSCOST-BEGIN
pipebench timestamps --profile --dir /fifo --format json
echo PB-TSCOST-END
echo PB-LATURING-BEGIN
pipebench latency --mode io_uring --kind anon,fifo --wait block,spin --loops 200 --repeat 1 \
	--warmup 0 --dir /fifo --format json --quiet
echo PB-LATURING-END
echo "PB-LEFT $($B find /fifo /fifo2 /tmp -mindepth 1 | $B wc -l)"
echo PB-DONE
$B sync
$B poweroff -f
EOF
chmod 755 "$root/init"
guest_cpio "$root" "$work/initramfs.cpio" ||
	skip_all "cpio failed"

boot() { # accel, seconds, extra kernel arguments; console to $work/console
	timeout -k 5 "$2" "$qemu" -accel "$1" -m 512M -smp 1 \
		-nographic -no-reboot -nic none -monitor none -serial stdio \
		-kernel "$kernel" -initrd "$work/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 quiet loglevel=1 rdinit=/init no_timer_check $3" \
		</dev/null 2>"$work/qemu.err" | tr -d '\r' > "$work/console"
}

start=$(date +%s)
# KVM only when it really runs a guest (nested KVM can open and then hang):
# a probe boot that must reach /init within 10 s; else software emulation.
accel=${PB_QEMU_ACCEL:-}
if [ -z "$accel" ]; then
	accel=tcg
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		boot kvm 10 pbprobe
		grep -q 'PB-PROBE-OK' "$work/console" && accel=kvm
	fi
fi
boot "$accel" "$QEMU_TIMEOUT" ""
end=$(date +%s)
[ -n "${PB_OLDKERNEL_LOG:-}" ] && cp "$work/console" "$PB_OLDKERNEL_LOG"
echo "# kernel image $kernel, accelerator $accel, $((end - start)) s"

n=0
check() { # description, condition command...
	n=$((n + 1)); desc=$1; shift
	if "$@"; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; fail=1; fi
}
rc_of() { sed -n "s/.*PB-RC $1 \([0-9]*\)$/\1/p" "$work/console" | head -n 1; }

fail=0
if ! grep -q 'PB-DONE' "$work/console"; then
	echo "# the guest did not finish; console and qemu stderr follow"
	sed 's/^/# /' "$work/console" "$work/qemu.err" | tail -n 40
fi
gkernel=$(sed -n 's/.*PB-KERNEL //p' "$work/console")
check "guest booted $gkernel and finished" grep -q 'PB-DONE' "$work/console"
check "guest kernel $gkernel is older than 6.15" pre_615 "$(echo "$gkernel" | sed -n 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')"
check "guest: timestamps --expect anon=updated,fifo=updated exits 0" [ "$(rc_of ts_updated)" = 0 ]
check "guest: timestamps --expect anon=frozen exits 1" [ "$(rc_of ts_frozen)" = 1 ]
sed -n '/^PB-JSON-BEGIN/,/^PB-JSON-END/p' "$work/console" | sed '1d;$d' > "$work/ts.json"
verdicts=$("${TESTS_BUILDDIR:-.}/jsonq" "$work/ts.json" .summary.anon .summary.fifo 2>&1 | tr '\n' ' ')
check "guest: JSON verdicts are updated/updated ($verdicts)" [ "$verdicts" = "updated updated " ]
check "guest: o_noatime --expect unsupported exits 0" [ "$(rc_of on_unsupported)" = 0 ]
check "guest: o_noatime --expect supported exits 1" [ "$(rc_of on_supported)" = 1 ]
check "guest: noatime mount: FIFO read atime undetermined, still fifo=updated" \
	eval 'grep -q "PB-NOATIME ok [0-9]* - fifo read atime undetermined # SKIP noatime mount" "$work/console" && [ "$(rc_of noatime)" = 0 ]'
check "guest: nothing left in /fifo, /fifo2 or /tmp" grep -q 'PB-LEFT 0$' "$work/console"
check "guest: the wake-up checks LX-08, LX-09 and LX-10 pass on both kinds" \
	eval '[ "$(rc_of wakeups)" = 0 ] && [ "$(grep -c "^LX-\(08\|09\|10\) *pass " "$work/console")" = 6 ]'

# io_uring on the guest's pipes, observed (not from its version), against the
# host's: the same mode, bytes checked on both.
sed -n '/^PB-URING-BEGIN/,/^PB-URING-END/p' "$work/console" | sed '1d;$d' >"$work/uring.json"
"$PB" throughput --mode io_uring --kind anon,fifo --size 100,4K --loops 20 --repeat 1 --warmup 0 \
	--verify all --format json -o "$work/host-uring.json" 2>/dev/null
guring=$("${TESTS_BUILDDIR:-.}/jsonq" "$work/uring.json" .exit_status .results[0].status \
	.results[0].io_uring_path .results[0].repetitions[0].verified_loops 2>&1 | tr '\n' ' ')
huring=$("${TESTS_BUILDDIR:-.}/jsonq" "$work/host-uring.json" .exit_status .results[0].status \
	.results[0].io_uring_path .results[0].repetitions[0].verified_loops 2>&1 | tr '\n' ' ')
echo "# io_uring on anonymous pipes: guest $guring; host $huring"
case $guring in
"0 ok "*" 20 ") check "guest: throughput --mode io_uring runs, every loop's bytes checked ($guring)" true ;;
"0 skip "*) check "guest: throughput --mode io_uring skipped, with its reason" true ;;
*) check "guest: throughput --mode io_uring runs, every loop's bytes checked ($guring)" false ;;
esac
case $huring in
"0 ok "*" 20 ") check "host: throughput --mode io_uring runs, every loop's bytes checked ($huring)" true ;;
"0 skip "*) check "host: throughput --mode io_uring skipped, with its reason" true ;;
*) check "host: throughput --mode io_uring runs, every loop's bytes checked ($huring)" false ;;
esac

# latency through io_uring on the guest: blocking reads that io_uring
# waits for (on a kernel before 6.4, in io-wq workers) and spinning ones;
# every round trip made, end of file ends party B.
sed -n '/^PB-LATURING-BEGIN/,/^PB-LATURING-END/p' "$work/console" | sed '1d;$d' >"$work/laturing.json"
glat=$("${TESTS_BUILDDIR:-.}/jsonq" "$work/laturing.json" .exit_status .results[0].status \
	.results[0].io_uring_path .results[0].repetitions[0].round_trips \
	.results[3].repetitions[0].round_trips 2>&1 | tr '\n' ' ')
echo "# latency --mode io_uring on the guest: $glat"
case $glat in
"0 ok "*" 200 200 ") check "guest: latency --mode io_uring, block and spin, every round trip made ($glat)" true ;;
"4 skip "*) check "guest: latency --mode io_uring skipped, with its reason" true ;;
*) check "guest: latency --mode io_uring, block and spin, every round trip made ($glat)" false ;;
esac

# What timestamp updates cost, from the profile of each kind's loop: on a
# kernel that updates anonymous pipes' times (the guest, before 6.15) the
# anonymous pipe's loop spends kernel time in timestamp code too.
sed -n '/^PB-TSCOST-BEGIN/,/^PB-TSCOST-END/p' "$work/console" | sed '1d;$d' >"$work/tscost.json"
gcost=$("${TESTS_BUILDDIR:-.}/jsonq" "$work/tscost.json" .summary.anon .timestamp_cost.anon.kernel_share \
	.timestamp_cost.fifo.kernel_share .timestamp_cost.reason 2>&1 | tr '\n' ' ')
echo "# timestamps --profile on the guest (anon verdict, anon and FIFO shares, reason): $gcost"
case $gcost in
"updated "*" null ")
	check "guest: anonymous pipes' timestamp updates cost kernel time there ($gcost)" \
		awk -v s="$(echo "$gcost" | cut -d' ' -f2)" 'BEGIN { exit !(s > 0) }' ;;
*" null ") check "guest: anonymous pipes' timestamps updated, and the profile finds their cost ($gcost)" false ;;
*) n=$((n + 1)); echo "ok $n - guest: timestamp cost # SKIP not profiled there: $gcost" ;;
esac

# Observed on each, not assumed: 6.4 gave pipes FMODE_NOWAIT (before it
# io_uring punted their reads to io-wq workers), so the two differ when the
# guest predates it and the host does not.
gp=$(echo "$guring" | cut -d' ' -f3) hp=$(echo "$huring" | cut -d' ' -f3)
vnum() { echo "$1" | awk -F. '{ printf "%d", $1 * 1000 + $2 }'; }
if [ "$(vnum "$gkernel")" -lt 6004 ] && [ "$(vnum "$(uname -r)")" -ge 6004 ]; then
	check "io_uring on anonymous pipes: io-wq on the guest, inline on the host ($gp, $hp)" \
		[ "$gp/$hp" = "io-wq/inline" ]
else
	n=$((n + 1)); echo "ok $n - io_uring paths of guest and host # SKIP not one before 6.4 and one after"
fi

# The host kernel, for contrast: frozen anonymous pipes from 6.15 on.
hv=$(uname -r | sed -n 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
if pre_615 "$hv"; then
	n=$((n + 1)); echo "ok $n - host: anon=frozen # SKIP host kernel $(uname -r) predates 6.15"
else
	"$PB" timestamps --expect anon=frozen,fifo=updated >/dev/null 2>&1
	check "host $(uname -r): timestamps --expect anon=frozen,fifo=updated exits 0" [ $? = 0 ]
fi

# One kernel against the other, as a QA pipeline would: compare the
# guest's documents (before 6.15) with the host's.
sed -n '/^PB-CONF-BEGIN/,/^PB-CONF-END/p' "$work/console" | sed '1d;$d' > "$work/conf.json"
md04=$("${TESTS_BUILDDIR:-.}/jsonq" "$work/conf.json" .checks[0].id .checks[0].status 2>&1 | tr '\n' ' ')
check "guest: conformance MD-04 passes before 6.15 ($md04)" [ "$md04" = "MD-04 pass " ]
if pre_615 "$hv"; then
	n=$((n + 1)); echo "ok $n - compare guest and host timestamps # SKIP host predates 6.15"
	n=$((n + 1)); echo "ok $n - compare guest and host conformance # SKIP host predates 6.15"
else
	"$PB" timestamps --format json >"$work/host-ts.json" 2>/dev/null
	"$PB" compare --force "$work/ts.json" "$work/host-ts.json" >"$work/cmp-ts" 2>/dev/null
	check "compare: anonymous pipes went from updated to frozen between the kernels" \
		grep -q 'kind=anon.*verdict updated -> frozen' "$work/cmp-ts"
	"$PB" conformance --only MD-04,MD-05 --format json >"$work/host-conf.json" 2>/dev/null
	"$PB" compare --force "$work/conf.json" "$work/host-conf.json" >"$work/cmp-conf" 2>/dev/null
	check "compare: MD-04 went from pass to known-deviation, not a regression" \
		eval 'grep -q "MD-04: status pass -> known-deviation" "$work/cmp-conf" && ! grep -q "^! .*MD-04" "$work/cmp-conf"'
fi
sed -n '/PB-KERNEL/,/PB-JSON-BEGIN/p' "$work/console" | sed 's/^/# /' | head -n 40
echo "1..$n"
exit 0
