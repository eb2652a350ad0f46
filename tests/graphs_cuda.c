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
 * MPIX_OFFLOAD_CUDA (spec G1, G2, host side).  argv[1]:
 *   "emulated" (queue/emulated loaded): the trigger engine with a host
 *              thread standing in for the stream (an emulated stream): a
 *              callback token executed by a persistent CUDA-located request
 *              computes h_out = h_in + 1 (twice, restarted); a receive at
 *              the CUDA location gets the peer's data; MPIX_Execute at the
 *              location; a stream at the location (order, pause/isync/
 *              resume, a send/receive, a failure that stops what follows);
 *   "gpu-cuda": the same on a real CUDA stream (libcudart loaded at run
 *              time), with cudaStreamSynchronize before MPI_Wait;
 *   "no-gpu":  prints SKIP (G0, the refusal without a device, is checked
 *              by graphs_exec).
 */

#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <stdint.h>

#include "common/qtest.h"
#include <mpi-ext.h>

static int rank, size;
static volatile int h_in = 42, h_out = 0;

static int *order_log, n_order;

static int log_cb(MPIX_Graph graph, void *extra)
{
    (void) graph;
    order_log[n_order++] = (int) (intptr_t) extra;
    return MPI_SUCCESS;
}

static int fail_cb(MPIX_Graph graph, void *extra)
{
    (void) graph;
    (void) extra;
    return MPI_ERR_OTHER;
}

static int plus_one(MPIX_Graph graph, void *extra)
{
    (void) graph;
    (void) extra;
    h_out = h_in + 1;
    return MPI_SUCCESS;
}

typedef int (*stream_create_fn)(void **);
typedef int (*stream_sync_fn)(void *);
typedef int (*stream_destroy_fn)(void *);
static stream_sync_fn cuda_sync = NULL;

static void run(void *stream)
{
    MPIX_Token t;
    MPIX_Stream s = MPIX_STREAM_NULL;
    MPI_Request req;
    int v = -1, rc;

    QT_STEP("G1 (host side): persistent CUDA-located execution, started twice");
    QT_OK(MPIX_Op_def(plus_one, NULL, &t));
    rc = MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_OFFLOAD_CUDA, stream, &req);
    QT_CHECK(MPI_SUCCESS == rc, "MPIX_Execute_init at MPIX_OFFLOAD_CUDA returned %d", rc);
    QT_OK(MPIX_Token_free(&t));
    for (int k = 0; MPI_SUCCESS == rc && k < 2; ++k) {
        h_in = 42 + k;
        h_out = 0;
        QT_OK(MPI_Start(&req));
        if (NULL != cuda_sync) {
            QT_CHECK(0 == cuda_sync(*(void **) stream), "cudaStreamSynchronize failed");
        }
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        QT_CHECK(43 + k == h_out, "start %d: h_out %d", k, h_out);
    }
    if (MPI_SUCCESS == rc) {
        QT_OK(MPI_Request_free(&req));
    }

    QT_STEP("G2 (host side): a receive at the CUDA location");
    if (size >= 2 && rank < 2) {
        if (0 == rank) {
            int x = 2222;
            MPI_Send(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
        } else {
            QT_OK(MPIX_Recv_def(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
            rc = MPIX_Iexecute(t, MPI_INFO_NULL, MPIX_OFFLOAD_CUDA, stream, &req);
            QT_CHECK(MPI_SUCCESS == rc, "MPIX_Iexecute at MPIX_OFFLOAD_CUDA returned %d", rc);
            if (MPI_SUCCESS == rc) {
                QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            }
            QT_CHECK(2222 == v, "received %d", v);
            QT_OK(MPIX_Token_free(&t));
        }
    }

    QT_STEP("MPIX_Execute at the CUDA location");
    h_in = 7;
    QT_OK(MPIX_Op_def(plus_one, NULL, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_OFFLOAD_CUDA, stream));
    QT_CHECK(8 == h_out, "h_out %d", h_out);
    QT_OK(MPIX_Token_free(&t));

    QT_STEP("a graph (while loop of 3 callbacks, then a bcast) at the CUDA location");
    {
        MPIX_Graph g, body;
        int n3 = 3, m1 = -1, w, b = -1;
        static int glog[8];
        QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &body));
        QT_OK(MPIX_Op_def(log_cb, (void *) (intptr_t) 7, &t));
        QT_OK(MPIX_Graph_add(body, &t, &w, MPIX_DEP_NONE));
        QT_OK(MPIX_Graph_var_reduce(body, 0, 1, MPI_SUM, 0, NULL, w));
        QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
        QT_OK(MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_VAL_PARAM, MPI_INT));
        QT_OK(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
        QT_OK(MPIX_Graph_set_param(g, 0, &n3));
        QT_OK(MPIX_Graph_var_set(g, 1, &m1));
        QT_OK(MPIX_Graph_while(g, 0, body, &w, MPIX_DEP_NONE));
        QT_OK(MPIX_Graph_free(&body));
        QT_OK(MPIX_Bcast_def(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &t));
        QT_OK(MPIX_Graph_add(g, &t, NULL, w));
        QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
        QT_OK(MPIX_Graph_free(&g));
        rc = MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_OFFLOAD_CUDA, stream, &req);
        QT_CHECK(MPI_SUCCESS == rc, "graph at MPIX_OFFLOAD_CUDA: Execute_init returned %d", rc);
        QT_OK(MPIX_Token_free(&t));
        for (int k = 0; MPI_SUCCESS == rc && k < 2; ++k) {
            order_log = glog;
            n_order = 0;
            b = (0 == rank) ? 5 + k : -1;
            QT_OK(MPI_Start(&req));
            if (NULL != cuda_sync) {
                QT_CHECK(0 == cuda_sync(*(void **) stream), "cudaStreamSynchronize failed");
            }
            QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            QT_CHECK(3 == n_order && 5 + k == b, "graph start %d: %d loop iterations, b %d", k,
                     n_order, b);
        }
        if (MPI_SUCCESS == rc) {
            QT_OK(MPI_Request_free(&req));
        }
    }

    QT_STEP("stream at the CUDA location: FIFO, pause/isync/resume, p2p, sticky failure");
    QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_OFFLOAD_CUDA, stream, &s));
    if (MPIX_STREAM_NULL != s) {
        static int order[8];
        int flag = 0, w = -1;
        n_order = 0;
        order_log = order;
        QT_OK(MPIX_Stream_pause(s));
        for (int i = 0; i < 4; ++i) {
            QT_OK(MPIX_Op_def(log_cb, (void *) (intptr_t) i, &t));
            QT_OK(MPIX_Stream_enqueue(s, &t));
        }
        QT_OK(MPIX_Stream_isync(s, &req));
        for (int i = 0; i < 20 && !flag; ++i) {
            QT_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        }
        QT_CHECK(0 == flag && 0 == n_order, "a paused CUDA stream ran %d tokens", n_order);
        QT_OK(MPIX_Stream_resume(s));
        if (!flag) {
            QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
        QT_CHECK(4 == n_order, "%d tokens ran", n_order);
        for (int i = 0; i < n_order; ++i) {
            QT_CHECK(order[i] == i, "position %d holds %d", i, order[i]);
        }
        if (size >= 2 && rank < 2) {
            int x = 31;
            if (0 == rank) {
                QT_OK(MPIX_Send_def(&x, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, &t));
            } else {
                QT_OK(MPIX_Recv_def(&w, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
            }
            QT_OK(MPIX_Stream_enqueue(s, &t));
            QT_OK(MPIX_Stream_sync(s));
            QT_CHECK(1 != rank || 31 == w, "received %d on the CUDA stream", w);
        }
        QT_OK(MPIX_Op_def(fail_cb, NULL, &t));
        QT_OK(MPIX_Stream_enqueue(s, &t));
        QT_OK(MPIX_Op_def(log_cb, (void *) (intptr_t) 99, &t));
        rc = MPIX_Stream_enqueue(s, &t);
        if (MPI_SUCCESS != rc) {
            QT_OK(MPIX_Token_free(&t));
        }
        QT_CHECK_RC(MPIX_Stream_sync(s), MPI_ERR_OTHER);
        QT_CHECK(4 == n_order, "a token after the failure ran (%d in all)", n_order);
        QT_OK(MPIX_Stream_free(&s));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    const char *mode = (argc > 1) ? argv[1] : "no-gpu";

    if (0 == strcmp(mode, "emulated")) {
        /* queue/emulated's stream, its component loaded by MPI_Init */
        stream_create_fn create;
        stream_destroy_fn destroy;
        void *stream = NULL;
        int provided;

        qt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        rank = qt_rank;
        create = (stream_create_fn) dlsym(RTLD_DEFAULT, "mca_queue_emulated_stream_create");
        destroy = (stream_destroy_fn) dlsym(RTLD_DEFAULT, "mca_queue_emulated_stream_destroy");
        QT_CHECK(NULL != create && NULL != destroy, "no emulated stream: is queue/emulated's "
                 "build directory on mca_base_component_path?");
        QT_CHECK(NULL != create && 0 == create(&stream), "no emulated stream was made");
        if (NULL != stream) {
            run(&stream);
            destroy(stream);
        }
        return qt_finalize();
    }
    if (0 == strcmp(mode, "gpu-cuda")) {
        void *lib = dlopen("libcudart.so", RTLD_NOW);
        stream_create_fn create;
        stream_destroy_fn destroy;
        void *stream = NULL;
        int provided;

        if (NULL == lib) {
            lib = dlopen("libcudart.so.12", RTLD_NOW);
        }
        if (NULL == lib) {
            printf("SKIP: a CUDA device but no libcudart to make a stream with\n");
            return 0;
        }
        create = (stream_create_fn) dlsym(lib, "cudaStreamCreate");
        destroy = (stream_destroy_fn) dlsym(lib, "cudaStreamDestroy");
        cuda_sync = (stream_sync_fn) dlsym(lib, "cudaStreamSynchronize");
        /* the CUDA location needs a thread-safe library (host agent) */
        qt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        rank = qt_rank;
        QT_CHECK(NULL != create && 0 == create(&stream), "cudaStreamCreate failed");
        if (NULL != stream) {
            run(&stream);
            destroy(stream);
        }
        return qt_finalize();
    }
    qt_arm_watchdog();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (0 == rank) {
        printf("SKIP: no CUDA device (the host side runs in the emulated case)\n");
    }
    MPI_Finalize();
    return 0;
}
