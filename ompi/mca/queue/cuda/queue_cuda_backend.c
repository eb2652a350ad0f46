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
 * CUDA stream queues: the stream engine's backend (queue_stream.h) filled
 * with driver calls.
 */

#include "ompi_config.h"

#include <string.h>

#include "ompi/constants.h"
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/mca/queue/base/queue_stream.h"
#include "ompi/mca/queue/cuda/queue_cuda.h"

/* set by the first successful open, read only afterwards */
static const mca_queue_cuda_driver_t *cu = NULL;

static int cuda_open(const char **reason)
{
    return mca_queue_cuda_driver_open(&cu, reason);
}

static int cuda_stream_context(void *stream, void **ctx)
{
    return cu->stream_get_ctx((CUstream) stream, (CUcontext *) ctx);
}

static int cuda_ctx_enter(void *ctx, bool *entered)
{
    CUcontext cur = NULL;
    CUresult res = cu->ctx_get_current(&cur);

    if (CUDA_SUCCESS == res && cur != (CUcontext) ctx) {
        res = cu->ctx_push_current((CUcontext) ctx);
        *entered = (CUDA_SUCCESS == res);
    }
    return res;
}

static void cuda_ctx_leave(void *ctx, bool entered)
{
    CUcontext ignored;

    (void) ctx;
    if (entered) {
        (void) cu->ctx_pop_current(&ignored);
    }
}

static int cuda_host_alloc(size_t size, void **host, uint64_t *device_addr)
{
    CUdeviceptr dptr;
    CUresult res = cu->mem_host_alloc(host, size,
                                      CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);

    if (CUDA_SUCCESS != res) {
        return res;
    }
    memset(*host, 0, size);
    if (CUDA_SUCCESS != (res = cu->mem_host_get_device_pointer(&dptr, *host, 0))) {
        (void) cu->mem_free_host(*host);
        return res;
    }
    *device_addr = (uint64_t) dptr;
    return CUDA_SUCCESS;
}

static int cuda_host_free(void *host)
{
    return cu->mem_free_host(host);
}

/* the default flags order the write after the stream's earlier work, its
 * memory writes included */
static int cuda_write_value64(void *stream, uint64_t device_addr, uint64_t value)
{
    return cu->stream_write_value64((CUstream) stream, (CUdeviceptr) device_addr, value,
                                    CU_STREAM_WRITE_VALUE_DEFAULT);
}

static int cuda_wait_value64(void *stream, uint64_t device_addr, uint64_t value)
{
    return cu->stream_wait_value64((CUstream) stream, (CUdeviceptr) device_addr, value,
                                   CU_STREAM_WAIT_VALUE_GEQ);
}

static int cuda_is_capturing(void *stream, bool *capturing)
{
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    CUresult res = cu->stream_is_capturing((CUstream) stream, &status);

    *capturing = (CU_STREAM_CAPTURE_STATUS_NONE != status);
    return res;
}

static int cuda_capture_id(void *stream, uint64_t *id)
{
    CUstreamCaptureStatus status;
    cuuint64_t cid = 0;
    CUresult res = cu->stream_get_capture_info((CUstream) stream, &status, &cid, NULL, NULL,
                                               NULL);

    *id = cid;
    return res;
}

static int cuda_user_object_create(void **uo, void *obj, void (*destroy)(void *obj))
{
    /* no destructor sync: destroy only flags the table for the host agent */
    return cu->user_object_create((CUuserObject *) uo, obj, (CUhostFn) destroy, 1,
                                  CU_USER_OBJECT_NO_DESTRUCTOR_SYNC);
}

static int cuda_graph_retain(void *stream, void *uo)
{
    CUstreamCaptureStatus status;
    CUgraph graph = NULL;
    CUresult res = cu->stream_get_capture_info((CUstream) stream, &status, NULL, &graph, NULL,
                                               NULL);

    if (CUDA_SUCCESS != res) {
        return res;
    }
    return cu->graph_retain_user_object(graph, (CUuserObject) uo, 1, CU_GRAPH_USER_OBJECT_MOVE);
}

static int cuda_user_object_release(void *uo)
{
    return cu->user_object_release((CUuserObject) uo, 1);
}

static int cuda_event_create(void **event)
{
    return cu->event_create((CUevent *) event, CU_EVENT_DISABLE_TIMING);
}

static int cuda_event_record(void *event, void *stream)
{
    return cu->event_record((CUevent) event, (CUstream) stream);
}

static int cuda_event_query(void *event, bool *done)
{
    CUresult res = cu->event_query((CUevent) event);

    *done = (CUDA_SUCCESS == res);
    return (CUDA_ERROR_NOT_READY == res) ? CUDA_SUCCESS : res;
}

static int cuda_event_destroy(void *event)
{
    return cu->event_destroy((CUevent) event);
}

static const char *cuda_error_name(int status)
{
    return mca_queue_cuda_error_name((CUresult) status);
}

static const ompi_queue_stream_backend_t queue_cuda_backend = {
    .name = "cuda",
    .open = cuda_open,
    .stream_context = cuda_stream_context,
    .ctx_enter = cuda_ctx_enter,
    .ctx_leave = cuda_ctx_leave,
    .host_alloc = cuda_host_alloc,
    .host_free = cuda_host_free,
    .write_value64 = cuda_write_value64,
    .wait_value64 = cuda_wait_value64,
    .is_capturing = cuda_is_capturing,
    .event_create = cuda_event_create,
    .event_record = cuda_event_record,
    .event_query = cuda_event_query,
    .event_destroy = cuda_event_destroy,
    .capture_id = cuda_capture_id,
    .user_object_create = cuda_user_object_create,
    .graph_retain = cuda_graph_retain,
    .user_object_release = cuda_user_object_release,
    .error_name = cuda_error_name,
};

ompi_queue_stream_module_t mca_queue_cuda_module = {
    .super = {
        .queue_component = &mca_queue_cuda_component.super,
        .queue_priority = 0,
        .queue_query = ompi_queue_stream_query,
        .queue_create = ompi_queue_stream_create,
        .queue_destroy = ompi_queue_stream_destroy,
        .queue_enqueue_start = ompi_queue_host_enqueue_start,
        .queue_enqueue_wait = ompi_queue_host_enqueue_wait,
        .queue_fence = ompi_queue_host_fence,
        .queue_busy = ompi_queue_host_busy,
    },
    .type = MPIX_QUEUE_TYPE_CUDA_STREAM,
    .handle_name = "external must point to a cudaStream_t, not be NULL",
    .backend = &queue_cuda_backend,
};
