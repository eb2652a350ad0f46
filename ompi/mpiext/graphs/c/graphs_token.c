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
 * Tokens: what each kind of deferred operation does when the executor starts
 * it and when its internal requests complete.  One row per kind in
 * graphs_op_table; the _def bindings only check and capture arguments.
 */

#include "ompi_config.h"

#include <string.h>

#include "opal/mca/threads/mutex.h"
#include "ompi/file/file.h"
#include "ompi/info/info.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/io/io.h"
#include "opal/mca/mpool/mpool.h"
#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/mca/match/match.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mpiext/graphs/c/graphs_token.h"
#include "ompi/request/request_owner.h"

static void token_construct(ompi_mpix_token_t *token)
{
    token->magic = GRAPHS_TOKEN_MAGIC;
    token->kind = GRAPHS_OP_MAX;
    token->fast = false;
    token->nown = 0;
    token->comm = NULL;
    token->nvb = 0;
    memset(&token->a, 0, sizeof(token->a));
}

/* drop what the token holds (its handles, its copies); inline, as the
 * release of every consumed token runs it */
static inline void token_clear(ompi_mpix_token_t *token)
{
    switch (token->kind) {
    case GRAPHS_OP_SEND:
    case GRAPHS_OP_RECV:
        graphs_drop_type(token->a.p2p.dtype);
        break;
    case GRAPHS_OP_SENDRECV:
        graphs_drop_type(token->a.sr.send.dtype);
        graphs_drop_type(token->a.sr.recv.dtype);
        break;
    case GRAPHS_OP_BCAST:
    case GRAPHS_OP_REDUCE:
    case GRAPHS_OP_ALLREDUCE:
        graphs_drop_type(token->a.coll.dtype);
        if (NULL != token->a.coll.op) {
            OBJ_RELEASE(token->a.coll.op);
        }
        break;
    case GRAPHS_OP_ALLOC_MEM:
        if (NULL != token->a.mem.info) {
            OBJ_RELEASE(token->a.mem.info);
        }
        break;
    case GRAPHS_OP_FILE_OPEN:
        free(token->a.file.filename);
        if (MPI_INFO_NULL != token->a.file.info) {
            OBJ_RELEASE(token->a.file.info);
        }
        break;
    case GRAPHS_OP_FILE_READ:
    case GRAPHS_OP_FILE_READ_AT:
    case GRAPHS_OP_FILE_WRITE_AT:
    case GRAPHS_OP_FILE_WRITE_AT_ALL:
        graphs_drop_type(token->a.io.dtype);
        break;
    case GRAPHS_OP_GRAPH:
        OBJ_RELEASE(token->a.gdef);
        break;
    default:
        break;
    }
    token->nvb = 0;
    if (NULL != token->comm) {
        graphs_drop_comm(token->comm);
        token->comm = NULL;
    }
    token->kind = GRAPHS_OP_MAX;
}

static void token_destruct(ompi_mpix_token_t *token)
{
    token_clear(token);
    token->magic = GRAPHS_DEAD_MAGIC;
}

OBJ_CLASS_INSTANCE(ompi_mpix_token_t, opal_object_t, token_construct, token_destruct);

/* the ring of tokens waiting for reuse (graphs_token.h) */
graphs_token_ring_t graphs_token_ring = {.head = 0, .count = 0, .lock = OPAL_MUTEX_STATIC_INIT};

void graphs_token_drop(ompi_mpix_token_t *token)
{
    OBJ_RELEASE(token);
}

void graphs_token_release(ompi_mpix_token_t *token)
{
    /* the last reference is this caller's: nobody else can retain it.
     * Acquire, paired with the atomic decrement of the holder that let go
     * last (OBJ_RELEASE): its uses of the token come before the reuse. */
    if (1 != __atomic_load_n(&token->super.obj_reference_count, __ATOMIC_ACQUIRE)) {
        OBJ_RELEASE(token);
        return;
    }
    token_clear(token);
    token->magic = GRAPHS_DEAD_MAGIC;
    graphs_token_ring_put(token);
}

void graphs_token_retire(ompi_mpix_token_t *token)
{
    token->magic = GRAPHS_DEAD_MAGIC;
    graphs_token_release(token);
}

void graphs_token_cache_flush(void)
{
    graphs_token_ring_t *r = &graphs_token_ring;

    OPAL_THREAD_LOCK(&r->lock);
    while (0 < r->count) {
        ompi_mpix_token_t *token = r->slot[r->head];
        r->head = (r->head + 1) % GRAPHS_TOKEN_RING;
        __atomic_store_n(&r->count, r->count - 1, __ATOMIC_RELAXED);
        OBJ_RELEASE(token);
    }
    r->head = 0;
    OPAL_THREAD_UNLOCK(&r->lock);
}

ompi_mpix_token_t *graphs_token_alloc(int kind, ompi_communicator_t *comm)
{
    ompi_mpix_token_t *token = OBJ_NEW(ompi_mpix_token_t);

    if (NULL != token) {
        graphs_token_arm(token, kind, comm);
    }
    return token;
}

/*
 * Other handles given up by the program (streams) stay allocated in a ring
 * of this many before their memory can be reused, so that a stale handle
 * reads a cleared marker rather than someone else's object.
 */
#define GRAPHS_RETIRE_DEPTH 256

static opal_object_t *graphs_retired[GRAPHS_RETIRE_DEPTH];
static unsigned graphs_retired_next = 0;
static opal_mutex_t graphs_retire_lock = OPAL_MUTEX_STATIC_INIT;

void graphs_retire(opal_object_t *obj, volatile uint32_t *magic)
{
    opal_object_t *old;

    *magic = GRAPHS_DEAD_MAGIC;
    OPAL_THREAD_LOCK(&graphs_retire_lock);
    old = graphs_retired[graphs_retired_next];
    graphs_retired[graphs_retired_next] = obj;
    graphs_retired_next = (graphs_retired_next + 1) % GRAPHS_RETIRE_DEPTH;
    OPAL_THREAD_UNLOCK(&graphs_retire_lock);
    if (NULL != old) {
        OBJ_RELEASE(old);
    }
}

void graphs_retire_flush(void)
{
    for (int i = 0; i < GRAPHS_RETIRE_DEPTH; ++i) {
        if (NULL != graphs_retired[i]) {
            OBJ_RELEASE(graphs_retired[i]);
            graphs_retired[i] = NULL;
        }
    }
    graphs_retired_next = 0;
}

/*
 * Run time of each kind.  start: as in graphs_engine_op_ops_t (internal
 * requests out, or 0 of them when done in the call); finish: collect the
 * results and release the requests.  Failures are captured as the
 * operation's error: no error handler is called.
 */

static int op_start_send(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    graphs_p2p_args_t *p = &t->a.p2p;
    int rc;

    if (MPI_PROC_NULL == p->peer) {
        return MPI_SUCCESS;
    }
    rc = MCA_PML_CALL(isend(p->buf, p->count, p->dtype, p->peer, p->tag,
                            MCA_PML_BASE_SEND_STANDARD, t->comm, &reqs[0]));
    if (OMPI_SUCCESS != rc) {
        return ompi_errcode_get_mpi_code(rc);
    }
    *nreqs = 1;
    return MPI_SUCCESS;
}

static void op_proc_null_status(ompi_status_public_t *status)
{
    if (MPI_STATUS_IGNORE != status) {
        status->MPI_SOURCE = MPI_PROC_NULL;
        status->MPI_TAG = MPI_ANY_TAG;
        status->MPI_ERROR = MPI_SUCCESS;
        status->_ucount = 0;
        status->_cancelled = 0;
    }
}

static int op_start_recv(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    graphs_p2p_args_t *p = &t->a.p2p;
    int rc;

    if (MPI_PROC_NULL == p->peer) {
        op_proc_null_status(p->status);
        return MPI_SUCCESS;
    }
    rc = MCA_PML_CALL(irecv(p->buf, p->count, p->dtype, p->peer, p->tag, t->comm, &reqs[0]));
    if (OMPI_SUCCESS != rc) {
        return ompi_errcode_get_mpi_code(rc);
    }
    *nreqs = 1;
    return MPI_SUCCESS;
}

static int op_start_sendrecv(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    graphs_p2p_args_t *s = &t->a.sr.send, *r = &t->a.sr.recv;
    int rc, n = 0;

    /* as MPI_Isendrecv: the receive first */
    if (MPI_PROC_NULL != r->peer) {
        rc = MCA_PML_CALL(irecv(r->buf, r->count, r->dtype, r->peer, r->tag, t->comm, &reqs[0]));
        if (OMPI_SUCCESS != rc) {
            return ompi_errcode_get_mpi_code(rc);
        }
        n = 1;
    } else {
        op_proc_null_status(r->status);
    }
    if (MPI_PROC_NULL != s->peer) {
        rc = MCA_PML_CALL(isend(s->buf, s->count, s->dtype, s->peer, s->tag,
                                MCA_PML_BASE_SEND_STANDARD, t->comm, &reqs[n]));
        if (OMPI_SUCCESS != rc) {
            if (1 == n) {
                /* the receive cannot be left behind: cancel and reap it */
                (void) ompi_request_cancel(reqs[0]);
                (void) ompi_request_wait(&reqs[0], MPI_STATUS_IGNORE);
            }
            return ompi_errcode_get_mpi_code(rc);
        }
        n++;
    }
    *nreqs = n;
    return MPI_SUCCESS;
}

int graphs_remote_barrier_post(ompi_communicator_t *comm, int watched, ompi_request_t **req)
{
    int rc, size = ompi_comm_size(comm);

    *req = NULL;
    if (watched < 0 || watched >= size) {
        /* a rank from a graph variable (a literal one is checked by the
         * binding) */
        return MPI_ERR_RANK;
    }
    if (watched != ompi_comm_rank(comm)) {
        rc = MCA_PML_CALL(irecv(NULL, 0, &ompi_mpi_byte.dt, watched,
                                OMPI_MATCH_TAG_REMOTE_BARRIER, comm, req));
        return OMPI_SUCCESS == rc ? MPI_SUCCESS : ompi_errcode_get_mpi_code(rc);
    }
    /* the watched process's call is local: a zero-byte message to every
     * other member, left to complete on its own (its request freed now) */
    for (int p = 0; p < size; ++p) {
        ompi_request_t *s;
        if (p == watched) {
            continue;
        }
        rc = MCA_PML_CALL(isend(NULL, 0, &ompi_mpi_byte.dt, p, OMPI_MATCH_TAG_REMOTE_BARRIER,
                                MCA_PML_BASE_SEND_STANDARD, comm, &s));
        if (OMPI_SUCCESS != rc) {
            return ompi_errcode_get_mpi_code(rc);
        }
        (void) ompi_request_free(&s);
    }
    return MPI_SUCCESS;
}

int graphs_remote_barrier_impl(ompi_communicator_t *comm, int watched)
{
    ompi_request_t *req = NULL;
    int rc = graphs_remote_barrier_post(comm, watched, &req);

    if (MPI_SUCCESS == rc && NULL != req) {
        rc = ompi_request_wait(&req, MPI_STATUS_IGNORE);
    }
    return rc;
}

static int op_start_remote_barrier(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    int rc = graphs_remote_barrier_post(t->comm, t->a.coll.root, &reqs[0]);

    *nreqs = (MPI_SUCCESS == rc && NULL != reqs[0]) ? 1 : 0;
    return rc;
}

static int op_start_coll(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    ompi_communicator_t *comm = t->comm;
    int rc;

    switch (t->kind) {
    case GRAPHS_OP_BARRIER:
        rc = comm->c_coll->coll_ibarrier(comm, &reqs[0], comm->c_coll->coll_ibarrier_module);
        break;
    case GRAPHS_OP_BCAST:
        rc = comm->c_coll->coll_ibcast(t->a.coll.rbuf, t->a.coll.count, t->a.coll.dtype,
                                       t->a.coll.root, comm, &reqs[0],
                                       comm->c_coll->coll_ibcast_module);
        break;
    case GRAPHS_OP_REDUCE:
        rc = comm->c_coll->coll_ireduce(t->a.coll.sbuf, t->a.coll.rbuf, t->a.coll.count,
                                        t->a.coll.dtype, t->a.coll.op, t->a.coll.root, comm,
                                        &reqs[0], comm->c_coll->coll_ireduce_module);
        break;
    default:
        rc = comm->c_coll->coll_iallreduce(t->a.coll.sbuf, t->a.coll.rbuf, t->a.coll.count,
                                           t->a.coll.dtype, t->a.coll.op, comm, &reqs[0],
                                           comm->c_coll->coll_iallreduce_module);
        break;
    }
    if (OMPI_SUCCESS != rc) {
        return ompi_errcode_get_mpi_code(rc);
    }
    *nreqs = 1;
    return MPI_SUCCESS;
}

/* the program's persistent request behind a Start_def or Wait_def token,
 * or NULL when there is none (MPI_ERR_REQUEST) */
static ompi_request_t *op_program_request(ompi_mpix_token_t *t)
{
    ompi_request_t *r = *t->a.preq.req;

    if (NULL == r || MPI_REQUEST_NULL == r || !r->req_persistent) {
        return NULL;
    }
    return r;
}

static int op_start_start(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    ompi_request_t *r = op_program_request(t);
    int rc;

    (void) reqs;
    (void) nreqs;
    if (NULL == r || OMPI_REQUEST_INACTIVE != r->req_state) {
        /* as MPI_Start: an active request cannot be started again */
        return MPI_ERR_REQUEST;
    }
    rc = r->req_start(1, &r);
    return OMPI_SUCCESS == rc ? MPI_SUCCESS : ompi_errcode_get_mpi_code(rc);
}

static int op_start_wait(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    ompi_request_t *r = op_program_request(t);

    if (NULL == r) {
        return MPI_ERR_REQUEST;
    }
    if (OMPI_REQUEST_INACTIVE == r->req_state) {
        /* as MPI_Wait on an inactive persistent request: an empty status */
        if (MPI_STATUS_IGNORE != t->a.preq.status) {
            OMPI_COPY_STATUS(t->a.preq.status, ompi_status_empty, false);
        }
        return MPI_SUCCESS;
    }
    reqs[0] = r;
    *nreqs = 1;
    return MPI_SUCCESS;
}

static int op_finish_wait(ompi_mpix_token_t *t, ompi_request_t **reqs, int nreqs)
{
    ompi_request_t *r = reqs[0];
    int flag = 0, err;

    (void) nreqs;
    err = r->req_status.MPI_ERROR;
    /* what MPI_Wait does to a completed persistent request (it stays the
     * program's: only made inactive) */
    (void) ompi_request_test(&r, &flag, t->a.preq.status);
    return err;
}

static int op_start_callback(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    (void) reqs;
    (void) nreqs;
    /* outside a graph the callback gets MPIX_GRAPH_NULL (D42) */
    return t->a.cb.fn(MPIX_GRAPH_NULL, t->a.cb.extra_state);
}

static int op_start_copy(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    (void) reqs;
    (void) nreqs;
    if (0 < t->a.copy.size) {
        memcpy(t->a.copy.dst, t->a.copy.src, (size_t) t->a.copy.size);
    }
    return MPI_SUCCESS;
}

static int op_start_alloc(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    void *base;

    (void) reqs;
    (void) nreqs;
    /* what MPI_Alloc_mem does */
    base = mca_mpool_base_alloc((size_t) t->a.mem.size, t->a.mem.info, NULL);
    if (NULL == base && 0 < t->a.mem.size) {
        return MPI_ERR_NO_MEM;
    }
    memcpy(t->a.mem.baseptr, &base, sizeof(void *));
    return MPI_SUCCESS;
}

static int op_start_free(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    (void) reqs;
    (void) nreqs;
    if (NULL == t->a.mem.baseptr) {
        return MPI_SUCCESS;
    }
    return (OMPI_SUCCESS == mca_mpool_base_free(t->a.mem.baseptr)) ? MPI_SUCCESS : MPI_ERR_BASE;
}

/* Blocking-only file operations: the MPI calls themselves (they bootstrap
 * the io framework and select a component); run by a caller that may block
 * or by a worker thread, never by the progress callback. */
static int op_start_file_open(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    (void) reqs;
    (void) nreqs;
    return PMPI_File_open(t->comm, t->a.file.filename, t->a.file.amode, t->a.file.info,
                          t->a.file.fhp);
}

static int op_start_file_close(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    (void) reqs;
    (void) nreqs;
    return PMPI_File_close(t->a.file.fhp);
}

static int op_start_file_get_size(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    (void) reqs;
    (void) nreqs;
    return PMPI_File_get_size(t->a.file.fh, t->a.file.size);
}

/* nonblocking I/O through the file's io module, as the MPI_File_i* bindings */
static int op_start_io(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    ompi_file_t *fh = t->a.io.fh;
    int rc;

    if (ompi_file_invalid(fh)) {
        return MPI_ERR_FILE;
    }
    if (MCA_IO_BASE_V_2_0_0 != fh->f_io_version) {
        return MPI_ERR_INTERN;
    }
    switch (t->kind) {
    case GRAPHS_OP_FILE_READ:
        rc = fh->f_io_selected_module.v2_0_0.io_module_file_iread(fh, t->a.io.buf, t->a.io.count,
                                                                  t->a.io.dtype, &reqs[0]);
        break;
    case GRAPHS_OP_FILE_READ_AT:
        rc = fh->f_io_selected_module.v2_0_0.io_module_file_iread_at(fh, t->a.io.offset,
                                                                     t->a.io.buf, t->a.io.count,
                                                                     t->a.io.dtype, &reqs[0]);
        break;
    case GRAPHS_OP_FILE_WRITE_AT:
        rc = fh->f_io_selected_module.v2_0_0.io_module_file_iwrite_at(fh, t->a.io.offset,
                                                                      t->a.io.buf, t->a.io.count,
                                                                      t->a.io.dtype, &reqs[0]);
        break;
    default:
        rc = fh->f_io_selected_module.v2_0_0.io_module_file_iwrite_at_all(fh, t->a.io.offset,
                                                                          t->a.io.buf,
                                                                          t->a.io.count,
                                                                          t->a.io.dtype, &reqs[0]);
        break;
    }
    if (OMPI_SUCCESS != rc) {
        return ompi_errcode_get_mpi_code(rc);
    }
    *nreqs = 1;
    return MPI_SUCCESS;
}

/* release every request, return the first error among them */
static int op_finish_reqs(ompi_request_t **reqs, int nreqs)
{
    int err = MPI_SUCCESS;

    for (int r = 0; r < nreqs; ++r) {
        if (MPI_SUCCESS == err) {
            err = reqs[r]->req_status.MPI_ERROR;
        }
        (void) ompi_request_free(&reqs[r]);
    }
    return err;
}

static int op_finish_recv(ompi_mpix_token_t *t, ompi_request_t **reqs, int nreqs)
{
    if (MPI_STATUS_IGNORE != t->a.p2p.status) {
        OMPI_COPY_STATUS(t->a.p2p.status, reqs[0]->req_status, false);
    }
    return op_finish_reqs(reqs, nreqs);
}

static int op_finish_sendrecv(ompi_mpix_token_t *t, ompi_request_t **reqs, int nreqs)
{
    if (MPI_PROC_NULL != t->a.sr.recv.peer && MPI_STATUS_IGNORE != t->a.sr.recv.status) {
        OMPI_COPY_STATUS(t->a.sr.recv.status, reqs[0]->req_status, false);
    }
    return op_finish_reqs(reqs, nreqs);
}

static int op_finish_io(ompi_mpix_token_t *t, ompi_request_t **reqs, int nreqs)
{
    if (MPI_STATUS_IGNORE != t->a.io.status) {
        OMPI_COPY_STATUS(t->a.io.status, reqs[0]->req_status, false);
    }
    return op_finish_reqs(reqs, nreqs);
}

static int op_finish_plain(ompi_mpix_token_t *t, ompi_request_t **reqs, int nreqs)
{
    (void) t;
    return op_finish_reqs(reqs, nreqs);
}

typedef struct {
    int (*start)(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs);
    int (*finish)(ompi_mpix_token_t *t, ompi_request_t **reqs, int nreqs);
} graphs_op_desc_t;

static const graphs_op_desc_t graphs_op_table[GRAPHS_OP_MAX] = {
    [GRAPHS_OP_SEND] = {op_start_send, op_finish_plain},
    [GRAPHS_OP_RECV] = {op_start_recv, op_finish_recv},
    [GRAPHS_OP_SENDRECV] = {op_start_sendrecv, op_finish_sendrecv},
    [GRAPHS_OP_BARRIER] = {op_start_coll, op_finish_plain},
    [GRAPHS_OP_BCAST] = {op_start_coll, op_finish_plain},
    [GRAPHS_OP_REDUCE] = {op_start_coll, op_finish_plain},
    [GRAPHS_OP_ALLREDUCE] = {op_start_coll, op_finish_plain},
    [GRAPHS_OP_CALLBACK] = {op_start_callback, op_finish_plain},
    [GRAPHS_OP_COPY_MEM] = {op_start_copy, op_finish_plain},
    [GRAPHS_OP_ALLOC_MEM] = {op_start_alloc, op_finish_plain},
    [GRAPHS_OP_FREE_MEM] = {op_start_free, op_finish_plain},
    [GRAPHS_OP_FILE_OPEN] = {op_start_file_open, op_finish_plain},
    [GRAPHS_OP_FILE_CLOSE] = {op_start_file_close, op_finish_plain},
    [GRAPHS_OP_FILE_GET_SIZE] = {op_start_file_get_size, op_finish_plain},
    [GRAPHS_OP_FILE_READ] = {op_start_io, op_finish_io},
    [GRAPHS_OP_FILE_READ_AT] = {op_start_io, op_finish_io},
    [GRAPHS_OP_FILE_WRITE_AT] = {op_start_io, op_finish_io},
    [GRAPHS_OP_FILE_WRITE_AT_ALL] = {op_start_io, op_finish_io},
    [GRAPHS_OP_REMOTE_BARRIER] = {op_start_remote_barrier, op_finish_plain},
    [GRAPHS_OP_START] = {op_start_start, op_finish_plain},
    [GRAPHS_OP_WAIT] = {op_start_wait, op_finish_wait},
    /* a graph token is loaded as its nodes (graphs_run.c), never started as one */
    [GRAPHS_OP_GRAPH] = {NULL, op_finish_plain},
};

int graphs_token_start_kind(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs)
{
    *nreqs = 0;
    return graphs_op_table[t->kind].start(t, reqs, nreqs);
}

int graphs_token_finish_kind(ompi_mpix_token_t *t, ompi_request_t **reqs, int nreqs)
{
    return graphs_op_table[t->kind].finish(t, reqs, nreqs);
}

static int token_exec_start(void *op, ompi_request_t **reqs, int *nreqs)
{
    ompi_mpix_token_t *t = (ompi_mpix_token_t *) op;
    *nreqs = 0;
    return graphs_op_table[t->kind].start(t, reqs, nreqs);
}

static int token_exec_finish(void *op, ompi_request_t **reqs, int nreqs)
{
    ompi_mpix_token_t *t = (ompi_mpix_token_t *) op;
    return graphs_op_table[t->kind].finish(t, reqs, nreqs);
}

static void token_exec_release(void *op)
{
    graphs_token_release((ompi_mpix_token_t *) op);
}

const graphs_engine_op_ops_t graphs_token_exec_ops = {
    .start = token_exec_start,
    .finish = token_exec_finish,
    .release = token_exec_release,
};

static inline bool token_try(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs, int *rc,
                             int (*start)(ompi_mpix_token_t *, ompi_request_t **, int *),
                             int (*finish)(ompi_mpix_token_t *, ompi_request_t **, int))
{
    *nreqs = 0;
    *rc = start(t, reqs, nreqs);
    if (MPI_SUCCESS != *rc || 0 == *nreqs) {
        return true;
    }
    for (int r = 0; r < *nreqs; ++r) {
        if (!ompi_request_seen_complete(reqs[r])) {
            return false;
        }
    }
    *rc = finish(t, reqs, *nreqs);
    return true;
}

bool graphs_token_try_table(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs, int *rc)
{
    if (GRAPHS_OP_SENDRECV == t->kind) {
        /* a loop's exchange, started once per iteration: direct calls */
        return token_try(t, reqs, nreqs, rc, op_start_sendrecv, op_finish_sendrecv);
    }
    return token_try(t, reqs, nreqs, rc, graphs_op_table[t->kind].start,
                     graphs_op_table[t->kind].finish);
}
