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
 * MPIX_Execute's work: the location taken, the execution run there.
 */

#include "ompi_config.h"

#include "ompi/mpiext/graphs/c/graphs_execute.h"

int graphs_execute_impl(ompi_mpix_token_t *token, int loc_type, void *loc_info, const char **msg)
{
    int rc = graphs_location_acquire(loc_type, loc_info, msg);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = (MPIX_OFFLOAD_CUDA == loc_type) ? graphs_cuda_execute(token, loc_info, msg)
                                         : graphs_execute_blocking(token);
    graphs_location_release(loc_type);
    return rc;
}
