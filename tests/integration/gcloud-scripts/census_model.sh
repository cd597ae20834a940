#!/bin/sh
# Issue 45's script, as a user ports it from gcloud (`gcloud ai-platform` → `trainyardctl`), run with `sh -e`:
# every line must succeed. MODEL_DIR holds a scikit-learn model.joblib, ROWS the instances (one JSON row a line).
set -e
trainyardctl models create census --region=us-central1 --enable-logging
trainyardctl versions create v1 --model=census --region=us-central1 --origin="$MODEL_DIR" --runtime-version=2.11 --python-version=3.7 --quiet
trainyardctl predict --model=census --region=us-central1 --json-instances="$ROWS" --format='value(predictions)' > predictions.txt
trainyardctl versions list --model=census --region=us-central1 --format='csv[no-heading](name,state)' > versions.csv
trainyardctl jobs list --filter='state=SUCCEEDED' --sort-by=~createTime --limit=5 --format='table(jobId,state,createTime.date("%Y-%m-%d"))'
trainyardctl versions delete v1 --model=census --region=us-central1 --quiet
trainyardctl models delete census --region=us-central1 --quiet
# What the lines printed, as a script would use it.
grep -qx 'malignant;malignant;malignant;malignant;malignant' predictions.txt
grep -qx 'projects/local/models/census/versions/v1,READY' versions.csv
