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

#include "ompi/constants.h"

#include "opal/util/output.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/default/queue_default.h"

int mca_queue_default_priority = 10;

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
    return OMPI_SUCCESS;
}

static mca_queue_base_module_t *queue_default_init(int *priority)
{
    *priority = mca_queue_default_priority;
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
