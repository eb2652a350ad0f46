# -*- shell-script -*-
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#

# MCA_ompi_match_sm_CONFIG([action-if-can-compile], [action-if-cant-compile])
# ---------------------------------------------------------------------------
# Needs POSIX shared memory.  Single copy (process_vm_readv) is used when
# the C library has it, and then only where the kernel allows it (checked
# at run time, per peer).
AC_DEFUN([MCA_ompi_match_sm_CONFIG],[
    AC_CONFIG_FILES([ompi/mca/match/sm/Makefile])
    match_sm_happy=yes
    AC_CHECK_HEADERS([sys/mman.h], [], [match_sm_happy=no])
    AC_CHECK_FUNC([shm_open], [], [match_sm_happy=no])
    match_sm_have_cma=0
    AC_CHECK_FUNC([process_vm_readv], [match_sm_have_cma=1])
    AC_DEFINE_UNQUOTED([OMPI_MATCH_SM_HAVE_CMA], [$match_sm_have_cma],
                       [Whether match/sm can try single copy with process_vm_readv])
    AS_IF([test "$match_sm_happy" = "yes"], [$1], [$2])
])
