// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace Trainyard::Tuning {

/// `ParameterSpec.type` of AI Platform Training's HyperparameterSpec (projects.jobs, REST v1).
enum class ParameterType { Unspecified, Double, Integer, Categorical, Discrete };

/// `ParameterSpec.scaleType`. The service documents: NONE "by default, no scaling is applied";
/// UNIT_LINEAR_SCALE "scales the feasible space to (0, 1) linearly"; UNIT_LOG_SCALE "logarithmically … the
/// entire feasible space must be strictly positive"; UNIT_REVERSE_LOG_SCALE "'reverse' logarithmically …
/// values close to the top of the feasible space are spread out more than points near the bottom … strictly
/// positive". NONE warps linearly too: the optimiser needs some map to [0, 1] and linear is the neutral one.
enum class ScaleType { None, UnitLinear, UnitLog, UnitReverseLog };

/// One `ParameterSpec`, with the fields its type uses: `minValue`/`maxValue` for DOUBLE and INTEGER
/// (INTEGER bounds integral), `discreteValues` for DISCRETE (strictly increasing, ≤ 1,000 values),
/// `categoricalValues` for CATEGORICAL. `scaleType` is ignored for CATEGORICAL.
struct ParameterSpec {
    std::string name;
    ParameterType type = ParameterType::Unspecified;
    double minValue = 0;
    double maxValue = 0;
    std::vector<double> discreteValues;
    std::vector<std::string> categoricalValues;
    ScaleType scaleType = ScaleType::None;
};

/// A parameter's value: double for DOUBLE and DISCRETE (one of the listed numbers), int64 for INTEGER,
/// string for CATEGORICAL.
using ParameterValue = std::variant<double, std::int64_t, std::string>;

/// Values of every parameter of a SearchSpace, in the space's parameter order.
using Assignment = std::vector<ParameterValue>;

/// The value as a trial's `--<name>=<value>` argument and `HyperparameterOutput.hyperparameters` show it:
/// doubles in the shortest form that reads back to the same double ("0.001", "1e-05"), integers in decimal,
/// strings as they are.
std::string formatValue(const ParameterValue& value);

/// The parameters of a study and the map between their values and the optimiser's unit box.
///
/// Encoding (the "warped" space, [0, 1]^dimensions()): one coordinate per DOUBLE, INTEGER or DISCRETE
/// parameter, one per category (one-hot) for CATEGORICAL, in parameter order.
/// - DOUBLE: its scale type maps [min, max] onto [0, 1] (reverse log: u = 1 − log((max + min − x)/min) /
///   log(max/min), Vizier's form, so that the top of the range is spread out). min == max encodes as 0.5.
/// - INTEGER: as DOUBLE over [min − 0.5, max + 0.5], so that with a linear scale every integer owns an equal
///   share of [0, 1] (rounding then gives uniform sampling, and a one-value range has a width);
///   decoding rounds to the nearest integer in range.
/// - DISCRETE: the scale type over [first, last value]; decoding snaps to the value nearest in warped space.
/// - CATEGORICAL: one-hot; decoding takes the largest coordinate (first on ties).
/// Thread-safe for concurrent const use; a value type.
class SearchSpace {
public:
    SearchSpace() = default;

    /// Why `parameters` is not a valid HyperparameterSpec.params under the service's ParameterSpec rules
    /// (the executor's validation reports the same rules with field paths), or "" when it is: at least one
    /// parameter; names non-empty and unique; type set; DOUBLE/INTEGER bounds finite with min ≤ max (min == max
    /// is a one-point parameter, allowed here); INTEGER bounds integral; DISCRETE values finite, strictly
    /// increasing, 1 to 1,000 of them; categories non-empty, unique; log scales only on strictly positive
    /// spaces.
    static std::string check(const std::vector<ParameterSpec>& parameters);

    /// The space of `parameters`, which must pass check() (an invalid spec gives an empty space; callers
    /// check first).
    explicit SearchSpace(std::vector<ParameterSpec> parameters);

    const std::vector<ParameterSpec>& parameters() const { return m_parameters; }
    bool isEmpty() const { return m_parameters.empty(); }

    /// Coordinates of the warped space (≥ number of parameters: categories count one each).
    int dimensions() const { return m_dimensions; }

    /// First coordinate of parameter `index` in the warped space.
    int offset(int index) const { return m_offsets[static_cast<std::size_t>(index)]; }

    /// `assignment` in [0, 1]^dimensions(). Out-of-range numbers are clamped; false (and `out` unspecified)
    /// when the assignment has the wrong length, a value of the wrong kind, or an unknown category.
    bool encode(const Assignment& assignment, double* out) const;

    /// The assignment at `point` (dimensions() coordinates, clamped to [0, 1]): INTEGER rounded, DISCRETE
    /// and CATEGORICAL snapped (see the class comment).
    Assignment decode(const double* point) const;

    /// decode() then encode(): `point` moved onto the nearest point of the space the trials can take.
    void snap(double* point) const;

    /// Warps `value` of parameter `index` (a DOUBLE, INTEGER or DISCRETE one) into [0, 1].
    double warp(int index, double value) const;

    /// The inverse of warp(), before rounding or snapping.
    double unwarp(int index, double unit) const;

    /// True when a number of `assignment` is NaN: such an assignment cannot be ordered (std::set) or compared,
    /// and callers skip it.
    static bool hasNaN(const Assignment& assignment);

    /// True when both assignments hold the same values (doubles compared exactly: they come from decode()).
    static bool same(const Assignment& a, const Assignment& b);

private:
    std::vector<ParameterSpec> m_parameters;
    std::vector<int> m_offsets;
    int m_dimensions = 0;
};

} // namespace Trainyard::Tuning
