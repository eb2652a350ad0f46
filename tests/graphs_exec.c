/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * MPIX graphs and streams, execution of single tokens (spec section 3.3):
 * S1 tokens executed again and again, the request interplay of S20
 * (Waitall with an MPI_Irecv, Testany, Request_get_status, a second
 * MPI_Start, Startall), S21 handles, S24 MPIX_Copy_mem(_def), execution
 * errors (a failing callback: MPIX_Execute, MPI_Wait, MPIX_Execute_get_error,
 * restart), the location refusals (PTHREAD without a thread-safe library,
 * CUDA without a device, NITRO, unknown), and, with argv[1] "pthread" (run
 * with mpi_async_progress=1), S17: an execution at MPIX_OFFLOAD_PTHREAD
 * completes while the program makes no MPI call.
 */

#include <stdint.h>
#include <time.h>

#include "common/qtest.h"
#include <mpi-ext.h>

static int rank, size;
static int pthread_mode = 0;

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long) (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int loc(void)
{
    return pthread_mode ? MPIX_OFFLOAD_PTHREAD : MPIX_LOC_INPLACE;
}

static void s1_tokens(void)
{
    MPIX_Token t = MPIX_TOKEN_NULL, stale;
    MPI_Request req;
    MPI_Status st;
    int v = 0, w = -1;

    QT_STEP("S1: one token executed three times");
    if (0 == rank) {
        QT_OK(MPIX_Send_def(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &t));
    } else if (1 == rank) {
        QT_OK(MPIX_Recv_def(&w, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &st, &t));
    } else {
        QT_OK(MPIX_Barrier_def(MPI_COMM_SELF, &t));
    }
    for (int i = 1; i <= 3; ++i) {
        v = i;
        w = -1;
        QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
        if (1 == rank) {
            QT_CHECK(w == i, "execution %d received %d", i, w);
            QT_CHECK(0 == st.MPI_SOURCE && 5 == st.MPI_TAG, "status source %d tag %d",
                     st.MPI_SOURCE, st.MPI_TAG);
        }
    }

    QT_STEP("S1: persistent execution request outlives the token");
    QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc(), NULL, &req));
    stale = t;
    QT_OK(MPIX_Token_free(&t));
    QT_CHECK(MPIX_TOKEN_NULL == t, "MPIX_Token_free did not set the handle to NULL");
    QT_CHECK_RC(MPIX_Execute(MPIX_TOKEN_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Execute(stale, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Token_free(&stale), MPI_ERR_ARG);
    for (int i = 4; i <= 5; ++i) {
        v = i;
        w = -1;
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, &st));
        QT_CHECK(MPI_REQUEST_NULL != req, "a persistent request was freed by MPI_Wait");
        if (1 == rank) {
            QT_CHECK(w == i, "start %d received %d", i, w);
            /* a token made of one receive reports the receive's status */
            QT_CHECK(0 == st.MPI_SOURCE && 5 == st.MPI_TAG, "request status source %d tag %d",
                     st.MPI_SOURCE, st.MPI_TAG);
        }
    }
    QT_OK(MPI_Request_free(&req));
    QT_CHECK(MPI_REQUEST_NULL == req, "MPI_Request_free left the handle");
}

static void s20_requests(void)
{
    MPIX_Token t, t2;
    MPI_Request reqs[2], pr[2];
    MPI_Status st[2];
    int a = 0, b = 0, c = 0, flag = 0, idx = -1;

    if (size < 2 || rank > 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        return;
    }
    QT_STEP("S20: execution request in MPI_Waitall with an MPI_Irecv");
    if (0 == rank) {
        int x = 10, y = 11;
        MPI_Send(&x, 1, MPI_INT, 1, 10, MPI_COMM_WORLD);
        MPI_Send(&y, 1, MPI_INT, 1, 11, MPI_COMM_WORLD);
    } else {
        QT_OK(MPIX_Recv_def(&a, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
        QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, loc(), NULL, &reqs[0]));
        QT_OK(MPI_Irecv(&b, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, &reqs[1]));
        QT_OK(MPI_Waitall(2, reqs, st));
        QT_CHECK(10 == a && 11 == b, "received %d %d", a, b);
        QT_CHECK(MPI_REQUEST_NULL == reqs[0] && MPI_REQUEST_NULL == reqs[1],
                 "nonpersistent requests not freed by MPI_Waitall");
        QT_OK(MPIX_Token_free(&t));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    QT_STEP("S20: Testany, Request_get_status, Start while active, Startall");
    if (0 == rank) {
        int x = 20;
        for (int i = 0; i < 4; ++i) {
            x = 20 + i;
            MPI_Send(&x, 1, MPI_INT, 1, 20, MPI_COMM_WORLD);
        }
    } else {
        QT_OK(MPIX_Recv_def(&c, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
        QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc(), NULL, &pr[0]));
        QT_OK(MPI_Start(&pr[0]));
        flag = 0;
        while (!flag) {
            QT_OK(MPI_Testany(1, pr, &idx, &flag, MPI_STATUS_IGNORE));
        }
        QT_CHECK(0 == idx && 20 == c, "Testany index %d, received %d", idx, c);
        QT_OK(MPI_Start(&pr[0]));
        /* a second start of an active request is refused; the first one
         * goes on */
        QT_CHECK_RC(MPI_Start(&pr[0]), MPI_ERR_REQUEST);
        flag = 0;
        while (!flag) {
            QT_OK(MPI_Request_get_status(pr[0], &flag, MPI_STATUS_IGNORE));
        }
        QT_CHECK(21 == c, "received %d", c);
        QT_OK(MPI_Wait(&pr[0], MPI_STATUS_IGNORE));
        QT_CHECK(MPI_REQUEST_NULL != pr[0], "get_status or wait freed the persistent request");
        /* Startall of two execution requests */
        QT_OK(MPIX_Recv_def(&b, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t2));
        QT_OK(MPIX_Execute_init(t2, MPI_INFO_NULL, loc(), NULL, &pr[1]));
        QT_OK(MPI_Startall(2, pr));
        QT_OK(MPI_Waitall(2, pr, MPI_STATUSES_IGNORE));
        QT_CHECK((22 == c && 23 == b) || (23 == c && 22 == b), "Startall received %d %d", c, b);
        QT_OK(MPI_Request_free(&pr[0]));
        QT_OK(MPI_Request_free(&pr[1]));
        QT_OK(MPIX_Token_free(&t));
        QT_OK(MPIX_Token_free(&t2));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static int fail_flag_cb(MPIX_Graph graph, void *extra)
{
    int *mode = (int *) extra;
    (void) graph;
    mode[1]++;
    return mode[0] ? MPI_ERR_OTHER : MPI_SUCCESS;
}

/* An MPIX_Iexecute of one send that the PML completes in the call (8 bytes,
 * eager) may return a request that is already complete: every request call
 * must still treat it as a completed execution request. */
static void iexecute_done_at_once(void)
{
    MPIX_Token t;
    MPI_Request req, two[2];
    MPI_Status st;
    int flag = 0, err = -1, op = 0, canc = 1;

    if (size < 2 || rank > 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        return;
    }
    QT_STEP("iexecute: a one-send execution complete in the call");
    if (0 == rank) {
        int v = 40;
        QT_OK(MPIX_Send_def(&v, 1, MPI_INT, 1, 40, MPI_COMM_WORLD, &t));
        QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req));
        QT_OK(MPI_Request_get_status(req, &flag, &st));
        if (flag) {
            /* inspected before the wait, as the spec's failed case is */
            QT_OK(MPIX_Execute_get_error(req, &err, &op));
            QT_CHECK(MPI_SUCCESS == err && MPIX_DEP_NONE == op, "get_error (%d, %d)", err, op);
        }
        QT_OK(MPI_Cancel(&req));
        QT_OK(MPI_Wait(&req, &st));
        QT_CHECK(MPI_REQUEST_NULL == req, "the wait did not free the request");
        QT_OK(MPI_Test_cancelled(&st, &canc));
        QT_CHECK(0 == canc, "a completed execution reported cancelled");
        v = 41;
        QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req));
        flag = 0;
        while (!flag) {
            QT_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        }
        QT_CHECK(MPI_REQUEST_NULL == req, "the test did not free the request");
        v = 42;
        QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req));
        QT_OK(MPI_Request_free(&req));
        QT_CHECK(MPI_REQUEST_NULL == req, "MPI_Request_free did not free the request");
        /* each execution reads the buffer when it starts: 42 is sent above,
         * 43 and 44 below */
        v = 43;
        QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &two[0]));
        v = 44;
        QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &two[1]));
        QT_OK(MPI_Waitall(2, two, MPI_STATUSES_IGNORE));
        QT_CHECK(MPI_REQUEST_NULL == two[0] && MPI_REQUEST_NULL == two[1],
                 "MPI_Waitall did not free the requests");
        QT_OK(MPIX_Token_free(&t));
    } else {
        int got[5];
        for (int i = 0; i < 5; ++i) {
            QT_OK(MPI_Recv(&got[i], 1, MPI_INT, 0, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
        QT_CHECK(40 == got[0] && 41 == got[1] && 42 == got[2] && 43 == got[3] && 44 == got[4],
                 "received %d %d %d %d %d", got[0], got[1], got[2], got[3], got[4]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void execution_errors(void)
{
    int mode[2] = {1, 0}, err = -1, op = -1, cls;
    MPIX_Token t;
    MPI_Request req;
    MPI_Status st;

    QT_STEP("errors: a failing callback fails MPIX_Execute");
    QT_OK(MPIX_Op_def(fail_flag_cb, mode, &t));
    QT_CHECK_RC(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL), MPI_ERR_OTHER);
    QT_CHECK(1 == mode[1], "the callback ran %d times", mode[1]);

    QT_STEP("errors: MPIX_Iexecute completes in error, left allocated");
    QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, loc(), NULL, &req));
    QT_CHECK_RC(MPI_Wait(&req, &st), MPI_ERR_OTHER);
    QT_CHECK(MPI_REQUEST_NULL != req, "a request completed in error was freed");
    if (MPI_REQUEST_NULL != req) {
        QT_OK(MPIX_Execute_get_error(req, &err, &op));
        MPI_Error_class(err, &cls);
        QT_CHECK(MPI_ERR_OTHER == cls && MPIX_DEP_NONE == op, "get_error (%d, %d)", cls, op);
        QT_OK(MPI_Request_free(&req));
    }

    QT_STEP("errors: persistent request restarted after a failure");
    QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc(), NULL, &req));
    QT_CHECK_RC(MPIX_Execute_get_error(req, &err, &op), MPI_ERR_REQUEST);
    QT_OK(MPI_Start(&req));
    QT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_ERR_OTHER);
    QT_OK(MPIX_Execute_get_error(req, &err, NULL));
    MPI_Error_class(err, &cls);
    QT_CHECK(MPI_ERR_OTHER == cls, "get_error class %d", cls);
    mode[0] = 0;
    QT_OK(MPI_Start(&req));
    QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    QT_OK(MPIX_Execute_get_error(req, &err, &op));
    QT_CHECK(MPI_SUCCESS == err && MPIX_DEP_NONE == op, "get_error after success (%d, %d)", err,
             op);
    QT_CHECK(4 == mode[1], "the callback ran %d times in all", mode[1]);
    QT_OK(MPI_Request_free(&req));
    QT_OK(MPIX_Token_free(&t));

    QT_STEP("errors: a truncated receive fails its execution");
    if (size >= 2 && rank < 2) {
        int two[2] = {1, 2}, one = 0;
        if (0 == rank) {
            MPI_Send(two, 2, MPI_INT, 1, 30, MPI_COMM_WORLD);
        } else {
            QT_OK(MPIX_Recv_def(&one, 1, MPI_INT, 0, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
            QT_CHECK_RC(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL), MPI_ERR_TRUNCATE);
            QT_OK(MPIX_Token_free(&t));
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void s21_handles(void)
{
    MPIX_Token t = MPIX_TOKEN_NULL;
    MPIX_Stream s = MPIX_STREAM_NULL, stale;
    MPI_Request req = MPI_REQUEST_NULL, r2;
    int dummy = 0, x = 0, err;

    QT_STEP("S21: NULL and stale handles");
    QT_CHECK_RC(MPIX_Token_free(&t), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Token_free(NULL), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Iexecute(MPIX_TOKEN_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req),
                MPI_ERR_ARG);
    QT_CHECK(MPI_REQUEST_NULL == req, "a refused MPIX_Iexecute wrote the request");
    QT_CHECK_RC(MPIX_Stream_free(&s), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Stream_sync(MPIX_STREAM_NULL), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Stream_enqueue(MPIX_STREAM_NULL, &t), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Send_def(&dummy, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Send_def(&dummy, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &t), MPI_ERR_COUNT);
    QT_CHECK_RC(MPIX_Send_def(&dummy, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &t), MPI_ERR_RANK);
    QT_CHECK_RC(MPIX_Recv_def(&dummy, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t),
                MPI_ERR_TAG);
    QT_CHECK_RC(MPIX_Bcast_def(&dummy, 1, MPI_INT, size, MPI_COMM_WORLD, &t), MPI_ERR_ROOT);
    QT_CHECK_RC(MPIX_Allreduce_def(&dummy, &x, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &t),
                MPI_ERR_OP);
    QT_CHECK_RC(MPIX_Barrier_def(MPI_COMM_NULL, &t), MPI_ERR_COMM);
    QT_CHECK_RC(MPIX_Op_def(NULL, NULL, &t), MPI_ERR_ARG);
    QT_CHECK(MPIX_TOKEN_NULL == t, "a refused _def wrote the token");

    QT_STEP("S21: enqueue consumes; freed stream is stale");
    QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &s));
    QT_OK(MPIX_Copy_mem_def(&x, &dummy, sizeof(int), &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));
    QT_CHECK(MPIX_TOKEN_NULL == t, "enqueue did not set the token to NULL");
    QT_OK(MPIX_Stream_sync(s));
    stale = s;
    QT_OK(MPIX_Stream_free(&s));
    QT_CHECK(MPIX_STREAM_NULL == s, "free did not set the stream to NULL");
    QT_CHECK_RC(MPIX_Stream_sync(stale), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Stream_free(&stale), MPI_ERR_ARG);

    QT_STEP("S21: Execute_get_error on a request that is not an execution");
    QT_OK(MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r2));
    QT_CHECK_RC(MPIX_Execute_get_error(r2, &err, NULL), MPI_ERR_REQUEST);
    QT_OK(MPI_Wait(&r2, MPI_STATUS_IGNORE));
}

static void locations(void)
{
    MPIX_Token t;
    MPIX_Stream s = MPIX_STREAM_NULL;
    MPI_Request req = MPI_REQUEST_NULL;
    int fake_stream = 0, cls, rc;

    QT_STEP("locations: refusals");
    QT_OK(MPIX_Barrier_def(MPI_COMM_SELF, &t));
    QT_CHECK_RC(MPIX_Execute_init(t, MPI_INFO_NULL, 99, NULL, &req), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_OFFLOAD_NITRO, NULL, &req), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_OFFLOAD_CUDA, NULL, &req), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, 99, NULL, &s), MPI_ERR_ARG);
    /* G0: no device here is a refusal (MPI_ERR_ARG, message names the
     * cause); on a device the location is not implemented yet */
    rc = MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_OFFLOAD_CUDA, &fake_stream, &req);
    MPI_Error_class(rc, &cls);
    QT_CHECK(MPI_ERR_ARG == cls || MPI_ERR_UNSUPPORTED_OPERATION == cls,
             "MPIX_OFFLOAD_CUDA returned class %d", cls);
    QT_CHECK(MPI_REQUEST_NULL == req, "a refused location wrote the request");
    if (!pthread_mode) {
        /* MPI_THREAD_SINGLE and no strong progress: PTHREAD is refused */
        QT_CHECK_RC(MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_OFFLOAD_PTHREAD, NULL, &req),
                    MPI_ERR_ARG);
        QT_CHECK_RC(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_OFFLOAD_PTHREAD,
                                       NULL, &s),
                    MPI_ERR_ARG);
        QT_CHECK(MPIX_STREAM_NULL == s, "a refused location wrote the stream");
    }
    QT_OK(MPIX_Token_free(&t));
}

static volatile int s17_flag = 0;

static int s17_set_flag(MPIX_Graph graph, void *extra)
{
    (void) graph;
    (void) extra;
    s17_flag = 1;
    return MPI_SUCCESS;
}

static void s17_strong_progress(void)
{
    MPIX_Stream s;
    MPIX_Token t;
    int v = 0;

    if (!pthread_mode || size < 2 || rank > 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        return;
    }
    QT_STEP("S17: a PTHREAD stream completes while the program makes no MPI call");
    if (1 == rank) {
        QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_OFFLOAD_PTHREAD, NULL, &s));
        QT_OK(MPIX_Recv_def(&v, 1, MPI_INT, 0, 17, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
        QT_OK(MPIX_Stream_enqueue(s, &t));
        QT_OK(MPIX_Op_def(s17_set_flag, NULL, &t));
        QT_OK(MPIX_Stream_enqueue(s, &t));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        int x = 1717;
        MPI_Send(&x, 1, MPI_INT, 1, 17, MPI_COMM_WORLD);
    } else {
        /* no MPI call: only the progress thread can run the stream */
        for (int i = 0; i < 10000 && !s17_flag; ++i) {
            sleep_ms(1);
        }
        QT_CHECK(1 == s17_flag, "the callback did not run within 10 s without MPI calls");
        QT_CHECK(1717 == v, "received %d", v);
        QT_OK(MPIX_Stream_sync(s));
        QT_OK(MPIX_Stream_free(&s));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void s24_copy_mem(void)
{
    static unsigned char src[1 << 20], dst[1 << 20];
    MPIX_Token t;
    int a = 5, b = 0;

    QT_STEP("S24: MPIX_Copy_mem 0, 1, 1 MiB; overlap refused");
    for (size_t i = 0; i < sizeof(src); ++i) {
        src[i] = (unsigned char) (i * 13 + 7);
    }
    memset(dst, 0, sizeof(dst));
    QT_OK(MPIX_Copy_mem(dst, src, 0));
    QT_CHECK(0 == dst[0], "a 0-byte copy wrote");
    QT_OK(MPIX_Copy_mem(dst, src, 1));
    QT_CHECK(src[0] == dst[0] && 0 == dst[1], "1-byte copy wrong");
    QT_OK(MPIX_Copy_mem(dst, src, sizeof(src)));
    QT_CHECK(0 == memcmp(dst, src, sizeof(src)), "1 MiB copy differs");
    QT_CHECK_RC(MPIX_Copy_mem(src + 10, src, 100), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Copy_mem(src, src + 99, 100), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Copy_mem(dst, src, -1), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Copy_mem_def(src, src + 1, 2, &t), MPI_ERR_ARG);

    QT_STEP("S24: MPIX_Copy_mem_def reads the source when it runs");
    QT_OK(MPIX_Copy_mem_def(&b, &a, sizeof(int), &t));
    a = 6;
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
    QT_CHECK(6 == b, "copied %d, expected the value at execution time 6", b);
    QT_OK(MPIX_Token_free(&t));
}

static void collectives(void)
{
    MPIX_Token t;
    int v, sum = 0, red = -1, bc = -1;

    QT_STEP("collective tokens executed: Bcast, Allreduce, Reduce, Barrier");
    bc = (0 == rank) ? 4242 : -1;
    QT_OK(MPIX_Bcast_def(&bc, 1, MPI_INT, 0, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
    QT_CHECK(4242 == bc, "bcast gave %d", bc);
    QT_OK(MPIX_Token_free(&t));
    v = rank + 1;
    QT_OK(MPIX_Allreduce_def(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &t));
    for (int k = 0; k < 3; ++k) {
        sum = 0;
        QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
        QT_CHECK(size * (size + 1) / 2 == sum, "allreduce %d gave %d", k, sum);
    }
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPIX_Reduce_def(&v, &red, 1, MPI_INT, MPI_MAX, size - 1, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
    QT_CHECK(rank != size - 1 || size == red, "reduce max gave %d", red);
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPIX_Barrier_def(MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
    QT_OK(MPIX_Token_free(&t));
}

static const qt_case_t cases[] = {
    QT_CASE(s1_tokens),
    QT_CASE(s20_requests),
    QT_CASE(iexecute_done_at_once),
    QT_CASE(execution_errors),
    QT_CASE(s21_handles),
    QT_CASE(locations),
    QT_CASE(s17_strong_progress),
    QT_CASE(s24_copy_mem),
    QT_CASE(collectives),
};

int main(int argc, char **argv)
{
    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pthread_mode = (argc > 1 && 0 == strcmp(argv[1], "pthread"));

    qt_run_cases(qt_case_list(argc, argv), cases, sizeof(cases) / sizeof(cases[0]));
    return qt_finalize();
}
