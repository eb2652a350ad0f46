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
#pragma weak MPI_Imatchall = PMPI_Imatchall
#endif
#define MPI_Imatchall PMPI_Imatchall
#endif

static const char FUNC_NAME[] = "MPI_Imatchall";

int MPI_Imatchall(int count, MPI_Request array_of_requests[], MPI_Request *request)
{
    const char *reason = NULL;
    mca_match_op_t *op = NULL;
    int ret, bad = 0;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
    }
    if (0 > count || (0 < count && NULL == array_of_requests) || NULL == request) {
        return mca_match_base_error(NULL, MPI_ERR_ARG, FUNC_NAME,
                                    "count is negative or an array or pointer is NULL");
    }
    if (MPI_SUCCESS != (ret = mca_match_check_all(count, array_of_requests, &bad, &reason))) {
        return mca_match_base_error(array_of_requests[bad], ret, FUNC_NAME, reason);
    }
    if (NULL == mca_match_base_selected_module) {
        return mca_match_base_error(0 < count ? array_of_requests[0] : NULL,
                                    MPI_ERR_UNSUPPORTED_OPERATION, FUNC_NAME,
                                    "no match component is available");
    }

    ret = mca_match_begin((size_t) count, array_of_requests, &op);
    if (NULL != op) {
        *request = &op->super;
    }
    if (OMPI_SUCCESS != ret) {
        return mca_match_base_error(0 < count ? array_of_requests[0] : NULL,
                                    ompi_errcode_get_mpi_code(ret), FUNC_NAME,
                                    "a match could not be started");
    }
    return MPI_SUCCESS;
}
