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

#include <stdlib.h>

#include "opal/mca/base/base.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/queue/queue.h"
#include "ompi/mca/queue/base/base.h"

mca_queue_base_available_t mca_queue_base_available = {0, NULL};

static int module_priority_cmp(const void *a, const void *b)
{
    const mca_queue_base_module_t *ma = *(mca_queue_base_module_t *const *) a;
    const mca_queue_base_module_t *mb = *(mca_queue_base_module_t *const *) b;

    return mb->queue_priority - ma->queue_priority;
}

int mca_queue_base_select(void)
{
    mca_base_component_list_item_t *cli;
    mca_queue_base_module_t **modules;
    size_t ncomponents;
    int count = 0;

    ncomponents = opal_list_get_size(&ompi_queue_base_framework.framework_components);
    if (0 == ncomponents) {
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_QUEUE_BASE_OUTPUT,
                            "queue:base:select: no queue component opened");
        return OMPI_SUCCESS;
    }

    modules = calloc(ncomponents, sizeof(*modules));
    if (NULL == modules) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }

    OPAL_LIST_FOREACH (cli, &ompi_queue_base_framework.framework_components,
                       mca_base_component_list_item_t) {
        const mca_queue_base_component_t *component
            = (const mca_queue_base_component_t *) cli->cli_component;
        mca_queue_base_module_t *module;
        int priority = 0;

        if (NULL == component->queuem_init) {
            continue;
        }
        module = component->queuem_init(&priority);
        if (NULL == module) {
            opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_QUEUE_BASE_OUTPUT,
                                "queue:base:select: component %s declined",
                                component->queuem_version.mca_component_name);
            continue;
        }
        module->queue_component = component;
        module->queue_priority = priority;
        modules[count++] = module;
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_QUEUE_BASE_OUTPUT,
                            "queue:base:select: component %s available, priority %d",
                            component->queuem_version.mca_component_name, priority);
    }

    qsort(modules, count, sizeof(*modules), module_priority_cmp);
    mca_queue_base_available.modules = modules;
    mca_queue_base_available.count = count;
    return OMPI_SUCCESS;
}

void mca_queue_base_deselect(void)
{
    for (int i = 0; i < mca_queue_base_available.count; ++i) {
        const mca_queue_base_component_t *component
            = mca_queue_base_available.modules[i]->queue_component;
        if (NULL != component->queuem_finalize) {
            (void) component->queuem_finalize();
        }
    }
    free(mca_queue_base_available.modules);
    mca_queue_base_available.modules = NULL;
    mca_queue_base_available.count = 0;
}

const char *mca_queue_base_type_name(int type)
{
    switch (type) {
    case MPI_QUEUE_TYPE_DEFAULT:
        return "MPI_QUEUE_TYPE_DEFAULT";
    case MPIX_QUEUE_TYPE_CUDA_STREAM:
        return "MPIX_QUEUE_TYPE_CUDA_STREAM";
    case MPIX_QUEUE_TYPE_HIP_STREAM:
        return "MPIX_QUEUE_TYPE_HIP_STREAM";
    default:
        return NULL;
    }
}
