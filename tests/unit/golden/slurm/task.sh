#!/bin/bash
# One task of het group $1: its replica's script by SLURM_PROCID.
exec /bin/bash '/shared/trainyard/projects/p/jobs/census_1/slurm'/tasks/"$1-$SLURM_PROCID.sh"
