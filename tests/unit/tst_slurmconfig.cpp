// SPDX-License-Identifier: GPL-2.0-or-later
// ClusterConfig: clusters.yaml, its rules and their messages.
#include "clusterconfig.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;
using namespace Trainyard::Slurm;

namespace {

// The entry the Slurm issue asks to work as written (with the test cluster's slurmConf added).
const char* const issueForm = R"(clusters:
- name: testcluster
  slurmrestd: http://127.0.0.1:16880
  user: slurmci
  tokenCommand: scontrol token username=slurmci lifespan=3600   # prints SLURM_JWT=…; or token: <jwt>
  partition: debug
  sharedDir: /tmp/slurm-test/jobs    # seen at the same path by this host and every node: staging, job dirs, logs
)";

// A valid cluster with one line replaced or added, for the error rows.
QByteArray cluster(const QByteArray& extra, const QByteArray& drop = {})
{
    QList<QByteArray> lines = { "- name: c1", "  slurmrestd: http://head:6820", "  user: alice",
        "  token: eyJhbGciOiJIUzI1NiJ9.e30.sig", "  sharedDir: /shared/jobs" };
    QByteArray out = "clusters:\n";
    for (const QByteArray& line : lines) {
        if (drop.isEmpty() || !line.trimmed().startsWith(QByteArray(drop + ':')))
            out += line + '\n';
    }
    return out + extra;
}

} // namespace

class TestSlurmConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void issueFormWorksAsWritten()
    {
        QStringList errors;
        const std::optional<QList<ClusterConfig>> clusters
            = ClusterConfig::parse(QByteArray(issueForm), QStringLiteral("clusters.yaml"), &errors);
        QVERIFY2(clusters, qPrintable(errors.join(QLatin1Char('\n'))));
        QCOMPARE(clusters->size(), 1);
        const ClusterConfig& c = clusters->first();
        QCOMPARE(c.name, QStringLiteral("testcluster"));
        QCOMPARE(c.restUrl, QUrl(QStringLiteral("http://127.0.0.1:16880")));
        QCOMPARE(c.user, QStringLiteral("slurmci"));
        // the trailing comment is YAML's, not part of the command
        QCOMPARE(c.tokenCommand, QStringLiteral("scontrol token username=slurmci lifespan=3600"));
        QVERIFY(c.token.isEmpty());
        QCOMPARE(c.partition, QStringLiteral("debug"));
        QCOMPARE(c.sharedDir, QStringLiteral("/tmp/slurm-test/jobs"));
        QVERIFY(c.slurmConf.isEmpty());
        QCOMPARE(c.python, QStringLiteral("/usr/bin/python3"));
        QCOMPARE(c.timeLimitMinutes, 0);
        QVERIFY(!c.restVersion);
        QVERIFY(c.constraints.isEmpty());
    }

    void everyKey()
    {
        const QByteArray yaml = R"(clusters:
- name: gpu-farm
  slurmrestd: https://slurm.example.org:6820/api/
  user: svc.ml
  token: eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.c2ln
  slurmConf: /etc/slurm-farm/slurm.conf
  partition: gpu
  sharedDir: /shared/trainyard/
  account: ml-team
  qos: high
  timeLimitMinutes: 90
  restVersion: v0.0.39
  constraints:
    n1-standard-4: cpu
    a2-highgpu-1g: "a100&ib"
  gpuTypes:
    NVIDIA_TESLA_T4: t4
    NVIDIA_TESLA_A100: a100-40g
  python: /opt/py/bin/python3
- name: second
  slurmrestd: http://10.0.0.2:6820
  user: bob
  tokenCommand: cat /run/secrets/jwt
  sharedDir: /nfs/jobs
)";
        QStringList errors;
        const auto clusters = ClusterConfig::parse(yaml, QStringLiteral("clusters.yaml"), &errors);
        QVERIFY2(clusters, qPrintable(errors.join(QLatin1Char('\n'))));
        QCOMPARE(clusters->size(), 2);
        const ClusterConfig& c = clusters->first();
        QCOMPARE(c.restUrl, QUrl(QStringLiteral("https://slurm.example.org:6820/api"))); // no trailing slash
        QCOMPARE(c.user, QStringLiteral("svc.ml"));
        QCOMPARE(c.slurmConf, QStringLiteral("/etc/slurm-farm/slurm.conf"));
        QCOMPARE(c.sharedDir, QStringLiteral("/shared/trainyard"));
        QCOMPARE(c.account, QStringLiteral("ml-team"));
        QCOMPARE(c.qos, QStringLiteral("high"));
        QCOMPARE(c.timeLimitMinutes, 90);
        QCOMPARE(c.restVersion, std::optional<ApiVersion>(ApiVersion::V0_0_39));
        QCOMPARE(c.constraints.value(QStringLiteral("a2-highgpu-1g")), QStringLiteral("a100&ib"));
        QCOMPARE(c.constraints.value(QStringLiteral("n1-standard-4")), QStringLiteral("cpu"));
        QCOMPARE(c.gpuTypes.value(QStringLiteral("NVIDIA_TESLA_T4")), QStringLiteral("t4"));
        QCOMPARE(c.gpuTypes.value(QStringLiteral("NVIDIA_TESLA_A100")), QStringLiteral("a100-40g"));
        QVERIFY(clusters->at(1).gpuTypes.isEmpty());
        QCOMPARE(c.python, QStringLiteral("/opt/py/bin/python3"));
        QCOMPARE(clusters->at(1).tokenCommand, QStringLiteral("cat /run/secrets/jwt"));
    }

    void emptyOrMissing()
    {
        QStringList errors;
        QCOMPARE(ClusterConfig::parse(QByteArray(), QStringLiteral("clusters.yaml"), &errors)->size(), 0);
        QCOMPARE(ClusterConfig::parse(QByteArray("clusters:\n"), QStringLiteral("clusters.yaml"), &errors)->size(), 0);
        QCOMPARE(
            ClusterConfig::parse(QByteArray("clusters: []\n"), QStringLiteral("clusters.yaml"), &errors)->size(), 0);
        QTemporaryDir dir;
        QCOMPARE(ClusterConfig::loadFile(dir.filePath(QStringLiteral("none.yaml")), &errors)->size(), 0);
        QVERIFY(errors.isEmpty());
    }

    void defaultPathAndLoadFile()
    {
        QTemporaryDir dir;
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(dir.path()));
        const QString path = ClusterConfig::defaultPath();
        QCOMPARE(path, dir.filePath(QStringLiteral("trainyard/clusters.yaml")));
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("trainyard"))));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(cluster("  sharedDir: jobs\n", "sharedDir"));
        file.close();
        QStringList errors;
        QVERIFY(!ClusterConfig::loadFile(path, &errors));
        // the message names the file as given, the cluster, the field and the rule
        QCOMPARE(errors, QStringList { path + QStringLiteral(": cluster 'c1': sharedDir must be an absolute path") });
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QStringList>("expected"); ///< each must appear in one of the error lines

        auto row = [](const char* name, const QByteArray& yaml, QStringList expected) {
            QTest::addRow("%s", name) << yaml << expected;
        };
        row("relative sharedDir", cluster("  python: /usr/bin/python3\n", "sharedDir") + "  sharedDir: jobs\n",
            { QStringLiteral("clusters.yaml: cluster 'c1': sharedDir must be an absolute path") });
        row("no sharedDir", cluster({}, "sharedDir"), { QStringLiteral("cluster 'c1': sharedDir is required") });
        row("no name",
            cluster({}, "- name")
                .replace("clusters:\n", "clusters:\n- slurmrestd: http://h:1\n")
                .replace("  slurmrestd: http://head:6820\n", ""),
            { QStringLiteral("clusters.yaml: cluster #1: name is required") });
        row("name with capitals", cluster({}).replace("name: c1", "name: Gpu"),
            { QStringLiteral("cluster 'Gpu': name must be lower-case letters") });
        row("name local", cluster({}).replace("name: c1", "name: local"),
            { QStringLiteral("cluster 'local': name 'local' is taken by this host's backend") });
        row("name of a region", cluster({}).replace("name: c1", "name: us-central1"),
            { QStringLiteral("cluster 'us-central1': name 'us-central1' is a region of the service") });
        row("name shaped like a region", cluster({}).replace("name: c1", "name: me-west1"),
            { QStringLiteral("name 'me-west1' is a region of the service") });
        row("duplicate name", cluster({}) + cluster({}).mid(10),
            { QStringLiteral("cluster 'c1': name 'c1' is used by an earlier cluster") });
        row("no slurmrestd", cluster({}, "slurmrestd"), { QStringLiteral("cluster 'c1': slurmrestd is required") });
        row("ftp url", cluster({}).replace("http://head:6820", "ftp://head"),
            { QStringLiteral("cluster 'c1': slurmrestd must be an http:// or https:// URL") });
        row("url without host", cluster({}).replace("http://head:6820", "head:6820"),
            { QStringLiteral("slurmrestd must be an http:// or https:// URL") });
        row("no user", cluster({}, "user"), { QStringLiteral("cluster 'c1': user is required") });
        row("user with a space", cluster({}).replace("user: alice", "user: al ice"),
            { QStringLiteral("cluster 'c1': user must be a user name") });
        row("no token", cluster({}, "token"), { QStringLiteral("cluster 'c1': token or tokenCommand is required") });
        row("both tokens", cluster("  tokenCommand: scontrol token\n"),
            { QStringLiteral("cluster 'c1': token and tokenCommand exclude each other") });
        row("relative slurmConf", cluster("  slurmConf: etc/slurm.conf\n"),
            { QStringLiteral("cluster 'c1': slurmConf must be an absolute path") });
        row("relative python", cluster("  python: python3\n"),
            { QStringLiteral("cluster 'c1': python must be an absolute path") });
        row("zero time limit", cluster("  timeLimitMinutes: 0\n"),
            { QStringLiteral("cluster 'c1': timeLimitMinutes must be a whole number of minutes above 0, got '0'") });
        row("text time limit", cluster("  timeLimitMinutes: an hour\n"),
            { QStringLiteral("timeLimitMinutes must be a whole number of minutes above 0, got 'an hour'") });
        row("old rest version", cluster("  restVersion: v0.0.37\n"),
            { QStringLiteral("cluster 'c1': restVersion must be one of v0.0.38, v0.0.39, v0.0.40, got 'v0.0.37'") });
        row("unknown machine type", cluster("  constraints:\n    n9-giant: big\n"),
            { QStringLiteral("cluster 'c1': constraints: 'n9-giant' is not a machine type of the catalog") });
        row("constraints not a map", cluster("  constraints: [a, b]\n"),
            { QStringLiteral("cluster 'c1': constraints must be a map") });
        row("empty constraint", cluster("  constraints:\n    n1-standard-4: \"\"\n"),
            { QStringLiteral("cluster 'c1': constraints: n1-standard-4 needs a node feature expression") });
        row("unknown accelerator type", cluster("  gpuTypes:\n    NVIDIA_TESLA_X1: x1\n"),
            { QStringLiteral("cluster 'c1': gpuTypes: 'NVIDIA_TESLA_X1' is not an accelerator type of the catalog") });
        row("GRES name with a colon", cluster("  gpuTypes:\n    NVIDIA_TESLA_T4: \"t4:2\"\n"),
            { QStringLiteral("cluster 'c1': gpuTypes: NVIDIA_TESLA_T4 needs a GRES type name") });
        row("gpuTypes not a map", cluster("  gpuTypes: t4\n"),
            { QStringLiteral("cluster 'c1': gpuTypes must be a map") });
        row("misspelt key", cluster("  tokencommand: x\n"),
            { QStringLiteral("cluster 'c1': unknown key 'tokencommand'") });
        row("map as a string", cluster("  partition: {a: b}\n"),
            { QStringLiteral("cluster 'c1': partition must be a string") });
        row("unknown top-level key", QByteArray("clusters: []\ncluster: []\n"),
            { QStringLiteral("clusters.yaml: unknown top-level key 'cluster'") });
        row("clusters not a list", QByteArray("clusters:\n  name: x\n"),
            { QStringLiteral("clusters.yaml: clusters must be a list") });
        row("entry not a map", QByteArray("clusters:\n- just-a-name\n"),
            { QStringLiteral("clusters.yaml: cluster #1: must be a map") });
        row("not a map", QByteArray("- a\n- b\n"), { QStringLiteral("clusters.yaml: the top level must be a map") });
        row("syntax error", QByteArray("clusters:\n- name: [x\n"), { QStringLiteral("clusters.yaml:") });
        row("several problems, all named", cluster("  timeLimitMinutes: -5\n", "user"),
            { QStringLiteral("cluster 'c1': user is required"), QStringLiteral("cluster 'c1': timeLimitMinutes") });
    }

    void errors()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QStringList, expected);
        QStringList errors;
        QVERIFY(!ClusterConfig::parse(yaml, QStringLiteral("clusters.yaml"), &errors));
        for (const QString& want : expected) {
            bool found = false;
            for (const QString& e : std::as_const(errors))
                found = found || e.contains(want);
            QVERIFY2(found, qPrintable(QStringLiteral("'%1' not in:\n%2").arg(want, errors.join(QLatin1Char('\n')))));
        }
    }

    void reservedNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("reserved");
        QTest::addRow("local") << QStringLiteral("local") << true;
        QTest::addRow("us-central1") << QStringLiteral("us-central1") << true;
        QTest::addRow("europe-west4") << QStringLiteral("europe-west4") << true;
        QTest::addRow("northamerica-northeast1") << QStringLiteral("northamerica-northeast1") << true;
        QTest::addRow("southamerica-east1 (a region's shape)") << QStringLiteral("southamerica-east1") << true;
        QTest::addRow("testcluster") << QStringLiteral("testcluster") << false;
        QTest::addRow("gpu-cluster1") << QStringLiteral("gpu-cluster1") << false;
        QTest::addRow("us-lab") << QStringLiteral("us-lab") << false;
    }

    void reservedNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, reserved);
        QCOMPARE(ClusterConfig::isReservedName(name), reserved);
    }
};

QTEST_GUILESS_MAIN(TestSlurmConfig)
#include "tst_slurmconfig.moc"
