#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Writes, for the base OMPI_BASE (not 5.0.7, which patches/ is written
# for), the copy of each named patch of patches/ that applies to that
# release exactly: the same file but for the line numbers of its hunks,
# patches/base-BASE/PART/NAME (ompi_queue_patches in common.sh applies it
# there instead).  A patch that applies to the other release only at an
# offset needs one, as the build applies the series with no offset and no
# fuzz (tests/check_overlay.sh), and so that a hunk is known to land where
# it was meant to.  Run it again after changing such a patch:
# tests/check_overlay.sh fails while a copy differs from its original in
# anything but line numbers.  A patch that needs fuzz there is refused: it
# must be redone for that release by hand (a port, with a "Port:" line in
# its header).
#
# Usage: OMPI_BASE=5.0.10 contrib/queue/base-copy.sh patches/PART/NAME.patch...
# The base's tarball is found as by the build (fetch-upstream.sh).

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$OMPI_QUEUE_ROOT"

[ $# -gt 0 ] || die "usage: OMPI_BASE=BASE $0 patches/PART/NAME.patch..."
[ "$OMPI_BASE" != 5.0.7 ] || die "patches/ is written for 5.0.7: set OMPI_BASE to another base"
declare -A want=()
for p in "$@"; do
    if ! [[ "$p" =~ ^patches/[a-z]+/[0-9]+-.*\.patch$ ]] || [ ! -f "$p" ]; then
        die "$p: not a patch of patches/PART/"
    fi
    want[${p##*/}]=$p
done

tarball=$(bash contrib/queue/fetch-upstream.sh)
mapfile -t series < <(ompi_queue_patches)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the files the series touches, and those the named patches touch
sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "${series[@]}" "$@" | LC_ALL=C sort -u > "$tmp/files"
mkdir -p "$tmp/tree"
# shellcheck disable=SC2046
tar -C "$tmp/tree" --strip-components=1 --wildcards --no-wildcards-match-slash \
    -xf "$tarball" $(sed 's|^|*/|' "$tmp/files") 2> /dev/null || true

# PATCH OUT: OUT is PATCH with each hunk moved by the offset patch found
# for it on the tree (patch's own report, file by file); the tree is
# patched.  Fails when a hunk needs fuzz or does not apply.
rebase() {
    local out
    out=$(patch -d "$tmp/tree" -p1 -F0 -f --no-backup-if-mismatch < "$1" 2>&1) \
        || { echo "$out" >&2; return 1; }
    if grep -q fuzz <<< "$out"; then
        echo "$out" >&2
        return 1
    fi
    awk -v report="$out" '
        BEGIN {
            n = split(report, lines, "\n")
            for (i = 1; i <= n; i++) {
                if (lines[i] ~ /^patching file /) { rf++; continue }
                if (match(lines[i], /^Hunk #[0-9]+ succeeded at [0-9]+ \(offset -?[0-9]+ lines?\)/)) {
                    split(lines[i], w, /[# ()]+/)
                    off[rf, w[2]] = w[7]
                }
            }
        }
        /^\+\+\+ / { f++; h = 0 }
        /^@@ -[0-9]+(,[0-9]+)? \+[0-9]+(,[0-9]+)? @@/ && f > 0 {
            h++
            if ((f, h) in off) {
                # only the two numbers change: the rest of the line stays
                match($0, /^@@ -[0-9]+/)
                a = substr($0, 5, RLENGTH - 4)
                rest = substr($0, RLENGTH + 1)
                match(rest, /^(,[0-9]+)? \+[0-9]+/)
                head = rest
                sub(/\+[0-9]+.*$/, "", head)
                c = substr(rest, length(head) + 2)
                tail = c
                sub(/^[0-9]+/, "", tail)
                c = substr(c, 1, length(c) - length(tail))
                $0 = "@@ -" (a + off[f, h]) head "+" (c + off[f, h]) tail
            }
        }
        { print }
    ' "$1" > "$2"
}

for p in "${series[@]}"; do
    name=${p##*/}
    if [ -n "${want[$name]:-}" ]; then
        orig=${want[$name]}
        part=${orig#patches/}
        part=${part%%/*}
        copy=patches/base-$OMPI_BASE/$part/$name
        if [ -f "$copy" ] && grep -q '^Port: ' "$copy"; then
            die "$copy is a port, made by hand: not overwritten"
        fi
        rebase "$orig" "$tmp/copy" || die "$orig needs fuzz or does not apply on $OMPI_VERSION: port it by hand"
        mkdir -p "$(dirname "$copy")"
        if cmp -s "$tmp/copy" "$orig"; then
            rm -f "$copy"
            log "$orig applies to $OMPI_VERSION as it is: no copy"
        elif ! cmp -s "$tmp/copy" "$copy"; then
            mv "$tmp/copy" "$copy"
            log "wrote $copy"
        fi
        unset "want[$name]"
    else
        patch -d "$tmp/tree" -p1 -F0 -f -s --no-backup-if-mismatch < "$p" > /dev/null 2>&1 \
            || die "$p does not apply on $OMPI_VERSION"
    fi
done
[ "${#want[@]}" = 0 ] || die "not in the series of $OMPI_BASE: ${want[*]}"
