#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Puts the pinned Open MPI release tarball in the cache and prints its path.
#
#  - OMPI_TARBALL=/path/openmpi-5.0.7.tar.xz: use that copy (no apt needed);
#  - else the cached copy, when its checksum is right;
#  - else Debian's source package openmpi 5.0.7-1 (suite trixie), through a
#    deb-src entry made from the URIs that this machine's Debian sources use.
# Whatever the origin, the tarball must have the pinned sha256.

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

check_sha() {
    [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$OMPI_SHA256" ]
}

mkdir -p "$OMPI_QUEUE_CACHE"
cached=$OMPI_QUEUE_CACHE/$OMPI_TARBALL_NAME

if [ -n "${OMPI_TARBALL:-}" ]; then
    [ -f "$OMPI_TARBALL" ] || die "OMPI_TARBALL=$OMPI_TARBALL: no such file"
    check_sha "$OMPI_TARBALL" || die "OMPI_TARBALL=$OMPI_TARBALL: sha256 is not $OMPI_SHA256"
    echo "$OMPI_TARBALL"
    exit 0
fi

if [ -f "$cached" ] && check_sha "$cached"; then
    echo "$cached"
    exit 0
fi

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
check_sha "$tmp/$OMPI_TARBALL_NAME" || { rm -rf "$tmp"; die "$OMPI_TARBALL_NAME: sha256 is not $OMPI_SHA256"; }
mv "$tmp/$OMPI_TARBALL_NAME" "$cached"
rm -rf "$tmp"
echo "$cached"
