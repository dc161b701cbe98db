#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The documents' readers, word for word: compare (text, markdown, CSV and
# JSON), grid (markdown and HTML) and plot (the gnuplot script) over a fixed
# corpus, each output checked whole against its reviewed copy in
# tests/golden/expect/.  The corpus is eleven documents and two LAVA logs pipebench wrote
# (tests/golden/*.json) and the variants tests/golden/vary.pl makes of them
# (slower, faster, noisy, one repetition, a row or a check gone, a verdict
# changed, another host): what the readers do with every kind of change,
# every format and option, shows as a difference a test sees.  The compare
# JSON's `system` and `run` (this machine, now) are left out.
#
# After a deliberate change of what these commands print, remake the copies
# and read their diff before committing it:
#   PB_GOLDEN_UPDATE=1 make check TESTS=tests/golden.sh
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
perl -MJSON::PP -e 1 2>/dev/null || skip_all "perl's JSON::PP is not installed (Debian package perl)"
G=${TESTS_SRCDIR:-$(dirname "$0")}/golden
E=$G/expect
P=$PIPEBENCH
LC_ALL=C; export LC_ALL
D=$TEST_TMP/docs
mkdir "$D" && cd "$D" || exit 99

# ---- the corpus.  v OUT IN CHANGE...: a variant (tests/golden/vary.pl).
v() { o=$1 i=$2; shift 2; perl "$G/vary.pl" "$i" "$o" "$@" || exit 99; }
base=$G/tp.json
st="stability=stable"
sp="spread=rate_bytes_per_s:1 spread=ns_per_syscall:1 spread=tt_ns:1"
# shellcheck disable=SC2086 # the changes' words
{
v tp0.json "$base" $st $sp
v tp-same.json tp0.json
v tp-slow.json tp0.json scale=rate_bytes_per_s:0.85 scale=ns_per_syscall:1.18 scale=tt_ns:1.18
v tp-slight.json tp0.json scale=rate_bytes_per_s:0.97 scale=ns_per_syscall:1.03 scale=tt_ns:1.03
v tp-fast.json tp0.json scale=rate_bytes_per_s:1.2 scale=ns_per_syscall:0.83 scale=tt_ns:0.83
v tp-1rep.json tp-slow.json reps=1
v tp-noisy.json tp0.json "stability=noisy:rsd 12% over 3 repetitions" \
	spread=rate_bytes_per_s:12 spread=ns_per_syscall:12 scale=rate_bytes_per_s:0.9:0
v tp-lost.json tp0.json droprow=3
v tp-host.json tp-slow.json set=run.hostname:edge set=run.kernel.release:6.1.0-41-amd64 \
	set=system.hostname:edge set=system.kernel_release:6.1.0-41-amd64
v tp-row0.json tp0.json scale=rate_bytes_per_s:0.5:0 scale=ns_per_syscall:2:0 scale=tt_ns:2:0
v tp-failed.json tp-slow.json set=exit_status:3 "set=errors:anon: write: EIO"
# --profile on both sides, 2,000 samples each: the time in timestamps and
# in syscall entry grew, copying's share fell, memory's moved within what
# sampling explains
# what makes documents not comparable as they are: other parameters (--force
# compares per unit of work), another FIFO directory, a machine in another
# state, no results at all; and a fleet of six, by user, capabilities and
# version
v tp-loops.json tp-slow.json set=params.loops:400 scale=tt_ns:2 scale=bytes:2 scale=syscalls:2
v tp-dir.json tp-slow.json set=params.dir:/var/tmp
v tp-smt.json tp-slow.json set=run.state.smt.active:true set=run.state.smt.control:on
v tp-none.json tp0.json droprow=0 droprow=0 droprow=0 droprow=0
for i in 1 2 3 4 5 6; do
	v tp-u$i.json tp-slight.json set=run.user.euid:$((999 + i)) set=run.pipebench.version:0.0.$i \
		"set=run.user.capabilities:CAP_$i"
done
# capabilities lists: 4 fewer (all named), 5 fewer (4 named and 1 more),
# 2 more, 1 fewer and 1 more, none at all
v tp-c4.json tp-slight.json capdrop=4
v tp-c5.json tp-slight.json capdrop=5
v tp-c+.json tp-slight.json capadd=CAP_PB_ONE capadd=CAP_PB_TWO
v tp-c1.json tp-slight.json capdrop=1 capadd=CAP_PB_ONE
v tp-c0.json tp-slight.json "set=run.user.capabilities:[]"
v tpp0.json "$G/tpp.json" $st $sp rset=profile.samples:2000 \
	rset=profile.categories.timestamps.share:0.02 rset=profile.categories.timestamps.ns_per_syscall:13 \
	rset=profile.categories.syscall.share:0.1 rset=profile.categories.syscall.ns_per_syscall:66 \
	rset=profile.categories.copy.share:0.4 rset=profile.categories.copy.ns_per_syscall:263 \
	rset=profile.categories.memory.share:0.2 rset=profile.categories.memory.ns_per_syscall:131
v tpp-slow.json "$G/tpp2.json" $st $sp scale=rate_bytes_per_s:0.8 scale=ns_per_syscall:1.25 scale=tt_ns:1.25 \
	rset=profile.samples:2000 \
	rset=profile.categories.timestamps.share:0.31 rset=profile.categories.timestamps.ns_per_syscall:260 \
	rset=profile.categories.syscall.share:0.15 rset=profile.categories.syscall.ns_per_syscall:126 \
	rset=profile.categories.copy.share:0.25 rset=profile.categories.copy.ns_per_syscall:210 \
	rset=profile.categories.memory.share:0.21 rset=profile.categories.memory.ns_per_syscall:176
lsp="spread=rtt_mean_ns:2 spread=rtt_p50_ns:2 spread=rtt_p90_ns:2 spread=rtt_p99_ns:2 spread=round_trips_per_s:2"
v lat0.json "$G/lat.json" $st $lsp
v lat-slow.json lat0.json scale=rtt_mean_ns:1.3 scale=rtt_p50_ns:1.3 scale=rtt_p90_ns:1.3 \
	scale=rtt_p99_ns:1.3 scale=round_trips_per_s:0.77
v msg0.json "$G/msg.json" $st spread=rate_messages_per_s:2 spread=ns_per_message:2 spread=tt_ns:2
v msg-slow.json msg0.json scale=rate_messages_per_s:0.8 scale=ns_per_message:1.25 scale=tt_ns:1.25
# a report: every measuring part stable, its spread known; then slower in
# two parts, a check failing in a third, and a part gone
v rep0.json "$G/rep.json" in=throughput_64k $st $sp in=latency $st $lsp \
	in=messaging $st spread=rate_messages_per_s:2 spread=rate_bytes_per_s:2
v rep-slow.json rep0.json in=throughput_64k scale=rate_bytes_per_s:0.8:0 scale=ns_per_syscall:1.25:0 \
	in=latency scale=rtt_p50_ns:1.3 scale=rtt_mean_ns:1.3 scale=round_trips_per_s:0.77 \
	in=conformance check=CRE-01:fail check=FIFO-03:error
v rep-less.json rep0.json droppart=messaging in=throughput_64k droprow=1
# --copies 1,2 (the scaling chart), latency --interval (the intervals
# chart), timestamps (anonymous pipes' verdict thawed) and o_noatime
v tpc0.json "$G/tpc.json" $st $sp
v tpc-slow.json tpc0.json scale=rate_bytes_per_s:0.7:1 scale=ns_per_syscall:1.4:1 scale=tt_ns:1.4:1
v lativ0.json "$G/lativ.json" $st $lsp
v ts0.json "$G/ts.json"
v ts-thaw.json ts0.json set=summary.anon:updated rset=verdict:updated
v ona0.json "$G/ona.json" $st spread=tt_ns:2 spread=tw_ns:2 spread=tr_ns:2
v ona-slow.json ona0.json scale=tt_ns:1.3 scale=tw_ns:1.3 scale=tr_ns:1.3
v conf0.json "$G/conf.json"
# LAVA logs (conformance and throughput --format lava) as grid reads them,
# and one whose CRE-01 failed and anon-4096B-rate halved
sed -e 's/TEST_CASE_ID=CRE-01 RESULT=pass/TEST_CASE_ID=CRE-01 RESULT=fail/' "$G/conf.lava" >conf-fail.lava
cp "$G/conf.lava" "$G/tp.lava" .
sed -e 's/\(TEST_CASE_ID=anon-4096B-rate RESULT=pass MEASUREMENT=\)\([0-9]*\)/\1\2e-1/' "$G/tp.lava" >tp-slow.lava
# odd LAVA measurements: past the last prefix (T), without units, a
# one-letter result
{
	echo '<LAVA_SIGNAL_TESTSET START throughput>'
	echo '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-100B-rate RESULT=pass MEASUREMENT=5e21 UNITS=B/s>'
	echo '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-100B-syscall RESULT=pass MEASUREMENT=2.5e15 UNITS=ns>'
	echo '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-100B-count RESULT=pass MEASUREMENT=1234.5>'
	echo '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-100B-stable RESULT=x>'
	echo '<LAVA_SIGNAL_TESTSET STOP>'
} >odd.lava
mkdir sub && cp "$G/conf.lava" sub/
# the same documents 256 times (grid's most), and once more
set --
i=0; while [ $i -lt 256 ]; do set -- "$@" tp-slight.json; i=$((i + 1)); done
printf '%s\n' "$@" >max.list
{ cat max.list; echo tp-slight.json; } >max-over.list
v conf-fail.json conf0.json check=CRE-01:fail check=RD-01:error check=CRE-05:pass
v conf-lost.json conf0.json dropcheck=FIFO-01 check=WR-02:skip
} 2>"$TEST_TMP/vary.err"

# ---- the cases: NAME|COMMAND AND ARGUMENTS (words split on spaces)
cases='
c-same|compare tp0.json tp-same.json
c-slow|compare tp0.json tp-slow.json
c-slow-md|compare --format markdown tp0.json tp-slow.json
c-slow-csv|compare --format csv tp0.json tp-slow.json
c-slow-json|compare --format json tp0.json tp-slow.json
c-many|compare tp0.json tp-slight.json tp-fast.json tp-1rep.json tp-noisy.json
c-many-md|compare --format markdown tp0.json tp-slight.json tp-fast.json tp-1rep.json tp-noisy.json
c-many-csv|compare --format csv tp0.json tp-slight.json tp-fast.json tp-1rep.json tp-noisy.json
c-row0|compare tp0.json tp-row0.json
c-lost|compare tp0.json tp-lost.json
c-lost-partial|compare --allow-partial tp0.json tp-lost.json
c-failed|compare tp0.json tp-failed.json
c-failed-force|compare --force tp0.json tp-failed.json
c-failed-partial|compare --allow-partial tp0.json tp-failed.json
c-failed-base|compare --allow-partial tp-failed.json tp0.json tp-failed.json
c-threshold|compare --threshold 20 tp0.json tp-slow.json tp-slight.json
c-alpha|compare --alpha 0.001 tp0.json tp-slight.json
c-all|compare --all-metrics tp0.json tp-slow.json
c-metrics|compare --metrics ns_per_syscall tp0.json tp-slow.json tp-fast.json
c-strict|compare --strict tp0.json tp-1rep.json tp-noisy.json
c-host|compare tp0.json tp-host.json tp-slow.json
c-host-md|compare --format markdown tp0.json tp-host.json tp-slow.json
c-label|compare --label before,after tp0.json tp-slow.json
c-profile|compare tpp0.json tpp-slow.json
c-profile-json|compare --format json tpp0.json tpp-slow.json
c-profile-two|compare tpp0.json tpp-slow.json tpp0.json
c-profile-md|compare --format markdown tpp0.json tpp-slow.json
c-lat|compare lat0.json lat-slow.json
c-lat-md|compare --format markdown lat0.json lat-slow.json
c-lat-json|compare --format json lat0.json lat-slow.json
c-msg|compare msg0.json msg-slow.json
c-msg-csv|compare --format csv msg0.json msg-slow.json
c-conf|compare conf0.json conf-fail.json conf-lost.json
c-conf-md|compare --format markdown conf0.json conf-fail.json conf-lost.json
c-conf-csv|compare --format csv conf0.json conf-fail.json conf-lost.json
c-conf-json|compare --format json conf0.json conf-fail.json conf-lost.json
c-mixed|compare tp0.json lat0.json
c-loops|compare tp0.json tp-loops.json
c-loops-force|compare --force tp0.json tp-loops.json
c-loops-force-all|compare --force --all-metrics tp0.json tp-loops.json
c-loops-md|compare --force --format markdown tp0.json tp-loops.json
c-dir|compare tp0.json tp-dir.json
c-smt|compare tp0.json tp-smt.json
c-smt-force|compare --force tp0.json tp-smt.json
c-none|compare tp0.json tp-none.json
c-none-partial|compare --allow-partial tp0.json tp-none.json
c-none-base|compare tp-none.json tp0.json
c-fleet|compare tp0.json tp-u1.json tp-u2.json tp-u3.json tp-u4.json tp-u5.json tp-u6.json
c-fleet-md|compare --format markdown tp0.json tp-u1.json tp-u2.json tp-u3.json tp-u4.json tp-u5.json tp-u6.json
c-caps|compare tp0.json tp-c4.json tp-c5.json tp-c+.json tp-c1.json tp-c0.json
c-caps-md|compare --format markdown tp0.json tp-c5.json tp-c0.json
c-fleet-two|compare tp0.json tp-u1.json tp0.json
c-lost-many|compare tp0.json tp-slow.json tp-lost.json
c-back|compare conf-fail.json conf0.json
c-tpc|compare tpc0.json tpc-slow.json
c-lativ|compare lativ0.json lat0.json
c-ts|compare ts0.json ts-thaw.json
c-ts-json|compare --format json ts0.json ts-thaw.json
c-ona|compare ona0.json ona-slow.json
c-ona-md|compare --format markdown ona0.json ona-slow.json
c-label-count|compare --label one tp0.json tp-slow.json
c-metric-unknown|compare --metrics no_such_metric tp0.json tp-slow.json
c-rep|compare rep0.json rep-slow.json rep-less.json
c-rep-md|compare --format markdown rep0.json rep-slow.json rep-less.json
c-rep-csv|compare --format csv rep0.json rep-slow.json
c-rep-json|compare --format json rep0.json rep-slow.json
c-rep-tp|compare rep0.json tp0.json
g-tp|grid --format markdown tp0.json tp-slow.json tp-host.json tp-lost.json
g-tp-html|grid tp0.json tp-slow.json tp-host.json tp-lost.json
g-conf|grid --format markdown conf0.json conf-fail.json conf-lost.json
g-conf-html|grid conf0.json conf-fail.json conf-lost.json
g-mixed|grid --format markdown --label a,b,c,d tp0.json lat0.json msg0.json conf-fail.json
g-threshold|grid --format markdown --threshold 20 tp0.json tp-slow.json tp-slight.json
g-rep|grid --format markdown rep0.json rep-slow.json rep-less.json
g-fleet|grid --format markdown tp0.json tp-u1.json tp-u2.json tp-loops.json tp-none.json
g-lava|grid --format markdown conf0.json conf.lava conf-fail.lava
g-lava-html|grid conf.lava conf-fail.lava tp.lava tp-slow.lava
g-lava-tp|grid --format markdown --label json,lava,slower tp0.json tp.lava tp-slow.lava
g-one|grid --format markdown tp0.json
g-one-html|grid tp0.json
g-none|grid --format markdown
g-first-bad|grid --format markdown conf-fail.json conf0.json conf-fail.json
g-odd|grid --format markdown tp.lava odd.lava
g-odd-html|grid odd.lava tp.lava
g-path|grid --format markdown ./conf.lava sub/conf.lava
g-tick|grid --format markdown --label a`b,c|d,e_f tp0.json tp-slow.json tp-fast.json
g-max|grid --format markdown @max.list
g-max-over|grid --format markdown @max-over.list
g-ts|grid --format markdown ts0.json ts-thaw.json ona0.json ona-slow.json
g-label-count|grid --format markdown --label a tp0.json tp-slow.json
p-tp|plot --format gnuplot tp0.json
p-tpc|plot --format gnuplot tpc0.json
p-tpc-slow|plot --format gnuplot --chart scaling tpc-slow.json
p-scaling-two|plot --format gnuplot --chart scaling tpc0.json tpc-slow.json
p-lativ|plot --format gnuplot lativ0.json
p-lativ-cdf|plot --format gnuplot --chart cdf lativ0.json
p-ona|plot --format gnuplot ona0.json ona-slow.json
p-mixed|plot --format gnuplot tp0.json lat0.json
p-cdf-tp|plot --format gnuplot --chart cdf tp0.json
p-conf|plot --format gnuplot conf0.json conf-fail.json conf-lost.json
p-ts|plot --format gnuplot ts0.json
p-rep|plot --format gnuplot rep0.json rep-slow.json
p-rep-lat|plot --format gnuplot --part latency rep0.json rep-slow.json
p-rep-conf|plot --format gnuplot --part conformance rep0.json rep-slow.json rep-less.json
p-rep-msg|plot --format gnuplot --part messaging rep0.json rep-less.json
p-tp2|plot --format gnuplot tp0.json tp-slow.json tp-host.json
p-change|plot --format gnuplot --chart change tp0.json tp-slow.json tp-fast.json
p-lat|plot --format gnuplot lat0.json
p-lat2|plot --format gnuplot --label fast,slow lat0.json lat-slow.json
p-lat-bars|plot --format gnuplot --chart bars lat0.json lat-slow.json
p-msg|plot --format gnuplot msg0.json msg-slow.json
p-metric|plot --format gnuplot --metric ns_per_syscall --title per-call tp0.json tp-slow.json
'

# run NAME WORDS: the command's standard output, standard error and exit
# status in one text; compare's JSON without `system`, keys sorted.
run_case() {
	name=$1; shift
	# a word @FILE stands for the words in FILE, one a line
	# shellcheck disable=SC2046 # the words, split
	set -- $(for w in "$@"; do case $w in @*) cat "${w#@}" ;; *) printf '%s\n' "$w" ;; esac; done)
	# shellcheck disable=SC2086 # the case's words
	"$P" $* >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	case "$*" in
	*"--format json"*)
		perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); delete @$d{qw(system run)};
			print JSON::PP->new->utf8->canonical->indent->indent_length(1)->space_after->encode($d)' <"$TEST_TMP/out" \
			>"$TEST_TMP/out.n" 2>&1 && mv "$TEST_TMP/out.n" "$TEST_TMP/out" ;;
	esac
	{ cat "$TEST_TMP/out"; echo "--- stderr"; cat "$TEST_TMP/err"; echo "--- exit $rc"; } \
		>"$TEST_TMP/got"
}

[ -s "$TEST_TMP/vary.err" ] && diag "vary.pl: $(head -c 300 "$TEST_TMP/vary.err")"
printf '%s\n' "$cases" | while IFS='|' read -r name words; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086
	run_case "$name" $words
	if [ -n "${PB_GOLDEN_UPDATE:-}" ]; then
		mkdir -p "$E" && cp "$TEST_TMP/got" "$E/$name"
	fi
	if [ ! -f "$E/$name" ]; then
		echo "not ok - $name: no tests/golden/expect/$name (PB_GOLDEN_UPDATE=1 makes it)"
	elif cmp -s "$TEST_TMP/got" "$E/$name"; then
		echo "ok - $name: $words"
	else
		echo "not ok - $name: $words"
		diff -u "$E/$name" "$TEST_TMP/got" | head -n 30 | sed 's/^/# /'
	fi
done >"$TEST_TMP/tap"
# (numbered here: the loop ran in a subshell)
while IFS= read -r line; do
	case $line in
	"ok - "*) ok 0 "${line#ok - }" ;;
	"not ok - "*) ok 1 "${line#not ok - }" ;;
	*) echo "$line" ;;
	esac
done <"$TEST_TMP/tap"
# every copy in expect/ is a case's
for f in "$E"/*; do
	[ -f "$f" ] || continue
	printf '%s\n' "$cases" | grep -q "^${f##*/}|"
	ok $? "expect/${f##*/} belongs to a case"
done
cd / && tmp_empty; ok $? "nothing left behind"
done_testing
