#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Builds and installs the fork: pristine Open MPI of the base (OMPI_BASE:
# 5.0.7, the default, or 5.0.10) + our files + the base's patch series
# (patches/fixes/, then patches/hooks/, with patches/base-BASE/'s
# variants: ompi_queue_patches in common.sh).  Each base has its own tree
# and install (build/ and install/ for 5.0.7, build-5.0.10/ and
# install-5.0.10/ for 5.0.10).
#
# Incremental: each step runs only when its inputs changed.
#   unpack + patch   tarball changed (the tree is made anew)
#   re-patch         the series changed (a patch, its name or its place)
#   overlay          copies only files whose content changed
#   autogen.pl       an m4 file changed, or a file was added or removed
#   configure        after autogen, or when the configure options changed
#   make install     always (make itself rebuilds only what changed)
#   man pages        docs/man/*.3.md, rewritten only where changed
#
# Environment: OMPI_BASE, PREFIX (default ./install, ./install-5.0.10),
# OMPI_QUEUE_BUILD (default ./build, ./build-5.0.10), CONFIGURE_EXTRA (more
# configure arguments), OMPI_TARBALL, OMPI_QUEUE_SKIP_DEPS, MAKE_JOBS.

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

hash_of() { sha256sum | cut -d' ' -f1; }
stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }

bash "$OMPI_QUEUE_ROOT/contrib/queue/install-deps.sh"
tarball=$(bash "$OMPI_QUEUE_ROOT/contrib/queue/fetch-upstream.sh")
mkdir -p "$OMPI_QUEUE_BUILD"
cd "$OMPI_QUEUE_ROOT"

# 1. pristine tree + patch series
mapfile -t series < <(ompi_queue_patches)
[ "${#series[@]}" -gt 0 ] || die "no patches under patches/"
patched_files() {   # the tree paths a set of patches touch
    sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$@" | LC_ALL=C sort -u
}
apply_patches() {
    local p
    for p in "${series[@]}"; do
        patch -d "$OMPI_QUEUE_SRC" -p1 -s --no-backup-if-mismatch < "$p" || die "patch $p does not apply"
    done
    patched_files "${series[@]}" > "$OMPI_QUEUE_BUILD/.patched-files"
}
tar_hash=$(sha256sum "$tarball" | cut -d' ' -f1)
# the names too: the same patches in another order make another tree
patch_hash=$( (echo "$tar_hash"; for p in "${series[@]}"; do echo "$p"; cat "$p"; done) | hash_of)
if [ ! -d "$OMPI_QUEUE_SRC" ] || ! stamp_ok "$OMPI_QUEUE_BUILD/.stamp-tarball" "$tar_hash"; then
    log "unpacking $(basename "$tarball") and applying the patch series"
    rm -rf "$OMPI_QUEUE_SRC" "$OMPI_QUEUE_BUILD"/.stamp-* "$OMPI_QUEUE_BUILD/.overlay-files"
    tar -C "$OMPI_QUEUE_BUILD" -xf "$tarball"
    ompi_prepare_tree "$OMPI_QUEUE_SRC"
    apply_patches
    echo "$tar_hash" > "$OMPI_QUEUE_BUILD/.stamp-tarball"
    echo "$patch_hash" > "$OMPI_QUEUE_BUILD/.stamp-tree"
elif ! stamp_ok "$OMPI_QUEUE_BUILD/.stamp-tree" "$patch_hash"; then
    # The series changed: put back the pristine copy of every file the old
    # or the new series touches, apply the new series, and keep the old
    # timestamp of each file whose content came out the same, so that make
    # rebuilds only what the change affects.
    log "patch series changed: re-applying it"
    keep=$(mktemp -d)
    files=$(cat "$OMPI_QUEUE_BUILD/.patched-files" 2>/dev/null; patched_files "${series[@]}")
    files=$(printf '%s\n' $files | LC_ALL=C sort -u)
    for f in $files; do
        if [ -f "$OMPI_QUEUE_SRC/$f" ]; then
            mkdir -p "$keep/$(dirname "$f")"
            cp -p "$OMPI_QUEUE_SRC/$f" "$keep/$f"
        fi
    done
    # extracted with the time of now (-m), not the release's: a file whose
    # content changed must look newer than its object file
    # shellcheck disable=SC2046
    tar -C "$OMPI_QUEUE_BUILD" -m -xf "$tarball" $(printf "openmpi-$OMPI_VERSION/%s " $files) 2>/dev/null || true
    apply_patches
    for f in $files; do
        if [ -f "$keep/$f" ] && cmp -s "$keep/$f" "$OMPI_QUEUE_SRC/$f"; then
            touch -r "$keep/$f" "$OMPI_QUEUE_SRC/$f"
        fi
    done
    rm -rf "$keep"
    echo "$patch_hash" > "$OMPI_QUEUE_BUILD/.stamp-tree"
fi

# 2. overlay: our files at their paths in the tree
overlay_dirs=""
for d in $OMPI_QUEUE_OVERLAY_DIRS; do
    [ -d "$d" ] && overlay_dirs="$overlay_dirs $d"
done
# shellcheck disable=SC2086
overlay_list=$(find $overlay_dirs -type f | LC_ALL=C sort)
prev_list=""
[ -f "$OMPI_QUEUE_BUILD/.overlay-files" ] && prev_list=$(cat "$OMPI_QUEUE_BUILD/.overlay-files")
for f in $(comm -23 <(printf '%s\n' "$prev_list") <(printf '%s\n' "$overlay_list")); do
    [ -n "$f" ] && rm -f "$OMPI_QUEUE_SRC/$f"
done
changed=0
for f in $overlay_list; do
    if ! cmp -s "$f" "$OMPI_QUEUE_SRC/$f"; then
        mkdir -p "$OMPI_QUEUE_SRC/$(dirname "$f")"
        cp "$f" "$OMPI_QUEUE_SRC/$f"
        changed=$((changed + 1))
    fi
done
printf '%s\n' "$overlay_list" > "$OMPI_QUEUE_BUILD/.overlay-files"
[ "$changed" -gt 0 ] && log "overlay: $changed file(s) updated"

# 3. autogen when the set of files or any m4 changed
autogen_inputs=$(printf '%s\n' $overlay_list | grep -E '\.m4$' || true)
patched_autoconf=$(grep -E '(\.m4|configure\.ac)$' "$OMPI_QUEUE_BUILD/.patched-files" || true)
autogen_hash=$( (echo "$overlay_list"; cat $autogen_inputs;
                 for f in $patched_autoconf; do cat "$OMPI_QUEUE_SRC/$f"; done) | hash_of)
if ! stamp_ok "$OMPI_QUEUE_BUILD/.stamp-autogen" "$autogen_hash"; then
    mapfile -t autogen_args < <(ompi_autogen_args "$OMPI_QUEUE_SRC")
    log "autogen.pl ${autogen_args[*]}"
    t0=$SECONDS
    rm -f "$OMPI_QUEUE_BUILD/.stamp-configure"
    (cd "$OMPI_QUEUE_SRC" && ./autogen.pl "${autogen_args[@]}" > "$OMPI_QUEUE_BUILD/autogen.log" 2>&1) \
        || { tail -30 "$OMPI_QUEUE_BUILD/autogen.log"; die "autogen failed (log: $OMPI_QUEUE_BUILD/autogen.log)"; }
    echo "$autogen_hash" > "$OMPI_QUEUE_BUILD/.stamp-autogen"
    log "autogen done ($((SECONDS - t0)) s)"
fi

# 4. configure
# the arguments stock shares (common.sh), so that the two builds never drift
mapfile -t common_args < <(ompi_common_config_args)
config_args=(--prefix="$PREFIX" --with-queue "${common_args[@]}")
# shellcheck disable=SC2206
config_args+=(${CONFIGURE_EXTRA:-})
config_hash=$(printf '%s\n' "${config_args[@]}" | hash_of)
if ! stamp_ok "$OMPI_QUEUE_BUILD/.stamp-configure" "$config_hash" || [ ! -f "$OMPI_QUEUE_SRC/config.status" ]; then
    log "configure ${config_args[*]}"
    t0=$SECONDS
    (cd "$OMPI_QUEUE_SRC" && PATH=/usr/lib/ccache:$PATH ./configure "${config_args[@]}" \
        > "$OMPI_QUEUE_BUILD/configure.log" 2>&1) \
        || { tail -30 "$OMPI_QUEUE_BUILD/configure.log"; die "configure failed (log: $OMPI_QUEUE_BUILD/configure.log)"; }
    echo "$config_hash" > "$OMPI_QUEUE_BUILD/.stamp-configure"
    log "configure done ($((SECONDS - t0)) s)"
fi

# 5. build and install
jobs=${MAKE_JOBS:-$(nproc)}
log "make -j$jobs install (log: $OMPI_QUEUE_BUILD/make.log)"
t0=$SECONDS
(cd "$OMPI_QUEUE_SRC" && PATH=/usr/lib/ccache:$PATH make -j"$jobs" install > "$OMPI_QUEUE_BUILD/make.log" 2>&1) \
    || { grep -E -B2 -A6 'error:|Error [0-9]' "$OMPI_QUEUE_BUILD/make.log" | tail -60; die "make failed (log: $OMPI_QUEUE_BUILD/make.log)"; }

quiet_cuda_load_errors "$PREFIX"

# 6. our reference pages, as man pages beside Open MPI's own
bash "$OMPI_QUEUE_ROOT/contrib/queue/install-man.sh" || die "man pages not installed"
log "installed in $PREFIX ($((SECONDS - t0)) s)"
