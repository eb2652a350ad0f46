! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! The PMPI_ twins of mpi_f08_queue_interfaces: the same interface text with
! every name renamed, as upstream's pmpi-f08-interfaces.F90 does.

#include "ompi/mpi/fortran/configure-fortran-output.h"

#define OMPI_BUILD_MPI_PROFILING 1

#include "mpi-f08-queue-rename.h"

module pmpi_f08_queue_interfaces

#include "mpi-f08-queue-interfaces.h"

end module pmpi_f08_queue_interfaces
