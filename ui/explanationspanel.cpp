// SPDX-License-Identifier: GPL-2.0-or-later
#include "explanationspanel.h"

#include "explanationview.h"

#include <QLabel>
#include <QVBoxLayout>

namespace Trainyard {

ExplanationsPanel::ExplanationsPanel(QWidget* parent)
    : QScrollArea(parent)
    , m_content(new QWidget(this))
    , m_layout(new QVBoxLayout(m_content))
    , m_message(new QLabel(m_content))
{
    setObjectName(QStringLiteral("explanationsPanel"));
    setWidgetResizable(true);
    m_message->setObjectName(QStringLiteral("explanationsMessage"));
    m_message->setWordWrap(true);
    m_message->setText(tr("Explain shows, for each instance, how much each feature moved the prediction away from the "
                          "baseline (the version's explanationConfig says how)."));
    m_layout->addWidget(m_message);
    m_layout->addStretch(1);
    setWidget(m_content);
}

void ExplanationsPanel::clearViews()
{
    for (ExplanationView* v : std::as_const(m_views))
        delete v;
    m_views.clear();
}

void ExplanationsPanel::showMessage(const QString& message)
{
    clearViews();
    m_message->setText(message);
    m_message->show();
}

void ExplanationsPanel::showExplanations(const ExplainResponse& answer, const QJsonArray& instances)
{
    clearViews();
    m_message->hide();
    int at = 0;
    for (qsizetype i = 0; i < answer.explanations.size(); ++i) {
        for (const LabelAttribution& a : answer.explanations.at(i).byLabel) {
            auto* view = new ExplanationView(m_content);
            view->setExplanation(a, instances.at(i), tr("Instance %1 · output %2").arg(i + 1).arg(a.labelIndex));
            m_layout->insertWidget(at++, view);
            m_views.append(view);
        }
    }
    if (m_views.isEmpty())
        showMessage(tr("The answer holds no explanation."));
}

} // namespace Trainyard
