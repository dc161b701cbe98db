#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Proof with the real LAVA dispatcher: lava-run (Debian's lava-dispatcher,
# no LAVA server) boots Debian's 6.1 kernel under qemu (TCG) with a small
# busybox initramfs carrying pipebench (tests/guest.sh builds it, as for
# oldkernel.sh), runs the in-tree test definition lava/pipebench.yaml, and
# this test reads LAVA's own log: every conformance check is a case with
# the verdict a direct run gives on that kernel (MD-04 pass there), the
# timestamps probes are cases named for what was probed with what the
# kernel did as measurement, throughput cases carry measurements with
# units, and the definition's own cases (pipebench-present, run.COMMAND)
# pass.
#
# Needs: root (lava-run works in /var/lib/lava), lava-dispatcher,
# qemu-system-x86, a pre-6.15 /boot/vmlinuz-* (linux-image-amd64),
# busybox-static, cpio, gzip.  Skips, saying why, when any is missing.
# PB_LAVA_LOG=FILE keeps lava-run's log.

PB=${PIPEBENCH:?PIPEBENCH is not set}
SRC=${TESTS_SRCDIR:-$(dirname "$0")}
PY=/usr/bin/python3    # lava-run's own python, with its yaml module

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

. "$SRC/guest.sh"
guest_find_kernel
[ "$(uname -m)" = x86_64 ] || skip_all "host is $(uname -m), the test boots an x86_64 kernel"
[ -x /usr/bin/lava-run ] || skip_all "lava-run not installed (Debian package lava-dispatcher)"
[ "$(id -u)" = 0 ] || skip_all "lava-run needs root (it works in /var/lib/lava/dispatcher)"
command -v qemu-system-x86_64 >/dev/null 2>&1 || skip_all "qemu-system-x86_64 not installed (Debian package qemu-system-x86)"
[ -n "$kernel" ] || skip_all "no readable pre-6.15 kernel image /boot/vmlinuz-* (Debian package linux-image-amd64)"
command -v busybox >/dev/null 2>&1 || skip_all "busybox not installed (Debian package busybox-static)"
for t in cpio gzip timeout ldd; do
	command -v $t >/dev/null 2>&1 || skip_all "$t not installed"
done
$PY -c 'import yaml' 2>/dev/null || skip_all "$PY has no yaml module"

work=$(mktemp -d "${TMPDIR:-/tmp}/pb-lava.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'rm -rf "$work"; exit 130' INT TERM HUP
# The static build when there is one (configure found the .a files): one
# file in the guest, no shared libraries shipped.
static=${TESTS_BUILDDIR:-$(dirname "$PB")/../tests}/pipebench-static
if [ -x "$static" ]; then PB=$static; fi
root=$work/root
guest_root "$root" || skip_all "cannot copy $PB or busybox into the guest"
guest_applets "$root"
mkdir -p "$root/etc" "$root/root" "$root/usr/bin" "$root/sbin"

# What LAVA needs of a guest: a shell prompt on the serial console.
cat > "$root/init" <<'EOI'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
mount -t tmpfs tmp /tmp
while true; do setsid cttyhack /bin/sh -l; done
EOI
chmod 755 "$root/init"
cat > "$root/etc/profile" <<'EOI'
export PS1='pb-guest# ' PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root TMPDIR=/tmp
EOI
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"
guest_cpio "$root" "$work/initramfs.cpio" && gzip -9 "$work/initramfs.cpio" || skip_all "cpio failed"

# The device lava-server would render from qemu.jinja2 with no_kvm,
# memory 512 and extra options for TCG and one CPU.
cat > "$work/device.yaml" <<'EOI'
constants:
  posix:
    lava_test_sh_cmd: /bin/sh
    lava_test_results_dir: /lava-%s
    lava_test_shell_file: ~/.bashrc
  shutdown-message: "The system is going down for reboot NOW"
  kernel-start-message: "Linux version [0-9]"
  default-shell-prompt: "lava-test: # "
  spawn_maxread: "4092"
  failure_retry: 1
  boot_retry: 1
parameters:
  pass:
available_architectures:
- amd64
- x86_64
actions:
  deploy:
    connections:
      serial:
      lxc:
    methods:
      image:
        parameters:
          guest:
            size: 512
            interface: ide
            driveid: lavatest
  boot:
    connections:
      serial:
    methods:
      qemu:
        parameters:
          command: qemu-system-x86_64
          boot_options:
            root: /dev/sda1
            console: ttyS0,115200
            boot_order: c
          options:
          - -nographic
          - -net none
          - -m 512
          - -monitor none
          extra:
          - -accel tcg
          - -smp 1
timeouts:
  actions:
    apply-overlay-image:
      minutes: 2
    lava-test-shell:
      minutes: 3
    boot-qemu-image:
      minutes: 2
    auto-login-action:
      minutes: 2
  connections:
    lava-test-shell:
      seconds: 10
EOI
# LAVA looks the dispatcher's address up while making the overlay.
echo 'dispatcher_ip: 10.0.2.2' > "$work/dispatcher.yaml"

# The job: the in-tree definition inline, with quick parameters; a second
# definition runs conformance directly, for the verdicts to compare with.
KERNEL=$kernel INITRD=$work/initramfs.cpio.gz DEF=$SRC/../lava/pipebench.yaml \
$PY - > "$work/job.yaml" <<'EOI' || skip_all "cannot write the job"
import os, yaml
definition = yaml.safe_load(open(os.environ["DEF"]))
direct = {
    "metadata": {"format": "Lava-Test Test Definition 1.0", "name": "direct",
                 "description": "conformance as plain text, for comparison"},
    "run": {"steps": ["echo PB-DIRECT-BEGIN", "pipebench conformance --quiet | sed 's/^/PB-DIRECT /'",
                      "echo PB-DIRECT-END"]},
}
# no_timer_check: under software emulation on a loaded machine the 6.1
# kernel's IO-APIC timer check can fail and panic the guest at boot.
job = {
    "device_type": "qemu", "job_name": "pipebench in-tree definition",
    "timeouts": {"job": {"minutes": 4}, "action": {"minutes": 3}, "connection": {"minutes": 2}},
    "priority": "medium", "visibility": "public", "context": {"arch": "amd64"},
    "actions": [
        {"deploy": {"timeout": {"minutes": 2}, "to": "tmpfs", "images": {
            "kernel": {"image_arg": "-kernel {kernel} -append \"console=ttyS0,115200 rdinit=/init no_timer_check\"",
                       "url": "file://" + os.environ["KERNEL"]},
            "initrd": {"image_arg": "-initrd {initrd}", "url": "file://" + os.environ["INITRD"],
                       "compression": "gz", "format": "cpio.newc", "overlays": {"lava": True}}}}},
        {"boot": {"timeout": {"minutes": 2}, "method": "qemu", "media": "tmpfs",
                  "prompts": ["pb-guest# "]}},
        {"test": {"timeout": {"minutes": 3}, "definitions": [
            {"from": "inline", "name": "pipebench", "path": "inline/pipebench.yaml",
             "repository": definition,
             "parameters": {"PIPEBENCH": "/bin/pipebench",
                            "COMMANDS": "conformance timestamps throughput",
                            "THROUGHPUT_ARGS": "--kind anon,fifo --size 100,4K --loops 50 --repeat 2 --warmup 0"}},
            {"from": "inline", "name": "direct", "path": "inline/direct.yaml", "repository": direct}]}},
    ],
}
yaml.safe_dump(job, open(1, "w"), sort_keys=False)
EOI

start=$(date +%s)
timeout -k 5 150 /usr/bin/lava-run --job-id "pipebench-test-$$" --output-dir "$work/out" \
	--device "$work/device.yaml" --dispatcher "$work/dispatcher.yaml" "$work/job.yaml" \
	> "$work/lava.log" 2>&1
lrc=$?
end=$(date +%s)
[ -n "${PB_LAVA_LOG:-}" ] && cp "$work/lava.log" "$PB_LAVA_LOG"
echo "# lava-run exit $lrc after $((end - start)) s, kernel $kernel"

# LAVA's log: one YAML mapping per line.  Cases of each definition as
# "definition case result [measurement units]", and the direct run's lines.
$PY - "$work/lava.log" > "$work/cases" 2>"$work/parse.err" <<'EOI'
import sys, yaml
for line in open(sys.argv[1], errors="replace"):
    line = line.strip()
    if line.startswith("- {"):
        line = line[2:]
    if not line.startswith("{"):
        continue
    try:
        entry = yaml.load(line, Loader=yaml.BaseLoader)
    except yaml.YAMLError:
        continue
    if not isinstance(entry, dict):
        continue
    msg = entry.get("msg")
    if entry.get("lvl") == "results" and isinstance(msg, dict):
        print("case", msg.get("definition"), msg.get("case"), msg.get("result"),
              msg.get("measurement", "-"), msg.get("units", "-"))
    elif entry.get("lvl") == "target" and isinstance(msg, str) and msg.startswith("PB-DIRECT "):
        print("direct", *msg.split()[1:3])
EOI

n=0
check() { # description, condition command...
	n=$((n + 1)); desc=$1; shift
	if "$@"; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; fi
}
cases() { awk -v d="$1" '$1 == "case" && $2 == d { print $3, $4, $5, $6 }' "$work/cases"; }

if ! grep -q '^case 0_pipebench ' "$work/cases"; then
	echo "# no pipebench cases in LAVA's log; its last lines follow"
	tail -n 30 "$work/lava.log" | cut -c1-300 | sed 's/^/# /'
	cat "$work/parse.err" | sed 's/^/# /'
fi
check "lava-run finished the job (exit $lrc)" [ "$lrc" = 0 ]
# On a machine busier than its CPUs, software emulation is slower: then
# the time is reported, not judged; so for a build that is not the static
# one (a sanitizer build runs slower, and ships its libraries).
n=$((n + 1))
load=$(cut -d' ' -f1 /proc/loadavg | cut -d. -f1)
if [ "$PB" != "$static" ]; then
	echo "ok $n - the job took $((end - start)) s # SKIP time judged for the static build only (sanitizer builds are slower)"
elif [ $((end - start)) -lt 60 ]; then
	echo "ok $n - the job took under a minute ($((end - start)) s)"
elif [ "$load" -ge "$(getconf _NPROCESSORS_ONLN)" ]; then
	echo "not ok $n - the job took under a minute ($((end - start)) s) # TODO load average $load"
else
	echo "not ok $n - the job took under a minute ($((end - start)) s)"
fi

# Every check of the direct run is a case with the same verdict, mapped.
awk '$1 == "direct" && $2 ~ /^[A-Z]+-[0-9]+$/ {
	r = $3; if (r == "known-deviation" || r == "info") r = "pass"; else if (r == "error") r = "unknown"
	print $2, r }' "$work/cases" | sort > "$work/direct"
cases 0_pipebench | awk '$1 ~ /^[A-Z]+-[0-9]+$/ { print $1, $2 }' | sort > "$work/lava"
nd=$(wc -l < "$work/direct")
check "the direct run listed the checks ($nd)" [ "$nd" -gt 50 ]
check "every conformance check is a LAVA case with the direct run's verdict" \
	eval '[ "$nd" -gt 0 ] && cmp -s "$work/direct" "$work/lava"'
cmp -s "$work/direct" "$work/lava" || diff "$work/direct" "$work/lava" | head -n 10 | sed 's/^/# /'
check "MD-04 passes on the 6.1 guest" grep -q '^MD-04 pass$' "$work/lava"
check "timestamps: a write updates the mtime of both kinds (6.1), as a measurement" \
	eval '[ "$(cases 0_pipebench | grep -Ec "^(anon|fifo)\.write\.mtime pass 1(\.0*)? ratio$")" = 2 ]'
check "no case name carries what the kernel did" \
	eval '! cases 0_pipebench | grep -Eq "^[^ ]*(frozen|updated|mixed|unchanged|accepted|rejected)"'
check "pipebench-present passes and every command has run.COMMAND pass, exit status 0" \
	eval '[ "$(cases 0_pipebench | grep -Ec "^(pipebench-present pass|run\.(conformance|timestamps|throughput) pass 0(\.0*)? exit_status$)")" = 4 ]'
check "each of the definition's own cases once (set -x traces no signal)" \
	eval '[ -z "$(cases 0_pipebench | awk "{ print \$1 }" | grep -v "^exit-status$" | sort | uniq -d)" ]'
check "throughput: a rate per kind and size with UNITS=B/s" \
	eval '[ "$(cases 0_pipebench | grep -Ec "^(anon|fifo)-(100|4096)B-rate pass [0-9.]+ B/s$")" = 4 ]'
check "throughput: ns per system call with UNITS=ns" \
	eval '[ "$(cases 0_pipebench | grep -Ec "^(anon|fifo)-(100|4096)B-syscall pass [0-9.]+ ns$")" = 4 ]'
check "throughput: each row's stability, pass when stable, skip when not" \
	eval '[ "$(cases 0_pipebench | grep -Ec "^(anon|fifo)-(100|4096)B-stable (pass|skip)( - -)?$")" = 4 ]'
check "every test set ends with exit-status pass" \
	eval '[ "$(cases 0_pipebench | grep -c "^exit-status pass ")" = 3 ]'
if [ "$PB" = "$static" ]; then
	check "the guest ran the static build, with no shared library shipped" \
		eval '[ -z "$(find "$root" -name "*.so*" | grep -v busybox)" ]'
else
	n=$((n + 1)); echo "ok $n - the guest ran the static build # SKIP no static build (configure found no .a files or sanitizers)"
fi
cases 0_pipebench | grep -Ev '^[A-Z]+-[0-9]+ ' | sed 's/^/# /'
echo "1..$n"
exit 0
