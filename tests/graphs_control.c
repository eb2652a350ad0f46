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
 * MPIX graph variables and control flow (spec 3.3): S5 parameter snapshots
 * and locals re-initialized per execution, S6 reference parameters and
 * Copy_mem_def from a variable, S7 if/else (both branches, null branch,
 * copy semantics), S8 while with a counter (body-local variables fresh each
 * iteration), S9 var_reduce with every operation and comparison, S26 goto
 * (two concurrent activations; an endless loop stopped by MPI_Cancel), S28
 * run-time argument errors, def refusals (unset parameter, unresolved
 * variable, wrong local type, bad goto destination), variable-bound
 * arguments (buffers, counts, communicators) with an implicit edge, and a
 * while loop of neighbour exchanges (the UC1 pattern), S8b a while loop whose
 * body is a straight line (data, body locals, re-execution, cancel, an
 * error in the body).  With argv[1]
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

static char logbuf[512];
static int loglen;

static void log_put(char c)
{
    if (loglen < (int) sizeof(logbuf) - 1) {
        logbuf[loglen++] = c;
        logbuf[loglen] = '\0';
    }
}

static int log_cb(MPIX_Graph g, void *extra)
{
    (void) g;
    log_put(*(const char *) extra);
    return MPI_SUCCESS;
}

static int add_tok(MPIX_Graph g, MPIX_Token t, int dep)
{
    int id = -1;
    QT_OK(MPIX_Graph_add(g, &t, &id, dep));
    return id;
}

static int add_cb(MPIX_Graph g, MPIX_Graph_op_function *fn, void *extra, int dep)
{
    MPIX_Token t;
    QT_OK(MPIX_Op_def(fn, extra, &t));
    return add_tok(g, t, dep);
}

/* records of variable values seen by callbacks */
static int rec[64], nrec;

/* extra = variable id: record its value */
static int record_cb(MPIX_Graph g, void *extra)
{
    int v = -999;
    QT_OK(MPIX_Graph_var_get(g, (int) (intptr_t) extra, &v));
    if (nrec < 64) {
        rec[nrec++] = v;
    }
    return MPI_SUCCESS;
}

/* extra = variable id: increment it */
static int incr_cb(MPIX_Graph g, void *extra)
{
    int v = 0;
    QT_OK(MPIX_Graph_var_get(g, (int) (intptr_t) extra, &v));
    v++;
    QT_OK(MPIX_Graph_var_set(g, (int) (intptr_t) extra, &v));
    return MPI_SUCCESS;
}

#define VAR(id) ((void *) (intptr_t) (id))

static void s5_snapshots(void)
{
    MPIX_Graph g;
    MPIX_Token t1, t2, t;
    int p, n, r;

    QT_STEP("S5: parameters are captured by def");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_VAL_PARAM, MPI_INT));
    (void) add_cb(g, record_cb, VAR(0), MPIX_DEP_NONE);
    QT_CHECK_RC(MPIX_Graph_def(g, MPI_INFO_NULL, &t), MPI_ERR_ARG);  /* unset parameter */
    p = 5;
    QT_OK(MPIX_Graph_set_param(g, 0, &p));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t1));
    p = 7;
    QT_OK(MPIX_Graph_set_param(g, 0, &p));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t2));
    p = 9;  /* the program's variable is never read again */
    nrec = 0;
    QT_OK(MPIX_Execute(t1, MPI_INFO_NULL, loc(), NULL));
    QT_OK(MPIX_Execute(t2, MPI_INFO_NULL, loc(), NULL));
    QT_OK(MPIX_Execute(t1, MPI_INFO_NULL, loc(), NULL));
    QT_CHECK(3 == nrec && 5 == rec[0] && 7 == rec[1] && 5 == rec[2], "records %d: %d %d %d", nrec,
             rec[0], rec[1], rec[2]);
    QT_OK(MPIX_Token_free(&t1));
    QT_OK(MPIX_Token_free(&t2));
    MPIX_Graph_free(&g);

    QT_STEP("S5: a local is re-initialized at every execution");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 3, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    n = add_cb(g, incr_cb, VAR(3), MPIX_DEP_NONE);
    (void) add_cb(g, record_cb, VAR(3), n);
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    nrec = 0;
    for (int i = 0; i < 3; ++i) {
        QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
    }
    QT_OK(MPIX_Token_free(&t));
    r = 10;
    QT_OK(MPIX_Graph_var_set(g, 3, &r));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    for (int i = 0; i < 3; ++i) {
        QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
    }
    QT_CHECK(6 == nrec && 1 == rec[0] && 1 == rec[1] && 1 == rec[2] && 11 == rec[3]
                 && 11 == rec[4] && 11 == rec[5],
             "local records: %d %d %d %d %d %d", rec[0], rec[1], rec[2], rec[3], rec[4], rec[5]);
    r = -1;
    QT_OK(MPIX_Graph_var_get(g, 3, &r));
    QT_CHECK(10 == r, "template value after executions: %d, expected 10", r);
    QT_OK(MPIX_Token_free(&t));
    MPIX_Graph_free(&g);
}

static int set42_cb(MPIX_Graph g, void *extra)
{
    int v = 42;
    QT_OK(MPIX_Graph_var_set(g, (int) (intptr_t) extra, &v));
    return MPI_SUCCESS;
}

static int set9_cb(MPIX_Graph g, void *extra)
{
    int v = 9;
    QT_OK(MPIX_Graph_var_set(g, (int) (intptr_t) extra, &v));
    return MPI_SUCCESS;
}

static void s6_refs(void)
{
    MPIX_Graph g;
    MPIX_Token t;
    int x = 0, save = -1, a, b;

    QT_STEP("S6: reference parameters; Copy_mem_def from a variable");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_REF_PARAM, MPI_INT));
    QT_OK(MPIX_Graph_var_create(g, 2, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_CHECK_RC(MPIX_Graph_var_set(g, 1, &x), MPI_ERR_ARG);  /* use set_param */
    QT_CHECK_RC(MPIX_Graph_set_param(g, 2, &x), MPI_ERR_ARG);  /* not a parameter */
    QT_OK(MPIX_Graph_set_param(g, 1, &x));
    a = add_cb(g, set42_cb, VAR(1), MPIX_DEP_NONE);
    b = add_cb(g, set9_cb, VAR(2), a);
    QT_OK(MPIX_Copy_mem_def(&save, MPIX_VAR(2), sizeof(int), &t));
    (void) add_tok(g, t, b);
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
    QT_CHECK(42 == x && 9 == save, "x %d (expected 42), save %d (expected 9)", x, save);
    QT_OK(MPIX_Token_free(&t));
    MPIX_Graph_free(&g);
}

/* a string var_set from a callback is the callback's own buffer, gone
 * (overwritten here) before the next callback reads the variable */
static char str_seen[2][32];
static int str_reads;

static int set_str_cb(MPIX_Graph g, void *extra)
{
    char buf[32];
    const char *p = buf;

    snprintf(buf, sizeof(buf), "run-%d", (int) (intptr_t) extra);
    QT_OK(MPIX_Graph_var_set(g, 7, &p));
    memset(buf, 'x', sizeof(buf) - 1);
    buf[sizeof(buf) - 1] = '\0';
    return MPI_SUCCESS;
}

static int get_str_cb(MPIX_Graph g, void *extra)
{
    const char *p = NULL;
    (void) extra;

    QT_OK(MPIX_Graph_var_get(g, 7, &p));
    if (str_reads < 2) {
        snprintf(str_seen[str_reads], sizeof(str_seen[0]), "%s", NULL != p ? p : "(null)");
    }
    str_reads++;
    return MPI_SUCCESS;
}

static void strings(void)
{
    MPIX_Graph g;
    MPIX_Token t;
    MPI_Request req;
    const char *init = "initial";
    int a;

    QT_STEP("a string var_set on a running activation is copied");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 7, MPIX_GRAPH_VAR_LOCAL, MPI_LOCAL_TYPE_STRING));
    QT_OK(MPIX_Graph_var_set(g, 7, &init));
    a = add_cb(g, get_str_cb, NULL, MPIX_DEP_NONE);
    a = add_cb(g, set_str_cb, VAR(5), a);
    (void) add_cb(g, get_str_cb, NULL, a);
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc(), NULL, &req));
    for (int run = 0; run < 2; ++run) {
        str_reads = 0;
        memset(str_seen, 0, sizeof(str_seen));
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        QT_CHECK(2 == str_reads && 0 == strcmp(str_seen[0], "initial")
                     && 0 == strcmp(str_seen[1], "run-5"),
                 "execution %d read \"%s\" then \"%s\" (%d reads), expected \"initial\" then "
                 "\"run-5\"", run, str_seen[0], str_seen[1], str_reads);
    }
    QT_OK(MPI_Request_free(&req));
    QT_OK(MPIX_Token_free(&t));
    MPIX_Graph_free(&g);
}

static void s7_if_else(void)
{
    MPIX_Graph g, tg, fg;
    MPIX_Token t;
    int c, i, z;

    QT_STEP("S7: if/else");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &tg));
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &fg));
    (void) add_cb(tg, log_cb, "T", MPIX_DEP_NONE);
    (void) add_cb(fg, log_cb, "F", MPIX_DEP_NONE);
    for (int variant = 0; variant < 2; ++variant) {
        QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
        QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_VAL_PARAM, MPI_INT));
        QT_OK(MPIX_Graph_if_else(g, 0, tg, 0 == variant ? fg : MPIX_GRAPH_NULL, &i,
                                 MPIX_DEP_NONE));
        z = add_cb(g, log_cb, "Z", i);
        (void) z;
        for (c = 0; c < 2; ++c) {
            QT_OK(MPIX_Graph_set_param(g, 0, &c));
            QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
            loglen = 0;
            QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
            QT_CHECK(0 == strcmp(logbuf, c ? "TZ" : (0 == variant ? "FZ" : "Z")),
                     "variant %d cond %d: log \"%s\"", variant, c, logbuf);
            QT_OK(MPIX_Token_free(&t));
        }
        MPIX_Graph_free(&g);
    }
    /* the branch was copied: changing or freeing it has no effect */
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    c = 1;
    QT_OK(MPIX_Graph_var_set(g, 0, &c));
    QT_OK(MPIX_Graph_if_else(g, 0, tg, fg, NULL, MPIX_DEP_NONE));
    (void) add_cb(tg, log_cb, "X", MPIX_DEP_NONE);
    MPIX_Graph_free(&fg);
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    loglen = 0;
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
    QT_CHECK(0 == strcmp(logbuf, "T"), "copy semantics: log \"%s\", expected T", logbuf);
    QT_OK(MPIX_Token_free(&t));
    /* a local-typed condition is refused */
    QT_OK(MPIX_Graph_var_create(g, 5, MPIX_GRAPH_VAR_LOCAL, MPI_LOCAL_TYPE_COMM));
    QT_CHECK_RC(MPIX_Graph_if_else(g, 5, tg, MPIX_GRAPH_NULL, NULL, MPIX_DEP_NONE), MPI_ERR_TYPE);
    MPIX_Graph_free(&g);
    MPIX_Graph_free(&tg);
}

static void s8_while(void)
{
    MPIX_Graph g, body;
    MPIX_Token t;
    int w, n, m1 = -1, bc;

    QT_STEP("S8: while with a counter");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &body));
    /* a body-local counter: zero at each iteration, so always logged as 1 */
    QT_OK(MPIX_Graph_var_create(body, 7, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    bc = add_cb(body, incr_cb, VAR(7), MPIX_DEP_NONE);
    bc = add_cb(body, record_cb, VAR(7), bc);
    bc = add_cb(body, log_cb, "I", bc);
    /* N and MINUS_ONE belong to the enclosing graph */
    QT_OK(MPIX_Graph_var_reduce(body, 0, 1, MPI_SUM, 0, NULL, bc));
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_VAL_PARAM, MPI_INT));
    QT_OK(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_OK(MPIX_Graph_var_set(g, 1, &m1));
    QT_OK(MPIX_Graph_while(g, 0, body, &w, MPIX_DEP_NONE));
    MPIX_Graph_free(&body);
    (void) add_cb(g, log_cb, "Z", w);
    for (n = 4; n >= 0; n -= 4) {
        QT_OK(MPIX_Graph_set_param(g, 0, &n));
        QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
        loglen = 0;
        nrec = 0;
        QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
        QT_CHECK(0 == strcmp(logbuf, 4 == n ? "IIIIZ" : "Z"), "N=%d: log \"%s\"", n, logbuf);
        QT_CHECK(nrec == n, "N=%d: %d records", n, nrec);
        for (int i = 0; i < nrec; ++i) {
            QT_CHECK(1 == rec[i], "iteration %d: body-local counter %d, expected 1", i, rec[i]);
        }
        QT_OK(MPIX_Token_free(&t));
    }
    MPIX_Graph_free(&g);
}

static void s9_var_reduce(void)
{
    static const struct {
        const char *name;
        int expect;
    } arith[] = {{"SUM", 8}, {"PROD", 15}, {"MAX", 5}, {"MIN", 3}, {"BAND", 1},
                 {"BOR", 7}, {"BXOR", 6}, {"LAND", 1}, {"LOR", 1}, {"LXOR", 0}};
    MPI_Op aops[10] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_BAND,
                       MPI_BOR, MPI_BXOR, MPI_LAND, MPI_LOR, MPI_LXOR};
    MPI_Op cops[6] = {MPIX_LESS_THAN, MPIX_LESS_THAN_OR_EQUAL, MPIX_EQUAL,
                      MPIX_NOT_EQUAL, MPIX_GREATER_THAN, MPIX_GREATER_THAN_OR_EQUAL};
    const int cexp[6] = {1, 1, 0, 1, 0, 0};
    MPIX_Graph g;
    MPIX_Token t;
    int a = 3, b = 5, out[16];
    double x = 1.5, y = 2.25, dout = 0;

    QT_STEP("S9: var_reduce with every operation and comparison");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_OK(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_OK(MPIX_Graph_var_set(g, 0, &a));
    QT_OK(MPIX_Graph_var_set(g, 1, &b));
    for (int i = 0; i < 16; ++i) {
        QT_OK(MPIX_Graph_var_create(g, 10 + i, MPIX_GRAPH_VAR_REF_PARAM, MPI_INT));
        out[i] = -7;
        QT_OK(MPIX_Graph_set_param(g, 10 + i, &out[i]));
        QT_OK(MPIX_Graph_var_reduce(g, 0, 1, i < 10 ? aops[i] : cops[i - 10], 10 + i, NULL,
                                    MPIX_DEP_NONE));
    }
    QT_OK(MPIX_Graph_var_create(g, 30, MPIX_GRAPH_VAR_LOCAL, MPI_DOUBLE));
    QT_OK(MPIX_Graph_var_create(g, 31, MPIX_GRAPH_VAR_LOCAL, MPI_DOUBLE));
    QT_OK(MPIX_Graph_var_create(g, 32, MPIX_GRAPH_VAR_REF_PARAM, MPI_DOUBLE));
    QT_OK(MPIX_Graph_var_set(g, 30, &x));
    QT_OK(MPIX_Graph_var_set(g, 31, &y));
    QT_OK(MPIX_Graph_set_param(g, 32, &dout));
    QT_OK(MPIX_Graph_var_reduce(g, 30, 31, MPI_SUM, 32, NULL, MPIX_DEP_NONE));
    QT_CHECK_RC(MPIX_Graph_var_reduce(g, 0, 1, MPI_MAXLOC, 10, NULL, MPIX_DEP_NONE), MPI_ERR_OP);
    QT_CHECK_RC(MPIX_Graph_var_reduce(g, 0, 1, MPI_REPLACE, 10, NULL, MPIX_DEP_NONE), MPI_ERR_OP);
    QT_CHECK_RC(MPIX_Graph_var_reduce(g, 0, 30, MPI_SUM, 10, NULL, MPIX_DEP_NONE), MPI_ERR_TYPE);
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
    for (int i = 0; i < 10; ++i) {
        QT_CHECK(arith[i].expect == out[i], "%s(3,5) = %d, expected %d", arith[i].name, out[i],
                 arith[i].expect);
    }
    for (int i = 0; i < 6; ++i) {
        QT_CHECK(cexp[i] == out[10 + i], "comparison %d of (3,5) = %d, expected %d", i,
                 out[10 + i], cexp[i]);
    }
    QT_CHECK(3.75 == dout, "1.5 + 2.25 = %g", dout);
    QT_OK(MPIX_Token_free(&t));
    MPIX_Graph_free(&g);
    /* types unknown at the call are checked at def */
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_reduce(g, 0, 1, MPI_SUM, 2, NULL, MPIX_DEP_NONE));
    QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_OK(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_DOUBLE));
    QT_OK(MPIX_Graph_var_create(g, 2, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_CHECK_RC(MPIX_Graph_def(g, MPI_INFO_NULL, &t), MPI_ERR_TYPE);
    MPIX_Graph_free(&g);
}

static volatile int goto_count;

static int count_cb(MPIX_Graph g, void *extra)
{
    (void) g;
    (void) extra;
    goto_count++;
    return MPI_SUCCESS;
}

/* req, an endless execution, stays pending over tries tests; then
 * MPI_Cancel completes it as cancelled.  0 when it completed before. */
static int pending_then_cancel(MPI_Request *req, int tries)
{
    MPI_Status st;
    int flag = 0;

    for (int i = 0; i < tries && !flag; ++i) {
        QT_OK(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
        QT_CHECK(!flag, "the endless loop completed on its own");
        sleep_ms(2);
    }
    if (flag) {
        return 0;
    }
    QT_OK(MPI_Cancel(req));
    QT_OK(MPI_Wait(req, &st));
    QT_OK(MPI_Test_cancelled(&st, &flag));
    QT_CHECK(flag, "MPI_Test_cancelled is false after cancelling the loop");
    return 1;
}

static void s26_goto(void)
{
    MPIX_Graph g;
    MPIX_Token t;
    MPI_Request req;
    int r, a, b;

    QT_STEP("S26b: two gotos start two activations");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_nop(g, &r, MPIX_DEP_NONE));
    a = add_cb(g, count_cb, NULL, MPIX_DEP_NONE);
    QT_OK(MPIX_Graph_goto(g, a, r));
    QT_OK(MPIX_Graph_goto(g, a, r));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    goto_count = 0;
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
    QT_CHECK(3 == goto_count, "count %d, expected 3 (once as a root, once per goto)", goto_count);
    QT_OK(MPIX_Token_free(&t));
    MPIX_Graph_free(&g);

    QT_STEP("S26: goto destination rule checked at def");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    a = add_cb(g, count_cb, NULL, MPIX_DEP_NONE);
    b = add_cb(g, count_cb, NULL, MPIX_DEP_NONE);
    {
        int deps[2] = {a, b}, j;
        QT_OK(MPIX_Graph_join(g, 2, deps, &j));
        /* A's descendant J is also fed by B, outside A's subtree */
        QT_OK(MPIX_Graph_goto(g, a, j));
    }
    QT_CHECK_RC(MPIX_Graph_def(g, MPI_INFO_NULL, &t), MPI_ERR_ARG);
    MPIX_Graph_free(&g);

    QT_STEP("S26a: an endless goto loop stopped by MPI_Cancel");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    a = add_cb(g, count_cb, NULL, MPIX_DEP_NONE);
    QT_OK(MPIX_Graph_goto(g, a, a));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    MPIX_Graph_free(&g);
    goto_count = 0;
    QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, loc(), NULL, &req));
    if (pending_then_cancel(&req, 25)) {
        QT_CHECK(goto_count > 1, "the loop ran %d times", goto_count);
    }
    QT_OK(MPIX_Token_free(&t));
}

static void s28_runtime_args(void)
{
    MPIX_Graph g;
    MPIX_Token t;
    char buf[8] = {0};
    MPI_Count big = 3000000000LL;

    QT_STEP("S28: run-time argument errors");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_LOCAL, MPI_COUNT));
    QT_OK(MPIX_Graph_var_set(g, 0, &big));
    QT_OK(MPIX_Recv_def(buf, MPIX_VAR_INT(0), MPI_BYTE, 0, 9, MPI_COMM_SELF, MPI_STATUS_IGNORE,
                        &t));
    /* a token with variable arguments runs only in a graph */
    QT_CHECK_RC(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL), MPI_ERR_ARG);
    (void) add_tok(g, t, MPIX_DEP_NONE);
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_CHECK_RC(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL), MPI_ERR_COUNT);
    QT_OK(MPIX_Token_free(&t));
    MPIX_Graph_free(&g);

    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_OK(MPIX_Bcast_def(MPIX_VAR(0), 2, MPI_INT, 0, MPI_COMM_SELF, &t));
    (void) add_tok(g, t, MPIX_DEP_NONE);
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_CHECK_RC(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL), MPI_ERR_BUFFER);
    QT_OK(MPIX_Token_free(&t));
    MPIX_Graph_free(&g);

    QT_STEP("def refusals: unresolved variable, wrong local type");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Send_def(buf, 1, MPI_BYTE, 0, 1, MPIX_VAR(4), &t));
    (void) add_tok(g, t, MPIX_DEP_NONE);
    QT_CHECK_RC(MPIX_Graph_def(g, MPI_INFO_NULL, &t), MPI_ERR_ARG);
    QT_OK(MPIX_Graph_var_create(g, 4, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_CHECK_RC(MPIX_Graph_def(g, MPI_INFO_NULL, &t), MPI_ERR_TYPE);
    MPIX_Graph_free(&g);
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_CHECK_RC(MPIX_Graph_var_create(g, MPIX_GRAPH_VAR_MAX, MPIX_GRAPH_VAR_LOCAL, MPI_INT),
                MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Graph_var_create(g, 1, 99, MPI_INT), MPI_ERR_ARG);
    {
        MPI_Datatype vec;
        MPI_Type_contiguous(2, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        QT_CHECK_RC(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, vec), MPI_ERR_TYPE);
        MPI_Type_free(&vec);
    }
    QT_OK(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_CHECK_RC(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT), MPI_ERR_ARG);
    MPIX_Graph_free(&g);
}

/* variable-bound arguments: the peer and count come from variables, the
 * communicator from a local-typed variable, the buffer is a variable; an
 * implicit edge orders a var_reduce producing the count before its use */
static void var_args(void)
{
    MPIX_Graph g;
    MPIX_Token t;
    MPI_Comm comm = MPI_COMM_WORLD;
    int peer, two = 2, zero = 0, got[2] = {-1, -1}, r1, root;

    if (size < 2 || rank > 1) {
        return;
    }
    QT_STEP("variable-bound arguments and an implicit edge");
    peer = 1 - rank;
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_LOCAL, MPI_LOCAL_TYPE_COMM));
    QT_OK(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_VAL_PARAM, MPI_INT));  /* peer */
    QT_OK(MPIX_Graph_var_create(g, 2, MPIX_GRAPH_VAR_LOCAL, MPI_INT));      /* count: 0 + 2 */
    QT_OK(MPIX_Graph_var_create(g, 3, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_OK(MPIX_Graph_var_create(g, 4, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_OK(MPIX_Graph_var_create(g, 5, MPIX_GRAPH_VAR_REF_PARAM, MPI_INT));  /* out of the buffer var */
    QT_OK(MPIX_Graph_var_create(g, 6, MPIX_GRAPH_VAR_LOCAL, MPI_INT));      /* a 1-int buffer */
    QT_OK(MPIX_Graph_var_set(g, 0, &comm));
    QT_OK(MPIX_Graph_set_param(g, 1, &peer));
    QT_OK(MPIX_Graph_var_set(g, 3, &zero));
    QT_OK(MPIX_Graph_var_set(g, 4, &two));
    QT_OK(MPIX_Graph_set_param(g, 5, &root));
    /* the count is produced by var_reduce (op 1) ... */
    QT_OK(MPIX_Graph_var_reduce(g, 3, 4, MPI_SUM, 2, &r1, MPIX_DEP_NONE));
    /* ... and consumed by a root exchange (no explicit dependency) */
    if (0 == rank) {
        int v[2] = {11, 22};
        static int sv[2];
        memcpy(sv, v, sizeof(v));
        QT_OK(MPIX_Send_def(sv, MPIX_VAR_INT(2), MPI_INT, MPIX_VAR_INT(1), 3, MPIX_VAR(0), &t));
    } else {
        QT_OK(MPIX_Recv_def(got, MPIX_VAR_INT(2), MPI_INT, MPIX_VAR_INT(1), 3, MPIX_VAR(0),
                            MPI_STATUS_IGNORE, &t));
    }
    (void) add_tok(g, t, MPIX_DEP_NONE);
    /* a variable as a buffer: a bcast of one int on MPI_COMM_SELF into var 6, copied to root */
    {
        int seven = 7, c;
        QT_OK(MPIX_Graph_var_set(g, 6, &seven));
        QT_OK(MPIX_Bcast_def(MPIX_VAR(6), 1, MPI_INT, 0, MPI_COMM_SELF, &t));
        c = add_tok(g, t, MPIX_DEP_NONE);
        QT_OK(MPIX_Copy_mem_def(&root, MPIX_VAR(6), sizeof(int), &t));
        (void) add_tok(g, t, c);
    }
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    MPIX_Graph_free(&g);
    root = -1;
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, loc(), NULL));
    if (1 == rank) {
        QT_CHECK(11 == got[0] && 22 == got[1], "received %d %d, expected 11 22", got[0], got[1]);
    }
    QT_CHECK(7 == root, "variable buffer: %d, expected 7", root);
    QT_OK(MPIX_Token_free(&t));
}

/* UC1 pattern: N neighbour exchanges in a while loop, N from a bcast */
static int sbuf_uc1[2], rbuf_uc1[2], iters_uc1, log_uc1[16];

static int uc1_record(MPIX_Graph g, void *extra)
{
    (void) g;
    (void) extra;
    if (iters_uc1 < 16) {
        log_uc1[iters_uc1] = rbuf_uc1[0] * 1000 + rbuf_uc1[1];
    }
    iters_uc1++;
    sbuf_uc1[1] = iters_uc1;
    return MPI_SUCCESS;
}

static void uc1_while(void)
{
    MPIX_Graph g, w;
    MPIX_Token t;
    MPI_Request req;
    const int nt[3] = {3, 0, 5};
    int left = (rank - 1 + size) % size, right = (rank + 1) % size, b, s, c, m1 = -1;

    QT_STEP("UC1: while loop of neighbour exchanges, count from a bcast");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_VAL_PARAM, MPI_INT));
    QT_OK(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_OK(MPIX_Graph_var_set(g, 1, &m1));
    QT_OK(MPIX_Bcast_def(MPIX_VAR(0), 1, MPI_INT, 0, MPI_COMM_WORLD, &t));
    b = add_tok(g, t, MPIX_DEP_NONE);
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &w));
    QT_OK(MPIX_Sendrecv_def(sbuf_uc1, 2, MPI_INT, right, 7, rbuf_uc1, 2, MPI_INT, left, 7,
                            MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
    s = add_tok(w, t, MPIX_DEP_NONE);
    c = add_cb(w, uc1_record, NULL, s);
    QT_OK(MPIX_Graph_var_reduce(w, 0, 1, MPI_SUM, 0, NULL, c));
    QT_OK(MPIX_Graph_while(g, 0, w, NULL, b));
    MPIX_Graph_free(&w);
    for (int ts = 0; ts < 3; ++ts) {
        int p = (0 == rank) ? nt[ts] : 99;
        QT_OK(MPIX_Graph_set_param(g, 0, &p));
        iters_uc1 = 0;
        sbuf_uc1[0] = rank;
        sbuf_uc1[1] = 0;
        QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
        QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc(), NULL, &req));
        QT_OK(MPIX_Token_free(&t));
        QT_OK(MPI_Start(&req));
        sleep_ms(10);
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        QT_OK(MPI_Request_free(&req));
        QT_CHECK(iters_uc1 == nt[ts], "timestep %d: %d iterations, expected %d", ts, iters_uc1,
                 nt[ts]);
        for (int i = 0; i < nt[ts] && i < iters_uc1; ++i) {
            QT_CHECK(log_uc1[i] == left * 1000 + i, "timestep %d iteration %d: got %d, expected %d",
                     ts, i, log_uc1[i], left * 1000 + i);
        }
        QT_CHECK(p == ((0 == rank) ? nt[ts] : 99), "the value parameter's source changed");
    }
    {
        int x = 0;
        QT_OK(MPIX_Graph_var_get(g, 1, &x));
        QT_CHECK(-1 == x, "template DECR_VAL %d, expected -1", x);
    }
    MPIX_Graph_free(&g);
}

/* S8b: a while loop whose body is a straight line (an exchange and
 * counters, no callback), which the loop runs itself: per-iteration data
 * through reference parameters, body locals fresh at each iteration,
 * re-execution, cancellation of a receive that never matches, and an
 * error in the body */
static int line_sv[2], line_rv[2], line_acc, line_cnt;

/* an endless loop's graph (variable 0, its condition, is 1; variable 8
 * refers to line_cnt) and its body, empty yet */
static void line_endless(MPIX_Graph *g, MPIX_Graph *w)
{
    static const int one = 1;

    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, g));
    QT_OK(MPIX_Graph_var_create(*g, 0, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    QT_OK(MPIX_Graph_var_set(*g, 0, &one));
    QT_OK(MPIX_Graph_var_create(*g, 8, MPIX_GRAPH_VAR_REF_PARAM, MPI_INT));
    QT_OK(MPIX_Graph_set_param(*g, 8, &line_cnt));
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, w));
}

/* the loop of w in g, and g's token (both graphs freed) */
static MPIX_Token line_close(MPIX_Graph g, MPIX_Graph w, int *wop)
{
    MPIX_Token t = MPIX_TOKEN_NULL;

    QT_OK(MPIX_Graph_while(g, 0, w, wop, MPIX_DEP_NONE));
    MPIX_Graph_free(&w);
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    MPIX_Graph_free(&g);
    return t;
}

static void line_while(void)
{
    MPIX_Graph g, w;
    MPIX_Token t;
    MPI_Request req;
    MPI_Status st;
    const int nt[3] = {200, 1, 0};
    int left = (rank - 1 + size) % size, right = (rank + 1) % size, s, r, m1 = -1, one = 1;
    int wop, err = -1, op = -1;

    QT_STEP("S8b: a while loop whose body is a straight line");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_VAL_PARAM, MPI_INT));   /* N */
    QT_OK(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT));       /* -1 */
    QT_OK(MPIX_Graph_var_set(g, 1, &m1));
    QT_OK(MPIX_Graph_var_create(g, 2, MPIX_GRAPH_VAR_REF_PARAM, MPI_INT));   /* value sent */
    QT_OK(MPIX_Graph_set_param(g, 2, &line_sv[0]));
    QT_OK(MPIX_Graph_var_create(g, 3, MPIX_GRAPH_VAR_REF_PARAM, MPI_INT));   /* received */
    QT_OK(MPIX_Graph_set_param(g, 3, &line_rv[0]));
    QT_OK(MPIX_Graph_var_create(g, 4, MPIX_GRAPH_VAR_REF_PARAM, MPI_INT));   /* their sum */
    QT_OK(MPIX_Graph_set_param(g, 4, &line_acc));
    QT_OK(MPIX_Graph_var_create(g, 6, MPIX_GRAPH_VAR_LOCAL, MPI_INT));       /* 1 */
    QT_OK(MPIX_Graph_var_set(g, 6, &one));
    QT_OK(MPIX_Graph_var_create(g, 8, MPIX_GRAPH_VAR_REF_PARAM, MPI_INT));   /* iterations */
    QT_OK(MPIX_Graph_set_param(g, 8, &line_cnt));
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &w));
    QT_OK(MPIX_Graph_var_create(w, 5, MPIX_GRAPH_VAR_LOCAL, MPI_INT));       /* body local, 0 */
    QT_OK(MPIX_Sendrecv_def(line_sv, 2, MPI_INT, right, 17, line_rv, 2, MPI_INT, left, 17,
                            MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
    QT_OK(MPIX_Graph_add(w, &t, &s, MPIX_DEP_NONE));
    QT_OK(MPIX_Graph_var_reduce(w, 4, 3, MPI_SUM, 4, &r, s));   /* acc += received */
    QT_OK(MPIX_Graph_var_reduce(w, 2, 6, MPI_SUM, 2, &r, r));   /* the next value sent */
    QT_OK(MPIX_Graph_var_reduce(w, 5, 6, MPI_SUM, 5, &r, r));   /* the local: 1 if fresh */
    QT_OK(MPIX_Graph_var_reduce(w, 8, 5, MPI_SUM, 8, &r, r));
    QT_OK(MPIX_Graph_var_reduce(w, 0, 1, MPI_SUM, 0, &r, r));   /* N -= 1 */
    QT_OK(MPIX_Graph_while(g, 0, w, &wop, MPIX_DEP_NONE));
    MPIX_Graph_free(&w);
    for (int ts = 0; ts < 3; ++ts) {
        int n = nt[ts];
        long want_acc = (long) n * left * 1000 + (long) n * (n - 1) / 2;
        QT_OK(MPIX_Graph_set_param(g, 0, &n));
        QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
        QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc(), NULL, &req));
        QT_OK(MPIX_Token_free(&t));
        for (int rep = 0; rep < 2; ++rep) {
            line_sv[0] = rank * 1000;
            line_sv[1] = rank;
            line_rv[0] = line_rv[1] = -7;
            line_acc = line_cnt = 0;
            QT_OK(MPI_Start(&req));
            QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            QT_CHECK(line_cnt == n, "N=%d run %d: %d iterations counted by a body local, expected "
                     "%d", n, rep, line_cnt, n);
            QT_CHECK(line_sv[0] == rank * 1000 + n, "N=%d run %d: value to send %d, expected %d",
                     n, rep, line_sv[0], rank * 1000 + n);
            QT_CHECK(line_acc == want_acc, "N=%d run %d: sum of the values received %d, expected "
                     "%ld", n, rep, line_acc, want_acc);
            if (0 < n) {
                QT_CHECK(line_rv[0] == left * 1000 + n - 1 && line_rv[1] == left,
                         "N=%d run %d: last received (%d, %d), expected (%d, %d)", n, rep,
                         line_rv[0], line_rv[1], left * 1000 + n - 1, left);
            }
        }
        QT_OK(MPI_Request_free(&req));
        QT_CHECK(n == nt[ts], "the value parameter's source changed");
    }
    MPIX_Graph_free(&g);

    QT_STEP("S8b: a straight-line loop cancelled in a receive that never matches");
    line_endless(&g, &w);
    /* nobody sends this tag */
    QT_OK(MPIX_Recv_def(line_rv, 2, MPI_INT, left, 4242, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
    QT_OK(MPIX_Graph_add(w, &t, &s, MPIX_DEP_NONE));
    QT_OK(MPIX_Graph_var_reduce(w, 8, 0, MPI_SUM, 8, &r, s));
    t = line_close(g, w, NULL);
    line_cnt = 0;
    QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, loc(), NULL, &req));
    if (pending_then_cancel(&req, 10)) {
        QT_CHECK(0 == line_cnt, "the body went on after its receive: count %d", line_cnt);
    }
    QT_OK(MPIX_Token_free(&t));

    QT_STEP("S8b: an error in a straight-line body stops the loop");
    line_endless(&g, &w);
    QT_OK(MPIX_Graph_var_reduce(w, 8, 0, MPI_SUM, 8, &s, MPIX_DEP_NONE));
    /* two sent, room for one: truncated in the second node */
    QT_OK(MPIX_Sendrecv_def(line_sv, 2, MPI_INT, right, 18, line_rv, 1, MPI_INT, left, 18,
                            MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
    QT_OK(MPIX_Graph_add(w, &t, &r, s));
    QT_OK(MPIX_Graph_var_reduce(w, 8, 0, MPI_SUM, 8, &r, r));
    t = line_close(g, w, &wop);
    QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, loc(), NULL, &req));
    for (int rep = 0; rep < 2; ++rep) {
        int rc, cls = -1;
        line_cnt = 0;
        QT_OK(MPI_Start(&req));
        rc = MPI_Wait(&req, &st);
        MPI_Error_class(rc, &cls);
        QT_CHECK(MPI_ERR_TRUNCATE == cls, "run %d: MPI_Wait returned class %d, expected "
                 "MPI_ERR_TRUNCATE", rep, cls);
        QT_CHECK(1 == line_cnt, "run %d: count %d after the failure, expected 1 (the node "
                 "before it)", rep, line_cnt);
        QT_OK(MPIX_Execute_get_error(req, &err, &op));
        QT_CHECK(MPI_ERR_TRUNCATE == err && wop == op, "run %d: get_error (%d, %d), expected "
                 "(%d, %d)", rep, err, op, MPI_ERR_TRUNCATE, wop);
    }
    QT_OK(MPI_Request_free(&req));
    QT_OK(MPIX_Token_free(&t));
}

static const qt_case_t cases[] = {
    QT_CASE(s5_snapshots),
    QT_CASE(s6_refs),
    QT_CASE(strings),
    QT_CASE(s7_if_else),
    QT_CASE(s8_while),
    QT_CASE(s9_var_reduce),
    QT_CASE(s26_goto),
    QT_CASE(s28_runtime_args),
    QT_CASE(var_args),
    QT_CASE(uc1_while),
    QT_CASE(line_while),
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
