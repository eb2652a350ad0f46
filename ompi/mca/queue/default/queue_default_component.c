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
 * The default component serves MPI_QUEUE_TYPE_DEFAULT: the host executes
 * the queue, with no external execution context.
 */

#include "ompi_config.h"

#include <limits.h>

#include "ompi/constants.h"

#include "opal/util/output.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/default/queue_default.h"

int mca_queue_default_priority = 10;
bool mca_queue_default_emulate_stream = false;

static int queue_default_register(void)
{
    mca_queue_default_priority = 10;
    (void) mca_base_component_var_register(&mca_queue_default_component.queuem_version,
                                           "priority",
                                           "Priority of the default queue component among "
                                           "those that serve MPI_QUEUE_TYPE_DEFAULT",
                                           MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_3,
                                           MCA_BASE_VAR_SCOPE_READONLY,
                                           &mca_queue_default_priority);
    mca_queue_default_emulate_stream = false;
    (void) mca_base_component_var_register(&mca_queue_default_component.queuem_version,
                                           "emulate_stream",
                                           "Run queues on the stream engine with an emulated "
                                           "stream (a host thread standing in for a GPU "
                                           "stream), to test the engine without a GPU; slow. "
                                           "Default queues get a stream of their own; the CUDA "
                                           "and HIP stream types are served on the program's "
                                           "emulated stream (ompi_queue_emu_stream_create), "
                                           "before the GPU components",
                                           MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_9,
                                           MCA_BASE_VAR_SCOPE_READONLY,
                                           &mca_queue_default_emulate_stream);
    return OMPI_SUCCESS;
}

static mca_queue_base_module_t *queue_default_init(int *priority)
{
    /* emulating, it must come before the GPU components: the stream types'
     * handles are then emulated streams */
    *priority = mca_queue_default_emulate_stream ? INT_MAX / 2 : mca_queue_default_priority;
    return &mca_queue_default_module;
}

mca_queue_base_component_t mca_queue_default_component = {
    .queuem_version = {
        MCA_QUEUE_BASE_VERSION_1_0_0,
        .mca_component_name = "default",
        MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                              OMPI_RELEASE_VERSION),
        .mca_register_component_params = queue_default_register,
    },
    .queuem_data = {
        MCA_BASE_METADATA_PARAM_NONE
    },
    .queuem_init = queue_default_init,
    .queuem_finalize = NULL,
};
