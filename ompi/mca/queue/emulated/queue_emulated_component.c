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

#include <limits.h>

#include "ompi/constants.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/emulated/queue_emulated.h"

/* above the GPU components and the default one: loaded, it serves the
 * stream types (whose handles are then emulated streams) and the default
 * type */
int mca_queue_emulated_priority = INT_MAX / 2;

static int queue_emulated_register(void)
{
    mca_queue_emulated_priority = INT_MAX / 2;
    (void) mca_base_component_var_register(&mca_queue_emulated_component.queuem_version,
                                           "priority",
                                           "Priority of the emulated-stream queue component, a "
                                           "test double loaded only from a component path that "
                                           "names its build directory; above the others, so "
                                           "that the queues it serves run on emulated streams",
                                           MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9,
                                           MCA_BASE_VAR_SCOPE_READONLY,
                                           &mca_queue_emulated_priority);
    return OMPI_SUCCESS;
}

static mca_queue_base_module_t *queue_emulated_init(int *priority)
{
    *priority = mca_queue_emulated_priority;
    return &mca_queue_emulated_module;
}

mca_queue_base_component_t mca_queue_emulated_component = {
    .queuem_version = {
        MCA_QUEUE_BASE_VERSION_1_0_0,
        .mca_component_name = "emulated",
        MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                              OMPI_RELEASE_VERSION),
        .mca_register_component_params = queue_emulated_register,
    },
    .queuem_data = {
        MCA_BASE_METADATA_PARAM_NONE
    },
    .queuem_init = queue_emulated_init,
    .queuem_finalize = NULL,
};
