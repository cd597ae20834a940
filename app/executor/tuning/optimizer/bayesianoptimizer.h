// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "optimizer.h"

namespace Trainyard::Tuning {

/// ALGORITHM_UNSPECIFIED: Bayesian optimisation with a Gaussian process, the service's default (Vizier's
/// "GP bandit"; Golovin et al., "Google Vizier", KDD 2017).
///
/// Trial t of the study (0-based, counting every observed and pending trial, failed ones included) gets:
/// - t = 0: the centre of the warped space (every DOUBLE/INTEGER/DISCRETE at 0.5, snapped; the first
///   category);
/// - t < initialTrials(), or fewer than two usable observations: point t of a Sobol sequence (Boost.Random,
///   Joe–Kuo directions) in the warped space, shifted by a random offset drawn from the seed
///   (Cranley–Patterson rotation, so seeds differ), snapped;
/// - otherwise: the maximiser of expected improvement (Jones et al. 1998, with ξ = 0)
///   under a GP (GaussianProcess: Matérn-5/2 ARD, marginal likelihood with log-normal priors, 3 random restarts)
///   conditioned on the usable observations, their objectives warped as Vizier's GP bandit warps them
///   (warpOutputs(): half rank, then log; a MINIMIZE objective negated first), negated back for minimisation
///   and standardised; beyond 50 usable observations the hyperparameters are fitted to a random 50 of them
///   (drawn from the seed and the history's length), which bounds the fit's O(n³) cost. EI is maximised by
///   L-BFGS-B over the box from the 5 best of 512 Sobol points, 10 perturbations of each of the 5 best
///   observations, and the best observation; the winners are snapped and compared by their snapped EI.
/// Pending trials and the earlier suggestions of the same call enter as "kriging believer" observations
/// (their posterior mean, same hyperparameters), so parallel suggestions differ. A suggestion equal to an
/// observed or pending assignment is avoided while the space has another (a finite space can run out).
class BayesianOptimizer final : public Optimizer {
public:
    BayesianOptimizer(SearchSpace space, Goal goal, std::uint64_t seed);

    /// Trials seeded by the centre and Sobol points before the GP takes over: the number of parameters + 1,
    /// at least 4 and at most 10.
    int initialTrials() const;

    Suggestions suggest(
        std::span<const Observation> observations, std::span<const Assignment> pending, int count) override;
};

} // namespace Trainyard::Tuning
