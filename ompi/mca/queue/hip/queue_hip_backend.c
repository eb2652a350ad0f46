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
 * HIP stream queues: the stream engine's backend (queue_stream.h) filled
 * with runtime calls.  HIP has no context to enter: the engine's context
 * slots are left empty.
 */

#include "ompi_config.h"

#include <string.h>

#include "ompi/constants.h"
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/mca/queue/base/queue_stream.h"
#include "ompi/mca/queue/hip/queue_hip.h"

/* set by the first successful open, read only afterwards */
static const mca_queue_hip_runtime_t *rt = NULL;

static ompi_queue_stream_backend_t queue_hip_backend;
static int hip_capture_id(void *stream, uint64_t *id);
static int hip_user_object_create(void **uo, void *obj, void (*destroy)(void *obj));
static int hip_graph_retain(void *stream, void *uo);
static int hip_user_object_release(void *uo);

static int hip_open(const char **reason)
{
    int ret = mca_queue_hip_runtime_open(&rt, reason);

    if (OMPI_SUCCESS == ret && NULL != rt->user_object_create) {
        /* before any queue of the type exists: read only afterwards */
        queue_hip_backend.capture_id = hip_capture_id;
        queue_hip_backend.user_object_create = hip_user_object_create;
        queue_hip_backend.graph_retain = hip_graph_retain;
        queue_hip_backend.user_object_release = hip_user_object_release;
    }
    return ret;
}

static int hip_host_alloc(size_t size, void **host, uint64_t *device_addr)
{
    void *dptr = NULL;
    hipError_t err = rt->host_malloc(host, size, hipHostMallocMapped);

    if (hipSuccess != err) {
        return err;
    }
    memset(*host, 0, size);
    if (hipSuccess != (err = rt->host_get_device_pointer(&dptr, *host, 0))) {
        (void) rt->host_free(*host);
        return err;
    }
    *device_addr = (uint64_t) (uintptr_t) dptr;
    return hipSuccess;
}

static int hip_host_free(void *host)
{
    return rt->host_free(host);
}

static int hip_write_value64(void *stream, uint64_t device_addr, uint64_t value)
{
    return rt->stream_write_value64((hipStream_t) stream, (void *) (uintptr_t) device_addr,
                                    value, 0);
}

static int hip_wait_value64(void *stream, uint64_t device_addr, uint64_t value)
{
    return rt->stream_wait_value64((hipStream_t) stream, (void *) (uintptr_t) device_addr, value,
                                   hipStreamWaitValueGte, ~(uint64_t) 0);
}

/* runtimes before hipStreamIsCapturing cannot tell: capture goes undetected */
static int hip_is_capturing(void *stream, bool *capturing)
{
    hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
    hipError_t err = hipSuccess;

    if (NULL != rt->stream_is_capturing) {
        err = rt->stream_is_capturing((hipStream_t) stream, &status);
    }
    *capturing = (hipStreamCaptureStatusNone != status);
    return err;
}

static int hip_capture_id(void *stream, uint64_t *id)
{
    hipStreamCaptureStatus status;
    unsigned long long cid = 0;
    hipError_t err = rt->stream_get_capture_info_v2((hipStream_t) stream, &status, &cid, NULL,
                                                    NULL, NULL);

    *id = cid;
    return err;
}

static int hip_user_object_create(void **uo, void *obj, void (*destroy)(void *obj))
{
    return rt->user_object_create(uo, obj, destroy, 1,
                                  MCA_QUEUE_HIP_USER_OBJECT_NO_DESTRUCTOR_SYNC);
}

static int hip_graph_retain(void *stream, void *uo)
{
    hipStreamCaptureStatus status;
    hipGraph_t graph = NULL;
    hipError_t err = rt->stream_get_capture_info_v2((hipStream_t) stream, &status, NULL, &graph,
                                                    NULL, NULL);

    if (hipSuccess != err) {
        return err;
    }
    return rt->graph_retain_user_object(graph, uo, 1, MCA_QUEUE_HIP_GRAPH_USER_OBJECT_MOVE);
}

static int hip_user_object_release(void *uo)
{
    return rt->user_object_release(uo, 1);
}

static int hip_event_create(void **event)
{
    return rt->event_create_with_flags((hipEvent_t *) event, hipEventDisableTiming);
}

static int hip_event_record(void *event, void *stream)
{
    return rt->event_record((hipEvent_t) event, (hipStream_t) stream);
}

static int hip_event_query(void *event, bool *done)
{
    hipError_t err = rt->event_query((hipEvent_t) event);

    *done = (hipSuccess == err);
    return (hipErrorNotReady == err) ? hipSuccess : err;
}

static int hip_event_destroy(void *event)
{
    return rt->event_destroy((hipEvent_t) event);
}

static const char *hip_error_name(int status)
{
    const char *name = (NULL != rt) ? rt->get_error_name((hipError_t) status) : NULL;
    return (NULL != name) ? name : "unknown HIP error";
}

static ompi_queue_stream_backend_t queue_hip_backend = {
    .name = "hip",
    .open = hip_open,
    .stream_context = NULL,
    .ctx_enter = NULL,
    .ctx_leave = NULL,
    .host_alloc = hip_host_alloc,
    .host_free = hip_host_free,
    .write_value64 = hip_write_value64,
    .wait_value64 = hip_wait_value64,
    .is_capturing = hip_is_capturing,
    .event_create = hip_event_create,
    .event_record = hip_event_record,
    .event_query = hip_event_query,
    .event_destroy = hip_event_destroy,
    /* filled by hip_open where the runtime has user objects */
    .capture_id = NULL,
    .user_object_create = NULL,
    .graph_retain = NULL,
    .user_object_release = NULL,
    .error_name = hip_error_name,
};

ompi_queue_stream_module_t mca_queue_hip_module = {
    .super = {
        .queue_component = &mca_queue_hip_component.super,
        .queue_priority = 0,
        .queue_query = ompi_queue_stream_query,
        .queue_create = ompi_queue_stream_create,
        .queue_destroy = ompi_queue_stream_destroy,
        .queue_enqueue_start = ompi_queue_host_enqueue_start,
        .queue_enqueue_wait = ompi_queue_host_enqueue_wait,
        .queue_fence = ompi_queue_host_fence,
        .queue_busy = ompi_queue_host_busy,
    },
    .type = MPIX_QUEUE_TYPE_HIP_STREAM,
    .handle_name = "external must point to a hipStream_t, not be NULL",
    .backend = &queue_hip_backend,
};
