#!/bin/bash
# Trainyard launcher for projects/p/jobs/census_1: waits for the replicas' scripts, then starts one srun per het group.
D='/shared/trainyard/projects/p/jobs/census_1/slurm'
while [ ! -e "$D/launch.ready" ] && [ ! -e "$D/launch.cancel" ]; do sleep 0.05; done
[ -e "$D/launch.cancel" ] && exit 0
[ "$(cat "$D/slurm-job-id" 2>/dev/null)" = "$SLURM_JOB_ID" ] || exit 0
# The replicas' nodes, from the components' node lists.
mapfile -t H0 < <(scontrol show hostnames "$SLURM_JOB_NODELIST_HET_GROUP_0")
mapfile -t H1 < <(scontrol show hostnames "$SLURM_JOB_NODELIST_HET_GROUP_1")
mapfile -t H2 < <(scontrol show hostnames "$SLURM_JOB_NODELIST_HET_GROUP_2")
export TRAINYARD_HOST_0="${H0[0]}"
[ -n "$TRAINYARD_HOST_0" ] || { echo "trainyard: no node for master-replica-0 in the job's node lists (scontrol show hostnames)" >&2; exit 1; }
export TRAINYARD_HOST_1="${H1[0]}"
[ -n "$TRAINYARD_HOST_1" ] || { echo "trainyard: no node for worker-replica-0 in the job's node lists (scontrol show hostnames)" >&2; exit 1; }
export TRAINYARD_HOST_2="${H1[1]}"
[ -n "$TRAINYARD_HOST_2" ] || { echo "trainyard: no node for worker-replica-1 in the job's node lists (scontrol show hostnames)" >&2; exit 1; }
export TRAINYARD_HOST_3="${H2[0]}"
[ -n "$TRAINYARD_HOST_3" ] || { echo "trainyard: no node for ps-replica-0 in the job's node lists (scontrol show hostnames)" >&2; exit 1; }
srun --het-group=0 --nodes=1 --ntasks=1 --ntasks-per-node=1 /bin/bash "$D/task.sh" 0 &
srun --het-group=1 --nodes=2 --ntasks=2 --ntasks-per-node=1 /bin/bash "$D/task.sh" 1 &
srun --het-group=2 --nodes=1 --ntasks=1 --ntasks-per-node=1 /bin/bash "$D/task.sh" 2 &
wait
