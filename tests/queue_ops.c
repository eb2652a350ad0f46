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
 * Enqueued starts and waits on the default queue type: the ring of the
 * chapter's Example 13.1 with restarts and statuses, the ordering rule (a
 * start waits for earlier waits), progress inside MPI_Enqueue_wait, fence,
 * persistent collectives and partitioned requests on a queue, a stalled
 * queue beside a working one, 100 live queues, an operation failing inside
 * a queue, a start failing on an idle queue, and every misuse.
 */

#include "common/qtest.h"

#define N 64
#define ITERS 100

static int rank, size, left, right;
/* argv[1] "emulated": queues run on the trigger engine (queue_default_emulate_stream) */
static int emulated = 0;

static void ring(void)
{
    static double sl[N], sr[N], rl[N], rr[N];
    MPI_Request reqs[4];
    MPI_Status st[4];
    MPI_Queue q;
    int errors = 0;

    QT_STEP("ring exchange (Example 13.1)");
    QT_OK(MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL));
    MPI_Recv_init(rl, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(rr, N, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &reqs[1]);
    MPI_Send_init(sl, N, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &reqs[2]);
    MPI_Send_init(sr, N, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[3]);
    QT_OK(MPI_Matchall(4, reqs));
    for (int it = 0; it < ITERS; ++it) {
        /* new send data each iteration, so a fence each iteration here;
         * restarts without a fence are checked below */
        for (int i = 0; i < N; ++i) {
            sl[i] = rank * 1000 + it;
            sr[i] = -(rank * 1000 + it);
        }
        QT_OK(MPI_Enqueue_startall(&q, 2, &reqs[0]));
        QT_OK(MPI_Enqueue_startall(&q, 2, &reqs[2]));
        QT_OK(MPI_Enqueue_waitall(&q, 4, reqs, st));
        QT_OK(MPI_Queue_fence(&q));
        if (rl[0] != -(left * 1000 + it) || rr[N - 1] != right * 1000 + it) {
            errors++;
        }
        if (left != st[0].MPI_SOURCE || 0 != st[0].MPI_TAG || right != st[1].MPI_SOURCE
            || 1 != st[1].MPI_TAG) {
            errors++;
        }
    }
    QT_CHECK(0 == errors, "ring: %d wrong iterations", errors);
    for (int i = 0; i < 4; ++i) {
        QT_OK(MPI_Request_free(&reqs[i]));
    }
    QT_OK(MPI_Queue_free(&q));
}

static void restarts_without_fence(void)
{
    int s = 0, r = -1, last = -1;
    MPI_Request reqs[2];
    MPI_Queue q;

    QT_STEP("restarts on the same queue without a fence in between");
    MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
    MPI_Recv_init(&r, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &reqs[0]);
    MPI_Send_init(&s, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &reqs[1]);
    MPI_Matchall(2, reqs);
    s = 7;
    for (int it = 0; it < ITERS; ++it) {
        QT_OK(MPI_Enqueue_startall(&q, 2, reqs));
        QT_OK(MPI_Enqueue_waitall(&q, 2, reqs, MPI_STATUSES_IGNORE));
    }
    QT_OK(MPI_Queue_fence(&q));
    last = r;
    QT_CHECK(7 == last, "restarted exchange got %d", last);
    /* after the fence the requests are inactive: plain MPI works again */
    s = 8;
    QT_OK(MPI_Startall(2, reqs));
    QT_OK(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    QT_CHECK(8 == r, "plain start after fence got %d", r);
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Queue_free(&q);
}

static void start_waits_for_earlier_wait(void)
{
    int x = -1, y = -1, v;
    MPI_Request r_in, s_out, s_v, r_back;
    MPI_Queue q;

    QT_STEP("an enqueued start waits for every earlier enqueued wait");
    if (rank > 1) {
        return;
    }
    MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
    if (0 == rank) {
        /* receive x, then send x back: the send must read x after the
         * receive's wait, or it sends the stale -1 */
        MPI_Recv_init(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &r_in);
        MPI_Send_init(&x, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &s_out);
        MPI_Match(&r_in);
        MPI_Match(&s_out);
        QT_OK(MPI_Enqueue_start(&q, &r_in));
        QT_OK(MPI_Enqueue_wait(&q, &r_in, MPI_STATUS_IGNORE));
        QT_OK(MPI_Enqueue_start(&q, &s_out));
        QT_OK(MPI_Enqueue_wait(&q, &s_out, MPI_STATUS_IGNORE));
        QT_OK(MPI_Queue_fence(&q));
        MPI_Request_free(&r_in);
        MPI_Request_free(&s_out);
    } else {
        v = 4242;
        MPI_Send_init(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &s_v);
        MPI_Recv_init(&y, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &r_back);
        MPI_Match(&s_v);
        MPI_Match(&r_back);
        /* let rank 0 enqueue everything before the value leaves */
        usleep(100000);
        QT_OK(MPI_Enqueue_start(&q, &r_back));
        QT_OK(MPI_Enqueue_start(&q, &s_v));
        QT_OK(MPI_Enqueue_wait(&q, &s_v, MPI_STATUS_IGNORE));
        QT_OK(MPI_Enqueue_wait(&q, &r_back, MPI_STATUS_IGNORE));
        QT_OK(MPI_Queue_fence(&q));
        QT_CHECK(4242 == y, "the send started before the earlier wait completed (got %d)", y);
        MPI_Request_free(&s_v);
        MPI_Request_free(&r_back);
    }
    MPI_Queue_free(&q);
}

/* Each MPI_Enqueue_wait makes one progress pass: the message that arrived
 * while rank 0 made no MPI call completes the first wait during the later
 * enqueue calls, before any fence.  A pass is not bound to finish a
 * receive, so rank 0 gives it WAIT_POLLS enqueued waits. */
#define WAIT_POLLS 8
static void enqueued_wait_progresses(void)
{
    int data[WAIT_POLLS + 1], one = 1, i;
    MPI_Request req[WAIT_POLLS + 1];
    MPI_Status st[WAIT_POLLS + 1];
    MPI_Queue q;

    QT_STEP("an enqueued wait makes progress (completion processing begins in the call)");
    if (emulated) {
        return; /* a stream-ordered queue progresses by its context instead */
    }
    if (rank > 1) {
        MPI_Barrier(MPI_COMM_WORLD);    /* the pair's barrier below */
        return;
    }
    for (i = 0; i <= WAIT_POLLS; ++i) {
        data[i] = -1;
        st[i].MPI_TAG = -1;
        if (1 == rank) {
            MPI_Send_init(&one, 1, MPI_INT, 0, 5 + i, MPI_COMM_WORLD, &req[i]);
        } else {
            MPI_Recv_init(&data[i], 1, MPI_INT, 1, 5 + i, MPI_COMM_WORLD, &req[i]);
        }
    }
    QT_OK(MPI_Matchall(WAIT_POLLS + 1, req));
    if (1 == rank) {
        MPI_Barrier(MPI_COMM_WORLD);
        usleep(100000);
        /* eager: they complete without rank 0 taking part */
        QT_OK(MPI_Startall(WAIT_POLLS + 1, req));
        QT_OK(MPI_Waitall(WAIT_POLLS + 1, req, MPI_STATUSES_IGNORE));
    } else {
        MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
        MPI_Barrier(MPI_COMM_WORLD);
        QT_OK(MPI_Enqueue_start(&q, &req[0]));
        QT_OK(MPI_Enqueue_wait(&q, &req[0], &st[0]));
        /* no MPI call while the messages arrive: only the enqueue calls
         * below can receive them (each later start waits for the first
         * wait, so it cannot receive by itself) */
        usleep(500000);
        for (i = 1; i <= WAIT_POLLS && -1 == st[0].MPI_TAG; ++i) {
            QT_OK(MPI_Enqueue_start(&q, &req[i]));
            QT_OK(MPI_Enqueue_wait(&q, &req[i], &st[i]));
        }
        QT_CHECK(5 == st[0].MPI_TAG && 1 == data[0],
                 "the first wait had not completed after %d more enqueued waits "
                 "(tag %d, value %d)", i - 1, st[0].MPI_TAG, data[0]);
        for (; i <= WAIT_POLLS; ++i) {
            QT_OK(MPI_Enqueue_start(&q, &req[i]));
            QT_OK(MPI_Enqueue_wait(&q, &req[i], &st[i]));
        }
        QT_OK(MPI_Queue_fence(&q));
        for (i = 1; i <= WAIT_POLLS; ++i) {
            QT_CHECK(5 + i == st[i].MPI_TAG && 1 == data[i],
                     "after the fence, wait %d: tag %d, value %d", i, st[i].MPI_TAG, data[i]);
        }
        MPI_Queue_free(&q);
    }
    for (i = 0; i <= WAIT_POLLS; ++i) {
        MPI_Request_free(&req[i]);
    }
}

static void collectives_and_partitioned(void)
{
    int in, out = 0, buf[8], peer;
    MPI_Request c, p;
    MPI_Queue q;

    QT_STEP("persistent collectives on a queue");
    MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
    MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &c);
    QT_OK(MPI_Match(&c));
    for (int it = 0; it < 3; ++it) {
        in = rank + it;
        QT_OK(MPI_Enqueue_start(&q, &c));
        QT_OK(MPI_Enqueue_wait(&q, &c, MPI_STATUS_IGNORE));
        QT_OK(MPI_Queue_fence(&q));
        QT_CHECK(size * (size - 1) / 2 + size * it == out, "queued allreduce gave %d", out);
    }
    MPI_Request_free(&c);

    QT_STEP("partitioned requests on a queue");
    if (emulated) {
        /* MPI_Pready right after MPI_Enqueue_start relies on the default
         * type starting an idle queue's request inside the call; on a
         * stream (emulated here) the start comes later */
        MPI_Queue_free(&q);
        return;
    }
    /* pairs (0,1), (2,3); an odd last rank sends to itself */
    peer = (size % 2 && rank == size - 1) ? rank : (rank % 2 ? rank - 1 : rank + 1);
    if (peer == rank) {
        int rbuf[8];
        MPI_Request self;
        MPI_Precv_init(rbuf, 2, 4, MPI_INT, rank, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &self);
        MPI_Psend_init(buf, 2, 4, MPI_INT, rank, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &p);
        MPI_Enqueue_start(&q, &self);
        MPI_Enqueue_start(&q, &p);
        MPI_Pready_range(0, 1, p);
        MPI_Enqueue_wait(&q, &p, MPI_STATUS_IGNORE);
        MPI_Enqueue_wait(&q, &self, MPI_STATUS_IGNORE);
        QT_OK(MPI_Queue_fence(&q));
        MPI_Request_free(&self);
    } else {
        for (int i = 0; i < 8; ++i) {
            buf[i] = rank % 2 ? -1 : 30 + i;
        }
        if (0 == rank % 2) {
            MPI_Psend_init(buf, 2, 4, MPI_INT, peer, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &p);
        } else {
            MPI_Precv_init(buf, 2, 4, MPI_INT, peer, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &p);
        }
        QT_OK(MPI_Enqueue_start(&q, &p));
        if (0 == rank % 2) {
            QT_OK(MPI_Pready_range(0, 1, p));
        }
        QT_OK(MPI_Enqueue_wait(&q, &p, MPI_STATUS_IGNORE));
        QT_OK(MPI_Queue_fence(&q));
        QT_CHECK(37 == buf[7], "queued partitioned data %d", buf[7]);
    }
    MPI_Request_free(&p);
    MPI_Queue_free(&q);
}

static void stalled_queue(void)
{
    int a = -1, b = -1, sa = 11, sb = 22;
    MPI_Request ra, rb, xa, xb;
    MPI_Queue q1, q2;

    QT_STEP("a stalled queue does not delay another queue or its fence");
    if (rank > 1) {
        return;
    }
    MPI_Queue_init(&q1, MPI_QUEUE_TYPE_DEFAULT, NULL);
    MPI_Queue_init(&q2, MPI_QUEUE_TYPE_DEFAULT, NULL);
    if (0 == rank) {
        MPI_Recv_init(&a, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &ra);
        MPI_Recv_init(&b, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &rb);
        MPI_Match(&ra);
        MPI_Match(&rb);
        QT_OK(MPI_Enqueue_start(&q1, &ra));
        QT_OK(MPI_Enqueue_wait(&q1, &ra, MPI_STATUS_IGNORE)); /* stalls until rank 1 sends */
        QT_OK(MPI_Enqueue_start(&q2, &rb));
        QT_OK(MPI_Enqueue_wait(&q2, &rb, MPI_STATUS_IGNORE));
        QT_OK(MPI_Queue_fence(&q2));
        QT_CHECK(22 == b && -1 == a, "q2 got %d while q1 should be stalled (a=%d)", b, a);
        MPI_Send(&b, 1, MPI_INT, 1, 7, MPI_COMM_WORLD); /* now rank 1 may send a */
        QT_OK(MPI_Queue_fence(&q1));
        QT_CHECK(11 == a, "q1 got %d", a);
        MPI_Request_free(&ra);
        MPI_Request_free(&rb);
    } else {
        int token;
        MPI_Send_init(&sa, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &xa);
        MPI_Send_init(&sb, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &xb);
        MPI_Match(&xa);
        MPI_Match(&xb);
        QT_OK(MPI_Enqueue_start(&q2, &xb));
        QT_OK(MPI_Enqueue_wait(&q2, &xb, MPI_STATUS_IGNORE));
        QT_OK(MPI_Queue_fence(&q2));
        MPI_Recv(&token, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        QT_OK(MPI_Enqueue_start(&q1, &xa));
        QT_OK(MPI_Enqueue_wait(&q1, &xa, MPI_STATUS_IGNORE));
        QT_OK(MPI_Queue_fence(&q1));
        MPI_Request_free(&xa);
        MPI_Request_free(&xb);
    }
    MPI_Queue_free(&q1);
    MPI_Queue_free(&q2);
}

static void many_queues(void)
{
    enum { NQ = 100 };
    static MPI_Queue qs[NQ];
    static MPI_Request reqs[NQ][2];
    static int s[NQ], r[NQ];
    int bad = 0;

    QT_STEP("100 live queues");
    for (int i = 0; i < NQ; ++i) {
        MPI_Queue_init(&qs[i], MPI_QUEUE_TYPE_DEFAULT, NULL);
        MPI_Recv_init(&r[i], 1, MPI_INT, left, 100 + i, MPI_COMM_WORLD, &reqs[i][0]);
        MPI_Send_init(&s[i], 1, MPI_INT, right, 100 + i, MPI_COMM_WORLD, &reqs[i][1]);
        s[i] = rank * 1000 + i;
        r[i] = -1;
    }
    for (int i = 0; i < NQ; ++i) {
        QT_OK(MPI_Matchall(2, reqs[i]));
    }
    for (int i = 0; i < NQ; ++i) {
        QT_OK(MPI_Enqueue_startall(&qs[i], 2, reqs[i]));
        QT_OK(MPI_Enqueue_waitall(&qs[i], 2, reqs[i], MPI_STATUSES_IGNORE));
    }
    for (int i = NQ - 1; i >= 0; --i) {
        QT_OK(MPI_Queue_fence(&qs[i]));
        bad += (left * 1000 + i != r[i]);
        MPI_Request_free(&reqs[i][0]);
        MPI_Request_free(&reqs[i][1]);
        QT_OK(MPI_Queue_free(&qs[i]));
    }
    QT_CHECK(0 == bad, "%d queues got wrong data", bad);
}

static void failing_operation(void)
{
    int small = -1, big[4] = {1, 2, 3, 4}, after = -1, s2 = 5, again = -1;
    MPI_Request r_small, r_after, s_big, s_after;
    MPI_Status st;
    MPI_Queue q;
    int cls;

    QT_STEP("an operation failing inside a queue");
    if (rank > 1) {
        return;
    }
    MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
    if (1 == rank) {
        MPI_Recv_init(&small, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &r_small); /* too small */
        MPI_Recv_init(&after, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r_after);
        MPI_Match(&r_small);
        MPI_Match(&r_after);
        QT_OK(MPI_Enqueue_start(&q, &r_small));
        QT_OK(MPI_Enqueue_wait(&q, &r_small, &st));
        QT_OK(MPI_Enqueue_start(&q, &r_after));
        QT_OK(MPI_Enqueue_wait(&q, &r_after, MPI_STATUS_IGNORE));
        cls = MPI_Queue_fence(&q);
        MPI_Error_class(cls, &cls);
        QT_CHECK(MPI_ERR_TRUNCATE == cls, "fence reported class %d, expected truncation", cls);
        MPI_Error_class(st.MPI_ERROR, &cls);
        QT_CHECK(MPI_ERR_TRUNCATE == cls, "the wait's status has class %d", cls);
        QT_CHECK(-1 == after, "the queue started an operation after the failed one");
        /* the queue works again after the fence reported the error */
        QT_OK(MPI_Enqueue_start(&q, &r_after));
        QT_OK(MPI_Enqueue_wait(&q, &r_after, MPI_STATUS_IGNORE));
        QT_OK(MPI_Queue_fence(&q));
        QT_CHECK(5 == after, "receive after recovery got %d", after);
        MPI_Recv(&again, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

        /* a failure not yet reported by a fence is reported by the free */
        QT_OK(MPI_Enqueue_start(&q, &r_small));
        QT_OK(MPI_Enqueue_wait(&q, &r_small, MPI_STATUS_IGNORE));
        MPI_Send(&again, 1, MPI_INT, 0, 11, MPI_COMM_WORLD);
        for (long spins = 0; spins < 100000000; ++spins) {
            int probed;
            /* a test call, so the queue progresses */
            MPI_Iprobe(MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &probed, MPI_STATUS_IGNORE);
            MPI_Error_class(MPI_Queue_free(&q), &cls);
            if (MPI_ERR_PENDING != cls) {
                break;
            }
        }
        QT_CHECK(MPI_ERR_TRUNCATE == cls, "MPI_Queue_free reported class %d, expected truncation",
                 cls);
        QT_CHECK(MPI_QUEUE_NULL == q, "MPI_Queue_free reporting an error did not free the queue");
        MPI_Request_free(&r_small);
        MPI_Request_free(&r_after);
        return;
    } else {
        MPI_Send_init(big, 4, MPI_INT, 1, 8, MPI_COMM_WORLD, &s_big);
        MPI_Send_init(&s2, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &s_after);
        MPI_Match(&s_big);
        MPI_Match(&s_after);
        MPI_Start(&s_big);
        MPI_Start(&s_after);
        MPI_Wait(&s_big, MPI_STATUS_IGNORE);
        MPI_Wait(&s_after, MPI_STATUS_IGNORE);
        MPI_Send(&s2, 1, MPI_INT, 1, 10, MPI_COMM_WORLD);
        MPI_Recv(&again, 1, MPI_INT, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Start(&s_big);
        MPI_Wait(&s_big, MPI_STATUS_IGNORE);
        MPI_Request_free(&s_big);
        MPI_Request_free(&s_after);
    }
    MPI_Queue_free(&q);
}

/* A start that fails on an idle queue (a buffered send, too large to go
 * eagerly, with no buffer attached) is reported by MPI_Enqueue_start, or,
 * on the trigger engine, by the fence; either way the queue no longer owns
 * the request: it can be freed, or enqueued again once it can run, and the
 * fence does not hang, and the restarted request's message arrives (stock
 * ob1 lost it: patch 0013). */
#define BSEND_COUNT (64 * 1024)
static void failing_start(void)
{
    static int x[BSEND_COUNT], y[BSEND_COUNT];
    static char bsend_buf[BSEND_COUNT * sizeof(int) + 4 * MPI_BSEND_OVERHEAD];
    int cls;
    void *detached;
    MPI_Request r[2];
    MPI_Comm comm;
    MPI_Status st;
    MPI_Queue q;

    QT_STEP("a start that fails on an idle queue");
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    if (rank > 1) {
        MPI_Comm_free(&comm);
        return;
    }
    if (0 == rank) {
        for (int i = 0; i < BSEND_COUNT; ++i) {
            x[i] = i;
        }
        MPI_Bsend_init(x, BSEND_COUNT, MPI_INT, 1, 20, comm, &r[0]);
        MPI_Bsend_init(x, BSEND_COUNT, MPI_INT, 1, 21, comm, &r[1]);
    } else {
        MPI_Recv_init(y, BSEND_COUNT, MPI_INT, 0, 20, comm, &r[0]);
        MPI_Recv_init(y, BSEND_COUNT, MPI_INT, 0, 21, comm, &r[1]);
    }
    QT_OK(MPI_Matchall(2, r));
    if (0 == rank) {
        QT_OK(MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL));
        for (int i = 0; i < 2; ++i) {
            int rc = MPI_Enqueue_start(&q, &r[i]);
            if (!emulated) {
                QT_CHECK(MPI_SUCCESS != rc, "a buffered start with no buffer was accepted");
            } else {
                /* the host starts it later: the fence reports the failure */
                QT_OK(rc);
                QT_STEP("fence after a failed start (trigger engine)");
                MPI_Error_class(MPI_Queue_fence(&q), &cls);
                QT_CHECK(MPI_SUCCESS != cls, "the fence did not report the failed start");
            }
        }
        QT_STEP("the failed request is the program's again");
        QT_OK(MPI_Request_free(&r[1]));
        QT_OK(MPI_Queue_fence(&q));
        MPI_Send(&cls, 1, MPI_INT, 1, 22, MPI_COMM_WORLD);
        MPI_Buffer_attach(bsend_buf, sizeof(bsend_buf));
        QT_OK(MPI_Enqueue_start(&q, &r[0]));
        QT_OK(MPI_Enqueue_wait(&q, &r[0], &st));
        QT_STEP("fence after the restart");
        QT_OK(MPI_Queue_fence(&q));
        MPI_Buffer_detach(&detached, &cls);
        QT_OK(MPI_Request_free(&r[0]));
        QT_OK(MPI_Queue_free(&q));
        MPI_Comm_free(&comm);
    } else {
        MPI_Recv(&cls, 1, MPI_INT, 0, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        QT_STEP("receive of the restarted buffered send");
        MPI_Start(&r[0]);
        QT_OK(MPI_Wait(&r[0], &st));
        QT_CHECK(1 == y[1] && BSEND_COUNT - 1 == y[BSEND_COUNT - 1] && 0 == st.MPI_SOURCE
                     && 20 == st.MPI_TAG,
                 "received %d ... %d from %d tag %d", y[1], y[BSEND_COUNT - 1], st.MPI_SOURCE,
                 st.MPI_TAG);
        QT_OK(MPI_Request_free(&r[0]));
        QT_OK(MPI_Request_free(&r[1]));
        MPI_Comm_free(&comm);
    }
}

static void misuse(void)
{
    int x = 0, y = 0, flag = 0;
    MPI_Request unmatched, plain, m[2], mixed[2];
    MPI_Queue q, q2, nullq = MPI_QUEUE_NULL;
    MPI_Status st;

    QT_STEP("misuse");
    MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
    MPI_Queue_init(&q2, MPI_QUEUE_TYPE_DEFAULT, NULL);
    MPI_Recv_init(&y, 1, MPI_INT, left, 20, MPI_COMM_WORLD, &unmatched);
    QT_CHECK_RC(MPI_Enqueue_start(&q, &unmatched), MPI_ERR_REQUEST);
    MPI_Irecv(&y, 1, MPI_INT, left, 21, MPI_COMM_WORLD, &plain);
    QT_CHECK_RC(MPI_Enqueue_start(&q, &plain), MPI_ERR_REQUEST);
    MPI_Send(&x, 1, MPI_INT, right, 21, MPI_COMM_WORLD);
    MPI_Wait(&plain, MPI_STATUS_IGNORE);

    MPI_Recv_init(&y, 1, MPI_INT, left, 22, MPI_COMM_WORLD, &m[0]);
    MPI_Send_init(&x, 1, MPI_INT, right, 22, MPI_COMM_WORLD, &m[1]);
    MPI_Matchall(2, m);
    mixed[0] = m[0];
    mixed[1] = unmatched;
    QT_CHECK_RC(MPI_Enqueue_startall(&q, 2, mixed), MPI_ERR_REQUEST);
    QT_CHECK_RC(MPI_Enqueue_wait(&q, &m[0], &st), MPI_ERR_REQUEST); /* not started */
    /* nothing was enqueued: the queue is empty and m[0] inactive */
    QT_OK(MPI_Queue_fence(&q));
    QT_OK(MPI_Queue_free(&q2));
    MPI_Queue_init(&q2, MPI_QUEUE_TYPE_DEFAULT, NULL);

    QT_OK(MPI_Enqueue_startall(&q, 2, m));
    QT_CHECK_RC(MPI_Enqueue_wait(&q2, &m[0], &st), MPI_ERR_REQUEST); /* other queue */
    QT_CHECK_RC(MPI_Start(&m[0]), MPI_ERR_REQUEST);
    QT_CHECK_RC(MPI_Cancel(&m[0]), MPI_ERR_REQUEST);
    QT_CHECK_RC(MPI_Wait(&m[0], &st), MPI_ERR_REQUEST);
    flag = 1;
    QT_CHECK_RC(MPI_Test(&m[0], &flag, &st), MPI_ERR_REQUEST);
    QT_CHECK_RC(MPI_Request_free(&m[0]), MPI_ERR_REQUEST);
    QT_CHECK(MPI_REQUEST_NULL != m[0], "refused MPI_Request_free changed the handle");
    {
        /* the array calls, with the owned request behind a null one */
        MPI_Request arr[2] = {MPI_REQUEST_NULL, m[1]};
        MPI_Status sts[2];
        int idx = -7, outcount = -7, indices[2];

        QT_CHECK_RC(MPI_Waitall(2, arr, sts), MPI_ERR_REQUEST);
        QT_CHECK_RC(MPI_Waitany(2, arr, &idx, &st), MPI_ERR_REQUEST);
        QT_CHECK_RC(MPI_Waitsome(2, arr, &outcount, indices, sts), MPI_ERR_REQUEST);
        QT_CHECK_RC(MPI_Testall(2, arr, &flag, sts), MPI_ERR_REQUEST);
        QT_CHECK_RC(MPI_Testany(2, arr, &idx, &flag, &st), MPI_ERR_REQUEST);
        QT_CHECK_RC(MPI_Testsome(2, arr, &outcount, indices, sts), MPI_ERR_REQUEST);
        QT_CHECK(m[1] == arr[1] && -7 == idx && -7 == outcount,
                 "a refused array call changed its arguments");
    }
    QT_CHECK_RC(MPI_Enqueue_start(&q, &m[0]), MPI_ERR_REQUEST); /* start pending, no wait */
    QT_OK(MPI_Enqueue_waitall(&q, 2, m, MPI_STATUSES_IGNORE));
    QT_OK(MPI_Queue_fence(&q));
    QT_OK(MPI_Is_matched(m[0], &flag));

    QT_STEP("misuse: freeing a queue with incomplete entries");
    if (size > 1 && rank < 2) {
        MPI_Request lone;
        int v = -1;
        if (0 == rank) {
            MPI_Recv_init(&v, 1, MPI_INT, 1, 23, MPI_COMM_WORLD, &lone);
        } else {
            MPI_Send_init(&v, 1, MPI_INT, 0, 23, MPI_COMM_WORLD, &lone);
        }
        MPI_Match(&lone);
        if (0 == rank) {
            QT_OK(MPI_Enqueue_start(&q, &lone));
            QT_OK(MPI_Enqueue_wait(&q, &lone, MPI_STATUS_IGNORE));
            QT_CHECK_RC(MPI_Queue_free(&q), MPI_ERR_PENDING);
            QT_CHECK(MPI_QUEUE_NULL != q, "refused MPI_Queue_free changed the handle");
            MPI_Barrier(MPI_COMM_WORLD);
            QT_OK(MPI_Queue_fence(&q)); /* still usable */
            QT_CHECK(99 == v, "queue after refused free got %d", v);
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
            v = 99;
            MPI_Start(&lone);
            MPI_Wait(&lone, MPI_STATUS_IGNORE);
        }
        MPI_Request_free(&lone);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }

    QT_STEP("misuse: MPI_QUEUE_NULL everywhere");
    QT_CHECK_RC(MPI_Enqueue_start(&nullq, &m[0]), MPI_ERR_ARG);
    QT_CHECK_RC(MPI_Enqueue_startall(&nullq, 2, m), MPI_ERR_ARG);
    QT_CHECK_RC(MPI_Enqueue_wait(&nullq, &m[0], &st), MPI_ERR_ARG);
    QT_CHECK_RC(MPI_Enqueue_waitall(&nullq, 2, m, MPI_STATUSES_IGNORE), MPI_ERR_ARG);
    QT_CHECK_RC(MPI_Queue_fence(&nullq), MPI_ERR_ARG);

    MPI_Request_free(&m[0]);
    MPI_Request_free(&m[1]);
    MPI_Request_free(&unmatched);
    QT_OK(MPI_Queue_free(&q));
    QT_OK(MPI_Queue_free(&q2));
}

int main(int argc, char **argv)
{
    qt_init(&argc, &argv);
    emulated = (argc > 1 && 0 == strcmp(argv[1], "emulated"));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;

    ring();
    MPI_Barrier(MPI_COMM_WORLD);
    restarts_without_fence();
    MPI_Barrier(MPI_COMM_WORLD);
    start_waits_for_earlier_wait();
    MPI_Barrier(MPI_COMM_WORLD);
    enqueued_wait_progresses();
    MPI_Barrier(MPI_COMM_WORLD);
    collectives_and_partitioned();
    MPI_Barrier(MPI_COMM_WORLD);
    stalled_queue();
    MPI_Barrier(MPI_COMM_WORLD);
    many_queues();
    MPI_Barrier(MPI_COMM_WORLD);
    failing_operation();
    MPI_Barrier(MPI_COMM_WORLD);
    failing_start();
    MPI_Barrier(MPI_COMM_WORLD);
    misuse();
    return qt_finalize();
}
