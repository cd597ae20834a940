// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "wizardpage.h"

namespace Trainyard {

/// 3. Compute: where the job runs (this host, or one of the executor's Slurm clusters: `trainingInput.region`);
/// scale tier cards; CUSTOM roles (machine type, count, accelerator); a live summary of whether the job fits
/// there now, will queue, or can never run there.
class WizardComputePage final : public WizardPage {
    Q_OBJECT
public:
    /// CUSTOM roles in the service's order.
    enum Role { Master, Worker, ParameterServer, Evaluator, RoleCount };

    explicit WizardComputePage(SubmitWizard* wizard);
    void load(const Job& job) override;
    void apply(Job& job) const override;
    QWidget* showFieldError(const QString& field, const QString& message) override;
    void clearFieldErrors() override;
    bool isComplete() const override;
    void initializePage() override;

    /// The tier card for `tier` ("BASIC" …), or nullptr.
    QToolButton* tierButton(const QString& tier) const;
    QString selectedTier() const;
    QComboBox* machineBox(Role role) const { return m_roles[role].machine; }
    QSpinBox* countBox(Role role) const { return m_roles[role].count; }
    QComboBox* acceleratorTypeBox(Role role) const { return m_roles[role].acceleratorType; }
    QComboBox* acceleratorCountBox(Role role) const { return m_roles[role].acceleratorCount; }
    QLabel* roleProblems(Role role) const { return m_roles[role].problems; }
    QLabel* summaryLabel() const { return m_summary; }
    /// "Runs on": this host (data: empty) or a Slurm cluster (data: its region name).
    QComboBox* regionBox() const { return m_region; }
    /// The cluster chosen in regionBox(), or empty for this host.
    QString selectedCluster() const;
    /// The summary's verdict on the job where it would run: this host's (HostFit, models/hostfit.h) or a cluster's
    /// (ClusterFit), or why there is none yet.
    enum class Verdict {
        Incomplete, ///< a role has a problem, or no scale tier is chosen: nothing to judge yet
        Unknown, ///< the executor has not said what its host has
        Never, ///< a rule of the host or the cluster refuses it (the page is not complete)
        Fits, ///< it starts now
        Oversubscribed, ///< it starts when alone, but asks for more vCPUs or memory than the whole host has
        Queue, ///< it waits: jobs queued ahead, or running ones hold what it needs
    };
    Q_ENUM(Verdict)
    Verdict verdict() const { return m_verdict; }

private:
    struct RoleWidgets {
        QComboBox* machine = nullptr;
        QSpinBox* count = nullptr;
        QComboBox* acceleratorType = nullptr;
        QComboBox* acceleratorCount = nullptr;
        QLabel* problems = nullptr;
        QString loadedMachine;
        int loadedCount = 0;
        QString loadedAccelType;
        int loadedAccelCount = 0;
        QString serverError;
    };
    void rebuildTiers();
    void fillAccelerators(Role role);
    void updateCustomEnabled();
    /// The verdict and every problem line, from the page's fields; `keepServerErrors`: the executor's refusals
    /// (showFieldError()) stay (a host refresh), else they go (the user changed something).
    void updateSummary(bool keepServerErrors = false);
    /// updateSummary() for a job that runs on `cluster`: the cluster's nodes, not this host's capacity.
    QString clusterSummary(const Job& job, const RegionInfo& cluster);
    /// Fills regionBox() from the wizard's regions, keeping m_wantedRegion selected when it is there.
    void fillRegions();
    QString roleProblem(Role role) const;

    QComboBox* m_region;
    QString m_loadedRegion; ///< trainingInput.region after load()
    QString m_wantedRegion; ///< the cluster to select once the regions arrive (load(), or the user's choice)
    QWidget* m_tierBox;
    QButtonGroup* m_tiers;
    QWidget* m_customBox;
    RoleWidgets m_roles[RoleCount];
    QLabel* m_tierProblems;
    QLabel* m_summary;
    Verdict m_verdict = Verdict::Incomplete;
    QString m_loadedTier; ///< the card checked after load
    QString m_serverTierError;
    bool m_loading = false;
};

} // namespace Trainyard
