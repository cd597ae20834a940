// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What a HyperparameterSpec will do before it runs, for the submit wizard's tuning page: how many grid
// points the space has and which values trial 1 gets.
//
// The numbers follow the executor's optimiser (app/executor/tuning/optimizer), which the console must not
// link (ui/ depends on models/ only): GridSearch::gridSize() for the grid, SearchSpace::decode() of the
// centre of the warped unit box for the Bayesian optimiser's first trial, GridSearch::point(0) for grid
// search's, and formatValue() for how a value reaches the trainer. tests/unit/tst_tuningpreview checks
// them against that code, so the two cannot drift apart silently.

#include "job.h"

#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace Trainyard {

class TuningPreview {
public:
    /// The grid of a spec: the product of each parameter's value count (INTEGER: max − min + 1; DISCRETE and
    /// CATEGORICAL: their values), as GRID_SEARCH enumerates it.
    struct Grid {
        enum class Kind {
            Finite, ///< `points` holds the count
            Infinite, ///< a DOUBLE parameter (`doubleParameter`) has no grid
            Incomplete, ///< no parameters, or one whose values are missing or invalid
        };
        Kind kind = Kind::Incomplete;
        quint64 points = 0; ///< saturates at UINT64_MAX (then `saturated`)
        bool saturated = false;
        QString doubleParameter; ///< the first DOUBLE parameter's name, for Kind::Infinite
    };
    static Grid grid(const HyperparameterSpec& spec);

    /// How trial 1's values are chosen under an algorithm.
    enum class FirstTrial {
        Centre, ///< ALGORITHM_UNSPECIFIED (Bayesian optimisation): the centre of the warped space
        FirstGridPoint, ///< GRID_SEARCH: every parameter's first value
        Random, ///< RANDOM_SEARCH: drawn at random; the values shown are the centre, as an example
    };
    static FirstTrial firstTrial(const QString& algorithm);

    /// The value of `p` at the centre of its warped space, as the trainer gets it: DOUBLE the midpoint in
    /// its scale (the geometric mean on UNIT_LOG_SCALE, max + min − √(min·max) on UNIT_REVERSE_LOG_SCALE),
    /// INTEGER that rounded (over [min − ½, max + ½]), DISCRETE the value nearest the centre in warped space
    /// (the lower one on a tie), CATEGORICAL the first value. nullopt when `p` is incomplete or invalid.
    static std::optional<QString> centreValue(const ParameterSpec& p);

    /// The first value of `p` on the grid (INTEGER min, the first DISCRETE or CATEGORICAL value); nullopt for
    /// DOUBLE (no grid) and for an incomplete or invalid parameter.
    static std::optional<QString> firstGridValue(const ParameterSpec& p);

    /// Trial 1's `--<name>=<value>` pairs in parameter order, for `spec.algorithm` (firstTrial()); a value is
    /// nullopt where its parameter is incomplete.
    static QList<std::pair<QString, std::optional<QString>>> trialOneValues(const HyperparameterSpec& spec);

    /// A number as a trial's argument shows it: the shortest decimal that reads back to the same double
    /// ("0.001", "1e-05", "64"), as the executor's formatValue() (std::to_chars) writes it.
    static QString formatNumber(double value);
};

} // namespace Trainyard
