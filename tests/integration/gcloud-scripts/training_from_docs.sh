#!/bin/sh
# The service's "Training overview" command with its variables, --package-path as gcloud's (the package folder), the
# user's arguments after `--`, then the state as scripts read it. SRC holds trainer/ (no setup.py).
set -e
JOB_NAME=my_first_keras_job
JOB_DIR="$OUT/keras-job-dir"
REGION=us-central1
cd "$SRC"
trainyardctl jobs submit training $JOB_NAME \
  --package-path trainer/ \
  --module-name trainer.task \
  --region $REGION \
  --python-version 3.7 \
  --runtime-version 2.11 \
  --job-dir $JOB_DIR \
  --stream-logs \
  -- \
  --user_first_arg=first_arg_value
[ "$(trainyardctl jobs describe $JOB_NAME --format='value(state)')" = SUCCEEDED ]
trainyardctl jobs describe $JOB_NAME --format='value(trainingInput.args)' | grep -q 'user_first_arg=first_arg_value'
test -s "$JOB_DIR/done.txt"
