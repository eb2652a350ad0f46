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
 * Hostile input: every function of the queue chapter (MPI_Match,
 * MPI_Imatch, MPI_Matchall, MPI_Imatchall, MPI_Is_matched, MPI_Queue_init,
 * MPI_Queue_free, MPI_Queue_c2f/f2c, MPI_Enqueue_start, MPI_Enqueue_startall,
 * MPI_Enqueue_wait, MPI_Enqueue_waitall, MPI_Queue_fence), MPI_REQUEST_EMPTY,
 * and the MPIX graphs and streams functions, called with one argument at a
 * time replaced by a bad value: a NULL pointer, a null or freed handle, a
 * request of the wrong kind (nonpersistent, generalized, not matched,
 * already matched, active, started on another queue), negative and huge
 * counts, duplicates, MPI_REQUEST_NULL and MPI_REQUEST_EMPTY in arrays.
 *
 * One table, rows[] below: the function, the argument replaced, the kind of
 * bad value, the call, and the error classes it may return.  For each row
 * both ranks of the pair build fresh objects (a matched pair of persistent
 * requests, an unmatched pair, two queues, a stream, a graph, a token and
 * requests of the wrong kinds), make the bad call under a per-row watchdog
 * (a hang or a crash names the row), check its class, then use the same
 * objects correctly: the unmatched pair is matched, both pairs are enqueued
 * on the queue and fenced, and the data and statuses are checked; a
 * sendrecv on the stream, a callback in the graph and the token are run;
 * then everything is freed (a queue or stream left busy fails the row).
 *
 * "Freed" handles: a dangling pointer may crash any MPI, so freed handles
 * are either the null handle that the free call wrote back (MPI_Queue_free,
 * MPI_Request_free, MPIX_*_free set it), or a stale copy of a freed queue,
 * stream, graph or token, which the fork documents as recognised (it keeps
 * recently freed objects of these kinds aside, marked dead).  A stale copy of
 * a freed request or session is not used (undefined in MPI).  Huge counts
 * come with a NULL array (a huge count over a short array reads past it).
 *
 * Rows whose bad value is not erroneous in the chapter (requests of two
 * sessions in one call) accept MPI_SUCCESS or MPI_ERR_REQUEST and check that
 * either outcome leaves the requests usable; they are skipped where the PML
 * makes no communicator from a session's group.
 *
 * A row marked with a defect is a known failure of the library: it still
 * fails the test.  Rows marked fatal (a crash or a hang) run after all the
 * others, so that one of them does not hide the results of the rest.
 *
 * Run on 2 ranks.  QTEST_HOSTILE_ROWS=N or N-M runs only those rows (table
 * indices); argv[1] "list" prints the table; QTEST_HOSTILE_ROW_TIMEOUT is the
 * per-row watchdog in seconds (20).
 */

#include <limits.h>
#include <stdint.h>

#include "common/qtest.h"
#include <mpi-ext.h>

static int rank, peer;
static MPI_Session session = MPI_SESSION_NULL;
static MPI_Comm scomm = MPI_COMM_NULL;

/* the objects of one row */
typedef struct {
    int row, tag;
    MPI_Queue q, q2;
    MPI_Request a[2], b[2];  /* a: a matched pair; b: an unmatched pair */
    int a_out, a_in, b_out, b_in;
    MPI_Request nb;          /* nonpersistent (MPI_PROC_NULL receive) */
    MPI_Request gr;          /* generalized */
    MPI_Request act;         /* persistent, unmatched, MPI_PROC_NULL */
    int act_started;
    int dummy[4];
    MPI_Request arr[4];
    MPIX_Stream s;
    MPIX_Graph g;
    MPIX_Token t;            /* a callback token */
} fx_t;

/* ------------------------------------------------------------------ */
/* helpers                                                             */

static int t_count = 0, g_count = 0;

static int count_cb(MPIX_Graph graph, void *extra)
{
    (void) graph;
    ++*(int *) extra;
    return MPI_SUCCESS;
}

static int noop_cb(MPIX_Graph graph, void *extra)
{
    (void) graph;
    (void) extra;
    return MPI_SUCCESS;
}

static int gr_query(void *extra, MPI_Status *status)
{
    (void) extra;
    MPI_Status_set_elements(status, MPI_BYTE, 0);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}

static int gr_free(void *extra)
{
    (void) extra;
    return MPI_SUCCESS;
}

static int gr_cancel(void *extra, int complete)
{
    (void) extra;
    (void) complete;
    return MPI_SUCCESS;
}

static void tok_drop(MPIX_Token *tk)
{
    if (MPIX_TOKEN_NULL != *tk) {
        MPIX_Token_free(tk);
    }
}

static MPI_Request *two(fx_t *f, MPI_Request x, MPI_Request y)
{
    f->arr[0] = x;
    f->arr[1] = y;
    return f->arr;
}

static MPI_Queue stale_queue(void)
{
    MPI_Queue x = MPI_QUEUE_NULL, copy;

    QT_OK(MPI_Queue_init(&x, MPI_QUEUE_TYPE_DEFAULT, NULL));
    copy = x;
    QT_OK(MPI_Queue_free(&x));
    return copy;
}

static MPI_Fint freed_queue_index(void)
{
    MPI_Queue x = MPI_QUEUE_NULL;
    MPI_Fint idx;

    QT_OK(MPI_Queue_init(&x, MPI_QUEUE_TYPE_DEFAULT, NULL));
    idx = MPI_Queue_c2f(x);
    QT_OK(MPI_Queue_free(&x));
    return idx;
}

static MPIX_Stream stale_stream(void)
{
    MPIX_Stream x = MPIX_STREAM_NULL, copy;

    QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &x));
    copy = x;
    QT_OK(MPIX_Stream_free(&x));
    return copy;
}

static MPIX_Graph stale_graph(void)
{
    MPIX_Graph x = MPIX_GRAPH_NULL, copy;

    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &x));
    copy = x;
    QT_OK(MPIX_Graph_free(&x));
    return copy;
}

static MPIX_Token stale_token(void)
{
    MPIX_Token x = MPIX_TOKEN_NULL, copy;

    QT_OK(MPIX_Op_def(noop_cb, NULL, &x));
    copy = x;
    QT_OK(MPIX_Token_free(&x));
    return copy;
}

/* a copy of a token that MPIX_Stream_enqueue consumed */
static MPIX_Token consumed_token(fx_t *f)
{
    MPIX_Token x = MPIX_TOKEN_NULL, copy;

    QT_OK(MPIX_Op_def(noop_cb, NULL, &x));
    copy = x;
    QT_OK(MPIX_Stream_enqueue(f->s, &x));
    QT_OK(MPIX_Stream_sync(f->s));
    return copy;
}

/* a token whose buffer is a graph variable (it runs only inside a graph) */
static MPIX_Token unbound_token(void)
{
    MPIX_Token x = MPIX_TOKEN_NULL;

    QT_OK(MPIX_Send_def(MPIX_VAR(0), 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &x));
    return x;
}

static int add_noop(MPIX_Graph g)
{
    MPIX_Token tk = MPIX_TOKEN_NULL;
    int id = -1;

    QT_OK(MPIX_Op_def(noop_cb, NULL, &tk));
    QT_OK(MPIX_Graph_add(g, &tk, &id, MPIX_DEP_NONE));
    return id;
}

static void start_act(fx_t *f)
{
    QT_OK(MPI_Start(&f->act));
    f->act_started = 1;
}

/* a's start enqueued on q (and later its wait and a fence) */
static void start_a(fx_t *f)
{
    QT_OK(MPI_Enqueue_startall(&f->q, 2, f->a));
}

static void finish_a(fx_t *f)
{
    QT_OK(MPI_Enqueue_waitall(&f->q, 2, f->a, MPI_STATUSES_IGNORE));
    QT_OK(MPI_Queue_fence(&f->q));
}

/* a matched pair with the peer on comm (receive first, send second) */
static void make_pair(MPI_Comm comm, int tag, int *in, int *out, MPI_Request req[2], int match)
{
    QT_OK(MPI_Recv_init(in, 1, MPI_INT, peer, tag, comm, &req[0]));
    QT_OK(MPI_Send_init(out, 1, MPI_INT, peer, tag, comm, &req[1]));
    if (match) {
        QT_OK(MPI_Matchall(2, req));
    }
}

static void exchange(MPI_Queue *q, int n, MPI_Request *reqs)
{
    QT_OK(MPI_Enqueue_startall(q, n, reqs));
    QT_OK(MPI_Enqueue_waitall(q, n, reqs, MPI_STATUSES_IGNORE));
    QT_OK(MPI_Queue_fence(q));
}

/* ------------------------------------------------------------------ */
/* the calls                                                           */

/* one expression; f is the row's objects */
#define CALL(id, ...)                                                       \
    static int id(fx_t *f)                                                  \
    {                                                                       \
        (void) f;                                                           \
        return (__VA_ARGS__);                                               \
    }

/* a call that makes a token in tk: freed if the call made one */
#define TOK(id, ...)                                                        \
    static int id(fx_t *f)                                                  \
    {                                                                       \
        MPIX_Token tk = MPIX_TOKEN_NULL;                                    \
        int rc_;                                                            \
        (void) f;                                                           \
        rc_ = (__VA_ARGS__);                                                \
        tok_drop(&tk);                                                      \
        return rc_;                                                         \
    }

/* a call that must leave the token tk (a live callback token) unconsumed */
#define KEEP(id, ...)                                                       \
    static int id(fx_t *f)                                                  \
    {                                                                       \
        MPIX_Token tk = MPIX_TOKEN_NULL;                                    \
        int rc_;                                                            \
        (void) f;                                                           \
        QT_OK(MPIX_Op_def(noop_cb, NULL, &tk));                             \
        rc_ = (__VA_ARGS__);                                                \
        QT_CHECK(MPIX_TOKEN_NULL != tk, "a refused call consumed the token"); \
        tok_drop(&tk);                                                      \
        return rc_;                                                         \
    }

#define RN MPI_REQUEST_NULL
#define RE MPI_REQUEST_EMPTY
#define W MPI_COMM_WORLD

/* MPI_Match */
CALL(match_null, MPI_Match(NULL))
CALL(match_rnull, MPI_Match(&(MPI_Request){RN}))
CALL(match_rempty, MPI_Match(&(MPI_Request){RE}))
CALL(match_nonpers, MPI_Match(&f->nb))
CALL(match_greq, MPI_Match(&f->gr))
CALL(match_matched, MPI_Match(&f->a[0]))
static int match_active(fx_t *f)
{
    start_act(f);
    return MPI_Match(&f->act);
}
static int match_freed(fx_t *f)
{
    MPI_Request r;

    (void) f;
    QT_OK(MPI_Recv_init(f->dummy, 1, MPI_INT, peer, 999, W, &r));
    QT_OK(MPI_Request_free(&r));
    return MPI_Match(&r);
}
static int match_pending(fx_t *f)
{
    int rc;

    start_a(f);
    rc = MPI_Match(&f->a[0]);
    finish_a(f);
    return rc;
}

/* MPI_Imatch */
static int imatch_wrap(MPI_Request *tomatch, MPI_Request *mr_out)
{
    MPI_Request mr = RN;
    int rc = MPI_Imatch(tomatch, NULL != mr_out ? mr_out : &mr);

    if (MPI_SUCCESS == rc && RN != mr) {
        MPI_Wait(&mr, MPI_STATUS_IGNORE);
    }
    return rc;
}
CALL(imatch_null1, imatch_wrap(NULL, NULL))
CALL(imatch_rnull, imatch_wrap(&(MPI_Request){RN}, NULL))
CALL(imatch_rempty, imatch_wrap(&(MPI_Request){RE}, NULL))
CALL(imatch_nonpers, imatch_wrap(&f->nb, NULL))
CALL(imatch_greq, imatch_wrap(&f->gr, NULL))
CALL(imatch_matched, imatch_wrap(&f->a[0], NULL))
static int imatch_active(fx_t *f)
{
    start_act(f);
    return imatch_wrap(&f->act, NULL);
}
CALL(imatch_null2, MPI_Imatch(&f->b[0], NULL))

/* MPI_Matchall */
CALL(matchall_neg, MPI_Matchall(-1, f->b))
CALL(matchall_min, MPI_Matchall(INT_MIN, f->b))
CALL(matchall_huge, MPI_Matchall(INT_MAX, NULL))
CALL(matchall_nullarr, MPI_Matchall(2, NULL))
CALL(matchall_rnull, MPI_Matchall(2, two(f, f->b[0], RN)))
CALL(matchall_rempty, MPI_Matchall(2, two(f, f->b[0], RE)))
CALL(matchall_dup, MPI_Matchall(2, two(f, f->b[0], f->b[0])))
CALL(matchall_nonpers, MPI_Matchall(2, two(f, f->b[0], f->nb)))
CALL(matchall_greq, MPI_Matchall(2, two(f, f->b[0], f->gr)))
CALL(matchall_matched, MPI_Matchall(2, two(f, f->b[0], f->a[0])))
static int matchall_active(fx_t *f)
{
    start_act(f);
    return MPI_Matchall(2, two(f, f->b[0], f->act));
}

/* MPI_Imatchall */
static int imatchall_wrap(int count, MPI_Request *arr, int null_out)
{
    MPI_Request mr = RN;
    int rc = MPI_Imatchall(count, arr, null_out ? NULL : &mr);

    if (MPI_SUCCESS == rc && RN != mr) {
        MPI_Wait(&mr, MPI_STATUS_IGNORE);
    }
    return rc;
}
CALL(imatchall_neg, imatchall_wrap(-1, f->b, 0))
CALL(imatchall_min, imatchall_wrap(INT_MIN, f->b, 0))
CALL(imatchall_huge, imatchall_wrap(INT_MAX, NULL, 0))
CALL(imatchall_nullarr, imatchall_wrap(2, NULL, 0))
CALL(imatchall_rnull, imatchall_wrap(2, two(f, f->b[0], RN), 0))
CALL(imatchall_rempty, imatchall_wrap(2, two(f, f->b[0], RE), 0))
CALL(imatchall_dup, imatchall_wrap(2, two(f, f->b[0], f->b[0]), 0))
CALL(imatchall_nonpers, imatchall_wrap(2, two(f, f->b[0], f->nb), 0))
CALL(imatchall_greq, imatchall_wrap(2, two(f, f->b[0], f->gr), 0))
CALL(imatchall_matched, imatchall_wrap(2, two(f, f->b[0], f->a[0]), 0))
CALL(imatchall_nullreq, imatchall_wrap(2, f->b, 1))

/* MPI_Is_matched */
CALL(ism_rnull, MPI_Is_matched(RN, &(int){0}))
CALL(ism_rempty, MPI_Is_matched(RE, &(int){0}))
CALL(ism_nonpers, MPI_Is_matched(f->nb, &(int){0}))
CALL(ism_greq, MPI_Is_matched(f->gr, &(int){0}))
CALL(ism_nullflag, MPI_Is_matched(f->a[0], NULL))

/* MPI_Queue_init */
static int qinit_wrap(MPI_Queue *q, int type, void *ext)
{
    int rc = MPI_Queue_init(q, type, ext);

    if (MPI_SUCCESS == rc && NULL != q && MPI_QUEUE_NULL != *q) {
        MPI_Queue_free(q);
    }
    return rc;
}
CALL(qinit_null, qinit_wrap(NULL, MPI_QUEUE_TYPE_DEFAULT, NULL))
CALL(qinit_neg, qinit_wrap(&(MPI_Queue){MPI_QUEUE_NULL}, -1, NULL))
CALL(qinit_min, qinit_wrap(&(MPI_Queue){MPI_QUEUE_NULL}, INT_MIN, NULL))
CALL(qinit_max, qinit_wrap(&(MPI_Queue){MPI_QUEUE_NULL}, INT_MAX, NULL))
CALL(qinit_cuda, qinit_wrap(&(MPI_Queue){MPI_QUEUE_NULL}, MPIX_QUEUE_TYPE_CUDA_STREAM, NULL))
CALL(qinit_hip, qinit_wrap(&(MPI_Queue){MPI_QUEUE_NULL}, MPIX_QUEUE_TYPE_HIP_STREAM, NULL))

/* MPI_Queue_free */
CALL(qfree_null, MPI_Queue_free(NULL))
CALL(qfree_qnull, MPI_Queue_free(&(MPI_Queue){MPI_QUEUE_NULL}))
CALL(qfree_stale, MPI_Queue_free(&(MPI_Queue){stale_queue()}))
static int qfree_pending(fx_t *f)
{
    int rc;

    /* a receive the peer sends only after this free */
    QT_OK(MPI_Enqueue_start(&f->q, &f->a[0]));
    QT_OK(MPI_Enqueue_wait(&f->q, &f->a[0], MPI_STATUS_IGNORE));
    MPI_Barrier(W);
    rc = MPI_Queue_free(&f->q);
    QT_CHECK(MPI_QUEUE_NULL != f->q, "a refused MPI_Queue_free changed the handle");
    MPI_Barrier(W);
    /* the send on the other queue: q's wait holds back what follows it */
    QT_OK(MPI_Enqueue_start(&f->q2, &f->a[1]));
    QT_OK(MPI_Enqueue_wait(&f->q2, &f->a[1], MPI_STATUS_IGNORE));
    QT_OK(MPI_Queue_fence(&f->q2));
    QT_OK(MPI_Queue_fence(&f->q));
    return rc;
}
static int qfree_nowait(fx_t *f)
{
    int rc;

    /* starts enqueued, their waits not: the queue is not empty */
    start_a(f);
    MPI_Barrier(W);
    rc = MPI_Queue_free(&f->q);
    if (MPI_SUCCESS != rc) {
        finish_a(f);
    } else {
        QT_OK(MPI_Queue_init(&f->q, MPI_QUEUE_TYPE_DEFAULT, NULL));
    }
    return rc;
}

/* MPI_Queue_c2f / MPI_Queue_f2c: an invalid handle gives an invalid one
 * (no error class); what they return must be refused by MPI_Queue_fence */
static int fence_of(MPI_Queue h)
{
    return MPI_Queue_fence(&h);
}
static int c2f_qnull(fx_t *f)
{
    (void) f;
    return fence_of(MPI_Queue_f2c(MPI_Queue_c2f(MPI_QUEUE_NULL)));
}
static int c2f_stale(fx_t *f)
{
    MPI_Fint i = MPI_Queue_c2f(stale_queue());

    (void) f;
    QT_CHECK(MPI_Queue_c2f(MPI_QUEUE_NULL) == i, "MPI_Queue_c2f of a freed queue gave %d",
             (int) i);
    return fence_of(MPI_Queue_f2c(i));
}
CALL(f2c_neg, fence_of(MPI_Queue_f2c(-1)))
CALL(f2c_huge, fence_of(MPI_Queue_f2c(INT_MAX)))
CALL(f2c_freed, fence_of(MPI_Queue_f2c(freed_queue_index())))

/* MPI_Enqueue_start */
CALL(estart_qptr, MPI_Enqueue_start(NULL, &f->a[0]))
CALL(estart_qnull, MPI_Enqueue_start(&(MPI_Queue){MPI_QUEUE_NULL}, &f->a[0]))
CALL(estart_qstale, MPI_Enqueue_start(&(MPI_Queue){stale_queue()}, &f->a[0]))
CALL(estart_null, MPI_Enqueue_start(&f->q, NULL))
CALL(estart_rnull, MPI_Enqueue_start(&f->q, &(MPI_Request){RN}))
CALL(estart_rempty, MPI_Enqueue_start(&f->q, &(MPI_Request){RE}))
CALL(estart_nonpers, MPI_Enqueue_start(&f->q, &f->nb))
CALL(estart_greq, MPI_Enqueue_start(&f->q, &f->gr))
CALL(estart_unmatched, MPI_Enqueue_start(&f->q, &f->b[0]))
static int estart_active(fx_t *f)
{
    start_act(f);
    return MPI_Enqueue_start(&f->q, &f->act);
}
static int estart_freed(fx_t *f)
{
    MPI_Request r[2];
    int in = 0, out = 0;

    make_pair(W, f->tag + 3, &in, &out, r, 1);
    QT_OK(MPI_Request_free(&r[0]));
    QT_OK(MPI_Request_free(&r[1]));
    return MPI_Enqueue_start(&f->q, &r[0]);
}
static int estart_otherq(fx_t *f)
{
    int rc;

    QT_OK(MPI_Enqueue_start(&f->q2, &f->a[0]));
    rc = MPI_Enqueue_start(&f->q, &f->a[0]);
    QT_OK(MPI_Enqueue_start(&f->q2, &f->a[1]));
    QT_OK(MPI_Enqueue_waitall(&f->q2, 2, f->a, MPI_STATUSES_IGNORE));
    QT_OK(MPI_Queue_fence(&f->q2));
    return rc;
}
static int estart_samepending(fx_t *f)
{
    int rc;

    QT_OK(MPI_Enqueue_start(&f->q, &f->a[0]));
    rc = MPI_Enqueue_start(&f->q, &f->a[0]);
    QT_OK(MPI_Enqueue_start(&f->q, &f->a[1]));
    finish_a(f);
    return rc;
}

/* MPI_Enqueue_startall */
CALL(estartall_qptr, MPI_Enqueue_startall(NULL, 2, f->a))
CALL(estartall_qnull, MPI_Enqueue_startall(&(MPI_Queue){MPI_QUEUE_NULL}, 2, f->a))
CALL(estartall_qstale, MPI_Enqueue_startall(&(MPI_Queue){stale_queue()}, 2, f->a))
CALL(estartall_neg, MPI_Enqueue_startall(&f->q, -1, f->a))
CALL(estartall_min, MPI_Enqueue_startall(&f->q, INT_MIN, f->a))
CALL(estartall_huge, MPI_Enqueue_startall(&f->q, INT_MAX, NULL))
CALL(estartall_nullarr, MPI_Enqueue_startall(&f->q, 2, NULL))
CALL(estartall_rnull, MPI_Enqueue_startall(&f->q, 2, two(f, f->a[0], RN)))
CALL(estartall_rempty, MPI_Enqueue_startall(&f->q, 2, two(f, f->a[0], RE)))
CALL(estartall_dup, MPI_Enqueue_startall(&f->q, 2, two(f, f->a[0], f->a[0])))
CALL(estartall_nonpers, MPI_Enqueue_startall(&f->q, 2, two(f, f->a[0], f->nb)))
CALL(estartall_greq, MPI_Enqueue_startall(&f->q, 2, two(f, f->a[0], f->gr)))
CALL(estartall_unmatched, MPI_Enqueue_startall(&f->q, 2, two(f, f->a[0], f->b[0])))
static int estartall_active(fx_t *f)
{
    start_act(f);
    return MPI_Enqueue_startall(&f->q, 2, two(f, f->a[0], f->act));
}
static int estartall_otherq(fx_t *f)
{
    int rc;

    QT_OK(MPI_Enqueue_start(&f->q2, &f->a[1]));
    rc = MPI_Enqueue_startall(&f->q, 2, f->a);
    QT_OK(MPI_Enqueue_start(&f->q2, &f->a[0]));
    QT_OK(MPI_Enqueue_waitall(&f->q2, 2, f->a, MPI_STATUSES_IGNORE));
    QT_OK(MPI_Queue_fence(&f->q2));
    return rc;
}

/* MPI_Enqueue_wait: a is started on q first, unless said otherwise */
static int ewait_bad_queue(fx_t *f, MPI_Queue *bad)
{
    int rc;

    start_a(f);
    rc = MPI_Enqueue_wait(bad, &f->a[0], MPI_STATUS_IGNORE);
    finish_a(f);
    return rc;
}
CALL(ewait_qptr, ewait_bad_queue(f, NULL))
CALL(ewait_qnull, ewait_bad_queue(f, &(MPI_Queue){MPI_QUEUE_NULL}))
CALL(ewait_qstale, ewait_bad_queue(f, &(MPI_Queue){stale_queue()}))
static int ewait_bad_req(fx_t *f, MPI_Request *bad)
{
    int rc;

    start_a(f);
    rc = MPI_Enqueue_wait(&f->q, bad, MPI_STATUS_IGNORE);
    finish_a(f);
    return rc;
}
CALL(ewait_null, ewait_bad_req(f, NULL))
CALL(ewait_rnull, ewait_bad_req(f, &(MPI_Request){RN}))
CALL(ewait_rempty, ewait_bad_req(f, &(MPI_Request){RE}))
CALL(ewait_nonpers, ewait_bad_req(f, &f->nb))
CALL(ewait_greq, ewait_bad_req(f, &f->gr))
CALL(ewait_unmatched, ewait_bad_req(f, &f->b[0]))
CALL(ewait_notstarted, MPI_Enqueue_wait(&f->q, &f->a[0], MPI_STATUS_IGNORE))
static int ewait_otherq(fx_t *f)
{
    int rc;

    QT_OK(MPI_Enqueue_startall(&f->q2, 2, f->a));
    rc = MPI_Enqueue_wait(&f->q, &f->a[0], MPI_STATUS_IGNORE);
    QT_OK(MPI_Enqueue_waitall(&f->q2, 2, f->a, MPI_STATUSES_IGNORE));
    QT_OK(MPI_Queue_fence(&f->q2));
    return rc;
}
static int ewait_twice(fx_t *f)
{
    int rc;

    start_a(f);
    QT_OK(MPI_Enqueue_wait(&f->q, &f->a[0], MPI_STATUS_IGNORE));
    rc = MPI_Enqueue_wait(&f->q, &f->a[0], MPI_STATUS_IGNORE);
    QT_OK(MPI_Enqueue_wait(&f->q, &f->a[1], MPI_STATUS_IGNORE));
    QT_OK(MPI_Queue_fence(&f->q));
    return rc;
}

/* MPI_Enqueue_waitall: a is started on q first, unless said otherwise */
static int ewaitall_bad(fx_t *f, MPI_Queue *q, int count, MPI_Request *arr)
{
    int rc;

    start_a(f);
    rc = MPI_Enqueue_waitall(q, count, arr, MPI_STATUSES_IGNORE);
    finish_a(f);
    return rc;
}
CALL(ewaitall_qptr, ewaitall_bad(f, NULL, 2, f->a))
CALL(ewaitall_qnull, ewaitall_bad(f, &(MPI_Queue){MPI_QUEUE_NULL}, 2, f->a))
CALL(ewaitall_qstale, ewaitall_bad(f, &(MPI_Queue){stale_queue()}, 2, f->a))
CALL(ewaitall_neg, ewaitall_bad(f, &f->q, -1, f->a))
CALL(ewaitall_min, ewaitall_bad(f, &f->q, INT_MIN, f->a))
CALL(ewaitall_huge, ewaitall_bad(f, &f->q, INT_MAX, NULL))
CALL(ewaitall_nullarr, ewaitall_bad(f, &f->q, 2, NULL))
CALL(ewaitall_rnull, ewaitall_bad(f, &f->q, 2, two(f, f->a[0], RN)))
CALL(ewaitall_rempty, ewaitall_bad(f, &f->q, 2, two(f, f->a[0], RE)))
CALL(ewaitall_dup, ewaitall_bad(f, &f->q, 2, two(f, f->a[0], f->a[0])))
CALL(ewaitall_nonpers, ewaitall_bad(f, &f->q, 2, two(f, f->a[0], f->nb)))
CALL(ewaitall_greq, ewaitall_bad(f, &f->q, 2, two(f, f->a[0], f->gr)))
CALL(ewaitall_unmatched, ewaitall_bad(f, &f->q, 2, two(f, f->a[0], f->b[0])))
static int ewaitall_notstarted(fx_t *f)
{
    int rc;

    QT_OK(MPI_Enqueue_start(&f->q, &f->a[0]));
    rc = MPI_Enqueue_waitall(&f->q, 2, f->a, MPI_STATUSES_IGNORE);
    QT_OK(MPI_Enqueue_start(&f->q, &f->a[1]));
    finish_a(f);
    return rc;
}

/* MPI_Queue_fence */
CALL(fence_qptr, MPI_Queue_fence(NULL))
CALL(fence_qnull, MPI_Queue_fence(&(MPI_Queue){MPI_QUEUE_NULL}))
CALL(fence_qstale, MPI_Queue_fence(&(MPI_Queue){stale_queue()}))

/* requests of two sessions (MPI_COMM_WORLD's and a session's) in one call:
 * not erroneous in the chapter; either outcome must leave them usable */
static int mixed_sessions(fx_t *f, int enqueue)
{
    MPI_Request w[2], s[2], all[4];
    int w_in = -1, w_out = 3000 + rank, s_in = -1, s_out = 4000 + rank, rc;

    make_pair(W, f->tag + 3, &w_in, &w_out, w, enqueue);
    make_pair(scomm, f->tag + 3, &s_in, &s_out, s, enqueue);
    all[0] = w[0];
    all[1] = w[1];
    all[2] = s[0];
    all[3] = s[1];
    if (!enqueue) {
        rc = MPI_Matchall(4, all);
        if (MPI_SUCCESS != rc) {
            QT_OK(MPI_Matchall(2, w));
            QT_OK(MPI_Matchall(2, s));
            all[0] = w[0];
            all[1] = w[1];
            all[2] = s[0];
            all[3] = s[1];
        }
        exchange(&f->q, 4, all);
    } else {
        rc = MPI_Enqueue_startall(&f->q, 4, all);
        if (MPI_SUCCESS == rc) {
            QT_OK(MPI_Enqueue_waitall(&f->q, 4, all, MPI_STATUSES_IGNORE));
            QT_OK(MPI_Queue_fence(&f->q));
        } else {
            exchange(&f->q, 2, w);
            exchange(&f->q, 2, s);
        }
    }
    QT_CHECK(3000 + peer == w_in && 4000 + peer == s_in, "mixed sessions: received %d and %d",
             w_in, s_in);
    for (int i = 0; i < 4; ++i) {
        QT_OK(MPI_Request_free(&all[i]));
    }
    return rc;
}
CALL(matchall_sessions, mixed_sessions(f, 0))
CALL(estartall_sessions, mixed_sessions(f, 1))

/* MPIX deferred operations */
TOK(send_buf, MPIX_Send_def(NULL, 4, MPI_INT, peer, 1, W, &tk))
TOK(send_count, MPIX_Send_def(f->dummy, -1, MPI_INT, peer, 1, W, &tk))
TOK(send_type, MPIX_Send_def(f->dummy, 1, MPI_DATATYPE_NULL, peer, 1, W, &tk))
TOK(send_rank, MPIX_Send_def(f->dummy, 1, MPI_INT, 2, 1, W, &tk))
TOK(send_tag, MPIX_Send_def(f->dummy, 1, MPI_INT, peer, -2, W, &tk))
TOK(send_comm, MPIX_Send_def(f->dummy, 1, MPI_INT, peer, 1, MPI_COMM_NULL, &tk))
CALL(send_tok, MPIX_Send_def(f->dummy, 1, MPI_INT, peer, 1, W, NULL))
TOK(recv_buf, MPIX_Recv_def(NULL, 4, MPI_INT, peer, 1, W, MPI_STATUS_IGNORE, &tk))
TOK(recv_count, MPIX_Recv_def(f->dummy, -1, MPI_INT, peer, 1, W, MPI_STATUS_IGNORE, &tk))
TOK(recv_type, MPIX_Recv_def(f->dummy, 1, MPI_DATATYPE_NULL, peer, 1, W, MPI_STATUS_IGNORE, &tk))
TOK(recv_rank, MPIX_Recv_def(f->dummy, 1, MPI_INT, 2, 1, W, MPI_STATUS_IGNORE, &tk))
TOK(recv_tag, MPIX_Recv_def(f->dummy, 1, MPI_INT, peer, -5, W, MPI_STATUS_IGNORE, &tk))
TOK(recv_comm, MPIX_Recv_def(f->dummy, 1, MPI_INT, peer, 1, MPI_COMM_NULL, MPI_STATUS_IGNORE, &tk))
CALL(recv_tok, MPIX_Recv_def(f->dummy, 1, MPI_INT, peer, 1, W, MPI_STATUS_IGNORE, NULL))
TOK(sr_scount, MPIX_Sendrecv_def(f->dummy, -1, MPI_INT, peer, 1, f->dummy + 1, 1, MPI_INT, peer,
                                 1, W, MPI_STATUS_IGNORE, &tk))
TOK(sr_rcount, MPIX_Sendrecv_def(f->dummy, 1, MPI_INT, peer, 1, f->dummy + 1, -1, MPI_INT, peer,
                                 1, W, MPI_STATUS_IGNORE, &tk))
TOK(sr_comm, MPIX_Sendrecv_def(f->dummy, 1, MPI_INT, peer, 1, f->dummy + 1, 1, MPI_INT, peer, 1,
                               MPI_COMM_NULL, MPI_STATUS_IGNORE, &tk))
CALL(sr_tok, MPIX_Sendrecv_def(f->dummy, 1, MPI_INT, peer, 1, f->dummy + 1, 1, MPI_INT, peer, 1,
                               W, MPI_STATUS_IGNORE, NULL))
TOK(barrier_comm, MPIX_Barrier_def(MPI_COMM_NULL, &tk))
CALL(barrier_tok, MPIX_Barrier_def(W, NULL))
CALL(rbarrier_comm, MPIX_Remote_barrier(MPI_COMM_NULL, 0, MPI_INFO_NULL))
CALL(rbarrier_rank, MPIX_Remote_barrier(W, 2, MPI_INFO_NULL))
TOK(rbarrierdef_rank, MPIX_Remote_barrier_def(W, -7, MPI_INFO_NULL, &tk))
CALL(rbarrierdef_tok, MPIX_Remote_barrier_def(W, peer, MPI_INFO_NULL, NULL))
TOK(bcast_count, MPIX_Bcast_def(f->dummy, -1, MPI_INT, 0, W, &tk))
TOK(bcast_root, MPIX_Bcast_def(f->dummy, 1, MPI_INT, 2, W, &tk))
TOK(bcast_comm, MPIX_Bcast_def(f->dummy, 1, MPI_INT, 0, MPI_COMM_NULL, &tk))
CALL(bcast_tok, MPIX_Bcast_def(f->dummy, 1, MPI_INT, 0, W, NULL))
TOK(reduce_count, MPIX_Reduce_def(f->dummy, f->dummy + 1, -1, MPI_INT, MPI_SUM, 0, W, &tk))
TOK(reduce_op, MPIX_Reduce_def(f->dummy, f->dummy + 1, 1, MPI_INT, MPI_OP_NULL, 0, W, &tk))
TOK(reduce_root, MPIX_Reduce_def(f->dummy, f->dummy + 1, 1, MPI_INT, MPI_SUM, -5, W, &tk))
CALL(reduce_tok, MPIX_Reduce_def(f->dummy, f->dummy + 1, 1, MPI_INT, MPI_SUM, 0, W, NULL))
TOK(allred_count, MPIX_Allreduce_def(f->dummy, f->dummy + 1, -1, MPI_INT, MPI_SUM, W, &tk))
TOK(allred_type, MPIX_Allreduce_def(f->dummy, f->dummy + 1, 1, MPI_DATATYPE_NULL, MPI_SUM, W, &tk))
TOK(allred_op, MPIX_Allreduce_def(f->dummy, f->dummy + 1, 1, MPI_INT, MPI_OP_NULL, W, &tk))
CALL(allred_tok, MPIX_Allreduce_def(f->dummy, f->dummy + 1, 1, MPI_INT, MPI_SUM, W, NULL))
TOK(sendc_count, MPIX_Send_c_def(f->dummy, -1, MPI_INT, peer, 1, W, &tk))
TOK(recvc_count, MPIX_Recv_c_def(f->dummy, -1, MPI_INT, peer, 1, W, MPI_STATUS_IGNORE, &tk))
TOK(src_count, MPIX_Sendrecv_c_def(f->dummy, -1, MPI_INT, peer, 1, f->dummy + 1, 1, MPI_INT, peer,
                                   1, W, MPI_STATUS_IGNORE, &tk))
TOK(bcastc_count, MPIX_Bcast_c_def(f->dummy, -1, MPI_INT, 0, W, &tk))
TOK(reducec_count, MPIX_Reduce_c_def(f->dummy, f->dummy + 1, -1, MPI_INT, MPI_SUM, 0, W, &tk))
TOK(allredc_count, MPIX_Allreduce_c_def(f->dummy, f->dummy + 1, -1, MPI_INT, MPI_SUM, W, &tk))
TOK(op_fn, MPIX_Op_def(NULL, NULL, &tk))
CALL(op_tok, MPIX_Op_def(noop_cb, NULL, NULL))
TOK(copydef_size, MPIX_Copy_mem_def(f->dummy, f->dummy + 2, -1, &tk))
TOK(copydef_dst, MPIX_Copy_mem_def(NULL, f->dummy, sizeof(int), &tk))
TOK(copydef_src, MPIX_Copy_mem_def(f->dummy, NULL, sizeof(int), &tk))
TOK(copydef_overlap, MPIX_Copy_mem_def(f->dummy, f->dummy + 1, 2 * sizeof(int), &tk))
CALL(copydef_tok, MPIX_Copy_mem_def(f->dummy, f->dummy + 2, sizeof(int), NULL))
CALL(copy_size, MPIX_Copy_mem(f->dummy, f->dummy + 2, -1))
CALL(copy_dst, MPIX_Copy_mem(NULL, f->dummy, sizeof(int)))
CALL(copy_src, MPIX_Copy_mem(f->dummy, NULL, sizeof(int)))
CALL(copy_overlap, MPIX_Copy_mem(f->dummy, f->dummy + 1, 2 * sizeof(int)))
TOK(alloc_size, MPIX_Alloc_mem_def(-1, MPI_INFO_NULL, &(void *){NULL}, &tk))
TOK(alloc_base, MPIX_Alloc_mem_def(16, MPI_INFO_NULL, NULL, &tk))
CALL(alloc_tok, MPIX_Alloc_mem_def(16, MPI_INFO_NULL, &(void *){NULL}, NULL))
CALL(freemem_tok, MPIX_Free_mem_def(NULL, NULL))
TOK(fopen_comm, MPIX_File_open_def(MPI_COMM_NULL, "/tmp/qt_hostile", MPI_MODE_RDONLY,
                                   MPI_INFO_NULL, &(MPI_File){MPI_FILE_NULL}, &tk))
CALL(fopen_tok, MPIX_File_open_def(MPI_COMM_SELF, "/tmp/qt_hostile", MPI_MODE_RDONLY,
                                   MPI_INFO_NULL, &(MPI_File){MPI_FILE_NULL}, NULL))
TOK(fclose_fh, MPIX_File_close_def(NULL, &tk))
CALL(fclose_tok, MPIX_File_close_def(&(MPI_File){MPI_FILE_NULL}, NULL))
TOK(fsize_fh, MPIX_File_get_size_def(MPI_FILE_NULL, &(MPI_Offset){0}, &tk))
TOK(fread_fh, MPIX_File_read_def(MPI_FILE_NULL, f->dummy, 1, MPI_INT, MPI_STATUS_IGNORE, &tk))
TOK(freadat_fh, MPIX_File_read_at_def(MPI_FILE_NULL, 0, f->dummy, 1, MPI_INT,
                                      MPI_STATUS_IGNORE, &tk))
TOK(fwriteat_fh, MPIX_File_write_at_def(MPI_FILE_NULL, 0, f->dummy, 1, MPI_INT,
                                        MPI_STATUS_IGNORE, &tk))
TOK(fwriteatall_fh, MPIX_File_write_at_all_def(MPI_FILE_NULL, 0, f->dummy, 1, MPI_INT,
                                               MPI_STATUS_IGNORE, &tk))
TOK(fwriteatallc_fh, MPIX_File_write_at_all_c_def(MPI_FILE_NULL, 0, f->dummy, 1, MPI_INT,
                                                  MPI_STATUS_IGNORE, &tk))
TOK(freadc_fh, MPIX_File_read_c_def(MPI_FILE_NULL, f->dummy, 1, MPI_INT, MPI_STATUS_IGNORE, &tk))
TOK(freadatc_fh, MPIX_File_read_at_c_def(MPI_FILE_NULL, 0, f->dummy, 1, MPI_INT,
                                         MPI_STATUS_IGNORE, &tk))
TOK(fwriteatc_fh, MPIX_File_write_at_c_def(MPI_FILE_NULL, 0, f->dummy, 1, MPI_INT,
                                           MPI_STATUS_IGNORE, &tk))

/* MPIX_Start_def / MPIX_Wait_def: pointers checked at the call, the
 * request when the token runs (MPIX_Execute returns its class) */
TOK(startdef_null, MPIX_Start_def(NULL, &tk))
CALL(startdef_tok, MPIX_Start_def(&f->a[0], NULL))
TOK(waitdef_null, MPIX_Wait_def(NULL, MPI_STATUS_IGNORE, &tk))
CALL(waitdef_tok, MPIX_Wait_def(&f->a[0], MPI_STATUS_IGNORE, NULL))
static int run_def(MPI_Request *req, int wait)
{
    MPIX_Token tk = MPIX_TOKEN_NULL;
    int rc;

    if (wait) {
        QT_OK(MPIX_Wait_def(req, MPI_STATUS_IGNORE, &tk));
    } else {
        QT_OK(MPIX_Start_def(req, &tk));
    }
    rc = MPIX_Execute(tk, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL);
    tok_drop(&tk);
    return rc;
}
CALL(startdef_rnull, run_def(&(MPI_Request){RN}, 0))
CALL(startdef_rempty, run_def(&(MPI_Request){RE}, 0))
CALL(startdef_nonpers, run_def(&f->nb, 0))
static int startdef_active(fx_t *f)
{
    start_act(f);
    return run_def(&f->act, 0);
}
CALL(waitdef_rnull, run_def(&(MPI_Request){RN}, 1))
CALL(waitdef_nonpers, run_def(&f->nb, 1))

/* MPIX_Token_free */
CALL(tfree_null, MPIX_Token_free(NULL))
CALL(tfree_tnull, MPIX_Token_free(&(MPIX_Token){MPIX_TOKEN_NULL}))
CALL(tfree_stale, MPIX_Token_free(&(MPIX_Token){stale_token()}))
CALL(tfree_consumed, MPIX_Token_free(&(MPIX_Token){consumed_token(f)}))

/* MPIX_Execute, MPIX_Iexecute, MPIX_Execute_init */
CALL(exec_tnull, MPIX_Execute(MPIX_TOKEN_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL))
CALL(exec_stale, MPIX_Execute(stale_token(), MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL))
CALL(exec_consumed, MPIX_Execute(consumed_token(f), MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL))
static int exec_unbound(fx_t *f)
{
    MPIX_Token tk = unbound_token();
    int rc = MPIX_Execute(tk, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL);

    (void) f;
    tok_drop(&tk);
    return rc;
}
CALL(exec_locneg, MPIX_Execute(f->t, MPI_INFO_NULL, -1, NULL))
CALL(exec_loc99, MPIX_Execute(f->t, MPI_INFO_NULL, 99, NULL))
CALL(exec_hip, MPIX_Execute(f->t, MPI_INFO_NULL, MPIX_OFFLOAD_HIP, NULL))
CALL(exec_nitro, MPIX_Execute(f->t, MPI_INFO_NULL, MPIX_OFFLOAD_NITRO, NULL))
CALL(exec_cuda, MPIX_Execute(f->t, MPI_INFO_NULL, MPIX_OFFLOAD_CUDA, NULL))
CALL(exec_pthread, MPIX_Execute(f->t, MPI_INFO_NULL, MPIX_OFFLOAD_PTHREAD, NULL))
static int iexec_wrap(MPIX_Token t, int loc, int null_req)
{
    MPI_Request r = RN;
    int rc = MPIX_Iexecute(t, MPI_INFO_NULL, loc, NULL, null_req ? NULL : &r);

    if (RN != r) {
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    return rc;
}
CALL(iexec_tnull, iexec_wrap(MPIX_TOKEN_NULL, MPIX_LOC_INPLACE, 0))
CALL(iexec_stale, iexec_wrap(stale_token(), MPIX_LOC_INPLACE, 0))
CALL(iexec_loc, iexec_wrap(f->t, -1, 0))
CALL(iexec_req, iexec_wrap(f->t, MPIX_LOC_INPLACE, 1))
static int einit_wrap(MPIX_Token t, int loc, int null_req)
{
    MPI_Request r = RN;
    int rc = MPIX_Execute_init(t, MPI_INFO_NULL, loc, NULL, null_req ? NULL : &r);

    if (RN != r) {
        MPI_Request_free(&r);
    }
    return rc;
}
CALL(einit_tnull, einit_wrap(MPIX_TOKEN_NULL, MPIX_LOC_INPLACE, 0))
CALL(einit_stale, einit_wrap(stale_token(), MPIX_LOC_INPLACE, 0))
CALL(einit_loc, einit_wrap(f->t, 77, 0))
CALL(einit_req, einit_wrap(f->t, MPIX_LOC_INPLACE, 1))

/* MPIX_Execute_get_error */
CALL(geterr_rnull, MPIX_Execute_get_error(RN, &(int){0}, &(int){0}))
CALL(geterr_rempty, MPIX_Execute_get_error(RE, &(int){0}, &(int){0}))
CALL(geterr_p2p, MPIX_Execute_get_error(f->a[0], &(int){0}, &(int){0}))
CALL(geterr_nonpers, MPIX_Execute_get_error(f->nb, &(int){0}, &(int){0}))
CALL(geterr_greq, MPIX_Execute_get_error(f->gr, &(int){0}, &(int){0}))
static int geterr_notrun(fx_t *f)
{
    MPI_Request r = RN;
    int rc;

    QT_OK(MPIX_Execute_init(f->t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &r));
    rc = MPIX_Execute_get_error(r, &(int){0}, &(int){0});
    QT_OK(MPI_Request_free(&r));
    return rc;
}
static int geterr_errcode(fx_t *f)
{
    MPI_Request r = RN;
    int rc, e = -1, op = -1;

    QT_OK(MPIX_Execute_init(f->t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &r));
    QT_OK(MPI_Start(&r));
    QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    rc = MPIX_Execute_get_error(r, NULL, &op);
    QT_OK(MPIX_Execute_get_error(r, &e, &op));
    QT_CHECK(MPI_SUCCESS == e, "a completed execution reports error %d", e);
    QT_OK(MPI_Request_free(&r));
    t_count = 0; /* the callback ran once more */
    return rc;
}

/* MPIX streams */
static int screate_wrap(int loc, void *info, int null_out)
{
    MPIX_Stream s = MPIX_STREAM_NULL;
    int rc = MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, loc, info, null_out ? NULL : &s);

    if (MPIX_STREAM_NULL != s) {
        MPIX_Stream_free(&s);
    }
    return rc;
}
CALL(screate_null, screate_wrap(MPIX_LOC_INPLACE, NULL, 1))
CALL(screate_locneg, screate_wrap(-1, NULL, 0))
CALL(screate_loc99, screate_wrap(99, NULL, 0))
CALL(screate_hip, screate_wrap(MPIX_OFFLOAD_HIP, NULL, 0))
CALL(screate_nitro, screate_wrap(MPIX_OFFLOAD_NITRO, NULL, 0))
CALL(screate_cuda, screate_wrap(MPIX_OFFLOAD_CUDA, NULL, 0))
CALL(screate_pthread, screate_wrap(MPIX_OFFLOAD_PTHREAD, NULL, 0))
KEEP(senq_snull, MPIX_Stream_enqueue(MPIX_STREAM_NULL, &tk))
KEEP(senq_sstale, MPIX_Stream_enqueue(stale_stream(), &tk))
CALL(senq_null, MPIX_Stream_enqueue(f->s, NULL))
CALL(senq_tnull, MPIX_Stream_enqueue(f->s, &(MPIX_Token){MPIX_TOKEN_NULL}))
CALL(senq_tstale, MPIX_Stream_enqueue(f->s, &(MPIX_Token){stale_token()}))
CALL(senq_consumed, MPIX_Stream_enqueue(f->s, &(MPIX_Token){consumed_token(f)}))
static int senq_unbound(fx_t *f)
{
    MPIX_Token tk = unbound_token();
    int rc = MPIX_Stream_enqueue(f->s, &tk);

    QT_CHECK(MPI_SUCCESS == rc || MPIX_TOKEN_NULL != tk, "a refused enqueue consumed the token");
    tok_drop(&tk);
    return rc;
}
CALL(spause_null, MPIX_Stream_pause(MPIX_STREAM_NULL))
CALL(spause_stale, MPIX_Stream_pause(stale_stream()))
CALL(sresume_null, MPIX_Stream_resume(MPIX_STREAM_NULL))
CALL(sresume_stale, MPIX_Stream_resume(stale_stream()))
CALL(ssync_null, MPIX_Stream_sync(MPIX_STREAM_NULL))
CALL(ssync_stale, MPIX_Stream_sync(stale_stream()))
CALL(sisp_null, MPIX_Stream_is_paused(MPIX_STREAM_NULL, &(int){0}))
CALL(sisp_stale, MPIX_Stream_is_paused(stale_stream(), &(int){0}))
CALL(sisp_flag, MPIX_Stream_is_paused(f->s, NULL))
static int sisync_wrap(MPIX_Stream s, int null_req)
{
    MPI_Request r = RN;
    int rc = MPIX_Stream_isync(s, null_req ? NULL : &r);

    if (RN != r) {
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    return rc;
}
CALL(sisync_null, sisync_wrap(MPIX_STREAM_NULL, 0))
CALL(sisync_stale, sisync_wrap(stale_stream(), 0))
CALL(sisync_req, sisync_wrap(f->s, 1))
CALL(sgeterr_null, MPIX_Stream_get_error(MPIX_STREAM_NULL, &(int){0}, &(MPI_Count){0}))
CALL(sgeterr_stale, MPIX_Stream_get_error(stale_stream(), &(int){0}, &(MPI_Count){0}))
CALL(sgeterr_code, MPIX_Stream_get_error(f->s, NULL, &(MPI_Count){0}))
static int sdup_wrap(MPIX_Stream s, int null_out)
{
    MPIX_Stream n = MPIX_STREAM_NULL;
    int rc = MPIX_Stream_dup(s, MPI_INFO_NULL, null_out ? NULL : &n);

    if (MPIX_STREAM_NULL != n) {
        MPIX_Stream_free(&n);
    }
    return rc;
}
CALL(sdup_null, sdup_wrap(MPIX_STREAM_NULL, 0))
CALL(sdup_stale, sdup_wrap(stale_stream(), 0))
CALL(sdup_out, sdup_wrap(f->s, 1))
CALL(sfree_null, MPIX_Stream_free(NULL))
CALL(sfree_snull, MPIX_Stream_free(&(MPIX_Stream){MPIX_STREAM_NULL}))
CALL(sfree_stale, MPIX_Stream_free(&(MPIX_Stream){stale_stream()}))

/* MPIX graphs */
CALL(gcreate_null, MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, NULL))
static int gdup_wrap(MPIX_Graph g, int null_out)
{
    MPIX_Graph n = MPIX_GRAPH_NULL;
    int rc = MPIX_Graph_dup(g, MPI_INFO_NULL, null_out ? NULL : &n);

    if (MPIX_GRAPH_NULL != n) {
        MPIX_Graph_free(&n);
    }
    return rc;
}
CALL(gdup_null, gdup_wrap(MPIX_GRAPH_NULL, 0))
CALL(gdup_stale, gdup_wrap(stale_graph(), 0))
CALL(gdup_out, gdup_wrap(f->g, 1))
CALL(gfree_null, MPIX_Graph_free(NULL))
CALL(gfree_gnull, MPIX_Graph_free(&(MPIX_Graph){MPIX_GRAPH_NULL}))
CALL(gfree_stale, MPIX_Graph_free(&(MPIX_Graph){stale_graph()}))
KEEP(gadd_gnull, MPIX_Graph_add(MPIX_GRAPH_NULL, &tk, NULL, MPIX_DEP_NONE))
KEEP(gadd_gstale, MPIX_Graph_add(stale_graph(), &tk, NULL, MPIX_DEP_NONE))
CALL(gadd_null, MPIX_Graph_add(f->g, NULL, NULL, MPIX_DEP_NONE))
CALL(gadd_tnull, MPIX_Graph_add(f->g, &(MPIX_Token){MPIX_TOKEN_NULL}, NULL, MPIX_DEP_NONE))
CALL(gadd_tstale, MPIX_Graph_add(f->g, &(MPIX_Token){stale_token()}, NULL, MPIX_DEP_NONE))
KEEP(gadd_dep99, MPIX_Graph_add(f->g, &tk, NULL, 99))
KEEP(gadd_depneg, MPIX_Graph_add(f->g, &tk, NULL, -3))
CALL(gjoin_gnull, MPIX_Graph_join(MPIX_GRAPH_NULL, 1, (int[]){add_noop(f->g)}, &(int){0}))
CALL(gjoin_neg, MPIX_Graph_join(f->g, -1, (int[]){add_noop(f->g)}, &(int){0}))
CALL(gjoin_min, MPIX_Graph_join(f->g, INT_MIN, (int[]){add_noop(f->g)}, &(int){0}))
CALL(gjoin_huge, MPIX_Graph_join(f->g, INT_MAX, NULL, &(int){0}))
CALL(gjoin_nullarr, MPIX_Graph_join(f->g, 2, NULL, &(int){0}))
CALL(gjoin_unknown, MPIX_Graph_join(f->g, 2, (int[]){add_noop(f->g), 77}, &(int){0}))
CALL(gnop_gnull, MPIX_Graph_nop(MPIX_GRAPH_NULL, &(int){0}, MPIX_DEP_NONE))
CALL(gnop_gstale, MPIX_Graph_nop(stale_graph(), &(int){0}, MPIX_DEP_NONE))
CALL(gnop_dep99, MPIX_Graph_nop(f->g, &(int){0}, 99))
CALL(gnop_depneg, MPIX_Graph_nop(f->g, &(int){0}, -3))
CALL(gsetdep_gnull, MPIX_Graph_set_dep_op(MPIX_GRAPH_NULL, 1, MPIX_DEP_NONE))
CALL(gsetdep_op99, MPIX_Graph_set_dep_op(f->g, 99, add_noop(f->g)))
CALL(gsetdep_dep99, MPIX_Graph_set_dep_op(f->g, add_noop(f->g), 99))
static int gsetdep_self(fx_t *f)
{
    int x = add_noop(f->g);

    return MPIX_Graph_set_dep_op(f->g, x, x);
}
/* if/else and while: branch graphs made and freed in the row */
static int gif_wrap(fx_t *f, MPIX_Graph g, int var, int bad_true, int dep)
{
    MPIX_Graph tg = MPIX_GRAPH_NULL, fg = MPIX_GRAPH_NULL;
    int rc;

    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &tg));
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &fg));
    QT_OK(MPIX_Graph_var_create(f->g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    rc = MPIX_Graph_if_else(g, var, bad_true ? stale_graph() : tg, fg, &(int){0}, dep);
    QT_OK(MPIX_Graph_free(&tg));
    QT_OK(MPIX_Graph_free(&fg));
    return rc;
}
CALL(gif_gnull, gif_wrap(f, MPIX_GRAPH_NULL, 1, 0, MPIX_DEP_NONE))
CALL(gif_varneg, gif_wrap(f, f->g, -1, 0, MPIX_DEP_NONE))
CALL(gif_varmax, gif_wrap(f, f->g, MPIX_GRAPH_VAR_MAX, 0, MPIX_DEP_NONE))
CALL(gif_tstale, gif_wrap(f, f->g, 1, 1, MPIX_DEP_NONE))
CALL(gif_dep99, gif_wrap(f, f->g, 1, 0, 99))
static int gwhile_wrap(fx_t *f, MPIX_Graph g, int var, int sub_kind, int dep)
{
    MPIX_Graph sub = MPIX_GRAPH_NULL;
    int rc;

    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &sub));
    QT_OK(MPIX_Graph_var_create(f->g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    rc = MPIX_Graph_while(g, var,
                          0 == sub_kind ? sub : (1 == sub_kind ? MPIX_GRAPH_NULL : stale_graph()),
                          &(int){0}, dep);
    QT_OK(MPIX_Graph_free(&sub));
    return rc;
}
CALL(gwhile_gnull, gwhile_wrap(f, MPIX_GRAPH_NULL, 1, 0, MPIX_DEP_NONE))
CALL(gwhile_varneg, gwhile_wrap(f, f->g, -1, 0, MPIX_DEP_NONE))
CALL(gwhile_subnull, gwhile_wrap(f, f->g, 1, 1, MPIX_DEP_NONE))
CALL(gwhile_substale, gwhile_wrap(f, f->g, 1, 2, MPIX_DEP_NONE))
CALL(gwhile_dep99, gwhile_wrap(f, f->g, 1, 0, 99))
CALL(ggoto_gnull, MPIX_Graph_goto(MPIX_GRAPH_NULL, 1, MPIX_DEP_NONE))
CALL(ggoto_dest99, MPIX_Graph_goto(f->g, 99, add_noop(f->g)))
CALL(ggoto_dep99, MPIX_Graph_goto(f->g, add_noop(f->g), 99))
TOK(gdef_gnull, MPIX_Graph_def(MPIX_GRAPH_NULL, MPI_INFO_NULL, &tk))
TOK(gdef_gstale, MPIX_Graph_def(stale_graph(), MPI_INFO_NULL, &tk))
CALL(gdef_tok, MPIX_Graph_def(f->g, MPI_INFO_NULL, NULL))
CALL(gvc_gnull, MPIX_Graph_var_create(MPIX_GRAPH_NULL, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT))
CALL(gvc_idneg, MPIX_Graph_var_create(f->g, -1, MPIX_GRAPH_VAR_LOCAL, MPI_INT))
CALL(gvc_idmax, MPIX_Graph_var_create(f->g, MPIX_GRAPH_VAR_MAX, MPIX_GRAPH_VAR_LOCAL, MPI_INT))
CALL(gvc_idhuge, MPIX_Graph_var_create(f->g, INT_MAX, MPIX_GRAPH_VAR_LOCAL, MPI_INT))
CALL(gvc_scope0, MPIX_Graph_var_create(f->g, 1, 0, MPI_INT))
CALL(gvc_scope99, MPIX_Graph_var_create(f->g, 1, 99, MPI_INT))
CALL(gvc_type, MPIX_Graph_var_create(f->g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_DATATYPE_NULL))
static int gvc_twice(fx_t *f)
{
    QT_OK(MPIX_Graph_var_create(f->g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    return MPIX_Graph_var_create(f->g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT);
}
static int gvar_local(fx_t *f)
{
    QT_OK(MPIX_Graph_var_create(f->g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    return 1;
}
CALL(gvs_gnull, MPIX_Graph_var_set(MPIX_GRAPH_NULL, 1, &(int){1}))
CALL(gvs_unknown, MPIX_Graph_var_set(f->g, 7, &(int){1}))
CALL(gvs_idneg, MPIX_Graph_var_set(f->g, -1, &(int){1}))
CALL(gvs_value, MPIX_Graph_var_set(f->g, gvar_local(f), NULL))
CALL(gvg_gnull, MPIX_Graph_var_get(MPIX_GRAPH_NULL, 1, &(int){1}))
CALL(gvg_unknown, MPIX_Graph_var_get(f->g, 7, &(int){1}))
CALL(gvg_value, MPIX_Graph_var_get(f->g, gvar_local(f), NULL))
CALL(gsp_gnull, MPIX_Graph_set_param(MPIX_GRAPH_NULL, 1, &(int){1}))
CALL(gsp_unknown, MPIX_Graph_set_param(f->g, 7, &(int){1}))
CALL(gsp_local, MPIX_Graph_set_param(f->g, gvar_local(f), &(int){1}))
static int gsp_value(fx_t *f)
{
    MPIX_Graph h = MPIX_GRAPH_NULL;
    int rc;

    (void) f;
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &h));
    QT_OK(MPIX_Graph_var_create(h, 1, MPIX_GRAPH_VAR_VAL_PARAM, MPI_INT));
    rc = MPIX_Graph_set_param(h, 1, NULL);
    QT_OK(MPIX_Graph_set_param(h, 1, &(int){5}));
    QT_OK(MPIX_Graph_free(&h));
    return rc;
}
CALL(gvr_gnull, MPIX_Graph_var_reduce(MPIX_GRAPH_NULL, 1, 1, MPI_SUM, 1, &(int){0}, MPIX_DEP_NONE))
CALL(gvr_in, MPIX_Graph_var_reduce(f->g, -1, gvar_local(f), MPI_SUM, 1, &(int){0}, MPIX_DEP_NONE))
CALL(gvr_opnull, MPIX_Graph_var_reduce(f->g, gvar_local(f), 1, MPI_OP_NULL, 1, &(int){0},
                                       MPIX_DEP_NONE))
CALL(gvr_maxloc, MPIX_Graph_var_reduce(f->g, gvar_local(f), 1, MPI_MAXLOC, 1, &(int){0},
                                       MPIX_DEP_NONE))
CALL(gvr_dep99, MPIX_Graph_var_reduce(f->g, gvar_local(f), 1, MPI_SUM, 1, &(int){0}, 99))

/* ------------------------------------------------------------------ */
/* the table                                                           */

#define B(c) (UINT64_C(1) << (c))
#define OK_ B(MPI_SUCCESS)
#define ARG B(MPI_ERR_ARG)
#define REQ B(MPI_ERR_REQUEST)
#define CNT B(MPI_ERR_COUNT)
#define TYP B(MPI_ERR_TYPE)
#define TAG B(MPI_ERR_TAG)
#define COM B(MPI_ERR_COMM)
#define RNK B(MPI_ERR_RANK)
#define ROO B(MPI_ERR_ROOT)
#define OPE B(MPI_ERR_OP)
#define BUF B(MPI_ERR_BUFFER)
#define FIL B(MPI_ERR_FILE)
#define PEN B(MPI_ERR_PENDING)
#define SIZ B(MPI_ERR_SIZE)

enum { NEED_NONE = 0, NEED_SESSION = 1 };
enum { DEFECT_NONE = 0, DEFECT = 1, DEFECT_FATAL = 2 };

typedef struct {
    const char *func;
    int arg;            /* 1-based index of the argument replaced */
    const char *kind;   /* the bad value */
    int (*call)(fx_t *f);
    uint64_t ok;        /* the classes it may return */
    int need;
    int defect;         /* a known defect of the library (still a failure) */
    const char *what;   /* the defect */
} row_t;

/* clang-format off */
static const row_t rows[] = {
    {"MPI_Match", 1, "NULL pointer", match_null, REQ | ARG, 0, 0, NULL},
    {"MPI_Match", 1, "MPI_REQUEST_NULL", match_rnull, REQ, 0, 0, NULL},
    {"MPI_Match", 1, "MPI_REQUEST_EMPTY", match_rempty, REQ, 0, 0, NULL},
    {"MPI_Match", 1, "nonpersistent request", match_nonpers, REQ, 0, 0, NULL},
    {"MPI_Match", 1, "generalized request", match_greq, REQ, 0, 0, NULL},
    {"MPI_Match", 1, "already matched", match_matched, REQ, 0, 0, NULL},
    {"MPI_Match", 1, "active persistent request", match_active, REQ, 0, 0, NULL},
    {"MPI_Match", 1, "freed (the handle MPI_Request_free wrote back)", match_freed, REQ, 0, 0, NULL},
    {"MPI_Match", 1, "start enqueued on a queue", match_pending, REQ, 0, 0, NULL},
    {"MPI_Imatch", 1, "NULL pointer", imatch_null1, REQ | ARG, 0, 0, NULL},
    {"MPI_Imatch", 1, "MPI_REQUEST_NULL", imatch_rnull, REQ, 0, 0, NULL},
    {"MPI_Imatch", 1, "MPI_REQUEST_EMPTY", imatch_rempty, REQ, 0, 0, NULL},
    {"MPI_Imatch", 1, "nonpersistent request", imatch_nonpers, REQ, 0, 0, NULL},
    {"MPI_Imatch", 1, "generalized request", imatch_greq, REQ, 0, 0, NULL},
    {"MPI_Imatch", 1, "already matched", imatch_matched, REQ, 0, 0, NULL},
    {"MPI_Imatch", 1, "active persistent request", imatch_active, REQ, 0, 0, NULL},
    {"MPI_Imatch", 2, "NULL pointer (tomatch left unmatched)", imatch_null2, REQ | ARG, 0, 0, NULL},
    {"MPI_Matchall", 1, "count -1", matchall_neg, ARG, 0, 0, NULL},
    {"MPI_Matchall", 1, "count INT_MIN", matchall_min, ARG, 0, 0, NULL},
    {"MPI_Matchall", 1, "count INT_MAX, NULL array", matchall_huge, ARG, 0, 0, NULL},
    {"MPI_Matchall", 2, "NULL array, count 2", matchall_nullarr, ARG, 0, 0, NULL},
    {"MPI_Matchall", 2, "MPI_REQUEST_NULL in the array", matchall_rnull, REQ, 0, 0, NULL},
    {"MPI_Matchall", 2, "MPI_REQUEST_EMPTY in the array", matchall_rempty, REQ, 0, 0, NULL},
    {"MPI_Matchall", 2, "a request twice", matchall_dup, REQ, 0, 0, NULL},
    {"MPI_Matchall", 2, "a nonpersistent request in the array", matchall_nonpers, REQ, 0, 0, NULL},
    {"MPI_Matchall", 2, "a generalized request in the array", matchall_greq, REQ, 0, 0, NULL},
    {"MPI_Matchall", 2, "an already matched request in the array", matchall_matched, REQ, 0, 0, NULL},
    {"MPI_Matchall", 2, "an active request in the array", matchall_active, REQ, 0, 0, NULL},
    {"MPI_Matchall", 2, "requests of two sessions (not erroneous)", matchall_sessions, OK_ | REQ, NEED_SESSION, 0, NULL},
    {"MPI_Imatchall", 1, "count -1", imatchall_neg, ARG, 0, 0, NULL},
    {"MPI_Imatchall", 1, "count INT_MIN", imatchall_min, ARG, 0, 0, NULL},
    {"MPI_Imatchall", 1, "count INT_MAX, NULL array", imatchall_huge, ARG, 0, 0, NULL},
    {"MPI_Imatchall", 2, "NULL array, count 2", imatchall_nullarr, ARG, 0, 0, NULL},
    {"MPI_Imatchall", 2, "MPI_REQUEST_NULL in the array", imatchall_rnull, REQ, 0, 0, NULL},
    {"MPI_Imatchall", 2, "MPI_REQUEST_EMPTY in the array", imatchall_rempty, REQ, 0, 0, NULL},
    {"MPI_Imatchall", 2, "a request twice", imatchall_dup, REQ, 0, 0, NULL},
    {"MPI_Imatchall", 2, "a nonpersistent request in the array", imatchall_nonpers, REQ, 0, 0, NULL},
    {"MPI_Imatchall", 2, "a generalized request in the array", imatchall_greq, REQ, 0, 0, NULL},
    {"MPI_Imatchall", 2, "an already matched request in the array", imatchall_matched, REQ, 0, 0, NULL},
    {"MPI_Imatchall", 3, "NULL pointer", imatchall_nullreq, ARG | REQ, 0, 0, NULL},
    {"MPI_Is_matched", 1, "MPI_REQUEST_NULL", ism_rnull, REQ, 0, 0, NULL},
    {"MPI_Is_matched", 1, "MPI_REQUEST_EMPTY", ism_rempty, REQ, 0, 0, NULL},
    {"MPI_Is_matched", 1, "nonpersistent request", ism_nonpers, REQ, 0, 0, NULL},
    {"MPI_Is_matched", 1, "generalized request", ism_greq, REQ, 0, 0, NULL},
    {"MPI_Is_matched", 2, "NULL pointer", ism_nullflag, ARG, 0, 0, NULL},
    {"MPI_Queue_init", 1, "NULL pointer", qinit_null, ARG, 0, 0, NULL},
    {"MPI_Queue_init", 2, "type -1", qinit_neg, ARG, 0, 0, NULL},
    {"MPI_Queue_init", 2, "type INT_MIN", qinit_min, ARG, 0, 0, NULL},
    {"MPI_Queue_init", 2, "type INT_MAX", qinit_max, ARG, 0, 0, NULL},
    {"MPI_Queue_init", 3, "CUDA type, NULL external", qinit_cuda, ARG, 0, 0, NULL},
    {"MPI_Queue_init", 3, "HIP type, NULL external", qinit_hip, ARG, 0, 0, NULL},
    {"MPI_Queue_free", 1, "NULL pointer", qfree_null, ARG, 0, 0, NULL},
    {"MPI_Queue_free", 1, "MPI_QUEUE_NULL", qfree_qnull, ARG, 0, 0, NULL},
    {"MPI_Queue_free", 1, "stale copy of a freed queue", qfree_stale, ARG, 0, 0, NULL},
    {"MPI_Queue_free", 1, "queue with a pending operation", qfree_pending, PEN, 0, 0, NULL},
    {"MPI_Queue_free", 1, "starts enqueued, their waits not", qfree_nowait, PEN, 0, 0, NULL},
    {"MPI_Queue_c2f", 1, "MPI_QUEUE_NULL (then f2c, fence)", c2f_qnull, ARG, 0, 0, NULL},
    {"MPI_Queue_c2f", 1, "stale copy of a freed queue (then f2c, fence)", c2f_stale, ARG, 0, 0, NULL},
    {"MPI_Queue_f2c", 1, "-1 (then fence)", f2c_neg, ARG, 0, 0, NULL},
    {"MPI_Queue_f2c", 1, "INT_MAX (then fence)", f2c_huge, ARG, 0, 0, NULL},
    {"MPI_Queue_f2c", 1, "index of a freed queue (then fence)", f2c_freed, ARG, 0, 0, NULL},
    {"MPI_Enqueue_start", 1, "NULL pointer", estart_qptr, ARG, 0, 0, NULL},
    {"MPI_Enqueue_start", 1, "MPI_QUEUE_NULL", estart_qnull, ARG, 0, 0, NULL},
    {"MPI_Enqueue_start", 1, "stale copy of a freed queue", estart_qstale, ARG, 0, 0, NULL},
    {"MPI_Enqueue_start", 2, "NULL pointer", estart_null, REQ, 0, 0, NULL},
    {"MPI_Enqueue_start", 2, "MPI_REQUEST_NULL", estart_rnull, REQ, 0, 0, NULL},
    {"MPI_Enqueue_start", 2, "MPI_REQUEST_EMPTY", estart_rempty, REQ, 0, 0, NULL},
    {"MPI_Enqueue_start", 2, "nonpersistent request", estart_nonpers, REQ, 0, 0, NULL},
    {"MPI_Enqueue_start", 2, "generalized request", estart_greq, REQ, 0, 0, NULL},
    {"MPI_Enqueue_start", 2, "not matched", estart_unmatched, REQ, 0, 0, NULL},
    {"MPI_Enqueue_start", 2, "active persistent request", estart_active, REQ, 0, 0, NULL},
    {"MPI_Enqueue_start", 2, "freed matched request (the handle MPI_Request_free wrote back)", estart_freed, REQ, 0, 0, NULL},
    {"MPI_Enqueue_start", 2, "start pending on another queue", estart_otherq, REQ, 0, 0, NULL},
    {"MPI_Enqueue_start", 2, "start pending on this queue, no wait", estart_samepending, REQ, 0, 0, NULL},
    {"MPI_Enqueue_startall", 1, "NULL pointer", estartall_qptr, ARG, 0, 0, NULL},
    {"MPI_Enqueue_startall", 1, "MPI_QUEUE_NULL", estartall_qnull, ARG, 0, 0, NULL},
    {"MPI_Enqueue_startall", 1, "stale copy of a freed queue", estartall_qstale, ARG, 0, 0, NULL},
    {"MPI_Enqueue_startall", 2, "count -1", estartall_neg, ARG, 0, 0, NULL},
    {"MPI_Enqueue_startall", 2, "count INT_MIN", estartall_min, ARG, 0, 0, NULL},
    {"MPI_Enqueue_startall", 2, "count INT_MAX, NULL array", estartall_huge, ARG, 0, 0, NULL},
    {"MPI_Enqueue_startall", 3, "NULL array, count 2", estartall_nullarr, ARG, 0, 0, NULL},
    {"MPI_Enqueue_startall", 3, "MPI_REQUEST_NULL in the array", estartall_rnull, REQ, 0, 0, NULL},
    {"MPI_Enqueue_startall", 3, "MPI_REQUEST_EMPTY in the array", estartall_rempty, REQ, 0, 0, NULL},
    {"MPI_Enqueue_startall", 3, "a request twice", estartall_dup, REQ, 0, 0, NULL},
    {"MPI_Enqueue_startall", 3, "a nonpersistent request in the array", estartall_nonpers, REQ, 0, 0, NULL},
    {"MPI_Enqueue_startall", 3, "a generalized request in the array", estartall_greq, REQ, 0, 0, NULL},
    {"MPI_Enqueue_startall", 3, "an unmatched request in the array", estartall_unmatched, REQ, 0, 0, NULL},
    {"MPI_Enqueue_startall", 3, "an active request in the array", estartall_active, REQ, 0, 0, NULL},
    {"MPI_Enqueue_startall", 3, "a request started on another queue", estartall_otherq, REQ, 0, 0, NULL},
    {"MPI_Enqueue_startall", 3, "requests of two sessions (not erroneous)", estartall_sessions, OK_ | REQ, NEED_SESSION, 0, NULL},
    {"MPI_Enqueue_wait", 1, "NULL pointer", ewait_qptr, ARG, 0, 0, NULL},
    {"MPI_Enqueue_wait", 1, "MPI_QUEUE_NULL", ewait_qnull, ARG, 0, 0, NULL},
    {"MPI_Enqueue_wait", 1, "stale copy of a freed queue", ewait_qstale, ARG, 0, 0, NULL},
    {"MPI_Enqueue_wait", 2, "NULL pointer", ewait_null, REQ, 0, 0, NULL},
    {"MPI_Enqueue_wait", 2, "MPI_REQUEST_NULL", ewait_rnull, REQ, 0, 0, NULL},
    {"MPI_Enqueue_wait", 2, "MPI_REQUEST_EMPTY", ewait_rempty, REQ, 0, 0, NULL},
    {"MPI_Enqueue_wait", 2, "nonpersistent request", ewait_nonpers, REQ, 0, 0, NULL},
    {"MPI_Enqueue_wait", 2, "generalized request", ewait_greq, REQ, 0, 0, NULL},
    {"MPI_Enqueue_wait", 2, "not matched", ewait_unmatched, REQ, 0, 0, NULL},
    {"MPI_Enqueue_wait", 2, "start not enqueued", ewait_notstarted, REQ, 0, 0, NULL},
    {"MPI_Enqueue_wait", 2, "started on another queue", ewait_otherq, REQ, 0, 0, NULL},
    {"MPI_Enqueue_wait", 2, "wait already enqueued", ewait_twice, REQ, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 1, "NULL pointer", ewaitall_qptr, ARG, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 1, "MPI_QUEUE_NULL", ewaitall_qnull, ARG, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 1, "stale copy of a freed queue", ewaitall_qstale, ARG, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 2, "count -1", ewaitall_neg, ARG, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 2, "count INT_MIN", ewaitall_min, ARG, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 2, "count INT_MAX, NULL array", ewaitall_huge, ARG, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 3, "NULL array, count 2", ewaitall_nullarr, ARG, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 3, "MPI_REQUEST_NULL in the array", ewaitall_rnull, REQ, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 3, "MPI_REQUEST_EMPTY in the array", ewaitall_rempty, REQ, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 3, "a request twice", ewaitall_dup, REQ, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 3, "a nonpersistent request in the array", ewaitall_nonpers, REQ, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 3, "a generalized request in the array", ewaitall_greq, REQ, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 3, "an unmatched request in the array", ewaitall_unmatched, REQ, 0, 0, NULL},
    {"MPI_Enqueue_waitall", 3, "a request whose start is not enqueued", ewaitall_notstarted, REQ, 0, 0, NULL},
    {"MPI_Queue_fence", 1, "NULL pointer", fence_qptr, ARG, 0, 0, NULL},
    {"MPI_Queue_fence", 1, "MPI_QUEUE_NULL", fence_qnull, ARG, 0, 0, NULL},
    {"MPI_Queue_fence", 1, "stale copy of a freed queue", fence_qstale, ARG, 0, 0, NULL},

    {"MPIX_Send_def", 1, "NULL buffer, count 4", send_buf, BUF | ARG, 0, 0, NULL},
    {"MPIX_Send_def", 2, "count -1", send_count, CNT, 0, 0, NULL},
    {"MPIX_Send_def", 3, "MPI_DATATYPE_NULL", send_type, TYP, 0, 0, NULL},
    {"MPIX_Send_def", 4, "rank 2 of 2", send_rank, RNK, 0, 0, NULL},
    {"MPIX_Send_def", 5, "tag -2", send_tag, TAG, 0, 0, NULL},
    {"MPIX_Send_def", 6, "MPI_COMM_NULL", send_comm, COM, 0, 0, NULL},
    {"MPIX_Send_def", 7, "NULL pointer", send_tok, ARG, 0, 0, NULL},
    {"MPIX_Recv_def", 1, "NULL buffer, count 4", recv_buf, BUF | ARG, 0, 0, NULL},
    {"MPIX_Recv_def", 2, "count -1", recv_count, CNT, 0, 0, NULL},
    {"MPIX_Recv_def", 3, "MPI_DATATYPE_NULL", recv_type, TYP, 0, 0, NULL},
    {"MPIX_Recv_def", 4, "rank 2 of 2", recv_rank, RNK, 0, 0, NULL},
    {"MPIX_Recv_def", 5, "tag -5", recv_tag, TAG, 0, 0, NULL},
    {"MPIX_Recv_def", 6, "MPI_COMM_NULL", recv_comm, COM, 0, 0, NULL},
    {"MPIX_Recv_def", 8, "NULL pointer", recv_tok, ARG, 0, 0, NULL},
    {"MPIX_Sendrecv_def", 2, "sendcount -1", sr_scount, CNT, 0, 0, NULL},
    {"MPIX_Sendrecv_def", 7, "recvcount -1", sr_rcount, CNT, 0, 0, NULL},
    {"MPIX_Sendrecv_def", 11, "MPI_COMM_NULL", sr_comm, COM, 0, 0, NULL},
    {"MPIX_Sendrecv_def", 13, "NULL pointer", sr_tok, ARG, 0, 0, NULL},
    {"MPIX_Barrier_def", 1, "MPI_COMM_NULL", barrier_comm, COM, 0, 0, NULL},
    {"MPIX_Barrier_def", 2, "NULL pointer", barrier_tok, ARG, 0, 0, NULL},
    {"MPIX_Remote_barrier", 1, "MPI_COMM_NULL", rbarrier_comm, COM, 0, 0, NULL},
    {"MPIX_Remote_barrier", 2, "rank 2 of 2", rbarrier_rank, RNK | ARG, 0, 0, NULL},
    {"MPIX_Remote_barrier_def", 2, "rank -7", rbarrierdef_rank, RNK | ARG, 0, 0, NULL},
    {"MPIX_Remote_barrier_def", 4, "NULL pointer", rbarrierdef_tok, ARG, 0, 0, NULL},
    {"MPIX_Bcast_def", 2, "count -1", bcast_count, CNT, 0, 0, NULL},
    {"MPIX_Bcast_def", 4, "root 2 of 2", bcast_root, ROO, 0, 0, NULL},
    {"MPIX_Bcast_def", 5, "MPI_COMM_NULL", bcast_comm, COM, 0, 0, NULL},
    {"MPIX_Bcast_def", 6, "NULL pointer", bcast_tok, ARG, 0, 0, NULL},
    {"MPIX_Reduce_def", 3, "count -1", reduce_count, CNT, 0, 0, NULL},
    {"MPIX_Reduce_def", 5, "MPI_OP_NULL", reduce_op, OPE, 0, 0, NULL},
    {"MPIX_Reduce_def", 6, "root -5", reduce_root, ROO, 0, 0, NULL},
    {"MPIX_Reduce_def", 8, "NULL pointer", reduce_tok, ARG, 0, 0, NULL},
    {"MPIX_Allreduce_def", 3, "count -1", allred_count, CNT, 0, 0, NULL},
    {"MPIX_Allreduce_def", 4, "MPI_DATATYPE_NULL", allred_type, TYP, 0, 0, NULL},
    {"MPIX_Allreduce_def", 5, "MPI_OP_NULL", allred_op, OPE, 0, 0, NULL},
    {"MPIX_Allreduce_def", 7, "NULL pointer", allred_tok, ARG, 0, 0, NULL},
    {"MPIX_Send_c_def", 2, "count -1", sendc_count, CNT, 0, 0, NULL},
    {"MPIX_Recv_c_def", 2, "count -1", recvc_count, CNT, 0, 0, NULL},
    {"MPIX_Sendrecv_c_def", 2, "sendcount -1", src_count, CNT, 0, 0, NULL},
    {"MPIX_Bcast_c_def", 2, "count -1", bcastc_count, CNT, 0, 0, NULL},
    {"MPIX_Reduce_c_def", 3, "count -1", reducec_count, CNT, 0, 0, NULL},
    {"MPIX_Allreduce_c_def", 3, "count -1", allredc_count, CNT, 0, 0, NULL},
    {"MPIX_Op_def", 1, "NULL function", op_fn, ARG, 0, 0, NULL},
    {"MPIX_Op_def", 3, "NULL pointer", op_tok, ARG, 0, 0, NULL},
    {"MPIX_Copy_mem_def", 3, "size -1", copydef_size, ARG, 0, 0, NULL},
    {"MPIX_Copy_mem_def", 1, "NULL destination", copydef_dst, ARG, 0, 0, NULL},
    {"MPIX_Copy_mem_def", 2, "NULL source", copydef_src, ARG, 0, 0, NULL},
    {"MPIX_Copy_mem_def", 2, "overlapping ranges", copydef_overlap, ARG, 0, 0, NULL},
    {"MPIX_Copy_mem_def", 4, "NULL pointer", copydef_tok, ARG, 0, 0, NULL},
    {"MPIX_Copy_mem", 3, "size -1", copy_size, ARG, 0, 0, NULL},
    {"MPIX_Copy_mem", 1, "NULL destination", copy_dst, ARG, 0, 0, NULL},
    {"MPIX_Copy_mem", 2, "NULL source", copy_src, ARG, 0, 0, NULL},
    {"MPIX_Copy_mem", 2, "overlapping ranges", copy_overlap, ARG, 0, 0, NULL},
    {"MPIX_Alloc_mem_def", 1, "size -1", alloc_size, ARG | SIZ, 0, 0, NULL},
    {"MPIX_Alloc_mem_def", 3, "NULL pointer", alloc_base, ARG, 0, 0, NULL},
    {"MPIX_Alloc_mem_def", 4, "NULL pointer", alloc_tok, ARG, 0, 0, NULL},
    {"MPIX_Free_mem_def", 2, "NULL pointer", freemem_tok, ARG, 0, 0, NULL},
    {"MPIX_File_open_def", 1, "MPI_COMM_NULL", fopen_comm, COM, 0, 0, NULL},
    {"MPIX_File_open_def", 6, "NULL pointer", fopen_tok, ARG, 0, 0, NULL},
    {"MPIX_File_close_def", 1, "NULL pointer", fclose_fh, ARG | FIL, 0, 0, NULL},
    {"MPIX_File_close_def", 2, "NULL pointer", fclose_tok, ARG, 0, 0, NULL},
    {"MPIX_File_get_size_def", 1, "MPI_FILE_NULL", fsize_fh, FIL | ARG, 0, 0, NULL},
    {"MPIX_File_read_def", 1, "MPI_FILE_NULL", fread_fh, FIL | ARG, 0, 0, NULL},
    {"MPIX_File_read_at_def", 1, "MPI_FILE_NULL", freadat_fh, FIL | ARG, 0, 0, NULL},
    {"MPIX_File_write_at_def", 1, "MPI_FILE_NULL", fwriteat_fh, FIL | ARG, 0, 0, NULL},
    {"MPIX_File_write_at_all_def", 1, "MPI_FILE_NULL", fwriteatall_fh, FIL | ARG, 0, 0, NULL},
    {"MPIX_File_write_at_all_c_def", 1, "MPI_FILE_NULL", fwriteatallc_fh, FIL | ARG, 0, 0, NULL},
    {"MPIX_File_read_c_def", 1, "MPI_FILE_NULL", freadc_fh, FIL | ARG, 0, 0, NULL},
    {"MPIX_File_read_at_c_def", 1, "MPI_FILE_NULL", freadatc_fh, FIL | ARG, 0, 0, NULL},
    {"MPIX_File_write_at_c_def", 1, "MPI_FILE_NULL", fwriteatc_fh, FIL | ARG, 0, 0, NULL},
    {"MPIX_Start_def", 1, "NULL pointer", startdef_null, ARG, 0, 0, NULL},
    {"MPIX_Start_def", 2, "NULL pointer", startdef_tok, ARG, 0, 0, NULL},
    {"MPIX_Start_def", 1, "MPI_REQUEST_NULL (class from MPIX_Execute)", startdef_rnull, REQ, 0, 0, NULL},
    {"MPIX_Start_def", 1, "MPI_REQUEST_EMPTY (class from MPIX_Execute)", startdef_rempty, REQ, 0, 0, NULL},
    {"MPIX_Start_def", 1, "nonpersistent request (class from MPIX_Execute)", startdef_nonpers, REQ, 0, 0, NULL},
    {"MPIX_Start_def", 1, "active request (class from MPIX_Execute)", startdef_active, REQ, 0, 0, NULL},
    {"MPIX_Wait_def", 1, "NULL pointer", waitdef_null, ARG, 0, 0, NULL},
    {"MPIX_Wait_def", 3, "NULL pointer", waitdef_tok, ARG, 0, 0, NULL},
    {"MPIX_Wait_def", 1, "MPI_REQUEST_NULL (class from MPIX_Execute)", waitdef_rnull, REQ, 0, 0, NULL},
    {"MPIX_Wait_def", 1, "nonpersistent request (class from MPIX_Execute)", waitdef_nonpers, REQ, 0, 0, NULL},
    {"MPIX_Token_free", 1, "NULL pointer", tfree_null, ARG, 0, 0, NULL},
    {"MPIX_Token_free", 1, "MPIX_TOKEN_NULL", tfree_tnull, ARG, 0, 0, NULL},
    {"MPIX_Token_free", 1, "stale copy of a freed token", tfree_stale, ARG, 0, 0, NULL},
    {"MPIX_Token_free", 1, "copy of a token consumed by MPIX_Stream_enqueue", tfree_consumed, ARG, 0, 0, NULL},
    {"MPIX_Execute", 1, "MPIX_TOKEN_NULL", exec_tnull, ARG, 0, 0, NULL},
    {"MPIX_Execute", 1, "stale copy of a freed token", exec_stale, ARG, 0, 0, NULL},
    {"MPIX_Execute", 1, "copy of a consumed token", exec_consumed, ARG, 0, 0, NULL},
    {"MPIX_Execute", 1, "token bound to graph variables", exec_unbound, ARG, 0, 0, NULL},
    {"MPIX_Execute", 3, "loc_type -1", exec_locneg, ARG, 0, 0, NULL},
    {"MPIX_Execute", 3, "loc_type 99", exec_loc99, ARG, 0, 0, NULL},
    {"MPIX_Execute", 3, "MPIX_OFFLOAD_HIP", exec_hip, ARG, 0, 0, NULL},
    {"MPIX_Execute", 3, "MPIX_OFFLOAD_NITRO", exec_nitro, ARG, 0, 0, NULL},
    {"MPIX_Execute", 4, "MPIX_OFFLOAD_CUDA, NULL loc_info", exec_cuda, ARG, 0, 0, NULL},
    {"MPIX_Execute", 3, "MPIX_OFFLOAD_PTHREAD, library not thread safe", exec_pthread, ARG, 0, 0, NULL},
    {"MPIX_Iexecute", 1, "MPIX_TOKEN_NULL", iexec_tnull, ARG, 0, 0, NULL},
    {"MPIX_Iexecute", 1, "stale copy of a freed token", iexec_stale, ARG, 0, 0, NULL},
    {"MPIX_Iexecute", 3, "loc_type -1", iexec_loc, ARG, 0, 0, NULL},
    {"MPIX_Iexecute", 5, "NULL pointer", iexec_req, ARG, 0, 0, NULL},
    {"MPIX_Execute_init", 1, "MPIX_TOKEN_NULL", einit_tnull, ARG, 0, 0, NULL},
    {"MPIX_Execute_init", 1, "stale copy of a freed token", einit_stale, ARG, 0, 0, NULL},
    {"MPIX_Execute_init", 3, "loc_type 77", einit_loc, ARG, 0, 0, NULL},
    {"MPIX_Execute_init", 5, "NULL pointer", einit_req, ARG, 0, 0, NULL},
    {"MPIX_Execute_get_error", 1, "MPI_REQUEST_NULL", geterr_rnull, REQ, 0, 0, NULL},
    {"MPIX_Execute_get_error", 1, "MPI_REQUEST_EMPTY", geterr_rempty, REQ, 0, 0, NULL},
    {"MPIX_Execute_get_error", 1, "a matched point-to-point request", geterr_p2p, REQ, 0, 0, NULL},
    {"MPIX_Execute_get_error", 1, "nonpersistent request", geterr_nonpers, REQ, 0, 0, NULL},
    {"MPIX_Execute_get_error", 1, "generalized request", geterr_greq, REQ, 0, 0, NULL},
    {"MPIX_Execute_get_error", 1, "execution request never started", geterr_notrun, REQ, 0, 0, NULL},
    {"MPIX_Execute_get_error", 2, "NULL pointer", geterr_errcode, ARG, 0, 0, NULL},
    {"MPIX_Stream_create", 5, "NULL pointer", screate_null, ARG, 0, 0, NULL},
    {"MPIX_Stream_create", 3, "loc_type -1", screate_locneg, ARG, 0, 0, NULL},
    {"MPIX_Stream_create", 3, "loc_type 99", screate_loc99, ARG, 0, 0, NULL},
    {"MPIX_Stream_create", 3, "MPIX_OFFLOAD_HIP", screate_hip, ARG, 0, 0, NULL},
    {"MPIX_Stream_create", 3, "MPIX_OFFLOAD_NITRO", screate_nitro, ARG, 0, 0, NULL},
    {"MPIX_Stream_create", 4, "MPIX_OFFLOAD_CUDA, NULL loc_info", screate_cuda, ARG, 0, 0, NULL},
    {"MPIX_Stream_create", 3, "MPIX_OFFLOAD_PTHREAD, library not thread safe", screate_pthread, ARG, 0, 0, NULL},
    {"MPIX_Stream_enqueue", 1, "MPIX_STREAM_NULL (token kept)", senq_snull, ARG, 0, 0, NULL},
    {"MPIX_Stream_enqueue", 1, "stale copy of a freed stream (token kept)", senq_sstale, ARG, 0, 0, NULL},
    {"MPIX_Stream_enqueue", 2, "NULL pointer", senq_null, ARG, 0, 0, NULL},
    {"MPIX_Stream_enqueue", 2, "MPIX_TOKEN_NULL", senq_tnull, ARG, 0, 0, NULL},
    {"MPIX_Stream_enqueue", 2, "stale copy of a freed token", senq_tstale, ARG, 0, 0, NULL},
    {"MPIX_Stream_enqueue", 2, "copy of a consumed token", senq_consumed, ARG, 0, 0, NULL},
    {"MPIX_Stream_enqueue", 2, "token bound to graph variables", senq_unbound, ARG, 0, 0, NULL},
    {"MPIX_Stream_pause", 1, "MPIX_STREAM_NULL", spause_null, ARG, 0, 0, NULL},
    {"MPIX_Stream_pause", 1, "stale copy of a freed stream", spause_stale, ARG, 0, 0, NULL},
    {"MPIX_Stream_resume", 1, "MPIX_STREAM_NULL", sresume_null, ARG, 0, 0, NULL},
    {"MPIX_Stream_resume", 1, "stale copy of a freed stream", sresume_stale, ARG, 0, 0, NULL},
    {"MPIX_Stream_sync", 1, "MPIX_STREAM_NULL", ssync_null, ARG, 0, 0, NULL},
    {"MPIX_Stream_sync", 1, "stale copy of a freed stream", ssync_stale, ARG, 0, 0, NULL},
    {"MPIX_Stream_is_paused", 1, "MPIX_STREAM_NULL", sisp_null, ARG, 0, 0, NULL},
    {"MPIX_Stream_is_paused", 1, "stale copy of a freed stream", sisp_stale, ARG, 0, 0, NULL},
    {"MPIX_Stream_is_paused", 2, "NULL pointer", sisp_flag, ARG, 0, 0, NULL},
    {"MPIX_Stream_isync", 1, "MPIX_STREAM_NULL", sisync_null, ARG, 0, 0, NULL},
    {"MPIX_Stream_isync", 1, "stale copy of a freed stream", sisync_stale, ARG, 0, 0, NULL},
    {"MPIX_Stream_isync", 2, "NULL pointer", sisync_req, ARG, 0, 0, NULL},
    {"MPIX_Stream_get_error", 1, "MPIX_STREAM_NULL", sgeterr_null, ARG, 0, 0, NULL},
    {"MPIX_Stream_get_error", 1, "stale copy of a freed stream", sgeterr_stale, ARG, 0, 0, NULL},
    {"MPIX_Stream_get_error", 2, "NULL pointer", sgeterr_code, ARG, 0, 0, NULL},
    {"MPIX_Stream_dup", 1, "MPIX_STREAM_NULL", sdup_null, ARG, 0, 0, NULL},
    {"MPIX_Stream_dup", 1, "stale copy of a freed stream", sdup_stale, ARG, 0, 0, NULL},
    {"MPIX_Stream_dup", 3, "NULL pointer", sdup_out, ARG, 0, 0, NULL},
    {"MPIX_Stream_free", 1, "NULL pointer", sfree_null, ARG, 0, 0, NULL},
    {"MPIX_Stream_free", 1, "MPIX_STREAM_NULL", sfree_snull, ARG, 0, 0, NULL},
    {"MPIX_Stream_free", 1, "stale copy of a freed stream", sfree_stale, ARG, 0, 0, NULL},
    {"MPIX_Graph_create", 3, "NULL pointer", gcreate_null, ARG, 0, 0, NULL},
    {"MPIX_Graph_dup", 1, "MPIX_GRAPH_NULL", gdup_null, ARG, 0, 0, NULL},
    {"MPIX_Graph_dup", 1, "stale copy of a freed graph", gdup_stale, ARG, 0, 0, NULL},
    {"MPIX_Graph_dup", 3, "NULL pointer", gdup_out, ARG, 0, 0, NULL},
    {"MPIX_Graph_free", 1, "NULL pointer", gfree_null, ARG, 0, 0, NULL},
    {"MPIX_Graph_free", 1, "MPIX_GRAPH_NULL", gfree_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_free", 1, "stale copy of a freed graph", gfree_stale, ARG, 0, 0, NULL},
    {"MPIX_Graph_add", 1, "MPIX_GRAPH_NULL (token kept)", gadd_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_add", 1, "stale copy of a freed graph (token kept)", gadd_gstale, ARG, 0, 0, NULL},
    {"MPIX_Graph_add", 2, "NULL pointer", gadd_null, ARG, 0, 0, NULL},
    {"MPIX_Graph_add", 2, "MPIX_TOKEN_NULL", gadd_tnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_add", 2, "stale copy of a freed token", gadd_tstale, ARG, 0, 0, NULL},
    {"MPIX_Graph_add", 4, "unknown dep_op_id 99 (token kept)", gadd_dep99, ARG, 0, 0, NULL},
    {"MPIX_Graph_add", 4, "dep_op_id -3 (token kept)", gadd_depneg, ARG, 0, 0, NULL},
    {"MPIX_Graph_join", 1, "MPIX_GRAPH_NULL", gjoin_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_join", 2, "count -1", gjoin_neg, ARG, 0, 0, NULL},
    {"MPIX_Graph_join", 2, "count INT_MIN", gjoin_min, ARG, 0, 0, NULL},
    {"MPIX_Graph_join", 2, "count INT_MAX, NULL array", gjoin_huge, ARG, 0, 0, NULL},
    {"MPIX_Graph_join", 3, "NULL array, count 2", gjoin_nullarr, ARG, 0, 0, NULL},
    {"MPIX_Graph_join", 3, "unknown ID 77 in the array", gjoin_unknown, ARG, 0, 0, NULL},
    {"MPIX_Graph_nop", 1, "MPIX_GRAPH_NULL", gnop_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_nop", 1, "stale copy of a freed graph", gnop_gstale, ARG, 0, 0, NULL},
    {"MPIX_Graph_nop", 3, "unknown dep_op_id 99", gnop_dep99, ARG, 0, 0, NULL},
    {"MPIX_Graph_nop", 3, "dep_op_id -3", gnop_depneg, ARG, 0, 0, NULL},
    {"MPIX_Graph_set_dep_op", 1, "MPIX_GRAPH_NULL", gsetdep_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_set_dep_op", 2, "unknown op_id 99", gsetdep_op99, ARG, 0, 0, NULL},
    {"MPIX_Graph_set_dep_op", 3, "unknown dep_op_id 99", gsetdep_dep99, ARG, 0, 0, NULL},
    {"MPIX_Graph_set_dep_op", 3, "dep_op_id equal to op_id", gsetdep_self, ARG, 0, 0, NULL},
    {"MPIX_Graph_if_else", 1, "MPIX_GRAPH_NULL", gif_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_if_else", 2, "var_id -1", gif_varneg, ARG, 0, 0, NULL},
    {"MPIX_Graph_if_else", 2, "var_id MPIX_GRAPH_VAR_MAX", gif_varmax, ARG, 0, 0, NULL},
    {"MPIX_Graph_if_else", 3, "stale copy of a freed graph", gif_tstale, ARG, 0, 0, NULL},
    {"MPIX_Graph_if_else", 6, "unknown dep_op_id 99", gif_dep99, ARG, 0, 0, NULL},
    {"MPIX_Graph_while", 1, "MPIX_GRAPH_NULL", gwhile_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_while", 2, "var_id -1", gwhile_varneg, ARG, 0, 0, NULL},
    {"MPIX_Graph_while", 3, "MPIX_GRAPH_NULL", gwhile_subnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_while", 3, "stale copy of a freed graph", gwhile_substale, ARG, 0, 0, NULL},
    {"MPIX_Graph_while", 5, "unknown dep_op_id 99", gwhile_dep99, ARG, 0, 0, NULL},
    {"MPIX_Graph_goto", 1, "MPIX_GRAPH_NULL", ggoto_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_goto", 2, "unknown dest_op_id 99", ggoto_dest99, ARG, 0, 0, NULL},
    {"MPIX_Graph_goto", 3, "unknown dep_op_id 99", ggoto_dep99, ARG, 0, 0, NULL},
    {"MPIX_Graph_def", 1, "MPIX_GRAPH_NULL", gdef_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_def", 1, "stale copy of a freed graph", gdef_gstale, ARG, 0, 0, NULL},
    {"MPIX_Graph_def", 3, "NULL pointer", gdef_tok, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_create", 1, "MPIX_GRAPH_NULL", gvc_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_create", 2, "var_id -1", gvc_idneg, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_create", 2, "var_id MPIX_GRAPH_VAR_MAX", gvc_idmax, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_create", 2, "var_id INT_MAX", gvc_idhuge, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_create", 2, "var_id already declared", gvc_twice, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_create", 3, "scope 0", gvc_scope0, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_create", 3, "scope 99", gvc_scope99, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_create", 4, "MPI_DATATYPE_NULL", gvc_type, ARG | TYP, 0, 0, NULL},
    {"MPIX_Graph_var_set", 1, "MPIX_GRAPH_NULL", gvs_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_set", 2, "undeclared var_id 7", gvs_unknown, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_set", 2, "var_id -1", gvs_idneg, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_set", 3, "NULL pointer", gvs_value, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_get", 1, "MPIX_GRAPH_NULL", gvg_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_get", 2, "undeclared var_id 7", gvg_unknown, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_get", 3, "NULL pointer", gvg_value, ARG, 0, 0, NULL},
    {"MPIX_Graph_set_param", 1, "MPIX_GRAPH_NULL", gsp_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_set_param", 2, "undeclared var_id 7", gsp_unknown, ARG, 0, 0, NULL},
    {"MPIX_Graph_set_param", 2, "a local variable, not a parameter", gsp_local, ARG, 0, 0, NULL},
    {"MPIX_Graph_set_param", 3, "NULL pointer", gsp_value, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_reduce", 1, "MPIX_GRAPH_NULL", gvr_gnull, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_reduce", 2, "var_id -1", gvr_in, ARG, 0, 0, NULL},
    {"MPIX_Graph_var_reduce", 4, "MPI_OP_NULL", gvr_opnull, OPE | ARG, 0, 0, NULL},
    {"MPIX_Graph_var_reduce", 4, "MPI_MAXLOC", gvr_maxloc, OPE, 0, 0, NULL},
    {"MPIX_Graph_var_reduce", 7, "unknown dep_op_id 99", gvr_dep99, ARG, 0, 0, NULL},
};
/* clang-format on */

#define NROWS ((int) (sizeof(rows) / sizeof(rows[0])))

/* ------------------------------------------------------------------ */
/* the runner                                                          */

static char step_buf[512];

static void name_step(int i, const char *what)
{
    snprintf(step_buf, sizeof(step_buf), "row %d (%s arg %d: %s)%s%s", i, rows[i].func,
             rows[i].arg, rows[i].kind, NULL != what ? ": " : "", NULL != what ? what : "");
    QT_STEP(step_buf);
}

static void fx_setup(fx_t *f, int i)
{
    memset(f, 0, sizeof(*f));
    f->row = i;
    f->tag = 100 + 8 * i;
    QT_OK(MPI_Queue_init(&f->q, MPI_QUEUE_TYPE_DEFAULT, NULL));
    QT_OK(MPI_Queue_init(&f->q2, MPI_QUEUE_TYPE_DEFAULT, NULL));
    make_pair(W, f->tag, &f->a_in, &f->a_out, f->a, 1);
    make_pair(W, f->tag + 1, &f->b_in, &f->b_out, f->b, 0);
    QT_OK(MPI_Irecv(f->dummy, 1, MPI_INT, MPI_PROC_NULL, 0, W, &f->nb));
    QT_OK(MPI_Grequest_start(gr_query, gr_free, gr_cancel, NULL, &f->gr));
    QT_OK(MPI_Recv_init(f->dummy + 3, 1, MPI_INT, MPI_PROC_NULL, 0, W, &f->act));
    QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &f->s));
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &f->g));
    QT_OK(MPIX_Op_def(count_cb, &t_count, &f->t));
}

/* the valid use of the same objects after the bad call */
static void fx_valid(fx_t *f)
{
    MPI_Request all[4];
    MPI_Status st[4];
    MPIX_Token tk = MPIX_TOKEN_NULL, gt = MPIX_TOKEN_NULL;
    int so = 2000 * rank + f->row, si = -1, flag = -1;

    QT_OK(MPI_Is_matched(f->b[0], &flag));
    QT_CHECK(0 == flag, "the unmatched request is matched");
    QT_OK(MPI_Matchall(2, f->b));
    /* (matching gives the requests new handles) */
    all[0] = f->a[0];
    all[1] = f->a[1];
    all[2] = f->b[0];
    all[3] = f->b[1];
    f->a_out = 1000 * rank + f->row;
    f->b_out = 1000 * rank + f->row + 500;
    f->a_in = f->b_in = -1;
    memset(st, 0, sizeof(st));
    QT_OK(MPI_Enqueue_startall(&f->q, 4, all));
    QT_OK(MPI_Enqueue_waitall(&f->q, 4, all, st));
    QT_OK(MPI_Queue_fence(&f->q));
    QT_CHECK(1000 * peer + f->row == f->a_in && 1000 * peer + f->row + 500 == f->b_in,
             "received %d and %d", f->a_in, f->b_in);
    QT_CHECK(peer == st[0].MPI_SOURCE && f->tag == st[0].MPI_TAG && peer == st[2].MPI_SOURCE
                 && f->tag + 1 == st[2].MPI_TAG,
             "statuses: source %d tag %d, source %d tag %d", st[0].MPI_SOURCE, st[0].MPI_TAG,
             st[2].MPI_SOURCE, st[2].MPI_TAG);
    QT_OK(MPI_Queue_fence(&f->q2));

    QT_OK(MPIX_Sendrecv_def(&so, 1, MPI_INT, peer, f->tag + 2, &si, 1, MPI_INT, peer, f->tag + 2,
                            W, MPI_STATUS_IGNORE, &tk));
    QT_OK(MPIX_Stream_enqueue(f->s, &tk));
    QT_OK(MPIX_Stream_sync(f->s));
    QT_CHECK(2000 * peer + f->row == si, "stream sendrecv received %d", si);

    g_count = 0;
    QT_OK(MPIX_Op_def(count_cb, &g_count, &tk));
    QT_OK(MPIX_Graph_add(f->g, &tk, NULL, MPIX_DEP_NONE));
    QT_OK(MPIX_Graph_def(f->g, MPI_INFO_NULL, &gt));
    QT_OK(MPIX_Execute(gt, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    tok_drop(&gt);
    QT_CHECK(1 == g_count, "the graph's callback ran %d times", g_count);
    t_count = 0;
    QT_OK(MPIX_Execute(f->t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_CHECK(1 == t_count, "the token's callback ran %d times", t_count);
}

static void fx_teardown(fx_t *f)
{
    for (int i = 0; i < 2; ++i) {
        QT_OK(MPI_Request_free(&f->a[i]));
        QT_OK(MPI_Request_free(&f->b[i]));
    }
    QT_OK(MPI_Wait(&f->nb, MPI_STATUS_IGNORE));
    QT_OK(MPI_Grequest_complete(f->gr));
    QT_OK(MPI_Wait(&f->gr, MPI_STATUS_IGNORE));
    if (f->act_started) {
        QT_OK(MPI_Wait(&f->act, MPI_STATUS_IGNORE));
    }
    QT_OK(MPI_Request_free(&f->act));
    QT_OK(MPI_Queue_free(&f->q));
    QT_OK(MPI_Queue_free(&f->q2));
    QT_OK(MPIX_Stream_free(&f->s));
    QT_OK(MPIX_Graph_free(&f->g));
    QT_OK(MPIX_Token_free(&f->t));
}

static int row_timeout = 20;

static void run_row(int i, int *skipped)
{
    fx_t f;
    int rc, cls, before = qt_failures;

    if (NEED_SESSION == rows[i].need && MPI_COMM_NULL == scomm) {
        ++*skipped;
        return;
    }
    alarm((unsigned) row_timeout);
    name_step(i, "setup");
    fx_setup(&f, i);
    name_step(i, NULL);
    rc = rows[i].call(&f);
    cls = rc;
    if (MPI_SUCCESS != rc) {
        MPI_Error_class(rc, &cls);
    }
    QT_CHECK(0 <= cls && cls < 64 && 0 != (rows[i].ok & B(cls)),
             "returned class %d (%s)", cls, MPI_SUCCESS == cls ? "success" : "not accepted");
    name_step(i, "valid use after it");
    fx_valid(&f);
    name_step(i, "free");
    fx_teardown(&f);
    if (DEFECT_NONE != rows[i].defect) {
        QT_CHECK(0, "known defect: %s", rows[i].what);
    }
    if (qt_failures != before && NULL == getenv("QTEST_VERBOSE")) {
        fprintf(stderr, "[rank %d] row %d failed: %s arg %d, %s\n", rank, i, rows[i].func,
                rows[i].arg, rows[i].kind);
    }
    /* the pair agrees before the next row's objects */
    MPI_Barrier(W);
}

static void open_session(void)
{
    MPI_Group group = MPI_GROUP_NULL;
    int rc;

    QT_STEP("session");
    QT_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
    QT_OK(MPI_Group_from_session_pset(session, "mpi://WORLD", &group));
    rc = MPI_Comm_create_from_group(group, "org.open-mpi.queue.hostile", MPI_INFO_NULL,
                                    MPI_ERRORS_RETURN, &scomm);
    if (MPI_SUCCESS != rc) {
        scomm = MPI_COMM_NULL;
        if (0 == rank) {
            printf("note: no communicator from a session's group here: "
                   "the rows of two sessions are skipped\n");
        }
    }
    MPI_Group_free(&group);
}

static void parse_range(int *lo, int *hi)
{
    const char *env = getenv("QTEST_HOSTILE_ROWS");

    *lo = 0;
    *hi = NROWS - 1;
    if (NULL != env && '\0' != env[0]) {
        if (2 != sscanf(env, "%d-%d", lo, hi)) {
            *lo = *hi = atoi(env);
        }
    }
}

int main(int argc, char **argv)
{
    int size, lo, hi, skipped = 0, ran = 0;
    const char *env;

    if (argc > 1 && 0 == strcmp(argv[1], "list")) {
        for (int i = 0; i < NROWS; ++i) {
            printf("%3d %-28s arg %-2d %s%s\n", i, rows[i].func, rows[i].arg, rows[i].kind,
                   DEFECT_NONE != rows[i].defect ? "  [known defect]" : "");
        }
        return 0;
    }
    qt_init(&argc, &argv);
    qt_name_crashes();
    MPI_Comm_size(W, &size);
    if (2 != size) {
        if (0 == qt_rank) {
            printf("SKIP: run on 2 ranks\n");
        }
        MPI_Finalize();
        return 0;
    }
    rank = qt_rank;
    peer = 1 - rank;
    env = getenv("QTEST_HOSTILE_ROW_TIMEOUT");
    if (NULL != env && 0 < atoi(env)) {
        row_timeout = atoi(env);
    }
    open_session();
    parse_range(&lo, &hi);

    /* rows that crash or hang run last, so that they hide no other row */
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = lo; i <= hi && i < NROWS; ++i) {
            if ((DEFECT_FATAL == rows[i].defect) != (1 == pass)) {
                continue;
            }
            run_row(i, &skipped);
            ++ran;
        }
    }
    ran -= skipped;
    qt_arm_watchdog();
    QT_STEP("session free");
    if (MPI_COMM_NULL != scomm) {
        MPI_Comm_free(&scomm);
    }
    MPI_Session_finalize(&session);
    if (0 == rank) {
        printf("%d row(s) of %d run, %d skipped\n", ran, NROWS, skipped);
    }
    return qt_finalize();
}
