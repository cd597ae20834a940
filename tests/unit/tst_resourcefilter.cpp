// SPDX-License-Identifier: GPL-2.0-or-later
// ResourceFilter (models/resourcefilter.h): the lists' filter grammar over a vocabulary the list names, matched
// through a field accessor. The models, versions and operations lists used to borrow the jobs list's (renaming
// `name` to `jobId` with a regular expression and wrapping each item in a Job); tst_jobfilter keeps the jobs list's.
#include "resourcefilter.h"

#include <QMap>
#include <QTest>

using namespace Trainyard;

namespace {

/// The executor's models and versions lists' vocabulary.
QList<ResourceFilter::Field> versionFields()
{
    using K = ResourceFilter::Kind;
    return { { QStringLiteral("name"), QString(), K::Text, {} }, { QStringLiteral("labels"), QString(), K::Labels, {} },
        { QStringLiteral("createTime"), QStringLiteral("create_time"), K::Time, {} },
        { QStringLiteral("state"), QString(), K::Enum,
            { QStringLiteral("READY"), QStringLiteral("CREATING"), QStringLiteral("FAILED") } } };
}

struct Item {
    QString name;
    QMap<QString, QString> labels;
    QString createTime;
    QString state;
};

QStringList namesPassing(const ResourceFilter& filter, const QList<Item>& items)
{
    QStringList names;
    for (const Item& item : items) {
        const bool passes = filter.matches([&item](const ResourceFilter::Term& term) -> std::optional<QString> {
            switch (term.field) {
            case 0:
                return item.name;
            case 1:
                if (!item.labels.contains(term.labelKey))
                    return std::nullopt;
                return item.labels.value(term.labelKey);
            case 2:
                return item.createTime;
            case 3:
                return item.state;
            }
            return std::nullopt;
        });
        if (passes)
            names << item.name;
    }
    return names;
}

const QList<Item> items {
    { QStringLiteral("census_v1"), { { QStringLiteral("team"), QStringLiteral("vision") } },
        QStringLiteral("2026-11-30T10:00:00Z"), QStringLiteral("READY") },
    { QStringLiteral("census_v2"), {}, QStringLiteral("2026-12-01T10:00:00Z"), QStringLiteral("CREATING") },
    { QStringLiteral("iris"), { { QStringLiteral("team"), QStringLiteral("tabular") } }, QString(),
        QStringLiteral("FAILED") },
};

} // namespace

class TestResourceFilter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void matching_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QStringList>("names");
        const QStringList all { QStringLiteral("census_v1"), QStringLiteral("census_v2"), QStringLiteral("iris") };
        QTest::addRow("empty") << QString() << all;
        QTest::addRow("name prefix") << QStringLiteral("name:census*")
                                     << QStringList { QStringLiteral("census_v1"), QStringLiteral("census_v2") };
        QTest::addRow("name exact") << QStringLiteral("name=iris") << QStringList { QStringLiteral("iris") };
        QTest::addRow("label") << QStringLiteral("labels.team=vision") << QStringList { QStringLiteral("census_v1") };
        QTest::addRow("has label") << QStringLiteral("labels.team:*")
                                   << QStringList { QStringLiteral("census_v1"), QStringLiteral("iris") };
        QTest::addRow("label not equal (absent passes)")
            << QStringLiteral("labels.team!=vision") << QStringList { QStringLiteral("census_v2"), QStringLiteral("iris") };
        QTest::addRow("time, snake_case")
            << QStringLiteral("create_time>=\"2026-12-01T00:00:00Z\"") << QStringList { QStringLiteral("census_v2") };
        QTest::addRow("enum, any case") << QStringLiteral("state=ready") << QStringList { QStringLiteral("census_v1") };
        QTest::addRow("enum prefix") << QStringLiteral("state:CREA*") << QStringList { QStringLiteral("census_v2") };
        QTest::addRow("AND") << QStringLiteral("name:census* AND labels.team:*")
                             << QStringList { QStringLiteral("census_v1") };
    }

    void matching()
    {
        QFETCH(QString, filter);
        QFETCH(QStringList, names);
        QString error;
        const std::optional<ResourceFilter> f = ResourceFilter::parse(filter, versionFields(), &error);
        QVERIFY2(f, qPrintable(error));
        QCOMPARE(f->text(), filter);
        QCOMPARE(namesPassing(*f, items), names);
    }

    void errorsNameTheListsOwnFields_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("error");
        QTest::addRow("a jobs list field") << QStringLiteral("jobId=census")
                                           << QStringLiteral("Invalid filter at position 1: unknown field \"jobId\"; "
                                                             "use name, labels.KEY, createTime or state.");
        QTest::addRow("unknown enum value")
            << QStringLiteral("state=DONE")
            << QStringLiteral("Invalid filter at position 7: unknown state \"DONE\"; use one of READY, CREATING, FAILED.");
        QTest::addRow("ordering on text") << QStringLiteral("name<b")
                                          << QStringLiteral("Invalid filter at position 5: name takes : = !=, not \"<\".");
        QTest::addRow("has on a time") << QStringLiteral("createTime:2026")
                                       << QStringLiteral("Invalid filter at position 11: createTime takes = != < <= > >=, "
                                                         "not \":\".");
        QTest::addRow("OR") << QStringLiteral("name=a OR name=b")
                            << QStringLiteral("Invalid filter at position 8: OR is not supported; terms are joined by AND.");
    }

    void errorsNameTheListsOwnFields()
    {
        QFETCH(QString, filter);
        QFETCH(QString, error);
        QString got;
        QVERIFY(!ResourceFilter::parse(filter, versionFields(), &got));
        QCOMPARE(got, error);
    }
};

QTEST_GUILESS_MAIN(TestResourceFilter)
#include "tst_resourcefilter.moc"
