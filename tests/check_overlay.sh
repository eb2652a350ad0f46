#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The repository carries only our own files: no overlay file is an Open MPI
# file, every patch starts with a header saying what and why, and the
# series applies to the pristine release exactly (no fuzz, no offset), in
# the order of ompi_queue_patches (common.sh): every patch under patches/
# is in the series of a base, and no two of one series share a number
# (docs and headers name a patch by its number alone).  All of that for the
# base being built (OMPI_BASE) and for every other base whose tarball is
# here already (fetch-upstream.sh --no-download).  And patches/base-BASE/:
# its not-applied list names patches of patches/, and a patch there that
# replaces one of patches/ is either a port (a "Port:" line in its
# header) or the same file but for its hunks' line numbers
# (contrib/queue/base-copy.sh writes such a copy), so that a change to a
# patch cannot miss its copy.

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
cd "$OMPI_QUEUE_ROOT"

status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# BASE TARBALL: the overlay and the series of BASE on its pristine release
check_base() {
    (
    OMPI_BASE=$1
    source contrib/queue/common.sh
    local src=$tmp/$OMPI_BASE/openmpi-$OMPI_VERSION status=0 series p first out dups
    mkdir -p "$tmp/$OMPI_BASE"
    tar -C "$tmp/$OMPI_BASE" -xf "$2"

    for d in $OMPI_QUEUE_OVERLAY_DIRS; do
        [ -d "$d" ] || continue
        while read -r f; do
            if [ -e "$src/$f" ]; then
                echo "overlay file $f is an Open MPI $OMPI_VERSION file: change it with a patch instead"
                status=1
            fi
        done < <(find "$d" -type f)
    done

    mapfile -t series < <(ompi_queue_patches)
    dups=$(printf '%s\n' "${series[@]}" | sed 's|.*/\([0-9]*\)-.*|\1|' | LC_ALL=C sort | uniq -d)
    if [ -n "$dups" ]; then
        echo "$OMPI_VERSION: patch numbers used twice: $(tr "\n" " " <<< "$dups")"
        status=1
    fi

    for p in "${series[@]}"; do
        first=$(head -n1 "$p")
        case "$first" in
        diff*|---*|"") echo "$p: no header before the diff"; status=1 ;;
        esac
        out=$(patch -d "$src" -p1 --no-backup-if-mismatch < "$p" 2>&1) || { echo "$p does not apply to $OMPI_VERSION: $out"; status=1; continue; }
        if echo "$out" | grep -Eq 'fuzz|offset'; then
            echo "$p applies to $OMPI_VERSION only with fuzz or offset: $out"
            status=1
        fi
    done
    rm -rf "${tmp:?}/$OMPI_BASE"
    [ "$status" = 0 ] && echo "OK: $OMPI_VERSION: overlay and patch series (${#series[@]} patches)"
    exit $status
    )
}

tarball=$(bash contrib/queue/fetch-upstream.sh)
check_base "$OMPI_BASE" "$tarball" || status=1
for b in $OMPI_BASES; do
    [ "$b" = "$OMPI_BASE" ] && continue
    if other=$(OMPI_BASE=$b OMPI_TARBALL="" bash contrib/queue/fetch-upstream.sh --no-download 2>/dev/null); then
        check_base "$b" "$other" || status=1
    else
        echo "note: no Open MPI $b tarball here: its series not checked"
    fi
done

# every patch is in the series of some base
for b in $OMPI_BASES; do
    OMPI_BASE=$b ompi_queue_patches
done | LC_ALL=C sort -u > "$tmp/all-series"
stray=$(find patches -name '*.patch' | LC_ALL=C sort | LC_ALL=C comm -23 - "$tmp/all-series")
if [ -n "$stray" ]; then
    echo "patches in no base's series, never applied: $(tr "\n" " " <<< "$stray")"
    status=1
fi

# patches/base-BASE/: its list and its copies
for dir in patches/base-*; do
    [ -d "$dir" ] || continue
    b=${dir#patches/base-}
    if ! grep -qxF "$b" <(tr ' ' '\n' <<< "$OMPI_BASES"); then
        echo "$dir: $b is not a base (OMPI_BASES in common.sh)"
        status=1
    fi
    if [ -f "$dir/not-applied" ]; then
        while read -r p st; do
            [ -f "$p" ] || { echo "$dir/not-applied: $p is no patch of patches/"; status=1; }
            [ -n "$st" ] || { echo "$dir/not-applied: $p without a status"; status=1; }
        done < <(grep -v '^#' "$dir/not-applied")
    fi
    for p in "$dir"/*/*.patch; do
        [ -f "$p" ] || continue
        orig=patches/${p#"$dir"/}
        [ -f "$orig" ] || continue
        grep -q '^Port: ' "$p" && continue
        if ! cmp -s <(sed 's/^@@ -[0-9,]* +[0-9,]* @@/@@/' "$orig") <(sed 's/^@@ -[0-9,]* +[0-9,]* @@/@@/' "$p"); then
            echo "$p differs from $orig in more than line numbers: OMPI_BASE=$b contrib/queue/base-copy.sh $orig, or a \"Port:\" line in its header if it was redone"
            status=1
        fi
    done
done

[ "$status" = 0 ] && echo "overlay and patch series OK"
exit $status
