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
 * MPIX_OFFLOAD_CUDA (graphs_cuda.c): executions and streams ordered in a
 * CUDA stream through an internal MPI_Queue bound to it.
 */

#ifndef OMPI_MPIEXT_GRAPHS_CUDA_H
#define OMPI_MPIEXT_GRAPHS_CUDA_H

#include "ompi_config.h"

#include "ompi/mpiext/graphs/c/graphs_engine.h"
#include "ompi/mpiext/graphs/c/graphs_location.h"
#include "ompi/mpiext/graphs/c/graphs_token.h"

BEGIN_C_DECLS

/* internals of libmpi, not exported (see graphs.h) */
#pragma GCC visibility push(hidden)

typedef struct graphs_cuda_stream_t graphs_cuda_stream_t;

/**
 * An execution of token ordered in the stream *loc_info (the request's
 * offload).  MPI_ERR_ARG (with *msg) when no queue can be bound to that
 * stream (no driver or device, library not thread safe).
 */
int graphs_cuda_create(ompi_mpix_token_t *token, void *loc_info, graphs_offload_t **out,
                       const char **msg);
/** MPIX_Execute at MPIX_OFFLOAD_CUDA: ordered in the stream, waited host side. */
int graphs_cuda_execute(ompi_mpix_token_t *token, void *loc_info, const char **msg);

/* streams at MPIX_OFFLOAD_CUDA */
int graphs_cuda_stream_create(void *loc_info, graphs_cuda_stream_t **out, const char **msg);
/** Append a token as a node of exec (the stream's) that posts it when started. */
int graphs_cuda_stream_add(graphs_cuda_stream_t *cs, graphs_engine_t *exec,
                           ompi_mpix_token_t *token);
void graphs_cuda_stream_fence(graphs_cuda_stream_t *cs);
void graphs_cuda_stream_free(graphs_cuda_stream_t *cs);

#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_CUDA_H */
