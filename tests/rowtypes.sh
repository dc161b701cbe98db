#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Option rows check themselves (src/cli.h, PB_OPT): a row whose member has
# another C type than the row's type stores does not compile, and the right
# type does.  Compiled with the build's compiler, syntax only.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
set -- ${CC:-cc}
command -v "$1" >/dev/null 2>&1 || skip_all "no C compiler (${CC:-cc})"
tap_tmpdir
SRC=$TESTS_SRCDIR/../src

# row TYPE DECL: a params struct with the member DECL (named m) and a row of TYPE.
row() {
	cat >"$TEST_TMP/row.c" <<EOF_C
#define _GNU_SOURCE
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include "cli.h"
struct p { $2; size_t nn; };
const struct pb_opt rows[] = { { PB_OPT("m", '\0', $1, struct p, m) }, PB_OPT_END };
EOF_C
	# shellcheck disable=SC2086 # CC and POPT_CFLAGS are word lists
	${CC:-cc} ${POPT_CFLAGS:-} -fsyntax-only -I"$SRC" "$TEST_TMP/row.c" >"$TEST_TMP/cc.log" 2>&1
}

GOOD="PB_OPT_FLAG|int m
PB_OPT_COUNT|uint64_t m
PB_OPT_SIZE|uint64_t m
PB_OPT_SIZES|uint64_t m[4]
PB_OPT_DURATION|uint64_t m
PB_OPT_DOUBLE|double m
PB_OPT_WORD|unsigned m
PB_OPT_WORDS|unsigned m
PB_OPT_CPUS|cpu_set_t m
PB_OPT_DIR|const char *m
PB_OPT_FILE|const char *m
PB_OPT_STRING|const char *m"
BAD="PB_OPT_FLAG|bool m
PB_OPT_COUNT|unsigned m
PB_OPT_SIZE|uint32_t m
PB_OPT_SIZES|unsigned m[4]
PB_OPT_DURATION|int64_t m
PB_OPT_DOUBLE|float m
PB_OPT_WORD|uint64_t m
PB_OPT_WORDS|int m
PB_OPT_CPUS|unsigned long m
PB_OPT_DIR|char *m
PB_OPT_FILE|const char **m
PB_OPT_STRING|int m"

while IFS='|' read -r type ctype; do
	row "$type" "$ctype"; r=$?
	ok $r "$type row on a member '$ctype' compiles"
	[ $r -eq 0 ] || diag "$(head -3 "$TEST_TMP/cc.log")"
done <<EOF_GOOD
$GOOD
EOF_GOOD
while IFS='|' read -r type ctype; do
	row "$type" "$ctype"; [ $? -ne 0 ]; ok $? "$type row on a member '$ctype' does not compile"
	grep -q 'negative' "$TEST_TMP/cc.log"; ok $? "... refused by the row's type assertion"
done <<EOF_BAD
$BAD
EOF_BAD
done_testing
