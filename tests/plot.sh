#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench plot: every chart from real documents made here (short runs),
# the SVG well-formed with the expected series titles and axis labels, the
# --format gnuplot script rendered by gnuplot, the terminal from --output's
# name (PNG, PDF, JPEG; an unknown name refused), --label, axes in words and
# units, report documents (--part), latency --interval series, bad and mixed
# inputs (one line, exit 2, nothing written), no gnuplot (exit 4), a gnuplot
# without the terminal (exit 4), a gnuplot that fails, hangs or is
# interrupted (exit 3 / 128+n, the child reaped).  Without gnuplot the
# rendering points, last but one, skip with their numbers.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
D="$TEST_TMP"
P="$PIPEBENCH"
JSONQ=${TESTS_BUILDDIR:?}/jsonq
# Documents live beside TMPDIR so that "nothing left behind" is checkable.
W="$TEST_TMP/w"
mkdir "$W"

# The points with gnuplot installed: without it, the rendering points are
# skipped by number (PLAN less the points run before them and the last).
PLAN=169

GP=$(command -v gnuplot 2>/dev/null)
# Fake gnuplots: one that fails, one that hangs, one that hands the script
# back as the image (the terminal chosen is then readable), one that lacks
# every terminal but SVG (what the script's own test prints).
mkdir "$W/bin-fail" "$W/bin-hang" "$W/bin-none" "$W/bin-cat" "$W/bin-noterm"
printf '#!/bin/sh\ncat >/dev/null\necho "line 3: boom" >&2\nexit 1\n' >"$W/bin-fail/gnuplot"
printf '#!/bin/sh\necho $$ >"%s/hang.pid"\nexec sleep 60\n' "$W" >"$W/bin-hang/gnuplot"
printf '#!/bin/sh\nexec cat\n' >"$W/bin-cat/gnuplot"
printf '#!/bin/sh\ncat >/dev/null\necho "pipebench plot: this gnuplot has no jpeg terminal (for jpg output): try svg" >&2\n' \
	>"$W/bin-noterm/gnuplot"
chmod +x "$W"/bin-*/gnuplot

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
# A report (its throughput and latency parts, --quick) and latency's
# per-interval series over two repetitions.
"$P" report -q -Q -P throughput,latency -f json -o "$W/rep.json"
ok $? "report document (throughput and latency parts)"
"$P" latency -q -k anon,fifo -n 2000 -r 2 -w 0 --interval 1ms -f json -o "$W/int.json"
ok $? "latency --interval document"

# ---- options
"$P" plot --list-options | cut -f1,2 | tr '\t' ' ' | grep -E '^--(title|metric) -$|^--timeout -t$' | wc -l |
	grep -qx 3
ok $? "--list-options lists --title, --metric and --timeout (-t)"
"$P" plot --list-options | cut -f1 | grep -Ex -- '--(label|part|chart)' | wc -l | grep -qx 3
ok $? "--list-options lists --label, --part and --chart"
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
# Axes in words, times in a unit that suits them.
script "$W/sweep.json" | grep -Fxq 'set ylabel "throughput (MiB/s)"'; ok $? "sweep: the y axis is throughput (MiB/s)"
script "$W/sweep.json" | grep -q 'rate_bytes_per_s'; [ $? = 1 ]; ok $? "no raw metric name in the sweep"
script "$W/lat.json" | grep -Eq '^set xlabel "round-trip time \((µs|ms)\)"$'; ok $? "cdf: round trips in µs"
script "$W/lat.json" --metric rtt_p99_ns | grep -Eq '^set ylabel "round-trip time, p99 \((µs|ms)\)"$'
ok $? "latency --metric rtt_p99_ns: round-trip time, p99 in µs or ms"
script "$W/tp1.json" "$W/tp2.json" --metric tt_ns | grep -Eq '^set ylabel "total time \((ns|µs|ms|s)\)"$'
ok $? "--metric tt_ns: total time with a unit"
script "$W/cmp.json" | grep -q 'kind=anon[^"]* throughput"'; ok $? "compare: the comparisons' metrics in words"
# --label: one name per file, in order.
script --label old,new "$W/tp1.json" "$W/tp2.json" >"$W/l.gp"
grep -Fq 'title "old"' "$W/l.gp" && grep -Fq 'title "new"' "$W/l.gp"; ok $? "--label names the documents"
grep -q ' #[12]"' "$W/l.gp"; [ $? = 1 ]; ok $? "--label: no position marks"
host=$("$JSONQ" "$W/tp1.json" .run.hostname) kern=$("$JSONQ" "$W/tp1.json" .run.kernel.release)
script --label ,new "$W/tp1.json" "$W/tp2.json" | grep -Fq "title \"$host $kern\""
ok $? "--label: an empty name keeps host and kernel"
script --label x,x "$W/tp1.json" "$W/tp2.json" | grep -c 'title "x #[12]"' | grep -qx 2
ok $? "--label: one name twice gets the positions"
script --label a,b "$W/cf1.json" "$W/cf2.json" | grep -Fq 'set xtics ("a" 0, "b" 1)'
ok $? "--label names the grid's columns"
# Report documents: a part drawn as its own command's chart.
is "$(first "$W/rep.json")" "# pipebench plot: sweep chart of 1 throughput document" \
	"report: its throughput part, a sweep"
is "$(first "$W/rep.json" --part latency)" "# pipebench plot: cdf chart of 1 latency document" \
	"report --part latency: the CDF"
is "$(first "$W/rep.json" "$W/rep.json" --part latency)" \
	"# pipebench plot: bars chart of 2 latency documents" "two reports --part latency: bars"
script "$W/rep.json" --part latency --label mine | grep -Fq '(mine)"'; ok $? "report: --label in the title"
# latency --interval: p50 and p99 against the time into the run.
script "$W/int.json" >"$W/i.gp"
is "$(head -1 "$W/i.gp")" "# pipebench plot: intervals chart of 1 latency document" \
	"latency --interval: the interval chart"
grep -Fq 'title "anon p50"' "$W/i.gp" && grep -Fq 'title "fifo p99"' "$W/i.gp"
ok $? "intervals: p50 and p99 per kind"
grep -Eq '^set xlabel "time into the run \((ms|s)\)"$' "$W/i.gp" &&
	grep -Eq '^set ylabel "round-trip time \((ns|µs|ms)\)"$' "$W/i.gp"
ok $? "intervals: axes in words and units"
n_iv=$("$JSONQ" "$W/int.json" '.results[0].repetitions[0].intervals#' \
	'.results[0].repetitions[1].intervals#' | awk '{ s += $1 } END { print s }')
awk '/^\$i0 << EOD$/ { on = 1; next } on && /^EOD$/ { exit } on && NF == 3 { r++ } on && NF == 0 { g++ }
	END { print r ":" g }' "$W/i.gp" >"$W/rows"
is "$(cat "$W/rows")" "$n_iv:1" "intervals: a row per interval of both repetitions, a gap between them"
awk '/^\$i0 << EOD$/ { on = 1; next } on && /^EOD$/ { exit } on && NF == 3 { if ($1 <= last) bad = 1; last = $1 }
	END { exit bad }' "$W/i.gp"
ok $? "intervals: time goes on across repetitions"
is "$(first "$W/int.json" --chart cdf)" "# pipebench plot: cdf chart of 1 latency document" \
	"--chart cdf: the CDF of an interval run"
# --copies: the rate against the count, and linear scaling from the smallest
"$P" throughput --copies 1,2 --kind anon,fifo --loops 100 --repeat 2 --warmup 0 --format json \
	-o "$W/copies.json" 2>/dev/null
script "$W/copies.json" >"$W/c.gp"
is "$(head -1 "$W/c.gp")" "# pipebench plot: scaling chart of 1 throughput document" \
	"a throughput document with --copies 1,2: the scaling chart"
awk '/^\$s[0-9]+ << EOD$/ { on = 1; first = ""; next } on && /^EOD$/ { on = 0; next }
	on { if (first == "") { c0 = $1; v0 = $2; first = 1 } n++
	     want = v0 * $1 / c0; if ($5 - want > 1e-6 * want || want - $5 > 1e-6 * want) bad++ }
	END { print n ":" bad + 0 }' "$W/c.gp" >"$W/rows"
is "$(cat "$W/rows")" "4:0" "scaling: a point per count of each kind; linear = first value x count / first count"
grep -q 'using 1:5 with lines dt 2 .* title "anon rw, linear"' "$W/c.gp"
ok $? "scaling: a dashed line of linear scaling for each series"
PATH="$W/bin-none" "$P" plot -f gnuplot -o "$W/x.gp" "$W/sweep.json"
ok $? "--format gnuplot needs no gnuplot"
grep -q '^\$s0 << EOD$' "$W/x.gp"; ok $? "the script holds its data inline"

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
badname() { # DESC PATTERN FILE ARGS...: like bad, with --output FILE
	desc=$1 pat=$2 f=$3; shift 3
	run env PATH="$W/bin-cat:$PATH" "$P" plot -o "$W/$f" "$@"
	is "$rc:$(nlines "$err"):$(echo "$err" | grep -c -- "$pat")" "2:1:1" "$desc: exit 2, one line ($pat)"
	[ -n "$err" ] && diag "$err"
	[ ! -e "$W/$f" ]; ok $? "$desc: nothing written"
}
badname "an unknown extension" "no image format is called .gif" x.gif "$W/sweep.json"
badname "a one-letter extension" "no image format is called .x" x.x "$W/sweep.json"
badname "a name that says another format" "the name says svg, --format says png" x.svg -f png \
	"$W/sweep.json"
badname "--format gnuplot to a .png" "the name says png, --format says gnuplot" x.png \
	-f gnuplot "$W/sweep.json"
bad "--label: too many" "3 labels for 2 documents" --label a,b,c "$W/tp1.json" "$W/tp2.json"
bad "--label: too few" "1 label for 2 documents" --label a "$W/tp1.json" "$W/tp2.json"
bad "--part of no report" "not a report" --part latency "$W/lat.json"
bad "--part the report lacks" "no messaging part (it has: " --part messaging "$W/rep.json"
bad "a report and another command" "plot documents of one command" "$W/rep.json" "$W/lat.json"
bad "--chart that does not fit" "--chart intervals: draws one latency document run with" \
	--chart intervals "$W/lat.json"
bad "--chart scaling without --copies" "--chart scaling: draws one throughput or latency document with" \
	--chart scaling "$W/sweep.json"
bad "--chart sweep of one size" "--chart sweep" --chart sweep "$W/tp1.json"
bad "--chart cdf with --metric" "--chart cdf" --chart cdf --metric rtt_p99_ns "$W/lat.json"
bad "--chart: no such chart" "--chart" --chart pie "$W/lat.json"
run "$P" plot
is "$rc" 2 "no file: usage error"

# ---- fake gnuplots: gnuplot fails: exit 3, its message on one line.
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
# ... and when a helper of its own, in a session of its own, still holds
# its output open: pipebench stops at the timeout, not when the output ends.
if command -v setsid >/dev/null 2>&1; then
	mkdir "$W/bin-hang2"
	printf '#!/bin/sh\nsetsid sleep 60 &\necho $! >"%s/hang2.pid"\nexec sleep 60\n' "$W" >"$W/bin-hang2/gnuplot"
	chmod +x "$W/bin-hang2/gnuplot"
	run env PATH="$W/bin-hang2:$PATH" timeout 30 "$P" plot -t 1s -o "$W/h.svg" "$W/sweep.json"
	kill "$(cat "$W/hang2.pid" 2>/dev/null)" 2>/dev/null
	is "$rc:$(nlines "$err")" "3:1" "a hanging gnuplot whose helper holds its output: exit 3 after --timeout"
else
	skip 1 "no setsid"
fi
# gnuplot closes its input before the script is all written (a script over
# the pipe's 64 KiB: a long title) and then writes an image bigger than a
# pipe holds: the image is drained while the write end's error is handled,
# so neither side waits for the other.
mkdir "$W/bin-shut"
printf '#!/bin/sh\nexec 0<&-\nhead -c 300000 /dev/zero | tr "\\\\0" x\n' >"$W/bin-shut/gnuplot"
chmod +x "$W/bin-shut/gnuplot"
run env PATH="$W/bin-shut:$PATH" timeout 60 "$P" plot -t 10s --title "$(printf '%0120000d' 0)" \
	-o "$W/shut.svg" "$W/sweep.json"
is "$rc" 0 "gnuplot closes its input early, then writes 300 KB: exit 0"
is "$(wc -c <"$W/shut.svg" 2>/dev/null | tr -d ' ')" 300000 "and the whole image is written"
# The image goes to a reader that waits 4 s before it reads: once gnuplot
# has ended its watchdog is disarmed, so writing the image out takes as long
# as the reader makes it (the watchdog's alarm would end the run with exit 3).
mkdir "$W/bin-big"
printf '#!/bin/sh\ncat >/dev/null\nhead -c 300000 /dev/zero | tr "\\0" x\n' >"$W/bin-big/gnuplot"
chmod +x "$W/bin-big/gnuplot"
( env PATH="$W/bin-big:$PATH" timeout 60 "$P" plot -t 10s "$W/sweep.json" 2>"$W/slow.err"
  echo $? >"$W/slow.rc" ) | ( sleep 4; cat >"$W/slow.svg" )
is "$(cat "$W/slow.rc"):$(wc -c <"$W/slow.svg" | tr -d ' ')" "0:300000" \
	"a reader that waits 4 s for the image: exit 0, all of it written ($(cat "$W/slow.err"))"
# gnuplot closes its output first and says why it failed after it has read
# the script: its words are still read (both outputs are drained to their
# ends, not only the image's).
mkdir "$W/bin-late"
printf '#!/bin/sh\nexec 1>&-\ncat >/dev/null\necho "line 9: late" >&2\nexit 1\n' >"$W/bin-late/gnuplot"
chmod +x "$W/bin-late/gnuplot"
run env PATH="$W/bin-late:$PATH" timeout 60 "$P" plot -t 5s -o "$W/late.svg" "$W/sweep.json"
is "$rc:$(nlines "$err")" "3:1" "gnuplot closes its output, then fails: exit 3, one line"
echo "$err" | grep -q "gnuplot failed with status 1: line 9: late"; ok $? "... with gnuplot's words ($err)"
# Interrupted: the child goes with it.
env PATH="$W/bin-hang:$PATH" "$P" plot -o "$W/i.svg" "$W/sweep.json" 2>/dev/null &
bg=$!
i=0; while [ ! -s "$W/hang.pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM "$bg"; wait "$bg"; rc=$?
is "$rc" 143 "SIGTERM: exit 128+15"
pid=$(cat "$W/hang.pid" 2>/dev/null)
[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; ok $? "SIGTERM: gnuplot was killed and reaped"
[ ! -e "$W/i.svg" ]; ok $? "SIGTERM: nothing written"

# ---- the terminal from --output's name (a gnuplot that hands the script back)
term() { # FILE ARGS...: the terminal the script for FILE asks for
	f=$1; shift
	PATH="$W/bin-cat:$PATH" "$P" plot -q -o "$W/$f" "$@" "$W/sweep.json" &&
		sed -n 's/^set terminal \([a-z]*\) .*/\1/p' "$W/$f"
	rm -f "$W/$f"
}
is "$(term t.svg)" svg ".svg: the svg terminal"
is "$(term t.png)" png ".png: the png terminal"
is "$(term t.pdf)" pdfcairo ".pdf: the pdfcairo terminal"
is "$(term t.jpg)" jpeg ".jpg: the jpeg terminal"
is "$(term t.JPEG)" jpeg ".JPEG: the jpeg terminal (case does not matter)"
is "$(term chart)" svg "no extension: svg"
is "$(term .png)" svg "a dot file, .png: no extension, svg"
is "$(term chart.)" svg "a name ending in a dot: no extension, svg"
is "$(term t.img -f png)" png "--format png with a name of its own"
PATH="$W/bin-cat:$PATH" "$P" plot -q -o "$W/t.pdf" "$W/sweep.json"
grep -Fq 'GPVAL_TERMINALS' "$W/t.pdf" && grep -Fq 'this gnuplot has no pdfcairo terminal' "$W/t.pdf"
ok $? "the script checks gnuplot has the terminal"
PATH="$W/bin-cat:$PATH" "$P" plot -q -o "$W/t.svg" "$W/sweep.json"
grep -q 'GPVAL_TERMINALS' "$W/t.svg"; [ $? = 1 ]; ok $? "svg needs no check"
rm -f "$W/t.pdf" "$W/t.svg"
# A gnuplot lacking the terminal: exit 4, its one line, nothing written.
run env PATH="$W/bin-noterm:$PATH" "$P" plot -o "$W/nt.jpg" "$W/sweep.json"
is "$rc:$(nlines "$err")" "4:1" "a gnuplot without the terminal: exit 4, one line"
echo "$err" | grep -q "^pipebench plot: this gnuplot has no jpeg terminal"; ok $? "the line says which"
[ ! -e "$W/nt.jpg" ]; ok $? "no terminal: nothing written"

# ---- rendering
if [ -z "$GP" ]; then
	# Every point but the last is a rendering one: skip them, numbered.
	skip $((PLAN - tap_n - 1)) "gnuplot not installed"
else
	render() { # NAME ARGS...: plot to $W/NAME.svg
		n=$1; shift
		"$P" plot -q -o "$W/$n.svg" "$@" 2>"$W/err"; rc=$?
		is "$rc:$(cat "$W/err")" "0:" "$n: exit 0, nothing on stderr"
		well_formed "$W/$n.svg"; ok $? "$n: well-formed SVG"
	}
	render sweep "$W/sweep.json"
	has "$W/sweep.svg" "anon rw" "fifo rw" "message size (bytes)" "throughput (MiB/s)"
	ok $? "sweep: series per kind x mode, axis labels"
	grep -q 'pipebench throughput: throughput by message size' "$W/sweep.svg"
	ok $? "sweep: title"
	render mode "$W/mode.json"
	has "$W/mode.svg" "anon rw" "fifo splice"; ok $? "mode: one line per kind x mode"
	render cdf "$W/lat.json"
	has "$W/cdf.svg" "anon same" "anon any" "fifo same" "fifo any" "fraction of round trips" &&
		grep -Eq '>round-trip time \((µs|ms)\)<' "$W/cdf.svg"
	ok $? "cdf: a curve per kind x placement, axis labels"
	render bars "$W/tp1.json" "$W/tp2.json"
	host=$("$JSONQ" "$W/tp1.json" .run.hostname) kern=$("$JSONQ" "$W/tp1.json" .run.kernel.release)
	has "$W/bars.svg" "$host $kern #1" "$host $kern #2" "anon rw" "fifo rw" \
		"throughput (MiB/s)"
	ok $? "bars: a bar per document labelled host and kernel, a cluster per result"
	render lbars "$W/lat.json" --metric rtt_p99_ns
	grep -Eq '>round-trip time, p99 \((µs|ms)\)<' "$W/lbars.svg" && has "$W/lbars.svg" "anon same"
	ok $? "latency --metric: bars of that metric, in words"
	render change "$W/cmp.json"
	has "$W/change.svg" "change of the mean (%)" "not significant"; ok $? "change: axis and marking"
	grep -Eq '>kind=anon[^<]* throughput<' "$W/change.svg"; ok $? "change: a bar per comparison"
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
	well_formed "$W/gp.svg" && has "$W/gp.svg" "anon same" &&
		grep -Eq '>round-trip time \((µs|ms)\)<' "$W/gp.svg"
	ok $? "the script's SVG is well-formed with the series and labels"
	"$P" plot "$W/sweep.json" | head -c 200 | grep -q '<svg'; ok $? "stdout by default, SVG"
	# The terminal from the name: PDF and JPEG files.
	"$P" plot -q -o "$W/c.pdf" "$W/sweep.json"; rc=$?
	is "$rc:$(head -c 5 "$W/c.pdf")" "0:%PDF-" ".pdf output is a PDF"
	"$P" plot -q -o "$W/c.jpg" "$W/sweep.json"; rc=$?
	is "$rc:$(od -An -tx1 -N3 "$W/c.jpg" | tr -d ' \n')" "0:ffd8ff" ".jpg output is a JPEG"
	# A gnuplot without the terminal (the script's test sees another name).
	mkdir "$W/bin-svgonly"
	{ echo '#!/bin/sh'; echo "sed 's/GPVAL_TERMINALS/\"svg\"/' | exec \"$GP\""; } \
		>"$W/bin-svgonly/gnuplot"
	chmod +x "$W/bin-svgonly/gnuplot"
	run env PATH="$W/bin-svgonly:$PATH" "$P" plot -o "$W/nt.pdf" "$W/sweep.json"
	is "$rc:$(nlines "$err")" "4:1" "real gnuplot lacking the terminal: exit 4, one line"
	echo "$err" | grep -q "this gnuplot has no pdfcairo terminal"; ok $? "the line names the terminal"
	[ ! -e "$W/nt.pdf" ]; ok $? "no terminal: nothing written"
	# New charts rendered: intervals, a report's parts, --label.
	render int "$W/int.json"
	has "$W/int.svg" "anon p50" "anon p99" "fifo p50" && grep -Eq '>time into the run \((ms|s)\)<' "$W/int.svg"
	ok $? "intervals: series and axis"
	render rep "$W/rep.json"
	has "$W/rep.svg" "throughput (MiB/s)" "message size (bytes)"; ok $? "report: the throughput sweep"
	render replat "$W/rep.json" --part latency
	has "$W/replat.svg" "fraction of round trips"; ok $? "report --part latency: the CDF"
	render labels "$W/tp1.json" "$W/tp2.json" --label before,after
	has "$W/labels.svg" "before" "after"; ok $? "--label in the key"
fi

tmp_empty; ok $? "nothing left in TMPDIR"
[ "$tap_n" -eq "$PLAN" ] ||
	echo "Bail out! $tap_n points ran, PLAN says $PLAN: the skip count above is wrong"
done_testing
