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
 * CUDA stream queues on the trigger engine of the queue base: an enqueued
 * start is a cuStreamWriteValue64 of the queue's trigger counter, an
 * enqueued wait a cuStreamWaitValue64 on its done counter; the host agent
 * (the queue progress callback, driven by the progress thread) does the rest.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "opal/mca/threads/mutex.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/mca/queue/base/queue_object.h"
#include "ompi/mca/queue/cuda/queue_cuda.h"
#include "ompi/runtime/ompi_async_progress.h"

/* Driver calls on the queue's stream need its context current on the
 * calling thread; most programs already have it, so push only when not. */
static CUresult queue_cuda_enter(mca_queue_cuda_queue_t *cq, bool *pushed)
{
    CUcontext cur = NULL;
    CUresult res = cq->driver->ctx_get_current(&cur);

    *pushed = false;
    if (CUDA_SUCCESS == res && cur != cq->ctx) {
        res = cq->driver->ctx_push_current(cq->ctx);
        *pushed = (CUDA_SUCCESS == res);
    }
    return res;
}

static void queue_cuda_leave(mca_queue_cuda_queue_t *cq, bool pushed)
{
    CUcontext ignored;

    if (pushed) {
        (void) cq->driver->ctx_pop_current(&ignored);
    }
}

static int queue_cuda_error(const char *what, CUresult res)
{
    opal_output_verbose(MCA_BASE_VERBOSE_ERROR, OMPI_QUEUE_BASE_OUTPUT, "queue:cuda: %s: %s",
                        what, mca_queue_cuda_error_name(res));
    return OMPI_ERROR;
}

/* A stream being captured into a graph would freeze the counter values in
 * the graph, and every replay would reuse them: refuse rather than build a
 * graph that replays wrongly. */
static int queue_cuda_check_capture(mca_queue_cuda_queue_t *cq)
{
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    CUresult res = cq->driver->stream_is_capturing(cq->stream, &status);

    if (CUDA_SUCCESS != res) {
        return queue_cuda_error("cuStreamIsCapturing", res);
    }
    if (CU_STREAM_CAPTURE_STATUS_NONE != status) {
        opal_output_verbose(MCA_BASE_VERBOSE_ERROR, OMPI_QUEUE_BASE_OUTPUT,
                            "queue:cuda: the stream is being captured; enqueued operations "
                            "cannot be captured into a CUDA graph");
        return OMPI_ERR_NOT_SUPPORTED;
    }
    return OMPI_SUCCESS;
}

static int queue_cuda_post(ompi_queue_t *queue, bool is_wait, int counter, uint64_t value)
{
    mca_queue_cuda_queue_t *cq = (mca_queue_cuda_queue_t *) ompi_queue_host_ctx(queue);
    CUdeviceptr addr = cq->dcounters + (CUdeviceptr) counter * sizeof(uint64_t);
    bool pushed;
    CUresult res;
    int ret;

    if (CUDA_SUCCESS != (res = queue_cuda_enter(cq, &pushed))) {
        return queue_cuda_error("cannot make the stream's context current", res);
    }
    ret = queue_cuda_check_capture(cq);
    if (OMPI_SUCCESS == ret) {
        if (is_wait) {
            res = cq->driver->stream_wait_value64(cq->stream, addr, value,
                                                  CU_STREAM_WAIT_VALUE_GEQ);
        } else {
            /* the default flags order the write after the stream's earlier
             * work, its memory writes included */
            res = cq->driver->stream_write_value64(cq->stream, addr, value,
                                                   CU_STREAM_WRITE_VALUE_DEFAULT);
        }
        if (CUDA_SUCCESS != res) {
            ret = queue_cuda_error(is_wait ? "cuStreamWaitValue64" : "cuStreamWriteValue64", res);
        }
    }
    queue_cuda_leave(cq, pushed);
    return ret;
}

static int queue_cuda_post_write(ompi_queue_t *queue, int counter, uint64_t value)
{
    return queue_cuda_post(queue, false, counter, value);
}

static int queue_cuda_post_wait(ompi_queue_t *queue, int counter, uint64_t value)
{
    return queue_cuda_post(queue, true, counter, value);
}

static int queue_cuda_mark(ompi_queue_t *queue)
{
    mca_queue_cuda_queue_t *cq = (mca_queue_cuda_queue_t *) ompi_queue_host_ctx(queue);
    bool pushed;
    CUresult res;

    if (CUDA_SUCCESS != (res = queue_cuda_enter(cq, &pushed))) {
        return queue_cuda_error("cannot make the stream's context current", res);
    }
    res = cq->driver->event_record(cq->mark, cq->stream);
    queue_cuda_leave(cq, pushed);
    return (CUDA_SUCCESS == res) ? OMPI_SUCCESS : queue_cuda_error("cuEventRecord", res);
}

static int queue_cuda_marked_done(ompi_queue_t *queue)
{
    mca_queue_cuda_queue_t *cq = (mca_queue_cuda_queue_t *) ompi_queue_host_ctx(queue);
    CUresult res = cq->driver->event_query(cq->mark);

    if (CUDA_ERROR_NOT_READY == res) {
        return OMPI_ERR_WOULD_BLOCK;
    }
    return (CUDA_SUCCESS == res) ? OMPI_SUCCESS : queue_cuda_error("cuEventQuery", res);
}

static const ompi_queue_trigger_ops_t queue_cuda_trigger_ops = {
    .post_write = queue_cuda_post_write,
    .post_wait = queue_cuda_post_wait,
    .mark = queue_cuda_mark,
    .marked_done = queue_cuda_marked_done,
};

static int queue_cuda_query(mca_queue_base_module_t *module, int type, void *external,
                            const char **reason)
{
    const mca_queue_cuda_driver_t *driver;
    (void) module;

    if (MPIX_QUEUE_TYPE_CUDA_STREAM != type) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    if (NULL == external) {
        *reason = "external must point to a cudaStream_t, not be NULL";
        return OMPI_ERR_BAD_PARAM;
    }
    if (OMPI_SUCCESS != mca_queue_cuda_driver_open(&driver, reason)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    if (!opal_using_threads()) {
        /* the host agent must run while the program waits on the stream */
        *reason = "CUDA stream queues need the progress thread: initialize MPI with "
                  "MPI_THREAD_MULTIPLE, or set the MCA parameter mpi_async_progress=1";
        return OMPI_ERR_NOT_AVAILABLE;
    }
    return OMPI_SUCCESS;
}

static int queue_cuda_create(ompi_queue_t *queue, void *external)
{
    const mca_queue_cuda_driver_t *driver;
    mca_queue_cuda_queue_t *cq;
    const char *reason = NULL;
    void *host = NULL;
    bool pushed = false;
    CUresult res;
    int ret;

    if (OMPI_SUCCESS != mca_queue_cuda_driver_open(&driver, &reason)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    cq = calloc(1, sizeof(*cq));
    if (NULL == cq) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    cq->driver = driver;
    /* the handle is copied: the program may reuse its variable */
    cq->stream = *(CUstream *) external;
    res = driver->stream_get_ctx(cq->stream, &cq->ctx);
    if (CUDA_SUCCESS != res) {
        ret = queue_cuda_error("cuStreamGetCtx", res);
        goto err_free;
    }
    if (CUDA_SUCCESS != (res = queue_cuda_enter(cq, &pushed))) {
        ret = queue_cuda_error("cannot make the stream's context current", res);
        goto err_free;
    }
    res = driver->mem_host_alloc(&host, 2 * sizeof(uint64_t),
                                 CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
    if (CUDA_SUCCESS != res) {
        ret = queue_cuda_error("cuMemHostAlloc", res);
        goto err_leave;
    }
    cq->counters = (volatile uint64_t *) host;
    cq->counters[OMPI_QUEUE_COUNTER_TRIGGER] = 0;
    cq->counters[OMPI_QUEUE_COUNTER_DONE] = 0;
    res = driver->mem_host_get_device_pointer(&cq->dcounters, host, 0);
    if (CUDA_SUCCESS != res) {
        ret = queue_cuda_error("cuMemHostGetDevicePointer", res);
        goto err_host;
    }
    res = driver->event_create(&cq->mark, CU_EVENT_DISABLE_TIMING);
    if (CUDA_SUCCESS != res) {
        ret = queue_cuda_error("cuEventCreate", res);
        goto err_host;
    }
    ret = ompi_async_progress_request();
    if (OMPI_SUCCESS != ret) {
        goto err_event;
    }
    ret = ompi_queue_host_create_triggered(queue, &queue_cuda_trigger_ops, cq->counters, cq);
    if (OMPI_SUCCESS != ret) {
        goto err_progress;
    }
    queue_cuda_leave(cq, pushed);
    return OMPI_SUCCESS;

err_progress:
    ompi_async_progress_release();
err_event:
    (void) driver->event_destroy(cq->mark);
err_host:
    (void) driver->mem_free_host(host);
err_leave:
    queue_cuda_leave(cq, pushed);
err_free:
    free(cq);
    return ret;
}

static int queue_cuda_destroy(ompi_queue_t *queue)
{
    mca_queue_cuda_queue_t *cq = (mca_queue_cuda_queue_t *) ompi_queue_host_ctx(queue);
    bool pushed;

    ompi_queue_host_destroy(queue);
    if (NULL == cq) {
        return OMPI_SUCCESS;
    }
    (void) queue_cuda_enter(cq, &pushed);
    (void) cq->driver->event_destroy(cq->mark);
    (void) cq->driver->mem_free_host((void *) cq->counters);
    queue_cuda_leave(cq, pushed);
    ompi_async_progress_release();
    free(cq);
    return OMPI_SUCCESS;
}

mca_queue_base_module_t mca_queue_cuda_module = {
    .queue_component = &mca_queue_cuda_component.super,
    .queue_priority = 0,
    .queue_query = queue_cuda_query,
    .queue_create = queue_cuda_create,
    .queue_destroy = queue_cuda_destroy,
    .queue_enqueue_start = ompi_queue_host_enqueue_start,
    .queue_enqueue_wait = ompi_queue_host_enqueue_wait,
    .queue_fence = ompi_queue_host_fence,
    .queue_busy = ompi_queue_host_busy,
};
