#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# contrib/queue/upstream-status.sh against the two trees whose answer is
# known, and the fixes' headers against it:
#  - on the pristine 5.0.7 release, which the series is written for, every
#    fix is needed and every hook applies: a status script that calls a fix
#    contained, or a patch broken, there is wrong;
#  - on Open MPI 5.0.10 (../shared/upstream/openmpi-5.0.10-git.tar.xz
#    beside the repository, or OMPI_QUEUE_NEXT_TARBALL; skipped without
#    it), every fix has the status its header's "Upstream-status: v5.0.10"
#    line states, so that a header cannot drift from the tree;
#  - every fix's header has one Upstream: line, one Upstream-status: line
#    for v5.0.10 and Test: lines whose files exist.
# Prints SKIP and fails when the pristine tarball is not there.

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
cd "$OMPI_QUEUE_ROOT"

pristine=${OMPI_TARBALL:-$OMPI_QUEUE_CACHE/$OMPI_TARBALL_NAME}
next=${OMPI_QUEUE_NEXT_TARBALL:-$OMPI_QUEUE_ROOT/../shared/upstream/openmpi-5.0.10-git.tar.xz}
next_version=v5.0.10
if [ ! -f "$pristine" ]; then
    echo "SKIP: no pristine Open MPI $OMPI_VERSION tarball ($pristine; contrib/queue/fetch-upstream.sh puts it there)"
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# Only the files the series touches, and VERSION: the rest of the tree is
# not read, and writing it would be most of the run.
mapfile -t series < <(ompi_queue_patches)
sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "${series[@]}" | LC_ALL=C sort -u > "$tmp/files"
extract() {   # TARBALL DIR: the tree of TARBALL into DIR, its top directory stripped
    mkdir -p "$2"
    # a file the release lacks is reported by upstream-status.sh, not here;
    # one pattern a path (the paths have no spaces)
    # shellcheck disable=SC2046
    nice -n 19 tar -C "$2" --strip-components=1 --wildcards --no-wildcards-match-slash \
        -xf "$1" "*/VERSION" $(sed 's|^|*/|' "$tmp/files") 2> /dev/null || true
    [ -f "$2/VERSION" ] || { fail "$1 holds no Open MPI tree"; return 1; }
}

# the headers
for p in $(ompi_queue_patches fixes); do
    header=$(sed -n '1,/^\(diff \|--- \)/p' "$p")
    [ "$(grep -c '^Upstream: ' <<< "$header")" = 1 ] || fail "$p: not one Upstream: line in its header"
    [ "$(grep -c "^Upstream-status: $next_version " <<< "$header")" = 1 ] \
        || fail "$p: not one \"Upstream-status: $next_version STATUS\" line in its header"
    grep -q '^Test: ' <<< "$header" || fail "$p: no Test: line in its header"
    for f in $(grep '^Test: ' <<< "$header" | grep -oE '(tests|bench)/[A-Za-z0-9_./-]+\.[a-z0-9]+' || true); do
        [ -f "$f" ] || fail "$p: its Test: names $f, which does not exist"
    done
done

# the release the series is written for
extract "$pristine" "$tmp/base" || exit 1
nice -n 19 bash contrib/queue/upstream-status.sh "$tmp/base" > "$tmp/base.out" || fail "upstream-status.sh failed on $OMPI_VERSION"
bad=$(grep -v '^#' "$tmp/base.out" | grep -Ev ' (needed|applies)$' || true)
if [ -n "$bad" ] || [ "$(grep -vc '^#' "$tmp/base.out")" != "${#series[@]}" ]; then
    fail "on pristine $OMPI_VERSION every fix must be needed and every hook apply:"
    printf '    %s\n' "$bad"
fi
echo "OK: v$OMPI_VERSION: $(tail -n1 "$tmp/base.out" | sed 's/^# [^:]*: //')"

# the next release, against the headers
if [ ! -f "$next" ]; then
    echo "OK: no $next: the $next_version statuses of the headers not checked"
    exit $status
fi
extract "$next" "$tmp/next" || exit 1
nice -n 19 bash contrib/queue/upstream-status.sh "$tmp/next" > "$tmp/next.out" || fail "upstream-status.sh failed on $next_version"
drift=0
for p in $(ompi_queue_patches fixes); do
    want=$(sed -n "1,/^\(diff \|--- \)/s/^Upstream-status: $next_version \([a-z-]*\)\$/\1/p" "$p")
    got=$(awk -v p="$p" '$1 == p { print $2 }' "$tmp/next.out")
    if [ "$want" != "$got" ]; then
        fail "$p: on $next_version upstream-status.sh says \"$got\", its header \"$want\""
        drift=1
    fi
done
[ "$drift" = 0 ] && echo "OK: $next_version: $(tail -n1 "$tmp/next.out" | sed 's/^# [^:]*: //'), as the headers say"
hooks=$(awk '$1 ~ /^patches\/hooks\// && $2 == "no-longer-applies" { printf " %s", $1 }' "$tmp/next.out")
[ -z "$hooks" ] || echo "note: hooks a rebase on $next_version must redo:$hooks"
exit $status
