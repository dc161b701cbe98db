#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pipebench grid on real documents: one self-contained HTML page (tidy
# finds nothing to say; headless Chromium loads it with no console error,
# its screenshot is not blank and the grid's table is in its DOM) and a
# markdown twin with the same cells; JSON documents and LAVA logs line up;
# a check broken by the fault-injection layer from the second column on
# goes bad there (exit 1); unusable input is refused like compare does.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
D="$TEST_TMP"
P="$PIPEBENCH"

"$P" conformance --only CRE-01,WR-01,MD-04 --format json --output "$D/c1.json"
"$P" conformance --only CRE-01,WR-01,MD-04 --format lava >"$D/c2.lava"
"$P" throughput --dir "$D" --loops 5 --repeat 3 --warmup 0 --size 4K --format json --output "$D/t1.json"
"$P" throughput --dir "$D" --loops 5 --repeat 3 --warmup 0 --size 4K --format json --output "$D/t2.json"

# Two real throughput runs may differ beyond any threshold on a busy machine:
# a huge one keeps their comparison from deciding the exit status here.
run "$P" grid "$D/c1.json" "$D/c2.lava" "$D/t1.json" "$D/t2.json" --label base,lava,tp1,tp2 \
	--threshold 1000000 --output "$D/g.html"
is "$rc/$err" "0/" "grid of JSON documents and a LAVA log: exit 0, nothing on stderr"
"$P" grid "$D/c1.json" "$D/c2.lava" "$D/t1.json" "$D/t2.json" --label base,lava,tp1,tp2 \
	--threshold 1000000 --format markdown >"$D/g.md"
is "$?" 0 "the markdown twin: exit 0"
! grep -Eiq '<script|<link|<img|<iframe|@import|url\(|(src|href)=|https?:' "$D/g.html"
ok $? "the page loads nothing from elsewhere (no script, link, image, import or URL)"
grep -q '<svg class="spark"' "$D/g.html"; ok $? "trends are inline SVG"
# The JSON document's checks and the LAVA log's are the same rows.
grep -q '^| conformance | CRE-01 | pass | pass | - | - | - |$' "$D/g.md"
ok $? "a check from JSON and from a LAVA log on one row"
grep -q '^| conformance | MD-04 | [a-z-]* | pass | - | - | - |$' "$D/g.md"
ok $? "MD-04's own verdict from JSON, LAVA's pass beside it"
grep -Eq '^\| throughput \| anon-4096B-rate \| - \| - \| [0-9.]+ [kMG]?B/s( ~)? \| [0-9.]+ [kMG]?B/s [+-][0-9.]+%' "$D/g.md"
ok $? "a figure and its change against the first column that has it"

# The same cells in both: the page's cells, tags stripped, against the
# markdown's, escapes and emphasis undone.
sed -n 's/^<tr><th scope="row">//p' "$D/g.html" | sed -e 's/<\/t[hd]><t[hd][^>]*>/|/g' \
	-e 's/<svg.*<\/svg>//' -e 's/<small>//g; s/<\/small>//g' -e 's/<[^>]*>//g' \
	-e 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' >"$D/cells.html"
grep '^| ' "$D/g.md" | sed -n '2,$p' | sed -e 's/^| //' -e 's/ |$//' -e 's/ | /|/g' \
	-e 's/\*\*bad\*\*/bad/g; s/\*\*\([a-z-]*\)\*\*/\1/g' -e 's/\\\(.\)/\1/g' >"$D/cells.md"
sed 's/|[^|]*$//' "$D/cells.html" >"$D/cells.html2"   # the trend column is the page's own
is "$(diff "$D/cells.html2" "$D/cells.md" && echo same)" same "the page and the markdown have the same cells"
is "$(wc -l <"$D/cells.md")" "$(grep -c '^<tr><th scope="row">' "$D/g.html")" "one row each"

# Labels are the user's text: each of HTML's four special characters comes
# out as its entity, never as markup.
"$P" grid "$D/c1.json" "$D/c1.json" "$D/c1.json" "$D/c1.json" --label 'a<b,c>d,e&f,"g"' \
	--output "$D/esc.html"
is "$(grep -o 'a&lt;b\|c&gt;d\|e&amp;f\|&quot;g&quot;' "$D/esc.html" | sort -u | tr '\n' ' ')" \
	'&quot;g&quot; a&lt;b c&gt;d e&amp;f ' "labels' <, >, & and \" as entities"
! grep -q 'a<b\|c>d\|e&f\|"g"' "$D/esc.html"; ok $? "no label's special character left raw"

# Cells computed by hand: documents made here with known repetitions.
# tp DOC RATE SPREAD...: a throughput document whose anon 4 KiB rate has
# repetitions RATE * (1 + SPREAD), its median the middle one.
tp() {
	f=$1 r=$2; shift 2
	reps= sep=
	for x in "$@"; do
		reps="$reps$sep{\"rate_bytes_per_s\": $(awk -v r="$r" -v x="$x" 'BEGIN { printf "%.1f", r * (1 + x) }')}"
		sep=,
	done
	mid=$(awk -v r="$r" -v x="$3" 'BEGIN { printf "%.1f", r * (1 + x) }')
	printf '{"tool": "pipebench", "schema_version": 1, "command": "throughput", "exit_status": 0, "results": [{"kind": "anon", "mode": "rw", "size_bytes": 4096, "status": "ok", "repetitions": [%s], "summary": {"rate_bytes_per_s": %s, "ns_per_syscall": 812}}]}\n' \
		"$reps" "$mid" >"$f"
}
tp "$D/h1.json" 1e9 -0.01 -0.005 0 0.005 0.01
tp "$D/h2.json" 9e8 -0.01 -0.005 0 0.005 0.01
tp "$D/h3.json" 8e8 -0.45 -0.3 0 0.3 0.45
printf '%s\n' '<LAVA_SIGNAL_TESTSET START throughput>' \
	'<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-4096B-rate RESULT=pass MEASUREMENT=5e8 UNITS=B/s>' \
	'<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-4096B-syscall RESULT=pass MEASUREMENT=2500000 UNITS=ns>' \
	'<LAVA_SIGNAL_TESTSET STOP>' >"$D/h4.lava"
run "$P" grid "$D/h1.json" "$D/h2.json" "$D/h3.json" "$D/h4.lava" --label one,two,three,four --format markdown
is "$rc" 1 "a figure gone bad: exit 1"
is "$(printf '%s\n' "$out" | grep '^| throughput | anon-4096B-rate ')" \
	'| throughput | anon-4096B-rate | 1 GB/s | 900 MB/s -10.0%\* **bad** | 800 MB/s -20.0%~ | 500 MB/s -50.0%? | two |' \
	"rates in metric units; 10% worse with tight repetitions is bad, 20% worse but noisy is not, a log's figure untested"
is "$(printf '%s\n' "$out" | grep '^| throughput | anon-4096B-syscall ')" \
	'| throughput | anon-4096B-syscall | 812 ns | 812 ns +0.0%? | 812 ns +0.0%? | 2.5 ms +307781.8%? | - |' \
	"times in ns or ms; figures without repetitions are untested, never bad"
sed 's/MEASUREMENT=2500000 UNITS=ns/MEASUREMENT=1500 UNITS=ns/' "$D/h4.lava" >"$D/h5.lava"
"$P" grid "$D/h5.lava" --format markdown | grep -q '^| throughput | anon-4096B-syscall | 1.5 us | - |$'
ok $? "microseconds in us"
"$P" grid "$D/h1.json" "$D/h2.json" "$D/h3.json" "$D/h4.lava" --label one,two,three,four --output "$D/h.html"
grep -q '<td class="bad">900 MB/s <small>-10.0%\*</small> bad</td>' "$D/h.html"; ok $? "the page marks the bad cell by class and word"
grep -q '<td class="worse">800 MB/s <small>-20.0%~</small></td>' "$D/h.html"; ok $? "a worse but noisy cell is only worse"
grep -q '<td class="firstbad">two</td>' "$D/h.html"; ok $? "and names the first bad column"
# The trend: x from 2 to 94 evenly over the columns, y from 16 (the row's
# least) up to 2 (its most) in proportion, one decimal each
is "$(grep -o 'points="[^"]*"' "$D/h.html" | tr '\n' ' ')" \
	'points="2.0,2.0 32.7,4.8 63.3,7.6 94.0,16.0" points="2.0,16.0 32.7,16.0 63.3,16.0 94.0,2.0" ' \
	"each row's trend: its figures placed by column and scaled between its least and its most"
run "$P" grid "$D/h1.json" "$D/h2.json" --threshold 15 --format markdown
is "$rc" 0 "10% worse is not bad at --threshold 15"

# A check broken from the second column on (torn writes) goes bad there.
if fault_layer; then
	faulty torn-write "$P" conformance --only CRE-01,WR-01,MD-04 --timeout 3 --format json \
		--output "$D/bad.json" 2>/dev/null
	run "$P" grid "$D/c1.json" "$D/bad.json" "$D/c1.json" --label good,torn,again --format markdown
	is "$rc" 1 "a check gone bad: exit 1"
	printf '%s\n' "$out" | grep -q '^| conformance | CRE-01 | pass | \*\*fail\*\* | pass | torn |$'
	ok $? "CRE-01 goes bad in the torn column, and the grid names it"
	printf '%s\n' "$out" | grep -q '^| conformance | MD-04 | .* | - |$'
	ok $? "a check that did not change has no first bad column"
else
	skip 3 "tests/faultinj.so or timeout(1) missing"
fi

# Unusable input, as compare refuses it: exit 2, one line naming the file.
printf 'hello\n' >"$D/plain.txt"
run "$P" grid "$D/c1.json" "$D/plain.txt"
is "$rc/$(nlines "$err")" 2/1 "a file of neither kind: exit 2, one line"
case $err in *plain.txt*) ok 0 "it names the file" ;; *) ok 1 "it names the file"; diag "$err" ;; esac
printf '{"tool": "other"}\n' >"$D/other.json"
run "$P" grid "$D/c1.json" "$D/other.json"
is "$rc/$(nlines "$err")" 2/1 "a JSON document not of pipebench: exit 2, one line"
run "$P" grid "$D/c1.json" "$D/missing.json"
is "$rc/$(nlines "$err")" 2/1 "a missing file: exit 2, one line"
run "$P" grid "$D/c1.json" "$D/t1.json" --label one
is "$rc/$(nlines "$err")" 2/1 "--label with too few labels: exit 2"
run "$P" grid "$D/c1.json" --format pdf
is "$rc" 2 "an unknown format: exit 2"

# Fifty documents: one page, under 2 MB.
set --
i=0
while [ $i -lt 25 ]; do set -- "$@" "$D/c1.json" "$D/t1.json"; i=$((i + 1)); done
"$P" grid "$@" --output "$D/g50.html"; rc=$?
is "$rc" 0 "fifty documents: exit 0"
[ "$(wc -c <"$D/g50.html")" -lt 2000000 ]; ok $? "fifty documents: a page under 2 MB"
grep -q '(#50)</th>' "$D/g50.html"; ok $? "labels that repeat get their column's number"

# An HTML checker and a real browser, where Debian's packages are installed.
if command -v tidy >/dev/null 2>&1; then
	tidy -q -e "$D/g.html" >"$D/tidy.out" 2>&1; rc=$?
	is "$rc" 0 "tidy finds no error or warning in the page"
	[ $rc -eq 0 ] || diag "$(head -5 "$D/tidy.out")"
else
	skip 1 "tidy not installed"
fi
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$CHROMIUM" ]; then
	export HOME="$D"   # Chromium's profile and crash files stay in the test's directory
	# Chromium's singleton socket lies in TMPDIR and a socket's path holds
	# 107 bytes: it aborts (134, "Socket path too long") under a deep TMPDIR,
	# such as a build tree's, so one of its own under /tmp then
	CTMP=$TMPDIR
	if [ ${#TMPDIR} -gt 40 ]; then
		CTMP=$(mktemp -d /tmp/pb-chromium.XXXXXX) || exit 99
		trap 'rm -rf "$TEST_TMP" "$CTMP"' EXIT
	fi
	# chromium ARGS...: headless, no sandbox (root in a container), bounded.
	chromium() {
		TMPDIR=$CTMP timeout -k 5 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
			--user-data-dir="$D/profile" --no-first-run --window-size=1200,900 "$@"
	}
	chromium --enable-logging=stderr --v=0 --dump-dom "file://$D/g.html" >"$D/dom.html" 2>"$D/chromium.err"
	rc=$?
	is "$rc" 0 "Chromium loads the page"
	[ $rc -eq 0 ] || diag "$(tail -3 "$D/chromium.err")"
	grep -q '<table class="grid">' "$D/dom.html"; ok $? "the grid's table is in the DOM Chromium built"
	is "$(grep -c ':CONSOLE' "$D/chromium.err")" 0 "no console message"
	printf '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body></body></html>\n' >"$D/blank.html"
	chromium --screenshot="$D/g.png" "file://$D/g.html" >/dev/null 2>&1
	chromium --screenshot="$D/blank.png" "file://$D/blank.html" >/dev/null 2>&1
	g=$(wc -c <"$D/g.png" 2>/dev/null || echo 0) b=$(wc -c <"$D/blank.png" 2>/dev/null || echo 0)
	[ "$b" -gt 0 ] && [ "$g" -gt $((b * 4)) ]
	ok $? "the screenshot is not blank (PNG of $g bytes, a blank page's $b)"
else
	skip 4 "chromium not installed"
fi
rm -rf "$D/profile" "$D"/.config "$D"/.cache "$D"/.local "$D"/.pki 2>/dev/null
done_testing
