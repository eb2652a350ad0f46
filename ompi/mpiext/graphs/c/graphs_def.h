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
 * The work of the _def bindings (contrib/graphs/gen-bindings.py): each
 * function makes the token of one kind of operation from the arguments its
 * binding checked, with the arguments given as graph variables (vb, NULL
 * when none), and hands it to the program (*token).  The large-count
 * bindings call them with the count and datatype converted
 * (graphs_big_args).
 *
 * Inline: a _def is on the per-message path of streams, and the plain path
 * of a binding (vb NULL) folds the tests of vb away.
 *
 * Each returns MPI_SUCCESS, or MPI_ERR_NO_MEM when no token can be made (and
 * then nothing is changed).
 */

#ifndef OMPI_MPIEXT_GRAPHS_DEF_H
#define OMPI_MPIEXT_GRAPHS_DEF_H

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "ompi/info/info.h"
#include "ompi/mpiext/graphs/c/graphs.h"
#include "ompi/mpiext/graphs/c/graphs_bindings.h"

static inline void graphs_set_p2p(graphs_p2p_args_t *p, void *buf, int count,
                                  ompi_datatype_t *dtype, int peer, int tag,
                                  ompi_status_public_t *status)
{
    p->buf = buf;
    p->count = count;
    p->dtype = graphs_keep_type(dtype);
    p->peer = peer;
    p->tag = tag;
    p->status = status;
}

/* the program's token, with its arguments bound to graph variables */
static inline int graphs_def_done(ompi_mpix_token_t *t, const graphs_vb_t *vb, MPIX_Token *token)
{
    if (NULL != vb) {
        graphs_vb_commit(t, vb);
    }
    *token = t;
    return MPI_SUCCESS;
}

/** MPIX_Send_def (kind GRAPHS_OP_SEND, status MPI_STATUS_IGNORE) and
 * MPIX_Recv_def (GRAPHS_OP_RECV) */
static inline int graphs_def_p2p(int kind, void *buf, int count, ompi_datatype_t *dtype, int peer,
                                 int tag, ompi_status_public_t *status, ompi_communicator_t *comm,
                                 MPIX_Token *token, const graphs_vb_t *vb)
{
    ompi_mpix_token_t *t = graphs_token_new(kind, comm);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    graphs_set_p2p(&t->a.p2p, buf, count, dtype, peer, tag, status);
    return graphs_def_done(t, vb, token);
}

static inline int graphs_def_sendrecv(const void *sendbuf, int sendcount, ompi_datatype_t *sendtype,
                                      int dest, int sendtag, void *recvbuf, int recvcount,
                                      ompi_datatype_t *recvtype, int source, int recvtag,
                                      ompi_status_public_t *status, ompi_communicator_t *comm,
                                      MPIX_Token *token, const graphs_vb_t *vb)
{
    ompi_mpix_token_t *t = graphs_token_new(GRAPHS_OP_SENDRECV, comm);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    graphs_set_p2p(&t->a.sr.send, (void *) sendbuf, sendcount, sendtype, dest, sendtag,
                   MPI_STATUS_IGNORE);
    graphs_set_p2p(&t->a.sr.recv, recvbuf, recvcount, recvtype, source, recvtag, status);
    return graphs_def_done(t, vb, token);
}

static inline int graphs_def_barrier(ompi_communicator_t *comm, MPIX_Token *token,
                                     const graphs_vb_t *vb)
{
    ompi_mpix_token_t *t = graphs_token_new(GRAPHS_OP_BARRIER, comm);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    return graphs_def_done(t, vb, token);
}

static inline int graphs_def_remote_barrier(ompi_communicator_t *comm, int watched,
                                            MPIX_Token *token, const graphs_vb_t *vb)
{
    ompi_mpix_token_t *t = graphs_token_new(GRAPHS_OP_REMOTE_BARRIER, comm);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    t->a.coll.root = watched;
    return graphs_def_done(t, vb, token);
}

/** MPIX_Bcast_def (sbuf and op NULL), MPIX_Reduce_def, MPIX_Allreduce_def
 * (root 0) */
static inline int graphs_def_coll(int kind, const void *sbuf, void *rbuf, int count,
                                  ompi_datatype_t *dtype, ompi_op_t *op, int root,
                                  ompi_communicator_t *comm, MPIX_Token *token,
                                  const graphs_vb_t *vb)
{
    ompi_mpix_token_t *t = graphs_token_new(kind, comm);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    t->a.coll.sbuf = sbuf;
    t->a.coll.rbuf = rbuf;
    t->a.coll.count = count;
    t->a.coll.dtype = graphs_keep_type(dtype);
    if (NULL != op) {
        OBJ_RETAIN(op);
        t->a.coll.op = op;
    } else {
        t->a.coll.op = NULL;
    }
    t->a.coll.root = root;
    return graphs_def_done(t, vb, token);
}

static inline int graphs_def_callback(MPIX_Graph_op_function *fn, void *extra_state,
                                      MPIX_Token *token)
{
    ompi_mpix_token_t *t = graphs_token_new(GRAPHS_OP_CALLBACK, NULL);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    t->a.cb.fn = fn;
    t->a.cb.extra_state = extra_state;
    return graphs_def_done(t, NULL, token);
}

/** MPIX_Start_def (kind GRAPHS_OP_START, status MPI_STATUS_IGNORE) and
 * MPIX_Wait_def (GRAPHS_OP_WAIT): a persistent request the program owns,
 * started or waited for when the token runs (the handle is read then: the
 * request may be made later) */
static inline int graphs_def_request(int kind, MPI_Request *request, ompi_status_public_t *status,
                                     MPIX_Token *token)
{
    ompi_mpix_token_t *t = graphs_token_new(kind, NULL);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    t->a.preq.req = request;
    t->a.preq.status = status;
    return graphs_def_done(t, NULL, token);
}

static inline int graphs_def_copy_mem(void *dst, const void *src, MPI_Aint size, MPIX_Token *token,
                                      const graphs_vb_t *vb)
{
    ompi_mpix_token_t *t = graphs_token_new(GRAPHS_OP_COPY_MEM, NULL);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    t->a.copy.dst = dst;
    t->a.copy.src = src;
    t->a.copy.size = size;
    return graphs_def_done(t, vb, token);
}

static inline int graphs_def_alloc_mem(MPI_Aint size, ompi_info_t *info, void *baseptr,
                                       MPIX_Token *token, const graphs_vb_t *vb)
{
    ompi_mpix_token_t *t = graphs_token_new(GRAPHS_OP_ALLOC_MEM, NULL);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    t->a.mem.size = size;
    t->a.mem.baseptr = baseptr;
    if (MPI_INFO_NULL != info) {
        OBJ_RETAIN(info);
        t->a.mem.info = &info->super;
    }
    return graphs_def_done(t, vb, token);
}

static inline int graphs_def_free_mem(void *base, MPIX_Token *token, const graphs_vb_t *vb)
{
    ompi_mpix_token_t *t = graphs_token_new(GRAPHS_OP_FREE_MEM, NULL);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    t->a.mem.baseptr = base;
    return graphs_def_done(t, vb, token);
}

static inline int graphs_def_file_open(ompi_communicator_t *comm, const char *filename, int amode,
                                       ompi_info_t *info, MPI_File *fh, MPIX_Token *token,
                                       const graphs_vb_t *vb)
{
    ompi_mpix_token_t *t = graphs_token_new(GRAPHS_OP_FILE_OPEN, comm);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    /* the name is copied: the program may reuse its string */
    t->a.file.filename = strdup(filename);
    if (NULL == t->a.file.filename) {
        OBJ_RELEASE(t);
        return MPI_ERR_NO_MEM;
    }
    t->a.file.amode = amode;
    t->a.file.info = info;
    if (MPI_INFO_NULL != info) {
        OBJ_RETAIN(info);
    }
    t->a.file.fhp = fh;
    return graphs_def_done(t, vb, token);
}

static inline int graphs_def_file_close(MPI_File *fh, MPIX_Token *token, const graphs_vb_t *vb)
{
    ompi_mpix_token_t *t = graphs_token_new(GRAPHS_OP_FILE_CLOSE, NULL);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    /* captured by address: the handle in *fh when the token runs is closed */
    t->a.file.fhp = fh;
    return graphs_def_done(t, vb, token);
}

static inline int graphs_def_file_get_size(MPI_File fh, MPI_Offset *size, MPIX_Token *token,
                                           const graphs_vb_t *vb)
{
    ompi_mpix_token_t *t = graphs_token_new(GRAPHS_OP_FILE_GET_SIZE, NULL);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    t->a.file.fh = fh;
    t->a.file.size = size;
    return graphs_def_done(t, vb, token);
}

/** MPIX_File_read_def, _read_at_def (kind GRAPHS_OP_FILE_READ, _READ_AT;
 * offset 0 for the former), _write_at_def, _write_at_all_def */
static inline int graphs_def_file_io(int kind, MPI_File fh, MPI_Offset offset, void *buf,
                                     int count, ompi_datatype_t *dtype,
                                     ompi_status_public_t *status, MPIX_Token *token,
                                     const graphs_vb_t *vb)
{
    ompi_mpix_token_t *t = graphs_token_new(kind, NULL);

    if (NULL == t) {
        return MPI_ERR_NO_MEM;
    }
    t->a.io.fh = fh;
    t->a.io.offset = offset;
    t->a.io.buf = buf;
    t->a.io.count = count;
    t->a.io.dtype = graphs_keep_type(dtype);
    t->a.io.status = status;
    return graphs_def_done(t, vb, token);
}

#endif /* OMPI_MPIEXT_GRAPHS_DEF_H */
