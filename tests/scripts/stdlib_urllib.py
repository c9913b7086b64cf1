# urllib.parse (urlparse, urlsplit, urlunparse, urljoin, urlencode, quote, unquote, parse_qs) and urllib.request offline
from urllib.parse import *
import urllib.parse, urllib.request, urllib.error
print(repr(urlparse('https://user:pw@www.example.com:8080/path/to;params?q=1&r=2#frag')))
u = urlparse('https://user:pw@WWW.Example.com:8080/p')
print(u.hostname, u.port, u.username, u.password, u.geturl())
u = urlparse('http://[::1]:80/x')
print(u.hostname, u.port, u.netloc, u.username, u.password)
print(urlsplit('scheme://netloc/path;parameters?query#fragment'))
print(urlunparse(('http', 'a.com', '/p', '', 'q=1', 'f')), urlunsplit(('https', 'b.org', 'x', '', '')))
for rel in ['../g', 'g?y', '/x', '//other/z', '', '#s', 'g/../..', './', 'http://new/x']:
    print(repr(rel), urljoin('http://a/b/c/d;p?q', rel))
print(urljoin('http://a/b/', '/x'), urljoin('', 'x'))
print(urlencode({'a': 1, 'b': 'x y&z', 'c': 'é'}), urlencode([('a', [1, 2])], doseq=True), urlencode([('k', 'v')]))
print(quote('a b/c?d=é'), quote('a b', safe=''), quote_plus('a b+c'), quote(b'\x00\xff'))
print(unquote('a%20b%C3%A9'), unquote_plus('a+b%2B'), unquote('100%'), unquote('%zz%41'), unquote_to_bytes('a%2Fb'))
print(parse_qs('a=1&a=2&b=3'), parse_qsl('a=1&b=&c', keep_blank_values=True), parse_qs('x=a+b%21'))
print(urlparse('x.org/a'), urldefrag('http://a/b#c'), urldefrag('http://a/b'))
print(urlparse('http://h:abc/').netloc)
try:
    urlparse('http://h:abc/').port
except ValueError as e:
    print('ValueError', e)
try:
    urlparse('http://[::1/')
except ValueError as e:
    print('ValueError', e)
try:
    urllib.request.urlopen('http://example.invalid/data.csv', timeout=1)
except urllib.error.URLError as e:
    print('URLError', isinstance(e, OSError), type(e.reason).__name__)
try:
    urllib.request.urlopen('nourl')
except ValueError as e:
    print('ValueError', e)
e = urllib.error.HTTPError('http://x', 404, 'Not Found', {}, None)
print(str(e), repr(e), e.code, e.reason, isinstance(e, urllib.error.URLError))
print(str(urllib.error.URLError('boom')))
r = urllib.request.Request('https://x.org/a?b=1', headers={'user-agent': 'me'})
print(r.get_method(), r.full_url, r.type, r.host, r.headers)
