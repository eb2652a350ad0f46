#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Builds one of the proposal's listings / use cases (examples/graphs/NAME.c)
# with the installed mpicc and runs it; each program checks its own results
# and exits non-zero on a mismatch.
# Usage: examples/graphs/run.sh NAME [NRANKS]     (NAME: l1 l2 uc1 uc2 uc3 uc4 uc5, or all)

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../contrib/queue/common.sh"
name=${1:?usage: run.sh NAME [NRANKS]}
np=${2:-2}
if [ "$(id -u)" = "0" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
mkdir -p "$OMPI_QUEUE_ROOT/examples/bin"
if [ "$name" = all ]; then
    for n in l1 l2 uc1 uc2 uc3 uc4 uc5; do
        "$0" "$n" "$np"
    done
    exit 0
fi
exe=$OMPI_QUEUE_ROOT/examples/bin/graphs_$name
"$PREFIX/bin/mpicc" -Wall -O2 -o "$exe" "$OMPI_QUEUE_ROOT/examples/graphs/$name.c"
timeout 120 "$PREFIX/bin/mpirun" --oversubscribe -n "$np" "$exe"
