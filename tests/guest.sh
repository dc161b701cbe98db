# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the tests that boot a kernel under qemu (oldkernel.sh, lava.sh):
# the one initramfs builder.  POSIX sh.
#
#   guest_find_kernel    set $kernel to a readable pre-6.15 /boot/vmlinuz-*
#                        ($PB_OLDKERNEL overrides); empty when there is none
#   pre_615 "MAJ MIN"    whether that version predates 6.15
#   ver_of IMAGE         "MAJ MIN" from vmlinuz-6.1.0-57-amd64
#   guest_root ROOT      a root directory holding $PB (pipebench) and
#                        busybox under /bin, with the shared libraries ldd
#                        names at the same paths (none for a static build),
#                        /bin/sh, and proc, sys, dev and tmp mount points;
#                        non-zero when a binary cannot be copied
#   guest_applets ROOT   link every busybox applet into ROOT/bin
#   guest_cpio ROOT OUT  the newc cpio archive of ROOT into OUT

# Version of a kernel image from its file name: vmlinuz-6.1.0-57-amd64 -> 6 1
ver_of() {
	basename "$1" | sed -n 's/^vmlinuz-\([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p'
}

pre_615() {
	set -- $1
	[ -n "$1" ] && { [ "$1" -lt 6 ] || { [ "$1" -eq 6 ] && [ "$2" -lt 15 ]; }; }
}

guest_find_kernel() {
	kernel=${PB_OLDKERNEL:-}
	if [ -z "$kernel" ]; then
		for k in /boot/vmlinuz-*; do
			[ -r "$k" ] || continue
			pre_615 "$(ver_of "$k")" && kernel=$k
		done
	fi
}

# A binary and every shared library ldd names, at the same paths.
guest_copy_with_libs() { # root, binary, name under /bin
	cp "$2" "$1/bin/$3" || return 1
	ldd "$2" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }' |
	while read -r lib; do
		[ -e "$lib" ] || continue
		mkdir -p "$1$(dirname "$lib")"
		cp -L "$lib" "$1$lib"
	done
}

guest_root() {
	mkdir -p "$1/bin" "$1/proc" "$1/sys" "$1/dev" "$1/tmp" || return 1
	guest_copy_with_libs "$1" "$PB" pipebench || return 1
	guest_copy_with_libs "$1" "$(command -v busybox)" busybox || return 1
	ln -s busybox "$1/bin/sh"
}

guest_applets() {
	for a in $("$1/bin/busybox" --list); do
		[ -e "$1/bin/$a" ] || ln -s busybox "$1/bin/$a"
	done
}

guest_cpio() {
	(cd "$1" && find . | cpio -o -H newc --quiet) > "$2"
}
