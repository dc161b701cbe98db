#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --help and the man page never disagree: every command has a subsection,
# every long option of every command is documented, and the page lints clean.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
: "${MANPAGE:?}"

cmds=$("$PIPEBENCH" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z_]*\) .*/\1/p')
[ -n "$cmds" ] || { plan 1; ok 1 "--help lists commands"; exit 0; }

n=2
for c in $cmds; do
	n=$((n + 1))
	n=$((n + $("$PIPEBENCH" "$c" --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u | wc -l)))
done
plan "$n"

if [ -n "$MANDOC" ]; then
	lint=$("$MANDOC" -Tlint -Wwarning "$MANPAGE" 2>&1)
	ok $? "mandoc -Tlint is clean"
	[ -z "$lint" ] || diag "$lint"
else
	echo "ok 1 - mandoc -Tlint # SKIP mandoc not installed"
	tap_n=1
fi
for s in 0 1 2 3 4; do
	grep -q "^\.It $s\$" "$MANPAGE" || { missing_status=$s; break; }
done
ok "${missing_status:+1}${missing_status:-0}" "EXIT STATUS documents 0 to 4"

for c in $cmds; do
	grep -q "^\.Ss $c\$" "$MANPAGE"
	ok $? "man page has a subsection for $c"
	for o in $("$PIPEBENCH" "$c" --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
		grep -Eq "Fl -${o#--}( |\$)" "$MANPAGE"
		ok $? "$c $o is in the man page"
	done
done
