#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Puts the pinned Open MPI release tarball of the base (OMPI_BASE, common.sh)
# in the cache and prints its path.
#
#  - OMPI_TARBALL=/path/to/it: use that copy (no apt needed), for 5.0.7
#    openmpi-5.0.7.tar.xz, for 5.0.10 openmpi-5.0.10.tar.bz2 or the git
#    tree openmpi-5.0.10-git.tar.xz;
#  - else the cached copy, when its checksum is right;
#  - 5.0.7: else Debian's source package openmpi 5.0.7-1 (suite trixie),
#    through a deb-src entry made from the URIs that this machine's Debian
#    sources use;
#  - 5.0.10: else the git tree in ../shared/upstream/ beside the
#    repository, or beside the local repository it was cloned from (a
#    CI checkout elsewhere), where there is one; else an error saying
#    where the release tarball is (no Debian suite has 5.0.10).
# Whatever the origin, the tarball must have one of the base's pinned
# sha256 (OMPI_SHA256S).  With --no-download, only a tarball already here
# is printed (OMPI_TARBALL, the cache, ../shared/upstream/); else it exits
# 1 without a word (the checks of a base that is not the one being built).

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

check_sha() {
    local sum s
    sum=$(sha256sum "$1" | cut -d' ' -f1)
    for s in $OMPI_SHA256S; do
        [ "$sum" = "$s" ] && return 0
    done
    return 1
}
sums() { echo "${OMPI_SHA256S// / or }"; }

no_download=0
[ "${1:-}" = --no-download ] && no_download=1

mkdir -p "$OMPI_QUEUE_CACHE"
cached=$OMPI_QUEUE_CACHE/$OMPI_TARBALL_NAME

if [ -n "${OMPI_TARBALL:-}" ]; then
    [ -f "$OMPI_TARBALL" ] || die "OMPI_TARBALL=$OMPI_TARBALL: no such file"
    check_sha "$OMPI_TARBALL" || die "OMPI_TARBALL=$OMPI_TARBALL: sha256 is not $(sums) (Open MPI $OMPI_VERSION; OMPI_BASE=$OMPI_BASE)"
    echo "$OMPI_TARBALL"
    exit 0
fi

for name in $OMPI_TARBALL_NAMES; do
    if [ -f "$OMPI_QUEUE_CACHE/$name" ] && check_sha "$OMPI_QUEUE_CACHE/$name"; then
        echo "$OMPI_QUEUE_CACHE/$name"
        exit 0
    fi
done

if [ -z "$OMPI_DEB_VERSION" ]; then
    origin=$(git -C "$OMPI_QUEUE_ROOT" config --get remote.origin.url 2> /dev/null || true)
    for top in "$OMPI_QUEUE_ROOT" ${origin:+"$origin"}; do
        shared=$top/../shared/upstream/openmpi-$OMPI_VERSION-git.tar.xz
        if [ -f "$shared" ] && check_sha "$shared"; then
            echo "$(cd "$(dirname "$shared")" && pwd)/$(basename "$shared")"
            exit 0
        fi
    done
    [ "$no_download" = 0 ] || exit 1
    die "no Open MPI $OMPI_VERSION tarball: download $OMPI_TARBALL_URL (sha256 $OMPI_SHA256) and set OMPI_TARBALL to it, or put it in $OMPI_QUEUE_CACHE/"
fi

[ "$no_download" = 0 ] || exit 1
command -v apt-get >/dev/null || die "no apt-get: download Open MPI $OMPI_VERSION yourself and set OMPI_TARBALL"

# The archive URIs this machine already uses for Debian's main suites.
uris=$(bash "$OMPI_QUEUE_ROOT/contrib/queue/debian-uris.sh") || die "set OMPI_TARBALL instead"

SUDO=""
[ "$(id -u)" = "0" ] || SUDO=sudo
srcfile=/etc/apt/sources.list.d/ompi-queue-$OMPI_DEB_SUITE-src.sources
want="Types: deb-src
URIs: $uris
Suites: $OMPI_DEB_SUITE
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
if [ ! -f "$srcfile" ] || [ "$(cat "$srcfile")" != "$want" ]; then
    log "adding deb-src for $OMPI_DEB_SUITE: $srcfile"
    printf '%s\n' "$want" | $SUDO tee "$srcfile" >/dev/null
    $SUDO apt-get update -q >/dev/null
fi

log "downloading Debian source package openmpi=$OMPI_DEB_VERSION"
tmp=$(mktemp -d "$OMPI_QUEUE_CACHE/apt.XXXXXX")
chmod 755 "$tmp"
if ! (cd "$tmp" && apt-get source -q --download-only "openmpi=$OMPI_DEB_VERSION" >/dev/null 2>&1); then
    $SUDO apt-get update -q >/dev/null
    (cd "$tmp" && apt-get source -q --download-only "openmpi=$OMPI_DEB_VERSION" >/dev/null) \
        || { rm -rf "$tmp"; die "apt-get source openmpi=$OMPI_DEB_VERSION failed"; }
fi
[ -f "$tmp/$OMPI_TARBALL_NAME" ] || { rm -rf "$tmp"; die "the source package has no $OMPI_TARBALL_NAME"; }
check_sha "$tmp/$OMPI_TARBALL_NAME" || { rm -rf "$tmp"; die "$OMPI_TARBALL_NAME: sha256 is not $(sums)"; }
mv "$tmp/$OMPI_TARBALL_NAME" "$cached"
rm -rf "$tmp"
echo "$cached"
