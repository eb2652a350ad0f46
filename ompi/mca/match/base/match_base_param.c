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

#include <stdbool.h>
#include <stdlib.h>

#include "ompi/constants.h"
#include "ompi/mca/match/base/match_base_param.h"
#include "opal/util/printf.h"

static int match_base_param_store(const mca_match_base_param_t *p)
{
    switch (p->type) {
    case MCA_BASE_VAR_TYPE_INT:
        *(int *) p->storage = (int) p->value;
        break;
    case MCA_BASE_VAR_TYPE_UNSIGNED_INT:
        *(unsigned int *) p->storage = (unsigned int) p->value;
        break;
    case MCA_BASE_VAR_TYPE_SIZE_T:
        *(size_t *) p->storage = (size_t) p->value;
        break;
    case MCA_BASE_VAR_TYPE_BOOL:
        *(bool *) p->storage = 0 != p->value;
        break;
    case MCA_BASE_VAR_TYPE_STRING:
        /* mca_base_var takes the string as its default and keeps its own
         * copy once registered */
        *(char **) p->storage = (char *) p->string;
        break;
    default:
        return OMPI_ERR_BAD_PARAM;
    }
    return OMPI_SUCCESS;
}

int mca_match_base_register_params(const mca_base_component_t *component,
                                   const mca_match_base_param_t *params, size_t count)
{
    int rc = OMPI_SUCCESS;

    for (size_t i = 0; i < count; ++i) {
        const mca_match_base_param_t *p = &params[i];

        if (OMPI_SUCCESS != match_base_param_store(p)) {
            rc = OMPI_ERR_BAD_PARAM;
            continue;
        }
        (void) mca_base_component_var_register(component, p->name, p->help, p->type, NULL, 0, 0,
                                               p->level, MCA_BASE_VAR_SCOPE_READONLY,
                                               p->storage);
    }
    return rc;
}

int mca_match_base_register_chan_params(const mca_base_component_t *component, int *priority,
                                        int priority_default, unsigned int *max_channels,
                                        unsigned int max_channels_default, const char *slot,
                                        bool *same_node, bool same_node_default)
{
    const char *name = component->mca_component_name;
    char *priority_help = NULL, *max_channels_help = NULL;
    int rc = OMPI_SUCCESS;

    *priority = priority_default;
    *max_channels = max_channels_default;
    if (NULL != same_node) {
        *same_node = same_node_default;
    }
    /* mca_base_var keeps its own copy of a help text */
    if (0 > opal_asprintf(&priority_help,
                          "Priority of the %s match component: a pair gets the channel of the "
                          "highest priority that accepts it (pml, the fallback, takes any pair)",
                          name)) {
        priority_help = NULL;
        rc = OMPI_ERR_OUT_OF_RESOURCE;
        goto err_free;
    }
    if (0 > opal_asprintf(&max_channels_help,
                          "How many %s of this process the %s component serves at a time (its "
                          "memory for them is laid out when it opens; later pairs fall back to "
                          "the next component)",
                          slot, name)) {
        max_channels_help = NULL;
        rc = OMPI_ERR_OUT_OF_RESOURCE;
        goto err_free;
    }
    (void) mca_base_component_var_register(component, "priority", priority_help,
                                           MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_3,
                                           MCA_BASE_VAR_SCOPE_READONLY, priority);
    (void) mca_base_component_var_register(component, "max_channels", max_channels_help,
                                           MCA_BASE_VAR_TYPE_UNSIGNED_INT, NULL, 0, 0,
                                           OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                           max_channels);
    if (NULL != same_node) {
        (void) mca_base_component_var_register(component, "same_node",
                                               "Also serve pairs whose processes share a node "
                                               "(a component of higher priority, such as sm, "
                                               "takes them first when it is selected)",
                                               MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0,
                                               OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                               same_node);
    }
err_free:
    free(priority_help);
    free(max_channels_help);
    return rc;
}
