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
 * Matching over the selected PML.
 *
 * The handshake runs on the program's own communicator, with tags in a
 * reserved negative band that no user message can carry and no user receive
 * can match (user tags are >= 0 and MPI_ANY_TAG matches only those):
 *
 *   sender                                   receiver
 *   MPI_Match(send to R, tag T)              MPI_Match(recv from S|ANY, tag T|ANY)
 *     OFFER {T, offer id}  ───────────────►  matched against posted match
 *                                            receives in MPI_Match order (or
 *                                            kept as unexpected, in arrival order)
 *     channel send (R, tag C) ◄────────────  ACCEPT {C, offer id}; channel
 *                                            receive (S, tag C)
 *
 * Both messages also carry the channel each side proposes (the base's
 * per-pair selection, mca_match_base_channel_*): the offer names the first
 * channel component that applies to the pair (sm for a peer on the same
 * node), the accept says whether the receiver set it up.  When it did not,
 * or when none applies, the pair gets this component's own channel:
 *
 * C is a tag of the band that the receiver gives to this pair alone, so each
 * later start is a persistent PML operation that only its peer operation can
 * match: no wildcard, no other pair, no user message.  Offers from one sender
 * arrive in order, and posted match receives are searched in call order, so
 * pairs form by the MPI matching rules on (communicator, source, tag) in
 * the order of the MPI_Match calls.
 *
 * Each communicator's state hangs on it as an attribute: freeing the
 * communicator, or MPI_Finalize (through an attribute on MPI_COMM_SELF),
 * cancels the handshake receives.
 *
 * Under ULFM a peer may die before it answers: the base's check of a
 * waited match operation has this module end the matches waiting for a
 * failed peer, and all those of a revoked communicator (match_ft_sweep).
 */

#include "ompi_config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "opal/class/opal_list.h"
#include "opal/class/opal_pointer_array.h"
#include "opal/mca/threads/mutex.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/output.h"
#include "ompi/attribute/attribute.h"
#include "ompi/communicator/communicator.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/group/group.h"
#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/match/pml/match_pml.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/runtime/mpiruntime.h"
#include "ompi/request/request_owner.h"

/* The band is reserved beside the collectives' tag ranges (coll_tags.h),
 * disjoint from all of them, and representable in every PML's tag field
 * (UCX keeps 24 bits). */
#define MATCH_PML_TAG_OFFER   OMPI_MATCH_TAG_BAND_BOTTOM
#define MATCH_PML_TAG_ACCEPT  (MATCH_PML_TAG_OFFER + 1)
#define MATCH_PML_TAG_CHANNEL (MATCH_PML_TAG_OFFER + 2)
/* up to the band's top tag, which is the remote barrier's (match.h) */
#define MATCH_PML_CHANNELS    (OMPI_MATCH_TAG_REMOTE_BARRIER - MATCH_PML_TAG_CHANNEL)

_Static_assert(OMPI_MATCH_TAG_BAND_BOTTOM >= -(1 << 23),
               "the match band must fit UCX's 24-bit tags");
_Static_assert(MCA_COLL_BASE_TAG_NONBLOCKING_END > OMPI_MATCH_TAG_BAND_TOP
                   && MCA_COLL_BASE_TAG_NEIGHBOR_END > OMPI_MATCH_TAG_BAND_TOP
                   && MCA_COLL_BASE_TAG_STATIC_END > OMPI_MATCH_TAG_BAND_TOP,
               "collective tags must stay out of the match band");

typedef struct {
    int32_t tag;       /**< OFFER: the sender's tag; ACCEPT: the channel tag */
    int32_t pad;
    uint64_t offer_id; /**< chosen by the sender, echoed by the receiver */
    mca_match_channel_info_t info; /**< the channel proposed (OFFER) or chosen (ACCEPT) */
} match_pml_msg_t;

/** Bytes of a handshake message that travel: the info's tail is sent only
 * as far as it is used. */
#define MATCH_PML_MSG_SIZE(msg) \
    (offsetof(match_pml_msg_t, info) + MCA_MATCH_CHANNEL_INFO_SIZE(&(msg)->info))

static void match_pml_info_copy(mca_match_channel_info_t *dst, const mca_match_channel_info_t *src)
{
    memcpy(dst, src, MCA_MATCH_CHANNEL_INFO_SIZE(src));
}

/** An ACCEPT whose channel is this: the receiver's match failed, so fails
 * the sender's. */
#define MATCH_PML_CHANNEL_FAILED (-1)

/** A match request waiting: a posted receive, or a send awaiting ACCEPT. */
typedef struct {
    opal_list_item_t super;
    mca_match_request_t *req;
    uint64_t offer_id;
    mca_match_channel_info_t offer; /**< a send's offer, until ACCEPT */
} match_pml_waiting_t;
static OBJ_CLASS_INSTANCE(match_pml_waiting_t, opal_list_item_t, NULL, NULL);

/** An offer no posted receive wanted yet. */
typedef struct {
    opal_list_item_t super;
    int source;
    int tag;
    uint64_t offer_id;
    mca_match_channel_info_t info;
} match_pml_offer_t;
static OBJ_CLASS_INSTANCE(match_pml_offer_t, opal_list_item_t, NULL, NULL);

/** A handshake message on its way out. */
typedef struct {
    opal_list_item_t super;
    ompi_request_t *req;
    match_pml_msg_t msg;
} match_pml_send_t;
static OBJ_CLASS_INSTANCE(match_pml_send_t, opal_list_item_t, NULL, NULL);

typedef struct {
    opal_list_item_t super;
    ompi_communicator_t *comm;
    ompi_request_t *offer_req;    /**< persistent receive of OFFERs (any source) */
    ompi_request_t *accept_req;   /**< persistent receive of ACCEPTs (any source) */
    match_pml_msg_t offer_buf;
    match_pml_msg_t accept_buf;
    opal_list_t posted;           /**< receives waiting for an offer, in call order */
    opal_list_t unexpected;       /**< offers waiting for a receive, in arrival order */
    opal_list_t sending;          /**< sends waiting for ACCEPT */
    uint32_t next_channel;
    uint64_t next_offer;
    bool stopping;                /**< its handshake receives are being cancelled */
} match_pml_comm_t;
static OBJ_CLASS_INSTANCE(match_pml_comm_t, opal_list_item_t, NULL, NULL);

static opal_mutex_t match_pml_lock = OPAL_MUTEX_STATIC_INIT;
static opal_list_t match_pml_comms;
static opal_list_t match_pml_sends;
static bool match_pml_ready = false;
static bool match_pml_progressing = false;
static int match_pml_keyval = MPI_KEYVAL_INVALID;
static int match_pml_self_keyval = MPI_KEYVAL_INVALID;
static bool match_pml_attr_ref = false;

static void match_pml_comm_destroy(match_pml_comm_t *state);

static void match_pml_stop_recv(ompi_request_t **req)
{
    if (NULL == *req) {
        return;
    }
    if (!ompi_request_seen_complete(*req)) {
        (void) ompi_request_cancel(*req);
        (void) ompi_request_wait_completion(*req);
    }
    (*req)->req_state = OMPI_REQUEST_INACTIVE;
    (void) ompi_request_free(req);
}

static int match_pml_comm_delete_attr(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    match_pml_comm_t *state;
    (void) comm;
    (void) keyval;
    (void) extra;

    /* MPI_Finalize may have stopped every handshake already */
    OPAL_THREAD_LOCK(&match_pml_lock);
    OPAL_LIST_FOREACH (state, &match_pml_comms, match_pml_comm_t) {
        if (state == (match_pml_comm_t *) attr) {
            match_pml_comm_destroy(state);
            break;
        }
    }
    OPAL_THREAD_UNLOCK(&match_pml_lock);
    return MPI_SUCCESS;
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first of all: the last
 * moment at which the handshake receives can be cancelled cleanly. */
static int match_pml_self_delete_attr(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    match_pml_comm_t *state;
    (void) comm;
    (void) keyval;
    (void) attr;
    (void) extra;

    OPAL_THREAD_LOCK(&match_pml_lock);
    while (NULL != (state = (match_pml_comm_t *) opal_list_get_first(&match_pml_comms))
           && opal_list_get_end(&match_pml_comms) != &state->super) {
        match_pml_comm_destroy(state);
    }
    OPAL_THREAD_UNLOCK(&match_pml_lock);
    /* Open MPI never deletes MPI_COMM_WORLD's attributes at finalize, so
     * its entry for the handshake would be lost: take it back (the delete
     * callback finds its state destroyed already; the attribute system
     * calls callbacks without its lock).  No attribute: nothing done. */
    (void) ompi_attr_delete(COMM_ATTR, &ompi_mpi_comm_world.comm,
                            ompi_mpi_comm_world.comm.c_keyhash, match_pml_keyval, false);
    return MPI_SUCCESS;
}

static int match_pml_copy_attr(MPI_Comm comm, int keyval, void *extra, void *in, void *out,
                               int *flag)
{
    (void) comm;
    (void) keyval;
    (void) extra;
    (void) in;
    (void) out;
    *flag = 0; /* a duplicate has its own handshake */
    return MPI_SUCCESS;
}

static int match_pml_keyvals(void)
{
    ompi_attribute_fn_ptr_union_t copy_fn, del_fn;
    int ret;

    if (MPI_KEYVAL_INVALID != match_pml_keyval) {
        return OMPI_SUCCESS;
    }
    /* our keyvals outlive the communicators (the framework closes after
     * them): hold the attribute subsystem as they do, or the last instance
     * of the Sessions model tears it down under us */
    ret = ompi_attr_get_ref();
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    match_pml_attr_ref = true;
    copy_fn.attr_communicator_copy_fn = (MPI_Comm_copy_attr_function *) match_pml_copy_attr;
    del_fn.attr_communicator_delete_fn = match_pml_comm_delete_attr;
    ret = ompi_attr_create_keyval(COMM_ATTR, copy_fn, del_fn, &match_pml_keyval, NULL, 0, NULL);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    del_fn.attr_communicator_delete_fn = match_pml_self_delete_attr;
    ret = ompi_attr_create_keyval(COMM_ATTR, copy_fn, del_fn, &match_pml_self_keyval, NULL, 0,
                                  NULL);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    /* World model only: the Sessions model has no MPI_COMM_SELF to hang on,
     * there the program frees its communicators (and so their attributes) */
    if (ompi_mpi_state < OMPI_MPI_STATE_INIT_COMPLETED
        || ompi_mpi_state >= OMPI_MPI_STATE_FINALIZE_STARTED) {
        return OMPI_SUCCESS;
    }
    return ompi_attr_set_c(COMM_ATTR, &ompi_mpi_comm_self.comm, &ompi_mpi_comm_self.comm.c_keyhash,
                           match_pml_self_keyval, &match_pml_comms, false);
}

static int match_pml_progress(void);

static match_pml_comm_t *match_pml_comm_get(ompi_communicator_t *comm, int *ret)
{
    match_pml_comm_t *state;

    OPAL_LIST_FOREACH (state, &match_pml_comms, match_pml_comm_t) {
        if (state->comm == comm) {
            return state;
        }
    }

    *ret = match_pml_keyvals();
    if (OMPI_SUCCESS != *ret) {
        return NULL;
    }
    state = OBJ_NEW(match_pml_comm_t);
    if (NULL == state) {
        *ret = OMPI_ERR_OUT_OF_RESOURCE;
        return NULL;
    }
    state->comm = comm;
    state->offer_req = state->accept_req = NULL;
    OBJ_CONSTRUCT(&state->posted, opal_list_t);
    OBJ_CONSTRUCT(&state->unexpected, opal_list_t);
    OBJ_CONSTRUCT(&state->sending, opal_list_t);
    state->next_channel = 0;
    state->next_offer = 0;
    state->stopping = false;

    *ret = MCA_PML_CALL(irecv_init(&state->offer_buf, sizeof(match_pml_msg_t), MPI_BYTE,
                                   MPI_ANY_SOURCE, MATCH_PML_TAG_OFFER, comm,
                                   &state->offer_req));
    if (OMPI_SUCCESS == *ret) {
        *ret = MCA_PML_CALL(irecv_init(&state->accept_buf, sizeof(match_pml_msg_t), MPI_BYTE,
                                       MPI_ANY_SOURCE, MATCH_PML_TAG_ACCEPT, comm,
                                       &state->accept_req));
    }
    if (OMPI_SUCCESS == *ret) {
        *ret = state->offer_req->req_start(1, &state->offer_req);
    }
    if (OMPI_SUCCESS == *ret) {
        *ret = state->accept_req->req_start(1, &state->accept_req);
    }
    if (OMPI_SUCCESS == *ret) {
        *ret = ompi_attr_set_c(COMM_ATTR, comm, &comm->c_keyhash, match_pml_keyval, state, false);
    }
    if (OMPI_SUCCESS != *ret) {
        match_pml_stop_recv(&state->offer_req);
        match_pml_stop_recv(&state->accept_req);
        OBJ_DESTRUCT(&state->posted);
        OBJ_DESTRUCT(&state->unexpected);
        OBJ_DESTRUCT(&state->sending);
        OBJ_RELEASE(state);
        return NULL;
    }
    opal_list_append(&match_pml_comms, &state->super);
    if (!match_pml_progressing) {
        match_pml_progressing = true;
        /* handshakes are not latency critical: every 8th progress call */
        opal_progress_register_lp(match_pml_progress);
    }
    opal_output_verbose(MCA_BASE_VERBOSE_TRACE, OMPI_MATCH_BASE_OUTPUT,
                        "match:pml: handshake set up on communicator %s", comm->c_name);
    return state;
}

/* lock held: fail every waiting match, stop the handshake */
static void match_pml_comm_destroy(match_pml_comm_t *state)
{
    opal_list_item_t *item;

    /* A PML may complete a cancel only from its progress (pml cm), which
     * runs ours too, in this thread and without contention for the lock
     * when threads are not in use: the poll must not take the cancelled
     * receive for a message and start it again. */
    state->stopping = true;
    match_pml_stop_recv(&state->offer_req);
    match_pml_stop_recv(&state->accept_req);
    while (NULL != (item = opal_list_remove_first(&state->posted))) {
        mca_match_request_matched(((match_pml_waiting_t *) item)->req, OMPI_ERR_NOT_AVAILABLE);
        OBJ_RELEASE(item);
    }
    while (NULL != (item = opal_list_remove_first(&state->sending))) {
        match_pml_waiting_t *waiting = (match_pml_waiting_t *) item;
        mca_match_channel_info_t none = {.channel = MCA_MATCH_CHANNEL_PML};
        /* releases what the offer reserved */
        (void) mca_match_base_channel_connect(waiting->req, &waiting->offer, &none);
        mca_match_request_matched(waiting->req, OMPI_ERR_NOT_AVAILABLE);
        OBJ_RELEASE(item);
    }
    OPAL_LIST_DESTRUCT(&state->unexpected);
    OBJ_DESTRUCT(&state->posted);
    OBJ_DESTRUCT(&state->sending);
    opal_list_remove_item(&match_pml_comms, &state->super);
    OBJ_RELEASE(state);
}

/* lock held */
static int match_pml_send_msg(ompi_communicator_t *comm, int peer, int tag, int32_t value,
                              uint64_t offer_id, const mca_match_channel_info_t *info)
{
    match_pml_send_t *send = OBJ_NEW(match_pml_send_t);
    int ret;

    if (NULL == send) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    send->msg.tag = value;
    send->msg.pad = 0;
    send->msg.offer_id = offer_id;
    match_pml_info_copy(&send->msg.info, info);
    ret = MCA_PML_CALL(isend(&send->msg, MATCH_PML_MSG_SIZE(&send->msg), MPI_BYTE, peer, tag,
                             MCA_PML_BASE_SEND_STANDARD, comm, &send->req));
    if (OMPI_SUCCESS != ret) {
        OBJ_RELEASE(send);
        return ret;
    }
    opal_list_append(&match_pml_sends, &send->super);
    return OMPI_SUCCESS;
}

static bool match_pml_accepts(const mca_match_request_t *req, int source, int tag)
{
    return (MPI_ANY_SOURCE == req->mr_desc.peer || source == req->mr_desc.peer)
           && (MPI_ANY_TAG == req->mr_desc.tag || tag == req->mr_desc.tag);
}

/* lock held: pair a receive with an offer, choose the pair's channel, and
 * tell the sender (also when this side failed: its match fails too) */
static void match_pml_accept(match_pml_comm_t *state, mca_match_request_t *req, int source,
                             int tag, uint64_t offer_id, const mca_match_channel_info_t *offer)
{
    mca_match_channel_info_t accept;
    int channel_tag = 0;
    int ret, sent;

    req->mr_peer = source;
    req->mr_tag = tag;
    ret = mca_match_base_channel_accept(req, source, offer, &accept);
    if (OMPI_SUCCESS == ret && MCA_MATCH_CHANNEL_PML == accept.channel) {
        channel_tag = MATCH_PML_TAG_CHANNEL + (int) (state->next_channel++ % MATCH_PML_CHANNELS);
        ret = MCA_PML_CALL(irecv_init(req->mr_desc.buf, req->mr_desc.count,
                                      req->mr_desc.datatype, source, channel_tag, state->comm,
                                      &req->mr_inner));
    }
    if (OMPI_SUCCESS != ret) {
        accept.channel = MATCH_PML_CHANNEL_FAILED;
    }
    sent = match_pml_send_msg(state->comm, source, MATCH_PML_TAG_ACCEPT, channel_tag, offer_id,
                              &accept);
    mca_match_request_matched(req, OMPI_SUCCESS != ret ? ret : sent);
}

static void match_pml_on_offer(match_pml_comm_t *state, int source, const match_pml_msg_t *msg)
{
    match_pml_waiting_t *waiting;
    match_pml_offer_t *offer;

    OPAL_LIST_FOREACH (waiting, &state->posted, match_pml_waiting_t) {
        if (match_pml_accepts(waiting->req, source, msg->tag)) {
            opal_list_remove_item(&state->posted, &waiting->super);
            match_pml_accept(state, waiting->req, source, msg->tag, msg->offer_id, &msg->info);
            OBJ_RELEASE(waiting);
            return;
        }
    }
    offer = OBJ_NEW(match_pml_offer_t);
    if (NULL == offer) {
        return;
    }
    offer->source = source;
    offer->tag = msg->tag;
    offer->offer_id = msg->offer_id;
    match_pml_info_copy(&offer->info, &msg->info);
    opal_list_append(&state->unexpected, &offer->super);
}

static void match_pml_on_accept(match_pml_comm_t *state, int source, const match_pml_msg_t *msg)
{
    match_pml_waiting_t *waiting;
    mca_match_request_t *req;
    int ret;

    OPAL_LIST_FOREACH (waiting, &state->sending, match_pml_waiting_t) {
        req = waiting->req;
        if (waiting->offer_id == msg->offer_id && req->mr_desc.peer == source) {
            opal_list_remove_item(&state->sending, &waiting->super);
            req->mr_peer = source;
            req->mr_tag = req->mr_desc.tag;
            ret = mca_match_base_channel_connect(req, &waiting->offer, &msg->info);
            OBJ_RELEASE(waiting);
            if (MATCH_PML_CHANNEL_FAILED == msg->info.channel) {
                ret = OMPI_ERROR;
            } else if (OMPI_ERR_NOT_FOUND == ret) {
                ret = MCA_PML_CALL(isend_init(req->mr_desc.buf, req->mr_desc.count,
                                              req->mr_desc.datatype, source, msg->tag,
                                              req->mr_desc.mode, state->comm, &req->mr_inner));
            }
            mca_match_request_matched(req, ret);
            return;
        }
    }
    opal_output_verbose(MCA_BASE_VERBOSE_WARN, OMPI_MATCH_BASE_OUTPUT,
                        "match:pml: ACCEPT for unknown offer %llu from %d",
                        (unsigned long long) msg->offer_id, source);
}

/* lock held: a handshake receive completed? handle it and receive again */
static int match_pml_poll(match_pml_comm_t *state, ompi_request_t **req, match_pml_msg_t *buf,
                          bool offer)
{
    static match_pml_msg_t msg; /* under the lock; too large for the stack of every thread */
    size_t got;
    int source;

    if (NULL == *req || !ompi_request_seen_complete(*req) || state->stopping) {
        return 0;
    }
    got = (*req)->req_status._ucount;
    source = (*req)->req_status.MPI_SOURCE;
    (*req)->req_state = OMPI_REQUEST_INACTIVE;
    if (got >= offsetof(match_pml_msg_t, info.tail) && MCA_MATCH_CHANNEL_TAIL_MAX >= buf->info.tail_len
        && got == MATCH_PML_MSG_SIZE(buf)) {
        memcpy(&msg, buf, got);
    } else {
        opal_output_verbose(MCA_BASE_VERBOSE_WARN, OMPI_MATCH_BASE_OUTPUT,
                            "match:pml: handshake message of %zu bytes from %d ignored", got,
                            source);
        (*req)->req_status.MPI_ERROR = MPI_ERR_TRUNCATE;
    }
    if (MPI_SUCCESS == (*req)->req_status.MPI_ERROR) {
        if (offer) {
            match_pml_on_offer(state, source, &msg);
        } else {
            match_pml_on_accept(state, source, &msg);
        }
    }
    if (OMPI_SUCCESS != (*req)->req_start(1, req)) {
        opal_output(0, "match:pml: cannot receive handshake messages on %s", state->comm->c_name);
    }
    return 1;
}

static int match_pml_progress(void)
{
    match_pml_comm_t *state;
    match_pml_send_t *send, *next;
    int events = 0;

    if (OPAL_THREAD_TRYLOCK(&match_pml_lock)) {
        return 0;
    }
    OPAL_LIST_FOREACH (state, &match_pml_comms, match_pml_comm_t) {
        events += match_pml_poll(state, &state->offer_req, &state->offer_buf, true);
        events += match_pml_poll(state, &state->accept_req, &state->accept_buf, false);
    }
    OPAL_LIST_FOREACH_SAFE (send, next, &match_pml_sends, match_pml_send_t) {
        if (ompi_request_seen_complete(send->req)) {
            opal_list_remove_item(&match_pml_sends, &send->super);
            (void) ompi_request_free(&send->req);
            OBJ_RELEASE(send);
        }
    }
    OPAL_THREAD_UNLOCK(&match_pml_lock);
    return events + mca_match_base_progress();
}

static int match_pml_match_p2p(mca_match_request_t *req)
{
    match_pml_comm_t *state;
    match_pml_waiting_t *waiting;
    match_pml_offer_t *offer;
    int ret = OMPI_SUCCESS;

    OPAL_THREAD_LOCK(&match_pml_lock);
    state = match_pml_comm_get(req->mr_desc.comm, &ret);
    if (NULL == state) {
        goto out;
    }

    if (!req->mr_desc.is_send) {
        OPAL_LIST_FOREACH (offer, &state->unexpected, match_pml_offer_t) {
            if (match_pml_accepts(req, offer->source, offer->tag)) {
                opal_list_remove_item(&state->unexpected, &offer->super);
                match_pml_accept(state, req, offer->source, offer->tag, offer->offer_id,
                                 &offer->info);
                OBJ_RELEASE(offer);
                goto out;
            }
        }
    }

    waiting = OBJ_NEW(match_pml_waiting_t);
    if (NULL == waiting) {
        ret = OMPI_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    waiting->req = req;
    if (req->mr_desc.is_send) {
        ret = mca_match_base_channel_offer(req, &waiting->offer);
        if (OMPI_SUCCESS != ret) {
            OBJ_RELEASE(waiting);
            goto out;
        }
        waiting->offer_id = state->next_offer++;
        ret = match_pml_send_msg(state->comm, req->mr_desc.peer, MATCH_PML_TAG_OFFER,
                                 req->mr_desc.tag, waiting->offer_id, &waiting->offer);
        if (OMPI_SUCCESS != ret) {
            mca_match_channel_info_t none = {.channel = MCA_MATCH_CHANNEL_PML};
            /* the fallback "chosen": releases what the offer reserved */
            (void) mca_match_base_channel_connect(req, &waiting->offer, &none);
            OBJ_RELEASE(waiting);
            goto out;
        }
        opal_list_append(&state->sending, &waiting->super);
    } else {
        opal_list_append(&state->posted, &waiting->super);
    }

out:
    OPAL_THREAD_UNLOCK(&match_pml_lock);
    return ret;
}

#if OPAL_ENABLE_FT_MPI

/* the error a failure or a revoke leaves a match with this peer, or
 * MPI_SUCCESS */
static int match_pml_ft_error(ompi_communicator_t *comm, int peer, bool revoked, bool failures)
{
    if (revoked) {
        return MPI_ERR_REVOKED;
    }
    if (failures && MPI_ANY_SOURCE != peer
        && !ompi_comm_is_proc_active(comm, peer, OMPI_COMM_IS_INTER(comm))) {
        return MPI_ERR_PROC_FAILED;
    }
    return MPI_SUCCESS;
}

static void match_pml_ft_sweep(void)
{
    match_pml_comm_t *state;
    match_pml_waiting_t *waiting, *next;
    bool failures;
    int err;

    failures = NULL != ompi_group_all_failed_procs
               && 0 < ompi_group_size(ompi_group_all_failed_procs);
    OPAL_THREAD_LOCK(&match_pml_lock);
    OPAL_LIST_FOREACH (state, &match_pml_comms, match_pml_comm_t) {
        bool revoked = ompi_comm_is_revoked(state->comm);
        int ended = 0;

        if (state->stopping || !(revoked || failures)) {
            continue;
        }
        OPAL_LIST_FOREACH_SAFE (waiting, next, &state->posted, match_pml_waiting_t) {
            err = match_pml_ft_error(state->comm, waiting->req->mr_desc.peer, revoked, failures);
            if (MPI_SUCCESS != err) {
                opal_list_remove_item(&state->posted, &waiting->super);
                mca_match_request_matched(waiting->req, err);
                OBJ_RELEASE(waiting);
                ++ended;
            }
        }
        OPAL_LIST_FOREACH_SAFE (waiting, next, &state->sending, match_pml_waiting_t) {
            err = match_pml_ft_error(state->comm, waiting->req->mr_desc.peer, revoked, failures);
            if (MPI_SUCCESS != err) {
                mca_match_channel_info_t none = {.channel = MCA_MATCH_CHANNEL_PML};

                opal_list_remove_item(&state->sending, &waiting->super);
                /* releases what the offer reserved; an ACCEPT that still
                 * comes finds no offer and is dropped */
                (void) mca_match_base_channel_connect(waiting->req, &waiting->offer, &none);
                mca_match_request_matched(waiting->req, err);
                OBJ_RELEASE(waiting);
                ++ended;
            }
        }
        if (0 < ended) {
            opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                                "match:pml: %d pending match(es) on %s ended by %s", ended,
                                state->comm->c_name,
                                revoked ? "its revoke" : "a process failure");
        }
    }
    OPAL_THREAD_UNLOCK(&match_pml_lock);
}

#endif /* OPAL_ENABLE_FT_MPI */

int mca_match_pml_channel_init(void)
{
    if (!match_pml_ready) {
        OBJ_CONSTRUCT(&match_pml_comms, opal_list_t);
        OBJ_CONSTRUCT(&match_pml_sends, opal_list_t);
        match_pml_ready = true;
    }
    return OMPI_SUCCESS;
}

int mca_match_pml_channel_fini(void)
{
    match_pml_send_t *send;

    if (!match_pml_ready) {
        return OMPI_SUCCESS;
    }
    if (match_pml_progressing) {
        opal_progress_unregister(match_pml_progress);
        match_pml_progressing = false;
    }
    (void) mca_match_base_progress();
    /* communicators never freed: their attributes are gone with them */
    while (NULL != opal_list_get_first(&match_pml_comms)
           && opal_list_get_end(&match_pml_comms) != opal_list_get_first(&match_pml_comms)) {
        match_pml_comm_t *state = (match_pml_comm_t *) opal_list_remove_first(&match_pml_comms);
        OPAL_LIST_DESTRUCT(&state->unexpected);
        OBJ_DESTRUCT(&state->posted);
        OBJ_DESTRUCT(&state->sending);
        OBJ_RELEASE(state);
    }
    while (NULL != (send = (match_pml_send_t *) opal_list_remove_first(&match_pml_sends))) {
        OBJ_RELEASE(send);
    }
    OBJ_DESTRUCT(&match_pml_comms);
    OBJ_DESTRUCT(&match_pml_sends);
    if (MPI_KEYVAL_INVALID != match_pml_keyval) {
        (void) ompi_attr_free_keyval(COMM_ATTR, &match_pml_keyval, false);
        match_pml_keyval = MPI_KEYVAL_INVALID;
    }
    if (MPI_KEYVAL_INVALID != match_pml_self_keyval) {
        (void) ompi_attr_free_keyval(COMM_ATTR, &match_pml_self_keyval, false);
        match_pml_self_keyval = MPI_KEYVAL_INVALID;
    }
    if (match_pml_attr_ref) {
        (void) ompi_attr_put_ref();
        match_pml_attr_ref = false;
    }
    match_pml_ready = false;
    return OMPI_SUCCESS;
}

mca_match_base_module_t mca_match_pml_module = {
    .match_component = &mca_match_pml_component.super,
    .match_p2p = match_pml_match_p2p,
#if OPAL_ENABLE_FT_MPI
    .match_ft_sweep = match_pml_ft_sweep,
#endif
    /* its own channel is the fallback the base leaves pairs to: no slots */
    .match_channel_id = MCA_MATCH_CHANNEL_PML,
};
