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
 * Ordinary collective programs must run unchanged: blocking bcast (every
 * root), allreduce, reduce, allgather and alltoall; nonblocking ibarrier,
 * iallreduce and ialltoall; MPI-4 persistent allreduce and bcast restarted
 * with new inputs; and collectives on MPI_Comm_dup and MPI_Comm_split
 * communicators.  Every result is checked element by element.
 */

#include "common/qtest.h"

#define N 64

static int rank, size;

static void blocking_phases(void)
{
    int buf[N], res[N], *all = malloc(sizeof(int) * 2 * size);
    int *sa = malloc(sizeof(int) * size), *ra = malloc(sizeof(int) * size);

    QT_STEP("bcast from every root");
    for (int root = 0; root < size; ++root) {
        for (int i = 0; i < N; ++i) {
            buf[i] = (rank == root) ? root * 1000 + i : -1;
        }
        QT_OK(MPI_Bcast(buf, N, MPI_INT, root, MPI_COMM_WORLD));
        for (int i = 0; i < N; ++i) {
            QT_CHECK(root * 1000 + i == buf[i], "bcast root %d: [%d] = %d", root, i, buf[i]);
        }
    }

    QT_STEP("allreduce sum and max");
    for (int i = 0; i < N; ++i) {
        buf[i] = rank + i;
    }
    QT_OK(MPI_Allreduce(buf, res, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < N; ++i) {
        int want = size * (size - 1) / 2 + size * i;
        QT_CHECK(want == res[i], "allreduce sum [%d] = %d, expected %d", i, res[i], want);
    }
    QT_OK(MPI_Allreduce(buf, res, N, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    for (int i = 0; i < N; ++i) {
        QT_CHECK(size - 1 + i == res[i], "allreduce max [%d] = %d", i, res[i]);
    }

    QT_STEP("reduce to the last rank");
    for (int i = 0; i < N; ++i) {
        buf[i] = (rank + 1) * (i + 1);
        res[i] = -1;
    }
    QT_OK(MPI_Reduce(buf, res, N, MPI_INT, MPI_SUM, size - 1, MPI_COMM_WORLD));
    for (int i = 0; i < N; ++i) {
        int want = (size - 1 == rank) ? size * (size + 1) / 2 * (i + 1) : -1;
        QT_CHECK(want == res[i], "reduce [%d] = %d, expected %d", i, res[i], want);
    }

    QT_STEP("allgather");
    buf[0] = rank;
    buf[1] = rank * rank + 7;
    QT_OK(MPI_Allgather(buf, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r) {
        QT_CHECK(r == all[2 * r] && r * r + 7 == all[2 * r + 1], "allgather from %d: %d %d", r,
                 all[2 * r], all[2 * r + 1]);
    }

    QT_STEP("alltoall");
    for (int r = 0; r < size; ++r) {
        sa[r] = rank * 1000 + r;
        ra[r] = -1;
    }
    QT_OK(MPI_Alltoall(sa, 1, MPI_INT, ra, 1, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r) {
        QT_CHECK(r * 1000 + rank == ra[r], "alltoall from %d: %d", r, ra[r]);
    }
    free(all);
    free(sa);
    free(ra);
}

static void nonblocking_phases(void)
{
    int buf[N], res[N], *sa = malloc(sizeof(int) * size), *ra = malloc(sizeof(int) * size);
    MPI_Request req = MPI_REQUEST_NULL;

    QT_STEP("ibarrier");
    QT_OK(MPI_Ibarrier(MPI_COMM_WORLD, &req));
    QT_CHECK(MPI_REQUEST_NULL != req, "MPI_Ibarrier returned MPI_REQUEST_NULL");
    QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    QT_CHECK(MPI_REQUEST_NULL == req, "MPI_Wait did not free the ibarrier request");

    QT_STEP("iallreduce");
    for (int i = 0; i < N; ++i) {
        buf[i] = rank * i - i;
        res[i] = 0;
    }
    QT_OK(MPI_Iallreduce(buf, res, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; ++i) {
        int want = size * (size - 1) / 2 * i - size * i;
        QT_CHECK(want == res[i], "iallreduce [%d] = %d, expected %d", i, res[i], want);
    }

    QT_STEP("ialltoall");
    for (int r = 0; r < size; ++r) {
        sa[r] = rank * 1000 + r + 5;
        ra[r] = -1;
    }
    QT_OK(MPI_Ialltoall(sa, 1, MPI_INT, ra, 1, MPI_INT, MPI_COMM_WORLD, &req));
    QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int r = 0; r < size; ++r) {
        QT_CHECK(r * 1000 + rank + 5 == ra[r], "ialltoall from %d: %d", r, ra[r]);
    }
    free(sa);
    free(ra);
}

static void persistent_phases(void)
{
    int buf[N], res[N];
    MPI_Request req = MPI_REQUEST_NULL;
    const int root = size - 1;

    QT_STEP("allreduce_init");
    QT_OK(MPI_Allreduce_init(buf, res, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    for (int iter = 0; iter < 5; ++iter) {
        for (int i = 0; i < N; ++i) {
            buf[i] = rank * (iter + 1) + i;
            res[i] = -1;
        }
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        QT_CHECK(MPI_REQUEST_NULL != req, "MPI_Wait freed a persistent request");
        for (int i = 0; i < N; ++i) {
            int want = (iter + 1) * size * (size - 1) / 2 + size * i;
            QT_CHECK(want == res[i], "allreduce_init round %d [%d] = %d, expected %d", iter, i,
                     res[i], want);
        }
    }
    QT_OK(MPI_Request_free(&req));
    QT_CHECK(MPI_REQUEST_NULL == req, "MPI_Request_free did not set MPI_REQUEST_NULL");

    QT_STEP("bcast_init");
    QT_OK(MPI_Bcast_init(buf, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    for (int iter = 0; iter < 5; ++iter) {
        for (int i = 0; i < N; ++i) {
            buf[i] = (rank == root) ? iter * 100 + i : -1;
        }
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (int i = 0; i < N; ++i) {
            QT_CHECK(iter * 100 + i == buf[i], "bcast_init round %d [%d] = %d", iter, i, buf[i]);
        }
    }
    QT_OK(MPI_Request_free(&req));
    QT_CHECK(MPI_REQUEST_NULL == req, "MPI_Request_free did not set MPI_REQUEST_NULL");
}

static void communicator_phases(void)
{
    MPI_Comm dup = MPI_COMM_NULL, half = MPI_COMM_NULL;
    int result = -1, sum = -1, hrank = -1, hsize = -1, want = 0;
    const int color = rank % 2;

    QT_STEP("comm_dup and allreduce");
    QT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    QT_OK(MPI_Comm_compare(MPI_COMM_WORLD, dup, &result));
    QT_CHECK(MPI_CONGRUENT == result, "MPI_Comm_compare gave %d, expected congruent", result);
    QT_OK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup));
    QT_CHECK(size * (size - 1) / 2 == sum, "allreduce on the dup: %d", sum);
    QT_OK(MPI_Comm_free(&dup));

    QT_STEP("comm_split even/odd and allreduce");
    QT_OK(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half));
    QT_OK(MPI_Comm_rank(half, &hrank));
    QT_OK(MPI_Comm_size(half, &hsize));
    QT_CHECK(rank / 2 == hrank, "split rank %d, expected %d", hrank, rank / 2);
    QT_CHECK((size + 1 - color) / 2 == hsize, "split size %d", hsize);
    for (int r = color; r < size; r += 2) {
        want += r;
    }
    sum = -1;
    QT_OK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half));
    QT_CHECK(want == sum, "allreduce on the %s half: %d, expected %d", color ? "odd" : "even",
             sum, want);
    QT_OK(MPI_Comm_free(&half));
}

int main(int argc, char **argv)
{
    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    blocking_phases();
    nonblocking_phases();
    persistent_phases();
    communicator_phases();
    return qt_finalize();
}
