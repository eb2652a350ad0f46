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
 * Execution requests (MPIX_Iexecute, MPIX_Execute_init).  An execution request is an OMPI_REQUEST_COLL request on
 * MPI_COMM_SELF with its own start/free/cancel, as libnbc's persistent
 * collectives are, so that the unpatched MPI_Start, MPI_Startall, waits,
 * tests, MPI_Request_get_status and MPI_Request_free serve it.
 */

#include "ompi_config.h"

#include "opal/runtime/opal_progress.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mpiext/graphs/c/graphs_graph.h"
#include "ompi/mpiext/graphs/c/graphs_location.h"
#include "ompi/mpiext/graphs/c/graphs_request.h"
#include "ompi/mpiext/graphs/c/graphs_stream.h"
#include "ompi/request/request_owner.h"

static int graphs_request_start(size_t count, ompi_request_t **requests);
static int graphs_request_free(ompi_request_t **request);
static int graphs_request_cancel(ompi_request_t *request, int complete);
static void graphs_exec_done(graphs_engine_t *exec, void *cbdata);

/* the state of a new execution request (construction, and reuse from the cache) */
static void graphs_request_clear(graphs_request_t *req)
{
    req->kind = GRAPHS_REQ_EXEC;
    req->loc_type = MPIX_LOC_INPLACE;
    req->completed = false;
    req->user_freed = false;
    req->held = false;
    req->error_kept = false;
    req->last_error = MPI_SUCCESS;
    req->last_op = MPIX_DEP_NONE;
    req->stream = NULL;
    req->target = 0;
    req->offload = NULL;
    req->outer = NULL;
}

static void graphs_request_construct(graphs_request_t *req)
{
    req->super.req_type = OMPI_REQUEST_COLL;
    req->super.req_start = graphs_request_start;
    req->super.req_free = graphs_request_free;
    req->super.req_cancel = graphs_request_cancel;
    req->token = NULL;
    graphs_engine_init(&req->exec, false, graphs_exec_done, NULL, req);
    graphs_request_clear(req);
}

static void graphs_request_destruct(graphs_request_t *req)
{
    graphs_engine_fini(&req->exec);
    if (NULL != req->token) {
        graphs_token_release(req->token);
    }
}

OBJ_CLASS_INSTANCE(graphs_request_t, ompi_request_t, graphs_request_construct,
                   graphs_request_destruct);

#if OPAL_ENABLE_FT_MPI
/* MPI_Wait and friends ask, under ULFM, whether a failure ends the
 * execution: nothing else asks its internal requests, whose peer may be
 * dead.  The execution then completes through progress, which the waiter
 * runs next. */
static bool graphs_request_ft_check(ompi_request_t *request)
{
    graphs_request_t *req = (graphs_request_t *) request;

    if (!ompi_request_seen_complete(request) && GRAPHS_REQ_EXEC == req->kind) {
        graphs_engine_ft_check(&req->exec);
    }
    return false;
}
#endif

int graphs_request_ft_init(void)
{
#if OPAL_ENABLE_FT_MPI
    return ompi_request_ft_check_register(OBJ_CLASS(graphs_request_t), graphs_request_ft_check);
#else
    return OMPI_SUCCESS;
#endif
}

/*
 * The request MPIX_Iexecute returns for a token that is one operation and
 * completed in the call without error and without a status to report (as
 * the PMLs return a completed request for a send done at once): complete,
 * shared, read only, and never released.
 */
static graphs_request_t graphs_request_done;
static bool graphs_request_done_made = false;

static int graphs_request_done_free(ompi_request_t **request)
{
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

void graphs_request_done_init(void)
{
    OBJ_CONSTRUCT(&graphs_request_done, graphs_request_t);
    OMPI_REQUEST_INIT(&graphs_request_done.super, false);
    graphs_request_done.super.req_free = graphs_request_done_free;
    graphs_request_done.super.req_mpi_object.comm = &ompi_mpi_comm_self.comm;
    graphs_request_done.super.req_state = OMPI_REQUEST_ACTIVE;
    graphs_request_done.super.req_complete = REQUEST_COMPLETED;
    graphs_request_done.super.req_status = ompi_status_empty;
    graphs_request_done.completed = true;
    graphs_request_done_made = true;
}

void graphs_request_done_fini(void)
{
    if (graphs_request_done_made) {
        OMPI_REQUEST_FINI(&graphs_request_done.super);
        OBJ_DESTRUCT(&graphs_request_done);
        graphs_request_done_made = false;
    }
}

bool graphs_request_is(ompi_request_t *req)
{
    return NULL != req
           && (graphs_request_free == req->req_free || graphs_request_done_free == req->req_free);
}

/* the status of a completed execution: empty, with the first failure; a
 * token that is one receive reports the receive's status */
static void graphs_request_set_status(graphs_request_t *req)
{
    ompi_status_public_t *st = &req->super.req_status;
    ompi_mpix_token_t *t = req->token;

    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->_ucount = 0;
    st->_cancelled = 0;
    if (NULL != t && GRAPHS_OP_RECV == t->kind && MPI_STATUS_IGNORE != t->a.p2p.status) {
        st->MPI_SOURCE = t->a.p2p.status->MPI_SOURCE;
        st->MPI_TAG = t->a.p2p.status->MPI_TAG;
        st->_ucount = t->a.p2p.status->_ucount;
    }
    st->MPI_ERROR = req->exec.error;
    req->last_error = req->exec.error;
    /* the failed top-level node of a graph; a single-operation token has
     * no op IDs */
    req->last_op = graphs_exec_error_op(&req->exec, req->token);
    if (req->exec.cancelled && MPI_ERR_PENDING == req->exec.error) {
        /* stopped by MPI_Cancel, nothing failed */
        st->_cancelled = 1;
        st->MPI_ERROR = MPI_SUCCESS;
        req->last_error = MPI_SUCCESS;
        req->last_op = MPIX_DEP_NONE;
    }
}

/*
 * Execution requests given back are kept for reuse (with their node array),
 * up to this many: an MPIX_Iexecute per message would otherwise pay for an
 * object construction, two allocations and their frees every time.
 */
#define GRAPHS_REQUEST_CACHE 64

static graphs_request_t *graphs_request_cache[GRAPHS_REQUEST_CACHE];
static int graphs_request_cached = 0;
static opal_mutex_t graphs_request_cache_lock = OPAL_MUTEX_STATIC_INIT;

static graphs_request_t *graphs_request_get(void)
{
    graphs_request_t *req = NULL;

    if (0 < graphs_request_cached) {
        OPAL_THREAD_LOCK(&graphs_request_cache_lock);
        if (0 < graphs_request_cached) {
            req = graphs_request_cache[--graphs_request_cached];
        }
        OPAL_THREAD_UNLOCK(&graphs_request_cache_lock);
    }
    if (NULL == req) {
        return OBJ_NEW(graphs_request_t);
    }
    graphs_request_clear(req);
    return req;
}

static void graphs_request_release(graphs_request_t *req, bool deferred)
{
    if (req->held) {
        graphs_engine_unhold(&req->exec, &req->super);
        req->held = false;
    }
    if (deferred) {
        graphs_location_release_deferred(req->loc_type);
    } else {
        graphs_location_release(req->loc_type);
    }
    if (NULL != req->offload) {
        if (deferred) {
            graphs_location_free_later(req->offload);
        } else {
            req->offload->ops->free(req->offload);
        }
        req->offload = NULL;
    }
    OMPI_REQUEST_FINI(&req->super);
    if (GRAPHS_REQ_EXEC == req->kind && graphs_request_cached < GRAPHS_REQUEST_CACHE) {
        graphs_engine_reset(&req->exec);
        if (NULL != req->token) {
            graphs_token_release(req->token);
            req->token = NULL;
        }
        OPAL_THREAD_LOCK(&graphs_request_cache_lock);
        if (graphs_request_cached < GRAPHS_REQUEST_CACHE) {
            graphs_request_cache[graphs_request_cached++] = req;
            req = NULL;
        }
        OPAL_THREAD_UNLOCK(&graphs_request_cache_lock);
        if (NULL == req) {
            return;
        }
    }
    OBJ_RELEASE(req);
}

void graphs_request_destroy(graphs_request_t *req)
{
    graphs_request_release(req, false);
}

void graphs_request_cache_flush(void)
{
    OPAL_THREAD_LOCK(&graphs_request_cache_lock);
    while (0 < graphs_request_cached) {
        graphs_request_t *req = graphs_request_cache[--graphs_request_cached];
        OBJ_RELEASE(req);
    }
    OPAL_THREAD_UNLOCK(&graphs_request_cache_lock);
}

/* the inner execution of a CUDA-located request completed: so has the
 * program's request (its status is the inner one's) */
static void graphs_request_complete_outer(graphs_request_t *outer, graphs_request_t *inner)
{
    bool release;

    OPAL_THREAD_LOCK(&outer->exec.lock);
    outer->super.req_status = inner->super.req_status;
    outer->last_error = inner->last_error;
    outer->last_op = inner->last_op;
    outer->completed = true;
    release = outer->user_freed;
    OPAL_THREAD_UNLOCK(&outer->exec.lock);
    if (release) {
        graphs_request_release(outer, true);
        return;
    }
    ompi_request_complete(&outer->super, true);
}

/* exec lock not held: the execution completed; complete the request */
static void graphs_request_complete(graphs_request_t *req)
{
    graphs_request_t *outer;
    bool release;

    OPAL_THREAD_LOCK(&req->exec.lock);
    graphs_request_set_status(req);
    /* release: an offloaded execution's poll reads it without the lock,
     * then the status (graphs_cuda_execute) */
    __atomic_store_n(&req->completed, true, __ATOMIC_RELEASE);
    release = req->user_freed;
    outer = req->outer;
    OPAL_THREAD_UNLOCK(&req->exec.lock);
    if (release) {
        /* freed by the program while active: nobody waits for it */
        graphs_request_release(req, true);
        return;
    }
    ompi_request_complete(&req->super, true);
    if (NULL != outer) {
        graphs_request_complete_outer(outer, req);
    }
}

static void graphs_exec_done(graphs_engine_t *exec, void *cbdata)
{
    (void) exec;
    graphs_request_complete((graphs_request_t *) cbdata);
}

/* lock held: a one-operation token the caller started on the (reset)
 * execution: done with rc, or its requests still running (a node) */
static void graphs_request_take(graphs_request_t *req, bool done, int rc, ompi_request_t **reqs,
                                int nreqs)
{
    if (done) {
        graphs_engine_retire_now(&req->exec, rc);
    } else {
        OBJ_RETAIN(req->token);
        (void) graphs_engine_track(&req->exec, &graphs_token_exec_ops, req->token, reqs, nreqs);
    }
}

/* lock held, released here: the execution is started; complete the request
 * if it is done, otherwise hand it to progress */
static void graphs_request_started(graphs_request_t *req)
{
    bool done = graphs_engine_complete(&req->exec);

    if (!done && OMPI_SUCCESS != graphs_engine_activate(&req->exec)) {
        /* cannot be progressed: nothing else is running yet only when the
         * first node is still waiting, which a single token never is */
        req->exec.error = MPI_ERR_NO_MEM;
        done = 0 == req->exec.running;
    }
    OPAL_THREAD_UNLOCK(&req->exec.lock);
    if (done) {
        graphs_request_complete(req);
    }
}

/* the request's state at the start of an execution */
static void graphs_request_arm(graphs_request_t *req)
{
    req->super.req_status.MPI_ERROR = MPI_SUCCESS;
    /* another thread may be polling the request (ompi_request_seen_complete):
     * it sees the reset status with the pending state */
    __atomic_store_n(&req->super.req_complete, REQUEST_PENDING, __ATOMIC_RELEASE);
    req->super.req_state = OMPI_REQUEST_ACTIVE;
    __atomic_store_n(&req->completed, false, __ATOMIC_RELAXED);
    req->error_kept = false;
}

/* start one execution: load the token, run what can run now, hand the rest
 * to progress */
static int graphs_request_launch(graphs_request_t *req)
{
    int ret;

    graphs_request_arm(req);
    if (NULL != req->offload) {
        /* ordered in the device's stream: its host agent starts the inner
         * execution when the stream reaches this point */
        ret = req->offload->ops->start(req->offload, req);
        if (MPI_SUCCESS != ret) {
            req->super.req_status.MPI_ERROR = ret;
            req->last_error = ret;
            __atomic_store_n(&req->completed, true, __ATOMIC_RELEASE);
            ompi_request_complete(&req->super, true);
        }
        return OMPI_SUCCESS;
    }
    OPAL_THREAD_LOCK(&req->exec.lock);
    if (graphs_token_fast(req->token)) {
        /* one operation and nothing before it: start it here, no node
         * unless it is still running */
        ompi_request_t *reqs[GRAPHS_ENGINE_NODE_REQS];
        int nreqs, rc;
        bool done;

        graphs_engine_reset(&req->exec);
        done = graphs_token_try_now(req->token, reqs, &nreqs, &rc);
        graphs_request_take(req, done, rc, reqs, nreqs);
    } else if (MPI_SUCCESS != (ret = graphs_exec_reload(&req->exec, req->token))) {
        req->exec.error = ret;
    } else if (MPIX_OFFLOAD_PTHREAD != req->loc_type) {
        /* at PTHREAD the progress thread runs it: a loop that could run
         * to its end here would take the caller's time */
        (void) graphs_engine_advance(&req->exec, false);
    }
    graphs_request_started(req);
    return OMPI_SUCCESS;
}

int graphs_request_create(ompi_mpix_token_t *token, int loc_type, bool persistent,
                          graphs_offload_t *offload, graphs_request_t **out)
{
    ompi_request_t *reqs[GRAPHS_ENGINE_NODE_REQS];
    int nreqs = 0, rc = MPI_SUCCESS;
    bool started = false, done = false;
    graphs_request_t *req;

    if (!persistent && MPIX_LOC_INPLACE == loc_type && graphs_token_fast(token)) {
        /* one operation: start it before making a request, which it may
         * not need */
        started = true;
        done = graphs_token_try_now(token, reqs, &nreqs, &rc);
        if (done && MPI_SUCCESS == rc
            && !(GRAPHS_OP_RECV == token->kind && MPI_STATUS_IGNORE != token->a.p2p.status)) {
            *out = &graphs_request_done;
            return MPI_SUCCESS;
        }
    }
    req = graphs_request_get();
    if (NULL == req) {
        /* the operation has run or runs: the call fails all the same, as
         * an MPI_Isend that cannot allocate its request may */
        if (started && !done) {
            /* nothing to track it with: wait for it here */
            for (int r = 0; r < nreqs; ++r) {
                (void) ompi_request_wait_completion(reqs[r]);
            }
            (void) graphs_token_finish_kind(token, reqs, nreqs);
        }
        return MPI_ERR_NO_MEM;
    }
    if (NULL == offload && !opal_using_threads() && graphs_token_blocking(token)) {
        /* no worker thread may run its blocking-only nodes, and progress
         * must not: MPI_Wait and MPI_Test on the request will (spec 4.2) */
        if (OMPI_SUCCESS != graphs_engine_hold(&req->exec, &req->super)) {
            OBJ_RELEASE(req);
            return MPI_ERR_NO_MEM;
        }
        req->held = true;
    }
    OMPI_REQUEST_INIT(&req->super, persistent);
    /* errors at completion go to the handler of the operation's
     * communicator (retained by the token, so valid as long as the
     * request); a graph's session's for a graph of a session;
     * MPI_COMM_SELF's for other local operations */
    if (NULL != token->comm) {
        req->super.req_mpi_object.comm = token->comm;
    } else {
        req->super.req_mpi_object.comm = graphs_session_comm(
            GRAPHS_OP_GRAPH == token->kind ? token->a.gdef->session : NULL);
    }
    OBJ_RETAIN(token);
    req->token = token;
    req->loc_type = loc_type;
    req->offload = offload;
    *out = req;
    if (started) {
        /* as graphs_request_launch, with the operation already started (a
         * request from the cache or a new one has a reset execution) */
        graphs_request_arm(req);
        OPAL_THREAD_LOCK(&req->exec.lock);
        graphs_request_take(req, done, rc, reqs, nreqs);
        graphs_request_started(req);
    } else if (!persistent) {
        (void) graphs_request_launch(req);
    }
    return MPI_SUCCESS;
}

static int graphs_request_start(size_t count, ompi_request_t **requests)
{
    for (size_t i = 0; i < count; ++i) {
        graphs_request_t *req = (graphs_request_t *) requests[i];
        if (OMPI_REQUEST_ACTIVE == req->super.req_state) {
            return OMPI_ERR_REQUEST;
        }
        (void) graphs_request_launch(req);
    }
    return OMPI_SUCCESS;
}

static int graphs_request_free(ompi_request_t **request)
{
    graphs_request_t *req = (graphs_request_t *) *request;
    bool release = true;

    OPAL_THREAD_LOCK(&req->exec.lock);
    if (req->completed && MPI_SUCCESS != req->last_error && !req->error_kept) {
        /* MPI_Wait/MPI_Test report an error through
         * ompi_errhandler_request_invoke, which frees every request in
         * error, persistent ones included.  The first free after a failed
         * execution is that one: keep the request, so that the program can
         * inspect it (MPIX_Execute_get_error) and start it again (spec
         * 1.3, 2.9); the program's own MPI_Request_free releases it. */
        req->error_kept = true;
        OPAL_THREAD_UNLOCK(&req->exec.lock);
        return OMPI_SUCCESS;
    }
    if (OMPI_REQUEST_ACTIVE == req->super.req_state && !req->completed) {
        /* the execution goes on; its completion releases the request */
        req->user_freed = true;
        release = false;
        if (req->held) {
            /* nothing waits for this request now: the MPI_Wait-family
             * calls on any request drive the execution */
            graphs_engine_orphan(&req->exec, &req->super);
        }
    }
    OPAL_THREAD_UNLOCK(&req->exec.lock);
    if (release) {
        graphs_request_release(req, false);
    }
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int graphs_request_cancel(ompi_request_t *request, int complete)
{
    graphs_request_t *req = (graphs_request_t *) request;

    (void) complete;
    if (GRAPHS_REQ_EXEC != req->kind || NULL != req->offload) {
        return OMPI_SUCCESS;
    }
    /* stop starting, cancel what can be cancelled; the execution then
     * completes as usual (progress), marked cancelled (spec 1.9) */
    OPAL_THREAD_LOCK(&req->exec.lock);
    if (OMPI_REQUEST_ACTIVE == req->super.req_state && !req->completed) {
        graphs_engine_cancel(&req->exec);
    }
    OPAL_THREAD_UNLOCK(&req->exec.lock);
    return OMPI_SUCCESS;
}

int graphs_execute_blocking(ompi_mpix_token_t *token)
{
    graphs_engine_t exec;
    int error;

    graphs_engine_init(&exec, false, NULL, NULL, NULL);
    error = graphs_exec_load(&exec, token);
    if (MPI_SUCCESS == error) {
        OPAL_THREAD_LOCK(&exec.lock);
        (void) graphs_engine_advance(&exec, true);
        while (!graphs_engine_complete(&exec)) {
            OPAL_THREAD_UNLOCK(&exec.lock);
            opal_progress();
            OPAL_THREAD_LOCK(&exec.lock);
            (void) graphs_engine_advance(&exec, true);
        }
        error = exec.error;
        OPAL_THREAD_UNLOCK(&exec.lock);
    }
    graphs_engine_fini(&exec);
    return error;
}

int graphs_execute_get_error_impl(ompi_request_t *request, int *errcode, int *op_id,
                                  const char **msg)
{
    graphs_request_t *req = (graphs_request_t *) request;

    if (!graphs_request_is(request) || GRAPHS_REQ_EXEC != req->kind || !req->completed) {
        *msg = "MPIX_Execute_get_error: not a completed execution request";
        return MPI_ERR_REQUEST;
    }
    *errcode = req->last_error;
    if (NULL != op_id) {
        *op_id = req->last_op;
    }
    return MPI_SUCCESS;
}
