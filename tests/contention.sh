#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# throughput --writers N --readers M: many writer and reader threads on one
# pipe or FIFO.  Every record arrives whole and once on this kernel (4x2 and
# 16x16, blocking and polling); the JSON's figures add up (each party's
# bytes, the records, the fairness ratios); CSV, text and LAVA carry the
# rows; the fault layer's torn write is the kernel's failure, exit 1; bad
# input is one line and exit 2; nothing is left behind.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
P=$PIPEBENCH
J=$TEST_TMP/mw.json
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
perl -MJSON::PP -e 1 2>/dev/null || skip_all "perl's JSON::PP is not installed (Debian package perl)"

# figures FILE: one line per disagreement between a result's figures and its
# own repetitions (empty: they agree), then "rows N".
figures() {
	perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>); my $n = 0;
		my ($w, $r, $loops) = ($d->{params}{writers}, $d->{params}{readers}, $d->{params}{loops});
		for my $x (@{ $d->{results} }) {
			$n++;
			my $id = "$x->{kind} $x->{size_bytes} $x->{wait}";
			print "$id: integrity $x->{integrity}\n" unless $x->{integrity} eq "ok";
			print "$id: writers $x->{writers} readers $x->{readers}\n"
				unless $x->{writers} == $w && $x->{readers} == $r;
			for my $e (@{ $x->{repetitions} }) {
				my @wb = @{ $e->{writer_bytes} }; my @rb = @{ $e->{reader_bytes} };
				my ($sw, $sr) = (0, 0); $sw += $_ for @wb; $sr += $_ for @rb;
				print "$id: ", scalar(@wb), " writers, ", scalar(@rb), " readers\n"
					unless @wb == $w && @rb == $r;
				print "$id: each writer wrote $loops records\n"
					if grep { $_ != $loops * $x->{size_bytes} } @wb;
				print "$id: bytes read $sr, written $sw, reported $e->{bytes}\n"
					unless $sr == $sw && $sr == $e->{bytes};
				print "$id: records $e->{records}\n"
					unless $e->{records} == $w * $loops && $e->{bytes} == $e->{records} * $x->{size_bytes};
				my $rate = $e->{bytes} * 1e9 / $e->{tt_ns};
				print "$id: rate $e->{rate_bytes_per_s}, want $rate\n"
					if abs($rate - $e->{rate_bytes_per_s}) > 1e-6 * $rate;
				my @s = sort { $a <=> $b } @rb;
				my $fr = @rb < 2 || !$s[0] ? undef : $s[-1] / $s[0];
				print "$id: fairness_readers ", $e->{fairness_readers} // "null", "\n"
					unless (!defined $fr && !defined $e->{fairness_readers}) ||
					       (defined $fr && defined $e->{fairness_readers} &&
						abs($fr - $e->{fairness_readers}) < 1e-9 * $fr);
				my $idle = grep { !$_ } @rb;
				print "$id: readers_idle $e->{readers_idle}, want $idle\n" unless $e->{readers_idle} == $idle;
				print "$id: $_ $e->{$_}\n" for grep { $e->{$_} } qw(torn lost duplicated out_of_order short_writes);
			}
		}
		print "rows $n\n"' <"$1"
}

"$P" throughput --writers 4 --readers 2 --kind anon,fifo --size 100,4K --loops 400 --repeat 2 \
	--warmup 0 --format json -o "$J" 2>"$TEST_TMP/err"
is "$?" 0 "4 writers x 2 readers, anon and fifo, 100 B and 4 KiB: exit 0"
is "$(figures "$J")" "rows 4" "4x2: every record whole and once; each party's bytes add up"
is "$("$JSONQ" "$J" .params.writers .params.readers .params.waits[0] .summary.integrity_failures |
	tr '\n' ' ')" "4 2 block 0 " "params and summary: writers, readers, wait, no failure"
tmp_empty; ok $? "no FIFO or directory left"

"$P" throughput --writers 16 --readers 16 --kind anon,fifo --size 512 --loops 100 --repeat 1 \
	--warmup 0 --wait block,poll --format json -o "$J" 2>/dev/null
is "$?" 0 "16 x 16, blocking and polling: exit 0"
is "$(figures "$J")" "rows 4" "16x16: every record whole and once; the figures add up"
is "$("$JSONQ" "$J" .results[1].wait .results[2].wait | tr '\n' ' ')" "block poll " \
	"rows: kinds fastest, then waits"

# --readers alone: one writer; --duration: the run's share a repetition
"$P" throughput --readers 3 --duration 300ms --repeat 2 --warmup 0 --format json -o "$J" 2>/dev/null
is "$?|$("$JSONQ" "$J" .params.writers .results[0].integrity | tr '\n' ' ')" "0|1 ok " \
	"--readers 3 alone (one writer), --duration: exit 0, whole"

# text: the table's columns and the verdict on the records
"$P" throughput --writers 4 --readers 2 --loops 200 --repeat 2 --warmup 0 >"$TEST_TMP/out" 2>/dev/null
grep -Eq '^contention  4 writers x 2 readers on one pipe, 200 records a writer, 2 repetitions' \
	"$TEST_TMP/out"
ok $? "text: the contention line"
# (a party that got no share reads "N idle": with 2 readers one may sleep
# through a short run)
F='([0-9.]+x|[0-9]+ idle)'
grep -Eq "^anon +100 B block +[0-9.]+ [kMG]?B/s +[0-9.]+ +$F +$F +[0-9.]+ +[0-9.]+  whole and once\$" \
	"$TEST_TMP/out"
ok $? "text: the row with rate, ns/record, both fairness ratios, switches and the verdict"

# CSV: a row per repetition with the identity and the scalar figures
"$P" throughput --writers 2 --readers 2 --loops 100 --repeat 3 --warmup 0 --format csv \
	>"$TEST_TMP/csv" 2>/dev/null
is "$(wc -l <"$TEST_TMP/csv" | tr -d ' ')" 4 "csv: header and 3 repetitions"
head -1 "$TEST_TMP/csv" | grep -q '^kind,mode,size_bytes,writers,readers,wait,pipe_size_bytes,repetition,tt_ns,bytes,records,rate_bytes_per_s,ns_per_record,fairness_writers,fairness_readers,'
ok $? "csv header: identity, then the figures"

# LAVA: integrity, rate and fairness cases per row
"$P" throughput --writers 2 --readers 2 --loops 100 --repeat 2 --warmup 0 --format lava \
	>"$TEST_TMP/lava" 2>/dev/null
grep -q 'TEST_CASE_ID=anon-100B-2x2-integrity RESULT=pass' "$TEST_TMP/lava" &&
	grep -q 'TEST_CASE_ID=anon-100B-2x2-rate RESULT=pass MEASUREMENT=[0-9.e+]* UNITS=B/s' "$TEST_TMP/lava"
ok $? "lava: integrity pass and the rate of anon-100B-2x2"

# The fault layer's torn write: half the record, its count returned.
FI=${TESTS_BUILDDIR:-.}/faultinj.so
if [ -r "$FI" ]; then
	asan=$(ldd "$P" 2>/dev/null | awk '/libasan\.so/ { print $3; exit }')
	PB_FAULT=torn-write LD_PRELOAD="${asan:+$asan }$FI" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$P" throughput --writers 4 --readers 2 --size 256 --loops 100 --repeat 1 \
		--warmup 0 --format json -o "$J" 2>"$TEST_TMP/err"
	rc=$?
	is "$rc|$("$JSONQ" "$J" .exit_status .results[0].integrity .summary.integrity_failures |
		tr '\n' ' ')" "1|1 fail 1 " "torn-write fault: exit 1, the row's integrity fails"
	# the writer's short count, or a reader that saw the half record first
	"$JSONQ" "$J" .results[0].integrity_detail |
		grep -Eq '^(writer [0-9]+: write\(256\) of record [0-9]+ returned 128: a torn atomic write|reader [0-9]+: (a record that is not whole|read\(256\) returned [0-9]+: part of a record).*)$'
	ok $? "... its detail names the torn write or the torn record read"
	is "$(wc -l <"$TEST_TMP/err" | tr -d ' ')" 1 "... one line on stderr"
else
	skip 3 "no tests/faultinj.so"
fi

# bad input: one line, exit 2
for a in "--writers 0" "--writers 65" "--readers 2 --size 23" "--writers 2 --size 4097" \
	 "--writers 2 --kind socketpair" "--writers 2 --mode splice" "--wait poll" \
	 "--writers 2 --wait sleep" "--writers 2 --format seed" "--writers 2 --precision 5"; do
	# shellcheck disable=SC2086
	"$P" throughput $a >/dev/null 2>"$TEST_TMP/err"
	is "$?|$(wc -l <"$TEST_TMP/err" | tr -d ' ')" "2|1" "throughput $a: exit 2, one line"
done
tmp_empty; ok $? "nothing left behind"
done_testing
