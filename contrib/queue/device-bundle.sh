#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Makes build/device-bundle for a bare machine of the same distribution
# family (the GPU machine, which reaches no package registry): the install
# without its documentation, the shared libraries it loads that are not
# glibc's, UCX's transport modules, and env.sh. On that machine:
#   source build/device-bundle/env.sh
#   OMPI_QUEUE_NO_BUILD=1 bash tests/run-tests.sh queue_cuda
# or, in one call, contrib/queue/gpu-check.sh OUT. The GPU tests and
# benchmarks are built here too (tests/bin, bench/bin: carry them), since
# the GPU machine may have no compiler.
# Usage: contrib/queue/device-bundle.sh   (after make)

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

out=$OMPI_QUEUE_BUILD/device-bundle
[ -x "$PREFIX/bin/mpirun" ] || die "no install in $PREFIX: run make first"
mkdir -p "$OMPI_QUEUE_ROOT/tests/bin"
for t in queue_cuda graphs_cuda; do
    "$PREFIX/bin/mpicc" -Wall -Wextra -Werror -O2 -g -o "$OMPI_QUEUE_ROOT/tests/bin/$t" \
        "$OMPI_QUEUE_ROOT/tests/$t.c"
done
source "$OMPI_QUEUE_ROOT/bench/common.sh"
for b in queue_cuda_pingpong cuda_enqueue_calls trigger_latency; do
    bench_build "$b"
done
rm -rf "$out"
mkdir -p "$out/install/share" "$out/deps"
cp -a "$PREFIX/bin" "$PREFIX/lib" "$PREFIX/etc" "$PREFIX/include" "$out/install/"
for d in openmpi pmix prte; do
    [ -d "$PREFIX/share/$d" ] && cp -a "$PREFIX/share/$d" "$out/install/share/"
done
# the tests' emulated stream (never installed), for the emulated cases
mkdir -p "$out/test-components"
cp "$OMPI_QUEUE_TEST_COMPONENTS/mca_queue_emulated.so" "$out/test-components/" \
    || die "no queue/emulated in $OMPI_QUEUE_TEST_COMPONENTS: run make first"

# every library the install's binaries and libraries load, less glibc's own
# (the bare machine has those, and they must match its loader)
glibc='/(libc|libm|libdl|libpthread|librt|libutil|libresolv|ld-linux[^/]*)\.so'
ucx_modules=$(dirname "$(ldconfig -p | awk '/libucp.so.0 /{print $NF; exit}')")/ucx
# (ldd fails on scripts and data files: only its output matters)
libs=$(find "$out/install/bin" "$out/install/lib" "$ucx_modules" -type f \
            \( -perm -u+x -o -name '*.so*' \) -print0 2>/dev/null \
       | { xargs -0 ldd 2>/dev/null || true; } | awk '/=> \//{print $3}' | sort -u \
       | grep -Ev "$glibc" | grep -v -e "^$out" -e "^$PREFIX" -e '^/usr/local/cuda' || true)
for lib in $libs; do
    cp -L "$lib" "$out/deps/"
done
if [ -d "$ucx_modules" ]; then
    mkdir -p "$out/deps/ucx"
    cp -L "$ucx_modules"/*.so* "$out/deps/ucx/"
fi

cat > "$out/env.sh" <<'ENV'
# source this file: points Open MPI, the loader and our test runner at the bundle
bundle=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$bundle/install
export PREFIX=$bundle/install
export PATH=$bundle/install/bin:$PATH
export LD_LIBRARY_PATH=$bundle/install/lib:$bundle/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export UCX_MODULE_DIR=$bundle/deps/ucx
export OMPI_QUEUE_NO_BUILD=1
export OMPI_QUEUE_PREBUILT=1
export OMPI_QUEUE_TEST_COMPONENTS=$bundle/test-components
ENV
du -sh "$out" | awk '{print "device bundle: " $1 " in '"$out"'"}'
