! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! The queue chapter through "use mpi_f08":
!   - Example 13.1 (the ring), with the data of every iteration checked;
!   - the statuses (source, tag, count) an enqueued waitall writes;
!   - every other function of the chapter (Match, Imatch, Imatchall,
!     Is_matched, Enqueue_start/wait one by one, a PMPI_ name);
!   - erroneous calls return their error class through ierror and leave
!     the handles as they were.
! Each rank prints the step it starts ("step: ..."), so that a run stopped
! by the runner's timeout shows which step did not finish; rank 0 prints
! "OK: ..." when no rank found a failure.

module qtest_f08
    use mpi_f08
    implicit none
    integer :: rank = -1, failures = 0
contains
    subroutine step(name)
        use, intrinsic :: iso_fortran_env, only : output_unit
        character(len=*), intent(in) :: name
        write (output_unit, '("[rank ", i0, "] step: ", a)') rank, name
        flush (output_unit)
    end subroutine step

    subroutine check(cond, what)
        use, intrinsic :: iso_fortran_env, only : error_unit
        logical, intent(in) :: cond
        character(len=*), intent(in) :: what
        if (.not. cond) then
            failures = failures + 1
            write (error_unit, '("[rank ", i0, "] FAIL: ", a)') rank, what
        end if
    end subroutine check

    ! the error class of an MPI return code
    integer function class_of(code)
        integer, intent(in) :: code
        integer :: ierr
        class_of = code
        if (MPI_SUCCESS /= code) call MPI_Error_class(code, class_of, ierr)
    end function class_of
end module qtest_f08

program queue_f08
    use qtest_f08
    implicit none
    integer, parameter :: N = 1024, NITER = 20
    integer, parameter :: TAG_RIGHT = 1, TAG_LEFT = 2
    integer :: size, left, right, iter, i, count, ierr
    double precision :: send_left(N), send_right(N), recv_left(N), recv_right(N)
    type(MPI_Queue) :: queue, copy
    type(MPI_Request) :: reqs(4)
    type(MPI_Status), asynchronous :: statuses(4)
    logical :: flag

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    ! errors without a communicator go to MPI_COMM_WORLD's handler
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)

    left = modulo(rank - 1, size)
    right = modulo(rank + 1, size)

    ! ---- Example 13.1 ----------------------------------------------------
    ! The tags tell the two directions apart, so that the data is checkable
    ! on two ranks too (there, left and right are the same peer).
    call step("Example 13.1: setup")
    queue = MPI_QUEUE_NULL
    call MPI_Queue_init(queue, MPI_QUEUE_TYPE_DEFAULT, 0, ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Queue_init")
    call check(MPI_QUEUE_NULL /= queue, "MPI_Queue_init returned MPI_QUEUE_NULL")
    call MPI_Recv_init(recv_left, N, MPI_DOUBLE_PRECISION, left, TAG_RIGHT, MPI_COMM_WORLD, reqs(1))
    call MPI_Recv_init(recv_right, N, MPI_DOUBLE_PRECISION, right, TAG_LEFT, MPI_COMM_WORLD, reqs(2))
    call MPI_Send_init(send_left, N, MPI_DOUBLE_PRECISION, left, TAG_LEFT, MPI_COMM_WORLD, reqs(3))
    call MPI_Send_init(send_right, N, MPI_DOUBLE_PRECISION, right, TAG_RIGHT, MPI_COMM_WORLD, reqs(4))
    call MPI_Is_matched(reqs(1), flag, ierr)
    call check(MPI_SUCCESS == ierr .and. .not. flag, "a new persistent request is not matched")

    call MPI_Matchall(4, reqs, ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Matchall")
    do i = 1, 4
        call MPI_Is_matched(reqs(i), flag, ierr)
        call check(MPI_SUCCESS == ierr .and. flag, "MPI_Is_matched after MPI_Matchall")
    end do

    ! The example's loop, with a fence per iteration so that the data of
    ! every iteration can be checked before the buffers are refilled.
    call step("Example 13.1: iterations with data checked")
    do iter = 1, NITER
        do i = 1, N
            send_left(i) = 1000000d0 * rank + 1000d0 * iter + i
            send_right(i) = -(1000000d0 * rank + 1000d0 * iter + i)
        end do
        recv_left = 0
        recv_right = 0
        call MPI_Enqueue_startall(queue, 2, reqs(1:2), ierr)
        call check(MPI_SUCCESS == ierr, "MPI_Enqueue_startall (receives)")
        call MPI_Enqueue_startall(queue, 2, reqs(3:4), ierr)
        call check(MPI_SUCCESS == ierr, "MPI_Enqueue_startall (sends)")
        call MPI_Enqueue_waitall(queue, 4, reqs, statuses, ierr)
        call check(MPI_SUCCESS == ierr, "MPI_Enqueue_waitall")
        call MPI_Queue_fence(queue, ierr)
        call check(MPI_SUCCESS == ierr, "MPI_Queue_fence")
        call MPI_F_sync_reg(statuses)
        call MPI_F_sync_reg(recv_left)
        call MPI_F_sync_reg(recv_right)
        ! the left neighbour sent its send_right, the right one its send_left
        do i = 1, N
            if (recv_left(i) /= -(1000000d0 * left + 1000d0 * iter + i) .or. &
                recv_right(i) /= 1000000d0 * right + 1000d0 * iter + i) then
                call check(.false., "ring data")
                exit
            end if
        end do
        call check(left == statuses(1)%MPI_SOURCE, "status(1) source")
        call check(TAG_RIGHT == statuses(1)%MPI_TAG, "status(1) tag")
        call check(right == statuses(2)%MPI_SOURCE, "status(2) source")
        call check(TAG_LEFT == statuses(2)%MPI_TAG, "status(2) tag")
        call MPI_Get_count(statuses(1), MPI_DOUBLE_PRECISION, count, ierr)
        call check(MPI_SUCCESS == ierr .and. N == count, "status(1) count")
        call MPI_Get_count(statuses(2), MPI_DOUBLE_PRECISION, count, ierr)
        call check(MPI_SUCCESS == ierr .and. N == count, "status(2) count")
    end do

    ! The example's loop as written: one fence after all the iterations.
    call step("Example 13.1: iterations, one fence")
    do iter = 1, NITER
        call MPI_Enqueue_startall(queue, 2, reqs(1:2), ierr)
        call MPI_Enqueue_startall(queue, 2, reqs(3:4), ierr)
        call MPI_Enqueue_waitall(queue, 4, reqs, MPI_STATUSES_IGNORE, ierr)
        call check(MPI_SUCCESS == ierr, "MPI_Enqueue_waitall (MPI_STATUSES_IGNORE)")
    end do
    call MPI_Queue_fence(queue, ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Queue_fence after the loop")
    call MPI_F_sync_reg(recv_left)
    call check(recv_left(N) == -(1000000d0 * left + 1000d0 * NITER + N), "ring data after the loop")
    do i = 1, 4
        call MPI_Request_free(reqs(i))
    end do

    ! ---- one request at a time, Imatch, Imatchall, PMPI_ --------------
    call step("Imatch, Enqueue_start, Enqueue_wait")
    call one_by_one()

    ! ---- errors --------------------------------------------------------
    call step("erroneous calls")
    copy = queue
    call MPI_Queue_init(copy, 12345, 0, ierr)
    call check(MPI_ERR_ARG == class_of(ierr), "MPI_Queue_init of an unknown type: MPI_ERR_ARG")
    call check(copy == queue, "a refused MPI_Queue_init changed the handle")
    call MPI_Send_init(send_left, 1, MPI_DOUBLE_PRECISION, left, 7, MPI_COMM_WORLD, reqs(1))
    call MPI_Enqueue_start(queue, reqs(1), ierr)
    call check(MPI_ERR_REQUEST == class_of(ierr), "enqueuing an unmatched request: MPI_ERR_REQUEST")
    call MPI_Request_free(reqs(1))

    call MPI_Queue_free(queue, ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Queue_free")
    call check(MPI_QUEUE_NULL == queue, "MPI_Queue_free did not set MPI_QUEUE_NULL")
    call MPI_Queue_free(copy, ierr)
    call check(MPI_ERR_ARG == class_of(ierr), "freeing a freed queue: MPI_ERR_ARG")
    call check(MPI_QUEUE_NULL /= copy, "a refused MPI_Queue_free changed the handle")
    call MPI_Queue_fence(copy, ierr)
    call check(MPI_ERR_ARG == class_of(ierr), "fence on a freed queue: MPI_ERR_ARG")
    call MPI_Queue_free(queue, ierr)
    call check(MPI_ERR_ARG == class_of(ierr), "freeing MPI_QUEUE_NULL: MPI_ERR_ARG")

    call step("verdict")
    call MPI_Allreduce(MPI_IN_PLACE, failures, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (0 == rank .and. 0 == failures) then
        write (*, '("OK: queue_f08 on ", i0, " ranks")') size
    end if
    call MPI_Finalize()
    if (0 /= failures) stop 1

contains

    subroutine one_by_one()
        type(MPI_Queue) :: q
        type(MPI_Request) :: r(2), m, mr(2)
        type(MPI_Status), asynchronous :: st
        integer :: sbuf(4), rbuf(4), cnt, ierr2
        logical :: done

        call PMPI_Queue_init(q, MPI_QUEUE_TYPE_DEFAULT, sbuf, ierr2)
        call check(MPI_SUCCESS == ierr2, "PMPI_Queue_init")
        sbuf = [rank, 2 * rank, 3 * rank, 4 * rank]
        rbuf = -1
        call MPI_Recv_init(rbuf, 4, MPI_INTEGER, left, 9, MPI_COMM_WORLD, r(1))
        call MPI_Send_init(sbuf, 3, MPI_INTEGER, right, 9, MPI_COMM_WORLD, r(2))
        ! both matches begin before either is waited for: each receive's
        ! match needs the neighbour's send to be matched too
        call MPI_Imatch(r(1), mr(1), ierr2)
        call check(MPI_SUCCESS == ierr2, "MPI_Imatch")
        call MPI_Imatchall(1, r(2:2), mr(2), ierr2)
        call check(MPI_SUCCESS == ierr2, "MPI_Imatchall")
        call MPI_Waitall(2, mr, MPI_STATUSES_IGNORE, ierr2)
        call check(MPI_SUCCESS == ierr2, "MPI_Waitall on the MPI_Imatch and MPI_Imatchall requests")
        call MPI_Is_matched(r(1), done, ierr2)
        call check(done, "MPI_Is_matched after MPI_Imatch")
        call MPI_Is_matched(r(2), done, ierr2)
        call check(done, "MPI_Is_matched after MPI_Imatchall")

        call MPI_Enqueue_start(q, r(1), ierr2)
        call check(MPI_SUCCESS == ierr2, "MPI_Enqueue_start (receive)")
        call MPI_Enqueue_start(q, r(2), ierr2)
        call check(MPI_SUCCESS == ierr2, "MPI_Enqueue_start (send)")
        call MPI_Enqueue_wait(q, r(1), st, ierr2)
        call check(MPI_SUCCESS == ierr2, "MPI_Enqueue_wait (receive)")
        call MPI_Enqueue_wait(q, r(2), MPI_STATUS_IGNORE, ierr2)
        call check(MPI_SUCCESS == ierr2, "MPI_Enqueue_wait (send, MPI_STATUS_IGNORE)")
        call MPI_Queue_fence(q)
        call MPI_F_sync_reg(st)
        call MPI_F_sync_reg(rbuf)
        call check(all(rbuf == [left, 2 * left, 3 * left, -1]), "data of the single enqueued receive")
        call check(left == st%MPI_SOURCE .and. 9 == st%MPI_TAG, "status of MPI_Enqueue_wait")
        call MPI_Get_count(st, MPI_INTEGER, cnt)
        call check(3 == cnt, "count of MPI_Enqueue_wait's status")

        ! matching twice is erroneous: the class comes back, the handle stays
        m = r(1)
        call MPI_Match(r(1), ierr2)
        call check(MPI_ERR_REQUEST == class_of(ierr2), "MPI_Match of a matched request: MPI_ERR_REQUEST")
        call check(m == r(1), "a refused MPI_Match changed the handle")
        call MPI_Request_free(r(1))
        call MPI_Request_free(r(2))
        call MPI_Queue_free(q)
    end subroutine one_by_one

end program queue_f08
