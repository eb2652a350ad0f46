! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! mpi_f08 interfaces of the queue chapter: the generic MPI_ names and the
! specific *_f08 procedures (queue_init_f08.F90 and the other *_f08.F90
! files of the parent directory).  Laid out like upstream's mpi-f08-interfaces.F90.

#include "ompi/mpi/fortran/configure-fortran-output.h"

module mpi_f08_queue_interfaces

#include "mpi-f08-queue-interfaces.h"

end module mpi_f08_queue_interfaces
