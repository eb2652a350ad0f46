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
 * Execution requests (graphs_request.c) and isync requests.
 */

#ifndef OMPI_MPIEXT_GRAPHS_REQUEST_H
#define OMPI_MPIEXT_GRAPHS_REQUEST_H

#include "ompi_config.h"

#include "ompi/mpiext/graphs/c/graphs_location.h"
#include "ompi/mpiext/graphs/c/graphs_session.h"
#include "ompi/mpiext/graphs/c/graphs_token.h"

BEGIN_C_DECLS

/* internals of libmpi, not exported (see graphs.h) */
#pragma GCC visibility push(hidden)

/* execution requests */

typedef enum { GRAPHS_REQ_EXEC, GRAPHS_REQ_ISYNC } graphs_req_kind_t;

typedef struct ompi_mpix_stream_t ompi_mpix_stream_t;

typedef struct graphs_request_t {
    ompi_request_t super;
    int kind;                       /**< graphs_req_kind_t */
    ompi_mpix_token_t *token;       /**< retained (execution requests) */
    graphs_engine_t exec;
    int loc_type;
    bool completed;                 /**< the current execution completed (written under
                                         *   exec.lock, with atomic stores: polled without it) */
    bool user_freed;                /**< freed by the program while active */
    bool held;                      /**< its blocking-only nodes wait for MPI_Wait/MPI_Test
                                         (graphs_engine_hold) */
    bool error_kept;                /**< the error path's free of a failed execution was absorbed */
    int last_error, last_op;        /**< of the last completed execution */
    /* an offloaded location (MPIX_OFFLOAD_CUDA): what orders it in the
     * device's stream (outer request), or the outer request to complete
     * (inner) */
    graphs_offload_t *offload;
    struct graphs_request_t *outer;
    /* isync requests */
    ompi_mpix_stream_t *stream;
    uint64_t target;
} graphs_request_t;
OBJ_CLASS_DECLARATION(graphs_request_t);

/** True for an execution request of this extension (isync requests are
 * the streams' own: graphs_stream.c). */
bool graphs_request_is(ompi_request_t *req);

/**
 * Create an execution request for token at a location; persistent: inactive
 * (MPIX_Execute_init); otherwise started (MPIX_Iexecute).
 */
int graphs_request_create(ompi_mpix_token_t *token, int loc_type, bool persistent,
                          graphs_offload_t *offload, graphs_request_t **out);

/** Release an internal (inactive) request, whatever its last error. */
void graphs_request_destroy(graphs_request_t *req);

/** The shared completed request of MPIX_Iexecute's fast path (component
 * init and fini). */
void graphs_request_done_init(void);

/** Under ULFM, have waits ask the execution's operations whether a failure
 * ends them (ompi_request_ft_check_register); at extension init. */
int graphs_request_ft_init(void);
void graphs_request_done_fini(void);

/** Release the execution requests kept for reuse (finalization). */
void graphs_request_cache_flush(void);

/** Run one execution of token to completion in this thread (MPIX_Execute). */
int graphs_execute_blocking(ompi_mpix_token_t *token);


/** MPIX_Execute_get_error: MPI_ERR_REQUEST unless request is a completed
 * execution request. */
int graphs_execute_get_error_impl(ompi_request_t *request, int *errcode, int *op_id,
                                  const char **msg);

#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_REQUEST_H */
