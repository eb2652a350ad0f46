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

#include "ompi/constants.h"
#include "ompi/mca/match/base/match_base_param.h"

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
