! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! mpi_f08 binding of MPI_Matchall (and, compiled again in profile/, of
! PMPI_Matchall): calls the mpif.h binding's C function, as upstream's
! *_f08.F90 files do.

#include "ompi/mpi/fortran/configure-fortran-output.h"

#include "mpi-f08-queue-rename.h"

subroutine MPI_Matchall_f08(count, array_of_requests, ierror)
   use :: mpi_f08_types, only : MPI_Request
   implicit none
   INTEGER, INTENT(IN) :: count
   TYPE(MPI_Request), INTENT(INOUT) :: array_of_requests(count)
   INTEGER, OPTIONAL, INTENT(OUT) :: ierror
   integer :: c_ierror

   interface
   subroutine ompi_matchall_f(count, array_of_requests, ierror) &
         BIND(C, name="ompi_matchall_f")
      implicit none
      INTEGER, INTENT(IN) :: count
      INTEGER, INTENT(INOUT) :: array_of_requests(count)
      INTEGER, INTENT(OUT) :: ierror
   end subroutine ompi_matchall_f
   end interface

   call ompi_matchall_f(count, array_of_requests(:)%MPI_VAL, c_ierror)
   if (present(ierror)) ierror = c_ierror

end subroutine MPI_Matchall_f08
