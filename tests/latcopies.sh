#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# latency --copies: N independent pairs at once, for each N of the list.
# A row's figures follow from its copies' (every round trip in the
# histogram, the rate over the slowest copy's time, a copy's share, the
# efficiency against the smallest N); copies are pinned to a CPU each when
# they fit; text, LAVA and plot carry the rows; bad combinations are one
# line and exit 2; nothing is left behind.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
P=$PIPEBENCH
J=$TEST_TMP/lc.json
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
perl -MJSON::PP -e 1 2>/dev/null || skip_all "perl's JSON::PP is not installed (Debian package perl)"
ncpu=$(nproc)

"$P" latency --copies 1,2 --kind anon,fifo --loops 300 --repeat 2 --warmup 0 --format json \
	-o "$J" 2>/dev/null
is "$?" 0 "latency --copies 1,2, anon and fifo: exit 0"
got=$(perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>); my (%ref, @bad); my $n = 0;
	my $ncpu = $ARGV[0]; my $loops = $d->{params}{loops};
	print "params.copies @{ $d->{params}{copies} }\n" unless "@{ $d->{params}{copies} }" eq "1 2";
	for my $r (@{ $d->{results} }) {
		$n++;
		my $c = $r->{copies}; my $id = "$r->{kind} x$c";
		$ref{$r->{kind}} //= $r;
		print "$id: placement $r->{placement}\n" unless $r->{placement} eq "copies";
		for my $e (@{ $r->{repetitions} }) {
			my @rt = @{ $e->{copy_round_trips_per_s} }; my @pin = @{ $e->{copy_pinned_cpus} };
			print "$id: ", scalar(@rt), " copy rates\n" unless @rt == $c;
			# every round trip of every copy is counted, in the histogram too
			print "$id: round trips $e->{round_trips}\n" unless $e->{round_trips} == $c * $loops;
			my $h = 0; $h += $_->[2] for @{ $e->{histogram} };
			print "$id: histogram $h\n" unless $h == $c * $loops;
			# the slowest copy sets the time: its rate is the lowest
			my ($min) = sort { $a <=> $b } @rt;
			my $slow = $loops * 1e9 / $e->{elapsed_ns};
			print "$id: slowest copy $min, elapsed says $slow\n" if abs($min - $slow) > 1e-6 * $slow;
			my $rate = $e->{round_trips} * 1e9 / $e->{elapsed_ns};
			print "$id: rate $e->{round_trips_per_s}, want $rate\n"
				if abs($e->{round_trips_per_s} - $rate) > 1e-6 * $rate;
			my %seen; my $distinct = !grep { !defined || $seen{$_}++ } @pin;
			print "$id: pinned @pin\n" if $c <= $ncpu ? !$distinct : grep { defined } @pin;
			print "$id: ran on @{ $e->{copy_cpus_at_start} }, pinned @pin\n"
				if $c <= $ncpu && "@{ $e->{copy_cpus_at_start} }" ne "@pin";
			print "$id: party A ran on $e->{cpus_a}, pinned @pin\n"
				if $c <= $ncpu && $e->{cpus_a} ne join(",", sort { $a <=> $b } @pin) &&
				   $c == 1;
		}
		my $rf = $ref{$r->{kind}};
		my $want = ($r->{summary}{round_trips_per_s} / $c) /
			   ($rf->{summary}{round_trips_per_s} / $rf->{copies});
		print "$id: efficiency $r->{efficiency}, want $want\n"
			if abs($r->{efficiency} - $want) > 1e-9 * $want;
		print "$id: rate a copy\n" if abs($r->{summary}{round_trips_per_s_per_copy} -
			$r->{summary}{round_trips_per_s} / $c) > 1e-6 * $r->{summary}{round_trips_per_s};
		print "$id: reference $r->{scaling_reference_copies}\n" unless $r->{scaling_reference_copies} == 1;
	}
	print "rows $n\n"' "$ncpu" <"$J")
is "$got" "rows 4" "each row's figures follow from its copies' (round trips, slowest time, pinning, efficiency)"
is "$("$JSONQ" "$J" .results[0].copies .results[0].efficiency .results[2].copies | tr '\n' ' ')" \
	"1 1.0 2 " "rows: the counts outermost; a count's own efficiency against itself is 1"
tmp_empty; ok $? "no FIFO or directory left"

"$P" latency --copies 1,2 --threads --loops 200 --repeat 1 --warmup 0 --format json -o "$J" 2>/dev/null
is "$?|$("$JSONQ" "$J" .results[1].repetitions[0].round_trips .results[1].mode | tr '\n' ' ')" \
	"0|400 thread " "--threads: a copy's party B is a thread"

"$P" latency --copies 1,2 --loops 200 --repeat 2 --warmup 0 >"$TEST_TMP/out" 2>/dev/null
grep -Eq '^anon x2 +1 B copies block ' "$TEST_TMP/out"; ok $? "text: the kind column says x2, the placement copies"
grep -Eq '^  anon 1 B block: x1 [0-9]+; x2 [0-9]+ \([0-9]+ a copy, [0-9]+%\)$' "$TEST_TMP/out"
ok $? "text: the scaling line, a copy's share and the efficiency"
grep -q "^scaling     round trips/s of every copy over the slowest copy's time; a copy's share; against linear scaling from 1 copy\$" \
	"$TEST_TMP/out"
ok $? "text: the scaling heading names the smallest count (1 copy)"
"$P" latency --copies 2 --loops 100 --repeat 1 --warmup 0 --format lava >"$TEST_TMP/lava" 2>/dev/null
grep -q 'TEST_CASE_ID=anon-x2-1B-copies-block-rate RESULT=pass' "$TEST_TMP/lava"
ok $? "lava: the rate of anon-x2-1B-copies-block"

"$P" latency --copies 1,2 --loops 100 --repeat 2 --warmup 0 --format json -o "$J" 2>/dev/null
"$P" plot --format gnuplot "$J" >"$TEST_TMP/plot" 2>"$TEST_TMP/err"
is "$?" 0 "plot of a latency --copies document: exit 0"
grep -q '^# pipebench plot: scaling chart of 1 latency document' "$TEST_TMP/plot"
ok $? "plot: the scaling chart, chosen by itself"
grep -q 'set ylabel "round-trip rate' "$TEST_TMP/plot"; ok $? "plot: the round-trip rate against the count"
grep -q 'title "anon process, linear"' "$TEST_TMP/plot"; ok $? "plot: a dashed line of linear scaling"

# A copy whose party B finds end of file at once, the copies' shared pipe
# (the 3rd made) and a copy's own (the 4th): exit 3, one line naming the
# row, the copy and what failed
if fault_layer; then
	# (which copy's B first reads an empty pipe, and which party sees it
	# first -- A's write EPIPE, A's read end of file, or B itself -- is the
	# scheduler's choice: 2000 round trips make it certain one does)
	faulty early-eof "$P" latency --copies 2 -n 2000 -r 1 -w 0 >/dev/null 2>"$TEST_TMP/err"
	is "$?|$(wc -l <"$TEST_TMP/err" | tr -d ' ')" "3|1" "a copy's party B ends early: exit 3, one line"
	grep -q '^pipebench latency: anon x2 copies block: copy [12]: party B ' "$TEST_TMP/err"
	ok $? "... naming the row, the copy and party B ($(cut -c1-100 "$TEST_TMP/err"))"
	PB_FAULT_PIPE_ENFILE=3 faulty "" "$P" latency --copies 2 -n 50 -r 1 -w 0 >/dev/null 2>"$TEST_TMP/err"
	is "$?|$(cat "$TEST_TMP/err")" \
		"3|pipebench latency: anon x2 copies block: pipe2: Too many open files in system" \
		"the copies' own pipe cannot be made: exit 3, one line naming it"
	PB_FAULT_PIPE_ENFILE=4 faulty "" "$P" latency --copies 2 -n 50 -r 1 -w 0 >/dev/null 2>"$TEST_TMP/err"
	is "$?|$(cat "$TEST_TMP/err")" \
		"3|pipebench latency: anon x2 copies block: copy 1: anon: pipe2: Too many open files in system" \
		"copy 1 cannot make its pair's pipe: exit 3, one line naming the copy"
	tmp_empty; ok $? "a copy that failed leaves nothing behind"
else
	skip 5 "no fault layer"
fi

for a in "--copies 0" "--copies 2,1" "--copies 2 --placement same" "--copies 2 --cpu 0" \
	 "--copies 2 --interval 10ms" "--copies 2 --precision 5"; do
	# shellcheck disable=SC2086
	"$P" latency $a >/dev/null 2>"$TEST_TMP/err"
	is "$?|$(wc -l <"$TEST_TMP/err" | tr -d ' ')" "2|1" "latency $a: exit 2, one line"
done
tmp_empty; ok $? "nothing left behind"
done_testing
