// SPDX-License-Identifier: GPL-2.0-or-later
#include "wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QPointer>
#include <QScrollBar>
#include <QWheelEvent>

namespace Trainyard {

namespace {

class WheelGuard final : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Polish && (qobject_cast<QComboBox*>(watched) || qobject_cast<QAbstractSpinBox*>(watched))) {
            // Qt gives a Qt::WheelFocus field the focus before anyone sees the wheel: the focus comes from a click
            // or Tab instead.
            auto* field = static_cast<QWidget*>(watched);
            if (field->focusPolicy() == Qt::WheelFocus)
                field->setFocusPolicy(Qt::StrongFocus);
            return false;
        }
        if (event->type() != QEvent::Wheel || !watched->isWidgetType())
            return false;
        auto* widget = static_cast<QWidget*>(watched);
        // A spin box's line edit receives the wheel first; judge the field it belongs to.
        QWidget* field = widget;
        if (!qobject_cast<QComboBox*>(field) && !qobject_cast<QAbstractSpinBox*>(field))
            field = widget->parentWidget();
        if (!field || (!qobject_cast<QComboBox*>(field) && !qobject_cast<QAbstractSpinBox*>(field)))
            return false;
        if (field->hasFocus() || field->isAncestorOf(QApplication::focusWidget()))
            return false;
        QAbstractScrollArea* area = nullptr;
        for (QWidget* p = field->parentWidget(); p && !area; p = p->parentWidget())
            area = qobject_cast<QAbstractScrollArea*>(p);
        if (!area)
            return false;
        // Keep the wheel from the field, and let the area scroll as if the field were not there.
        QScrollBar* bar = static_cast<QWheelEvent*>(event)->angleDelta().y() != 0 || !area->horizontalScrollBar()
            ? area->verticalScrollBar()
            : area->horizontalScrollBar();
        if (bar && bar->maximum() > bar->minimum())
            QCoreApplication::sendEvent(bar, event);
        return true;
    }
};

} // namespace

void installWheelGuard()
{
    static QPointer<WheelGuard> guard;
    if (guard || !qApp)
        return;
    guard = new WheelGuard(qApp);
    qApp->installEventFilter(guard);
}

} // namespace Trainyard
