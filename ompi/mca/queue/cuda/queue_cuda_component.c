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
#include "ompi/mca/queue/cuda/queue_cuda.h"

static int queue_cuda_register(void)
{
    mca_queue_cuda_component.priority = 20;
    (void) mca_base_component_var_register(&mca_queue_cuda_component.super.queuem_version,
                                           "priority",
                                           "Priority of the cuda queue component among those "
                                           "that serve MPIX_QUEUE_TYPE_CUDA_STREAM",
                                           MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_3,
                                           MCA_BASE_VAR_SCOPE_READONLY,
                                           &mca_queue_cuda_component.priority);

    mca_queue_cuda_component.driver_library = "libcuda.so.1";
    (void) mca_base_component_var_register(&mca_queue_cuda_component.super.queuem_version,
                                           "driver_library",
                                           "CUDA driver library loaded at the first "
                                           "MPI_Queue_init of a CUDA stream queue",
                                           MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0,
                                           OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                           &mca_queue_cuda_component.driver_library);
    return OMPI_SUCCESS;
}

/* The module always stays available, without touching the driver: loading
 * and initializing CUDA costs time at every MPI_Init, so it happens at the
 * first CUDA queue, and a machine without a GPU hears about it only there,
 * as an error that says why. */
static mca_queue_base_module_t *queue_cuda_init(int *priority)
{
    *priority = mca_queue_cuda_component.priority;
    return &mca_queue_cuda_module.super;
}

static int queue_cuda_finalize(void)
{
    mca_queue_cuda_driver_close();
    return OMPI_SUCCESS;
}

mca_queue_cuda_component_t mca_queue_cuda_component = {
    .super = {
        .queuem_version = {
            MCA_QUEUE_BASE_VERSION_1_0_0,
            .mca_component_name = "cuda",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                                  OMPI_RELEASE_VERSION),
            .mca_register_component_params = queue_cuda_register,
        },
        .queuem_data = {
            MCA_BASE_METADATA_PARAM_NONE
        },
        .queuem_init = queue_cuda_init,
        .queuem_finalize = queue_cuda_finalize,
    },
};
