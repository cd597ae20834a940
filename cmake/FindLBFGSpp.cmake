# SPDX-License-Identifier: GPL-2.0-or-later
# FindLBFGSpp: the header-only LBFGSpp library (L-BFGS and bounded L-BFGS-B on Eigen). Debian's
# liblbfgspp-dev (0.1.0) installs only the headers (/usr/include/LBFGS.h, LBFGSB.h, LBFGSpp/), without a
# CMake config or a pkg-config file, so this module looks for LBFGSB.h.
#   LBFGSpp_FOUND, LBFGSpp_INCLUDE_DIR, and the imported target LBFGSpp::LBFGSpp (which brings Eigen3::Eigen).
find_path(LBFGSpp_INCLUDE_DIR NAMES LBFGSB.h PATH_SUFFIXES LBFGSpp lbfgspp)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LBFGSpp REQUIRED_VARS LBFGSpp_INCLUDE_DIR)

if(LBFGSpp_FOUND AND NOT TARGET LBFGSpp::LBFGSpp)
    add_library(LBFGSpp::LBFGSpp INTERFACE IMPORTED)
    set_target_properties(LBFGSpp::LBFGSpp PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${LBFGSpp_INCLUDE_DIR}")
    if(TARGET Eigen3::Eigen)
        set_property(TARGET LBFGSpp::LBFGSpp APPEND PROPERTY INTERFACE_LINK_LIBRARIES Eigen3::Eigen)
    endif()
endif()
mark_as_advanced(LBFGSpp_INCLUDE_DIR)
