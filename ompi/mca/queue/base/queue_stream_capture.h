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
 * Stream queues captured into a device graph (queue_stream_capture.c).
 *
 * An eager enqueue posts the running count of the queue's starts or waits
 * into the stream: a captured graph would replay those frozen counts and
 * be wrong from its second launch on.  So a start or wait enqueued while
 * its stream is being captured gets words of its own, with constant
 * values: a start's trigger word, which the graph sets to 1 and the host
 * clears when it starts the group; a wait's done word, which the host sets
 * to 1 when the group completed and the graph clears once past its wait.
 * The words of one capture of one queue make a table, tied to the graph
 * (a user object of the backend's, which the graph holds) and freed when
 * the graph is destroyed; a progress callback, the host agent, walks the
 * live tables.  Launches of
 * one graph must be ordered (one stream); eager and captured use of one
 * queue mix freely.
 */

#ifndef OMPI_MCA_QUEUE_BASE_QUEUE_STREAM_CAPTURE_H
#define OMPI_MCA_QUEUE_BASE_QUEUE_STREAM_CAPTURE_H

#include "ompi_config.h"

#include "ompi/mca/queue/base/queue_stream.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

/**
 * Enqueue a group into the graph being captured from stream (the queue's).
 * Checks the requests as the eager enqueue does (matched, inactive and not
 * held for a start; started in this capture and not waited yet for a wait).
 *
 * @retval OMPI_SUCCESS           captured
 * @retval OMPI_ERR_REQUEST       *refusal says which and why (may be NULL:
 *                                then nothing is checked)
 * @retval OMPI_ERR_NOT_SUPPORTED the backend cannot capture
 * @retval other                  resources, vendor errors (nothing captured)
 */
int ompi_queue_stream_capture_enqueue(struct ompi_queue_t *queue,
                                      const ompi_queue_stream_backend_t *backend, void *stream,
                                      void *ctx, bool is_wait, int count,
                                      ompi_request_t **requests, ompi_status_public_t *statuses,
                                      mca_queue_base_refusal_t *refusal);

/** The queue is being freed: its graphs live on, their errors are dropped. */
void ompi_queue_stream_capture_forget(struct ompi_queue_t *queue);

/** Free the tables of destroyed graphs and stop the host agent (finalize). */
void ompi_queue_stream_capture_fini(void);

/** Register the MPI_T performance variable queue_base_stream_captures:
 * graphs captured from stream queues whose tables the queues still hold.
 * At the framework's registration. */
int ompi_queue_stream_capture_register(void);

END_C_DECLS

#endif /* OMPI_MCA_QUEUE_BASE_QUEUE_STREAM_CAPTURE_H */
