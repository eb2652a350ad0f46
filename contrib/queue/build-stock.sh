#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Builds and installs pristine Open MPI of the base (OMPI_BASE: 5.0.7 or
# 5.0.10; no overlay, no patches, no --with-queue) from the same tarball as
# the fork, with the fork's other configure arguments, and prints the
# install prefix on stdout.
#
#   build tree  $OMPI_STOCK_SRC     (build/stock/openmpi-5.0.7,
#                                    build-5.0.10/stock/openmpi-5.0.10)
#   install     $OMPI_STOCK_PREFIX  (build/stock/install, build-5.0.10/stock/install)
#
# Used wherever the fork is compared with stock: tests/mpich (the MPICH
# regression gate) and the benchmarks.  Does nothing when the install was
# made from the same tarball and arguments.  make runs under nice, so a
# concurrent build of the fork keeps the processor.
#
# Environment: OMPI_STOCK_PREFIX, OMPI_STOCK_CONFIGURE_EXTRA (more configure
# arguments), MAKE_JOBS, and those of install-deps.sh and fetch-upstream.sh.

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

hash_of() { sha256sum | cut -d' ' -f1; }
stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }

bash "$OMPI_QUEUE_ROOT/contrib/queue/install-deps.sh"
tarball=$(bash "$OMPI_QUEUE_ROOT/contrib/queue/fetch-upstream.sh")

mapfile -t config_args < <(ompi_common_config_args)
config_args=(--prefix="$OMPI_STOCK_PREFIX" "${config_args[@]}")
# shellcheck disable=SC2206
config_args+=(${OMPI_STOCK_CONFIGURE_EXTRA:-})

tar_hash=$(sha256sum "$tarball" | cut -d' ' -f1)
config_hash=$( (echo "$tar_hash"; printf '%s\n' "${config_args[@]}") | hash_of)
stamp=$OMPI_STOCK_BUILD/.stamp-install
if stamp_ok "$stamp" "$config_hash" && [ -x "$OMPI_STOCK_PREFIX/bin/mpirun" ]; then
    echo "$OMPI_STOCK_PREFIX"
    exit 0
fi

# 1. pristine tree, as released: a release tarball ships its configure, no
# autogen needed; a git tree of the release (5.0.10) has none
mkdir -p "$OMPI_STOCK_BUILD"
if [ ! -d "$OMPI_STOCK_SRC" ] || ! stamp_ok "$OMPI_STOCK_BUILD/.stamp-tarball" "$tar_hash"; then
    log "stock: unpacking $(basename "$tarball")"
    rm -rf "$OMPI_STOCK_SRC" "$OMPI_STOCK_BUILD"/.stamp-*
    tar -C "$OMPI_STOCK_BUILD" -xf "$tarball"
    ompi_prepare_tree "$OMPI_STOCK_SRC"
    echo "$tar_hash" > "$OMPI_STOCK_BUILD/.stamp-tarball"
fi
if [ ! -x "$OMPI_STOCK_SRC/configure" ]; then
    mapfile -t autogen_args < <(ompi_autogen_args "$OMPI_STOCK_SRC")
    log "stock: autogen.pl ${autogen_args[*]}"
    (cd "$OMPI_STOCK_SRC" && nice -n 10 ./autogen.pl "${autogen_args[@]}" > "$OMPI_STOCK_BUILD/autogen.log" 2>&1) \
        || { tail -30 "$OMPI_STOCK_BUILD/autogen.log"; die "stock autogen failed (log: $OMPI_STOCK_BUILD/autogen.log)"; }
fi

# 2. configure
if ! stamp_ok "$OMPI_STOCK_BUILD/.stamp-configure" "$config_hash" || [ ! -f "$OMPI_STOCK_SRC/config.status" ]; then
    log "stock: configure ${config_args[*]}"
    t0=$SECONDS
    (cd "$OMPI_STOCK_SRC" && PATH=/usr/lib/ccache:$PATH nice -n 10 ./configure "${config_args[@]}" \
        > "$OMPI_STOCK_BUILD/configure.log" 2>&1) \
        || { tail -30 "$OMPI_STOCK_BUILD/configure.log"; die "stock configure failed (log: $OMPI_STOCK_BUILD/configure.log)"; }
    echo "$config_hash" > "$OMPI_STOCK_BUILD/.stamp-configure"
    log "stock: configure done ($((SECONDS - t0)) s)"
fi

# 3. build and install
jobs=${MAKE_JOBS:-$(nproc)}
log "stock: make -j$jobs install (log: $OMPI_STOCK_BUILD/make.log)"
t0=$SECONDS
(cd "$OMPI_STOCK_SRC" && PATH=/usr/lib/ccache:$PATH nice -n 10 make -j"$jobs" install \
    > "$OMPI_STOCK_BUILD/make.log" 2>&1) \
    || { grep -E -B2 -A6 'error:|Error [0-9]' "$OMPI_STOCK_BUILD/make.log" | tail -60;
         die "stock make failed (log: $OMPI_STOCK_BUILD/make.log)"; }
quiet_cuda_load_errors "$OMPI_STOCK_PREFIX"
echo "$config_hash" > "$stamp"
log "stock: installed in $OMPI_STOCK_PREFIX ($((SECONDS - t0)) s)"
echo "$OMPI_STOCK_PREFIX"
