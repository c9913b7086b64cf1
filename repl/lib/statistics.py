# statistics, written in the language, as CPython 3.11's module computes it: sums
# and sums of squares are exact (each value as an integer ratio), then converted
# once to the data's type (int data gives an int mean when it is one, float
# otherwise; Fraction and Decimal data stay Fraction and Decimal), and standard
# deviations are correctly rounded square roots of the exact variance.

import math
from collections import Counter as _Counter, namedtuple as _namedtuple
from fractions import Fraction


class StatisticsError(ValueError):
    pass


def _ratio(x):
    """x as (numerator, denominator), exactly; a float or Decimal infinity or NaN as (x, None)."""
    try:
        return x.as_integer_ratio()
    except AttributeError:
        pass
    except (OverflowError, ValueError):
        return (x, None)
    try:
        return (x.numerator, x.denominator)
    except AttributeError:
        raise TypeError("can't convert type '%s' to numerator/denominator" % type(x).__name__) from None


def _wider(T, S):
    """The type that values of types T and S together convert to: the subclass
    of the two, int giving way to the other, float over Fraction."""
    if T is S or S is int or S is bool:
        return T
    if T is int:
        return S
    if issubclass(S, T) or issubclass(T, int):
        return S
    if issubclass(T, S) or issubclass(S, int):
        return T
    if issubclass(T, Fraction) and issubclass(S, float):
        return S
    if issubclass(T, float) and issubclass(S, Fraction):
        return T
    raise TypeError("don't know how to coerce %s and %s" % (T.__name__, S.__name__))


def _sum(data):
    """(type, exact sum as a Fraction or a float infinity/NaN, count)."""
    count, T, partials, special = 0, int, {}, None
    for x in data:
        count += 1
        T = _wider(T, type(x))
        n, d = _ratio(x)
        if d is None:
            special = n if special is None else special + n
            continue
        partials[d] = partials.get(d, 0) + n
    if special is not None:
        return (T, special, count)
    total = sum((Fraction(n, d) for d, n in partials.items()), Fraction(0))
    return (T, total, count)


def _convert(value, T):
    """An exact value as type T (for int data: int when it is an integer, else float)."""
    if type(value) is T:
        return value
    if issubclass(T, int) and value.denominator != 1:
        T = float
    try:
        return T(value)
    except TypeError:
        if T.__name__ == 'Decimal':
            return T(value.numerator) / T(value.denominator)
        raise


def _sqrt_of_fraction(n, m):
    """sqrt(n / m) as a float, correctly rounded: an integer square root carrying
    more bits than a double holds, its last bit set when inexact (so the final
    rounding to float sees the true side of every tie)."""
    extra = 2 * 53 + 3
    shift = (n.bit_length() - m.bit_length() - extra) // 2
    if shift >= 0:
        num, den = n, m << (2 * shift)
    else:
        num, den = n << (-2 * shift), m
    root = math.isqrt(num // den)
    root |= root * root * den != num
    return root * 2.0 ** shift if shift >= 0 else root / (1 << -shift)


def _decimal_sqrt_of_fraction(T, n, m):
    """sqrt(n / m) as a Decimal, correctly rounded: the context's square root of
    the quotient may be one step off, so each neighbour is tried against the
    exact midpoints."""
    if n <= 0:
        if not n:
            return T('0.0')
        n, m = -n, -m
    root = (T(n) / T(m)).sqrt()
    rn, rd = root.as_integer_ratio()
    for step, beyond in ((root.next_plus(), 1), (root.next_minus(), -1)):
        sn, sd = step.as_integer_ratio()
        # is n / m beyond the midpoint ((root + step) / 2) ** 2, on step's side?
        if (4 * n * (rd * sd) ** 2 - m * (rd * sn + sd * rn) ** 2) * beyond > 0:
            return step
    return root


def _sqrt(value, T):
    if not isinstance(value, Fraction):
        return math.sqrt(value)
    if T.__name__ == 'Decimal':
        return _decimal_sqrt_of_fraction(T, value.numerator, value.denominator)
    return _sqrt_of_fraction(value.numerator, value.denominator)


def _need(data, least, message):
    data = list(data)
    if len(data) < least:
        raise StatisticsError(message)
    return data


def mean(data):
    T, total, n = _sum(_need(data, 1, 'mean requires at least one data point'))
    return _convert(total / n, T)


def fmean(data, weights=None):
    if weights is None:
        data = list(data)
        if not data:
            raise StatisticsError('fmean requires at least one data point')
        return math.fsum(data) / len(data)
    data, weights = list(data), list(weights)
    if len(data) != len(weights):
        raise StatisticsError('data and weights must be the same length')
    total = math.fsum(weights)
    if not total:
        raise StatisticsError('sum of weights must be non-zero')
    return math.fsum(x * w for x, w in zip(data, weights)) / total


def geometric_mean(data):
    data = list(data)
    try:
        return math.exp(fmean([math.log(x) for x in data]))
    except (ValueError, StatisticsError):
        raise StatisticsError('geometric mean requires a non-empty dataset containing positive numbers') from None


def _nonnegative(values, message):
    for x in values:
        if x < 0:
            raise StatisticsError(message)
        yield x


def harmonic_mean(data, weights=None):
    message = 'harmonic mean does not support negative values'
    data = list(data)
    n = len(data)
    if n < 1:
        raise StatisticsError('harmonic_mean requires at least one data point')
    if n == 1 and weights is None:
        x = data[0]
        if not isinstance(x, (int, float, Fraction)) and type(x).__name__ != 'Decimal':
            raise TypeError('unsupported type')
        if x < 0:
            raise StatisticsError(message)
        return x
    if weights is None:
        weights, total_weight = [1] * n, n
    else:
        weights = list(weights)
        if len(weights) != n:
            raise StatisticsError('Number of weights does not match data size')
        total_weight = _sum(_nonnegative(weights, message))[1]
    try:
        T, total, _ = _sum(w / x if w else 0 for w, x in zip(weights, _nonnegative(data, message)))
    except ZeroDivisionError:
        return 0
    if total <= 0:
        raise StatisticsError('Weighted sum must be positive')
    return _convert(total_weight / total, T)


def median(data):
    data = sorted(data)
    n = len(data)
    if n == 0:
        raise StatisticsError('no median for empty data')
    if n % 2 == 1:
        return data[n // 2]
    i = n // 2
    return (data[i - 1] + data[i]) / 2


def median_low(data):
    data = sorted(data)
    n = len(data)
    if n == 0:
        raise StatisticsError('no median for empty data')
    return data[n // 2] if n % 2 == 1 else data[n // 2 - 1]


def median_high(data):
    data = sorted(data)
    if not data:
        raise StatisticsError('no median for empty data')
    return data[len(data) // 2]


def median_grouped(data, interval=1):
    data = sorted(data)
    n = len(data)
    if n == 0:
        raise StatisticsError('no median for empty data')
    if n == 1:
        return data[0]
    x = data[n // 2]
    for v in (x, interval):
        if isinstance(v, (str, bytes)):
            raise TypeError('expected number but got %r' % (v,))
    try:
        lower = x - interval / 2
    except TypeError:
        lower = float(x) - float(interval) / 2
    below = next((i for i, v in enumerate(data) if v >= x), n)
    count = sum(1 for v in data if v == x)
    return lower + interval * (n / 2 - below) / count


def mode(data):
    pairs = _Counter(iter(data)).most_common(1)
    if not pairs:
        raise StatisticsError('no mode for empty data')
    return pairs[0][0]


def multimode(data):
    counts = _Counter(iter(data))
    if not counts:
        return []
    best = max(counts.values())
    return [x for x, c in counts.items() if c == best]


def quantiles(data, *, n=4, method='exclusive'):
    if n < 1:
        raise StatisticsError('n must be at least 1')
    data = sorted(data)
    m = len(data)
    if m < 2:
        raise StatisticsError('must have at least two data points')
    if method == 'inclusive':
        result = []
        for i in range(1, n):
            j, delta = divmod(i * (m - 1), n)
            result.append((data[j] * (n - delta) + data[j + 1] * delta) / n)
        return result
    if method == 'exclusive':
        result = []
        for i in range(1, n):
            j = i * (m + 1) // n
            j = 1 if j < 1 else m - 1 if j > m - 1 else j
            delta = i * (m + 1) - j * n
            result.append((data[j - 1] * (n - delta) + data[j] * delta) / n)
        return result
    raise ValueError('Unknown method: %r' % (method,))


def _ss(data, c=None):
    """(type, exact sum of the squared deviations from c or from the exact mean, count)."""
    if c is not None:
        T, total, n = _sum((x - c) * (x - c) for x in data)
        return (T, total, n)
    T, total, n = _sum(data)
    if not isinstance(total, Fraction):
        return (T, total, n)  # an infinity or NaN in the data
    mean_ = total / n
    squares = sum(((Fraction(*_ratio(x)) - mean_) ** 2 for x in data), Fraction(0))
    return (T, squares, n)


def _mean_square(data, c, name, sample):
    """(type, the exact mean squared deviation: over n - 1 for a sample, over n for a population)."""
    least = 'two data points' if sample else 'one data point'
    data = _need(data, 2 if sample else 1, '%s requires at least %s' % (name, least))
    T, ss, n = _ss(data, c)
    return T, ss / (n - 1 if sample else n)


def variance(data, xbar=None):
    T, mean_square = _mean_square(data, xbar, 'variance', True)
    return _convert(mean_square, T)


def pvariance(data, mu=None):
    T, mean_square = _mean_square(data, mu, 'pvariance', False)
    return _convert(mean_square, T)


def stdev(data, xbar=None):
    T, mean_square = _mean_square(data, xbar, 'stdev', True)
    return _sqrt(mean_square, T)


def pstdev(data, mu=None):
    T, mean_square = _mean_square(data, mu, 'pstdev', False)
    return _sqrt(mean_square, T)


def _paired(x, y, name):
    n = len(x)
    if len(y) != n:
        raise StatisticsError('%s requires that both inputs have same number of data points' % name)
    if n < 2:
        raise StatisticsError('%s requires at least two data points' % name)
    return n


def covariance(x, y, /):
    n = _paired(x, y, 'covariance')
    xbar, ybar = fmean(x), fmean(y)
    return math.fsum((xi - xbar) * (yi - ybar) for xi, yi in zip(x, y)) / (n - 1)


def correlation(x, y, /):
    _paired(x, y, 'correlation')
    xbar, ybar = fmean(x), fmean(y)
    sxy = math.fsum((xi - xbar) * (yi - ybar) for xi, yi in zip(x, y))
    sxx = math.fsum((xi - xbar) * (xi - xbar) for xi in x)
    syy = math.fsum((yi - ybar) * (yi - ybar) for yi in y)
    try:
        return sxy / math.sqrt(sxx * syy)
    except ZeroDivisionError:
        raise StatisticsError('at least one of the inputs is constant') from None


LinearRegression = _namedtuple('LinearRegression', ('slope', 'intercept'))


def linear_regression(x, y, /, *, proportional=False):
    n = len(x)
    if len(y) != n:
        raise StatisticsError('linear regression requires that both inputs have same number of data points')
    if n < 2:
        raise StatisticsError('linear regression requires at least two data points')
    if proportional:
        sxy = math.fsum(xi * yi for xi, yi in zip(x, y))
        sxx = math.fsum(xi * xi for xi in x)
    else:
        xbar, ybar = fmean(x), fmean(y)
        sxy = math.fsum((xi - xbar) * (yi - ybar) for xi, yi in zip(x, y))
        sxx = math.fsum((xi - xbar) * (xi - xbar) for xi in x)
    try:
        slope = sxy / sxx
    except ZeroDivisionError:
        raise StatisticsError('x is constant') from None
    intercept = 0.0 if proportional else ybar - slope * xbar
    return LinearRegression(slope=slope, intercept=intercept)


# ---------------------------------------------------------------- NormalDist

def _mean_stdev(data):
    """(mean, sample standard deviation) as floats, the deviation correctly rounded."""
    data = list(data)
    if len(data) < 2:
        raise StatisticsError('stdev requires at least two data points')
    T, ss, n = _ss(data)
    if not isinstance(ss, Fraction):  # an infinity or NaN in the data
        xbar = float(ss) / n
        return xbar, xbar / float(ss)
    mss = ss / (n - 1)
    T, total, n = _sum(data)
    return float(total / n), _sqrt_of_fraction(mss.numerator, mss.denominator)


def _poly(coefficients, r):
    """The polynomial with the given coefficients (highest power first) at r, by Horner's rule."""
    value = coefficients[0]
    for c in coefficients[1:]:
        value = value * r + c
    return value


# Wichura's algorithm AS241 (Applied Statistics 37, 1988): rational
# approximations of the normal quantile in three regions, highest power first.
_AS241_CENTRAL = ((2.5090809287301226727e+3, 3.3430575583588128105e+4, 6.7265770927008700853e+4,
                   4.5921953931549871457e+4, 1.3731693765509461125e+4, 1.9715909503065514427e+3,
                   1.3314166789178437745e+2, 3.3871328727963666080e+0),
                  (5.2264952788528545610e+3, 2.8729085735721942674e+4, 3.9307895800092710610e+4,
                   2.1213794301586595867e+4, 5.3941960214247511077e+3, 6.8718700749205790830e+2,
                   4.2313330701600911252e+1, 1.0))
_AS241_NEAR = ((7.74545014278341407640e-4, 2.27238449892691845833e-2, 2.41780725177450611770e-1,
                1.27045825245236838258e+0, 3.64784832476320460504e+0, 5.76949722146069140550e+0,
                4.63033784615654529590e+0, 1.42343711074968357734e+0),
               (1.05075007164441684324e-9, 5.47593808499534494600e-4, 1.51986665636164571966e-2,
                1.48103976427480074590e-1, 6.89767334985100004550e-1, 1.67638483018380384940e+0,
                2.05319162663775882187e+0, 1.0))
_AS241_TAIL = ((2.01033439929228813265e-7, 2.71155556874348757815e-5, 1.24266094738807843860e-3,
                2.65321895265761230930e-2, 2.96560571828504891230e-1, 1.78482653991729133580e+0,
                5.46378491116411436990e+0, 6.65790464350110377720e+0),
               (2.04426310338993978564e-15, 1.42151175831644588870e-7, 1.84631831751005468180e-5,
                7.86869131145613259100e-4, 1.48753612908506148525e-2, 1.36929880922735805310e-1,
                5.99832206555887937690e-1, 1.0))


def _normal_dist_inv_cdf(p, mu, sigma):
    q = p - 0.5
    if math.fabs(q) <= 0.425:
        r = 0.180625 - q * q
        num, den = _AS241_CENTRAL
        return mu + (_poly(num, r) * q / _poly(den, r)) * sigma
    r = math.sqrt(-math.log(p if q <= 0.0 else 1.0 - p))
    if r <= 5.0:
        r = r - 1.6
        num, den = _AS241_NEAR
    else:
        r = r - 5.0
        num, den = _AS241_TAIL
    x = _poly(num, r) / _poly(den, r)
    if q < 0.0:
        x = -x
    return mu + (x * sigma)


_SQRT2 = math.sqrt(2.0)


class NormalDist:
    "Normal distribution of a random variable"

    __slots__ = {'_mu': 'Arithmetic mean of a normal distribution',
                 '_sigma': 'Standard deviation of a normal distribution'}

    def __init__(self, mu=0.0, sigma=1.0):
        "NormalDist where mu is the mean and sigma is the standard deviation."
        if sigma < 0.0:
            raise StatisticsError('sigma must be non-negative')
        self._mu = float(mu)
        self._sigma = float(sigma)

    @classmethod
    def from_samples(cls, data):
        "Make a normal distribution instance from sample data."
        return cls(*_mean_stdev(data))

    def samples(self, n, *, seed=None):
        "Generate *n* samples for a given mean and standard deviation."
        import random
        gauss = random.gauss if seed is None else random.Random(seed).gauss
        mu, sigma = self._mu, self._sigma
        return [gauss(mu, sigma) for i in range(n)]

    def pdf(self, x):
        "Probability density function.  P(x <= X < x+dx) / dx"
        variance = self._sigma * self._sigma
        if not variance:
            raise StatisticsError('pdf() not defined when sigma is zero')
        diff = x - self._mu
        return math.exp(diff * diff / (-2.0 * variance)) / math.sqrt(math.tau * variance)

    def cdf(self, x):
        "Cumulative distribution function.  P(X <= x)"
        if not self._sigma:
            raise StatisticsError('cdf() not defined when sigma is zero')
        return 0.5 * (1.0 + math.erf((x - self._mu) / (self._sigma * _SQRT2)))

    def inv_cdf(self, p):
        "Inverse cumulative distribution function.  x : P(X <= x) = p"
        if p <= 0.0 or p >= 1.0:
            raise StatisticsError('p must be in the range 0.0 < p < 1.0')
        if self._sigma <= 0.0:
            raise StatisticsError('cdf() not defined when sigma at or below zero')
        return _normal_dist_inv_cdf(p, self._mu, self._sigma)

    def quantiles(self, n=4):
        "Divide into *n* continuous intervals with equal probability."
        return [self.inv_cdf(i / n) for i in range(1, n)]

    def overlap(self, other):
        "Compute the overlapping coefficient (OVL) between two normal distributions."
        if not isinstance(other, NormalDist):
            raise TypeError('Expected another NormalDist instance')
        X, Y = self, other
        if (Y._sigma, Y._mu) < (X._sigma, X._mu):  # the same answer either way round
            X, Y = Y, X
        X_var, Y_var = X.variance, Y.variance
        if not X_var or not Y_var:
            raise StatisticsError('overlap() not defined when sigma is zero')
        dv = Y_var - X_var
        dm = math.fabs(Y._mu - X._mu)
        if not dv:
            return 1.0 - math.erf(dm / (2.0 * X._sigma * _SQRT2))
        a = X._mu * Y_var - Y._mu * X_var
        b = X._sigma * Y._sigma * math.sqrt(dm * dm + dv * math.log(Y_var / X_var))
        x1 = (a + b) / dv
        x2 = (a - b) / dv
        return 1.0 - (math.fabs(Y.cdf(x1) - X.cdf(x1)) + math.fabs(Y.cdf(x2) - X.cdf(x2)))

    def zscore(self, x):
        "Compute the Standard Score.  (x - mean) / stdev"
        if not self._sigma:
            raise StatisticsError('zscore() not defined when sigma is zero')
        return (x - self._mu) / self._sigma

    @property
    def mean(self):
        "Arithmetic mean of the normal distribution."
        return self._mu

    @property
    def median(self):
        "Return the median of the normal distribution"
        return self._mu

    @property
    def mode(self):
        "Return the mode of the normal distribution"
        return self._mu

    @property
    def stdev(self):
        "Standard deviation of the normal distribution."
        return self._sigma

    @property
    def variance(self):
        "Square of the standard deviation."
        return self._sigma * self._sigma

    def __add__(x1, x2):
        "Add a constant or another NormalDist instance."
        if isinstance(x2, NormalDist):
            return NormalDist(x1._mu + x2._mu, math.hypot(x1._sigma, x2._sigma))
        return NormalDist(x1._mu + x2, x1._sigma)

    def __sub__(x1, x2):
        "Subtract a constant or another NormalDist instance."
        if isinstance(x2, NormalDist):
            return NormalDist(x1._mu - x2._mu, math.hypot(x1._sigma, x2._sigma))
        return NormalDist(x1._mu - x2, x1._sigma)

    def __mul__(x1, x2):
        "Multiply both mu and sigma by a constant."
        return NormalDist(x1._mu * x2, x1._sigma * math.fabs(x2))

    def __truediv__(x1, x2):
        "Divide both mu and sigma by a constant."
        return NormalDist(x1._mu / x2, x1._sigma / math.fabs(x2))

    def __pos__(x1):
        "Return a copy of the instance."
        return NormalDist(x1._mu, x1._sigma)

    def __neg__(x1):
        "Negates mu while keeping sigma the same."
        return NormalDist(-x1._mu, x1._sigma)

    __radd__ = __add__

    def __rsub__(x1, x2):
        "Subtract a NormalDist from a constant or another NormalDist."
        return -(x1 - x2)

    __rmul__ = __mul__

    def __eq__(x1, x2):
        "Two NormalDist objects are equal if their mu and sigma are both equal."
        if not isinstance(x2, NormalDist):
            return NotImplemented
        return x1._mu == x2._mu and x1._sigma == x2._sigma

    def __hash__(self):
        "NormalDist objects hash equal if their mu and sigma are both equal."
        return hash((self._mu, self._sigma))

    def __repr__(self):
        return f'{type(self).__name__}(mu={self._mu!r}, sigma={self._sigma!r})'

    def __getstate__(self):
        return self._mu, self._sigma

    def __setstate__(self, state):
        self._mu, self._sigma = state
