# SPDX-License-Identifier: GPL-2.0-or-later
# What makes a build from a fresh clone fast on a 2-core machine (issue 28). Measured there, a test's one source
# file took about 20 s to compile: half parsing Qt's and the standard library's headers, a third generating -O2
# code and its debug information; and each of the ~100 test programs took 6 to 11 s to link with GNU ld. So:
#   - precompiled headers: the Qt and standard headers most files include, parsed once per library and once per
#     test folder (trainyard_precompile_headers(), trainyard_add_tests() in tests/CMakeLists.txt);
#   - tests' own files at -O0 (still with -g): what they test is in the libraries, which keep the build type's
#     optimisation; benchmarks keep it too;
#   - LLVM's lld as the linker where the compiler accepts it (setup-deps.sh installs it), GNU ld otherwise;
#   - unity builds of the libraries (TRAINYARD_UNITY_BUILD).
# TRAINYARD_PCH=OFF builds without precompiled headers, e.g. to check that every file includes what it uses.

option(TRAINYARD_PCH "Precompile the Qt and standard headers that most files include" ON)
# Unity builds: each library's files compiled in batches of eight, so that our own headers (job.h, apiclient.h…)
# and the templates they instantiate are compiled once per batch, not once per file. Tests stay one file each.
# OFF gives the usual one object per file (faster to rebuild after editing one file).
option(TRAINYARD_UNITY_BUILD "Compile the libraries' files in batches (unity build)" ON)
set(CMAKE_UNITY_BUILD ${TRAINYARD_UNITY_BUILD})
set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
if(TRAINYARD_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # In a batch, each .cpp is an included file, so GCC reads a class of one that holds a type from its anonymous
    # namespace as a header's class that would differ between translation units; it is one file's, as written.
    add_compile_options(-Wno-subobject-linkage)
endif()

include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=lld" TRAINYARD_HAVE_LLD)
if(TRAINYARD_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
endif()

# The headers of each precompiled set: those included by at least about ten files (grep of app/, models/, ui/ and
# tests/), by the Qt module a target must link to include them.
set(TRAINYARD_PCH_CORE
    <QByteArray> <QCoreApplication> <QDateTime> <QDir> <QElapsedTimer> <QFile> <QFileInfo> <QHash> <QJsonArray>
    <QJsonDocument> <QJsonObject> <QJsonValue> <QList> <QLocale> <QLoggingCategory> <QMap> <QObject> <QPointer>
    <QProcess> <QRegularExpression> <QSet> <QStandardPaths> <QString> <QStringList> <QTimer> <QUrl> <QUrlQuery>
    <QVariant>
    <algorithm> <cmath> <functional> <memory> <optional> <utility> <vector>)
set(TRAINYARD_PCH_NETWORK <QNetworkAccessManager> <QNetworkReply> <QNetworkRequest> <QTcpServer> <QTcpSocket>)
set(TRAINYARD_PCH_WIDGETS
    <QAction> <QApplication> <QCheckBox> <QComboBox> <QHBoxLayout> <QHeaderView> <QLabel> <QLineEdit>
    <QPlainTextEdit> <QPushButton> <QTableView> <QToolButton> <QVBoxLayout> <QWidget>)
set(TRAINYARD_PCH_TEST <QSignalSpy> <QTemporaryDir> <QTest>)

# trainyard_precompile_headers(<target> [NETWORK] [WIDGETS] [TEST]): precompile the core set and the named ones
# for <target>, which must link the Qt modules of the sets it names (Qt::Network, Qt::Widgets, Qt::Test).
function(trainyard_precompile_headers target)
    if(NOT TRAINYARD_PCH)
        return()
    endif()
    cmake_parse_arguments(ARG "NETWORK;WIDGETS;TEST" "" "" ${ARGN})
    set(_headers ${TRAINYARD_PCH_CORE})
    if(ARG_NETWORK)
        list(APPEND _headers ${TRAINYARD_PCH_NETWORK})
    endif()
    if(ARG_WIDGETS)
        list(APPEND _headers ${TRAINYARD_PCH_WIDGETS})
    endif()
    if(ARG_TEST)
        list(APPEND _headers ${TRAINYARD_PCH_TEST})
    endif()
    target_precompile_headers(${target} PRIVATE ${_headers})
endfunction()

# trainyard_same_unity_batches(<targets…>): keep AUTOMOC's mocs_compilation.cpp out of the targets' unity batches.
# CMake 3.25 (Debian 12) leaves it out by itself; 3.31 (Debian 13) puts it in the first batch, which shifts every
# later file into another batch. The batches must be the same everywhere: two files may each define a helper of the
# same name (file-local), which compiles in one batch layout and not in another.
function(trainyard_same_unity_batches)
    foreach(_target IN LISTS ARGN)
        get_target_property(_binary_dir ${_target} BINARY_DIR)
        set_source_files_properties(${_binary_dir}/${_target}_autogen/mocs_compilation.cpp TARGET_DIRECTORY ${_target}
            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endforeach()
endfunction()
