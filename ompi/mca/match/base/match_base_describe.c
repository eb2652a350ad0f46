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
 * MPI_Match needs the arguments a persistent point-to-point request was
 * created with.  The PML that made the request describes it through its
 * module's pml_describe slot (pml.h, patch 0045): each PML reads its own
 * layout, so the match framework knows none, and a PML without the slot
 * is refused by name.  Nothing is recorded when requests are created.
 */

#include "ompi_config.h"

#include <stdio.h>

#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/pml/base/base.h"
#include "ompi/mca/pml/pml.h"

/* matching is set up (and the PML asked) only when the PML is selected
 * and a match component is available */
#define MATCH_BASE_NO_COMPONENT "no match component is available"

static mca_pml_base_module_describe_fn_t match_base_describe_fn = NULL;

/* what MPI_Match says when the PML does not describe its requests: every
 * point-to-point request is then refused, however it was created, so the
 * reason is about the PML, not about the request */
static char match_base_describe_refusal[192] = MATCH_BASE_NO_COMPONENT;

int mca_match_base_describe_init(void)
{
    const char *pml = mca_pml_base_selected_component.pmlm_version.mca_component_name;

    /* read once: a PML that interposes on another (pml/monitoring) has
     * replaced mca_pml by now, with or without the slot */
    match_base_describe_fn = mca_pml.pml_describe;
    if (NULL == match_base_describe_fn) {
        (void) snprintf(match_base_describe_refusal, sizeof(match_base_describe_refusal),
                        "pml %s does not describe its persistent requests (no pml_describe); "
                        "run with a PML that does, such as --mca pml ob1", pml);
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                            "match:base: PML %s: persistent point-to-point requests cannot "
                            "be matched (no pml_describe)", pml);
    }
    return OMPI_SUCCESS;
}

void mca_match_base_describe_fini(void)
{
    match_base_describe_fn = NULL;
    (void) snprintf(match_base_describe_refusal, sizeof(match_base_describe_refusal), "%s",
                    MATCH_BASE_NO_COMPONENT);
}

const char *mca_match_base_describe_refusal(void)
{
    return (NULL == match_base_describe_fn) ? match_base_describe_refusal : NULL;
}

bool mca_match_base_describe(const ompi_request_t *request, mca_match_p2p_desc_t *desc)
{
    if (NULL == match_base_describe_fn || OMPI_REQUEST_PML != request->req_type
        || !request->req_persistent || mca_match_request_is(request)) {
        return false;
    }
    return OMPI_SUCCESS == match_base_describe_fn(request, desc);
}
