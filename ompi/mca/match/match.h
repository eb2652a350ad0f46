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
 * Match framework: pairs a persistent request with its peer once
 * (MPI_Match and friends), so that later starts need no tag matching.
 *
 * The base owns what every component shares: the description of each
 * persistent point-to-point request (which the selected PML gives through
 * its module's pml_describe slot, pml.h: the match framework reads no
 * PML's requests itself, and refuses, naming it, a PML without the slot),
 * the matched-request class that replaces the program's handle, and the
 * nonblocking match request returned by MPI_Imatch / MPI_Imatchall.
 * A component pairs point-to-point requests with their peers and builds the
 * channel that later starts use.
 *
 * Two jobs, two kinds of slots.  Pairing (the handshake that follows MPI
 * matching rules) is done by one module, the highest-priority one with a
 * match_p2p slot (today the pml component).  Channels (what a start of a
 * matched pair runs) are chosen per pair at match time: every component
 * whose init returns a module stays open, and the pairing module asks the
 * channel modules in priority order (match_channel_offer on the sender,
 * match_channel_accept on the receiver, match_channel_connect back on the
 * sender) until one sets the pair up; a pair that no channel module takes
 * gets the pairing module's own channel (a PML persistent request on a
 * private tag).  So a channel that cannot be set up falls back at match
 * time, never at start time.  Which components may serve is chosen as in
 * any framework (--mca match sm,pml; --mca match ^sm); the choice for each
 * pair is reported on the framework's verbose stream.
 */

#ifndef OMPI_MCA_MATCH_MATCH_H
#define OMPI_MCA_MATCH_MATCH_H

#include "ompi_config.h"

#include <stddef.h>

#include "ompi/mca/mca.h"
#include "opal/mca/base/base.h"

BEGIN_C_DECLS

/**
 * The top tag of the match band (OMPI_MATCH_TAG_BAND_TOP, coll_tags.h) is
 * no channel's: the MPIX graphs extension's remote barrier sends on it (a
 * zero-byte message from the watched process to each other member), so
 * that it meets neither user traffic nor a matched pair's.
 */
#define OMPI_MATCH_TAG_REMOTE_BARRIER OMPI_MATCH_TAG_BAND_TOP

struct mca_match_base_module_t;
struct mca_match_request_t;
struct ompi_proc_t;
struct ompi_request_t;

/**
 * Component initialization, called once at framework open, in the thread
 * that initializes MPI.  Every component that returns a module stays open
 * (pairing and channels are chosen among them by priority).
 *
 * @param[out] priority  priority of the returned module
 * @return the module, or NULL when the component cannot work here
 */
typedef struct mca_match_base_module_t *(*mca_match_base_component_init_fn_t)(int *priority);

/** Release what init acquired (components whose init returned a module), at
 * framework close. */
typedef int (*mca_match_base_component_finalize_fn_t)(void);

typedef struct mca_match_base_component_1_0_0_t {
    mca_base_component_t matchm_version;
    mca_base_component_data_t matchm_data;
    mca_match_base_component_init_fn_t matchm_init;
    mca_match_base_component_finalize_fn_t matchm_finalize;
} mca_match_base_component_1_0_0_t;
typedef mca_match_base_component_1_0_0_t mca_match_base_component_t;

/**
 * Begin to match one point-to-point request (pairing module only).
 *
 * The base has validated the request and built its matched-request object
 * (request->mr_desc describes the program's original request).  The module
 * pairs it with the peer's request, following MPI matching rules on
 * (communicator, source, tag) in the order of these calls, has the channel
 * set up (through mca_match_base_channel_offer/accept/connect, or its own)
 * and then calls mca_match_request_matched(request, status).  It may do so
 * before returning.  Local: it must not block.  Called in the thread that
 * calls MPI_Match and friends, with no lock held.
 *
 * @retval OMPI_SUCCESS  the match is under way (or done)
 * @retval other         nothing was started, nothing changed
 */
typedef int (*mca_match_base_module_match_p2p_fn_t)(struct mca_match_request_t *request);

/**
 * ULFM (mpirun --with-ft ulfm): end the pending matches that a process
 * failure or a revoked communicator leaves without an answer (pairing
 * module only; NULL where the module has no handshake to lose).
 *
 * A pending match whose named peer has failed ends with
 * MPI_ERR_PROC_FAILED, every pending match on a revoked communicator with
 * MPI_ERR_REVOKED, each through mca_match_request_matched; a receive from
 * MPI_ANY_SOURCE is ended by the revoke only (its peer is not known yet).
 * Called by the base when a wait or test asks whether a failure ends a
 * match operation (ompi_request_is_failed), in that thread, with no lock
 * held; cheap when nothing failed.
 */
typedef void (*mca_match_base_module_ft_sweep_fn_t)(void);

/** Channel kinds, carried in the handshake: both sides run the same build. */
typedef enum {
    MCA_MATCH_CHANNEL_PML = 0, /**< the pairing module's PML channel (fallback) */
    MCA_MATCH_CHANNEL_SM = 1,  /**< shared memory between processes of one node */
    MCA_MATCH_CHANNEL_UCX = 2, /**< UCX remote memory access (puts and flags) */
    MCA_MATCH_CHANNEL_OFI = 3, /**< libfabric remote memory access (writes with CQ data) */
} mca_match_channel_id_t;

/** Most bytes of a channel info's tail (remote keys, addresses). */
#define MCA_MATCH_CHANNEL_TAIL_MAX 2048

/**
 * What one side tells the other about its half of a channel, inside the
 * handshake messages.  The base fills channel and bytes; flags, word and
 * the tail belong to the channel component named by channel.  Only the
 * tail_len bytes of the tail in use travel: a channel that needs no tail
 * leaves tail_len at 0 and the handshake stays small.
 */
typedef struct mca_match_channel_info_t {
    int32_t channel;  /**< mca_match_channel_id_t */
    uint32_t flags;   /**< component-defined */
    uint64_t bytes;   /**< packed size of this side's message (count x type size) */
    uint64_t word[3]; /**< component-defined */
    uint32_t tail_len; /**< bytes of tail in use */
    uint32_t pad;
    uint8_t tail[MCA_MATCH_CHANNEL_TAIL_MAX]; /**< component-defined, variable length */
} mca_match_channel_info_t;

/** Bytes of an info that carry something: the fixed part and the tail in use. */
#define MCA_MATCH_CHANNEL_INFO_SIZE(info) \
    (offsetof(mca_match_channel_info_t, tail) + (size_t) (info)->tail_len)

/**
 * Sender, before its offer leaves: may this module carry the pair, and
 * what does the receiver need to know?  Reserves what the channel needs on
 * the sender's side (released by connect's failure or by abandon).
 *
 * Called in the MPI_Match thread, under the pairing module's lock: must
 * not block and must not call back into the match framework.
 *
 * @param request   the matched send request (mr_desc filled)
 * @param peer      the destination process
 * @param[out] info flags and word (channel and bytes are the base's)
 * @retval OMPI_SUCCESS           offered
 * @retval OMPI_ERR_NOT_SUPPORTED the module does not apply to this pair
 *                                (another node, a send mode it leaves to
 *                                the fallback): not a fallback
 * @retval other                  it applies but cannot be set up now (no
 *                                resources): the pair falls back
 */
typedef int (*mca_match_base_module_channel_offer_fn_t)(struct mca_match_request_t *request,
                                                        struct ompi_proc_t *peer,
                                                        mca_match_channel_info_t *info);

/**
 * Receiver, when an offer of this module's channel is paired with it: set
 * up the receiving half (request->mr_chan and mr_chan_ops) or decline.
 *
 * Called in the thread that runs the pairing module's progress (any
 * thread), under its lock: must not block.
 *
 * @param request   the matched receive request (mr_peer and mr_tag set)
 * @param peer      the source process
 * @param offer     what the sender offered
 * @param[out] info flags and word for the sender's connect
 * @retval OMPI_SUCCESS  set up: request->mr_chan is the channel's half
 * @retval OMPI_ERR_NOT_SUPPORTED, other  as for offer; nothing is left
 */
typedef int (*mca_match_base_module_channel_accept_fn_t)(struct mca_match_request_t *request,
                                                         struct ompi_proc_t *peer,
                                                         const mca_match_channel_info_t *offer,
                                                         mca_match_channel_info_t *info);

/**
 * Sender, when the receiver accepted its offer: set up the sending half
 * (request->mr_chan and mr_chan_ops) from what the receiver said.  Same thread and lock
 * as accept.  On error the reservation is released and the match fails
 * (the receiver already holds its half: there is no falling back here, so
 * a module does all that can fail in offer).
 */
typedef int (*mca_match_base_module_channel_connect_fn_t)(struct mca_match_request_t *request,
                                                          const mca_match_channel_info_t *offer,
                                                          const mca_match_channel_info_t *accept);

/**
 * Sender, when the receiver chose another channel: release what offer
 * reserved.  Same thread and lock as accept.
 */
typedef void (*mca_match_base_module_channel_abandon_fn_t)(struct mca_match_request_t *request,
                                                           const mca_match_channel_info_t *offer);

/**
 * What a channel module's half of a pair does, run on the matched request
 * itself: a channel keeps no request of its own, so a start and its
 * completion touch one request.  The module sets request->mr_chan (its
 * state for the pair) and request->mr_chan_ops in accept and connect.
 */
typedef struct mca_match_channel_ops_t {
    /**
     * The matched request's req_start once it is matched (MPI_Start,
     * MPI_Startall: count requests of this channel).  Refuses, with
     * OMPI_ERR_REQUEST and nothing started, requests an owner holds
     * (mca_match_request_start_refused, request_owner.h); starts the others
     * as start_owned.
     */
    int (*start)(size_t count, struct ompi_request_t **requests);
    /**
     * Start one matched request (its owner's start, or the base's):
     * mca_match_request_activate, then the channel's transfer.  When the
     * transfer is done (now or from the module's progress, in any thread)
     * the module fills req_status's MPI_ERROR and _ucount and calls
     * mca_match_request_channel_done, once per start.
     */
    int (*start_owned)(struct mca_match_request_t *request);
    /**
     * Optional (NULL: never).  The owner's next start of this inactive
     * request will come later, once earlier work is done (a queue's start
     * behind pending operations): prepare the transfer now where the
     * channel can set it off at start_owned without the host doing the
     * work then (a triggered network operation whose trigger start_owned
     * pulls).  Returns true when armed; false leaves the start to
     * start_owned as usual.  The data is read when the transfer runs, not
     * now.  Called by the owner's engine in the thread that enqueues,
     * under the owner's own lock (a queue's), never the channel's; an
     * armed request not started by its release is disarmed then.
     */
    bool (*arm)(struct mca_match_request_t *request);
    /** MPI_Cancel of an active request: complete it cancelled
     * (mca_match_request_channel_cancelled), or leave it. */
    void (*cancel)(struct mca_match_request_t *request);
    /**
     * The peer failed or the communicator was revoked (ULFM,
     * match_base_ft.c): take back the request's transfer if it is still
     * under way.  Returns true when it was (the base then completes the
     * request in error), false when its completion is already decided.
     * Any thread that waits or tests, no lock held.
     */
    bool (*abort)(struct mca_match_request_t *request);
    /** Release request->mr_chan: the request is inactive and being released,
     * or its match failed after the module set it up. */
    void (*release)(struct mca_match_request_t *request);
} mca_match_channel_ops_t;

/**
 * Match module.  A pairing module has match_p2p; a channel module has
 * channel_id and the four channel slots; a module may be both.
 *
 * A channel module's half of a pair runs on the matched request
 * (mca_match_channel_ops_t).  The pairing module's own channel (the
 * fallback) is a PML persistent request instead, the matched request's
 * mr_inner: the base starts it with req_start (in the thread that starts
 * the matched request), learns of its completion through req_complete_cb
 * (in whatever thread completes it; the channel fills req_status's
 * MPI_ERROR and _ucount), and releases it with ompi_request_free when
 * inactive, never before the matched request is released.
 */
typedef struct mca_match_base_module_t {
    /** the component this module belongs to */
    const mca_match_base_component_t *match_component;
    mca_match_base_module_match_p2p_fn_t match_p2p;
    mca_match_base_module_ft_sweep_fn_t match_ft_sweep;
    mca_match_channel_id_t match_channel_id;
    mca_match_base_module_channel_offer_fn_t match_channel_offer;
    mca_match_base_module_channel_accept_fn_t match_channel_accept;
    mca_match_base_module_channel_connect_fn_t match_channel_connect;
    mca_match_base_module_channel_abandon_fn_t match_channel_abandon;
} mca_match_base_module_t;

#define MCA_MATCH_BASE_VERSION_1_0_0 OMPI_MCA_BASE_VERSION_2_1_0("match", 1, 0, 0)

/**
 * The initializer of a match component's mca_match_base_component_t: its
 * name, its mca_register_component_params, matchm_init and
 * matchm_finalize; the framework's version, Open MPI's release as the
 * component's version, no checkpoint metadata.
 */
#define MCA_MATCH_BASE_COMPONENT_INIT(name_, register_, init_, finalize_)                      \
    {                                                                                          \
        .matchm_version = {                                                                    \
            MCA_MATCH_BASE_VERSION_1_0_0,                                                      \
            .mca_component_name = (name_),                                                     \
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,           \
                                  OMPI_RELEASE_VERSION),                                       \
            .mca_register_component_params = (register_),                                      \
        },                                                                                     \
        .matchm_data = {MCA_BASE_METADATA_PARAM_NONE},                                         \
        .matchm_init = (init_),                                                                \
        .matchm_finalize = (finalize_),                                                        \
    }

END_C_DECLS

#endif /* OMPI_MCA_MATCH_MATCH_H */
