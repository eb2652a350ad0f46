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
 * Partitioned communication among some processes only, at 3 ranks or more:
 * rank 0 sends 8 partitions to rank 1 twice, on MPI_COMM_WORLD and on a
 * communicator of ranks 0 and 1 made by MPI_Comm_split, while the other
 * ranks make no partitioned request and go straight to MPI_Finalize.  Stock
 * 5.0.7 duplicated MPI_COMM_WORLD collectively at the first partitioned
 * start: ranks 0 and 1 waited in MPI_Wait for ranks that never joined.
 */

#include "common/qtest.h"

#define PARTS 8
#define COUNT 16

static int exchange(MPI_Comm comm, int me, int round)
{
    int buf[PARTS * COUNT], bad = 0;
    MPI_Request req;

    QT_STEP("init");
    if (0 == me) {
        for (int i = 0; i < PARTS * COUNT; ++i) {
            buf[i] = round * 1000 + i;
        }
        QT_OK(MPI_Psend_init(buf, PARTS, COUNT, MPI_INT, 1, 3, comm, MPI_INFO_NULL, &req));
        QT_STEP("sender: start, ready, wait");
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Pready_range(0, PARTS - 1, req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        for (int i = 0; i < PARTS * COUNT; ++i) {
            buf[i] = -1;
        }
        QT_OK(MPI_Precv_init(buf, PARTS, COUNT, MPI_INT, 0, 3, comm, MPI_INFO_NULL, &req));
        QT_STEP("receiver: start, wait");
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (int i = 0; i < PARTS * COUNT; ++i) {
            bad += buf[i] != round * 1000 + i;
        }
        QT_CHECK(0 == bad, "round %d: %d ints wrong", round, bad);
    }
    QT_OK(MPI_Request_free(&req));
    return bad;
}

int main(int argc, char **argv)
{
    int size;
    MPI_Comm pair;

    qt_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 3) {
        if (0 == qt_rank) {
            printf("SKIP: part_world needs 3 ranks or more\n");
        }
        MPI_Finalize();
        return 0;
    }
    QT_STEP("MPI_Comm_split of ranks 0 and 1");
    QT_OK(MPI_Comm_split(MPI_COMM_WORLD, qt_rank < 2 ? 0 : MPI_UNDEFINED, qt_rank, &pair));
    if (qt_rank < 2) {
        QT_STEP("partitioned on MPI_COMM_WORLD, the other ranks in MPI_Finalize");
        exchange(MPI_COMM_WORLD, qt_rank, 0);
        QT_STEP("partitioned on the split communicator");
        exchange(pair, qt_rank, 1);
        MPI_Comm_free(&pair);
    }
    /* the verdict needs every rank; the ranks without partitioned requests
     * made none, whatever the others did before */
    return qt_finalize();
}
