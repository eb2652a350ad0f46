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
 * A token forwarded around a ring through default queues, so that every
 * forwarding send is enqueued behind the wait of the receive that fills its
 * buffer: a channel may post such a send before its start (match/ofi as a
 * triggered write where the provider has them), and must then send what
 * the receive placed, not what the buffer held when the send was enqueued.
 *
 * Each iteration rank 0 starts the receive of the token's return, then
 * sends it; every other rank enqueues receive, wait, send (same buffer),
 * wait, then fences.  The token leaves rank 0 only after a barrier that
 * every forwarder enters once its send is enqueued: a receive that
 * completed first would leave the queue idle, and a send enqueued on an
 * idle queue is started, not armed (under load 1 of 200 sends of a rank
 * was not armed, 2026-11-28).  Every third iteration those ranks start
 * the send with MPI_Start instead, after the fence, so that sends set off
 * by a trigger and sends started directly alternate on one pair.  Every
 * rank checks the token each iteration.  (With the sends set off when they
 * were enqueued, 2026-11-27, match/ofi over sockets: 12,800 of 19,200
 * words wrong.)
 *
 * QTEST_EXPECT_TRIGGERED=1: the forwarding ranks read the performance
 * variable match_ofi_triggered_starts and expect one triggered start per
 * enqueued send; =0: expect none.  Unset: not read.
 */

#include "common/qtest.h"

#define ITERS 300
#define WORDS 64

/* A counter performance variable: a handle counts from its allocation
 * (MPI_T: a continuous counter's handle reads the growth since then). */
typedef struct {
    MPI_T_pvar_session session;
    MPI_T_pvar_handle handle;
    int open;
} pvar_t;

static int pvar_open(pvar_t *p, const char *name)
{
    int provided, index, count;

    p->open = 0;
    if (MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_SINGLE, &provided)) {
        return 0;
    }
    if (MPI_SUCCESS == MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index)
        && MPI_SUCCESS == MPI_T_pvar_session_create(&p->session)) {
        if (MPI_SUCCESS == MPI_T_pvar_handle_alloc(p->session, index, NULL, &p->handle, &count)
            && 1 == count) {
            p->open = 1;
            return 1;
        }
        MPI_T_pvar_session_free(&p->session);
    }
    MPI_T_finalize();
    return 0;
}

/* the growth since pvar_open, -1 if unknown; closes the handle */
static long long pvar_close(pvar_t *p)
{
    unsigned long long value = 0;
    long long ret = -1;

    if (!p->open) {
        return -1;
    }
    if (MPI_SUCCESS == MPI_T_pvar_read(p->session, p->handle, &value)) {
        ret = (long long) value;
    }
    MPI_T_pvar_handle_free(p->session, &p->handle);
    MPI_T_pvar_session_free(&p->session);
    MPI_T_finalize();
    p->open = 0;
    return ret;
}

int main(int argc, char **argv)
{
    int rank, size, left, right, buf[WORDS], back[WORDS], bad = 0;
    int *got;
    long long enqueued = 0, grew;
    pvar_t triggered = {.open = 0};
    const char *expect = getenv("QTEST_EXPECT_TRIGGERED");
    MPI_Request req[2];
    MPI_Queue q;

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;

    QT_STEP("set-up");
    /* the forwarders receive into what they send, rank 0 apart */
    got = 0 == rank ? back : buf;
    QT_OK(MPI_Recv_init(got, WORDS, MPI_INT, left, 5, MPI_COMM_WORLD, &req[0]));
    QT_OK(MPI_Send_init(buf, WORDS, MPI_INT, right, 5, MPI_COMM_WORLD, &req[1]));
    QT_OK(MPI_Matchall(2, req));
    QT_OK(MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL));
    if (NULL != expect) {
        QT_CHECK(pvar_open(&triggered, "match_ofi_triggered_starts"),
                 "the performance variable match_ofi_triggered_starts is not there");
    }

    QT_STEP("forwarding");
    for (int i = 0; i < ITERS; ++i) {
        int direct = 0 != rank && 2 == i % 3;

        if (0 == rank) {
            for (int k = 0; k < WORDS; ++k) {
                buf[k] = i * 1000 + k;
            }
            /* the receive first: its grant reaches the last forwarder
             * before the token leaves, so that a send run before its
             * queue's turn would carry the buffer's old contents */
            QT_OK(MPI_Enqueue_start(&q, &req[0]));
            /* the token leaves once every forwarder has enqueued its send */
            QT_OK(MPI_Barrier(MPI_COMM_WORLD));
            QT_OK(MPI_Enqueue_start(&q, &req[1]));
            QT_OK(MPI_Enqueue_wait(&q, &req[1], MPI_STATUS_IGNORE));
            QT_OK(MPI_Enqueue_wait(&q, &req[0], MPI_STATUS_IGNORE));
            QT_OK(MPI_Queue_fence(&q));
        } else {
            /* what must not travel: the buffer as it is when the send is
             * enqueued */
            for (int k = 0; k < WORDS; ++k) {
                buf[k] = -1;
            }
            QT_OK(MPI_Enqueue_start(&q, &req[0]));
            QT_OK(MPI_Enqueue_wait(&q, &req[0], MPI_STATUS_IGNORE));
            if (!direct) {
                QT_OK(MPI_Enqueue_start(&q, &req[1]));
                QT_OK(MPI_Enqueue_wait(&q, &req[1], MPI_STATUS_IGNORE));
                ++enqueued;
            }
            /* so that the receive cannot complete before the send is
             * enqueued behind it: a send enqueued on an idle queue is
             * started at once, not armed */
            QT_OK(MPI_Barrier(MPI_COMM_WORLD));
            QT_OK(MPI_Queue_fence(&q));
            if (direct) {
                QT_OK(MPI_Start(&req[1]));
                QT_OK(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
            }
        }
        for (int k = 0; k < WORDS; ++k) {
            bad += got[k] != i * 1000 + k;
        }
    }
    QT_CHECK(0 == bad, "%d words of the token were wrong over %d iterations", bad, ITERS);

    QT_STEP("the triggered starts counted");
    grew = pvar_close(&triggered);
    if (NULL != expect && 0 != rank) {
        long long want = 0 == strcmp(expect, "1") ? enqueued : 0;

        QT_CHECK(grew == want,
                 "match_ofi_triggered_starts grew by %lld over %lld enqueued sends, want %lld",
                 grew, enqueued, want);
    }

    QT_STEP("free");
    QT_OK(MPI_Request_free(&req[0]));
    QT_OK(MPI_Request_free(&req[1]));
    QT_OK(MPI_Queue_free(&q));
    return qt_finalize();
}
