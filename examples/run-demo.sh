#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Compiles examples/ring.c with the installed mpicc and runs it.
# Usage: examples/run-demo.sh [NRANKS]

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
np=${1:-4}
mkdir -p "$OMPI_QUEUE_ROOT/examples/bin"
"$PREFIX/bin/mpicc" -Wall -O2 -o "$OMPI_QUEUE_ROOT/examples/bin/ring" "$OMPI_QUEUE_ROOT/examples/ring.c"
if [ "$(id -u)" = "0" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
exec timeout 120 "$PREFIX/bin/mpirun" --oversubscribe -n "$np" "$OMPI_QUEUE_ROOT/examples/bin/ring"
