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
#include "opal/mca/threads/thread_usage.h"
#include "opal/runtime/opal_progress.h"
#include "opal/sys/atomic.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/errhandler/errcode-internal.h"
#include "ompi/mca/match/base/match_base_plist.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/request/request.h"
#include "ompi/request/request_owner.h"
#include "ompi/runtime/ompi_async_progress.h"
#include "ompi/runtime/params.h"

/* Groups of up to two requests (a send and a receive) are held in the
 * entry: a whole entry is 32 bytes, two to a cache line, which matters when
 * a program enqueues thousands of operations ahead of their execution. */
#define QUEUE_ENTRY_INLINE 2

typedef enum { QUEUE_ENTRY_START, QUEUE_ENTRY_WAIT } queue_entry_kind_t;

typedef struct {
    uint32_t kind;                          /**< queue_entry_kind_t */
    uint32_t count;
    ompi_status_public_t *statuses;         /**< NULL: ignored */
    union {
        ompi_request_t *inl[QUEUE_ENTRY_INLINE];  /**< count <= QUEUE_ENTRY_INLINE */
        ompi_request_t **heap;                    /**< otherwise, allocated */
    } r;
} queue_entry_t;

static inline ompi_request_t **queue_entry_reqs(queue_entry_t *entry)
{
    return entry->count <= QUEUE_ENTRY_INLINE ? entry->r.inl : entry->r.heap;
}

/*
 * A queue's hold of a matched request, from its enqueued start until the
 * completion of its enqueued wait (request_owner.h): the request's
 * req_complete_cb is queue_owned_completed and its req_complete_cb_data this
 * record.
 */
typedef struct queue_claim_t {
    ompi_queue_t *queue;
    int32_t starts;              /**< enqueued starts whose wait has not completed */
    int32_t waits;               /**< enqueued waits not completed */
    struct queue_claim_t *next;  /**< in the engine's spare records */
} queue_claim_t;

static int queue_owned_completed(ompi_request_t *req);

/* the queue's hold of req, NULL when no queue holds it */
static inline queue_claim_t *queue_claim(const ompi_request_t *req)
{
    return (queue_owned_completed == req->req_complete_cb)
               ? (queue_claim_t *) req->req_complete_cb_data
               : NULL;
}

/** The host engine's part of a queue (queue->q_module_data of the default type). */
/* The FIFO is a ring of entries owned by the queue, grown by doubling and
 * never shrunk: a queue in steady state enqueues and retires entries with no
 * allocation and no list manipulation. */
typedef struct {
    queue_entry_t *ring;
    uint32_t cap;           /**< a power of two */
    /* head == tail: empty.  Written under lock, with atomic stores: the
     * progress callback peeks at them without the lock (queue_fifo_idle),
     * and a peek that is stale only delays the queue to the next call */
    uint32_t head, tail;
    opal_mutex_t lock;      /**< the owning thread vs progress from other threads */
    int error;              /**< first MPI error class since the last fence */
    opal_atomic_int32_t outside_error;  /**< the same, of work outside the FIFO */
    /* the head cannot run: an earlier operation failed.  Written under lock,
     * with atomic stores: MPI_Queue_fence spins on it without the lock */
    bool stuck;
    bool advancing;         /**< inside queue_advance (the lock is a no-op without threads) */
    bool busy;              /**< counted in queue_host_busy_count */
    mca_match_base_plist_item_t live; /**< on queue_host_live */
    /* triggered queues only (ops != NULL) */
    const ompi_queue_trigger_ops_t *ops;
    /* TRIGGER written by the context, DONE by us: the context writes what a
     * start sends (the buffer) before it writes TRIGGER, which we read with
     * acquire order; we write the statuses and received data, then DONE
     * with release order, before the context goes on */
    volatile uint64_t *counters;
    void *ctx;                    /**< the component's */
    uint64_t starts_posted, starts_run;  /**< trigger values posted / seen and run */
    uint64_t waits_posted, waits_done;   /**< done values posted / written */
    queue_claim_t *spare_claims;    /**< records of holds given back, for the next */
    int32_t held;                   /**< requests held (started, not waited for) */
} queue_host_t;

/* queues with entries: progress returns at once when there are none */
static opal_atomic_int32_t queue_host_busy_count = 0;

static inline void queue_mark_busy(queue_host_t *host, bool busy)
{
    if (busy != host->busy) {
        host->busy = busy;
        /* twice per idle-busy-idle cycle: a locked add only when threads
         * are in use (the progress thread turns that on) */
        (void) OPAL_THREAD_ADD_FETCH32(&queue_host_busy_count, busy ? 1 : -1);
        if (NULL != host->ops) {
            /* the context (a stream) reaches its triggers while the program
             * makes no call, maybe long after the enqueue: the progress
             * thread must be polling, not asleep, when it does */
            ompi_async_progress_watch_add(busy ? 1 : -1);
        }
    }
}

static int queue_host_progress(void);

/* every host queue; progress walks it under a try-lock, so a queue being
 * freed is never walked.  A queue stays listed from its creation to its
 * free: it is the busy count, not the list, that tells progress whether
 * there is work. */
static opal_mutex_t queue_host_live_lock = OPAL_MUTEX_STATIC_INIT;
static mca_match_base_plist_t queue_host_live = MCA_MATCH_BASE_PLIST_INIT(&queue_host_live_lock,
                                                                          queue_host_progress);
#define QUEUE_HOST_LIVE offsetof(queue_host_t, live)
static bool queue_host_ready = false;

/* The queue this thread is blocked on (MPI_Queue_fence) or polls for
 * (MPI_Enqueue_wait): when one of its requests completes in this thread, the
 * completion callback advances the queue at once, so the next start leaves
 * without unwinding the transport's progress and without waiting for the
 * queue's progress callback.  Only this thread's own queue is advanced that
 * way, which is what makes it safe: the queue cannot be freed meanwhile. */
static opal_thread_local ompi_queue_t *queue_host_driven_mt = NULL;
/* the same without threads, when no other thread can complete a request:
 * a thread-local variable of a shared library is a call into the loader
 * at each completion */
static ompi_queue_t *queue_host_driven_st = NULL;

static inline ompi_queue_t **queue_host_driven(void)
{
    return opal_using_threads() ? &queue_host_driven_mt : &queue_host_driven_st;
}

static int queue_owner_check(int count, ompi_request_t **requests,
                             ompi_request_owner_mode_t mode);

/* queues refuse the program's completion calls on the requests they hold */
static const ompi_request_owner_t queue_owner = {
    .completed = queue_owned_completed,
    .refusal = "the request's enqueued start is pending: only its queue may wait for it",
    .check = queue_owner_check,
};

static void queue_request_completed(ompi_queue_t *queue);

int ompi_queue_host_init(void)
{
    int ret;

    if (queue_host_ready) {
        return OMPI_SUCCESS;
    }
    if (OMPI_SUCCESS != (ret = ompi_request_owner_register(&queue_owner))) {
        return ret;
    }
    queue_host_ready = true;
    return OMPI_SUCCESS;
}

void ompi_queue_host_fini(void)
{
    if (!queue_host_ready) {
        return;
    }
    mca_match_base_plist_progress_off(&queue_host_live);
    ompi_request_owner_unregister(&queue_owner);
    queue_host_ready = false;
}

/*
 * Ownership of matched requests by a queue (request_owner.h): the request's
 * completion callback is the queue's, its data the queue's record of the
 * hold.  Partitioned requests carry no such record: their misuse is not
 * detected.
 */

static int queue_owner_check(int count, ompi_request_t **requests,
                             ompi_request_owner_mode_t mode)
{
    (void) mode;
    for (int i = 0; i < count; ++i) {
        if (NULL != requests[i] && queue_owned_completed == requests[i]->req_complete_cb) {
            return i;
        }
    }
    return -1;
}

static int queue_owned_completed(ompi_request_t *req)
{
    /* read before the completion: from then on the queue may give the
     * request back and reuse the record */
    ompi_queue_t *queue = ((queue_claim_t *) req->req_complete_cb_data)->queue;

    /* held until its enqueued wait completes: the callback stays set
     * (ompi_request_owner_complete) */
    ompi_request_owner_mark_complete(req);
    queue_request_completed(queue);
    return 1;
}

/* lock held: whether req may be started (is_wait false) or waited on this
 * queue, by the chapter's rules */
static inline int queue_check_one(ompi_queue_t *queue, ompi_request_t *req, bool is_wait,
                                  const char **reason)
{
    queue_claim_t *claim;

    if (OPAL_UNLIKELY(NULL != (*reason = ompi_queue_request_unusable(req, true)))) {
        return OMPI_ERR_REQUEST;
    }
    if (OPAL_UNLIKELY(!mca_match_request_is(req))) {
        /* partitioned requests carry no hold: their misuse is not detected */
        return OMPI_SUCCESS;
    }
    claim = queue_claim(req);
    if (is_wait) {
        if (OPAL_UNLIKELY(NULL == claim || claim->queue != queue
                          || claim->waits >= claim->starts)) {
            *reason = "the request's start was not enqueued on this queue, or its wait "
                      "is already enqueued";
            return OMPI_ERR_REQUEST;
        }
    } else if (NULL == claim) {
        if (OPAL_UNLIKELY(OMPI_REQUEST_INACTIVE != req->req_state)) {
            *reason = "the request is active";
            return OMPI_ERR_REQUEST;
        }
    } else if (OPAL_UNLIKELY(claim->queue != queue || claim->waits != claim->starts)) {
        *reason = "the request's enqueued start is pending: enqueue its wait first, on the "
                  "same queue";
        return OMPI_ERR_REQUEST;
    }
    return OMPI_SUCCESS;
}

/* lock held: a group's checks, each member's and then the group's own */
static int queue_check_group(ompi_queue_t *queue, int count, ompi_request_t **requests,
                             bool is_wait, mca_queue_base_refusal_t *refusal)
{
    for (int i = 0; i < count; ++i) {
        if (OMPI_SUCCESS != queue_check_one(queue, requests[i], is_wait, &refusal->reason)) {
            refusal->index = i;
            return OMPI_ERR_REQUEST;
        }
    }
    if (0 <= (refusal->index = mca_match_base_find_duplicate(count, requests))) {
        refusal->reason = "the same request appears twice";
        return OMPI_ERR_REQUEST;
    }
    return OMPI_SUCCESS;
}

/* lock held: the queue gives the request back (its counts are zero: a
 * record is spare with zero counts) */
static inline void queue_release_owner(queue_host_t *host, ompi_request_t *req,
                                       queue_claim_t *claim)
{
    /* the data is read only while the callback is the queue's */
    req->req_complete_cb = NULL;
    claim->next = host->spare_claims;
    host->spare_claims = claim;
    host->held--;
    (void) OPAL_THREAD_ADD_FETCH32(&ompi_request_owned, -1);
}

/* lock held: take back what queue_own did for requests whose enqueue failed */
static void queue_unown(queue_host_t *host, int count, ompi_request_t **requests, bool is_wait)
{
    for (int i = 0; i < count; ++i) {
        queue_claim_t *claim = queue_claim(requests[i]);
        if (NULL == claim) {
            continue;
        }
        if (is_wait) {
            claim->waits--;
        } else if (0 == --claim->starts) {
            claim->waits = 0;
            queue_release_owner(host, requests[i], claim);
        }
    }
}

/* lock held: a record for a new hold (a spare one, or a new one) */
static queue_claim_t *queue_claim_new(queue_host_t *host, ompi_queue_t *queue)
{
    queue_claim_t *claim = host->spare_claims;

    if (OPAL_LIKELY(NULL != claim)) {
        host->spare_claims = claim->next;
    } else if (NULL == (claim = malloc(sizeof(*claim)))) {
        return NULL;
    } else {
        claim->queue = queue;
        claim->starts = claim->waits = 0;
    }
    return claim;
}

/* lock held: check the requests (refusal not NULL) and make each matched
 * one not held yet the queue's.  OMPI_ERR_REQUEST (*refusal filled) or
 * OMPI_ERR_OUT_OF_RESOURCE: nothing is held anew.  A single request is
 * checked as it is taken, since each enqueue call pays for this. */
static inline int queue_own(queue_host_t *host, ompi_queue_t *queue, int count,
                            ompi_request_t **requests, bool is_wait,
                            mca_queue_base_refusal_t *refusal)
{
    if (NULL != refusal && 1 < count) {
        if (OMPI_SUCCESS != queue_check_group(queue, count, requests, is_wait, refusal)) {
            return OMPI_ERR_REQUEST;
        }
        refusal = NULL;
    }
    for (int i = 0; i < count; ++i) {
        ompi_request_t *req = requests[i];
        queue_claim_t *claim;

        if (NULL != refusal
            && OMPI_SUCCESS != queue_check_one(queue, req, is_wait, &refusal->reason)) {
            /* the only request: nothing taken yet */
            refusal->index = i;
            return OMPI_ERR_REQUEST;
        }
        if (!mca_match_request_is(req)) {
            continue;
        }
        if (NULL == (claim = queue_claim(req))) {
            if (OPAL_UNLIKELY(NULL == (claim = queue_claim_new(host, queue)))) {
                queue_unown(host, i, requests, is_wait);
                return OMPI_ERR_OUT_OF_RESOURCE;
            }
            req->req_complete_cb_data = claim;
            /* the request may complete in another thread, which reads the
             * callback, then the claim (queue_owned_completed): the
             * release store publishes the claim's fields and the data;
             * ompi_request_owner_complete's acquire load pairs with it */
            __atomic_store_n(&req->req_complete_cb, queue_owned_completed, __ATOMIC_RELEASE);
            host->held++;
            (void) OPAL_THREAD_ADD_FETCH32(&ompi_request_owned, 1);
        }
        if (is_wait) {
            claim->waits++;
        } else {
            claim->starts++;
        }
    }
    return OMPI_SUCCESS;
}

static void queue_disown(queue_host_t *host, ompi_request_t *req, bool all)
{
    queue_claim_t *claim = queue_claim(req);

    if (NULL == claim) {
        return;
    }
    if (all) {
        claim->starts = claim->waits = 0;
    } else {
        claim->starts--;
        claim->waits--;
    }
    if (0 >= claim->starts) {
        claim->starts = claim->waits = 0;
        queue_release_owner(host, req, claim);
    }
}

/*
 * The engine
 */

/* start count requests in order; on failure *started says how many did */
static int queue_start_now(int count, ompi_request_t **requests, int *started)
{
    for (int i = 0; i < count; ++i) {
        ompi_request_t *req = requests[i];
        int ret = mca_match_request_is(req) ? mca_match_request_start_owned(1, &requests[i])
                                            : req->req_start(1, &requests[i]);
        if (OMPI_SUCCESS != ret) {
            *started = i;
            return ret;
        }
    }
    return OMPI_SUCCESS;
}

/* a start group that will run later (behind earlier entries, or at the
 * context's trigger): its channels may post the transfers now, to be set
 * off by the start (mca_match_request_arm) */
static inline void queue_arm(int count, ompi_request_t **requests)
{
    for (int i = 0; i < count; ++i) {
        mca_match_request_arm(requests[i]);
    }
}

static bool queue_all_complete(int count, ompi_request_t **requests)
{
    for (int i = 0; i < count; ++i) {
        if (!ompi_request_seen_complete(requests[i])
            || OMPI_REQUEST_ACTIVE != requests[i]->req_state) {
#if OPAL_ENABLE_FT_MPI
            /* under ULFM a dead peer or a revoke completes the request in
             * error, as it would in MPI_Wait: nobody else waits for it */
            if (OMPI_REQUEST_ACTIVE == requests[i]->req_state
                && ompi_request_is_failed(requests[i])) {
                continue;
            }
#endif
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
        queue_disown(host, req, false);
    }
}

/* lock held */
static inline bool queue_fifo_empty(const queue_host_t *host)
{
    return host->head == host->tail;
}

/* lock not held: a peek, which may be stale */
static inline bool queue_fifo_idle(const queue_host_t *host)
{
    return __atomic_load_n(&host->head, __ATOMIC_RELAXED)
           == __atomic_load_n(&host->tail, __ATOMIC_RELAXED);
}

static inline queue_entry_t *queue_fifo_head(queue_host_t *host)
{
    return &host->ring[host->head & (host->cap - 1)];
}

static inline void queue_fifo_pop(queue_host_t *host)
{
    queue_entry_t *entry = queue_fifo_head(host);
    if (entry->count > QUEUE_ENTRY_INLINE) {
        free(entry->r.heap);
    }
    __atomic_store_n(&host->head, host->head + 1, __ATOMIC_RELAXED);
}

static int queue_fifo_grow(queue_host_t *host)
{
    uint32_t cap = host->cap ? 2 * host->cap : 16, n = host->tail - host->head;
    queue_entry_t *ring = malloc(cap * sizeof(*ring));

    if (NULL == ring) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (uint32_t i = 0; i < n; ++i) {
        ring[i] = host->ring[(host->head + i) & (host->cap - 1)];
    }
    free(host->ring);
    host->ring = ring;
    host->cap = cap;
    __atomic_store_n(&host->head, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&host->tail, n, __ATOMIC_RELAXED);
    return OMPI_SUCCESS;
}

/* append an entry; NULL when out of memory (nothing changed) */
static inline queue_entry_t *queue_fifo_push(queue_host_t *host, queue_entry_kind_t kind,
                                             int count, ompi_request_t **requests,
                                             ompi_status_public_t *statuses)
{
    queue_entry_t *entry;
    ompi_request_t **reqs;

    if (OPAL_UNLIKELY(host->tail - host->head == host->cap)
        && OMPI_SUCCESS != queue_fifo_grow(host)) {
        return NULL;
    }
    entry = &host->ring[host->tail & (host->cap - 1)];
    if (OPAL_LIKELY(count <= QUEUE_ENTRY_INLINE)) {
        reqs = entry->r.inl;
    } else if (NULL == (reqs = entry->r.heap = malloc(count * sizeof(ompi_request_t *)))) {
        return NULL;
    }
    for (int i = 0; i < count; ++i) {
        reqs[i] = requests[i];
    }
    entry->kind = kind;
    entry->count = (uint32_t) count;
    entry->statuses = statuses;
    __atomic_store_n(&host->tail, host->tail + 1, __ATOMIC_RELAXED);
    return entry;
}

/* lock held, triggered queue: nothing more will run on the host, so let
 * the context pass every wait posted so far instead of blocking forever
 * (the fence or MPI_Queue_free reports the error) */
static void queue_release_context(queue_host_t *host)
{
    if (NULL != host->counters) {
        __atomic_store_n(&host->counters[OMPI_QUEUE_COUNTER_DONE], host->waits_posted,
                         __ATOMIC_RELEASE);
    }
}

/* lock held: move the head of the FIFO as far as the ordering allows */
static int queue_advance(queue_host_t *host)
{
    queue_entry_t *entry;
    int events = 0;

    host->advancing = true;
    while (!queue_fifo_empty(host)) {
        entry = queue_fifo_head(host);
        if (QUEUE_ENTRY_START == entry->kind) {
            if (NULL != host->counters) {
                /* the context has not reached this start yet; what it wrote
                 * before the trigger (the send buffer) is visible once the
                 * trigger is */
                if (__atomic_load_n(&host->counters[OMPI_QUEUE_COUNTER_TRIGGER], __ATOMIC_ACQUIRE)
                    <= host->starts_run) {
                    break;
                }
            }
            if (MPI_SUCCESS != host->error) {
                /* after an error the queue starts nothing */
                __atomic_store_n(&host->stuck, true, __ATOMIC_RELAXED);
                queue_release_context(host);
                break;
            }
            int started;
            int ret = queue_start_now(entry->count, queue_entry_reqs(entry), &started);
            if (OMPI_SUCCESS != ret) {
                host->error = ompi_errcode_get_mpi_code(ret);
                __atomic_store_n(&host->stuck, true, __ATOMIC_RELAXED);
                queue_release_context(host);
                break;
            }
            host->starts_run++;
        } else {
            if (!queue_all_complete(entry->count, queue_entry_reqs(entry))) {
                break;
            }
            queue_finish_wait(host, entry->count, queue_entry_reqs(entry), entry->statuses);
            host->waits_done++;
            if (NULL != host->counters) {
                /* statuses and received data before the context goes on */
                __atomic_store_n(&host->counters[OMPI_QUEUE_COUNTER_DONE], host->waits_done,
                                 __ATOMIC_RELEASE);
            }
        }
        queue_fifo_pop(host);
        events++;
    }
    if (queue_fifo_empty(host)) {
        queue_mark_busy(host, false);
    }
    host->advancing = false;
    return events;
}

/* A start waits behind the head: advancing from the completion callback
 * initiates it sooner.  Otherwise the progress callback retires the head
 * just as soon (measured: chaining every completion took ob1's
 * fence-per-iteration ping-pong from 1.10 to 1.20 of MPI_Start/MPI_Wait). */
static inline bool queue_start_follows(queue_host_t *host)
{
    return host->tail - host->head >= 2
           && QUEUE_ENTRY_START == host->ring[(host->head + 1) & (host->cap - 1)].kind;
}

/* a request the queue holds completed, in the thread that completed it:
 * advance the queue at once when this thread is fencing or polling it and a
 * start waits behind the head; otherwise the queue's progress callback will */
static void queue_request_completed(ompi_queue_t *queue)
{
    queue_host_t *host;

    if (queue != *queue_host_driven()) {
        return;
    }
    host = (queue_host_t *) queue->q_module_data;
    /* fails when this thread is already advancing the queue (with threads),
     * or another thread is (it will see the completion) */
    if (0 != OPAL_THREAD_TRYLOCK(&host->lock)) {
        return;
    }
    if (!host->advancing && queue_start_follows(host)) {
        (void) queue_advance(host);
    }
    OPAL_THREAD_UNLOCK(&host->lock);
}

/* progress on behalf of one queue, with its completions advancing it */
static void queue_host_drive(ompi_queue_t *queue)
{
    ompi_queue_t **driven = queue_host_driven(), *outer = *driven;

    *driven = queue;
    opal_progress();
    *driven = outer;
}

/* one listed queue: advance it unless empty or another thread is at it;
 * ctx counts the events */
static mca_match_base_plist_verdict_t queue_host_poll(void *ctx, void *obj)
{
    queue_host_t *host = (queue_host_t *) obj;

    if (!queue_fifo_idle(host) && 0 == OPAL_THREAD_TRYLOCK(&host->lock)) {
        *(int *) ctx += queue_advance(host);
        OPAL_THREAD_UNLOCK(&host->lock);
    }
    return MCA_MATCH_BASE_PLIST_KEEP;
}

/* never called: a queue is never found done */
static void queue_host_done(void *ctx, void *obj)
{
    (void) ctx;
    (void) obj;
}

static int queue_host_progress(void)
{
    int events = 0;

    /* a hint, read on every progress call: a queue that becomes busy
     * meanwhile is seen at the next call */
    if (0 == __atomic_load_n(&queue_host_busy_count, __ATOMIC_RELAXED)) {
        return 0;
    }
    (void) mca_match_base_plist_progress(&queue_host_live, QUEUE_HOST_LIVE, NULL,
                                         queue_host_poll, queue_host_done, &events);
    return events;
}

int ompi_queue_host_create(ompi_queue_t *queue)
{
    return ompi_queue_host_create_triggered(queue, NULL, NULL, NULL);
}

void *ompi_queue_host_ctx(ompi_queue_t *queue)
{
    queue_host_t *host = (queue_host_t *) queue->q_module_data;
    return (NULL != host) ? host->ctx : NULL;
}

int ompi_queue_host_create_triggered(ompi_queue_t *queue, const ompi_queue_trigger_ops_t *ops,
                                     volatile uint64_t *counters, void *ctx)
{
    queue_host_t *host = malloc(sizeof(*host));

    if (NULL == host) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    host->ops = ops;
    host->counters = (NULL != ops) ? counters : NULL;
    host->ctx = ctx;
    host->starts_posted = host->starts_run = 0;
    host->waits_posted = host->waits_done = 0;
    host->ring = NULL;
    host->cap = host->head = host->tail = 0;
    host->spare_claims = NULL;
    host->held = 0;
    OBJ_CONSTRUCT(&host->lock, opal_mutex_t);
    host->error = MPI_SUCCESS;
    host->outside_error = MPI_SUCCESS;
    host->stuck = false;
    host->advancing = false;
    host->busy = false;
    OPAL_THREAD_LOCK(&queue_host_live_lock);
    mca_match_base_plist_push(&queue_host_live, host, QUEUE_HOST_LIVE);
    mca_match_base_plist_progress_on(&queue_host_live);
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
    mca_match_base_plist_remove(&queue_host_live, host, QUEUE_HOST_LIVE);
    if (0 == mca_match_base_plist_count(&queue_host_live)) {
        /* a program done with queues pays nothing for them */
        mca_match_base_plist_progress_off(&queue_host_live);
    }
    OPAL_THREAD_UNLOCK(&queue_host_live_lock);
    queue_mark_busy(host, false);
    /* only at finalize can entries remain: give the requests back */
    while (!queue_fifo_empty(host)) {
        entry = queue_fifo_head(host);
        for (uint32_t i = 0; i < entry->count; ++i) {
            queue_disown(host, queue_entry_reqs(entry)[i], true);
        }
        queue_fifo_pop(host);
    }
    while (NULL != host->spare_claims) {
        queue_claim_t *claim = host->spare_claims;
        host->spare_claims = claim->next;
        free(claim);
    }
    free(host->ring);
    OBJ_DESTRUCT(&host->lock);
    free(host);
    queue->q_module_data = NULL;
}


/* lock held, requests owned: a triggered queue always takes an entry, and
 * posts the matching write (start) or wait (wait) into the context */
static int queue_enqueue_triggered(queue_host_t *host, ompi_queue_t *queue,
                                   queue_entry_kind_t kind, int count, ompi_request_t **requests,
                                   ompi_status_public_t *statuses)
{
    bool is_wait = (QUEUE_ENTRY_WAIT == kind);
    int ret;

    if (NULL == queue_fifo_push(host, kind, count, requests, statuses)) {
        queue_unown(host, count, requests, is_wait);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (is_wait) {
        ret = host->ops->post_wait(queue, OMPI_QUEUE_COUNTER_DONE, host->waits_posted + 1);
    } else {
        ret = host->ops->post_write(queue, OMPI_QUEUE_COUNTER_TRIGGER, host->starts_posted + 1);
    }
    if (OMPI_SUCCESS != ret) {
        /* nothing reached the context: take the entry back */
        __atomic_store_n(&host->tail, host->tail - 1, __ATOMIC_RELAXED);
        if (count > QUEUE_ENTRY_INLINE) {
            free(host->ring[host->tail & (host->cap - 1)].r.heap);
        }
        queue_unown(host, count, requests, is_wait);
        return ret;
    }
    if (is_wait) {
        host->waits_posted++;
        if (host->stuck) {
            queue_release_context(host);
        }
    } else {
        host->starts_posted++;
        queue_arm(count, requests);
    }
    queue_mark_busy(host, true);
    (void) queue_advance(host);
    return OMPI_SUCCESS;
}

int ompi_queue_host_enqueue_start(ompi_queue_t *queue, int count, ompi_request_t **requests,
                                  mca_queue_base_refusal_t *refusal)
{
    queue_host_t *host = (queue_host_t *) queue->q_module_data;
    queue_entry_t *entry;
    int ret;

    OPAL_THREAD_LOCK(&host->lock);
    if (NULL != host->ops && NULL != host->ops->capture
        && OMPI_ERR_NOT_FOUND
               != (ret = host->ops->capture(queue, false, count, requests, NULL, refusal))) {
        OPAL_THREAD_UNLOCK(&host->lock);
        return ret;
    }
    if (OPAL_UNLIKELY(OMPI_SUCCESS
                      != (ret = queue_own(host, queue, count, requests, false, refusal)))) {
        OPAL_THREAD_UNLOCK(&host->lock);
        return ret;
    }
    if (NULL != host->ops) {
        ret = queue_enqueue_triggered(host, queue, QUEUE_ENTRY_START, count, requests, NULL);
    } else if (queue_fifo_empty(host) && MPI_SUCCESS == host->error) {
        /* nothing before it: this is MPI_Start(all), no entry needed */
        int started;
        ret = queue_start_now(count, requests, &started);
        if (OMPI_SUCCESS != ret) {
            /* reported by this call, as a triggered queue reports a start it
             * cannot post: what did not start is the program's again (it
             * can be freed or enqueued anew); what did start stays enqueued
             * and is waited as usual */
            queue_unown(host, count - started, requests + started, false);
        }
    } else {
        entry = queue_fifo_push(host, QUEUE_ENTRY_START, count, requests, NULL);
        if (NULL == entry) {
            queue_unown(host, count, requests, false);
            ret = OMPI_ERR_OUT_OF_RESOURCE;
        } else {
            if (MPI_SUCCESS == host->error) {
                queue_arm(count, requests);
            }
            /* the head may have become runnable since progress last ran:
             * start what the order allows now rather than at the next call */
            queue_mark_busy(host, true);
            (void) queue_advance(host);
        }
    }
    OPAL_THREAD_UNLOCK(&host->lock);
    return ret;
}

int ompi_queue_host_enqueue_wait(ompi_queue_t *queue, int count, ompi_request_t **requests,
                                 ompi_status_public_t *statuses,
                                 mca_queue_base_refusal_t *refusal)
{
    queue_host_t *host = (queue_host_t *) queue->q_module_data;
    queue_entry_t *entry;
    int ret;
    bool was_empty, poll = false;

    OPAL_THREAD_LOCK(&host->lock);
    if (NULL != host->ops && NULL != host->ops->capture
        && OMPI_ERR_NOT_FOUND
               != (ret = host->ops->capture(queue, true, count, requests, statuses, refusal))) {
        OPAL_THREAD_UNLOCK(&host->lock);
        return ret;
    }
    if (OPAL_UNLIKELY(OMPI_SUCCESS
                      != (ret = queue_own(host, queue, count, requests, true, refusal)))) {
        OPAL_THREAD_UNLOCK(&host->lock);
        return ret;
    }
    was_empty = queue_fifo_empty(host);
    if (NULL != host->ops) {
        ret = queue_enqueue_triggered(host, queue, QUEUE_ENTRY_WAIT, count, requests, statuses);
    } else if (was_empty && queue_all_complete(count, requests)) {
        queue_finish_wait(host, count, requests, statuses);
    } else {
        entry = queue_fifo_push(host, QUEUE_ENTRY_WAIT, count, requests, statuses);
        if (NULL == entry) {
            queue_unown(host, count, requests, true);
            ret = OMPI_ERR_OUT_OF_RESOURCE;
        } else {
            queue_mark_busy(host, true);
            if (!was_empty) {
                /* alone, it is incomplete: only earlier entries can move */
                (void) queue_advance(host);
            }
            poll = true;
        }
    }
    OPAL_THREAD_UNLOCK(&host->lock);
    if (poll) {
        /* the chapter: an enqueued wait "immediately begins completion
         * processing" without blocking, as MPI_Test would.  One progress
         * pass also lets the queue run while the program is still
         * enqueuing, instead of only once it reaches the fence. */
        queue_host_drive(queue);
    }
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
        /* the progress callback, and the completion of this queue's requests
         * in this thread, advance the queue: spin on progress alone, as
         * MPI_Wait does, so completion is seen as soon as it happens */
        ompi_queue_t **driven = queue_host_driven(), *outer = *driven;
        OPAL_THREAD_UNLOCK(&host->lock);
        *driven = queue;
        while (!queue_fifo_idle(host) && !__atomic_load_n(&host->stuck, __ATOMIC_RELAXED)) {
            opal_progress();
        }
        *driven = outer;
        OPAL_THREAD_LOCK(&host->lock);
        (void) queue_advance(host);
    }
    if (host->stuck) {
        /* an operation failed: what it blocks will never run */
        while (!queue_fifo_empty(host)) {
            entry = queue_fifo_head(host);
            for (uint32_t i = 0; i < entry->count; ++i) {
                queue_disown(host, queue_entry_reqs(entry)[i], true);
            }
            queue_fifo_pop(host);
        }
        queue_mark_busy(host, false);
        __atomic_store_n(&host->stuck, false, __ATOMIC_RELAXED);
        /* the discarded entries count as run: the next ones line up */
        host->starts_run = host->starts_posted;
        host->waits_done = host->waits_posted;
        queue_release_context(host);
    }
    error = host->error;
    host->error = MPI_SUCCESS;
    OPAL_THREAD_UNLOCK(&host->lock);

    if (NULL != host->ops) {
        /* the context must also have executed every write and wait it was
         * given; its waits are satisfied now, so only progress is needed,
         * never a blocking synchronize */
        int ret = host->ops->mark(queue);
        if (OMPI_SUCCESS == ret) {
            while (OMPI_ERR_WOULD_BLOCK == (ret = host->ops->marked_done(queue))) {
                opal_progress();
            }
        }
        if (OMPI_SUCCESS != ret && MPI_SUCCESS == error) {
            error = ompi_errcode_get_mpi_code(ret);
        }
    }
    /* read once the context has run everything: a captured graph launched
     * before the fence has reported by now */
    {
        int32_t outside = OPAL_THREAD_SWAP_32(&host->outside_error, MPI_SUCCESS);
        if (MPI_SUCCESS == error) {
            error = outside;
        }
    }
    return error;
}

void ompi_queue_host_report_error(ompi_queue_t *queue, int error)
{
    queue_host_t *host = (queue_host_t *) queue->q_module_data;
    int32_t expected = MPI_SUCCESS;

    /* the first one is kept */
    (void) opal_atomic_compare_exchange_strong_32(&host->outside_error, &expected, error);
}

bool ompi_queue_host_busy(ompi_queue_t *queue)
{
    queue_host_t *host = (queue_host_t *) queue->q_module_data;
    /* a request started through the queue whose wait was not enqueued
     * stays the queue's: freeing the queue would strand it */
    return NULL != host && (!queue_fifo_idle(host) || 0 < host->held);
}
