! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! mpi_f08 types and constants of the draft chapter "Queued Communication":
! TYPE(MPI_Queue), its null handle, the queue types and MPI_REQUEST_EMPTY.
! The values are those of mpif-queue.h (Fortran indices of the C objects).
! The mpi_f08 module uses this module when built --with-queue.

#include "ompi/mpi/fortran/configure-fortran-output.h"

module mpi_f08_queue_types

   use :: mpi_f08_types, only : MPI_Request

   implicit none

   type, BIND(C) :: MPI_Queue
      integer :: MPI_VAL
   end type MPI_Queue

   type(MPI_Queue), parameter   :: MPI_QUEUE_NULL = MPI_Queue(0)
   type(MPI_Request), parameter :: MPI_REQUEST_EMPTY = MPI_Request(2)

   integer, parameter :: MPI_QUEUE_TYPE_DEFAULT = 0
   integer, parameter :: MPIX_QUEUE_TYPE_CUDA_STREAM = 1
   integer, parameter :: MPIX_QUEUE_TYPE_HIP_STREAM = 2

   interface operator (==)
      module procedure ompi_queue_op_eq
   end interface

   interface operator (/=)
      module procedure ompi_queue_op_ne
   end interface

   private :: ompi_queue_op_eq, ompi_queue_op_ne

contains

   logical function ompi_queue_op_eq(a, b)
      type(MPI_Queue), intent(in) :: a, b
      ompi_queue_op_eq = (a%MPI_VAL .eq. b%MPI_VAL)
   end function ompi_queue_op_eq

   logical function ompi_queue_op_ne(a, b)
      type(MPI_Queue), intent(in) :: a, b
      ompi_queue_op_ne = (a%MPI_VAL .ne. b%MPI_VAL)
   end function ompi_queue_op_ne

end module mpi_f08_queue_types
