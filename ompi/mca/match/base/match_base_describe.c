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
 * MPI_Match needs the arguments a persistent point-to-point request was
 * created with, and no PML exposes them in a common form.  So once the PML
 * is selected, its isend_init and irecv_init entries are wrapped: each
 * creation is recorded, keyed by the request's address.
 *
 * A record is replaced when the PML hands the same request object out
 * again, so the table never holds more records than the PML has request
 * objects; records of freed requests are never consulted, because only live,
 * inactive, persistent requests reach mca_match_base_describe().
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "opal/class/opal_hash_table.h"
#include "opal/mca/threads/mutex.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/pml/pml.h"

static mca_pml_base_module_isend_init_fn_t match_base_pml_isend_init = NULL;
static mca_pml_base_module_irecv_init_fn_t match_base_pml_irecv_init = NULL;
static opal_hash_table_t match_base_descs;
static opal_mutex_t match_base_descs_lock;
static bool match_base_describing = false;

static void match_base_record(ompi_request_t *request, const mca_match_p2p_desc_t *desc)
{
    mca_match_p2p_desc_t *rec = NULL;
    void *old = NULL;

    OPAL_THREAD_LOCK(&match_base_descs_lock);
    if (OPAL_SUCCESS == opal_hash_table_get_value_uint64(&match_base_descs,
                                                         (uint64_t) (uintptr_t) request, &old)) {
        rec = (mca_match_p2p_desc_t *) old;
    } else {
        rec = malloc(sizeof(*rec));
        if (NULL != rec) {
            (void) opal_hash_table_set_value_uint64(&match_base_descs,
                                                    (uint64_t) (uintptr_t) request, rec);
        }
    }
    if (NULL != rec) {
        *rec = *desc;
    }
    OPAL_THREAD_UNLOCK(&match_base_descs_lock);
}

static int match_base_isend_init(const void *buf, size_t count, struct ompi_datatype_t *datatype,
                                 int dst, int tag, mca_pml_base_send_mode_t mode,
                                 struct ompi_communicator_t *comm, ompi_request_t **request)
{
    int ret = match_base_pml_isend_init(buf, count, datatype, dst, tag, mode, comm, request);

    if (OMPI_SUCCESS == ret) {
        mca_match_p2p_desc_t desc = {.is_send = true, .buf = (void *) buf, .count = count,
                                     .datatype = datatype, .peer = dst, .tag = tag,
                                     .mode = mode, .comm = comm};
        match_base_record(*request, &desc);
    }
    return ret;
}

static int match_base_irecv_init(void *buf, size_t count, struct ompi_datatype_t *datatype,
                                 int src, int tag, struct ompi_communicator_t *comm,
                                 ompi_request_t **request)
{
    int ret = match_base_pml_irecv_init(buf, count, datatype, src, tag, comm, request);

    if (OMPI_SUCCESS == ret) {
        mca_match_p2p_desc_t desc = {.is_send = false, .buf = buf, .count = count,
                                     .datatype = datatype, .peer = src, .tag = tag,
                                     .mode = MCA_PML_BASE_SEND_STANDARD, .comm = comm};
        match_base_record(*request, &desc);
    }
    return ret;
}

int mca_match_base_describe_init(void)
{
    if (match_base_describing) {
        return OMPI_SUCCESS;
    }
    OBJ_CONSTRUCT(&match_base_descs, opal_hash_table_t);
    OBJ_CONSTRUCT(&match_base_descs_lock, opal_mutex_t);
    if (OPAL_SUCCESS != opal_hash_table_init(&match_base_descs, 256)) {
        OBJ_DESTRUCT(&match_base_descs_lock);
        OBJ_DESTRUCT(&match_base_descs);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    match_base_pml_isend_init = mca_pml.pml_isend_init;
    match_base_pml_irecv_init = mca_pml.pml_irecv_init;
    mca_pml.pml_isend_init = match_base_isend_init;
    mca_pml.pml_irecv_init = match_base_irecv_init;
    match_base_describing = true;
    return OMPI_SUCCESS;
}

void mca_match_base_describe_fini(void)
{
    uint64_t key;
    void *value;

    if (!match_base_describing) {
        return;
    }
    if (mca_pml.pml_isend_init == match_base_isend_init) {
        mca_pml.pml_isend_init = match_base_pml_isend_init;
    }
    if (mca_pml.pml_irecv_init == match_base_irecv_init) {
        mca_pml.pml_irecv_init = match_base_pml_irecv_init;
    }
    OPAL_HASH_TABLE_FOREACH (key, uint64, value, &match_base_descs) {
        (void) key;
        free(value);
    }
    OBJ_DESTRUCT(&match_base_descs);
    OBJ_DESTRUCT(&match_base_descs_lock);
    match_base_describing = false;
}

bool mca_match_base_describe(const ompi_request_t *request, mca_match_p2p_desc_t *desc)
{
    void *value = NULL;
    bool found = false;

    if (!match_base_describing) {
        return false;
    }
    OPAL_THREAD_LOCK(&match_base_descs_lock);
    if (OPAL_SUCCESS == opal_hash_table_get_value_uint64(&match_base_descs,
                                                         (uint64_t) (uintptr_t) request, &value)) {
        *desc = *(mca_match_p2p_desc_t *) value;
        found = true;
    }
    OPAL_THREAD_UNLOCK(&match_base_descs_lock);
    return found;
}

int mca_match_base_channel_isend_init(const void *buf, size_t count,
                                      struct ompi_datatype_t *datatype, int dst, int tag,
                                      mca_pml_base_send_mode_t mode,
                                      struct ompi_communicator_t *comm, ompi_request_t **request)
{
    mca_pml_base_module_isend_init_fn_t fn = match_base_describing ? match_base_pml_isend_init
                                                                   : mca_pml.pml_isend_init;
    return fn(buf, count, datatype, dst, tag, mode, comm, request);
}

int mca_match_base_channel_irecv_init(void *buf, size_t count, struct ompi_datatype_t *datatype,
                                      int src, int tag, struct ompi_communicator_t *comm,
                                      ompi_request_t **request)
{
    mca_pml_base_module_irecv_init_fn_t fn = match_base_describing ? match_base_pml_irecv_init
                                                                   : mca_pml.pml_irecv_init;
    return fn(buf, count, datatype, src, tag, comm, request);
}
