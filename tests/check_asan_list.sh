#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The sanitizer pass of make check runs tests/asan/check.list, make
# check-tsan tests/tsan/check.list: each of their cases must be a case of
# make check's own plan (same program, transport, ranks and words,
# tests/plan.py), so that the passes run only cases that make check itself
# runs and knows.

set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$root/tests/plan.py" --names > "$tmp/full" || { echo "FAIL: no plan of tests/tests.list"; exit 1; }
for list in asan/check.list tsan/check.list; do
    python3 "$root/tests/plan.py" --names --list "$root/tests/$list" > "$tmp/pass" \
        || { echo "FAIL: no plan of tests/$list"; exit 1; }
    [ -s "$tmp/pass" ] || { echo "FAIL: tests/$list has no case"; exit 1; }
    bad=$(LC_ALL=C comm -23 <(LC_ALL=C sort -u "$tmp/pass") <(LC_ALL=C sort -u "$tmp/full"))
    if [ -n "$bad" ]; then
        printf 'FAIL: a case of tests/%s that make check does not run: %s\n' "$list" $'\n'"$bad"
        exit 1
    fi
    echo "OK: the $(wc -l < "$tmp/pass") cases of tests/$list are cases of tests/tests.list"
done
