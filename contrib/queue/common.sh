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

# Our files that go into the Open MPI tree, at the same paths.
OMPI_QUEUE_OVERLAY_DIRS="config ompi opal"

log() { printf '[ompi-queue] %s\n' "$*" >&2; }
die() { printf '[ompi-queue] error: %s\n' "$*" >&2; exit 1; }
