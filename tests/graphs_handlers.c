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
 * Which error handler runs, and a stream's isync on blocking-only work
 * (spec 1.0, 2.14, 4.2; Listing 2), in a program initialized with MPI_Init
 * that also opens a session:
 *  H1  a misused graph of the session calls the session's handler, not
 *      MPI_COMM_WORLD's; a World-model graph calls WORLD's;
 *  H2  a failed execution of a session graph (MPIX_Execute_init + MPI_Start,
 *      and MPIX_Iexecute) calls the session's handler from MPI_Wait; a
 *      World-model graph's calls MPI_COMM_SELF's;
 *  H3  Listing 2 waited with MPI_Wait on an isync: the root's file open,
 *      read and close (a graph token) and a broadcast from it on a paused
 *      stream; the isync stays incomplete while paused, then MPI_Wait after
 *      the resume reaches the data (the wait must run the blocking-only
 *      operations when no other thread may).
 * argv[1] "pthread" (mpi_async_progress=1): streams and executions at
 * MPIX_OFFLOAD_PTHREAD.
 */

#include <stdarg.h>
#include <time.h>
#include <unistd.h>

#include "common/qtest.h"
#include <mpi-ext.h>

static int rank, size;
static int loc = MPIX_LOC_INPLACE;
static int n_session = 0, n_world = 0, n_self = 0;
static int last_session_code = MPI_SUCCESS;

static void session_eh(MPI_Session *s, int *code, ...)
{
    (void) s;
    n_session++;
    last_session_code = *code;
}

static void world_eh(MPI_Comm *c, int *code, ...)
{
    (void) c;
    (void) code;
    n_world++;
}

static void self_eh(MPI_Comm *c, int *code, ...)
{
    (void) c;
    (void) code;
    n_self++;
}

static void reset_counts(void)
{
    n_session = n_world = n_self = 0;
    last_session_code = MPI_SUCCESS;
}

static int class_of(int code)
{
    int cls = code;
    if (MPI_SUCCESS != code) {
        MPI_Error_class(code, &cls);
    }
    return cls;
}

static int fail_cb(MPIX_Graph graph, void *extra)
{
    (void) graph;
    (void) extra;
    return MPI_ERR_OTHER;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long) (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* H1: a graph variable declared twice, and var_get of an undeclared one */
static void h1_graph_calls(MPI_Session session)
{
    MPIX_Graph g = MPIX_GRAPH_NULL;
    int v = 0;

    QT_STEP("H1: a session graph's misuse calls the session's handler");
    reset_counts();
    QT_OK(MPIX_Graph_create(session, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 3, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_CHECK_RC(MPIX_Graph_var_create(g, 3, MPIX_GRAPH_VAR_LOCAL, MPI_INT), MPI_ERR_ARG);
    QT_CHECK(1 == n_session && 0 == n_world && 0 == n_self,
             "duplicate variable of a session graph: session handler ran %d times (want 1), "
             "WORLD's %d, SELF's %d (want 0)", n_session, n_world, n_self);
    QT_CHECK(MPI_ERR_ARG == class_of(last_session_code), "the session's handler got class %d",
             class_of(last_session_code));
    QT_CHECK_RC(MPIX_Graph_var_get(g, 7, &v), MPI_ERR_ARG);
    QT_CHECK(2 == n_session && 0 == n_world, "var_get of an undeclared variable: session "
             "handler %d times (want 2), WORLD's %d", n_session, n_world);
    {
        /* a copy belongs to the same session */
        MPIX_Graph d = MPIX_GRAPH_NULL;
        QT_OK(MPIX_Graph_dup(g, MPI_INFO_NULL, &d));
        QT_CHECK_RC(MPIX_Graph_set_dep_op(d, 5, 0), MPI_ERR_ARG);
        QT_CHECK(3 == n_session && 0 == n_world, "a dup of a session graph: session handler "
                 "%d times (want 3), WORLD's %d", n_session, n_world);
        QT_OK(MPIX_Graph_free(&d));
    }
    QT_OK(MPIX_Graph_free(&g));

    QT_STEP("H1: a World-model graph's misuse calls MPI_COMM_WORLD's handler");
    reset_counts();
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 3, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_CHECK_RC(MPIX_Graph_var_create(g, 3, MPIX_GRAPH_VAR_LOCAL, MPI_INT), MPI_ERR_ARG);
    QT_CHECK(0 == n_session && 1 == n_world && 0 == n_self,
             "duplicate variable of a World graph: session handler ran %d times (want 0), "
             "WORLD's %d (want 1), SELF's %d", n_session, n_world, n_self);
    QT_OK(MPIX_Graph_free(&g));
}

static MPIX_Token failing_graph_token(MPI_Session session)
{
    MPIX_Graph g = MPIX_GRAPH_NULL;
    MPIX_Token t = MPIX_TOKEN_NULL;
    int first;

    QT_OK(MPIX_Graph_create(session, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_nop(g, &first, MPIX_DEP_NONE));
    QT_OK(MPIX_Op_def(fail_cb, NULL, &t));
    QT_OK(MPIX_Graph_add(g, &t, NULL, first));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_OK(MPIX_Graph_free(&g));
    return t;
}

/* H2: the execution request's handler */
static void h2_failed_execution(MPI_Session session)
{
    MPIX_Token t;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;

    QT_STEP("H2: a failed execution of a session graph (Execute_init, Start, Wait)");
    t = failing_graph_token(session);
    reset_counts();
    QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc, NULL, &req));
    for (int round = 0; round < 2; ++round) {
        QT_OK(MPI_Start(&req));
        QT_CHECK_RC(MPI_Wait(&req, &st), MPI_ERR_OTHER);
        QT_CHECK(round + 1 == n_session && 0 == n_self && 0 == n_world,
                 "round %d: session handler ran %d times (want %d), SELF's %d, WORLD's %d "
                 "(want 0)", round, n_session, round + 1, n_self, n_world);
    }
    QT_CHECK(MPI_ERR_OTHER == class_of(last_session_code), "the session's handler got class %d",
             class_of(last_session_code));
    QT_OK(MPI_Request_free(&req));

    QT_STEP("H2: a failed execution of a session graph (Iexecute, Wait)");
    reset_counts();
    QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, loc, NULL, &req));
    QT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_ERR_OTHER);
    QT_CHECK(1 == n_session && 0 == n_self && 0 == n_world,
             "Iexecute: session handler ran %d times (want 1), SELF's %d, WORLD's %d",
             n_session, n_self, n_world);
    QT_OK(MPIX_Token_free(&t));

    QT_STEP("H2: a failed execution of a World-model graph calls MPI_COMM_SELF's handler");
    t = failing_graph_token(MPI_SESSION_NULL);
    reset_counts();
    QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc, NULL, &req));
    QT_OK(MPI_Start(&req));
    QT_CHECK_RC(MPI_Wait(&req, &st), MPI_ERR_OTHER);
    QT_CHECK(0 == n_session && 1 == n_self && 0 == n_world,
             "World graph: session handler ran %d times (want 0), SELF's %d (want 1), WORLD's %d",
             n_session, n_self, n_world);
    QT_OK(MPI_Request_free(&req));
    QT_OK(MPIX_Token_free(&t));
}

/* H3: Listing 2, the root's file read then a broadcast, on a paused stream;
 * rounds 0 and 1 wait with MPI_Wait, round 2 with MPI_Waitall */
static void h3_listing2_isync(const char *dir, int round)
{
    enum { FH = 0, N = 5 };
    const int root = size - 1;
    char name[600];
    int buf[N], flag = 0, paused = -1;
    MPIX_Stream s = MPIX_STREAM_NULL;
    MPIX_Token t;
    MPI_Request req = MPI_REQUEST_NULL;

    snprintf(name, sizeof(name), "%s/h3.dat", dir);
    if (root == rank) {
        int data[N];
        FILE *f = fopen(name, "wb");
        for (int i = 0; i < N; ++i) {
            data[i] = 100 * (round + 1) + i;
        }
        QT_CHECK(NULL != f && N == fwrite(data, sizeof(int), N, f), "cannot write %s", name);
        if (NULL != f) {
            fclose(f);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; ++i) {
        buf[i] = -1;
    }

    QT_STEP("H3: Listing 2 on a paused stream: enqueue");
    QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, loc, NULL, &s));
    QT_OK(MPIX_Stream_pause(s));
    QT_OK(MPIX_Stream_is_paused(s, &paused));
    QT_CHECK(1 == paused, "the stream is not paused");
    if (root == rank) {
        MPIX_Graph g;
        int o, r;
        QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
        QT_OK(MPIX_Graph_var_create(g, FH, MPIX_GRAPH_VAR_LOCAL, MPI_LOCAL_TYPE_FILE));
        QT_OK(MPIX_File_open_def(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL,
                                 MPIX_VAR(FH), &t));
        QT_OK(MPIX_Graph_add(g, &t, &o, MPIX_DEP_NONE));
        QT_OK(MPIX_File_read_def(MPIX_VAR(FH), buf, N, MPI_INT, MPI_STATUS_IGNORE, &t));
        QT_OK(MPIX_Graph_add(g, &t, &r, o));
        QT_OK(MPIX_File_close_def(MPIX_VAR(FH), &t));
        QT_OK(MPIX_Graph_add(g, &t, NULL, r));
        QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
        QT_OK(MPIX_Graph_free(&g));
        QT_OK(MPIX_Stream_enqueue(s, &t));
    }
    QT_OK(MPIX_Bcast_def(buf, N, MPI_INT, root, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));

    QT_STEP("H3: isync on the paused stream stays incomplete");
    QT_OK(MPIX_Stream_isync(s, &req));
    for (int i = 0; i < 20 && !flag; ++i) {
        QT_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        sleep_ms(1);
    }
    QT_CHECK(!flag, "the isync of a paused stream completed");
    QT_CHECK(-1 == buf[0] && -1 == buf[N - 1], "a paused stream ran its tokens (%d %d)", buf[0],
             buf[N - 1]);

    QT_STEP("H3: resume, then the wait on the isync (did not return)");
    QT_OK(MPIX_Stream_resume(s));
    if (!flag) {
        if (2 == round) {
            QT_OK(MPI_Waitall(1, &req, MPI_STATUSES_IGNORE));
        } else {
            QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
    }
    for (int i = 0; i < N; ++i) {
        QT_CHECK(100 * (round + 1) + i == buf[i], "round %d: element %d is %d, expected %d",
                 round, i, buf[i], 100 * (round + 1) + i);
    }
    QT_STEP("H3: the stream is free after the isync");
    QT_OK(MPIX_Stream_free(&s));
    MPI_Barrier(MPI_COMM_WORLD);
    if (root == rank) {
        unlink(name);
    }
}

int main(int argc, char **argv)
{
    MPI_Session session = MPI_SESSION_NULL;
    MPI_Errhandler seh, weh, xeh;
    char dir[256] = "";

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && 0 == strcmp(argv[1], "pthread")) {
        loc = MPIX_OFFLOAD_PTHREAD;
    }

    QT_STEP("a session with a counting handler; counting handlers on WORLD and SELF");
    QT_OK(MPI_Session_create_errhandler(session_eh, &seh));
    QT_OK(MPI_Session_init(MPI_INFO_NULL, seh, &session));
    QT_OK(MPI_Comm_create_errhandler(world_eh, &weh));
    QT_OK(MPI_Comm_create_errhandler(self_eh, &xeh));
    QT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, weh));
    QT_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, xeh));

    h1_graph_calls(session);
    h2_failed_execution(session);

    QT_STEP("the handlers back to MPI_ERRORS_RETURN");
    QT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    QT_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    QT_OK(MPI_Errhandler_free(&weh));
    QT_OK(MPI_Errhandler_free(&xeh));

    if (0 == rank) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, sizeof(dir), "%s/graphs-handlers-XXXXXX", NULL != base ? base : "/tmp");
        if (NULL == mkdtemp(dir)) {
            dir[0] = '\0';
        }
    }
    MPI_Bcast(dir, (int) sizeof(dir), MPI_CHAR, 0, MPI_COMM_WORLD);
    QT_CHECK('\0' != dir[0], "no temporary directory");
    if ('\0' != dir[0]) {
        for (int round = 0; round < 3; ++round) {
            h3_listing2_isync(dir, round);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (0 == rank) {
            rmdir(dir);
        }
    }

    QT_STEP("MPI_Session_finalize");
    QT_OK(MPI_Session_finalize(&session));
    QT_OK(MPI_Errhandler_free(&seh));
    return qt_finalize();
}
