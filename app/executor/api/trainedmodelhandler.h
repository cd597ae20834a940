// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

#include <QObject>

namespace Trainyard {

class ApiContext;
class JobStore;
/// The handler of `GET …/jobs/{job}/model[?trial=ID]` (a Trainyard extension, app/executor/API.md "A built-in algorithm's model"): a
/// built-in algorithm job's (or trial's) model folder, its files, and the evaluation and feature importance the
/// algorithm wrote, read on the thread pool from inside the job dir. Main thread.
class TrainedModelHandler : public QObject {
public:
    /// `context` and `store` are not owned and outlive the handler.
    TrainedModelHandler(ApiContext* context, JobStore* store, QObject* parent = nullptr);

    HttpApi::Reply trainedModel(const ApiRequest& request, const QString& project, const QString& jobId,
        const HttpChannelPtr& channel, bool* deferred);

private:
    ApiContext* m_context;
    JobStore* m_store;
};

} // namespace Trainyard
