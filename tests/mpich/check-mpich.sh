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
# the fork but pass on stock Open MPI of the same base (5.0.7:
# tests/mpich/stock-failures.txt; 5.0.10: stock-failures-5.0.10.txt),
# and on every failing part/ case (partitioned communication), which stock's
# list no longer excuses.
# The whole subset over ob1 and shared memory, then a second line, its
# pt2pt/ and part/ cases on pml cm over libfabric's tcp provider
# (tests/mpich/cm-line.sh), judged against stock's failures there (pt2pt/
# only: tests/mpich/stock-failures-cm.txt, made by MPICH_STOCK_LINE=cm
# tests/mpich/make-stock-failures.sh; part/ cases fail the gate whatever
# stock does).
# Ends with "N passed, N failed": the cases that pass on the fork, and the
# regressions; the cases that fail on stock too are counted in neither.
#
# Usage: tests/mpich/check-mpich.sh [NAME-PATTERN]
# Environment: PREFIX (the fork's install, default ./install),
# MPICH_STOCK_FAILURES (another stock list for the ob1 line, for testing the
# gate), MPICH_TEST_CM=0 (the ob1 line only), MPICH_TEST_OB1=0 (the cm line
# only), MPICH_GATE_DEADLINE (seconds since the epoch by which the gate must
# end: a line that would not fit is left out, one still running then is
# stopped and judged on the cases that ended; both are said, neither is
# counted), and those of run-mpich.sh.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../contrib/queue/common.sh"
cd "$OMPI_QUEUE_ROOT" || exit 1

stock=${MPICH_STOCK_FAILURES:-tests/mpich/stock-failures$OMPI_BASE_SUFFIX.txt}
if [ ! -x "$PREFIX/bin/mpirun" ]; then
    echo "no $PREFIX/bin/mpirun: build first (make)"
    echo "0 passed, 1 failed"
    exit 1
fi
[ -f "$stock" ] || die "no $stock: make it with ${OMPI_BASE_SUFFIX:+OMPI_BASE=$OMPI_BASE }tests/mpich/make-stock-failures.sh"

source tests/mpich/cm-line.sh
cm_line=${MPICH_TEST_CM:-1}
if [ "$cm_line" != 0 ] && [ ! -f "$MPICH_CM_STOCK" ]; then
    die "no $MPICH_CM_STOCK: make it with ${OMPI_BASE_SUFFIX:+OMPI_BASE=$OMPI_BASE }MPICH_STOCK_LINE=cm tests/mpich/make-stock-failures.sh"
fi

total_passed=0
total_regressions=0
deadline=${MPICH_GATE_DEADLINE:-0}
# what a line takes on a 2-core machine, MPICH's build included: a line that
# cannot end before the deadline is not started
line_estimate_s=${MPICH_LINE_ESTIMATE_S:-1100}

# judge LABEL RESULTS STOCK-LIST: prints the line's regressions and counts,
# adds to the totals
judge() {
    local label=$1 results=$2 stock=$3 name np verdict r
    local passed failed known=0 fixed stock_counts
    local regressions=()

    passed=$(grep -c ' PASS$' "$results")
    failed=$(grep -vc ' PASS$' "$results")
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
        *partitioned*) echo "FAIL [$label] $r" ;;
        *) echo "REGRESSION [$label] $r (passes on stock)" ;;
        esac
    done
    [ "$fixed" -gt 0 ] && echo "$fixed case(s) of $stock pass on the fork"
    echo "mpich subset [$label]: fork $passed passed, $failed failed ($known also fail on stock); stock: $stock_counts"
    total_passed=$((total_passed + passed))
    total_regressions=$((total_regressions + ${#regressions[@]}))
}

# run LABEL RESULTS STOCK-LIST TRANSPORT PATTERN...
run_line() {
    local label=$1 results=$2 stock=$3 transport=$4 left=0 rc
    local limit=()
    shift 4
    if [ "$deadline" -gt 0 ]; then
        left=$((deadline - $(date +%s)))
        if [ "$left" -lt "$line_estimate_s" ]; then
            echo "SKIP mpich subset [$label]: ${left}s left before MPICH_GATE_DEADLINE, the line takes about ${line_estimate_s}s; not judged (make check-mpich runs it)"
            return
        fi
        limit=(timeout -k 10 "$left")
    fi
    # a line stopped before its first case must not be judged on the last run's
    : > "$results"
    MPICH_TEST_KNOWN=$stock MPICH_TEST_TRANSPORT=$transport \
        "${limit[@]}" bash tests/mpich/run-mpich.sh "$PREFIX" "$results" "$@" \
        | sed -u "s/^\([0-9]* passed, [0-9]* failed\)$/fork [$label]: \1/"
    rc=${PIPESTATUS[0]}
    if [ "${#limit[@]}" -gt 0 ] && { [ "$rc" = 124 ] || [ "$rc" = 137 ]; }; then
        echo "STOPPED mpich subset [$label] at MPICH_GATE_DEADLINE after $(grep -c . "$results") case(s): judged on those only"
        [ -s "$results" ] || return
    fi
    if [ ! -s "$results" ]; then
        echo "no results for $label (see above)"
        total_regressions=$((total_regressions + 1))
        return
    fi
    judge "$label" "$results" "$stock"
}

if [ "${MPICH_TEST_OB1:-1}" != 0 ]; then
    run_line ob1 "$OMPI_QUEUE_BUILD/mpich-tests/fork-results.txt" "$stock" \
        "--mca pml ob1 --mca btl self,sm" "${1:-*}"
fi
if [ "$cm_line" != 0 ]; then
    cm_patterns=("${MPICH_CM_PATTERNS[@]}")
    [ -n "${1:-}" ] && cm_patterns=("$1")
    run_line cm "$OMPI_QUEUE_BUILD/mpich-tests/fork-results-cm.txt" "$MPICH_CM_STOCK" \
        "$MPICH_CM_TRANSPORT" "${cm_patterns[@]}"
fi
echo "$total_passed passed, $total_regressions failed"
[ "$total_regressions" = 0 ]
