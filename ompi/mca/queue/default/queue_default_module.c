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

#include "opal/mca/threads/thread_usage.h"
#include "ompi/constants.h"
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/mca/queue/base/queue_object.h"
#include "ompi/mca/queue/base/queue_stream.h"
#include "ompi/mca/queue/base/queue_stream_emulated.h"
#include "ompi/mca/queue/default/queue_default.h"

/* the stream types, served in the emulated mode on the program's emulated
 * stream (external points to the handle ompi_queue_emu_stream_create gave) */
static bool queue_default_stream_type(int type)
{
    return MPIX_QUEUE_TYPE_CUDA_STREAM == type || MPIX_QUEUE_TYPE_HIP_STREAM == type;
}

static int queue_default_query(mca_queue_base_module_t *module, int type, void *external,
                               const char **reason)
{
    (void) module;
    if (MPI_QUEUE_TYPE_DEFAULT == type) {
        /* the chapter: for this type the external argument is ignored */
        return OMPI_SUCCESS;
    }
    if (!mca_queue_default_emulate_stream || !queue_default_stream_type(type)) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    /* as the GPU components refuse */
    if (NULL == external) {
        *reason = "external must point to a stream handle (here an emulated stream), not be NULL";
        return OMPI_ERR_BAD_PARAM;
    }
    if (!opal_using_threads()) {
        *reason = "stream queues need the progress thread: initialize MPI with "
                  "MPI_THREAD_MULTIPLE, or set the MCA parameter mpi_async_progress=1";
        return OMPI_ERR_NOT_AVAILABLE;
    }
    return OMPI_SUCCESS;
}

/* The default type is the host engine itself: MPI_Enqueue_start with
 * nothing pending is MPI_Start, enqueued waits complete through progress
 * without blocking, and the fence blocks.  In the emulated mode it runs on
 * the stream engine instead, with an emulated stream of its own. */
static int queue_default_create(ompi_queue_t *queue, void *external)
{
    void *stream;
    int ret;

    if (queue_default_stream_type(queue->q_type)) {
        return ompi_queue_stream_attach(queue, &ompi_queue_stream_emulated_backend,
                                        *(void **) external, true);
    }
    if (!mca_queue_default_emulate_stream) {
        return ompi_queue_host_create(queue);
    }
    if (OMPI_QUEUE_EMU_SUCCESS != ompi_queue_emu_stream_create(&stream)) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    ret = ompi_queue_stream_attach(queue, &ompi_queue_stream_emulated_backend, stream, false);
    if (OMPI_SUCCESS != ret) {
        (void) ompi_queue_emu_stream_destroy(stream);
    }
    return ret;
}

static int queue_default_destroy(ompi_queue_t *queue)
{
    void *stream;

    if (NULL == ompi_queue_host_ctx(queue)) {
        ompi_queue_host_destroy(queue);
        return OMPI_SUCCESS;
    }
    stream = ompi_queue_stream_detach(queue);
    if (MPI_QUEUE_TYPE_DEFAULT == queue->q_type) {
        /* a stream freed with work left drops it */
        (void) ompi_queue_emu_stream_destroy(stream);
    }
    return OMPI_SUCCESS;
}

mca_queue_base_module_t mca_queue_default_module = {
    .queue_component = &mca_queue_default_component,
    .queue_priority = 0,
    .queue_query = queue_default_query,
    .queue_create = queue_default_create,
    .queue_destroy = queue_default_destroy,
    .queue_enqueue_start = ompi_queue_host_enqueue_start,
    .queue_enqueue_wait = ompi_queue_host_enqueue_wait,
    .queue_fence = ompi_queue_host_fence,
    .queue_busy = ompi_queue_host_busy,
};
