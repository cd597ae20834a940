# SPDX-License-Identifier: GPL-2.0-or-later
# cmake -DIN=FILE -DOUT=FILE.gz -P gzip.cmake: compresses as Debian wants documentation and man pages
# compressed (gzip -9n: the best ratio, and no name or time stamp in the header, so rebuilds are identical).
execute_process(COMMAND gzip -9nc "${IN}" OUTPUT_FILE "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    file(REMOVE "${OUT}")
    message(FATAL_ERROR "gzip ${IN}: ${rc}")
endif()
