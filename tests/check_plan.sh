#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The plan of make check (tests/plan.py over tests/tests.list and
# tests/recipes.list) expands without error, keeps every case of
# tests/plan-cases.txt by name (a case leaves the suite only by an edit of
# that file, never by a slip in a list or a recipe), and its lists write no
# environment string of their own (each is a recipe, used by name).

set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
python3 "$root/tests/plan.py" --scripts --names > "$tmp/names" 2> "$tmp/err" \
    || { echo "FAIL: the plan does not expand: $(cat "$tmp/err")"; exit 1; }
lost=$(LC_ALL=C comm -23 <(LC_ALL=C sort -u "$root/tests/plan-cases.txt") <(LC_ALL=C sort -u "$tmp/names"))
if [ -n "$lost" ]; then
    echo "FAIL: cases of tests/plan-cases.txt not in the plan:"
    printf '%s\n' "$lost" | sed 's/^/    /'
    fail=1
fi
dups=$(LC_ALL=C sort "$tmp/names" | uniq -d)
if [ -n "$dups" ]; then
    echo "FAIL: cases named twice:"
    printf '%s\n' "$dups" | sed 's/^/    /'
    fail=1
fi
# the plan's tab-separated columns, one line a case, ids unique
python3 "$root/tests/plan.py" --scripts > "$tmp/plan" || fail=1
if [ "$(cut -f1 "$tmp/plan" | LC_ALL=C sort | uniq -d | wc -l)" != 0 ]; then
    echo "FAIL: case ids not unique"
    fail=1
fi
if awk -F'\t' 'NR > 1 && NF != 14 { bad = 1 } END { exit !bad }' "$tmp/plan"; then
    echo "FAIL: a plan line without its 14 columns"
    fail=1
fi
# make check-quick: one launch of every program of the plan
awk -F'\t' 'NR > 1 && $3 == "mpi" { print $4 }' "$tmp/plan" | LC_ALL=C sort -u > "$tmp/progs"
python3 "$root/tests/plan.py" --tier quick | awk -F'\t' 'NR > 1 { print $4 " " $10 }' \
    | LC_ALL=C sort -u > "$tmp/quick"
missing=$(cut -d' ' -f1 "$tmp/quick" | LC_ALL=C comm -23 "$tmp/progs" -)
if [ -n "$missing" ]; then
    echo "FAIL: programs check-quick does not run: $missing"
    fail=1
fi
twice=$(cut -d' ' -f1 "$tmp/quick" | uniq -d)
if [ -n "$twice" ]; then
    echo "FAIL: programs check-quick launches more than once: $twice"
    fail=1
fi
[ "$fail" = 0 ] && echo "OK: $(wc -l < "$tmp/names") cases, every one of tests/plan-cases.txt; check-quick launches each of the $(wc -l < "$tmp/progs") programs once"
exit "$fail"
