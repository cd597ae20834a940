// SPDX-License-Identifier: GPL-2.0-or-later
#include "wizardcomputepage.h"

#include "builtinalgorithm.h"
#include "hostfit.h"
#include "machinecatalog.h"
#include "submitwizard.h"
#include "wizardpage_p.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace Trainyard {

namespace {
const char* const kRoleField[] = { "master", "worker", "parameterServer", "evaluator" };

QString roleTitle(int role)
{
    switch (role) {
    case WizardComputePage::Master:
        return WizardComputePage::tr("Master");
    case WizardComputePage::Worker:
        return WizardComputePage::tr("Workers");
    case WizardComputePage::ParameterServer:
        return WizardComputePage::tr("Parameter servers");
    default:
        return WizardComputePage::tr("Evaluators");
    }
}

QString& typeField(TrainingInput& in, int role)
{
    switch (role) {
    case WizardComputePage::Master:
        return in.masterType;
    case WizardComputePage::Worker:
        return in.workerType;
    case WizardComputePage::ParameterServer:
        return in.parameterServerType;
    default:
        return in.evaluatorType;
    }
}

std::optional<ReplicaConfig>& configField(TrainingInput& in, int role)
{
    switch (role) {
    case WizardComputePage::Master:
        return in.masterConfig;
    case WizardComputePage::Worker:
        return in.workerConfig;
    case WizardComputePage::ParameterServer:
        return in.parameterServerConfig;
    default:
        return in.evaluatorConfig;
    }
}

std::optional<qint64>* countField(TrainingInput& in, int role)
{
    switch (role) {
    case WizardComputePage::Worker:
        return &in.workerCount;
    case WizardComputePage::ParameterServer:
        return &in.parameterServerCount;
    case WizardComputePage::Evaluator:
        return &in.evaluatorCount;
    default:
        return nullptr;
    }
}

QString describeMachine(const MachineType& m)
{
    return WizardComputePage::tr("%1 — %2 vCPUs, %3 GB").arg(m.name).arg(m.vcpus).arg(m.memory.gb());
}

/// `text` with each line longer than `maxChars` broken at blanks (a word longer than that stays whole).
QString wrapLines(const QString& text, int maxChars)
{
    QStringList out;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        QString current;
        for (const QString& word : line.split(QLatin1Char(' '))) {
            if (!current.isEmpty() && current.size() + 1 + word.size() > maxChars) {
                out << current;
                current.clear();
            }
            current += (current.isEmpty() ? QString() : QStringLiteral(" ")) + word;
        }
        out << current;
    }
    return out.join(QLatin1Char('\n'));
}

/// The family a machine type is listed under: "n1-standard", "a2-highgpu" … or the legacy types.
QString machineGroup(const MachineType& m)
{
    if (m.family == QLatin1String("legacy"))
        return WizardComputePage::tr("Legacy machine types");
    const qsizetype dash = m.name.lastIndexOf(QLatin1Char('-'));
    return dash > 0 ? m.name.left(dash) : m.name;
}

/// Fills a machine-type box grouped by family under bold headers that cannot be selected. TPU machine types
/// are left out: TPUs never run here (the BASIC_TPU tier says why).
void addMachineTypes(QComboBox* box, const MachineCatalog& catalog)
{
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    QString group;
    for (const MachineType& m : catalog.machineTypes()) {
        if (m.family == QLatin1String("tpu"))
            continue;
        if (machineGroup(m) != group) {
            group = machineGroup(m);
            box->insertSeparator(box->count());
            box->addItem(group);
            if (model) {
                QStandardItem* header = model->item(box->count() - 1);
                header->setFlags(header->flags() & ~(Qt::ItemIsSelectable | Qt::ItemIsEnabled));
                QFont bold = box->font();
                bold.setBold(true);
                header->setFont(bold);
            }
        }
        box->addItem(QStringLiteral("  ") + describeMachine(m), m.name);
    }
}

QString describePlan(const ClusterPlan& plan)
{
    QStringList parts;
    for (const RolePlan& r : plan.roles) {
        QString text = WizardComputePage::tr("%1 × %2 %3 (%4 vCPUs, %5 GB)")
                           .arg(r.count)
                           .arg(r.role, r.machineType)
                           .arg(r.vcpus)
                           .arg(r.memory.gb());
        if (r.acceleratorCount > 0)
            text += WizardComputePage::tr(" + %1 × %2").arg(r.acceleratorCount).arg(r.acceleratorType);
        parts << text;
    }
    return parts.join(QStringLiteral("\n"));
}
} // namespace

WizardComputePage::WizardComputePage(SubmitWizard* wizard)
    : WizardPage(wizard)
    , m_region(new QComboBox(this))
    , m_tierBox(new QWidget(this))
    , m_tiers(new QButtonGroup(this))
    , m_customBox(new QWidget(this))
    , m_tierProblems(problemLabel(QStringLiteral("tierProblems"), this))
    , m_summary(new QLabel(this))
{
    setTitle(tr("Compute"));
    setSubTitle(tr("Where the job runs, then a scale tier, or CUSTOM machine types and counts per role. "
                   "Replicas run as processes on this host, or on the nodes of a Slurm cluster."));
    m_region->setObjectName(QStringLiteral("regionBox"));
    m_region->setWhatsThis(tr("<b>Runs on</b> (<tt>trainingInput.region</tt>, gcloud's <tt>--region</tt>): this host, "
                              "or a Slurm cluster of the executor's clusters.yaml. On a cluster each replica gets a "
                              "node of its own, with its machine type's vCPUs and memory and its GPUs; its logs, "
                              "metrics and checkpoints show here as for a job on this host."));
    m_region->addItem(tr("This host"), QString());
    connect(m_region, &QComboBox::activated, this, [this] {
        m_wantedRegion = selectedCluster();
        for (int role = 0; role < RoleCount; ++role)
            fillAccelerators(Role(role));
        updateSummary();
    });
    connect(wizard, &SubmitWizard::regionsChanged, this, [this] {
        fillRegions();
        for (int role = 0; role < RoleCount; ++role)
            fillAccelerators(Role(role));
        updateSummary();
    });
    m_tiers->setExclusive(true);
    m_summary->setObjectName(QStringLiteral("summaryLabel"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setFrameShape(QFrame::StyledPanel);
    m_summary->setMargin(6);

    auto* custom = new QGridLayout(m_customBox);
    custom->setContentsMargins(0, 0, 0, 0);
    custom->addWidget(new QLabel(tr("<b>Role</b>"), m_customBox), 0, 0);
    custom->addWidget(new QLabel(tr("<b>Machine type</b>"), m_customBox), 0, 1);
    custom->addWidget(new QLabel(tr("<b>Count</b>"), m_customBox), 0, 2);
    custom->addWidget(new QLabel(tr("<b>Accelerator</b>"), m_customBox), 0, 3, 1, 2);
    QWidget* previous = nullptr;
    for (int role = 0; role < RoleCount; ++role) {
        RoleWidgets& w = m_roles[role];
        const QString field = QLatin1String(kRoleField[role]);
        w.machine = new QComboBox(m_customBox);
        w.machine->setObjectName(field + QStringLiteral("Machine"));
        // The longest machine type must not set the wizard's width: the list pops up as wide as it needs.
        w.machine->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        w.machine->setMinimumContentsLength(24);
        w.machine->setWhatsThis(tr("<b>Machine type</b> (the service's rules): required for the master when the "
                                   "scale tier is CUSTOM, and for a role whose count is set; Compute Engine types "
                                   "(n1-…, a2-…) do not mix with legacy ones (standard, large_model …). Its vCPUs "
                                   "and memory are what the executor reserves on this host."));
        w.machine->addItem(tr("(none)"), QString());
        addMachineTypes(w.machine, wizard->catalog());
        w.count = new QSpinBox(m_customBox);
        w.count->setObjectName(field + QStringLiteral("Count"));
        w.count->setRange(role == Master ? 1 : 0, 1000);
        w.count->setEnabled(role != Master);
        if (role == Master)
            w.count->setToolTip(tr("A job has exactly one master."));
        w.acceleratorType = new QComboBox(m_customBox);
        w.acceleratorType->setObjectName(field + QStringLiteral("AcceleratorType"));
        w.acceleratorType->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        w.acceleratorType->setMinimumContentsLength(18);
        w.acceleratorType->setWhatsThis(tr("<b>acceleratorConfig</b> (the service's rules): a type and a count "
                                           "the machine type allows; here only GPUs this host has. Each replica "
                                           "gets its own GPUs (CUDA_VISIBLE_DEVICES)."));
        w.acceleratorCount = new QComboBox(m_customBox);
        w.acceleratorCount->setObjectName(field + QStringLiteral("AcceleratorCount"));
        w.problems = problemLabel(field + QStringLiteral("Problems"), m_customBox);
        auto* title = new QLabel(roleTitle(role), m_customBox);
        title->setBuddy(w.machine);
        const int row = 1 + 2 * role;
        custom->addWidget(title, row, 0);
        custom->addWidget(w.machine, row, 1);
        custom->addWidget(w.count, row, 2);
        custom->addWidget(w.acceleratorType, row, 3);
        custom->addWidget(w.acceleratorCount, row, 4);
        custom->addWidget(w.problems, row + 1, 1, 1, 4);
        for (QWidget* next : { static_cast<QWidget*>(w.machine), static_cast<QWidget*>(w.count),
                 static_cast<QWidget*>(w.acceleratorType), static_cast<QWidget*>(w.acceleratorCount) }) {
            if (previous)
                setTabOrder(previous, next);
            previous = next;
        }
        connect(w.machine, &QComboBox::currentIndexChanged, this, [this, role] {
            fillAccelerators(Role(role));
            updateSummary();
        });
        connect(w.count, &QSpinBox::valueChanged, this, &WizardComputePage::updateSummary);
        connect(w.acceleratorType, &QComboBox::currentIndexChanged, this, [this, role] {
            if (!m_loading)
                fillAccelerators(Role(role));
            updateSummary();
        });
        connect(w.acceleratorCount, &QComboBox::currentIndexChanged, this, &WizardComputePage::updateSummary);
    }
    custom->setColumnStretch(1, 2);
    custom->setColumnStretch(3, 1);

    auto* layout = new QVBoxLayout(this);
    auto* where = new QHBoxLayout;
    auto* whereLabel = new QLabel(tr("<b>Runs &on</b>"), this);
    whereLabel->setBuddy(m_region);
    where->addWidget(whereLabel);
    where->addWidget(m_region, 1);
    layout->addLayout(where);
    layout->addWidget(new QLabel(tr("<b>Scale tier</b>"), this));
    layout->addWidget(m_tierBox);
    layout->addWidget(m_tierProblems);
    layout->addWidget(m_customBox);
    layout->addWidget(m_summary);
    layout->addStretch(1);

    connect(m_tiers, &QButtonGroup::buttonToggled, this, [this](QAbstractButton*, bool checked) {
        if (!checked)
            return;
        updateCustomEnabled();
        updateSummary();
    });
    connect(wizard, &SubmitWizard::hostInfoChanged, this, [this] {
        const QString tier = selectedTier();
        rebuildTiers();
        if (QToolButton* b = tierButton(tier))
            b->setChecked(true);
        for (int role = 0; role < RoleCount; ++role)
            fillAccelerators(Role(role));
        updateSummary(true);
    });
    // The host's figures change the verdict, not what the executor said about a field: a refusal shown on this page
    // stays until the user changes something (a fresh-clone run lost "no_such_machine" to a host refresh).
    connect(wizard, &SubmitWizard::hostStatusChanged, this, [this] {
        if (!m_loading)
            updateSummary(true);
    });
    // The wizard is still adding its pages: nothing may ask it for the job until it has them all.
    m_loading = true;
    rebuildTiers();
    tierButton(QStringLiteral("BASIC"))->setChecked(true);
    for (int role = 0; role < RoleCount; ++role)
        fillAccelerators(Role(role));
    m_loading = false;
    updateCustomEnabled();
}

void WizardComputePage::rebuildTiers()
{
    const QSignalBlocker block(m_tiers);
    delete m_tierBox->layout();
    for (QAbstractButton* b : m_tiers->buttons()) {
        m_tiers->removeButton(b);
        delete b;
    }
    auto* grid = new QGridLayout(m_tierBox);
    grid->setContentsMargins(0, 0, 0, 0);
    const MachineCatalog& catalog = m_wizard->catalog();
    QMap<QString, ScaleTierInfo> remote;
    for (const ScaleTierInfo& t : m_wizard->hostInfo().scaleTiers)
        remote.insert(t.name, t);
    int i = 0;
    QWidget* previous = nullptr;
    // A built-in algorithm takes only the tiers the service allows it (one replica, or a master and workers): the
    // validation's own rule on scaleTier says which, and why (issue 46: STANDARD_1 was offered and refused at create).
    const Job job = m_loading ? Job {} : m_wizard->job();
    const bool builtIn = BuiltInAlgorithms::forJob(job.trainingInput) != nullptr;
    for (const ScaleTierInfo& tier : catalog.scaleTiers()) {
        bool available = tier.available;
        QString reason = tier.unavailableReason;
        if (remote.contains(tier.name)) {
            // The executor's word on the tier (BASIC_GPU without a GPU on its host), over the catalog's.
            const ScaleTierInfo& executors = remote[tier.name];
            available = executors.available;
            if (!executors.unavailableReason.isEmpty())
                reason = executors.unavailableReason;
        }
        if (available && builtIn) {
            Job probe = job;
            probe.trainingInput.scaleTier = tier.name;
            for (const FieldViolation& v : validateClusterJob(probe, catalog)) {
                if (v.field == QLatin1String("trainingInput.scaleTier")) {
                    available = false;
                    reason = v.description;
                    break;
                }
            }
        }
        QString text = tier.name;
        if (tier.name == QLatin1String("CUSTOM")) {
            text += QLatin1Char('\n') + tr("Your machine types and counts (below)");
        } else {
            TrainingInput in;
            in.scaleTier = tier.name;
            if (available)
                text += QLatin1Char('\n') + describePlan(planCluster(in, catalog));
        }
        if (!available)
            text += QLatin1Char('\n') + tr("Unavailable: %1").arg(translatedCatalogText(reason));
        auto* button = new QToolButton(m_tierBox);
        button->setObjectName(QStringLiteral("tier_") + tier.name);
        // Tool buttons do not wrap: long lines (a reason, "… + 1 × NVIDIA_GPU") widened the whole wizard.
        button->setText(wrapLines(text, 36));
        button->setToolTip(available ? tier.description : tier.description + QLatin1Char('\n') + reason);
        button->setCheckable(true);
        button->setEnabled(available);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        button->setProperty("tier", tier.name);
        m_tiers->addButton(button);
        grid->addWidget(button, i / 3, i % 3);
        if (previous)
            setTabOrder(previous, button);
        previous = button;
        ++i;
    }
}

QString WizardComputePage::selectedCluster() const
{
    return m_region->currentData().toString();
}

void WizardComputePage::fillRegions()
{
    const WizardHostInfo& info = m_wizard->hostInfo();
    // The regions are read again every 10 s: a list the user has open is left alone (the next read applies),
    // and one that would not change is not rebuilt.
    if (m_region->view()->isVisible())
        return;
    QList<std::tuple<QString, QString, QString>> items { { tr("This host"), QString(), QString() } };
    for (const RegionInfo& r : info.regions) {
        if (!r.isCluster())
            continue;
        QString text;
        if (!r.isUp()) {
            text = tr("%1 — Slurm cluster, %2").arg(r.name, r.state.toLower());
        } else {
            int usable = 0, idle = 0, gpus = 0;
            for (const RegionNodeInfo& n : r.partitionNodes()) {
                usable += n.usable() ? 1 : 0;
                idle += n.idle() ? 1 : 0;
                gpus += n.gpus - n.gpusInUse;
            }
            text = tr("%1 — Slurm cluster, partition %2: %3 of %n node(s) idle", nullptr, usable)
                       .arg(r.name, r.partition.isEmpty() ? tr("(default)") : r.partition)
                       .arg(idle);
            if (gpus > 0)
                text += tr(", %n GPU(s) free", nullptr, gpus);
        }
        items.append({ text, r.name, r.message.isEmpty() ? r.endpoint : r.message });
    }
    bool same = m_region->count() == items.size();
    for (int i = 0; same && i < items.size(); ++i)
        same = m_region->itemText(i) == std::get<0>(items[i])
            && m_region->itemData(i).toString() == std::get<1>(items[i])
            && m_region->itemData(i, Qt::ToolTipRole).toString() == std::get<2>(items[i]);
    const QSignalBlocker block(m_region);
    if (!same) {
        m_region->clear();
        for (const auto& [text, name, tip] : items) {
            m_region->addItem(text, name);
            if (!tip.isEmpty())
                m_region->setItemData(m_region->count() - 1, tip, Qt::ToolTipRole);
        }
    }
    const int wanted = m_wantedRegion.isEmpty() ? 0 : m_region->findData(m_wantedRegion);
    m_region->setCurrentIndex(std::max(0, wanted));
}

QToolButton* WizardComputePage::tierButton(const QString& tier) const
{
    for (QAbstractButton* b : m_tiers->buttons()) {
        if (b->property("tier").toString() == tier)
            return static_cast<QToolButton*>(b);
    }
    return nullptr;
}

QString WizardComputePage::selectedTier() const
{
    QAbstractButton* b = m_tiers->checkedButton();
    return b ? b->property("tier").toString() : QString();
}

void WizardComputePage::fillAccelerators(Role role)
{
    RoleWidgets& w = m_roles[role];
    // Called again on every regions read (10 s): a list the user has open is not rebuilt under them.
    if (w.acceleratorType->view()->isVisible() || w.acceleratorCount->view()->isVisible())
        return;
    const MachineCatalog& catalog = m_wizard->catalog();
    const WizardHostInfo& info = m_wizard->hostInfo();
    const MachineType* machine = catalog.machineType(w.machine->currentData().toString());
    const QString keepType = w.acceleratorType->currentData().toString();
    const int keepCount = w.acceleratorCount->currentData().toInt();
    const QSignalBlocker blockType(w.acceleratorType);
    const QSignalBlocker blockCount(w.acceleratorCount);
    w.acceleratorType->clear();
    w.acceleratorCount->clear();
    const HostInventory host = info.inventory();
    // Where the job runs decides what is offered: this host's GPUs by type, or, on a cluster, the machine type's
    // GPU types up to what its largest usable node has (Slurm is asked for `gpu:N`, or the type clusters.yaml's
    // gpuTypes names; which model a node has is the cluster's).
    const RegionInfo* cluster = info.cluster(selectedCluster());
    int maxNodeGpus = 0;
    if (cluster) {
        for (const RegionNodeInfo& n : cluster->partitionNodes())
            maxNodeGpus = std::max(maxNodeGpus, n.usable() ? n.gpus : 0);
    }
    const auto available = [&](const QString& type) { return cluster ? maxNodeGpus : catalog.hostGpusFor(host, type); };
    QString why;
    if (!machine)
        why = tr("Choose a machine type first");
    else if (machine->acceleratorCounts.isEmpty())
        why = machine->impliedAccelerator.count
            ? tr("Comes with %1 × %2").arg(*machine->impliedAccelerator.count).arg(machine->impliedAccelerator.type)
            : tr("No accelerators for this machine type");
    else if (cluster && maxNodeGpus == 0)
        why = tr("No GPUs on this cluster's nodes");
    else if (!cluster && !info.host)
        why = tr("Host not known yet");
    else if (!cluster && host.gpus.isEmpty())
        why = tr("No GPUs on this host");
    if (why.isEmpty()) {
        w.acceleratorType->addItem(tr("None"), QString());
        for (auto it = machine->acceleratorCounts.cbegin(); it != machine->acceleratorCounts.cend(); ++it) {
            const int here = available(it.key());
            if (here <= 0)
                continue;
            const AcceleratorTypeInfo* type = catalog.acceleratorType(it.key());
            const QString name = type ? type->displayName : it.key();
            w.acceleratorType->addItem(cluster ? tr("%1 (the cluster's GPUs: up to %2 per node)").arg(name).arg(here)
                                               : tr("%1 (%2 on this host)").arg(name).arg(here),
                it.key());
        }
        if (w.acceleratorType->count() == 1)
            why = tr("This host has no GPU this machine type takes");
    }
    if (!why.isEmpty()) {
        w.acceleratorType->clear();
        w.acceleratorType->addItem(why, QString());
    }
    if (!keepType.isEmpty())
        WizardUi::selectData(
            w.acceleratorType, keepType, cluster ? tr("%1 (not on this cluster)") : tr("%1 (not on this host)"));
    w.acceleratorType->setEnabled(w.acceleratorType->count() > 1);
    const QString type = w.acceleratorType->currentData().toString();
    if (!type.isEmpty() && machine) {
        const int here = available(type);
        for (int n : machine->acceleratorCounts.value(type)) {
            if (n <= here)
                w.acceleratorCount->addItem(QString::number(n), n);
        }
    }
    if (keepCount > 0 && !type.isEmpty())
        WizardUi::selectData(w.acceleratorCount, QString::number(keepCount),
            cluster ? tr("%1 (more than a node has)") : tr("%1 (more than this host has)"));
    if (w.acceleratorCount->count() > 0 && w.acceleratorCount->currentData().toInt() > 0) {
        // selectData stores the text; normalise to an int
        w.acceleratorCount->setItemData(
            w.acceleratorCount->currentIndex(), w.acceleratorCount->currentData().toString().toInt());
    }
    w.acceleratorCount->setEnabled(w.acceleratorCount->count() > 1);
}

void WizardComputePage::updateCustomEnabled()
{
    m_customBox->setEnabled(selectedTier() == QLatin1String("CUSTOM"));
}

void WizardComputePage::load(const Job& job)
{
    m_loading = true;
    TrainingInput in = job.trainingInput;
    const QString tier = in.scaleTier.isEmpty() ? QStringLiteral("BASIC") : in.scaleTier;
    if (QToolButton* b = tierButton(tier)) {
        b->setChecked(true);
    } else if (QAbstractButton* checked = m_tiers->checkedButton()) {
        // An unknown tier: no card is checked; the executor names the problem.
        m_tiers->setExclusive(false);
        checked->setChecked(false);
        m_tiers->setExclusive(true);
    }
    m_loadedTier = selectedTier();
    m_loadedRegion = in.region;
    m_wantedRegion = in.region;
    fillRegions();
    for (int role = 0; role < RoleCount; ++role) {
        RoleWidgets& w = m_roles[role];
        const QString type = typeField(in, role);
        {
            const QSignalBlocker block(w.machine);
            WizardUi::selectData(w.machine, type, tr("%1 (unknown machine type)"));
        }
        std::optional<qint64>* count = countField(in, role);
        {
            const QSignalBlocker block(w.count);
            w.count->setValue(count ? int(count->value_or(0)) : 1);
        }
        const std::optional<ReplicaConfig>& config = configField(in, role);
        const AcceleratorConfig accel
            = config && config->acceleratorConfig ? *config->acceleratorConfig : AcceleratorConfig {};
        {
            const QSignalBlocker block(w.acceleratorType);
            w.acceleratorType->clear();
            w.acceleratorType->addItem(QString(), accel.type);
            w.acceleratorCount->clear();
            w.acceleratorCount->addItem(QString(), int(accel.count.value_or(0)));
        }
        fillAccelerators(Role(role));
        w.loadedMachine = w.machine->currentData().toString();
        w.loadedCount = w.count->value();
        w.loadedAccelType = w.acceleratorType->currentData().toString();
        w.loadedAccelCount = w.acceleratorCount->currentData().toInt();
    }
    m_loading = false;
    updateCustomEnabled();
    updateSummary();
}

void WizardComputePage::apply(Job& job) const
{
    TrainingInput& in = job.trainingInput;
    const QString cluster = selectedCluster();
    if (!cluster.isEmpty())
        in.region = cluster;
    else if (m_wizard->hostInfo().cluster(m_loadedRegion))
        in.region = QStringLiteral("us-central1"); // back to this host from a loaded cluster job: the default
    // Before the regions arrive, a loaded cluster's name stays as it was (m_wantedRegion keeps it).
    const QString tier = selectedTier();
    if (tier != m_loadedTier)
        in.scaleTier = tier;
    if (tier != QLatin1String("CUSTOM")) {
        // The service takes machine types, counts and accelerators only with CUSTOM; the widgets keep
        // what the user chose in case they go back to CUSTOM.
        for (int role = 0; role < RoleCount; ++role) {
            typeField(in, role).clear();
            if (std::optional<qint64>* count = countField(in, role))
                count->reset();
            if (std::optional<ReplicaConfig>& config = configField(in, role)) {
                config->acceleratorConfig.reset();
                if (*config == ReplicaConfig {})
                    config.reset();
            }
        }
        return;
    }
    for (int role = 0; role < RoleCount; ++role) {
        const RoleWidgets& w = m_roles[role];
        const QString machine = w.machine->currentData().toString();
        if (machine != w.loadedMachine)
            typeField(in, role) = machine;
        if (std::optional<qint64>* count = countField(in, role); count && w.count->value() != w.loadedCount)
            *count = w.count->value();
        const QString accelType = w.acceleratorType->currentData().toString();
        const int accelCount = w.acceleratorCount->currentData().toInt();
        if (accelType != w.loadedAccelType || accelCount != w.loadedAccelCount) {
            std::optional<ReplicaConfig>& config = configField(in, role);
            if (accelType.isEmpty()) {
                if (config) {
                    config->acceleratorConfig.reset();
                    if (*config == ReplicaConfig {})
                        config.reset();
                }
            } else {
                if (!config)
                    config = ReplicaConfig {};
                config->acceleratorConfig = AcceleratorConfig { qint64(std::max(1, accelCount)), accelType };
            }
        }
    }
}

QString WizardComputePage::roleProblem(Role role) const
{
    if (selectedTier() != QLatin1String("CUSTOM"))
        return {};
    const RoleWidgets& w = m_roles[role];
    const bool hasType = !w.machine->currentData().toString().isEmpty();
    if (role == Master && !hasType)
        return tr("CUSTOM needs a master machine type.");
    if (role != Master && w.count->value() > 0 && !hasType)
        return tr("%1: %2 requested; choose their machine type.").arg(roleTitle(role)).arg(w.count->value());
    return {};
}

void WizardComputePage::updateSummary(bool keepServerErrors)
{
    if (m_loading)
        return;
    if (!keepServerErrors) {
        m_serverTierError.clear();
        for (int role = 0; role < RoleCount; ++role)
            m_roles[role].serverError.clear();
    }
    for (int role = 0; role < RoleCount; ++role) {
        const QString& server = m_roles[role].serverError;
        setProblem(m_roles[role].problems, server.isEmpty() ? roleProblem(Role(role)) : server);
    }
    setProblem(m_tierProblems,
        !m_serverTierError.isEmpty() ? m_serverTierError
            : selectedTier().isEmpty()  ? tr("Choose a scale tier.")
                                        : QString());
    const Job job = m_wizard->job();
    const WizardHostInfo& info = m_wizard->hostInfo();
    QStringList blocking;
    for (int role = 0; role < RoleCount; ++role) {
        if (!m_roles[role].problems->text().isEmpty())
            blocking << m_roles[role].problems->text();
    }
    QString text;
    const RegionInfo* cluster = info.cluster(selectedCluster());
    if (!blocking.isEmpty() || selectedTier().isEmpty()) {
        m_verdict = Verdict::Incomplete;
        text = tr("Complete the roles above to see what this job needs.");
    } else if (cluster) {
        text = clusterSummary(job, *cluster);
    } else if (!info.host) {
        m_verdict = Verdict::Unknown;
        text = tr("The executor has not said what this host has yet, so whether the job fits is not known.");
    } else {
        // The verdict trainyardctl gives as well (models/hostfit.h): the executor's admission rule, the host's
        // totals, and a tuning job's parallel trials.
        const HostFit fit = assessHostFit(job, *info.host, m_wizard->catalog());
        switch (fit.verdict) {
        case HostFit::Verdict::Never:
            m_verdict = Verdict::Never;
            break;
        case HostFit::Verdict::Fits:
            m_verdict = Verdict::Fits;
            break;
        case HostFit::Verdict::Oversubscribed:
            m_verdict = Verdict::Oversubscribed;
            break;
        case HostFit::Verdict::Queue:
            m_verdict = Verdict::Queue;
            break;
        }
        if (fit.verdict == HostFit::Verdict::Never) {
            QStringList never;
            for (const QString& why : fit.never)
                never << why.toHtmlEscaped();
            text = QStringLiteral("<span style=\"color:#c01c28\">✗ </span>") + tr("<b>Can never run here:</b>")
                + QStringLiteral("<ul><li>") + never.join(QStringLiteral("</li><li>")) + QStringLiteral("</li></ul>");
        } else {
            QString mark = QStringLiteral("<span style=\"color:#c64600\">● </span>");
            if (fit.verdict == HostFit::Verdict::Fits)
                mark = QStringLiteral("<span style=\"color:#26a269\">✓ </span>");
            else if (fit.verdict == HostFit::Verdict::Oversubscribed)
                mark = QStringLiteral("<span style=\"color:#c64600\">⚠ </span>");
            text = mark + QStringLiteral("<b>") + fit.headline().toHtmlEscaped() + QStringLiteral("</b> ")
                + fit.needsText().toHtmlEscaped() + QStringLiteral("<br>") + fit.why.toHtmlEscaped()
                + QStringLiteral("<br><small>")
                + describePlan(fit.plan).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))
                + QStringLiteral("</small>");
        }
    }
    m_summary->setText(text);
    updateComplete();
}

QString WizardComputePage::clusterSummary(const Job& job, const RegionInfo& cluster)
{
    QStringList never;
    for (const FieldViolation& v : validateClusterJob(job, m_wizard->catalog())) {
        if (SubmitWizard::pageForField(v.field) == SubmitWizard::ComputePageId)
            never << v.description.toHtmlEscaped();
    }
    const ClusterPlan plan = planCluster(job.trainingInput, m_wizard->catalog());
    const ClusterFit fit = assessClusterFit(plan, cluster);
    for (const QString& reason : fit.reasons)
        never << reason.toHtmlEscaped();
    if (!never.isEmpty()) {
        m_verdict = Verdict::Never;
        return QStringLiteral("<span style=\"color:#c01c28\">✗ </span>")
            + tr("<b>Cannot run on %1:</b>").arg(cluster.name.toHtmlEscaped()) + QStringLiteral("<ul><li>")
            + never.join(QStringLiteral("</li><li>")) + QStringLiteral("</li></ul>");
    }
    QString needs = tr("Needs %n node(s), one per replica", nullptr, plan.totalReplicas());
    if (plan.totalGpus() > 0)
        needs += tr(", %n GPU(s)", nullptr, plan.totalGpus());
    needs += QLatin1Char('.');
    QString head;
    QString why;
    if (fit.verdict == ClusterFit::Verdict::Fits) {
        m_verdict = Verdict::Fits;
        head = QStringLiteral("<span style=\"color:#26a269\">✓ </span>")
            + tr("<b>Fits %1 now.</b>").arg(cluster.name.toHtmlEscaped());
        why = tr("%1 of its %2 usable nodes are idle; Slurm can start it at once.")
                  .arg(fit.idleNodes)
                  .arg(fit.usableNodes);
    } else {
        m_verdict = Verdict::Queue;
        head = QStringLiteral("<span style=\"color:#c64600\">● </span>")
            + tr("<b>Will queue on %1.</b>").arg(cluster.name.toHtmlEscaped());
        why = tr("Only %1 of its %2 usable nodes are idle now (or not those with the GPUs asked for): Slurm "
                 "starts it when enough are free.")
                  .arg(fit.idleNodes)
                  .arg(fit.usableNodes);
    }
    QString text = head + QLatin1Char(' ') + needs.toHtmlEscaped() + QStringLiteral("<br>") + why.toHtmlEscaped();
    for (const QString& note : fit.notes)
        text += QStringLiteral("<br>") + note.toHtmlEscaped();
    return text + QStringLiteral("<br><small>")
        + describePlan(plan).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))
        + QStringLiteral("</small>");
}

void WizardComputePage::initializePage()
{
    // The tiers depend on the job's kind (a built-in algorithm's), chosen on the pages before.
    const QString tier = selectedTier();
    rebuildTiers();
    QToolButton* kept = tierButton(tier);
    if (!kept || !kept->isEnabled())
        kept = tierButton(QStringLiteral("BASIC"));
    if (kept)
        kept->setChecked(true);
    updateCustomEnabled();
    updateSummary();
}

bool WizardComputePage::isComplete() const
{
    if (selectedTier().isEmpty() || m_verdict == Verdict::Never)
        return false;
    for (int role = 0; role < RoleCount; ++role) {
        if (!roleProblem(Role(role)).isEmpty())
            return false;
    }
    return true;
}

QWidget* WizardComputePage::showFieldError(const QString& field, const QString& message)
{
    for (int role = 0; role < RoleCount; ++role) {
        const QString name = QLatin1String(kRoleField[role]);
        if (field.contains(QStringLiteral("trainingInput.") + name)) {
            RoleWidgets& w = m_roles[role];
            w.serverError = message;
            setProblem(w.problems, message);
            if (field.contains(QLatin1String("Count")) && !field.contains(QLatin1String("acceleratorConfig")))
                return w.count;
            if (field.contains(QLatin1String("acceleratorConfig")))
                return w.acceleratorType;
            return w.machine;
        }
    }
    m_serverTierError = message;
    setProblem(m_tierProblems, message);
    return m_tiers->checkedButton();
}

void WizardComputePage::clearFieldErrors()
{
    updateSummary();
}

} // namespace Trainyard
