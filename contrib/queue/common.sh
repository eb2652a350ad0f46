# Shared settings of the build driver (sourced, not run).
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$

OMPI_QUEUE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# The Open MPI release the fork is built on (README, "Bases"): 5.0.7, the
# one the series is written for and the default, or 5.0.10.  A base other
# than 5.0.7 has its own build tree, install and test programs (the
# suffix), so that switching between bases never rebuilds either from
# scratch, and may have its own variants of patches (patches/base-BASE/,
# see ompi_queue_patches).
OMPI_BASES="5.0.7 5.0.10"
OMPI_BASE=${OMPI_BASE:-5.0.7}
case "$OMPI_BASE" in
5.0.7)
    OMPI_VERSION=5.0.7
    OMPI_BASE_SUFFIX=""
    # Debian's source package carries upstream's openmpi-5.0.7.tar.xz as
    # its orig tarball: fetch-upstream.sh takes it from there
    OMPI_DEB_VERSION=5.0.7-1
    OMPI_DEB_SUITE=trixie
    OMPI_SHA256=97f10c04e9b9a1771db3fd005009e4c07afa3ce739f940e41eb0fc7397cb9473
    OMPI_SHA256S=$OMPI_SHA256
    OMPI_TARBALL_NAME=openmpi_${OMPI_VERSION}.orig.tar.xz
    OMPI_TARBALL_NAMES=$OMPI_TARBALL_NAME
    ;;
5.0.10)
    OMPI_VERSION=5.0.10
    OMPI_BASE_SUFFIX=-5.0.10
    # No Debian suite has it: a site downloads the release tarball
    # ($OMPI_TARBALL_URL, with upstream's sha256 below), or uses a git
    # tree of tag v5.0.10 packed with its submodules (the second sha256:
    # the tarball that ../shared/upstream/ beside the repository holds,
    # whose README tells how it was made).  The two differ in what the
    # build must add (ompi_prepare_tree, ompi_autogen_args).
    OMPI_DEB_VERSION=""
    OMPI_SHA256=0acecc4fc218e5debdbcb8a41d182c6b0f1d29393015ed763b2a91d5d7374cc6
    OMPI_SHA256S="$OMPI_SHA256 1681afa2f9e8429e1598a39fc1c1145751cc89d594c464b5492d1d1c580d6be4"
    OMPI_TARBALL_NAME=openmpi-$OMPI_VERSION.tar.bz2
    OMPI_TARBALL_NAMES="$OMPI_TARBALL_NAME openmpi-$OMPI_VERSION-git.tar.xz"
    OMPI_TARBALL_URL=https://download.open-mpi.org/release/open-mpi/v5.0/$OMPI_TARBALL_NAME
    ;;
*)
    printf '[ompi-queue] error: OMPI_BASE=%s: the bases are %s\n' "$OMPI_BASE" "$OMPI_BASES" >&2
    exit 1
    ;;
esac

OMPI_QUEUE_CACHE=${OMPI_QUEUE_CACHE:-$OMPI_QUEUE_ROOT/.cache}
OMPI_QUEUE_BUILD=${OMPI_QUEUE_BUILD:-$OMPI_QUEUE_ROOT/build$OMPI_BASE_SUFFIX}
OMPI_QUEUE_SRC=$OMPI_QUEUE_BUILD/openmpi-$OMPI_VERSION
PREFIX=${PREFIX:-$OMPI_QUEUE_ROOT/install$OMPI_BASE_SUFFIX}
# queue/emulated, the tests' emulated stream: built, never installed
# (ompi/mca/queue/emulated/Makefile.am); a run that puts this directory on
# mca_base_component_path loads it (ompi_queue_emulated_env)
OMPI_QUEUE_TEST_COMPONENTS=${OMPI_QUEUE_TEST_COMPONENTS:-$OMPI_QUEUE_SRC/ompi/mca/queue/emulated/.libs}
ompi_queue_emulated_env() {   # [install prefix] -> the NAME=VALUE lines that load queue/emulated
    local prefix=${1:-$PREFIX}
    echo "OMPI_MCA_mca_base_component_path=$prefix/lib/openmpi:$OMPI_QUEUE_TEST_COMPONENTS"
    # mpirun hands mca_base_* parameters to PMIx as well, which would scan
    # Open MPI's components and warn of each: PMIx keeps a path of its own
    echo "PMIX_MCA_mca_base_component_path=$prefix/lib/pmix"
}

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

# The series of base $OMPI_BASE in the order it applies, one path a line,
# relative to $OMPI_QUEUE_ROOT; with arguments, only those parts (e.g.
# "fixes").  Every script that applies or reads the series takes it from
# here, so the order is written once.  patches/ is written for 5.0.7; what
# another base needs instead is in patches/base-BASE/, and nowhere else:
#   PART/NNNN-NAME.patch  replaces patches/PART/NNNN-NAME.patch (a hook
#                         redone for that release's code, or the same
#                         patch with the line numbers of that release:
#                         tests/check_overlay.sh tells which and keeps a
#                         copy equal to its original), or, a name that
#                         patches/PART/ lacks, is applied on that base only
#                         (a fix that only that release needs);
#   not-applied           the patches of patches/ that base leaves out, one
#                         a line, "PATH STATUS" as contrib/queue/upstream-status.sh
#                         prints it for the release (the release has the
#                         fix); tests/check_upstream_status.sh keeps the
#                         list equal to what that script says.
ompi_queue_patches() {
    local part p base=$OMPI_QUEUE_ROOT/patches/base-$OMPI_BASE skip=""
    [ -f "$base/not-applied" ] && skip=$(sed -n 's|^\(patches/[^ ]*\.patch\) .*|\1|p' "$base/not-applied")
    for part in ${*:-$OMPI_QUEUE_PATCH_PARTS}; do
        (cd "$OMPI_QUEUE_ROOT" && shopt -s nullglob
         for p in patches/"$part"/[0-9]*.patch; do
             grep -qxF "$p" <<< "$skip" && continue
             if [ -f "$base/$part/${p##*/}" ]; then
                 p=patches/base-$OMPI_BASE/$part/${p##*/}
             fi
             printf '%s %s\n' "${p##*/}" "$p"
         done
         for p in patches/base-"$OMPI_BASE"/"$part"/[0-9]*.patch; do
             [ -f "patches/$part/${p##*/}" ] || printf '%s %s\n' "${p##*/}" "$p"
         done) | LC_ALL=C sort | cut -d' ' -f2
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

# Makes the tree at $1, just unpacked, read as its release.  A git tree of
# a release (5.0.10's second tarball) keeps in VERSION the greek of the
# last release candidate ("rc2") and no repo_rev, so that configure would
# name the build 5.0.10rc2 (ompi_info, the ident string,
# MPI_Get_library_version) with a date for its revision: given the values
# the release tarball has, it reads as the release.  A release tarball
# (its tarball_version is not "gitclone") is left as it is.
ompi_prepare_tree() {
    local v=$1/VERSION
    grep -q '^tarball_version=gitclone$' "$v" || return 0
    sed -i -e 's/^greek=.*/greek=/' -e "s/^repo_rev=.*/repo_rev=v$OMPI_VERSION/" \
        -e 's/^tarball_version=.*/tarball_version=/' "$v"
    # The documentation names the hwloc and libevent that 3rd-party/
    # bundles; with none bundled, conf.py's substitutions came out empty,
    # which Sphinx reports as an error on every page, and the docs'
    # Makefile runs Sphinx with -W: a site that has Sphinx (configure then
    # rebuilds the documentation) failed in make install.
    if ! compgen -G "$1/3rd-party/hwloc-*.tar.gz" > /dev/null \
        || ! compgen -G "$1/3rd-party/libevent-*.tar.gz" > /dev/null; then
        sed -i 's/^    return ""$/    return "none (configure with an external one)"/' "$1/docs/conf.py"
        grep -q '^    return "none (configure' "$1/docs/conf.py" \
            || die "$1/docs/conf.py: no 'return \"\"' for the bundled versions to replace"
    fi
}

# autogen.pl's arguments for the tree at $1, one a line.  A release
# tarball bundles hwloc and libevent as tarballs under 3rd-party/; a git
# tree does not, and autogen.pl must then be told to leave them out (the
# builds configure with the system's, ompi_common_config_args).
ompi_autogen_args() {
    local missing=""
    compgen -G "$1/3rd-party/libevent-*.tar.gz" > /dev/null || missing=libevent
    compgen -G "$1/3rd-party/hwloc-*.tar.gz" > /dev/null || missing=${missing:+$missing,}hwloc
    printf '%s\n' --force
    [ -z "$missing" ] || printf '%s\n' --no-3rdparty "$missing"
}

# Pristine Open MPI of the base (no overlay, no patches), built by build-stock.sh for
# comparisons against stock: the MPICH regression gate and the benchmarks.
OMPI_STOCK_BUILD=${OMPI_STOCK_BUILD:-$OMPI_QUEUE_BUILD/stock}
OMPI_STOCK_SRC=$OMPI_STOCK_BUILD/openmpi-$OMPI_VERSION
OMPI_STOCK_PREFIX=${OMPI_STOCK_PREFIX:-$OMPI_STOCK_BUILD/install}

# Configure arguments that the fork (build.sh) and stock (build-stock.sh)
# share; each adds --prefix, and the fork --with-queue.  --disable-sphinx:
# configure would otherwise rebuild Open MPI's whole documentation in every
# build on a machine that has Sphinx (make dist installs it for a git
# tree's base); a release tarball installs its prebuilt pages without it.
ompi_common_config_args() {
    printf '%s\n' --with-ucx --with-ofi --disable-sphinx \
        --with-hwloc=external --with-libevent=external \
        --with-pmix=internal --with-prrte=internal --with-munge \
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
