#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The GPU check, in one call on the GPU machine: the CUDA tests (queue_cuda
# over ob1 with sm and with smcuda, and UCX, on three match channels;
# graphs_cuda), the stream ping-pong with its floor and the cost of the
# enqueue's driver checks (bench/run-queue-cuda.sh), the trigger-to-start
# latency behind stream work (bench/run-trigger-latency.sh), and one report,
# OUT/report.txt: the GPU model, driver and date, each case's verdict, each
# figure; the logs beside it.  It ends with "gpu-check: N passed, N failed"
# and fails when a case failed or a GPU case did not run.
#
# --emulated: the same script without a GPU, on the stream engine's emulated
# stream (make check runs it so): the emulated cases instead of the GPU
# ones, and the benchmarks are built but not timed (an emulated stream's
# times say nothing of a GPU).
#
# Usage: contrib/queue/gpu-check.sh [--emulated] OUT
# On the GPU machine, from the repository root with build/device-bundle,
# tests/bin and bench/bin carried (contrib/queue/device-bundle.sh makes all
# three); nothing is compiled there.

set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
cd "$OMPI_QUEUE_ROOT"

emulated=0
if [ "${1:-}" = "--emulated" ]; then
    emulated=1
    shift
fi
[ $# = 1 ] || die "usage: contrib/queue/gpu-check.sh [--emulated] OUT"
out=$1
mkdir -p "$out/logs" || die "cannot make $out"
report=$out/report.txt
# the test runner (tests/plan.py, tests/run-plan.py) is Python 3's standard
# library only; a machine without python3 cannot run the cases
command -v python3 > /dev/null || die "no python3 here: the test runner needs it (standard library only)"

if [ -f "$OMPI_QUEUE_BUILD/device-bundle/env.sh" ] && [ ! -x "$PREFIX/bin/mpirun" ]; then
    # shellcheck disable=SC1091
    source "$OMPI_QUEUE_BUILD/device-bundle/env.sh"
    export OMPI_QUEUE_PREBUILT=1
fi
export OMPI_QUEUE_NO_BUILD=1
# the GPU cases only: the sanitizer pass is make check's
export OMPI_QUEUE_SANITIZE=0

passed=0
failed=0
say() { echo "$*" | tee -a "$report"; }

: > "$report"
say "gpu-check of $(git rev-parse --short HEAD 2>/dev/null || echo 'an unknown commit'), $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname)"
if [ 1 = "$emulated" ]; then
    say "GPU: none, the emulated stream (the engine's logic, not a GPU)"
elif command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then
    say "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -n 1) (name, driver, memory)"
    say "CUDA driver API: $(nvidia-smi | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -n 1)"
else
    say "GPU: none found (nvidia-smi -L fails): every GPU case below will fail"
fi

# 1. tests: on a GPU the GPU cases (SKIP is a failure there) and the
# emulated ones; emulated, only those
for t in queue_cuda graphs_cuda; do
    log=$out/logs/$t.log
    # its own logs and verdicts: make check runs this script as one of its
    # cases, and must keep its own
    QTEST_LOGDIR=$out/logs/$t bash tests/run-tests.sh "$t" > "$log" 2>&1
    while read -r verdict rest; do
        case "$rest" in
        *gpu-cuda*|*no-gpu*)
            [ 1 = "$emulated" ] && continue
            ;;
        esac
        case "$verdict" in
        PASS) passed=$((passed + 1)); say "PASS $rest" ;;
        FAIL) failed=$((failed + 1)); say "FAIL $rest" ;;
        SKIP)
            # a GPU case that did not run has not passed
            failed=$((failed + 1)); say "FAIL (did not run: $(grep -m1 -o 'SKIP.*' <<< "$rest")) $rest" ;;
        esac
    done < <(grep -aE '^(PASS|FAIL|SKIP) ' "$log")
done

# 2. benchmarks
if [ 1 = "$emulated" ]; then
    source bench/common.sh
    for b in queue_cuda_pingpong cuda_enqueue_calls trigger_latency; do
        if bench_build "$b" > "$out/logs/bench-$b.build.log" 2>&1; then
            passed=$((passed + 1)); say "PASS bench/$b builds (not timed on the emulated stream)"
        else
            failed=$((failed + 1)); say "FAIL bench/$b does not build (see $out/logs/bench-$b.build.log)"
        fi
    done
else
    for run in "run-queue-cuda.sh" "run-trigger-latency.sh 1"; do
        blog=$out/logs/${run%% *}.log
        # shellcheck disable=SC2086
        if timeout 420 bash bench/$run > "$blog" 2>&1 && ! grep -q '^SKIP' "$blog"; then
            passed=$((passed + 1)); say "PASS bench/$run:"
            sed 's/^/    /' "$blog" | tee -a "$report"
        else
            failed=$((failed + 1)); say "FAIL bench/$run (see $blog):"
            tail -n 20 "$blog" | sed 's/^/    | /' | tee -a "$report"
        fi
    done
fi

say "gpu-check: $passed passed, $failed failed"
[ 0 = "$failed" ]
