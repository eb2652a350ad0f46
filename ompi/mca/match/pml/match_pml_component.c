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
 * The pml component matches over whatever PML was selected (ob1, ucx, cm):
 * the portable fallback for any datatype and any transport.
 */

#include "ompi_config.h"

#include "ompi/constants.h"

#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/pml/match_pml.h"

static int match_pml_register(void)
{
    mca_match_pml_component.priority = 10;
    (void) mca_base_component_var_register(&mca_match_pml_component.super.matchm_version,
                                           "priority",
                                           "Priority of the pml match component (the portable "
                                           "fallback that works over any PML)",
                                           MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_3,
                                           MCA_BASE_VAR_SCOPE_READONLY,
                                           &mca_match_pml_component.priority);
    return OMPI_SUCCESS;
}

static mca_match_base_module_t *match_pml_init(int *priority)
{
    if (OMPI_SUCCESS != mca_match_pml_channel_init()) {
        return NULL;
    }
    *priority = mca_match_pml_component.priority;
    return &mca_match_pml_module;
}

static int match_pml_finalize(void)
{
    return mca_match_pml_channel_fini();
}

mca_match_pml_component_t mca_match_pml_component = {
    .super = MCA_MATCH_BASE_COMPONENT_INIT("pml", match_pml_register, match_pml_init,
                                           match_pml_finalize),
};
