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
 * The spec's optional pieces (spec 1.1, 1.2.1): MPIX_Start_def and
 * MPIX_Wait_def on the program's persistent requests, and the
 * MPIX_LOCAL_TYPE_* aliases.
 *  P1  a ring on persistent requests (MPI_Recv_init, MPI_Send_init) run by a
 *      graph of Start_def and Wait_def tokens, ten times from one persistent
 *      execution request: data, the receive's status, the requests inactive
 *      and reusable by the program afterwards;
 *  P2  the same requests made after the tokens (the handle is read when
 *      the token runs), on a stream;
 *  P3  a persistent collective (MPI_Bcast_init) through the tokens;
 *  P4  a matched pair (MPI_Match) through the tokens, and a chain
 *      Start_def -> callback -> Wait_def whose callback sees the start;
 *  P5  errors: a start of an active request, a wait on MPI_REQUEST_NULL or
 *      on a nonpersistent request fail the execution with MPI_ERR_REQUEST
 *      (MPIX_Execute_get_error names the node); a wait on an inactive
 *      request completes at once with an empty status; NULL arguments are
 *      MPI_ERR_ARG;
 *  P6  MPIX_LOCAL_TYPE_* are the MPI_LOCAL_TYPE_* handles.
 * argv[1] "pthread" (mpi_async_progress=1): executions and streams at
 * MPIX_OFFLOAD_PTHREAD.
 */

#include "common/qtest.h"
#include <mpi-ext.h>

static int rank, size, right, left;
static int loc = MPIX_LOC_INPLACE;

/* a graph: start both requests, then wait for both */
static MPIX_Token ring_graph(MPI_Request *rreq, MPI_Request *sreq, MPI_Status *rst)
{
    MPIX_Graph g;
    MPIX_Token t;
    int sr, ss, wr, ws, ids[2];

    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Start_def(rreq, &t));
    QT_OK(MPIX_Graph_add(g, &t, &sr, MPIX_DEP_NONE));
    QT_OK(MPIX_Start_def(sreq, &t));
    QT_OK(MPIX_Graph_add(g, &t, &ss, sr));
    QT_OK(MPIX_Wait_def(rreq, rst, &t));
    QT_OK(MPIX_Graph_add(g, &t, &wr, ss));
    QT_OK(MPIX_Wait_def(sreq, MPI_STATUS_IGNORE, &t));
    QT_OK(MPIX_Graph_add(g, &t, &ws, ss));
    ids[0] = wr;
    ids[1] = ws;
    QT_OK(MPIX_Graph_join(g, 2, ids, NULL));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_OK(MPIX_Graph_free(&g));
    return t;
}

static void check_inactive(MPI_Request *req, const char *what)
{
    int flag = 0;
    MPI_Status st;

    /* a test of an inactive persistent request: flag true, empty status */
    QT_OK(MPI_Test(req, &flag, &st));
    QT_CHECK(flag && MPI_ANY_SOURCE == st.MPI_SOURCE && MPI_ANY_TAG == st.MPI_TAG,
             "%s is not inactive after the wait token (flag %d, source %d, tag %d)", what, flag,
             st.MPI_SOURCE, st.MPI_TAG);
    QT_CHECK(MPI_REQUEST_NULL != *req, "%s was freed by the wait token", what);
}

static void p1_ring(void)
{
    int sv = 0, rv = -1, count = -1;
    MPI_Request rreq, sreq, exec;
    MPI_Status rst;
    MPIX_Token t;

    QT_STEP("P1: persistent ring requests run by Start_def/Wait_def, ten executions");
    QT_OK(MPI_Recv_init(&rv, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &rreq));
    QT_OK(MPI_Send_init(&sv, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &sreq));
    t = ring_graph(&rreq, &sreq, &rst);
    QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc, NULL, &exec));
    for (int i = 0; i < 10; ++i) {
        sv = 1000 * rank + i;
        rv = -1;
        memset(&rst, 0, sizeof(rst));
        QT_OK(MPI_Start(&exec));
        QT_OK(MPI_Wait(&exec, MPI_STATUS_IGNORE));
        QT_CHECK(1000 * left + i == rv, "execution %d received %d, expected %d", i, rv,
                 1000 * left + i);
        QT_OK(MPI_Get_count(&rst, MPI_INT, &count));
        QT_CHECK(left == rst.MPI_SOURCE && 7 == rst.MPI_TAG && 1 == count,
                 "execution %d: status source %d tag %d count %d", i, rst.MPI_SOURCE,
                 rst.MPI_TAG, count);
    }
    check_inactive(&rreq, "the receive");
    check_inactive(&sreq, "the send");

    QT_STEP("P1: the program uses its requests again itself");
    sv = -5 - rank;
    QT_OK(MPI_Start(&rreq));
    QT_OK(MPI_Start(&sreq));
    QT_OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
    QT_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    QT_CHECK(-5 - left == rv, "the program's own start received %d", rv);
    QT_OK(MPI_Request_free(&exec));
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPI_Request_free(&rreq));
    QT_OK(MPI_Request_free(&sreq));
}

static void p2_stream_late_requests(void)
{
    MPI_Request rreq = MPI_REQUEST_NULL, sreq = MPI_REQUEST_NULL;
    MPIX_Stream s;
    MPIX_Token t[4];
    int sv = 40 + rank, rv = -1;

    QT_STEP("P2: tokens made before their requests, on a stream");
    QT_OK(MPIX_Start_def(&rreq, &t[0]));
    QT_OK(MPIX_Start_def(&sreq, &t[1]));
    QT_OK(MPIX_Wait_def(&rreq, MPI_STATUS_IGNORE, &t[2]));
    QT_OK(MPIX_Wait_def(&sreq, MPI_STATUS_IGNORE, &t[3]));
    QT_OK(MPI_Recv_init(&rv, 1, MPI_INT, left, 8, MPI_COMM_WORLD, &rreq));
    QT_OK(MPI_Send_init(&sv, 1, MPI_INT, right, 8, MPI_COMM_WORLD, &sreq));
    QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, loc, NULL, &s));
    for (int i = 0; i < 4; ++i) {
        QT_OK(MPIX_Stream_enqueue(s, &t[i]));
    }
    QT_OK(MPIX_Stream_sync(s));
    QT_CHECK(40 + left == rv, "the stream received %d, expected %d", rv, 40 + left);
    QT_OK(MPIX_Stream_free(&s));
    check_inactive(&rreq, "the receive (stream)");
    QT_OK(MPI_Request_free(&rreq));
    QT_OK(MPI_Request_free(&sreq));
}

static void p3_persistent_collective(void)
{
    MPI_Request req;
    MPIX_Token t;
    int v[3];

    QT_STEP("P3: a persistent broadcast through Start_def and Wait_def");
    QT_OK(MPI_Bcast_init(v, 3, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    for (int round = 0; round < 3; ++round) {
        MPIX_Graph g;
        int a;
        for (int i = 0; i < 3; ++i) {
            v[i] = (0 == rank) ? 10 * round + i : -1;
        }
        QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
        QT_OK(MPIX_Start_def(&req, &t));
        QT_OK(MPIX_Graph_add(g, &t, &a, MPIX_DEP_NONE));
        QT_OK(MPIX_Wait_def(&req, MPI_STATUS_IGNORE, &t));
        QT_OK(MPIX_Graph_add(g, &t, NULL, a));
        QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
        QT_OK(MPIX_Graph_free(&g));
        QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc, NULL));
        QT_OK(MPIX_Token_free(&t));
        for (int i = 0; i < 3; ++i) {
            QT_CHECK(10 * round + i == v[i], "round %d element %d is %d", round, i, v[i]);
        }
    }
    QT_OK(MPI_Request_free(&req));
}

static int started_seen = -1;

static int after_start_cb(MPIX_Graph graph, void *extra)
{
    MPI_Request *req = (MPI_Request *) extra;
    int flag = 0;

    (void) graph;
    /* the receive was started by the token before: it is active */
    MPI_Request_get_status(*req, &flag, MPI_STATUS_IGNORE);
    started_seen = 1;
    return MPI_SUCCESS;
}

static void p4_matched(void)
{
    MPI_Request reqs[2];
    MPIX_Graph g;
    MPIX_Token t;
    int sv = 500 + rank, rv = -1, a, b, c;

    QT_STEP("P4: a matched pair through Start_def -> callback -> Wait_def");
    QT_OK(MPI_Recv_init(&rv, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &reqs[0]));
    QT_OK(MPI_Send_init(&sv, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &reqs[1]));
    QT_OK(MPI_Matchall(2, reqs));
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Start_def(&reqs[0], &t));
    QT_OK(MPIX_Graph_add(g, &t, &a, MPIX_DEP_NONE));
    QT_OK(MPIX_Start_def(&reqs[1], &t));
    QT_OK(MPIX_Graph_add(g, &t, &b, a));
    QT_OK(MPIX_Op_def(after_start_cb, &reqs[0], &t));
    QT_OK(MPIX_Graph_add(g, &t, &c, b));
    QT_OK(MPIX_Wait_def(&reqs[0], MPI_STATUS_IGNORE, &t));
    QT_OK(MPIX_Graph_add(g, &t, &a, c));
    QT_OK(MPIX_Wait_def(&reqs[1], MPI_STATUS_IGNORE, &t));
    QT_OK(MPIX_Graph_add(g, &t, NULL, a));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_OK(MPIX_Graph_free(&g));
    for (int i = 0; i < 5; ++i) {
        sv = 500 + 10 * i + rank;
        rv = -1;
        started_seen = 0;
        QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc, NULL));
        QT_CHECK(500 + 10 * i + left == rv, "matched round %d received %d", i, rv);
        QT_CHECK(1 == started_seen, "the callback between the starts and the waits did not run");
    }
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPI_Request_free(&reqs[0]));
    QT_OK(MPI_Request_free(&reqs[1]));
}

/* one token in a graph, run with MPIX_Execute_init: its error and node */
static void run_failing(MPIX_Token t, int expected, const char *what)
{
    MPIX_Graph g;
    MPI_Request exec;
    int id = -1, err = -1, op = -1;

    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_add(g, &t, &id, MPIX_DEP_NONE));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_OK(MPIX_Graph_free(&g));
    QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc, NULL, &exec));
    QT_OK(MPI_Start(&exec));
    QT_CHECK_RC(MPI_Wait(&exec, MPI_STATUS_IGNORE), expected);
    QT_OK(MPIX_Execute_get_error(exec, &err, &op));
    QT_CHECK(expected == err && id == op, "%s: execution error %d at node %d, expected %d at %d",
             what, err, op, expected, id);
    QT_OK(MPI_Request_free(&exec));
    QT_OK(MPIX_Token_free(&t));
}

static void p5_errors(void)
{
    MPI_Request req = MPI_REQUEST_NULL, nb;
    MPIX_Token t;
    MPI_Status st;
    int v = 0;

    QT_STEP("P5: NULL arguments");
    QT_CHECK_RC(MPIX_Start_def(NULL, &t), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Start_def(&req, NULL), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Wait_def(NULL, MPI_STATUS_IGNORE, &t), MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Wait_def(&req, MPI_STATUS_IGNORE, NULL), MPI_ERR_ARG);

    QT_STEP("P5: a wait on MPI_REQUEST_NULL fails the execution");
    QT_OK(MPIX_Wait_def(&req, MPI_STATUS_IGNORE, &t));
    run_failing(t, MPI_ERR_REQUEST, "wait on MPI_REQUEST_NULL");
    QT_OK(MPIX_Start_def(&req, &t));
    run_failing(t, MPI_ERR_REQUEST, "start of MPI_REQUEST_NULL");

    QT_STEP("P5: a start of an active request fails the execution");
    QT_OK(MPI_Recv_init(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req));
    QT_OK(MPI_Send_init(&v, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &nb));
    QT_OK(MPI_Start(&nb));
    QT_OK(MPIX_Start_def(&nb, &t));
    run_failing(t, MPI_ERR_REQUEST, "start of an active request");
    {
        /* the program's own active request is untouched: it still completes */
        int r = -1;
        QT_OK(MPI_Recv(&r, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        QT_OK(MPI_Wait(&nb, MPI_STATUS_IGNORE));
    }
    QT_OK(MPI_Request_free(&nb));

    QT_STEP("P5: a wait on a nonpersistent request fails the execution");
    QT_OK(MPI_Isend(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &nb));
    QT_OK(MPIX_Wait_def(&nb, MPI_STATUS_IGNORE, &t));
    run_failing(t, MPI_ERR_REQUEST, "wait on a nonpersistent request");
    QT_OK(MPI_Wait(&nb, MPI_STATUS_IGNORE));

    QT_STEP("P5: a wait on an inactive request completes at once, empty status");
    memset(&st, 0x5a, sizeof(st));
    QT_OK(MPIX_Wait_def(&req, &st, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc, NULL));
    QT_CHECK(MPI_ANY_SOURCE == st.MPI_SOURCE && MPI_ANY_TAG == st.MPI_TAG,
             "inactive wait: status source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPI_Request_free(&req));
}

static void p6_aliases(void)
{
    QT_STEP("P6: MPIX_LOCAL_TYPE_* aliases");
    QT_CHECK(MPIX_LOCAL_TYPE_COMM == MPI_LOCAL_TYPE_COMM
             && MPIX_LOCAL_TYPE_DATATYPE == MPI_LOCAL_TYPE_DATATYPE
             && MPIX_LOCAL_TYPE_ERRHANDLER == MPI_LOCAL_TYPE_ERRHANDLER
             && MPIX_LOCAL_TYPE_FILE == MPI_LOCAL_TYPE_FILE
             && MPIX_LOCAL_TYPE_GROUP == MPI_LOCAL_TYPE_GROUP
             && MPIX_LOCAL_TYPE_INFO == MPI_LOCAL_TYPE_INFO
             && MPIX_LOCAL_TYPE_MESSAGE == MPI_LOCAL_TYPE_MESSAGE
             && MPIX_LOCAL_TYPE_OP == MPI_LOCAL_TYPE_OP
             && MPIX_LOCAL_TYPE_REQUEST == MPI_LOCAL_TYPE_REQUEST
             && MPIX_LOCAL_TYPE_SESSION == MPI_LOCAL_TYPE_SESSION
             && MPIX_LOCAL_TYPE_STATUS == MPI_LOCAL_TYPE_STATUS
             && MPIX_LOCAL_TYPE_STRING == MPI_LOCAL_TYPE_STRING
             && MPIX_LOCAL_TYPE_WIN == MPI_LOCAL_TYPE_WIN,
             "an MPIX_LOCAL_TYPE_ alias differs from its MPI_LOCAL_TYPE_ handle");
    {
        /* usable where the local type is: a graph variable of it */
        MPIX_Graph g;
        MPI_Comm c = MPI_COMM_NULL;
        QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
        QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_LOCAL, MPIX_LOCAL_TYPE_COMM));
        QT_OK(MPIX_Graph_var_set(g, 0, &(MPI_Comm){MPI_COMM_WORLD}));
        QT_OK(MPIX_Graph_var_get(g, 0, &c));
        QT_CHECK(MPI_COMM_WORLD == c, "a variable of MPIX_LOCAL_TYPE_COMM did not keep its value");
        QT_OK(MPIX_Graph_free(&g));
    }
}

static const qt_case_t cases[] = {
    QT_CASE(p1_ring),
    QT_CASE(p2_stream_late_requests),
    QT_CASE(p3_persistent_collective),
    QT_CASE(p4_matched),
    QT_CASE(p5_errors),
    QT_CASE(p6_aliases),
};

int main(int argc, char **argv)
{
    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank - 1 + size) % size;
    if (argc > 1 && 0 == strcmp(argv[1], "pthread")) {
        loc = MPIX_OFFLOAD_PTHREAD;
    }
    qt_run_cases(qt_case_list(argc, argv), cases, sizeof(cases) / sizeof(cases[0]));
    return qt_finalize();
}
