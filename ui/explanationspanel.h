// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "explanation.h"

#include <QJsonArray>
#include <QList>
#include <QScrollArea>

class QLabel;
class QVBoxLayout;

namespace Trainyard {

class ExplanationView;

/// The Predict tab's explanations (issue 47): one ExplanationView per instance and explained output of an
/// ExplainResponse (a waterfall, or an image's heat map), one above the other in a scrolling column.
class ExplanationsPanel : public QScrollArea {
    Q_OBJECT
public:
    explicit ExplanationsPanel(QWidget* parent = nullptr);

    /// Shows `answer`'s explanations of `instances` (the request's, in its order).
    void showExplanations(const ExplainResponse& answer, const QJsonArray& instances);
    /// Shows `message` (a refusal, "Explaining…") instead of any explanation.
    void showMessage(const QString& message);

    /// The views shown, in order (tests).
    QList<ExplanationView*> views() const { return m_views; }
    QLabel* messageLabel() const { return m_message; }

private:
    void clearViews();

    QWidget* m_content;
    QVBoxLayout* m_layout;
    QLabel* m_message;
    QList<ExplanationView*> m_views;
};

} // namespace Trainyard
