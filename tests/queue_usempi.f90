! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! The queue chapter through "use mpi": every function, with the explicit
! interfaces of the mpi module (a wrong argument would not compile), on a
! ring whose data and statuses are checked, and an erroneous call
! returning its class through ierror.  Each rank prints the step it starts;
! rank 0 prints "OK: ..." when no rank found a failure.

program queue_usempi
    use mpi
    implicit none
    integer, parameter :: N = 64
    integer :: rank, nprocs, left, right, ierr, i, cnt, failures, cls
    integer :: queue, copy, reqs(4), m, mr(2)
    integer :: statuses(MPI_STATUS_SIZE, 4), st(MPI_STATUS_SIZE)
    integer :: sl(N), sr(N), rl(N), rr(N)
    logical :: flag

    failures = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    left = modulo(rank - 1, nprocs)
    right = modulo(rank + 1, nprocs)

    call step("setup: MPI_Queue_init, MPI_Imatch, MPI_Imatchall, MPI_Match, MPI_Matchall")
    call MPI_Queue_init(queue, MPI_QUEUE_TYPE_DEFAULT, 0, ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Queue_init")
    call MPI_Recv_init(rl, N, MPI_INTEGER, left, 1, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Recv_init(rr, N, MPI_INTEGER, right, 2, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Send_init(sl, N, MPI_INTEGER, left, 2, MPI_COMM_WORLD, reqs(3), ierr)
    call MPI_Send_init(sr, N, MPI_INTEGER, right, 1, MPI_COMM_WORLD, reqs(4), ierr)
    ! the four requests are matched by four different calls: the receives'
    ! matches begin first, so that the blocking matches of the sends (whose
    ! partners they are) can complete before they are waited for
    call MPI_Imatch(reqs(1), mr(1), ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Imatch")
    call MPI_Imatchall(1, reqs(2), mr(2), ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Imatchall")
    call MPI_Match(reqs(3), ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Match")
    call MPI_Matchall(1, reqs(4), ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Matchall")
    call MPI_Waitall(2, mr, MPI_STATUSES_IGNORE, ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Waitall on the MPI_Imatch and MPI_Imatchall requests")
    do i = 1, 4
        call MPI_Is_matched(reqs(i), flag, ierr)
        call check(MPI_SUCCESS == ierr .and. flag, "MPI_Is_matched")
    end do

    call step("MPI_Enqueue_start, MPI_Enqueue_startall, MPI_Enqueue_wait, MPI_Enqueue_waitall")
    sl = [(rank * 100 + i, i = 1, N)]
    sr = -sl
    rl = 0
    rr = 0
    call MPI_Enqueue_start(queue, reqs(1), ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Enqueue_start")
    call MPI_Enqueue_startall(queue, 3, reqs(2), ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Enqueue_startall")
    call MPI_Enqueue_wait(queue, reqs(1), st, ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Enqueue_wait")
    call MPI_Enqueue_waitall(queue, 3, reqs(2), statuses(1, 2), ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Enqueue_waitall")
    call MPI_Queue_fence(queue, ierr)
    call check(MPI_SUCCESS == ierr, "MPI_Queue_fence")
    call MPI_F_sync_reg(rl)
    call MPI_F_sync_reg(rr)
    call MPI_F_sync_reg(st)
    call MPI_F_sync_reg(statuses)
    call check(all(rl == [(-(left * 100 + i), i = 1, N)]), "data from the left")
    call check(all(rr == [(right * 100 + i, i = 1, N)]), "data from the right")
    call check(left == st(MPI_SOURCE) .and. 1 == st(MPI_TAG), "status of MPI_Enqueue_wait")
    call check(right == statuses(MPI_SOURCE, 2) .and. 2 == statuses(MPI_TAG, 2), &
               "status of MPI_Enqueue_waitall")
    call MPI_Get_count(statuses(:, 2), MPI_INTEGER, cnt, ierr)
    call check(N == cnt, "count of MPI_Enqueue_waitall's status")

    call step("an erroneous call, MPI_Queue_free")
    copy = queue
    m = MPI_REQUEST_NULL
    call MPI_Enqueue_wait(queue, m, st, ierr)
    cls = ierr
    if (MPI_SUCCESS /= ierr) call MPI_Error_class(ierr, cls, i)
    call check(MPI_ERR_REQUEST == cls, "MPI_Enqueue_wait of MPI_REQUEST_NULL: MPI_ERR_REQUEST")
    call MPI_Queue_free(queue, ierr)
    call check(MPI_SUCCESS == ierr .and. MPI_QUEUE_NULL == queue, "MPI_Queue_free")
    call PMPI_Queue_free(copy, ierr)
    cls = ierr
    if (MPI_SUCCESS /= ierr) call MPI_Error_class(ierr, cls, i)
    call check(MPI_ERR_ARG == cls, "PMPI_Queue_free of a freed queue: MPI_ERR_ARG")
    do i = 1, 4
        call MPI_Request_free(reqs(i), ierr)
    end do

    call MPI_Allreduce(MPI_IN_PLACE, failures, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (0 == rank .and. 0 == failures) write (*, '("OK: queue_usempi on ", i0, " ranks")') nprocs
    call MPI_Finalize(ierr)
    if (0 /= failures) stop 1

contains

    subroutine step(name)
        character(len=*), intent(in) :: name
        write (*, '("[rank ", i0, "] step: ", a)') rank, name
        flush (6)
    end subroutine step

    subroutine check(cond, what)
        logical, intent(in) :: cond
        character(len=*), intent(in) :: what
        if (.not. cond) then
            failures = failures + 1
            write (0, '("[rank ", i0, "] FAIL: ", a)') rank, what
        end if
    end subroutine check

end program queue_usempi
