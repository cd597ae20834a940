// SPDX-License-Identifier: GPL-2.0-or-later
#include "joblistmodel.h"
#include "rfc3339.h"

#include "builtinalgorithm.h"
#include "machinecatalog.h"

#include <QLocale>

#include <algorithm>

namespace Trainyard {

namespace {
int acceleratorsOf(const QString& machineType, const std::optional<ReplicaConfig>& config)
{
    if (config && config->acceleratorConfig && config->acceleratorConfig->count)
        return int(*config->acceleratorConfig->count);
    if (const MachineType* type = MachineCatalog::builtin().machineType(machineType)) {
        if (type->impliedAccelerator.count)
            return int(*type->impliedAccelerator.count);
    }
    return 0;
}

QString formatDuration(qint64 seconds)
{
    if (seconds < 0)
        return {};
    const qint64 h = seconds / 3600;
    const qint64 m = (seconds % 3600) / 60;
    const qint64 s = seconds % 60;
    if (h > 0)
        return QStringLiteral("%1:%2:%3").arg(h).arg(m, 2, 10, QLatin1Char('0')).arg(s, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(m).arg(s, 2, 10, QLatin1Char('0'));
}

qint64 durationOf(const Job& job)
{
    const QDateTime start = JobListModel::parseTime(job.startTime.isEmpty() ? QString() : job.startTime);
    if (!start.isValid())
        return -1;
    QDateTime end = JobListModel::parseTime(job.endTime);
    if (!end.isValid())
        end = isFinal(job.state) ? start : QDateTime::currentDateTimeUtc();
    return std::max<qint64>(0, start.secsTo(end));
}
} // namespace

JobListModel::JobListModel(QObject* parent)
    : QAbstractTableModel(parent)
{
    // Running jobs' durations tick; one dataChanged per second for that column only.
    m_durationTimer.setInterval(1000);
    connect(&m_durationTimer, &QTimer::timeout, this, &JobListModel::refreshDurations);
}

int JobListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_jobs.size());
}

int JobListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QDateTime JobListModel::parseTime(const QString& rfc3339)
{
    return Rfc3339::parse(rfc3339);
}

JobListModel::ReplicaCounts JobListModel::replicaCounts(const TrainingInput& input)
{
    ReplicaCounts counts;
    const QString tier = input.scaleTier.isEmpty() ? QStringLiteral("BASIC") : input.scaleTier;
    if (tier == QLatin1String("CUSTOM")) {
        counts.workers = int(input.workerCount.value_or(0));
        counts.parameterServers = int(input.parameterServerCount.value_or(0));
        counts.evaluators = int(input.evaluatorCount.value_or(0));
    } else if (const ScaleTierInfo* info = MachineCatalog::builtin().scaleTier(tier)) {
        counts.workers = info->workerCount;
        counts.parameterServers = info->parameterServerCount;
    }
    return counts;
}

int JobListModel::gpuCount(const TrainingInput& input)
{
    const QString tier = input.scaleTier.isEmpty() ? QStringLiteral("BASIC") : input.scaleTier;
    if (tier != QLatin1String("CUSTOM")) {
        const ScaleTierInfo* info = MachineCatalog::builtin().scaleTier(tier);
        return info && info->masterAccelerator.count ? int(*info->masterAccelerator.count) : 0;
    }
    const ReplicaCounts counts = replicaCounts(input);
    return acceleratorsOf(input.masterType, input.masterConfig)
        + counts.workers * acceleratorsOf(input.workerType, input.workerConfig)
        + counts.parameterServers * acceleratorsOf(input.parameterServerType, input.parameterServerConfig)
        + counts.evaluators * acceleratorsOf(input.evaluatorType, input.evaluatorConfig);
}

QString JobListModel::batchProgressText(const Job& job)
{
    // "1,200 / 1,202 done": predictions and errors both are instances done.
    if (!job.predictionOutput || !job.predictionOutput->predictionCount)
        return tr("batch");
    const qint64 done = *job.predictionOutput->predictionCount + job.predictionOutput->errorCount.value_or(0);
    if (!job.predictionOutput->inputInstanceCount)
        return tr("%1 done").arg(QLocale().toString(done));
    return tr("%1 / %2 done")
        .arg(QLocale().toString(done), QLocale().toString(*job.predictionOutput->inputInstanceCount));
}

QVariant JobListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Job& job = m_jobs.at(index.row());
    switch (role) {
    case JobIdRole:
        return job.jobId;
    case StateRole:
        return QVariant::fromValue(job.state);
    case CreateTimeRole:
        return parseTime(job.createTime);
    case StartTimeRole:
        return parseTime(job.startTime);
    case EndTimeRole:
        return parseTime(job.endTime);
    case DurationRole:
        return durationOf(job);
    case ErrorMessageRole:
        return job.errorMessage;
    case LabelsRole: {
        QVariantMap map;
        for (auto it = job.labels.cbegin(); it != job.labels.cend(); ++it)
            map.insert(it.key(), it.value());
        return map;
    }
    case GpuCountRole:
        return gpuCount(job.trainingInput);
    case ReplicaCountRole:
        return replicaCounts(job.trainingInput).total();
    case JobDirRole:
        return job.trainingInput.jobDir;
    default:
        break;
    }

    const int column = index.column();
    if (role == SortRole) {
        switch (column) {
        case CreatedColumn:
            return parseTime(job.createTime).toMSecsSinceEpoch();
        case DurationColumn:
            return durationOf(job);
        case ReplicasColumn:
            return replicaCounts(job.trainingInput).total();
        case GpusColumn:
            return gpuCount(job.trainingInput);
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::DisplayRole) {
        switch (column) {
        case JobIdColumn:
            return job.jobId;
        case TypeColumn:
            return typeText(job);
        case StateColumn: // the service's name; the console's proxy shows a translated one
            return jobStateName(job.state);
        case CreatedColumn: {
            const QDateTime t = parseTime(job.createTime);
            return t.isValid() ? QLocale().toString(t.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString();
        }
        case DurationColumn:
            return formatDuration(durationOf(job));
        case ScaleTierColumn:
            if (job.predictionInput)
                return QString(); // no scale tier: the Type column says what it is
            return job.trainingInput.scaleTier.isEmpty() ? QStringLiteral("BASIC") : job.trainingInput.scaleTier;
        case ReplicasColumn: {
            if (job.predictionInput)
                return batchProgressText(job);
            const ReplicaCounts c = replicaCounts(job.trainingInput);
            QString text = QStringLiteral("%1 + %2 + %3").arg(c.master).arg(c.workers).arg(c.parameterServers);
            if (c.evaluators > 0)
                text += tr(" (+%n eval)", nullptr, c.evaluators);
            return text;
        }
        case GpusColumn:
            return gpuCount(job.trainingInput);
        case LabelsColumn: {
            QStringList parts;
            for (auto it = job.labels.cbegin(); it != job.labels.cend(); ++it)
                parts << it.key() + QLatin1Char('=') + it.value();
            return parts.join(QStringLiteral(", "));
        }
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (column == ReplicasColumn && job.predictionInput) {
            const PredictionOutput out = job.predictionOutput.value_or(PredictionOutput {});
            return tr("Instances predicted: %1, errors: %2, of %3 in the input; results in %4")
                .arg(out.predictionCount.value_or(0))
                .arg(out.errorCount.value_or(0))
                .arg(out.inputInstanceCount ? QString::number(*out.inputInstanceCount) : tr("(not yet counted)"))
                .arg(job.predictionInput->outputPath);
        }
        if (column == ReplicasColumn) {
            const ReplicaCounts c = replicaCounts(job.trainingInput);
            return tr("1 master, %1 workers, %2 parameter servers, %3 evaluators")
                .arg(c.workers)
                .arg(c.parameterServers)
                .arg(c.evaluators);
        }
        if (column == StateColumn && !job.errorMessage.isEmpty())
            return job.errorMessage;
        if (column == StateColumn && job.jobPosition)
            return tr("Position in queue: %1").arg(*job.jobPosition);
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        if (column == GpusColumn || column == DurationColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QString JobListModel::typeText(const Job& job)
{
    if (job.predictionInput)
        return tr("Batch prediction");
    if (BuiltInAlgorithms::forJob(job.trainingInput))
        return job.trainingInput.hyperparameters ? tr("Built-in algorithm, tuning") : tr("Built-in algorithm");
    if (job.trainingInput.hyperparameters)
        return tr("Hyperparameter tuning");
    return tr("Training");
}

QVariant JobListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == ReplicasColumn)
        return tr("Training: master + workers + parameter servers (+ evaluators). Batch prediction: the instances "
                  "done.");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case JobIdColumn:
        return tr("Job ID");
    case TypeColumn:
        return tr("Type");
    case StateColumn:
        return tr("State");
    case CreatedColumn:
        return tr("Created");
    case DurationColumn:
        return tr("Duration");
    case ScaleTierColumn:
        return tr("Scale tier");
    case ReplicasColumn:
        //: A training job's replicas (master + workers + parameter servers); a batch prediction's instances done.
        return tr("Replicas / progress");
    case GpusColumn:
        return tr("GPUs");
    case LabelsColumn:
        return tr("Labels");
    default:
        return {};
    }
}

QHash<int, QByteArray> JobListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(JobIdRole, "jobId");
    names.insert(StateRole, "state");
    names.insert(CreateTimeRole, "createTime");
    names.insert(StartTimeRole, "startTime");
    names.insert(EndTimeRole, "endTime");
    names.insert(DurationRole, "duration");
    names.insert(ErrorMessageRole, "errorMessage");
    names.insert(LabelsRole, "labels");
    names.insert(GpuCountRole, "gpuCount");
    names.insert(ReplicaCountRole, "replicaCount");
    names.insert(SortRole, "sortValue");
    names.insert(JobDirRole, "jobDir");
    return names;
}

void JobListModel::setJobs(const QList<Job>& jobs)
{
    QHash<QString, int> listed;
    listed.reserve(jobs.size());
    for (int i = 0; i < jobs.size(); ++i)
        listed.insert(jobs.at(i).jobId, i);

    // Remove vanished rows from the bottom up, in contiguous ranges.
    for (int row = int(m_jobs.size()) - 1; row >= 0;) {
        if (listed.contains(m_jobs.at(row).jobId)) {
            --row;
            continue;
        }
        int first = row;
        while (first > 0 && !listed.contains(m_jobs.at(first - 1).jobId))
            --first;
        beginRemoveRows({}, first, row);
        m_jobs.remove(first, row - first + 1);
        endRemoveRows();
        row = first - 1;
    }
    m_rows.clear();
    for (int row = 0; row < m_jobs.size(); ++row)
        m_rows.insert(m_jobs.at(row).jobId, row);

    QList<Job> added;
    for (const Job& job : jobs) {
        const auto it = m_rows.constFind(job.jobId);
        if (it == m_rows.constEnd()) {
            added.append(job);
            continue;
        }
        const int row = it.value();
        if (!(m_jobs.at(row) == job)) {
            m_jobs[row] = job;
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
        }
    }
    appendRows(added);
    refreshDurations();
}

void JobListModel::appendRows(const QList<Job>& jobs)
{
    if (jobs.isEmpty())
        return;
    const int first = int(m_jobs.size());
    beginInsertRows({}, first, first + int(jobs.size()) - 1);
    for (const Job& job : jobs) {
        m_rows.insert(job.jobId, int(m_jobs.size()));
        m_jobs.append(job);
    }
    endInsertRows();
}

void JobListModel::updateJob(const Job& job)
{
    updateJobs({ job });
}

void JobListModel::updateJobs(const QList<Job>& jobs)
{
    // O(changes): a hash lookup and at most one dataChanged per job, one insert for all new ones. The
    // durations' timer is only started here; refreshDurations() (once a second) stops it.
    QList<Job> added;
    QHash<QString, qsizetype> addedAt;
    bool live = false;
    for (const Job& job : jobs) {
        live = live || (!job.startTime.isEmpty() && !isFinal(job.state));
        const int row = rowOf(job.jobId);
        if (row >= 0) {
            if (!(m_jobs.at(row) == job)) {
                m_jobs[row] = job;
                emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
            }
        } else if (const auto it = addedAt.constFind(job.jobId); it != addedAt.constEnd()) {
            added[it.value()] = job; // changed again within the same batch
        } else {
            addedAt.insert(job.jobId, added.size());
            added.append(job);
        }
    }
    appendRows(added);
    if (live && !m_durationTimer.isActive())
        m_durationTimer.start();
}

void JobListModel::removeJob(const QString& jobId)
{
    const int row = rowOf(jobId);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_jobs.removeAt(row);
    endRemoveRows();
    m_rows.clear();
    for (int i = 0; i < m_jobs.size(); ++i)
        m_rows.insert(m_jobs.at(i).jobId, i);
}

void JobListModel::clear()
{
    if (m_jobs.isEmpty())
        return;
    beginRemoveRows({}, 0, int(m_jobs.size()) - 1);
    m_jobs.clear();
    m_rows.clear();
    endRemoveRows();
    m_durationTimer.stop();
}

int JobListModel::rowOf(const QString& jobId) const
{
    return m_rows.value(jobId, -1);
}

const Job* JobListModel::jobAt(int row) const
{
    return row >= 0 && row < m_jobs.size() ? &m_jobs.at(row) : nullptr;
}

void JobListModel::refreshDurations()
{
    bool anyLive = false;
    for (int row = 0; row < m_jobs.size(); ++row) {
        const Job& job = m_jobs.at(row);
        if (!job.startTime.isEmpty() && !isFinal(job.state)) {
            anyLive = true;
            const QModelIndex cell = index(row, DurationColumn);
            emit dataChanged(cell, cell, { Qt::DisplayRole, SortRole, DurationRole });
        }
    }
    if (anyLive && !m_durationTimer.isActive())
        m_durationTimer.start();
    else if (!anyLive)
        m_durationTimer.stop();
}

} // namespace Trainyard
