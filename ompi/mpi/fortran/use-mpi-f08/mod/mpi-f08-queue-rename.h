! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! Under OMPI_BUILD_MPI_PROFILING, the queue chapter's mpi_f08 names become
! their PMPI_ twins (generic and specific), as mpi-f08-rename.h does for
! upstream's names.

#if OMPI_BUILD_MPI_PROFILING
#define MPI_Queue_init PMPI_Queue_init
#define MPI_Queue_init_f08 PMPI_Queue_init_f08
#define MPI_Queue_free PMPI_Queue_free
#define MPI_Queue_free_f08 PMPI_Queue_free_f08
#define MPI_Queue_fence PMPI_Queue_fence
#define MPI_Queue_fence_f08 PMPI_Queue_fence_f08
#define MPI_Enqueue_start PMPI_Enqueue_start
#define MPI_Enqueue_start_f08 PMPI_Enqueue_start_f08
#define MPI_Enqueue_startall PMPI_Enqueue_startall
#define MPI_Enqueue_startall_f08 PMPI_Enqueue_startall_f08
#define MPI_Enqueue_wait PMPI_Enqueue_wait
#define MPI_Enqueue_wait_f08 PMPI_Enqueue_wait_f08
#define MPI_Enqueue_waitall PMPI_Enqueue_waitall
#define MPI_Enqueue_waitall_f08 PMPI_Enqueue_waitall_f08
#define MPI_Match PMPI_Match
#define MPI_Match_f08 PMPI_Match_f08
#define MPI_Imatch PMPI_Imatch
#define MPI_Imatch_f08 PMPI_Imatch_f08
#define MPI_Matchall PMPI_Matchall
#define MPI_Matchall_f08 PMPI_Matchall_f08
#define MPI_Imatchall PMPI_Imatchall
#define MPI_Imatchall_f08 PMPI_Imatchall_f08
#define MPI_Is_matched PMPI_Is_matched
#define MPI_Is_matched_f08 PMPI_Is_matched_f08
#endif
