// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

namespace Trainyard {

class PredictionService;

/// The handler of `projects.operations` (google.longrunning.Operations as the service has them): list, get and
/// cancel (a version's creation is cancelled by deleting the version; an update or a deletion runs to its end).
/// The operations are the ones PredictionService's ModelStore keeps. Main thread.
class OperationsHandler {
public:
    /// `prediction` is not owned and outlives the handler.
    explicit OperationsHandler(PredictionService* prediction);

    HttpApi::Reply listOperations(const ApiRequest& request, const QString& project);
    HttpApi::Reply getOperation(const QString& project, const QString& id);
    HttpApi::Reply cancelOperation(const QString& project, const QString& id);

private:
    PredictionService* m_prediction;
};

} // namespace Trainyard
