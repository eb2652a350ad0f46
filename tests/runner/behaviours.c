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
 * A grouped program for the runner's own check (tests/check_runner.sh):
 * behaviours that pass, fail, hang and crash, so that the check can see
 * each get its own verdict and the ones after a hang or a crash still run.
 * "cases=A,B,...": the behaviours to run (all without it).
 */

#include <signal.h>

#include "../common/qtest.h"

static void passes(void)
{
    int one = 1, sum = 0;

    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    QT_CHECK(2 == sum, "sum is %d", sum);
}

static void fails(void)
{
    QT_CHECK(1 == qt_rank, "a failure on rank %d, as this case means", qt_rank);
}

static void hangs(void)
{
    QT_STEP("hangs: waiting for nothing");
    for (;;) {
        pause();
    }
}

static void crashes(void)
{
    QT_STEP("crashes: raising SIGSEGV");
    if (1 == qt_rank) {
        raise(SIGSEGV);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static const qt_case_t cases[] = {
    {"first", passes}, {"fails", fails}, {"hangs", hangs},
    {"middle", passes}, {"crashes", crashes}, {"last", passes},
};

int main(int argc, char **argv)
{
    qt_init(&argc, &argv);
    qt_name_crashes();
    qt_run_cases(qt_case_list(argc, argv), cases, sizeof(cases) / sizeof(cases[0]));
    return qt_finalize();
}
