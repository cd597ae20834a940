// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

namespace Trainyard {

class ApiContext;
class Authorizer;

/// The handler of access tokens (ours, app/executor/API.md "Access tokens"): create (a member, one of the roles a
/// token may carry on every project, an expiry; the secret is answered once and kept as a SHA-256 hash), list and
/// revoke (the token's open streams end at once). The tokens are the Authorizer's access store. Main thread.
class TokensHandler {
public:
    /// `context` and `authorizer` are not owned and outlive the handler.
    TokensHandler(ApiContext* context, Authorizer* authorizer);

    /// `caller` is recorded as the token's creator.
    HttpApi::Reply createToken(const ApiRequest& request, const HttpApi::Caller& caller);
    HttpApi::Reply listTokens();
    HttpApi::Reply revokeToken(const QString& id);

private:
    ApiContext* m_context;
    Authorizer* m_authorizer;
};

} // namespace Trainyard
