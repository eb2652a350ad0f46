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
 * created with.  Every PML keeps them in its own request, each in its own
 * layout, so a small accessor per PML reads them there: nothing is recorded
 * when requests are created, and the PML's function table is left alone.
 * The accessor is chosen once, when the PML is selected.
 *
 * This file holds the choice and the accessor of PMLs whose requests are
 * mca_pml_base_request_t (ob1); match_base_describe_ucx.c reads pml/ucx's,
 * match_base_describe_cm.c pml/cm's.
 */

#include "ompi_config.h"

#include <stdio.h>
#include <string.h>

#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/pml/base/base.h"
#include "ompi/mca/pml/base/pml_base_request.h"
#include "ompi/mca/pml/base/pml_base_sendreq.h"
#include "ompi/mca/pml/pml.h"

/* the PMLs with an accessor, for the refusal's advice */
#if OMPI_MATCH_BASE_HAVE_UCX
#define MATCH_BASE_DESCRIBED_PMLS "ob1, ucx or cm"
#else
#define MATCH_BASE_DESCRIBED_PMLS "ob1 or cm"
#endif

/* matching is set up (and the accessor chosen) only when the PML is
 * selected and a match component is available */
#define MATCH_BASE_NO_COMPONENT "no match component is available"

static mca_match_base_describe_fn_t match_base_describe_fn = NULL;

/* what MPI_Match says when the accessor is missing: every point-to-point
 * request is then refused, however it was created, so the reason is about
 * the PML and what to run instead, not about the request */
static char match_base_describe_refusal[192] = MATCH_BASE_NO_COMPONENT;

/* ob1: the arguments are in the request's mca_pml_base_request_t (a
 * buffered send's staging buffer goes to the send request's own req_addr,
 * never to the base's) */
static bool match_base_describe_pml_base(const ompi_request_t *request,
                                         mca_match_p2p_desc_t *desc)
{
    const mca_pml_base_request_t *base = (const mca_pml_base_request_t *) request;

    switch (base->req_type) {
    case MCA_PML_REQUEST_SEND:
        desc->is_send = true;
        desc->mode = ((const mca_pml_base_send_request_t *) request)->req_send_mode;
        break;
    case MCA_PML_REQUEST_RECV:
        desc->is_send = false;
        desc->mode = MCA_PML_BASE_SEND_STANDARD;
        break;
    default:
        return false;
    }
    desc->buf = base->req_addr;
    desc->count = base->req_count;
    desc->datatype = base->req_datatype;
    desc->peer = base->req_peer;
    desc->tag = base->req_tag;
    desc->comm = base->req_comm;
    return true;
}

int mca_match_base_describe_init(void)
{
    const char *pml = mca_pml_base_selected_component.pmlm_version.mca_component_name;

    if (0 == strcmp(pml, "ob1")) {
        match_base_describe_fn = match_base_describe_pml_base;
    } else if (NULL == (match_base_describe_fn = mca_match_base_describe_ucx_fn(pml))) {
        match_base_describe_fn = mca_match_base_describe_cm_fn(pml);
    }
    if (NULL == match_base_describe_fn) {
        (void) snprintf(match_base_describe_refusal, sizeof(match_base_describe_refusal),
                        "pml %s cannot describe its persistent requests to MPI_Match; "
                        "run with --mca pml " MATCH_BASE_DESCRIBED_PMLS, pml);
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                            "match:base: PML %s: persistent point-to-point requests cannot "
                            "be matched (no accessor for its requests)", pml);
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
    return match_base_describe_fn(request, desc);
}
