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
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/mca/queue/base/queue_object.h"
#include "ompi/mca/queue/default/queue_default.h"

static int queue_default_query(mca_queue_base_module_t *module, int type, void *external,
                               const char **reason)
{
    (void) module;
    (void) external;
    (void) reason;
    /* the chapter: for this type the external argument is ignored */
    return (MPI_QUEUE_TYPE_DEFAULT == type) ? OMPI_SUCCESS : OMPI_ERR_NOT_SUPPORTED;
}

/* The default type is the host engine itself: MPI_Enqueue_start with
 * nothing pending is MPI_Start, enqueued waits complete through progress
 * without blocking, and the fence blocks. */
static int queue_default_create(ompi_queue_t *queue, void *external)
{
    (void) external;
    return ompi_queue_host_create(queue);
}

static int queue_default_destroy(ompi_queue_t *queue)
{
    ompi_queue_host_destroy(queue);
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
