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
#pragma weak MPI_Matchall = PMPI_Matchall
#endif
#define MPI_Matchall PMPI_Matchall
#endif

static const char FUNC_NAME[] = "MPI_Matchall";

int MPI_Matchall(int count, MPI_Request array_of_requests[])
{
    const char *reason = NULL;
    mca_match_op_t *op = NULL;
    ompi_request_t *opreq;
    int ret, bad = 0;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
    }
    if (0 > count || (0 < count && NULL == array_of_requests)) {
        return mca_match_base_error(NULL, MPI_ERR_ARG, FUNC_NAME,
                                    "count is negative or the array is NULL");
    }
    if (MPI_SUCCESS != (ret = mca_match_check_all(count, array_of_requests, &bad, &reason))) {
        return mca_match_base_error(array_of_requests[bad], ret, FUNC_NAME, reason);
    }
    if (0 == count) {
        return MPI_SUCCESS;
    }
    if (NULL == mca_match_base_selected_module) {
        return mca_match_base_error(array_of_requests[0], MPI_ERR_UNSUPPORTED_OPERATION, FUNC_NAME,
                                    "no match component is available");
    }

    ret = mca_match_begin((size_t) count, array_of_requests, &op);
    if (NULL != op) {
        int wret;
        opreq = &op->super;
        wret = ompi_request_wait(&opreq, MPI_STATUS_IGNORE);
        if (MPI_REQUEST_NULL != opreq) {
            (void) ompi_request_free(&opreq);
        }
        if (OMPI_SUCCESS == ret) {
            ret = wret;
        }
    }
    if (MPI_SUCCESS != ret) {
        return mca_match_base_error(array_of_requests[0], ompi_errcode_get_mpi_code(ret),
                                    FUNC_NAME, "a match failed");
    }
    return MPI_SUCCESS;
}
