#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Puts MPICH's own test suite (test/mpi of the MPICH release) under
# build/mpich-tests/mpi and prints that path.  The MPI-implementation-neutral
# suite is what tests/mpich/run-mpich.sh builds against Open MPI.
#
#  - MPICH_TARBALL=/path/mpich_4.0.2.orig.tar.xz: use that copy (Debian's
#    orig tarball: it must have the sha256 below);
#  - else the cached copy in .cache/, when its checksum is right;
#  - else Debian's source package mpich 4.0.2-3 (suite bookworm), through a
#    deb-src entry made from the URIs this machine's Debian sources use.
#    The entry lives in a private apt state under .cache/: the machine's apt
#    configuration is left as it is.
# Whatever the origin, the tarball must have the pinned sha256.
#
# Debian 13's mpich 4.3.0+really4.2.1-1 would do as well, but its files
# were missing from this project's archive mirror (404) when this was
# written; bookworm's 4.0.2-3 has test/mpi with the same directories.

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

MPICH_VERSION=4.0.2
MPICH_DEB_VERSION=4.0.2-3
MPICH_DEB_SUITE=bookworm
MPICH_SHA256=b27039f964afeb6b8a3e009c56b441cbe368c26d6d6476ad3bb7190996875860
MPICH_TARBALL_NAME=mpich_${MPICH_VERSION}.orig.tar.xz

dest=$OMPI_QUEUE_BUILD/mpich-tests
src=$dest/mpi
cached=$OMPI_QUEUE_CACHE/$MPICH_TARBALL_NAME

check_sha() {
    [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$MPICH_SHA256" ]
}

fetch_tarball() {   # prints the path of a checked tarball
    if [ -n "${MPICH_TARBALL:-}" ]; then
        [ -f "$MPICH_TARBALL" ] || die "MPICH_TARBALL=$MPICH_TARBALL: no such file"
        check_sha "$MPICH_TARBALL" || die "MPICH_TARBALL=$MPICH_TARBALL: sha256 is not $MPICH_SHA256"
        echo "$MPICH_TARBALL"
        return
    fi
    if [ -f "$cached" ] && check_sha "$cached"; then
        echo "$cached"
        return
    fi
    command -v apt-get >/dev/null || die "no apt-get: download MPICH $MPICH_VERSION yourself and set MPICH_TARBALL"
    local uris apt tmp
    uris=$(bash "$OMPI_QUEUE_ROOT/contrib/queue/debian-uris.sh") || die "set MPICH_TARBALL instead"
    apt=$OMPI_QUEUE_CACHE/apt-$MPICH_DEB_SUITE-src
    mkdir -p "$apt/sources" "$apt/lists/partial" "$apt/cache"
    printf '%s\n' "Types: deb-src" "URIs: $uris" "Suites: $MPICH_DEB_SUITE" "Components: main" \
        "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" > "$apt/sources/mpich-src.sources"
    local opts=(-q -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/sources"
                -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache")
    log "downloading Debian source package mpich=$MPICH_DEB_VERSION ($MPICH_DEB_SUITE)"
    tmp=$(mktemp -d "$OMPI_QUEUE_CACHE/apt.XXXXXX")
    chmod 755 "$tmp"
    if ! apt-get "${opts[@]}" update > "$tmp/apt.log" 2>&1 \
        || ! (cd "$tmp" && apt-get "${opts[@]}" source --download-only "mpich=$MPICH_DEB_VERSION") >> "$tmp/apt.log" 2>&1; then
        tail -5 "$tmp/apt.log" >&2
        rm -rf "$tmp"
        die "apt-get source mpich=$MPICH_DEB_VERSION failed (or set MPICH_TARBALL)"
    fi
    [ -f "$tmp/$MPICH_TARBALL_NAME" ] || { rm -rf "$tmp"; die "the source package has no $MPICH_TARBALL_NAME"; }
    check_sha "$tmp/$MPICH_TARBALL_NAME" || { rm -rf "$tmp"; die "$MPICH_TARBALL_NAME: sha256 is not $MPICH_SHA256"; }
    mv "$tmp/$MPICH_TARBALL_NAME" "$cached"
    rm -rf "$tmp"
    echo "$cached"
}

mkdir -p "$OMPI_QUEUE_CACHE" "$dest"
if [ -d "$src" ] && [ -f "$dest/.stamp-src" ] && [ "$(cat "$dest/.stamp-src")" = "$MPICH_SHA256" ]; then
    echo "$src"
    exit 0
fi
tarball=$(fetch_tarball)
log "unpacking test/mpi of $(basename "$tarball") into $src"
rm -rf "$src" "$dest/.stamp-src"
tar -C "$dest" -xf "$tarball" --strip-components=2 "mpich-$MPICH_VERSION/test/mpi"
[ -f "$src/configure" ] || die "$tarball has no mpich-$MPICH_VERSION/test/mpi/configure"
echo "$MPICH_SHA256" > "$dest/.stamp-src"
echo "$src"
