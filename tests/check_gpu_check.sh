#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The GPU check rehearsed without a GPU: contrib/queue/gpu-check.sh
# --emulated runs the CUDA tests' emulated cases and builds the GPU
# benchmarks, so that a run on a GPU machine only has to carry the bundle
# and call the script.  Its report must name every emulated case, pass
# them all, and end with its count.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
cd "$OMPI_QUEUE_ROOT"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0

bash contrib/queue/gpu-check.sh --emulated "$out" > "$out/stdout" 2>&1
rc=$?
report=$out/report.txt
[ -f "$report" ] || { echo "FAIL: no report"; cat "$out/stdout"; exit 1; }
last=$(tail -n 1 "$report")
if ! [[ "$last" =~ ^gpu-check:\ ([0-9]+)\ passed,\ 0\ failed$ ]] || [ 0 != "$rc" ]; then
    echo "FAIL: gpu-check --emulated (exit $rc): $last"
    cat "$report"
    exit 1
fi
# every emulated case of the plan is in the report
expected=$( (python3 tests/plan.py --names queue_cuda; python3 tests/plan.py --names graphs_cuda) \
           | grep -c 'emulated')
got=$(grep -c '^PASS queue_cuda \[.*emulated\|^PASS graphs_cuda \[.*emulated' "$report")
if [ "$got" != "$expected" ]; then
    echo "FAIL: the report has $got emulated cases passed, the plan gives $expected"
    cat "$report"
    status=1
fi
grep -q '^GPU: none, the emulated stream' "$report" \
    || { echo "FAIL: the report does not say what it ran on"; status=1; }
[ 0 = "$status" ] && echo "gpu-check --emulated: $got emulated cases and the benchmarks' builds passed"
exit $status
