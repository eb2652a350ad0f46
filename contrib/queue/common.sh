# Shared settings of the build driver (sourced, not run).
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$

OMPI_QUEUE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OMPI_VERSION=5.0.7
OMPI_DEB_VERSION=5.0.7-1
OMPI_DEB_SUITE=trixie
OMPI_SHA256=97f10c04e9b9a1771db3fd005009e4c07afa3ce739f940e41eb0fc7397cb9473
OMPI_TARBALL_NAME=openmpi_${OMPI_VERSION}.orig.tar.xz

OMPI_QUEUE_CACHE=${OMPI_QUEUE_CACHE:-$OMPI_QUEUE_ROOT/.cache}
OMPI_QUEUE_BUILD=${OMPI_QUEUE_BUILD:-$OMPI_QUEUE_ROOT/build}
OMPI_QUEUE_SRC=$OMPI_QUEUE_BUILD/openmpi-$OMPI_VERSION
PREFIX=${PREFIX:-$OMPI_QUEUE_ROOT/install}

# ccache (the builds put /usr/lib/ccache first in PATH): paths under the
# checkout are hashed relative to it and the working directory not at all,
# so that a clean checkout somewhere else (CI's) finds what an earlier
# build of the same sources compiled
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$OMPI_QUEUE_ROOT}
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}

# Our files that go into the Open MPI tree, at the same paths.
OMPI_QUEUE_OVERLAY_DIRS="config ompi opal"

# The patch series, in two parts applied in this order: fixes of stock
# defects that every build gets (patches/fixes/, written against the
# pristine release so that each can go upstream on its own), then the
# hooks the features need (patches/hooks/, written on top of the fixes).
OMPI_QUEUE_PATCH_PARTS="fixes hooks"

# The series in the order it applies, one path a line, relative to
# $OMPI_QUEUE_ROOT; with arguments, only those parts (e.g. "fixes").
# Every script that applies or reads the series takes it from here, so the
# order is written once.
ompi_queue_patches() {
    local part
    for part in ${*:-$OMPI_QUEUE_PATCH_PARTS}; do
        (cd "$OMPI_QUEUE_ROOT" && shopt -s nullglob && printf '%s\n' patches/"$part"/[0-9]*.patch) \
            | LC_ALL=C sort
    done
}

# The fork's own version (X.Y.Z), from the one file that keeps it.
ompi_queue_version() {
    local v
    v=$(sed -n 's/^ *ompi_queue_version=\([0-9][0-9.]*\)$/\1/p' \
        "$OMPI_QUEUE_ROOT/config/ompi_queue_version.m4")
    [[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "no X.Y.Z version in config/ompi_queue_version.m4" >&2; return 1; }
    echo "$v"
}

log() { printf '[ompi-queue] %s\n' "$*" >&2; }
die() { printf '[ompi-queue] error: %s\n' "$*" >&2; exit 1; }

# Pristine Open MPI 5.0.7 (no overlay, no patches), built by build-stock.sh for
# comparisons against stock: the MPICH regression gate and the benchmarks.
OMPI_STOCK_BUILD=${OMPI_STOCK_BUILD:-$OMPI_QUEUE_BUILD/stock}
OMPI_STOCK_SRC=$OMPI_STOCK_BUILD/openmpi-$OMPI_VERSION
OMPI_STOCK_PREFIX=${OMPI_STOCK_PREFIX:-$OMPI_STOCK_BUILD/install}

# Configure arguments that the fork (build.sh) and stock (build-stock.sh)
# share; each adds --prefix, and the fork --with-queue.
ompi_common_config_args() {
    printf '%s\n' --with-ucx --with-ofi \
        --with-hwloc=external --with-libevent=external \
        --with-pmix=internal --with-prrte=internal \
        --enable-mpi-fortran=all --disable-oshmem \
        --enable-mca-dso=accelerator-cuda,accelerator-rocm,btl-smcuda,rcache-gpusm,rcache-rgpusm
    if [ -f /usr/local/cuda/include/cuda.h ]; then
        printf '%s\n' --with-cuda=/usr/local/cuda
    fi
}

# Open MPI's own CUDA components (accelerator/cuda, rcache/gpusm,
# rcache/rgpusm, btl/smcuda) link libcuda and so cannot load where there is
# no CUDA driver; stock Open MPI then prints a load error for each in every
# process.  Keep those expected messages quiet in the install at $1; any
# other load error shows.
quiet_cuda_load_errors() {
    local params=$1/etc/openmpi-mca-params.conf
    local marker="# ompi-queue: quiet load errors of CUDA-linked components without a driver"
    if [ -f "$params" ] && ! grep -qF "$marker" "$params"; then
        printf '\n%s\nmca_base_component_show_load_errors = ^accelerator/cuda,rcache/gpusm,rcache/rgpusm,btl/smcuda\n' \
            "$marker" >> "$params"
    fi
}
