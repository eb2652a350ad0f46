! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! mpi_f08 binding of MPI_Is_matched (and, compiled again in profile/, of
! PMPI_Is_matched): calls the mpif.h binding's C function, as upstream's
! *_f08.F90 files do.

#include "ompi/mpi/fortran/configure-fortran-output.h"

#include "mpi-f08-queue-rename.h"

subroutine MPI_Is_matched_f08(request, flag, ierror)
   use :: mpi_f08_types, only : MPI_Request
   implicit none
   TYPE(MPI_Request), INTENT(IN) :: request
   LOGICAL, INTENT(OUT) :: flag
   INTEGER, OPTIONAL, INTENT(OUT) :: ierror
   integer :: c_ierror

   interface
   subroutine ompi_is_matched_f(request, flag, ierror) &
         BIND(C, name="ompi_is_matched_f")
      implicit none
      INTEGER, INTENT(IN) :: request
      LOGICAL, INTENT(OUT) :: flag
      INTEGER, INTENT(OUT) :: ierror
   end subroutine ompi_is_matched_f
   end interface

   call ompi_is_matched_f(request%MPI_VAL, flag, c_ierror)
   if (present(ierror)) ierror = c_ierror

end subroutine MPI_Is_matched_f08
