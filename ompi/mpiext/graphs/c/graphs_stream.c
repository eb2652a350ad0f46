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
 * Streams: an open execution of the extension's executor in which every
 * token depends on the one enqueued before it (a FIFO of whole tokens).
 * Pause is the executor's start gate; a failure is the executor's first
 * error, which stops every later start for good (sticky).  Positions count
 * tokens in enqueue order since creation: sync and isync wait until the
 * number of completed tokens reaches the total at the time of the call.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "opal/runtime/opal_progress.h"
#include "ompi/mpiext/graphs/c/graphs_graph.h"
#include "ompi/mpiext/graphs/c/graphs_stream.h"

static void graphs_stream_progressed(graphs_engine_t *exec, void *cbdata);

static void stream_construct(ompi_mpix_stream_t *stream)
{
    stream->magic = GRAPHS_STREAM_MAGIC;
    graphs_engine_init(&stream->exec, true, NULL, graphs_stream_progressed, stream);
    stream->loc_type = MPIX_LOC_INPLACE;
    stream->loc_held = false;
    stream->session = NULL;
    stream->cuda = NULL;
    stream->isyncs = NULL;
    stream->nisyncs = stream->isyncs_cap = 0;
}

static void stream_destruct(ompi_mpix_stream_t *stream)
{
    graphs_engine_fini(&stream->exec);
    free(stream->isyncs);
    stream->magic = GRAPHS_DEAD_MAGIC;
}

OBJ_CLASS_INSTANCE(ompi_mpix_stream_t, opal_object_t, stream_construct, stream_destruct);

static inline bool stream_reached(const ompi_mpix_stream_t *stream, uint64_t target)
{
    const graphs_engine_t *exec = &stream->exec;
    /* a failed CUDA stream: the tokens posted after the failure never run
     * (the queue stopped), so nothing more is waited for */
    return graphs_engine_done_count(exec) >= target
           || (MPI_SUCCESS != exec->error && (0 == exec->running || NULL != stream->cuda));
}

/* lock held: an isync request no longer waits for the stream */
static void isync_detach(ompi_mpix_stream_t *stream, graphs_request_t *req)
{
    if (req->held) {
        graphs_engine_unhold(&stream->exec, &req->super);
        req->held = false;
    }
    req->stream = NULL;
}

/* lock held: complete the isync requests whose tokens have completed */
static void graphs_stream_progressed(graphs_engine_t *exec, void *cbdata)
{
    ompi_mpix_stream_t *stream = (ompi_mpix_stream_t *) cbdata;

    (void) exec;
    for (int i = 0; i < stream->nisyncs;) {
        graphs_request_t *req = stream->isyncs[i];
        if (!stream_reached(stream, req->target)) {
            ++i;
            continue;
        }
        stream->isyncs[i] = stream->isyncs[--stream->nisyncs];
        isync_detach(stream, req);
        req->super.req_status.MPI_ERROR = stream->exec.error;
        ompi_request_complete(&req->super, true);
    }
}

/* lock held: run what can run now; keep progress on it while tokens wait */
static int stream_kick(ompi_mpix_stream_t *stream)
{
    graphs_engine_t *exec = &stream->exec;

    (void) graphs_engine_advance(exec, false);
    if (0 < stream->nisyncs) {
        graphs_stream_progressed(exec, stream);
    }
    if (!exec->active && exec->lo < exec->nnodes
        && (0 < exec->running || MPI_SUCCESS == exec->error)) {
        return graphs_engine_activate(exec);
    }
    return OMPI_SUCCESS;
}

int graphs_stream_create(int loc_type, struct ompi_instance_t *session, graphs_cuda_stream_t *cuda,
                         ompi_mpix_stream_t **out)
{
    ompi_mpix_stream_t *stream = OBJ_NEW(ompi_mpix_stream_t);

    if (NULL == stream) {
        return MPI_ERR_NO_MEM;
    }
    if (MPI_SUCCESS != graphs_session_get(session, &stream->session)) {
        OBJ_RELEASE(stream);
        return MPI_ERR_NO_MEM;
    }
    stream->loc_type = loc_type;
    stream->loc_held = true;
    stream->cuda = cuda;
    *out = stream;
    return MPI_SUCCESS;
}

int graphs_stream_track(ompi_mpix_stream_t *stream, ompi_mpix_token_t *token, ompi_request_t **reqs,
                        int nreqs)
{
    int ret = MPI_SUCCESS;

    if (0 == graphs_engine_track(&stream->exec, &graphs_token_exec_ops, token, reqs, nreqs)
        && OMPI_SUCCESS != stream_kick(stream)) {
        ret = MPI_ERR_NO_MEM;
    }
    OPAL_THREAD_UNLOCK(&stream->exec.lock);
    return ret;
}

int graphs_stream_enqueue_any(ompi_mpix_stream_t *stream, ompi_mpix_token_t *token, bool *consumed)
{
    int ret;

    *consumed = false;
    OPAL_THREAD_LOCK(&stream->exec.lock);
    if (graphs_stream_failed(stream)) {
        OPAL_THREAD_UNLOCK(&stream->exec.lock);
        return MPIX_ERR_STREAM_FAILED;
    }
    if (NULL != stream->cuda) {
        /* posted into the CUDA stream when it may start */
        ret = graphs_cuda_stream_add(stream->cuda, &stream->exec, token);
        if (MPI_SUCCESS == ret) {
            *consumed = true;
            graphs_token_retire(token);
        }
        if (MPI_SUCCESS == ret && !stream->exec.paused && OMPI_SUCCESS != stream_kick(stream)) {
            ret = MPI_ERR_NO_MEM;
        }
        OPAL_THREAD_UNLOCK(&stream->exec.lock);
        return ret;
    }
    if (graphs_engine_idle(&stream->exec) && graphs_token_fast(token)) {
        return graphs_stream_start_now(stream, token, consumed);
    }
    ret = graphs_exec_load(&stream->exec, token);
    if (MPI_SUCCESS == ret) {
        /* the stream holds its own reference; the program's goes (never
         * the last one here) */
        *consumed = true;
        graphs_token_retire(token);
    }
    if (MPI_SUCCESS == ret && !stream->exec.paused) {
        if (OMPI_SUCCESS != stream_kick(stream)) {
            ret = MPI_ERR_NO_MEM;
        }
    }
    OPAL_THREAD_UNLOCK(&stream->exec.lock);
    return ret;
}

int graphs_stream_set_paused(ompi_mpix_stream_t *stream, bool paused)
{
    int ret = MPI_SUCCESS;

    OPAL_THREAD_LOCK(&stream->exec.lock);
    if (graphs_stream_failed(stream)) {
        ret = MPIX_ERR_STREAM_FAILED;
    } else {
        stream->exec.paused = paused;
        if (!paused && OMPI_SUCCESS != stream_kick(stream)) {
            ret = MPI_ERR_NO_MEM;
        }
    }
    OPAL_THREAD_UNLOCK(&stream->exec.lock);
    return ret;
}

int graphs_stream_sync(ompi_mpix_stream_t *stream)
{
    uint64_t target;
    int error;

    OPAL_THREAD_LOCK(&stream->exec.lock);
    target = graphs_engine_total(&stream->exec);
    /* sync resumes a paused stream for good (D27) */
    stream->exec.paused = false;
    (void) graphs_engine_advance(&stream->exec, true);
    while (!stream_reached(stream, target)) {
        OPAL_THREAD_UNLOCK(&stream->exec.lock);
        opal_progress();
        OPAL_THREAD_LOCK(&stream->exec.lock);
        (void) graphs_engine_advance(&stream->exec, true);
    }
    if (0 < stream->nisyncs) {
        graphs_stream_progressed(&stream->exec, stream);
    }
    error = stream->exec.error;
    OPAL_THREAD_UNLOCK(&stream->exec.lock);
    return error;
}

/* MPI_Request_free of an isync request: the stream forgets it */
static int isync_free(ompi_request_t **request)
{
    graphs_request_t *req = (graphs_request_t *) *request;

    graphs_isync_forget(req);
    graphs_request_destroy(req);
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static graphs_request_t *isync_new(ompi_mpix_stream_t *stream, uint64_t target)
{
    graphs_request_t *req = OBJ_NEW(graphs_request_t);

    if (NULL != req) {
        OMPI_REQUEST_INIT(&req->super, false);
        req->super.req_mpi_object.comm = graphs_session_comm(stream->session);
        req->super.req_state = OMPI_REQUEST_ACTIVE;
        req->super.req_free = isync_free;
        req->kind = GRAPHS_REQ_ISYNC;
        req->stream = stream;
        req->target = target;
    }
    return req;
}

int graphs_stream_isync(ompi_mpix_stream_t *stream, ompi_request_t **request)
{
    graphs_request_t *req;
    uint64_t target;
    int ret = MPI_SUCCESS;

    OPAL_THREAD_LOCK(&stream->exec.lock);
    target = graphs_engine_total(&stream->exec);
    req = isync_new(stream, target);
    if (NULL == req) {
        OPAL_THREAD_UNLOCK(&stream->exec.lock);
        return MPI_ERR_NO_MEM;
    }
    if (stream_reached(stream, target)) {
        req->stream = NULL;
        req->super.req_status.MPI_ERROR = stream->exec.error;
        ompi_request_complete(&req->super, true);
    } else {
        if (stream->nisyncs == stream->isyncs_cap) {
            int cap = stream->isyncs_cap ? 2 * stream->isyncs_cap : 4;
            graphs_request_t **a = realloc(stream->isyncs, cap * sizeof(*a));
            if (NULL == a) {
                OPAL_THREAD_UNLOCK(&stream->exec.lock);
                OMPI_REQUEST_FINI(&req->super);
                OBJ_RELEASE(req);
                return MPI_ERR_NO_MEM;
            }
            stream->isyncs = a;
            stream->isyncs_cap = cap;
        }
        if (NULL == stream->cuda && !opal_using_threads()) {
            /* no worker thread may run a blocking-only token (a file open)
             * and progress must not: MPI_Wait and MPI_Test on this request
             * drive the stream (spec 4.2), as they drive an execution
             * request's blocking-only nodes */
            if (OMPI_SUCCESS != graphs_engine_hold(&stream->exec, &req->super)) {
                OPAL_THREAD_UNLOCK(&stream->exec.lock);
                OMPI_REQUEST_FINI(&req->super);
                OBJ_RELEASE(req);
                return MPI_ERR_NO_MEM;
            }
            req->held = true;
        }
        stream->isyncs[stream->nisyncs++] = req;
        /* an isync never resumes a paused stream */
        if (!stream->exec.paused && OMPI_SUCCESS != stream_kick(stream)) {
            ret = MPI_ERR_NO_MEM;
        }
    }
    OPAL_THREAD_UNLOCK(&stream->exec.lock);
    *request = &req->super;
    return ret;
}

void graphs_isync_forget(graphs_request_t *req)
{
    ompi_mpix_stream_t *stream = req->stream;

    if (NULL == stream) {
        return;
    }
    OPAL_THREAD_LOCK(&stream->exec.lock);
    for (int i = 0; i < stream->nisyncs; ++i) {
        if (stream->isyncs[i] == req) {
            stream->isyncs[i] = stream->isyncs[--stream->nisyncs];
            break;
        }
    }
    isync_detach(stream, req);
    OPAL_THREAD_UNLOCK(&stream->exec.lock);
}

int graphs_stream_free(ompi_mpix_stream_t *stream)
{
    graphs_engine_t *exec = &stream->exec;
    bool pending;

    OPAL_THREAD_LOCK(&exec->lock);
    (void) graphs_engine_advance(exec, false);
    /* a live stream with tokens to run, or any stream with a token running */
    pending = (0 < exec->running && !(NULL != stream->cuda && MPI_SUCCESS != exec->error))
              || (MPI_SUCCESS == exec->error && exec->lo < exec->nnodes)
              || 0 < stream->nisyncs;
    OPAL_THREAD_UNLOCK(&exec->lock);
    if (pending) {
        return MPI_ERR_PENDING;
    }
    graphs_engine_deactivate(exec);
    if (stream->loc_held) {
        graphs_location_release(stream->loc_type);
        stream->loc_held = false;
    }
    if (NULL != stream->cuda) {
        /* discard what a failed queue will never run before dropping it */
        graphs_cuda_stream_fence(stream->cuda);
    }
    /* the tokens a failed stream never ran are dropped with it */
    OPAL_THREAD_LOCK(&exec->lock);
    graphs_engine_reset(exec);
    OPAL_THREAD_UNLOCK(&exec->lock);
    if (NULL != stream->cuda) {
        graphs_cuda_stream_free(stream->cuda);
        stream->cuda = NULL;
    }
    graphs_retire(&stream->super, &stream->magic);
    return MPI_SUCCESS;
}

int graphs_stream_create_impl(struct ompi_instance_t *session, int loc_type, void *loc_info,
                              MPIX_Stream *stream, const char **msg)
{
    ompi_mpix_stream_t *s;
    graphs_cuda_stream_t *cuda = NULL;
    int rc;

    rc = graphs_location_acquire(loc_type, loc_info, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (MPIX_OFFLOAD_CUDA == loc_type) {
        rc = graphs_cuda_stream_create(loc_info, &cuda, msg);
        if (MPI_SUCCESS != rc) {
            /* a CUDA location holds nothing to release */
            return rc;
        }
    }
    rc = graphs_stream_create(loc_type, MPI_SESSION_NULL == session ? NULL : session, cuda, &s);
    if (MPI_SUCCESS != rc) {
        if (NULL != cuda) {
            graphs_cuda_stream_free(cuda);
        }
        graphs_location_release(loc_type);
        *msg = NULL;
        return rc;
    }
    *stream = s;
    return MPI_SUCCESS;
}

int graphs_stream_dup_impl(ompi_mpix_stream_t *stream, MPIX_Stream *newstream, const char **msg)
{
    ompi_mpix_stream_t *s;
    int rc;

    if (NULL != stream->cuda) {
        *msg = "MPIX_Stream_dup: a stream at MPIX_OFFLOAD_CUDA cannot be duplicated (create a "
               "new one on the CUDA stream)";
        return MPI_ERR_UNSUPPORTED_OPERATION;
    }
    rc = graphs_location_acquire(stream->loc_type, NULL, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = graphs_stream_create(stream->loc_type, graphs_session_instance(stream->session), NULL,
                              &s);
    if (MPI_SUCCESS != rc) {
        graphs_location_release(stream->loc_type);
        *msg = NULL;
        return rc;
    }
    *newstream = s;
    return MPI_SUCCESS;
}

int graphs_stream_pause_impl(ompi_mpix_stream_t *stream, const char **msg)
{
    int rc = graphs_stream_set_paused(stream, true);

    if (MPI_SUCCESS != rc) {
        *msg = GRAPHS_STREAM_WHY(stream, "MPIX_Stream_pause", "out of memory");
    }
    return rc;
}

int graphs_stream_resume_impl(ompi_mpix_stream_t *stream, const char **msg)
{
    int rc = graphs_stream_set_paused(stream, false);

    if (MPI_SUCCESS != rc) {
        *msg = GRAPHS_STREAM_WHY(stream, "MPIX_Stream_resume", "out of memory");
    }
    return rc;
}

int graphs_stream_sync_impl(ompi_mpix_stream_t *stream, const char **msg)
{
    int rc = graphs_stream_sync(stream);

    if (MPI_SUCCESS != rc) {
        *msg = GRAPHS_STREAM_WHY(stream, "MPIX_Stream_sync", "sync failed");
    }
    return rc;
}

int graphs_stream_free_impl(MPIX_Stream *stream, const char **msg)
{
    int rc = graphs_stream_free(*stream);

    if (MPI_SUCCESS != rc) {
        *msg = "MPIX_Stream_free: tokens are pending on the stream (call MPIX_Stream_sync first)";
        return rc;
    }
    *stream = MPIX_STREAM_NULL;
    return MPI_SUCCESS;
}

int graphs_stream_get_error_impl(ompi_mpix_stream_t *stream, int *errcode, MPI_Count *position)
{
    OPAL_THREAD_LOCK(&stream->exec.lock);
    *errcode = stream->exec.error;
    if (NULL != position) {
        *position = (MPI_Count) stream->exec.error_node;
    }
    OPAL_THREAD_UNLOCK(&stream->exec.lock);
    return MPI_SUCCESS;
}
