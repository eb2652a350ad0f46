! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! mpi_f08 binding of MPI_Queue_init (and, compiled again in profile/, of
! PMPI_Queue_init): calls the mpif.h binding's C function, as upstream's
! *_f08.F90 files do.
! EXTERNAL goes by address to the C binding (a CUDA stream queue takes the
! address of a cudaStream_t variable: docs/queue-type-cuda.md).

#include "ompi/mpi/fortran/configure-fortran-output.h"

#include "mpi-f08-queue-rename.h"

subroutine MPI_Queue_init_f08(queue, type, external, ierror)
   use :: mpi_f08_queue_types, only : MPI_Queue
   implicit none
   TYPE(MPI_Queue), INTENT(OUT) :: queue
   INTEGER, INTENT(IN) :: type
   OMPI_FORTRAN_IGNORE_TKR_TYPE, INTENT(IN) :: external
   INTEGER, OPTIONAL, INTENT(OUT) :: ierror
   integer :: c_ierror

   interface
   subroutine ompi_queue_init_f(queue, type, external, ierror) &
         BIND(C, name="ompi_queue_init_f")
      implicit none
      INTEGER, INTENT(OUT) :: queue
      INTEGER, INTENT(IN) :: type
      OMPI_FORTRAN_IGNORE_TKR_TYPE, INTENT(IN) :: external
      INTEGER, INTENT(OUT) :: ierror
   end subroutine ompi_queue_init_f
   end interface

   call ompi_queue_init_f(queue%MPI_VAL, type, external, c_ierror)
   if (present(ierror)) ierror = c_ierror

end subroutine MPI_Queue_init_f08
