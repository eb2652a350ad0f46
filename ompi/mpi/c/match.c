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

#include "ompi/mpi/c/bindings.h"
#include "ompi/runtime/params.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_Match = PMPI_Match
#endif
#define MPI_Match PMPI_Match
#endif

static const char FUNC_NAME[] = "MPI_Match";

int MPI_Match(MPI_Request *request)
{
    const char *reason = NULL;
    mca_match_op_t *op = NULL;
    ompi_request_t *opreq;
    int ret, bad;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
    }
    /* misuse is detected whatever mpi_param_check says: the chapter's
     * "erroneous" cases are errors here, never undefined behaviour */
    if (NULL == request) {
        return mca_match_base_error(NULL, MPI_ERR_REQUEST, FUNC_NAME, "request is a NULL pointer");
    }
    if (MPI_SUCCESS != (ret = mca_match_check_all(1, request, &bad, &reason))) {
        return mca_match_base_error(*request, ret, FUNC_NAME, reason);
    }
    if (NULL == mca_match_base_selected_module) {
        return mca_match_base_error(*request, MPI_ERR_UNSUPPORTED_OPERATION, FUNC_NAME,
                                    "no match component is available");
    }

    ret = mca_match_begin(1, request, &op);
    if (OMPI_SUCCESS != ret) {
        if (NULL != op) {
            opreq = &op->super;
            (void) ompi_request_wait(&opreq, MPI_STATUS_IGNORE);
            if (MPI_REQUEST_NULL != opreq) {
                (void) ompi_request_free(&opreq);
            }
        }
        return mca_match_base_error(*request, ompi_errcode_get_mpi_code(ret), FUNC_NAME,
                                    "the match could not be started");
    }
    opreq = &op->super;
    ret = ompi_request_wait(&opreq, MPI_STATUS_IGNORE);
    if (MPI_REQUEST_NULL != opreq) {
        (void) ompi_request_free(&opreq);
    }
    if (MPI_SUCCESS != ret) {
        return mca_match_base_error(*request, ret, FUNC_NAME, "the match failed");
    }
    return MPI_SUCCESS;
}
