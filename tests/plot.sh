#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench plot: every chart from real documents made here (short runs),
# the SVG well-formed with the expected series titles and axis labels, the
# --format gnuplot script rendered by gnuplot, the terminal from --output's
# name (PNG, PDF, JPEG; an unknown name refused), --label, axes in words and
# units, report documents (--part), latency --interval series, bad and mixed
# inputs (one line, exit 2, nothing written; at most 64 documents, --timeout
# 1ns..24h), no gnuplot (exit 4), a gnuplot without the terminal (exit 4), a
# gnuplot that fails, is killed, cannot be run, hangs or is interrupted (exit
# 3 / 128+n, the child reaped, its first line said), which gnuplot of PATH
# runs, the script fed to gnuplot and its image read back byte for byte
# (cat as gnuplot), the watchdog disarmed after gnuplot, pipes and memory
# refused (faultinj.so: exit 3, nothing left open).  Without gnuplot the
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
PLAN=226

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
is "$(nlines "$err"):$(echo "$err" | grep -c 'missing argument: FILE.json')" "1:1" \
	"no file: one line, the argument missing"
bad "an empty --metric" "--metric: empty metric name" --metric '' "$W/tp1.json"
bad "an empty --part" "--part: empty part name" --part '' "$W/rep.json"
badname "an extension that is the start of one (.sv)" "no image format is called .sv" x.sv "$W/sweep.json"
badname "the start of jpg (.jp)" "no image format is called .jp" x.jp "$W/sweep.json"
badname "an extension that starts with one (.svgz)" "no image format is called .svgz" x.svgz \
	"$W/sweep.json"
# At most 64 documents in one chart: 64 plot, 65 are refused.
ndocs() { # N ARGS...: plot ARGS and tp1.json N times, to $W/bad.gp
	_k=$1; shift
	while [ "$_k" -gt 0 ]; do set -- "$@" "$W/tp1.json"; _k=$((_k - 1)); done
	run "$P" plot -o "$W/bad.gp" "$@"
}
ndocs 64 -f gnuplot
is "$rc:$err:$(head -1 "$W/bad.gp")" "0::# pipebench plot: bars chart of 64 throughput documents" \
	"64 documents: exit 0, one chart of all of them"
rm -f "$W/bad.gp"
ndocs 65 -f gnuplot
is "$rc:$(nlines "$err"):$(echo "$err" | grep -c 'at most 64 documents in one chart')" "2:1:1" \
	"65 documents: exit 2, one line (at most 64)"
[ ! -e "$W/bad.gp" ]; ok $? "65 documents: nothing written"
# --timeout takes 1ns to 24h: 0 and 24h 1s are usage errors (the script
# runs no gnuplot, so any of them writes it).
tmo() { "$P" plot -f gnuplot -t "$1" "$W/tp1.json" >/dev/null 2>&1; echo $?; }
is "$(tmo 0) $(tmo 1ns) $(tmo 24h) $(tmo 86400s) $(tmo 86401s)" "2 0 0 0 2" \
	"--timeout: 0 refused, 1ns and 24h taken, 86401s refused"
# A document that cannot be written: exit 3, one line.
"$P" plot -f gnuplot "$W/tp1.json" >/dev/full 2>"$W/full.err"
is "$?:$(cat "$W/full.err")" "3:pipebench plot: cannot write standard output: No space left on device" \
	"standard output full: exit 3, one line"

# The watchdog is disarmed once gnuplot has ended: a reader that waits
# 5 s, past -t 2s and the watchdog's 2 s grace, still gets the whole
# 300 KB image and plot exits 0 (an armed watchdog would end it with exit 3
# at 4 s).  In the background, checked after the points below.
mkdir "$W/bin-wd"
printf '#!/bin/sh\ncat >/dev/null\nhead -c 300000 /dev/zero | tr "\\0" x\n' >"$W/bin-wd/gnuplot"
chmod +x "$W/bin-wd/gnuplot"
( ( env PATH="$W/bin-wd:$PATH" timeout 60 "$P" plot -t 2s "$W/tp1.json" 2>"$W/wd.err"
    echo $? >"$W/wd.rc" ) | ( sleep 5; cat >"$W/wd.out" ) ) &
wd_bg=$!

# ---- fake gnuplots: gnuplot fails: exit 3, its message on one line.
run env PATH="$W/bin-fail:$PATH" "$P" plot -o "$W/f.svg" "$W/sweep.json"
is "$rc:$(nlines "$err")" "3:1" "a failing gnuplot: exit 3, one line"
echo "$err" | grep -q "gnuplot failed with status 1: line 3: boom"; ok $? "the line says why"
[ ! -e "$W/f.svg" ]; ok $? "nothing written"
# gnuplot hangs: the watchdog kills and reaps it.
run env PATH="$W/bin-hang:$PATH" timeout 30 "$P" plot -t 1s -o "$W/h.svg" "$W/sweep.json"
is "$rc:$(nlines "$err")" "3:1" "a hanging gnuplot: exit 3 after --timeout, one line"
echo "$err" | grep -q "timed out\|did not finish"; ok $? "the line names the timeout"
is "$err" "pipebench plot: gnuplot did not finish within 1 s (--timeout)" "... in seconds, as given"
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
is "$(term t.png -f png)" png "--format png and a name that says png"
is "$(term t.jpeg -f jpeg)" jpeg "--format jpeg and a .jpeg name (jpeg's second extension)"
# .gp (any case) is the script, written without gnuplot
run env PATH="$W/bin-none" "$P" plot -o "$W/t.GP" "$W/sweep.json"
is "$rc:$err:$(head -1 "$W/t.GP")" "0::# pipebench plot: sweep chart of 1 throughput document" \
	".GP: the script, no gnuplot needed"
run env PATH="$W/bin-none" "$P" plot -f gnuplot -o "$W/t2.gp" "$W/sweep.json"
cmp -s "$W/t.GP" "$W/t2.gp"; is "$rc:$?" "0:0" "--format gnuplot and a .gp name: the same script"
rm -f "$W/t.GP" "$W/t2.gp"
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

# ---- gnuplot's input and output, byte for byte: cat(1) as gnuplot hands
# back the script it was fed, so its "image" must be exactly what --format
# gnuplot writes (the svg terminal both ways).  A sweep of 8 kinds x 1024
# sizes makes a script of over 300 KB, more than the two pipes and cat's
# buffer hold at once: the script must be written without blocking while
# the echo is read (a blocking write waits for cat, cat for the reader: no
# end but --timeout), partial writes go on from where the last one ended,
# the input is closed once all of it is written (else cat never ends), and
# both outputs are read to their ends.
awk 'BEGIN { printf "{\"tool\": \"pipebench\", \"schema_version\": 1, \"command\": \"throughput\", \"results\": ["
	for (k = 0; k < 8; k++) for (i = 1; i <= 1024; i++)
		printf "%s{\"kind\": \"k%d\", \"size_bytes\": %d, \"repetitions\": [{\"rate_bytes_per_s\": %d}]}",
			(k + i > 1 ? ", " : ""), k, i, i * 1000 + k
	print "]}" }' >"$W/huge.json"
"$P" plot -f gnuplot -o "$W/big.gp" "$W/huge.json"
[ "$(wc -c <"$W/big.gp")" -gt 300000 ]; ok $? "8 kinds x 1024 sizes: a script over 300 KB"
run timeout 60 env PATH="$W/bin-cat:$PATH" "$P" plot -t 30s -o "$W/big.svg" "$W/huge.json"
is "$rc:$err" "0:" "cat as gnuplot, the 300 KB script: exit 0, nothing on stderr (no -q)"
cmp -s "$W/big.gp" "$W/big.svg"; ok $? "... the image is the script, byte for byte"
rm -f "$W/big.gp" "$W/big.svg" "$W/huge.json"
# Standard output (no --output), without -q, a small script.
"$P" plot -f gnuplot "$W/tp1.json" >"$W/s.gp"
timeout 30 env PATH="$W/bin-cat:$PATH" "$P" plot "$W/tp1.json" >"$W/s.out" 2>"$W/s.err"
is "$?:$(cat "$W/s.err")" "0:" "cat as gnuplot to standard output: exit 0, nothing on stderr"
cmp -s "$W/s.gp" "$W/s.out"; ok $? "... standard output is the script, byte for byte"
# A gnuplot silent for 0.3 s (poll's 100 ms ticks pass with nothing to
# read) well within the default --timeout of 60 s.
mkdir "$W/bin-slow"
printf '#!/bin/sh\nsleep 0.3\nexec cat\n' >"$W/bin-slow/gnuplot"
chmod +x "$W/bin-slow/gnuplot"
run timeout 30 env PATH="$W/bin-slow:$PATH" "$P" plot -o "$W/slow2.svg" "$W/tp1.json"
is "$rc:$err" "0:" "a gnuplot silent for 0.3 s, default --timeout: exit 0, nothing on stderr"
cmp -s "$W/s.gp" "$W/slow2.svg"; ok $? "... and the whole image written"
# gnuplot's complaint on success is a warning, one line (none with -q).
mkdir "$W/bin-warn"
printf '#!/bin/sh\ncat\necho "warning: no font" >&2\necho "second line" >&2\n' >"$W/bin-warn/gnuplot"
chmod +x "$W/bin-warn/gnuplot"
run timeout 30 env PATH="$W/bin-warn:$PATH" "$P" plot -o "$W/warn.svg" "$W/tp1.json"
is "$rc:$err" "0:pipebench plot: warning: gnuplot: warning: no font" \
	"a gnuplot that succeeds with words on stderr: exit 0, its first line as a warning"
cmp -s "$W/s.gp" "$W/warn.svg"; ok $? "... and the image written"
run timeout 30 env PATH="$W/bin-warn:$PATH" "$P" plot -q -o "$W/warn.svg" "$W/tp1.json"
is "$rc:$err" "0:" "... -q: no warning"
rm -f "$W/warn.svg" "$W/slow2.svg" "$W/s.out" "$W/s.err"

# ---- which gnuplot: the first regular, executable file called gnuplot in
# PATH; a directory called gnuplot and a file without x are passed over.
mkdir "$W/bin-dir" "$W/bin-dir/gnuplot" "$W/bin-noexec"
printf '#!/bin/sh\ncat\n' >"$W/bin-noexec/gnuplot"
chmod 644 "$W/bin-noexec/gnuplot"
run timeout 30 env PATH="$W/bin-none:$W/bin-dir:$W/bin-noexec" "$P" plot -o "$W/pp.svg" "$W/tp1.json"
is "$rc:$(nlines "$err"):$(echo "$err" | grep -c 'gnuplot is not installed')" "4:1:1" \
	"PATH with only a directory called gnuplot and a gnuplot without x: not installed, exit 4"
[ ! -e "$W/pp.svg" ]; ok $? "... nothing written"
run timeout 30 env PATH="$W/bin-none:$W/bin-dir:$W/bin-noexec:$W/bin-cat:$PATH" "$P" plot \
	-o "$W/pp.svg" "$W/tp1.json"
is "$rc:$err" "0:" "... with cat's after them in PATH: that one runs, exit 0"
cmp -s "$W/s.gp" "$W/pp.svg"; ok $? "... its image is the script"
# No PATH at all: no gnuplot (exit 4, one line), not a crash.
run env -i "$P" plot -o "$W/pp.svg" "$W/tp1.json"
is "$rc:$(nlines "$err")" "4:1" "no PATH in the environment: not installed, exit 4, one line"
# An empty PATH entry is the current directory, searched in its turn.
(cd "$W/bin-cat" && timeout 30 env PATH="$W/bin-none::$PATH" "$P" plot -o "$W/pp2.svg" "$W/tp1.json")
is "$?" 0 "an empty PATH entry: ./gnuplot (cat) runs, exit 0"
cmp -s "$W/s.gp" "$W/pp2.svg"; ok $? "... not a gnuplot later in PATH: the image is the script"
rm -f "$W/pp.svg" "$W/pp2.svg"

# ---- how gnuplot ended, in one line each, exit 3, nothing written: a file
# that cannot be run (empty: exec says ENOEXEC, the child exits 127), a
# signal, a status with no words, words that come in two writes, and a
# first line longer than a message holds (cut, still one line).
mkdir "$W/bin-empty" "$W/bin-sig" "$W/bin-quiet" "$W/bin-two" "$W/bin-long"
: >"$W/bin-empty/gnuplot"
printf '#!/bin/sh\ncat >/dev/null\necho "line 5: oops" >&2\nkill -9 $$\n' >"$W/bin-sig/gnuplot"
printf '#!/bin/sh\ncat >/dev/null\nexit 5\n' >"$W/bin-quiet/gnuplot"
printf '#!/bin/sh\ncat >/dev/null\nprintf "line 7: " >&2\nsleep 0.2\necho "two parts" >&2\nexit 2\n' \
	>"$W/bin-two/gnuplot"
printf '#!/bin/sh\ncat >/dev/null\nhead -c 5000 /dev/zero | tr "\\\\0" y >&2\nexit 1\n' >"$W/bin-long/gnuplot"
chmod +x "$W/bin-empty/gnuplot" "$W/bin-sig/gnuplot" "$W/bin-quiet/gnuplot" "$W/bin-two/gnuplot" \
	"$W/bin-long/gnuplot"
ended() { # BIN WANT DESC: plot with $W/BIN first in PATH; exit 3, stderr WANT, nothing written
	run timeout 30 env PATH="$W/$1:$PATH" "$P" plot -o "$W/end.svg" "$W/tp1.json"
	is "$rc:$err" "3:$2" "$3: exit 3, one line"
	[ ! -e "$W/end.svg" ]; ok $? "$3: nothing written"
}
ended bin-empty "pipebench plot: gnuplot failed with status 127: cannot run $W/bin-empty/gnuplot: Exec format error" \
	"a gnuplot that cannot be run"
ended bin-sig "pipebench plot: gnuplot was killed by signal 9: line 5: oops" "a gnuplot killed by a signal"
ended bin-quiet "pipebench plot: gnuplot failed with status 5" "a gnuplot that fails saying nothing"
ended bin-two "pipebench plot: gnuplot failed with status 2: line 7: two parts" \
	"a gnuplot whose line comes in two writes"
run timeout 30 env PATH="$W/bin-long:$PATH" "$P" plot -o "$W/end.svg" "$W/tp1.json"
is "$rc:$(nlines "$err")" "3:1" "a gnuplot that says 5000 bytes on one line: exit 3, one line"
echo "$err" | grep -Eqx 'pipebench plot: gnuplot failed with status 1: y{500,}'; ok $? "... the start of it"

# ---- resources: each of the three pipes to gnuplot refused in turn (exit
# 3, one line, the ones made closed again), a gnuplot that hangs (closed,
# killed), the script's memory stream not made or not closed; faultinj.so
# names every descriptor left open at exit (not in a sanitizer build, whose
# runtime keeps descriptors of its own).
if fault_layer; then
	fd_check=1
	case "$(ldd "$P" 2>/dev/null)" in *libasan*|*libubsan*) fd_check= ;; esac
	fds() { # FAULT-ENV... -- ARGS: plot ARGS under faultinj; "rc:stderr lines"
		while [ "$1" != -- ]; do export "${1?}"; shift; done; shift
		PB_FAULT_FDS_AT_EXIT=$fd_check faulty "" "$P" plot "$@" 2>"$W/fi.err"
		echo "$?:$(tr '\n' '|' <"$W/fi.err")"
	}
	for k in 1 2 3; do
		is "$(PATH="$W/bin-cat:$PATH" fds PB_FAULT_PIPE_ENFILE=$k -- -o "$W/fi.svg" "$W/tp1.json")" \
			"3:pipebench plot: cannot make pipes for gnuplot: Too many open files in system|" \
			"pipe $k of 3 refused (ENFILE): exit 3, one line, nothing left open"
	done
	[ ! -e "$W/fi.svg" ]; ok $? "... nothing written"
	is "$(PATH="$W/bin-hang:$PATH" fds -- -t 200ms -o "$W/fi.svg" "$W/tp1.json")" \
		"3:pipebench plot: gnuplot did not finish within 0.2 s (--timeout)|" \
		"a hanging gnuplot, -t 200ms: exit 3, one line, nothing left open"
	rm -f "$W/hang.pid"
	is "$(fds PB_FAULT_HARNESS=memstream -- -f gnuplot -o "$W/fi.gp" "$W/tp1.json")" \
		"3:pipebench plot: out of memory|" "no memory stream for the script: exit 3, one line"
	is "$(fds PB_FAULT_HARNESS=memstream-close -- -f gnuplot -o "$W/fi.gp" "$W/tp1.json")" \
		"3:pipebench plot: out of memory|" "the script's stream fails to close: exit 3, one line"
	[ ! -e "$W/fi.gp" ]; ok $? "... nothing written"
else
	skip 7 "tests/faultinj.so or timeout(1) missing"
fi

wait "$wd_bg"
is "$(cat "$W/wd.rc"):$(wc -c <"$W/wd.out" | tr -d ' '):$(cat "$W/wd.err")" "0:300000:" \
	"a reader 5 s late, -t 2s: the watchdog was disarmed with gnuplot gone, exit 0, all written"
rm -f "$W/wd.rc" "$W/wd.out" "$W/wd.err"

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
