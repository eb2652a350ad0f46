# -*- shell-script -*-
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#

# MCA_ompi_match_ucx_CONFIG([action-if-can-compile], [action-if-cant-compile])
# ---------------------------------------------------------------------------
# Needs UCX with ucp_put_nbx (its own context and worker with RMA).
AC_DEFUN([MCA_ompi_match_ucx_CONFIG],[
    AC_CONFIG_FILES([ompi/mca/match/ucx/Makefile])

    OMPI_CHECK_UCX([match_ucx],
                   [match_ucx_happy="yes"],
                   [match_ucx_happy="no"])

    AS_IF([test "$match_ucx_happy" = "yes"],
          [OPAL_MCA_CHECK_DEPENDENCY([ompi], [match], [ucx], [opal], [common], [ucx])])

    AS_IF([test "$match_ucx_happy" = "yes"], [$1], [$2])

    AC_SUBST([match_ucx_CPPFLAGS])
    AC_SUBST([match_ucx_LDFLAGS])
    AC_SUBST([match_ucx_LIBS])
])
