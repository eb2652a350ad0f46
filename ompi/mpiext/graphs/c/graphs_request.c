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
 * Execution requests (MPIX_Iexecute, MPIX_Execute_init) and the location
 * checks.  An execution request is an OMPI_REQUEST_COLL request on
 * MPI_COMM_SELF with its own start/free/cancel, as libnbc's persistent
 * collectives are, so that the unpatched MPI_Start, MPI_Startall, waits,
 * tests, MPI_Request_get_status and MPI_Request_free serve it.
 */

#include "ompi_config.h"

#include "opal/runtime/opal_progress.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/queue/base/queue_object.h"
#include "ompi/mpiext/graphs/c/graphs.h"
#include "ompi/runtime/ompi_async_progress.h"

/* holds of the progress thread that could not be released in the thread
 * that completed an execution (the progress thread itself cannot join
 * itself): released by the next call from the program, or at finalization */
static opal_atomic_int32_t graphs_deferred_releases = 0;

int graphs_location_acquire(int loc_type, void *loc_info, const char **msg)
{
    ompi_queue_t *queue = NULL;
    char *qmsg = NULL;
    int ret;

    while (0 < graphs_deferred_releases) {
        (void) OPAL_THREAD_ADD_FETCH32(&graphs_deferred_releases, -1);
        ompi_async_progress_release();
    }
    switch (loc_type) {
    case MPIX_LOC_INPLACE:
        return MPI_SUCCESS;
    case MPIX_OFFLOAD_PTHREAD:
        if (OMPI_SUCCESS != ompi_async_progress_request()) {
            *msg = "MPIX_OFFLOAD_PTHREAD needs a thread-safe library: initialize with "
                   "MPI_THREAD_MULTIPLE, or request strong progress (mpi_async_progress=1 or "
                   "the info key mpi_strong_progress)";
            return MPI_ERR_ARG;
        }
        return MPI_SUCCESS;
    case MPIX_OFFLOAD_CUDA:
        if (NULL == loc_info) {
            *msg = "MPIX_OFFLOAD_CUDA needs loc_info pointing to a cudaStream_t";
            return MPI_ERR_ARG;
        }
        /* the same refusals as an MPI_Queue on that stream (no driver, no
         * device, library not thread safe) */
        ret = ompi_queue_create(MPIX_QUEUE_TYPE_CUDA_STREAM, loc_info, &queue, &qmsg);
        if (OMPI_SUCCESS != ret) {
            *msg = "MPIX_OFFLOAD_CUDA is not available: no CUDA driver or device, or the "
                   "library is not thread safe (MPI_Queue_init of a CUDA stream queue refuses "
                   "it too; OMPI_MCA_queue_base_verbose=100 says why)";
            free(qmsg);
            return MPI_ERR_ARG;
        }
        (void) ompi_queue_release(queue);
        *msg = "MPIX_OFFLOAD_CUDA is not implemented yet in this build (docs/graphs-streams.md)";
        return MPI_ERR_UNSUPPORTED_OPERATION;
    case MPIX_OFFLOAD_HIP:
        *msg = "MPIX_OFFLOAD_HIP is not available in this build";
        return MPI_ERR_ARG;
    case MPIX_OFFLOAD_NITRO:
        *msg = "MPIX_OFFLOAD_NITRO is not available (no such device support)";
        return MPI_ERR_ARG;
    default:
        *msg = "unknown loc_type";
        return MPI_ERR_ARG;
    }
}

void graphs_location_release(int loc_type)
{
    if (MPIX_OFFLOAD_PTHREAD == loc_type) {
        ompi_async_progress_release();
    }
}

/* the last reference of a request that may be completed in the progress
 * thread: never join that thread from itself */
static void graphs_location_release_deferred(int loc_type)
{
    if (MPIX_OFFLOAD_PTHREAD == loc_type) {
        (void) OPAL_THREAD_ADD_FETCH32(&graphs_deferred_releases, 1);
    }
}

void graphs_location_flush(void)
{
    while (0 < graphs_deferred_releases) {
        (void) OPAL_THREAD_ADD_FETCH32(&graphs_deferred_releases, -1);
        ompi_async_progress_release();
    }
}

static int graphs_request_start(size_t count, ompi_request_t **requests);
static int graphs_request_free(ompi_request_t **request);
static int graphs_request_cancel(ompi_request_t *request, int complete);
static void graphs_exec_done(ompi_queue_exec_t *exec, void *cbdata);

static void graphs_request_construct(graphs_request_t *req)
{
    req->super.req_type = OMPI_REQUEST_COLL;
    req->super.req_start = graphs_request_start;
    req->super.req_free = graphs_request_free;
    req->super.req_cancel = graphs_request_cancel;
    req->kind = GRAPHS_REQ_EXEC;
    req->token = NULL;
    ompi_queue_exec_init(&req->exec, false, graphs_exec_done, NULL, req);
    req->loc_type = MPIX_LOC_INPLACE;
    req->completed = false;
    req->user_freed = false;
    req->error_kept = false;
    req->last_error = MPI_SUCCESS;
    req->last_op = MPIX_DEP_NONE;
    req->stream = NULL;
    req->target = 0;
}

static void graphs_request_destruct(graphs_request_t *req)
{
    ompi_queue_exec_fini(&req->exec);
    if (NULL != req->token) {
        OBJ_RELEASE(req->token);
    }
}

OBJ_CLASS_INSTANCE(graphs_request_t, ompi_request_t, graphs_request_construct,
                   graphs_request_destruct);

bool graphs_request_is(ompi_request_t *req)
{
    return NULL != req && graphs_request_free == req->req_free;
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
    /* a single-operation token has no op IDs */
    req->last_op = MPIX_DEP_NONE;
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
    req->kind = GRAPHS_REQ_EXEC;
    req->loc_type = MPIX_LOC_INPLACE;
    req->completed = false;
    req->user_freed = false;
    req->error_kept = false;
    req->last_error = MPI_SUCCESS;
    req->last_op = MPIX_DEP_NONE;
    req->stream = NULL;
    req->target = 0;
    return req;
}

static void graphs_request_release(graphs_request_t *req, bool deferred)
{
    if (deferred) {
        graphs_location_release_deferred(req->loc_type);
    } else {
        graphs_location_release(req->loc_type);
    }
    OMPI_REQUEST_FINI(&req->super);
    if (GRAPHS_REQ_EXEC == req->kind && graphs_request_cached < GRAPHS_REQUEST_CACHE) {
        ompi_queue_exec_reset(&req->exec);
        if (NULL != req->token) {
            OBJ_RELEASE(req->token);
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

void graphs_request_cache_flush(void)
{
    OPAL_THREAD_LOCK(&graphs_request_cache_lock);
    while (0 < graphs_request_cached) {
        graphs_request_t *req = graphs_request_cache[--graphs_request_cached];
        OBJ_RELEASE(req);
    }
    OPAL_THREAD_UNLOCK(&graphs_request_cache_lock);
}

/* exec lock not held: the execution completed; complete the request */
static void graphs_request_complete(graphs_request_t *req)
{
    bool release;

    OPAL_THREAD_LOCK(&req->exec.lock);
    graphs_request_set_status(req);
    req->completed = true;
    release = req->user_freed;
    OPAL_THREAD_UNLOCK(&req->exec.lock);
    if (release) {
        /* freed by the program while active: nobody waits for it */
        graphs_request_release(req, true);
        return;
    }
    ompi_request_complete(&req->super, true);
}

static void graphs_exec_done(ompi_queue_exec_t *exec, void *cbdata)
{
    (void) exec;
    graphs_request_complete((graphs_request_t *) cbdata);
}

/* start one execution: load the token, run what can run now, hand the rest
 * to progress */
static int graphs_request_launch(graphs_request_t *req)
{
    bool done;
    int ret;

    req->super.req_status.MPI_ERROR = MPI_SUCCESS;
    req->super.req_complete = REQUEST_PENDING;
    req->super.req_state = OMPI_REQUEST_ACTIVE;
    req->completed = false;
    req->error_kept = false;
    OPAL_THREAD_LOCK(&req->exec.lock);
    ompi_queue_exec_reset(&req->exec);
    if (graphs_token_fast(req->token)) {
        /* one operation and nothing before it: start it here, no node
         * unless it is still running */
        OBJ_RETAIN(req->token);
        (void) ompi_queue_exec_run_now(&req->exec, &graphs_token_exec_ops, req->token);
    } else if (MPI_SUCCESS != (ret = graphs_exec_load(&req->exec, req->token))) {
        req->exec.error = ret;
    } else {
        (void) ompi_queue_exec_advance(&req->exec, false);
    }
    done = ompi_queue_exec_complete(&req->exec);
    if (!done && OMPI_SUCCESS != ompi_queue_exec_activate(&req->exec)) {
        /* cannot be progressed: nothing else is running yet only when the
         * first node is still waiting, which a single token never is */
        req->exec.error = MPI_ERR_NO_MEM;
        done = 0 == req->exec.running;
    }
    OPAL_THREAD_UNLOCK(&req->exec.lock);
    if (done) {
        graphs_request_complete(req);
    }
    return OMPI_SUCCESS;
}

int graphs_request_create(ompi_mpix_token_t *token, int loc_type, bool persistent,
                          graphs_request_t **out)
{
    graphs_request_t *req = graphs_request_get();

    if (NULL == req) {
        return MPI_ERR_NO_MEM;
    }
    OMPI_REQUEST_INIT(&req->super, persistent);
    /* errors at completion go to the handler of the operation's
     * communicator (retained by the token, so valid as long as the
     * request); MPI_COMM_SELF's for local operations */
    req->super.req_mpi_object.comm = (NULL != token->comm) ? token->comm
                                                           : &ompi_mpi_comm_self.comm;
    OBJ_RETAIN(token);
    req->token = token;
    req->loc_type = loc_type;
    *out = req;
    if (!persistent) {
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

    if (GRAPHS_REQ_ISYNC == req->kind) {
        graphs_isync_forget(req);
    } else {
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
        }
        OPAL_THREAD_UNLOCK(&req->exec.lock);
    }
    if (release) {
        graphs_request_release(req, false);
    }
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int graphs_request_cancel(ompi_request_t *request, int complete)
{
    (void) request;
    (void) complete;
    /* cancelling an execution is optional (spec 1.9): not done */
    return OMPI_SUCCESS;
}

graphs_request_t *graphs_isync_new(ompi_mpix_stream_t *stream, uint64_t target)
{
    graphs_request_t *req = OBJ_NEW(graphs_request_t);

    if (NULL != req) {
        OMPI_REQUEST_INIT(&req->super, false);
        req->super.req_mpi_object.comm = &ompi_mpi_comm_self.comm;
        req->super.req_state = OMPI_REQUEST_ACTIVE;
        req->kind = GRAPHS_REQ_ISYNC;
        req->stream = stream;
        req->target = target;
    }
    return req;
}

int graphs_execute_blocking(ompi_mpix_token_t *token)
{
    ompi_queue_exec_t exec;
    int error;

    ompi_queue_exec_init(&exec, false, NULL, NULL, NULL);
    error = graphs_exec_load(&exec, token);
    if (MPI_SUCCESS == error) {
        OPAL_THREAD_LOCK(&exec.lock);
        (void) ompi_queue_exec_advance(&exec, true);
        while (!ompi_queue_exec_complete(&exec)) {
            OPAL_THREAD_UNLOCK(&exec.lock);
            opal_progress();
            OPAL_THREAD_LOCK(&exec.lock);
            (void) ompi_queue_exec_advance(&exec, true);
        }
        error = exec.error;
        OPAL_THREAD_UNLOCK(&exec.lock);
    }
    ompi_queue_exec_fini(&exec);
    return error;
}
