#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Makes the release tarball dist/openmpi-5.0.7-queue-X.Y.Z.tar.bz2 (with
# OMPI_BASE=5.0.10, dist/openmpi-5.0.10-queue-X.Y.Z.tar.bz2) and its
# .sha256 (X.Y.Z: config/ompi_queue_version.m4): the pristine release with
# the patch series applied, our files laid over it and autogen.pl already
# run, so that a site builds it as it builds a stock release:
#   ./configure --with-queue [site options] && make install
# (without --with-queue it builds stock behaviour).
#
# Why the autogen'ed tree is packed with tar, not by Open MPI's own "make
# dist" (automake): that needs a configured tree, packs only the files
# that the Makefile.am's and configure name (a file of ours missing from a
# list would be left out without a word), and its hooks rewrite VERSION's
# repo_rev and regenerate AUTHORS from git.  Packing the tree as autogen.pl
# left it keeps every file of the release (its prebuilt documentation and
# man pages included) and adds exactly ours.
#
# Every file gets the same modification time (HEAD's commit time): make
# then never finds a configure.ac, Makefile.am or .m4 newer than what
# autogen.pl made from it, so a site's build never re-runs the autotools.
# That time is also autogen.pl's SOURCE_DATE_EPOCH (the date it writes in
# autogen_found_items.m4), and files are stored sorted by name with owner
# root, so that the same commit packed by the same user gives the same
# tarball.
#
# From 5.0.10's git tree (no bundled hwloc and libevent) the tarball has
# neither: configure it with external hwloc and libevent.  That tree has no
# prebuilt documentation either; a release tarball has Open MPI's man pages
# and HTML in docs/man and docs/html, which configure looks for
# (docs/man/MPI_T.3) to install them without Sphinx.  So for such a tree
# the documentation is built here with Debian's Sphinx, as upstream's own
# make dist does, and laid where a release has it.
#
# Environment: OMPI_BASE, OMPI_TARBALL, OMPI_QUEUE_SKIP_DEPS (as build.sh).

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

version=$(ompi_queue_version)
name=openmpi-$OMPI_VERSION-queue-$version
distdir=$OMPI_QUEUE_ROOT/dist
stage=$OMPI_QUEUE_BUILD/dist
cd "$OMPI_QUEUE_ROOT"

grep -q "^$version (" NEWS || die "NEWS has no entry \"$version (DATE)\" for this version"
# shellcheck disable=SC2086
if [ -n "$(git status --porcelain -- $OMPI_QUEUE_OVERLAY_DIRS patches 2>/dev/null)" ]; then
    log "warning: uncommitted changes under $OMPI_QUEUE_OVERLAY_DIRS patches/ go into the tarball"
fi

bash contrib/queue/install-deps.sh
tarball=$(bash contrib/queue/fetch-upstream.sh)

log "making $name from $(basename "$tarball"), the patch series and our files"
rm -rf "$stage"
mkdir -p "$stage" "$distdir"
tar -C "$stage" -xf "$tarball"
mv "$stage/openmpi-$OMPI_VERSION" "$stage/$name"
src=$stage/$name
ompi_prepare_tree "$src"
while read -r p; do
    patch -d "$src" -p1 -s --no-backup-if-mismatch < "$p" || die "patch $p does not apply"
done < <(ompi_queue_patches)
for d in $OMPI_QUEUE_OVERLAY_DIRS; do
    [ -d "$d" ] || continue
    find "$d" -type f | while read -r f; do
        mkdir -p "$src/$(dirname "$f")"
        cp "$f" "$src/$f"
    done
done

mtime=$(git log -1 --format=%ct 2>/dev/null || date +%s)
mapfile -t autogen_args < <(ompi_autogen_args "$src")
log "autogen.pl ${autogen_args[*]} (log: $stage/autogen.log)"
(cd "$src" && SOURCE_DATE_EPOCH=$mtime ./autogen.pl "${autogen_args[@]}" > "$stage/autogen.log" 2>&1) \
    || { tail -30 "$stage/autogen.log"; die "autogen failed (log: $stage/autogen.log)"; }
if [ ! -f "$src/docs/man/MPI_T.3" ]; then
    bash contrib/queue/install-deps.sh --docs
    log "Open MPI's documentation with Sphinx (log: $stage/sphinx.log)"
    # -W as the docs' own Makefile runs it: a warning fails here, not in
    # a site's make install (ompi_prepare_tree gives the bundled versions,
    # which a git tree has not, a text).  The two folders of PRRTE's pages
    # that the Makefile copies in before it runs Sphinx (mpirun(1) includes
    # them) are copied the same way, and removed after.
    cp -rpf "$src/3rd-party/prrte/src/docs/prrte-rst-content" "$src/docs/"
    mkdir -p "$src/docs/schizo-ompi-rst-content"
    cp -rpf "$src/3rd-party/prrte/src/mca/schizo/ompi/"* "$src/docs/schizo-ompi-rst-content/"
    chmod -R u+w "$src/docs/prrte-rst-content" "$src/docs/schizo-ompi-rst-content"
    for target in html man; do
        (cd "$src/docs" && OMPI_TOP_SRCDIR=$src SOURCE_DATE_EPOCH=$mtime \
            sphinx-build -M "$target" . _build -W --keep-going -j "$(nproc)" >> "$stage/sphinx.log" 2>&1) \
            || { tail -30 "$stage/sphinx.log"; die "sphinx-build -M $target failed (log: $stage/sphinx.log)"; }
    done
    mv "$src/docs/_build/html" "$src/docs/html"
    mv "$src/docs/_build/man" "$src/docs/man"
    rm -rf "$src/docs/_build" "$src/docs/prrte-rst-content" "$src/docs/schizo-ompi-rst-content"
    [ -f "$src/docs/man/MPI_T.3" ] || die "Sphinx made no docs/man/MPI_T.3 (log: $stage/sphinx.log)"
fi
# what the autotools leave besides their output: caches and backups
find "$src" -name autom4te.cache -type d -prune -exec rm -rf {} +
find "$src" -name '*~' -type f -delete

log "packing dist/$name.tar.bz2"
tar -C "$stage" --sort=name --mtime="@$mtime" --owner=0 --group=0 --numeric-owner \
    -cjf "$distdir/$name.tar.bz2.tmp" "$name"
mv "$distdir/$name.tar.bz2.tmp" "$distdir/$name.tar.bz2"
(cd "$distdir" && sha256sum "$name.tar.bz2" > "$name.tar.bz2.sha256")
rm -rf "$stage"
log "dist/$name.tar.bz2: $(du -h "$distdir/$name.tar.bz2" | cut -f1), sha256 $(cut -d' ' -f1 "$distdir/$name.tar.bz2.sha256")"
