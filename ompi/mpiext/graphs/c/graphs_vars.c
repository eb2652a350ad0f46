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
 * Graph variables: the local datatypes, the comparison operations of
 * MPIX_Graph_var_reduce, the argument sentinels (MPIX_VAR*), and the typed
 * reads, writes and reductions of variable values (spec 1.5), and a
 * token's variable-bound arguments resolved in a running activation.
 */

#include "ompi_config.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ompi/mpiext/graphs/c/graphs_graph.h"

char ompi_mpix_var_sentinel[2][MPIX_GRAPH_VAR_MAX];
MPI_Op ompi_mpix_cmp_ops[6];
MPI_Datatype ompi_mpix_local_types[13];

static const char *const local_type_names[13] = {
    "MPI_LOCAL_TYPE_COMM", "MPI_LOCAL_TYPE_DATATYPE", "MPI_LOCAL_TYPE_ERRHANDLER",
    "MPI_LOCAL_TYPE_FILE", "MPI_LOCAL_TYPE_GROUP", "MPI_LOCAL_TYPE_INFO",
    "MPI_LOCAL_TYPE_MESSAGE", "MPI_LOCAL_TYPE_OP", "MPI_LOCAL_TYPE_REQUEST",
    "MPI_LOCAL_TYPE_SESSION", "MPI_LOCAL_TYPE_STATUS", "MPI_LOCAL_TYPE_STRING",
    "MPI_LOCAL_TYPE_WIN",
};

/* never called: the comparison ops are only recognized by var_reduce */
static void cmp_op_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) in;
    (void) inout;
    (void) len;
    (void) dt;
}

int graphs_vars_init(void)
{
    for (int i = 0; i < 13; ++i) {
        size_t sz = (10 == i) ? sizeof(MPI_Status) : sizeof(void *);
        ompi_datatype_t *t = NULL;
        if (OMPI_SUCCESS != ompi_datatype_create_contiguous((int) sz, &ompi_mpi_byte.dt, &t)
            || OMPI_SUCCESS != ompi_datatype_commit(&t)) {
            return OMPI_ERROR;
        }
        strncpy(t->name, local_type_names[i], MPI_MAX_OBJECT_NAME - 1);
        ompi_mpix_local_types[i] = t;
    }
    for (int i = 0; i < 6; ++i) {
        ompi_mpix_cmp_ops[i] = ompi_op_create_user(true, (ompi_op_fortran_handler_fn_t *) cmp_op_fn);
        if (NULL == ompi_mpix_cmp_ops[i]) {
            return OMPI_ERROR;
        }
    }
    return OMPI_SUCCESS;
}

void graphs_vars_fini(void)
{
    for (int i = 0; i < 13; ++i) {
        if (NULL != ompi_mpix_local_types[i]) {
            ompi_datatype_destroy(&ompi_mpix_local_types[i]);
            ompi_mpix_local_types[i] = NULL;
        }
    }
    for (int i = 0; i < 6; ++i) {
        if (NULL != ompi_mpix_cmp_ops[i]) {
            OBJ_RELEASE(ompi_mpix_cmp_ops[i]);
            ompi_mpix_cmp_ops[i] = NULL;
        }
    }
}

int graphs_local_type_index(ompi_datatype_t *dtype)
{
    for (int i = 0; i < 13; ++i) {
        if (ompi_mpix_local_types[i] == dtype) {
            return i;
        }
    }
    return -1;
}

int graphs_cmp_index(ompi_op_t *op)
{
    for (int i = 0; i < 6; ++i) {
        if (ompi_mpix_cmp_ops[i] == op) {
            return i;
        }
    }
    return -1;
}

int graphs_var_check_type(ompi_datatype_t *dtype)
{
    size_t size;

    if (NULL == dtype || MPI_DATATYPE_NULL == dtype) {
        return MPI_ERR_TYPE;
    }
    if (0 <= graphs_local_type_index(dtype)) {
        return MPI_SUCCESS;
    }
    if (!ompi_datatype_is_predefined(dtype)) {
        return MPI_ERR_TYPE;
    }
    ompi_datatype_type_size(dtype, &size);
    if (0 == size || size > GRAPHS_VAR_BYTES) {
        return MPI_ERR_TYPE;
    }
    return MPI_SUCCESS;
}

typedef enum { VT_NONE, VT_SIGNED, VT_UNSIGNED, VT_FLOAT } vt_kind_t;

static vt_kind_t var_kind(ompi_datatype_t *t, size_t *size)
{
    ompi_datatype_type_size(t, size);
    if (t == &ompi_mpi_float.dt || t == &ompi_mpi_double.dt) {
        return VT_FLOAT;
    }
    if (t == &ompi_mpi_int.dt || t == &ompi_mpi_long.dt || t == &ompi_mpi_long_long_int.dt
        || t == &ompi_mpi_short.dt || t == &ompi_mpi_signed_char.dt || t == &ompi_mpi_char.dt
        || t == &ompi_mpi_int8_t.dt || t == &ompi_mpi_int16_t.dt || t == &ompi_mpi_int32_t.dt
        || t == &ompi_mpi_int64_t.dt || t == &ompi_mpi_aint.dt || t == &ompi_mpi_count.dt
        || t == &ompi_mpi_offset.dt) {
        return VT_SIGNED;
    }
    if (t == &ompi_mpi_unsigned.dt || t == &ompi_mpi_unsigned_long.dt
        || t == &ompi_mpi_unsigned_long_long.dt || t == &ompi_mpi_unsigned_short.dt
        || t == &ompi_mpi_unsigned_char.dt || t == &ompi_mpi_uint8_t.dt
        || t == &ompi_mpi_uint16_t.dt || t == &ompi_mpi_uint32_t.dt
        || t == &ompi_mpi_uint64_t.dt || t == &ompi_mpi_c_bool.dt) {
        return VT_UNSIGNED;
    }
    return VT_NONE;
}

/* A variable's storage need not be aligned for its type (a field of a
 * packed structure, a byte offset into a buffer): every access goes
 * through memcpy. */
bool graphs_var_to_i64(ompi_datatype_t *dtype, const void *p, int64_t *v)
{
    size_t size;
    vt_kind_t k = var_kind(dtype, &size);
    union {
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
    } u;

    if ((VT_SIGNED != k && VT_UNSIGNED != k)
        || (1 != size && 2 != size && 4 != size && 8 != size)) {
        return false;
    }
    memcpy(&u, p, size);
    if (VT_SIGNED == k) {
        *v = (1 == size) ? u.i8 : (2 == size) ? u.i16 : (4 == size) ? u.i32 : u.i64;
    } else {
        *v = (1 == size) ? u.u8 : (2 == size) ? u.u16 : (4 == size) ? u.u32 : (int64_t) u.u64;
    }
    return true;
}

int graphs_var_int_kind(ompi_datatype_t *dtype)
{
    size_t size;
    vt_kind_t k = var_kind(dtype, &size);

    if ((VT_SIGNED != k && VT_UNSIGNED != k)
        || (1 != size && 2 != size && 4 != size && 8 != size)) {
        return 0;
    }
    return (VT_SIGNED == k) ? (int) size : -(int) size;
}

bool graphs_var_from_i64(ompi_datatype_t *dtype, void *p, int64_t v)
{
    size_t size;
    vt_kind_t k = var_kind(dtype, &size);

    if (VT_SIGNED != k && VT_UNSIGNED != k) {
        return false;
    }
    switch (size) {
    case 1: { int8_t x = (int8_t) v; memcpy(p, &x, size); return true; }
    case 2: { int16_t x = (int16_t) v; memcpy(p, &x, size); return true; }
    case 4: { int32_t x = (int32_t) v; memcpy(p, &x, size); return true; }
    case 8: memcpy(p, &v, size); return true;
    }
    return false;
}

static bool var_to_double(ompi_datatype_t *t, const void *p, double *v)
{
    size_t size;
    int64_t i;

    if (VT_FLOAT == var_kind(t, &size)) {
        if (4 == size) {
            float f;
            memcpy(&f, p, sizeof(f));
            *v = f;
        } else {
            memcpy(v, p, sizeof(*v));
        }
        return true;
    }
    if (graphs_var_to_i64(t, p, &i)) {
        *v = (double) i;
        return true;
    }
    return false;
}

int graphs_var_reduce_check(ompi_op_t *op, int cmp, ompi_datatype_t *t1, ompi_datatype_t *t2,
                            ompi_datatype_t *tout)
{
    size_t size;

    if (t1 != t2 || 0 <= graphs_local_type_index(t1) || 0 <= graphs_local_type_index(tout)) {
        return MPI_ERR_TYPE;
    }
    if (0 <= cmp) {
        if (VT_NONE == var_kind(t1, &size)) {
            return MPI_ERR_TYPE;
        }
        return (VT_SIGNED == var_kind(tout, &size) || VT_UNSIGNED == var_kind(tout, &size))
                   ? MPI_SUCCESS : MPI_ERR_TYPE;
    }
    if (tout != t1) {
        return MPI_ERR_TYPE;
    }
    {
        char *msg = NULL;
        bool ok = ompi_op_is_valid(op, t1, &msg, "MPIX_Graph_var_reduce");
        free(msg);
        return ok ? MPI_SUCCESS : MPI_ERR_TYPE;
    }
}

int graphs_var_reduce_compute(ompi_op_t *op, int cmp, ompi_datatype_t *t1, const void *in1,
                              const void *in2, ompi_datatype_t *tout, void *out)
{
    if (0 <= cmp) {
        int64_t a, b;
        int r;
        size_t size;
        if (VT_FLOAT != var_kind(t1, &size) && graphs_var_to_i64(t1, in1, &a)
            && graphs_var_to_i64(t1, in2, &b)) {
            r = (0 == cmp) ? a <= b : (1 == cmp) ? a < b : (2 == cmp) ? a == b
              : (3 == cmp) ? a != b : (4 == cmp) ? a > b : a >= b;
        } else {
            double x, y;
            if (!var_to_double(t1, in1, &x) || !var_to_double(t1, in2, &y)) {
                return MPI_ERR_TYPE;
            }
            r = (0 == cmp) ? x <= y : (1 == cmp) ? x < y : (2 == cmp) ? x == y
              : (3 == cmp) ? x != y : (4 == cmp) ? x > y : x >= y;
        }
        return graphs_var_from_i64(tout, out, r) ? MPI_SUCCESS : MPI_ERR_TYPE;
    } else {
        /* out = in1 op in2, as MPI_Reduce_local on one element */
        unsigned char tmp[GRAPHS_VAR_BYTES];
        size_t size;
        ompi_datatype_type_size(t1, &size);
        memcpy(tmp, in2, size);
        ompi_op_reduce(op, (void *) in1, tmp, 1, t1);
        memcpy(out, tmp, size);
        return MPI_SUCCESS;
    }
}

int graphs_var_write(graphs_var_t *v, void *storage, const void *value)
{
    if (MPI_LOCAL_TYPE_STRING == v->dtype && NULL == storage) {
        /* a template's string: deep copy */
        const char *s = *(const char *const *) value;
        char *c = (NULL != s) ? strdup(s) : NULL;
        if (NULL != s && NULL == c) {
            return MPI_ERR_NO_MEM;
        }
        free(v->str);
        v->str = c;
        memcpy(v->val, &c, sizeof(char *));
        return MPI_SUCCESS;
    }
    memcpy(NULL != storage ? storage : (void *) v->val, value, v->size);
    return MPI_SUCCESS;
}

int graphs_var_read(const graphs_var_t *v, const void *storage, void *value)
{
    memcpy(value, NULL != storage ? storage : (const void *) v->val, v->size);
    return MPI_SUCCESS;
}

/* ----------------------------------------- variables of an activation */

void *graphs_inst_var(graphs_inst_t *inst, int id, graphs_var_t **var)
{
    for (; NULL != inst; inst = inst->parent) {
        graphs_gdef_t *d = inst->def;
        for (int i = 0; i < d->nvars; ++i) {
            if (d->vars[i].id == id) {
                if (NULL != var) {
                    *var = &d->vars[i];
                }
                return (MPIX_GRAPH_VAR_REF_PARAM == d->vars[i].scope) ? inst->refs[i]
                                                                     : inst->vals + d->off[i];
            }
        }
    }
    return NULL;
}

int graphs_inst_var_set(graphs_inst_t *inst, int id, const void *value)
{
    for (; NULL != inst; inst = inst->parent) {
        graphs_gdef_t *d = inst->def;
        for (int i = 0; i < d->nvars; ++i) {
            graphs_var_t *v = &d->vars[i];
            const char *s;
            char *c = NULL;

            if (v->id != id) {
                continue;
            }
            if (MPIX_GRAPH_VAR_REF_PARAM == v->scope) {
                /* the program's own memory: its string stays its own */
                memcpy(inst->refs[i], value, v->size);
                return MPI_SUCCESS;
            }
            if (MPI_LOCAL_TYPE_STRING != v->dtype) {
                memcpy(inst->vals + d->off[i], value, v->size);
                return MPI_SUCCESS;
            }
            /* a string: copied, since the caller's may be gone before the
             * operation that reads the variable starts */
            s = *(const char *const *) value;
            if (NULL == inst->strs && NULL == (inst->strs = calloc(d->nvars, sizeof(char *)))) {
                return MPI_ERR_NO_MEM;
            }
            if (NULL != s && NULL == (c = strdup(s))) {
                return MPI_ERR_NO_MEM;
            }
            free(inst->strs[i]);
            inst->strs[i] = c;
            memcpy(inst->vals + d->off[i], &c, sizeof(char *));
            return MPI_SUCCESS;
        }
    }
    return MPI_ERR_ARG;
}

/* --------------------------------------------- variable-bound arguments */

static inline void *field(ompi_mpix_token_t *t, size_t off)
{
    return (char *) t + off;
}

int graphs_token_resolve(const ompi_mpix_token_t *t, graphs_inst_t *inst, ompi_mpix_token_t *copy)
{
    /* counts above INT_MAX from variables: carried by derived datatypes
     * once every datatype is resolved (a sendrecv has two) */
    const graphs_vbind_t *bigvb[2];
    int64_t big[2];
    int nbig = 0;

    memcpy(copy, t, sizeof(*t));
    copy->nown = 0;
    for (int i = 0; i < t->nvb; ++i) {
        const graphs_vbind_t *vb = &t->vb[i];
        graphs_var_t *v = NULL;
        void *p = graphs_inst_var(inst, vb->var, &v);
        int64_t x = 0;

        if (NULL == p) {
            return MPI_ERR_ARG;
        }
        switch (vb->enc) {
        case GRAPHS_VE_STORAGE:
            *(void **) field(copy, vb->off) = p;
            break;
        case GRAPHS_VE_VALUE:
            memcpy(field(copy, vb->off), p, sizeof(void *));
            if (NULL == *(void **) field(copy, vb->off)) {
                return (offsetof(ompi_mpix_token_t, comm) == vb->off) ? MPI_ERR_COMM : MPI_ERR_ARG;
            }
            break;
        case GRAPHS_VE_ADDR:
            if (!graphs_var_to_i64(v->dtype, p, &x)) {
                return MPI_ERR_ARG;
            }
            *(void **) field(copy, vb->off) = (void *) (intptr_t) x;
            break;
        default:
            if (!graphs_var_to_i64(v->dtype, p, &x)) {
                return MPI_ERR_ARG;
            }
            if (GRAPHS_FT_BIGCOUNT == vb->ftype && x > INT_MAX && nbig < 2) {
                bigvb[nbig] = vb;
                big[nbig++] = x;
                *(int *) field(copy, vb->off) = 1;
            } else if (GRAPHS_FT_INT == vb->ftype || GRAPHS_FT_BIGCOUNT == vb->ftype) {
                if (x < INT_MIN || x > INT_MAX || (GRAPHS_VR_COUNT == vb->role && x < 0)) {
                    return (GRAPHS_VR_COUNT == vb->role) ? MPI_ERR_COUNT : MPI_ERR_ARG;
                }
                *(int *) field(copy, vb->off) = (int) x;
            } else {
                if (GRAPHS_VR_COUNT == vb->role && x < 0) {
                    return MPI_ERR_COUNT;
                }
                *(int64_t *) field(copy, vb->off) = x;
            }
            break;
        }
    }
    for (int b = 0; b < nbig; ++b) {
        ompi_datatype_t **dtype = (ompi_datatype_t **) field(copy, bigvb[b]->dtype_off);
        ompi_datatype_t *type = NULL;
        int icount = 0, rc;

        if (GRAPHS_OP_REDUCE == copy->kind || GRAPHS_OP_ALLREDUCE == copy->kind) {
            /* the operation must apply to the derived type's elements */
            rc = graphs_big_op(copy->a.coll.op, *dtype, &copy->a.coll.op);
            if (MPI_SUCCESS != rc) {
                return rc;
            }
        }
        rc = graphs_count_type(big[b], *dtype, &type, &icount);
        if (MPI_SUCCESS != rc) {
            return rc;
        }
        *dtype = type;
        *(int *) field(copy, bigvb[b]->off) = icount;
        copy->own_off[copy->nown++] = (uint16_t) bigvb[b]->dtype_off;
    }
    /* range checks that the _def could not make */
    for (int i = 0; i < t->nvb; ++i) {
        const graphs_vbind_t *vb = &t->vb[i];
        graphs_var_t *v = NULL;
        void *p = graphs_inst_var(inst, vb->var, &v);
        int x = (GRAPHS_FT_INT == vb->ftype) ? *(int *) field(copy, vb->off) : 0;

        switch (vb->role) {
        case GRAPHS_VR_RANK:
            if (MPI_PROC_NULL != x && MPI_ANY_SOURCE != x
                && (NULL == copy->comm || ompi_comm_peer_invalid(copy->comm, x))) {
                return MPI_ERR_RANK;
            }
            break;
        case GRAPHS_VR_ROOT:
            if (NULL == copy->comm || x < 0 || x >= ompi_comm_size(copy->comm)) {
                return MPI_ERR_ROOT;
            }
            break;
        case GRAPHS_VR_TAG:
            if (x < 0 && MPI_ANY_TAG != x) {
                return MPI_ERR_TAG;
            }
            break;
        case GRAPHS_VR_BUF:
            if (GRAPHS_VE_STORAGE == vb->enc && 0 <= vb->count_off && 0 <= vb->dtype_off) {
                int count = *(int *) field(copy, vb->count_off);
                ompi_datatype_t *dt = *(ompi_datatype_t **) field(copy, vb->dtype_off);
                ptrdiff_t lb, extent;
                size_t size;
                ompi_datatype_get_extent(dt, &lb, &extent);
                ompi_datatype_type_size(dt, &size);
                if (0 < count
                    && (size_t) ((count - 1) * extent) + size > v->size) {
                    return MPI_ERR_BUFFER;
                }
            }
            break;
        default:
            break;
        }
        (void) p;
    }
    /* a communicator from a variable: the literal ranks and roots too */
    for (int i = 0; i < t->nvb; ++i) {
        if (offsetof(ompi_mpix_token_t, comm) != t->vb[i].off) {
            continue;
        }
        switch (copy->kind) {
        case GRAPHS_OP_SEND:
        case GRAPHS_OP_RECV:
            if (MPI_PROC_NULL != copy->a.p2p.peer && MPI_ANY_SOURCE != copy->a.p2p.peer
                && ompi_comm_peer_invalid(copy->comm, copy->a.p2p.peer)) {
                return MPI_ERR_RANK;
            }
            break;
        case GRAPHS_OP_SENDRECV:
            if ((MPI_PROC_NULL != copy->a.sr.send.peer
                 && ompi_comm_peer_invalid(copy->comm, copy->a.sr.send.peer))
                || (MPI_PROC_NULL != copy->a.sr.recv.peer && MPI_ANY_SOURCE != copy->a.sr.recv.peer
                    && ompi_comm_peer_invalid(copy->comm, copy->a.sr.recv.peer))) {
                return MPI_ERR_RANK;
            }
            break;
        case GRAPHS_OP_BCAST:
        case GRAPHS_OP_REDUCE:
            if (copy->a.coll.root < 0 || copy->a.coll.root >= ompi_comm_size(copy->comm)) {
                return MPI_ERR_ROOT;
            }
            break;
        default:
            break;
        }
    }
    return MPI_SUCCESS;
}
