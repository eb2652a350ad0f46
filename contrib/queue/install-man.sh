#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Installs our reference pages (docs/man/*.3.md) as man pages beside Open
# MPI's own, which 5.0.7 installs prebuilt into $PREFIX/share/man/man3: each
# page becomes NAME.3 (md2man.py), and every other function a page documents
# (its title line names them) gets a one-line ".so" page pointing to it, so
# that "man -M $PREFIX/share/man MPI_Enqueue_startall" works too.
# Only pages whose content changed are rewritten; pages of ours that are gone
# from docs/man/ are removed (the list of what we installed is kept in the
# build directory).

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

mandir=$PREFIX/share/man/man3
list=$OMPI_QUEUE_BUILD/.installed-man-pages
mkdir -p "$mandir" "$OMPI_QUEUE_BUILD"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

put() {   # file-with-content destination-name
    if ! cmp -s "$1" "$mandir/$2"; then
        install -m 0644 "$1" "$mandir/$2"
    fi
    echo "$2" >> "$tmp/installed"
}

: > "$tmp/installed"
for md in "$OMPI_QUEUE_ROOT"/docs/man/*.3.md; do
    names=$(head -n1 "$md" | grep -oE '[A-Za-z_0-9]+\(3\)' | sed 's/(3)//')
    main=$(basename "$md" .3.md)
    python3 "$OMPI_QUEUE_ROOT/contrib/queue/md2man.py" "$md" "$OMPI_VERSION" > "$tmp/$main.3" \
        || die "cannot convert $md"
    put "$tmp/$main.3" "$main.3"
    for n in $names; do
        [ "$n" = "$main" ] && continue
        printf '.so man3/%s.3\n' "$main" > "$tmp/$n.3"
        put "$tmp/$n.3" "$n.3"
    done
done

if [ -f "$list" ]; then
    for f in $(comm -23 <(sort "$list") <(sort "$tmp/installed")); do
        rm -f "$mandir/$f"
    done
fi
sort "$tmp/installed" > "$list"
