/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "opal/mca/threads/thread_usage.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/mca/queue/base/queue_object.h"
#include "ompi/mca/queue/base/queue_stream.h"
#include "ompi/mca/queue/base/queue_stream_capture.h"
#include "ompi/runtime/ompi_async_progress.h"

/* the engine's part of a stream queue (the host engine's ctx) */
typedef struct {
    const ompi_queue_stream_backend_t *backend;
    void *stream;
    void *ctx;                    /**< the stream's context, NULL if none needed */
    volatile uint64_t *counters;  /**< host address of the two counters */
    uint64_t dcounters;           /**< their device address */
    void *mark;                   /**< event recorded by the fence */
    bool progress;                /**< holds the progress thread */
} queue_stream_t;

static int queue_stream_error(const queue_stream_t *qs, const char *what, int status)
{
    opal_output_verbose(MCA_BASE_VERBOSE_ERROR, OMPI_QUEUE_BASE_OUTPUT, "queue:%s: %s: %s",
                        qs->backend->name, what, qs->backend->error_name(status));
    return OMPI_ERROR;
}

/* Calls on the stream need its context current on the calling thread; most
 * programs already have it, and the backend enters only when not. */
static inline int queue_stream_enter(const queue_stream_t *qs, bool *entered)
{
    int status;

    *entered = false;
    if (NULL == qs->backend->ctx_enter) {
        return OMPI_SUCCESS;
    }
    status = qs->backend->ctx_enter(qs->ctx, entered);
    return (0 == status) ? OMPI_SUCCESS
                         : queue_stream_error(qs, "cannot make the stream's context current",
                                              status);
}

static inline void queue_stream_leave(const queue_stream_t *qs, bool entered)
{
    if (entered) {
        qs->backend->ctx_leave(qs->ctx, entered);
    }
}

static int queue_stream_post(ompi_queue_t *queue, bool is_wait, int counter, uint64_t value)
{
    queue_stream_t *qs = (queue_stream_t *) ompi_queue_host_ctx(queue);
    uint64_t addr = qs->dcounters + (uint64_t) counter * sizeof(uint64_t);
    bool entered;
    int ret, status;

    if (OMPI_SUCCESS != (ret = queue_stream_enter(qs, &entered))) {
        return ret;
    }
    status = is_wait ? qs->backend->wait_value64(qs->stream, addr, value)
                     : qs->backend->write_value64(qs->stream, addr, value);
    if (0 != status) {
        ret = queue_stream_error(qs, is_wait ? "stream wait" : "stream write", status);
    }
    queue_stream_leave(qs, entered);
    return ret;
}

static int queue_stream_post_write(ompi_queue_t *queue, int counter, uint64_t value)
{
    return queue_stream_post(queue, false, counter, value);
}

static int queue_stream_post_wait(ompi_queue_t *queue, int counter, uint64_t value)
{
    return queue_stream_post(queue, true, counter, value);
}

static int queue_stream_mark(ompi_queue_t *queue)
{
    queue_stream_t *qs = (queue_stream_t *) ompi_queue_host_ctx(queue);
    bool entered;
    int ret, status;

    if (OMPI_SUCCESS != (ret = queue_stream_enter(qs, &entered))) {
        return ret;
    }
    status = qs->backend->event_record(qs->mark, qs->stream);
    queue_stream_leave(qs, entered);
    return (0 == status) ? OMPI_SUCCESS : queue_stream_error(qs, "event record", status);
}

static int queue_stream_marked_done(ompi_queue_t *queue)
{
    queue_stream_t *qs = (queue_stream_t *) ompi_queue_host_ctx(queue);
    bool done = false;
    int status = qs->backend->event_query(qs->mark, &done);

    if (0 != status) {
        return queue_stream_error(qs, "event query", status);
    }
    return done ? OMPI_SUCCESS : OMPI_ERR_WOULD_BLOCK;
}

/* The counts that eager enqueues post would be frozen into a graph being
 * captured, and every launch would reuse them: such an enqueue gets words
 * of its own instead (queue_stream_capture.h). */
static int queue_stream_capture(ompi_queue_t *queue, bool is_wait, int count,
                                ompi_request_t **requests, ompi_status_public_t *statuses,
                                mca_queue_base_refusal_t *refusal)
{
    queue_stream_t *qs = (queue_stream_t *) ompi_queue_host_ctx(queue);
    bool entered, capturing = false;
    int ret, status;

    if (OMPI_SUCCESS != (ret = queue_stream_enter(qs, &entered))) {
        return ret;
    }
    if (0 != (status = qs->backend->is_capturing(qs->stream, &capturing))) {
        ret = queue_stream_error(qs, "cannot tell whether the stream is being captured", status);
    } else if (!capturing) {
        ret = OMPI_ERR_NOT_FOUND;
    } else {
        ret = ompi_queue_stream_capture_enqueue(queue, qs->backend, qs->stream, qs->ctx, is_wait,
                                                count, requests, statuses, refusal);
    }
    queue_stream_leave(qs, entered);
    return ret;
}

static const ompi_queue_trigger_ops_t queue_stream_trigger_ops = {
    .post_write = queue_stream_post_write,
    .post_wait = queue_stream_post_wait,
    .mark = queue_stream_mark,
    .marked_done = queue_stream_marked_done,
    .capture = queue_stream_capture,
};

/* a vendor that cannot tell whether its stream is captured */
static const ompi_queue_trigger_ops_t queue_stream_trigger_ops_blind = {
    .post_write = queue_stream_post_write,
    .post_wait = queue_stream_post_wait,
    .mark = queue_stream_mark,
    .marked_done = queue_stream_marked_done,
    .capture = NULL,
};

int ompi_queue_stream_query(mca_queue_base_module_t *module, int type, void *external,
                            const char **reason)
{
    ompi_queue_stream_module_t *sm = (ompi_queue_stream_module_t *) module;

    if (sm->type != type) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    if (NULL == external) {
        *reason = sm->handle_name;
        return OMPI_ERR_BAD_PARAM;
    }
    if (OMPI_SUCCESS != sm->backend->open(reason)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    if (!opal_using_threads()) {
        /* the host side must run while the program waits on the stream */
        *reason = "stream queues need the progress thread: initialize MPI with "
                  "MPI_THREAD_MULTIPLE, or set the MCA parameter mpi_async_progress=1";
        return OMPI_ERR_NOT_AVAILABLE;
    }
    return OMPI_SUCCESS;
}

static int queue_stream_bind(ompi_queue_t *queue, const ompi_queue_stream_backend_t *backend,
                             void *stream, bool progress)
{
    queue_stream_t *qs = calloc(1, sizeof(*qs));
    void *host = NULL;
    bool entered = false;
    int ret, status;

    if (NULL == qs) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    qs->backend = backend;
    qs->stream = stream;
    if (NULL != backend->stream_context
        && 0 != (status = backend->stream_context(stream, &qs->ctx))) {
        ret = queue_stream_error(qs, "cannot find the stream's context", status);
        goto err_free;
    }
    if (OMPI_SUCCESS != (ret = queue_stream_enter(qs, &entered))) {
        goto err_free;
    }
    if (0 != (status = backend->host_alloc(2 * sizeof(uint64_t), &host, &qs->dcounters))) {
        ret = queue_stream_error(qs, "cannot allocate mapped host memory", status);
        goto err_leave;
    }
    qs->counters = (volatile uint64_t *) host;
    qs->counters[OMPI_QUEUE_COUNTER_TRIGGER] = 0;
    qs->counters[OMPI_QUEUE_COUNTER_DONE] = 0;
    if (0 != (status = backend->event_create(&qs->mark))) {
        ret = queue_stream_error(qs, "event create", status);
        goto err_host;
    }
    if (progress) {
        if (OMPI_SUCCESS != (ret = ompi_async_progress_request())) {
            goto err_event;
        }
        qs->progress = true;
    }
    ret = ompi_queue_host_create_triggered(queue,
                                           (NULL != backend->is_capturing)
                                               ? &queue_stream_trigger_ops
                                               : &queue_stream_trigger_ops_blind,
                                           qs->counters, qs);
    if (OMPI_SUCCESS != ret) {
        goto err_progress;
    }
    queue_stream_leave(qs, entered);
    return OMPI_SUCCESS;

err_progress:
    if (qs->progress) {
        ompi_async_progress_release();
    }
err_event:
    (void) backend->event_destroy(qs->mark);
err_host:
    (void) backend->host_free(host);
err_leave:
    queue_stream_leave(qs, entered);
err_free:
    free(qs);
    return ret;
}

int ompi_queue_stream_create(ompi_queue_t *queue, void *external)
{
    ompi_queue_stream_module_t *sm = (ompi_queue_stream_module_t *) queue->q_module;
    const char *reason = NULL;

    if (OMPI_SUCCESS != sm->backend->open(&reason)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    /* the handle is copied: the program may reuse its variable */
    return queue_stream_bind(queue, sm->backend, *(void **) external, true);
}

int ompi_queue_stream_attach(ompi_queue_t *queue, const ompi_queue_stream_backend_t *backend,
                             void *stream, bool progress)
{
    return queue_stream_bind(queue, backend, stream, progress);
}

void *ompi_queue_stream_detach(ompi_queue_t *queue)
{
    queue_stream_t *qs = (queue_stream_t *) ompi_queue_host_ctx(queue);
    void *stream;
    bool entered;

    ompi_queue_host_destroy(queue);
    if (NULL == qs) {
        return NULL;
    }
    ompi_queue_stream_capture_forget(queue);
    (void) queue_stream_enter(qs, &entered);
    (void) qs->backend->event_destroy(qs->mark);
    (void) qs->backend->host_free((void *) qs->counters);
    queue_stream_leave(qs, entered);
    if (qs->progress) {
        ompi_async_progress_release();
    }
    stream = qs->stream;
    free(qs);
    return stream;
}

int ompi_queue_stream_destroy(ompi_queue_t *queue)
{
    (void) ompi_queue_stream_detach(queue);
    return OMPI_SUCCESS;
}
