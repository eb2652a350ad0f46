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
 * The channel base's cold paths (match_base_chan.h): halves made and
 * released, MPI_Cancel and the ULFM abort of an active half, the open-once
 * state, the free-slot stack and the peer records.
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_base_chan.h"
#include "ompi/proc/proc.h"

/* OBJ_NEW of a class known at run time */
static opal_object_t *match_base_obj_new(opal_class_t *cls)
{
#if OPAL_ENABLE_DEBUG
    return opal_obj_new_debug(cls, __FILE__, __LINE__);
#else
    return opal_obj_new(cls);
#endif
}

static void match_base_chan_half_construct(mca_match_base_chan_half_t *half)
{
    half->item.next = half->item.prev = NULL;
    half->chan = NULL;
    half->owner = NULL;
    half->is_send = half->sync = half->contiguous = half->truncated = false;
    half->bytes = 0;
    half->cptr = NULL;
    half->datatype = NULL;
    OBJ_CONSTRUCT(&half->convertor, opal_convertor_t);
}

static void match_base_chan_half_destruct(mca_match_base_chan_half_t *half)
{
    OBJ_DESTRUCT(&half->convertor);
    if (NULL != half->datatype) {
        OMPI_DATATYPE_RELEASE(half->datatype);
    }
}

OBJ_CLASS_INSTANCE(mca_match_base_chan_half_t, opal_object_t, match_base_chan_half_construct,
                   match_base_chan_half_destruct);

mca_match_base_chan_half_t *mca_match_base_chan_half_new(mca_match_base_chan_t *chan,
                                                         opal_class_t *cls,
                                                         mca_match_request_t *owner, bool is_send)
{
    mca_match_base_chan_half_t *half = (mca_match_base_chan_half_t *) match_base_obj_new(cls);
    int ret;

    if (NULL == half) {
        return NULL;
    }
    half->chan = chan;
    half->owner = owner;
    half->is_send = is_send;
    ret = mca_match_base_channel_side_prepare(is_send, owner->mr_desc.buf, owner->mr_desc.count,
                                              owner->mr_desc.datatype, &half->datatype,
                                              &half->contiguous, &half->cptr, &half->convertor);
    if (OMPI_SUCCESS != ret) {
        OBJ_RELEASE(half);
        return NULL;
    }
    return half;
}

void mca_match_base_chan_cancel(mca_match_request_t *owner)
{
    mca_match_base_chan_half_t *half = (mca_match_base_chan_half_t *) owner->mr_chan;
    mca_match_base_chan_t *chan = half->chan;
    bool cancelled = false;

    if (NULL == chan->stages->cancel) {
        return;
    }
    OPAL_THREAD_LOCK(chan->active.lock);
    if (mca_match_base_plist_has(&chan->active, half, MCA_MATCH_BASE_CHAN_ITEM) && chan->stages->cancel(half)) {
        mca_match_base_plist_remove(&chan->active, half, MCA_MATCH_BASE_CHAN_ITEM);
        cancelled = true;
    }
    OPAL_THREAD_UNLOCK(chan->active.lock);
    if (cancelled) {
        mca_match_request_channel_cancelled(owner);
    }
}

/* whatever the half waits for (a line, a grant, the peer's data or its
 * acknowledgement) will never come */
bool mca_match_base_chan_abort(mca_match_request_t *owner)
{
    mca_match_base_chan_half_t *half = (mca_match_base_chan_half_t *) owner->mr_chan;
    mca_match_base_chan_t *chan = half->chan;
    bool aborted = false;

    OPAL_THREAD_LOCK(chan->active.lock);
    if (mca_match_base_plist_has(&chan->active, half, MCA_MATCH_BASE_CHAN_ITEM)) {
        mca_match_base_plist_remove(&chan->active, half, MCA_MATCH_BASE_CHAN_ITEM);
        if (NULL != chan->stages->abort) {
            chan->stages->abort(half);
        }
        aborted = true;
    }
    OPAL_THREAD_UNLOCK(chan->active.lock);
    return aborted;
}

void mca_match_base_chan_release(mca_match_request_t *owner)
{
    mca_match_base_chan_half_t *half = (mca_match_base_chan_half_t *) owner->mr_chan;

    owner->mr_chan = NULL;
    if (NULL != half->chan->stages->release) {
        half->chan->stages->release(half);
    }
    OBJ_RELEASE(half);
}

int mca_match_base_chan_open(mca_match_base_chan_t *chan, int (*open)(void))
{
    if (MCA_MATCH_BASE_CHAN_CLOSED != chan->state) {
        return mca_match_base_chan_is_open(chan) ? OMPI_SUCCESS : OMPI_ERR_NOT_AVAILABLE;
    }
    /* failed until open says otherwise: a failure is not tried again */
    __atomic_store_n(&chan->state, MCA_MATCH_BASE_CHAN_FAILED, __ATOMIC_RELAXED);
    if (OMPI_SUCCESS != open()) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    __atomic_store_n(&chan->state, MCA_MATCH_BASE_CHAN_OPEN, __ATOMIC_RELAXED);
    return OMPI_SUCCESS;
}

void mca_match_base_chan_fini(mca_match_base_chan_t *chan)
{
    mca_match_base_plist_progress_off(&chan->active);
    __atomic_store_n(&chan->state, MCA_MATCH_BASE_CHAN_CLOSED, __ATOMIC_RELAXED);
}

int mca_match_base_chan_close(mca_match_base_chan_t *chan, void (*close)(void))
{
    OPAL_THREAD_LOCK(chan->active.lock);
    if (NULL != close) {
        close();
    }
    mca_match_base_chan_fini(chan);
    OPAL_THREAD_UNLOCK(chan->active.lock);
    return OMPI_SUCCESS;
}

int mca_match_base_slots_init(mca_match_base_slots_t *slots, uint32_t n)
{
    slots->free = malloc((size_t) n * sizeof(uint32_t));
    if (NULL == slots->free) {
        slots->nfree = slots->size = 0;
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    /* lowest index on top */
    for (uint32_t i = 0; i < n; ++i) {
        slots->free[i] = n - 1 - i;
    }
    slots->nfree = slots->size = n;
    return OMPI_SUCCESS;
}

void mca_match_base_slots_fini(mca_match_base_slots_t *slots)
{
    free(slots->free);
    slots->free = NULL;
    slots->nfree = slots->size = 0;
}

static void match_base_peer_construct(mca_match_base_peer_t *peer)
{
    peer->len[0] = peer->len[1] = 0;
    peer->name = NULL;
}

static void match_base_peer_destruct(mca_match_base_peer_t *peer)
{
    free(peer->name);
}

OBJ_CLASS_INSTANCE(mca_match_base_peer_t, opal_list_item_t, match_base_peer_construct,
                   match_base_peer_destruct);

int mca_match_base_peers_init(mca_match_base_peers_t *peers)
{
    OBJ_CONSTRUCT(&peers->by_proc, opal_hash_table_t);
    OBJ_CONSTRUCT(&peers->all, opal_list_t);
    peers->ready = true;
    if (OPAL_SUCCESS != opal_hash_table_init(&peers->by_proc, 64)) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return OMPI_SUCCESS;
}

void mca_match_base_peers_fini(mca_match_base_peers_t *peers,
                               void (*close)(mca_match_base_peer_t *peer))
{
    opal_list_item_t *item;

    if (!peers->ready) {
        return;
    }
    while (NULL != (item = opal_list_remove_first(&peers->all))) {
        if (NULL != close) {
            close((mca_match_base_peer_t *) item);
        }
        OBJ_RELEASE(item);
    }
    OBJ_DESTRUCT(&peers->by_proc);
    OBJ_DESTRUCT(&peers->all);
    peers->ready = false;
}

mca_match_base_peer_t *mca_match_base_peers_find(mca_match_base_peers_t *peers,
                                                 struct ompi_proc_t *proc, const void *a,
                                                 size_t alen, const void *b, size_t blen)
{
    mca_match_base_peer_t *peer;
    void *value;

    if (OPAL_SUCCESS
        != opal_hash_table_get_value_uint64(&peers->by_proc, (uint64_t) (uintptr_t) proc,
                                            &value)) {
        return NULL;
    }
    peer = (mca_match_base_peer_t *) value;
    if (peer->len[0] != alen || peer->len[1] != blen || 0 != memcmp(peer->name, a, alen)
        || (0 < blen && 0 != memcmp(peer->name + alen, b, blen))) {
        return NULL;
    }
    return peer;
}

mca_match_base_peer_t *mca_match_base_peer_new(opal_class_t *cls, const void *a, size_t alen,
                                               const void *b, size_t blen)
{
    mca_match_base_peer_t *peer = (mca_match_base_peer_t *) match_base_obj_new(cls);

    if (NULL == peer) {
        return NULL;
    }
    peer->name = malloc(alen + blen);
    if (NULL == peer->name) {
        OBJ_RELEASE(peer);
        return NULL;
    }
    memcpy(peer->name, a, alen);
    if (0 < blen) {
        memcpy(peer->name + alen, b, blen);
    }
    peer->len[0] = alen;
    peer->len[1] = blen;
    return peer;
}

void mca_match_base_peers_keep(mca_match_base_peers_t *peers, mca_match_base_peer_t *peer)
{
    opal_list_append(&peers->all, &peer->super);
}

int mca_match_base_peers_set(mca_match_base_peers_t *peers, struct ompi_proc_t *proc,
                             mca_match_base_peer_t *peer)
{
    if (OPAL_SUCCESS
        != opal_hash_table_set_value_uint64(&peers->by_proc, (uint64_t) (uintptr_t) proc, peer)) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return OMPI_SUCCESS;
}
