#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Sourced by the bench/run-*.sh scripts: the installed fork, the transports
# every benchmark compares, and building a benchmark.

source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
# one folder of binaries a base, as tests/bin: each is built against its
# base's mpi.h
BENCH_BIN=$OMPI_QUEUE_ROOT/bench/bin$OMPI_BASE_SUFFIX
mkdir -p "$BENCH_BIN"
[ "$(id -u)" = "0" ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

declare -A TRANSPORT=(
    [ob1]="--mca pml ob1 --mca btl self,sm"
    [ucx]="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any"
    [cm]="--mca pml cm --mca mtl ofi --mca opal_common_ofi_provider_include tcp"
)

# bench_build NAME: bench/NAME.c -> $BENCH_BIN/NAME, unless up to date (a
# machine without a compiler can run binaries built elsewhere)
bench_build() {
    local src=$OMPI_QUEUE_ROOT/bench/$1.c exe=$BENCH_BIN/$1
    [ -x "$exe" ] && [ "${OMPI_QUEUE_PREBUILT:-0}" = 1 ] && return 0
    if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ] || [ "$OMPI_QUEUE_ROOT/bench/bench_util.h" -nt "$exe" ] \
       || [ "$OMPI_QUEUE_ROOT/bench/bench_graphs.h" -nt "$exe" ]; then
        "$PREFIX/bin/mpicc" -O2 -o "$exe" "$src"
    fi
}

# bench_run2 TRANSPORT NAME [mpirun options]: run bench/bin/NAME on 2 ranks
bench_run2() {
    local tr=$1 name=$2
    shift 2
    # shellcheck disable=SC2086
    timeout 300 "$PREFIX/bin/mpirun" -n 2 ${TRANSPORT[$tr]} "$@" "$BENCH_BIN/$name"
}
