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
 * A progress callback over a list of live objects.
 *
 * Engines that advance work from opal_progress (the match channels, the
 * queue engine, the graphs engine) keep the objects with work under way on
 * a list, advance only those, and complete the ones that finished after the
 * list's lock is dropped, since a completion may start more work on the
 * same list.  The list is intrusive: an object
 * embeds an mca_match_base_plist_item_t at a constant offset (offsetof its
 * member), given to every call, and the list links the objects themselves,
 * so that the engine's functions get the object with no adjustment.
 *
 * Everything here is inline: an engine's progress callback calls
 * mca_match_base_plist_progress with its own functions, which the compiler
 * then calls directly, so that a poll of the list costs what a loop
 * written in the engine would.
 *
 * Thread rules: push, remove and has are called with the list's lock held
 * (the engine's mutex, given at initialization); progress takes it with a
 * try-lock and gives up when another thread holds it (that thread
 * advances the list), so that a progress call never waits.
 */

#ifndef MCA_MATCH_BASE_PLIST_H
#define MCA_MATCH_BASE_PLIST_H

#include "ompi_config.h"

#include <stddef.h>

#include "opal/mca/threads/mutex.h"
#include "opal/runtime/opal_progress.h"

BEGIN_C_DECLS

/** Objects completed by one progress call at the most: the rest wait for
 * the next call, so that a call stays short. */
#define MCA_MATCH_BASE_PLIST_BATCH 32

typedef struct mca_match_base_plist_item_t {
    void *next, *prev; /**< the neighbouring objects */
} mca_match_base_plist_item_t;

/** The item of obj, embedded off bytes into it. */
#define MCA_MATCH_BASE_PLIST_ITEM(obj, off) \
    ((mca_match_base_plist_item_t *) ((char *) (obj) + (off)))

typedef struct mca_match_base_plist_t {
    void *head;                        /**< the first object */
    int32_t count;                     /**< items listed (written under the lock, with atomic
                                            stores: mca_match_base_plist_count reads it without) */
    opal_mutex_t *lock;                /**< the engine's lock, which guards the list */
    opal_progress_callback_t progress; /**< the engine's callback, registered once */
    bool registered;
} mca_match_base_plist_t;

/** A static initializer: a list guarded by lock, advanced by progress. */
#define MCA_MATCH_BASE_PLIST_INIT(lock_, progress_)                                   \
    {                                                                                 \
        .head = NULL, .count = 0, .lock = (lock_), .progress = (progress_),           \
        .registered = false                                                           \
    }

/** What an engine's poll says of one listed object. */
typedef enum {
    MCA_MATCH_BASE_PLIST_KEEP = 0, /**< not done: stays on the list */
    MCA_MATCH_BASE_PLIST_DONE = 1, /**< done: leaves the list and is completed */
    MCA_MATCH_BASE_PLIST_DROP = 2, /**< leaves the list, not completed (idle until re-pushed) */
} mca_match_base_plist_verdict_t;

/**
 * The engine's stages for one progress call.
 *
 * pre:  optional (NULL: none); the engine's own progress before the list
 *       is walked (a completion queue, a transport's worker), lock held.
 *       Returns the events it counts.
 * poll: advance one listed object, lock held; returns its verdict.
 * done: complete one object that poll found done, lock not held (any
 *       thread that calls progress).
 * ctx:  passed to each of them unchanged.
 */
typedef int (*mca_match_base_plist_pre_fn_t)(void *ctx);
typedef mca_match_base_plist_verdict_t (*mca_match_base_plist_poll_fn_t)(void *ctx, void *obj);
typedef void (*mca_match_base_plist_done_fn_t)(void *ctx, void *obj);

/** lock held: put obj, whose item is off bytes into it, first on the list */
static inline void mca_match_base_plist_push(mca_match_base_plist_t *list, void *obj, size_t off)
{
    mca_match_base_plist_item_t *item = MCA_MATCH_BASE_PLIST_ITEM(obj, off);

    item->prev = NULL;
    item->next = list->head;
    if (NULL != list->head) {
        MCA_MATCH_BASE_PLIST_ITEM(list->head, off)->prev = obj;
    }
    list->head = obj;
    __atomic_store_n(&list->count, list->count + 1, __ATOMIC_RELAXED);
}

/** lock not held: how many objects are listed, a peek that may be stale */
static inline int32_t mca_match_base_plist_count(const mca_match_base_plist_t *list)
{
    return __atomic_load_n(&list->count, __ATOMIC_RELAXED);
}

/** lock held: is obj on the list? */
static inline bool mca_match_base_plist_has(const mca_match_base_plist_t *list, void *obj,
                                            size_t off)
{
    return NULL != MCA_MATCH_BASE_PLIST_ITEM(obj, off)->prev || list->head == obj;
}

/** lock held: take a listed obj off the list */
static inline void mca_match_base_plist_remove(mca_match_base_plist_t *list, void *obj,
                                               size_t off)
{
    mca_match_base_plist_item_t *item = MCA_MATCH_BASE_PLIST_ITEM(obj, off);

    if (NULL != item->prev) {
        MCA_MATCH_BASE_PLIST_ITEM(item->prev, off)->next = item->next;
    } else {
        list->head = item->next;
    }
    if (NULL != item->next) {
        MCA_MATCH_BASE_PLIST_ITEM(item->next, off)->prev = item->prev;
    }
    item->next = item->prev = NULL;
    __atomic_store_n(&list->count, list->count - 1, __ATOMIC_RELAXED);
}

/**
 * The body of an engine's progress callback: pre, then poll of each listed
 * object (up to MCA_MATCH_BASE_PLIST_BATCH completions), under the lock;
 * then done of each completed one, without it.  Returns the events: pre's,
 * and the objects completed.  Nothing happens when another thread holds
 * the lock.  The caller decides beforehand, without the lock, whether a
 * call is worth making (an empty list: count is 0).
 */
static inline __opal_attribute_always_inline__ int mca_match_base_plist_progress(
    mca_match_base_plist_t *list, size_t off, mca_match_base_plist_pre_fn_t pre,
    mca_match_base_plist_poll_fn_t poll, mca_match_base_plist_done_fn_t done, void *ctx)
{
    void *batch[MCA_MATCH_BASE_PLIST_BATCH];
    void *obj, *next;
    int ndone = 0, events = 0;

    if (OPAL_THREAD_TRYLOCK(list->lock)) {
        return 0;
    }
    if (NULL != pre) {
        events = pre(ctx);
    }
    for (obj = list->head; NULL != obj && ndone < MCA_MATCH_BASE_PLIST_BATCH; obj = next) {
        mca_match_base_plist_verdict_t verdict;

        next = MCA_MATCH_BASE_PLIST_ITEM(obj, off)->next;
        verdict = poll(ctx, obj);
        if (MCA_MATCH_BASE_PLIST_KEEP != verdict) {
            mca_match_base_plist_remove(list, obj, off);
            if (MCA_MATCH_BASE_PLIST_DONE == verdict) {
                batch[ndone++] = obj;
            }
        }
    }
    OPAL_THREAD_UNLOCK(list->lock);
    for (int i = 0; i < ndone; ++i) {
        done(ctx, batch[i]);
    }
    return events + ndone;
}

/** lock held: have opal_progress call the list's callback, from now until
 * mca_match_base_plist_progress_off (once, however often it is asked) */
static inline void mca_match_base_plist_progress_on(mca_match_base_plist_t *list)
{
    if (!list->registered) {
        list->registered = true;
        (void) opal_progress_register(list->progress);
    }
}

/** Stop the callback and forget the listed objects (at finalize). */
static inline void mca_match_base_plist_progress_off(mca_match_base_plist_t *list)
{
    if (list->registered) {
        (void) opal_progress_unregister(list->progress);
        list->registered = false;
    }
    list->head = NULL;
    list->count = 0;
}

END_C_DECLS

#endif /* MCA_MATCH_BASE_PLIST_H */
