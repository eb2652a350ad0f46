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
 * The dependency executor: runs a set of nodes, each an operation that is
 * started once every node it depends on has completed.  A FIFO (an MPIX
 * stream) is the special case where each node depends on the one appended
 * before it; a DAG (an MPIX graph execution) gives each node any number of
 * predecessors.  The executor knows nothing of MPI operations: a node is an
 * opaque operation with a table of functions (graphs_engine_op_ops_t)
 * supplied by its user (the graphs extension).
 *
 * An execution is advanced by graphs_engine_advance(), called by the
 * executor's progress callback for every active execution (so by any thread
 * in opal_progress, including the strong-progress thread) and by the
 * blocking calls that drive one execution.  From the first failure on, an
 * execution starts nothing more; running nodes are left to complete.
 */

#ifndef OMPI_MPIEXT_GRAPHS_ENGINE_H
#define OMPI_MPIEXT_GRAPHS_ENGINE_H

#include "ompi_config.h"

#include "opal/mca/threads/mutex.h"
#include "opal/mca/threads/thread_usage.h"
#include "ompi/mca/match/base/match_base_plist.h"
#include "ompi/request/request.h"
#include "ompi/request/request_owner.h"
#include "ompi/runtime/params.h"

BEGIN_C_DECLS

/** Whether an internal request of a node is done: complete, or, under ULFM,
 * ended in error by a dead peer or a revoked communicator (nobody else
 * waits for it, so nobody else would ask). */
static inline bool graphs_engine_req_done(ompi_request_t *req)
{
    if (OPAL_LIKELY(ompi_request_seen_complete(req))) {
        return true;
    }
#if OPAL_ENABLE_FT_MPI
    return ompi_request_is_failed(req);
#else
    return false;
#endif
}

/** Internal requests one node may wait for (a sendrecv has two). */
#define GRAPHS_ENGINE_NODE_REQS 2

/** The node's operation may block (MPI_File_open): never started from a
 * progress callback.  A caller of graphs_engine_advance() that passes
 * may_block starts it in its own thread; otherwise, when the library is
 * thread safe, a worker thread does (the start function is then called
 * without the execution's lock, and must return with no internal request);
 * otherwise it waits for a caller that may block. */
#define GRAPHS_ENGINE_BLOCKING 0x1
/** A collective operation: collective nodes of one execution are started in
 * the order they were appended (MPI's rule that collectives start in the
 * same order on every process; spec 2.6). */
#define GRAPHS_ENGINE_COLL 0x2
/** A compound node that contains collectives (a sub-graph): counts as one
 * collective that must complete before the next collective starts. */
#define GRAPHS_ENGINE_COLL_ITEM 0x4

/** Set by the executor on a running node whose requests it cannot be told
 * about (one has a completion callback of its owner's): while such a node
 * runs, every progress call looks at every active execution. */
#define GRAPHS_ENGINE_POLLED 0x4000

/** Set by the executor on a node whose only dependency is the node appended
 * before it (a stream's token): while every pending node is such a link, a
 * waiting node ends the scan, as nothing after it can be ready. */
#define GRAPHS_ENGINE_CHAINED 0x8000

typedef struct graphs_engine_t graphs_engine_t;

/**
 * What a node runs.  Every function is called with the execution's lock
 * held, in the thread advancing it (a progress callback, the strong-progress
 * thread, or the application thread in a blocking call).
 */
typedef struct graphs_engine_op_ops_t {
    /**
     * Start the operation.
     *
     * @param[in]  op     the node's operation
     * @param[out] reqs   internal requests the executor polls
     * @param[out] nreqs  how many (0: the operation completed in the call)
     * @return MPI_SUCCESS, or an MPI error class: the operation failed (its
     *         requests, if any, are already released)
     */
    int (*start)(void *op, ompi_request_t **reqs, int *nreqs);
    /**
     * Every internal request of the node has completed: collect the results
     * (statuses, OUT arguments) and release the requests.
     *
     * @return MPI_SUCCESS or the operation's MPI error class
     */
    int (*finish)(void *op, ompi_request_t **reqs, int nreqs);
    /** The node no longer needs op (drop the reference it held). */
    void (*release)(void *op);
    /**
     * Optional (NULL): advance a running node that is itself an execution
     * (a sub-graph), before its requests are polled; lock held.
     *
     * @return number of events
     */
    int (*progress)(void *op, bool may_block);
    /** Optional (NULL): cancel a running compound node (its sub-execution). */
    void (*cancel)(void *op);
} graphs_engine_op_ops_t;

typedef enum {
    GRAPHS_ENGINE_WAITING = 0,  /**< dependencies outstanding, or not started yet */
    GRAPHS_ENGINE_RUNNING = 1,
    GRAPHS_ENGINE_DONE = 2,
} graphs_engine_node_state_t;

/** A blocking-only node started on a worker thread. */
typedef struct graphs_engine_worker_t graphs_engine_worker_t;

typedef struct graphs_engine_node_t {
    const graphs_engine_op_ops_t *ops;
    void *op;
    graphs_engine_worker_t *worker;  /**< running on a worker thread, or NULL */
    ompi_request_t *reqs[GRAPHS_ENGINE_NODE_REQS];
    uint8_t nreqs;
    uint8_t state;           /**< graphs_engine_node_state_t */
    uint16_t flags;          /**< GRAPHS_ENGINE_BLOCKING, _COLL, _COLL_ITEM */
    int32_t coll_seq;        /**< collective nodes: rank among them, in append order */
    int32_t deps_left;       /**< predecessors not completed */
    int32_t ndeps;           /**< predecessors pending when appended (graphs_engine_rewind) */
    int32_t nsucc;
    union {
        int32_t one;         /**< nsucc == 1 */
        int32_t *many;       /**< nsucc > 1 */
    } succ;
} graphs_engine_node_t;

/**
 * Called by the progress callback, with no lock held, once an execution that
 * is not open (see graphs_engine_init) has completed; the execution has
 * already left the active list, so cb may free it.
 */
typedef void (*graphs_engine_done_fn_t)(graphs_engine_t *exec, void *cbdata);

/**
 * Called by the progress callback with the execution's lock held each time
 * it advanced an open execution (a stream: to complete isync requests).
 */
typedef void (*graphs_engine_progressed_fn_t)(graphs_engine_t *exec, void *cbdata);

struct graphs_engine_t {
    opal_mutex_t lock;
    graphs_engine_node_t *nodes;
    int32_t nnodes, cap;
    int32_t lo;              /**< every node below lo is done */
    int32_t running;
    int32_t unchained;       /**< nodes not done that lack GRAPHS_ENGINE_CHAINED */
    int32_t unchained_all;   /**< nodes that lack it, done or not (graphs_engine_rewind) */
    uint64_t retired;        /**< nodes done and dropped from nodes[] (open executions) */
    int error;               /**< first failure (MPI error class) */
    int error_node;          /**< its node index (retired + index), -1 */
    int32_t coll_count;      /**< collective nodes appended */
    int32_t coll_next;       /**< the collective node allowed to start next */
    bool cancelled;          /**< graphs_engine_cancel was called */
    bool open;               /**< a stream: nodes keep being appended, never "complete" */
    bool paused;             /**< start nothing (MPIX_Stream_pause) */
    bool advancing;          /**< inside advance (the lock is a no-op without threads) */
    bool active;             /**< in the active list */
    mca_match_base_plist_item_t active_item;
    graphs_engine_done_fn_t done_cb;
    graphs_engine_progressed_fn_t progressed_cb;
    void *cbdata;
};

/** Prepare an execution (empty).  open: a stream (see above). */
void graphs_engine_init(graphs_engine_t *exec, bool open,
                        graphs_engine_done_fn_t done_cb,
                        graphs_engine_progressed_fn_t progressed_cb,
                        void *cbdata);

/** Release the nodes (none may be running) and the lock. */
void graphs_engine_fini(graphs_engine_t *exec);

/** Drop every node (none running) and the error: ready for a new execution. */
void graphs_engine_reset(graphs_engine_t *exec);

/**
 * Ready the same nodes for a new execution: every node waiting again on
 * the predecessors it had when appended, no error, the collective order
 * from its start; the operations are kept (their owner re-arms them).
 * Cheaper than reset + appending them again (a persistent graph execution,
 * a loop's next iteration).  Not for open executions.
 *
 * @return false, changing nothing, when a node is running
 */
bool graphs_engine_rewind(graphs_engine_t *exec);

/**
 * Append a node.  Lock held by the caller (or the execution not yet
 * shared).  The node depends on the ndeps node indices in deps (those still
 * held in nodes[]; retired ones count as complete).
 *
 * @param[in] fifo  depend on the node appended before, if still pending
 *                  (streams), in addition to deps
 * @return node index or -1 (out of memory; nothing changed)
 */
int graphs_engine_add(graphs_engine_t *exec, const graphs_engine_op_ops_t *ops,
                      void *op, uint16_t flags, int ndeps, const int *deps,
                      bool fifo);

/**
 * Fast path of an operation that may start at once (graphs_engine_idle,
 * not blocking-only): the caller starts it itself, lock held.  If its
 * requests completed in the call, it finishes it and calls
 * graphs_engine_retire_now; otherwise this makes the running requests a
 * running node, as if appended and started by advance.  When no node can be
 * made, the requests are waited for here and the operation fails with
 * MPI_ERR_NO_MEM (counted done, op released).
 *
 * @return 0: running; 1: completed (failed)
 */
int graphs_engine_track(graphs_engine_t *exec,
                        const graphs_engine_op_ops_t *ops, void *op,
                        ompi_request_t **reqs, int nreqs);

/**
 * An operation that the caller of the fast path (see graphs_engine_track)
 * ran to completion itself, with its result rc: count it done (and dropped)
 * and record a failure.  The caller releases the operation.  Lock held.
 */
static inline void graphs_engine_retire_now(graphs_engine_t *exec, int rc)
{
    if (OPAL_UNLIKELY(MPI_SUCCESS != rc) && MPI_SUCCESS == exec->error) {
        exec->error = rc;
        exec->error_node = (int) (exec->retired + (uint64_t) exec->nnodes);
    }
    exec->retired++;
}

/** Whether the fast path (graphs_engine_track) may be taken now. */
static inline bool graphs_engine_idle(const graphs_engine_t *exec)
{
    return exec->lo == exec->nnodes && 0 == exec->running && MPI_SUCCESS == exec->error
           && !exec->paused && !exec->advancing;
}

/**
 * One advance of the execution (see graphs_engine_advance) without
 * telling the progress callback: for the callback itself, and for
 * executions it never looks at (a sub-execution, advanced by its parent).
 * Lock held by the caller.
 *
 * @param[in] may_block  blocking-only nodes may start (not in progress)
 * @return number of events (starts and completions)
 */
int graphs_engine_step(graphs_engine_t *exec, bool may_block);

/** Completed: every node done, or a failure and nothing running (closed executions). */
static inline bool graphs_engine_complete(const graphs_engine_t *exec)
{
    return 0 == exec->running && (exec->lo == exec->nnodes || MPI_SUCCESS != exec->error);
}

/** Number of nodes completed since init/reset (open executions: FIFO position). */
static inline uint64_t graphs_engine_done_count(const graphs_engine_t *exec)
{
    return exec->retired + (uint64_t) exec->lo;
}

/** Nodes appended since init/reset. */
static inline uint64_t graphs_engine_total(const graphs_engine_t *exec)
{
    return exec->retired + (uint64_t) exec->nnodes;
}

/**
 * Put the execution on the active list: the progress callback advances it
 * until it completes (closed; then done_cb) or, open, until it is idle or
 * failed with nothing running (activate it again when appending).  Called
 * with the execution's lock held or before it is shared.
 */
int graphs_engine_activate(graphs_engine_t *exec);
void graphs_engine_deactivate(graphs_engine_t *exec);

/**
 * Cancel: start nothing more (the error becomes MPI_ERR_PENDING unless a
 * failure came first), cancel the internal requests of running nodes that
 * can be cancelled (receives) and running compound nodes.  Lock held.
 */
void graphs_engine_cancel(graphs_engine_t *exec);

/**
 * Requests that their owner runs outside any node (a loop whose body its
 * owner runs straight, one operation after the other): have their
 * completions poke the progress callback, as a running node's do.  Called
 * with the lock of the execution the owner belongs to held, once per
 * requests started, while none has been freed.
 *
 * @return false; true when one of them carries a completion callback of
 *         its own and cannot tell: every progress call then looks at
 *         every active execution until the owner calls
 *         graphs_engine_unpoll() (once, after they completed)
 */
bool graphs_engine_watch(ompi_request_t *const *reqs, int nreqs);

/** The requests of an graphs_engine_watch() that returned true completed. */
void graphs_engine_unpoll(void);

/**
 * Cancel those of reqs that are still pending and can be cancelled
 * (receives), as graphs_engine_cancel does for a running node's: for an
 * owner's requests run outside any node.  Lock held.
 */
void graphs_engine_cancel_reqs(ompi_request_t *const *reqs, int nreqs);

/**
 * Under ULFM (a waiter asks whether a failure ends the execution): ask each
 * pending internal request of the running nodes whether a dead peer or a
 * revoked communicator ends it.  One that ends completes in error, and the
 * progress callback then finishes its node as any other.  Any thread, no
 * lock held; nothing without ULFM support.
 */
void graphs_engine_ft_check(graphs_engine_t *exec);

/** Drive one execution from a blocking call: opal_progress once, then advance it (may_block). */
void graphs_engine_drive(graphs_engine_t *exec);

/**
 * Blocking-only nodes in a library that is not thread safe (spec 4.2): no
 * worker thread may start them and progress must not, so they wait for a
 * blocking call that drives their execution.  The owner of an execution
 * that a program waits for through a request (an MPIX execution request, a
 * stream's isync request) registers the pair for the request's life
 * (graphs_engine_hold): the executor is then an owner of that request
 * (ompi/request/request_owner.h) that drives, so MPI_Wait, MPI_Test and
 * their array forms advance a held execution with may_block, in the
 * program's thread, before completing its request, and in no unrelated MPI
 * call.
 *
 * Register exec as held, waited for through req.  Called by the owner, in
 * the thread that made the request, before the request is started.  One
 * execution may be held through several requests (a stream's isync
 * requests).
 *
 * @return OMPI_SUCCESS, or OMPI_ERR_OUT_OF_RESOURCE (nothing registered)
 */
int graphs_engine_hold(graphs_engine_t *exec, ompi_request_t *req);

/** The program freed req, the request of a held execution that still runs:
 * any MPI_Wait-family call (ANY or ALL) drives it from now on. */
void graphs_engine_orphan(graphs_engine_t *exec, ompi_request_t *req);

/** Unregister the pair (exec, req), or exec's orphan (the request is
 * released or completed); a no-op for a pair not held. */
void graphs_engine_unhold(graphs_engine_t *exec, ompi_request_t *req);

/** The executor stops being an owner of requests (finalization). */
void graphs_engine_held_fini(void);

/**
 * The progress callback looks at the active executions only when something
 * may have changed since it last did: a request of a running node completed
 * (the executor puts a completion callback on each), or one of the events
 * below poked it.  Bumped by graphs_engine_poke(); compared, never read
 * for its value.
 */
extern opal_atomic_int32_t graphs_engine_signal;

/**
 * Tell the progress callback that an execution has work it can do now
 * without waiting for a request: nodes appended to an active execution, a
 * loop that returned early to let other work progress, a worker thread done.
 * Any thread.  The executor pokes itself on activation, cancel, and an
 * advance of an active execution from outside the callback.
 */
static inline void graphs_engine_poke(void)
{
    (void) OPAL_THREAD_ADD_FETCH32(&graphs_engine_signal, 1);
}

/**
 * Start what the dependencies allow, retire what completed.  Lock held by
 * the caller.  An active execution that advanced here, outside the progress
 * callback (a blocking call, an enqueue), is looked at again by the
 * callback's next sweep, for its completion.
 *
 * @param[in] may_block  blocking-only nodes may start (not in progress)
 * @return number of events (starts and completions)
 */
static inline int graphs_engine_advance(graphs_engine_t *exec, bool may_block)
{
    int events = graphs_engine_step(exec, may_block);

    if (0 != events && exec->active) {
        graphs_engine_poke();
    }
    return events;
}

/** Unregister the progress callback (finalization; nothing may be active). */
void graphs_engine_progress_fini(void);

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_ENGINE_H */
