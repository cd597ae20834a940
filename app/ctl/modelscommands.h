// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QStringList>

namespace Trainyard {

class CtlSession;

/// gcloud ai-platform's `models`, `versions`, `operations` and `predict` verbs over the executor's API
/// (app/executor/API.md "Models and versions"). Output as gcloud's: `describe` YAML (or `--format=json`), `list` a
/// table (or YAML/JSON documents). Version create and delete wait for their operation, printing gcloud's
/// "Creating version (this might take a few minutes)......done." on stderr, unless `--async`. Exit codes as
/// ExitCode: 0, 1 on an API error (a version that ends FAILED included), 2 on a usage error.
namespace ModelsCommands {
/// `models create MODEL [--description=TEXT] [--regions=REGION] [--labels=K=V,…] [--enable-logging]
/// [--enable-console-logging]`.
int createModel(CtlSession& s, const QStringList& args);
int describeModel(CtlSession& s, const QStringList& args); ///< `models describe MODEL`
int listModels(CtlSession& s, const QStringList& args); ///< `models list`: NAME, DEFAULT_VERSION_NAME
int deleteModel(CtlSession& s, const QStringList& args); ///< `models delete MODEL`
/// `versions create VERSION --model=MODEL --origin=FOLDER [--framework=scikit-learn|xgboost|pytorch]
/// [--runtime-version=V] [--python-version=V] [--prediction-class=module.Class] [--package-uris=P,…]
/// [--description=TEXT] [--labels=K=V,…] [--machine-type=T] [--nodes=N | --min-nodes=N --max-nodes=N] [--async]`.
int createVersion(CtlSession& s, const QStringList& args);
int describeVersion(CtlSession& s, const QStringList& args); ///< `versions describe VERSION --model=MODEL`
/// `versions list --model=MODEL`: NAME, DEPLOYMENT_URI, STATE (and FRAMEWORK, DEFAULT).
int listVersions(CtlSession& s, const QStringList& args);
int deleteVersion(CtlSession& s, const QStringList& args); ///< `versions delete VERSION --model=MODEL [--async]`
int setDefaultVersion(CtlSession& s, const QStringList& args); ///< `versions set-default VERSION --model=MODEL`
/// `versions update VERSION --model=MODEL [--description] [--update-labels] [--nodes | --min-nodes --max-nodes]`
int updateVersion(CtlSession& s, const QStringList& args);
/// `models update MODEL`: description and labels (gcloud's label flags), waiting for the UPDATE_MODEL operation.
int updateModel(CtlSession& s, const QStringList& args);
/// `local predict --model-dir DIR …`: one prediction node of this host, without an executor.
int localPredict(CtlSession& s, const QStringList& args);
/// `operations cancel OPERATION`.
int cancelOperation(CtlSession& s, const QStringList& args);
int describeOperation(CtlSession& s, const QStringList& args); ///< `operations describe OPERATION`
int listOperations(CtlSession& s, const QStringList& args); ///< `operations list`
int waitOperation(CtlSession& s, const QStringList& args); ///< `operations wait OPERATION`
/// `predict --model=MODEL [--version=VERSION] (--json-instances=FILE | --json-request=FILE | --text-instances=FILE)`:
/// FILE `-` is stdin. `--json-instances`: one JSON instance per line; `--json-request`: a whole request body;
/// `--text-instances`: one instance per line as a string. Prints the predictions one per line (compact JSON), or
/// the whole answer with `--format=json|yaml`.
int predict(CtlSession& s, const QStringList& args);
/// `explain --model=MODEL [--version=VERSION] (--json-instances=FILE | --json-request=FILE | --text-instances=FILE)
/// [--output-indices=K,…]`, as gcloud beta ai-platform explain: projects.explain; prints each explained output's
/// attributions by magnitude, or the service's answer with `--format=json|yaml`.
int explain(CtlSession& s, const QStringList& args);
} // namespace ModelsCommands

} // namespace Trainyard
