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
 * MPIX streams (spec section 3.3): S12 FIFO of 100 callbacks, S13
 * pause/isync/resume, sync resuming a paused stream (D27), S14 sticky
 * failure and MPIX_ERR_STREAM_FAILED, S15 p2p order on streams, S3 a token
 * starts only after the one before completed, collectives and sendrecv on a
 * stream, MPI_ERR_PENDING on free, dup after a failure.  argv[1] "pthread"
 * (run with mpi_async_progress=1): the streams are MPIX_OFFLOAD_PTHREAD.
 */

#include <time.h>

#include "common/qtest.h"
#include <mpi-ext.h>

static int rank, size;
static int loc = MPIX_LOC_INPLACE;

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long) (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int log_buf[256], log_len = 0;

typedef struct {
    int value;
    int ret;
} entry_t;

static int append_cb(MPIX_Graph graph, void *extra)
{
    entry_t *e = (entry_t *) extra;
    QT_CHECK(MPIX_GRAPH_NULL == graph, "a callback outside a graph got a graph handle");
    if (log_len < 256) {
        log_buf[log_len++] = e->value;
    }
    return e->ret;
}

static MPIX_Stream new_stream(void)
{
    MPIX_Stream s = MPIX_STREAM_NULL;
    QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, loc, NULL, &s));
    return s;
}

static void enqueue_cb(MPIX_Stream s, entry_t *e)
{
    MPIX_Token t;
    QT_OK(MPIX_Op_def(append_cb, e, &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));
}

static void s12_fifo(void)
{
    static entry_t e[100];
    MPIX_Stream s = new_stream();

    QT_STEP("S12: 100 callbacks run in enqueue order");
    log_len = 0;
    for (int i = 0; i < 100; ++i) {
        e[i].value = i + 1;
        e[i].ret = MPI_SUCCESS;
        enqueue_cb(s, &e[i]);
    }
    QT_OK(MPIX_Stream_sync(s));
    QT_CHECK(100 == log_len, "%d callbacks ran", log_len);
    for (int i = 0; i < log_len; ++i) {
        QT_CHECK(log_buf[i] == i + 1, "position %d holds %d", i, log_buf[i]);
    }
    QT_OK(MPIX_Stream_free(&s));
}

static void s13_pause_isync(void)
{
    static entry_t a = {1, MPI_SUCCESS};
    MPIX_Stream s = new_stream();
    MPIX_Token t;
    MPI_Request req;
    int paused = -1, flag = 0;

    QT_STEP("S13: a paused stream starts nothing; isync waits; resume");
    QT_OK(MPIX_Stream_is_paused(s, &paused));
    QT_CHECK(0 == paused, "a new stream is paused");
    QT_OK(MPIX_Stream_pause(s));
    QT_OK(MPIX_Stream_pause(s));
    QT_OK(MPIX_Stream_is_paused(s, &paused));
    QT_CHECK(1 == paused, "pause did not pause");
    log_len = 0;
    enqueue_cb(s, &a);
    QT_OK(MPIX_Stream_isync(s, &req));
    for (int i = 0; i < 50; ++i) {
        QT_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        QT_CHECK(0 == flag, "isync completed on a paused stream");
        if (flag) {
            break;
        }
        sleep_ms(2);
    }
    QT_CHECK(0 == log_len, "a token ran on a paused stream");
    QT_CHECK_RC(MPIX_Stream_free(&s), MPI_ERR_PENDING);
    QT_CHECK(MPIX_STREAM_NULL != s, "a refused free changed the handle");
    QT_OK(MPIX_Stream_resume(s));
    if (!flag) {
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    QT_CHECK(1 == log_len, "after resume and wait %d tokens ran", log_len);

    QT_STEP("S13: isync on an idle stream completes at once");
    QT_OK(MPIX_Stream_isync(s, &req));
    QT_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
    QT_CHECK(1 == flag, "isync of an idle stream did not complete at once");
    if (!flag) {
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }

    QT_STEP("D27: sync resumes a paused stream for good");
    QT_OK(MPIX_Stream_pause(s));
    enqueue_cb(s, &a);
    QT_OK(MPIX_Stream_sync(s));
    QT_CHECK(2 == log_len, "sync on a paused stream ran %d tokens in all", log_len);
    QT_OK(MPIX_Stream_is_paused(s, &paused));
    QT_CHECK(0 == paused, "sync left the stream paused");
    (void) t;
    QT_OK(MPIX_Stream_free(&s));
}

static void s14_errors(void)
{
    static entry_t ok1 = {1, MPI_SUCCESS}, bad = {2, MPI_ERR_OTHER}, ok2 = {3, MPI_SUCCESS};
    MPIX_Stream s = new_stream(), s2;
    MPIX_Token t;
    MPI_Request req;
    MPI_Count pos = -7;
    int err = -1, cls, paused = -1;

    QT_STEP("S14: a failed token fails the stream for good");
    log_len = 0;
    /* paused: the three enqueues succeed before anything runs (on a running
     * stream the failure would already refuse the third) */
    QT_OK(MPIX_Stream_pause(s));
    enqueue_cb(s, &ok1);
    enqueue_cb(s, &bad);
    enqueue_cb(s, &ok2);
    QT_CHECK_RC(MPIX_Stream_sync(s), MPI_ERR_OTHER);
    QT_CHECK_RC(MPIX_Stream_sync(s), MPI_ERR_OTHER);
    QT_CHECK(2 == log_len && 1 == log_buf[0] && 2 == log_buf[1],
             "ran %d tokens (ok2 must never run)", log_len);
    QT_OK(MPIX_Op_def(append_cb, &ok2, &t));
    QT_CHECK_RC(MPIX_Stream_enqueue(s, &t), MPIX_ERR_STREAM_FAILED);
    QT_CHECK(MPIX_TOKEN_NULL != t, "a refused enqueue consumed the token");
    QT_OK(MPIX_Token_free(&t));
    QT_CHECK_RC(MPIX_Stream_pause(s), MPIX_ERR_STREAM_FAILED);
    QT_CHECK_RC(MPIX_Stream_resume(s), MPIX_ERR_STREAM_FAILED);
    QT_OK(MPIX_Stream_is_paused(s, &paused));
    QT_CHECK(0 == paused, "is_paused on the failed stream gave %d", paused);
    QT_OK(MPIX_Stream_get_error(s, &err, &pos));
    MPI_Error_class(err, &cls);
    QT_CHECK(MPI_ERR_OTHER == cls && 1 == pos, "get_error (%d, %lld)", cls, (long long) pos);
    QT_OK(MPIX_Stream_isync(s, &req));
    QT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_ERR_OTHER);
    if (MPI_REQUEST_NULL != req) {
        QT_OK(MPI_Request_free(&req));
    }

    QT_STEP("S14: dup of the failed stream works; the failed one frees");
    QT_OK(MPIX_Stream_dup(s, MPI_INFO_NULL, &s2));
    QT_OK(MPIX_Stream_free(&s));
    QT_CHECK(MPIX_STREAM_NULL == s, "free of a failed stream left the handle");
    enqueue_cb(s2, &ok2);
    QT_OK(MPIX_Stream_sync(s2));
    QT_CHECK(3 == log_len && 3 == log_buf[2], "the dup ran %d tokens in all", log_len);
    QT_OK(MPIX_Stream_get_error(s2, &err, &pos));
    QT_CHECK(MPI_SUCCESS == err && -1 == pos, "get_error of a live stream (%d, %lld)", err,
             (long long) pos);
    QT_OK(MPIX_Stream_free(&s2));
}

static void s15_p2p(void)
{
    MPIX_Stream s;
    MPIX_Token t;
    int vals[5], got[5];

    if (size < 2 || rank > 1) {
        return;
    }
    QT_STEP("S15: five sends on a stream arrive in order");
    s = new_stream();
    for (int i = 0; i < 5; ++i) {
        vals[i] = i;
        got[i] = -1;
        if (0 == rank) {
            QT_OK(MPIX_Send_def(&vals[i], 1, MPI_INT, 1, 15, MPI_COMM_WORLD, &t));
        } else {
            QT_OK(MPIX_Recv_def(&got[i], 1, MPI_INT, 0, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
        }
        QT_OK(MPIX_Stream_enqueue(s, &t));
    }
    QT_OK(MPIX_Stream_sync(s));
    for (int i = 0; rank == 1 && i < 5; ++i) {
        QT_CHECK(got[i] == i, "message %d carried %d", i, got[i]);
    }
    QT_OK(MPIX_Stream_free(&s));
}

static int s3_value = -1, s3_seen = -1;

static int s3_check(MPIX_Graph graph, void *extra)
{
    (void) graph;
    (void) extra;
    s3_seen = s3_value;
    return MPI_SUCCESS;
}

static void s3_after_completion(void)
{
    MPIX_Stream s;
    MPIX_Token t;

    if (size < 2 || rank > 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        return;
    }
    QT_STEP("S3: a token starts only after the one before it completed");
    if (0 == rank) {
        int v = 42;
        MPI_Barrier(MPI_COMM_WORLD);
        sleep_ms(200);
        MPI_Send(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        return;
    }
    s = new_stream();
    QT_OK(MPIX_Recv_def(&s3_value, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));
    QT_OK(MPIX_Op_def(s3_check, NULL, &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));
    MPI_Barrier(MPI_COMM_WORLD);
    QT_OK(MPIX_Stream_sync(s));
    QT_CHECK(42 == s3_seen, "the callback saw %d, expected the received 42", s3_seen);
    QT_OK(MPIX_Stream_free(&s));
}

static void collectives_on_stream(void)
{
    MPIX_Stream s = new_stream();
    MPIX_Token t;
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int bc = (0 == rank) ? 99 : -1, v = rank + 1, sum = -1, mx = -1, sv = rank * 10, rv = -1;
    MPI_Status st;

    QT_STEP("collectives and sendrecv on a stream");
    QT_OK(MPIX_Bcast_def(&bc, 1, MPI_INT, 0, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));
    QT_OK(MPIX_Allreduce_def(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));
    QT_OK(MPIX_Reduce_def(&v, &mx, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));
    QT_OK(MPIX_Sendrecv_def(&sv, 1, MPI_INT, right, 8, &rv, 1, MPI_INT, left, 8, MPI_COMM_WORLD,
                            &st, &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));
    QT_OK(MPIX_Barrier_def(MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));
    QT_OK(MPIX_Stream_sync(s));
    QT_CHECK(99 == bc, "bcast %d", bc);
    QT_CHECK(size * (size + 1) / 2 == sum, "allreduce %d", sum);
    QT_CHECK(0 != rank || size == mx, "reduce %d", mx);
    QT_CHECK(left * 10 == rv, "sendrecv received %d from %d", rv, left);
    QT_CHECK(left == st.MPI_SOURCE && 8 == st.MPI_TAG, "sendrecv status %d %d", st.MPI_SOURCE,
             st.MPI_TAG);
    QT_OK(MPIX_Stream_free(&s));
}

static const qt_case_t cases[] = {
    QT_CASE(s12_fifo),
    QT_CASE(s13_pause_isync),
    QT_CASE(s14_errors),
    QT_CASE(s15_p2p),
    QT_CASE(s3_after_completion),
    QT_CASE(collectives_on_stream),
};

int main(int argc, char **argv)
{
    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && 0 == strcmp(argv[1], "pthread")) {
        loc = MPIX_OFFLOAD_PTHREAD;
    }

    qt_run_cases(qt_case_list(argc, argv), cases, sizeof(cases) / sizeof(cases[0]));
    return qt_finalize();
}
