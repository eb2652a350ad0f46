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
# is in one of its parts, and no two share a number (docs and headers name
# a patch by its number alone).

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
cd "$OMPI_QUEUE_ROOT"

tarball=$(bash contrib/queue/fetch-upstream.sh)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xf "$tarball"
src=$tmp/openmpi-$OMPI_VERSION
status=0

for d in $OMPI_QUEUE_OVERLAY_DIRS; do
    [ -d "$d" ] || continue
    while read -r f; do
        if [ -e "$src/$f" ]; then
            echo "overlay file $f is an Open MPI file: change it with a patch instead"
            status=1
        fi
    done < <(find "$d" -type f)
done

mapfile -t series < <(ompi_queue_patches)
stray=$(find patches -name '*.patch' | LC_ALL=C sort \
    | LC_ALL=C comm -23 - <(printf '%s\n' "${series[@]}" | LC_ALL=C sort))
if [ -n "$stray" ]; then
    echo "patches outside patches/{${OMPI_QUEUE_PATCH_PARTS// /,}}/, never applied: $(tr "\n" " " <<< "$stray")"
    status=1
fi
dups=$(printf '%s\n' "${series[@]}" | sed 's|.*/\([0-9]*\)-.*|\1|' | LC_ALL=C sort | uniq -d)
if [ -n "$dups" ]; then
    echo "patch numbers used twice: $(tr "\n" " " <<< "$dups")"
    status=1
fi

for p in "${series[@]}"; do
    first=$(head -n1 "$p")
    case "$first" in
    diff*|---*|"") echo "$p: no header before the diff"; status=1 ;;
    esac
    out=$(patch -d "$src" -p1 --no-backup-if-mismatch < "$p" 2>&1) || { echo "$p does not apply: $out"; status=1; continue; }
    if echo "$out" | grep -Eq 'fuzz|offset'; then
        echo "$p applies only with fuzz or offset: $out"
        status=1
    fi
done

[ "$status" = 0 ] && echo "overlay and patch series OK"
exit $status
