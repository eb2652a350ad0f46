#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Tells, for an Open MPI source tree (a release, a branch, a new base to
# rebase on), which of our fixes it already contains and which of our
# patches no longer apply to it.  One line a patch, in series order:
#
#   patches/fixes/NNNN-....patch contained          the tree has the fix
#   patches/fixes/NNNN-....patch needed             the tree lacks it; it applies
#   patches/fixes/NNNN-....patch no-longer-applies  neither: the code changed
#   patches/hooks/NNNN-....patch applies
#   patches/hooks/NNNN-....patch no-longer-applies  what a rebase must redo
#   patches/hooks/NNNN-....patch present            reverse-applies (a tree
#                                                   the series made)
#
# then a summary.  A fix is contained when it reverse-applies, or when every
# line of code it adds is already in its files, in the same order (upstream
# took it with other comments or layout).  The patches are tried as a rebase
# would take them: in series order, each on the tree plus the patches before
# it that apply, so that a patch written on top of another is judged on
# top of it.  Offsets are accepted (the code moved), fuzz is not (a hunk
# that needs it may land in the wrong place).  The tree is only read: the
# patches go to a copy of the files the series touches.  Meant for upstream
# trees: in a tree the whole series made, a patch whose lines a later one
# rewrote (0030 under 0032) reads as no longer applying.
#
# The series is that of the base OMPI_BASE (common.sh; default 5.0.7, the
# one patches/ is written for): OMPI_BASE=5.0.10 on a 5.0.10 tree tells
# whether that base's series, patches/base-5.0.10/ included, is whole.
#
# Usage: contrib/queue/upstream-status.sh TREE
# Exit status 0, unless TREE is not an Open MPI source tree (2).

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

[ $# = 1 ] || { echo "usage: $0 TREE" >&2; exit 2; }
tree=$(cd "$1" 2>/dev/null && pwd) || { echo "$1: no such directory" >&2; exit 2; }
if [ ! -f "$tree/VERSION" ] || ! grep -q '^major=' "$tree/VERSION" || [ ! -d "$tree/ompi/request" ]; then
    echo "$1: not an Open MPI source tree (no VERSION with major=, no ompi/request/)" >&2
    exit 2
fi

# VERSION's numbers as a tag names them (v5.0.10, v6.0.0rc1).  A git tree's
# VERSION (tarball_version=gitclone) keeps the greek of the last release
# candidate even at the release's tag, so there it is left out.
version_of() {
    local v greek
    v=v$(sed -n 's/^major=//p' "$1/VERSION").$(sed -n 's/^minor=//p' "$1/VERSION")
    v=$v.$(sed -n 's/^release=//p' "$1/VERSION")
    greek=$(sed -n 's/^greek=//p' "$1/VERSION")
    if grep -q '^tarball_version=gitclone' "$1/VERSION"; then
        echo "$v (a git tree)"
    else
        echo "$v$greek"
    fi
}

cd "$OMPI_QUEUE_ROOT"
mapfile -t series < <(ompi_queue_patches)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "${series[@]}" | LC_ALL=C sort -u | while read -r f; do
    if [ -f "$tree/$f" ]; then
        mkdir -p "$scratch/$(dirname "$f")"
        cp "$tree/$f" "$scratch/$f"
    fi
done

try_patch() {   # PATCH [patch options]: exit 0 when PATCH applies to the copy so
    local p=$1
    shift
    patch -d "$scratch" -p1 -f -F0 -s --no-backup-if-mismatch -r - "$@" < "$p" > /dev/null 2>&1
}

# Whether every line of code PATCH adds is in the copy of its file, in the
# order of the patch.  Blank lines, comments and lines of punctuation only
# (a brace, "} else {") are left out, and so is a line the patch also
# removes (a moved line): they tell nothing of whether the fix is there.
# A patch without one such line proves nothing, so it fails.
code_present() {
    awk -v root="$scratch" '
        function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
        function is_code(s) {
            if (s == "" || s ~ /^(\/\*|\*|\/\/)/) return 0
            return s ~ /[A-Za-z0-9_]/ && s !~ /^(else|break;|continue;)$/
        }
        function check(   i, n, line) {
            if (file == "") return
            n = 1
            for (i = 1; i <= nadd; i++) {
                if (moved[add[i]] > 0) { moved[add[i]]--; continue }
                want[n++] = add[i]
            }
            split("", moved)
            nwant = n - 1
            if (nwant == 0) return
            seen += nwant
            n = 1
            while (n <= nwant && (getline line < (root "/" file)) > 0)
                if (trim(line) == want[n]) n++
            close(root "/" file)
            if (n <= nwant) ok = 0
        }
        BEGIN { ok = 1 }
        /^\+\+\+ b\// { check(); file = $2; sub(/^b\//, "", file); nadd = 0; next }
        /^--- / { next }
        /^\+/ && file != "" { s = trim(substr($0, 2)); if (is_code(s)) add[++nadd] = s }
        /^-/ && file != "" { s = trim(substr($0, 2)); if (is_code(s)) moved[s]++ }
        END { check(); exit !(ok && seen > 0) }
    ' "$1"
}

ver=$(version_of "$tree")
echo "# $tree: Open MPI $ver"
ver=${ver%% *}
declare -A count=()
for p in "${series[@]}"; do
    case "$p" in
    patches/fixes/*|patches/base-*/fixes/*)
        if try_patch "$p" -R --dry-run; then
            st=contained
        elif try_patch "$p" --dry-run; then
            st=needed
            try_patch "$p"
        elif code_present "$p"; then
            st=contained
        else
            st=no-longer-applies
        fi
        kind=fixes
        ;;
    *)
        if try_patch "$p" --dry-run; then
            st=applies
            try_patch "$p"
        elif try_patch "$p" -R --dry-run; then
            st=present
        else
            st=no-longer-applies
        fi
        kind=hooks
        ;;
    esac
    count[$kind $st]=$(( ${count[$kind $st]:-0} + 1 ))
    echo "$p $st"
done

present=""
[ -z "${count[hooks present]:-}" ] || present=" (${count[hooks present]} present)"
echo "# $ver: fixes: ${count[fixes contained]:-0} contained, ${count[fixes needed]:-0} needed," \
     "${count[fixes no-longer-applies]:-0} no longer apply;" \
     "hooks: ${count[hooks applies]:-0} apply, ${count[hooks no-longer-applies]:-0} no longer apply$present"
exit 0
