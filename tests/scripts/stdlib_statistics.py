# statistics: mean, median, mode, variance, stdev and their errors
import statistics
from statistics import mean, median, stdev, variance, pstdev, pvariance, mode, StatisticsError
losses = [0.5, 0.25, 0.125, 1.0]
print(mean([1, 2, 3, 4]), mean([1, 2, 3]), mean(losses), median([3, 1, 2]), median([4, 1, 2, 3]), median(losses))
print(variance([1, 2, 3, 4]), stdev([2, 4, 4, 4, 5, 5, 7, 9]), pstdev([2, 4, 4, 4, 5, 5, 7, 9]), pvariance([1, 2, 3, 4]))
print(mode([1, 2, 2, 3]), statistics.multimode('aabbc'), statistics.median_low([1, 2, 3, 4]), statistics.median_high([1, 2, 3, 4]), statistics.fmean([1, 2, 4]))
for f in [lambda: mean([]), lambda: stdev([1]), lambda: median([])]:
    try:
        f()
    except StatisticsError as e:
        print('StatisticsError', e, isinstance(e, ValueError))
