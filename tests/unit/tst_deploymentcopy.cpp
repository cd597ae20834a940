// SPDX-License-Identifier: GPL-2.0-or-later
// copyDeployment (app/executor/serving/deploymentcopy.h), issue 42 items 4 and 13: a version takes only its folder's own
// files (a link leaving the folder, a hard-linked file and a FIFO are refused by name; a link inside is copied as its
// file), within its machine type's quota (files and bytes), and a copy that fails or is cancelled leaves no
// `.partial` behind.
#include "deploymentcopy.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace Trainyard;

class TestDeploymentCopy : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;

    QString path(const QString& relative) const { return m_root.filePath(relative); }

    /// A fresh model folder `name` with model.pkl (6 bytes) and sub/weights.bin (1 KiB).
    QString modelFolder(const QString& name)
    {
        const QString dir = path(name);
        QDir(dir).removeRecursively();
        [&] { QVERIFY(QDir().mkpath(dir + QStringLiteral("/sub"))); }();
        QFile a(dir + QStringLiteral("/model.pkl"));
        [&] { QVERIFY(a.open(QIODevice::WriteOnly)); }();
        a.write("pickle");
        a.close();
        QFile b(dir + QStringLiteral("/sub/weights.bin"));
        [&] { QVERIFY(b.open(QIODevice::WriteOnly)); }();
        b.write(QByteArray(1024, 'w'));
        return dir;
    }

    void expectRefusal(const QString& source, const QString& words, const DeploymentQuota& quota = {})
    {
        const QString target = path(QStringLiteral("copies/") + QFileInfo(source).fileName());
        QVERIFY(QDir().mkpath(path(QStringLiteral("copies"))));
        const QString error = copyDeployment(source, target, quota, nullptr);
        QVERIFY2(error.contains(words), qPrintable(error));
        QVERIFY(!QFileInfo::exists(target));
        QVERIFY2(!QFileInfo::exists(target + QStringLiteral(".partial")), "a failed copy left its .partial");
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_root.isValid()); }

    void copiesTheFolder()
    {
        const QString source = modelFolder(QStringLiteral("plain"));
        // A link that stays inside is its file.
        QVERIFY(QFile::link(source + QStringLiteral("/sub/weights.bin"), source + QStringLiteral("/alias.bin")));
        QVERIFY(QDir().mkpath(path(QStringLiteral("copies"))));
        const QString target = path(QStringLiteral("copies/plain"));
        QCOMPARE(copyDeployment(source, target, DeploymentQuota(), nullptr), QString());
        QFile alias(target + QStringLiteral("/alias.bin"));
        QVERIFY(alias.open(QIODevice::ReadOnly));
        QCOMPARE(alias.readAll(), QByteArray(1024, 'w'));
        QVERIFY(!QFileInfo(target + QStringLiteral("/alias.bin")).isSymLink());
        QVERIFY(QFileInfo::exists(target + QStringLiteral("/sub/weights.bin")));
        QVERIFY(!QFileInfo::exists(target + QStringLiteral(".partial")));
    }

    void refusesALinkOut()
    {
        const QString source = modelFolder(QStringLiteral("linkout"));
        QVERIFY(QFile::link(QStringLiteral("/etc/hostname"), source + QStringLiteral("/secret.txt")));
        expectRefusal(source, QStringLiteral("secret.txt is a link to /etc/hostname, outside the folder"));
    }

    void refusesALinkedModelFile()
    {
        const QString source = modelFolder(QStringLiteral("linkedbst"));
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), source + QStringLiteral("/model.bst")));
        expectRefusal(source, QStringLiteral("model.bst is a link"));
    }

    void refusesALinkedFolderOut()
    {
        const QString source = modelFolder(QStringLiteral("folderout"));
        QVERIFY(QFile::link(QStringLiteral("/etc"), source + QStringLiteral("/etc")));
        expectRefusal(source, QStringLiteral("outside the folder"));
    }

    void refusesAHardLink()
    {
        const QString source = modelFolder(QStringLiteral("hardlink"));
        const QString elsewhere = path(QStringLiteral("elsewhere.bin"));
        QFile f(elsewhere);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QCOMPARE(::link(QFile::encodeName(elsewhere).constData(),
                     QFile::encodeName(source + QStringLiteral("/shared.bin")).constData()),
            0);
        expectRefusal(source, QStringLiteral("shared.bin has 2 names"));
    }

    void refusesAFifo()
    {
        const QString source = modelFolder(QStringLiteral("fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(source + QStringLiteral("/pipe")).constData(), 0600), 0);
        expectRefusal(source, QStringLiteral("pipe is not a file"));
    }

    void quotaOfFilesAndBytes()
    {
        const QString source = modelFolder(QStringLiteral("quota"));
        DeploymentQuota files;
        files.maxFiles = 1;
        expectRefusal(source, QStringLiteral("more than 1 files"), files);
        DeploymentQuota bytes;
        bytes.maxBytes = 1000;
        expectRefusal(source, QStringLiteral("more than 1000 bytes"), bytes);
        // A sparse file of 600 MB takes no disk, and is over the MLS1 types' 500 MB before a byte is copied.
        QFile sparse(source + QStringLiteral("/big.bin"));
        QVERIFY(sparse.open(QIODevice::WriteOnly));
        QVERIFY(sparse.resize(qint64(600) * 1000 * 1000));
        sparse.close();
        expectRefusal(source, QStringLiteral("(500 MB)"), DeploymentQuota::forMachineType(QString()));
        QCOMPARE(DeploymentQuota::forMachineType(QStringLiteral("n1-standard-4")).maxBytes, qint64(10) * 1000 * 1000 * 1000);
    }

    void cancelledLeavesNothing()
    {
        const QString source = modelFolder(QStringLiteral("cancelled"));
        const std::atomic_bool cancelled { true };
        QVERIFY(QDir().mkpath(path(QStringLiteral("copies"))));
        const QString target = path(QStringLiteral("copies/cancelled"));
        QVERIFY(copyDeployment(source, target, DeploymentQuota(), &cancelled).contains(QLatin1String("deleted")));
        QVERIFY(!QFileInfo::exists(target));
        QVERIFY(!QFileInfo::exists(target + QStringLiteral(".partial")));
    }
};

QTEST_GUILESS_MAIN(TestDeploymentCopy)
#include "tst_deploymentcopy.moc"
