/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The work of the execution bindings once their arguments are checked (the
 * token live and without arguments bound to graph variables): take the
 * location, make what runs there.  On error *msg says why (static string),
 * or stays NULL.
 */

#ifndef OMPI_MPIEXT_GRAPHS_EXECUTE_H
#define OMPI_MPIEXT_GRAPHS_EXECUTE_H

#include "ompi_config.h"

#include "ompi/mpiext/graphs/c/graphs_cuda.h"
#include "ompi/mpiext/graphs/c/graphs_location.h"
#include "ompi/mpiext/graphs/c/graphs_request.h"

BEGIN_C_DECLS

/* internals of libmpi, not exported (see graphs.h) */
#pragma GCC visibility push(hidden)

/** MPIX_Execute: one execution at a location, waited for.  An error with no
 * *msg is an operation's (the location was taken). */
int graphs_execute_impl(ompi_mpix_token_t *token, int loc_type, void *loc_info, const char **msg);

/**
 * MPIX_Iexecute (persistent false: started) and MPIX_Execute_init (true:
 * inactive): an execution request at a location.  Inline: MPIX_Iexecute is
 * per message.
 */
static inline int graphs_execute_request_impl(ompi_mpix_token_t *token, int loc_type,
                                              void *loc_info, bool persistent,
                                              ompi_request_t **request, const char **msg)
{
    graphs_request_t *req;
    graphs_offload_t *offload = NULL;
    int rc;

    rc = graphs_location_acquire(loc_type, loc_info, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (MPIX_OFFLOAD_CUDA == loc_type) {
        rc = graphs_cuda_create(token, loc_info, &offload, msg);
        if (MPI_SUCCESS != rc) {
            graphs_location_release(loc_type);
            return rc;
        }
    }
    rc = graphs_request_create(token, loc_type, persistent, offload, &req);
    if (MPI_SUCCESS != rc) {
        if (NULL != offload) {
            offload->ops->free(offload);
        }
        graphs_location_release(loc_type);
        *msg = NULL;
        return rc;
    }
    *request = &req->super;
    return MPI_SUCCESS;
}

#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_EXECUTE_H */
