#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# contrib/queue/upstream-status.sh against the trees whose answer is known,
# and the fixes' headers against it:
#  - on the pristine 5.0.7 release, which patches/ is written for, every
#    fix is needed and every hook applies: a status script that calls a fix
#    contained, or a patch broken, there is wrong;
#  - on Open MPI 5.0.10 (its tarball as OMPI_BASE=5.0.10 finds it:
#    ../shared/upstream/openmpi-5.0.10-git.tar.xz beside the repository,
#    the cache, or OMPI_QUEUE_NEXT_TARBALL; skipped without it), every fix
#    of patches/ has the status its header's "Upstream-status: v5.0.10"
#    line states, so that a header cannot drift from the tree; the fixes
#    not needed there are exactly those patches/base-5.0.10/not-applied
#    lists, with the same word; every hook that no longer applies there
#    has its port in patches/base-5.0.10/hooks/; and the series of base
#    5.0.10 is whole there (every fix needed, every hook applies);
#  - every fix's header (those of patches/base-*/ too) has one Upstream:
#    line, one Upstream-status: line for v5.0.10 and Test: lines whose
#    files exist.
# Prints SKIP and fails when the pristine 5.0.7 tarball is not there.

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
cd "$OMPI_QUEUE_ROOT"

tarball_of() {   # BASE: the path of its tarball when it is here already
    local t=""
    [ "$1" = "$OMPI_BASE" ] && t=${OMPI_TARBALL:-}
    OMPI_BASE=$1 OMPI_TARBALL=$t bash contrib/queue/fetch-upstream.sh --no-download 2> /dev/null
}
pristine=$(tarball_of 5.0.7) || pristine=""
next=${OMPI_QUEUE_NEXT_TARBALL:-$(tarball_of 5.0.10 || true)}
next_version=v5.0.10
next_list=patches/base-5.0.10/not-applied
if [ -z "$pristine" ]; then
    echo "SKIP: no pristine Open MPI 5.0.7 tarball (contrib/queue/fetch-upstream.sh puts it in the cache)"
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# Only the files the series of every base touch, and VERSION: the rest of
# the tree is not read, and writing it would be most of the run.
for b in $OMPI_BASES; do
    OMPI_BASE=$b ompi_queue_patches
done | LC_ALL=C sort -u > "$tmp/all-series"
mapfile -t all_series < "$tmp/all-series"
sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "${all_series[@]}" | LC_ALL=C sort -u > "$tmp/files"
extract() {   # TARBALL DIR: the tree of TARBALL into DIR, its top directory stripped
    mkdir -p "$2"
    # a file the release lacks is reported by upstream-status.sh, not here;
    # one pattern a path (the paths have no spaces)
    # shellcheck disable=SC2046
    nice -n 19 tar -C "$2" --strip-components=1 --wildcards --no-wildcards-match-slash \
        -xf "$1" "*/VERSION" $(sed 's|^|*/|' "$tmp/files") 2> /dev/null || true
    [ -f "$2/VERSION" ] || { fail "$1 holds no Open MPI tree"; return 1; }
}
# BASE TREE OUT: upstream-status.sh with the series of BASE on TREE; then
# whether every fix is needed and every hook applies
status_of() {
    OMPI_BASE=$1 nice -n 19 bash contrib/queue/upstream-status.sh "$2" > "$3" \
        || fail "upstream-status.sh failed on $2"
}
whole() {   # BASE OUT WHAT
    local bad n
    bad=$(grep -v '^#' "$2" | grep -Ev ' (needed|applies)$' || true)
    n=$(OMPI_BASE=$1 ompi_queue_patches | wc -l)
    if [ -n "$bad" ] || [ "$(grep -vc '^#' "$2")" != "$n" ]; then
        fail "on $3 every fix of the series of base $1 must be needed and every hook apply:"
        printf '    %s\n' "$bad"
    else
        echo "OK: $3, series of base $1: $(tail -n1 "$2" | sed 's/^# [^:]*: //')"
    fi
}

# the headers, of the fixes of every base
for p in $(grep -E '/fixes/' "$tmp/all-series"); do
    header=$(sed -n '1,/^\(diff \|--- \)/p' "$p")
    [ "$(grep -c '^Upstream: ' <<< "$header")" = 1 ] || fail "$p: not one Upstream: line in its header"
    [ "$(grep -c "^Upstream-status: $next_version " <<< "$header")" = 1 ] \
        || fail "$p: not one \"Upstream-status: $next_version STATUS\" line in its header"
    grep -q '^Test: ' <<< "$header" || fail "$p: no Test: line in its header"
    for f in $(grep '^Test: ' <<< "$header" | grep -oE '(tests|bench)/[A-Za-z0-9_./-]+\.[a-z0-9]+' || true); do
        [ -f "$f" ] || fail "$p: its Test: names $f, which does not exist"
    done
done

# the release patches/ is written for
extract "$pristine" "$tmp/base" || exit 1
status_of 5.0.7 "$tmp/base" "$tmp/base.out"
whole 5.0.7 "$tmp/base.out" "pristine 5.0.7"

# the next release, against the headers and patches/base-5.0.10/
if [ -z "$next" ] || [ ! -f "$next" ]; then
    echo "OK: no Open MPI 5.0.10 tarball: the $next_version statuses of the headers not checked"
    exit $status
fi
extract "$next" "$tmp/next" || exit 1
status_of 5.0.7 "$tmp/next" "$tmp/next.out"
drift=0
for p in $(OMPI_BASE=5.0.7 ompi_queue_patches fixes); do
    want=$(sed -n "1,/^\(diff \|--- \)/s/^Upstream-status: $next_version \([a-z-]*\)\$/\1/p" "$p")
    got=$(awk -v p="$p" '$1 == p { print $2 }' "$tmp/next.out")
    if [ "$want" != "$got" ]; then
        fail "$p: on $next_version upstream-status.sh says \"$got\", its header \"$want\""
        drift=1
    fi
done
[ "$drift" = 0 ] && echo "OK: $next_version: $(tail -n1 "$tmp/next.out" | sed 's/^# [^:]*: //'), as the headers say"
got=$(awk '$1 ~ /^patches\/fixes\// && $2 != "needed"' "$tmp/next.out" | LC_ALL=C sort)
listed=$(grep -v '^#' "$next_list" 2> /dev/null | LC_ALL=C sort || true)
if [ "$got" != "$listed" ]; then
    fail "$next_list is not what upstream-status.sh says of the fixes not needed on $next_version:"
    diff <(echo "$listed") <(echo "$got") | sed -n 's/^</    listed:/p; s/^>/    status:/p' || true
fi
for p in $(awk '$1 ~ /^patches\/hooks\// && $2 == "no-longer-applies" { print $1 }' "$tmp/next.out"); do
    [ -f "patches/base-5.0.10/hooks/${p##*/}" ] || fail "$p no longer applies on $next_version and has no port in patches/base-5.0.10/hooks/"
done
status_of 5.0.10 "$tmp/next" "$tmp/next10.out"
whole 5.0.10 "$tmp/next10.out" "$next_version"
exit $status
