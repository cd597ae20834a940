#!/bin/bash
# Replica worker-replica-1 of projects/p/jobs/census_1.
D='/shared/trainyard/projects/p/jobs/census_1/slurm'
unset RANK
unset CLOUD_ML_TRIAL_ID
export PYTHONPATH='/shared/trainyard/projects/p/jobs/census_1/staging'${PYTHONPATH:+:$PYTHONPATH}
export TF_CONFIG='{"cluster":{"master":["'"${TRAINYARD_HOST_0}"':20032"],"worker":["'"${TRAINYARD_HOST_1}"':20033"]},"task":{"type":"worker","index":0}}'
mkdir -p '/shared/trainyard/projects/p/jobs/census_1/replicas/worker-replica-1'
cd '/shared/trainyard/projects/p/jobs/census_1/replicas/worker-replica-1' || { echo 127 > "$D/exit/"'worker-replica-1'; exit 127; }
'/usr/bin/python3' '-m' 'trainer.task' '--name=it'\''s' '--peer='"${TRAINYARD_HOST_0}"':20032' '--job-dir' '/jobs/census 1' >>"$D/logs/"'worker-replica-1'.stdout 2>>"$D/logs/"'worker-replica-1'.stderr &
child=$!
echo "${SLURMD_NODENAME:-$(hostname -s)} $child" > "$D/started/"'worker-replica-1'.tmp && mv "$D/started/"'worker-replica-1'.tmp "$D/started/"'worker-replica-1'
( trap 'kill $! 2>/dev/null; exit 0' TERM
  hz=$(getconf CLK_TCK); pg=$(getconf PAGESIZE)
  tree() { echo $1; local c; for c in $(cat /proc/$1/task/*/children 2>/dev/null); do tree $c; done; }
  while kill -0 $child 2>/dev/null; do
    t=0; r=0
    for p in $(tree $child); do
      s=$(cat /proc/$p/stat 2>/dev/null) || continue; s=${s##*) }; a=($s)
      t=$((t + a[11] + a[12])); r=$((r + a[21]))
    done
    [ $r -gt 0 ] || break
    echo "$(date +%s%N) $t $hz $((r * pg))" >> "$D/resources/"'worker-replica-1'
    sleep 2 & wait $!
  done ) &
sampler=$!
trap 'kill -TERM $child 2>/dev/null' TERM
while :; do wait $child; rc=$?; kill -0 $child 2>/dev/null || break; done
kill $sampler 2>/dev/null
echo $rc > "$D/exit/"'worker-replica-1'.tmp && mv "$D/exit/"'worker-replica-1'.tmp "$D/exit/"'worker-replica-1'
exit $rc
