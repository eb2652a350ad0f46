! -*- fortran -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! Constants of the draft MPI chapter "Queued Communication", included by
! mpif.h and by the mpi module when Open MPI is configured --with-queue.
! Written to be valid fixed and free form, like the other mpif-*.h files.
!
! Handles are Fortran indices: MPI_QUEUE_NULL is the first entry of the
! queue table, MPI_REQUEST_EMPTY the third of the request table (after
! MPI_REQUEST_NULL and Open MPI's internal empty request, in 5.0.7's
! MPI 3.1 build); tests/queue_handles checks both against MPI_Queue_c2f
! and MPI_Request_c2f.  The queue types are those of mpi_queue.h.

      integer MPI_QUEUE_NULL
      integer MPI_REQUEST_EMPTY
      integer MPI_QUEUE_TYPE_DEFAULT
      integer MPIX_QUEUE_TYPE_CUDA_STREAM
      integer MPIX_QUEUE_TYPE_HIP_STREAM

      parameter (MPI_QUEUE_NULL=0)
      parameter (MPI_REQUEST_EMPTY=2)
      parameter (MPI_QUEUE_TYPE_DEFAULT=0)
      parameter (MPIX_QUEUE_TYPE_CUDA_STREAM=1)
      parameter (MPIX_QUEUE_TYPE_HIP_STREAM=2)
