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
 * HIP stream queues on the trigger engine of the queue base: an enqueued
 * start is a hipStreamWriteValue64 of the queue's trigger counter, an
 * enqueued wait a hipStreamWaitValue64 on its done counter. Compile-tested
 * only: no AMD GPU is available to this project.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "opal/mca/threads/mutex.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/mca/queue/base/queue_object.h"
#include "ompi/mca/queue/hip/queue_hip.h"
#include "ompi/runtime/ompi_async_progress.h"

static int queue_hip_error(const mca_queue_hip_runtime_t *rt, const char *what, hipError_t err)
{
    opal_output_verbose(MCA_BASE_VERBOSE_ERROR, OMPI_QUEUE_BASE_OUTPUT, "queue:hip: %s: %s",
                        what, rt->get_error_name(err));
    return OMPI_ERROR;
}

static int queue_hip_post(ompi_queue_t *queue, bool is_wait, int counter, uint64_t value)
{
    mca_queue_hip_queue_t *hq = (mca_queue_hip_queue_t *) ompi_queue_host_ctx(queue);
    void *addr = (char *) hq->dcounters + counter * sizeof(uint64_t);
    hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
    hipError_t err;

    /* counter values frozen into a captured graph would replay wrongly */
    if (NULL != hq->runtime->stream_is_capturing) {
        err = hq->runtime->stream_is_capturing(hq->stream, &status);
        if (hipSuccess != err) {
            return queue_hip_error(hq->runtime, "hipStreamIsCapturing", err);
        }
        if (hipStreamCaptureStatusNone != status) {
            return OMPI_ERR_NOT_SUPPORTED;
        }
    }
    if (is_wait) {
        err = hq->runtime->stream_wait_value64(hq->stream, addr, value, hipStreamWaitValueGte,
                                               ~(uint64_t) 0);
    } else {
        err = hq->runtime->stream_write_value64(hq->stream, addr, value, 0);
    }
    if (hipSuccess != err) {
        return queue_hip_error(hq->runtime,
                               is_wait ? "hipStreamWaitValue64" : "hipStreamWriteValue64", err);
    }
    return OMPI_SUCCESS;
}

static int queue_hip_post_write(ompi_queue_t *queue, int counter, uint64_t value)
{
    return queue_hip_post(queue, false, counter, value);
}

static int queue_hip_post_wait(ompi_queue_t *queue, int counter, uint64_t value)
{
    return queue_hip_post(queue, true, counter, value);
}

static int queue_hip_mark(ompi_queue_t *queue)
{
    mca_queue_hip_queue_t *hq = (mca_queue_hip_queue_t *) ompi_queue_host_ctx(queue);
    hipError_t err = hq->runtime->event_record(hq->mark, hq->stream);

    return (hipSuccess == err) ? OMPI_SUCCESS : queue_hip_error(hq->runtime, "hipEventRecord", err);
}

static int queue_hip_marked_done(ompi_queue_t *queue)
{
    mca_queue_hip_queue_t *hq = (mca_queue_hip_queue_t *) ompi_queue_host_ctx(queue);
    hipError_t err = hq->runtime->event_query(hq->mark);

    if (hipErrorNotReady == err) {
        return OMPI_ERR_WOULD_BLOCK;
    }
    return (hipSuccess == err) ? OMPI_SUCCESS : queue_hip_error(hq->runtime, "hipEventQuery", err);
}

static const ompi_queue_trigger_ops_t queue_hip_trigger_ops = {
    .post_write = queue_hip_post_write,
    .post_wait = queue_hip_post_wait,
    .mark = queue_hip_mark,
    .marked_done = queue_hip_marked_done,
};

static int queue_hip_query(mca_queue_base_module_t *module, int type, void *external,
                           const char **reason)
{
    const mca_queue_hip_runtime_t *runtime;
    (void) module;

    if (MPIX_QUEUE_TYPE_HIP_STREAM != type) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    if (NULL == external) {
        *reason = "external must point to a hipStream_t, not be NULL";
        return OMPI_ERR_BAD_PARAM;
    }
    if (OMPI_SUCCESS != mca_queue_hip_runtime_open(&runtime, reason)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    if (!opal_using_threads()) {
        *reason = "HIP stream queues need the progress thread: initialize MPI with "
                  "MPI_THREAD_MULTIPLE, or set the MCA parameter mpi_async_progress=1";
        return OMPI_ERR_NOT_AVAILABLE;
    }
    return OMPI_SUCCESS;
}

static int queue_hip_create(ompi_queue_t *queue, void *external)
{
    const mca_queue_hip_runtime_t *rt;
    mca_queue_hip_queue_t *hq;
    const char *reason = NULL;
    void *host = NULL;
    hipError_t err;
    int ret;

    if (OMPI_SUCCESS != mca_queue_hip_runtime_open(&rt, &reason)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    hq = calloc(1, sizeof(*hq));
    if (NULL == hq) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    hq->runtime = rt;
    /* the handle is copied: the program may reuse its variable */
    hq->stream = *(hipStream_t *) external;
    err = rt->host_malloc(&host, 2 * sizeof(uint64_t), hipHostMallocMapped);
    if (hipSuccess != err) {
        ret = queue_hip_error(rt, "hipHostMalloc", err);
        goto err_free;
    }
    hq->counters = (volatile uint64_t *) host;
    hq->counters[OMPI_QUEUE_COUNTER_TRIGGER] = 0;
    hq->counters[OMPI_QUEUE_COUNTER_DONE] = 0;
    err = rt->host_get_device_pointer(&hq->dcounters, host, 0);
    if (hipSuccess != err) {
        ret = queue_hip_error(rt, "hipHostGetDevicePointer", err);
        goto err_host;
    }
    err = rt->event_create_with_flags(&hq->mark, hipEventDisableTiming);
    if (hipSuccess != err) {
        ret = queue_hip_error(rt, "hipEventCreateWithFlags", err);
        goto err_host;
    }
    ret = ompi_async_progress_request();
    if (OMPI_SUCCESS != ret) {
        goto err_event;
    }
    ret = ompi_queue_host_create_triggered(queue, &queue_hip_trigger_ops, hq->counters, hq);
    if (OMPI_SUCCESS != ret) {
        goto err_progress;
    }
    return OMPI_SUCCESS;

err_progress:
    ompi_async_progress_release();
err_event:
    (void) rt->event_destroy(hq->mark);
err_host:
    (void) rt->host_free(host);
err_free:
    free(hq);
    return ret;
}

static int queue_hip_destroy(ompi_queue_t *queue)
{
    mca_queue_hip_queue_t *hq = (mca_queue_hip_queue_t *) ompi_queue_host_ctx(queue);

    ompi_queue_host_destroy(queue);
    if (NULL == hq) {
        return OMPI_SUCCESS;
    }
    (void) hq->runtime->event_destroy(hq->mark);
    (void) hq->runtime->host_free((void *) hq->counters);
    ompi_async_progress_release();
    free(hq);
    return OMPI_SUCCESS;
}

mca_queue_base_module_t mca_queue_hip_module = {
    .queue_component = &mca_queue_hip_component.super,
    .queue_priority = 0,
    .queue_query = queue_hip_query,
    .queue_create = queue_hip_create,
    .queue_destroy = queue_hip_destroy,
    .queue_enqueue_start = ompi_queue_host_enqueue_start,
    .queue_enqueue_wait = ompi_queue_host_enqueue_wait,
    .queue_fence = ompi_queue_host_fence,
    .queue_busy = ompi_queue_host_busy,
};
