#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The machine's state in the run object (run.state) and the text's
# "machine" line: what this machine's /sys and /proc files say, read back
# from a document; then a /sys of the test's own (a mount namespace, tmpfs)
# with cpufreq, boost, SMT, mitigations, THP, a clocksource and a cgroup CPU
# limit chosen by the test, and without cpuidle.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
D=$TEST_TMP
P=$PIPEBENCH
C=/sys/devices/system/cpu

# val FILE: the file's first line without trailing blanks, or "null".
val() { if [ -s "$1" ]; then head -n 1 "$1" | sed 's/[[:space:]]*$//'; else echo null; fi; }
q() { "$JSONQ" "$1" "$2"; }

"$P" conformance --list --format json -o "$D/st.json" >/dev/null 2>&1
S=$D/st.json
is "$(q "$S" .run.state.clocksource)" "$(val /sys/devices/system/clocksource/clocksource0/current_clocksource)" \
	"clocksource as current_clocksource says"
thp=null
[ ! -s /sys/kernel/mm/transparent_hugepage/enabled ] ||
	thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled)
is "$(q "$S" .run.state.transparent_hugepage)" "$thp" "transparent_hugepage: the chosen word"
is "$(q "$S" .run.state.smt.control)" "$(val $C/smt/control)" "smt.control as the file says"
is "$(q "$S" .run.state.cmdline)" "$(val /proc/cmdline)" "cmdline as /proc/cmdline says"
n=0
for d in $C/cpu0/cpuidle/state*; do [ -d "$d" ] && n=$((n + 1)); done
if [ -s $C/cpuidle/current_driver ]; then
	is "$(q "$S" .run.state.cpuidle.driver)" "$(val $C/cpuidle/current_driver)" "cpuidle driver"
	is "$(q "$S" '.run.state.cpuidle.states#')" "$n" "one cpuidle state per cpu0/cpuidle/stateN ($n)"
else
	is "$(q "$S" .run.state.cpuidle)" null "cpuidle not exposed here: null"
	ok 0 "# SKIP no cpuidle states here"
fi
if [ -s $C/cpu0/cpufreq/scaling_driver ]; then
	is "$(q "$S" .run.state.cpufreq.driver)" "$(val $C/cpu0/cpufreq/scaling_driver)" "cpufreq driver"
else
	is "$(q "$S" .run.state.cpufreq)" null "cpufreq not exposed here: null"
fi
m=$(ls $C/vulnerabilities 2>/dev/null | head -n 1)
if [ -n "$m" ]; then
	is "$(q "$S" ".run.state.mitigations.$m")" "$(val "$C/vulnerabilities/$m")" "mitigations.$m"
else
	is "$(q "$S" .run.state.mitigations)" null "no vulnerabilities directory: mitigations null"
fi
for k in steal_pct idle_pct throttled_periods mhz_start mhz_end; do
	v=$(q "$S" ".run.state.during_run.$k")
	case $v in
	null|[0-9]*) ok 0 "during_run.$k is a number or null ($v)" ;;
	*) ok 1 "during_run.$k is a number or null ($v)" ;;
	esac
done

# ---- a /sys of the test's own
cg=$(sed -n 's/^0:://p' /proc/self/cgroup)
[ "$cg" = / ] && cg=
mk() {  # mk FILE TEXT: under the fake /sys
	mkdir -p "$(dirname "$D/sys/$1")" && printf '%s\n' "$2" >"$D/sys/$1"
}
mk devices/system/cpu/cpu0/cpufreq/scaling_driver acpi-cpufreq
mk devices/system/cpu/cpu0/cpufreq/scaling_governor performance
mk devices/system/cpu/cpu0/cpufreq/scaling_cur_freq 2000000
mk devices/system/cpu/cpufreq/boost 0
mk devices/system/cpu/smt/control off
mk devices/system/cpu/smt/active 0
mk devices/system/cpu/vulnerabilities/meltdown "Not affected"
mk devices/system/cpu/vulnerabilities/spectre_v2 "Mitigation: Retpolines"
mk kernel/mm/transparent_hugepage/enabled "always madvise [never]"
mk devices/system/clocksource/clocksource0/current_clocksource hpet
mk "fs/cgroup$cg/cgroup.controllers" "cpu cpuset"
mk "fs/cgroup$cg/cpu.max" "150000 100000"
mk "fs/cgroup$cg/cpuset.cpus.effective" 0
# fake ARGS...: pipebench ARGS on CPU 0 with the fake /sys (its tree copied
# onto a tmpfs there); exit 77 when the namespace cannot be had.
fake() {
	unshare -m sh -c 'mount -t tmpfs pb-sys /sys && cp -R "$1/sys/." /sys || exit 77
		shift; exec taskset -c 0 "$@"' sh "$D" "$P" "$@"
}
if fake conformance --list --format json -o "$D/f.json" >/dev/null 2>&1; then
	F=$D/f.json
	is "$(q "$F" .run.state.cpufreq.driver) $(q "$F" .run.state.cpufreq.governor) $(q "$F" .run.state.cpufreq.boost)" \
		"acpi-cpufreq performance false" "fake: cpufreq driver, governor, boost off"
	is "$(q "$F" .run.state.during_run.mhz_end | awk '{ print $1 + 0 }')" 2000 \
		"fake: CPU 0 at 2000000 kHz is 2000 MHz"
	is "$(q "$F" .run.state.cpuidle)" null "fake: no cpuidle directory, null"
	is "$(q "$F" .run.state.smt.control) $(q "$F" .run.state.smt.active)" "off false" "fake: SMT off, not active"
	is "$(q "$F" .run.state.mitigations.meltdown)|$(q "$F" .run.state.mitigations.spectre_v2)" \
		"Not affected|Mitigation: Retpolines" "fake: each vulnerabilities file"
	is "$(q "$F" .run.state.transparent_hugepage) $(q "$F" .run.state.clocksource)" "never hpet" \
		"fake: THP never, clocksource hpet"
	is "$(q "$F" .run.state.cgroup.version) $(q "$F" .run.state.cgroup.cpu_max) $(q "$F" .run.state.cgroup.cpu_limit) $(q "$F" .run.state.cgroup.cpus)" \
		"2 150000 100000 1.5 0" "fake: cgroup v2 cpu.max, a limit of 1.5 CPUs, its cpuset"
	rm "$D/sys/devices/system/cpu/cpufreq/boost"
	mk devices/system/cpu/intel_pstate/no_turbo 1
	fake conformance --list --format json -o "$D/f.json" >/dev/null 2>&1
	is "$(q "$F" .run.state.cpufreq.boost)" false "fake: intel_pstate no_turbo 1 is boost off"
	mk devices/system/cpu/intel_pstate/no_turbo 0
	fake conformance --list --format json -o "$D/f.json" >/dev/null 2>&1
	is "$(q "$F" .run.state.cpufreq.boost)" true "fake: intel_pstate no_turbo 0 is boost on"
	# a cgroup v1 cpu hierarchy (where this machine has one): its CFS quota
	v1=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $2 ($3 == "/" ? "" : $3) }' /proc/self/cgroup)
	if [ -n "$v1" ]; then
		rm "$D/sys/fs/cgroup$cg/cpu.max"
		mk "fs/cgroup/$v1/cpu.cfs_quota_us" 50000
		mk "fs/cgroup/$v1/cpu.cfs_period_us" 100000
		fake conformance --list --format json -o "$D/f.json" >/dev/null 2>&1
		is "$(q "$F" .run.state.cgroup.version) $(q "$F" .run.state.cgroup.cpu_max) $(q "$F" .run.state.cgroup.cpu_limit)" \
			"1 50000 100000 0.5" "fake: cgroup v1 CFS quota 50000 of 100000 is 0.5 CPUs"
	else
		ok 0 "# SKIP no cgroup v1 cpu hierarchy here"
	fi
	fake throughput --kind anon --loops 10 --repeat 1 --warmup 0 >"$D/f.txt" 2>/dev/null
	line=$(grep '^machine ' "$D/f.txt")
	case $line in
	*"cpufreq acpi-cpufreq/performance, no cpuidle, SMT off, clocksource hpet, cgroup CPU limit "*)
		ok 0 "fake: the text's machine line says it" ;;
	*) ok 1 "fake: the text's machine line says it"; diag "$line" ;;
	esac
else
	skip 11 "cannot give pipebench a /sys of its own (unshare -m, mount -t tmpfs, taskset)"
fi
done_testing
