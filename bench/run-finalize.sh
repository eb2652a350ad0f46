#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The time of MPI_Init and of MPI_Finalize in a 2-rank job that does
# nothing else (bench/finalize_time.c), on ob1, UCX and pml cm over
# libfabric's tcp provider, each beside the same with btl ofi left out
# (--mca btl ^ofi; ob1's transport names its btls, ofi is not among them),
# ROUNDS runs each, interleaved, medians:
#   <transport> init <s> finalize <s> without-btl-ofi: init <s> finalize <s>
# Usage: bench/run-finalize.sh [ROUNDS]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
rounds=${1:-5}
bench_build finalize_time
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq 1 "$rounds"); do
    for tr in ob1 ucx cm; do
        bench_run2 "$tr" finalize_time >> "$out/$tr"
        if [ "$tr" = ob1 ]; then
            # its transport names its btls: ofi is never opened
            bench_run2 "$tr" finalize_time >> "$out/$tr.noofi"
        else
            bench_run2 "$tr" finalize_time --mca btl ^ofi >> "$out/$tr.noofi"
        fi
    done
done
echo "MPI_Init and MPI_Finalize, 2 ranks, $rounds runs each (medians), $(date -u +%F)"
for tr in ob1 ucx cm; do
    python3 - "$tr" "$out/$tr" "$out/$tr.noofi" <<'PY'
import statistics, sys
def med(path, key):
    vals = [float(l.split()[l.split().index(key) + 1]) for l in open(path) if key in l]
    return statistics.median(vals)
tr, a, b = sys.argv[1:]
print(f"{tr:4} init {med(a, 'init'):.3f} finalize {med(a, 'finalize'):.3f} "
      f"without-btl-ofi: init {med(b, 'init'):.3f} finalize {med(b, 'finalize'):.3f}")
PY
done
