! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! mpi_f08 binding of MPI_Imatch (and, compiled again in profile/, of
! PMPI_Imatch): calls the mpif.h binding's C function, as upstream's
! *_f08.F90 files do.

#include "ompi/mpi/fortran/configure-fortran-output.h"

#include "mpi-f08-queue-rename.h"

subroutine MPI_Imatch_f08(tomatch, matchrequest, ierror)
   use :: mpi_f08_types, only : MPI_Request
   implicit none
   TYPE(MPI_Request), INTENT(INOUT) :: tomatch
   TYPE(MPI_Request), INTENT(OUT) :: matchrequest
   INTEGER, OPTIONAL, INTENT(OUT) :: ierror
   integer :: c_ierror

   interface
   subroutine ompi_imatch_f(tomatch, matchrequest, ierror) &
         BIND(C, name="ompi_imatch_f")
      implicit none
      INTEGER, INTENT(INOUT) :: tomatch
      INTEGER, INTENT(OUT) :: matchrequest
      INTEGER, INTENT(OUT) :: ierror
   end subroutine ompi_imatch_f
   end interface

   call ompi_imatch_f(tomatch%MPI_VAL, matchrequest%MPI_VAL, c_ierror)
   if (present(ierror)) ierror = c_ierror

end subroutine MPI_Imatch_f08
