#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --copies: N independent copies of a row at once, for each N of the list.
# The document's figures follow from each copy's (bytes summed, the slowest
# copy's TT, the rate a copy, the efficiency against the smallest N); each
# copy is pinned to a CPU of its own when they fit; text, CSV and LAVA
# carry the rows; bad lists are one line and exit 2; nothing is left.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
P=$PIPEBENCH
J=$TEST_TMP/copies.json
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
perl -MJSON::PP -e 1 2>/dev/null || skip_all "perl's JSON::PP is not installed (Debian package perl)"
ncpu=$(nproc)

# A warmup repetition too: its copies' rates are kept nowhere (it is no
# repetition of the row's), the measured ones each in their own place.
"$P" throughput --copies 1,2 --kind anon,fifo --size 100,4K --loops 200 --repeat 2 --warmup 1 \
	--format json -o "$J" 2>/dev/null
is "$?" 0 "throughput --copies 1,2, anon and fifo, two sizes, a warmup: exit 0"
got=$(perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>); my (@bad, %ref); my $n = 0;
	my $ncpu = $ARGV[0]; my $loops = $d->{params}{loops};
	print "params.copies @{ $d->{params}{copies} }\n" unless "@{ $d->{params}{copies} }" eq "1 2";
	for my $r (@{ $d->{results} }) {
		$n++;
		my $id = "$r->{kind} $r->{size_bytes} x$r->{copies}";
		$ref{"$r->{kind} $r->{size_bytes}"} //= $r;
		for my $e (@{ $r->{repetitions} }) {
			my @rt = @{ $e->{copy_rates_bytes_per_s} }; my @pin = @{ $e->{copy_pinned_cpus} };
			print "$id: ", scalar(@rt), " copy rates\n" unless @rt == $r->{copies};
			# every copy moved the same bytes: bytes = copies x one copy
			print "$id: bytes $e->{bytes}\n" if $e->{bytes} % $r->{copies};
			# and made the same calls: each count a multiple of the copies,
			# summed (not taken away), syscalls their sum
			print "$id: calls $e->{write_calls}/$e->{read_calls}/$e->{syscalls}\n"
				unless $e->{write_calls} > 0 && $e->{read_calls} > 0 &&
				       $e->{write_calls} % $r->{copies} == 0 &&
				       $e->{read_calls} % $r->{copies} == 0 &&
				       $e->{syscalls} == $e->{write_calls} + $e->{read_calls};
			# the slowest copy sets TT: its rate is the lowest, and rate = bytes / TT
			my $per = $e->{bytes} / $r->{copies}; my ($min) = sort { $a <=> $b } @rt;
			my $slow = $per * 1e9 / $e->{tt_ns};
			print "$id: slowest copy $min, TT says $slow\n" if abs($min - $slow) > 1e-6 * $slow;
			my %seen; my $distinct = !grep { !defined || $seen{$_}++ } @pin;
			print "$id: pinned @pin\n" if $r->{copies} <= $ncpu ? !$distinct : grep { defined } @pin;
			print "$id: ran on @{ $e->{copy_cpus_at_start} }, pinned @pin\n"
				if $r->{copies} <= $ncpu && "@{ $e->{copy_cpus_at_start} }" ne "@pin";
		}
		my $rf = $ref{"$r->{kind} $r->{size_bytes}"};
		my $want = ($r->{summary}{rate_bytes_per_s} / $r->{copies}) /
			   ($rf->{summary}{rate_bytes_per_s} / $rf->{copies});
		print "$id: efficiency $r->{efficiency}, want $want\n"
			if abs($r->{efficiency} - $want) > 1e-9 * $want;
		print "$id: rate a copy\n" if abs($r->{summary}{rate_per_copy_bytes_per_s} -
			$r->{summary}{rate_bytes_per_s} / $r->{copies}) > 1e-6 * $r->{summary}{rate_bytes_per_s};
		print "$id: reference $r->{scaling_reference_copies}\n" unless $r->{scaling_reference_copies} == 1;
	}
	print "rows $n\n"' "$ncpu" <"$J")
is "$got" "rows 8" "each row's figures follow from its copies' (bytes, slowest TT, pinning, efficiency)"
is "$("$JSONQ" "$J" .results[0].copies .results[0].efficiency .results[4].copies | tr '\n' ' ')" \
	"1 1.0 2 " "rows: the counts outermost; a count's own efficiency against itself is 1"
tmp_empty; ok $? "no FIFO or directory left"

"$P" throughput --copies 1-ncpu --loops 100 --repeat 1 --warmup 0 --format json -o "$J" 2>/dev/null
is "$?|$("$JSONQ" "$J" '.results#')" "0|$ncpu" "--copies 1-ncpu: a row for each count up to $ncpu"

"$P" throughput --copies 1,2 --loops 200 --repeat 2 --warmup 0 >"$TEST_TMP/out" 2>/dev/null
grep -Eq '^anon x2 +100 B ' "$TEST_TMP/out"; ok $? "text: the kind column says x2"
grep -Eq '^  anon 100 B: x1 [0-9.]+; x2 [0-9.]+ \([0-9.]+ a copy, [0-9]+%\)$' "$TEST_TMP/out"
ok $? "text: the scaling line, a copy's share and the efficiency"

"$P" throughput --copies 1,2 --loops 100 --repeat 2 --warmup 0 --format csv >"$TEST_TMP/csv" 2>/dev/null
head -1 "$TEST_TMP/csv" | grep -q '^kind,mode,size_bytes,copies,pipe_size_bytes,repetition,'
ok $? "csv: the copies column after the size"
is "$(cut -d, -f4 "$TEST_TMP/csv" | sed 1d | tr '\n' ' ')" "1 1 2 2 " "csv: a row per repetition of each count"
"$P" throughput --copies 2 --loops 100 --repeat 1 --warmup 0 --format lava >"$TEST_TMP/lava" 2>/dev/null
grep -q 'TEST_CASE_ID=anon-100B-x2-rate RESULT=pass' "$TEST_TMP/lava"
ok $? "lava: the rate of anon-100B-x2"

# A copy whose pipe misbehaves: the run stops there, the one line naming
# the row, the copy and what the kernel did (as without --copies: exit 3)
if fault_layer; then
	faulty lost-bytes "$P" throughput --copies 2 --loops 100 --repeat 1 --warmup 0 \
		>/dev/null 2>"$TEST_TMP/err"
	is "$?|$(wc -l <"$TEST_TMP/err" | tr -d ' ')" "3|1" "a copy's pipe loses bytes: exit 3, one line"
	grep -q '^pipebench throughput: anon 100 B x2: copy 1: loop 0: wrote [0-9]* bytes but read [0-9]*: the kernel lost or invented data$' "$TEST_TMP/err"
	ok $? "... naming the row, the copy and the bytes"
	faulty write-zero "$P" throughput --copies 2 --kind fifo --loops 100 --repeat 1 --warmup 0 \
		>/dev/null 2>"$TEST_TMP/err"
	is "$?|$(wc -l <"$TEST_TMP/err" | tr -d ' ')" "3|1" "a copy's write returns 0: exit 3, one line"
	grep -q '^pipebench throughput: fifo 100 B x2: copy 1: loop 0: write() returned 0 instead of -1 with EAGAIN' "$TEST_TMP/err"
	ok $? "... naming the row, the copy and the call"
	# the harness's own pipes: the copies' shared ones (the 3rd pipe made),
	# then one copy 1 makes itself (the 5th): exit 3, named
	PB_FAULT_PIPE_ENFILE=3 faulty "" "$P" throughput --copies 2 --loops 100 --repeat 1 \
		--warmup 0 >/dev/null 2>"$TEST_TMP/err"
	is "$?|$(cat "$TEST_TMP/err")" "3|pipebench throughput: anon 100 B x2: pipe2: Too many open files in system" \
		"the copies' own pipe cannot be made: exit 3, one line naming it"
	PB_FAULT_PIPE_ENFILE=5 faulty "" "$P" throughput --copies 2 --loops 100 --repeat 1 \
		--warmup 0 >/dev/null 2>"$TEST_TMP/err"
	is "$?|$(sed -E 's/copy 1: (pipe2|engine):/copy 1: WHAT:/' "$TEST_TMP/err")" \
		"3|pipebench throughput: anon 100 B x2: copy 1: WHAT: Too many open files in system" \
		"copy 1 cannot make its own pipe: exit 3, one line naming the copy and the call"
	tmp_empty; ok $? "a copy that failed leaves nothing behind"
else
	skip 7 "no fault layer"
fi

for a in "--copies 0" "--copies 2,1" "--copies 1-" "--copies x" "--copies 1-2000" \
	 "--copies 1,2 --mode splice" "--copies 2 --precision 5" "--copies 2 --writers 2" \
	 "--copies 2 --format seed"; do
	# shellcheck disable=SC2086
	"$P" throughput $a >/dev/null 2>"$TEST_TMP/err"
	is "$?|$(wc -l <"$TEST_TMP/err" | tr -d ' ')" "2|1" "throughput $a: exit 2, one line"
done
tmp_empty; ok $? "nothing left behind"
done_testing
