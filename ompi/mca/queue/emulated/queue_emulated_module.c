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
#include "ompi/mca/queue/emulated/queue_emulated.h"
#include "ompi/mca/queue/emulated/queue_emulated_stream.h"

static bool queue_emulated_stream_type(int type)
{
    return MPIX_QUEUE_TYPE_CUDA_STREAM == type || MPIX_QUEUE_TYPE_HIP_STREAM == type;
}

static int queue_emulated_query(mca_queue_base_module_t *module, int type, void *external,
                                const char **reason)
{
    (void) module;
    if (MPI_QUEUE_TYPE_DEFAULT == type) {
        /* the chapter: for this type the external argument is ignored */
        return OMPI_SUCCESS;
    }
    if (!queue_emulated_stream_type(type)) {
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

static int queue_emulated_create(ompi_queue_t *queue, void *external)
{
    void *stream;
    int ret;

    if (queue_emulated_stream_type(queue->q_type)) {
        return ompi_queue_stream_attach(queue, &mca_queue_emulated_backend,
                                        *(void **) external, true);
    }
    /* a default queue: a stream of its own, the host side driven by the
     * program's calls as for a host queue */
    if (MCA_QUEUE_EMULATED_SUCCESS != mca_queue_emulated_stream_create(&stream)) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    ret = ompi_queue_stream_attach(queue, &mca_queue_emulated_backend, stream, false);
    if (OMPI_SUCCESS != ret) {
        (void) mca_queue_emulated_stream_destroy(stream);
    }
    return ret;
}

static int queue_emulated_destroy(ompi_queue_t *queue)
{
    void *stream = ompi_queue_stream_detach(queue);

    if (MPI_QUEUE_TYPE_DEFAULT == queue->q_type) {
        /* a stream freed with work left drops it */
        (void) mca_queue_emulated_stream_destroy(stream);
    }
    return OMPI_SUCCESS;
}

mca_queue_base_module_t mca_queue_emulated_module = {
    .queue_component = &mca_queue_emulated_component,
    .queue_priority = 0,
    .queue_query = queue_emulated_query,
    .queue_create = queue_emulated_create,
    .queue_destroy = queue_emulated_destroy,
    .queue_enqueue_start = ompi_queue_host_enqueue_start,
    .queue_enqueue_wait = ompi_queue_host_enqueue_wait,
    .queue_fence = ompi_queue_host_fence,
    .queue_busy = ompi_queue_host_busy,
};
