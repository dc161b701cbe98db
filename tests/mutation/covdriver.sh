#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mutation/cover.sh's LOG_DRIVER: each test writes its coverage counts
# under a directory of its own, $COVER_DIR/<test, with / as +>, then the
# real driver (the rest of the command line) runs it.
name=
for a; do
	case $prev in --test-name) name=$a ;; esac
	case $a in --test-name=*) name=${a#--test-name=} ;; esac
	prev=$a
done
GCOV_PREFIX=$COVER_DIR/$(printf '%s' "${name:-unnamed}" | tr / +)
export GCOV_PREFIX
# Tests run processes as other users too (nobody, a fresh uid): the
# directories and count files libgcov makes must be theirs to write.
umask 000
exec "$@"
