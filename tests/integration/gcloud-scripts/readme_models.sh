#!/bin/sh
# The README's "Deploying a model and predicting" block, its flags as written there, with this test's models:
# XGB_DIR (model.bst), SK_DIR (model.joblib), ROWS (JSON instances), DATA (a folder of rows-*.json), OUT.
set -e
trainyardctl models create cancer
trainyardctl versions create v1 --model cancer --origin "$XGB_DIR" --framework xgboost
trainyardctl predict --model cancer --json-instances "$ROWS" > xgb.txt
trainyardctl versions create v2 --model cancer --origin "$SK_DIR" --framework scikit-learn --min-nodes 0 --max-nodes 2
trainyardctl versions set-default v2 --model cancer
trainyardctl operations list
trainyardctl versions delete v1 --model cancer
# Batch prediction: a job of its own, as gcloud's; two workers share the files.
trainyardctl jobs submit prediction score_1 --model cancer --data-format json --input-paths "$DATA/rows-*.json" \
    --output-path "$OUT" --region local --max-worker-count 2 --stream-logs
[ "$(trainyardctl jobs describe score_1 --format='value(state)')" = SUCCEEDED ]
[ "$(trainyardctl jobs describe score_1 --format='value(predictionOutput.predictionCount)')" = 10 ]
cat "$OUT"/prediction.results-* | grep -c . | grep -qx 10
# A script's usual checks: the default version's name and the operations that ran.
[ "$(trainyardctl models describe cancer --format='value(defaultVersion.name.basename())')" = v2 ]
trainyardctl operations list --format='value(metadata.operationType)' --sort-by=metadata.operationType | sort -u | grep -qx CREATE_VERSION
trainyardctl versions delete v2 --model cancer --quiet
trainyardctl models delete cancer --quiet
# The first line of xgb.txt is gcloud's table of a list of scores: one row, Python's list.
head -1 xgb.txt | grep -q '^\[0\.'
