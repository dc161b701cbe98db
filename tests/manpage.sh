#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --help and the man page never disagree.  Driven by the option rows
# (`pipebench CMD --list-options`): every command has a subsection, every
# option of every command is documented with its short letter, the letter
# table lists every letter with its one meaning, each command's Formats
# paragraph lists exactly its --format words, the page installed under
# another name (man/progname.sed) never shows a command line with plain
# pipebench, and the page lints clean.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
: "${MANPAGE:?}"

cmds=$("$PIPEBENCH" --list-commands)
[ -n "$cmds" ] || { ok 1 "--list-commands lists commands"; done_testing; exit 0; }

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

tab=$(printf '\t')
# page_formats CMD: the formats named by the Formats: paragraph of CMD's
# subsection, one a line, sorted: `.It Cm FMT` of its list (not of a list
# nested in an item), or `.Cm FMT` lines of its running text outside
# .Po/.Pc asides, up to the paragraph's end.
page_formats() {
	awk -v c="$1" '
	/^\.S[sh] / { inc = ($1 == ".Ss" && $2 == c); f = 0; next }
	!inc { next }
	/^Formats:/ { f = 1; depth = 0; paren = 0; next }
	!f { next }
	/^\.Bl / { depth++; next }
	/^\.El/ { if (--depth <= 0) f = 0; next }
	/^\.Pp/ && depth == 0 { f = 0; next }
	/^\.Po/ { paren++; next }
	/^\.Pc/ { paren--; next }
	paren { next }
	depth == 1 && /^\.It Cm / { print $3; next }
	depth == 0 && /^\.Cm / { print $2 }
	' "$MANPAGE" | sort -u
}
for c in $cmds; do
	grep -q "^\.Ss $c\$" "$MANPAGE"
	ok $? "man page has a subsection for $c"
	"$PIPEBENCH" "$c" --list-options >"${TMPDIR:-/tmp}/pb-manpage.$$"
	while IFS="$tab" read -r long short type words; do
		long=${long#-}   # the page writes --kind as "Fl -kind"
		if [ "$short" = - ]; then
			# Documented without a letter, and no letter claimed for it.
			grep -Eq "^\.It Fl $long( |\$)" "$MANPAGE" &&
				! grep -Eq "^\.It Fl [A-Za-z] , Fl $long( |\$)" "$MANPAGE"
		else
			grep -Eq "^\.It Fl ${short#-} , Fl $long( |\$)" "$MANPAGE" &&
				grep -Eq "^\.It Fl ${short#-} Ta Fl $long Ta " "$MANPAGE"
		fi
		ok $? "$c -$long ($short, $type) is in the man page and its letter table"
	done <"${TMPDIR:-/tmp}/pb-manpage.$$"
	want=$(awk -F "$tab" '$1 == "--format" { print $4 }' "${TMPDIR:-/tmp}/pb-manpage.$$" |
		tr , '\n' | sort -u)
	got=$(page_formats "$c")
	if [ -z "$got" ]; then
		# No Formats paragraph (plot): each format is named in the subsection.
		got=$(for w in $want; do
			sed -n "/^\.Ss $c\$/,/^\.S[sh] /p" "$MANPAGE" | grep -Eq "(^\.| )Cm $w( |\$)" &&
				echo "$w"
		done)
	fi
	is "$(echo $got)" "$(echo $want)" "$c: the page's formats are its --format words"
	rm -f "${TMPDIR:-/tmp}/pb-manpage.$$"
done

# The letter table has no letter the commands do not use.
used=$(for c in $cmds; do "$PIPEBENCH" "$c" --list-options; done | cut -f2 | grep -v '^-$' | sort -u)
table=$(sed -n 's/^\.It Fl \([A-Za-z]\) Ta Fl -.*/-\1/p' "$MANPAGE" | sort -u)
is "$table" "$used" "the man page's letter table lists exactly the letters in use"

# Installed as pb-pipebench (man/progname.sed, as Makefile.am applies it):
# no command line in the page still runs plain pipebench.
sed -e 's|@NAME@|pb-pipebench|g' -e 's|@TITLE@|PB-PIPEBENCH|g' \
	"$(dirname "$MANPAGE")/progname.sed" >"${TMPDIR:-/tmp}/pb-manpage.$$.sed"
alt=$(echo $cmds | tr ' ' '|')
stray=$(sed -f "${TMPDIR:-/tmp}/pb-manpage.$$.sed" "$MANPAGE" |
	grep -nE "(^|[^-a-z.])pipebench ($alt|-)([^a-z_]|\$)")
rm -f "${TMPDIR:-/tmp}/pb-manpage.$$.sed"
is "$stray" "" "installed as pb-pipebench, the page shows no command line with plain pipebench"
done_testing
