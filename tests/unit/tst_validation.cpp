// SPDX-License-Identifier: GPL-2.0-or-later
// validateJob(), jobIdProblems(), labelViolations(): the create-time rules, as a table.
#include "configloader.h"
#include "machinecatalog.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Trainyard;

namespace {

HostInventory host(const QString& kind)
{
    HostInventory h;
    h.cpus = 16;
    h.memoryBytes = 64LL << 30;
    auto gpu = [](int index, const char* name, const char* type) {
        return GpuInfo { index, QStringLiteral("GPU-%1").arg(index), QString::fromLatin1(name),
            QString::fromLatin1(type), 16LL << 30 };
    };
    if (kind == QLatin1String("t4x2"))
        h.gpus = { gpu(0, "Tesla T4", "NVIDIA_TESLA_T4"), gpu(1, "Tesla T4", "NVIDIA_TESLA_T4") };
    else if (kind == QLatin1String("h100"))
        h.gpus = { gpu(0, "NVIDIA H100 80GB HBM3", "NVIDIA_GPU") };
    else if (kind == QLatin1String("small")) {
        h.cpus = 2;
        h.memoryBytes = 23LL * 1000 * 1000 * 1000;
    }
    return h;
}

QStringList fields(const FieldViolations& v)
{
    QStringList out;
    for (const FieldViolation& f : v)
        out.append(f.field);
    out.sort();
    out.removeDuplicates();
    return out;
}

QString describe(const FieldViolations& v)
{
    QStringList out;
    for (const FieldViolation& f : v)
        out.append(f.field + QStringLiteral(": ") + f.description);
    return out.join(QLatin1Char('\n'));
}

// A job from JSON, with the fields every row would otherwise repeat (jobId, pythonModule,
// packageUris) filled in unless the row names them (null keeps one absent).
Job job(const QByteArray& json)
{
    QJsonObject o = QJsonDocument::fromJson(json).object();
    if (!o.contains(QLatin1String("jobId")))
        o.insert(QStringLiteral("jobId"), QStringLiteral("job_1"));
    QJsonObject in = o.value(QLatin1String("trainingInput")).toObject();
    if (!in.contains(QLatin1String("pythonModule")))
        in.insert(QStringLiteral("pythonModule"), QStringLiteral("trainer.task"));
    if (!in.contains(QLatin1String("packageUris")))
        in.insert(QStringLiteral("packageUris"), QJsonArray { QStringLiteral("/tmp/trainer") });
    o.insert(QStringLiteral("trainingInput"), in);
    FieldViolations v;
    const Job j = JobJson::fromJson(o, &v);
    if (!v.isEmpty())
        qFatal("bad test row: %s", qPrintable(describe(v)));
    return j;
}

// Expected violations of each fixture config (with pythonModule/packageUris filled in, as gcloud's
// --module-name/--package-path flags do) on a 16-CPU/64 GiB host, without and with 2 x T4.
const QMap<QString, QStringList>& fixtureExpectations()
{
    static const QMap<QString, QStringList> m {
        { QStringLiteral("census_hptuning_config.yaml"), {} },
        { QStringLiteral("census_tf-keras_hptuning_config.yaml"), {} },
        { QStringLiteral("cloudml-template_examples_classification_census_config.yaml"), {} },
        { QStringLiteral("cloudml-template_examples_regression_housing_config.yaml"), {} },
        { QStringLiteral("cloudml-template_scripts_config.yaml"), {} },
        { QStringLiteral("cloudml-template_template_config.yaml"), {} },
        { QStringLiteral("pytorch_containers_hp_tuning_hptuning_config.yaml"), {} },
        { QStringLiteral("sklearn_sklearn-template_template_config_config.yaml"), {} },
        { QStringLiteral("sklearn_sklearn-template_template_config_hptuning_config.yaml"), {} },
        // 1 + 60 + 29 replicas of 8/16 vCPU types: never fits a workstation.
        { QStringLiteral("tensorflow_standard_legacy_criteo_tft_config-large.yaml"),
            { QStringLiteral("trainingInput") } },
        { QStringLiteral("tensorflow_standard_legacy_criteo_tft_config-single.yaml"), {} },
        { QStringLiteral("tpu_templates_config.yaml"), { QStringLiteral("trainingInput.workerType") } },
    };
    return m;
}

} // namespace

class TestValidation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void table_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("hostKind");
        QTest::addColumn<QStringList>("expected");

        auto row
            = [](const char* name, const char* json, const char* hostKind, std::initializer_list<const char*> paths) {
                  QStringList p;
                  for (const char* s : paths)
                      p.append(QString::fromLatin1(s));
                  p.sort();
                  QTest::addRow("%s", name) << QByteArray(json) << QString::fromLatin1(hostKind) << p;
              };
        // Job ID and labels.
        row("valid minimal", R"({})", "cpu16", {});
        row("job id empty", R"({"jobId":""})", "cpu16", { "jobId" });
        row("job id starts with digit", R"({"jobId":"1census"})", "cpu16", { "jobId" });
        row("job id with dash", R"({"jobId":"my-job"})", "cpu16", { "jobId" });
        row("job id mixed case ok", R"({"jobId":"Census_Keras_2"})", "cpu16", {});
        row("label key uppercase", R"({"labels":{"Owner":"alice"}})", "cpu16", { "labels.Owner" });
        row("label value uppercase", R"({"labels":{"owner":"Alice"}})", "cpu16", { "labels.owner" });
        row("label value empty ok", R"({"labels":{"owner":"","team-a":"ml_1"}})", "cpu16", {});
        row("label key digit first", R"({"labels":{"1x":"a"}})", "cpu16", { "labels.1x" });
        // Scale tiers and machine types.
        row("unknown tier", R"({"trainingInput":{"scaleTier":"PREMIUM_2"}})", "cpu16", { "trainingInput.scaleTier" });
        row("BASIC_TPU unavailable", R"({"trainingInput":{"scaleTier":"BASIC_TPU"}})", "cpu16",
            { "trainingInput.scaleTier" });
        row("STANDARD_1 fits", R"({"trainingInput":{"scaleTier":"STANDARD_1"}})", "small", {});
        row("CUSTOM needs masterType", R"({"trainingInput":{"scaleTier":"CUSTOM"}})", "cpu16",
            { "trainingInput.masterType" });
        row("workerCount needs workerType",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerCount":"2"}})", "cpu16",
            { "trainingInput.workerType" });
        row("workerType without count ok",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerType":"n1-standard-4"}})",
            "cpu16", {});
        row("ps and evaluator need types",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","parameterServerCount":1,"evaluatorCount":1}})",
            "cpu16", { "trainingInput.parameterServerType", "trainingInput.evaluatorType" });
        row("negative count",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerCount":"-1","workerType":"n1-standard-4"}})",
            "cpu16", { "trainingInput.workerCount" });
        row("types only with CUSTOM",
            R"({"trainingInput":{"scaleTier":"BASIC","masterType":"n1-standard-4","workerCount":1,"workerType":"n1-standard-4"}})",
            "cpu16", { "trainingInput.masterType", "trainingInput.workerCount", "trainingInput.workerType" });
        row("unknown machine type", R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n2-standard-4"}})", "cpu16",
            { "trainingInput.masterType" });
        row("mixed families",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerType":"complex_model_m","workerCount":1}})",
            "cpu16", { "trainingInput.workerType" });
        row("legacy cluster ok",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"complex_model_m","workerType":"complex_model_m","parameterServerType":"large_model","workerCount":2,"parameterServerCount":1}})",
            "cpu16", {});
        row("cloud_tpu worker",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"standard","workerType":"cloud_tpu","workerCount":1}})",
            "cpu16", { "trainingInput.workerType" });
        // Accelerators.
        row("unknown accelerator",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","masterConfig":{"acceleratorConfig":{"count":"1","type":"NVIDIA_TESLA_X"}}}})",
            "t4x2", { "trainingInput.masterConfig.acceleratorConfig.type" });
        row("count not allowed",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","masterConfig":{"acceleratorConfig":{"count":"3","type":"NVIDIA_TESLA_T4"}}}})",
            "t4x2", { "trainingInput.masterConfig.acceleratorConfig.count" });
        row("count zero",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","masterConfig":{"acceleratorConfig":{"count":"0","type":"NVIDIA_TESLA_T4"}}}})",
            "t4x2", { "trainingInput.masterConfig.acceleratorConfig.count" });
        row("T4 on host without GPUs",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","masterConfig":{"acceleratorConfig":{"count":"2","type":"NVIDIA_TESLA_T4"}}}})",
            "cpu16", { "trainingInput.masterConfig.acceleratorConfig.count" });
        row("T4 on T4 host",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","masterConfig":{"acceleratorConfig":{"count":"2","type":"NVIDIA_TESLA_T4"}}}})",
            "t4x2", {});
        row("more T4s than the host has",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerType":"n1-standard-4","workerCount":2,"workerConfig":{"acceleratorConfig":{"count":"1","type":"NVIDIA_TESLA_T4"}},"masterConfig":{"acceleratorConfig":{"count":"1","type":"NVIDIA_TESLA_T4"}}}})",
            "t4x2",
            { "trainingInput.masterConfig.acceleratorConfig.count",
                "trainingInput.workerConfig.acceleratorConfig.count" });
        row("V100 on T4 host",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-8","masterConfig":{"acceleratorConfig":{"count":"1","type":"NVIDIA_TESLA_V100"}}}})",
            "t4x2", { "trainingInput.masterConfig.acceleratorConfig.count" });
        row("V100 on H100 host",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-8","masterConfig":{"acceleratorConfig":{"count":"1","type":"NVIDIA_TESLA_V100"}}}})",
            "h100", {});
        row("any GPU on T4 host",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-8","masterConfig":{"acceleratorConfig":{"count":"2","type":"NVIDIA_GPU"}}}})",
            "t4x2", {});
        row("A100 needs a2",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-8","masterConfig":{"acceleratorConfig":{"count":"1","type":"NVIDIA_TESLA_A100"}}}})",
            "h100", { "trainingInput.masterConfig.acceleratorConfig.type" });
        row("A100 on a2 on H100 host",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"a2-highgpu-1g","masterConfig":{"acceleratorConfig":{"count":"1","type":"NVIDIA_TESLA_A100"}}}})",
            "h100", {});
        row("TPU accelerator",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-8","masterConfig":{"acceleratorConfig":{"count":"8","type":"TPU_V2"}}}})",
            "t4x2", { "trainingInput.masterConfig.acceleratorConfig.type" });
        row("acceleratorConfig on legacy type",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"complex_model_m","masterConfig":{"acceleratorConfig":{"count":"1","type":"NVIDIA_TESLA_T4"}}}})",
            "t4x2", { "trainingInput.masterConfig.acceleratorConfig" });
        row("legacy gpu type without GPUs", R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"standard_gpu"}})",
            "cpu16", { "trainingInput.masterType" });
        row("legacy gpu type on H100 host", R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"standard_gpu"}})",
            "h100", {});
        row("BASIC_GPU without GPUs", R"({"trainingInput":{"scaleTier":"BASIC_GPU"}})", "cpu16",
            { "trainingInput.scaleTier" });
        row("BASIC_GPU on T4 host", R"({"trainingInput":{"scaleTier":"BASIC_GPU"}})", "t4x2", {});
        // Host capacity.
        row("60 workers",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerType":"n1-standard-4","workerCount":60}})",
            "cpu16", { "trainingInput" });
        row("1+8+4 on a small host",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerType":"n1-standard-4","workerCount":8,"parameterServerType":"n1-standard-4","parameterServerCount":4}})",
            "small", {});
        // Program.
        row("missing pythonModule", R"({"trainingInput":{"pythonModule":null}})", "cpu16",
            { "trainingInput.pythonModule" });
        row("file instead of module", R"({"trainingInput":{"pythonModule":"trainer/task.py"}})", "cpu16",
            { "trainingInput.pythonModule" });
        row("missing packageUris", R"({"trainingInput":{"packageUris":[]}})", "cpu16", { "trainingInput.packageUris" });
        row("empty package uri", R"({"trainingInput":{"packageUris":["/tmp/a",""]}})", "cpu16",
            { "trainingInput.packageUris[1]" });
        // Custom containers (the service's rules for imageUri, containerCommand and containerArgs).
        row("custom container",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","masterConfig":{"imageUri":"gcr.io/p/i:1","containerCommand":["python3","-m","t"]},"pythonModule":null,"packageUris":[]}})",
            "cpu16", {});
        row("custom container with a package",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","masterConfig":{"imageUri":"localhost/i"},"runtimeVersion":"2.11","pythonVersion":"3.7"}})",
            "cpu16",
            { "trainingInput.packageUris", "trainingInput.pythonModule", "trainingInput.pythonVersion",
                "trainingInput.runtimeVersion" });
        row("package master, image workers",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerType":"n1-standard-4","workerCount":2,"workerConfig":{"imageUri":"localhost:5000/team/trainer@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}}})",
            "cpu16", {});
        row("image workers without a master package",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerType":"n1-standard-4","workerCount":1,"workerConfig":{"imageUri":"localhost/w"},"pythonModule":null}})",
            "cpu16", { "trainingInput.pythonModule" });
        row("bad image reference",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","masterConfig":{"imageUri":"Trainer Image"},"pythonModule":null,"packageUris":[]}})",
            "cpu16", { "trainingInput.masterConfig.imageUri" });
        row("containerCommand without image",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerType":"n1-standard-4","workerCount":1,"workerConfig":{"containerCommand":["x"],"containerArgs":["y"]}}})",
            "cpu16", { "trainingInput.workerConfig.containerArgs", "trainingInput.workerConfig.containerCommand" });
        // Built-in algorithms (issue 29): the supported images on the master, the replicas each algorithm takes.
        row("built-in XGBoost",
            R"({"trainingInput":{"masterConfig":{"imageUri":"gcr.io/cloud-ml-algos/boosted_trees:latest"},"jobDir":"/tmp/j","args":["--training_data_path=/d.csv"],"pythonModule":null,"packageUris":[]}})",
            "cpu16", {});
        row("built-in image without a tag",
            R"({"trainingInput":{"masterConfig":{"imageUri":"gcr.io/cloud-ml-algos/linear_learner_cpu"},"jobDir":"/tmp/j","pythonModule":null,"packageUris":[]}})",
            "cpu16", {});
        row("built-in image Trainyard does not run",
            R"({"trainingInput":{"masterConfig":{"imageUri":"gcr.io/cloud-ml-algos/image_classification:latest"},"jobDir":"/tmp/j","pythonModule":null,"packageUris":[]}})",
            "cpu16", { "trainingInput.masterConfig.imageUri" });
        row("built-in without a job dir",
            R"({"trainingInput":{"masterConfig":{"imageUri":"gcr.io/cloud-ml-algos/boosted_trees:latest"},"pythonModule":null,"packageUris":[]}})",
            "cpu16", { "trainingInput.jobDir" });
        row("built-in with a package",
            R"({"trainingInput":{"masterConfig":{"imageUri":"gcr.io/cloud-ml-algos/boosted_trees:latest"},"jobDir":"/tmp/j"}})",
            "cpu16", { "trainingInput.packageUris", "trainingInput.pythonModule" });
        row("built-in single replica with workers",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerType":"n1-standard-4","workerCount":1,"masterConfig":{"imageUri":"gcr.io/cloud-ml-algos/wide_deep_learner_cpu:latest","containerArgs":["--x"]},"jobDir":"/tmp/j","pythonModule":null,"packageUris":[]}})",
            "cpu16", { "trainingInput.workerCount", "trainingInput.masterConfig.containerArgs" });
        row("built-in single replica on STANDARD_1",
            R"({"trainingInput":{"scaleTier":"STANDARD_1","masterConfig":{"imageUri":"gcr.io/cloud-ml-algos/boosted_trees:latest"},"jobDir":"/tmp/j","pythonModule":null,"packageUris":[]}})",
            "cpu16", { "trainingInput.scaleTier" });
        row("distributed XGBoost",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerType":"n1-standard-4","workerCount":2,"masterConfig":{"imageUri":"gcr.io/cloud-ml-algos/xgboost_dist:latest"},"jobDir":"/tmp/j","pythonModule":null,"packageUris":[]}})",
            "cpu16", {});
        row("distributed XGBoost without workers, with a parameter server",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","parameterServerType":"n1-standard-4","parameterServerCount":1,"masterConfig":{"imageUri":"gcr.io/cloud-ml-algos/xgboost_dist:latest"},"jobDir":"/tmp/j","pythonModule":null,"packageUris":[]}})",
            "cpu16", { "trainingInput.workerCount", "trainingInput.parameterServerCount" });
        row("distributed XGBoost on BASIC",
            R"({"trainingInput":{"masterConfig":{"imageUri":"gcr.io/cloud-ml-algos/xgboost_dist:latest"},"jobDir":"/tmp/j","pythonModule":null,"packageUris":[]}})",
            "cpu16", { "trainingInput.scaleTier" });
        row("built-in image on a worker only",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerType":"n1-standard-4","workerCount":1,"workerConfig":{"imageUri":"gcr.io/cloud-ml-algos/boosted_trees:latest"}}})",
            "cpu16", { "trainingInput.workerConfig.imageUri" });
        row("containerArgs and args",
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","masterConfig":{"imageUri":"localhost/i","containerArgs":["--a"]},"args":["--b"],"pythonModule":null,"packageUris":[]}})",
            "cpu16", { "trainingInput.masterConfig.containerArgs" });
        // Hyperparameters.
        row("hp valid",
            R"({"trainingInput":{"hyperparameters":{"goal":"MAXIMIZE","maxTrials":4,"params":[{"parameterName":"lr","type":"DOUBLE","minValue":0.001,"maxValue":0.1,"scaleType":"UNIT_LOG_SCALE"},{"parameterName":"layers","type":"DISCRETE","discreteValues":[1,2,4]},{"parameterName":"opt","type":"CATEGORICAL","categoricalValues":["adam","sgd"]}]}}})",
            "cpu16", {});
        row("hp goal missing",
            R"({"trainingInput":{"hyperparameters":{"params":[{"parameterName":"a","type":"INTEGER","minValue":1,"maxValue":2}]}}})",
            "cpu16", { "trainingInput.hyperparameters.goal" });
        row("hp no params", R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE"}}})", "cpu16",
            { "trainingInput.hyperparameters.params" });
        row("hp duplicate names",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","params":[{"parameterName":"a","type":"INTEGER","minValue":1,"maxValue":2},{"parameterName":"a","type":"INTEGER","minValue":1,"maxValue":2}]}}})",
            "cpu16", { "trainingInput.hyperparameters.params[1].parameterName" });
        row("hp type missing",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","params":[{"parameterName":"a"}]}}})", "cpu16",
            { "trainingInput.hyperparameters.params[0].type" });
        row("hp min not below max",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","params":[{"parameterName":"a","type":"DOUBLE","minValue":1,"maxValue":1}]}}})",
            "cpu16", { "trainingInput.hyperparameters.params[0].maxValue" });
        row("hp min/max missing",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","params":[{"parameterName":"a","type":"DOUBLE"}]}}})",
            "cpu16",
            { "trainingInput.hyperparameters.params[0].maxValue", "trainingInput.hyperparameters.params[0].minValue" });
        row("hp integer fraction",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","params":[{"parameterName":"a","type":"INTEGER","minValue":1.5,"maxValue":4}]}}})",
            "cpu16", { "trainingInput.hyperparameters.params[0].minValue" });
        row("hp categorical empty",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","params":[{"parameterName":"a","type":"CATEGORICAL"}]}}})",
            "cpu16", { "trainingInput.hyperparameters.params[0].categoricalValues" });
        row("hp discrete not increasing",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","params":[{"parameterName":"a","type":"DISCRETE","discreteValues":[1,2]},{"parameterName":"b","type":"DISCRETE","discreteValues":[1,3,3]}]}}})",
            "cpu16", { "trainingInput.hyperparameters.params[1].discreteValues" });
        row("hp log scale from 0",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","params":[{"parameterName":"a","type":"DOUBLE","minValue":0,"maxValue":1,"scaleType":"UNIT_LOG_SCALE"}]}}})",
            "cpu16", { "trainingInput.hyperparameters.params[0].minValue" });
        row("hp grid with double",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","algorithm":"GRID_SEARCH","params":[{"parameterName":"a","type":"DOUBLE","minValue":0,"maxValue":1},{"parameterName":"b","type":"INTEGER","minValue":0,"maxValue":3}]}}})",
            "cpu16", { "trainingInput.hyperparameters.params[0].type" });
        row("hp trial counts",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","maxTrials":0,"maxParallelTrials":0,"params":[{"parameterName":"a","type":"INTEGER","minValue":1,"maxValue":2}]}}})",
            "cpu16", { "trainingInput.hyperparameters.maxTrials", "trainingInput.hyperparameters.maxParallelTrials" });
        row("hp more failures than trials",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","maxTrials":4,"maxFailedTrials":5,"params":[{"parameterName":"a","type":"INTEGER","minValue":1,"maxValue":2}]}}})",
            "cpu16", { "trainingInput.hyperparameters.maxFailedTrials" });
        row("hp failures up to trials ok",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","maxTrials":4,"maxFailedTrials":4,"params":[{"parameterName":"a","type":"INTEGER","minValue":1,"maxValue":2}]}}})",
            "cpu16", {});
        row("hp failures above the default one trial",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","maxFailedTrials":2,"params":[{"parameterName":"a","type":"INTEGER","minValue":1,"maxValue":2}]}}})",
            "cpu16", { "trainingInput.hyperparameters.maxFailedTrials" });
        row("hp failures 0 lets the service decide",
            R"({"trainingInput":{"hyperparameters":{"goal":"MINIMIZE","maxTrials":1,"maxFailedTrials":0,"params":[{"parameterName":"a","type":"INTEGER","minValue":1,"maxValue":2}]}}})",
            "cpu16", {});
        // Scheduling and versions.
        row("scheduling valid",
            R"({"trainingInput":{"scheduling":{"maxRunningTime":"7200s","maxWaitTime":"1.5s","priority":1000}}})",
            "cpu16", {});
        row("scheduling bad",
            R"({"trainingInput":{"scheduling":{"maxRunningTime":"2h","maxWaitTime":"0s","priority":1001}}})", "cpu16",
            { "trainingInput.scheduling.maxRunningTime", "trainingInput.scheduling.maxWaitTime",
                "trainingInput.scheduling.priority" });
        row("versions bad", R"({"trainingInput":{"runtimeVersion":"latest","pythonVersion":"3"}})", "cpu16",
            { "trainingInput.runtimeVersion", "trainingInput.pythonVersion" });
        row("all at once",
            R"({"jobId":"9x","labels":{"A":"b"},"trainingInput":{"scaleTier":"CUSTOM","pythonModule":null,"hyperparameters":{"goal":"MAXIMIZE","params":[]},"scheduling":{"priority":-1}}})",
            "cpu16",
            { "jobId", "labels.A", "trainingInput.masterType", "trainingInput.pythonModule",
                "trainingInput.hyperparameters.params", "trainingInput.scheduling.priority" });
    }

    void table()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, hostKind);
        QFETCH(QStringList, expected);
        const FieldViolations v = validateJob(job(json), MachineCatalog::builtin(), host(hostKind));
        QVERIFY2(fields(v) == expected, qPrintable(describe(v)));
        for (const FieldViolation& f : v)
            QVERIFY2(f.description.size() > 10, qPrintable(f.field));
    }

    void discreteValuesLimit_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<bool>("refused");
        QTest::addRow("1,000 values") << 1000 << false;
        QTest::addRow("1,001 values") << 1001 << true;
    }

    void discreteValuesLimit()
    {
        // The REST reference on discreteValues: "This list should not contain more than 1,000 values."
        QFETCH(int, count);
        QFETCH(bool, refused);
        ParameterSpec p;
        p.parameterName = QStringLiteral("units");
        p.type = QStringLiteral("DISCRETE");
        for (int i = 0; i < count; ++i)
            p.discreteValues << i + 1;
        Job j = job(R"({})");
        j.trainingInput.hyperparameters = HyperparameterSpec {};
        j.trainingInput.hyperparameters->goal = QStringLiteral("MAXIMIZE");
        j.trainingInput.hyperparameters->params = { p };
        const FieldViolations v = validateJob(j, MachineCatalog::builtin(), host(QStringLiteral("cpu16")));
        if (!refused) {
            QVERIFY2(v.isEmpty(), qPrintable(describe(v)));
            return;
        }
        QCOMPARE(fields(v), QStringList { QStringLiteral("trainingInput.hyperparameters.params[0].discreteValues") });
        QVERIFY2(v.first().description.contains(QLatin1String("1001 values; at most 1000")),
            qPrintable(v.first().description));
    }

    void fixtures_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("hostKind");
        const QDir dir(QStringLiteral(TRAINYARD_FIXTURES_DIR "/configs"));
        const QStringList files = dir.entryList({ QStringLiteral("*.yaml") }, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const QString& f : files) {
            QTest::addRow("%s cpu16", qPrintable(f)) << dir.filePath(f) << QStringLiteral("cpu16");
            QTest::addRow("%s t4x2", qPrintable(f)) << dir.filePath(f) << QStringLiteral("t4x2");
        }
    }

    void fixtures()
    {
        QFETCH(QString, path);
        QFETCH(QString, hostKind);
        const QString name = QFileInfo(path).fileName();
        QVERIFY2(fixtureExpectations().contains(name), qPrintable(QStringLiteral("no expectation for ") + name));
        QString error;
        std::optional<Job> loaded = ConfigLoader::loadFile(path, &error);
        QVERIFY2(loaded, qPrintable(error));
        loaded->jobId = QStringLiteral("fixture_job");
        loaded->trainingInput.pythonModule = QStringLiteral("trainer.task");
        loaded->trainingInput.packageUris = { QStringLiteral("/tmp/trainer") };
        const FieldViolations v = validateJob(*loaded, MachineCatalog::builtin(), host(hostKind));
        QVERIFY2(fields(v) == fixtureExpectations().value(name), qPrintable(describe(v)));
    }

    void messages()
    {
        const Job j = job(
            R"({"trainingInput":{"scaleTier":"CUSTOM","masterType":"n1-standard-4","workerType":"n1-standard-4","workerCount":2,"workerConfig":{"acceleratorConfig":{"count":"2","type":"NVIDIA_TESLA_T4"}}}})");
        FieldViolations v = validateJob(j, MachineCatalog::builtin(), host(QStringLiteral("cpu16")));
        QCOMPARE(v.size(), 1);
        QVERIFY2(v.first().description.contains(
                     QLatin1String("asks for 2 x NVIDIA_TESLA_T4 per replica (4 in all); this host has no GPUs")),
            qPrintable(v.first().description));
        v = validateJob(j, MachineCatalog::builtin(), host(QStringLiteral("t4x2")));
        QCOMPARE(v.size(), 1);
        QVERIFY2(v.first().description.contains(QLatin1String("this host has 2 GPUs (0: Tesla T4 (NVIDIA_TESLA_T4)")),
            qPrintable(v.first().description));

        QString error;
        std::optional<Job> criteo = ConfigLoader::loadFile(
            QStringLiteral(TRAINYARD_FIXTURES_DIR "/configs/tensorflow_standard_legacy_criteo_tft_config-large.yaml"),
            &error);
        QVERIFY(criteo);
        criteo->jobId = QStringLiteral("criteo");
        criteo->trainingInput.pythonModule = QStringLiteral("trainer.task");
        criteo->trainingInput.packageUris = { QStringLiteral("/tmp/trainer") };
        v = validateJob(*criteo, MachineCatalog::builtin(), host(QStringLiteral("cpu16")));
        QCOMPARE(v.size(), 1);
        const QString d = v.first().description;
        QVERIFY2(d.contains(QLatin1String("90 replicas")) && d.contains(QLatin1String("1200 vCPUs"))
                && d.contains(QLatin1String("2424 GB")) && d.contains(QLatin1String("16 CPUs"))
                && d.contains(QLatin1String("68.7 GB")),
            qPrintable(d));
    }

    void jobIds_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("problems");
        QTest::addRow("ok") << QStringLiteral("census_1") << 0;
        QTest::addRow("upper ok") << QStringLiteral("Census") << 0;
        QTest::addRow("128 ok") << QString(128, QLatin1Char('a')) << 0;
        QTest::addRow("129") << QString(129, QLatin1Char('a')) << 1;
        QTest::addRow("empty") << QString() << 1;
        QTest::addRow("underscore first") << QStringLiteral("_a") << 1;
        QTest::addRow("dash and dot") << QStringLiteral("a-b.c") << 1;
        QTest::addRow("digit first and space") << QStringLiteral("1 a") << 2;
        QTest::addRow("non-ascii letter") << QStringLiteral("caf\u00e9") << 1;
    }

    void jobIds()
    {
        QFETCH(QString, id);
        QFETCH(int, problems);
        QCOMPARE(jobIdProblems(id).size(), problems);
    }

    void labels()
    {
        QMap<QString, QString> many;
        for (int i = 0; i < 65; ++i)
            many.insert(QStringLiteral("k%1").arg(i), QStringLiteral("v"));
        QCOMPARE(fields(labelViolations(many)), QStringList { QStringLiteral("labels") });
        many.remove(QStringLiteral("k0"));
        // Every broken rule of one label goes into one violation.
        const FieldViolations owner = labelViolations({ { QStringLiteral("Owner"), QStringLiteral("X") } });
        QCOMPARE(owner.size(), 1);
        QVERIFY(owner.first().description.contains(QLatin1String("start with a lowercase letter")));
        QVERIFY(owner.first().description.contains(QLatin1String("value may contain only")));
        QVERIFY(labelViolations(many).isEmpty());
        const QMap<QString, QString> longOnes { { QString(64, QLatin1Char('a')), QStringLiteral("x") },
            { QStringLiteral("ok"), QString(64, QLatin1Char('b')) },
            { QStringLiteral("fine"), QString(63, QLatin1Char('c')) } };
        QCOMPARE(fields(labelViolations(longOnes)),
            (QStringList { QStringLiteral("labels.") + QString(64, QLatin1Char('a')), QStringLiteral("labels.ok") }));
    }

    void durations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("seconds"); // -1 = invalid
        QTest::addRow("7200s") << QStringLiteral("7200s") << 7200.0;
        QTest::addRow("1.5s") << QStringLiteral("1.5s") << 1.5;
        QTest::addRow("nanos") << QStringLiteral("0.000000001s") << 1e-9;
        QTest::addRow("no unit") << QStringLiteral("7200") << -1.0;
        QTest::addRow("hours") << QStringLiteral("2h") << -1.0;
        QTest::addRow("ten digits of fraction") << QStringLiteral("1.0000000001s") << -1.0;
        QTest::addRow("empty") << QString() << -1.0;
    }

    void durations()
    {
        QFETCH(QString, text);
        QFETCH(double, seconds);
        const std::optional<double> got = parseDurationSeconds(text);
        if (seconds < 0)
            QVERIFY(!got);
        else
            QCOMPARE(got, std::optional<double>(seconds));
        // ProtoDuration, the type the scheduling limits have: the same reading, and no limit (-1 ms) when malformed.
        const ProtoDuration d(text);
        QCOMPARE(d.seconds(), got);
        QCOMPARE(d.milliseconds(), seconds < 0 ? qint64(-1) : qint64(seconds * 1000.0));
        QCOMPARE(d.isEmpty(), text.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"
