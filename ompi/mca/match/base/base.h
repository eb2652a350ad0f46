/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#ifndef OMPI_MCA_MATCH_BASE_BASE_H
#define OMPI_MCA_MATCH_BASE_BASE_H

#include "ompi_config.h"

#include <stdint.h>
#include <string.h>

#include "opal/datatype/opal_convertor.h"

#include "opal/mca/base/mca_base_framework.h"
#include "ompi/mca/match/match.h"

BEGIN_C_DECLS

OMPI_DECLSPEC extern mca_base_framework_t ompi_match_base_framework;

/** Verbose stream of the framework (match_base_verbose). */
#define OMPI_MATCH_BASE_OUTPUT (ompi_match_base_framework.framework_output)

/** The pairing module (the highest-priority one with match_p2p), NULL when
 * none: MPI_Match is then not available. */
OMPI_DECLSPEC extern mca_match_base_module_t *mca_match_base_selected_module;

#define MCA_MATCH_BASE_MAX_CHANNELS 8

/** Channel modules, by decreasing priority. */
OMPI_DECLSPEC extern mca_match_base_module_t *mca_match_base_channels[MCA_MATCH_BASE_MAX_CHANNELS];
OMPI_DECLSPEC extern int mca_match_base_channel_count;

/** match_base_fallback: false makes a channel that applies to a pair but
 * cannot be set up fail the match instead of falling back. */
OMPI_DECLSPEC extern bool mca_match_base_fallback;

/**
 * The PML is selected (instance initialization): start recording the
 * arguments of persistent point-to-point requests.
 */
OMPI_DECLSPEC int mca_match_base_pml_selected(void);

/**
 * Under ULFM, have Open MPI's wait and test functions ask the base whether
 * a process failure or a revoked communicator ends a matched request
 * (match_base_ft.c); nothing without ULFM support.  Called at framework open.
 */
int mca_match_base_ft_init(void);

struct ompi_datatype_t;

/**
 * What a channel keeps of one side of a matched pair, set up the same way
 * by every channel component: the datatype retained (the program may free
 * it once the matched request exists), whether the data is one block and
 * where it starts, and a convertor prepared for this side.
 *
 * @param[in]  is_send     the send side (convertor prepared for packing)
 * @param[out] dtype_out   the retained datatype (released by the owner)
 * @return OMPI_SUCCESS or the convertor's error (nothing retained then)
 */
OMPI_DECLSPEC int mca_match_base_channel_side_prepare(bool is_send, void *buf, size_t count,
                                                      struct ompi_datatype_t *datatype,
                                                      struct ompi_datatype_t **dtype_out,
                                                      bool *contiguous, unsigned char **cptr,
                                                      opal_convertor_t *convertor);

/**
 * Is buf device (GPU) memory?  Channels that move data with the CPU or a
 * host-memory registration decline such a buffer at match time.
 */
OMPI_DECLSPEC bool mca_match_base_on_device(const void *buf);

/**
 * A whole message through a side's convertor (a non-contiguous side):
 * pack bytes of the send side into dst, or unpack bytes from src into the
 * receive side, from the start of the message.
 */
OMPI_DECLSPEC void mca_match_base_channel_pack(opal_convertor_t *convertor, void *dst,
                                               size_t bytes);
OMPI_DECLSPEC void mca_match_base_channel_unpack(opal_convertor_t *convertor, const void *src,
                                                 size_t bytes);

/**
 * A channel info's tail as n pieces (addresses, keys, names): a header of
 * n 32-bit lengths, then the pieces one after the other.  pack fills
 * info->tail and tail_len (OMPI_ERR_OUT_OF_RESOURCE when they do not fit
 * MCA_MATCH_CHANNEL_TAIL_MAX); piece finds piece which of a received
 * info's n (false when the tail is short or inconsistent).
 */
#define MCA_MATCH_BASE_TAIL_PIECES_MAX 4
OMPI_DECLSPEC int mca_match_base_tail_pack(mca_match_channel_info_t *info, int n,
                                           const void *const piece[], const size_t len[]);
OMPI_DECLSPEC bool mca_match_base_tail_piece(const mca_match_channel_info_t *info, int n,
                                             int which, const void **piece, size_t *len);

/**
 * Copy a small message between the program's buffer and a channel's line:
 * 8 to 16 bytes as two (overlapping) 8-byte moves, without a call, since
 * this copy is on the latency path of every small matched message; other
 * sizes through memcpy.
 */
static inline void mca_match_base_copy_small(void *dst, const void *src, size_t n)
{
    if (OPAL_LIKELY(n - 8 <= 8)) {
        uint64_t head, tail;

        memcpy(&head, src, 8);
        memcpy(&tail, (const unsigned char *) src + n - 8, 8);
        memcpy(dst, &head, 8);
        memcpy((unsigned char *) dst + n - 8, &tail, 8);
        return;
    }
    memcpy(dst, src, n);
}

END_C_DECLS

#endif /* OMPI_MCA_MATCH_BASE_BASE_H */
