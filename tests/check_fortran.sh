#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The install carries the queue chapter's Fortran bindings in all three
# interfaces: mpif.h includes mpif-queue.h, the module files of mpi_f08
# are installed, every function has its MPI_ and PMPI_ mpif.h symbols (the
# four spellings upstream exports) in libmpi_mpifh and its mpi_f08 procedure
# in libmpi_usempif08, and a program calling every function compiles with
# mpifort against mpif.h, the mpi module and the mpi_f08 module.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

[ -x "$PREFIX/bin/mpifort" ] || { echo "FAIL: no $PREFIX/bin/mpifort"; exit 1; }
grep -q "include 'mpif-queue.h'" "$PREFIX/include/mpif.h" || fail "mpif.h does not include mpif-queue.h"
[ -f "$PREFIX/include/mpif-queue.h" ] || fail "mpif-queue.h is not installed"
for m in mpi_f08_queue_types mpi_f08_queue_interfaces pmpi_f08_queue_interfaces; do
    [ -f "$PREFIX/lib/$m.mod" ] || fail "$m.mod is not installed"
done

funcs="queue_init queue_free queue_fence enqueue_start enqueue_startall enqueue_wait
       enqueue_waitall match imatch matchall imatchall is_matched"
mpifh=$PREFIX/lib/libmpi_mpifh.so
f08=$PREFIX/lib/libmpi_usempif08.so
nm -D --defined-only "$mpifh" | awk '{print $3}' > "$tmp/mpifh.syms"
nm -D --defined-only "$f08" | awk '{print $3}' > "$tmp/f08.syms"
for f in $funcs; do
    up=${f^^}
    for s in "mpi_$f" "mpi_${f}_" "mpi_${f}__" "MPI_$up" "pmpi_$f" "pmpi_${f}_" "pmpi_${f}__" "PMPI_$up"; do
        grep -qx "$s" "$tmp/mpifh.syms" || fail "libmpi_mpifh does not export $s"
    done
    for s in "mpi_${f}_f08_" "pmpi_${f}_f08_"; do
        grep -qix "$s" "$tmp/f08.syms" || fail "libmpi_usempif08 does not export $s"
    done
done

# every function, with every interface's argument checking where it has one
cat > "$tmp/calls.inc" <<'EOC'
    call MPI_Queue_init(q, MPI_QUEUE_TYPE_DEFAULT, buf, ierr)
    call MPI_Match(r(1), ierr)
    call MPI_Imatch(r(1), r(2), ierr)
    call MPI_Matchall(2, r, ierr)
    call MPI_Imatchall(2, r, r(3), ierr)
    call MPI_Is_matched(r(1), flag, ierr)
    call MPI_Enqueue_start(q, r(1), ierr)
    call MPI_Enqueue_startall(q, 2, r, ierr)
    call MPI_Enqueue_wait(q, r(1), st, ierr)
    call MPI_Enqueue_waitall(q, 2, r, sts, ierr)
    call MPI_Enqueue_waitall(q, 2, r, MPI_STATUSES_IGNORE, ierr)
    call MPI_Queue_fence(q, ierr)
    call MPI_Queue_free(q, ierr)
    call PMPI_Queue_init(q, MPIX_QUEUE_TYPE_CUDA_STREAM, buf, ierr)
    call PMPI_Match(r(1), ierr)
    call PMPI_Imatch(r(1), r(2), ierr)
    call PMPI_Matchall(2, r, ierr)
    call PMPI_Imatchall(2, r, r(3), ierr)
    call PMPI_Is_matched(r(1), flag, ierr)
    call PMPI_Enqueue_start(q, r(1), ierr)
    call PMPI_Enqueue_startall(q, 2, r, ierr)
    call PMPI_Enqueue_wait(q, r(1), MPI_STATUS_IGNORE, ierr)
    call PMPI_Enqueue_waitall(q, 2, r, sts, ierr)
    call PMPI_Queue_fence(q, ierr)
    call PMPI_Queue_free(q, ierr)
    flag = (q == MPI_QUEUE_NULL) .or. (r(1) == MPI_REQUEST_EMPTY) .or. &
           (MPIX_QUEUE_TYPE_HIP_STREAM == 2)
EOC
cat > "$tmp/f08.f90" <<'EOC'
program f08
    use mpi_f08
    implicit none
    type(MPI_Queue) :: q
    type(MPI_Request) :: r(3)
    type(MPI_Status) :: st, sts(2)
    integer :: ierr, buf(2)
    logical :: flag
    include 'calls.inc'
end program f08
EOC
cat > "$tmp/usempi.f90" <<'EOC'
program usempi
    use mpi
    implicit none
    integer :: q, r(3), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)
    integer :: ierr, buf(2)
    logical :: flag
    include 'calls.inc'
end program usempi
EOC
sed '/use mpi$/d; s/implicit none/implicit none\n    include "mpif.h"/; s/program usempi/program mpifh/' \
    "$tmp/usempi.f90" > "$tmp/mpifh.f90"
for p in f08 usempi mpifh; do
    (cd "$tmp" && "$PREFIX/bin/mpifort" -fimplicit-none -o "$p" "$p.f90") > "$tmp/$p.log" 2>&1 \
        || { cat "$tmp/$p.log"; fail "a program calling every function does not build ($p)"; }
done
# a wrong argument is refused where there is an interface
sed 's/call MPI_Queue_fence(q, ierr)/call MPI_Queue_fence(q, 1.5, ierr)/' "$tmp/calls.inc" > "$tmp/bad.inc"
for p in f08 usempi; do
    sed "s/calls.inc/bad.inc/" "$tmp/$p.f90" > "$tmp/bad_$p.f90"
    if (cd "$tmp" && "$PREFIX/bin/mpifort" -o "bad_$p" "bad_$p.f90") > /dev/null 2>&1; then
        fail "the $p interface accepts MPI_Queue_fence with a wrong argument list"
    fi
done

[ "$status" = 0 ] && echo "Fortran bindings OK"
exit $status
