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
 * Counts above INT_MAX for the large-count (_c) token constructors.  Open
 * MPI 5.0.7's PML, coll and io interfaces take int counts, so such a count
 * travels as one element of a derived datatype that spans all of them
 * (blocks of 2^20 elements and the remainder).  A reduction cannot use it as
 * it is: a predefined operation is applied to as many elements of the base
 * type as the count says, so the derived datatype's single element would
 * reduce one of them.  A reduction over it therefore runs an operation of
 * ours, one per predefined operation, which applies the predefined one to
 * every base element of the derived elements it is given.
 */

#include "ompi_config.h"

#include <limits.h>

#include "opal/mca/threads/mutex.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"
#include "ompi/mpiext/graphs/c/graphs_graph.h"

int graphs_count_type(MPI_Count count, ompi_datatype_t *dtype, ompi_datatype_t **type,
                      int *icount)
{
    const MPI_Count block = (MPI_Count) 1 << 20;
    const int iblock = (int) block, two = 2;
    ompi_datatype_t *chunk = NULL, *types[2];
    ptrdiff_t lb, extent, disps[2];
    int lens[2], rc;

    if (count <= INT_MAX) {
        *type = graphs_keep_type(dtype);
        *icount = (int) count;
        return MPI_SUCCESS;
    }
    if (count / block > INT_MAX) {
        return MPI_ERR_COUNT;
    }
    ompi_datatype_get_extent(dtype, &lb, &extent);
    rc = ompi_datatype_create_contiguous(iblock, dtype, &chunk);
    if (OMPI_SUCCESS != rc) {
        return MPI_ERR_INTERN;
    }
    {
        const int *args[1] = {&iblock};
        /* the arguments name the base type, which reductions look up */
        ompi_datatype_set_args(chunk, 1, args, 0, NULL, 1, &dtype, MPI_COMBINER_CONTIGUOUS);
    }
    lens[0] = (int) (count / block);
    lens[1] = (int) (count % block);
    disps[0] = 0;
    disps[1] = (ptrdiff_t) (count / block) * (ptrdiff_t) block * extent;
    types[0] = chunk;
    types[1] = dtype;
    rc = ompi_datatype_create_struct(2, lens, disps, types, type);
    if (OMPI_SUCCESS == rc) {
        const int *args[2] = {&two, lens};
        ompi_datatype_set_args(*type, 3, args, 2, disps, 2, types, MPI_COMBINER_STRUCT);
    }
    ompi_datatype_destroy(&chunk);
    if (OMPI_SUCCESS != rc) {
        return MPI_ERR_INTERN;
    }
    if (OMPI_SUCCESS != ompi_datatype_commit(type)) {
        ompi_datatype_destroy(type);
        return MPI_ERR_INTERN;
    }
    *icount = 1;
    return MPI_SUCCESS;
}

/* in (op) inout over every base element of len elements of dtype */
static void graphs_big_apply(ompi_op_t *op, void *in, void *inout, int len, ompi_datatype_t *dtype)
{
    ompi_datatype_t *base = ompi_datatype_get_single_predefined_type_from_args(dtype);
    size_t size, bsize;

    ompi_datatype_type_size(dtype, &size);
    ompi_datatype_type_size(base, &bsize);
    ompi_op_reduce(op, in, inout, (size_t) len * (size / bsize), base);
}

#define GRAPHS_BIG_OPS(X) \
    X(sum) X(prod) X(max) X(min) X(land) X(lor) X(lxor) X(band) X(bor) X(bxor) X(maxloc) \
    X(minloc)

#define GRAPHS_BIG_FN(name)                                                                   \
    static void graphs_big_##name(void *in, void *inout, int *len, MPI_Datatype *dtype)       \
    {                                                                                         \
        graphs_big_apply(&ompi_mpi_op_##name.op, in, inout, *len, *dtype);                    \
    }
GRAPHS_BIG_OPS(GRAPHS_BIG_FN)

#define GRAPHS_BIG_ROW(name) {&ompi_mpi_op_##name.op, graphs_big_##name},
static const struct {
    ompi_op_t *op;
    MPI_User_function *fn;
} graphs_big_table[] = {GRAPHS_BIG_OPS(GRAPHS_BIG_ROW)};

#define GRAPHS_BIG_NOPS (sizeof(graphs_big_table) / sizeof(graphs_big_table[0]))

static ompi_op_t *graphs_big_made[GRAPHS_BIG_NOPS];
static opal_mutex_t graphs_big_lock = OPAL_MUTEX_STATIC_INIT;

int graphs_big_op(ompi_op_t *op, ompi_datatype_t *dtype, ompi_op_t **out)
{
    size_t i;

    if (!ompi_datatype_is_predefined(dtype)) {
        return MPI_ERR_TYPE;
    }
    for (i = 0; i < GRAPHS_BIG_NOPS && graphs_big_table[i].op != op; ++i) {
    }
    if (GRAPHS_BIG_NOPS == i) {
        return MPI_ERR_OP;
    }
    OPAL_THREAD_LOCK(&graphs_big_lock);
    if (NULL == graphs_big_made[i]) {
        graphs_big_made[i] = ompi_op_create_user(true, (ompi_op_fortran_handler_fn_t *)
                                                           graphs_big_table[i].fn);
    }
    *out = graphs_big_made[i];
    OPAL_THREAD_UNLOCK(&graphs_big_lock);
    return NULL == *out ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

void graphs_big_ops_fini(void)
{
    for (size_t i = 0; i < GRAPHS_BIG_NOPS; ++i) {
        if (NULL != graphs_big_made[i]) {
            OBJ_RELEASE(graphs_big_made[i]);
            graphs_big_made[i] = NULL;
        }
    }
}
