#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The regression gate against stock (make check-mpich): runs the MPICH
# subset against the installed fork and fails only on cases that fail on
# the fork but pass on stock Open MPI 5.0.7 (tests/mpich/stock-failures.txt),
# and on every failing part/ case (partitioned communication), which stock's
# list no longer excuses.
# Ends with "N passed, N failed": the cases that pass on the fork, and the
# regressions; the cases that fail on stock too are counted in neither.
#
# Usage: tests/mpich/check-mpich.sh [NAME-PATTERN]
# Environment: PREFIX (the fork's install, default ./install),
# MPICH_STOCK_FAILURES (another stock list, for testing the gate), and those
# of run-mpich.sh.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../contrib/queue/common.sh"
cd "$OMPI_QUEUE_ROOT" || exit 1

stock=${MPICH_STOCK_FAILURES:-tests/mpich/stock-failures.txt}
if [ ! -x "$PREFIX/bin/mpirun" ]; then
    echo "no $PREFIX/bin/mpirun: build first (make)"
    echo "0 passed, 1 failed"
    exit 1
fi
[ -f "$stock" ] || die "no $stock: make it with tests/mpich/make-stock-failures.sh"

results=$OMPI_QUEUE_BUILD/mpich-tests/fork-results.txt
MPICH_TEST_KNOWN=$stock bash tests/mpich/run-mpich.sh "$PREFIX" "$results" "${1:-*}" \
    | sed -u 's/^\([0-9]* passed, [0-9]* failed\)$/fork: \1/'
[ -s "$results" ] || { echo "no results (see above)"; echo "0 passed, 1 failed"; exit 1; }

passed=$(grep -c ' PASS$' "$results")
failed=$(grep -vc ' PASS$' "$results")
known=0
regressions=()
while read -r name np verdict; do
    [ "$verdict" = PASS ] && continue
    # partitioned communication is the fork's to make right (patches
    # 0029-0033): a part/ case that fails fails the gate, whatever stock does
    if [[ "$name" == part/* ]]; then
        regressions+=("$name $np $verdict (partitioned: fails the gate even where stock fails)")
        continue
    fi
    if awk -v k="$name $np" '!/^#/ && $1 " " $2 == k { found = 1 } END { exit !found }' "$stock"; then
        known=$((known + 1))
    else
        regressions+=("$name $np $verdict")
    fi
done < "$results"
fixed=$(awk 'NR == FNR { if ($3 == "PASS") pass[$1 " " $2] = 1; next }
             !/^#/ && ($1 " " $2) in pass' "$results" "$stock" | grep -c .)
stock_counts=$(sed -n 's/^# stock: //p' "$stock")

for r in "${regressions[@]}"; do
    case "$r" in
    *partitioned*) echo "FAIL $r" ;;
    *) echo "REGRESSION $r (passes on stock)" ;;
    esac
done
[ "$fixed" -gt 0 ] && echo "$fixed case(s) of $stock pass on the fork"
echo "mpich subset: fork $passed passed, $failed failed ($known also fail on stock); stock: $stock_counts"
echo "$passed passed, ${#regressions[@]} failed"
[ "${#regressions[@]}" = 0 ]
