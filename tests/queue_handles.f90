! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! The Fortran half of queue_handles (see queue_handles.c): procedures the C
! main calls with Fortran handles (MPI_Fint) of queues and requests.

module queue_handles_f
    use, intrinsic :: iso_c_binding, only : c_int
    use mpi_f08
    implicit none
contains
    subroutine fail(failures, what)
        use, intrinsic :: iso_fortran_env, only : error_unit
        integer(c_int), intent(inout) :: failures
        character(len=*), intent(in) :: what
        failures = failures + 1
        write (error_unit, '("FAIL (Fortran half): ", a)') what
    end subroutine fail

    ! MPI_QUEUE_NULL and MPI_REQUEST_EMPTY of mpi_f08 and of mpif.h are the
    ! C objects' Fortran indices
    subroutine qf_check_constants(queue_null, request_empty, failures) bind(C)
        integer(c_int), value :: queue_null, request_empty
        integer(c_int), intent(inout) :: failures
        if (MPI_QUEUE_NULL%MPI_VAL /= queue_null) then
            call fail(failures, "MPI_QUEUE_NULL is not MPI_Queue_c2f(MPI_QUEUE_NULL)")
        end if
        if (MPI_REQUEST_EMPTY%MPI_VAL /= request_empty) then
            call fail(failures, "MPI_REQUEST_EMPTY is not MPI_Request_c2f(MPI_REQUEST_EMPTY)")
        end if
        if (mpifh_request_empty() /= request_empty .or. mpifh_queue_null() /= queue_null) then
            call fail(failures, "mpif.h's MPI_REQUEST_EMPTY or MPI_QUEUE_NULL differs from C's")
        end if
    end subroutine qf_check_constants

    ! one ring iteration on a queue and matched requests made in C; the
    ! statuses go to C memory, written when the enqueued wait executes
    subroutine qf_ring(queue, reqs, statuses, failures) bind(C)
        integer(c_int), value :: queue
        integer(c_int), intent(inout) :: reqs(4)
        type(MPI_Status) :: statuses(4)
        integer(c_int), intent(inout) :: failures
        type(MPI_Queue) :: q
        type(MPI_Request) :: r(4)
        integer :: ierr

        q%MPI_VAL = queue
        r(:)%MPI_VAL = reqs(:)
        call MPI_Enqueue_startall(q, 2, r(1:2), ierr)
        if (MPI_SUCCESS /= ierr) call fail(failures, "MPI_Enqueue_startall on the C queue")
        call MPI_Enqueue_startall(q, 2, r(3:4), ierr)
        call MPI_Enqueue_waitall(q, 4, r, statuses, ierr)
        if (MPI_SUCCESS /= ierr) call fail(failures, "MPI_Enqueue_waitall on the C queue")
        call MPI_Queue_fence(q, ierr)
        if (MPI_SUCCESS /= ierr) call fail(failures, "MPI_Queue_fence on the C queue")
        if (any(r(:)%MPI_VAL /= reqs(:))) call fail(failures, "the enqueued requests changed handles")
    end subroutine qf_ring

    ! a queue made in Fortran, handed to C
    subroutine qf_make_queue(queue, failures) bind(C)
        integer(c_int), intent(out) :: queue
        integer(c_int), intent(inout) :: failures
        type(MPI_Queue) :: q
        integer :: ierr, dummy

        dummy = 0
        call MPI_Queue_init(q, MPI_QUEUE_TYPE_DEFAULT, dummy, ierr)
        if (MPI_SUCCESS /= ierr .or. MPI_QUEUE_NULL == q) call fail(failures, "MPI_Queue_init")
        queue = q%MPI_VAL
    end subroutine qf_make_queue

    ! C freed the queue: its Fortran handle is refused, and left as it was
    subroutine qf_free_freed_queue(queue, failures) bind(C)
        integer(c_int), value :: queue
        integer(c_int), intent(inout) :: failures
        type(MPI_Queue) :: q
        integer :: ierr, cls

        q%MPI_VAL = queue
        call MPI_Queue_free(q, ierr)
        cls = ierr
        if (MPI_SUCCESS /= ierr) call MPI_Error_class(ierr, cls)
        if (MPI_ERR_ARG /= cls) call fail(failures, "MPI_Queue_free of a queue freed in C: not MPI_ERR_ARG")
        if (q%MPI_VAL /= queue) call fail(failures, "a refused MPI_Queue_free changed the handle")
    end subroutine qf_free_freed_queue

    integer function mpifh_request_empty()
        include 'mpif-queue.h'
        mpifh_request_empty = MPI_REQUEST_EMPTY
    end function mpifh_request_empty

    integer function mpifh_queue_null()
        include 'mpif-queue.h'
        mpifh_queue_null = MPI_QUEUE_NULL
    end function mpifh_queue_null
end module queue_handles_f
