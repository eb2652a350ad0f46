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
 * The extension's init/fini hooks (called at the first instance
 * initialization and the last finalization, so for the World and the
 * Sessions models alike).
 */

#include "ompi_config.h"

#include <string.h>

#include "ompi/errhandler/errcode.h"
#include "ompi/mpiext/graphs/c/graphs.h"
#include "ompi/mpiext/mpiext.h"

int ompi_mpix_err_stream_failed = MPI_ERR_OTHER;

int graphs_component_init(void)
{
    static const char msg[] = "MPIX_ERR_STREAM_FAILED: an operation on the stream failed; "
                              "the stream starts nothing more (inspect it with "
                              "MPIX_Stream_get_error, then free or duplicate it)";
    char buf[MPI_MAX_ERROR_STRING];
    int cls = ompi_mpi_errclass_add();

    if (0 > cls || OMPI_SUCCESS != graphs_vars_init() || OMPI_SUCCESS != graphs_request_ft_init()) {
        return OMPI_ERROR;
    }
    graphs_request_done_init();
    /* an error class is also an error code (MPI_Error_class of it is
     * itself); the entry ompi_mpi_errclass_add makes has no code, so
     * MPI_Error_class would answer MPI_ERR_UNKNOWN */
    {
        ompi_mpi_errcode_t *e = opal_pointer_array_get_item(&ompi_mpi_errcodes, cls);
        if (NULL != e) {
            e->code = cls;
        }
    }
    ompi_mpix_err_stream_failed = cls;
    /* the string is read to MPI_MAX_ERROR_STRING bytes whatever its length */
    memset(buf, 0, sizeof(buf));
    strncpy(buf, msg, sizeof(buf) - 1);
    (void) ompi_mpi_errnum_add_string(cls, buf, (int) sizeof(buf));
    return OMPI_SUCCESS;
}

int graphs_component_fini(void)
{
    graphs_engine_held_fini();
    graphs_engine_progress_fini();
    graphs_retire_flush();
    graphs_request_cache_flush();
    graphs_request_done_fini();
    graphs_token_cache_flush();
    graphs_location_flush();
    graphs_vars_fini();
    graphs_session_flush();
    graphs_big_ops_fini();
    return OMPI_SUCCESS;
}

const ompi_mpiext_component_t ompi_mpiext_graphs = {
    .init = graphs_component_init,
    .fini = graphs_component_fini,
};
