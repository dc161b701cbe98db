#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# FIFOs on overlayfs (Docker/Podman roots, container CI runners): what stat
# shows of a FIFO's times there is the filesystem's doing, not the pipe
# code's.  `timestamps` and MD-05 compare with a FIFO on tmpfs (/dev/shm, or
# a private mount when /dev/shm is no tmpfs), name the filesystem, and MD-05
# says known-deviation, not fail; with no tmpfs to compare with they say the
# result may be the filesystem's.  Nothing is left behind; the overlay is
# unmounted (in the traps too).  Needs root (mount); skips otherwise.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"

TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/pb-ovl-test.XXXXXX") || exit 99
M=$TEST_TMP/merged
layers=$TEST_TMP
shm=
mounted=
cleanup() {
	[ -n "$mounted" ] && { umount "$M" 2>/dev/null || umount -l "$M"; }
	[ -n "$shm" ] && rm -rf "$shm"
	rm -rf "$TEST_TMP"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM HUP

mkdir "$M" "$TEST_TMP/lower" "$TEST_TMP/noshm" "$TEST_TMP/tmp"
try_mount() {
	mkdir -p "$layers/upper" "$layers/work" &&
	mount -t overlay overlay -o "lowerdir=$TEST_TMP/lower,upperdir=$layers/upper,workdir=$layers/work" \
		"$M" 2>"$TEST_TMP/mount.err"
}
if try_mount; then
	mounted=1
elif [ -d /dev/shm ] && shm=$(mktemp -d /dev/shm/pb-ovl-test.XXXXXX 2>/dev/null); then
	# TMPDIR itself on overlayfs cannot hold an upper layer: put it on tmpfs.
	layers=$shm
	try_mount && mounted=1
fi
[ -n "$mounted" ] || skip_all "cannot mount an overlay here: $(head -1 "$TEST_TMP/mount.err")"
chmod 1777 "$M"
export TMPDIR="$TEST_TMP/tmp"
J=$TEST_TMP/ts.json
C=$TEST_TMP/c.json
# (/dev/shm is shared with the other tests: check_tsprobe proves the
# reference directory there is removed.)
nothing_left() { [ -z "$(ls -A "$M")" ] && [ -z "$(ls -A "$layers/upper")" ]; }


"$PIPEBENCH" timestamps --dir "$M" --format json --output "$J"; rc=$?
is "$rc" 0 "timestamps --dir on an overlay exits 0"
is "$("$JSONQ" "$J" .fifo_dir.fstype .fifo_reference.fifo_dir_fstype .fifo_reference.reference_fstype | tr '\n' ' ')" \
	"overlay overlay tmpfs " "JSON: the FIFO directory is on overlay, the reference on tmpfs"
# What this kernel's overlayfs shows of a FIFO write's mtime (the reason for it all).
hidden=$("$JSONQ" "$J" '.results[1].operations[0].fields.mtime.state')
if [ "$hidden" = unchanged ]; then
	diag "this kernel's overlayfs hides a FIFO write's mtime: attributed to the filesystem"
	want_attr=filesystem want_md05=known-deviation
	is "$("$JSONQ" "$J" .fifo_reference.attribution.filesystem_effect)" \
		"overlayfs does not report FIFO mtime/ctime updates through stat" \
		"JSON: the filesystem's effect is named"
else
	diag "this kernel's overlayfs shows a FIFO write's mtime ($hidden): the pipe code's result"
	want_attr=pipe want_md05=pass
	is "$("$JSONQ" "$J" .fifo_reference.attribution.filesystem_effect)" "null" \
		"JSON: no filesystem effect where there is none"
fi
is "$("$JSONQ" "$J" .summary.fifo_attributed_to .fifo_reference.attribution.fifo_dir.attributed_to \
	.fifo_reference.attribution.reference.attributed_to | tr '\n' ' ')" "$want_attr $want_attr pipe " \
	"JSON: the overlay's result is attributed to the $want_attr, the tmpfs one to the pipe code"
is "$("$JSONQ" "$J" .summary.fifo_pipe .fifo_reference.reference.verdict | tr '\n' ' ')" "updated updated " \
	"JSON: the pipe code's FIFO verdict is updated"
is "$("$JSONQ" "$J" .fifo_reference.method)" \
	"$(if [ -w /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then echo dev-shm; else echo private-mount; fi)" \
	"JSON: the reference method"

run "$PIPEBENCH" timestamps --dir "$M" --expect fifo=updated
is "$rc" 0 "--expect fifo=updated holds against the pipe code's verdict"
if [ "$want_attr" = filesystem ]; then
	printf '%s\n' "$out" | grep -q '^filesystem  *overlayfs does not report FIFO mtime/ctime updates through stat' &&
		printf '%s\n' "$out" | grep -q '^FIFOs  *mixed: .*; overlayfs does not report' &&
		printf '%s\n' "$out" | grep -q '^FIFOs on tmpfs  *updated'
else
	printf '%s\n' "$out" | grep -q '^attribution  *a FIFO on tmpfs shows the same'
fi
ok $? "text names overlayfs as the cause and shows the FIFO on tmpfs"

run "$PIPEBENCH" timestamps --dir "$M" --format tap --repeat 1
printf '%s\n' "$out" | grep -Eq "^ok [0-9]+ - fifo attributed to the $want_attr" &&
	[ "$(printf '%s\n' "$out" | sed -n 's/^1\.\.//p')" = "$(printf '%s\n' "$out" | grep -Ec '^(not )?ok ')" ]
ok $? "TAP: an attribution line, plan still right"

"$PIPEBENCH" conformance --only MD-05 --dir "$M" --format json --output "$C"; rc=$?
is "$rc" 0 "conformance --only MD-05 on the overlay exits 0"
is "$("$JSONQ" "$C" '.checks[0].status')" "$want_md05" "MD-05 is $want_md05, not fail"
if [ "$want_md05" = known-deviation ]; then
	"$JSONQ" "$C" '.checks[0].detail' | grep -q 'overlayfs does not report FIFO mtime/ctime updates through stat.*the filesystem hides it'
else
	"$JSONQ" "$C" '.checks[0].detail' | grep -q 'read updated atime (overlay)'
fi
ok $? "MD-05 names the filesystem"
nothing_left; ok $? "nothing left in the overlay or its upper layer"

# /dev/shm not a tmpfs (bind-mounted over in a private namespace): the
# reference is a tmpfs mounted in a child's private mount namespace.
if unshare -m true 2>/dev/null; then
	unshare -m sh -c 'mount --bind "$1" /dev/shm && exec "$2" timestamps --dir "$3" --format json --repeat 1' \
		sh "$TEST_TMP/noshm" "$PIPEBENCH" "$M" >"$J" 2>"$TEST_TMP/err"; rc=$?
	is "$rc $("$JSONQ" "$J" .fifo_reference.method .fifo_reference.reference_fstype .summary.fifo_attributed_to | tr '\n' ' ')" \
		"0 private-mount tmpfs $want_attr " "no tmpfs /dev/shm: a private tmpfs mount is the reference"
	unshare -m sh -c 'mount --bind "$1" /dev/shm && exec "$2" conformance --only MD-05 --dir "$3" --format json' \
		sh "$TEST_TMP/noshm" "$PIPEBENCH" "$M" >"$C" 2>"$TEST_TMP/err"; rc=$?
	is "$rc $("$JSONQ" "$C" '.checks[0].status')" "0 $want_md05" "MD-05 with a private-mount reference: $want_md05"
	if [ "$want_md05" = pass ]; then w='read updated atime'; else w='a FIFO on tmpfs (private-mount)'; fi
	"$JSONQ" "$C" '.checks[0].detail' | grep -qF "$w"
	ok $? "MD-05 says which reference it used"
	nothing_left && [ -z "$(ls -A "$TEST_TMP/noshm")" ] && ! grep -q tmpfs-ref /proc/self/mountinfo
	ok $? "nothing left behind by the private mount"
else
	for i in 1 2 3 4; do ok 0 "private-mount reference # SKIP unshare -m not permitted"; done
fi

# No tmpfs at all (no tmpfs /dev/shm, no right to mount): the result may be
# the filesystem's; MD-05 fails but says so.  Root without CAP_SYS_ADMIN (not
# uid 65534: other tests count its processes under RLIMIT_NPROC).
if [ "$want_attr" = filesystem ] && command -v setpriv >/dev/null && unshare -m true 2>/dev/null &&
   ! setpriv --bounding-set=-sys_admin unshare -m true 2>/dev/null; then
	no_admin() { unshare -m sh -c 'mount --bind "$1" /dev/shm && shift && exec setpriv --bounding-set=-sys_admin "$@"' \
		sh "$TEST_TMP/noshm" "$@"; }
	no_admin env TMPDIR="$M" "$PIPEBENCH" timestamps --dir "$M" --format json --repeat 1 >"$J" 2>"$TEST_TMP/err"; rc=$?
	is "$rc $("$JSONQ" "$J" .fifo_reference.method .summary.fifo_attributed_to .summary.fifo_pipe | tr '\n' ' ')" \
		"0 none undetermined null " "no reference: attribution undetermined"
	"$JSONQ" "$J" .fifo_reference.attribution.detail | grep -q "may be overlayfs's rather than the pipe code's"
	ok $? "no reference: says the result may be overlayfs's"
	no_admin env TMPDIR="$M" "$PIPEBENCH" conformance --only MD-05 --dir "$M" --format json >"$C" 2>"$TEST_TMP/err"; rc=$?
	is "$rc $("$JSONQ" "$C" '.checks[0].status')" "1 fail" "MD-05 without a reference: fail"
	"$JSONQ" "$C" '.checks[0].detail' | grep -q "may be overlayfs's rather than the pipe code's"
	ok $? "MD-05 without a reference says the result may be overlayfs's"
else
	for i in 1 2 3 4; do ok 0 "no reference # SKIP needs setpriv, unshare -m and a hiding overlayfs"; done
fi

# The README's quick start on a container root: report with TMPDIR there.
TMPDIR=$M run "$PIPEBENCH" report --quick --parts timestamps,conformance
is "$rc" 0 "report with TMPDIR on the overlay exits 0"
nothing_left; ok $? "nothing left behind after all runs"
umount "$M"; rc=$?
[ $rc -eq 0 ] && mounted= && ! grep -q " $M " /proc/self/mounts
ok $? "the overlay unmounts (nothing holds it)"
done_testing
