# -*- shell-script -*-
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#

# MCA_ompi_match_ofi_CONFIG([action-if-can-compile], [action-if-cant-compile])
# ---------------------------------------------------------------------------
# Needs libfabric 1.9 or later (the API it falls back to; FI_MR_* modes, struct
# fi_context2), and opal/mca/common/ofi for Open MPI's provider lists.
AC_DEFUN([MCA_ompi_match_ofi_CONFIG],[
    AC_CONFIG_FILES([ompi/mca/match/ofi/Makefile])

    OPAL_CHECK_OFI([match_ofi],
                   [match_ofi_happy="yes"],
                   [match_ofi_happy="no"])

    AS_IF([test "$match_ofi_happy" = "yes"],
          [OPAL_CHECK_OFI_VERSION_GE([1,9], [], [match_ofi_happy="no"])])

    AS_IF([test "$match_ofi_happy" = "yes"],
          [OPAL_MCA_CHECK_DEPENDENCY([ompi], [match], [ofi], [opal], [common], [ofi])])

    AS_IF([test "$match_ofi_happy" = "yes"], [$1], [$2])

    AC_SUBST([match_ofi_CPPFLAGS])
    AC_SUBST([match_ofi_LDFLAGS])
    AC_SUBST([match_ofi_LIBS])
])
