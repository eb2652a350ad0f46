#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Installs, with apt, the Debian packages the build and the tests need
# (iproute2: the two-node tests, tests/netns; libmunge-dev: the internal
# PMIx's psec/munge, which Slurm's PMIx server asks for; slurm-wlm, munge
# and libpmix-dev, which Slurm's mpi/pmix plugin loads: tests/slurm),
# when missing.  With --docs, also what Open MPI's documentation needs
# (Sphinx and the modules of its docs/requirements.txt, from Debian): only
# make dist asks for them, to build the documentation of a base taken from
# a git tree, which has none prebuilt (contrib/queue/dist.sh).
# Idempotent: does nothing when everything is installed.
# OMPI_QUEUE_SKIP_DEPS=1 skips it (for machines without apt).

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PACKAGES="autoconf automake libtool flex pkg-config make gcc g++ gfortran perl python3 xz-utils
          libucx-dev libfabric-dev libhwloc-dev libevent-dev zlib1g-dev libamdhip64-dev ccache
          iproute2 procps libmunge-dev munge slurm-wlm libpmix-dev"
DOC_PACKAGES="python3-sphinx python3-sphinx-rtd-theme python3-recommonmark python3-docutils"
if [ "${1:-}" = "--docs" ]; then
    PACKAGES="$PACKAGES $DOC_PACKAGES"
fi

if [ "${OMPI_QUEUE_SKIP_DEPS:-0}" = "1" ]; then
    exit 0
fi

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

command -v apt-get >/dev/null || die "missing packages:$missing (no apt-get here: install them, or set OMPI_QUEUE_SKIP_DEPS=1)"
SUDO=""
[ "$(id -u)" = "0" ] || SUDO=sudo
log "installing:$missing"
$SUDO apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing >/dev/null
