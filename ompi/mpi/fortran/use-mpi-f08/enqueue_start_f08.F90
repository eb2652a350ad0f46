! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! mpi_f08 binding of MPI_Enqueue_start (and, compiled again in profile/, of
! PMPI_Enqueue_start): calls the mpif.h binding's C function, as upstream's
! *_f08.F90 files do.

#include "ompi/mpi/fortran/configure-fortran-output.h"

#include "mpi-f08-queue-rename.h"

subroutine MPI_Enqueue_start_f08(queue, request, ierror)
   use :: mpi_f08_types, only : MPI_Request
   use :: mpi_f08_queue_types, only : MPI_Queue
   implicit none
   TYPE(MPI_Queue), INTENT(INOUT) :: queue
   TYPE(MPI_Request), INTENT(INOUT) :: request
   INTEGER, OPTIONAL, INTENT(OUT) :: ierror
   integer :: c_ierror

   interface
   subroutine ompi_enqueue_start_f(queue, request, ierror) &
         BIND(C, name="ompi_enqueue_start_f")
      implicit none
      INTEGER, INTENT(INOUT) :: queue
      INTEGER, INTENT(INOUT) :: request
      INTEGER, INTENT(OUT) :: ierror
   end subroutine ompi_enqueue_start_f
   end interface

   call ompi_enqueue_start_f(queue%MPI_VAL, request%MPI_VAL, c_ierror)
   if (present(ierror)) ierror = c_ierror

end subroutine MPI_Enqueue_start_f08
