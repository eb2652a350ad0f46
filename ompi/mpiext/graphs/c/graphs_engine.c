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

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/threads/thread_usage.h"
#include "opal/runtime/opal_progress.h"
#include "opal/sys/atomic.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/match_base_plist.h"
#include "ompi/mpiext/graphs/c/graphs_engine.h"
#include "ompi/runtime/ompi_async_progress.h"
#include "ompi/request/request_owner.h"

static int exec_progress(void);

/* Executions on the active list.  The progress callback is registered at
 * the first activation and stays registered until graphs_engine_progress_fini
 * (registering is expensive, and an MPIX_Iexecute per message would otherwise
 * register and unregister every time); with nothing active it returns after
 * one load. */
static opal_mutex_t exec_active_lock = OPAL_MUTEX_STATIC_INIT;
static mca_match_base_plist_t exec_active = MCA_MATCH_BASE_PLIST_INIT(&exec_active_lock,
                                                                      exec_progress);
#define EXEC_ITEM offsetof(graphs_engine_t, active_item)

opal_atomic_int32_t graphs_engine_signal = 0;
/* the signal's value at the start of the last sweep of the active list */
static int32_t exec_seen = -1;
/* running nodes marked GRAPHS_ENGINE_POLLED */
static opal_atomic_int32_t exec_npolled = 0;
/* with threads, a request's completion can bump the signal just before it
 * is seen complete (ompi_request_complete calls back first), and the sweep
 * that looked at it in between misses it: every EXEC_SWEEP_EVERY calls a
 * sweep looks anyway */
#define EXEC_SWEEP_EVERY 8
static uint32_t exec_calls = 0;

/* node flags that need a check before the node starts */
#define EXEC_SPECIAL_FLAGS \
    (GRAPHS_ENGINE_BLOCKING | GRAPHS_ENGINE_COLL | GRAPHS_ENGINE_COLL_ITEM)

/* one sweep of the active list */
typedef struct {
    int32_t signal; /**< graphs_engine_signal when it began */
    int events;     /**< starts and completions of nodes */
    int ndone;      /**< executions completed */
} exec_sweep_t;

struct graphs_engine_worker_t {
    const graphs_engine_op_ops_t *ops;
    void *op;
    int rc;
    opal_atomic_int32_t done;
};

static void *exec_worker_main(void *arg)
{
    graphs_engine_worker_t *w = (graphs_engine_worker_t *) arg;
    ompi_request_t *reqs[GRAPHS_ENGINE_NODE_REQS];
    int nreqs = 0;

    w->rc = w->ops->start(w->op, reqs, &nreqs);
    /* publishes rc and what the operation wrote to the engine's thread,
     * whose acquire load of done pairs with it (graphs_engine_step) */
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
    graphs_engine_poke();
    return NULL;
}

/* start a blocking-only node on a detached thread of its own; false when
 * the library is not thread safe or no thread could be made */
static bool exec_start_worker(graphs_engine_node_t *node)
{
    graphs_engine_worker_t *w;
    pthread_attr_t attr;
    pthread_t th;
    int ret;

    if (!opal_using_threads() || NULL == (w = malloc(sizeof(*w)))) {
        return false;
    }
    w->ops = node->ops;
    w->op = node->op;
    w->rc = MPI_SUCCESS;
    w->done = 0;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    ret = pthread_create(&th, &attr, exec_worker_main, w);
    pthread_attr_destroy(&attr);
    if (0 != ret) {
        free(w);
        return false;
    }
    node->worker = w;
    return true;
}

/* no nodes, no error: what a new execution and a reset one share */
static void exec_clear(graphs_engine_t *exec)
{
    exec->nnodes = exec->lo = exec->running = exec->unchained = 0;
    exec->unchained_all = 0;
    exec->retired = 0;
    exec->error = MPI_SUCCESS;
    exec->error_node = -1;
    exec->coll_count = exec->coll_next = 0;
    exec->cancelled = false;
}

void graphs_engine_init(graphs_engine_t *exec, bool open, graphs_engine_done_fn_t done_cb,
                        graphs_engine_progressed_fn_t progressed_cb, void *cbdata)
{
    OBJ_CONSTRUCT(&exec->lock, opal_mutex_t);
    exec->nodes = NULL;
    exec->cap = 0;
    exec_clear(exec);
    exec->open = open;
    exec->paused = false;
    exec->advancing = false;
    exec->active = false;
    exec->active_item.next = exec->active_item.prev = NULL;
    exec->done_cb = done_cb;
    exec->progressed_cb = progressed_cb;
    exec->cbdata = cbdata;
}

static void exec_drop_nodes(graphs_engine_t *exec, int32_t from, int32_t to)
{
    for (int32_t i = from; i < to; ++i) {
        graphs_engine_node_t *node = &exec->nodes[i];
        if (NULL != node->op) {
            node->ops->release(node->op);
            node->op = NULL;
        }
        if (1 < node->nsucc) {
            free(node->succ.many);
        }
        node->nsucc = 0;
    }
}

void graphs_engine_reset(graphs_engine_t *exec)
{
    exec_drop_nodes(exec, 0, exec->nnodes);
    exec_clear(exec);
}

bool graphs_engine_rewind(graphs_engine_t *exec)
{
    if (exec->open || exec->advancing || 0 != exec->running) {
        return false;
    }
    /* nothing runs: every node is done or never started, with no request
     * (exec_node_done cleared nreqs) */
    for (int32_t i = 0; i < exec->nnodes; ++i) {
        graphs_engine_node_t *node = &exec->nodes[i];
        node->state = GRAPHS_ENGINE_WAITING;
        node->deps_left = node->ndeps;
    }
    exec->lo = 0;
    exec->unchained = exec->unchained_all;
    exec->error = MPI_SUCCESS;
    exec->error_node = -1;
    exec->coll_next = 0;
    exec->cancelled = false;
    return true;
}

void graphs_engine_fini(graphs_engine_t *exec)
{
    graphs_engine_reset(exec);
    free(exec->nodes);
    exec->nodes = NULL;
    exec->cap = 0;
    OBJ_DESTRUCT(&exec->lock);
}

static int exec_add_succ(graphs_engine_node_t *node, int32_t succ)
{
    if (0 == node->nsucc) {
        node->succ.one = succ;
    } else if (1 == node->nsucc) {
        int32_t *many = malloc(4 * sizeof(int32_t));
        if (NULL == many) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        many[0] = node->succ.one;
        many[1] = succ;
        node->succ.many = many;
    } else {
        /* capacity doubles at each power of two */
        if (node->nsucc >= 4 && 0 == (node->nsucc & (node->nsucc - 1))) {
            int32_t *many = realloc(node->succ.many, 2 * node->nsucc * sizeof(int32_t));
            if (NULL == many) {
                return OMPI_ERR_OUT_OF_RESOURCE;
            }
            node->succ.many = many;
        }
        node->succ.many[node->nsucc] = succ;
    }
    node->nsucc++;
    return OMPI_SUCCESS;
}

int graphs_engine_add(graphs_engine_t *exec, const graphs_engine_op_ops_t *ops, void *op,
                      uint16_t flags, int ndeps, const int *deps, bool fifo)
{
    graphs_engine_node_t *node;
    int32_t idx;

    if (exec->nnodes == exec->cap) {
        int32_t cap = exec->cap ? 2 * exec->cap : 4;
        graphs_engine_node_t *nodes = realloc(exec->nodes, cap * sizeof(*nodes));
        if (NULL == nodes) {
            return -1;
        }
        exec->nodes = nodes;
        exec->cap = cap;
    }
    idx = exec->nnodes;
    node = &exec->nodes[idx];
    node->ops = ops;
    node->op = op;
    node->worker = NULL;
    node->nreqs = 0;
    node->state = GRAPHS_ENGINE_WAITING;
    node->flags = flags & ~GRAPHS_ENGINE_CHAINED;
    node->coll_seq = (flags & (GRAPHS_ENGINE_COLL | GRAPHS_ENGINE_COLL_ITEM))
                         ? exec->coll_count++ : -1;
    node->deps_left = 0;
    node->nsucc = 0;
    if (fifo && idx > 0 && GRAPHS_ENGINE_DONE != exec->nodes[idx - 1].state) {
        if (OMPI_SUCCESS != exec_add_succ(&exec->nodes[idx - 1], idx)) {
            return -1;
        }
        node->deps_left++;
    }
    for (int i = 0; i < ndeps; ++i) {
        int d = deps[i];
        if (0 <= d && d < idx && GRAPHS_ENGINE_DONE != exec->nodes[d].state) {
            if (OMPI_SUCCESS != exec_add_succ(&exec->nodes[d], idx)) {
                /* out of memory in the middle of a graph build: the caller
                 * discards the whole execution */
                return -1;
            }
            node->deps_left++;
        }
    }
    node->ndeps = node->deps_left;
    if (fifo && 0 == ndeps) {
        node->flags |= GRAPHS_ENGINE_CHAINED;
    } else {
        exec->unchained++;
        exec->unchained_all++;
    }
    exec->nnodes++;
    if (exec->active) {
        graphs_engine_poke();
    }
    return idx;
}

static inline void exec_node_done(graphs_engine_t *exec, int32_t idx, int rc)
{
    graphs_engine_node_t *node = &exec->nodes[idx];

    node->state = GRAPHS_ENGINE_DONE;
    node->nreqs = 0;
    if (!(node->flags & GRAPHS_ENGINE_CHAINED)) {
        exec->unchained--;
    }
    if (OPAL_UNLIKELY(node->flags & (GRAPHS_ENGINE_COLL_ITEM | GRAPHS_ENGINE_POLLED))) {
        if (node->flags & GRAPHS_ENGINE_COLL_ITEM) {
            /* a compound collective item lets the next collective start
             * only once it completed */
            exec->coll_next++;
        }
        if (node->flags & GRAPHS_ENGINE_POLLED) {
            node->flags &= ~GRAPHS_ENGINE_POLLED;
            (void) OPAL_THREAD_ADD_FETCH32(&exec_npolled, -1);
        }
    }
    if (MPI_SUCCESS != rc && MPI_SUCCESS == exec->error) {
        exec->error = rc;
        exec->error_node = (int) (exec->retired + (uint64_t) idx);
    }
    if (1 == node->nsucc) {
        exec->nodes[node->succ.one].deps_left--;
    } else {
        for (int32_t s = 0; s < node->nsucc; ++s) {
            exec->nodes[node->succ.many[s]].deps_left--;
        }
    }
    /* the node keeps its operation until the execution is reset, so that a
     * persistent execution can be inspected; a stream drops it now (the
     * token was consumed by the enqueue) */
    if (exec->open && NULL != node->op) {
        node->ops->release(node->op);
        node->op = NULL;
    }
}

static inline bool exec_reqs_complete(ompi_request_t *const *reqs, int nreqs)
{
    for (int r = 0; r < nreqs; ++r) {
        if (!graphs_engine_req_done(reqs[r])) {
            return false;
        }
    }
    return true;
}

static int exec_req_completed(ompi_request_t *req)
{
    (void) req;
    graphs_engine_poke();
    return 0;
}

/* have the completions of reqs poke the progress callback; true when one
 * carries a completion callback of its owner's (it must be polled) */
static inline bool exec_watch(ompi_request_t *const *reqs, int nreqs)
{
    bool polled = false;

    for (int r = 0; r < nreqs; ++r) {
        ompi_request_t *req = reqs[r];
        if (ompi_request_seen_complete(req)) {
            /* a callback set now would stay on it after it is freed */
            continue;
        }
        ompi_request_complete_fn_t cb = __atomic_load_n(&req->req_complete_cb,
                                                        __ATOMIC_RELAXED);
        if (NULL == cb) {
            /* the request may complete in another thread, which reads the
             * callback (ompi_request_complete): the release store
             * publishes this execution's state written before it */
            __atomic_store_n(&req->req_complete_cb, exec_req_completed, __ATOMIC_RELEASE);
        } else if (exec_req_completed != cb) {
            polled = true;
        }
    }
    if (OPAL_UNLIKELY(opal_using_threads())) {
        /* completed in another thread before its callback was set: nobody
         * poked for it */
        opal_atomic_mb();
        if (exec_reqs_complete(reqs, nreqs)) {
            graphs_engine_poke();
        }
    }
    return polled;
}

/* a node now running on requests: have their completions poke the progress
 * callback (a sub-execution's own nodes do that for it); out of line, as a
 * node often completes in its start and never comes here */
static __opal_attribute_noinline__ void exec_node_watch(graphs_engine_node_t *node)
{
    if (NULL != node->ops->progress) {
        return;
    }
    if (exec_watch(node->reqs, node->nreqs) && !(node->flags & GRAPHS_ENGINE_POLLED)) {
        node->flags |= GRAPHS_ENGINE_POLLED;
        (void) OPAL_THREAD_ADD_FETCH32(&exec_npolled, 1);
    }
}

bool graphs_engine_watch(ompi_request_t *const *reqs, int nreqs)
{
    if (exec_watch(reqs, nreqs)) {
        (void) OPAL_THREAD_ADD_FETCH32(&exec_npolled, 1);
        return true;
    }
    return false;
}

void graphs_engine_unpoll(void)
{
    (void) OPAL_THREAD_ADD_FETCH32(&exec_npolled, -1);
}

void graphs_engine_cancel_reqs(ompi_request_t *const *reqs, int nreqs)
{
    for (int r = 0; r < nreqs; ++r) {
        if (!ompi_request_seen_complete(reqs[r]) && NULL != reqs[r]->req_cancel) {
            (void) ompi_request_cancel(reqs[r]);
        }
    }
}

void graphs_engine_ft_check(graphs_engine_t *exec)
{
#if OPAL_ENABLE_FT_MPI
    OPAL_THREAD_LOCK(&exec->lock);
    for (int32_t i = exec->lo; i < exec->nnodes; ++i) {
        graphs_engine_node_t *node = &exec->nodes[i];
        if (GRAPHS_ENGINE_RUNNING != node->state || NULL != node->worker) {
            continue;
        }
        for (int r = 0; r < node->nreqs; ++r) {
            (void) graphs_engine_req_done(node->reqs[r]);
        }
    }
    OPAL_THREAD_UNLOCK(&exec->lock);
    /* a request that ended completed without its completion callback's
     * poke when it had an owner's callback: sweep once */
    graphs_engine_poke();
#else
    (void) exec;
#endif
}

int graphs_engine_step(graphs_engine_t *exec, bool may_block)
{
    int events = 0, progress;
    bool held_back;

    if (exec->advancing) {
        return 0;
    }
    exec->advancing = true;
    do {
        /* nodes a goto appends during this pass start in the next one */
        int32_t grown_from = exec->nnodes;
        progress = 0;
        held_back = false;
        for (int32_t i = exec->lo; i < grown_from; ++i) {
            graphs_engine_node_t *node = &exec->nodes[i];
            if (GRAPHS_ENGINE_RUNNING == node->state) {
                if (NULL != node->ops->progress && NULL == node->worker) {
                    /* a sub-execution: may append nodes to this one (goto),
                     * so the node is looked up again */
                    progress += node->ops->progress(node->op, may_block);
                    node = &exec->nodes[i];
                }
                if (NULL != node->worker) {
                    if (__atomic_load_n(&node->worker->done, __ATOMIC_ACQUIRE)) {
                        int rc = node->worker->rc;
                        free(node->worker);
                        node->worker = NULL;
                        exec->running--;
                        exec_node_done(exec, i, rc);
                        progress++;
                    }
                } else if (exec_reqs_complete(node->reqs, node->nreqs)) {
                    int rc = node->ops->finish(node->op, node->reqs, node->nreqs);
                    exec->running--;
                    exec_node_done(exec, i, rc);
                    progress++;
                }
            } else if (GRAPHS_ENGINE_WAITING == node->state) {
                int nreqs = 0, rc;
                if (0 != node->deps_left) {
                    if (0 == exec->unchained) {
                        /* a pure chain: the rest waits on this node */
                        break;
                    }
                    continue;
                }
                if (MPI_SUCCESS != exec->error || exec->paused) {
                    continue;
                }
                /* collective and blocking-only nodes have rules of their own
                 * (only they have a collective rank: coll_seq) */
                if (OPAL_UNLIKELY(node->flags & EXEC_SPECIAL_FLAGS)) {
                    if (0 <= node->coll_seq && node->coll_seq != exec->coll_next) {
                        /* a collective with a lower rank has not started */
                        held_back = true;
                        continue;
                    }
                    if ((node->flags & GRAPHS_ENGINE_BLOCKING) && !may_block) {
                        if (exec_start_worker(node)) {
                            node->state = GRAPHS_ENGINE_RUNNING;
                            exec->running++;
                            progress++;
                            if (node->flags & GRAPHS_ENGINE_COLL) {
                                exec->coll_next++;
                            }
                        }
                        continue;
                    }
                    if (node->flags & GRAPHS_ENGINE_COLL) {
                        exec->coll_next++;
                    }
                }
                {
                    /* start may append nodes (a goto): the array may move */
                    ompi_request_t *reqs[GRAPHS_ENGINE_NODE_REQS];
                    rc = node->ops->start(node->op, reqs, &nreqs);
                    node = &exec->nodes[i];
                    for (int r = 0; r < nreqs; ++r) {
                        node->reqs[r] = reqs[r];
                    }
                }
                progress++;
                if (MPI_SUCCESS != rc || 0 == nreqs) {
                    exec_node_done(exec, i, rc);
                    if (i == exec->lo) {
                        /* done at once at the head (a fan-out of small
                         * sends): no second walk over it below */
                        exec->lo = i + 1;
                    }
                } else {
                    node->nreqs = (uint8_t) nreqs;
                    node->state = GRAPHS_ENGINE_RUNNING;
                    exec->running++;
                    /* a small message is often complete at once: finish it
                     * in this pass so that its successor starts now */
                    if (exec_reqs_complete(node->reqs, node->nreqs)) {
                        rc = node->ops->finish(node->op, node->reqs, node->nreqs);
                        exec->running--;
                        exec_node_done(exec, i, rc);
                    } else {
                        exec_node_watch(node);
                    }
                }
            }
        }
        while (exec->lo < exec->nnodes && GRAPHS_ENGINE_DONE == exec->nodes[exec->lo].state) {
            exec->lo++;
        }
        events += progress;
        if (exec->nnodes != grown_from && !exec->open) {
            /* a goto re-activated part of the graph: one round per call, so
             * that an endless loop still returns to the caller (and can be
             * cancelled); the next progress call goes on */
            graphs_engine_poke();
            break;
        }
        /* another pass finds something to do only where a collective
         * waited for one that started after it in this pass: a node made
         * ready by a completion comes later in the array than the node
         * that completed, and was started in this pass; a running node's
         * requests complete in a later progress call, which pokes */
    } while (0 != progress && held_back);
    if (exec->open && exec->lo == exec->nnodes && 0 < exec->nnodes) {
        /* a stream in steady state reuses the same few slots */
        exec_drop_nodes(exec, 0, exec->nnodes);
        exec->retired += (uint64_t) exec->nnodes;
        exec->nnodes = exec->lo = exec->unchained_all = 0;
    }
    exec->advancing = false;
    return events;
}

int graphs_engine_track(graphs_engine_t *exec, const graphs_engine_op_ops_t *ops, void *op,
                        ompi_request_t **reqs, int nreqs)
{
    /* idle: as a link of a chain it adds no dependency */
    int idx = graphs_engine_add(exec, ops, op, 0, 0, NULL, true);

    if (0 <= idx) {
        graphs_engine_node_t *node = &exec->nodes[idx];
        for (int r = 0; r < nreqs; ++r) {
            node->reqs[r] = reqs[r];
        }
        node->nreqs = (uint8_t) nreqs;
        node->state = GRAPHS_ENGINE_RUNNING;
        exec->running++;
        exec_node_watch(node);
        return 0;
    }
    /* no room to track it: wait for it here, and fail */
    for (int r = 0; r < nreqs; ++r) {
        (void) ompi_request_wait_completion(reqs[r]);
    }
    (void) ops->finish(op, reqs, nreqs);
    graphs_engine_retire_now(exec, MPI_ERR_NO_MEM);
    ops->release(op);
    return 1;
}

void graphs_engine_cancel(graphs_engine_t *exec)
{
    exec->cancelled = true;
    if (MPI_SUCCESS == exec->error) {
        exec->error = MPI_ERR_PENDING;
        exec->error_node = -1;
    }
    for (int32_t i = exec->lo; i < exec->nnodes; ++i) {
        graphs_engine_node_t *node = &exec->nodes[i];
        if (GRAPHS_ENGINE_RUNNING != node->state || NULL != node->worker) {
            continue;
        }
        if (NULL != node->ops->cancel) {
            node->ops->cancel(node->op);
        }
        graphs_engine_cancel_reqs(node->reqs, node->nreqs);
    }
    /* with nothing running, the execution is complete now: the next sweep
     * must see it */
    graphs_engine_poke();
}

int graphs_engine_activate(graphs_engine_t *exec)
{
    OPAL_THREAD_LOCK(&exec_active_lock);
    if (exec->active) {
        /* appended to while active: the next sweep looks at it again */
        graphs_engine_poke();
        OPAL_THREAD_UNLOCK(&exec_active_lock);
        return OMPI_SUCCESS;
    }
    mca_match_base_plist_progress_on(&exec_active);
    exec->active = true;
    mca_match_base_plist_push(&exec_active, exec, EXEC_ITEM);
    opal_atomic_wmb();
    if (1 == exec_active.count) {
        ompi_async_progress_busy_add(1);
    }
    /* under the lock: a sweep that takes this signal finds the execution
     * on the list */
    graphs_engine_poke();
    OPAL_THREAD_UNLOCK(&exec_active_lock);
    /* a strong-progress thread that backed off into a sleep takes it now,
     * not at the end of its sleep */
    ompi_async_progress_wake();
    return OMPI_SUCCESS;
}

/* active lock held: exec leaves the list, on which remaining others stay */
static void exec_leave(graphs_engine_t *exec, int32_t remaining)
{
    if (0 == remaining) {
        ompi_async_progress_busy_add(-1);
    }
    exec->active = false;
}

void graphs_engine_deactivate(graphs_engine_t *exec)
{
    OPAL_THREAD_LOCK(&exec_active_lock);
    if (exec->active) {
        mca_match_base_plist_remove(&exec_active, exec, EXEC_ITEM);
        exec_leave(exec, exec_active.count);
    }
    OPAL_THREAD_UNLOCK(&exec_active_lock);
}

static int exec_sweep_begin(void *ctx)
{
    __atomic_store_n(&exec_seen, ((exec_sweep_t *) ctx)->signal, __ATOMIC_RELAXED);
    return 0;
}

/* active lock held: advance one active execution.  One that leaves is
 * marked inactive here, under its own lock, so that an enqueue cannot miss
 * the removal: the list drops it before the active lock is released, and
 * an activation waits for that lock. */
static mca_match_base_plist_verdict_t exec_sweep_one(void *ctx, void *obj)
{
    exec_sweep_t *sweep = (exec_sweep_t *) ctx;
    graphs_engine_t *exec = (graphs_engine_t *) obj;
    mca_match_base_plist_verdict_t verdict = MCA_MATCH_BASE_PLIST_KEEP;

    if (0 != OPAL_THREAD_TRYLOCK(&exec->lock)) {
        /* not looked at: the next call does */
        graphs_engine_poke();
        return MCA_MATCH_BASE_PLIST_KEEP;
    }
    if (exec->advancing) {
        /* this thread is inside this execution already (a callback
         * that made a progressing MPI call) */
        OPAL_THREAD_UNLOCK(&exec->lock);
        graphs_engine_poke();
        return MCA_MATCH_BASE_PLIST_KEEP;
    }
    sweep->events += graphs_engine_step(exec, false);
    if (exec->open) {
        if (NULL != exec->progressed_cb) {
            exec->progressed_cb(exec, exec->cbdata);
        }
        /* an idle or failed stream leaves the list until its next
         * enqueue or resume */
        if (0 == exec->running && (exec->lo == exec->nnodes || MPI_SUCCESS != exec->error)) {
            verdict = MCA_MATCH_BASE_PLIST_DROP;
        }
    } else if (graphs_engine_complete(exec)) {
        verdict = MCA_MATCH_BASE_PLIST_DONE;
    }
    if (MCA_MATCH_BASE_PLIST_KEEP != verdict) {
        exec_leave(exec, exec_active.count - 1);
    }
    OPAL_THREAD_UNLOCK(&exec->lock);
    return verdict;
}

/* no lock held: hand a completed execution to its owner */
static void exec_sweep_done(void *ctx, void *obj)
{
    graphs_engine_t *exec = (graphs_engine_t *) obj;

    ((exec_sweep_t *) ctx)->ndone++;
    exec->done_cb(exec, exec->cbdata);
}

/* advance every active execution (out of line: the frame it needs is not
 * set up for a poll that finds nothing to do) */
static __opal_attribute_noinline__ int exec_sweep(int32_t signal)
{
    exec_sweep_t sweep = {.signal = signal, .events = 0, .ndone = 0};

    (void) mca_match_base_plist_progress(&exec_active, EXEC_ITEM, exec_sweep_begin,
                                         exec_sweep_one, exec_sweep_done, &sweep);
    if (MCA_MATCH_BASE_PLIST_BATCH == sweep.ndone) {
        /* the rest of the list may not have been looked at */
        graphs_engine_poke();
    }
    return sweep.events + sweep.ndone;
}

/* a load and a store, not a locked increment: this runs at every progress
 * call, and a count lost to another thread's call does no harm */
static inline uint32_t exec_count_call(void)
{
    uint32_t calls = __atomic_load_n(&exec_calls, __ATOMIC_RELAXED) + 1;

    __atomic_store_n(&exec_calls, calls, __ATOMIC_RELAXED);
    return calls;
}

static int exec_progress(void)
{
    int32_t signal;

    if (0 == mca_match_base_plist_count(&exec_active)) {
        return 0;
    }
    /* nothing completed or poked since the last sweep: nothing to do (a
     * poll of a waiting execution costs a few loads).  Every word here is
     * peeked at without the lock, with relaxed atomic loads: a stale value
     * only moves the sweep to a later call, and the signal read before the
     * sweep is the one the sweep records (exec_sweep_begin), so that a
     * completion signalled meanwhile is seen by the next call. */
    signal = __atomic_load_n(&graphs_engine_signal, __ATOMIC_ACQUIRE);
    if (signal == __atomic_load_n(&exec_seen, __ATOMIC_RELAXED)
        && 0 == __atomic_load_n(&exec_npolled, __ATOMIC_RELAXED)
        && (!opal_using_threads() || 0 != (exec_count_call() % EXEC_SWEEP_EVERY))) {
        return 0;
    }
    return exec_sweep(signal);
}

void graphs_engine_drive(graphs_engine_t *exec)
{
    opal_progress();
    OPAL_THREAD_LOCK(&exec->lock);
    (void) graphs_engine_advance(exec, true);
    OPAL_THREAD_UNLOCK(&exec->lock);
}

void graphs_engine_progress_fini(void)
{
    OPAL_THREAD_LOCK(&exec_active_lock);
    if (0 < mca_match_base_plist_count(&exec_active)) {
        ompi_async_progress_busy_add(-1);
    }
    mca_match_base_plist_progress_off(&exec_active);
    OPAL_THREAD_UNLOCK(&exec_active_lock);
}
