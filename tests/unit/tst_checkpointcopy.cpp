// SPDX-License-Identifier: GPL-2.0-or-later
// copyCheckpoint() on copies of the shared fixtures: a TF bundle (with a written `checkpoint` state file
// that CheckpointState reads back), a PyTorch archive in the sample trainer's layout, a SavedModel-like
// folder; and the failures: a destination that cannot be created, a file that vanished mid-copy, names
// that leave the job dir, an existing target. A failure never leaves the target or a temporary behind.

#include "checkpointcopy.h"
#include "checkpointstate.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

namespace {
QByteArray sha(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

bool place(const QString& fixture, const QString& to)
{
    QDir().mkpath(QFileInfo(to).absolutePath());
    return QFile::copy(QStringLiteral(TRAINYARD_FIXTURES_DIR "/") + fixture, to)
        && QFile::setPermissions(to, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}

/// Everything under `dir`, hidden entries included, relative and sorted.
QStringList entries(const QString& dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << QDir(dir).relativeFilePath(it.next());
    out.sort();
    return out;
}
} // namespace

class TestCheckpointCopy : public QObject {
    Q_OBJECT
    QTemporaryDir m_root;
    QString m_jobDir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        m_jobDir = m_root.filePath(QStringLiteral("runs/fmnist_20261122_101500"));
        const QString half = QStringLiteral("checkpoints/saved_model_half_plus_two_cpu/variables");
        QVERIFY(place(half + QStringLiteral(".index"), m_jobDir + QStringLiteral("/tf/model.ckpt-100.index")));
        QVERIFY(place(half + QStringLiteral(".data-00000-of-00001"),
            m_jobDir + QStringLiteral("/tf/model.ckpt-100.data-00000-of-00001")));
        QVERIFY(
            place(QStringLiteral("pytorch/mlp_epoch3.pt"), m_jobDir + QStringLiteral("/checkpoints/ckpt-epoch-3.pt")));
        QVERIFY(place(QStringLiteral("pytorch/test.pt"), m_jobDir + QStringLiteral("/checkpoints/ckpt-epoch-1.pt")));
    }

    void suggestions()
    {
        const QDateTime now(QDate(2026, 11, 23), QTime(9, 30, 5));
        QCOMPARE(
            suggestJobIdFrom(QStringLiteral("fmnist_20261122_101500"), now), QStringLiteral("fmnist_20261123_093005"));
        QCOMPARE(suggestJobIdFrom(QStringLiteral("mnist"), now), QStringLiteral("mnist_20261123_093005"));
        QCOMPARE(suggestJobIdFrom(QString(200, QLatin1Char('x')), now).size(), 128);
        QCOMPARE(suggestCheckpointJobDir(m_jobDir, QStringLiteral("fmnist_2")),
            m_root.filePath(QStringLiteral("runs/fmnist_2")));
        QCOMPARE(suggestCheckpointJobDir(m_jobDir + QLatin1Char('/'), QStringLiteral("fmnist_2")),
            m_root.filePath(QStringLiteral("runs/fmnist_2")));
        // A taken name gets a number.
        QCOMPARE(suggestCheckpointJobDir(m_jobDir, QStringLiteral("fmnist_20261122_101500")),
            m_jobDir + QStringLiteral("_2"));
        QCOMPARE(suggestCheckpointJobDir(QString(), QStringLiteral("x")), QString());
    }

    void pytorch()
    {
        CheckpointSummary c;
        c.name = QStringLiteral("checkpoints/ckpt-epoch-3.pt");
        c.format = QStringLiteral("pytorch");
        c.files = { c.name };
        const QString target = m_root.filePath(QStringLiteral("runs/resume_pt"));
        const CheckpointCopyResult r = copyCheckpoint(m_jobDir, c, target);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.jobDir, target);
        QCOMPARE(r.files, QStringList { c.name });
        // Only that checkpoint, where the sample trainer looks for it (not ckpt-epoch-1.pt).
        QCOMPARE(entries(target), (QStringList { QStringLiteral("checkpoints"), c.name }));
        QCOMPARE(sha(target + QLatin1Char('/') + c.name), sha(m_jobDir + QLatin1Char('/') + c.name));
        QCOMPARE(QFileInfo(target + QLatin1Char('/') + c.name).lastModified(),
            QFileInfo(m_jobDir + QLatin1Char('/') + c.name).lastModified());
        QVERIFY(QFileInfo(target).permissions() & QFileDevice::ReadOther);
        // Nothing else appeared beside it.
        QCOMPARE(QDir(m_root.filePath(QStringLiteral("runs")))
                     .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
            (QStringList { QStringLiteral("fmnist_20261122_101500"), QStringLiteral("resume_pt") }));
    }

    void tensorFlowBundle()
    {
        CheckpointSummary c;
        c.name = QStringLiteral("tf/model.ckpt-100");
        c.format = QStringLiteral("tf-bundle");
        c.files
            = { QStringLiteral("tf/model.ckpt-100.data-00000-of-00001"), QStringLiteral("tf/model.ckpt-100.index") };
        const QString target = m_root.filePath(QStringLiteral("runs/resume_tf"));
        const CheckpointCopyResult r = copyCheckpoint(m_jobDir, c, target);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.files, c.files + QStringList { QStringLiteral("tf/checkpoint") });
        for (const QString& f : std::as_const(c.files))
            QCOMPARE(sha(target + QLatin1Char('/') + f), sha(m_jobDir + QLatin1Char('/') + f));
        // tf.train.latest_checkpoint() reads this file: it names the copied prefix.
        QString error;
        const auto state = Formats::CheckpointState::readFile(target + QStringLiteral("/tf/checkpoint"), &error);
        QVERIFY2(state, qPrintable(error));
        QCOMPARE(state->modelCheckpointPath, QStringLiteral("model.ckpt-100"));
        QCOMPARE(state->allModelCheckpointPaths, QStringList { QStringLiteral("model.ckpt-100") });
    }

    void destinationCannotBeCreated()
    {
        // Root ignores permission bits, so the destination's parent is a file: no folder can go there.
        const QString blocker = m_root.filePath(QStringLiteral("not-a-folder"));
        QFile f(blocker);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        CheckpointSummary c;
        c.name = QStringLiteral("checkpoints/ckpt-epoch-3.pt");
        c.format = QStringLiteral("pytorch");
        c.files = { c.name };
        const CheckpointCopyResult r = copyCheckpoint(m_jobDir, c, blocker + QStringLiteral("/new_job"));
        QVERIFY(!r.ok());
        QVERIFY(r.jobDir.isEmpty());
        QVERIFY2(r.error.contains(blocker), qPrintable(r.error));
        QVERIFY2(r.error.contains(QStringLiteral("is a file, not a folder")), qPrintable(r.error));
        QVERIFY(QFileInfo(blocker).isFile());
    }

    void vanishedFileLeavesNothing()
    {
        // The listing named a shard that is gone by the time it is copied: the error names it and the
        // system's reason; the .index copied before it is removed with the temporary folder.
        CheckpointSummary c;
        c.name = QStringLiteral("tf/model.ckpt-100");
        c.format = QStringLiteral("tf-bundle");
        c.files
            = { QStringLiteral("tf/model.ckpt-100.index"), QStringLiteral("tf/model.ckpt-100.data-00001-of-00002") };
        const QString parent = m_root.filePath(QStringLiteral("vanished"));
        QVERIFY(QDir().mkpath(parent));
        const CheckpointCopyResult r = copyCheckpoint(m_jobDir, c, parent + QStringLiteral("/job"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(QStringLiteral("model.ckpt-100.data-00001-of-00002")), qPrintable(r.error));
        QVERIFY2(r.error.contains(QStringLiteral("No such file")), qPrintable(r.error));
        QCOMPARE(entries(parent), QStringList());
    }

    void refused()
    {
        CheckpointSummary c;
        c.name = QStringLiteral("x.pt");
        c.format = QStringLiteral("pytorch");
        const QString target = m_root.filePath(QStringLiteral("refused/job"));
        for (const QString& bad :
            { QStringLiteral("../outside.pt"), QStringLiteral("/etc/passwd"), QStringLiteral("a/./b.pt"), QString() }) {
            c.files = { bad };
            const CheckpointCopyResult r = copyCheckpoint(m_jobDir, c, target);
            QVERIFY2(!r.ok(), qPrintable(bad));
            QVERIFY(!QFileInfo::exists(target));
        }
        c.files = {};
        QVERIFY(!copyCheckpoint(m_jobDir, c, target).ok());
        // An existing target is never written into.
        c.files = { QStringLiteral("checkpoints/ckpt-epoch-1.pt") };
        const CheckpointCopyResult r = copyCheckpoint(m_jobDir, c, m_jobDir);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(QStringLiteral("already exists")), qPrintable(r.error));
    }
};

QTEST_GUILESS_MAIN(TestCheckpointCopy)
#include "tst_checkpointcopy.moc"
