#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Instructions per MPI_Enqueue_startall and per MPI_Enqueue_waitall of two
# requests (inclusive), from bench/enqueue_calls.c under callgrind (the
# counted loop only): on a default queue (the host engine) and on the
# emulated stream (queue/emulated on the component path: the stream
# engine's path of a GPU queue).  BASE_PREFIX=another install prints its
# counts beside (the same program built against it), for a before/after of
# a change; BASE_TEST_COMPONENTS=its build's queue/emulated directory (an
# install whose default component has the parameter emulate_stream takes
# that instead).
# The waitall includes one progress pass, so it moves a little with what
# that pass finds; the startall does not.
# Usage: [BASE_PREFIX=...] bench/callgrind-enqueue.sh

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
command -v valgrind > /dev/null || { echo "SKIP: valgrind is not installed"; exit 0; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
CALLS=2000   # ITERS in enqueue_calls.c

count() {   # prefix exe emulate(0|1) test-components -> "startall waitall"
    local prefix=$1 exe=$2 f=$out/$RANDOM
    local -a emu=()
    # queue/emulated on the component path; an install whose default
    # component has emulate_stream takes that parameter instead
    [ 1 = "$3" ] && mapfile -t emu < <(OMPI_QUEUE_TEST_COMPONENTS=$4 ompi_queue_emulated_env "$prefix"
                                       echo OMPI_MCA_queue_default_emulate_stream=1)
    # --fair-sched: the emulated stream's thread must run while the fence polls
    OPAL_PREFIX=$prefix env "${emu[@]}" timeout 900 \
        "$prefix/bin/mpirun" -n 1 ${TRANSPORT[ob1]} valgrind -q --fair-sched=yes \
        --tool=callgrind --toggle-collect=exchange --callgrind-out-file="$f" "$exe" > /dev/null
    callgrind_annotate --inclusive=yes --threshold=100 "$f" 2> /dev/null \
        | awk -v n=$CALLS '{ gsub(",", "", $1) }
                           /:PMPI_Enqueue_startall / { s = $1 }
                           /:PMPI_Enqueue_waitall / { w = $1 }
                           END { printf "%.0f %.0f", s / n, w / n }'
}

"$PREFIX/bin/mpicc" -O2 -o "$out/enqueue_calls" "$OMPI_QUEUE_ROOT/bench/enqueue_calls.c"
prefixes=("$PREFIX")
exes=("$out/enqueue_calls")
components=("$OMPI_QUEUE_TEST_COMPONENTS")
if [ -n "${BASE_PREFIX:-}" ]; then
    "$BASE_PREFIX/bin/mpicc" -O2 -o "$out/enqueue_calls.base" "$OMPI_QUEUE_ROOT/bench/enqueue_calls.c"
    prefixes+=("$BASE_PREFIX")
    exes+=("$out/enqueue_calls.base")
    components+=("${BASE_TEST_COMPONENTS:-}")
fi
echo "instructions per call of two requests, 1 rank exchanging with itself, ob1 (callgrind)"
for i in "${!prefixes[@]}"; do
    for e in 0 1; do
        read -r s w <<< "$(count "${prefixes[$i]}" "${exes[$i]}" $e "${components[$i]}")"
        printf '%-40s %-16s MPI_Enqueue_startall %5s  MPI_Enqueue_waitall %5s\n' \
            "${prefixes[$i]}" "$([ 1 = $e ] && echo "emulated stream" || echo "default queue")" "$s" "$w"
    done
done
