#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Builds the directories of tests/mpich/subset.txt of MPICH's test suite
# against the Open MPI installed at PREFIX, and prints the build directory.
#
# Usage: tests/mpich/build-suite.sh PREFIX
#
# The suite is configured the way MPICH documents for other MPI libraries
# (--with-mpi=PREFIX --enable-strictmpi: no MPIX extensions, no tests of
# MPICH internals).  The build directory, build/mpich-tests/obj-NAME, is
# kept: it is configured again (from scratch) only when the install's
# headers, the configure arguments or the suite's source change; make then
# rebuilds only what is out of date.  A program that does not compile is
# left out (make -k); the runner reports it as a failure.
# Environment: MAKE_JOBS.

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../contrib/queue/common.sh"

prefix=${1:?usage: build-suite.sh PREFIX}
prefix=$(cd "$prefix" && pwd)
[ -x "$prefix/bin/mpicc" ] || die "no $prefix/bin/mpicc"

src=$(bash "$OMPI_QUEUE_ROOT/contrib/queue/fetch-mpich-tests.sh")
subset=$OMPI_QUEUE_ROOT/tests/mpich/subset.txt
dirs=$(awk '$1 == "dir" { print $2 }' "$subset")

# obj-<parent>-<name> of the prefix: obj-main-install, obj-stock-install
obj=$OMPI_QUEUE_BUILD/mpich-tests/obj-$(basename "$(dirname "$prefix")")-$(basename "$prefix")

# OMPI_OMIT_MPI1_COMPAT_DECLS=0: Open MPI 5.0 still exports the MPI-1
# functions and constants that MPI-3.0 deleted, but mpi.h declares them only
# on request; MPICH 4.0.2's datatype pool library (dtpools) and a few
# datatype tests use them.
config_args=(--with-mpi="$prefix" --enable-strictmpi
             --disable-fortran --disable-cxx --disable-romio --disable-spawn
             --disable-ft-tests --disable-perftest
             CPPFLAGS=-DOMPI_OMIT_MPI1_COMPAT_DECLS=0)
config_hash=$( (cat "$OMPI_QUEUE_BUILD/mpich-tests/.stamp-src"; printf '%s\n' "${config_args[@]}";
                cat "$prefix"/include/mpi*.h) | sha256sum | cut -d' ' -f1)
if [ ! -f "$obj/.stamp-configure" ] || [ "$(cat "$obj/.stamp-configure")" != "$config_hash" ]; then
    log "mpich tests: configure against $prefix (in $obj)"
    rm -rf "$obj"
    mkdir -p "$obj"
    (cd "$obj" && "$src/configure" "${config_args[@]}" > configure.log 2>&1) \
        || { tail -20 "$obj/configure.log" >&2; die "configure of the MPICH tests failed (log: $obj/configure.log)"; }
    echo "$config_hash" > "$obj/.stamp-configure"
fi

jobs=${MAKE_JOBS:-$(nproc)}
log "mpich tests: make -k -j$jobs in ${dirs//$'\n'/ } (log: $obj/make.log)"
: > "$obj/make.log"
# the support libraries first, so that -j does not build them twice
nice -n 10 make -C "$obj/util" -j"$jobs" libmtest_single.la >> "$obj/make.log" 2>&1 \
    || die "libmtest did not build (log: $obj/make.log)"
nice -n 10 make -C "$obj/dtpools" -j"$jobs" >> "$obj/make.log" 2>&1 \
    || die "dtpools did not build (log: $obj/make.log)"
for d in $dirs; do
    nice -n 10 make -C "$obj/$d" -k -j"$jobs" >> "$obj/make.log" 2>&1 || true
done
echo "$obj"
