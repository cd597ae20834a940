// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <random>

namespace Trainyard::Tuning {

/// Hyperparameters of the GP's kernel k(x, x') = signalVariance · m(r) + noiseVariance · [x = x'], with
/// the Matérn-5/2 correlation m(r) = (1 + √5 r + 5/3 r²) exp(−√5 r) and r² = Σ_i (x_i − x'_i)² / ℓ_i²
/// (one length scale per dimension, "ARD"; Rasmussen & Williams, Gaussian Processes for Machine Learning,
/// eq. 4.17). Units: inputs in the warped unit box, variances in standardised output units.
struct GpHyperparameters {
    Eigen::VectorXd lengthScales;
    double signalVariance = 1;
    double noiseVariance = 1e-4;
};

/// A zero-mean Gaussian-process regression model on points of [0, 1]^d with standardised outputs.
///
/// Shapes: `x` is n × d (one point per row), `y` has n entries. Hyperparameters are fitted by maximising the
/// log marginal likelihood (R&W eq. 5.8, gradient eq. 5.9) plus log-normal priors, log ℓ_i ~ N(log ½, 1) and
/// log σ²_f ~ N(0, 1) (a MAP estimate; none on the noise), over log ℓ_i ∈ [log 0.01, log 20],
/// log σ²_f ∈ [log 0.01, log 100], log σ²_n ∈ [log 10⁻⁶, log 1] with LBFGSpp's L-BFGS-B, from the
/// default start and `restarts` random ones: each start runs 8 iterations, then the best of them runs on to
/// convergence (at most 60 more). The noise floor of 10⁻⁶ is the nugget that keeps
/// duplicate points factorisable; should a factorisation still fail, jitter is added until it works.
/// A value type, thread-safe for concurrent const use.
class GaussianProcess {
public:
    GaussianProcess() = default;

    /// Fits hyperparameters to (x, y) and conditions on them. n ≥ 1; `rng` draws the restarts' starts.
    void fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, std::mt19937_64& rng, int restarts);

    /// Conditions on (x, y) with given hyperparameters (no fitting).
    void condition(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const GpHyperparameters& hyper);

    /// Adds one observation (x: d entries) with the current hyperparameters: the kriging believer adds a
    /// pending point with its own predicted mean.
    void addPoint(const Eigen::VectorXd& x, double y);

    /// Posterior mean and variance of the latent function (no noise) at `x` (d entries). With `dMean` and
    /// `dVariance` non-null, their gradients with respect to x (d entries each) too.
    void predict(const Eigen::VectorXd& x, double* mean, double* variance, Eigen::VectorXd* dMean = nullptr,
        Eigen::VectorXd* dVariance = nullptr) const;

    /// Posterior means and variances at the m rows of `points` (m × d), in one batch.
    void predictMany(const Eigen::MatrixXd& points, Eigen::VectorXd* means, Eigen::VectorXd* variances) const;

    /// The log marginal likelihood of (x, y) under `hyper` (R&W eq. 5.8), without the priors.
    static double logMarginalLikelihood(
        const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const GpHyperparameters& hyper);

    const GpHyperparameters& hyperparameters() const { return m_hyper; }
    int size() const { return static_cast<int>(m_x.rows()); }

private:
    void factorise();

    Eigen::MatrixXd m_x;
    Eigen::VectorXd m_y;
    GpHyperparameters m_hyper;
    Eigen::LLT<Eigen::MatrixXd> m_llt;
    Eigen::VectorXd m_alpha; // K⁻¹ y
};

} // namespace Trainyard::Tuning
