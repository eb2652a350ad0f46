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
#pragma weak MPI_Imatch = PMPI_Imatch
#endif
#define MPI_Imatch PMPI_Imatch
#endif

static const char FUNC_NAME[] = "MPI_Imatch";

int MPI_Imatch(MPI_Request *tomatch, MPI_Request *matchrequest)
{
    const char *reason = NULL;
    mca_match_op_t *op = NULL;
    int ret, bad;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
    }
    if (NULL == tomatch || NULL == matchrequest) {
        return mca_match_base_error(NULL, MPI_ERR_REQUEST, FUNC_NAME, "a NULL pointer argument");
    }
    if (MPI_SUCCESS != (ret = mca_match_check_all(1, tomatch, &bad, &reason))) {
        return mca_match_base_error(*tomatch, ret, FUNC_NAME, reason);
    }
    if (NULL == mca_match_base_selected_module) {
        return mca_match_base_error(*tomatch, MPI_ERR_UNSUPPORTED_OPERATION, FUNC_NAME,
                                    "no match component is available");
    }

    ret = mca_match_begin(1, tomatch, &op);
    if (NULL != op) {
        *matchrequest = &op->super;
    }
    if (OMPI_SUCCESS != ret) {
        return mca_match_base_error(*tomatch, ompi_errcode_get_mpi_code(ret), FUNC_NAME,
                                    "the match could not be started");
    }
    return MPI_SUCCESS;
}
