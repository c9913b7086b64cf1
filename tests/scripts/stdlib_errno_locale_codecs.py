import errno, os, locale, codecs, calendar, signal
print(errno.ENOENT, errno.EEXIST, errno.EACCES, errno.errorcode[2], errno.errorcode[errno.EAGAIN], errno.EWOULDBLOCK == errno.EAGAIN, len(errno.errorcode))
try:
    open('/nonexistent/file')
except OSError as e:
    print(e.errno == errno.ENOENT, errno.errorcode[e.errno], e.strerror)
print(locale.setlocale(locale.LC_ALL, 'C'), locale.setlocale(locale.LC_NUMERIC), locale.setlocale(locale.LC_ALL, 'POSIX'))
print(locale.getpreferredencoding(), locale.getpreferredencoding(False), locale.getencoding(), locale.getlocale(locale.LC_NUMERIC))
print(locale.setlocale(locale.LC_CTYPE, 'C.UTF-8'), locale.getlocale(), locale.setlocale(locale.LC_ALL))
try:
    locale.setlocale(locale.LC_ALL, 'xx_YY.nope')
except locale.Error as e:
    print('locale.Error', e)
print(locale.localeconv()['decimal_point'], locale.atof('1.5'), locale.atoi('42'), locale.str(3.14159), locale.format_string('%d items', 1234), locale.strcoll('a', 'b'))
print(locale.normalize('en_US.utf8'), locale.normalize('C.UTF-8'), locale.LC_ALL, locale.LC_CTYPE, locale.CHAR_MAX)
print(codecs.encode('héllo', 'utf-8'), codecs.decode(b'h\xc3\xa9llo', 'utf-8'), codecs.encode('hi', 'rot13'), codecs.encode(b'hi', 'hex'), codecs.decode(b'6869', 'hex'))
print(codecs.encode(b'hi', 'base64'), codecs.decode(b'\xff', 'utf-8', 'replace'), codecs.encode('é', 'ascii', 'ignore'), codecs.encode('é', 'latin-1'))
for n in ['UTF8', 'utf_8', 'latin1', 'ascii', 'utf-16', 'hex', 'rot13', 'U8']:
    print(n, codecs.lookup(n).name, end='; ')
print()
for bad in ["codecs.lookup('nope')", "codecs.encode('x', 'nope')", "codecs.decode(b'\\xff', 'utf-8')", "codecs.lookup_error('nope')"]:
    try:
        eval(bad)
    except Exception as e:
        print(type(e).__name__, e)
print(codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.getencoder('utf-8')('ab'), codecs.getdecoder('utf-8')(b'ab'), len(codecs.lookup('utf-8')))
import tempfile
path = os.path.join(tempfile.mkdtemp(), 'c.txt')
with codecs.open(path, 'w', encoding='utf-8') as f:
    f.write('ünïcode\n')
with codecs.open(path, 'r', encoding='utf-8') as f:
    print(repr(f.read()))
print(calendar.month(2024, 2))
print(calendar.calendar(2023))
print(calendar.monthcalendar(2024, 2), calendar.monthrange(2024, 2), calendar.weekday(2024, 2, 29), calendar.isleap(2000), calendar.isleap(1900), calendar.leapdays(1900, 2024))
print(list(calendar.month_name), list(calendar.day_abbr), calendar.timegm((2024, 1, 1, 0, 0, 0)), calendar.timegm((2000, 2, 29, 12, 30, 15, 0, 0, 0)))
print(calendar.firstweekday(), calendar.MONDAY, calendar.SUNDAY)
try:
    calendar.monthrange(2024, 13)
except ValueError as e:
    print(type(e).__name__, e)
print(list(calendar.Calendar().itermonthdays(2024, 2))[:8], list(calendar.Calendar(6).iterweekdays()), list(calendar.Calendar().itermonthdates(2024, 3))[0])
print(calendar.Calendar().monthdays2calendar(2023, 12)[0], list(calendar.Calendar(2).itermonthdays4(2024, 1))[:2])
calendar.setfirstweekday(calendar.SUNDAY)
print(calendar.month(2024, 2, w=3, l=1))
calendar.prmonth(2021, 8)
print(calendar.TextCalendar(calendar.MONDAY).formatmonth(2024, 3))
print(calendar.weekheader(3), calendar.day_name[calendar.weekday(2025, 1, 1)])
try:
    calendar.setfirstweekday(9)
except ValueError as e:
    print(e)
print(repr(signal.SIGINT), str(signal.SIGTERM), repr(signal.SIG_DFL), signal.NSIG, signal.SIGINT == 2, signal.Signals(15).name, signal.strsignal(signal.SIGTERM))
print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGPIPE))
got = []
def handler(signum, frame):
    got.append(signum)
old = signal.signal(signal.SIGUSR1, handler)
print(old, signal.getsignal(signal.SIGUSR1) is handler)
signal.raise_signal(signal.SIGUSR1)
print(got, signal.signal(signal.SIGUSR1, signal.SIG_DFL) is handler)
old = signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.raise_signal(signal.SIGINT)
signal.signal(signal.SIGINT, old)
try:
    signal.raise_signal(signal.SIGINT)
except KeyboardInterrupt:
    print('KeyboardInterrupt')
for a in [(99, signal.SIG_DFL), (2, 5), (9, signal.SIG_IGN), (0, signal.SIG_DFL)]:
    try:
        signal.signal(*a)
    except Exception as e:
        print(type(e).__name__, e)
print(len(signal.valid_signals()), signal.SIGRTMIN, signal.SIGRTMAX, signal.strsignal(40), signal.alarm(0))
