#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every bounded option of every command, at its bounds: the range an
# out-of-range value's error states ("out of range (LO..HI)") is the range
# the option accepts, to the unit.  HI and LO are accepted (a later
# option's bad word is what the command then refuses: nothing runs), HI+1
# and LO-1 are refused with the option named.  A bound moved by one in an
# option row, or a message that states another range than the row's, fails
# here (mutation testing found bounds nobody tried).
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
P=$PIPEBENCH

# to_unit VALUE DELTA: VALUE ("24h", "64M", "1000") plus DELTA, written in
# the option's smallest unit (ns for a duration, bytes for a size).
to_unit() {
	perl -e '
	my ($v, $d) = @ARGV;
	my %u = (ns => 1, us => 1e3, "\xc2\xb5s" => 1e3, ms => 1e6, s => 1e9, min => 60e9,
		m => 60e9, h => 3600e9, d => 86400e9,
		K => 1024, M => 1024 ** 2, G => 1024 ** 3, T => 1024 ** 4);
	$v =~ /^([0-9]+(?:\.[0-9]+)?)(\D*)$/ or exit 1;
	my ($n, $s) = ($1, $2);
	exists $u{$s} or $s eq "" or exit 1;
	my $f = $s eq "" ? 1 : $u{$s};
	my $x = $n * $f + $d;
	my $unit = $s =~ /s$|^m(in)?$|^[hd]$/ ? "ns" : "";
	printf "%.0f%s\n", $x, $unit;' "$1" "$2"
}

# Rows "command option type" of every bounded option.
rows=$(for c in $("$P" --list-commands); do
	"$P" "$c" --list-options 2>/dev/null | awk -v c="$c" -F '\t' \
		'$3 == "count" || $3 == "duration" || $3 == "size" || $3 == "sizes" { print c, $1, $3 }'
done)
TAB=${TESTS_SRCDIR:-$(dirname "$0")}/bounds.tab

# The table names every bounded option, and nothing else.
have=$(printf '%s\n' "$rows" | awk '{ print $1, $2 }' | LC_ALL=C sort)
want=$(grep -v '^#' "$TAB" | awk 'NF { print $1, $2 }' | LC_ALL=C sort)
is "$have" "$want" "tests/bounds.tab lists every bounded option of every command"

while read -r c o t; do
	# Commands that read documents want one before they convert options.
	case $c in plot|compare) op=no-such-document.json ;; *) op= ;; esac
	case $t in duration) huge=99999999999999999999999s ;; *) huge=99999999999999999999999 ;; esac
	e=$("$P" "$c" "$o" "$huge" $op 2>&1 >/dev/null)
	range=$(printf '%s\n' "$e" | sed -n 's/.* is out of range (\([^.]*\)\.\.\([^)]*\)).*/\1 \2/p')
	tab=$(awk -v c="$c" -v o="$o" '$1 == c && $2 == o { print $3, $4 }' "$TAB")
	is "$range" "$tab" "$c $o: the range is $tab"
	set -- $range
	lo=${1:-0} hi=${2:-0}
	for w in hi:1 lo:-1; do
		b=${w%%:*} d=${w#*:}
		if [ "$b" = hi ]; then base=$hi; else base=$lo; fi
		v=$(to_unit "$base" "$d") || { ok 1 "$c $o: cannot read the bound '$base'"; continue; }
		case $v in -*)
			tap_n=$((tap_n + 1)); echo "ok $tap_n - $c $o: $base - 1 # SKIP below 0"; continue ;;
		esac
		e=$("$P" "$c" "$o" "$v" $op 2>&1 >/dev/null)
		case $e in *"$o: "*"out of range ($lo..$hi)"*) ok 0 "$c $o $v (one past $base) is refused, the range stated" ;;
		*) ok 1 "$c $o $v (one past $base) is refused, the range stated"; diag "$e" ;; esac
	done
done <<EOF
$rows
EOF

# The bound itself is accepted (the conversion compares with > and <, not
# >= and <=): a later row's bad word is what latency then refuses.
e=$("$P" latency --duration 24h --placement no-such-place 2>&1 >/dev/null)
case $e in *"--placement: "*) ok 0 "latency --duration 24h (the bound) is accepted" ;;
*) ok 1 "latency --duration 24h (the bound) is accepted"; diag "$e" ;; esac
done_testing
