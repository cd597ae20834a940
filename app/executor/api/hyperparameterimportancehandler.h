// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

#include <QObject>

namespace Trainyard {

class ApiContext;
class JobStore;

/// The handler of `GET …/jobs/{job}/hyperparameterImportance` (a Trainyard extension, app/executor/API.md
/// "Hyperparameter importance"): each hyperparameter's share of the objective's variance over the job's completed
/// trials, by optuna's fANOVA evaluator (resources/algorithms/trainyard_algorithms/importance.py), as optuna-dashboard
/// shows it. The bundled package runs in the executor's interpreter on the thread pool (about 1 s for 50 trials);
/// it reads only the numbers sent to it. Main thread.
class HyperparameterImportanceHandler : public QObject {
public:
    /// `context` and `store` are not owned and outlive the handler.
    HyperparameterImportanceHandler(ApiContext* context, JobStore* store, QObject* parent = nullptr);

    /// 200 `{"method", "trials", "importances": [{"parameterName", "importance"}]}`; 400 FAILED_PRECONDITION for a job
    /// without hyperparameters or with fewer than 2 completed trials, or when the package is not installed; 500
    /// INTERNAL when the evaluator fails (its message).
    HttpApi::Reply importance(const QString& project, const QString& jobId, const HttpChannelPtr& channel,
        bool* deferred);

private:
    ApiContext* m_context;
    JobStore* m_store;
};

} // namespace Trainyard
