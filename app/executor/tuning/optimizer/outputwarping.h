// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <span>
#include <vector>

namespace Trainyard::Tuning {

/// Google Vizier's default output warping for its GP bandit (`output_warpers.create_default_warper()`:
/// HalfRankComponent, then LogWarperComponent with offset 1.5, then InfeasibleWarperComponent; source:
/// github.com/google/vizier, vizier/_src/algorithms/designers/gp/output_warpers.py at commit b0651861), which
/// turns objective values of any range into a well-behaved regression target before the GP is fitted.
///
/// Input: the labels in **maximisation** convention (negate a MINIMIZE objective first), one per observation;
/// NaN and −∞ stand for an infeasible trial. +∞ is not a label (Vizier refuses it); here it is treated as NaN.
/// Output: as many warped labels, in the same order, larger still better (the warping is monotone in the finite
/// labels, ties kept). Vizier's special cases are kept: all finite and equal → zeros; all infeasible → −1.
///
/// The stages, as Vizier's code computes them:
/// - half rank: the labels below the median are replaced by normal quantiles of their dense rank, scaled by the
///   spread of the good half (Φ⁻¹(½ (rank − ½) / den) σ + median); the good half is unchanged. A label of −1e80
///   becomes a modest number, so the worst values no longer dominate the fit.
/// - log: y → ½ − ln(1 + (offset − 1)(max − y)/(max − min)) / ln(offset), into [−½, ½] with the best at ½; it is
///   concave, so it stretches the differences among the good values, where the search is.
/// - infeasible: NaN becomes a value below every feasible one, and all are shifted so that their mean is about 0,
///   the GP's prior mean.
///
/// Pure and deterministic (no randomness), so a study's suggestions stay a function of its history.
std::vector<double> warpOutputs(std::span<const double> maximised);

/// The half-rank stage alone, exposed for tests against Vizier's vectors; NaN entries pass through.
std::vector<double> halfRankWarp(std::span<const double> labels);

/// The log stage alone (offset 1.5), exposed for tests; NaN entries pass through.
std::vector<double> logWarp(std::span<const double> labels);

} // namespace Trainyard::Tuning
