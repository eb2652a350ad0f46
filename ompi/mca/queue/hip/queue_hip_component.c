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

#include "opal/util/output.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/hip/queue_hip.h"

static int queue_hip_register(void)
{
    mca_queue_hip_component.priority = 20;
    (void) mca_base_component_var_register(&mca_queue_hip_component.super.queuem_version,
                                           "priority",
                                           "Priority of the hip queue component among those "
                                           "that serve MPIX_QUEUE_TYPE_HIP_STREAM",
                                           MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_3,
                                           MCA_BASE_VAR_SCOPE_READONLY,
                                           &mca_queue_hip_component.priority);

    mca_queue_hip_component.runtime_library = "libamdhip64.so.6,libamdhip64.so.5";
    (void) mca_base_component_var_register(&mca_queue_hip_component.super.queuem_version,
                                           "runtime_library",
                                           "HIP runtime library loaded at the first "
                                           "MPI_Queue_init of a HIP stream queue: a comma "
                                           "separated list, the first that loads is used "
                                           "(ROCm 6, then ROCm 5)",
                                           MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0,
                                           OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                           &mca_queue_hip_component.runtime_library);
    return OMPI_SUCCESS;
}

/* As for cuda: the runtime is loaded at the first HIP queue, not at MPI_Init. */
static mca_queue_base_module_t *queue_hip_init(int *priority)
{
    *priority = mca_queue_hip_component.priority;
    return &mca_queue_hip_module.super;
}

static int queue_hip_finalize(void)
{
    mca_queue_hip_runtime_close();
    return OMPI_SUCCESS;
}

mca_queue_hip_component_t mca_queue_hip_component = {
    .super = {
        .queuem_version = {
            MCA_QUEUE_BASE_VERSION_1_0_0,
            .mca_component_name = "hip",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                                  OMPI_RELEASE_VERSION),
            .mca_register_component_params = queue_hip_register,
        },
        .queuem_data = {
            MCA_BASE_METADATA_PARAM_NONE
        },
        .queuem_init = queue_hip_init,
        .queuem_finalize = queue_hip_finalize,
    },
};
