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
 * The emulated stream (queue_emulated_stream.h) and its backend of the
 * stream engine.
 */

#include "ompi_config.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opal/sys/atomic.h"
#include "ompi/constants.h"
#include "ompi/mca/queue/base/queue_stream.h"
#include "ompi/mca/queue/emulated/queue_emulated_stream.h"

/* sched_yield rounds an idle stream thread spins before it sleeps */
#define EMU_SPIN 2000

typedef enum { EMU_WRITE64, EMU_WAIT64, EMU_EVENT, EMU_MEMSET32, EMU_MEMCPY, EMU_BUSY } emu_kind_t;

typedef struct {
    opal_atomic_uint64_t recorded;  /**< records posted */
    volatile uint64_t completed;    /**< records the stream reached */
} emu_event_t;

typedef struct {
    int kind;             /**< emu_kind_t */
    void *dst;            /**< WRITE64, WAIT64: the word; MEMSET32, MEMCPY; BUSY: the end time */
    const void *src;      /**< MEMCPY */
    uint64_t value;       /**< WRITE64, WAIT64, MEMSET32; EVENT: the record; BUSY: ns */
    size_t n;             /**< MEMSET32: words; MEMCPY: bytes */
    emu_event_t *event;   /**< EVENT */
} emu_op_t;

/* a user object: destroy(obj) once the last reference is dropped */
typedef struct {
    opal_atomic_int32_t refs;
    void *obj;
    void (*destroy)(void *obj);
} emu_user_object_t;

typedef emu_user_object_t *emu_retained_t;

/* a growable sequence of operations: a stream's FIFO or a graph */
typedef struct {
    emu_op_t *ops;
    uint32_t cap, head, tail;  /**< cap a power of two (FIFO); a graph uses 0..tail */
    /* graphs */
    uint64_t id;               /**< the capture that made it */
    emu_retained_t *retained;  /**< released with the graph */
    int nretained;
} emu_ops_t;

/* capture identities, never reused */
static opal_atomic_int64_t emu_capture_ids = 0;

typedef struct {
    emu_ops_t fifo;
    emu_ops_t *capture;              /**< recording, or NULL */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stop;
    bool sleeping;                   /**< the thread waits on cond (lock held) */
    uint64_t posted;                 /**< lock held */
    opal_atomic_uint64_t executed;   /**< by the stream's thread */
    pthread_t thread;
} emu_stream_t;

static int emu_ops_push(emu_ops_t *seq, const emu_op_t *op)
{
    if (seq->tail - seq->head == seq->cap) {
        uint32_t cap = seq->cap ? 2 * seq->cap : 64, n = seq->tail - seq->head;
        emu_op_t *ops = malloc(cap * sizeof(*ops));

        if (NULL == ops) {
            return MCA_QUEUE_EMULATED_OUT_OF_MEMORY;
        }
        for (uint32_t i = 0; i < n; ++i) {
            ops[i] = seq->ops[(seq->head + i) & (seq->cap - 1)];
        }
        free(seq->ops);
        seq->ops = ops;
        seq->cap = cap;
        __atomic_store_n(&seq->head, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&seq->tail, n, __ATOMIC_RELAXED);
    }
    seq->ops[seq->tail & (seq->cap - 1)] = *op;
    /* the stream's thread peeks at tail without the lock (emu_stream_main) */
    __atomic_store_n(&seq->tail, seq->tail + 1, __ATOMIC_RELAXED);
    return MCA_QUEUE_EMULATED_SUCCESS;
}

static uint64_t emu_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

/* a kernel: the device is busy, its host thread is not (it sleeps, in
 * slices, so that a destroy ends it), as a GPU's kernels cost the host no
 * processor */
static void emu_busy(emu_stream_t *es, const emu_op_t *op)
{
    uint64_t end = emu_now_ns() + op->value, now;

    while (!__atomic_load_n(&es->stop, __ATOMIC_RELAXED) && (now = emu_now_ns()) < end) {
        uint64_t left = end - now, slice = left < 1000000 ? left : 1000000;
        struct timespec ts = {.tv_sec = 0, .tv_nsec = (long) slice};
        (void) nanosleep(&ts, NULL);
    }
    if (NULL != op->dst) {
        /* when the next operation (a trigger) runs, for the benchmarks */
        __atomic_store_n((uint64_t *) op->dst, emu_now_ns(), __ATOMIC_RELAXED);
    }
}

/* run one operation on the stream's thread; false when stopped in a wait */
static bool emu_run(emu_stream_t *es, const emu_op_t *op)
{
    switch (op->kind) {
    case EMU_WRITE64:
        /* as a device's: the stream's earlier writes are visible to whoever
         * reads this word with acquire order */
        __atomic_store_n((uint64_t *) op->dst, op->value, __ATOMIC_RELEASE);
        break;
    case EMU_WAIT64:
        /* what the host wrote before the word is visible to the operations
         * after the wait (the host stores the word with release order) */
        while (__atomic_load_n((uint64_t *) op->dst, __ATOMIC_ACQUIRE) < op->value) {
            if (__atomic_load_n(&es->stop, __ATOMIC_RELAXED)) {
                return false;
            }
            sched_yield();
        }
        break;
    case EMU_EVENT:
        __atomic_store_n(&op->event->completed, op->value, __ATOMIC_RELEASE);
        break;
    case EMU_MEMSET32:
        for (size_t i = 0; i < op->n; ++i) {
            ((uint32_t *) op->dst)[i] = (uint32_t) op->value;
        }
        break;
    case EMU_MEMCPY:
        memcpy(op->dst, op->src, op->n);
        break;
    case EMU_BUSY:
        emu_busy(es, op);
        break;
    }
    return true;
}

static void *emu_stream_main(void *arg)
{
    emu_stream_t *es = (emu_stream_t *) arg;
    emu_op_t op;

    for (;;) {
        /* a device stream needs no waking: spin a while before sleeping, so
         * that a poster in a steady loop finds the thread awake and does
         * not signal it (a signal is a system call) */
        for (int spin = 0; spin < EMU_SPIN && !__atomic_load_n(&es->stop, __ATOMIC_RELAXED)
                           && __atomic_load_n(&es->fifo.head, __ATOMIC_RELAXED)
                                  == __atomic_load_n(&es->fifo.tail, __ATOMIC_RELAXED);
             ++spin) {
            sched_yield();
        }
        pthread_mutex_lock(&es->lock);
        while (es->fifo.head == es->fifo.tail && !es->stop) {
            es->sleeping = true;
            pthread_cond_wait(&es->cond, &es->lock);
            es->sleeping = false;
        }
        if (es->stop) {
            pthread_mutex_unlock(&es->lock);
            return NULL;
        }
        op = es->fifo.ops[es->fifo.head & (es->fifo.cap - 1)];
        __atomic_store_n(&es->fifo.head, es->fifo.head + 1, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&es->lock);
        if (!emu_run(es, &op)) {
            return NULL;
        }
        /* publishes what the operation wrote (a host function's, a copy's
         * memory) to the thread that synchronizes: opal's add is relaxed */
        (void) __atomic_add_fetch(&es->executed, 1, __ATOMIC_RELEASE);
    }
}

/* post on the stream, or record into its capture */
static int emu_post(void *stream, const emu_op_t *op)
{
    emu_stream_t *es = (emu_stream_t *) stream;
    int status;

    if (NULL == es) {
        return MCA_QUEUE_EMULATED_INVALID;
    }
    pthread_mutex_lock(&es->lock);
    if (NULL != es->capture) {
        status = emu_ops_push(es->capture, op);
    } else if (MCA_QUEUE_EMULATED_SUCCESS == (status = emu_ops_push(&es->fifo, op))) {
        es->posted++;
        if (es->sleeping) {
            pthread_cond_signal(&es->cond);
        }
    }
    pthread_mutex_unlock(&es->lock);
    return status;
}

int mca_queue_emulated_stream_create(void **stream)
{
    emu_stream_t *es = calloc(1, sizeof(*es));

    if (NULL == es) {
        return MCA_QUEUE_EMULATED_OUT_OF_MEMORY;
    }
    pthread_mutex_init(&es->lock, NULL);
    pthread_cond_init(&es->cond, NULL);
    if (0 != pthread_create(&es->thread, NULL, emu_stream_main, es)) {
        pthread_cond_destroy(&es->cond);
        pthread_mutex_destroy(&es->lock);
        free(es);
        return MCA_QUEUE_EMULATED_OUT_OF_MEMORY;
    }
    *stream = es;
    return MCA_QUEUE_EMULATED_SUCCESS;
}

int mca_queue_emulated_stream_destroy(void *stream)
{
    emu_stream_t *es = (emu_stream_t *) stream;

    if (NULL == es) {
        return MCA_QUEUE_EMULATED_INVALID;
    }
    pthread_mutex_lock(&es->lock);
    __atomic_store_n(&es->stop, true, __ATOMIC_RELAXED);
    pthread_cond_signal(&es->cond);
    pthread_mutex_unlock(&es->lock);
    pthread_join(es->thread, NULL);
    pthread_cond_destroy(&es->cond);
    pthread_mutex_destroy(&es->lock);
    if (NULL != es->capture) {
        /* an unfinished capture is dropped with what it holds */
        (void) mca_queue_emulated_graph_destroy(es->capture);
    }
    free(es->fifo.ops);
    free(es);
    return MCA_QUEUE_EMULATED_SUCCESS;
}

int mca_queue_emulated_stream_synchronize(void *stream)
{
    emu_stream_t *es = (emu_stream_t *) stream;
    uint64_t target;

    if (NULL == es) {
        return MCA_QUEUE_EMULATED_INVALID;
    }
    pthread_mutex_lock(&es->lock);
    target = es->posted;
    pthread_mutex_unlock(&es->lock);
    /* pairs with the stream thread's release add: what the operations
     * wrote is seen after this */
    while (__atomic_load_n(&es->executed, __ATOMIC_ACQUIRE) < target) {
        sched_yield();
    }
    return MCA_QUEUE_EMULATED_SUCCESS;
}

int mca_queue_emulated_memset_d32_async(void *dst, uint32_t value, size_t n, void *stream)
{
    emu_op_t op = {.kind = EMU_MEMSET32, .dst = dst, .value = value, .n = n};
    return emu_post(stream, &op);
}

int mca_queue_emulated_memcpy_async(void *dst, const void *src, size_t bytes, void *stream)
{
    emu_op_t op = {.kind = EMU_MEMCPY, .dst = dst, .src = src, .n = bytes};
    return emu_post(stream, &op);
}

int mca_queue_emulated_busy_async(uint64_t usec, uint64_t *end_ns, void *stream)
{
    emu_op_t op = {.kind = EMU_BUSY, .dst = end_ns, .value = usec * 1000};
    return emu_post(stream, &op);
}

int mca_queue_emulated_begin_capture(void *stream)
{
    emu_stream_t *es = (emu_stream_t *) stream;
    int status = MCA_QUEUE_EMULATED_SUCCESS;

    if (NULL == es) {
        return MCA_QUEUE_EMULATED_INVALID;
    }
    pthread_mutex_lock(&es->lock);
    if (NULL != es->capture) {
        status = MCA_QUEUE_EMULATED_INVALID;
    } else if (NULL == (es->capture = calloc(1, sizeof(*es->capture)))) {
        status = MCA_QUEUE_EMULATED_OUT_OF_MEMORY;
    } else {
        es->capture->id = (uint64_t) opal_atomic_add_fetch_64(&emu_capture_ids, 1);
    }
    pthread_mutex_unlock(&es->lock);
    return status;
}

int mca_queue_emulated_end_capture(void *stream, void **graph)
{
    emu_stream_t *es = (emu_stream_t *) stream;
    int status = MCA_QUEUE_EMULATED_SUCCESS;

    if (NULL == es) {
        return MCA_QUEUE_EMULATED_INVALID;
    }
    pthread_mutex_lock(&es->lock);
    if (NULL == es->capture) {
        status = MCA_QUEUE_EMULATED_INVALID;
    } else {
        *graph = es->capture;
        es->capture = NULL;
    }
    pthread_mutex_unlock(&es->lock);
    return status;
}

int mca_queue_emulated_graph_launch(void *graph, void *stream)
{
    emu_ops_t *g = (emu_ops_t *) graph;
    emu_stream_t *es = (emu_stream_t *) stream;
    int status = MCA_QUEUE_EMULATED_SUCCESS;

    if (NULL == g || NULL == es) {
        return MCA_QUEUE_EMULATED_INVALID;
    }
    pthread_mutex_lock(&es->lock);
    for (uint32_t i = 0; i < g->tail && MCA_QUEUE_EMULATED_SUCCESS == status; ++i) {
        status = (NULL != es->capture) ? emu_ops_push(es->capture, &g->ops[i])
                                       : emu_ops_push(&es->fifo, &g->ops[i]);
        if (MCA_QUEUE_EMULATED_SUCCESS == status && NULL == es->capture) {
            es->posted++;
        }
    }
    if (es->sleeping) {
        pthread_cond_signal(&es->cond);
    }
    pthread_mutex_unlock(&es->lock);
    return status;
}

static int emu_user_object_release(void *uo)
{
    emu_user_object_t *u = (emu_user_object_t *) uo;

    if (NULL == u) {
        return MCA_QUEUE_EMULATED_INVALID;
    }
    if (0 == opal_atomic_add_fetch_32(&u->refs, -1)) {
        u->destroy(u->obj);
        free(u);
    }
    return MCA_QUEUE_EMULATED_SUCCESS;
}

int mca_queue_emulated_graph_destroy(void *graph)
{
    emu_ops_t *g = (emu_ops_t *) graph;

    if (NULL == g) {
        return MCA_QUEUE_EMULATED_INVALID;
    }
    for (int i = 0; i < g->nretained; ++i) {
        (void) emu_user_object_release(g->retained[i]);
    }
    free(g->retained);
    free(g->ops);
    free(g);
    return MCA_QUEUE_EMULATED_SUCCESS;
}

/*
 * The backend
 */

static int emu_open(const char **reason)
{
    (void) reason;
    return OMPI_SUCCESS;
}

static int emu_host_alloc(size_t size, void **host, uint64_t *device_addr)
{
    if (NULL == (*host = calloc(1, size))) {
        return MCA_QUEUE_EMULATED_OUT_OF_MEMORY;
    }
    *device_addr = (uint64_t) (uintptr_t) *host;
    return MCA_QUEUE_EMULATED_SUCCESS;
}

static int emu_host_free(void *host)
{
    free(host);
    return MCA_QUEUE_EMULATED_SUCCESS;
}

static int emu_write_value64(void *stream, uint64_t device_addr, uint64_t value)
{
    emu_op_t op = {.kind = EMU_WRITE64, .dst = (void *) (uintptr_t) device_addr, .value = value};
    return emu_post(stream, &op);
}

static int emu_wait_value64(void *stream, uint64_t device_addr, uint64_t value)
{
    emu_op_t op = {.kind = EMU_WAIT64, .dst = (void *) (uintptr_t) device_addr, .value = value};
    return emu_post(stream, &op);
}

static int emu_is_capturing(void *stream, bool *capturing)
{
    emu_stream_t *es = (emu_stream_t *) stream;

    if (NULL == es) {
        return MCA_QUEUE_EMULATED_INVALID;
    }
    /* read without the lock, as every enqueue asks: capture begins and
     * ends in the thread that posts to the stream, as with CUDA */
    *capturing = (NULL != *(void *volatile *) &es->capture);
    return MCA_QUEUE_EMULATED_SUCCESS;
}

static int emu_capture_id(void *stream, uint64_t *id)
{
    emu_stream_t *es = (emu_stream_t *) stream;
    emu_ops_t *capture = (NULL != es) ? *(emu_ops_t *volatile *) &es->capture : NULL;

    if (NULL == capture) {
        return MCA_QUEUE_EMULATED_INVALID;
    }
    *id = capture->id;
    return MCA_QUEUE_EMULATED_SUCCESS;
}

static int emu_user_object_create(void **uo, void *obj, void (*destroy)(void *obj))
{
    emu_user_object_t *u = malloc(sizeof(*u));

    if (NULL == u) {
        return MCA_QUEUE_EMULATED_OUT_OF_MEMORY;
    }
    u->refs = 1;
    u->obj = obj;
    u->destroy = destroy;
    *uo = u;
    return MCA_QUEUE_EMULATED_SUCCESS;
}

/* graph_retain calls left to fail (mca_queue_emulated_fail_graph_retain) */
static opal_atomic_int32_t emu_graph_retain_failures = 0;

int mca_queue_emulated_fail_graph_retain(int n)
{
    emu_graph_retain_failures = n;
    opal_atomic_wmb();
    return MCA_QUEUE_EMULATED_SUCCESS;
}

static int emu_graph_retain(void *stream, void *uo)
{
    emu_stream_t *es = (emu_stream_t *) stream;
    emu_retained_t *more;
    int status = MCA_QUEUE_EMULATED_SUCCESS;

    if (NULL == es || NULL == uo) {
        return MCA_QUEUE_EMULATED_INVALID;
    }
    if (0 < emu_graph_retain_failures
        && 0 <= opal_atomic_add_fetch_32(&emu_graph_retain_failures, -1)) {
        return MCA_QUEUE_EMULATED_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&es->lock);
    if (NULL == es->capture) {
        status = MCA_QUEUE_EMULATED_INVALID;
    } else if (NULL == (more = realloc(es->capture->retained,
                                       (es->capture->nretained + 1) * sizeof(*more)))) {
        status = MCA_QUEUE_EMULATED_OUT_OF_MEMORY;
    } else {
        /* the caller's reference moves to the graph */
        more[es->capture->nretained++] = (emu_user_object_t *) uo;
        es->capture->retained = more;
    }
    pthread_mutex_unlock(&es->lock);
    return status;
}

static int emu_event_create(void **event)
{
    return (NULL != (*event = calloc(1, sizeof(emu_event_t)))) ? MCA_QUEUE_EMULATED_SUCCESS
                                                               : MCA_QUEUE_EMULATED_OUT_OF_MEMORY;
}

static int emu_event_record(void *event, void *stream)
{
    emu_event_t *ev = (emu_event_t *) event;
    emu_op_t op = {.kind = EMU_EVENT, .event = ev};

    op.value = (uint64_t) opal_atomic_add_fetch_64((opal_atomic_int64_t *) &ev->recorded, 1);
    return emu_post(stream, &op);
}

static int emu_event_query(void *event, bool *done)
{
    emu_event_t *ev = (emu_event_t *) event;

    /* the acquire load pairs with the stream's release store (EMU_EVENT):
     * what the stream did before the event is visible once it is done */
    *done = __atomic_load_n(&ev->completed, __ATOMIC_ACQUIRE)
            >= __atomic_load_n(&ev->recorded, __ATOMIC_RELAXED);
    return MCA_QUEUE_EMULATED_SUCCESS;
}

static int emu_event_destroy(void *event)
{
    free(event);
    return MCA_QUEUE_EMULATED_SUCCESS;
}

static const char *emu_error_name(int status)
{
    switch (status) {
    case MCA_QUEUE_EMULATED_OUT_OF_MEMORY:
        return "out of memory (emulated stream)";
    case MCA_QUEUE_EMULATED_INVALID:
        return "invalid use of the emulated stream";
    default:
        return "unknown emulated stream status";
    }
}

const ompi_queue_stream_backend_t mca_queue_emulated_backend = {
    .name = "emulated",
    .open = emu_open,
    .stream_context = NULL,
    .ctx_enter = NULL,
    .ctx_leave = NULL,
    .host_alloc = emu_host_alloc,
    .host_free = emu_host_free,
    .write_value64 = emu_write_value64,
    .wait_value64 = emu_wait_value64,
    .is_capturing = emu_is_capturing,
    .event_create = emu_event_create,
    .event_record = emu_event_record,
    .event_query = emu_event_query,
    .event_destroy = emu_event_destroy,
    .capture_id = emu_capture_id,
    .user_object_create = emu_user_object_create,
    .graph_retain = emu_graph_retain,
    .user_object_release = emu_user_object_release,
    .error_name = emu_error_name,
};
