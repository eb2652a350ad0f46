! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! mpi_f08 binding of MPI_Enqueue_waitall (and, compiled again in profile/, of
! PMPI_Enqueue_waitall): calls the mpif.h binding's C function, as upstream's
! *_f08.F90 files do.
! The statuses are written when the enqueued waits execute, after this
! call has returned, so the array is passed by address.

#include "ompi/mpi/fortran/configure-fortran-output.h"

#include "mpi-f08-queue-rename.h"

subroutine MPI_Enqueue_waitall_f08(queue, count, array_of_requests, array_of_statuses, ierror)
   use :: mpi_f08_types, only : MPI_Request, MPI_Status
   use :: mpi_f08_queue_types, only : MPI_Queue
   implicit none
   TYPE(MPI_Queue), INTENT(INOUT) :: queue
   INTEGER, INTENT(IN) :: count
   TYPE(MPI_Request), INTENT(INOUT) :: array_of_requests(count)
   TYPE(MPI_Status) :: array_of_statuses(*)
   INTEGER, OPTIONAL, INTENT(OUT) :: ierror
   integer :: c_ierror

   interface
   subroutine ompi_enqueue_waitall_f(queue, count, array_of_requests, array_of_statuses, ierror) &
         BIND(C, name="ompi_enqueue_waitall_f")
      use :: mpi_f08_types, only : MPI_Status
      implicit none
      INTEGER, INTENT(INOUT) :: queue
      INTEGER, INTENT(IN) :: count
      INTEGER, INTENT(INOUT) :: array_of_requests(count)
      TYPE(MPI_Status) :: array_of_statuses(*)
      INTEGER, INTENT(OUT) :: ierror
   end subroutine ompi_enqueue_waitall_f
   end interface

   call ompi_enqueue_waitall_f(queue%MPI_VAL, count, array_of_requests(:)%MPI_VAL, array_of_statuses, c_ierror)
   if (present(ierror)) ierror = c_ierror

end subroutine MPI_Enqueue_waitall_f08
