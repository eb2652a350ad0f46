! -*- f90 -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! Hostile input through the Fortran bindings ("use mpi_f08"; mpif.h and
! "use mpi" reach the same C glue): every function of the queue chapter
! with one argument at a time made bad, where Fortran can express it.  A
! Fortran handle is an INTEGER, so besides MPI_QUEUE_NULL, MPI_REQUEST_NULL,
! MPI_REQUEST_EMPTY, freed handles and requests of the wrong kind, a
! handle can be a value no object ever had (-1, 123456, HUGE): the glue
! turns a bad request index into a C NULL request, which must be refused
! like MPI_REQUEST_NULL.  NULL pointers and a huge count over a short array
! cannot be written in Fortran and are left to tests/hostile_input.c.
!
! One table, the SELECT CASE in run_row: each row names the function and
! the bad argument, the error classes it may return, and makes the call.
! For each row both ranks build fresh objects (a matched pair of persistent
! requests, an unmatched pair, two queues, a nonpersistent request), make
! the bad call, check its class, then use the same objects correctly (the
! unmatched pair is matched, both pairs are enqueued and fenced, the data
! and statuses checked) and free them.  Each rank prints the row it starts
! ("step: ..."), so that a run stopped by the runner's timeout, or a crash,
! names the row.  Run on 2 ranks.

module hostile_f08_support
    use mpi_f08
    implicit none
    integer, parameter :: N = 64
    integer, parameter :: ERR_ARG = 1, ERR_REQ = 2, ERR_PENDING = 4
    integer :: rank = -1, peer = -1, failures = 0
    character(len=120) :: row_name = ""
    integer :: row_want = 0
    ! the fixture of a row
    integer :: sbuf(N), rbuf(N), usbuf(N), urbuf(N)
    type(MPI_Request) :: m(2), u(2), nonpers
    type(MPI_Queue) :: q, q2
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
            write (error_unit, '("[rank ", i0, "] FAIL (", a, "): ", a)') rank, trim(row_name), what
        end if
    end subroutine check

    integer function class_of(code)
        integer, intent(in) :: code
        integer :: ierr
        class_of = code
        if (MPI_SUCCESS /= code) call MPI_Error_class(code, class_of, ierr)
    end function class_of

    ! the row about to run: its name and the classes it may return
    subroutine row_is(func, bad, want)
        character(len=*), intent(in) :: func, bad
        integer, intent(in) :: want
        row_name = func // ", " // bad
        row_want = want
        call step(trim(row_name))
    end subroutine row_is

    logical function class_allowed(cls)
        integer, intent(in) :: cls
        class_allowed = (0 /= iand(row_want, ERR_ARG) .and. MPI_ERR_ARG == cls) &
            .or. (0 /= iand(row_want, ERR_REQ) .and. MPI_ERR_REQUEST == cls) &
            .or. (0 /= iand(row_want, ERR_PENDING) .and. MPI_ERR_PENDING == cls)
    end function class_allowed

    subroutine fixture_make()
        integer :: ierr
        sbuf = 0
        rbuf = 0
        usbuf = 0
        urbuf = 0
        call MPI_Recv_init(rbuf, N, MPI_INTEGER, peer, 1, MPI_COMM_WORLD, m(1), ierr)
        call MPI_Send_init(sbuf, N, MPI_INTEGER, peer, 1, MPI_COMM_WORLD, m(2), ierr)
        call MPI_Matchall(2, m, ierr)
        call check(MPI_SUCCESS == ierr, "fixture: MPI_Matchall of the matched pair")
        call MPI_Recv_init(urbuf, N, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, u(1), ierr)
        call MPI_Send_init(usbuf, N, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, u(2), ierr)
        call MPI_Queue_init(q, MPI_QUEUE_TYPE_DEFAULT, 0, ierr)
        call check(MPI_SUCCESS == ierr, "fixture: MPI_Queue_init")
        call MPI_Queue_init(q2, MPI_QUEUE_TYPE_DEFAULT, 0, ierr)
        call check(MPI_SUCCESS == ierr, "fixture: MPI_Queue_init of the second queue")
        ! a nonpersistent request that completes by itself
        call MPI_Ibarrier(MPI_COMM_SELF, nonpers, ierr)
    end subroutine fixture_make

    ! the same objects used correctly after the bad call, then freed
    subroutine fixture_use_and_free(iteration)
        integer, intent(in) :: iteration
        type(MPI_Request) :: all(4)
        type(MPI_Status) :: statuses(4)
        logical :: flag
        integer :: ierr, i, cnt, before

        call MPI_Wait(nonpers, MPI_STATUS_IGNORE, ierr)
        call MPI_Is_matched(u(1), flag, ierr)
        if (MPI_SUCCESS == ierr .and. .not. flag) then
            call MPI_Matchall(2, u, ierr)
            call check(MPI_SUCCESS == ierr, "after the row: MPI_Matchall of the unmatched pair")
        end if
        do i = 1, N
            sbuf(i) = 1000 * rank + 10 * iteration + i
            usbuf(i) = -(1000 * rank + 10 * iteration + i)
        end do
        rbuf = 0
        urbuf = 0
        before = failures
        all = [m(1), u(1), m(2), u(2)]
        call MPI_Enqueue_startall(q, 4, all, ierr)
        call check(MPI_SUCCESS == ierr, "after the row: MPI_Enqueue_startall")
        call MPI_Enqueue_waitall(q, 4, all, statuses, ierr)
        call check(MPI_SUCCESS == ierr, "after the row: MPI_Enqueue_waitall")
        call MPI_Queue_fence(q, ierr)
        call check(MPI_SUCCESS == ierr, "after the row: MPI_Queue_fence")
        do i = 1, N
            call check(rbuf(i) == 1000 * peer + 10 * iteration + i, "after the row: matched data")
            call check(urbuf(i) == -(1000 * peer + 10 * iteration + i), &
                       "after the row: data of the pair matched after the row")
            if (failures > before) exit
        end do
        call check(peer == statuses(1)%MPI_SOURCE .and. 1 == statuses(1)%MPI_TAG, &
                   "after the row: the matched receive's status")
        call MPI_Get_count(statuses(2), MPI_INTEGER, cnt, ierr)
        call check(peer == statuses(2)%MPI_SOURCE .and. 2 == statuses(2)%MPI_TAG .and. N == cnt, &
                   "after the row: the second receive's status")
        call MPI_Queue_fence(q2, ierr)
        call check(MPI_SUCCESS == ierr, "after the row: MPI_Queue_fence of the second queue")
        do i = 1, 2
            call MPI_Request_free(m(i), ierr)
            call check(MPI_SUCCESS == ierr, "after the row: MPI_Request_free (matched pair)")
            call MPI_Request_free(u(i), ierr)
            call check(MPI_SUCCESS == ierr, "after the row: MPI_Request_free (second pair)")
        end do
        call MPI_Queue_free(q, ierr)
        call check(MPI_SUCCESS == ierr, "after the row: MPI_Queue_free")
        call MPI_Queue_free(q2, ierr)
        call check(MPI_SUCCESS == ierr, "after the row: MPI_Queue_free of the second queue")
    end subroutine fixture_use_and_free

    ! a queue freed: its stale copy
    type(MPI_Queue) function stale_queue()
        type(MPI_Queue) :: tmp
        integer :: ierr
        call MPI_Queue_init(tmp, MPI_QUEUE_TYPE_DEFAULT, 0, ierr)
        stale_queue = tmp
        call MPI_Queue_free(tmp, ierr)
    end function stale_queue

    type(MPI_Queue) function queue_of(val)
        integer, intent(in) :: val
        queue_of%MPI_VAL = val
    end function queue_of

    type(MPI_Request) function request_of(val)
        integer, intent(in) :: val
        request_of%MPI_VAL = val
    end function request_of

    ! one row of the table; .false. past the last row
    logical function run_row(row)
        integer, intent(in) :: row
        type(MPI_Queue) :: bq
        type(MPI_Request) :: br, arr(2), arr3(3)
        type(MPI_Status) :: st, sts(3)
        logical :: flag
        integer :: ierr

        run_row = .true.
        ierr = MPI_SUCCESS
        select case (row)
        ! ---- MPI_Queue_init
        case (1)
            call row_is("MPI_Queue_init", "type -1", ERR_ARG)
            call MPI_Queue_init(bq, -1, 0, ierr)
        case (2)
            call row_is("MPI_Queue_init", "type HUGE", ERR_ARG)
            call MPI_Queue_init(bq, huge(0), 0, ierr)
        case (3)
            call row_is("MPI_Queue_init", "type -HUGE", ERR_ARG)
            call MPI_Queue_init(bq, -huge(0), 0, ierr)
        ! ---- MPI_Queue_free
        case (4)
            call row_is("MPI_Queue_free", "MPI_QUEUE_NULL", ERR_ARG)
            bq = MPI_QUEUE_NULL
            call MPI_Queue_free(bq, ierr)
        case (5)
            call row_is("MPI_Queue_free", "stale copy of a freed queue", ERR_ARG)
            bq = stale_queue()
            call MPI_Queue_free(bq, ierr)
        case (6)
            call row_is("MPI_Queue_free", "handle -1", ERR_ARG)
            bq = queue_of(-1)
            call MPI_Queue_free(bq, ierr)
        case (7)
            call row_is("MPI_Queue_free", "handle 123456 (never made)", ERR_ARG)
            bq = queue_of(123456)
            call MPI_Queue_free(bq, ierr)
        case (8)
            call row_is("MPI_Queue_free", "queue with a start enqueued, its wait not", ERR_PENDING)
            call MPI_Enqueue_start(q, m(1), ierr)
            call check(MPI_SUCCESS == ierr, "MPI_Enqueue_start before the bad call")
            call MPI_Queue_free(q, ierr)
            call check(MPI_QUEUE_NULL /= q, "the queue refused was set to MPI_QUEUE_NULL")
            if (MPI_QUEUE_NULL /= q) then
                call check_class(ierr)
                ! complete what the row left: the peer's send, then the wait
                call MPI_Enqueue_start(q, m(2), ierr)
                call MPI_Enqueue_waitall(q, 2, m, MPI_STATUSES_IGNORE, ierr)
                call MPI_Queue_fence(q, ierr)
                call check(MPI_SUCCESS == ierr, "the fence after the refused free")
                ierr = -1
            end if
        ! ---- MPI_Queue_fence
        case (9)
            call row_is("MPI_Queue_fence", "MPI_QUEUE_NULL", ERR_ARG)
            bq = MPI_QUEUE_NULL
            call MPI_Queue_fence(bq, ierr)
        case (10)
            call row_is("MPI_Queue_fence", "stale copy of a freed queue", ERR_ARG)
            bq = stale_queue()
            call MPI_Queue_fence(bq, ierr)
        case (11)
            call row_is("MPI_Queue_fence", "handle HUGE (never made)", ERR_ARG)
            bq = queue_of(huge(0))
            call MPI_Queue_fence(bq, ierr)
        ! ---- MPI_Enqueue_start
        case (12)
            call row_is("MPI_Enqueue_start", "MPI_QUEUE_NULL", ERR_ARG)
            bq = MPI_QUEUE_NULL
            call MPI_Enqueue_start(bq, m(1), ierr)
        case (13)
            call row_is("MPI_Enqueue_start", "queue handle 123456", ERR_ARG)
            bq = queue_of(123456)
            call MPI_Enqueue_start(bq, m(1), ierr)
        case (14)
            call row_is("MPI_Enqueue_start", "stale copy of a freed queue", ERR_ARG)
            bq = stale_queue()
            call MPI_Enqueue_start(bq, m(1), ierr)
        case (15)
            call row_is("MPI_Enqueue_start", "MPI_REQUEST_NULL", ERR_REQ)
            br = MPI_REQUEST_NULL
            call MPI_Enqueue_start(q, br, ierr)
        case (16)
            call row_is("MPI_Enqueue_start", "MPI_REQUEST_EMPTY", ERR_REQ)
            br = MPI_REQUEST_EMPTY
            call MPI_Enqueue_start(q, br, ierr)
        case (17)
            call row_is("MPI_Enqueue_start", "request handle -1", ERR_REQ)
            br = request_of(-1)
            call MPI_Enqueue_start(q, br, ierr)
        case (18)
            call row_is("MPI_Enqueue_start", "request handle 123456 (never made)", ERR_REQ)
            br = request_of(123456)
            call MPI_Enqueue_start(q, br, ierr)
        case (19)
            call row_is("MPI_Enqueue_start", "nonpersistent request", ERR_REQ)
            call MPI_Enqueue_start(q, nonpers, ierr)
        case (20)
            call row_is("MPI_Enqueue_start", "not matched", ERR_REQ)
            call MPI_Enqueue_start(q, u(1), ierr)
        case (21)
            call row_is("MPI_Enqueue_start", "start pending on another queue", ERR_REQ)
            call MPI_Enqueue_start(q2, m(1), ierr)
            call check(MPI_SUCCESS == ierr, "MPI_Enqueue_start on the other queue")
            call MPI_Enqueue_start(q, m(1), ierr)
            call check_class(ierr)
            call MPI_Enqueue_start(q2, m(2), ierr)
            call MPI_Enqueue_waitall(q2, 2, m, MPI_STATUSES_IGNORE, ierr)
            call MPI_Queue_fence(q2, ierr)
            call check(MPI_SUCCESS == ierr, "the other queue's fence after the row")
            ierr = -1
        ! ---- MPI_Enqueue_startall
        case (22)
            call row_is("MPI_Enqueue_startall", "MPI_QUEUE_NULL", ERR_ARG)
            bq = MPI_QUEUE_NULL
            call MPI_Enqueue_startall(bq, 2, m, ierr)
        case (23)
            call row_is("MPI_Enqueue_startall", "count -1", ERR_ARG)
            call MPI_Enqueue_startall(q, -1, m, ierr)
        case (24)
            call row_is("MPI_Enqueue_startall", "count -HUGE", ERR_ARG)
            call MPI_Enqueue_startall(q, -huge(0), m, ierr)
        case (25)
            call row_is("MPI_Enqueue_startall", "MPI_REQUEST_NULL in the array", ERR_REQ)
            arr = [m(1), MPI_REQUEST_NULL]
            call MPI_Enqueue_startall(q, 2, arr, ierr)
        case (26)
            call row_is("MPI_Enqueue_startall", "request handle 123456 in the array", ERR_REQ)
            arr = [m(1), request_of(123456)]
            call MPI_Enqueue_startall(q, 2, arr, ierr)
        case (27)
            call row_is("MPI_Enqueue_startall", "MPI_REQUEST_EMPTY in the array", ERR_REQ)
            arr = [MPI_REQUEST_EMPTY, m(2)]
            call MPI_Enqueue_startall(q, 2, arr, ierr)
        case (28)
            call row_is("MPI_Enqueue_startall", "a request twice", ERR_REQ)
            arr3 = [m(1), m(2), m(1)]
            call MPI_Enqueue_startall(q, 3, arr3, ierr)
        case (29)
            call row_is("MPI_Enqueue_startall", "an unmatched request in the array", ERR_REQ)
            arr = [m(1), u(2)]
            call MPI_Enqueue_startall(q, 2, arr, ierr)
        case (30)
            call row_is("MPI_Enqueue_startall", "a nonpersistent request in the array", ERR_REQ)
            arr = [nonpers, m(1)]
            call MPI_Enqueue_startall(q, 2, arr, ierr)
        ! ---- MPI_Enqueue_wait
        case (31)
            call row_is("MPI_Enqueue_wait", "MPI_QUEUE_NULL", ERR_ARG)
            bq = MPI_QUEUE_NULL
            call MPI_Enqueue_wait(bq, m(1), st, ierr)
        case (32)
            call row_is("MPI_Enqueue_wait", "MPI_REQUEST_NULL", ERR_REQ)
            br = MPI_REQUEST_NULL
            call MPI_Enqueue_wait(q, br, st, ierr)
        case (33)
            call row_is("MPI_Enqueue_wait", "request handle 123456 (never made)", ERR_REQ)
            br = request_of(123456)
            call MPI_Enqueue_wait(q, br, st, ierr)
        case (34)
            call row_is("MPI_Enqueue_wait", "nonpersistent request", ERR_REQ)
            call MPI_Enqueue_wait(q, nonpers, st, ierr)
        case (35)
            call row_is("MPI_Enqueue_wait", "matched, never started", ERR_REQ)
            call MPI_Enqueue_wait(q, m(1), st, ierr)
        ! ---- MPI_Enqueue_waitall
        case (36)
            call row_is("MPI_Enqueue_waitall", "count -1", ERR_ARG)
            call MPI_Enqueue_waitall(q, -1, m, sts, ierr)
        case (37)
            call row_is("MPI_Enqueue_waitall", "MPI_REQUEST_NULL in the array", ERR_REQ)
            arr = [MPI_REQUEST_NULL, m(1)]
            call MPI_Enqueue_waitall(q, 2, arr, sts, ierr)
        case (38)
            call row_is("MPI_Enqueue_waitall", "request handle -1 in the array", ERR_REQ)
            arr = [m(1), request_of(-1)]
            call MPI_Enqueue_waitall(q, 2, arr, sts, ierr)
        case (39)
            call row_is("MPI_Enqueue_waitall", "queue handle -1", ERR_ARG)
            bq = queue_of(-1)
            call MPI_Enqueue_waitall(bq, 2, m, sts, ierr)
        ! ---- MPI_Match, MPI_Imatch
        case (40)
            call row_is("MPI_Match", "MPI_REQUEST_NULL", ERR_REQ)
            br = MPI_REQUEST_NULL
            call MPI_Match(br, ierr)
        case (41)
            call row_is("MPI_Match", "request handle 123456 (never made)", ERR_REQ)
            br = request_of(123456)
            call MPI_Match(br, ierr)
        case (42)
            call row_is("MPI_Match", "MPI_REQUEST_EMPTY", ERR_REQ)
            br = MPI_REQUEST_EMPTY
            call MPI_Match(br, ierr)
        case (43)
            call row_is("MPI_Match", "nonpersistent request", ERR_REQ)
            call MPI_Match(nonpers, ierr)
        case (44)
            call row_is("MPI_Match", "already matched", ERR_REQ)
            call MPI_Match(m(1), ierr)
        case (45)
            call row_is("MPI_Imatch", "MPI_REQUEST_NULL", ERR_REQ)
            br = MPI_REQUEST_NULL
            call MPI_Imatch(br, arr(1), ierr)
        case (46)
            call row_is("MPI_Imatch", "request handle -1", ERR_REQ)
            br = request_of(-1)
            call MPI_Imatch(br, arr(1), ierr)
        case (47)
            call row_is("MPI_Imatch", "already matched", ERR_REQ)
            call MPI_Imatch(m(2), arr(1), ierr)
        ! ---- MPI_Matchall, MPI_Imatchall
        case (48)
            call row_is("MPI_Matchall", "count -1", ERR_ARG)
            call MPI_Matchall(-1, u, ierr)
        case (49)
            call row_is("MPI_Matchall", "MPI_REQUEST_NULL in the array", ERR_REQ)
            arr = [u(1), MPI_REQUEST_NULL]
            call MPI_Matchall(2, arr, ierr)
        case (50)
            call row_is("MPI_Matchall", "request handle 123456 in the array", ERR_REQ)
            arr = [request_of(123456), u(2)]
            call MPI_Matchall(2, arr, ierr)
        case (51)
            call row_is("MPI_Matchall", "a request twice", ERR_REQ)
            arr3 = [u(1), u(2), u(1)]
            call MPI_Matchall(3, arr3, ierr)
        case (52)
            call row_is("MPI_Matchall", "an already matched request in the array", ERR_REQ)
            arr = [u(1), m(2)]
            call MPI_Matchall(2, arr, ierr)
        case (53)
            call row_is("MPI_Imatchall", "count -HUGE", ERR_ARG)
            call MPI_Imatchall(-huge(0), u, br, ierr)
        case (54)
            call row_is("MPI_Imatchall", "MPI_REQUEST_NULL in the array", ERR_REQ)
            arr = [MPI_REQUEST_NULL, u(2)]
            call MPI_Imatchall(2, arr, br, ierr)
        case (55)
            call row_is("MPI_Imatchall", "request handle -1 in the array", ERR_REQ)
            arr = [u(1), request_of(-1)]
            call MPI_Imatchall(2, arr, br, ierr)
        case (56)
            call row_is("MPI_Imatchall", "a nonpersistent request in the array", ERR_REQ)
            arr = [u(1), nonpers]
            call MPI_Imatchall(2, arr, br, ierr)
        ! ---- MPI_Is_matched
        case (57)
            call row_is("MPI_Is_matched", "MPI_REQUEST_NULL", ERR_REQ)
            br = MPI_REQUEST_NULL
            call MPI_Is_matched(br, flag, ierr)
        case (58)
            call row_is("MPI_Is_matched", "request handle 123456 (never made)", ERR_REQ)
            br = request_of(123456)
            call MPI_Is_matched(br, flag, ierr)
        case (59)
            call row_is("MPI_Is_matched", "nonpersistent request", ERR_REQ)
            call MPI_Is_matched(nonpers, flag, ierr)
        case default
            run_row = .false.
            return
        end select
        if (-1 /= ierr) then
            call check_class(ierr)
        end if
    end function run_row

    subroutine check_class(ierr)
        integer, intent(in) :: ierr
        character(len=40) :: got
        write (got, '("returned class ", i0)') class_of(ierr)
        call check(class_allowed(class_of(ierr)), trim(got))
    end subroutine check_class
end module hostile_f08_support

program hostile_input_f08
    use hostile_f08_support
    implicit none
    integer :: size, row, total, ierr

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    ! errors without a communicator go to MPI_COMM_WORLD's handler
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
    call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
    if (2 /= size) then
        if (0 == rank) print '(a)', "SKIP: needs 2 ranks"
        call MPI_Finalize()
        stop
    end if
    peer = 1 - rank

    row = 0
    do
        row = row + 1
        call fixture_make()
        if (.not. run_row(row)) then
            row_name = "after the last row"
            call fixture_use_and_free(row)
            exit
        end if
        call fixture_use_and_free(row)
    end do

    call step("verdict")
    call MPI_Allreduce(failures, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (0 == rank) then
        if (0 == total) then
            print '("OK: ", i0, " rows")', row - 1
        else
            print '("FAILED: ", i0, " failure(s)")', total
        end if
    end if
    call MPI_Finalize()
    if (0 /= total) error stop 1
end program hostile_input_f08
