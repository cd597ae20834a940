// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal to the API's files: what a resource handler (modelshandler.h, versionshandler.h, …) needs of the server
// that routes to it.

#include "httpapi.h"

#include <QByteArray>

#include <functional>

namespace Trainyard {

class AccessStore;
class PathPolicy;
class PredictionService;
class SseStream;

/// What a resource handler needs of the API that routes to it, and nothing else of it: the host and the path rule
/// that requests are checked against (as set on HttpApi, read when a request comes), the access store (a deleted
/// resource's IAM policy goes with it), and the transport's two ways of answering after the handler returned — a
/// deferred reply on the request's channel, and a Server-Sent Events stream counted as the caller's. Authentication,
/// permissions and audit are the router's, before a handler runs. HttpApi implements it (httpapi.cpp); main thread.
class ApiContext {
public:
    virtual ~ApiContext() = default;
    /// This host's inventory (validation: what nodes and replicas it can hold).
    virtual const HostInventory& hostInventory() const = 0;
    /// The rule every path a request gives follows (HttpApi::setPathPolicy()).
    virtual const PathPolicy& pathPolicy() const = 0;
    /// The deployed models (HttpApi::setPredictionService(); null: none are served).
    virtual PredictionService* predictionService() const = 0;
    /// The access tokens and IAM policies (null: none are kept).
    virtual AccessStore* accessStore() const = 0;
    /// Sends `reply` on `channel` (a request the handler answered later, returning a default Reply with *deferred
    /// set); nothing when the client is gone.
    virtual void sendLater(const HttpChannelPtr& channel, const HttpApi::Reply& reply) = 0;
    /// Runs `work` on the thread pool and sends its reply on `channel` (if still connected) when done: for file system
    /// work (scans, checkpoint reads, podman) that must not stall the event loop. The handler returns a default Reply
    /// with *deferred set.
    virtual void runLater(const HttpChannelPtr& channel, std::function<HttpApi::Reply()> work) = 0;
    /// Ends the open streams of the access token `tokenId` now that it is revoked (an `error` event, then the end).
    virtual void endStreamsOfToken(const QString& tokenId) = 0;
    /// A Server-Sent Events stream on `channel`, started (`label` names it in the executor's log), counted as the
    /// caller's (TransportOptions::maxStreamsPerPrincipal), ended by a revoked token and by HttpApi::closeStreams().
    /// The handler returns a default Reply with *streaming set.
    virtual SseStream* openStream(const HttpChannelPtr& channel, const QByteArray& label) = 0;
};

} // namespace Trainyard
