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
 * Per-pair channel selection.  The sender offers the first channel module
 * that applies to the pair (it knows the destination and its own buffer);
 * the receiver, who then knows both sides, sets it up or declines; the
 * sender finishes it.  Whatever declines leaves the pair to the pairing
 * module's own channel, decided before MPI_Match completes on either side.
 */

#include "ompi_config.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>
#include <sys/uio.h>

#include "opal/mca/accelerator/accelerator.h"
#include "opal/util/output.h"
#include "ompi/communicator/communicator.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/proc/proc.h"

static const char *match_base_channel_name(int32_t id)
{
    for (int i = 0; i < mca_match_base_channel_count; ++i) {
        if (mca_match_base_channels[i]->match_channel_id == id) {
            return mca_match_base_channels[i]->match_component->matchm_version.mca_component_name;
        }
    }
    return MCA_MATCH_CHANNEL_PML == id ? "pml" : "unknown";
}

static mca_match_base_module_t *match_base_channel_find(int32_t id)
{
    for (int i = 0; i < mca_match_base_channel_count; ++i) {
        if (mca_match_base_channels[i]->match_channel_id == id) {
            return mca_match_base_channels[i];
        }
    }
    return NULL;
}

static uint64_t match_base_bytes(const mca_match_request_t *req)
{
    size_t size = 0;

    (void) ompi_datatype_type_size(req->mr_desc.datatype, &size);
    return (uint64_t) size * req->mr_desc.count;
}

/* a module that applies but cannot be set up: fall back, or fail */
static int match_base_channel_declined(const mca_match_request_t *req, const char *side,
                                       const mca_match_base_module_t *module, int ret)
{
    const char *name = module->match_component->matchm_version.mca_component_name;

    if (OMPI_ERR_NOT_SUPPORTED == ret) {
        opal_output_verbose(MCA_BASE_VERBOSE_TRACE, OMPI_MATCH_BASE_OUTPUT,
                            "match:base: request %p: channel %s does not apply (%s)",
                            (const void *) req, name, side);
        return OMPI_SUCCESS;
    }
    opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                        "match:base: request %p: channel %s cannot be set up (%s, error %d)%s",
                        (const void *) req, name, side, ret,
                        mca_match_base_fallback ? ": falling back" : "");
    return mca_match_base_fallback ? OMPI_SUCCESS : OMPI_ERROR;
}

int mca_match_base_channel_offer(mca_match_request_t *req, mca_match_channel_info_t *offer)
{
    ompi_proc_t *peer = NULL;

    memset(offer, 0, offsetof(mca_match_channel_info_t, tail));
    offer->channel = MCA_MATCH_CHANNEL_PML;
    offer->bytes = match_base_bytes(req);
    if (0 <= req->mr_desc.peer) {
        peer = ompi_comm_peer_lookup(req->mr_desc.comm, req->mr_desc.peer);
    }
    for (int i = 0; NULL != peer && i < mca_match_base_channel_count; ++i) {
        mca_match_base_module_t *module = mca_match_base_channels[i];
        int ret = module->match_channel_offer(req, peer, offer);

        if (OMPI_SUCCESS == ret) {
            offer->channel = module->match_channel_id;
            return OMPI_SUCCESS;
        }
        offer->flags = 0;
        offer->tail_len = 0;
        memset(offer->word, 0, sizeof(offer->word));
        if (OMPI_SUCCESS != match_base_channel_declined(req, "sender", module, ret)) {
            return OMPI_ERROR;
        }
    }
    return OMPI_SUCCESS;
}

int mca_match_base_channel_accept(mca_match_request_t *req, int source,
                                  const mca_match_channel_info_t *offer,
                                  mca_match_channel_info_t *accept)
{
    mca_match_base_module_t *module = match_base_channel_find(offer->channel);
    int ret;

    memset(accept, 0, offsetof(mca_match_channel_info_t, tail));
    accept->channel = MCA_MATCH_CHANNEL_PML;
    accept->bytes = match_base_bytes(req);
    if (NULL != module) {
        ret = module->match_channel_accept(req, ompi_comm_peer_lookup(req->mr_desc.comm, source),
                                           offer, accept);
        if (OMPI_SUCCESS == ret) {
            accept->channel = module->match_channel_id;
        } else {
            accept->flags = 0;
            accept->tail_len = 0;
            memset(accept->word, 0, sizeof(accept->word));
            if (OMPI_SUCCESS != match_base_channel_declined(req, "receiver", module, ret)) {
                return OMPI_ERROR;
            }
        }
    } else if (MCA_MATCH_CHANNEL_PML != offer->channel && !mca_match_base_fallback) {
        /* the peer offered a channel this process did not open */
        return OMPI_ERROR;
    }
    opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                        "match:base: channel %s for %s:%d -> %s:%d tag %d (%llu -> %llu bytes)",
                        match_base_channel_name(accept->channel), req->mr_desc.comm->c_name,
                        source, req->mr_desc.comm->c_name, req->mr_desc.comm->c_my_rank,
                        req->mr_tag, (unsigned long long) offer->bytes,
                        (unsigned long long) accept->bytes);
    return OMPI_SUCCESS;
}

int mca_match_base_channel_connect(mca_match_request_t *req,
                                   const mca_match_channel_info_t *offer,
                                   const mca_match_channel_info_t *accept)
{
    mca_match_base_module_t *module = match_base_channel_find(offer->channel);

    if (NULL == module) {
        return OMPI_ERR_NOT_FOUND;
    }
    if (accept->channel != offer->channel) {
        module->match_channel_abandon(req, offer);
        return OMPI_ERR_NOT_FOUND;
    }
    return module->match_channel_connect(req, offer, accept);
}

int mca_match_base_channel_side_prepare(bool is_send, void *buf, size_t count,
                                        struct ompi_datatype_t *datatype,
                                        struct ompi_datatype_t **dtype_out, bool *contiguous,
                                        unsigned char **cptr, opal_convertor_t *convertor)
{
    int ret;

    *contiguous = opal_datatype_is_contiguous_memory_layout(&datatype->super, count);
    *cptr = (unsigned char *) buf + datatype->super.true_lb;
    if (is_send) {
        ret = opal_convertor_copy_and_prepare_for_send(ompi_mpi_local_convertor, &datatype->super,
                                                       count, buf, 0, convertor);
    } else {
        ret = opal_convertor_copy_and_prepare_for_recv(ompi_mpi_local_convertor, &datatype->super,
                                                       count, buf, 0, convertor);
    }
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    OMPI_DATATYPE_RETAIN(datatype);
    *dtype_out = datatype;
    return OMPI_SUCCESS;
}

bool mca_match_base_on_device(const void *buf)
{
    int dev_id;
    uint64_t flags;

    return NULL != buf && 0 < opal_accelerator.check_addr(buf, &dev_id, &flags);
}

void mca_match_base_channel_pack(opal_convertor_t *convertor, void *dst, size_t bytes)
{
    struct iovec iov = {.iov_base = dst, .iov_len = bytes};
    uint32_t iov_count = 1;
    size_t max_data = bytes, zero = 0;

    (void) opal_convertor_set_position(convertor, &zero);
    (void) opal_convertor_pack(convertor, &iov, &iov_count, &max_data);
}

void mca_match_base_channel_unpack(opal_convertor_t *convertor, const void *src, size_t bytes)
{
    struct iovec iov = {.iov_base = (void *) src, .iov_len = bytes};
    uint32_t iov_count = 1;
    size_t max_data = bytes, zero = 0;

    (void) opal_convertor_set_position(convertor, &zero);
    (void) opal_convertor_unpack(convertor, &iov, &iov_count, &max_data);
}

int mca_match_base_tail_pack(mca_match_channel_info_t *info, int n, const void *const piece[],
                             const size_t len[])
{
    uint32_t head[MCA_MATCH_BASE_TAIL_PIECES_MAX] = {0};
    size_t at = (size_t) n * sizeof(uint32_t);

    assert(0 < n && MCA_MATCH_BASE_TAIL_PIECES_MAX >= n);
    for (int i = 0; i < n; ++i) {
        if (at + len[i] > MCA_MATCH_CHANNEL_TAIL_MAX) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        head[i] = (uint32_t) len[i];
        if (0 < len[i]) {
            memcpy(info->tail + at, piece[i], len[i]);
        }
        at += len[i];
    }
    memcpy(info->tail, head, (size_t) n * sizeof(uint32_t));
    info->tail_len = (uint32_t) at;
    return OMPI_SUCCESS;
}

bool mca_match_base_tail_piece(const mca_match_channel_info_t *info, int n, int which,
                               const void **piece, size_t *len)
{
    uint32_t head[MCA_MATCH_BASE_TAIL_PIECES_MAX];
    size_t at = (size_t) n * sizeof(uint32_t);

    assert(0 <= which && which < n && MCA_MATCH_BASE_TAIL_PIECES_MAX >= n);
    if (info->tail_len < at || info->tail_len > MCA_MATCH_CHANNEL_TAIL_MAX) {
        return false;
    }
    memcpy(head, info->tail, at);
    for (int i = 0; i < which; ++i) {
        at += head[i];
    }
    if (at + head[which] > info->tail_len) {
        return false;
    }
    *piece = info->tail + at;
    *len = head[which];
    return true;
}
