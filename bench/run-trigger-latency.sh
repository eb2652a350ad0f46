#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Trigger-to-start latency of a stream queue (bench/trigger_latency.c): a
# send enqueued behind 10 us, 1 ms and 20 ms of stream work while the
# program makes no MPI call; the time from the stream reaching the trigger
# to the data landing at the peer.  Three settings, run in turn, ROUNDS
# times (medians over the rounds):
#   default   the progress thread as shipped (pending stream work keeps it
#             polling: mpi_async_progress_watch_sleep_us=0)
#   busy      the thread kept busy by hand (mpi_async_progress_spin at its
#             maximum: it never sleeps), the floor
#   old       pending stream work does not keep it polling
#             (mpi_async_progress_watch_sleep_us=-1: the loop before
#             2026-12-02, sleeps of up to mpi_async_progress_max_sleep_us)
# One line per delay:
#   delay <us> p50 <us> p99 <us> busy_p99 <us> agent_cpu <percent> old_p99 <us>
# agent_cpu: rank 0's threads other than its main one (the progress thread
# and the stream's), CPU time over wall time, default setting.
#
# Usage: bench/run-trigger-latency.sh [--emulated] [ROUNDS]
#   --emulated: the engine's emulated stream (no GPU needed); otherwise a
#   CUDA stream on the GPU
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
mode=gpu-cuda
if [ "${1:-}" = --emulated ]; then
    mode=emulated
    shift
fi
rounds=${1:-3}
scale=${TRIGGER_LATENCY_SCALE:-1}   # seconds of samples per delay and run
delays=(10 1000 20000)
bench_build trigger_latency

env_of() {
    local e="-x OMPI_MCA_mpi_async_progress=1"
    if [ "$mode" = emulated ]; then
        for kv in $(ompi_queue_emulated_env); do
            e="$e -x $kv"
        done
    fi
    case $1 in
    default) ;;
    busy) e="$e --mca mpi_async_progress_spin 2147483647" ;;
    old) e="$e --mca mpi_async_progress_watch_sleep_us -1" ;;
    esac
    echo "$e"
}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq 1 "$rounds"); do
    for setting in default busy old; do
        # shellcheck disable=SC2046
        timeout 300 "$PREFIX/bin/mpirun" -n 2 ${TRANSPORT[ob1]} $(env_of "$setting") \
            "$BENCH_BIN/trigger_latency" "$mode" "$scale" "${delays[@]}" \
            >> "$out/$setting" 2> "$out/$setting.err" || {
            cat "$out/$setting.err" >&2
            echo "trigger_latency failed ($setting, round $r)" >&2
            exit 1
        }
    done
done
echo "trigger-to-start latency, $mode stream, ob1, $rounds rounds (medians over the rounds), $(date -u +%F)"
python3 - "$out" "${delays[@]}" <<'PY'
import statistics, sys
out, delays = sys.argv[1], sys.argv[2:]
def read(setting):
    rows = {}
    for line in open(f"{out}/{setting}"):
        f = line.split()
        if f and f[0] == "delay":
            rows.setdefault(f[1], []).append(dict(zip(f[0::2], f[1::2])))
    return rows
d, b, o = read("default"), read("busy"), read("old")
med = lambda rows, k: statistics.median(float(x[k]) for x in rows)
for delay in delays:
    print(f"delay {delay} p50 {med(d[delay], 'p50'):.1f} p99 {med(d[delay], 'p99'):.1f} "
          f"busy_p99 {med(b[delay], 'p99'):.1f} agent_cpu {med(d[delay], 'agent_cpu'):.0f} "
          f"old_p99 {med(o[delay], 'p99'):.1f}")
PY
