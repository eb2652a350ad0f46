! -*- fortran -*-
!
! Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
! $COPYRIGHT$
!
! Additional copyrights may follow
!
! $HEADER$
!
! The queue chapter through mpif.h, in fixed source form (the form
! mpif.h and mpif-queue.h must stay valid in):
!   - Example 13.1 (the ring), with the data of every iteration checked;
!   - the statuses (source, tag, count) of an enqueued waitall;
!   - the other functions (Match, Imatch, Imatchall, Is_matched,
!     Enqueue_start/wait one by one, PMPI_ names), MPI_REQUEST_EMPTY;
!   - erroneous calls return their error class through IERROR.
! Each rank prints the step it starts; rank 0 prints "OK: ..." when no
! rank found a failure.

      PROGRAM QMPIFH
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER N, NITER, TRIGHT, TLEFT
      PARAMETER (N=1024, NITER=20, TRIGHT=1, TLEFT=2)
      INTEGER RANK, NPROCS, LEFT, RIGHT, ITER, I, CNT, IERR, NFAIL
      INTEGER QUEUE, COPY, REQS(4), R(2), M, MR(2)
      INTEGER STATS(MPI_STATUS_SIZE, 4), ST(MPI_STATUS_SIZE)
      DOUBLE PRECISION SLEFT(N), SRIGHT(N), RLEFT(N), RRIGHT(N)
      INTEGER SBUF(4), RBUF(4)
      LOGICAL FLAG
      COMMON /QFAIL/ NFAIL, RANK

      NFAIL = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
!     errors without a communicator go to MPI_COMM_WORLD's handler
      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &                             IERR)
      LEFT = MOD(RANK - 1 + NPROCS, NPROCS)
      RIGHT = MOD(RANK + 1, NPROCS)

!     ---- Example 13.1 (tags tell the directions apart) -------------
      CALL STEP('Example 13.1: setup')
      QUEUE = MPI_QUEUE_NULL
      CALL MPI_QUEUE_INIT(QUEUE, MPI_QUEUE_TYPE_DEFAULT, 0, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_QUEUE_INIT')
      CALL CHECK(QUEUE .NE. MPI_QUEUE_NULL, 'queue is MPI_QUEUE_NULL')
      CALL MPI_RECV_INIT(RLEFT, N, MPI_DOUBLE_PRECISION, LEFT, TRIGHT,
     &                   MPI_COMM_WORLD, REQS(1), IERR)
      CALL MPI_RECV_INIT(RRIGHT, N, MPI_DOUBLE_PRECISION, RIGHT, TLEFT,
     &                   MPI_COMM_WORLD, REQS(2), IERR)
      CALL MPI_SEND_INIT(SLEFT, N, MPI_DOUBLE_PRECISION, LEFT, TLEFT,
     &                   MPI_COMM_WORLD, REQS(3), IERR)
      CALL MPI_SEND_INIT(SRIGHT, N, MPI_DOUBLE_PRECISION, RIGHT, TRIGHT,
     &                   MPI_COMM_WORLD, REQS(4), IERR)
      CALL MPI_MATCHALL(4, REQS, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_MATCHALL')
      DO I = 1, 4
         CALL MPI_IS_MATCHED(REQS(I), FLAG, IERR)
         CALL CHECK(IERR .EQ. MPI_SUCCESS .AND. FLAG, 'MPI_IS_MATCHED')
      END DO

      CALL STEP('Example 13.1: iterations with data checked')
      DO ITER = 1, NITER
         DO I = 1, N
            SLEFT(I) = 1000000D0 * RANK + 1000D0 * ITER + I
            SRIGHT(I) = -(1000000D0 * RANK + 1000D0 * ITER + I)
            RLEFT(I) = 0
            RRIGHT(I) = 0
         END DO
         CALL MPI_ENQUEUE_STARTALL(QUEUE, 2, REQS(1), IERR)
         CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_ENQUEUE_STARTALL recv')
         CALL MPI_ENQUEUE_STARTALL(QUEUE, 2, REQS(3), IERR)
         CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_ENQUEUE_STARTALL send')
         CALL MPI_ENQUEUE_WAITALL(QUEUE, 4, REQS, STATS, IERR)
         CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_ENQUEUE_WAITALL')
         CALL MPI_QUEUE_FENCE(QUEUE, IERR)
         CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_QUEUE_FENCE')
!        the fence wrote buffers and statuses the compiler cannot see
         CALL MPI_F_SYNC_REG(RLEFT)
         CALL MPI_F_SYNC_REG(RRIGHT)
         CALL MPI_F_SYNC_REG(STATS)
         DO I = 1, N
            IF (RLEFT(I) .NE. -(1000000D0*LEFT + 1000D0*ITER + I) .OR.
     &          RRIGHT(I) .NE. 1000000D0*RIGHT + 1000D0*ITER + I) THEN
               CALL CHECK(.FALSE., 'ring data')
               GOTO 10
            END IF
         END DO
 10      CONTINUE
         CALL CHECK(STATS(MPI_SOURCE, 1) .EQ. LEFT, 'status 1 source')
         CALL CHECK(STATS(MPI_TAG, 1) .EQ. TRIGHT, 'status 1 tag')
         CALL CHECK(STATS(MPI_SOURCE, 2) .EQ. RIGHT, 'status 2 source')
         CALL CHECK(STATS(MPI_TAG, 2) .EQ. TLEFT, 'status 2 tag')
         CALL MPI_GET_COUNT(STATS(1,1), MPI_DOUBLE_PRECISION, CNT, IERR)
         CALL CHECK(CNT .EQ. N, 'status 1 count')
         CALL MPI_GET_COUNT(STATS(1,2), MPI_DOUBLE_PRECISION, CNT, IERR)
         CALL CHECK(CNT .EQ. N, 'status 2 count')
      END DO

      CALL STEP('Example 13.1: iterations, one fence')
      DO ITER = 1, NITER
         CALL MPI_ENQUEUE_STARTALL(QUEUE, 2, REQS(1), IERR)
         CALL MPI_ENQUEUE_STARTALL(QUEUE, 2, REQS(3), IERR)
         CALL MPI_ENQUEUE_WAITALL(QUEUE, 4, REQS, MPI_STATUSES_IGNORE,
     &                            IERR)
         CALL CHECK(IERR .EQ. MPI_SUCCESS, 'WAITALL, STATUSES_IGNORE')
      END DO
      CALL MPI_QUEUE_FENCE(QUEUE, IERR)
      CALL MPI_F_SYNC_REG(RLEFT)
      CALL CHECK(RLEFT(N) .EQ. -(1000000D0*LEFT + 1000D0*NITER + N),
     &           'ring data after the loop')
      DO I = 1, 4
         CALL MPI_REQUEST_FREE(REQS(I), IERR)
      END DO

!     ---- one request at a time, Imatch, Imatchall, PMPI_ ------------
      CALL STEP('IMATCH, ENQUEUE_START, ENQUEUE_WAIT')
      SBUF(1) = RANK
      SBUF(2) = 2 * RANK
      SBUF(3) = 3 * RANK
      SBUF(4) = 4 * RANK
      DO I = 1, 4
         RBUF(I) = -1
      END DO
      CALL MPI_RECV_INIT(RBUF, 4, MPI_INTEGER, LEFT, 9,
     &                   MPI_COMM_WORLD, R(1), IERR)
      CALL MPI_SEND_INIT(SBUF, 3, MPI_INTEGER, RIGHT, 9,
     &                   MPI_COMM_WORLD, R(2), IERR)
!     both matches begin before either is waited for: each receive's
!     match needs the neighbour's send to be matched too
      CALL MPI_IMATCH(R(1), MR(1), IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_IMATCH')
      CALL PMPI_IMATCHALL(1, R(2), MR(2), IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'PMPI_IMATCHALL')
      CALL MPI_WAITALL(2, MR, MPI_STATUSES_IGNORE, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_WAITALL on the matches')
      CALL MPI_ENQUEUE_START(QUEUE, R(1), IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_ENQUEUE_START recv')
      CALL PMPI_ENQUEUE_START(QUEUE, R(2), IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'PMPI_ENQUEUE_START send')
      CALL MPI_ENQUEUE_WAIT(QUEUE, R(1), ST, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_ENQUEUE_WAIT recv')
      CALL MPI_ENQUEUE_WAIT(QUEUE, R(2), MPI_STATUS_IGNORE, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_ENQUEUE_WAIT send')
      CALL PMPI_QUEUE_FENCE(QUEUE, IERR)
      CALL MPI_F_SYNC_REG(RBUF)
      CALL MPI_F_SYNC_REG(ST)
      CALL CHECK(RBUF(1) .EQ. LEFT .AND. RBUF(3) .EQ. 3 * LEFT .AND.
     &           RBUF(4) .EQ. -1, 'data of the single receive')
      CALL CHECK(ST(MPI_SOURCE) .EQ. LEFT .AND. ST(MPI_TAG) .EQ. 9,
     &           'status of MPI_ENQUEUE_WAIT')
      CALL MPI_GET_COUNT(ST, MPI_INTEGER, CNT, IERR)
      CALL CHECK(CNT .EQ. 3, 'count of MPI_ENQUEUE_WAIT')

!     ---- errors ----------------------------------------------------
      CALL STEP('erroneous calls')
      M = R(1)
      CALL MPI_MATCH(R(1), IERR)
      CALL CHECKCLASS(IERR, MPI_ERR_REQUEST, 'MPI_MATCH twice')
      CALL CHECK(M .EQ. R(1), 'a refused MPI_MATCH changed the handle')
      CALL MPI_REQUEST_FREE(R(1), IERR)
      CALL MPI_REQUEST_FREE(R(2), IERR)
      COPY = QUEUE
      CALL MPI_QUEUE_INIT(COPY, 12345, 0, IERR)
      CALL CHECKCLASS(IERR, MPI_ERR_ARG, 'MPI_QUEUE_INIT bad type')
      CALL CHECK(COPY .EQ. QUEUE, 'a refused init changed the handle')
      CALL MPI_SEND_INIT(SBUF, 1, MPI_INTEGER, RIGHT, 7,
     &                   MPI_COMM_WORLD, R(1), IERR)
      CALL MPI_ENQUEUE_START(QUEUE, R(1), IERR)
      CALL CHECKCLASS(IERR, MPI_ERR_REQUEST, 'unmatched ENQUEUE_START')
      CALL MPI_ENQUEUE_WAITALL(QUEUE, -1, R, STATS, IERR)
      CALL CHECKCLASS(IERR, MPI_ERR_ARG, 'ENQUEUE_WAITALL count -1')
      CALL MPI_REQUEST_FREE(R(1), IERR)
      CALL MPI_QUEUE_FREE(QUEUE, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_QUEUE_FREE')
      CALL CHECK(QUEUE .EQ. MPI_QUEUE_NULL, 'free: not MPI_QUEUE_NULL')
      CALL MPI_QUEUE_FREE(COPY, IERR)
      CALL CHECKCLASS(IERR, MPI_ERR_ARG, 'MPI_QUEUE_FREE twice')
      CALL CHECK(COPY .NE. MPI_QUEUE_NULL, 'refused free: handle set')
      CALL MPI_QUEUE_FENCE(QUEUE, IERR)
      CALL CHECKCLASS(IERR, MPI_ERR_ARG, 'fence of MPI_QUEUE_NULL')
!     MPI_REQUEST_EMPTY is a predefined request of its own
      CALL CHECK(MPI_REQUEST_EMPTY .NE. MPI_REQUEST_NULL,
     &           'MPI_REQUEST_EMPTY is MPI_REQUEST_NULL')
      M = MPI_REQUEST_EMPTY
      CALL MPI_WAIT(M, ST, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS .AND. M .EQ. MPI_REQUEST_NULL,
     &           'MPI_WAIT on MPI_REQUEST_EMPTY')
      CALL CHECK(ST(MPI_SOURCE) .EQ. MPI_ANY_SOURCE .AND.
     &           ST(MPI_TAG) .EQ. MPI_ANY_TAG,
     &           'the empty status of MPI_REQUEST_EMPTY')

      CALL STEP('verdict')
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, NFAIL, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0 .AND. NFAIL .EQ. 0) THEN
         WRITE (*, '(A, I0, A)') 'OK: queue_mpifh on ', NPROCS, ' ranks'
      END IF
      CALL MPI_FINALIZE(IERR)
      IF (NFAIL .NE. 0) STOP 1
      END

      SUBROUTINE STEP(NAME)
      IMPLICIT NONE
      CHARACTER*(*) NAME
      INTEGER NFAIL, RANK
      COMMON /QFAIL/ NFAIL, RANK
      WRITE (*, '(A, I0, A, A)') '[rank ', RANK, '] step: ', NAME
      FLUSH (6)
      END

      SUBROUTINE CHECK(COND, WHAT)
      IMPLICIT NONE
      LOGICAL COND
      CHARACTER*(*) WHAT
      INTEGER NFAIL, RANK
      COMMON /QFAIL/ NFAIL, RANK
      IF (.NOT. COND) THEN
         NFAIL = NFAIL + 1
         WRITE (0, '(A, I0, A, A)') '[rank ', RANK, '] FAIL: ', WHAT
      END IF
      END

!     IERR must carry the error class EXPECTED
      SUBROUTINE CHECKCLASS(IERR, EXPECTED, WHAT)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, EXPECTED, CLS, IERR2
      CHARACTER*(*) WHAT
      CLS = IERR
      IF (IERR .NE. MPI_SUCCESS) CALL MPI_ERROR_CLASS(IERR, CLS, IERR2)
      CALL CHECK(CLS .EQ. EXPECTED, WHAT)
      END
