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
 * The channel base: what every channel component (sm, ucx, ofi) runs the
 * same way, so that a component supplies only its transport.
 *
 * - A *half* (mca_match_base_chan_half_t) is a channel's state for one
 *   side of a matched pair, the matched request's mr_chan.  A component's
 *   half type begins with it (its super).
 * - A *channel* (mca_match_base_chan_t) is a component's shared state: its
 *   lock, the active list (the halves whose start is under way, the only
 *   ones its progress callback looks at: idle pairs cost nothing), the
 *   open-once state of its transport and its stage table.
 * - The *stages* (mca_match_base_chan_stages_t) are what the transport
 *   supplies: post, poll, cancel, abort, reset, release.
 *
 * The base runs a start (activate the matched request, reset, post, and
 * onto the active list when not done), the progress callback (poll each
 * active half, complete the done ones once the lock is dropped, since a
 * completion may start another matched request), MPI_Cancel, the ULFM
 * abort and the release, through mca_match_channel_ops_t.  The hot paths
 * (start, progress) are inline and take the component's stage table, a
 * constant, so that the compiler calls the stages directly:
 * MCA_MATCH_BASE_CHAN_DEFINE makes them for a component.
 *
 * Also here: the free-slot stack of a component's slot table, and the
 * peer records a component keeps per peer process.
 */

#ifndef MCA_MATCH_BASE_CHAN_H
#define MCA_MATCH_BASE_CHAN_H

#include "ompi_config.h"

#include "opal/class/opal_hash_table.h"
#include "opal/class/opal_list.h"
#include "opal/datatype/opal_convertor.h"
#include "opal/mca/threads/mutex.h"
#include "ompi/mca/match/base/match_base_plist.h"
#include "ompi/mca/match/base/match_request.h"

BEGIN_C_DECLS

struct mca_match_base_chan_t;
struct ompi_proc_t;

/** One side of a channel: the matched request's mr_chan. */
typedef struct mca_match_base_chan_half_t {
    opal_object_t super;
    mca_match_base_plist_item_t item;  /**< on the channel's active list */
    struct mca_match_base_chan_t *chan; /**< the channel it belongs to */
    struct mca_match_request_t *owner; /**< the matched request it runs on */
    bool is_send;
    bool sync;                         /**< synchronous send */
    bool contiguous;                   /**< this side's data is one block at cptr */
    bool truncated;                    /**< receive: the sender's message is larger */
    size_t bytes;                      /**< moved per message: min of the two sides */
    unsigned char *cptr;               /**< contiguous data */
    struct ompi_datatype_t *datatype;  /**< retained: the program may free it */
    opal_convertor_t convertor;        /**< prepared for this side */
} mca_match_base_chan_half_t;

OMPI_DECLSPEC OBJ_CLASS_DECLARATION(mca_match_base_chan_half_t);

/** where a half's list item is */
#define MCA_MATCH_BASE_CHAN_ITEM offsetof(mca_match_base_chan_half_t, item)

/**
 * What a transport supplies: the stages of a half's start.  Every stage
 * takes the half; "lock held" is the channel's lock.
 */
typedef struct mca_match_base_chan_stages_t {
    /**
     * Optional (NULL: none).  Per-start state back to the beginning of a
     * message, before post.  Called in the thread that starts the matched
     * request (MPI_Start, an owner's start), without the lock; the base
     * has activated the request (its status MPI_SUCCESS).
     */
    void (*reset)(mca_match_base_chan_half_t *half);
    /**
     * Set the start's transfer off and move what can be moved at once.
     * Same thread as reset; under the lock when post_locked, else without
     * it (the half is not listed yet, so nothing else touches it).
     *
     * @retval true   the start is complete (MCA_MATCH_BASE_CHAN_STATUS)
     * @retval false  under way: the base puts the half on the active list
     */
    bool (*post)(mca_match_base_chan_half_t *half);
    /**
     * Advance an active half (the progress callback, any thread, lock
     * held).  Must not block.
     *
     * @retval true   complete: the base takes it off the list and, once
     *                the lock is dropped, completes the matched request
     *                with its status, truncated and bytes
     * @retval false  still under way
     */
    bool (*poll)(mca_match_base_chan_half_t *half);
    /**
     * Optional (NULL: a start is never cancelled).  MPI_Cancel of an active
     * half (the program's thread, lock held): take the transfer back if it
     * can be, dropping the transport's operations.
     *
     * @retval true   taken back: the base takes the half off the list and
     *                completes the request cancelled
     * @retval false  left to complete (MPI allows a cancel to fail)
     */
    bool (*cancel)(mca_match_base_chan_half_t *half);
    /**
     * Optional (NULL: nothing to do).  ULFM: the peer failed or the
     * communicator was revoked, and the base has taken the active half off
     * the list; drop the transport's operations in flight (any thread
     * that waits or tests, lock held).  The base then completes the
     * request in error (match_base_ft.c).
     */
    void (*abort)(mca_match_base_chan_half_t *half);
    /**
     * Optional (NULL: nothing to do).  The matched request lets go of an
     * inactive half (its release, or a failed match after set-up), in
     * the releasing thread, without the lock: give back what the peer
     * must learn of now (a slot's closed flag).  The base then releases
     * the half object (its destructor frees the rest).
     */
    void (*release)(mca_match_base_chan_half_t *half);
    /**
     * Optional (NULL: none).  The transport's own progress at the start
     * of each progress call (a completion queue, a worker), lock held,
     * also with nothing active; returns the events it counts.  A channel
     * with it is progressed while open, one without it only while a half
     * is active.
     */
    int (*transport)(void);
    /** post runs under the lock (a transport whose calls all are) */
    bool post_locked;
} mca_match_base_chan_stages_t;

/** A stage table in the order of its slots (NULL: a slot not supplied). */
#define MCA_MATCH_BASE_CHAN_STAGES(reset_, post_, poll_, cancel_, abort_, release_, transport_, \
                                   post_locked_)                                               \
    {                                                                                          \
        .reset = (reset_), .post = (post_), .poll = (poll_), .cancel = (cancel_),              \
        .abort = (abort_), .release = (release_), .transport = (transport_),                   \
        .post_locked = (post_locked_)                                                          \
    }

/** The open-once state of a channel's transport. */
typedef enum {
    MCA_MATCH_BASE_CHAN_CLOSED = 0, /**< not tried yet */
    MCA_MATCH_BASE_CHAN_OPEN = 1,
    MCA_MATCH_BASE_CHAN_FAILED = -1, /**< tried, failed: not tried again */
} mca_match_base_chan_state_t;

/** A component's channel: its shared state. */
typedef struct mca_match_base_chan_t {
    const char *name;                           /**< the component's, for messages */
    const mca_match_base_chan_stages_t *stages;
    mca_match_base_plist_t active;              /**< halves with a start under way */
    volatile int32_t state;                     /**< mca_match_base_chan_state_t */
} mca_match_base_chan_t;

/** A static initializer: a channel named name, guarded by lock, whose
 * transport supplies stages and whose progress callback is progress. */
#define MCA_MATCH_BASE_CHAN_INIT(name_, lock_, stages_, progress_)                     \
    {                                                                                  \
        .name = (name_), .stages = (stages_),                                          \
        .active = MCA_MATCH_BASE_PLIST_INIT(lock_, progress_),                         \
        .state = MCA_MATCH_BASE_CHAN_CLOSED                                            \
    }

/**
 * A new half of class cls (a subclass of mca_match_base_chan_half_t) on
 * chan, for one side of owner: the side's datatype retained and its
 * convertor prepared from owner->mr_desc (the original request, which held
 * the datatype, is freed).  NULL when memory or the convertor fails.
 */
OMPI_DECLSPEC mca_match_base_chan_half_t *mca_match_base_chan_half_new(mca_match_base_chan_t *chan,
                                                                       opal_class_t *cls,
                                                                       mca_match_request_t *owner,
                                                                       bool is_send);

/** The error of the half's current start (MPI_SUCCESS until one is set):
 * the matched request's status holds it while the start is under way,
 * since mca_match_request_activate clears it at every start. */
#define MCA_MATCH_BASE_CHAN_STATUS(half) ((half)->owner->super.req_status.MPI_ERROR)

/** Accept or connect set the half up: the matched request runs it with
 * ops from now on.  Returns OMPI_SUCCESS. */
static inline int mca_match_base_chan_attach(mca_match_request_t *request,
                                             mca_match_base_chan_half_t *half,
                                             const mca_match_channel_ops_t *ops)
{
    request->mr_chan = half;
    request->mr_chan_ops = ops;
    return OMPI_SUCCESS;
}

/** mca_match_base_chan_half_new of a component's half type on its channel */
#define MCA_MATCH_BASE_CHAN_HALF_NEW(type, chan, owner, is_send) \
    ((type *) mca_match_base_chan_half_new(&(chan), OBJ_CLASS(type), (owner), (is_send)))

/** The matched request's channel ops that need no transport code of their
 * own: cancel, abort and release through the half's stages. */
OMPI_DECLSPEC void mca_match_base_chan_cancel(mca_match_request_t *owner);
OMPI_DECLSPEC bool mca_match_base_chan_abort(mca_match_request_t *owner);
OMPI_DECLSPEC void mca_match_base_chan_release(mca_match_request_t *owner);

/**
 * Open the channel's transport once: open (lock held) runs at the first
 * call only; a failure is not tried again.
 *
 * @retval OMPI_SUCCESS           open (now or before)
 * @retval OMPI_ERR_NOT_AVAILABLE it failed (now or before)
 */
OMPI_DECLSPEC int mca_match_base_chan_open(mca_match_base_chan_t *chan, int (*open)(void));

/* Read under the lock, or peeked without it by the progress callback.  A
 * peek only decides whether to try the lock: what open wrote reaches the
 * transport through the lock, under which the transport reads the state
 * again, so a relaxed load is enough; the writes are atomic (under the
 * lock) so that the peek is no data race. */
static inline bool mca_match_base_chan_is_open(const mca_match_base_chan_t *chan)
{
    return MCA_MATCH_BASE_CHAN_OPEN == __atomic_load_n(&chan->state, __ATOMIC_RELAXED);
}

/** lock held: progress the channel from now on (once a pair uses it) */
static inline void mca_match_base_chan_progress_on(mca_match_base_chan_t *chan)
{
    mca_match_base_plist_progress_on(&chan->active);
}

/** At finalize, lock held or no thread left: no progress, nothing active,
 * the transport closed (to be opened anew by a later session). */
OMPI_DECLSPEC void mca_match_base_chan_fini(mca_match_base_chan_t *chan);

/** A component's finalize (no thread left that starts or completes):
 * under the channel's lock, close (the transport's own teardown; NULL:
 * none), then mca_match_base_chan_fini.  Returns OMPI_SUCCESS. */
OMPI_DECLSPEC int mca_match_base_chan_close(mca_match_base_chan_t *chan, void (*close)(void));

/* the inline skeleton: called with the component's constant stage table */

/* on the latency path of every start: inlined as the component's own
 * completion was */
static inline __opal_attribute_always_inline__ void
mca_match_base_chan_complete(mca_match_base_chan_half_t *half)
{
    mca_match_request_channel_finish(half->owner, half->truncated, half->bytes);
}

/** One start of a matched request of chan (its start or its owner's). */
static inline __opal_attribute_always_inline__ void
mca_match_base_chan_start_one(mca_match_base_chan_t *chan,
                              const mca_match_base_chan_stages_t *stages,
                              mca_match_request_t *owner)
{
    mca_match_base_chan_half_t *half = (mca_match_base_chan_half_t *) owner->mr_chan;
    bool done;

    mca_match_request_activate(owner);
    if (NULL != stages->reset) {
        stages->reset(half);
    }
    if (!stages->post_locked) {
        if (stages->post(half)) {
            mca_match_base_chan_complete(half);
            return;
        }
        OPAL_THREAD_LOCK(chan->active.lock);
        mca_match_base_plist_push(&chan->active, half, MCA_MATCH_BASE_CHAN_ITEM);
        OPAL_THREAD_UNLOCK(chan->active.lock);
        return;
    }
    OPAL_THREAD_LOCK(chan->active.lock);
    done = stages->post(half);
    if (!done) {
        mca_match_base_plist_push(&chan->active, half, MCA_MATCH_BASE_CHAN_ITEM);
    }
    OPAL_THREAD_UNLOCK(chan->active.lock);
    if (done) {
        mca_match_base_chan_complete(half);
    }
}

/** The matched request's req_start (MPI_Start, MPI_Startall). */
static inline __opal_attribute_always_inline__ int
mca_match_base_chan_start(mca_match_base_chan_t *chan, const mca_match_base_chan_stages_t *stages,
                          size_t count, ompi_request_t **requests)
{
    if (OPAL_UNLIKELY(mca_match_request_start_refused(count, requests))) {
        return OMPI_ERR_REQUEST;
    }
    for (size_t i = 0; i < count; ++i) {
        mca_match_base_chan_start_one(chan, stages, (mca_match_request_t *) requests[i]);
    }
    return OMPI_SUCCESS;
}

static inline int mca_match_base_chan_pre(void *ctx)
{
    return ((const mca_match_base_chan_stages_t *) ctx)->transport();
}

static inline mca_match_base_plist_verdict_t mca_match_base_chan_poll(void *ctx, void *half)
{
    return ((const mca_match_base_chan_stages_t *) ctx)->poll(half)
               ? MCA_MATCH_BASE_PLIST_DONE
               : MCA_MATCH_BASE_PLIST_KEEP;
}

static inline void mca_match_base_chan_done(void *ctx, void *half)
{
    (void) ctx;
    mca_match_base_chan_complete(half);
}

/** The channel's progress callback (registered by progress_on). */
static inline __opal_attribute_always_inline__ int
mca_match_base_chan_progress(mca_match_base_chan_t *chan,
                             const mca_match_base_chan_stages_t *stages)
{
    if (NULL == stages->transport) {
        if (0 == mca_match_base_plist_count(&chan->active)) {
            return 0;
        }
        return mca_match_base_plist_progress(&chan->active, MCA_MATCH_BASE_CHAN_ITEM, NULL,
                                             mca_match_base_chan_poll, mca_match_base_chan_done,
                                             (void *) stages);
    }
    /* the transport is progressed while open, with nothing active too: a
     * peer's writes and connections need this side */
    if (!mca_match_base_chan_is_open(chan)) {
        return 0;
    }
    return mca_match_base_plist_progress(&chan->active, MCA_MATCH_BASE_CHAN_ITEM,
                                         mca_match_base_chan_pre, mca_match_base_chan_poll,
                                         mca_match_base_chan_done, (void *) stages);
}

/**
 * Define a component's hot paths and its channel ops: prefix_start,
 * prefix_start_owned and prefix_progress (int (void), exported as
 * progress_fn), and the ops table ops_name, for the channel chan with the
 * stage table stages (both static, of the component) and the optional arm
 * slot (mca_match_channel_ops_t; NULL: never).
 */
#define MCA_MATCH_BASE_CHAN_DEFINE(prefix, chan, stages, progress_fn, ops_name, arm_fn)     \
    static int prefix##_start(size_t count, ompi_request_t **requests)                     \
    {                                                                                      \
        return mca_match_base_chan_start(&(chan), &(stages), count, requests);             \
    }                                                                                      \
    static int prefix##_start_owned(mca_match_request_t *owner)                            \
    {                                                                                      \
        mca_match_base_chan_start_one(&(chan), &(stages), owner);                          \
        return OMPI_SUCCESS;                                                               \
    }                                                                                      \
    int progress_fn(void)                                                                  \
    {                                                                                      \
        return mca_match_base_chan_progress(&(chan), &(stages));                           \
    }                                                                                      \
    const mca_match_channel_ops_t ops_name = {                                             \
        .start = prefix##_start,                                                           \
        .start_owned = prefix##_start_owned,                                               \
        .arm = (arm_fn),                                                                   \
        .cancel = mca_match_base_chan_cancel,                                              \
        .abort = mca_match_base_chan_abort,                                                \
        .release = mca_match_base_chan_release,                                            \
    }

/**
 * A channel module whose slots are prefix_offer, prefix_accept,
 * prefix_connect and prefix_abandon (match.h), of component comp.
 */
#define MCA_MATCH_BASE_CHAN_MODULE(comp, id, prefix)                                        \
    {                                                                                      \
        .match_component = (comp), .match_p2p = NULL, .match_channel_id = (id),            \
        .match_channel_offer = prefix##_offer, .match_channel_accept = prefix##_accept,    \
        .match_channel_connect = prefix##_connect, .match_channel_abandon = prefix##_abandon \
    }

/**
 * The free-slot stack of a component's slot table: get hands out the
 * lowest free index first, so that slots in use stay packed.  All calls
 * under the component's lock.
 */
typedef struct mca_match_base_slots_t {
    uint32_t *free; /**< the stack, the next index on top */
    uint32_t nfree;
    uint32_t size;
} mca_match_base_slots_t;

/** n slots, all free.  OMPI_ERR_OUT_OF_RESOURCE when memory fails. */
OMPI_DECLSPEC int mca_match_base_slots_init(mca_match_base_slots_t *slots, uint32_t n);
/** Release the stack (the table is gone). */
OMPI_DECLSPEC void mca_match_base_slots_fini(mca_match_base_slots_t *slots);

/** A free index, or OMPI_ERR_OUT_OF_RESOURCE when every slot is in use. */
static inline int mca_match_base_slots_get(mca_match_base_slots_t *slots, uint32_t *index)
{
    if (0 == slots->nfree) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    *index = slots->free[--slots->nfree];
    return OMPI_SUCCESS;
}

/** index back to the free ones (it was handed out, and is given back once). */
static inline void mca_match_base_slots_put(mca_match_base_slots_t *slots, uint32_t index)
{
    slots->free[slots->nfree++] = index;
}

/**
 * A peer process as a component's transport reaches it: made once per
 * peer and per name (the bytes the peer's handshake carries: a worker
 * address, an endpoint name, keys), so that a peer whose name changed, in
 * a new session, gets a new record; every record lives until fini.  A
 * component's record type begins with it.  All calls under the
 * component's lock.
 */
typedef struct mca_match_base_peer_t {
    opal_list_item_t super;
    size_t len[2];         /**< bytes of the name's two pieces */
    unsigned char *name;   /**< the two pieces, one after the other */
} mca_match_base_peer_t;

OMPI_DECLSPEC OBJ_CLASS_DECLARATION(mca_match_base_peer_t);

typedef struct mca_match_base_peers_t {
    opal_hash_table_t by_proc; /**< ompi_proc_t * -> its latest record */
    opal_list_t all;           /**< every record made */
    bool ready;
} mca_match_base_peers_t;

/** An empty set.  OMPI_ERR_OUT_OF_RESOURCE when memory fails. */
OMPI_DECLSPEC int mca_match_base_peers_init(mca_match_base_peers_t *peers);
/** Every record through close (NULL: none), then released; nothing when
 * the set was never made or is gone already. */
OMPI_DECLSPEC void mca_match_base_peers_fini(mca_match_base_peers_t *peers,
                                             void (*close)(mca_match_base_peer_t *peer));
/** proc's record made for this name (pieces a and b), or NULL. */
OMPI_DECLSPEC mca_match_base_peer_t *mca_match_base_peers_find(mca_match_base_peers_t *peers,
                                                               struct ompi_proc_t *proc,
                                                               const void *a, size_t alen,
                                                               const void *b, size_t blen);
/** A new record of class cls (a subclass) holding the name, on no list
 * yet; NULL when memory fails. */
OMPI_DECLSPEC mca_match_base_peer_t *mca_match_base_peer_new(opal_class_t *cls, const void *a,
                                                             size_t alen, const void *b,
                                                             size_t blen);
/** The record among every record made (released at fini, whatever
 * follows). */
OMPI_DECLSPEC void mca_match_base_peers_keep(mca_match_base_peers_t *peers,
                                             mca_match_base_peer_t *peer);
/** The record as proc's latest (found by find from now on). */
OMPI_DECLSPEC int mca_match_base_peers_set(mca_match_base_peers_t *peers,
                                           struct ompi_proc_t *proc,
                                           mca_match_base_peer_t *peer);

END_C_DECLS

#endif /* MCA_MATCH_BASE_CHAN_H */
