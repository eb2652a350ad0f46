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
 * Stream queues captured into a device graph (queue_stream_capture.h).
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/threads/mutex.h"
#include "opal/runtime/opal_progress.h"
#include "opal/sys/atomic.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/errhandler/errcode-internal.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/mca/queue/base/queue_stream_capture.h"
#include "ompi/request/request_owner.h"

/* groups a capture of one queue may hold: its words are mapped into the
 * device at their first use, so the table cannot grow */
#define CAPTURE_SLOTS 256

typedef struct {
    bool is_wait;
    bool failed;                    /**< starts: a start failed in this launch */
    int count;
    ompi_request_t **reqs;
    ompi_status_public_t *statuses; /**< waits: NULL when ignored */
    int *waiter;                    /**< starts: each request's wait slot, -1 before it */
    int remaining;                  /**< waits: requests not started yet in this launch */
} capture_slot_t;

typedef struct capture_table_t {
    struct capture_table_t *next;
    ompi_queue_t *queue;            /**< for errors; NULL once the queue is freed */
    const ompi_queue_stream_backend_t *backend;
    void *ctx;                      /**< the stream's context, to free the words */
    uint64_t capture;               /**< the capture's identity */
    volatile uint64_t *words;       /**< 2 a slot: trigger, done */
    uint64_t dwords;                /**< their device address */
    int nslots;
    capture_slot_t slots[CAPTURE_SLOTS];
    opal_atomic_int32_t released;   /**< the graph was destroyed */
} capture_table_t;

static opal_mutex_t capture_lock = OPAL_MUTEX_STATIC_INIT;
static capture_table_t *capture_tables = NULL;
static opal_atomic_int32_t capture_count = 0;
static bool capture_registered = false;

static int capture_progress(void);

static int capture_vendor_error(const ompi_queue_stream_backend_t *backend, const char *what,
                                int status)
{
    opal_output_verbose(MCA_BASE_VERBOSE_ERROR, OMPI_QUEUE_BASE_OUTPUT, "queue:%s: %s: %s",
                        backend->name, what, backend->error_name(status));
    return OMPI_ERROR;
}

/* the graph's destruction, from any thread: the host agent frees the table
 * (the words need a vendor call, which this thread may not make) */
static void capture_release(void *obj)
{
    capture_table_t *t = (capture_table_t *) obj;

    /* the host agent frees the table once it reads this (acquire) */
    __atomic_store_n(&t->released, 1, __ATOMIC_RELEASE);
}

static void capture_table_free(capture_table_t *t)
{
    bool entered = false;

    if (NULL != t->backend->ctx_enter) {
        (void) t->backend->ctx_enter(t->ctx, &entered);
    }
    (void) t->backend->host_free((void *) t->words);
    if (entered) {
        t->backend->ctx_leave(t->ctx, entered);
    }
    for (int s = 0; s < t->nslots; ++s) {
        free(t->slots[s].reqs);
        free(t->slots[s].waiter);
    }
    free(t);
}

/* capture lock held */
static capture_table_t *capture_find(ompi_queue_t *queue, uint64_t capture)
{
    for (capture_table_t *t = capture_tables; NULL != t; t = t->next) {
        if (t->queue == queue && t->capture == capture
            && 0 == __atomic_load_n(&t->released, __ATOMIC_RELAXED)) {
            return t;
        }
    }
    return NULL;
}

/* capture lock held: the start slot and place of req's captured start whose
 * wait is not captured yet, or -1 */
static int capture_pending_start(const capture_table_t *t, const ompi_request_t *req, int *place)
{
    for (int s = t->nslots - 1; 0 <= s; --s) {
        const capture_slot_t *slot = &t->slots[s];
        if (slot->is_wait) {
            continue;
        }
        for (int i = 0; i < slot->count; ++i) {
            if (slot->reqs[i] == req) {
                *place = i;
                return (0 > slot->waiter[i]) ? s : -1;
            }
        }
    }
    return -1;
}

/* capture lock held: the chapter's rules, for the graph */
static int capture_check(const capture_table_t *t, bool is_wait, int count,
                         ompi_request_t **requests, mca_queue_base_refusal_t *refusal)
{
    int place;

    for (int i = 0; i < count; ++i) {
        ompi_request_t *req = requests[i];

        refusal->index = i;
        /* partitioned requests are not captured: they would need words of
         * their own for each partition */
        if (NULL != (refusal->reason = ompi_queue_request_unusable(req, false))) {
            return OMPI_ERR_REQUEST;
        }
        if (is_wait) {
            if (NULL == t || 0 > capture_pending_start(t, req, &place)) {
                refusal->reason = "the request's start was not enqueued on this queue in this "
                                  "capture, or its wait is already enqueued";
                return OMPI_ERR_REQUEST;
            }
        } else if (OMPI_REQUEST_INACTIVE != req->req_state || NULL != req->req_complete_cb
                   || (NULL != t && 0 <= capture_pending_start(t, req, &place))) {
            refusal->reason = "the request is active, or its start is enqueued without its wait";
            return OMPI_ERR_REQUEST;
        }
    }
    if (0 <= (refusal->index = mca_match_base_find_duplicate(count, requests))) {
        refusal->reason = "the same request appears twice";
        return OMPI_ERR_REQUEST;
    }
    return OMPI_SUCCESS;
}

/* capture lock held: the host agent walks the tables */
static void capture_watch(void)
{
    if (!capture_registered) {
        opal_progress_register(capture_progress);
        capture_registered = true;
    }
}

/* capture lock held: a table for this capture of queue, tied to its graph */
static int capture_table_new(ompi_queue_t *queue, const ompi_queue_stream_backend_t *backend,
                             void *stream, void *ctx, uint64_t capture, capture_table_t **out)
{
    capture_table_t *t = calloc(1, sizeof(*t));
    void *host = NULL, *uo = NULL;
    int status;

    if (NULL == t) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    t->queue = queue;
    t->backend = backend;
    t->ctx = ctx;
    t->capture = capture;
    if (0 != (status = backend->host_alloc(2 * CAPTURE_SLOTS * sizeof(uint64_t), &host,
                                           &t->dwords))) {
        free(t);
        return capture_vendor_error(backend, "cannot allocate mapped host memory", status);
    }
    t->words = (volatile uint64_t *) host;
    if (0 != (status = backend->user_object_create(&uo, t, capture_release))) {
        (void) backend->host_free(host);
        free(t);
        return capture_vendor_error(backend, "cannot make a user object of the queue's words",
                                    status);
    }
    if (0 != (status = backend->graph_retain(stream, uo))) {
        /* the object holds the table: dropping it calls capture_release,
         * maybe later, from another thread.  The table waits on the list
         * for it, where no enqueue finds it (no queue) and the host agent
         * frees it once released. */
        t->queue = NULL;
        t->next = capture_tables;
        capture_tables = t;
        (void) OPAL_THREAD_ADD_FETCH32(&capture_count, 1);
        capture_watch();
        (void) backend->user_object_release(uo);
        return capture_vendor_error(backend, "cannot tie the queue's words to the graph", status);
    }
    t->next = capture_tables;
    capture_tables = t;
    capture_watch();
    (void) OPAL_THREAD_ADD_FETCH32(&capture_count, 1);
    *out = t;
    return OMPI_SUCCESS;
}

int ompi_queue_stream_capture_enqueue(ompi_queue_t *queue,
                                      const ompi_queue_stream_backend_t *backend, void *stream,
                                      void *ctx, bool is_wait, int count,
                                      ompi_request_t **requests, ompi_status_public_t *statuses,
                                      mca_queue_base_refusal_t *refusal)
{
    capture_table_t *t;
    capture_slot_t *slot;
    uint64_t capture, word;
    int ret = OMPI_SUCCESS, status, s, place;

    if (NULL == backend->capture_id || NULL == backend->user_object_create
        || NULL == backend->graph_retain || NULL == backend->user_object_release) {
        opal_output_verbose(MCA_BASE_VERBOSE_ERROR, OMPI_QUEUE_BASE_OUTPUT,
                            "queue:%s: the stream is being captured; this backend cannot "
                            "capture enqueued operations", backend->name);
        return OMPI_ERR_NOT_SUPPORTED;
    }
    if (0 != (status = backend->capture_id(stream, &capture))) {
        return capture_vendor_error(backend, "cannot identify the capture", status);
    }
    OPAL_THREAD_LOCK(&capture_lock);
    t = capture_find(queue, capture);
    if (NULL != refusal
        && OMPI_SUCCESS != (ret = capture_check(t, is_wait, count, requests, refusal))) {
        goto out;
    }
    if (NULL == t
        && OMPI_SUCCESS
               != (ret = capture_table_new(queue, backend, stream, ctx, capture, &t))) {
        goto out;
    }
    if (CAPTURE_SLOTS == t->nslots) {
        opal_output_verbose(MCA_BASE_VERBOSE_ERROR, OMPI_QUEUE_BASE_OUTPUT,
                            "queue:%s: more than %d starts and waits enqueued in one capture",
                            backend->name, CAPTURE_SLOTS);
        ret = OMPI_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    s = t->nslots;
    slot = &t->slots[s];
    slot->is_wait = is_wait;
    slot->failed = false;
    slot->count = count;
    slot->statuses = statuses;
    slot->remaining = count;
    slot->waiter = NULL;
    slot->reqs = malloc(count * sizeof(*slot->reqs));
    if (NULL == slot->reqs
        || (!is_wait && NULL == (slot->waiter = malloc(count * sizeof(*slot->waiter))))) {
        free(slot->reqs);
        ret = OMPI_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    for (int i = 0; i < count; ++i) {
        slot->reqs[i] = requests[i];
        if (!is_wait) {
            slot->waiter[i] = -1;
        }
    }
    /* the graph's part: set the trigger; or wait for done, then clear it
     * for the next launch */
    word = t->dwords + (uint64_t) (2 * s + (is_wait ? 1 : 0)) * sizeof(uint64_t);
    if (is_wait) {
        status = backend->wait_value64(stream, word, 1);
        if (0 == status) {
            status = backend->write_value64(stream, word, 0);
        }
    } else {
        status = backend->write_value64(stream, word, 1);
    }
    if (0 != status) {
        /* the capture is invalid now: the program's end of capture says so */
        free(slot->reqs);
        free(slot->waiter);
        ret = capture_vendor_error(backend, "cannot capture the stream operation", status);
        goto out;
    }
    if (is_wait) {
        for (int i = 0; i < count; ++i) {
            int k = capture_pending_start(t, requests[i], &place);
            if (0 <= k) {
                t->slots[k].waiter[place] = s;
            }
        }
    }
    t->nslots++;
out:
    OPAL_THREAD_UNLOCK(&capture_lock);
    return ret;
}

/* the host agent: a launch reached a start */
static void capture_start(capture_table_t *t, capture_slot_t *slot)
{
    slot->failed = false;
    for (int i = 0; i < slot->count; ++i) {
        ompi_request_t *req = slot->reqs[i];
        int ret = req->req_start(1, &req);

        if (OMPI_SUCCESS != ret) {
            /* its wait must still pass, or the stream would hang */
            req->req_status.MPI_ERROR = ompi_errcode_get_mpi_code(ret);
            slot->failed = true;
        }
        if (0 <= slot->waiter[i]) {
            t->slots[slot->waiter[i]].remaining--;
        }
    }
}

static bool capture_complete(const capture_slot_t *slot)
{
    for (int i = 0; i < slot->count; ++i) {
        if (!ompi_request_seen_complete(slot->reqs[i])) {
            return false;
        }
    }
    return true;
}

/* the host agent: a launch's wait completed; its errors go to the queue's
 * next fence, as an eager enqueue's do */
static void capture_finish(capture_table_t *t, capture_slot_t *slot)
{
    for (int i = 0; i < slot->count; ++i) {
        ompi_request_t *req = slot->reqs[i];

        if (NULL != slot->statuses) {
            slot->statuses[i] = req->req_status;
        }
        if (MPI_SUCCESS != req->req_status.MPI_ERROR && NULL != t->queue) {
            ompi_queue_host_report_error(t->queue, req->req_status.MPI_ERROR);
        }
        req->req_state = OMPI_REQUEST_INACTIVE;
    }
    slot->remaining = slot->count;
}

static int capture_progress(void)
{
    int events = 0;

    /* a hint: the count changes under the lock */
    if (0 == __atomic_load_n(&capture_count, __ATOMIC_RELAXED)
        || 0 != OPAL_THREAD_TRYLOCK(&capture_lock)) {
        return 0;
    }
    for (capture_table_t **p = &capture_tables; NULL != *p;) {
        capture_table_t *t = *p;

        if (0 != __atomic_load_n(&t->released, __ATOMIC_ACQUIRE)) {
            *p = t->next;
            capture_table_free(t);
            (void) OPAL_THREAD_ADD_FETCH32(&capture_count, -1);
            continue;
        }
        for (int s = 0; s < t->nslots; ++s) {
            capture_slot_t *slot = &t->slots[s];
            volatile uint64_t *word = &t->words[2 * s];

            if (!slot->is_wait) {
                /* acquire, paired with the stream's write of the trigger:
                 * what the graph wrote before it (the send buffer, and
                 * the previous launch's use of the requests) is visible
                 * to the start */
                if (0 == __atomic_load_n(&word[0], __ATOMIC_ACQUIRE)) {
                    continue;
                }
                __atomic_store_n(&word[0], 0, __ATOMIC_RELAXED);
                capture_start(t, slot);
                events++;
            } else if (0 == slot->remaining && capture_complete(slot)) {
                capture_finish(t, slot);
                /* release, paired with the stream's wait on the word:
                 * the statuses, the received data and the requests'
                 * inactive state reach the graph's next operations and
                 * the program once it synchronizes the stream */
                __atomic_store_n(&word[1], 1, __ATOMIC_RELEASE);
                events++;
            }
        }
        p = &t->next;
    }
    OPAL_THREAD_UNLOCK(&capture_lock);
    return events;
}

void ompi_queue_stream_capture_forget(ompi_queue_t *queue)
{
    OPAL_THREAD_LOCK(&capture_lock);
    for (capture_table_t *t = capture_tables; NULL != t; t = t->next) {
        if (t->queue == queue) {
            t->queue = NULL;
        }
    }
    OPAL_THREAD_UNLOCK(&capture_lock);
}

/* graphs captured from stream queues whose tables are still held */
static int capture_stream_captures_get(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    unsigned int live = 0;

    (void) pvar;
    (void) obj;
    /* tables of destroyed graphs are freed by the host agent */
    (void) capture_progress();
    OPAL_THREAD_LOCK(&capture_lock);
    for (capture_table_t *t = capture_tables; NULL != t; t = t->next) {
        live += (0 == __atomic_load_n(&t->released, __ATOMIC_RELAXED));
    }
    OPAL_THREAD_UNLOCK(&capture_lock);
    *(unsigned int *) value = live;
    return OMPI_SUCCESS;
}

int ompi_queue_stream_capture_register(void)
{
    /* a leak check a program (and the tests) can make on any backend */
    int ret = mca_base_pvar_register("ompi", "queue", "base", "stream_captures",
                                     "Graphs captured from stream queues whose tables of words "
                                     "the queues still hold (released once the vendor destroys "
                                     "the graph and progress runs)",
                                     OPAL_INFO_LVL_9, MCA_BASE_PVAR_CLASS_LEVEL,
                                     MCA_BASE_VAR_TYPE_UNSIGNED_INT, NULL,
                                     MCA_BASE_VAR_BIND_NO_OBJECT,
                                     MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                     capture_stream_captures_get, NULL, NULL, NULL);

    return (0 > ret) ? ret : OMPI_SUCCESS;
}

void ompi_queue_stream_capture_fini(void)
{
    OPAL_THREAD_LOCK(&capture_lock);
    if (capture_registered) {
        opal_progress_unregister(capture_progress);
        capture_registered = false;
    }
    /* a graph still alive keeps its table (its destruction may come later) */
    for (capture_table_t **p = &capture_tables; NULL != *p;) {
        capture_table_t *t = *p;
        if (0 != __atomic_load_n(&t->released, __ATOMIC_ACQUIRE)) {
            *p = t->next;
            capture_table_free(t);
            (void) OPAL_THREAD_ADD_FETCH32(&capture_count, -1);
        } else {
            t->queue = NULL;
            p = &t->next;
        }
    }
    OPAL_THREAD_UNLOCK(&capture_lock);
}
