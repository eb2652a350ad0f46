#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The MPIX proposal's listings and use cases (examples/graphs/: T-L1, T-L2,
# T-UC1..T-UC5 of the spec) on 2 ranks over ob1 and UCX, and the
# multi-rank ones on 4 ranks over ob1; each program checks its own results.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
status=0
run() {
    local tr=$1 np=$2 name=$3
    shift 3
    if env "$@" bash "$OMPI_QUEUE_ROOT/examples/graphs/run.sh" "$name" "$np" > /tmp/ex.$$ 2>&1 \
        && grep -q "results checked, OK" /tmp/ex.$$; then
        echo "ok   $name ($tr, $np ranks)"
    else
        echo "FAIL $name ($tr, $np ranks)"
        sed 's/^/    | /' /tmp/ex.$$ | tail -20
        status=1
    fi
    rm -f /tmp/ex.$$
}
OB1=(OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,sm)
UCX=(OMPI_MCA_pml=ucx OMPI_MCA_pml_ucx_tls=any OMPI_MCA_pml_ucx_devices=any)
for name in l1 l2 uc1 uc2 uc3 uc4 uc5; do
    run ob1 2 "$name" "${OB1[@]}"
    run ucx 2 "$name" "${UCX[@]}"
done
for name in l1 uc1 uc3 uc4 uc5; do
    run ob1 4 "$name" "${OB1[@]}"
done
exit $status
