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
