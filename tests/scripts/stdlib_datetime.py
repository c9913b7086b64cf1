# datetime as CPython 3.11: dates, times, datetimes, timedeltas, timezone offsets, formatting and parsing
import datetime
from datetime import date, datetime as dt, time, timedelta, timezone

d = date(2024, 2, 28)
print(d, repr(d), d + timedelta(days=1), d + timedelta(days=2), d - date(2023, 12, 25), d.weekday(), d.isoweekday())
print(d.toordinal(), date.fromordinal(738000), d.isoformat(), d.strftime('%Y/%m/%d %A %B %j %a %b'), d.replace(day=1), d.ctime())
print(date.fromisoformat('2021-07-04'), d.isocalendar(), date(2021, 1, 3).isocalendar(), date(2020, 12, 31).isocalendar())
print(d < date(2024, 3, 1), d == date(2024, 2, 28), max(date(2020, 1, 1), d), sorted([date(2022, 5, 1), d, date(2001, 1, 1)]))
t = dt(2023, 11, 5, 14, 30, 15, 250)
print(t, repr(t), repr(dt(2023, 1, 2)), repr(dt(2023, 1, 2, 3, 4, 5)), t.date(), t.time(), repr(t.time()))
print(t.isoformat(), t.isoformat(' ', 'seconds'), t.isoformat(timespec='milliseconds'), t.isoformat(timespec='minutes'))
print(t.strftime('%Y-%m-%d %H:%M:%S.%f'), t.strftime('%d/%m/%y %I:%M %p'), t.strftime('%%Y'), f'{t:%H:%M}', format(d, '%d.%m.%Y'))
print(t + timedelta(hours=10), t - timedelta(days=400, seconds=1), t - dt(2023, 1, 1), dt(2024, 1, 1) - t)
print(t.replace(year=2020, microsecond=0), t.weekday(), t.timetuple()[:7], t.ctime())
print(dt.fromisoformat('2011-11-04T00:05:23'), dt.fromisoformat('2011-11-04 00:05:23.283'), dt.fromisoformat('2011-11-04'))
print(dt.fromisoformat('2011-11-04T00:05:23+04:00'), repr(dt.fromisoformat('2011-11-04T00:05:23+00:00')))
print(dt.strptime('2023-03-04 05:06:07', '%Y-%m-%d %H:%M:%S'), dt.strptime('04/Mar/2023:10:00:00.5', '%d/%b/%Y:%H:%M:%S.%f'))
print(dt.strptime('7 January 99 3PM', '%d %B %y %I%p'), dt.strptime('2020-060', '%Y-%j'))
print(dt.combine(date(2020, 5, 17), time(8, 30)), repr(time(8, 30)), time(23, 59, 59, 1), time(1, 2).isoformat(), time(7).strftime('%H h'))
td = timedelta(days=1, hours=2, minutes=3, seconds=4.5)
print(td, repr(td), td.total_seconds(), td.days, td.seconds, td.microseconds, -td, abs(-td), repr(-td))
print(timedelta(0), repr(timedelta(0)), timedelta(weeks=2), timedelta(milliseconds=1.5), timedelta(microseconds=-1), timedelta(seconds=0.0000005))
print(td * 2, 3 * td, td / 2, td / timedelta(hours=1), td // timedelta(hours=1), td % timedelta(hours=1), td * 0.5, td // 3)
print(timedelta(hours=25) > timedelta(days=1), timedelta(minutes=60) == timedelta(hours=1), bool(timedelta(0)), divmod(td, timedelta(hours=5)))
print(timedelta.max, timedelta.min, timedelta.resolution, dt.min, dt.max, date.min, datetime.MINYEAR, datetime.MAXYEAR)
u = dt(2020, 1, 1, 12, tzinfo=timezone.utc)
e = dt(2020, 1, 1, 17, tzinfo=timezone(timedelta(hours=5)))
print(u, repr(u), u.isoformat(), u.utcoffset(), u.tzname(), e.tzname(), u == e, e - u, u.timestamp(), e.astimezone(timezone.utc))
print(repr(timezone(timedelta(hours=-3, minutes=-30))), str(timezone(timedelta(hours=5, minutes=30))), timezone.utc, u.strftime('%z %Z'))
print(dt.fromtimestamp(0, timezone.utc), dt.utcfromtimestamp(86400 * 365.25), dt(2000, 1, 1, tzinfo=timezone.utc).timestamp())
now = dt.now()
print(type(now).__name__, isinstance(now, date), now.year >= 2024, type(date.today()).__name__, (dt.now() - now).days, type(dt.utcnow()).__name__)
x = dt(2022, 6, 1, 12, 0)
print(abs(dt.fromtimestamp(x.timestamp()) - x) < timedelta(seconds=1), {d: 1}[date(2024, 2, 28)], hash(t) == hash(dt(2023, 11, 5, 14, 30, 15, 250)))
for bad in [lambda: date(2023, 2, 29), lambda: date(2023, 13, 1), lambda: date(0, 1, 1), lambda: dt(2020, 1, 1, 24),
            lambda: dt(2020, 1, 1, 0, 60), lambda: time(0, 0, 0, 10 ** 6), lambda: date.fromisoformat('2020-1-1'),
            lambda: dt.strptime('2020', '%Y-%m'), lambda: dt.strptime('2020-01-01x', '%Y-%m-%d'), lambda: u - dt(2020, 1, 1),
            lambda: date(2020, 1, 1.5), lambda: timedelta(days='1'), lambda: date.max + timedelta(1)]:
    try:
        print(bad())
    except Exception as err:
        print(type(err).__name__ + ':', err)
