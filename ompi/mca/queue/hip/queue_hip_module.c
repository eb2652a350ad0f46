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

#include "ompi/constants.h"
#include "ompi/mca/queue/base/queue_object.h"
#include "ompi/mca/queue/hip/queue_hip.h"

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
    return mca_queue_hip_runtime_open(&runtime, reason);
}

static int queue_hip_create(ompi_queue_t *queue, void *external)
{
    /* the stream handle is copied: the program may reuse its variable */
    queue->q_module_data = *(hipStream_t *) external;
    return OMPI_SUCCESS;
}

static int queue_hip_destroy(ompi_queue_t *queue)
{
    queue->q_module_data = NULL;
    return OMPI_SUCCESS;
}

mca_queue_base_module_t mca_queue_hip_module = {
    .queue_component = &mca_queue_hip_component.super,
    .queue_priority = 0,
    .queue_query = queue_hip_query,
    .queue_create = queue_hip_create,
    .queue_destroy = queue_hip_destroy,
};
