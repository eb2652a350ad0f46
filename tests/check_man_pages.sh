#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Every reference page of ours (docs/man/*.3.md) is installed as a man page,
# as Open MPI's own are, under each name its title line documents; the
# pages of the queue chapter show their Fortran bindings; and, where man is
# installed, "man -M $PREFIX/share/man NAME" finds and formats each one.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
cd "$OMPI_QUEUE_ROOT"
status=0
fail() { echo "FAIL: $*"; status=1; }
mandir=$PREFIX/share/man

# Open MPI's own pages come prebuilt in a release tarball (docs/man) or
# from Sphinx at build time; a git tree of the release built without
# Sphinx has none to install (docs/bases.md), ours are installed anyway
if [ -f "$OMPI_QUEUE_SRC/docs/man/MPI_T.3" ] || grep -q '^SPHINX_BUILD = .' "$OMPI_QUEUE_SRC/Makefile" 2> /dev/null; then
    [ -f "$mandir/man3/MPI_Send.3" ] || fail "Open MPI's own MPI_Send(3) is not installed"
else
    echo "(the base tree $OMPI_QUEUE_SRC has no Open MPI pages and no Sphinx: only ours checked)"
fi
for md in docs/man/*.3.md; do
    for n in $(head -n1 "$md" | grep -oE '[A-Za-z_0-9]+\(3\)' | sed 's/(3)//'); do
        [ -f "$mandir/man3/$n.3" ] || { fail "$n(3) is not installed"; continue; }
        if command -v man > /dev/null; then
            out=$(MANWIDTH=80 man -M "$mandir" 3 "$n" 2> /dev/null | head -n 20)
            grep -q "$n" <<< "$out" || fail "man -M $mandir $n does not show the page"
        fi
    done
done
# every function of the MPIX graphs extension has a page of its own
for n in $(grep -oE '^OMPI_DECLSPEC int MPIX_[A-Za-z_]+' ompi/mpiext/graphs/c/mpiext_graphs_c.h \
           | sed 's/.* //'); do
    [ -f "docs/man/$n.3.md" ] || fail "$n has no reference page (docs/man/$n.3.md)"
done
for n in MPI_Queue_init MPI_Queue_free MPI_Queue_fence MPI_Enqueue_start MPI_Enqueue_startall \
         MPI_Enqueue_wait MPI_Enqueue_waitall MPI_Match MPI_Matchall MPI_Imatch MPI_Imatchall \
         MPI_Is_matched; do
    if command -v man > /dev/null; then
        out=$(MANWIDTH=100 man -M "$mandir" 3 "$n" 2> /dev/null)
        grep -q "Fortran 2008" <<< "$out" || fail "$n(3) has no Fortran 2008 binding"
        grep -qi "${n^^}(" <<< "$out" || fail "$n(3) has no Fortran binding"
    fi
done
command -v man > /dev/null || echo "(man is not installed here: pages checked as files only)"
[ "$status" = 0 ] && echo "man pages OK"
exit $status
