// SPDX-License-Identifier: GPL-2.0-or-later
#include "jobscommands.h"
#include "hostfit.h"
#include "regioninfo.h"

#include "apiclient.h"
#include "argparser.h"
#include "configloader.h"
#include "ctlsession.h"
#include "printer.h"

#include "gcloudflags.h"
#include "metricrows.h"
#include "prediction.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSet>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <memory>

namespace Trainyard {

Q_LOGGING_CATEGORY(lcCtl, "trainyard.ctl")

namespace {

const QString kSubmitCommand = QStringLiteral("trainyardctl.jobs.submit.training");

// A state as gcloud prints it: the wire name, empty where the JSON has none (StateUnspecified).
QString stateText(JobState state)
{
    return state == JobState::StateUnspecified ? QString() : jobStateName(state);
}

// gcloud's follow-up text (command_lib/ml_engine/jobs_util.py _FOLLOW_UP_MESSAGE), with our program name.
/// The job as we sent it, as far as the executor stores it unchanged: what tells our create from another.
bool sameSubmission(const Job& sent, const Job& stored)
{
    const TrainingInput& a = sent.trainingInput;
    const TrainingInput& b = stored.trainingInput;
    return a.pythonModule == b.pythonModule && a.packageUris == b.packageUris && a.args == b.args
        && a.jobDir == b.jobDir && a.region == b.region && sent.labels == stored.labels;
}

/// A create whose answer never came (the connection failed or closed: `lost`) may still have stored the job
/// (the executor can die between its commit and its answer). As gcloud's retries do with the job ID, look for
/// the job before reporting a failure: found and ours → it was created; not found → send the create again once.
/// The executor is looked up again first (a local one is started again when it died, and recovers the job).
/// Returns the job, or an error that says the job may exist.
ApiResult<Job> confirmCreate(CtlSession& s, const Job& job, const ApiError& lost)
{
    s.err() << "WARNING: No answer to the create request (" << lost.message << "); checking whether job [" << job.jobId
            << "] was created...\n";
    s.err().flush();
    s.dropClient();
    auto unknown = [&](const QString& why) {
        ApiResult<Job> r;
        r.error = lost;
        r.error.message = QStringLiteral("%1. The job may or may not have been created (%2): check with "
                                         "\"trainyardctl jobs describe %3\" before submitting it again.")
                              .arg(lost.message, why, job.jobId);
        return r;
    };
    ApiClient* client = s.client(kSubmitCommand);
    if (!client)
        return unknown(QStringLiteral("the executor cannot be reached"));
    const ApiResult<Job> found = client->getJobBlocking(job.jobId);
    if (found.ok()) {
        if (sameSubmission(job, found.value))
            return found;
        ApiResult<Job> r;
        r.error = ApiError { 409, QStringLiteral("ALREADY_EXISTS"),
            QStringLiteral("Field: job.job_id Error: A job with this id already exists."), {} };
        return r;
    }
    if (found.error.status != QLatin1String("NOT_FOUND"))
        return unknown(found.error.summary());
    ApiResult<Job> again = client->createJobBlocking(job);
    if (!again.ok() && again.error.httpStatus == 0)
        return unknown(again.error.message);
    return again;
}

QString followUpMessage(const QString& jobId)
{
    return QStringLiteral("Your job is still active. You may view the status of your job with the command\n\n"
                          "  $ trainyardctl jobs describe %1\n\n"
                          "or continue streaming the logs with the command\n\n"
                          "  $ trainyardctl jobs stream-logs %1")
        .arg(jobId);
}

void printJob(CtlSession& s, const Job& job)
{
    s.printResource(JobJson::toJson(job));
}

// `yaml(jobId,state,startTime.date(tz=LOCAL),endTime.date(tz=LOCAL))`, gcloud's submit output.
void printJobBrief(CtlSession& s, const Job& job)
{
    if (!s.format().isEmpty()) {
        printJob(s, job);
        return;
    }
    s.out() << "jobId: " << Printer::yamlScalar(job.jobId) << '\n' << "state: " << stateText(job.state) << '\n';
    if (!job.startTime.isEmpty())
        s.out() << "startTime: " << Printer::yamlScalar(Printer::localDate(job.startTime)) << '\n';
    if (!job.endTime.isEmpty())
        s.out() << "endTime: " << Printer::yamlScalar(Printer::localDate(job.endTime)) << '\n';
    s.out().flush();
}

/// Follows a job's logs until its `end` event, printing gcloud's log lines to `target`. Reconnects (finding
/// the executor again, which may have been restarted with a new address and token) when the stream breaks;
/// lines already printed are not printed twice. Returns the final state, or StateUnspecified after an error
/// (printed under `command`).
JobState followLogs(CtlSession& s, const QString& command, const QString& jobId, const QString& taskName,
    bool allowMultiline, QTextStream& target, const QString& trialId = {})
{
    QSet<size_t> printed;
    int consecutiveFailures = 0;
    while (true) {
        ApiClient* client = s.client(command);
        if (!client)
            return JobState::StateUnspecified;
        std::unique_ptr<ApiStream> stream(client->followLogs(jobId, taskName, {}, {}, trialId));
        JobState finalState = JobState::StateUnspecified;
        ApiError error;
        bool gotData = false;
        QEventLoop loop;
        QObject::connect(stream.get(), &ApiStream::logEntries, &loop, [&](const QList<LogEntry>& entries) {
            gotData = true;
            for (const LogEntry& e : entries) {
                const size_t key = qHashMulti(0, e.timestampUs, e.taskName, e.trialId, e.message);
                if (printed.contains(key))
                    continue;
                printed.insert(key);
                const QStringList lines = Printer::logLines(e, allowMultiline);
                for (const QString& l : lines)
                    target << l << '\n';
            }
            target.flush();
        });
        QObject::connect(stream.get(), &ApiStream::ended, &loop, [&](JobState state) { finalState = state; });
        QObject::connect(stream.get(), &ApiStream::failed, &loop, [&](const ApiError& e) { error = e; });
        QObject::connect(stream.get(), &ApiStream::finished, &loop, &QEventLoop::quit);
        if (!stream->isFinished())
            loop.exec();
        if (finalState != JobState::StateUnspecified)
            return finalState;
        if (error.httpStatus >= 400 && error.httpStatus < 500) {
            s.printApiError(command, error);
            return JobState::StateUnspecified;
        }
        consecutiveFailures = gotData ? 1 : consecutiveFailures + 1;
        // About a minute of retries: an executor restart (crash, upgrade) takes seconds.
        if (consecutiveFailures > 60) {
            s.printApiError(command, error);
            return JobState::StateUnspecified;
        }
        qCInfo(lcCtl) << "log stream broke, reconnecting:" << error.message;
        // The stream's reply belongs to the client's network manager: release it first.
        stream.reset();
        s.dropClient();
        QEventLoop pause;
        QTimer::singleShot(1000, &pause, &QEventLoop::quit);
        pause.exec();
    }
}

} // namespace

namespace {

/// The console's Compute page says when a job will not start at once or asks for more than this host has; so does
/// `jobs submit`, on stderr, with the same verdict (models/hostfit.h) against what is free before the job is created:
/// it oversubscribes the host, or it queues behind the jobs that run (issue 46: nothing was said while another job
/// ran), or its trials run fewer at once than asked. Empty for a job that fits now, or runs on a Slurm cluster.
QString hostFitWarning(ApiClient* client, const Job& job)
{
    const QString region = job.trainingInput.region;
    if (!region.isEmpty()) {
        const ApiResult<QList<RegionInfo>> regions = client->regionsBlocking();
        if (regions.ok()) {
            for (const RegionInfo& r : regions.value) {
                if (r.name == region && r.isCluster())
                    return {};
            }
        }
    }
    const ApiResult<HostStatus> host = client->hostBlocking();
    if (!host.ok())
        return {};
    const HostFit fit = assessHostFit(job, host.value, MachineCatalog::builtin());
    if (fit.verdict == HostFit::Verdict::Never
        || (fit.verdict == HostFit::Verdict::Fits && fit.parallelOnHost == fit.parallel))
        return {};
    return fit.text();
}

} // namespace

namespace {

/// `jobs submit training`'s flags: --config, the job's fields (GcloudFlags::trainingFlags(), the table the console's
/// equivalent command is written from), --async and --stream-logs, and the trainer's arguments after `--`.
void addTrainingFlags(ArgParser& p)
{
    p.addPositional(
        QStringLiteral("JOB"), QStringLiteral("Name of the job (letters, digits, underscores; starts with a letter)."));
    p.addFlag(QStringLiteral("config"), QStringLiteral("CONFIG"),
        QStringLiteral("Path to a YAML or JSON file holding a Job resource (usually just trainingInput:)."));
    for (const GcloudFlags::Flag& f : GcloudFlags::trainingFlags()) {
        if (f.isSwitch)
            p.addSwitch(f.name, f.help);
        else
            p.addFlag(f.name, f.metavar, f.help);
    }
    p.addSwitch(
        QStringLiteral("async"), QStringLiteral("(DEPRECATED) Return without waiting; this is the default behaviour."));
    p.addSwitch(QStringLiteral("stream-logs"),
        QStringLiteral("Block until the job finishes and stream its logs; exit 1 unless it SUCCEEDED."));
    p.addFlag(QStringLiteral("staging-bucket"), QStringLiteral("STAGING_BUCKET"),
        QStringLiteral("Accepted and not used, with a warning: gcloud uploads the packages there; here they stay on "
                       "this host and the executor stages them itself."));
    for (const char* kms : { "kms-key", "kms-keyring", "kms-location", "kms-project" })
        p.addFlag(QLatin1String(kms), QString::fromLatin1(kms).toUpper().replace(QLatin1Char('-'), QLatin1Char('_')),
            QStringLiteral("Refused: this executor cannot encrypt a job's data with a Cloud KMS key (customer-managed "
                           "encryption keys)."));
    p.allowUserArgs(QStringLiteral("Additional arguments passed to the trainer (after the module name)."));
}

/// The job the command line says: --config's Job, then each flag given over its field, then the trainer's
/// arguments. Nothing (after printing why, with the exit code in `*code`) when a flag's value is invalid, a package
/// or module is missing, or the trainer is given twice (an image and a package).
std::optional<Job> jobFromCommandLine(CtlSession& s, const ArgParser& p, int* code)
{
    Job job;
    if (p.isSet(QStringLiteral("config"))) {
        QString error;
        FieldViolations violations;
        const std::optional<Job> loaded
            = ConfigLoader::loadFile(p.value(QStringLiteral("config")), &error, &violations);
        if (!loaded) {
            s.printError(kSubmitCommand,
                QStringLiteral("Invalid --config file [%1]: %2").arg(p.value(QStringLiteral("config")), error));
            *code = ExitCode::Error;
            return std::nullopt;
        }
        job = *loaded;
    }
    job.jobId = p.positional(QStringLiteral("JOB"));
    TrainingInput& ti = job.trainingInput;
    *code = ExitCode::Usage;
    // gcloud's CMEK flags: a job that asks for its data to be encrypted with a key is refused, never run without it.
    for (const char* kms : { "kms-key", "kms-keyring", "kms-location", "kms-project" }) {
        if (p.isSet(QLatin1String(kms))) {
            s.err() << p.usageError(QStringLiteral("argument --%1: this executor cannot encrypt a job's data with a "
                                                   "Cloud KMS key; leave the --kms-* flags out to run it unencrypted.")
                                        .arg(QLatin1String(kms)));
            return std::nullopt;
        }
    }
    if (p.isSet(QStringLiteral("staging-bucket")))
        s.err() << "WARNING: --staging-bucket is accepted and not used: the packages stay on this host, and the "
                   "executor stages them in the job's folder.\n";

    // A master image runs every replica without its own: there is no package or module to give (gcloud: "Only
    // one of --master-image-uri, --runtime-version must be specified").
    const bool customContainer
        = p.isSet(QStringLiteral("master-image-uri")) || (ti.masterConfig && !ti.masterConfig->imageUri.isEmpty());
    if (customContainer) {
        for (const char* flag : { "package-path", "packages", "module-name", "runtime-version" }) {
            if (p.isSet(QLatin1String(flag))) {
                s.err() << p.usageError(QStringLiteral("argument --%1: not allowed with --master-image-uri: the image "
                                                       "holds the trainer.")
                                            .arg(QLatin1String(flag)));
                return std::nullopt;
            }
        }
    }
    // The package flags together replace the config's packages.
    if (p.isSet(QStringLiteral("package-path")) || p.isSet(QStringLiteral("packages")))
        ti.packageUris.clear();
    for (const GcloudFlags::Flag& f : GcloudFlags::trainingFlags()) {
        if (!p.isSet(f.name))
            continue;
        QString error;
        if (!f.apply(job,
                f.isSwitch ? (p.isTrue(f.name) ? QStringLiteral("true") : QStringLiteral("false")) : p.value(f.name),
                &error)) {
            s.err() << p.usageError(error);
            return std::nullopt;
        }
    }
    if (ti.packageUris.isEmpty() && !customContainer) {
        s.printError(kSubmitCommand,
            QStringLiteral("If `--package-path` is not specified, at least one Python package "
                           "must be specified via `--packages`."));
        return std::nullopt;
    }
    if (ti.pythonModule.isEmpty() && !customContainer) {
        s.err() << p.usageError(QStringLiteral("argument --module-name: Must be specified."));
        return std::nullopt;
    }
    if (!p.userArgs().isEmpty())
        ti.args = p.userArgs();
    *code = ExitCode::Ok;
    return job;
}

/// Creates `job` on the executor and says so as gcloud does; with --stream-logs, streams its logs to stderr until it
/// ends, prints the final job and exits 1 unless it SUCCEEDED.
int createTrainingJob(CtlSession& s, const ArgParser& p, const Job& job, const QString& command = kSubmitCommand)
{
    ApiClient* client = s.client(command);
    if (!client)
        return ExitCode::Error;
    // Asked before the job is created, so that the host's figures are without it.
    const QString warning = job.isPredictionJob() ? QString() : hostFitWarning(client, job);
    ApiResult<Job> created = client->createJobBlocking(job);
    if (!created.ok() && created.error.httpStatus == 0)
        created = confirmCreate(s, job, created.error);
    if (!created.ok()) {
        s.printApiError(command, created.error);
        return ExitCode::Error;
    }
    const bool stream = p.isTrue(QStringLiteral("stream-logs"));
    if (p.isTrue(QStringLiteral("async"))) {
        s.err() << "WARNING: The --async flag is deprecated, as the default behavior is to submit the job "
                   "asynchronously; it can be omitted. For synchronous behavior, please pass --stream-logs.\n\n";
    }
    if (!warning.isEmpty())
        s.err() << "WARNING: " << warning << '\n';
    s.err() << "Job [" << created.value.jobId << "] submitted successfully.\n";
    if (!stream) {
        s.err() << followUpMessage(created.value.jobId) << '\n';
        s.err().flush();
        printJobBrief(s, created.value);
        return ExitCode::Ok;
    }
    s.err().flush();
    // gcloud streams a submitted job's logs to stderr and prints the final job to stdout.
    const JobState finalState = followLogs(s, command, created.value.jobId, {}, false, s.err());
    if (finalState == JobState::StateUnspecified) {
        s.err() << followUpMessage(created.value.jobId) << Qt::endl;
        return ExitCode::Error;
    }
    ApiClient* after = s.client(command);
    const ApiResult<Job> final = after ? after->getJobBlocking(created.value.jobId) : ApiResult<Job> {};
    if (after && final.ok())
        printJobBrief(s, final.value);
    else if (after)
        s.printApiError(command, final.error);
    return finalState == JobState::Succeeded ? ExitCode::Ok : ExitCode::Error;
}

} // namespace

int JobsCommands::submitTraining(CtlSession& s, const QStringList& args)
{
    ArgParser p(kSubmitCommand,
        QStringLiteral("trainyardctl jobs submit training JOB [--config=CONFIG] [--package-path=PACKAGE_PATH] "
                       "[--packages=[PACKAGE,...]] --module-name=MODULE_NAME [optional flags] [-- USER_ARGS ...]\n"
                       "       trainyardctl jobs submit training JOB --master-image-uri=MASTER_IMAGE_URI "
                       "[optional flags] [-- USER_ARGS ...]"),
        QStringLiteral("submit a training job\n"
                       "Submits a training job to the executor, as `gcloud ai-platform jobs submit training`.\n"
                       "Flags given on the command line override the same fields of --config."));
    addTrainingFlags(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    if (p.isTrue(QStringLiteral("async")) && p.isTrue(QStringLiteral("stream-logs"))) {
        s.err() << p.usageError(
            QStringLiteral("argument --async: At most one of --async | --stream-logs may be specified."));
        return ExitCode::Usage;
    }
    int code = ExitCode::Ok;
    const std::optional<Job> job = jobFromCommandLine(s, p, &code);
    if (!job)
        return code;
    return createTrainingJob(s, p, *job);
}

int JobsCommands::submitPrediction(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.jobs.submit.prediction");
    ArgParser p(command,
        QStringLiteral("trainyardctl jobs submit prediction JOB --data-format=DATA_FORMAT "
                       "--input-paths=INPUT_PATH,[INPUT_PATH,...] --output-path=OUTPUT_PATH --region=REGION "
                       "(--model=MODEL | --model-dir=MODEL_DIR) [--version=VERSION] [optional flags]"),
        QStringLiteral("submit a batch prediction job\n"
                       "Starts a batch prediction job, as `gcloud ai-platform jobs submit prediction`: its workers "
                       "predict every instance of the input files and write prediction.results-NNNNN-of-NNNNN and "
                       "prediction.errors_stats-NNNNN-of-NNNNN in the output folder."));
    p.addPositional(QStringLiteral("JOB"), QStringLiteral("Name of the batch prediction job."));
    // The job's fields: the table the console's equivalent command is written from.
    const QList<GcloudFlags::Flag> flags = GcloudFlags::predictionFlags(s.project());
    for (const GcloudFlags::Flag& f : flags)
        p.addFlag(f.name, f.metavar, f.help);
    p.addSwitch(QStringLiteral("stream-logs"),
        QStringLiteral("Block until the job finishes and stream its logs; exit 1 unless it SUCCEEDED."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    for (const char* required : { "data-format", "input-paths", "output-path", "region" }) {
        if (!p.isSet(QLatin1String(required))) {
            s.err() << p.usageError(QStringLiteral("argument --%1: Must be specified.").arg(QLatin1String(required)));
            return ExitCode::Usage;
        }
    }
    if (p.isSet(QStringLiteral("model")) == p.isSet(QStringLiteral("model-dir"))) {
        s.err() << p.usageError(QStringLiteral("Exactly one of (--model | --model-dir) must be specified."));
        return ExitCode::Usage;
    }
    Job job;
    job.jobId = p.positional(QStringLiteral("JOB"));
    for (const GcloudFlags::Flag& f : flags) {
        QString error;
        if (p.isSet(f.name) && !f.apply(job, p.value(f.name), &error)) {
            s.err() << p.usageError(error);
            return ExitCode::Usage;
        }
    }
    return createTrainingJob(s, p, job, command);
}

int JobsCommands::describe(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.jobs.describe");
    ArgParser p(command, QStringLiteral("trainyardctl jobs describe JOB [--summarize]"),
        QStringLiteral("describe a job\nPrints the job resource (YAML by default; --format json)."));
    p.addPositional(QStringLiteral("JOB"), QStringLiteral("Name of the job."));
    p.addSwitch(QStringLiteral("summarize"),
        QStringLiteral("Summarize job output in a set of human readable tables instead of rendering the entire "
                       "resource as json or yaml."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    ApiClient* client = s.client(command);
    if (!client)
        return ExitCode::Error;
    const ApiResult<Job> r = client->getJobBlocking(p.positional(QStringLiteral("JOB")));
    if (!r.ok()) {
        s.printApiError(command, r.error);
        return ExitCode::Error;
    }
    if (!p.isTrue(QStringLiteral("summarize"))) {
        printJob(s, r.value);
        return ExitCode::Ok;
    }
    if (!s.format().isEmpty())
        s.err() << "WARNING: --format is ignored when --summarize is present\n";
    // flags.py _JOB_SUMMARY: "Job Overview", "Training Input Summary" (optional columns only when set),
    // "Training Output Summary".
    const Job& job = r.value;
    s.out() << Printer::boxTable(QStringLiteral("Job Overview"),
        { QStringLiteral("JOB_ID"), QStringLiteral("CREATE_TIME"), QStringLiteral("START_TIME"),
            QStringLiteral("END_TIME"), QStringLiteral("STATE") },
        { { job.jobId, job.createTime, job.startTime, job.endTime, stateText(job.state) } });
    const TrainingInput& ti = job.trainingInput;
    QStringList headings;
    QStringList values;
    auto column = [&](const QString& heading, const QString& value, bool optional) {
        if (optional && value.isEmpty())
            return;
        headings.append(heading);
        values.append(value);
    };
    auto count = [](const std::optional<qint64>& v) { return v ? QString::number(*v) : QString(); };
    column(QStringLiteral("RUNTIME_VERSION"), ti.runtimeVersion, true);
    column(QStringLiteral("REGION"), ti.region, false);
    column(QStringLiteral("SCALE_TIER"), ti.scaleTier, true);
    column(QStringLiteral("PYTHON_MODULE"), ti.pythonModule, false);
    column(QStringLiteral("PARAMETER_SERVER_TYPE"), ti.parameterServerType, true);
    column(QStringLiteral("PARAMETER_SERVER_COUNT"), count(ti.parameterServerCount), true);
    column(QStringLiteral("MASTER_TYPE"), ti.masterType, true);
    column(QStringLiteral("WORKER_TYPE"), ti.workerType, true);
    column(QStringLiteral("WORKER_COUNT"), count(ti.workerCount), true);
    column(QStringLiteral("JOB_DIR"), ti.jobDir, true);
    s.out() << Printer::boxTable(QStringLiteral("Training Input Summary"), headings, { values });
    QStringList outHeadings;
    QStringList outValues;
    if (job.trainingOutput && job.trainingOutput->completedTrialCount) {
        outHeadings.append(QStringLiteral("TRIALS"));
        outValues.append(QString::number(*job.trainingOutput->completedTrialCount));
    }
    outHeadings.append(QStringLiteral("ML_UNITS"));
    outValues.append(job.trainingOutput && job.trainingOutput->consumedMLUnits
            ? QString::number(*job.trainingOutput->consumedMLUnits)
            : QString());
    s.out() << Printer::boxTable(QStringLiteral("Training Output Summary"), outHeadings, { outValues });
    if (job.trainingOutput && !job.trainingOutput->trials.isEmpty()) {
        QList<QStringList> rows;
        for (const HyperparameterOutput& t : job.trainingOutput->trials) {
            QStringList hp;
            for (auto it = t.hyperparameters.cbegin(); it != t.hyperparameters.cend(); ++it)
                hp.append(it.key() + QLatin1Char('=') + it.value());
            rows.append({ t.trialId,
                t.finalMetric && t.finalMetric->objectiveValue ? QString::number(*t.finalMetric->objectiveValue)
                                                               : QString(),
                t.finalMetric && t.finalMetric->trainingStep ? QString::number(*t.finalMetric->trainingStep)
                                                             : QString(),
                hp.join(QStringLiteral(", ")) });
        }
        s.out() << Printer::boxTable(QStringLiteral("Training Output Trials"),
            { QStringLiteral("TRIAL"), QStringLiteral("OBJECTIVE_VALUE"), QStringLiteral("STEP"),
                QStringLiteral("HYPERPARAMETERS") },
            rows);
    }
    s.out().flush();
    return ExitCode::Ok;
}

/// A tuning job's trial progress for `jobs list`: "5/8 ended (1 failed), 2 running"; empty for other jobs.
static QString trialProgress(const Job& job)
{
    if (!job.trainingInput.hyperparameters)
        return QString();
    int ended = 0;
    int failed = 0;
    int running = 0;
    if (job.trainingOutput) {
        for (const HyperparameterOutput& t : job.trainingOutput->trials) {
            if (isFinal(t.state)) {
                ++ended;
                failed += t.state == JobState::Failed ? 1 : 0;
            } else {
                ++running;
            }
        }
    }
    QString text
        = QStringLiteral("%1/%2 ended").arg(ended).arg(job.trainingInput.hyperparameters->maxTrials.value_or(1));
    if (failed)
        text += QStringLiteral(" (%1 failed)").arg(failed);
    if (running)
        text += QStringLiteral(", %1 running").arg(running);
    return text;
}

int JobsCommands::list(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.jobs.list");
    ArgParser p(command,
        QStringLiteral("trainyardctl jobs list [--filter=EXPRESSION] [--limit=LIMIT] [--page-size=PAGE_SIZE] "
                       "[--sort-by=[FIELD,...]] [--flatten=[KEY,...]] [--uri]"),
        QStringLiteral("list existing jobs\nNewest first. --filter takes the service's syntax: jobId:census*, "
                       "state:FAILED, labels.owner=alice, createTime>2026-01-01T00:00:00Z, joined with AND."));
    p.addFlag(QStringLiteral("filter"), QStringLiteral("EXPRESSION"), QStringLiteral("Only jobs that match."));
    p.addFlag(QStringLiteral("page-size"), QStringLiteral("PAGE_SIZE"),
        QStringLiteral("Jobs fetched per request (1..100; default 100)."));
    ListDisplay::addFlags(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    QString error;
    ListDisplay display;
    int pageSize = 100;
    if (!display.take(p, &error)
        || (p.isSet(QStringLiteral("page-size"))
            && !ArgParser::parseInt(
                QStringLiteral("page-size"), p.value(QStringLiteral("page-size")), 1, &pageSize, &error))) {
        s.err() << p.usageError(error);
        return ExitCode::Usage;
    }
    ApiClient* client = s.client(command);
    if (!client)
        return ExitCode::Error;
    QJsonArray jobs;
    // The trials column's text by job, from the typed jobs (the `trialProgress()` transform looks it up).
    QHash<QString, QString> progress;
    bool tuning = false;
    QString token;
    // Pages until the list ends, or until --limit is reached when nothing is sorted (sorting needs them all).
    do {
        const ApiResult<JobPage> r = client->listJobsBlocking(p.value(QStringLiteral("filter")), pageSize, token);
        if (!r.ok()) {
            s.printApiError(command, r.error);
            return ExitCode::Error;
        }
        for (const Job& j : r.value.jobs) {
            jobs.append(JobJson::toJson(j));
            progress.insert(j.jobId, trialProgress(j));
            tuning = tuning || j.trainingInput.hyperparameters.has_value();
        }
        token = r.value.nextPageToken;
    } while (!token.isEmpty()
        && !(display.limit >= 0 && display.sortBy.isEmpty() && jobs.size() >= display.limit));
    // gcloud's default: `table(jobId.basename(), state:label=STATUS, createTime.date(tz=LOCAL):label=CREATED)`, and,
    // when a tuning job is listed, its trials' progress (ours).
    QString format = QStringLiteral("table(jobId.basename(), state:label=STATUS, createTime.date(tz=LOCAL):label=CREATED");
    if (tuning)
        format += QStringLiteral(", trialProgress():label=TRIALS");
    const ResourceFormat::Transform trials = [&progress](const QJsonValue&, const QJsonValue& job, const QStringList&) {
        return QJsonValue(progress.value(job[QLatin1String("jobId")].toString()));
    };
    s.printList(jobs, format + QLatin1Char(')'), display, { { QStringLiteral("trialProgress"), trials } });
    return ExitCode::Ok;
}

int JobsCommands::cancel(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.jobs.cancel");
    ArgParser p(command, QStringLiteral("trainyardctl jobs cancel JOB"),
        QStringLiteral("cancel a running job\nThe job goes CANCELLING, its replicas are stopped (SIGTERM, then "
                       "SIGKILL after the grace period), then CANCELLED."));
    p.addPositional(QStringLiteral("JOB"), QStringLiteral("Name of the job."));
    if (!p.parse(args))
        return s.usage(p);
    ApiClient* client = s.client(command);
    if (!client)
        return ExitCode::Error;
    const QString jobId = p.positional(QStringLiteral("JOB"));
    const ApiResult<bool> r = client->cancelJobBlocking(jobId);
    if (!r.ok()) {
        s.printApiError(command, r.error);
        return ExitCode::Error;
    }
    s.err() << "Cancelled job [" << jobId << "].\n";
    s.err().flush();
    return ExitCode::Ok;
}

int JobsCommands::streamLogs(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.jobs.stream-logs");
    ArgParser p(command,
        QStringLiteral("trainyardctl jobs stream-logs JOB [--allow-multiline-logs] "
                       "[--polling-interval=POLLING_INTERVAL] [--task-name=TASK_NAME] [--trial=TRIAL]"),
        QStringLiteral("show logs from a running job\nPrints every log line of the job (SEVERITY, local time, "
                       "task name, trial, message; tab-separated) and follows it until the job ends."));
    p.addPositional(QStringLiteral("JOB"), QStringLiteral("Name of the job."));
    p.addSwitch(
        QStringLiteral("allow-multiline-logs"), QStringLiteral("Output multiline log messages as single records."));
    p.addFlag(QStringLiteral("polling-interval"), QStringLiteral("POLLING_INTERVAL"),
        QStringLiteral("Accepted for gcloud compatibility; logs are pushed by the executor, not polled."));
    p.addFlag(QStringLiteral("task-name"), QStringLiteral("TASK_NAME"),
        QStringLiteral("Only this task's logs (master-replica-0, worker-replica-1, ps-replica-0, service …)."));
    p.addFlag(QStringLiteral("trial"), QStringLiteral("TRIAL"),
        QStringLiteral("Only this trial's logs (a hyperparameter tuning job's trial ID: 1, 2, …)."));
    if (!p.parse(args))
        return s.usage(p);
    int interval = 0;
    QString error;
    if (p.isSet(QStringLiteral("polling-interval"))
        && !ArgParser::parseInt(
            QStringLiteral("polling-interval"), p.value(QStringLiteral("polling-interval")), 1, &interval, &error)) {
        s.err() << p.usageError(error);
        return ExitCode::Usage;
    }
    const JobState finalState
        = followLogs(s, command, p.positional(QStringLiteral("JOB")), p.value(QStringLiteral("task-name")),
            p.isTrue(QStringLiteral("allow-multiline-logs")), s.out(), p.value(QStringLiteral("trial")));
    return finalState == JobState::StateUnspecified ? ExitCode::Error : ExitCode::Ok;
}

int JobsCommands::update(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.jobs.update");
    ArgParser p(command,
        QStringLiteral("trainyardctl jobs update JOB [--update-labels=[KEY=VALUE,...]] "
                       "[--clear-labels | --remove-labels=[KEY,...]]"),
        QStringLiteral("update a job\nChanges the job's labels (checked against the job's etag, so a "
                       "concurrent change is never overwritten)."));
    p.addPositional(QStringLiteral("JOB"), QStringLiteral("Name of the job."));
    p.addFlag(
        QStringLiteral("update-labels"), QStringLiteral("[KEY=VALUE,...]"), QStringLiteral("Labels to add or change."));
    p.addFlag(QStringLiteral("remove-labels"), QStringLiteral("[KEY,...]"), QStringLiteral("Label keys to remove."));
    p.addSwitch(QStringLiteral("clear-labels"), QStringLiteral("Remove all labels."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    const bool clear = p.isTrue(QStringLiteral("clear-labels"));
    if (!p.isSet(QStringLiteral("update-labels")) && !p.isSet(QStringLiteral("remove-labels")) && !clear) {
        s.err() << p.usageError(
            QStringLiteral("At least one of --update-labels, --remove-labels, or --clear-labels must be specified."));
        return ExitCode::Usage;
    }
    if (clear && p.isSet(QStringLiteral("remove-labels"))) {
        s.err() << p.usageError(QStringLiteral(
            "argument --clear-labels: At most one of --clear-labels | --remove-labels may be specified."));
        return ExitCode::Usage;
    }
    QMap<QString, QString> updates;
    QString error;
    if (p.isSet(QStringLiteral("update-labels"))
        && !ArgParser::parseDict(
            QStringLiteral("update-labels"), p.value(QStringLiteral("update-labels")), &updates, &error)) {
        s.err() << p.usageError(error);
        return ExitCode::Usage;
    }
    const QStringList removals = p.value(QStringLiteral("remove-labels")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    ApiClient* client = s.client(command);
    if (!client)
        return ExitCode::Error;
    const QString jobId = p.positional(QStringLiteral("JOB"));
    // Read-modify-write with the etag; one retry when someone else changed the job in between.
    for (int attempt = 0; attempt < 2; ++attempt) {
        const ApiResult<Job> current = client->getJobBlocking(jobId);
        if (!current.ok()) {
            s.printApiError(command, current.error);
            return ExitCode::Error;
        }
        QMap<QString, QString> labels = clear ? QMap<QString, QString>() : current.value.labels;
        for (const QString& key : removals)
            labels.remove(key.trimmed());
        for (auto it = updates.cbegin(); it != updates.cend(); ++it)
            labels.insert(it.key(), it.value());
        if (labels == current.value.labels) {
            s.err() << "No update to perform.\n";
            s.err().flush();
            return ExitCode::Ok;
        }
        const ApiResult<Job> patched = client->patchLabelsBlocking(jobId, labels, current.value.etag);
        if (patched.ok()) {
            s.err() << "Updated job [" << jobId << "].\n";
            s.err().flush();
            printJob(s, patched.value);
            return ExitCode::Ok;
        }
        if (patched.error.status != QLatin1String("ABORTED") || attempt == 1) {
            s.printApiError(command, patched.error);
            return ExitCode::Error;
        }
    }
    return ExitCode::Error;
}

namespace {
int metricsKindOrder(const QString& kind)
{
    if (kind == QLatin1String("scalar"))
        return 0;
    if (kind == QLatin1String("hypertune"))
        return 1;
    return 2;
}
} // namespace

int JobsCommands::metrics(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.jobs.metrics");
    ArgParser p(command,
        QStringLiteral("trainyardctl jobs metrics JOB [--series=SERIES] [--trial=TRIAL] [--format=csv|json]"),
        QStringLiteral("print the metrics of a job\nPrints every stored point of the job's metric series: event-file "
                       "scalars (by run and tag), hypertune reports and resource samples (cpu_percent, rss_bytes, "
                       "gpu_utilization_percent, gpu_memory_bytes) per replica; csv "
                       "run,tag,step,wall_time,value by default, or json."));
    p.addPositional(QStringLiteral("JOB"), QStringLiteral("Name of the job."));
    p.addFlag(QStringLiteral("series"), QStringLiteral("SERIES"),
        QStringLiteral("Only this series (a name as the API lists it, e.g. scalar/./train/loss)."));
    p.addFlag(QStringLiteral("trial"), QStringLiteral("TRIAL"),
        QStringLiteral("Only this trial's series (a tuning job's trial ID): its replicas' hypertune reports and "
                       "resources, and the event files under the job dir's TRIAL folder."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("csv"), QStringLiteral("json") }))
        return ExitCode::Usage;
    const bool json = s.format() == QLatin1String("json");
    ApiClient* client = s.client(command);
    if (!client)
        return ExitCode::Error;
    const QString jobId = p.positional(QStringLiteral("JOB"));
    const ApiResult<QList<SeriesInfo>> listed = client->metricSeriesBlocking(jobId);
    if (!listed.ok()) {
        s.printApiError(command, listed.error);
        return ExitCode::Error;
    }
    QList<SeriesInfo> series = listed.value;
    const QString only = p.value(QStringLiteral("series"));
    if (!only.isEmpty()) {
        series.removeIf([&](const SeriesInfo& info) { return info.name != only; });
        if (series.isEmpty()) {
            s.printError(command, QStringLiteral("Job [%1] has no metric series [%2].").arg(jobId, only));
            return ExitCode::Error;
        }
    }
    if (p.isSet(QStringLiteral("trial"))) {
        // A trial's event files are under <jobDir>/<trialId>/ (the service's samples), so its runs are that folder
        // and the folders below it.
        const QString trial = p.value(QStringLiteral("trial"));
        series.removeIf([&](const SeriesInfo& info) {
            if (info.kind == QLatin1String("scalar"))
                return info.run != trial && !info.run.startsWith(trial + QLatin1Char('/'));
            return info.trialId != trial;
        });
        if (series.isEmpty()) {
            s.printError(command, QStringLiteral("Job [%1] has no metric series of trial [%2].").arg(jobId, trial));
            return ExitCode::Error;
        }
    }
    // Scalars by run (TensorBoard's order), then hypertune reports, then resources; creation order within.
    std::stable_sort(series.begin(), series.end(), [](const SeriesInfo& a, const SeriesInfo& b) {
        const int ka = metricsKindOrder(a.kind);
        const int kb = metricsKindOrder(b.kind);
        if (ka != kb)
            return ka < kb;
        return ka == 0 && a.run < b.run;
    });

    Formats::MetricRowWriter rows(
        json ? Formats::MetricRowWriter::Format::Json : Formats::MetricRowWriter::Format::Csv);
    s.out() << QString::fromUtf8(rows.begin());
    for (const SeriesInfo& info : std::as_const(series)) {
        const ApiResult<SeriesPage> page = client->metricPointsBlocking(jobId, info.name);
        if (!page.ok()) {
            s.out().flush();
            s.printApiError(command, page.error);
            return ExitCode::Error;
        }
        // A trial's replica series carry the trial: "hypertune/master-replica-0@3".
        const QString trialSuffix
            = info.kind != QLatin1String("scalar") && !info.trialId.isEmpty() && info.trialId != QLatin1String("0")
            ? QLatin1Char('@') + info.trialId
            : QString();
        const QString run = info.kind == QLatin1String("scalar")
            ? info.run
            : info.kind + QLatin1Char('/') + info.taskName + trialSuffix;
        rows.setRun(run.toUtf8());
        rows.setTag(info.tag.toUtf8());
        if (json)
            rows.setKind(info.kind.toUtf8());
        QByteArray out;
        for (const SeriesPoint& point : page.value.points)
            out += rows.row(point.step, point.wallTime, point.value);
        s.out() << QString::fromUtf8(out);
    }
    s.out() << QString::fromUtf8(rows.end());
    s.out().flush();
    return ExitCode::Ok;
}

} // namespace Trainyard
