# statistics as CPython 3.11 computes it: exact sums converted to the data's type
# (int, float, Fraction, Decimal), correctly rounded standard deviations, quantiles,
# covariance, correlation, linear regression, the means, and 50 random datasets.
import statistics as st
from fractions import Fraction as F
from decimal import Decimal as D
import random
data = [2.75, 1.75, 1.25, 0.25, 0.5, 1.25, 3.5]
print(st.mean([1, 2, 3, 4]), st.mean([1, 2]), st.mean(data), st.mean([F(3, 7), F(1, 21), F(5, 3)]), st.mean([D('0.5'), D('0.75'), D('0.625')]))
print(st.fmean([3.5, 4.0, 5.25]), st.fmean([85, 92, 83, 91], weights=[0.20, 0.20, 0.30, 0.30]), st.geometric_mean([54, 24, 36]), st.harmonic_mean([40, 60]), st.harmonic_mean([40, 60], weights=[5, 30]))
print(st.median([1, 3, 5, 7]), st.median_low([1, 3, 5, 7]), st.median_high([1, 3, 5]), st.median_grouped([52, 52, 53, 54]), st.median_grouped([1, 3, 3, 5, 7], interval=2))
print(st.mode(['red', 'blue', 'blue']), st.multimode('aabbbbccddddeeffffgg'), st.quantiles([105, 129, 87, 86, 111, 111, 89, 81, 108, 92], n=10), st.quantiles(range(1, 10), method='inclusive'))
print(st.pvariance(data), st.variance(data), st.stdev(data), st.pstdev(data), st.variance([1, 2, 3, 4]), st.variance([F(1, 4), F(5, 4), F(1, 2)]), st.stdev([D('1.5'), D('2.5'), D('2.5'), D('2.75')]))
print(st.variance(data, 1.5), st.pstdev([1.5, 2.5, 2.5, 2.75, 3.25, 4.75]), st.stdev([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]))
x = [1, 2, 3, 4, 5, 6, 7, 8, 9]; y = [1, 2, 3, 1, 2, 3, 1, 2, 3]
print(st.covariance(x, y), st.correlation(x, x[::-1]), st.linear_regression(x, [2 * v + 1 for v in x]), st.linear_regression([1, 2, 3], [2, 4, 7], proportional=True))
random.seed(3)
for _ in range(50):
    d = [random.uniform(-1e3, 1e3) for _ in range(random.randint(2, 30))]
    print(st.mean(d), st.variance(d), st.stdev(d), st.pstdev(d), st.median(d), st.quantiles(d, n=5))
for bad in ("st.mean([])", "st.variance([1])", "st.stdev([])", "st.harmonic_mean([-1, 2])", "st.geometric_mean([0, 1])", "st.correlation([1, 1], [1, 2])", "st.mode([])", "st.quantiles([1], n=4)"):
    try:
        print(eval(bad))
    except (st.StatisticsError, TypeError) as e:
        print(bad, type(e).__name__, e)
print(st.mean([1, float('inf')]), st.variance([1.0, 2.0, float('nan')]))
