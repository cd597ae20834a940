// SPDX-License-Identifier: GPL-2.0-or-later
#include "gaussianprocess.h"

#include <LBFGSB.h>

#include <cmath>
#include <limits>
#include <numbers>

namespace Trainyard::Tuning {

namespace {

constexpr double sqrt5 = 2.23606797749978969641;
constexpr double logLengthMin = -4.605170185988091; // log 0.01
constexpr double logLengthMax = 2.995732273553991; // log 20
constexpr double logSignalMin = -4.605170185988091; // log 0.01
constexpr double logSignalMax = 4.605170185988092; // log 100
constexpr double logNoiseMin = -13.815510557964274; // log 1e-6
constexpr double logNoiseMax = 0.0; // log 1
// Log-normal priors, so that the fit is a MAP estimate rather than maximum likelihood: log ℓ_i ~ N(log ½, 1) and
// log σ²_f ~ N(0, 1), none on the noise. Why: on a rippled or multimodal objective (Ackley, Styblinski–Tang) the
// likelihood of 10–20 points is highest for short length scales that interpolate the ripples, and EI over such a
// model samples about as random search does. The medians are the fit's default start (half the box, unit
// variance for standardised outputs); a factor e either way is one standard deviation. Vizier penalises
// log(x / c)² on the same parameters (tuned_gp_models.py, more weakly), and BoTorch's default length-scale prior is
// log-normal too. bench_tuning, median regret over seeds 1–20, warped outputs without → with the priors: at 25
// trials Ackley-5 15.6 → 9.7, Hartmann-6 0.76 → 0.35, mixed4 0.10 → 0.067; at 50 Branin 1.9e-4 → 6.7e-5; seeds
// 101–120 move the same way. A stronger (precision 2, 4) or longer (median 0.7, 1) prior did no better.
constexpr double priorLogLength = -0.6931471805599453; // log 0.5
constexpr double priorLogSignal = 0.0;
constexpr double priorPrecision = 1.0; // 1 / variance of the logs

// Scaled squared distance between rows of a and b.
double scaledSquaredDistance(const double* a, const double* b, const double* inverseSquaredLengths, Eigen::Index d,
    Eigen::Index strideA, Eigen::Index strideB)
{
    double s = 0;
    for (Eigen::Index k = 0; k < d; ++k) {
        const double diff = a[k * strideA] - b[k * strideB];
        s += diff * diff * inverseSquaredLengths[k];
    }
    return s;
}

// σ²_f times the Matérn-5/2 correlation (1 + √5 r + 5/3 r²) exp(−√5 r) at the scaled distances `r`, in one vectorised
// pass: Eigen's exp costs a fraction of libm's one call at a time, and these exps were a large share of a suggestion.
Eigen::ArrayXXd maternKernel(const Eigen::ArrayXXd& r, double signalVariance)
{
    return signalVariance * (1.0 + sqrt5 * r + 5.0 / 3.0 * r.square()) * (-sqrt5 * r).exp();
}

Eigen::MatrixXd kernelMatrix(const Eigen::MatrixXd& x, const GpHyperparameters& h)
{
    const Eigen::Index n = x.rows();
    const Eigen::Index d = x.cols();
    const Eigen::VectorXd inv = h.lengthScales.array().square().inverse();
    Eigen::ArrayXXd r = Eigen::ArrayXXd::Zero(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < i; ++j)
            r(i, j) = r(j, i) = scaledSquaredDistance(&x(i, 0), &x(j, 0), inv.data(), d, n, n);
    Eigen::MatrixXd k = maternKernel(r.sqrt(), h.signalVariance).matrix();
    k.diagonal().array() += h.noiseVariance;
    return k;
}

// Cholesky of k, adding jitter to the diagonal until it succeeds (duplicate points with a tiny noise).
bool choleskyWithJitter(Eigen::MatrixXd k, Eigen::LLT<Eigen::MatrixXd>* llt)
{
    double jitter = 0;
    const double scale = std::max(1e-12, k.diagonal().maxCoeff());
    for (int attempt = 0; attempt < 8; ++attempt) {
        if (jitter > 0)
            k.diagonal().array() += jitter;
        llt->compute(k);
        if (llt->info() == Eigen::Success)
            return true;
        jitter = jitter == 0 ? 1e-10 * scale : jitter * 10;
    }
    return false;
}

// The lower triangle of K⁻¹ from the Cholesky factor L of K (lower triangle of `l`; the rest is not read): L⁻¹ by
// forward substitution within its lower triangle, then the lower triangle of L⁻ᵀL⁻¹, column by column. A third of
// the arithmetic of llt.solve(I), which carries the identity as a dense right-hand side; the likelihood's
// gradient needs every entry of K⁻¹, and this was its largest cost.
Eigen::MatrixXd inverseFromCholesky(const Eigen::MatrixXd& l)
{
    const Eigen::Index n = l.rows();
    Eigen::MatrixXd lInverse = Eigen::MatrixXd::Zero(n, n);
    for (Eigen::Index j = 0; j < n; ++j) {
        lInverse(j, j) = 1.0;
        for (Eigen::Index k = j; k < n; ++k) {
            const double xk = lInverse(k, j) /= l(k, k);
            lInverse.col(j).segment(k + 1, n - k - 1) -= xk * l.col(k).segment(k + 1, n - k - 1);
        }
    }
    Eigen::MatrixXd inverse(n, n);
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = j; i < n; ++i)
            inverse(i, j) = lInverse.col(i).tail(n - i).dot(lInverse.col(j).tail(n - i));
    return inverse;
}

GpHyperparameters fromTheta(const Eigen::VectorXd& theta, Eigen::Index d)
{
    GpHyperparameters h;
    h.lengthScales = theta.head(d).array().exp();
    h.signalVariance = std::exp(theta[d]);
    h.noiseVariance = std::exp(theta[d + 1]);
    return h;
}

// Negative log marginal likelihood and its gradient in θ = (log ℓ, log σ²_f, log σ²_n), for LBFGSpp; with
// `withPrior`, minus the log-normal priors' log densities too (up to a constant). Remembers the best θ it evaluated,
// because a line search that fails throws away the solver's iterate.
class NegativeLogLikelihood {
public:
    NegativeLogLikelihood(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, bool withPrior)
        : m_x(x)
        , m_y(y)
        , m_withPrior(withPrior)
    {
    }

    double operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& grad)
    {
        const Eigen::Index n = m_x.rows();
        const Eigen::Index d = m_x.cols();
        const GpHyperparameters h = fromTheta(theta, d);
        const Eigen::VectorXd inv = h.lengthScales.array().square().inverse();
        // r and exp(−√5 r) once per pair (i > j, packed row by row): the gradient needs them again. Vectorised over
        // all pairs at once, as in maternKernel().
        const Eigen::Index pairs = n * (n - 1) / 2;
        m_r.resize(pairs);
        for (Eigen::Index i = 0, p = 0; i < n; ++i)
            for (Eigen::Index j = 0; j < i; ++j)
                m_r[p++] = scaledSquaredDistance(&m_x(i, 0), &m_x(j, 0), inv.data(), d, n, n);
        m_r = m_r.sqrt();
        m_e = (-sqrt5 * m_r).exp();
        Eigen::MatrixXd k(n, n);
        for (Eigen::Index i = 0, p = 0; i < n; ++i) {
            k(i, i) = h.signalVariance + h.noiseVariance;
            for (Eigen::Index j = 0; j < i; ++j, ++p) {
                const double r = m_r[p];
                k(i, j) = k(j, i) = h.signalVariance * (1.0 + sqrt5 * r + 5.0 / 3.0 * r * r) * m_e[p];
            }
        }
        Eigen::LLT<Eigen::MatrixXd> llt;
        if (!choleskyWithJitter(std::move(k), &llt)) {
            grad.setZero();
            return std::numeric_limits<double>::max() / 4;
        }
        const Eigen::VectorXd alpha = llt.solve(m_y);
        const Eigen::MatrixXd& l = llt.matrixLLT();
        const Eigen::MatrixXd kInverse = inverseFromCholesky(l);
        double value = 0.5 * m_y.dot(alpha) + 0.5 * n * std::log(2 * std::numbers::pi);
        for (Eigen::Index i = 0; i < n; ++i)
            value += std::log(l(i, i));

        // d(NLL)/dθ = ½ tr(W ∂K/∂θ) with W = K⁻¹ − ααᵀ (R&W eq. 5.9, sign flipped).
        grad.setZero(theta.size());
        double signalGrad = 0;
        for (Eigen::Index i = 0, p = 0; i < n; ++i) {
            const double wii = kInverse(i, i) - alpha[i] * alpha[i];
            signalGrad += 0.5 * wii * h.signalVariance;
            grad[d + 1] += 0.5 * wii * h.noiseVariance;
            for (Eigen::Index j = 0; j < i; ++j, ++p) {
                const double w = kInverse(i, j) - alpha[i] * alpha[j];
                const double r = m_r[p];
                const double e = m_e[p];
                signalGrad += w * h.signalVariance * (1.0 + sqrt5 * r + 5.0 / 3.0 * r * r) * e;
                // ∂k/∂log ℓ_k = 5/3 σ²_f (1 + √5 r) e^{−√5 r} (x_k − x'_k)² / ℓ_k²; both triangles count.
                const double common = w * 5.0 / 3.0 * h.signalVariance * (1.0 + sqrt5 * r) * e;
                for (Eigen::Index k = 0; k < d; ++k) {
                    const double diff = m_x(i, k) - m_x(j, k);
                    grad[k] += common * diff * diff * inv[k];
                }
            }
        }
        grad[d] = signalGrad;
        if (m_withPrior) {
            for (Eigen::Index k = 0; k < d; ++k) {
                value += 0.5 * priorPrecision * (theta[k] - priorLogLength) * (theta[k] - priorLogLength);
                grad[k] += priorPrecision * (theta[k] - priorLogLength);
            }
            value += 0.5 * priorPrecision * (theta[d] - priorLogSignal) * (theta[d] - priorLogSignal);
            grad[d] += priorPrecision * (theta[d] - priorLogSignal);
        }
        if (!std::isfinite(value) || !grad.allFinite()) {
            grad.setZero();
            return std::numeric_limits<double>::max() / 4;
        }
        if (value < m_bestValue) {
            m_bestValue = value;
            m_best = theta;
        }
        return value;
    }

    double bestValue() const { return m_bestValue; }
    const Eigen::VectorXd& best() const { return m_best; }

private:
    const Eigen::MatrixXd& m_x;
    const Eigen::VectorXd& m_y;
    bool m_withPrior;
    double m_bestValue = std::numeric_limits<double>::infinity();
    Eigen::VectorXd m_best;
    Eigen::ArrayXd m_r; // scaled distances of the pairs i > j, packed row by row
    Eigen::ArrayXd m_e; // exp(−√5 r)
};

} // namespace

void GaussianProcess::fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, std::mt19937_64& rng, int restarts)
{
    const Eigen::Index d = x.cols();
    Eigen::VectorXd lower(d + 2), upper(d + 2);
    lower.head(d).setConstant(logLengthMin);
    upper.head(d).setConstant(logLengthMax);
    lower[d] = logSignalMin;
    upper[d] = logSignalMax;
    lower[d + 1] = logNoiseMin;
    upper[d + 1] = logNoiseMax;

    // Every start gets a few iterations, and only the most promising one is run to convergence: the starts' basins
    // are told apart within a handful of steps, and running each start to convergence was most of a suggestion's
    // time (bench_tuning: 15.6 ms at 50 trials before, about 7 after, with the same regrets).
    constexpr int screenIterations = 8;
    LBFGSpp::LBFGSBParam<double> param;
    param.max_iterations = restarts > 0 ? screenIterations : 60;
    param.epsilon = 1e-5;
    param.max_linesearch = 30;

    auto uniform
        = [&rng](double lo, double hi) { return lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1.0p-53; };
    auto descend = [&](Eigen::VectorXd& theta, const LBFGSpp::LBFGSBParam<double>& p) {
        LBFGSpp::LBFGSBSolver<double> solver(p);
        NegativeLogLikelihood nll(x, y, true);
        double value = 0;
        try {
            solver.minimize(nll, theta, value, lower, upper);
        } catch (const std::exception&) {
            // A failed line search: nll kept the best point it saw.
        }
        if (nll.best().size() == theta.size())
            theta = nll.best();
        return nll.bestValue();
    };
    Eigen::VectorXd best;
    double bestValue = std::numeric_limits<double>::infinity();
    for (int start = 0; start <= restarts; ++start) {
        Eigen::VectorXd theta(d + 2);
        if (start == 0) {
            // Length scale 0.5 of the box, unit signal (outputs are standardised), small noise.
            theta.head(d).setConstant(std::log(0.5));
            theta[d] = 0;
            theta[d + 1] = std::log(1e-4);
        } else {
            for (Eigen::Index k = 0; k < d; ++k)
                theta[k] = uniform(std::log(0.05), std::log(2.0));
            theta[d] = uniform(std::log(0.3), std::log(3.0));
            theta[d + 1] = uniform(std::log(1e-6), std::log(1e-2));
        }
        const double value = descend(theta, param);
        if (value < bestValue) {
            bestValue = value;
            best = theta;
        }
    }
    if (restarts > 0 && best.size() == d + 2) {
        param.max_iterations = 60;
        descend(best, param);
    }
    GpHyperparameters h;
    if (best.size() == d + 2) {
        h = fromTheta(best, d);
    } else {
        h.lengthScales = Eigen::VectorXd::Constant(d, 0.5);
    }
    condition(x, y, h);
}

void GaussianProcess::condition(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const GpHyperparameters& hyper)
{
    m_x = x;
    m_y = y;
    m_hyper = hyper;
    factorise();
}

void GaussianProcess::addPoint(const Eigen::VectorXd& x, double y)
{
    m_x.conservativeResize(m_x.rows() + 1, Eigen::NoChange);
    m_x.row(m_x.rows() - 1) = x.transpose();
    m_y.conservativeResize(m_y.size() + 1);
    m_y[m_y.size() - 1] = y;
    factorise();
}

void GaussianProcess::factorise()
{
    if (!choleskyWithJitter(kernelMatrix(m_x, m_hyper), &m_llt)) {
        // Cannot happen with a noise floor > 0 unless the inputs hold NaN; a large noise keeps predict() sane.
        m_hyper.noiseVariance = 1;
        choleskyWithJitter(kernelMatrix(m_x, m_hyper), &m_llt);
    }
    m_alpha = m_llt.solve(m_y);
}

void GaussianProcess::predict(
    const Eigen::VectorXd& x, double* mean, double* variance, Eigen::VectorXd* dMean, Eigen::VectorXd* dVariance) const
{
    const Eigen::Index n = m_x.rows();
    const Eigen::Index d = m_x.cols();
    const Eigen::VectorXd inv = m_hyper.lengthScales.array().square().inverse();
    Eigen::ArrayXd r(n);
    for (Eigen::Index i = 0; i < n; ++i)
        r[i] = scaledSquaredDistance(x.data(), &m_x(i, 0), inv.data(), d, 1, n);
    r = r.sqrt();
    const Eigen::ArrayXd e = (-sqrt5 * r).exp(); // vectorised, as in maternKernel()
    const Eigen::VectorXd kStar = (m_hyper.signalVariance * (1.0 + sqrt5 * r + 5.0 / 3.0 * r.square()) * e).matrix();
    // ∂k(x, x_i)/∂x_k = factor_i · (x_k − x_ik) / ℓ_k²
    const Eigen::ArrayXd derivativeFactor = -5.0 / 3.0 * m_hyper.signalVariance * (1.0 + sqrt5 * r) * e;
    *mean = kStar.dot(m_alpha);
    const Eigen::VectorXd kInverseKStar = m_llt.solve(kStar);
    *variance = std::max(1e-12 * m_hyper.signalVariance, m_hyper.signalVariance - kStar.dot(kInverseKStar));
    if (!dMean && !dVariance)
        return;
    Eigen::VectorXd dm = Eigen::VectorXd::Zero(d);
    Eigen::VectorXd dv = Eigen::VectorXd::Zero(d);
    for (Eigen::Index i = 0; i < n; ++i) {
        for (Eigen::Index k = 0; k < d; ++k) {
            const double dk = derivativeFactor[i] * (x[k] - m_x(i, k)) * inv[k];
            dm[k] += dk * m_alpha[i];
            dv[k] -= 2.0 * dk * kInverseKStar[i];
        }
    }
    if (dMean)
        *dMean = dm;
    if (dVariance)
        *dVariance = dv;
}

void GaussianProcess::predictMany(
    const Eigen::MatrixXd& points, Eigen::VectorXd* means, Eigen::VectorXd* variances) const
{
    const Eigen::Index n = m_x.rows();
    const Eigen::Index m = points.rows();
    const Eigen::Index d = m_x.cols();
    const Eigen::VectorXd inv = m_hyper.lengthScales.array().square().inverse();
    Eigen::ArrayXXd r(n, m);
    for (Eigen::Index j = 0; j < m; ++j)
        for (Eigen::Index i = 0; i < n; ++i)
            r(i, j) = scaledSquaredDistance(&points(j, 0), &m_x(i, 0), inv.data(), d, m, n);
    const Eigen::MatrixXd kStar = maternKernel(r.sqrt(), m_hyper.signalVariance).matrix();
    *means = kStar.transpose() * m_alpha;
    const Eigen::MatrixXd v = m_llt.matrixL().solve(kStar);
    *variances = (m_hyper.signalVariance - v.colwise().squaredNorm().transpose().array())
                     .max(1e-12 * m_hyper.signalVariance)
                     .matrix();
}

double GaussianProcess::logMarginalLikelihood(
    const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const GpHyperparameters& hyper)
{
    Eigen::VectorXd theta(x.cols() + 2);
    theta.head(x.cols()) = hyper.lengthScales.array().log();
    theta[x.cols()] = std::log(hyper.signalVariance);
    theta[x.cols() + 1] = std::log(hyper.noiseVariance);
    NegativeLogLikelihood nll(x, y, false);
    Eigen::VectorXd grad(theta.size());
    return -nll(theta, grad);
}

} // namespace Trainyard::Tuning
