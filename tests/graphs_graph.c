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
 * MPIX graphs (spec 3.3): S2 dependency order (join, nop, fan-out), S3 a
 * receive completes before its dependent starts, S4 set_dep_op (forward
 * references, removal, self and cycle refusals), S10 an error stops one
 * execution (introspected, restarted), S16 a graph token on a stream, S19
 * collectives started in op-ID order under skewed readiness (100
 * executions), S22 dup, a graph token nested in a graph, re-execution 100
 * times from the immutable token, def refusals, handles; S25 the remote
 * barrier (optional in the spec).  With argv[1]
 * "pthread" the executions run at MPIX_OFFLOAD_PTHREAD.
 */

#include <string.h>
#include <time.h>

#include "common/qtest.h"
#include <mpi-ext.h>

static int rank, size;
static int pthread_mode = 0;

static int loc(void)
{
    return pthread_mode ? MPIX_OFFLOAD_PTHREAD : MPIX_LOC_INPLACE;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long) (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* a log of letters appended by callbacks */
static char logbuf[256];
static int loglen;

static int log_cb(MPIX_Graph g, void *extra)
{
    (void) g;
    if (loglen < (int) sizeof(logbuf) - 1) {
        logbuf[loglen++] = *(const char *) extra;
        logbuf[loglen] = '\0';
    }
    return MPI_SUCCESS;
}

static int add_cb(MPIX_Graph g, const char *letter, int dep)
{
    MPIX_Token t;
    int id = -1;

    QT_OK(MPIX_Op_def(log_cb, (void *) letter, &t));
    QT_OK(MPIX_Graph_add(g, &t, &id, dep));
    QT_CHECK(MPIX_TOKEN_NULL == t, "Graph_add did not consume the token");
    return id;
}

static int pos(char c)
{
    char *p = strchr(logbuf, c);
    return NULL == p ? -1 : (int) (p - logbuf);
}

static int count_of(char c)
{
    int n = 0;
    for (int i = 0; i < loglen; ++i) {
        n += logbuf[i] == c;
    }
    return n;
}

static void s2_order(void)
{
    MPIX_Graph g;
    MPIX_Token tok;
    MPI_Request req;
    int a, b, c, j, d, n, e, deps[3];

    QT_STEP("S2: dependencies, join, nop, fan-out");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    a = add_cb(g, "A", MPIX_DEP_NONE);
    b = add_cb(g, "B", a);
    c = add_cb(g, "C", a);
    deps[0] = b;
    deps[1] = c;
    deps[2] = b; /* duplicates count once */
    QT_OK(MPIX_Graph_join(g, 3, deps, &j));
    d = add_cb(g, "D", j);
    QT_OK(MPIX_Graph_nop(g, &n, a));
    e = add_cb(g, "E", n);
    QT_CHECK(1 == a && 2 == b && 3 == c && 4 == j && 5 == d && 6 == n && 7 == e,
             "op IDs are not 1..7 in creation order: %d %d %d %d %d %d %d", a, b, c, j, d, n, e);
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &tok));
    QT_OK(MPIX_Graph_free(&g));
    QT_CHECK(MPIX_GRAPH_NULL == g, "Graph_free did not set the handle to NULL");
    QT_OK(MPIX_Execute_init(tok, MPI_INFO_NULL, loc(), NULL, &req));
    QT_OK(MPIX_Token_free(&tok));
    for (int round = 0; round < 3; ++round) {
        loglen = 0;
        logbuf[0] = '\0';
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        QT_CHECK(5 == loglen && 'A' == logbuf[0] && 1 == count_of('A') && 1 == count_of('B') && 1 == count_of('C')
                     && 1 == count_of('D') && 1 == count_of('E'),
                 "round %d: log \"%s\"", round, logbuf);
        QT_CHECK(pos('B') < pos('D') && pos('C') < pos('D') && pos('A') < pos('E'),
                 "round %d: order broken in \"%s\"", round, logbuf);
    }
    QT_OK(MPI_Request_free(&req));
}

static void s3_recv_before_dependent(void)
{
    static int rbuf, seen;
    MPIX_Graph g;
    MPIX_Token t;
    int r;

    if (size < 2) {
        return;
    }
    QT_STEP("S3: a dependent starts after the receive completed");
    if (rank > 1) {
        /* the barrier that orders rank 1's send after rank 0's definition
         * is on every rank; the others have no part in the rest */
        MPI_Barrier(MPI_COMM_WORLD);
        return;
    }
    if (1 == rank) {
        int v = 4242;
        MPI_Barrier(MPI_COMM_WORLD);
        sleep_ms(200);
        MPI_Send(&v, 1, MPI_INT, 0, 33, MPI_COMM_WORLD);
        return;
    }
    rbuf = -1;
    seen = -2;
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Recv_def(&rbuf, 1, MPI_INT, 1, 33, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
    QT_OK(MPIX_Graph_add(g, &t, &r, MPIX_DEP_NONE));
    QT_OK(MPIX_Copy_mem_def(&seen, &rbuf, sizeof(int), &t));
    QT_OK(MPIX_Graph_add(g, &t, NULL, r));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    MPI_Barrier(MPI_COMM_WORLD);
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
    QT_CHECK(4242 == seen, "the dependent saw %d, not the received 4242", seen);
    QT_OK(MPIX_Token_free(&t));
    MPIX_Graph_free(&g);
}

static void s4_set_dep_op(void)
{
    MPIX_Graph g;
    MPIX_Token tok;
    int a, b, e, x, y;

    QT_STEP("S4: set_dep_op");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    e = add_cb(g, "E", MPIX_DEP_NONE);  /* added first, made to wait for B */
    a = add_cb(g, "A", MPIX_DEP_NONE);
    b = add_cb(g, "B", a);
    QT_OK(MPIX_Graph_set_dep_op(g, e, b));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &tok));
    loglen = 0;
    QT_OK(MPIX_Execute(tok, MPI_INFO_NULL, loc(), NULL));
    QT_CHECK(0 == strcmp(logbuf, "ABE"), "forward dependency: log \"%s\", expected ABE", logbuf);
    QT_OK(MPIX_Token_free(&tok));
    QT_OK(MPIX_Graph_set_dep_op(g, e, MPIX_DEP_NONE));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &tok));
    loglen = 0;
    QT_OK(MPIX_Execute(tok, MPI_INFO_NULL, loc(), NULL));
    QT_CHECK(3 == loglen && pos('A') < pos('B'), "after removal: log \"%s\"", logbuf);
    QT_OK(MPIX_Token_free(&tok));
    QT_CHECK_RC(MPIX_Graph_set_dep_op(g, e, e), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Graph_set_dep_op(g, 99, a), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Graph_set_dep_op(g, e, 99), MPI_ERR_ARG);
    /* a cycle is refused at def, and no token is made */
    QT_OK(MPIX_Graph_set_dep_op(g, a, b));
    tok = MPIX_TOKEN_NULL;
    QT_CHECK_RC(MPIX_Graph_def(g, MPI_INFO_NULL, &tok), MPI_ERR_ARG);
    QT_CHECK(MPIX_TOKEN_NULL == tok, "a token was made for a cyclic graph");
    MPIX_Graph_free(&g);

    QT_STEP("S4: builder refusals");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    x = add_cb(g, "X", MPIX_DEP_NONE);
    QT_OK(MPIX_Op_def(log_cb, "Y", &tok));
    QT_CHECK_RC(MPIX_Graph_add(g, &tok, &y, 5), MPI_ERR_ARG);
    QT_CHECK(MPIX_TOKEN_NULL != tok, "a refused Graph_add consumed the token");
    QT_CHECK_RC(MPIX_Graph_add(MPIX_GRAPH_NULL, &tok, &y, 0), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Graph_join(g, 1, &(int){7}, &y), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Graph_join(g, -1, NULL, &y), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Graph_nop(g, &y, -3), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Graph_goto(g, 9, x), MPI_ERR_ARG);
    QT_OK(MPIX_Token_free(&tok));
    QT_CHECK_RC(MPIX_Graph_def(g, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    QT_OK(MPIX_Graph_free(&g));
    QT_CHECK_RC(MPIX_Graph_free(&g), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Graph_nop(g, &y, 0), MPI_ERR_ARG);
}

/* S10: B fails unless told to succeed; D after B, F after D */
static int b_fail = 1;

static int fail_cb(MPIX_Graph g, void *extra)
{
    (void) g;
    (void) extra;
    if (loglen < (int) sizeof(logbuf) - 1) {
        logbuf[loglen++] = 'B';
        logbuf[loglen] = '\0';
    }
    return b_fail ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static void s10_errors(void)
{
    MPIX_Graph g;
    MPIX_Token tok;
    MPI_Request req;
    MPI_Status st;
    int a, b, d, err = -1, op = -1, rc, cls;

    QT_STEP("S10: an error stops one execution");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    a = add_cb(g, "A", MPIX_DEP_NONE);
    QT_OK(MPIX_Op_def(fail_cb, NULL, &tok));
    QT_OK(MPIX_Graph_add(g, &tok, &b, a));
    d = add_cb(g, "D", b);
    (void) add_cb(g, "F", d);
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &tok));
    QT_OK(MPIX_Execute_init(tok, MPI_INFO_NULL, loc(), NULL, &req));
    b_fail = 1;
    loglen = 0;
    QT_OK(MPI_Start(&req));
    rc = MPI_Wait(&req, &st);
    MPI_Error_class(rc, &cls);
    QT_CHECK(MPI_ERR_OTHER == cls, "MPI_Wait returned class %d, expected MPI_ERR_OTHER", cls);
    QT_CHECK(0 == strcmp(logbuf, "AB"), "after the failure: log \"%s\", expected AB", logbuf);
    QT_OK(MPIX_Execute_get_error(req, &err, &op));
    QT_CHECK(MPI_ERR_OTHER == err && b == op, "get_error: (%d, %d), expected (%d, %d)", err, op,
             MPI_ERR_OTHER, b);
    /* the token and the request are intact: a fresh execution */
    b_fail = 0;
    loglen = 0;
    QT_OK(MPI_Start(&req));
    QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    QT_CHECK(0 == strcmp(logbuf, "ABDF"), "restart: log \"%s\", expected ABDF", logbuf);
    QT_OK(MPIX_Execute_get_error(req, &err, &op));
    QT_CHECK(MPI_SUCCESS == err && MPIX_DEP_NONE == op, "get_error after success: (%d, %d)", err,
             op);
    QT_OK(MPI_Request_free(&req));
    /* MPIX_Execute returns the failure too */
    b_fail = 1;
    loglen = 0;
    QT_CHECK_RC(MPIX_Execute(tok, MPI_INFO_NULL, loc(), NULL), MPI_ERR_OTHER);
    QT_CHECK(0 == strcmp(logbuf, "AB"), "MPIX_Execute after failure: log \"%s\"", logbuf);

    QT_STEP("S10: error inside a nested graph token");
    {
        MPIX_Graph outer;
        MPIX_Token inner = tok;
        int n, z;
        QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &outer));
        n = add_cb(outer, "N", MPIX_DEP_NONE);
        QT_OK(MPIX_Graph_add(outer, &inner, &op, n));
        z = add_cb(outer, "Z", op);
        (void) z;
        QT_OK(MPIX_Graph_def(outer, MPI_INFO_NULL, &inner));
        loglen = 0;
        QT_OK(MPIX_Iexecute(inner, MPI_INFO_NULL, loc(), NULL, &req));
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Error_class(rc, &cls);
        QT_CHECK(MPI_ERR_OTHER == cls, "nested failure: class %d", cls);
        QT_OK(MPIX_Execute_get_error(req, &err, &d));
        QT_CHECK(MPI_ERR_OTHER == err && d == op, "nested get_error: (%d, %d), expected op %d",
                 err, d, op);
        QT_CHECK(0 == strcmp(logbuf, "NAB"), "nested failure: log \"%s\", expected NAB", logbuf);
        QT_OK(MPI_Request_free(&req));
        b_fail = 0;
        loglen = 0;
        QT_OK(MPIX_Execute(inner, MPI_INFO_NULL, loc(), NULL));
        QT_CHECK(0 == strcmp(logbuf, "NABDFZ"), "nested success: log \"%s\"", logbuf);
        QT_OK(MPIX_Token_free(&inner));
        MPIX_Graph_free(&outer);
    }
    MPIX_Graph_free(&g);
}

static void s16_stream(void)
{
    MPIX_Graph g;
    MPIX_Token t;
    MPIX_Stream s;

    QT_STEP("S16: a graph token on a stream");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    (void) add_cb(g, "X", MPIX_DEP_NONE);
    (void) add_cb(g, "Y", MPIX_DEP_NONE);
    QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, loc(), NULL, &s));
    loglen = 0;
    for (int round = 0; round < 3; ++round) {
        QT_OK(MPIX_Op_def(log_cb, "1", &t));
        QT_OK(MPIX_Stream_enqueue(s, &t));
        QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
        QT_OK(MPIX_Stream_enqueue(s, &t));
        QT_CHECK(MPIX_TOKEN_NULL == t, "enqueue did not consume the graph token");
        QT_OK(MPIX_Op_def(log_cb, "2", &t));
        QT_OK(MPIX_Stream_enqueue(s, &t));
    }
    QT_OK(MPIX_Stream_sync(s));
    QT_CHECK(12 == loglen, "stream ran %d callbacks, expected 12 (\"%s\")", loglen, logbuf);
    for (int round = 0; round < 3 && 12 == loglen; ++round) {
        const char *r = logbuf + 4 * round;
        QT_CHECK('1' == r[0] && '2' == r[3]
                     && (('X' == r[1] && 'Y' == r[2]) || ('Y' == r[1] && 'X' == r[2])),
                 "round %d: \"%.4s\", expected 1{XY}2", round, r);
    }
    QT_OK(MPIX_Stream_free(&s));
    MPIX_Graph_free(&g);
}

/* S19: two allreduces; on rank 0 the first one waits for a slow callback */
static int slow_cb(MPIX_Graph g, void *extra)
{
    (void) g;
    (void) extra;
    sleep_ms(2);
    return MPI_SUCCESS;
}

static void s19_collective_order(void)
{
    static int x, y, rx, ry;
    MPIX_Graph g;
    MPIX_Token t;
    MPI_Request req;
    int dep = MPIX_DEP_NONE, bad = 0;
    const int n = size, ex = n * (n + 1) / 2, ey = 10 * n * (n + 1) / 2;

    QT_STEP("S19: collectives start in op-ID order under skewed readiness");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    if (0 == rank) {
        QT_OK(MPIX_Op_def(slow_cb, NULL, &t));
        QT_OK(MPIX_Graph_add(g, &t, &dep, MPIX_DEP_NONE));
    }
    QT_OK(MPIX_Allreduce_def(&x, &rx, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Graph_add(g, &t, NULL, dep));
    QT_OK(MPIX_Allreduce_def(&y, &ry, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Graph_add(g, &t, NULL, MPIX_DEP_NONE));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc(), NULL, &req));
    QT_OK(MPIX_Token_free(&t));
    for (int i = 0; i < 100; ++i) {
        x = rank + 1;
        y = 10 * (rank + 1);
        rx = ry = -1;
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        if (rx != ex || ry != ey) {
            if (0 == bad++) {
                QT_CHECK(0, "execution %d: sums %d %d, expected %d %d", i, rx, ry, ex, ey);
            }
        }
    }
    QT_CHECK(0 == bad, "%d of 100 executions had wrong sums", bad);
    QT_OK(MPI_Request_free(&req));

    QT_STEP("S19: a collective depending on a later one is refused at def");
    {
        MPIX_Graph h;
        int c1, c2;
        QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &h));
        QT_OK(MPIX_Barrier_def(MPI_COMM_WORLD, &t));
        QT_OK(MPIX_Graph_add(h, &t, &c1, MPIX_DEP_NONE));
        QT_OK(MPIX_Barrier_def(MPI_COMM_WORLD, &t));
        QT_OK(MPIX_Graph_add(h, &t, &c2, MPIX_DEP_NONE));
        QT_OK(MPIX_Graph_set_dep_op(h, c1, c2));
        QT_CHECK_RC(MPIX_Graph_def(h, MPI_INFO_NULL, &t), MPI_ERR_ARG);
        MPIX_Graph_free(&h);
    }
    MPIX_Graph_free(&g);
}

static void s22_dup_and_reexec(void)
{
    MPIX_Graph g, g2;
    MPIX_Token t1, t2;
    MPI_Request req;
    int a, a2, z;

    QT_STEP("S22: dup");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    a = add_cb(g, "A", MPIX_DEP_NONE);
    QT_OK(MPIX_Graph_dup(g, MPI_INFO_NULL, &g2));
    z = add_cb(g2, "Z", a);
    a2 = add_cb(g, "Q", a);
    QT_CHECK(2 == z && 2 == a2, "op IDs after dup: %d %d", z, a2);
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t1));
    QT_OK(MPIX_Graph_def(g2, MPI_INFO_NULL, &t2));
    MPIX_Graph_free(&g);
    MPIX_Graph_free(&g2);
    loglen = 0;
    QT_OK(MPIX_Execute(t1, MPI_INFO_NULL, loc(), NULL));
    QT_CHECK(0 == strcmp(logbuf, "AQ"), "original: \"%s\"", logbuf);
    loglen = 0;
    QT_OK(MPIX_Execute(t2, MPI_INFO_NULL, loc(), NULL));
    QT_CHECK(0 == strcmp(logbuf, "AZ"), "dup: \"%s\"", logbuf);

    QT_STEP("re-execution 100 times, also of a token nested twice");
    {
        MPIX_Graph o;
        MPIX_Token ot, copy = t1;
        QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &o));
        QT_OK(MPIX_Graph_add(o, &copy, &a, MPIX_DEP_NONE));
        copy = t2;
        QT_OK(MPIX_Graph_add(o, &copy, NULL, a));
        QT_OK(MPIX_Graph_def(o, MPI_INFO_NULL, &ot));
        MPIX_Graph_free(&o);
        QT_OK(MPIX_Execute_init(ot, MPI_INFO_NULL, loc(), NULL, &req));
        QT_OK(MPIX_Token_free(&ot));
        for (int i = 0; i < 100; ++i) {
            loglen = 0;
            QT_OK(MPI_Start(&req));
            QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            if (0 != strcmp(logbuf, "AQAZ")) {
                QT_CHECK(0, "execution %d: \"%s\", expected AQAZ", i, logbuf);
                break;
            }
        }
        QT_OK(MPI_Request_free(&req));
    }
}

static void p2p_fanout(void)
{
    /* 64 independent sends (and receives) in one graph, run 10 times */
    static int sbuf[64], rbuf[64];
    MPIX_Graph g;
    MPIX_Token t;
    MPI_Request req;
    int peer, bad = 0;

    if (size < 2 || rank > 1) {
        return;
    }
    QT_STEP("64 independent sends in one graph");
    peer = 1 - rank;
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    for (int i = 0; i < 64; ++i) {
        if (0 == rank) {
            QT_OK(MPIX_Send_def(&sbuf[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, &t));
        } else {
            QT_OK(MPIX_Recv_def(&rbuf[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE,
                                &t));
        }
        QT_OK(MPIX_Graph_add(g, &t, NULL, MPIX_DEP_NONE));
    }
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    MPIX_Graph_free(&g);
    QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc(), NULL, &req));
    for (int round = 0; round < 10; ++round) {
        for (int i = 0; i < 64; ++i) {
            sbuf[i] = 1000 * round + i;
            rbuf[i] = -1;
        }
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (int i = 0; 1 == rank && i < 64; ++i) {
            bad += rbuf[i] != 1000 * round + i;
        }
    }
    QT_CHECK(0 == bad, "%d of 640 received values wrong", bad);
    QT_OK(MPI_Request_free(&req));
    QT_OK(MPIX_Token_free(&t));
}

/* one remote barrier of the k-th round: the members other than w start
 * theirs (tok, or a new _def token), see it still pending, then tell w to
 * call; w waits for every member's word, then makes its call (blocking, or
 * tok executed) */
static void s25_round(int w, int k, MPIX_Token tok)
{
    MPIX_Token t = tok;
    MPI_Request req;
    int flag = 0;

    if (rank != w) {
        if (MPIX_TOKEN_NULL == t) {
            QT_OK(MPIX_Remote_barrier_def(MPI_COMM_WORLD, w, MPI_INFO_NULL, &t));
        }
        QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, loc(), NULL, &req));
        if (MPIX_TOKEN_NULL == tok) {
            QT_OK(MPIX_Token_free(&t));
        }
        /* w has not called yet: nothing may complete the barrier */
        for (int i = 0; i < 20 && !flag; ++i) {
            QT_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        }
        QT_CHECK(!flag, "round %d: the barrier completed before rank %d called it", k, w);
        QT_OK(MPI_Send(&k, 1, MPI_INT, w, 250 + k, MPI_COMM_WORLD));
        if (!flag) {
            QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
    } else {
        for (int p = 0; p < size; ++p) {
            int got = -1;
            if (p != w) {
                QT_OK(MPI_Recv(&got, 1, MPI_INT, p, 250 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                QT_CHECK(k == got, "round %d: word %d from rank %d", k, got, p);
            }
        }
        /* local on the watched process */
        if (MPIX_TOKEN_NULL == t) {
            QT_OK(MPIX_Remote_barrier(MPI_COMM_WORLD, w, MPI_INFO_NULL));
        } else {
            QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
        }
    }
}

static void s25_remote_barrier(void)
{
    const int w = size - 1;
    MPIX_Graph g;
    MPIX_Token t;
    int bad = size;

    QT_STEP("S25: a remote barrier completes once the watched rank called it, k-th with k-th");
    for (int k = 0; k < 3; ++k) {
        s25_round(w, k, MPIX_TOKEN_NULL);
    }

    QT_STEP("S25: the watched rank from a graph variable, resolved at start");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_OK(MPIX_Graph_var_set(g, 0, &w));
    QT_OK(MPIX_Remote_barrier_def(MPI_COMM_WORLD, MPIX_VAR_INT(0), MPI_INFO_NULL, &t));
    QT_OK(MPIX_Graph_add(g, &t, NULL, MPIX_DEP_NONE));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    s25_round(w, 3, t);
    QT_OK(MPIX_Token_free(&t));

    QT_STEP("S25: a watched rank out of range: MPI_ERR_RANK, at the call or at start");
    QT_CHECK_RC(MPIX_Remote_barrier(MPI_COMM_WORLD, size, MPI_INFO_NULL), MPI_ERR_RANK);
    QT_CHECK_RC(MPIX_Remote_barrier(MPI_COMM_WORLD, MPI_PROC_NULL, MPI_INFO_NULL), MPI_ERR_RANK);
    QT_CHECK_RC(MPIX_Remote_barrier_def(MPI_COMM_WORLD, -1, MPI_INFO_NULL, &t), MPI_ERR_RANK);
    QT_OK(MPIX_Graph_var_set(g, 0, &bad));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_CHECK_RC(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL), MPI_ERR_RANK);
    QT_OK(MPIX_Token_free(&t));
    MPIX_Graph_free(&g);
}

static const qt_case_t cases[] = {
    QT_CASE(s2_order),
    QT_CASE(s3_recv_before_dependent),
    QT_CASE(s4_set_dep_op),
    QT_CASE(s10_errors),
    QT_CASE(s16_stream),
    QT_CASE(s19_collective_order),
    QT_CASE(s22_dup_and_reexec),
    QT_CASE(p2p_fanout),
    QT_CASE(s25_remote_barrier),
};

int main(int argc, char **argv)
{
    pthread_mode = argc > 1 && 0 == strcmp(argv[1], "pthread");
    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    qt_run_cases(qt_case_list(argc, argv), cases, sizeof(cases) / sizeof(cases[0]));
    return qt_finalize();
}
