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
 * The arguments of a pml/ucx persistent request, read from the request
 * itself (mca_pml_ucx_persistent_request_t).  The MPI tag, the source and
 * the wildcards are packed in the UCX tag and its mask; a send keeps its
 * destination only as an endpoint, which is looked up among the
 * communicator's peers (once, at MPI_Match).
 *
 * Built when configure found UCX; only the PML's types and macros are used,
 * so this file links whether or not pml/ucx itself is built.
 */

#include "ompi_config.h"

#include <string.h>

#include "ompi/mca/match/base/match_request.h"

#if OMPI_MATCH_BASE_HAVE_UCX

#include "ompi/communicator/communicator.h"
#include "ompi/group/group.h"
#include "ompi/mca/pml/ucx/pml_ucx_request.h"
#include "ompi/proc/proc.h"

static int match_base_ucx_peer_of(ompi_communicator_t *comm, ucp_ep_h ep)
{
    ompi_group_t *group = comm->c_remote_group;
    int size = ompi_group_size(group);

    for (int r = 0; r < size; ++r) {
        ompi_proc_t *proc = ompi_group_peer_lookup_existing(group, r);
        if (NULL != proc && (ucp_ep_h) proc->proc_endpoints[OMPI_PROC_ENDPOINT_TAG_PML] == ep) {
            return r;
        }
    }
    return MPI_PROC_NULL;
}

static bool match_base_describe_ucx(const ompi_request_t *request, mca_match_p2p_desc_t *desc)
{
    const mca_pml_ucx_persistent_request_t *preq =
        (const mca_pml_ucx_persistent_request_t *) request;
    ompi_communicator_t *comm = request->req_mpi_object.comm;
    const uint64_t source_bits = UCS_MASK(PML_UCX_RANK_BITS) << PML_UCX_CONTEXT_BITS;

    desc->buf = preq->buffer;
    desc->count = preq->count;
    desc->datatype = preq->ompi_datatype;
    desc->comm = comm;
    /* the MPI tag is the top 24 bits, sign included */
    desc->tag = (int) ((int64_t) preq->tag >> (PML_UCX_RANK_BITS + PML_UCX_CONTEXT_BITS));
    if (preq->flags & MCA_PML_UCX_REQUEST_FLAG_SEND) {
        desc->is_send = true;
        desc->mode = preq->send.mode;
        desc->peer = match_base_ucx_peer_of(comm, preq->send.ep);
        return MPI_PROC_NULL != desc->peer;
    }
    desc->is_send = false;
    desc->mode = MCA_PML_BASE_SEND_STANDARD;
    desc->peer = (preq->recv.tag_mask & source_bits) ? (int) PML_UCX_TAG_GET_SOURCE(preq->tag)
                                                     : MPI_ANY_SOURCE;
    if (0 == (preq->recv.tag_mask & PML_UCX_TAG_MASK)) {
        desc->tag = MPI_ANY_TAG;
    }
    return true;
}

mca_match_base_describe_fn_t mca_match_base_describe_ucx_fn(const char *pml)
{
    return (0 == strcmp(pml, "ucx")) ? match_base_describe_ucx : NULL;
}

#else

mca_match_base_describe_fn_t mca_match_base_describe_ucx_fn(const char *pml)
{
    (void) pml;
    return NULL;
}

#endif /* OMPI_MATCH_BASE_HAVE_UCX */
