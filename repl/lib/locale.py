# locale, written in the language: CPython 3.11's interface over a locale state
# kept here (nnscope's own number formatting stays in the C locale): the
# categories, setlocale for C, POSIX, C.UTF-8 and the environment's locale (''),
# getlocale, getpreferredencoding/getencoding (UTF-8), getdefaultlocale,
# localeconv of the C locale, normalize, str/atof/atoi/format_string,
# strcoll/strxfrm.

import os as _os

__all__ = ['getlocale', 'getdefaultlocale', 'getpreferredencoding', 'Error', 'setlocale', 'resetlocale',
           'localeconv', 'strcoll', 'strxfrm', 'str', 'atof', 'atoi', 'format_string', 'currency',
           'normalize', 'LC_CTYPE', 'LC_COLLATE', 'LC_TIME', 'LC_MONETARY', 'LC_NUMERIC', 'LC_ALL',
           'CHAR_MAX', 'getencoding']

_str = str

LC_CTYPE = 0
LC_NUMERIC = 1
LC_TIME = 2
LC_COLLATE = 3
LC_MONETARY = 4
LC_MESSAGES = 5
LC_ALL = 6
CHAR_MAX = 127

# glibc's categories, in the order of its composite LC_ALL name
_CATEGORIES = [('LC_CTYPE', 0), ('LC_NUMERIC', 1), ('LC_TIME', 2), ('LC_COLLATE', 3), ('LC_MONETARY', 4),
               ('LC_MESSAGES', 5), ('LC_PAPER', 7), ('LC_NAME', 8), ('LC_ADDRESS', 9), ('LC_TELEPHONE', 10),
               ('LC_MEASUREMENT', 11), ('LC_IDENTIFICATION', 12)]
_NAMES = dict((v, k) for k, v in _CATEGORIES)


class Error(Exception):
    pass


def _env_locale(category):
    for var in ('LC_ALL', _NAMES.get(category, 'LC_CTYPE'), 'LANG'):
        value = _os.environ.get(var)
        if value:
            return value
    return 'C'


def _supported(name):
    return name in ('C', 'POSIX', 'C.UTF-8', 'C.utf8') or name == _env_locale(LC_CTYPE)


# as CPython at start-up: LC_CTYPE from the environment, a C locale coerced to C.UTF-8
_state = dict((v, 'C') for _, v in _CATEGORIES)
_state[LC_CTYPE] = _env_locale(LC_CTYPE)
if _state[LC_CTYPE] in ('C', 'POSIX') and not _os.environ.get('LC_ALL'):
    _state[LC_CTYPE] = 'C.UTF-8'


def _query(category):
    if category != LC_ALL:
        return _state[category]
    values = [_state[v] for _, v in _CATEGORIES]
    if all(v == values[0] for v in values):
        return values[0]
    return ';'.join('%s=%s' % (k, _state[v]) for k, v in _CATEGORIES)


def setlocale(category, locale=None):
    if not isinstance(category, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(category).__name__)
    if category not in _NAMES and category != LC_ALL:
        raise Error('unsupported locale setting')
    if locale is not None and not isinstance(locale, _str):
        locale = _build_localename(locale)
    if locale is None:
        return _query(category)
    if locale == '':
        locale = _env_locale(category)
    if not _supported(locale):
        raise Error('unsupported locale setting')
    if locale == 'POSIX':
        locale = 'C'
    for _, v in _CATEGORIES:
        if category == LC_ALL or category == v:
            _state[v] = locale
    return _query(category)


def resetlocale(category=LC_ALL):
    setlocale(category, '')


_ALIASES = {'c': 'C', 'posix': 'C', 'c.utf8': 'en_US.UTF-8', 'c.utf-8': 'en_US.UTF-8', 'en': 'en_US.ISO8859-1',
            'en_us': 'en_US.ISO8859-1', 'en_us.utf8': 'en_US.UTF-8', 'en_us.utf-8': 'en_US.UTF-8',
            'utf8': 'en_US.UTF-8', 'de_de': 'de_DE.ISO8859-1', 'fr_fr': 'fr_FR.ISO8859-1'}
_ENCODINGS = {'utf8': 'UTF-8', 'utf-8': 'UTF-8', 'iso88591': 'ISO8859-1', 'iso8859-1': 'ISO8859-1',
              'latin1': 'ISO8859-1', 'ascii': 'ISO8859-1'}


def normalize(localename):
    code = localename.lower()
    if ':' in code:
        code = code.replace(':', '.')
    if '@' in code:
        code, modifier = code.split('@', 1)
    else:
        modifier = ''
    if code in _ALIASES:
        result = _ALIASES[code]
    elif '.' in code:
        lang, enc = code.split('.', 1)
        full = _ALIASES.get(lang, lang)
        base = full.split('.')[0]
        if '_' in base:
            a, b = base.split('_', 1)
            base = a + '_' + b.upper()
        result = base + '.' + _ENCODINGS.get(enc.replace('_', ''), enc.upper())
    else:
        return localename
    if modifier:
        result += '@' + modifier
    return result


def _parse_localename(localename):
    code = normalize(localename)
    if '@' in code:
        code, modifier = code.split('@', 1)
        if modifier == 'euro' and '.' not in code:
            return code, 'iso-8859-15'
    if '.' in code:
        return tuple(code.split('.')[:2])
    elif code == 'C':
        return None, None
    elif code == 'UTF-8':
        return None, 'UTF-8'
    raise ValueError('unknown locale: %s' % localename)


def _build_localename(localetuple):
    try:
        language, encoding = localetuple
        if language is None:
            language = 'C'
        if encoding is None:
            return language
        return language + '.' + encoding
    except (TypeError, ValueError):
        raise TypeError('Locale must be None, a string, or an iterable of two strings -- language code, encoding.')


def getlocale(category=LC_CTYPE):
    localename = setlocale(category)
    if category == LC_ALL and ';' in localename:
        raise TypeError('category LC_ALL is not supported')
    return _parse_localename(localename)


def getdefaultlocale(envvars=('LC_ALL', 'LC_CTYPE', 'LANG', 'LANGUAGE')):
    for variable in envvars:
        localename = _os.environ.get(variable, None)
        if localename:
            if variable == 'LANGUAGE':
                localename = localename.split(':')[0]
            break
    else:
        localename = 'C'
    return _parse_localename(localename)


def _codeset(name):
    # nl_langinfo(CODESET) of a locale name
    if '.' in name:
        enc = name.split('.', 1)[1].split('@')[0]
        return 'UTF-8' if enc.lower().replace('-', '') == 'utf8' else enc
    return 'ANSI_X3.4-1968'


def getencoding():
    return _codeset(_state[LC_CTYPE])


def getpreferredencoding(do_setlocale=True):
    if do_setlocale:
        name = _env_locale(LC_CTYPE)
        return _codeset('C.UTF-8' if name in ('C', 'POSIX') else name)
    return getencoding()


def localeconv():
    return {'int_curr_symbol': '', 'currency_symbol': '', 'mon_decimal_point': '', 'mon_thousands_sep': '',
            'mon_grouping': [], 'positive_sign': '', 'negative_sign': '', 'int_frac_digits': CHAR_MAX,
            'frac_digits': CHAR_MAX, 'p_cs_precedes': CHAR_MAX, 'p_sep_by_space': CHAR_MAX,
            'n_cs_precedes': CHAR_MAX, 'n_sep_by_space': CHAR_MAX, 'p_sign_posn': CHAR_MAX,
            'n_sign_posn': CHAR_MAX, 'decimal_point': '.', 'thousands_sep': '', 'grouping': []}


def strcoll(a, b, /):
    return (a > b) - (a < b)


def strxfrm(string, /):
    return string


def format_string(f, val, grouping=False, monetary=False):
    return f % val


def format(percent, value, grouping=False, monetary=False, *additional):
    return percent % value


def currency(val, symbol=True, grouping=False, international=False):
    raise ValueError("Currency formatting is not possible using the 'C' locale.")


def str(val):
    return '%.12g' % val


def delocalize(string):
    return string


def localize(string, grouping=False, monetary=False):
    return string


def atof(string, func=float):
    return func(string)


def atoi(string):
    return int(string)
