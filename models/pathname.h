// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <initializer_list>

namespace Trainyard {

/// The one way a folder or file name that comes from a request (a project ID, a job ID, a trial ID, a task name)
/// becomes part of a path in the executor's data folder: a name either is a single component that stays inside
/// its parent, or no path is made at all. Pure; thread-safe.
///
/// A safe component (POSIX.1-2017, "Pathname Resolution"; Linux `NAME_MAX`) is:
/// - not empty, not "." and not "..";
/// - free of '/' (the separator) and NUL (which ends a path for the kernel, so "a\0/../b" would be cut to "a");
/// - at most NameMax bytes once encoded in UTF-8 (the file system's limit is in bytes, not characters).
namespace PathName {

/// Linux's NAME_MAX: the longest file name, in bytes, on ext4, xfs, btrfs and tmpfs.
constexpr qsizetype NameMax = 255;
/// Linux's PATH_MAX: the longest path, in bytes with its terminating NUL, that a system call takes.
constexpr qsizetype PathMax = 4096;

/// Why `name` is not a safe component (see above), in English; empty when it is.
QString problem(const QString& name);
inline bool isSafe(const QString& name)
{
    return problem(name).isEmpty();
}

/// `parent` + "/" + each of `names` in turn; an empty string when any of `names` is not a safe component, so
/// that the result is always strictly inside `parent` (as written: `parent` itself is the caller's). An empty
/// `parent` gives the relative path of `names`.
QString child(const QString& parent, std::initializer_list<QString> names);
inline QString child(const QString& parent, const QString& name)
{
    return child(parent, { name });
}

} // namespace PathName

} // namespace Trainyard
