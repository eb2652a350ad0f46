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
 * argv[1]: the behaviours, separated by commas, or "all".
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

static const struct {
    const char *name;
    void (*fn)(void);
} cases[] = {
    {"first", passes}, {"fails", fails}, {"hangs", hangs},
    {"middle", passes}, {"crashes", crashes}, {"last", passes},
};

int main(int argc, char **argv)
{
    const char *names[sizeof(cases) / sizeof(cases[0])];
    const char *which = argc > 1 ? argv[1] : "all";

    qt_init(&argc, &argv);
    qt_name_crashes();
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        names[i] = cases[i].name;
    }
    (void) qt_case_names_known(which, names, sizeof(cases) / sizeof(cases[0]));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        if (qt_case_wanted(which, cases[i].name)) {
            qt_case_begin(cases[i].name);
            cases[i].fn();
            qt_case_end();
        }
    }
    return qt_finalize();
}
