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
 * Streams (graphs_stream.c): an open execution fed in order, with the
 * inline path of the commonest enqueue (a send on an idle stream).
 */

#ifndef OMPI_MPIEXT_GRAPHS_STREAM_H
#define OMPI_MPIEXT_GRAPHS_STREAM_H

#include "ompi_config.h"

#include "ompi/mpiext/graphs/c/graphs_cuda.h"
#include "ompi/mpiext/graphs/c/graphs_request.h"
#include "ompi/mpiext/graphs/c/graphs_session.h"
#include "ompi/mpiext/graphs/c/graphs_token.h"

BEGIN_C_DECLS

/* internals of libmpi, not exported (see graphs.h) */
#pragma GCC visibility push(hidden)

/* streams */

struct ompi_mpix_stream_t {
    opal_object_t super;
    volatile uint32_t magic;
    graphs_engine_t exec;         /**< open execution: a FIFO of tokens */
    int loc_type;
    bool loc_held;
    graphs_session_t *session;      /**< NULL: World model; errors go to its handler */
    graphs_cuda_stream_t *cuda;       /**< MPIX_OFFLOAD_CUDA: the queue that orders it, or NULL */
    struct graphs_request_t **isyncs;  /**< pending isync requests */
    int nisyncs, isyncs_cap;
};
OBJ_CLASS_DECLARATION(ompi_mpix_stream_t);

static inline bool graphs_stream_invalid(const ompi_mpix_stream_t *stream)
{
    return NULL == stream || GRAPHS_STREAM_MAGIC != stream->magic;
}

/** The stream failed: it starts nothing more. */
static inline bool graphs_stream_failed(const ompi_mpix_stream_t *stream)
{
    return MPI_SUCCESS != stream->exec.error;
}

int graphs_stream_create(int loc_type, struct ompi_instance_t *session, graphs_cuda_stream_t *cuda,
                         ompi_mpix_stream_t **out);
/** graphs_stream_enqueue for any token and stream state. */
int graphs_stream_enqueue_any(ompi_mpix_stream_t *stream, ompi_mpix_token_t *token, bool *consumed);

/** Lock held, released here: a token started on the idle stream whose
 * requests still run becomes its running node. */
int graphs_stream_track(ompi_mpix_stream_t *stream, ompi_mpix_token_t *token, ompi_request_t **reqs,
                        int nreqs);

/**
 * Start a token on an idle stream (graphs_engine_idle) in the caller, lock
 * held and released here: a token still running becomes the stream's running
 * node, one done at once is recycled.  The program's reference goes with the
 * token (its handle is consumed, *consumed set): it needs no reference of its
 * own.  A failure fails the stream, reported by its next call.
 */
static inline int graphs_stream_start_now(ompi_mpix_stream_t *stream, ompi_mpix_token_t *token,
                                          bool *consumed)
{
    ompi_request_t *reqs[GRAPHS_ENGINE_NODE_REQS];
    int nreqs, rc;

    token->magic = GRAPHS_DEAD_MAGIC;
    *consumed = true;
    if (!graphs_token_try_now(token, reqs, &nreqs, &rc)) {
        return graphs_stream_track(stream, token, reqs, nreqs);
    }
    graphs_engine_retire_now(&stream->exec, rc);
    OPAL_THREAD_UNLOCK(&stream->exec.lock);
    if (GRAPHS_OP_SEND == token->kind || GRAPHS_OP_RECV == token->kind) {
        graphs_token_release_p2p(token);
    } else {
        graphs_token_release(token);
    }
    return MPI_SUCCESS;
}

/**
 * Append a token; *consumed: the stream took it and the program's handle
 * is dead (set on success, and on a later failure to keep progress on it).
 * A send on an idle stream, one per message in the commonest use, is
 * started here (graphs_stream_start_now); anything else goes through
 * graphs_stream_enqueue_any, which takes the same path for any token that
 * may start at once.
 */
static inline int graphs_stream_enqueue(ompi_mpix_stream_t *stream, ompi_mpix_token_t *token,
                                        bool *consumed)
{
    if (GRAPHS_OP_SEND == token->kind && NULL == stream->cuda) {
        OPAL_THREAD_LOCK(&stream->exec.lock);
        if (graphs_engine_idle(&stream->exec)) {
            return graphs_stream_start_now(stream, token, consumed);
        }
        OPAL_THREAD_UNLOCK(&stream->exec.lock);
    }
    return graphs_stream_enqueue_any(stream, token, consumed);
}
int graphs_stream_set_paused(ompi_mpix_stream_t *stream, bool paused);
int graphs_stream_sync(ompi_mpix_stream_t *stream);
int graphs_stream_isync(ompi_mpix_stream_t *stream, ompi_request_t **request);
/** MPI_ERR_PENDING when tokens are pending; otherwise frees. */
int graphs_stream_free(ompi_mpix_stream_t *stream);

/** An isync request is freed by the program: forget it. */
void graphs_isync_forget(graphs_request_t *req);

/*
 * The work of the stream bindings once their arguments are checked (the
 * stream live); on error *msg says why (static string), or stays NULL.
 */

/* a failed call's message: the stream's own failure, or what the call
 * could not do */
#define GRAPHS_STREAM_WHY(stream, fn, what) \
    (graphs_stream_failed(stream) ? fn ": the stream has failed" : fn ": " what)

/** MPIX_Stream_create (session MPI_SESSION_NULL: the World model). */
int graphs_stream_create_impl(struct ompi_instance_t *session, int loc_type, void *loc_info,
                              MPIX_Stream *stream, const char **msg);
int graphs_stream_dup_impl(ompi_mpix_stream_t *stream, MPIX_Stream *newstream, const char **msg);

/** MPIX_Stream_enqueue (the token live and unbound); the handle is consumed
 * when the stream took the token (graphs_stream_enqueue).  Inline: one call
 * per message. */
static inline int graphs_stream_enqueue_impl(ompi_mpix_stream_t *stream, MPIX_Token *token,
                                             const char **msg)
{
    bool consumed;
    int rc = graphs_stream_enqueue(stream, *token, &consumed);

    if (consumed) {
        *token = MPIX_TOKEN_NULL;
    }
    if (MPI_SUCCESS != rc) {
        *msg = GRAPHS_STREAM_WHY(stream, "MPIX_Stream_enqueue", "out of memory");
    }
    return rc;
}

int graphs_stream_pause_impl(ompi_mpix_stream_t *stream, const char **msg);
int graphs_stream_resume_impl(ompi_mpix_stream_t *stream, const char **msg);

static inline int graphs_stream_is_paused_impl(const ompi_mpix_stream_t *stream, int *paused)
{
    *paused = stream->exec.paused ? 1 : 0;
    return MPI_SUCCESS;
}

int graphs_stream_sync_impl(ompi_mpix_stream_t *stream, const char **msg);

/** MPIX_Stream_free: MPI_ERR_PENDING (*stream kept) while tokens are
 * pending; otherwise *stream becomes MPIX_STREAM_NULL. */
int graphs_stream_free_impl(MPIX_Stream *stream, const char **msg);

int graphs_stream_get_error_impl(ompi_mpix_stream_t *stream, int *errcode, MPI_Count *position);


#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_STREAM_H */
