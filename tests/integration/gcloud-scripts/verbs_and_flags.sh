#!/bin/sh
# gcloud ai-platform verbs and flags added for ported scripts (issue 45, item 11), each line as gcloud's reference
# writes it: models update with the label flags, versions update --remove-labels/--clear-labels, operations cancel,
# predict --signature-name, the lists' --page-size, and local predict on a model folder. SK_DIR holds model.joblib.
set -e
trainyardctl models create flags_model --region=us-central1 --labels=team=ads,owner=ana
trainyardctl models update flags_model --region=us-central1 --description="census classifier" --update-labels=stage=prod --remove-labels=owner
[ "$(trainyardctl models describe flags_model --format='value(description)')" = "census classifier" ]
[ "$(trainyardctl models describe flags_model --format='value(labels)')" = "stage=prod;team=ads" ]
trainyardctl models update flags_model --clear-labels --update-labels=only=this
[ "$(trainyardctl models describe flags_model --format='value(labels)')" = "only=this" ]
trainyardctl versions create v1 --model=flags_model --origin="$SK_DIR" --framework=scikit-learn --labels=a=1,b=2
trainyardctl versions update v1 --model=flags_model --remove-labels=a
[ "$(trainyardctl versions describe v1 --model=flags_model --format='value(labels)')" = "b=2" ]
trainyardctl predict --model=flags_model --json-instances="$ROWS" --signature-name=serving_default --format='value(predictions.len())' | grep -qx 5
trainyardctl models list --page-size=10 --format='value(name.basename())' | grep -qx flags_model
OP=$(trainyardctl operations list --page-size=5 --limit=1 --sort-by=~metadata.createTime --format='value(name.basename())')
trainyardctl operations cancel "$OP" --region=us-central1
trainyardctl local predict --model-dir="$SK_DIR" --json-instances="$ROWS" --format='value(predictions)' | grep -qx 'malignant;malignant;malignant;malignant;malignant'
# versions create --config (gcloud's YAML of the Version; flags override it), --staging-bucket accepted.
cat > version.yaml <<YAML
deploymentUri: $SK_DIR
runtimeVersion: 2.10
pythonVersion: "3.7"
framework: SCIKIT_LEARN
autoScaling:
  minNodes: 0
  maxNodes: 2
description: from the file
YAML
trainyardctl versions create v2 --model=flags_model --config=version.yaml --description="from the flag" --staging-bucket=gs://bucket
[ "$(trainyardctl versions describe v2 --model=flags_model --format='value(runtimeVersion,autoScaling.maxNodes,description)')" = "$(printf '2.10\t2\tfrom the flag')" ]
# What is not served is refused with its reason, and nothing is created.
if trainyardctl versions create v3 --model=flags_model --origin="$SK_DIR" --accelerator=count=1,type=nvidia-tesla-t4 2> refused.txt; then exit 1; fi
grep -q 'argument --accelerator: not served here' refused.txt
trainyardctl versions delete v2 --model=flags_model --quiet
trainyardctl versions delete v1 --model=flags_model --quiet
trainyardctl models delete flags_model --quiet
