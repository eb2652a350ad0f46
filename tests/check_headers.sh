#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The installed mpi.h declares the queue API built so far and the version
# macros (OMPI_QUEUE_VERSION_MAJOR, ...), for C and C++,
# and libmpi exports both the MPI_ and the PMPI_ symbols.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

cat > "$tmp/decl.c" <<'EOC'
#include <mpi.h>
#if !OMPI_HAVE_MPI_QUEUE
#error "mpi.h does not announce OMPI_HAVE_MPI_QUEUE"
#endif
#if !defined(OMPI_QUEUE_VERSION_MAJOR) || !defined(OMPI_QUEUE_VERSION_MINOR) \
    || !defined(OMPI_QUEUE_VERSION_RELEASE) || !defined(OMPI_QUEUE_VERSION)
#error "mpi.h does not define the OMPI_QUEUE_VERSION macros"
#endif
int use(void);
int use(void)
{
    MPI_Queue q = MPI_QUEUE_NULL;
    int types[] = {MPI_QUEUE_TYPE_DEFAULT, MPIX_QUEUE_TYPE_CUDA_STREAM, MPIX_QUEUE_TYPE_HIP_STREAM};
    int (*init)(MPI_Queue *, int, void *) = MPI_Queue_init;
    int (*pinit)(MPI_Queue *, int, void *) = PMPI_Queue_init;
    int (*fr)(MPI_Queue *) = MPI_Queue_free;
    int (*pfr)(MPI_Queue *) = PMPI_Queue_free;
    MPI_Fint (*c2f)(MPI_Queue) = MPI_Queue_c2f;
    MPI_Queue (*f2c)(MPI_Fint) = MPI_Queue_f2c;
    int (*m)(MPI_Request *) = MPI_Match;
    int (*im)(MPI_Request *, MPI_Request *) = MPI_IMatch;
    int (*ma)(int, MPI_Request[]) = MPI_Matchall;
    int (*ima)(int, MPI_Request[], MPI_Request *) = MPI_Imatchall;
    int (*ism)(MPI_Request, int *) = MPI_Is_matched;
    int (*es)(MPI_Queue *, MPI_Request *) = MPI_Enqueue_start;
    int (*esa)(MPI_Queue *, int, MPI_Request[]) = MPI_Enqueue_startall;
    int (*ew)(MPI_Queue *, MPI_Request *, MPI_Status *) = MPI_Enqueue_wait;
    int (*ewa)(MPI_Queue *, int, MPI_Request[], MPI_Status[]) = MPI_Enqueue_waitall;
    int (*qf)(MPI_Queue *) = MPI_Queue_fence;
    return (q == MPI_QUEUE_NULL) + types[0] + (init != 0) + (pinit != 0) + (fr != 0) + (pfr != 0)
           + (c2f != 0) + (f2c != 0) + (m != 0) + (im != 0) + (ma != 0) + (ima != 0) + (ism != 0)
           + (es != 0) + (esa != 0) + (ew != 0) + (ewa != 0) + (qf != 0);
}
EOC
"$PREFIX/bin/mpicc" -Wall -Werror -c -o "$tmp/decl.o" "$tmp/decl.c" || { echo "FAIL: C declarations"; status=1; }
cp "$tmp/decl.c" "$tmp/decl.cc"
if command -v g++ > /dev/null; then
    "$PREFIX/bin/mpicxx" -Wall -Werror -c -o "$tmp/declxx.o" "$tmp/decl.cc" || { echo "FAIL: C++ declarations"; status=1; }
fi

syms=$(nm -D --defined-only "$PREFIX/lib/libmpi.so")
for sym in MPI_Queue_init PMPI_Queue_init MPI_Queue_free PMPI_Queue_free MPI_Queue_c2f \
           MPI_Queue_f2c ompi_mpi_queue_null MPI_Match PMPI_Match MPI_Imatch PMPI_Imatch \
           MPI_Matchall MPI_Imatchall MPI_Is_matched MPI_Enqueue_start PMPI_Enqueue_start \
           MPI_Enqueue_startall MPI_Enqueue_wait MPI_Enqueue_waitall MPI_Queue_fence \
           PMPI_Queue_fence; do
    grep -qw "$sym" <<< "$syms" || { echo "FAIL: libmpi does not export $sym"; status=1; }
done

# the MPIX graphs and streams extension: reached through mpi-ext.h, with a
# PMPIX_ twin for every MPIX_ function
cat > "$tmp/ext.c" <<'EOC'
#include <mpi.h>
#include <mpi-ext.h>
#if !OMPI_HAVE_MPI_EXT_GRAPHS
#error "mpi-ext.h does not announce OMPI_HAVE_MPI_EXT_GRAPHS"
#endif
int use(void);
int use(void)
{
    MPIX_Token t = MPIX_TOKEN_NULL;
    MPIX_Stream s = MPIX_STREAM_NULL;
    int (*ex)(MPIX_Token, MPI_Info, int, void *) = MPIX_Execute;
    int (*pex)(MPIX_Token, MPI_Info, int, void *) = PMPIX_Execute;
    return (t == MPIX_TOKEN_NULL) + (s == MPIX_STREAM_NULL) + (ex != 0) + (pex != 0)
           + MPIX_LOC_INPLACE + MPIX_OFFLOAD_PTHREAD + MPIX_OFFLOAD_CUDA + MPIX_DEP_NONE
           + MPIX_ERR_STREAM_FAILED;
}
EOC
"$PREFIX/bin/mpicc" -Wall -Werror -c -o "$tmp/ext.o" "$tmp/ext.c" || { echo "FAIL: mpi-ext.h graphs declarations"; status=1; }
ext_h=$PREFIX/include/openmpi/mpiext/mpiext_graphs_c.h
[ -f "$ext_h" ] || { echo "FAIL: $ext_h not installed"; status=1; }
for fn in $(sed -n 's/^OMPI_DECLSPEC int \(MPIX_[A-Za-z_]*\)(.*/\1/p' "$ext_h" 2>/dev/null); do
    for sym in "$fn" "P$fn"; do
        grep -qw "$sym" <<< "$syms" || { echo "FAIL: libmpi does not export $sym"; status=1; }
    done
done

[ "$status" = 0 ] && echo "installed headers and library carry the queue API and the graphs extension"
exit $status
