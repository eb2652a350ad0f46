! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! mpi_f08 binding of MPI_Enqueue_startall (and, compiled again in profile/, of
! PMPI_Enqueue_startall): calls the mpif.h binding's C function, as upstream's
! *_f08.F90 files do.
! TYPE(MPI_Request) holds one INTEGER (BIND(C)), so the array of handles
! is passed as the array of their MPI_VAL components, as upstream does.

#include "ompi/mpi/fortran/configure-fortran-output.h"

#include "mpi-f08-queue-rename.h"

subroutine MPI_Enqueue_startall_f08(queue, count, array_of_requests, ierror)
   use :: mpi_f08_types, only : MPI_Request
   use :: mpi_f08_queue_types, only : MPI_Queue
   implicit none
   TYPE(MPI_Queue), INTENT(INOUT) :: queue
   INTEGER, INTENT(IN) :: count
   TYPE(MPI_Request), INTENT(INOUT) :: array_of_requests(count)
   INTEGER, OPTIONAL, INTENT(OUT) :: ierror
   integer :: c_ierror

   interface
   subroutine ompi_enqueue_startall_f(queue, count, array_of_requests, ierror) &
         BIND(C, name="ompi_enqueue_startall_f")
      implicit none
      INTEGER, INTENT(INOUT) :: queue
      INTEGER, INTENT(IN) :: count
      INTEGER, INTENT(INOUT) :: array_of_requests(count)
      INTEGER, INTENT(OUT) :: ierror
   end subroutine ompi_enqueue_startall_f
   end interface

   call ompi_enqueue_startall_f(queue%MPI_VAL, count, array_of_requests(:)%MPI_VAL, c_ierror)
   if (present(ierror)) ierror = c_ierror

end subroutine MPI_Enqueue_startall_f08
