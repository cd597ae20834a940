// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QString>

#include <optional>

namespace Trainyard {

/// google.rpc.Code (https://github.com/googleapis/googleapis/blob/master/google/rpc/code.proto): the status of an
/// API answer, with its number (what an audit entry's `protoPayload.status.code` holds), its name (what an error's
/// `status` says) and its HTTP status (code.proto's "HTTP Mapping"), so that no call site pairs them by hand.
enum class RpcCode {
    Ok = 0,
    Cancelled = 1,
    Unknown = 2,
    InvalidArgument = 3,
    DeadlineExceeded = 4,
    NotFound = 5,
    AlreadyExists = 6,
    PermissionDenied = 7,
    ResourceExhausted = 8,
    FailedPrecondition = 9,
    Aborted = 10,
    OutOfRange = 11,
    Unimplemented = 12,
    Internal = 13,
    Unavailable = 14,
    DataLoss = 15,
    Unauthenticated = 16,
};

namespace Rpc {

/// "INVALID_ARGUMENT" for RpcCode::InvalidArgument.
QString name(RpcCode code);
/// The name of code number `code` (an audit entry's); the number itself as text when it is none of google.rpc's.
QString nameOfNumber(int code);
/// The code named `name`; nullopt for a name google.rpc.Code does not have.
std::optional<RpcCode> fromName(const QString& name);
/// code.proto's HTTP mapping: 200 for OK, 400 INVALID_ARGUMENT, FAILED_PRECONDITION and OUT_OF_RANGE, 401, 403, 404,
/// 409 ALREADY_EXISTS and ABORTED, 429, 499 CANCELLED, 500 UNKNOWN, INTERNAL and DATA_LOSS, 501, 503, 504.
int httpStatus(RpcCode code);
/// The code an HTTP answer without Google's error body stands for (a proxy's, a crashed handler's): the mapping
/// read backwards, the first code of each status.
RpcCode forHttpStatus(int httpStatus);

} // namespace Rpc

} // namespace Trainyard
