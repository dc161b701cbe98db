#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench plot: every chart from real documents made here (short runs),
# the SVG well-formed with the expected series titles and axis labels, the
# --format gnuplot script rendered by gnuplot, PNG, bad and mixed inputs
# (one line, exit 2, nothing written), no gnuplot (exit 4), a gnuplot that
# fails, hangs or is interrupted (exit 3 / 128+n, the child reaped).
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
D="$TEST_TMP"
P="$PIPEBENCH"
JSONQ=${TESTS_BUILDDIR:?}/jsonq
# Documents live beside TMPDIR so that "nothing left behind" is checkable.
W="$TEST_TMP/w"
mkdir "$W"

plan 77

GP=$(command -v gnuplot 2>/dev/null)
# Fake gnuplots for the failure cases.
mkdir "$W/bin-fail" "$W/bin-hang" "$W/bin-none"
printf '#!/bin/sh\ncat >/dev/null\necho "line 3: boom" >&2\nexit 1\n' >"$W/bin-fail/gnuplot"
printf '#!/bin/sh\necho $$ >"%s/hang.pid"\nexec sleep 60\n' "$W" >"$W/bin-hang/gnuplot"
chmod +x "$W/bin-fail/gnuplot" "$W/bin-hang/gnuplot"

# well_formed FILE: XML that parses (xmllint, else python3, else a shape check).
well_formed() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1" 2>/dev/null
	elif command -v python3 >/dev/null 2>&1; then
		python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1" 2>/dev/null
	else
		head -c 400 "$1" | grep -q '<svg' && tail -c 20 "$1" | grep -q '</svg>'
	fi
}

# has FILE TEXT...: every TEXT is a text element of the SVG.
has() {
	f=$1; shift
	for t in "$@"; do
		grep -Fq ">$t<" "$f" || { diag "$f lacks \"$t\""; return 1; }
	done
}

# ---- documents (short real runs)
"$P" throughput -q -k anon,fifo -s 1K,4K,16K -n 50 -r 3 -w 0 -f json -o "$W/sweep.json"
ok $? "throughput sweep document"
"$P" throughput -q -k anon,fifo -n 50 -r 3 -w 0 -f json -o "$W/tp1.json" &&
"$P" throughput -q -k anon,fifo -n 50 -r 3 -w 0 -f json -o "$W/tp2.json"
ok $? "two single-size throughput documents"
"$P" latency -q -k anon,fifo --placement same,any -n 300 -r 2 -w 0 -f json -o "$W/lat.json"
ok $? "latency document"
"$P" conformance -q --only CRE-01,CRE-05,WR-02,NB-05 -f json -o "$W/cf1.json"
"$P" conformance -q --only CRE-01,CRE-05,WR-02,LX-04 -f json -o "$W/cf2.json"
[ -s "$W/cf1.json" ] && [ -s "$W/cf2.json" ]; ok $? "two conformance documents"
"$P" compare --force --allow-partial -f json -o "$W/cmp.json" "$W/tp1.json" "$W/tp2.json" >/dev/null
[ -s "$W/cmp.json" ]; ok $? "compare document"
"$P" timestamps -q -f json -o "$W/ts.json"; [ -s "$W/ts.json" ]; ok $? "timestamps document"
# Throughput results with zero-copy modes: one line per kind x mode.
"$P" throughput -q -k anon,fifo --mode rw,splice -s 64,4K -n 30 -r 2 -w 0 -f json -o "$W/mode.json"

# ---- options
"$P" plot --list-options | cut -f1,2 | tr '\t' ' ' | grep -E '^--(title|metric) -$|^--timeout -t$' | wc -l |
	grep -qx 3
ok $? "--list-options lists --title, --metric and --timeout (-t)"
is "$("$P" plot --list-operands)" "file" "--list-operands: files"

# ---- script mode: works without gnuplot, one chart per kind of input
script() { "$P" plot --format gnuplot "$@" 2>"$W/err"; }
first() { script "$@" | head -1; }
is "$(first "$W/sweep.json")" "# pipebench plot: sweep chart of 1 throughput document" \
	"a throughput sweep: rate against size"
is "$(first "$W/lat.json")" "# pipebench plot: cdf chart of 1 latency document" "latency: CDF"
is "$(first "$W/lat.json" --metric rtt_p99_ns)" "# pipebench plot: bars chart of 1 latency document" \
	"latency --metric: bars"
is "$(first "$W/tp1.json" "$W/tp2.json")" "# pipebench plot: bars chart of 2 throughput documents" \
	"several documents: grouped bars"
is "$(first "$W/tp1.json")" "# pipebench plot: bars chart of 1 throughput document" \
	"throughput without a sweep: bars"
is "$(first "$W/cmp.json")" "# pipebench plot: change chart of 1 compare document" "compare: change bars"
is "$(first "$W/cf1.json" "$W/cf2.json")" "# pipebench plot: grid chart of 2 conformance documents" \
	"conformance: verdict grid"
script "$W/mode.json" | grep -Fq 'title "fifo splice"'; ok $? "a result's mode makes its own line (fifo splice)"
script "$W/sweep.json" | grep -Fq 'title "anon rw"'; ok $? "a missing mode is rw"
PATH="$W/bin-none" "$P" plot -f gnuplot -o "$W/x.gp" "$W/sweep.json"
ok $? "--format gnuplot needs no gnuplot"
grep -q '^\$s0 << EOD$' "$W/x.gp"; ok $? "the script holds its data inline"

# ---- rendering
if [ -z "$GP" ]; then
	for i in $(seq 1 39); do echo "ok - # SKIP gnuplot not installed"; done
else
	render() { # NAME ARGS...: plot to $W/NAME.svg
		n=$1; shift
		"$P" plot -q -o "$W/$n.svg" "$@" 2>"$W/err"; rc=$?
		is "$rc:$(cat "$W/err")" "0:" "$n: exit 0, nothing on stderr"
		well_formed "$W/$n.svg"; ok $? "$n: well-formed SVG"
	}
	render sweep "$W/sweep.json"
	has "$W/sweep.svg" "anon rw" "fifo rw" "message size (bytes)" "rate_bytes_per_s (MiB/s)"
	ok $? "sweep: series per kind x mode, axis labels"
	grep -q 'pipebench throughput: rate_bytes_per_s by message size' "$W/sweep.svg"
	ok $? "sweep: title"
	render mode "$W/mode.json"
	has "$W/mode.svg" "anon rw" "fifo splice"; ok $? "mode: one line per kind x mode"
	render cdf "$W/lat.json"
	has "$W/cdf.svg" "anon same" "anon any" "fifo same" "fifo any" "round-trip time (ns)" \
		"fraction of round trips"
	ok $? "cdf: a curve per kind x placement, axis labels"
	render bars "$W/tp1.json" "$W/tp2.json"
	host=$("$JSONQ" "$W/tp1.json" .run.hostname) kern=$("$JSONQ" "$W/tp1.json" .run.kernel.release)
	has "$W/bars.svg" "$host $kern #1" "$host $kern #2" "anon rw" "fifo rw" \
		"rate_bytes_per_s (MiB/s)"
	ok $? "bars: a bar per document labelled host and kernel, a cluster per result"
	render lbars "$W/lat.json" --metric rtt_p99_ns
	has "$W/lbars.svg" "rtt_p99_ns" "anon same"; ok $? "latency --metric: bars of that metric"
	render change "$W/cmp.json"
	has "$W/change.svg" "change of the mean (%)" "not significant"; ok $? "change: axis and marking"
	grep -Eq '>kind=anon[^<]* rate_bytes_per_s<' "$W/change.svg"; ok $? "change: a bar per comparison"
	render grid "$W/cf1.json" "$W/cf2.json"
	has "$W/grid.svg" "CRE-01" "NB-05" "LX-04" "pass" "known-deviation" "check" "document"
	ok $? "grid: checks x documents, verdict legend"
	render titled "$W/sweep.json" --title 'my "quoted" title'
	grep -Fq 'my &quot;quoted&quot; title' "$W/titled.svg" || grep -Fq 'my "quoted" title' "$W/titled.svg"
	ok $? "--title (quotes survive)"
	"$P" plot -q -o "$W/c.png" "$W/sweep.json"; rc=$?
	is "$rc:$(od -An -tx1 -N8 "$W/c.png" | tr -d ' \n')" "0:89504e470d0a1a0a" ".png output is a PNG"
	# The script, rendered by gnuplot elsewhere, gives the same chart.
	"$P" plot -q -f gnuplot -o "$W/lat.gp" "$W/lat.json" && gnuplot "$W/lat.gp" >"$W/gp.svg" 2>"$W/err"
	ok $? "--format gnuplot script runs through gnuplot"
	well_formed "$W/gp.svg" && has "$W/gp.svg" "anon same" "round-trip time (ns)"
	ok $? "the script's SVG is well-formed with the series and labels"
	"$P" plot "$W/sweep.json" | head -c 200 | grep -q '<svg'; ok $? "stdout by default, SVG"

	# gnuplot fails: exit 3, its message on one line.
	run env PATH="$W/bin-fail:$PATH" "$P" plot -o "$W/f.svg" "$W/sweep.json"
	is "$rc:$(nlines "$err")" "3:1" "a failing gnuplot: exit 3, one line"
	echo "$err" | grep -q "gnuplot failed with status 1: line 3: boom"; ok $? "the line says why"
	[ ! -e "$W/f.svg" ]; ok $? "nothing written"
	# gnuplot hangs: the watchdog kills and reaps it.
	run env PATH="$W/bin-hang:$PATH" timeout 30 "$P" plot -t 1s -o "$W/h.svg" "$W/sweep.json"
	is "$rc:$(nlines "$err")" "3:1" "a hanging gnuplot: exit 3 after --timeout, one line"
	echo "$err" | grep -q "timed out\|did not finish"; ok $? "the line names the timeout"
	pid=$(cat "$W/hang.pid" 2>/dev/null)
	[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; ok $? "the hung gnuplot is gone"
	rm -f "$W/hang.pid"
	# Interrupted: the child goes with it.
	env PATH="$W/bin-hang:$PATH" "$P" plot -o "$W/i.svg" "$W/sweep.json" 2>/dev/null &
	bg=$!
	i=0; while [ ! -s "$W/hang.pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	kill -TERM "$bg"; wait "$bg"; rc=$?
	is "$rc" 143 "SIGTERM: exit 128+15"
	pid=$(cat "$W/hang.pid" 2>/dev/null)
	[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; ok $? "SIGTERM: gnuplot was killed and reaped"
	[ ! -e "$W/i.svg" ]; ok $? "SIGTERM: nothing written"
fi

# ---- no gnuplot: exit 4, one line saying what to install
run env PATH="$W/bin-none" "$P" plot -o "$W/n.svg" "$W/sweep.json"
is "$rc:$(nlines "$err")" "4:1" "no gnuplot: exit 4, one line"
echo "$err" | grep -q "gnuplot-nox"; ok $? "the line says what to install"
[ ! -e "$W/n.svg" ]; ok $? "no gnuplot: nothing written"

# ---- bad and mixed inputs: one line, exit 2, nothing written
echo '{"tool": "pipebench"' >"$W/broken.json"
echo '[1, 2]' >"$W/array.json"
bad() { # DESC PATTERN ARGS...
	desc=$1 pat=$2; shift 2
	run "$P" plot -o "$W/bad.svg" "$@"
	is "$rc:$(nlines "$err"):$(echo "$err" | grep -c -- "$pat")" "2:1:1" "$desc: exit 2, one line ($pat)"
	[ -n "$err" ] && diag "$err"
	[ ! -e "$W/bad.svg" ]; ok $? "$desc: nothing written"
}
bad "missing file" "nosuch.json" "$W/nosuch.json"
bad "not JSON" "broken.json" "$W/broken.json"
bad "mixed commands" "plot documents of one command" "$W/sweep.json" "$W/lat.json"
bad "a command plot does not draw" "not timestamps documents" "$W/ts.json"
bad "unknown metric" "no result has the metric nosuch" --metric nosuch "$W/tp1.json" "$W/tp2.json"
bad "two compare documents" "one compare document" "$W/cmp.json" "$W/cmp.json"
bad "--metric on conformance" "verdicts, not metrics" --metric x "$W/cf1.json"
run "$P" plot
is "$rc" 2 "no file: usage error"
tmp_empty; ok $? "nothing left in TMPDIR"
