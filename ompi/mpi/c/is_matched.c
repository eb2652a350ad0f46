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
#pragma weak MPI_Is_matched = PMPI_Is_matched
#endif
#define MPI_Is_matched PMPI_Is_matched
#endif

static const char FUNC_NAME[] = "MPI_Is_matched";

int MPI_Is_matched(MPI_Request request, int *flag)
{
    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
    }
    if (NULL == flag) {
        return mca_match_base_error(request, MPI_ERR_ARG, FUNC_NAME, "flag is a NULL pointer");
    }
    if (NULL == request || MPI_REQUEST_NULL == request
        || OMPI_REQUEST_INVALID == request->req_state) {
        return mca_match_base_error(NULL, MPI_ERR_REQUEST, FUNC_NAME,
                                    "the request is MPI_REQUEST_NULL or was freed");
    }
    if (!request->req_persistent) {
        return mca_match_base_error(request, MPI_ERR_REQUEST, FUNC_NAME,
                                    "the request is not persistent");
    }
    if (OMPI_REQUEST_PART == request->req_type) {
        *flag = 1;  /* partitioned requests are matched at creation */
    } else {
        *flag = mca_match_request_is(request)
                && MCA_MATCH_STATE_MATCHED == ((mca_match_request_t *) request)->mr_state;
    }
    return MPI_SUCCESS;
}
