// SPDX-License-Identifier: GPL-2.0-or-later
#include "rpcstatus.h"

#include <iterator>

namespace Trainyard::Rpc {

namespace {
// In google.rpc.Code's order: index = number.
constexpr const char* Names[] = { "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
    "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
    "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED" };
} // namespace

QString name(RpcCode code)
{
    return QLatin1String(Names[int(code)]);
}

QString nameOfNumber(int code)
{
    return code >= 0 && code < int(std::size(Names)) ? QLatin1String(Names[code]) : QString::number(code);
}

std::optional<RpcCode> fromName(const QString& name)
{
    for (int i = 0; i < int(std::size(Names)); ++i) {
        if (name == QLatin1String(Names[i]))
            return RpcCode(i);
    }
    return std::nullopt;
}

int httpStatus(RpcCode code)
{
    switch (code) {
    case RpcCode::Ok:
        return 200;
    case RpcCode::Cancelled:
        return 499;
    case RpcCode::InvalidArgument:
    case RpcCode::FailedPrecondition:
    case RpcCode::OutOfRange:
        return 400;
    case RpcCode::DeadlineExceeded:
        return 504;
    case RpcCode::NotFound:
        return 404;
    case RpcCode::AlreadyExists:
    case RpcCode::Aborted:
        return 409;
    case RpcCode::PermissionDenied:
        return 403;
    case RpcCode::ResourceExhausted:
        return 429;
    case RpcCode::Unimplemented:
        return 501;
    case RpcCode::Unavailable:
        return 503;
    case RpcCode::Unauthenticated:
        return 401;
    case RpcCode::Unknown:
    case RpcCode::Internal:
    case RpcCode::DataLoss:
        return 500;
    }
    return 500;
}

RpcCode forHttpStatus(int http)
{
    switch (http) {
    case 400:
        return RpcCode::InvalidArgument;
    case 401:
        return RpcCode::Unauthenticated;
    case 403:
        return RpcCode::PermissionDenied;
    case 404:
        return RpcCode::NotFound;
    case 409:
        return RpcCode::Aborted;
    case 429:
        return RpcCode::ResourceExhausted;
    case 499:
        return RpcCode::Cancelled;
    case 501:
        return RpcCode::Unimplemented;
    case 503:
        return RpcCode::Unavailable;
    case 504:
        return RpcCode::DeadlineExceeded;
    default:
        return http >= 500 ? RpcCode::Internal : RpcCode::Unknown;
    }
}

} // namespace Trainyard::Rpc
