<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ClusterFit</name>
    <message numerus="yes">
        <source>It needs %n node(s), one per replica (Slurm gives each replica its own node)</source>
        <translation>
            <numerusform>It needs %n node, one per replica (Slurm gives each replica its own node)</numerusform>
            <numerusform>It needs %n nodes, one per replica (Slurm gives each replica its own node)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; the partition has %n usable node(s).</source>
        <translation>
            <numerusform>; the partition has %n usable node.</numerusform>
            <numerusform>; the partition has %n usable nodes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Each %1 replica asks for %2 GPUs; the largest node has %n.</source>
        <translation>
            <numerusform>Each %1 replica asks for %2 GPUs; the largest node has %n.</numerusform>
            <numerusform>Each %1 replica asks for %2 GPUs; the largest node has %n.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2 vCPUs) gets the largest node&apos;s %n CPUs.</source>
        <translation>
            <numerusform>%1 (%2 vCPUs) gets the largest node&apos;s %n CPU.</numerusform>
            <numerusform>%1 (%2 vCPUs) gets the largest node&apos;s %n CPUs.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::AuditView</name>
    <message numerus="yes">
        <source>%n entries, newest first.</source>
        <translation>
            <numerusform>%n entry, newest first.</numerusform>
            <numerusform>%n entries, newest first.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::BatchPredictionPanel</name>
    <message numerus="yes">
        <source>%Ln prediction(s)</source>
        <translation>
            <numerusform>%Ln prediction</numerusform>
            <numerusform>%Ln predictions</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln error(s)</source>
        <translation>
            <numerusform>%Ln error</numerusform>
            <numerusform>%Ln errors</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::BuiltInAlgorithmForm</name>
    <message numerus="yes">
        <source>target: %n class(es) (%1): classification</source>
        <extracomment>%1 lists the first classes, e.g. &quot;benign, malignant&quot;.</extracomment>
        <translation>
            <numerusform>target: %n class (%1): classification</numerusform>
            <numerusform>target: %n classes (%1): classification</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Column %1: %n of %2 values missing</source>
        <extracomment>%1 is a 1-based column number; %n the missing cells; %2 the file&apos;s rows.</extracomment>
        <translation>
            <numerusform>Column %1: %n of %2 values missing</numerusform>
            <numerusform>Column %1: %n of %2 values missing</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n row(s), the first %1 shown; %2; features: %3 numeric, %4 categorical, %5 dropped (key or constant).</source>
        <extracomment>%1 says what the target is; then the counts of feature columns by type. %n counts the file&apos;s rows.</extracomment>
        <translation>
            <numerusform>%n row, the first %1 shown; %2; features: %3 numeric, %4 categorical, %5 dropped (key or constant).</numerusform>
            <numerusform>%n rows, the first %1 shown; %2; features: %3 numeric, %4 categorical, %5 dropped (key or constant).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::CheckpointsPanel</name>
    <message numerus="yes">
        <source>%n checkpoint(s) in %1</source>
        <translation>
            <numerusform>%n checkpoint in %1</numerusform>
            <numerusform>%n checkpoints in %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n tensor(s), %2</source>
        <translation>
            <numerusform>%1: %n tensor, %2</numerusform>
            <numerusform>%1: %n tensors, %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (reading statistics: %n left)</source>
        <translation>
            <numerusform> (reading statistics: %n left)</numerusform>
            <numerusform> (reading statistics: %n left)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::ClustersView</name>
    <message numerus="yes">
        <source>%1: %2 of %n node(s) idle</source>
        <translation>
            <numerusform>%1: %2 of %n node idle</numerusform>
            <numerusform>%1: %2 of %n nodes idle</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::ConnectDialog</name>
    <message numerus="yes">
        <source>Connected: the executor accepted the token (%n CPU(s), %1 job(s) running).</source>
        <translation>
            <numerusform>Connected: the executor accepted the token (%n CPU, %1 job(s) running).</numerusform>
            <numerusform>Connected: the executor accepted the token (%n CPUs, %1 job(s) running).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::CsvPreviewModel</name>
    <message numerus="yes">
        <source>The target (first column): numbers from %1 to %2, %n distinct</source>
        <extracomment>%1 and %2 are the smallest and largest target values among the previewed rows.</extracomment>
        <translation>
            <numerusform>The target (first column): numbers from %1 to %2, %n distinct</numerusform>
            <numerusform>The target (first column): numbers from %1 to %2, %n distinct</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The target (first column): %n class(es)</source>
        <translation>
            <numerusform>The target (first column): %n class</numerusform>
            <numerusform>The target (first column): %n classes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n distinct value(s)</source>
        <translation>
            <numerusform>%n distinct value</numerusform>
            <numerusform>%n distinct values</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n missing</source>
        <translation>
            <numerusform>%n missing</numerusform>
            <numerusform>%n missing</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::DeployedModelsModel</name>
    <message numerus="yes">
        <source>%1 (%n version(s))</source>
        <extracomment>A model&apos;s row: %1 its name, %n its versions.</extracomment>
        <translation>
            <numerusform>%1 (%n version)</numerusform>
            <numerusform>%1 (%n versions)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::ExecutorStatusBar</name>
    <message numerus="yes">
        <source>, %n prediction node(s)</source>
        <translation>
            <numerusform>, %n prediction node</numerusform>
            <numerusform>, %n prediction nodes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::ExplanationView</name>
    <message numerus="yes">
        <source>Sampled Shapley, %n path(s)</source>
        <translation>
            <numerusform>Sampled Shapley, %n path</numerusform>
            <numerusform>Sampled Shapley, %n paths</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Integrated gradients, %n step(s)</source>
        <translation>
            <numerusform>Integrated gradients, %n step</numerusform>
            <numerusform>Integrated gradients, %n steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>XRAI, %n step(s)</source>
        <translation>
            <numerusform>XRAI, %n step</numerusform>
            <numerusform>XRAI, %n steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n other feature(s)</source>
        <translation>
            <numerusform>%n other feature</numerusform>
            <numerusform>%n other features</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::HostFit</name>
    <message numerus="yes">
        <source>%n job(s) are queued ahead of it (first in, first out).</source>
        <translation>
            <numerusform>%n job is queued ahead of it (first in, first out).</numerusform>
            <numerusform>%n jobs are queued ahead of it (first in, first out).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Needs %n replica(s)</source>
        <translation>
            <numerusform>Needs %n replica</numerusform>
            <numerusform>Needs %n replicas</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n GPU(s)</source>
        <translation>
            <numerusform>, %n GPU</numerusform>
            <numerusform>, %n GPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>(%n trial(s) at once)</source>
        <translation>
            <numerusform>(%n trial at once)</numerusform>
            <numerusform>(%n trials at once)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No job runs; %n prediction node(s) of deployed versions hold some of the host.</source>
        <translation>
            <numerusform>No job runs; %n prediction node of a deployed version holds some of the host.</numerusform>
            <numerusform>No job runs; %n prediction nodes of deployed versions hold some of the host.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No other job runs, so it starts now (a job alone on the host always starts), beside %n prediction node(s) of deployed versions.</source>
        <translation>
            <numerusform>No other job runs, so it starts now (a job alone on the host always starts), beside %n prediction node of a deployed version.</numerusform>
            <numerusform>No other job runs, so it starts now (a job alone on the host always starts), beside %n prediction nodes of deployed versions.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Prediction nodes of deployed versions hold part of that (%n node(s)).</source>
        <translation>
            <numerusform>Prediction nodes of deployed versions hold part of that (%n node).</numerusform>
            <numerusform>Prediction nodes of deployed versions hold part of that (%n nodes).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n running job(s) hold %1 of %2 vCPUs, %3 of %4 GB and %5 of %6 GPUs.</source>
        <translation>
            <numerusform>%n running job holds %1 of %2 vCPUs, %3 of %4 GB and %5 of %6 GPUs.</numerusform>
            <numerusform>%n running jobs hold %1 of %2 vCPUs, %3 of %4 GB and %5 of %6 GPUs.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::ImportanceChart</name>
    <message numerus="yes">
        <source>%1. Over %n succeeded trial(s).</source>
        <translation>
            <numerusform>%1. Over %n succeeded trial.</numerusform>
            <numerusform>%1. Over %n succeeded trials.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::JobListModel</name>
    <message numerus="yes">
        <source> (+%n eval)</source>
        <translation>
            <numerusform> (+%n eval)</numerusform>
            <numerusform> (+%n eval)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::JobValidation</name>
    <message numerus="yes">
        <source>this host has %n GPU(s) (%1), %2 of which can serve %3</source>
        <extracomment>The second half of a sentence (&quot;The cluster asks for 3 GPUs in all; this host has …&quot;). %1 is the list of the host&apos;s GPUs (&quot;0: Tesla T4 (NVIDIA_TESLA_T4), 1: …&quot;), %2 a count, %3 an accelerator type.</extracomment>
        <translation>
            <numerusform>this host has %n GPU (%1), %2 of which can serve %3</numerusform>
            <numerusform>this host has %n GPUs (%1), %2 of which can serve %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The cluster asks for %n GPU(s) in all; %1.</source>
        <extracomment>%1 is &quot;this host has …&quot;.</extracomment>
        <translation>
            <numerusform>The cluster asks for %n GPU in all; %1.</numerusform>
            <numerusform>The cluster asks for %n GPUs in all; %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n replica(s) (at most %1 here)</source>
        <extracomment>A part of &quot;This host can never hold the cluster: it asks for %1; …&quot;. %1 is this host&apos;s limit.</extracomment>
        <translation>
            <numerusform>%n replica (at most %1 here)</numerusform>
            <numerusform>%n replicas (at most %1 here)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This host can never hold the cluster: it asks for %1; this host has %n CPU(s) and %2 GB of memory, and a job may use %3 vCPUs per CPU, %4 GB per GB of memory and %5 replicas per CPU (at least %6). Use fewer or smaller replicas.</source>
        <extracomment>%1 is a list of what the cluster asks for (&quot;61 replicas (at most 32 here), 244 vCPUs (at most 64 here)&quot;), %n this host&apos;s CPUs, %2 its memory, %3 to %6 the host policy&apos;s limits.</extracomment>
        <translation>
            <numerusform>This host can never hold the cluster: it asks for %1; this host has %n CPU and %2 GB of memory, and a job may use %3 vCPUs per CPU, %4 GB per GB of memory and %5 replicas per CPU (at least %6). Use fewer or smaller replicas.</numerusform>
            <numerusform>This host can never hold the cluster: it asks for %1; this host has %n CPUs and %2 GB of memory, and a job may use %3 vCPUs per CPU, %4 GB per GB of memory and %5 replicas per CPU (at least %6). Use fewer or smaller replicas.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::JobView</name>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::LogPanel</name>
    <message numerus="yes">
        <source>%Ln line(s)</source>
        <translation>
            <numerusform>%Ln line</numerusform>
            <numerusform>%Ln lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %Ln line(s)</source>
        <translation>
            <numerusform>%1 of %Ln line</numerusform>
            <numerusform>%1 of %Ln lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::MainWindow</name>
    <message numerus="yes">
        <source>%n jobs selected: Metrics compares them; the other tabs show %1.</source>
        <translation>
            <numerusform>%n job selected: the tabs show %1.</numerusform>
            <numerusform>%n jobs selected: Metrics compares them; the other tabs show %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n jobs selected: the tabs show %1.</source>
        <translation>
            <numerusform>%n job selected: the tabs show %1.</numerusform>
            <numerusform>%n jobs selected: the tabs show %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::MetricChart</name>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::MetricRunsModel</name>
    <message numerus="yes">
        <source>%1: %n chart(s)</source>
        <translation>
            <numerusform>%1: %n chart</numerusform>
            <numerusform>%1: %n charts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::MetricsPanel</name>
    <message numerus="yes">
        <source>%n series</source>
        <translation>
            <numerusform>%n series</numerusform>
            <numerusform>%n series</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n charts</source>
        <translation>
            <numerusform>%n chart</numerusform>
            <numerusform>%n charts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::ModelPanel</name>
    <message numerus="yes">
        <source>%1 (framework %2), measured on %3 (%n row(s)). Model folder: %4</source>
        <extracomment>%1 the algorithm, %2 the framework, %3 &quot;the test split&quot;, %n its rows, %4 the model folder.</extracomment>
        <translation>
            <numerusform>%1 (framework %2), measured on %3 (%n row). Model folder: %4</numerusform>
            <numerusform>%1 (framework %2), measured on %3 (%n rows). Model folder: %4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Trial %1: %2 (framework %3), measured on %4 (%n row(s)). Model folder: %5</source>
        <extracomment>%1 the trial, %2 the algorithm, %3 the framework, %4 &quot;the test split&quot;, %5 the model folder.</extracomment>
        <translation>
            <numerusform>Trial %1: %2 (framework %3), measured on %4 (%n row). Model folder: %5</numerusform>
            <numerusform>Trial %1: %2 (framework %3), measured on %4 (%n rows). Model folder: %5</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Predicted against actual (%n point(s); mean |residual| %1)</source>
        <extracomment>%1 the mean absolute residual, %n the points drawn.</extracomment>
        <translation>
            <numerusform>Predicted against actual (%n point; mean |residual| %1)</numerusform>
            <numerusform>Predicted against actual (%n points; mean |residual| %1)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::ModelsView</name>
    <message numerus="yes">
        <source>%n prediction(s) in %1 ms</source>
        <translation>
            <numerusform>%n prediction in %1 ms</numerusform>
            <numerusform>%n predictions in %1 ms</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::ParallelCoordinates</name>
    <message numerus="yes">
        <source>%1 of %n trials pass the filters</source>
        <translation>
            <numerusform>%1 of %n trial passes the filters</numerusform>
            <numerusform>%1 of %n trials pass the filters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trials</source>
        <translation>
            <numerusform>%n trial</numerusform>
            <numerusform>%n trials</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::SubmitWizard</name>
    <message numerus="yes">
        <source>%n worker(s)</source>
        <translation>
            <numerusform>%n worker</numerusform>
            <numerusform>%n workers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n argument(s)</source>
        <translation>
            <numerusform>%n argument</numerusform>
            <numerusform>%n arguments</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>tuning: %1 trials of %n hyperparameter(s)</source>
        <translation>
            <numerusform>tuning: %1 trials of %n hyperparameter</numerusform>
            <numerusform>tuning: %1 trials of %n hyperparameters</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::TopologyView</name>
    <message numerus="yes">
        <source>%n restart(s)</source>
        <translation>
            <numerusform>%n restart</numerusform>
            <numerusform>%n restarts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::TrialsPanel</name>
    <message numerus="yes">
        <source>%n trials</source>
        <translation>
            <numerusform>%n trial</numerusform>
            <numerusform>%n trials</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n ended</source>
        <translation>
            <numerusform>%n ended</numerusform>
            <numerusform>%n ended</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n planned</source>
        <translation>
            <numerusform>%n planned</numerusform>
            <numerusform>%n planned</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::VersionDetailsPanel</name>
    <message numerus="yes">
        <source>manual: %n node(s)</source>
        <translation>
            <numerusform>manual: %n node</numerusform>
            <numerusform>manual: %n nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>automatic: at least %n node(s)</source>
        <translation>
            <numerusform>automatic: at least %n node</numerusform>
            <numerusform>automatic: at least %n nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n second(s)</source>
        <translation>
            <numerusform>%n second</numerusform>
            <numerusform>%n seconds</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n second(s) (the default)</source>
        <translation>
            <numerusform>%n second (the default)</numerusform>
            <numerusform>%n seconds (the default)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 requests, %2 errors (the executor&apos;s %n-second intervals of the last hour)</source>
        <translation>
            <numerusform>%1 requests, %2 errors (the executor&apos;s %n-second intervals of the last hour)</numerusform>
            <numerusform>%1 requests, %2 errors (the executor&apos;s %n-second intervals of the last hour)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardBatchPage</name>
    <message numerus="yes">
        <source>%n file(s), %1</source>
        <extracomment>%n is a count of files, %1 their size (&quot;1.2 MB&quot;).</extracomment>
        <translation>
            <numerusform>%n file, %1</numerusform>
            <numerusform>%n files, %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardComputePage</name>
    <message numerus="yes">
        <source>%1 — Slurm cluster, partition %2: %3 of %n node(s) idle</source>
        <translation>
            <numerusform>%1 — Slurm cluster, partition %2: %3 of %n node idle</numerusform>
            <numerusform>%1 — Slurm cluster, partition %2: %3 of %n nodes idle</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n GPU(s) free</source>
        <translation>
            <numerusform>, %n GPU free</numerusform>
            <numerusform>, %n GPUs free</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Needs %n node(s), one per replica</source>
        <translation>
            <numerusform>Needs %n node, one per replica</numerusform>
            <numerusform>Needs %n nodes, one per replica</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n GPU(s)</source>
        <translation>
            <numerusform>, %n GPU</numerusform>
            <numerusform>, %n GPUs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardOutputPage</name>
    <message numerus="yes">
        <source>at least %n checkpoint(s)</source>
        <translation>
            <numerusform>at least %n checkpoint</numerusform>
            <numerusform>at least %n checkpoints</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n checkpoint(s)</source>
        <translation>
            <numerusform>%n checkpoint</numerusform>
            <numerusform>%n checkpoints</numerusform>
        </translation>
    </message>
</context>
</TS>
