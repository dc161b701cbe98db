#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Unprivileged users and tight limits: pipebench runs as nobody, reports
# clear errors (never a crash or a hang) when limits bite, and leaves
# nothing behind.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
[ "$(id -u)" -eq 0 ] || skip_all "needs root to switch to an unprivileged user"
command -v setpriv >/dev/null || skip_all "setpriv (util-linux) not installed"
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
$NOBODY test -x "$PIPEBENCH" || skip_all "the build tree is not reachable by nobody"
tap_tmpdir
chmod 755 "$TEST_TMP"
chown 65534 "$TMPDIR"
HOLD="$TESTS_BUILDDIR/holdpipes"


run $NOBODY "$PIPEBENCH" throughput --kind all --loops 20 --repeat 1 --warmup 0
is "$rc" 0 "throughput runs as nobody"
tmp_empty; ok $? "as nobody: nothing left behind"

max=$(cat /proc/sys/fs/pipe-max-size)
run $NOBODY "$PIPEBENCH" throughput --loops 5 --repeat 1 --pipe-size $((max * 2))
is "$rc:$(nlines "$err")" "3:1" "--pipe-size above pipe-max-size without CAP_SYS_RESOURCE: exit 3, one line"
printf '%s' "$err" | grep -q 'not permitted'; ok $? "the error says it is not permitted"

run sh -c "exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n 4 && exec \"\$0\" throughput --loops 5 --repeat 1 --kind fifo" "$PIPEBENCH"
is "$rc:$(nlines "$err")" "3:1" "RLIMIT_NOFILE 4: exit 3, one line"
printf '%s' "$err" | grep -q 'Too many open files'; ok $? "RLIMIT_NOFILE: the error names the cause"
tmp_empty; ok $? "RLIMIT_NOFILE: nothing left behind"

# Exhaust nobody's pipe-user-pages-soft allowance with pipes held open by
# another process of the same user; new pipes then get two pages.
soft=$(cat /proc/sys/fs/pipe-user-pages-soft)
if [ "$soft" -gt 0 ] && [ "$soft" -le 65536 ]; then
	n=$((soft / 16 + 8))
	fifo="$TEST_TMP/hold"
	mkfifo "$fifo"
	( $NOBODY "$HOLD" "$n" <"$fifo" >"$TEST_TMP/hold.out" & )
	exec 9>"$fifo"
	i=0; while [ $i -lt 300 ] && ! grep -q ready "$TEST_TMP/hold.out" 2>/dev/null; do sleep 0.01; i=$((i + 1)); done
	grep -q "ready $n" "$TEST_TMP/hold.out"; ok $? "helper holds $n pipes as nobody"
	run $NOBODY "$PIPEBENCH" throughput --loops 5 --repeat 1 --warmup 0 --format json
	is "$rc" 0 "pipe-user-pages-soft exhausted: throughput still runs"
	is "$(printf '%s' "$out" | "$JSONQ" - .results[0].pipe_size_bytes)" \
		"$((2 * $(getconf PAGESIZE)))" "it reports the 2-page pipe it got"
	run $NOBODY "$PIPEBENCH" throughput --loops 5 --repeat 1 --pipe-size 64K
	is "$rc:$(nlines "$err")" "3:1" "growing a pipe over the soft limit: exit 3, one line"
	exec 9>&-
	i=0; while [ $i -lt 300 ] && pgrep -u 65534 -f "$HOLD" >/dev/null; do sleep 0.01; i=$((i + 1)); done
	pgrep -u 65534 -f "$HOLD" >/dev/null; [ $? -ne 0 ]; ok $? "helper released its pipes"
else
	for i in 1 2 3 4 5; do echo "ok $((tap_n + i)) # SKIP pipe-user-pages-soft is $soft"; done
	tap_n=$((tap_n + 5))
fi

# Every other command as nobody: privileged checks skip, nothing crashes.
run $NOBODY "$PIPEBENCH" conformance --format json
[ "$rc" -eq 0 ] || [ "$rc" -eq 4 ]; ok $? "conformance runs as nobody (exit $rc)"
printf '%s' "$out" | "$JSONQ" - .checks# >/dev/null; ok $? "conformance as nobody writes its document"
run $NOBODY "$PIPEBENCH" timestamps --expect anon=frozen,fifo=updated
is "$rc" 0 "timestamps as nobody sees the same verdicts"
run $NOBODY "$PIPEBENCH" messaging --groups 1 --fds 4 --loops 5 --repeat 1 --warmup 0
is "$rc" 0 "messaging runs as nobody"
run $NOBODY prlimit --nproc=3 "$PIPEBENCH" messaging --groups 2 --fds 4 --loops 5 --repeat 1 --warmup 0
is "$rc:$(nlines "$err")" "3:1" "messaging with RLIMIT_NPROC 3: exit 3, one line"
run $NOBODY "$PIPEBENCH" report --quick --parts timestamps,o_noatime,messaging
is "$rc" 0 "report runs as nobody"
tmp_empty; ok $? "as nobody: nothing left behind by any command"

# Private directories are 0700 with unpredictable names; FIFOs are 0600.
$PIPEBENCH throughput --kind fifo --loops 100000000 --repeat 1 --warmup 0 >/dev/null 2>&1 &
pid=$!
i=0; while [ $i -lt 500 ] && [ ! -p "$(ls -d "$TMPDIR"/pipebench.* 2>/dev/null | head -1)/fifo" ]; do sleep 0.01; i=$((i + 1)); done
d=$(ls -d "$TMPDIR"/pipebench.* | head -1)
is "$(stat -c %a "$d")" 700 "private directory is mode 0700"
is "$(stat -c %a "$d/fifo")" 600 "FIFO is mode 0600"
case ${d##*/} in pipebench.XXXXXX|pipebench.) ok 1 "directory name is randomised" ;; *) ok 0 "directory name is randomised" ;; esac
kill $pid; wait $pid || true
done_testing
