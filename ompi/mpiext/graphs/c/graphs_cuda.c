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
 * MPIX_OFFLOAD_CUDA: an execution ordered in a CUDA stream through the
 * queue base's trigger engine.  Each CUDA-located execution request owns an
 * internal queue bound to the program's stream and an inner persistent
 * execution request (in place) of the same token.  A start enqueues the inner
 * request's start and wait on that queue: the stream writes TRIGGER when it
 * reaches the start, the host agent (progress) then starts the execution,
 * and writes DONE once it completed, which releases the work enqueued on the
 * stream after the start.  The program's request completes with the inner
 * execution, host side (MPI_Wait does not wait for the stream).
 *
 * Without a GPU, the tests load queue/emulated, which serves the CUDA
 * stream type on its emulated stream (a host thread standing in for the
 * CUDA stream; loc_info then points to an emulated stream).
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "opal/runtime/opal_progress.h"
#include "ompi/mca/queue/base/queue_object.h"
#include "ompi/mpiext/graphs/c/graphs_cuda.h"
#include "ompi/mpiext/graphs/c/graphs_request.h"

typedef struct graphs_cuda_t {
    graphs_offload_t super;
    ompi_queue_t *queue;
    graphs_request_t *inner;
} graphs_cuda_t;

static const char graphs_cuda_refused[] =
    "MPIX_OFFLOAD_CUDA is not available: no CUDA driver or device, or the library is not thread "
    "safe (an MPI_Queue on that stream is refused too; OMPI_MCA_queue_base_verbose=100 says why)";

static int graphs_cuda_queue(void *loc_info, ompi_queue_t **queue)
{
    char *qmsg = NULL;
    int ret = ompi_queue_create(MPIX_QUEUE_TYPE_CUDA_STREAM, loc_info, queue, &qmsg);
    free(qmsg);
    return ret;
}

static int graphs_cuda_start(graphs_offload_t *off, graphs_request_t *outer);
static void graphs_cuda_free(graphs_offload_t *off);

static const graphs_offload_ops_t graphs_cuda_ops = {
    .start = graphs_cuda_start,
    .free = graphs_cuda_free,
};

int graphs_cuda_create(ompi_mpix_token_t *token, void *loc_info, graphs_offload_t **out,
                       const char **msg)
{
    graphs_cuda_t *c = malloc(sizeof(*c));
    int ret;

    if (NULL == c) {
        return MPI_ERR_NO_MEM;
    }
    c->super.ops = &graphs_cuda_ops;
    ret = graphs_cuda_queue(loc_info, &c->queue);
    if (OMPI_SUCCESS != ret) {
        free(c);
        *msg = graphs_cuda_refused;
        return MPI_ERR_ARG;
    }
    ret = graphs_request_create(token, MPIX_LOC_INPLACE, true, NULL, &c->inner);
    if (MPI_SUCCESS != ret) {
        (void) ompi_queue_release(c->queue);
        free(c);
        return ret;
    }
    *out = &c->super;
    return MPI_SUCCESS;
}

static int graphs_cuda_start(graphs_offload_t *off, graphs_request_t *outer)
{
    graphs_cuda_t *c = (graphs_cuda_t *) off;
    ompi_request_t *inner = &c->inner->super;
    mca_queue_base_module_t *m = c->queue->q_module;
    int ret;

    c->inner->outer = outer;
    ret = m->queue_enqueue_start(c->queue, 1, &inner, NULL);
    if (OMPI_SUCCESS == ret) {
        ret = m->queue_enqueue_wait(c->queue, 1, &inner, NULL, NULL);
    }
    return (OMPI_SUCCESS == ret) ? MPI_SUCCESS : ompi_errcode_get_mpi_code(ret);
}

static void graphs_cuda_free(graphs_offload_t *off)
{
    graphs_cuda_t *c = (graphs_cuda_t *) off;

    /* the wait entry may still be queued behind the completion: the fence
     * retires it (its requests are complete, so it does not block) */
    if (NULL != c->queue->q_module->queue_fence) {
        (void) c->queue->q_module->queue_fence(c->queue);
    }
    (void) ompi_queue_release(c->queue);
    c->inner->outer = NULL;
    graphs_request_destroy(c->inner);
    free(c);
}

int graphs_cuda_execute(ompi_mpix_token_t *token, void *loc_info, const char **msg)
{
    graphs_offload_t *off;
    graphs_cuda_t *c;
    int ret = graphs_cuda_create(token, loc_info, &off, msg);

    if (MPI_SUCCESS != ret) {
        return ret;
    }
    c = (graphs_cuda_t *) off;
    ret = graphs_cuda_start(off, NULL);
    if (MPI_SUCCESS == ret) {
        /* acquire, paired with the release store of the thread that
         * completes the inner execution (the progress thread, the
         * stream's): its last_error is read next */
        while (!__atomic_load_n(&c->inner->completed, __ATOMIC_ACQUIRE)) {
            opal_progress();
        }
        ret = c->inner->last_error;
    }
    graphs_cuda_free(off);
    return ret;
}

/*
 * Streams at MPIX_OFFLOAD_CUDA.  The stream's tokens are posted into one
 * internal queue bound to the CUDA stream, each as an inner execution
 * request's start and wait, at the time they may start (enqueue, or resume
 * of a paused stream): the queue's order (a start runs after every earlier
 * wait completed) is the stream's FIFO, and the trigger engine orders each
 * token in the CUDA stream at its posting.  The stream's executor tracks one
 * node per token, with no dependency between them (the queue orders them),
 * polling the inner request.  A failure stops the queue (nothing posted
 * after it runs) and the stream (nothing more is posted).
 */
struct graphs_cuda_stream_t {
    ompi_queue_t *queue;
    graphs_request_t **done;   /**< inner requests completed, until the queue retired them */
    int ndone, cap;
};

typedef struct {
    graphs_cuda_stream_t *cs;
    ompi_mpix_token_t *token;
    graphs_request_t *inner;
} graphs_cuda_op_t;

/* inner requests whose wait the queue retired (inactive again) are freed */
static void graphs_cuda_reap(graphs_cuda_stream_t *cs, bool all)
{
    for (int i = 0; i < cs->ndone;) {
        graphs_request_t *inner = cs->done[i];
        if (all || OMPI_REQUEST_INACTIVE == inner->super.req_state) {
            cs->done[i] = cs->done[--cs->ndone];
            graphs_request_destroy(inner);
        } else {
            ++i;
        }
    }
}

static int cuda_op_start(void *op, ompi_request_t **reqs, int *nreqs)
{
    graphs_cuda_op_t *c = (graphs_cuda_op_t *) op;
    mca_queue_base_module_t *m = c->cs->queue->q_module;
    ompi_request_t *inner;
    int ret;

    graphs_cuda_reap(c->cs, false);
    ret = graphs_request_create(c->token, MPIX_LOC_INPLACE, true, NULL, &c->inner);
    if (MPI_SUCCESS != ret) {
        return ret;
    }
    inner = &c->inner->super;
    /* polled by the executor from now on: not complete until it has run */
    inner->req_complete = REQUEST_PENDING;
    ret = m->queue_enqueue_start(c->cs->queue, 1, &inner, NULL);
    if (OMPI_SUCCESS == ret) {
        ret = m->queue_enqueue_wait(c->cs->queue, 1, &inner, NULL, NULL);
    }
    if (OMPI_SUCCESS != ret) {
        /* what was posted of it is discarded with the queue at free */
        return ompi_errcode_get_mpi_code(ret);
    }
    reqs[0] = inner;
    *nreqs = 1;
    return MPI_SUCCESS;
}

static int cuda_op_finish(void *op, ompi_request_t **reqs, int nreqs)
{
    graphs_cuda_op_t *c = (graphs_cuda_op_t *) op;
    graphs_cuda_stream_t *cs = c->cs;
    int error = c->inner->last_error;

    (void) reqs;
    (void) nreqs;
    if (cs->ndone == cs->cap) {
        int cap = cs->cap ? 2 * cs->cap : 8;
        graphs_request_t **a = realloc(cs->done, cap * sizeof(*a));
        if (NULL == a) {
            return MPI_ERR_NO_MEM;  /* the inner request leaks; the stream fails */
        }
        cs->done = a;
        cs->cap = cap;
    }
    cs->done[cs->ndone++] = c->inner;
    c->inner = NULL;
    return error;
}

static void cuda_op_release(void *op)
{
    graphs_cuda_op_t *c = (graphs_cuda_op_t *) op;

    graphs_token_release(c->token);
    if (NULL != c->inner) {
        /* posted but never run (the stream failed before it): the queue
         * was fenced, so it no longer holds the request */
        graphs_request_destroy(c->inner);
    }
    free(c);
}

static const graphs_engine_op_ops_t graphs_cuda_op_ops = {
    .start = cuda_op_start,
    .finish = cuda_op_finish,
    .release = cuda_op_release,
};

int graphs_cuda_stream_create(void *loc_info, graphs_cuda_stream_t **out, const char **msg)
{
    graphs_cuda_stream_t *cs = calloc(1, sizeof(*cs));

    if (NULL == cs) {
        return MPI_ERR_NO_MEM;
    }
    if (OMPI_SUCCESS != graphs_cuda_queue(loc_info, &cs->queue)) {
        free(cs);
        *msg = graphs_cuda_refused;
        return MPI_ERR_ARG;
    }
    *out = cs;
    return MPI_SUCCESS;
}

int graphs_cuda_stream_add(graphs_cuda_stream_t *cs, graphs_engine_t *exec,
                           ompi_mpix_token_t *token)
{
    graphs_cuda_op_t *c = malloc(sizeof(*c));

    if (NULL == c) {
        return MPI_ERR_NO_MEM;
    }
    c->cs = cs;
    OBJ_RETAIN(token);
    c->token = token;
    c->inner = NULL;
    /* no dependency: the queue orders the tokens */
    if (0 > graphs_engine_add(exec, &graphs_cuda_op_ops, c, 0, 0, NULL, false)) {
        graphs_token_release(token);
        free(c);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

void graphs_cuda_stream_fence(graphs_cuda_stream_t *cs)
{
    /* retires what completed; on a failed queue discards what will never
     * run and lets the CUDA stream pass every wait posted */
    if (NULL != cs->queue->q_module->queue_fence) {
        (void) cs->queue->q_module->queue_fence(cs->queue);
    }
}

void graphs_cuda_stream_free(graphs_cuda_stream_t *cs)
{
    graphs_cuda_stream_fence(cs);
    graphs_cuda_reap(cs, true);
    (void) ompi_queue_release(cs->queue);
    free(cs->done);
    free(cs);
}
