# statistics.NormalDist (pdf, cdf, inv_cdf over all three AS241 regions, overlap, quantiles, zscore, samples with a seed,
# arithmetic, from_samples, eq/hash, copy/pickle) and the other functions' errors, with CPython 3.11's numbers
import copy, pickle
import statistics as st
from statistics import NormalDist
data = [2.5, 3.1, 4.7, 1.2, 3.3, 5.8, 2.2, 4.1]
print(st.mean(data), st.fmean(data), st.median(data), st.median_low(data), st.median_high(data))
print(st.median_grouped([1, 2, 2, 3, 4, 4, 4, 4, 4, 5]), st.median_grouped([52, 52, 53, 54], interval=2))
print(st.stdev(data), st.pstdev(data), st.variance(data), st.pvariance(data))
print(st.geometric_mean(data), st.harmonic_mean(data), st.harmonic_mean([40, 60], weights=[5, 30]))
print(st.fmean([3.5, 4.0, 5.25], weights=[1, 2, 3]))
print(st.quantiles(data), st.quantiles(data, n=10), st.quantiles(data, n=4, method='inclusive'))
print(st.mode([1, 1, 2, 3]), st.mode('aabbbc'), st.multimode('aabbbcccc'), st.multimode([1, 1, 2, 2]))
x = [1, 2, 3, 4, 5, 6, 7, 8, 9]; y = [1, 2, 3, 1, 2, 3, 1, 2, 3]
print(st.correlation(x, y), st.covariance(x, y))
print(st.linear_regression(x, y), st.linear_regression(x, y, proportional=True))
r = st.linear_regression([1, 2, 3], [2, 4, 6.5]); print(r.slope, r.intercept)
n = NormalDist(100, 15)
print(n, n.mean, n.stdev, n.variance, n.median, n.mode)
print(n.pdf(110), n.cdf(110), n.inv_cdf(0.95), n.zscore(130))
print(n.overlap(NormalDist(110, 10)), n.quantiles(), n.quantiles(10))
print(n + 5, n * 2, n - NormalDist(1, 2), n + NormalDist(3, 4), 2 * n, n / 3, -n)
print(NormalDist.from_samples([1, 2, 3, 4, 5]))
print(n.samples(3, seed=42))
print(n == NormalDist(100, 15), hash(NormalDist(0, 1)) == hash(NormalDist(0, 1)))
print(NormalDist().inv_cdf(0.5), NormalDist().cdf(0), NormalDist().inv_cdf(0.001), NormalDist().inv_cdf(1e-10))
for bad in (lambda: st.mean([]), lambda: st.stdev([1]), lambda: NormalDist(0, -1), lambda: NormalDist().inv_cdf(1.5),
            lambda: st.correlation([1, 1], [1, 2]), lambda: st.quantiles([1], n=4), lambda: st.quantiles(data, n=0),
            lambda: st.geometric_mean([1, -1]), lambda: st.harmonic_mean([-1]), lambda: st.mode([]),
            lambda: st.covariance([1], [1]), lambda: st.linear_regression([1, 1], [1, 2]), lambda: NormalDist(1, 0).pdf(1),
            lambda: st.correlation([1, 2], [1]), lambda: st.NormalDist.from_samples([1])):
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
from fractions import Fraction
from decimal import Decimal
print(st.mean([Fraction(1, 3), Fraction(2, 3)]), st.mean([Decimal('1.1'), Decimal('2.2')]), st.variance([Fraction(1, 2), Fraction(3, 2), 2]))
print(st.mean([1, 2, 3, 4]), st.median([1, 3, 2, 4]), st.stdev([1, 2, 3, 4], xbar=2.5), st.pvariance([1, 2], mu=1.5))
print(repr(st.StatisticsError('x')), st.StatisticsError.__mro__[1])
print(NormalDist(1.5, 2.5).pdf(0.3), NormalDist(-3, 0.5).cdf(-2.5), NormalDist(10, 3).inv_cdf(0.3))
for p in (1e-300, 1e-20, 0.001, 0.02, 0.075, 0.3, 0.425, 0.5, 0.6, 0.924, 0.98, 0.999999, 1 - 1e-16):
    print(p, NormalDist(2.0, 3.0).inv_cdf(p))
nd = NormalDist(5, 2)
print(copy.copy(nd), copy.deepcopy(nd), pickle.loads(pickle.dumps(nd)), copy.copy(nd) == nd)
try:
    nd.x = 1
except AttributeError as e:
    print('AttributeError:', e)
try:
    nd.overlap(3)
except TypeError as e:
    print('TypeError:', e)
print(NormalDist(0, 1).overlap(NormalDist(0, 1)), NormalDist(0, 1).overlap(NormalDist(3, 1)))
heights = NormalDist.from_samples([172.1, 168.4, 181.0, 175.5, 169.9, 177.2])
print(heights, round(heights.cdf(180), 12), [round(q, 9) for q in heights.quantiles(5)])
