/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/mca/threads/mutex.h"
#include "opal/runtime/opal_progress.h"
#include "opal/sys/atomic.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/errhandler/errcode-internal.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/request/request.h"

#define QUEUE_ENTRY_INLINE 4

typedef enum { QUEUE_ENTRY_START, QUEUE_ENTRY_WAIT } queue_entry_kind_t;

typedef struct {
    queue_entry_kind_t kind;
    int count;
    ompi_request_t **reqs;                  /**< inline_reqs, or allocated */
    ompi_request_t *inline_reqs[QUEUE_ENTRY_INLINE];
    ompi_status_public_t *statuses;         /**< NULL: ignored */
} queue_entry_t;

/** The host engine's part of a queue (queue->q_module_data of the default type). */
/* The FIFO is a ring of entries owned by the queue, grown by doubling and
 * never shrunk: a queue in steady state enqueues and retires entries with no
 * allocation and no list manipulation. */
typedef struct {
    queue_entry_t *ring;
    uint32_t cap;           /**< a power of two */
    uint32_t head, tail;    /**< head == tail: empty */
    opal_mutex_t lock;      /**< the owning thread vs progress from other threads */
    int error;              /**< first MPI error class since the last fence */
    volatile bool stuck;    /**< the head cannot run: an earlier operation failed */
    bool busy;              /**< counted in queue_host_busy_count */
    int live_index;         /**< in queue_host_live */
} queue_host_t;

/* queues with entries: progress returns at once when there are none */
static opal_atomic_int32_t queue_host_busy_count = 0;

static inline void queue_mark_busy(queue_host_t *host, bool busy)
{
    if (busy != host->busy) {
        host->busy = busy;
        (void) opal_atomic_add_fetch_32(&queue_host_busy_count, busy ? 1 : -1);
    }
}

/* every host queue; progress walks it under a try-lock, so a queue being
 * freed is never walked */
static queue_host_t **queue_host_live = NULL;
static int queue_host_live_size = 0;
static opal_mutex_t queue_host_live_lock = OPAL_MUTEX_STATIC_INIT;
static int queue_host_live_count = 0;
static bool queue_host_ready = false;

static int queue_host_progress(void);

int ompi_queue_host_init(void)
{
    if (queue_host_ready) {
        return OMPI_SUCCESS;
    }
    queue_host_ready = true;
    return OMPI_SUCCESS;
}

void ompi_queue_host_fini(void)
{
    if (!queue_host_ready) {
        return;
    }
    if (0 < queue_host_live_count) {
        opal_progress_unregister(queue_host_progress);
        queue_host_live_count = 0;
    }
    free(queue_host_live);
    queue_host_live = NULL;
    queue_host_live_size = 0;
    queue_host_ready = false;
}

/*
 * Ownership of matched requests by a queue (partitioned requests carry no
 * such record: their misuse is not detected).
 */

static inline mca_match_request_t *queue_matched(ompi_request_t *req)
{
    return mca_match_request_is(req) ? (mca_match_request_t *) req : NULL;
}

int ompi_queue_check_requests(ompi_queue_t *queue, int count, ompi_request_t **requests,
                              bool is_wait, int *bad, const char **reason)
{
    for (int i = 0; i < count; ++i) {
        ompi_request_t *req = requests[i];
        mca_match_request_t *mr;

        *bad = i;
        if (NULL == req || MPI_REQUEST_NULL == req || OMPI_REQUEST_INVALID == req->req_state) {
            *reason = "the request is MPI_REQUEST_NULL or was freed";
            return OMPI_ERR_REQUEST;
        }
        for (int j = 0; j < i; ++j) {
            if (requests[j] == req) {
                *reason = "the same request appears twice";
                return OMPI_ERR_REQUEST;
            }
        }
        if (OMPI_REQUEST_PART == req->req_type && req->req_persistent) {
            continue;
        }
        mr = queue_matched(req);
        if (NULL == mr) {
            *reason = req->req_persistent
                          ? "the request is not matched (MPI_Match it first)"
                          : "only matched persistent or partitioned requests can be enqueued";
            return OMPI_ERR_REQUEST;
        }
        if (MCA_MATCH_STATE_MATCHED != mr->mr_state) {
            *reason = "the request's match has not completed";
            return OMPI_ERR_REQUEST;
        }
        if (is_wait) {
            if (mr->mr_queue != queue || mr->mr_queue_waits >= mr->mr_queue_starts) {
                *reason = "the request's start was not enqueued on this queue, or its wait "
                          "is already enqueued";
                return OMPI_ERR_REQUEST;
            }
        } else if (NULL == mr->mr_queue) {
            if (OMPI_REQUEST_INACTIVE != req->req_state) {
                *reason = "the request is active";
                return OMPI_ERR_REQUEST;
            }
        } else if (mr->mr_queue != queue || mr->mr_queue_waits != mr->mr_queue_starts) {
            *reason = "the request's enqueued start is pending: enqueue its wait first, on the "
                      "same queue";
            return OMPI_ERR_REQUEST;
        }
    }
    return OMPI_SUCCESS;
}

static void queue_own(ompi_queue_t *queue, int count, ompi_request_t **requests, bool is_wait)
{
    for (int i = 0; i < count; ++i) {
        mca_match_request_t *mr = queue_matched(requests[i]);
        if (NULL != mr) {
            mr->mr_queue = queue;
            if (is_wait) {
                mr->mr_queue_waits++;
            } else {
                mr->mr_queue_starts++;
            }
        }
    }
}

static void queue_disown(ompi_request_t *req, bool all)
{
    mca_match_request_t *mr = queue_matched(req);
    if (NULL == mr) {
        return;
    }
    if (all) {
        mr->mr_queue_starts = mr->mr_queue_waits = 0;
    } else {
        mr->mr_queue_starts--;
        mr->mr_queue_waits--;
    }
    if (0 >= mr->mr_queue_starts) {
        mr->mr_queue_starts = mr->mr_queue_waits = 0;
        mr->mr_queue = NULL;
    }
}

/*
 * The engine
 */

static int queue_start_now(int count, ompi_request_t **requests)
{
    for (int i = 0; i < count; ++i) {
        ompi_request_t *req = requests[i];
        int ret = mca_match_request_is(req) ? mca_match_request_start_queued(1, &requests[i])
                                            : req->req_start(1, &requests[i]);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
    }
    return OMPI_SUCCESS;
}

static bool queue_all_complete(int count, ompi_request_t **requests)
{
    for (int i = 0; i < count; ++i) {
        if (!REQUEST_COMPLETE(requests[i]) || OMPI_REQUEST_ACTIVE != requests[i]->req_state) {
            return false;
        }
    }
    return true;
}

/* the wait of a group completed: statuses, requests back to inactive */
static void queue_finish_wait(queue_host_t *host, int count, ompi_request_t **requests,
                              ompi_status_public_t *statuses)
{
    for (int i = 0; i < count; ++i) {
        ompi_request_t *req = requests[i];
        if (NULL != statuses) {
            statuses[i] = req->req_status;
        }
        if (MPI_SUCCESS != req->req_status.MPI_ERROR && MPI_SUCCESS == host->error) {
            host->error = req->req_status.MPI_ERROR;
        }
        req->req_state = OMPI_REQUEST_INACTIVE;
        queue_disown(req, false);
    }
}

static inline bool queue_fifo_empty(const queue_host_t *host)
{
    return host->head == host->tail;
}

static inline queue_entry_t *queue_fifo_head(queue_host_t *host)
{
    return &host->ring[host->head & (host->cap - 1)];
}

static void queue_fifo_pop(queue_host_t *host)
{
    queue_entry_t *entry = queue_fifo_head(host);
    if (entry->reqs != entry->inline_reqs) {
        free(entry->reqs);
    }
    host->head++;
}

/* append an entry; NULL when out of memory (nothing changed) */
static queue_entry_t *queue_fifo_push(queue_host_t *host, queue_entry_kind_t kind, int count,
                                      ompi_request_t **requests, ompi_status_public_t *statuses)
{
    queue_entry_t *entry;

    if (host->tail - host->head == host->cap) {
        uint32_t cap = host->cap ? 2 * host->cap : 16, n = host->tail - host->head;
        queue_entry_t *ring = malloc(cap * sizeof(*ring));
        if (NULL == ring) {
            return NULL;
        }
        for (uint32_t i = 0; i < n; ++i) {
            ring[i] = host->ring[(host->head + i) & (host->cap - 1)];
            if (ring[i].reqs == host->ring[(host->head + i) & (host->cap - 1)].inline_reqs) {
                ring[i].reqs = ring[i].inline_reqs;
            }
        }
        free(host->ring);
        host->ring = ring;
        host->cap = cap;
        host->head = 0;
        host->tail = n;
    }
    entry = &host->ring[host->tail & (host->cap - 1)];
    entry->reqs = (count <= QUEUE_ENTRY_INLINE) ? entry->inline_reqs
                                                : malloc(count * sizeof(ompi_request_t *));
    if (NULL == entry->reqs) {
        entry->reqs = entry->inline_reqs;
        return NULL;
    }
    entry->kind = kind;
    entry->count = count;
    entry->statuses = statuses;
    memcpy(entry->reqs, requests, count * sizeof(ompi_request_t *));
    host->tail++;
    return entry;
}

/* lock held: move the head of the FIFO as far as the ordering allows */
static int queue_advance(queue_host_t *host)
{
    queue_entry_t *entry;
    int events = 0;

    while (!queue_fifo_empty(host)) {
        entry = queue_fifo_head(host);
        if (QUEUE_ENTRY_START == entry->kind) {
            if (MPI_SUCCESS != host->error) {
                host->stuck = true; /* after an error the queue starts nothing */
                break;
            }
            int ret = queue_start_now(entry->count, entry->reqs);
            if (OMPI_SUCCESS != ret) {
                host->error = ompi_errcode_get_mpi_code(ret);
                host->stuck = true;
                break;
            }
        } else {
            if (!queue_all_complete(entry->count, entry->reqs)) {
                break;
            }
            queue_finish_wait(host, entry->count, entry->reqs, entry->statuses);
        }
        queue_fifo_pop(host);
        events++;
    }
    if (queue_fifo_empty(host)) {
        queue_mark_busy(host, false);
    }
    return events;
}

static int queue_host_progress(void)
{
    int events = 0;

    if (0 == queue_host_busy_count || 0 != OPAL_THREAD_TRYLOCK(&queue_host_live_lock)) {
        return 0;
    }
    for (int i = 0; i < queue_host_live_count; ++i) {
        queue_host_t *host = queue_host_live[i];
        if (queue_fifo_empty(host)) {
            continue;
        }
        if (0 == OPAL_THREAD_TRYLOCK(&host->lock)) {
            events += queue_advance(host);
            OPAL_THREAD_UNLOCK(&host->lock);
        }
    }
    OPAL_THREAD_UNLOCK(&queue_host_live_lock);
    return events;
}

int ompi_queue_host_create(ompi_queue_t *queue)
{
    queue_host_t *host = malloc(sizeof(*host));

    if (NULL == host) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    host->ring = NULL;
    host->cap = host->head = host->tail = 0;
    OBJ_CONSTRUCT(&host->lock, opal_mutex_t);
    host->error = MPI_SUCCESS;
    host->stuck = false;
    host->busy = false;
    OPAL_THREAD_LOCK(&queue_host_live_lock);
    if (queue_host_live_count == queue_host_live_size) {
        int size = queue_host_live_size ? 2 * queue_host_live_size : 16;
        queue_host_t **live = realloc(queue_host_live, size * sizeof(*live));
        if (NULL == live) {
            OPAL_THREAD_UNLOCK(&queue_host_live_lock);
            OBJ_DESTRUCT(&host->lock);
            free(host);
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        queue_host_live = live;
        queue_host_live_size = size;
    }
    host->live_index = queue_host_live_count;
    queue_host_live[queue_host_live_count] = host;
    if (0 == queue_host_live_count++) {
        opal_progress_register(queue_host_progress);
    }
    OPAL_THREAD_UNLOCK(&queue_host_live_lock);
    queue->q_module_data = host;
    return OMPI_SUCCESS;
}

void ompi_queue_host_destroy(ompi_queue_t *queue)
{
    queue_host_t *host = (queue_host_t *) queue->q_module_data;
    queue_entry_t *entry;

    if (NULL == host) {
        return;
    }
    OPAL_THREAD_LOCK(&queue_host_live_lock);
    /* the last queue takes the freed slot */
    queue_host_live[host->live_index] = queue_host_live[queue_host_live_count - 1];
    queue_host_live[host->live_index]->live_index = host->live_index;
    if (0 == --queue_host_live_count) {
        opal_progress_unregister(queue_host_progress);
    }
    OPAL_THREAD_UNLOCK(&queue_host_live_lock);
    queue_mark_busy(host, false);
    /* only at finalize can entries remain: give the requests back */
    while (!queue_fifo_empty(host)) {
        entry = queue_fifo_head(host);
        for (int i = 0; i < entry->count; ++i) {
            queue_disown(entry->reqs[i], true);
        }
        queue_fifo_pop(host);
    }
    free(host->ring);
    OBJ_DESTRUCT(&host->lock);
    free(host);
    queue->q_module_data = NULL;
}

int ompi_queue_host_enqueue_start(ompi_queue_t *queue, int count, ompi_request_t **requests)
{
    queue_host_t *host = (queue_host_t *) queue->q_module_data;
    queue_entry_t *entry;
    int ret = OMPI_SUCCESS;

    OPAL_THREAD_LOCK(&host->lock);
    queue_own(queue, count, requests, false);
    if (queue_fifo_empty(host) && MPI_SUCCESS == host->error) {
        /* nothing before it: this is MPI_Start(all), no entry needed */
        ret = queue_start_now(count, requests);
        if (OMPI_SUCCESS != ret) {
            host->error = ompi_errcode_get_mpi_code(ret);
        }
    } else {
        entry = queue_fifo_push(host, QUEUE_ENTRY_START, count, requests, NULL);
        if (NULL == entry) {
            for (int i = 0; i < count; ++i) {
                mca_match_request_t *mr = queue_matched(requests[i]);
                if (NULL != mr && 0 == --mr->mr_queue_starts) {
                    mr->mr_queue = NULL;
                }
            }
            ret = OMPI_ERR_OUT_OF_RESOURCE;
        } else {
            queue_mark_busy(host, true);
            (void) queue_advance(host);
        }
    }
    OPAL_THREAD_UNLOCK(&host->lock);
    return ret;
}

int ompi_queue_host_enqueue_wait(ompi_queue_t *queue, int count, ompi_request_t **requests,
                                 ompi_status_public_t *statuses)
{
    queue_host_t *host = (queue_host_t *) queue->q_module_data;
    queue_entry_t *entry;
    int ret = OMPI_SUCCESS;

    OPAL_THREAD_LOCK(&host->lock);
    queue_own(queue, count, requests, true);
    if (queue_fifo_empty(host) && queue_all_complete(count, requests)) {
        queue_finish_wait(host, count, requests, statuses);
    } else {
        entry = queue_fifo_push(host, QUEUE_ENTRY_WAIT, count, requests, statuses);
        if (NULL == entry) {
            for (int i = 0; i < count; ++i) {
                mca_match_request_t *mr = queue_matched(requests[i]);
                if (NULL != mr) {
                    mr->mr_queue_waits--;
                }
            }
            ret = OMPI_ERR_OUT_OF_RESOURCE;
        } else {
            queue_mark_busy(host, true);
            (void) queue_advance(host);
        }
    }
    OPAL_THREAD_UNLOCK(&host->lock);
    return ret;
}

int ompi_queue_host_fence(ompi_queue_t *queue)
{
    queue_host_t *host = (queue_host_t *) queue->q_module_data;
    queue_entry_t *entry;
    int error;

    OPAL_THREAD_LOCK(&host->lock);
    (void) queue_advance(host);
    if (!queue_fifo_empty(host) && !host->stuck) {
        /* the progress callback advances the queue: spin on progress alone,
         * as MPI_Wait does, so completion is seen as soon as it happens */
        OPAL_THREAD_UNLOCK(&host->lock);
        while (!queue_fifo_empty(host) && !host->stuck) {
            opal_progress();
        }
        OPAL_THREAD_LOCK(&host->lock);
        (void) queue_advance(host);
    }
    if (host->stuck) {
        /* an operation failed: what it blocks will never run */
        while (!queue_fifo_empty(host)) {
            entry = queue_fifo_head(host);
            for (int i = 0; i < entry->count; ++i) {
                queue_disown(entry->reqs[i], true);
            }
            queue_fifo_pop(host);
        }
        queue_mark_busy(host, false);
        host->stuck = false;
    }
    error = host->error;
    host->error = MPI_SUCCESS;
    OPAL_THREAD_UNLOCK(&host->lock);
    return error;
}

bool ompi_queue_host_busy(ompi_queue_t *queue)
{
    queue_host_t *host = (queue_host_t *) queue->q_module_data;
    return NULL != host && !queue_fifo_empty(host);
}
