# datetime: date, time, datetime, timedelta and timezone (fixed offsets) as
# CPython 3.11's for what scripts use: arithmetic, comparisons, repr/str,
# isoformat/fromisoformat, strftime (over time.strftime, with %f) and a strptime
# for the common directives, now/today/fromtimestamp/timestamp.
import time as _time

MINYEAR = 1
MAXYEAR = 9999
_DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
_DAYS_BEFORE_MONTH = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
_MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
                'November', 'December']
_DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']


def _struct_time(t):
    try:
        return _time.struct_time(t)
    except TypeError:
        return _time.struct_time(*t)


def _is_leap(y):
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def _days_in_month(y, m):
    return 29 if m == 2 and _is_leap(y) else _DAYS_IN_MONTH[m]


def _days_before_year(y):
    y -= 1
    return y * 365 + y // 4 - y // 100 + y // 400


def _ymd2ord(y, m, d):
    return _days_before_year(y) + _DAYS_BEFORE_MONTH[m] + (m > 2 and _is_leap(y)) + d


def _ord2ymd(n):
    # the year by estimate and correction, then the month
    n -= 1
    y = n * 400 // 146097 + 1
    while _days_before_year(y) > n:
        y -= 1
    while _days_before_year(y + 1) <= n:
        y += 1
    n -= _days_before_year(y)
    m = 1
    while m < 12 and _DAYS_BEFORE_MONTH[m + 1] + (m + 1 > 2 and _is_leap(y)) <= n:
        m += 1
    return y, m, n - _DAYS_BEFORE_MONTH[m] - (m > 2 and _is_leap(y)) + 1


def _check_int(name, v):
    if not isinstance(v, int) or isinstance(v, bool) and False:
        raise TypeError("'" + type(v).__name__ + "' object cannot be interpreted as an integer")
    return v


def _check_date(y, m, d):
    for v in (y, m, d):
        _check_int('', v)
    if not MINYEAR <= y <= MAXYEAR:
        raise ValueError('year ' + str(y) + ' is out of range')
    if not 1 <= m <= 12:
        raise ValueError('month must be in 1..12')
    if not 1 <= d <= _days_in_month(y, m):
        raise ValueError('day is out of range for month')


def _check_time(h, mi, s, us):
    for v in (h, mi, s, us):
        _check_int('', v)
    if not 0 <= h <= 23:
        raise ValueError('hour must be in 0..23')
    if not 0 <= mi <= 59:
        raise ValueError('minute must be in 0..59')
    if not 0 <= s <= 59:
        raise ValueError('second must be in 0..59')
    if not 0 <= us <= 999999:
        raise ValueError('microsecond must be in 0..999999')


def _cmp(a, b):
    return 0 if a == b else 1 if a > b else -1


class _Ordered:
    # ordering and hashing by the subclass's _key(), one copy for timedelta,
    # date (and datetime) and time; __eq__ stays each class's own, which is
    # why each names __hash__ again (a class defining __eq__ loses it)
    def __ne__(self, other):
        return not self == other

    def __lt__(self, other):
        return self._key() < other._key()

    def __le__(self, other):
        return self._key() <= other._key()

    def __gt__(self, other):
        return self._key() > other._key()

    def __ge__(self, other):
        return self._key() >= other._key()

    def __hash__(self):
        return hash(self._key())


class timedelta(_Ordered):
    __hash__ = _Ordered.__hash__

    def __init__(self, days=0, seconds=0, microseconds=0, milliseconds=0, minutes=0, hours=0, weeks=0):
        for name, v in (('days', days), ('seconds', seconds), ('microseconds', microseconds),
                        ('milliseconds', milliseconds), ('minutes', minutes), ('hours', hours), ('weeks', weeks)):
            if not isinstance(v, (int, float)):
                raise TypeError('unsupported type for timedelta ' + name + ' component: ' + type(v).__name__)
        # everything in microseconds, rounded half to even as CPython
        us = (((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds
        us = us * 1000000 + milliseconds * 1000 + microseconds
        if isinstance(us, float):
            us = round(us)
        self._set(us)

    def _set(self, us):
        d, rest = divmod(us, 86400000000)
        s, micro = divmod(rest, 1000000)
        if abs(d) > 999999999:
            raise OverflowError('days=' + str(d) + '; must have magnitude <= 999999999')
        self._days = d
        self._seconds = s
        self._us = micro

    @classmethod
    def _from_us(cls, us):
        t = cls.__new__(cls)
        t._set(us)
        return t

    @property
    def days(self):
        return self._days

    @property
    def seconds(self):
        return self._seconds

    @property
    def microseconds(self):
        return self._us

    def _total_us(self):
        return (self._days * 86400 + self._seconds) * 1000000 + self._us

    def total_seconds(self):
        return self._total_us() / 10 ** 6

    def __repr__(self):
        parts = []
        if self._days:
            parts.append('days=' + str(self._days))
        if self._seconds:
            parts.append('seconds=' + str(self._seconds))
        if self._us:
            parts.append('microseconds=' + str(self._us))
        return 'datetime.timedelta(' + (', '.join(parts) if parts else '0') + ')'

    def __str__(self):
        mm, ss = divmod(self._seconds, 60)
        hh, mm = divmod(mm, 60)
        s = str(hh) + ':' + '%02d:%02d' % (mm, ss)
        if self._days:
            s = str(self._days) + (' day, ' if abs(self._days) == 1 else ' days, ') + s
        if self._us:
            s += '.%06d' % self._us
        return s

    def __add__(self, other):
        if isinstance(other, timedelta):
            return timedelta._from_us(self._total_us() + other._total_us())
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return timedelta._from_us(self._total_us() - other._total_us())
        return NotImplemented

    def __neg__(self):
        return timedelta._from_us(-self._total_us())

    def __pos__(self):
        return self

    def __abs__(self):
        return -self if self._days < 0 else self

    def __mul__(self, other):
        if isinstance(other, int):
            return timedelta._from_us(self._total_us() * other)
        if isinstance(other, float):
            return timedelta._from_us(round(self._total_us() * other))
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, timedelta):
            return self._total_us() / other._total_us()
        if isinstance(other, (int, float)):
            return timedelta._from_us(round(self._total_us() / other))
        return NotImplemented

    def __floordiv__(self, other):
        if isinstance(other, timedelta):
            return self._total_us() // other._total_us()
        if isinstance(other, int):
            return timedelta._from_us(self._total_us() // other)
        return NotImplemented

    def __mod__(self, other):
        if isinstance(other, timedelta):
            return timedelta._from_us(self._total_us() % other._total_us())
        return NotImplemented

    def __divmod__(self, other):
        q, r = divmod(self._total_us(), other._total_us())
        return q, timedelta._from_us(r)

    def __eq__(self, other):
        return isinstance(other, timedelta) and self._total_us() == other._total_us()

    def _key(self):
        return self._total_us()

    def __bool__(self):
        return self._total_us() != 0


timedelta.min = timedelta(-999999999)
timedelta.max = timedelta(days=999999999, hours=23, minutes=59, seconds=59, microseconds=999999)
timedelta.resolution = timedelta(microseconds=1)


class tzinfo:
    pass


class timezone(tzinfo):
    def __init__(self, offset, name=None):
        if not isinstance(offset, timedelta):
            raise TypeError('timezone() argument 1 must be datetime.timedelta, not ' + type(offset).__name__)
        self._offset = offset
        self._name = name

    def utcoffset(self, dt):
        return self._offset

    def tzname(self, dt):
        if self._name is not None:
            return self._name
        if not self._offset:
            return 'UTC'
        return 'UTC' + _format_offset(self._offset, ':')

    def dst(self, dt):
        return None

    def __repr__(self):
        if not self._offset and self._name is None:
            return 'datetime.timezone.utc'
        return 'datetime.timezone(' + repr(self._offset) + ('' if self._name is None else ', ' + repr(self._name)) + ')'

    def __str__(self):
        return self.tzname(None)

    def __eq__(self, other):
        return isinstance(other, timezone) and self._offset == other._offset

    def __hash__(self):
        return hash(self._offset)


timezone.utc = timezone(timedelta(0))
UTC = timezone.utc


def _format_offset(off, sep):
    sign = '-' if off._days < 0 else '+'
    off = abs(off)
    hh, rest = divmod(off._seconds, 3600)
    mm, ss = divmod(rest, 60)
    s = sign + '%02d%s%02d' % (hh, sep, mm)
    if ss or off._us:
        s += sep + '%02d' % ss
    if off._us:
        s += '.%06d' % off._us
    return s


def _strftime(fmt, tt, us, off):
    # %f (microseconds) and %z/%Z are ours; the rest is time.strftime's
    out = ''
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c == '%' and i + 1 < len(fmt):
            d = fmt[i + 1]
            if d == 'f':
                out += '%06d' % us
            elif d == 'z':
                out += '' if off is None else _format_offset(off, '')
            elif d == 'Z':
                out += '' if off is None else 'UTC' + ('' if not off else _format_offset(off, ':'))
            elif d == '%':
                out += '%'
            else:
                out += _time.strftime('%' + d, tt)
            i += 2
        else:
            out += c
            i += 1
    return out


class date(_Ordered):
    __hash__ = _Ordered.__hash__

    def __init__(self, year, month, day):
        _check_date(year, month, day)
        self._y = year
        self._m = month
        self._d = day

    year = property(lambda self: self._y)
    month = property(lambda self: self._m)
    day = property(lambda self: self._d)

    @classmethod
    def today(cls):
        t = _time.localtime()
        return cls(t.tm_year, t.tm_mon, t.tm_mday)

    @classmethod
    def fromordinal(cls, n):
        y, m, d = _ord2ymd(n)
        return cls(y, m, d)

    @classmethod
    def fromtimestamp(cls, t):
        lt = _time.localtime(t)
        return cls(lt.tm_year, lt.tm_mon, lt.tm_mday)

    @classmethod
    def fromisoformat(cls, s):
        if not isinstance(s, str):
            raise TypeError('fromisoformat: argument must be str')
        if len(s) != 10 or s[4] != '-' or s[7] != '-' or not (s[:4] + s[5:7] + s[8:]).isdigit():
            raise ValueError('Invalid isoformat string: ' + repr(s))
        return cls(int(s[:4]), int(s[5:7]), int(s[8:]))

    def toordinal(self):
        return _ymd2ord(self._y, self._m, self._d)

    def weekday(self):
        return (self.toordinal() + 6) % 7

    def isoweekday(self):
        return self.toordinal() % 7 or 7

    def isocalendar(self):
        y = self._y
        week1 = _iso_week1_monday(y)
        today = self.toordinal()
        week, day = divmod(today - week1, 7)
        if week < 0:
            y -= 1
            week1 = _iso_week1_monday(y)
            week, day = divmod(today - week1, 7)
        elif week >= 52 and today >= _iso_week1_monday(y + 1):
            y += 1
            week = 0
        return IsoCalendarDate(y, week + 1, day + 1)

    def replace(self, year=None, month=None, day=None):
        return type(self)(self._y if year is None else year, self._m if month is None else month,
                          self._d if day is None else day)

    def timetuple(self):
        return _struct_time((self._y, self._m, self._d, 0, 0, 0, self.weekday(),
                                  self.toordinal() - _ymd2ord(self._y, 1, 1) + 1, -1))

    def isoformat(self):
        return '%04d-%02d-%02d' % (self._y, self._m, self._d)

    __str__ = isoformat

    def __repr__(self):
        return 'datetime.date(%d, %d, %d)' % (self._y, self._m, self._d)

    def ctime(self):
        return '%s %s %2d 00:00:00 %04d' % (_DAYS[self.weekday()], _MONTHS[self._m - 1], self._d, self._y)

    def strftime(self, fmt):
        return _strftime(fmt, self.timetuple(), 0, None)

    def __format__(self, spec):
        return self.strftime(spec) if spec else str(self)

    def _key(self):
        return (self._y, self._m, self._d)

    def __eq__(self, other):
        if isinstance(other, datetime) != isinstance(self, datetime):
            return False
        return isinstance(other, date) and self._key() == other._key()


    def __add__(self, other):
        if isinstance(other, timedelta):
            n = self.toordinal() + other.days
            if not 0 < n <= _ymd2ord(MAXYEAR, 12, 31):
                raise OverflowError('date value out of range')
            return type(self).fromordinal(n)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return self + timedelta(-other.days)
        if isinstance(other, date):
            return timedelta(self.toordinal() - other.toordinal())
        return NotImplemented


class IsoCalendarDate:
    # date.isocalendar(): a (year, week, weekday) triple with names
    def __init__(self, year, week, weekday):
        self.year = year
        self.week = week
        self.weekday = weekday

    def __repr__(self):
        return 'datetime.IsoCalendarDate(year=%d, week=%d, weekday=%d)' % (self.year, self.week, self.weekday)

    def __iter__(self):
        return iter((self.year, self.week, self.weekday))

    def __getitem__(self, i):
        return (self.year, self.week, self.weekday)[i]

    def __len__(self):
        return 3

    def __eq__(self, other):
        return tuple(self) == tuple(other)


def _iso_week1_monday(y):
    first = _ymd2ord(y, 1, 1)
    wd = (first + 6) % 7
    monday = first - wd
    if wd > 3:
        monday += 7
    return monday


class time(_Ordered):
    __hash__ = _Ordered.__hash__

    def __init__(self, hour=0, minute=0, second=0, microsecond=0, tzinfo=None):
        _check_time(hour, minute, second, microsecond)
        self._h = hour
        self._mi = minute
        self._s = second
        self._us = microsecond
        self._tz = tzinfo

    hour = property(lambda self: self._h)
    minute = property(lambda self: self._mi)
    second = property(lambda self: self._s)
    microsecond = property(lambda self: self._us)
    tzinfo = property(lambda self: self._tz)

    def isoformat(self, timespec='auto'):
        return _time_iso(self._h, self._mi, self._s, self._us, timespec) + (
            '' if self._tz is None else _format_offset(self._tz.utcoffset(None), ':'))

    __str__ = isoformat

    def __repr__(self):
        args = [self._h, self._mi]
        if self._s or self._us:
            args.append(self._s)
        if self._us:
            args.append(self._us)
        s = 'datetime.time(' + ', '.join(str(a) for a in args)
        if self._tz is not None:
            s += ', tzinfo=' + repr(self._tz)
        return s + ')'

    def strftime(self, fmt):
        return _strftime(fmt, _struct_time((1900, 1, 1, self._h, self._mi, self._s, 0, 1, -1)), self._us,
                         None if self._tz is None else self._tz.utcoffset(None))

    def replace(self, hour=None, minute=None, second=None, microsecond=None):
        return time(self._h if hour is None else hour, self._mi if minute is None else minute,
                    self._s if second is None else second, self._us if microsecond is None else microsecond, self._tz)

    def _key(self):
        return (self._h, self._mi, self._s, self._us)

    def __eq__(self, other):
        return isinstance(other, time) and self._key() == other._key()



def _time_iso(h, mi, s, us, timespec):
    if timespec == 'auto':
        timespec = 'microseconds' if us else 'seconds'
    if timespec == 'hours':
        return '%02d' % h
    if timespec == 'minutes':
        return '%02d:%02d' % (h, mi)
    if timespec == 'seconds':
        return '%02d:%02d:%02d' % (h, mi, s)
    if timespec == 'milliseconds':
        return '%02d:%02d:%02d.%03d' % (h, mi, s, us // 1000)
    if timespec == 'microseconds':
        return '%02d:%02d:%02d.%06d' % (h, mi, s, us)
    raise ValueError('Unknown timespec value')


class datetime(date):
    def __init__(self, year, month, day, hour=0, minute=0, second=0, microsecond=0, tzinfo=None):
        _check_date(year, month, day)
        _check_time(hour, minute, second, microsecond)
        if tzinfo is not None and not isinstance(tzinfo, tzinfo_base):
            raise TypeError('tzinfo argument must be None or of a tzinfo subclass, not type ' + repr(type(tzinfo).__name__))
        self._y = year
        self._m = month
        self._d = day
        self._h = hour
        self._mi = minute
        self._s = second
        self._us = microsecond
        self._tz = tzinfo

    hour = property(lambda self: self._h)
    minute = property(lambda self: self._mi)
    second = property(lambda self: self._s)
    microsecond = property(lambda self: self._us)
    tzinfo = property(lambda self: self._tz)

    @classmethod
    def fromtimestamp(cls, t, tz=None):
        us = round(t * 1000000)
        secs, micro = divmod(us, 1000000)
        if tz is not None:
            return cls._from_us_epoch(us, tz) + tz.utcoffset(None)
        lt = _time.localtime(secs)
        return cls(lt.tm_year, lt.tm_mon, lt.tm_mday, lt.tm_hour, lt.tm_min, lt.tm_sec, micro)

    @classmethod
    def _from_us_epoch(cls, us, tz=None):
        days, rest = divmod(us, 86400000000)
        y, m, d = _ord2ymd(days + _EPOCH_ORD)
        secs, micro = divmod(rest, 1000000)
        return cls(y, m, d, secs // 3600, secs // 60 % 60, secs % 60, micro, tz)

    @classmethod
    def utcfromtimestamp(cls, t):
        return cls._from_us_epoch(round(t * 1000000))

    @classmethod
    def now(cls, tz=None):
        return cls.fromtimestamp(_time.time(), tz)

    @classmethod
    def today(cls):
        return cls.fromtimestamp(_time.time())

    @classmethod
    def utcnow(cls):
        return cls.utcfromtimestamp(_time.time())

    @classmethod
    def combine(cls, d, t, tzinfo=True):
        return cls(d.year, d.month, d.day, t.hour, t.minute, t.second, t.microsecond,
                   t.tzinfo if tzinfo is True else tzinfo)

    @classmethod
    def fromisoformat(cls, s):
        if not isinstance(s, str):
            raise TypeError('fromisoformat: argument must be str')
        try:
            d = date.fromisoformat(s[:10])
            rest = s[11:]
            if len(s) > 10 and s[10] not in 'T ':
                raise ValueError
            tz = None
            for sign in '+-':
                if sign in rest:
                    rest, off = rest.split(sign, 1)
                    hh, mm = int(off[:2]), int(off[3:5]) if len(off) >= 5 else 0
                    delta = timedelta(hours=hh, minutes=mm)
                    tz = timezone(delta if sign == '+' else -delta)
            if rest.endswith('Z'):
                rest = rest[:-1]
                tz = timezone.utc
            h = mi = sec = us = 0
            if rest:
                h = int(rest[:2])
                if len(rest) > 2:
                    mi = int(rest[3:5])
                if len(rest) > 5:
                    sec = int(rest[6:8])
                if len(rest) > 8:
                    frac = rest[9:]
                    us = int((frac + '000000')[:6])
            return cls(d.year, d.month, d.day, h, mi, sec, us, tz)
        except ValueError:
            raise ValueError('Invalid isoformat string: ' + repr(s)) from None

    @classmethod
    def strptime(cls, s, fmt):
        return _strptime(cls, s, fmt)

    def date(self):
        return date(self._y, self._m, self._d)

    def time(self):
        return time(self._h, self._mi, self._s, self._us)

    def timetz(self):
        return time(self._h, self._mi, self._s, self._us, self._tz)

    def utcoffset(self):
        return None if self._tz is None else self._tz.utcoffset(self)

    def tzname(self):
        return None if self._tz is None else self._tz.tzname(self)

    def replace(self, year=None, month=None, day=None, hour=None, minute=None, second=None, microsecond=None,
                tzinfo=True):
        pick = lambda new, old: old if new is None else new
        return datetime(pick(year, self._y), pick(month, self._m), pick(day, self._d), pick(hour, self._h),
                        pick(minute, self._mi), pick(second, self._s), pick(microsecond, self._us),
                        self._tz if tzinfo is True else tzinfo)

    def astimezone(self, tz=None):
        if tz is None:
            return self
        us = self._epoch_us()
        return datetime._from_us_epoch(us + tz.utcoffset(None)._total_us(), tz)

    def _epoch_us(self):
        days = self.toordinal() - _EPOCH_ORD
        us = ((days * 86400 + self._h * 3600 + self._mi * 60 + self._s) * 1000000) + self._us
        if self._tz is not None:
            us -= self._tz.utcoffset(self)._total_us()
        return us

    def timestamp(self):
        if self._tz is not None:
            return self._epoch_us() / 10 ** 6
        t = _time.mktime((self._y, self._m, self._d, self._h, self._mi, self._s, -1, -1, -1))
        return t + self._us / 10 ** 6

    def timetuple(self):
        return _struct_time((self._y, self._m, self._d, self._h, self._mi, self._s, self.weekday(),
                                  self.toordinal() - _ymd2ord(self._y, 1, 1) + 1, -1))

    def isoformat(self, sep='T', timespec='auto'):
        s = '%04d-%02d-%02d%s' % (self._y, self._m, self._d, sep) + _time_iso(self._h, self._mi, self._s, self._us, timespec)
        if self._tz is not None:
            s += _format_offset(self._tz.utcoffset(self), ':')
        return s

    def __str__(self):
        return self.isoformat(' ')

    def __repr__(self):
        args = [self._y, self._m, self._d, self._h, self._mi]
        if self._s or self._us:
            args.append(self._s)
        if self._us:
            args.append(self._us)
        s = 'datetime.datetime(' + ', '.join(str(a) for a in args)
        if self._tz is not None:
            s += ', tzinfo=' + repr(self._tz)
        return s + ')'

    def ctime(self):
        return '%s %s %2d %02d:%02d:%02d %04d' % (_DAYS[self.weekday()], _MONTHS[self._m - 1], self._d, self._h,
                                                  self._mi, self._s, self._y)

    def strftime(self, fmt):
        return _strftime(fmt, self.timetuple(), self._us, self.utcoffset())

    def _key(self):
        if self._tz is not None:
            return (self._epoch_us(),)
        return (self._y, self._m, self._d, self._h, self._mi, self._s, self._us)

    def __eq__(self, other):
        return isinstance(other, datetime) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __add__(self, other):
        if isinstance(other, timedelta):
            r = datetime._from_us_epoch(self._naive_us() + other._total_us(), self._tz)
            return r
        return NotImplemented

    __radd__ = __add__

    def _naive_us(self):
        days = self.toordinal() - _EPOCH_ORD
        return ((days * 86400 + self._h * 3600 + self._mi * 60 + self._s) * 1000000) + self._us

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return self + -other
        if isinstance(other, datetime):
            if (self._tz is None) != (other._tz is None):
                raise TypeError("can't subtract offset-naive and offset-aware datetimes")
            if self._tz is None:
                return timedelta(microseconds=self._naive_us() - other._naive_us())
            return timedelta(microseconds=self._epoch_us() - other._epoch_us())
        return NotImplemented


tzinfo_base = tzinfo
_EPOCH_ORD = _ymd2ord(1970, 1, 1)
date.min = date(1, 1, 1)
date.max = date(9999, 12, 31)
datetime.min = datetime(1, 1, 1)
datetime.max = datetime(9999, 12, 31, 23, 59, 59, 999999)


def _strptime(cls, s, fmt):
    # %Y %m %d %H %M %S %f %y %b %B %j %p %I %%, literal text elsewhere
    vals = {'Y': 1900, 'm': 1, 'd': 1, 'H': 0, 'M': 0, 'S': 0, 'f': 0}
    i = j = 0
    pm = None
    while i < len(fmt):
        c = fmt[i]
        if c == '%' and i + 1 < len(fmt):
            d = fmt[i + 1]
            i += 2
            if d == '%':
                if s[j:j + 1] != '%':
                    break
                j += 1
                continue
            if d in ('b', 'B'):
                names = _MONTHS if d == 'b' else _MONTH_NAMES
                for k, nm in enumerate(names):
                    if s[j:j + len(nm)].lower() == nm.lower():
                        vals['m'] = k + 1
                        j += len(nm)
                        break
                else:
                    raise ValueError('time data ' + repr(s) + ' does not match format ' + repr(fmt))
                continue
            if d == 'p':
                word = s[j:j + 2].upper()
                if word not in ('AM', 'PM'):
                    raise ValueError('time data ' + repr(s) + ' does not match format ' + repr(fmt))
                pm = word == 'PM'
                j += 2
                continue
            width = {'Y': 4, 'f': 6, 'j': 3}.get(d, 2)
            k = j
            while k < len(s) and k - j < width and s[k].isdigit():
                k += 1
            if k == j or d not in 'YmdHMSfyjI':
                raise ValueError('time data ' + repr(s) + ' does not match format ' + repr(fmt))
            v = int(s[j:k])
            if d == 'f':
                v = int((s[j:k] + '000000')[:6])
            if d == 'y':
                vals['Y'] = v + (2000 if v < 69 else 1900)
            elif d == 'I':
                vals['H'] = v % 12
            elif d == 'j':
                vals['j'] = v
            else:
                vals[d] = v
            j = k
        else:
            if j >= len(s) or s[j] != c:
                raise ValueError('time data ' + repr(s) + ' does not match format ' + repr(fmt))
            i += 1
            j += 1
    if i < len(fmt) or j != len(s):
        if j < len(s) and i >= len(fmt):
            raise ValueError('unconverted data remains: ' + s[j:])
        raise ValueError('time data ' + repr(s) + ' does not match format ' + repr(fmt))
    if pm:
        vals['H'] += 12
    if 'j' in vals:
        d = date.fromordinal(_ymd2ord(vals['Y'], 1, 1) + vals['j'] - 1)
        vals['m'], vals['d'] = d.month, d.day
    return cls(vals['Y'], vals['m'], vals['d'], vals['H'], vals['M'], vals['S'], vals['f'])
