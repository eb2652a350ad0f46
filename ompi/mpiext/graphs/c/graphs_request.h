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
 * Execution requests (graphs_request.c) and isync requests, the locations
 * an execution runs at, and MPIX_OFFLOAD_CUDA (graphs_cuda.c).
 */

#ifndef OMPI_MPIEXT_GRAPHS_REQUEST_H
#define OMPI_MPIEXT_GRAPHS_REQUEST_H

#include "ompi_config.h"

#include "ompi/mpiext/graphs/c/graphs_session.h"
#include "ompi/mpiext/graphs/c/graphs_token.h"

BEGIN_C_DECLS

/* internals of libmpi, not exported (see graphs.h) */
#pragma GCC visibility push(hidden)

/* locations */

/**
 * Check a location and take what it needs (the progress thread for
 * PTHREAD).  On error *msg says why (static string).
 *
 * @return MPI_SUCCESS or an MPI error class
 */
int graphs_location_acquire(int loc_type, void *loc_info, const char **msg);
void graphs_location_release(int loc_type);

/* execution requests */

typedef enum { GRAPHS_REQ_EXEC, GRAPHS_REQ_ISYNC } graphs_req_kind_t;

typedef struct ompi_mpix_stream_t ompi_mpix_stream_t;
typedef struct graphs_cuda_t graphs_cuda_t;
typedef struct graphs_cuda_stream_t graphs_cuda_stream_t;

typedef struct graphs_request_t {
    ompi_request_t super;
    int kind;                       /**< graphs_req_kind_t */
    ompi_mpix_token_t *token;       /**< retained (execution requests) */
    graphs_engine_t exec;
    int loc_type;
    bool completed;                 /**< the current execution completed (under exec.lock) */
    bool user_freed;                /**< freed by the program while active */
    bool held;                      /**< its blocking-only nodes wait for MPI_Wait/MPI_Test
                                         (graphs_engine_hold) */
    bool error_kept;                /**< the error path's free of a failed execution was absorbed */
    int last_error, last_op;        /**< of the last completed execution */
    /* MPIX_OFFLOAD_CUDA: the queue and inner request that order it in the
     * stream (outer request), or the outer request to complete (inner) */
    graphs_cuda_t *cuda;
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
                          graphs_cuda_t *cuda, graphs_request_t **out);

/** Release an internal (inactive) request, whatever its last error. */
void graphs_request_destroy(graphs_request_t *req);

/** MPIX_Execute at MPIX_OFFLOAD_CUDA: ordered in the stream, waited host side. */
int graphs_execute_cuda(ompi_mpix_token_t *token, void *loc_info, const char **msg);

/* MPIX_OFFLOAD_CUDA (graphs_cuda.c) */
/** MPI_ERR_ARG (with *msg) when no queue can be bound to that stream. */
int graphs_cuda_probe(void *loc_info, const char **msg);
int graphs_cuda_create(ompi_mpix_token_t *token, void *loc_info, graphs_cuda_t **out,
                       const char **msg);
/** Enqueue one execution on the stream; outer completes with it. */
int graphs_cuda_start(graphs_cuda_t *c, graphs_request_t *outer);
bool graphs_cuda_done(const graphs_cuda_t *c);
int graphs_cuda_error(const graphs_cuda_t *c);
/** Not from a progress callback (it fences the internal queue). */
void graphs_cuda_free(graphs_cuda_t *c);
/* streams at MPIX_OFFLOAD_CUDA */
int graphs_cuda_stream_create(void *loc_info, graphs_cuda_stream_t **out, const char **msg);
/** Append a token as a node of exec (the stream's) that posts it when started. */
int graphs_cuda_stream_add(graphs_cuda_stream_t *cs, graphs_engine_t *exec,
                           ompi_mpix_token_t *token);
void graphs_cuda_stream_fence(graphs_cuda_stream_t *cs);
void graphs_cuda_stream_free(graphs_cuda_stream_t *cs);

/** The shared completed request of MPIX_Iexecute's fast path (component
 * init and fini). */
void graphs_request_done_init(void);
void graphs_request_done_fini(void);

/** Release the execution requests kept for reuse (finalization). */
void graphs_request_cache_flush(void);

/** Run one execution of token to completion in this thread (MPIX_Execute). */
int graphs_execute_blocking(ompi_mpix_token_t *token);

/** Release the progress-thread holds deferred by completions in that thread. */
void graphs_location_flush(void);

/*
 * The work of the execution bindings once their arguments are checked (the
 * token live and without arguments bound to graph variables); on error *msg
 * says why (static string), or stays NULL.
 */

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
    graphs_cuda_t *cuda = NULL;
    int rc;

    rc = graphs_location_acquire(loc_type, loc_info, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (MPIX_OFFLOAD_CUDA == loc_type) {
        rc = graphs_cuda_create(token, loc_info, &cuda, msg);
        if (MPI_SUCCESS != rc) {
            graphs_location_release(loc_type);
            return rc;
        }
    }
    rc = graphs_request_create(token, loc_type, persistent, cuda, &req);
    if (MPI_SUCCESS != rc) {
        if (NULL != cuda) {
            graphs_cuda_free(cuda);
        }
        graphs_location_release(loc_type);
        *msg = NULL;
        return rc;
    }
    *request = &req->super;
    return MPI_SUCCESS;
}

/** MPIX_Execute_get_error: MPI_ERR_REQUEST unless request is a completed
 * execution request. */
int graphs_execute_get_error_impl(ompi_request_t *request, int *errcode, int *op_id,
                                  const char **msg);

#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_REQUEST_H */
