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
 * Matched requests under ULFM (mpirun --with-ft ulfm).
 *
 * Open MPI's wait and test functions, and the queue engine, ask
 * ompi_request_is_failed whether a process failure or a revoked
 * communicator ends a request they wait for.  A matched request on the sm,
 * ucx or ofi channel moves its data without the PML, so nothing else would
 * notice that its peer died: it would wait on a ring or a flag forever.
 * The base answers for matched requests from the communicator's view of
 * the peer and has the channel drop the transfer (abort); on the pml
 * channel the PML's own request answers, and its completion in error
 * completes the matched request.
 *
 * A match still pending waits for the pairing module's handshake, which no
 * wait asks about: a wait on the match operation (MPI_Matchall, MPI_Wait on
 * MPI_Imatch's request) has the pairing module end the pending matches a
 * failure or a revoke concerns (match_ft_sweep), which completes the
 * operation in error.
 */

#include "ompi_config.h"

#include "opal/util/output.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/request/request.h"
#include "ompi/runtime/params.h"
#include "ompi/request/request_owner.h"

#if OPAL_ENABLE_FT_MPI

static bool match_base_ft_check(ompi_request_t *request)
{
    mca_match_request_t *req = (mca_match_request_t *) request;
    ompi_communicator_t *comm = request->req_mpi_object.comm;
    int err;

    if (ompi_request_seen_complete(request) || MCA_MATCH_STATE_MATCHED != req->mr_state) {
        /* a match still pending is ended through its match operation
         * (match_base_ft_op_check), which is what a program waits for */
        return false;
    }
    if (NULL != req->mr_inner) {
        /* the pml channel, or a persistent collective: the request that
         * runs each start says, and cancels itself */
        if (ompi_request_is_failed(req->mr_inner)) {
            /* completed in error, not cancelled by the program (the
             * completion copied the cancel mark that the check uses) */
            request->req_status._cancelled = 0;
        }
        return ompi_request_seen_complete(request);
    }
    if (NULL == req->mr_chan_ops) {
        return false; /* MPI_PROC_NULL */
    }
    if (ompi_comm_is_revoked(comm)) {
        err = MPI_ERR_REVOKED;
    } else if (!ompi_comm_is_proc_active(comm, req->mr_peer, OMPI_COMM_IS_INTER(comm))) {
        err = MPI_ERR_PROC_FAILED;
    } else {
        return false;
    }
    opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                        "match:base: matched %s with peer %d on %s ends in error %d",
                        MCA_MATCH_KIND_SEND == req->mr_kind ? "send" : "receive", req->mr_peer,
                        comm->c_name, err);
    if (req->mr_chan_ops->abort(req)) {
        /* the channel's completion, with the error */
        request->req_status.MPI_ERROR = err;
        request->req_status._ucount = 0;
        mca_match_request_channel_done(req);
    }
    return ompi_request_seen_complete(request);
}

static bool match_base_ft_op_check(ompi_request_t *request)
{
    mca_match_base_module_t *pairing = mca_match_base_selected_module;

    if (!ompi_request_seen_complete(request) && NULL != pairing
        && NULL != pairing->match_ft_sweep) {
        pairing->match_ft_sweep();
    }
    return ompi_request_seen_complete(request);
}

int mca_match_base_ft_init(void)
{
    int ret = ompi_request_ft_check_register(OBJ_CLASS(mca_match_request_t),
                                             match_base_ft_check);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    return ompi_request_ft_check_register(OBJ_CLASS(mca_match_op_t), match_base_ft_op_check);
}

#else

int mca_match_base_ft_init(void)
{
    return OMPI_SUCCESS;
}

#endif /* OPAL_ENABLE_FT_MPI */
