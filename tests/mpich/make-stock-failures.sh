#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Writes tests/mpich/stock-failures.txt: the cases of the MPICH subset that
# fail on pristine Open MPI 5.0.7, which `make check-mpich` then does not
# count against the fork; with MPICH_STOCK_LINE=cm, the same for the gate's
# line on pml cm (tests/mpich/cm-line.sh) into stock-failures-cm.txt.  With
# OMPI_BASE=5.0.10, the same on pristine 5.0.10 into stock-failures-5.0.10.txt
# and stock-failures-cm-5.0.10.txt.
# Builds stock first (contrib/queue/build-stock.sh, nothing to do when it
# is installed).
#
# Usage: tests/mpich/make-stock-failures.sh
# Each case runs once per run.  A case that fails on stock only now and then
# may pass in every stock run and then fail once on the fork: that counts
# as a regression (it is one, as far as this gate can tell); run stock more
# than once (MPICH_STOCK_RUNS) to list such cases.
# Environment: MPICH_STOCK_RUNS (default 1): run the subset that many times
# and list every case that failed in any run; MPICH_STOCK_LINE (ob1 or cm,
# default ob1); those of run-mpich.sh.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../contrib/queue/common.sh"
cd "$OMPI_QUEUE_ROOT" || exit 1

runs=${MPICH_STOCK_RUNS:-1}
stock=$(bash contrib/queue/build-stock.sh) || die "stock Open MPI did not build"
out=tests/mpich/stock-failures$OMPI_BASE_SUFFIX.txt
patterns=()
line=${MPICH_STOCK_LINE:-ob1}
if [ "$line" = cm ]; then
    source tests/mpich/cm-line.sh
    export MPICH_TEST_TRANSPORT=$MPICH_CM_TRANSPORT
    # part/ failures fail the gate whatever stock does: stock's are not listed
    patterns=("${MPICH_CM_STOCK_PATTERNS[@]}")
    out=$MPICH_CM_STOCK
fi
started=$(date -u '+%Y-%m-%d %H:%M UTC')
t0=$SECONDS

failed_any=$(mktemp)
for r in $(seq "$runs"); do
    results=$OMPI_QUEUE_BUILD/mpich-tests/stock-results-$line.$r.txt
    log "stock run $r of $runs ($line)"
    bash tests/mpich/run-mpich.sh "$stock" "$results" "${patterns[@]}"
    grep -v ' PASS$' "$results" >> "$failed_any"
done
total=$(grep -c . "$results")
# one line per case (the verdict of its first failing run), in run order
nfail=$(awk '!seen[$1 " " $2]++' "$failed_any" | tee "$failed_any.u" | grep -c .)

{
    sed -n '/^# Copyright/,/^# \$HEADER\$/p' tests/mpich/subset.txt
    echo "#"
    echo "# Cases of the MPICH subset (tests/mpich/subset.txt) that fail on pristine"
    echo "# Open MPI $OMPI_VERSION (contrib/queue/build-stock.sh), one \"NAME NP VERDICT\" a line."
    [ "$line" = cm ] && echo "# The gate's cm line: ${patterns[*]} over $MPICH_TEST_TRANSPORT."
    echo "# make check-mpich counts a fork failure only when its case is not here."
    echo "#"
    echo "# made by:  ${OMPI_BASE_SUFFIX:+OMPI_BASE=$OMPI_BASE }bash tests/mpich/make-stock-failures.sh${MPICH_STOCK_RUNS:+  (MPICH_STOCK_RUNS=$runs)}${MPICH_STOCK_LINE:+  (MPICH_STOCK_LINE=$line)}${MPICH_TEST_TIMEOUT:+  (MPICH_TEST_TIMEOUT=$MPICH_TEST_TIMEOUT)}"
    echo "# on:       $started, $runs run(s), $(( (SECONDS - t0) / 60 )) min, $(nproc) cores"
    echo "# stock: $((total - nfail)) passed, $nfail failed"
    cat "$failed_any.u"
} > "$out"
rm -f "$failed_any" "$failed_any.u"
log "wrote $out: stock $((total - nfail)) passed, $nfail failed"
