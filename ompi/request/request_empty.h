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
 * MPI_REQUEST_EMPTY: one predefined request for every operation that
 * completed inside the call that returned it (docs/request-empty.md).
 *
 * The upstream files that hand it out (patches 0007-0010) use only what
 * this header defines.  Without --with-queue, OMPI_REQUEST_EMPTY_DONE is
 * upstream's internal ompi_request_empty and the collapse functions do
 * nothing, so those files compile to stock's code.
 */

#ifndef OMPI_REQUEST_EMPTY_H
#define OMPI_REQUEST_EMPTY_H

#include "ompi_config.h"

#include "ompi/request/request.h"
#include "ompi/mca/pml/base/pml_base_sendreq.h"

BEGIN_C_DECLS

#if OMPI_WANT_QUEUE

/** The object behind MPI_REQUEST_EMPTY (ompi/request/request.c, patch 0006). */
OMPI_DECLSPEC extern ompi_predefined_request_t ompi_mpi_request_empty;

/** What a call returns for an operation that completed inside it. */
#define OMPI_REQUEST_EMPTY_DONE (&ompi_mpi_request_empty.request)

/**
 * Replace a request that is already complete, successfully and not
 * cancelled, by MPI_REQUEST_EMPTY; leave any other request as it is.
 *
 * @param[in,out] request  the handle a PML call has just returned
 *
 * Called by the binding that made the request, in the calling thread,
 * right after the PML returned it: nobody else holds the handle yet.
 */
static inline void ompi_request_collapse_if_complete(ompi_request_t **request)
{
    ompi_request_t *req = *request;

    /* upstream's shared completed request (ob1's inline sends): nothing to free */
    if (&ompi_request_empty == req) {
        *request = OMPI_REQUEST_EMPTY_DONE;
        return;
    }
    /* Another thread's progress may complete the request while this one
     * looks at it: the PML writes the status, then ompi_request_complete
     * publishes the completion by its atomic swap of req_complete.  This
     * acquire load pairs with that swap, so that the status read below is
     * the one written before it (a plain load here raced with the swap,
     * ThreadSanitizer's make check-tsan, request_empty_threads). */
    if (REQUEST_COMPLETED != (void *) __atomic_load_n(&req->req_complete, __ATOMIC_ACQUIRE) ||
        MPI_SUCCESS != req->req_status.MPI_ERROR || req->req_status._cancelled ||
        req->req_persistent) {
        return;
    }
    if (OMPI_SUCCESS == ompi_request_free(request)) {
        *request = OMPI_REQUEST_EMPTY_DONE;
    }
}

/**
 * ompi_request_collapse_if_complete() for a nonblocking send.
 *
 * A program that asked to be warned when it cancels a send (MPI 4
 * deprecation, pml_base_warn_dep_cancel_send_level) keeps the PML's
 * request, whose cancel function warns, as on stock.
 */
static inline void ompi_request_collapse_send(ompi_request_t **request)
{
#if MPI_VERSION >= 4
    if (OPAL_UNLIKELY(OMPI_PML_BASE_WARN_DEP_CANCEL_SEND_NEVER !=
                      ompi_pml_base_warn_dep_cancel_send_level)) {
        return;
    }
#endif
    ompi_request_collapse_if_complete(request);
}

#else /* !OMPI_WANT_QUEUE: stock behaviour */

#define OMPI_REQUEST_EMPTY_DONE (&ompi_request_empty)

static inline void ompi_request_collapse_if_complete(ompi_request_t **request)
{
    (void) request;
}

static inline void ompi_request_collapse_send(ompi_request_t **request)
{
    (void) request;
}

#endif /* OMPI_WANT_QUEUE */

END_C_DECLS

#endif /* OMPI_REQUEST_EMPTY_H */
