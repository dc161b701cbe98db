#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --mode io_uring of throughput and latency on this machine: where io_uring
# can be used its rows run with their bytes checked and carry the probe's
# answer (inline or io-wq, observed); under a seccomp filter that refuses
# io_uring_setup (tests/nouring, as containers do) the rows are skipped with
# the reason, the others still run, and a run of nothing but io_uring rows
# exits 4.  Nothing is left behind.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
P=$PIPEBENCH
J=$TEST_TMP/u.json
NOURING=$TESTS_BUILDDIR/nouring
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
perl -MJSON::PP -e 1 2>/dev/null || skip_all "perl's JSON::PP is not installed (Debian package perl)"

# Whether io_uring works here at all: a one-row run says ok or skip.
"$P" throughput --mode io_uring --kind anon --loops 10 --repeat 1 --warmup 0 --format json \
	-o "$J" 2>/dev/null
host=$("$JSONQ" "$J" .results[0].status)

# --- throughput
"$P" throughput --mode io_uring --verify all --kind anon,fifo,socketpair --size 100,4K --loops 50 --repeat 1 \
	--warmup 0 --format json -o "$J" 2>"$TEST_TMP/err"
rc=$?
if [ "$host" = ok ]; then
	is "$rc" 0 "throughput --mode io_uring, three kinds, two sizes: exit 0"
	got=$(perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>); my $n = 0;
		for my $r (@{ $d->{results} }) {
			$n++; my $id = "$r->{kind} $r->{size_bytes}";
			print "$id: mode $r->{mode}\n" unless $r->{mode} eq "io_uring";
			print "$id: status $r->{status}\n" unless $r->{status} eq "ok";
			my $e = $r->{repetitions}[0];
			print "$id: verified $e->{verified_loops} of 50\n" unless $e->{verified_loops} == 50;
			if ($r->{kind} eq "socketpair") {
				print "$id: a path on a socketpair\n" if defined $r->{io_uring_path};
			} else {
				print "$id: path ", $r->{io_uring_path} // "null", "\n"
					unless ($r->{io_uring_path} // "") =~ /^(inline|io-wq)$/;
				print "$id: path after splice\n"
					unless ($r->{io_uring_path_after_splice} // "") =~ /^(inline|io-wq)$/;
				print "$id: nowait not a boolean\n" unless JSON::PP::is_bool($r->{io_uring_nowait});
				print "$id: inline with $r->{io_uring_workers} workers\n"
					if $r->{io_uring_path} eq "inline" && $r->{io_uring_workers};
			}
		}
		print "rows $n\n"' <"$J")
	is "$got" "rows 6" "each row through io_uring, every loop's bytes checked, the probe's path on pipes"
	anon_path=$("$JSONQ" "$J" .results[0].io_uring_path)
else
	is "$rc" 4 "throughput --mode io_uring where io_uring is refused: exit 4"
	grep -q "io_uring unavailable" "$TEST_TMP/err"; ok $? "... saying io_uring is unavailable"
	anon_path=null
fi

# --- latency: rw and io_uring for every wait
"$P" latency --mode all --wait all --kind anon,fifo --loops 200 --repeat 1 --warmup 0 \
	--format json -o "$J" 2>"$TEST_TMP/err"
is "$?" 0 "latency --mode all --wait all: exit 0"
got=$(perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>); my @seq; my $host = $ARGV[0];
	print "params.io @{ $d->{params}{io} }\n" unless "@{ $d->{params}{io} }" eq "rw io_uring";
	for my $r (@{ $d->{results} }) {
		push @seq, "$r->{wait}/$r->{io}/$r->{kind}";
		my $id = $seq[-1];
		if ($r->{io} eq "io_uring" && $host ne "ok") {
			print "$id: $r->{status}\n" unless $r->{status} eq "skip" && $r->{reason} =~ /io_uring/;
			next;
		}
		do { print "$id: status $r->{status}\n"; next } unless $r->{status} eq "ok";
		print "$id: round trips $r->{repetitions}[0]{round_trips}\n"
			unless $r->{repetitions}[0]{round_trips} == 200;
		if ($r->{io} eq "io_uring") {
			print "$id: path\n" unless ($r->{io_uring_path} // "") =~ /^(inline|io-wq)$/;
		} else {
			print "$id: probe fields on an rw row\n" if exists $r->{io_uring_path};
		}
	}
	print "@seq\n"' "$host" <"$J")
want="block/rw/anon block/rw/fifo block/io_uring/anon block/io_uring/fifo poll/rw/anon poll/rw/fifo"
want="$want poll/io_uring/anon poll/io_uring/fifo spin/rw/anon spin/rw/fifo spin/io_uring/anon spin/io_uring/fifo"
is "$got" "$want" "latency rows: waits, then rw before io_uring, kinds innermost; every round trip made"
if [ "$host" = ok ]; then
	is "$("$JSONQ" "$J" .results[2].io_uring_path)" "$anon_path" \
		"latency and throughput observe the same io_uring path on anonymous pipes"
else
	skip 1 "latency and throughput observe the same io_uring path: io_uring refused here"
fi
"$P" latency --mode all --loops 100 --repeat 1 --warmup 0 >"$TEST_TMP/out" 2>/dev/null
grep -q '^kind .* wait  io  ' "$TEST_TMP/out"; ok $? "text: an io column with --mode"
grep -Eq '^anon +1 B any +block io_uring ' "$TEST_TMP/out"; ok $? "text: the io_uring row"
if [ "$host" = ok ]; then
	grep -Eq '^io_uring +anon: (inline|io-wq)' "$TEST_TMP/out"; ok $? "text: the probe's io_uring line"
else
	skip 1 "text: the probe's io_uring line: io_uring refused here"
fi
"$P" latency --loops 100 --repeat 1 --warmup 0 >"$TEST_TMP/out" 2>/dev/null
grep -q ' io  ' "$TEST_TMP/out"; is "$?" 1 "text: no io column without --mode"
"$P" latency --mode io_uring --loops 100 --repeat 1 --warmup 0 --format lava >"$TEST_TMP/lava" 2>/dev/null
if [ "$host" = ok ]; then
	grep -q 'TEST_CASE_ID=anon-1B-any-block-io_uring-p50 RESULT=pass' "$TEST_TMP/lava"
	ok $? "lava: the io_uring row's case names its mode"
else
	grep -q 'TEST_CASE_ID=anon-1B-any-block-io_uring-p50 RESULT=skip' "$TEST_TMP/lava"
	ok $? "lava: the io_uring row's case is skipped"
fi

# --- io_uring refused by seccomp (a container's default profile)
if "$NOURING" true 2>/dev/null; then
	"$NOURING" "$P" throughput --mode io_uring --loops 20 --repeat 1 --warmup 0 >/dev/null \
		2>"$TEST_TMP/err"
	is "$?|$(wc -l <"$TEST_TMP/err" | tr -d ' ')" "4|1" "seccomp: throughput --mode io_uring exits 4, one line"
	grep -q "seccomp" "$TEST_TMP/err"; ok $? "... naming io_uring's refusal (seccomp)"
	"$NOURING" "$P" throughput --mode rw,io_uring --loops 20 --repeat 1 --warmup 0 --format json \
		-o "$J" 2>/dev/null
	is "$?|$("$JSONQ" "$J" .results[0].status .results[1].status | tr '\n' ' ')" "0|ok skip " \
		"seccomp: throughput rw still runs, the io_uring row is skipped"
	"$NOURING" "$P" latency --mode all --loops 50 --repeat 1 --warmup 0 --format json -o "$J" \
		2>/dev/null
	is "$?|$("$JSONQ" "$J" .results[0].status .results[1].status | tr '\n' ' ')" "0|ok skip " \
		"seccomp: latency rw still runs, the io_uring row is skipped"
	"$JSONQ" "$J" .results[1].reason | grep -q "refused by a seccomp filter"
	ok $? "... with the reason"
	"$NOURING" "$P" latency --mode io_uring --loops 50 --repeat 1 --warmup 0 >/dev/null \
		2>"$TEST_TMP/err"
	is "$?|$(wc -l <"$TEST_TMP/err" | tr -d ' ')" "4|1" "seccomp: latency --mode io_uring alone exits 4, one line"
	"$NOURING" -e 38 "$P" latency --mode io_uring --loops 50 --repeat 1 --warmup 0 --format json \
		-o "$J" 2>/dev/null
	"$JSONQ" "$J" .results[0].reason | grep -q "no io_uring"
	ok $? "ENOSYS: the reason says this kernel has no io_uring"
else
	skip 7 "seccomp refusals: tests/nouring cannot install its filter here"
fi
tmp_empty; ok $? "nothing left behind"
done_testing
