# -*- shell-script -*-
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#

# MCA_ompi_match_CONFIG(project_name, framework_name)
# ---------------------------------------------------
# Components are allowed to build only with --with-queue.  The base reads
# pml/ucx's persistent requests when UCX is found (the same check as
# pml/ucx's, so both see the same headers).
AC_DEFUN([MCA_ompi_match_CONFIG],[
    AC_REQUIRE([OMPI_SETUP_QUEUE])
    match_base_have_ucx=0
    AS_IF([test "$ompi_want_queue" = "1"],
          [OMPI_CHECK_UCX([match_base_ucx], [match_base_have_ucx=1], [])])
    AC_DEFINE_UNQUOTED([OMPI_MATCH_BASE_HAVE_UCX], [$match_base_have_ucx],
                       [Whether the match base can read pml/ucx persistent requests])
    AC_SUBST([match_base_ucx_CPPFLAGS])
    MCA_CONFIGURE_FRAMEWORK([$1], [$2], [$ompi_want_queue])
])
