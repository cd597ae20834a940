// SPDX-License-Identifier: GPL-2.0-or-later
#include "hyperparameterimportancehandler.h"

#include "apicommon.h"
#include "apicontext.h"

#include "builtinalgorithm.h"
#include "jobstore.h"
#include "staging.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

namespace {
/// How long the evaluator may take: a random forest of 64 trees over a few hundred trials takes seconds.
constexpr int EvaluatorTimeoutMs = 120000;
} // namespace

HyperparameterImportanceHandler::HyperparameterImportanceHandler(ApiContext* context, JobStore* store, QObject* parent)
    : QObject(parent)
    , m_context(context)
    , m_store(store)
{
}

HttpApi::Reply HyperparameterImportanceHandler::importance(
    const QString& project, const QString& jobId, const HttpChannelPtr& channel, bool* deferred)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    if (!job->trainingInput.hyperparameters || job->trainingInput.hyperparameters->params.isEmpty())
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Job %1 has no hyperparameters: importance is measured over a tuning job's trials.")
                .arg(jobId));
    const HyperparameterSpec& spec = *job->trainingInput.hyperparameters;
    QJsonArray trials;
    if (job->trainingOutput) {
        for (const HyperparameterOutput& t : job->trainingOutput->trials) {
            if (t.state != JobState::Succeeded || !t.finalMetric || !t.finalMetric->objectiveValue)
                continue;
            QJsonObject values;
            for (auto it = t.hyperparameters.cbegin(); it != t.hyperparameters.cend(); ++it)
                values.insert(it.key(), it.value());
            trials.append(QJsonObject { { QStringLiteral("hyperparameters"), values },
                { QStringLiteral("objective"), *t.finalMetric->objectiveValue } });
        }
    }
    if (trials.size() < 2)
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Job %1 has %2 succeeded trial(s) with an objective value; hyperparameter importance needs "
                           "at least 2.")
                .arg(jobId)
                .arg(trials.size()));
    const QString package = BuiltInAlgorithms::packageDir();
    if (package.isEmpty())
        return errorReply(RpcCode::FailedPrecondition, BuiltInAlgorithms::notInstalledMessage(QStringLiteral("Hyperparameter importance")));
    const QJsonObject training = JobJson::toJson(job->trainingInput);
    const QJsonObject body { { QStringLiteral("goal"), spec.goal },
        { QStringLiteral("params"),
            training.value(QStringLiteral("hyperparameters")).toObject().value(QStringLiteral("params")) },
        { QStringLiteral("trials"), trials } };
    const QList<RuntimeVersion> runtimes = runtimeVersions();
    const QString python = runtimes.isEmpty() ? QStringLiteral("/usr/bin/python3") : runtimes.first().interpreter;
    *deferred = true;
    m_context->runLater(channel, [body, python, package]() -> Reply {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PYTHONPATH"), package);
        env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        p.setProcessEnvironment(env);
        p.start(python, { QStringLiteral("-m"), QStringLiteral("trainyard_algorithms.importance") });
        if (!p.waitForStarted(10000))
            return errorReply(RpcCode::Internal, QStringLiteral("Cannot start %1: %2").arg(python, p.errorString()));
        p.write(QJsonDocument(body).toJson(QJsonDocument::Compact));
        p.closeWriteChannel();
        if (!p.waitForFinished(EvaluatorTimeoutMs)) {
            p.kill();
            p.waitForFinished(2000);
            return errorReply(RpcCode::DeadlineExceeded,
                QStringLiteral("The fANOVA evaluator took more than %1 s.").arg(EvaluatorTimeoutMs / 1000));
        }
        const QString problem = QString::fromUtf8(p.readAllStandardError()).trimmed();
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() == 2)
            return errorReply(RpcCode::FailedPrecondition, problem.section(QLatin1Char('\n'), -1));
        const QJsonDocument answer = QJsonDocument::fromJson(p.readAllStandardOutput());
        if (p.exitCode() != 0 || !answer.isObject())
            return errorReply(RpcCode::Internal,
                QStringLiteral("The fANOVA evaluator failed: %1").arg(problem.section(QLatin1Char('\n'), -3)));
        return jsonReply(answer.object());
    });
    return {};
}

} // namespace Trainyard
