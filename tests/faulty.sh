# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tap.sh and tap_late.sh (POSIX sh).
# faulty FAULT CMD...: CMD with tests/faultinj.so's FAULT injected (after
# libasan in a sanitizer build, which must come first), bounded by
# timeout(1).  fault_layer says whether the interposer and timeout(1) are
# there (a test skips its fault points when not).
fault_layer() {
	[ -f "${TESTS_BUILDDIR:?}/faultinj.so" ] && command -v timeout >/dev/null 2>&1
}
faulty() {
	_tap_f=$1; shift
	_tap_p=$TESTS_BUILDDIR/faultinj.so
	_tap_a=$(ldd "${PIPEBENCH:?}" 2>/dev/null | awk '/libasan\.so/ { print $3; exit }')
	[ -n "$_tap_a" ] && _tap_p="$_tap_a:$_tap_p"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		PB_FAULT="$_tap_f" LD_PRELOAD="$_tap_p" timeout -k 5 60 "$@"
}
