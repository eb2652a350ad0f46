! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! mpi_f08 binding of MPI_Queue_fence (and, compiled again in profile/, of
! PMPI_Queue_fence): calls the mpif.h binding's C function, as upstream's
! *_f08.F90 files do.

#include "ompi/mpi/fortran/configure-fortran-output.h"

#include "mpi-f08-queue-rename.h"

subroutine MPI_Queue_fence_f08(queue, ierror)
   use :: mpi_f08_queue_types, only : MPI_Queue
   implicit none
   TYPE(MPI_Queue), INTENT(INOUT) :: queue
   INTEGER, OPTIONAL, INTENT(OUT) :: ierror
   integer :: c_ierror

   interface
   subroutine ompi_queue_fence_f(queue, ierror) &
         BIND(C, name="ompi_queue_fence_f")
      implicit none
      INTEGER, INTENT(INOUT) :: queue
      INTEGER, INTENT(OUT) :: ierror
   end subroutine ompi_queue_fence_f
   end interface

   call ompi_queue_fence_f(queue%MPI_VAL, c_ierror)
   if (present(ierror)) ierror = c_ierror

end subroutine MPI_Queue_fence_f08
