! -*- fortran -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! The PMPI_ twins of mpi-ignore-tkr-queue-interfaces.h, made the way
! upstream's pmpi-ignore-tkr-interfaces.h makes its own.

#define MPI_Queue_init PMPI_Queue_init
#define MPI_Queue_free PMPI_Queue_free
#define MPI_Queue_fence PMPI_Queue_fence
#define MPI_Enqueue_start PMPI_Enqueue_start
#define MPI_Enqueue_startall PMPI_Enqueue_startall
#define MPI_Enqueue_wait PMPI_Enqueue_wait
#define MPI_Enqueue_waitall PMPI_Enqueue_waitall
#define MPI_Match PMPI_Match
#define MPI_Imatch PMPI_Imatch
#define MPI_Matchall PMPI_Matchall
#define MPI_Imatchall PMPI_Imatchall
#define MPI_Is_matched PMPI_Is_matched

#include "ompi/mpi/fortran/use-mpi-ignore-tkr/mpi-ignore-tkr-queue-interfaces.h"

#undef MPI_Queue_init
#undef MPI_Queue_free
#undef MPI_Queue_fence
#undef MPI_Enqueue_start
#undef MPI_Enqueue_startall
#undef MPI_Enqueue_wait
#undef MPI_Enqueue_waitall
#undef MPI_Match
#undef MPI_Imatch
#undef MPI_Matchall
#undef MPI_Imatchall
#undef MPI_Is_matched
