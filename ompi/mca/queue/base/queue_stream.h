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
 * The stream engine: queues bound to a device stream (CUDA, HIP, or the
 * emulated stream of the tests, queue/emulated), once for every vendor.
 *
 * A stream queue is the host engine (queue_host.h) in its triggered form:
 * an enqueued start becomes a 64-bit write into a counter that the host
 * watches, posted on the stream after the stream's earlier work; an
 * enqueued wait becomes a wait on the stream for a second counter that the
 * host writes when the operations completed.  The counters live in host
 * memory mapped into the device.  The fence records an event on the stream
 * and polls it.  An enqueue on a stream being captured into a graph goes
 * its own way (queue_stream_capture.h).  The engine does that, enters the
 * stream's context and reports errors; a backend is the table of the few vendor
 * calls it needs, below.  Nothing in the engine names a vendor.
 *
 * A vendor status is an int, 0 for success; the engine passes a non-zero
 * one to the backend's error_name for messages and returns OMPI_ERROR.
 */

#ifndef OMPI_MCA_QUEUE_BASE_QUEUE_STREAM_H
#define OMPI_MCA_QUEUE_BASE_QUEUE_STREAM_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ompi/mca/queue/queue.h"

BEGIN_C_DECLS

/**
 * What the engine needs from a vendor.  Every slot is called with the
 * engine's own locks released, from the thread named; a slot may be NULL
 * only where said.
 */
typedef struct ompi_queue_stream_backend_t {
    /** "cuda", "hip", "emulated": the prefix of messages */
    const char *name;

    /**
     * Load the vendor library and find a device, once; later calls return
     * the first call's result.  Thread: any (MPI_Queue_init's).
     *
     * @param[out] reason  why not, a static string
     * @retval OMPI_SUCCESS or OMPI_ERR_NOT_AVAILABLE
     */
    int (*open)(const char **reason);

    /**
     * The context (device, address space) that the stream belongs to, for
     * ctx_enter.  NULL slot: the vendor needs none (calls work from any
     * thread).  Thread: MPI_Queue_init's.
     */
    int (*stream_context)(void *stream, void **ctx);

    /**
     * Make ctx current on the calling thread if it is not; *entered says
     * whether ctx_leave must undo it.  NULL when stream_context is NULL.
     * Thread: any thread that enqueues, fences or frees.
     */
    int (*ctx_enter)(void *ctx, bool *entered);
    void (*ctx_leave)(void *ctx, bool entered);

    /**
     * Pinned host memory of size bytes, zeroed, mapped into the device:
     * *host is its host address, *device_addr the device's address of the
     * same bytes.  Thread: MPI_Queue_init's, with the context entered.
     */
    int (*host_alloc)(size_t size, void **host, uint64_t *device_addr);
    /** Release what host_alloc returned (context entered). */
    int (*host_free)(void *host);

    /**
     * Post on the stream: write value at device_addr once all earlier work
     * of the stream completed, its memory writes visible first.  Thread:
     * the enqueuing thread, context entered.
     */
    int (*write_value64)(void *stream, uint64_t device_addr, uint64_t value);

    /**
     * Post on the stream: later work of the stream waits until the 64-bit
     * word at device_addr is >= value.  Thread: as write_value64.
     */
    int (*wait_value64)(void *stream, uint64_t device_addr, uint64_t value);

    /**
     * Whether the stream is being captured into a graph (*capturing).
     * NULL: the vendor cannot tell (capture is then not detected).
     * Thread: as write_value64.
     */
    int (*is_capturing)(void *stream, bool *capturing);

    /**
     * Events, for the fence: create (no timing), record on the stream
     * (complete once the stream's work before it is), query (*done true
     * once complete; never blocks), destroy.  Thread: create and destroy
     * MPI_Queue_init's and MPI_Queue_free's, record and query the fencing
     * thread's; context entered for all but query.
     */
    int (*event_create)(void **event);
    int (*event_record)(void *event, void *stream);
    int (*event_query)(void *event, bool *done);
    int (*event_destroy)(void *event);

    /**
     * Capture (queue_stream_capture.h), the vendor's user objects.
     *  - capture_id: an identity of the capture in progress on the stream,
     *    the same for every call during one capture and never reused.
     *  - user_object_create: *uo, an object holding one reference (the
     *    caller's) that calls destroy(obj) once its last reference is gone,
     *    from any thread, maybe later than the call that dropped it
     *    (destroy makes no vendor call).
     *  - graph_retain: the graph being captured on the stream takes the
     *    caller's reference to uo (moved: on success the caller holds none;
     *    on failure it still holds it).
     *  - user_object_release: the caller drops its reference.
     * The engine ties a table to a graph with these three, so that a
     * failure between them leaks nothing on any backend.  Thread: as
     * write_value64.  NULL (all four): a stream being captured refuses
     * enqueues (MPI_ERR_UNSUPPORTED_OPERATION).
     */
    int (*capture_id)(void *stream, uint64_t *id);
    int (*user_object_create)(void **uo, void *obj, void (*destroy)(void *obj));
    int (*graph_retain)(void *stream, void *uo);
    int (*user_object_release)(void *uo);

    /** The name of a non-zero status, for messages; never NULL. */
    const char *(*error_name)(int status);
} ompi_queue_stream_backend_t;

/**
 * A queue module served by the engine: the component fills the backend
 * and the queue type it serves, and takes the engine's query, create and
 * destroy (below) with the host engine's enqueue, fence and busy.
 */
typedef struct ompi_queue_stream_module_t {
    mca_queue_base_module_t super;
    /** MPIX_QUEUE_TYPE_CUDA_STREAM, ...: external points to a stream handle */
    int type;
    /** what the program must pass: "external must point to a <this>" */
    const char *handle_name;
    const ompi_queue_stream_backend_t *backend;
} ompi_queue_stream_module_t;

/** The module slots of a stream module (queue.h documents them).  A
 * stream queue needs the progress thread: the host side must run while
 * the program blocks on its stream. */
OMPI_DECLSPEC int ompi_queue_stream_query(mca_queue_base_module_t *module, int type,
                                          void *external, const char **reason);
OMPI_DECLSPEC int ompi_queue_stream_create(struct ompi_queue_t *queue, void *external);
OMPI_DECLSPEC int ompi_queue_stream_destroy(struct ompi_queue_t *queue);

/**
 * Bind a new queue to stream through backend, without a module's checks:
 * for a component that makes its own streams (queue/emulated).
 * progress: hold the progress thread for the queue's life, as
 * ompi_queue_stream_create does (without it the program drives the host
 * side through its calls).
 */
OMPI_DECLSPEC int ompi_queue_stream_attach(struct ompi_queue_t *queue,
                                           const ompi_queue_stream_backend_t *backend,
                                           void *stream, bool progress);
/** Undo ompi_queue_stream_attach; returns the stream. */
OMPI_DECLSPEC void *ompi_queue_stream_detach(struct ompi_queue_t *queue);

END_C_DECLS

#endif /* OMPI_MCA_QUEUE_BASE_QUEUE_STREAM_H */
