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
 * The emulated stream: a test double of a GPU stream, so that every path
 * of the stream engine (queue_stream.h) runs where no GPU is.  It models
 * what the engine relies on from a device stream, and no more:
 *  - operations run in the order posted, one after the other, on a thread
 *    of the stream's own, asynchronously to the poster;
 *  - a memory write runs after all earlier work of its stream, and that
 *    work's memory writes are visible before it;
 *  - a wait blocks the stream's later work until a 64-bit word is >= a
 *    value;
 *  - an event completes when the stream's work recorded before it has;
 *  - a busy period: the stream's later work waits, as behind a kernel;
 *  - capture: between begin and end, posted operations are recorded into a
 *    graph, with the values they had when posted, instead of running; a
 *    launch runs the recorded operations on a stream, as posted again.
 * Device memory is host memory.  Not a product: a thread per stream,
 * polling its waits.
 *
 * The functions below return 0 or an emulated status
 * (MCA_QUEUE_EMULATED_*).  They are exported from the component's shared
 * object, which only the tests load (queue_emulated.h): a test finds them
 * with dlsym and stands them in for the CUDA driver's.
 */

#ifndef MCA_QUEUE_EMULATED_STREAM_H
#define MCA_QUEUE_EMULATED_STREAM_H

#include "ompi_config.h"

#include <stddef.h>
#include <stdint.h>

#include "ompi/mca/queue/base/queue_stream.h"

BEGIN_C_DECLS

enum {
    MCA_QUEUE_EMULATED_SUCCESS = 0,
    MCA_QUEUE_EMULATED_OUT_OF_MEMORY = 1,
    MCA_QUEUE_EMULATED_INVALID = 2,   /**< misuse: capture state, NULL handle */
};

/** A new stream and its thread. */
OMPI_DECLSPEC int mca_queue_emulated_stream_create(void **stream);
/** Stop the stream (work not run yet is dropped, as a freed stream's) and free it. */
OMPI_DECLSPEC int mca_queue_emulated_stream_destroy(void *stream);
/** Block until every operation posted so far has run. */
OMPI_DECLSPEC int mca_queue_emulated_stream_synchronize(void *stream);
/** Post: n 32-bit words at dst set to value. */
OMPI_DECLSPEC int mca_queue_emulated_memset_d32_async(void *dst, uint32_t value, size_t n,
                                                  void *stream);
/** Post: bytes copied from src to dst. */
OMPI_DECLSPEC int mca_queue_emulated_memcpy_async(void *dst, const void *src, size_t bytes,
                                              void *stream);
/** Post: the stream is busy for usec microseconds, as behind a kernel; then,
 * if end_ns is not NULL, *end_ns is the CLOCK_MONOTONIC time (ns) at which
 * the next operation starts. */
OMPI_DECLSPEC int mca_queue_emulated_busy_async(uint64_t usec, uint64_t *end_ns, void *stream);
/** The next n ties of a user object to a captured graph fail (out of
 * memory), as a vendor's can: for the tests of the engine's error paths. */
OMPI_DECLSPEC int mca_queue_emulated_fail_graph_retain(int n);
/** Start recording the stream's posted operations into a graph. */
OMPI_DECLSPEC int mca_queue_emulated_begin_capture(void *stream);
/** Stop recording: *graph holds what was posted since the begin (and
 * what was tied to it: the user objects of queue_stream.h). */
OMPI_DECLSPEC int mca_queue_emulated_end_capture(void *stream, void **graph);
/** Post the graph's operations on stream, in their order. */
OMPI_DECLSPEC int mca_queue_emulated_graph_launch(void *graph, void *stream);
/** Free the graph; what was tied to it is released. */
OMPI_DECLSPEC int mca_queue_emulated_graph_destroy(void *graph);

/** The stream engine's backend of the emulated stream. */
extern const ompi_queue_stream_backend_t mca_queue_emulated_backend;

END_C_DECLS

#endif /* MCA_QUEUE_EMULATED_STREAM_H */
