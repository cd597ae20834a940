#!/bin/bash
# Trainyard launcher for projects/p/jobs/census_1/trials/3: waits for the replicas' scripts, then starts one srun per het group.
D='/shared/trainyard/projects/p/jobs/census_1/slurm'
while [ ! -e "$D/launch.ready" ] && [ ! -e "$D/launch.cancel" ]; do sleep 0.05; done
[ -e "$D/launch.cancel" ] && exit 0
[ "$(cat "$D/slurm-job-id" 2>/dev/null)" = "$SLURM_JOB_ID" ] || exit 0
# The replicas' nodes, from the components' node lists.
mapfile -t H0 < <(scontrol show hostnames "$SLURM_JOB_NODELIST")
export TRAINYARD_HOST_0="${H0[0]}"
[ -n "$TRAINYARD_HOST_0" ] || { echo "trainyard: no node for master-replica-0 in the job's node lists (scontrol show hostnames)" >&2; exit 1; }
srun --nodes=1 --ntasks=1 --ntasks-per-node=1 /bin/bash "$D/task.sh" 0 &
wait
