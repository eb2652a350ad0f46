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
 * The arguments of a pml/cm persistent request, read from the request
 * itself.  cm makes every persistent request a heavy one
 * (mca_pml_cm_hvy_send_request_t, mca_pml_cm_hvy_recv_request_t): those
 * keep the buffer, the peer and the tag beside the datatype and the
 * communicator of their mca_pml_cm_request_t; the thin ones, never
 * persistent, keep only what the MTL needs.
 *
 * pml/cm needs nothing outside Open MPI (no configure check of its own),
 * and only its types are used here, so this file builds and links whether
 * or not pml/cm itself is built; it is chosen only when the selected PML is
 * "cm".
 */

#include "ompi_config.h"

#include <string.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/pml/cm/pml_cm_recvreq.h"
#include "ompi/mca/pml/cm/pml_cm_request.h"
#include "ompi/mca/pml/cm/pml_cm_sendreq.h"

static bool match_base_describe_cm(const ompi_request_t *request, mca_match_p2p_desc_t *desc)
{
    const mca_pml_cm_request_t *base = (const mca_pml_cm_request_t *) request;

    switch (base->req_pml_type) {
    case MCA_PML_CM_REQUEST_SEND_HEAVY: {
        const mca_pml_cm_hvy_send_request_t *sendreq =
            (const mca_pml_cm_hvy_send_request_t *) request;

        desc->is_send = true;
        desc->mode = sendreq->req_send.req_send_mode;
        desc->buf = (void *) sendreq->req_addr;
        /* req_count is the packed size (patch 0028 keeps the program's) */
        desc->count = sendreq->req_user_count;
        desc->peer = sendreq->req_peer;
        desc->tag = sendreq->req_tag;
        break;
    }
    case MCA_PML_CM_REQUEST_RECV_HEAVY: {
        const mca_pml_cm_hvy_recv_request_t *recvreq =
            (const mca_pml_cm_hvy_recv_request_t *) request;

        desc->is_send = false;
        desc->mode = MCA_PML_BASE_SEND_STANDARD;
        desc->buf = recvreq->req_addr;
        desc->count = recvreq->req_count;
        /* the program's values, wildcards (MPI_ANY_SOURCE, MPI_ANY_TAG)
         * included: cm hands them to the MTL as they are */
        desc->peer = recvreq->req_peer;
        desc->tag = recvreq->req_tag;
        break;
    }
    default:
        return false;
    }
    desc->datatype = base->req_datatype;
    desc->comm = base->req_comm;
    return true;
}

mca_match_base_describe_fn_t mca_match_base_describe_cm_fn(const char *pml)
{
    return (0 == strcmp(pml, "cm")) ? match_base_describe_cm : NULL;
}
