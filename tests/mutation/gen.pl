#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-or-later
# The mutant generator of `make mutation-sample` (HACKING, "Mutation testing").
#
#   gen.pl --count FILE...             points per rule and file
#   gen.pl --list FILE...              every point, one a line
#   gen.pl --sample N --seed S FILE... N points drawn uniformly from all
#   gen.pl --point TAG FILE...         the point whose tag is TAG
#   gen.pl --apply POINT               make the point's change in its file
#   gen.pl --revert POINT              undo it (the file is byte for byte back)
#
# A point is one line of seven tab-separated fields:
#   tag  file  line  column  rule  before  after
# line and column (1-based, bytes) say where `before` starts in the
# unmutated file; `before` and `after` write a newline, a tab and a
# backslash as \n, \t and \\.  The tag is a hash of the file, the rule, the
# text of the source line, the column in it, `before` and `after` (and which
# copy of an identical line it is), so it survives code moving up or down;
# tests/mutation/equivalent.tab names points by tag.  --apply and --revert
# take the point as one argument (or, with "-", the first line of stdin) and
# refuse when the file does not hold the expected text there.
#
# Rules, applied to C tokens (comments, strings, character constants,
# preprocessor lines, #if 0 and DEBUG blocks and assert() are never mutated;
# neither are the sizes in array declarations):
#   rel         < <= > >=: the boundary moved (< to <=) and the sense turned
#               (< to >=)
#   eq          == to != and back
#   logic       && to || and back
#   logic-drop  one operand of && or || dropped, with the operator
#   const       an integer constant plus one and minus one, but for a wait's
#               bound of 10 ms or more (%TIME_ARG) and an argument the call
#               ignores (fcntl's third with F_GET*, open's mode without
#               O_CREAT or O_TMPFILE): moved by one, nothing can tell; a
#               decimal power of ten of 1000 or more (a unit or a scale)
#               times ten and over ten instead, and 1024, 1048576 and
#               1073741824 (binary units) as 1000, 1000000 and 1000000000
#   errno       an errno name to the next in its class (%ERRNO_CLASS below)
#   neg         the condition of an if or while negated: if (x) to if (!(x))
#   call-del    a statement that is only a call, deleted
#   break-del   a break deleted
#   arith       * to /, / to *, + to -, - to + (and the compound forms)
#   ratio       the operands of a / swapped: a / b to b / a
use strict;
use warnings;
no warnings "portable";   # hex() of 64-bit constants (skipped past 2**52 anyway)

my @RULES = qw(rel eq logic logic-drop const errno neg call-del break-del arith ratio);

# Names in one class are plausible slips for each other and have different
# values on Linux (never EAGAIN/EWOULDBLOCK, ENOTSUP/EOPNOTSUPP,
# EDEADLK/EDEADLOCK: the same number).  Each name becomes the next one.
my @ERRNO_CLASSES = (
	[qw(EAGAIN EINTR EPIPE EIO EBADF ESPIPE)],
	[qw(ENOMEM EMFILE ENFILE ENOSPC E2BIG)],
	[qw(EINVAL ERANGE EOVERFLOW ENAMETOOLONG)],
	[qw(EPERM EACCES EROFS)],
	[qw(ENOENT ENXIO ENODEV ENOTDIR)],
	[qw(ETIMEDOUT ECANCELED EPROTO EBADMSG ENODATA)],
	[qw(EEXIST EBUSY EXDEV ECONNRESET)],
);
my %ERRNO_NEXT;
for my $c (@ERRNO_CLASSES) {
	$ERRNO_NEXT{ $c->[$_] } = $c->[ ($_ + 1) % @$c ] for 0 .. $#$c;
}

my %KEYWORD = map { $_ => 1 } qw(auto break case char const continue default do
	double else enum extern float for goto if inline int long register restrict
	return short signed sizeof static struct switch typedef union unsigned void
	volatile while _Bool _Alignof _Atomic _Noreturn _Static_assert __typeof__
	typeof __attribute__ alignof bool);
my %TYPEWORD = map { $_ => 1 } qw(char const double float int long short signed
	unsigned void volatile _Bool bool struct union enum FILE);
my %NOMUTATE_CALL = map { $_ => 1 } qw(assert static_assert _Static_assert
	va_start va_end va_copy);

# The argument (counted from 0) that is a wait's bound in milliseconds.
my %TIME_ARG = (
	pb_check_timed_read => 4, pb_check_timed_write => 4, pb_checkproc_wait => 1,
	pb_check_wait_clock_past => 2, pb_check_arm_interrupt => 0, pb_check_wait_flag => 1,
	pb_check_wait_sleeping => 1, pb_check_as_nobody => 2, pb_ts_with_tmpfs => 3,
	guarded_open => 3, wait_fill => 3, poll => 2,
);

sub numval {
	my ($x) = $_[0] =~ /^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)/ or return 0;
	return $x =~ /^0[xX]/ ? hex($x) : $x =~ /^0./ ? oct($x) : $x;
}

sub usage {
	print STDERR "usage: gen.pl --count|--list FILE... | --sample N --seed S FILE... |"
		. " --point TAG FILE... | --apply|--revert POINT\n";
	exit 2;
}

sub slurp {
	my ($f) = @_;
	open(my $fh, "<:raw", $f) or die "gen.pl: $f: $!\n";
	local $/;
	my $t = <$fh>;
	close($fh);
	return $t // "";
}

sub esc { my $s = shift; $s =~ s/\\/\\\\/g; $s =~ s/\n/\\n/g; $s =~ s/\t/\\t/g; return $s }
sub unesc { my $s = shift; $s =~ s/\\([nt\\])/$1 eq "n" ? "\n" : $1 eq "t" ? "\t" : "\\"/ge; return $s }

# FNV-1a, 32 bits, twice with different bases: 16 hex digits.  The multiply
# is split so that no intermediate needs more than 53 bits.
sub fnv {
	my ($s, $h) = @_;
	for my $c (unpack("C*", $s)) {
		$h ^= $c;
		$h = (($h * 403) + (($h & 0xff) << 24)) % 4294967296;
	}
	return $h;
}
sub tag { my $s = shift; return sprintf("%08x%08x", fnv($s, 2166136261), fnv($s, 84696351)) }

# ------------------------------------------------------------------ lexer
# Tokens: [text, kind, offset]; kind is id, num, str, chr or op.  Directives
# are dropped, and so is everything inside #if 0 or a DEBUG conditional.
my $PUNCT = qr{<<=|>>=|\.\.\.|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|[-+*/%&|^!~<>=?:;,.(){}\[\]#]};

sub lex {
	my ($text) = @_;
	my @tok;
	my @cond;	# per open #if: 1 when its current branch is skipped
	my $skipping = 0;
	my $bol = 1;
	pos($text) = 0;
	my $len = length($text);
	while (pos($text) < $len) {
		if ($text =~ /\G[ \t\f\r\x0b]+/gc) { next }
		if ($text =~ /\G\n/gc) { $bol = 1; next }
		if ($bol && $text =~ /\G#((?:[^\n\\]|\\.|\\\n)*)/gcs) {
			my $d = $1;
			$d =~ s{/\*.*?\*/}{ }gs;
			$d =~ s{//.*}{};
			if ($d =~ /^\s*if(n?def)?\b(.*)/s) {
				my ($kind, $expr) = ($1 // "", $2);
				my $skip = 0;
				$skip = 1 if $kind eq "" && $expr =~ /^\s*0\s*$/;
				$skip = 1 if $kind eq "def" && $expr =~ /DEBUG/;
				$skip = 1 if $kind eq "ndef" && $expr =~ /\bNDEBUG\b/;
				$skip = 1 if $kind eq "" && $expr =~ /\bdefined\s*\(?\s*\w*DEBUG/ && $expr !~ /!/;
				push @cond, $skip ? 1 : 0;
			} elsif ($d =~ /^\s*(else|elif)\b/) {
				if (@cond && $cond[-1] == 1) { $cond[-1] = 2 }	# the other branch
				elsif (@cond && $cond[-1] == 2) { $cond[-1] = 1 }
			} elsif ($d =~ /^\s*endif\b/) {
				pop @cond;
			}
			$skipping = grep { $_ == 1 } @cond;
			next;
		}
		$bol = 0;
		my $off = pos($text);
		if ($text =~ m{\G/\*.*?\*/}gcs) { next }
		if ($text =~ m{\G/\*}gc) { last }	# unterminated comment
		if ($text =~ m{\G//(?:[^\n\\]|\\.)*}gc) { next }
		my ($t, $k);
		if ($text =~ /\G((?:u8|[uUL])?"(?:[^"\\\n]|\\.)*")/gcs) { ($t, $k) = ($1, "str") }
		elsif ($text =~ /\G((?:[uUL])?'(?:[^'\\\n]|\\.)*')/gcs) { ($t, $k) = ($1, "chr") }
		elsif ($text =~ /\G([A-Za-z_]\w*)/gc) { ($t, $k) = ($1, "id") }
		elsif ($text =~ /\G(\.?\d(?:[eEpP][-+]|[\w.])*)/gc) { ($t, $k) = ($1, "num") }
		elsif ($text =~ /\G($PUNCT)/gc) { ($t, $k) = ($1, "op") }
		else { $text =~ /\G./gcs; next }
		push @tok, [$t, $k, $off] unless $skipping;
	}
	return \@tok;
}

# ------------------------------------------------------------------ points
sub typedef_names {
	my ($file) = @_;
	my %names;
	(my $dir = $file) =~ s{[^/]*$}{};
	$dir = "." if $dir eq "";
	for my $f ($file, glob("$dir/*.h")) {
		next unless -r $f;
		my $t = slurp($f);
		$t =~ s{/\*.*?\*/}{ }gs;
		while ($t =~ /\btypedef\b([^;{]*(?:\{(?:[^{}]|\{[^{}]*\})*\})?[^;]*);/gs) {
			my $d = $1;
			$names{$1} = 1 if $d =~ /(\w+)\s*(?:\[[^\]]*\])?\s*$/;
			$names{$1} = 1 if $d =~ /\(\s*\*\s*(\w+)\s*\)/;
		}
	}
	return \%names;
}

sub points_of {
	my ($file) = @_;
	my $text = slurp($file);
	my $tok = lex($text);
	my $types = typedef_names($file);
	my $n = @$tok;
	my @t = map { $_->[0] } @$tok;
	my @k = map { $_->[1] } @$tok;

	# Bracket matches, and depths.
	my (@match, @stack, @pdepth, @bdepth);
	my ($pd, $bd) = (0, 0);
	for my $i (0 .. $n - 1) {
		my $x = $t[$i];
		if ($x eq "(" || $x eq "[" || $x eq "{") {
			push @stack, $i;
		} elsif ($x eq ")" || $x eq "]" || $x eq "}") {
			my $o = pop @stack;
			if (defined $o) { $match[$o] = $i; $match[$i] = $o }
		}
		$pd-- if $x eq ")" || $x eq "]";
		$bd-- if $x eq "}";
		$pdepth[$i] = $pd;
		$bdepth[$i] = $bd;
		$pd++ if $x eq "(" || $x eq "[";
		$bd++ if $x eq "{";
	}
	my $is_type = sub {
		my ($i) = @_;
		return 0 if $i < 0 || $k[$i] ne "id";
		return 1 if $TYPEWORD{ $t[$i] } || $t[$i] =~ /_t$/ || $types->{ $t[$i] };
		return 1 if $i > 0 && $t[$i - 1] =~ /^(struct|union|enum)$/;
		return 0;
	};
	my $is_value_end = sub {	# can token $i end an operand?
		my ($i) = @_;
		return 0 if $i < 0;
		return 1 if $k[$i] =~ /^(num|chr|str)$/;
		return 1 if $t[$i] eq "]";
		return 1 if $t[$i] eq ")" && !(defined $match[$i] && $is_type->($i - 1));
		return 1 if $k[$i] eq "id" && !$KEYWORD{ $t[$i] } && !$is_type->($i);
		return 0;
	};
	my $is_cast = sub {	# is the group opening at $i a cast?
		my ($i) = @_;
		return 0 unless $t[$i] eq "(" && defined $match[$i];
		my $e = $match[$i];
		return 0 if $e == $i + 1;
		return 0 unless $is_type->($i + 1);
		for my $j ($i + 1 .. $e - 1) {
			return 0 unless $k[$j] eq "id" || $t[$j] eq "*";
		}
		return 1;
	};

	# Whether the comma at $c separates the declarators of a declaration in
	# a block (int a[2] = { -1, -1 }, b[2];): back over the statement, past
	# bracketed and braced groups (sizes, initialisers), to its first token.
	my $in_decl = sub {
		my ($c) = @_;
		my $j = $c - 1;
		while ($j >= 0) {
			if (($t[$j] eq "}" || $t[$j] eq "]" || $t[$j] eq ")") && defined $match[$j]) {
				$j = $match[$j] - 1;
				next;
			}
			last if $t[$j] eq ";" || $t[$j] eq "{" || $t[$j] eq "}" || $t[$j] eq ":";
			$j--;
		}
		$j++;
		$j++ while $j < $c && $t[$j] =~ /^(static|const|volatile|register|unsigned|signed)$/;
		return $j < $c && $is_type->($j);
	};

	# Tokens never mutated: inside assert() and the like, and inside the
	# size of an array declaration (char buf[64]; int a[N + 1]; int a[2], b[2]).
	my @frozen;
	for my $i (0 .. $n - 1) {
		my $from;
		if ($k[$i] eq "id" && $NOMUTATE_CALL{ $t[$i] } && $i + 1 < $n && $t[$i + 1] eq "("
			&& defined $match[$i + 1]) {
			$from = $i + 1;
		} elsif ($t[$i] eq "[" && defined $match[$i] && $i >= 2 && $k[$i - 1] eq "id"
			&& ($is_type->($i - 2) || $t[$i - 2] eq "*"
			|| ($t[$i - 2] eq "," && $pdepth[$i] == 0
			    && ($bdepth[$i] == 0 || $in_decl->($i - 2))))) {
			$from = $i;
		} elsif ($t[$i] eq "[" && defined $match[$i] && $i >= 1 && $t[$i - 1] eq "]"
			&& $frozen[$i - 1]) {
			$from = $i;
		}
		next unless defined $from;
		$frozen[$_] = 1 for $from .. $match[$from];
	}

	# Constants no test can tell moved by one, by the place they are in:
	# the bound of a wait, in milliseconds, when it is 10 or more (a wait
	# for something that takes microseconds; a bound is not a size, count
	# or index, and a millisecond more or less is only the clock's business),
	# and an argument the call ignores: fcntl's third with an F_GET* command,
	# open's mode without O_CREAT or O_TMPFILE.  The operators around them
	# are still mutated.
	my @quiet;
	for my $i (0 .. $n - 2) {
		next unless $k[$i] eq "id" && $t[ $i + 1 ] eq "(" && defined $match[ $i + 1 ];
		my ($o, $c) = ($i + 1, $match[ $i + 1 ]);
		my (@args, $from);
		$from = $o + 1;
		for (my $j = $o + 1; $j < $c; $j++) {
			if ($t[$j] =~ /^[(\[{]$/ && defined $match[$j]) { $j = $match[$j]; next }
			if ($t[$j] eq ",") { push @args, [ $from, $j - 1 ]; $from = $j + 1 }
		}
		push @args, [ $from, $c - 1 ] if $c - 1 >= $from;
		my $name = $t[$i];
		my @toks = map { [ $_->[0] .. $_->[1] ] } @args;
		my @q;
		if (defined $TIME_ARG{$name} && $TIME_ARG{$name} < @args) {
			push @q, grep { $k[$_] eq "num" && numval($t[$_]) >= 10 } @{ $toks[ $TIME_ARG{$name} ] };
		}
		if ($name eq "fcntl" && @args == 3 && @{ $toks[1] } == 1
			&& $t[ $toks[1][0] ] =~ /^F_GET(FL|FD|PIPE_SZ|OWN|SIG|LEASE)$/) {
			push @q, grep { $k[$_] eq "num" } @{ $toks[2] };
		}
		if ($name eq "open" && @args == 3 && !grep { $t[$_] =~ /^O_(CREAT|TMPFILE)$/ } @{ $toks[1] }) {
			push @q, grep { $k[$_] eq "num" } @{ $toks[2] };
		}
		$quiet[$_] = 1 for @q;
	}

	# Line starts, for line/column and the tag's line text.
	my @ls = (0);
	push @ls, $-[0] + 1 while $text =~ /\n/g;
	my $lineof = sub {
		my ($off) = @_;
		my ($lo, $hi) = (0, $#ls);
		while ($lo < $hi) {
			my $mid = int(($lo + $hi + 1) / 2);
			if ($ls[$mid] <= $off) { $lo = $mid } else { $hi = $mid - 1 }
		}
		return $lo;
	};
	my (%seen_line, @occ);
	for my $l (0 .. $#ls) {
		my $e = $l < $#ls ? $ls[$l + 1] - 1 : length($text);
		(my $s = substr($text, $ls[$l], $e - $ls[$l])) =~ s/^\s+|\s+$//g;
		$s =~ s/\s+/ /g;
		$occ[$l] = [$s, $seen_line{$s}++ // 0];
	}

	my @pts;
	my %dup;
	my $add = sub {
		my ($rule, $from, $to, $after) = @_;	# byte range [from, to)
		my $before = substr($text, $from, $to - $from);
		return if $before eq $after;
		my $l = $lineof->($from);
		my $col = $from - $ls[$l] + 1;
		(my $indent = substr($text, $ls[$l], $from - $ls[$l])) =~ s/^(\s*).*/$1/s;
		my $relcol = $col - length($indent);
		my $id = tag(join("\0", $file, $rule, @{ $occ[$l] }, $relcol, $before, $after));
		return if $dup{$id}++;
		push @pts, { tag => $id, file => $file, line => $l + 1, col => $col, rule => $rule,
			before => $before, after => $after, off => $from };
	};
	my $start = sub { $tok->[ $_[0] ][2] };
	my $end = sub { $tok->[ $_[0] ][2] + length($t[ $_[0] ]) };
	my $range = sub { substr($text, $start->($_[0]), $end->($_[1]) - $start->($_[0])) };

	# Statement starts: after ; { } else do, a label or case, or the ) of
	# if/for/while/switch; inside a function, outside any parentheses.
	my $stmt_start = sub {
		my ($i) = @_;
		return 0 if $i == 0 || $bdepth[$i] <= 0 || $pdepth[$i] != 0;
		my $p = $t[ $i - 1 ];
		return 1 if $p eq ";" || $p eq "{" || $p eq "}" || $p eq "else" || $p eq "do";
		if ($p eq ":") {	# a label or case, not the : of ?:
			for (my $j = $i - 2; $j >= 0; $j--) {
				return 0 if $t[$j] eq "?";
				return 1 if $t[$j] =~ /^[;{}]$/;
			}
			return 1;
		}
		if ($p eq ")" && defined $match[ $i - 1 ]) {
			my $o = $match[ $i - 1 ];
			return 1 if $o > 0 && $t[ $o - 1 ] =~ /^(if|for|while|switch)$/;
		}
		return 0;
	};

	# Operand extents for logic-drop and ratio.
	my $postfix_left;
	$postfix_left = sub {
		my ($j) = @_;
		return undef if $j < 0;
		my $s;
		if ($t[$j] eq "]" && defined $match[$j]) {
			$s = $postfix_left->($match[$j] - 1);
			return undef unless defined $s;
		} elsif ($t[$j] eq ")" && defined $match[$j]) {
			my $o = $match[$j];
			if ($o > 0 && $k[ $o - 1 ] eq "id" && !$KEYWORD{ $t[ $o - 1 ] }) {
				$s = $postfix_left->($o - 1);
			} elsif ($o > 0 && $t[ $o - 1 ] eq "sizeof") {
				$s = $o - 1;
			} else {
				$s = $o;
			}
			return undef unless defined $s;
		} elsif ($k[$j] =~ /^(id|num|chr)$/ && !$KEYWORD{ $t[$j] }) {
			$s = $j;
		} else {
			return undef;
		}
		if ($s >= 2 && ($t[ $s - 1 ] eq "." || $t[ $s - 1 ] eq "->")) {
			return $postfix_left->($s - 2);
		}
		return $s;
	};
	my $unary_left = sub {	# casts and unary operators in front of an operand
		my ($s) = @_;
		while (1) {
			if ($s > 0 && $t[ $s - 1 ] eq ")" && defined $match[ $s - 1 ] && $is_cast->($match[ $s - 1 ])) {
				$s = $match[ $s - 1 ];
			} elsif ($s > 0 && $t[ $s - 1 ] =~ /^(!|~|-|\+|\*|&)$/ && !$is_value_end->($s - 2)) {
				$s--;
			} else {
				return $s;
			}
		}
	};
	my $operand_right = sub {
		my ($j) = @_;
		while ($j < $n) {
			if ($t[$j] eq "(" && $is_cast->($j)) { $j = $match[$j] + 1 }
			elsif ($t[$j] =~ /^(!|~|-|\+|\*|&)$/) { $j++ }
			else { last }
		}
		return undef if $j >= $n;
		my $e;
		if ($t[$j] eq "sizeof") {
			return undef unless $j + 1 < $n && $t[ $j + 1 ] eq "(" && defined $match[ $j + 1 ];
			return $match[ $j + 1 ];
		} elsif ($t[$j] eq "(" && defined $match[$j]) {
			$e = $match[$j];
		} elsif ($k[$j] =~ /^(id|num|chr)$/ && !$KEYWORD{ $t[$j] }) {
			$e = $j;
		} else {
			return undef;
		}
		while ($e + 1 < $n) {
			if (($t[ $e + 1 ] eq "(" || $t[ $e + 1 ] eq "[") && defined $match[ $e + 1 ]) {
				$e = $match[ $e + 1 ];
			} elsif (($t[ $e + 1 ] eq "." || $t[ $e + 1 ] eq "->") && $e + 2 < $n && $k[ $e + 2 ] eq "id") {
				$e += 2;
			} else {
				last;
			}
		}
		return $e;
	};
	# A whole operand of && or ||, left or right: up to the next operator of
	# no higher precedence at the same nesting.
	my $stop_for = sub {
		my ($op, $x) = @_;
		return 1 if $x =~ /^(\|\||\?|:|,|;|=|[-+*\/%&|^]=|<<=|>>=|return|\{|\})$/;
		return 1 if $op eq "&&" && $x eq "&&";
		return 0;
	};
	my $logic_left = sub {
		my ($i) = @_;
		my $j = $i - 1;
		while ($j >= 0) {
			if (($t[$j] eq ")" || $t[$j] eq "]") && defined $match[$j]) { $j = $match[$j] - 1; next }
			last if $t[$j] eq "(" || $t[$j] eq "[" || $stop_for->($t[$i], $t[$j]);
			$j--;
		}
		return $j + 1 < $i ? $j + 1 : undef;
	};
	my $logic_right = sub {
		my ($i) = @_;
		my $j = $i + 1;
		while ($j < $n) {
			if (($t[$j] eq "(" || $t[$j] eq "[") && defined $match[$j]) { $j = $match[$j] + 1; next }
			last if $t[$j] eq ")" || $t[$j] eq "]" || $stop_for->($t[$i], $t[$j]);
			$j++;
		}
		return $j - 1 > $i ? $j - 1 : undef;
	};

	my %rel = ("<" => ["<=", ">="], "<=" => ["<", ">"], ">" => [">=", "<="], ">=" => [">", "<"]);
	for my $i (0 .. $n - 1) {
		next if $frozen[$i];
		my ($x, $kind) = ($t[$i], $k[$i]);
		my ($s, $e) = ($start->($i), $end->($i));
		if ($rel{$x}) {
			$add->("rel", $s, $e, $_) for @{ $rel{$x} };
		} elsif ($x eq "==" || $x eq "!=") {
			$add->("eq", $s, $e, $x eq "==" ? "!=" : "==");
		} elsif ($x eq "&&" || $x eq "||") {
			$add->("logic", $s, $e, $x eq "&&" ? "||" : "&&");
			my $l = $logic_left->($i);
			my $r = $logic_right->($i);
			if (defined $l && defined $r) {
				# "a && b" keeps b (left operand and operator dropped) or a.
				$add->("logic-drop", $start->($l), $start->($i + 1), "");
				$add->("logic-drop", $end->($i - 1), $end->($r), "");
			}
		} elsif ($kind eq "num" && $x =~ /^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)([uUlL]*)$/) {
			next if $quiet[$i];
			my ($digits, $suf) = ($1, $2);
			my $v = $digits =~ /^0[xX]/ ? hex($digits) : $digits =~ /^0./ ? oct($digits) : $digits;
			next if $v > 2**52;
			my $fmt = $digits =~ /^0[xX]/ ? ($digits =~ /[A-F]/ ? "0x%X" : "0x%x")
				: $digits =~ /^0./ ? "0%o" : "%d";
			if ($fmt eq "%d" && $v >= 1000 && $v =~ /^10+$/) {
				# a unit or scale (ns per s, bytes per MB): the slip is a
				# zero too many or too few, not one more or less
				$add->("const", $s, $e, ($v * 10) . $suf);
				$add->("const", $s, $e, ($v / 10) . $suf);
				next;
			}
			if ($fmt eq "%d" && ($v == 1024 || $v == 1048576 || $v == 1073741824)) {
				# binary units: KiB taken as 1000 (and MiB, GiB alike)
				$add->("const", $s, $e, ($v == 1024 ? 1000 : $v == 1048576 ? 1000000
							 : 1000000000) . $suf);
				next;
			}
			$add->("const", $s, $e, sprintf($fmt, $v + 1) . $suf);
			if ($v > 0) {
				$add->("const", $s, $e, sprintf($fmt, $v - 1) . $suf);
			} elsif ($suf !~ /[uU]/) {
				$add->("const", $s, $e, "(-1$suf)");
			}
		} elsif ($kind eq "id" && $ERRNO_NEXT{$x}) {
			$add->("errno", $s, $e, $ERRNO_NEXT{$x});
		} elsif (($x eq "if" || $x eq "while") && $i + 1 < $n && $t[ $i + 1 ] eq "("
			&& defined $match[ $i + 1 ]) {
			my ($o, $c) = ($i + 1, $match[ $i + 1 ]);
			$add->("neg", $start->($o), $end->($c), "(!" . $range->($o, $c) . ")");
		} elsif ($x eq "break" && $i + 1 < $n && $t[ $i + 1 ] eq ";" && $stmt_start->($i)) {
			$add->("break-del", $s, $end->($i + 1), ";");
		} elsif ($kind eq "id" && !$KEYWORD{$x} && $stmt_start->($i) && !$NOMUTATE_CALL{$x}) {
			# name(...);  or  name.member(...);  or  (void)name(...);
			my $j = $i;
			$j += 2 while $j + 2 < $n && ($t[ $j + 1 ] eq "." || $t[ $j + 1 ] eq "->") && $k[ $j + 2 ] eq "id";
			next unless $j + 1 < $n && $t[ $j + 1 ] eq "(" && defined $match[ $j + 1 ];
			my $c = $match[ $j + 1 ];
			next unless $c + 1 < $n && $t[ $c + 1 ] eq ";";
			$add->("call-del", $s, $end->($c + 1), ";");
		} elsif ($x eq "(" && $stmt_start->($i) && $i + 3 < $n && $t[ $i + 1 ] eq "void"
			&& $t[ $i + 2 ] eq ")" && $k[ $i + 3 ] eq "id" && !$NOMUTATE_CALL{ $t[ $i + 3 ] }) {
			my $j = $i + 3;
			next unless $j + 1 < $n && $t[ $j + 1 ] eq "(" && defined $match[ $j + 1 ];
			my $c = $match[ $j + 1 ];
			next unless $c + 1 < $n && $t[ $c + 1 ] eq ";";
			$add->("call-del", $s, $end->($c + 1), ";");
		}
		if ($x =~ m{^([-+*/])(=?)$} && $is_value_end->($i - 1)) {
			my ($op, $eq) = ($1, $2);
			my $swap = { "*" => "/", "/" => "*", "+" => "-", "-" => "+" }->{$op};
			# a * before a cast or in a declaration (type *name) is no product
			next if $op eq "*" && $eq eq "" && $k[ $i - 1 ] eq "id" && $i + 1 < $n
				&& $t[ $i + 1 ] =~ /^[),]$/;
			$add->("arith", $s, $e, $swap . $eq);
			if ($op eq "/" && $eq eq "") {
				my $lend = $i - 1;
				my $l = $postfix_left->($lend);
				my $r = $operand_right->($i + 1);
				next unless defined $l && defined $r;
				$l = $unary_left->($l);
				my ($ltext, $rtext) = ($range->($l, $lend), $range->($i + 1, $r));
				next if $ltext eq $rtext;
				my $mid = substr($text, $end->($lend), $start->($i + 1) - $end->($lend));
				$add->("ratio", $start->($l), $end->($r), $rtext . $mid . $ltext);
			}
		}
	}
	return @pts;
}

sub line_of { my $p = shift; return join("\t", @$p{qw(tag file line col rule)}, esc($p->{before}), esc($p->{after})) }

sub all_points {
	my @p;
	for my $f (@_) {
		push @p, sort { $a->{off} <=> $b->{off} || $a->{rule} cmp $b->{rule} || $a->{after} cmp $b->{after} }
			points_of($f);
	}
	return @p;
}

sub parse_point {
	my ($s) = @_;
	if ($s eq "-") { $s = <STDIN> // "" }
	chomp $s;
	my @f = split /\t/, $s, -1;
	die "gen.pl: not a point (7 tab-separated fields): $s\n" unless @f == 7 && $f[2] =~ /^\d+$/ && $f[3] =~ /^\d+$/;
	return { tag => $f[0], file => $f[1], line => $f[2], col => $f[3], rule => $f[4],
		before => unesc($f[5]), after => unesc($f[6]) };
}

sub change {
	my ($p, $from, $to) = @_;
	my $text = slurp($p->{file});
	my $off = 0;
	for (2 .. $p->{line}) {
		$off = index($text, "\n", $off);
		die "gen.pl: $p->{file}: no line $p->{line}\n" if $off < 0;
		$off++;
	}
	$off += $p->{col} - 1;
	if (substr($text, $off, length($from)) ne $from) {
		die "gen.pl: $p->{file}:$p->{line}:$p->{col}: the text there is not '" . esc($from) . "'\n";
	}
	substr($text, $off, length($from)) = $to;
	open(my $fh, "+<:raw", $p->{file}) or die "gen.pl: $p->{file}: $!\n";
	print $fh $text or die "gen.pl: $p->{file}: $!\n";
	truncate($fh, length($text)) or die "gen.pl: $p->{file}: $!\n";
	close($fh) or die "gen.pl: $p->{file}: $!\n";
}

# Park-Miller (minimal standard, 48271): the same draws from a seed on every
# perl, whatever its own rand().
sub sample {
	my ($want, $seed, @p) = @_;
	my $m = 2147483647;
	my $x = $seed % ($m - 1) + 1;
	my @idx = (0 .. $#p);
	my @out;
	for my $i (0 .. $#idx) {
		last if @out >= $want;
		$x = ($x * 48271) % $m;
		my $j = $i + int(($x - 1) / ($m - 1) * (@idx - $i));
		@idx[ $i, $j ] = @idx[ $j, $i ];
		push @out, $p[ $idx[$i] ];
	}
	return @out;
}

my $mode = shift @ARGV // usage();
if ($mode eq "--count") {
	usage() unless @ARGV;
	my %tot;
	my $w = 4;
	$w < length($_) and $w = length($_) for @ARGV;
	printf "%-*s %s %6s\n", $w, "file", join(" ", map { sprintf "%*s", length($_) < 5 ? 5 : length($_), $_ } @RULES), "total";
	for my $f (@ARGV) {
		my %c;
		$c{ $_->{rule} }++ for points_of($f);
		my $sum = 0;
		$sum += $_ for values %c;
		$tot{$_} += $c{$_} // 0 for @RULES;
		$tot{total} += $sum;
		printf "%-*s %s %6d\n", $w, $f, join(" ", map { sprintf "%*d", length($_) < 5 ? 5 : length($_), $c{$_} // 0 } @RULES), $sum;
	}
	printf "%-*s %s %6d\n", $w, "total", join(" ", map { sprintf "%*d", length($_) < 5 ? 5 : length($_), $tot{$_} // 0 } @RULES), $tot{total} // 0
		if @ARGV > 1;
} elsif ($mode eq "--list") {
	usage() unless @ARGV;
	print line_of($_), "\n" for all_points(@ARGV);
} elsif ($mode eq "--sample") {
	my $want = shift @ARGV // usage();
	usage() unless $want =~ /^\d+$/ && (shift @ARGV // "") eq "--seed";
	my $seed = shift @ARGV // usage();
	usage() unless $seed =~ /^\d+$/ && @ARGV;
	print line_of($_), "\n" for sample($want, $seed, all_points(@ARGV));
} elsif ($mode eq "--point") {
	my $want = shift @ARGV // usage();
	usage() unless @ARGV;
	my @p = grep { $_->{tag} eq $want } all_points(@ARGV);
	die "gen.pl: no point $want in @ARGV\n" unless @p;
	print line_of($_), "\n" for @p;
} elsif ($mode eq "--apply" || $mode eq "--revert") {
	my $p = parse_point(shift @ARGV // usage());
	if ($mode eq "--apply") { change($p, $p->{before}, $p->{after}) }
	else { change($p, $p->{after}, $p->{before}) }
} else {
	usage();
}
