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
 * An emulated stream for the trigger engine (queue_default_emulate_stream).
 *
 * With the parameter set, every default queue runs on the trigger engine
 * that GPU queues use, with a host thread standing in for the GPU stream: it
 * executes the posted counter writes and waits in order, asynchronously to
 * the program, as a stream executes its memory operations. That puts the
 * engine's host side (ordering, counters, errors, fence drain) under every
 * queue test on machines without a GPU. It is a testing aid, not a product:
 * a thread per queue, polling.
 */

#include "ompi_config.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "opal/sys/atomic.h"
#include "ompi/constants.h"
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/mca/queue/default/queue_default.h"

typedef struct {
    int is_wait;
    int counter;
    uint64_t value;
} emu_op_t;

typedef struct {
    volatile uint64_t counters[2];
    emu_op_t *ops;                 /**< ring of posted operations */
    uint32_t cap, head, tail;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stop;
    uint64_t posted;               /**< operations posted (lock held) */
    opal_atomic_uint64_t executed; /**< operations executed by the thread */
    uint64_t mark;
    pthread_t thread;
} emu_stream_t;

static void *emu_stream_main(void *arg)
{
    emu_stream_t *es = (emu_stream_t *) arg;
    emu_op_t op;

    for (;;) {
        pthread_mutex_lock(&es->lock);
        while (es->head == es->tail && !es->stop) {
            pthread_cond_wait(&es->cond, &es->lock);
        }
        if (es->head == es->tail) {
            pthread_mutex_unlock(&es->lock);
            return NULL;
        }
        op = es->ops[es->head++ & (es->cap - 1)];
        pthread_mutex_unlock(&es->lock);

        if (op.is_wait) {
            /* as a stream wait: nothing later runs until the host writes */
            while (es->counters[op.counter] < op.value) {
                if (es->stop) {
                    return NULL;
                }
                sched_yield();
            }
            opal_atomic_rmb();
        } else {
            opal_atomic_wmb();
            es->counters[op.counter] = op.value;
        }
        (void) opal_atomic_add_fetch_64((opal_atomic_int64_t *) &es->executed, 1);
    }
}

static int emu_post(ompi_queue_t *queue, int is_wait, int counter, uint64_t value)
{
    emu_stream_t *es = (emu_stream_t *) ompi_queue_host_ctx(queue);
    int ret = OMPI_SUCCESS;

    pthread_mutex_lock(&es->lock);
    if (es->tail - es->head == es->cap) {
        uint32_t cap = 2 * es->cap, n = es->tail - es->head;
        emu_op_t *ops = malloc(cap * sizeof(*ops));
        if (NULL == ops) {
            ret = OMPI_ERR_OUT_OF_RESOURCE;
            goto out;
        }
        for (uint32_t i = 0; i < n; ++i) {
            ops[i] = es->ops[(es->head + i) & (es->cap - 1)];
        }
        free(es->ops);
        es->ops = ops;
        es->cap = cap;
        es->head = 0;
        es->tail = n;
    }
    es->ops[es->tail++ & (es->cap - 1)] = (emu_op_t){is_wait, counter, value};
    es->posted++;
    pthread_cond_signal(&es->cond);
out:
    pthread_mutex_unlock(&es->lock);
    return ret;
}

static int emu_post_write(ompi_queue_t *queue, int counter, uint64_t value)
{
    return emu_post(queue, 0, counter, value);
}

static int emu_post_wait(ompi_queue_t *queue, int counter, uint64_t value)
{
    return emu_post(queue, 1, counter, value);
}

static int emu_mark(ompi_queue_t *queue)
{
    emu_stream_t *es = (emu_stream_t *) ompi_queue_host_ctx(queue);

    pthread_mutex_lock(&es->lock);
    es->mark = es->posted;
    pthread_mutex_unlock(&es->lock);
    return OMPI_SUCCESS;
}

static int emu_marked_done(ompi_queue_t *queue)
{
    emu_stream_t *es = (emu_stream_t *) ompi_queue_host_ctx(queue);

    return (es->executed >= es->mark) ? OMPI_SUCCESS : OMPI_ERR_WOULD_BLOCK;
}

static const ompi_queue_trigger_ops_t emu_ops = {
    .post_write = emu_post_write,
    .post_wait = emu_post_wait,
    .mark = emu_mark,
    .marked_done = emu_marked_done,
};

int mca_queue_default_emulated_create(ompi_queue_t *queue)
{
    emu_stream_t *es = calloc(1, sizeof(*es));
    int ret;

    if (NULL == es) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    es->cap = 64;
    es->ops = malloc(es->cap * sizeof(*es->ops));
    if (NULL == es->ops) {
        ret = OMPI_ERR_OUT_OF_RESOURCE;
        goto err_free;
    }
    pthread_mutex_init(&es->lock, NULL);
    pthread_cond_init(&es->cond, NULL);
    if (0 != pthread_create(&es->thread, NULL, emu_stream_main, es)) {
        ret = OMPI_ERR_OUT_OF_RESOURCE;
        goto err_sync;
    }
    ret = ompi_queue_host_create_triggered(queue, &emu_ops, es->counters, es);
    if (OMPI_SUCCESS != ret) {
        goto err_thread;
    }
    return OMPI_SUCCESS;

err_thread:
    pthread_mutex_lock(&es->lock);
    es->stop = true;
    pthread_cond_signal(&es->cond);
    pthread_mutex_unlock(&es->lock);
    pthread_join(es->thread, NULL);
err_sync:
    pthread_cond_destroy(&es->cond);
    pthread_mutex_destroy(&es->lock);
    free(es->ops);
err_free:
    free(es);
    return ret;
}

void mca_queue_default_emulated_destroy(ompi_queue_t *queue)
{
    emu_stream_t *es = (emu_stream_t *) ompi_queue_host_ctx(queue);

    ompi_queue_host_destroy(queue);
    /* a stream freed with work left drops it: so does this one */
    pthread_mutex_lock(&es->lock);
    es->stop = true;
    pthread_cond_signal(&es->cond);
    pthread_mutex_unlock(&es->lock);
    pthread_join(es->thread, NULL);
    pthread_cond_destroy(&es->cond);
    pthread_mutex_destroy(&es->lock);
    free(es->ops);
    free(es);
}
