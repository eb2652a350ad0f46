! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! mpi_f08 binding of MPI_Enqueue_wait (and, compiled again in profile/, of
! PMPI_Enqueue_wait): calls the mpif.h binding's C function, as upstream's
! *_f08.F90 files do.
! STATUS is written when the enqueued wait executes, after this call has
! returned, so it is passed by address (no INTENT, as in the chapter).

#include "ompi/mpi/fortran/configure-fortran-output.h"

#include "mpi-f08-queue-rename.h"

subroutine MPI_Enqueue_wait_f08(queue, request, status, ierror)
   use :: mpi_f08_types, only : MPI_Request, MPI_Status
   use :: mpi_f08_queue_types, only : MPI_Queue
   implicit none
   TYPE(MPI_Queue), INTENT(INOUT) :: queue
   TYPE(MPI_Request), INTENT(INOUT) :: request
   TYPE(MPI_Status) :: status
   INTEGER, OPTIONAL, INTENT(OUT) :: ierror
   integer :: c_ierror

   interface
   subroutine ompi_enqueue_wait_f(queue, request, status, ierror) &
         BIND(C, name="ompi_enqueue_wait_f")
      use :: mpi_f08_types, only : MPI_Status
      implicit none
      INTEGER, INTENT(INOUT) :: queue
      INTEGER, INTENT(INOUT) :: request
      TYPE(MPI_Status) :: status
      INTEGER, INTENT(OUT) :: ierror
   end subroutine ompi_enqueue_wait_f
   end interface

   call ompi_enqueue_wait_f(queue%MPI_VAL, request%MPI_VAL, status, c_ierror)
   if (present(ierror)) ierror = c_ierror

end subroutine MPI_Enqueue_wait_f08
