import shlex, keyword, secrets
print(shlex.split('ls -l "my file.txt" \'a b\' c\\ d'))
print(shlex.split('python train.py --lr=0.1 --name "run 1" # comment'))
print(shlex.split('a # b', comments=True))
print(shlex.split('a "b c" d', posix=False))
print(shlex.quote("it's"), shlex.quote(""), shlex.quote("abc"), shlex.quote("a b"))
print(shlex.join(['echo', 'hello world', "x'y"]))
for bad in ['a "b', 'a \\']:
    try:
        shlex.split(bad)
    except ValueError as e:
        print('ValueError', e)
lex = shlex.shlex('a=1; b && c', punctuation_chars=True)
print(list(lex))
lex = shlex.shlex('foo bar "baz qux"')
print(list(lex))
print(shlex.split('"a\\"b" \'c\\d\''))
print(keyword.iskeyword('for'), keyword.iskeyword('match'), keyword.issoftkeyword('match'), len(keyword.kwlist))
t = secrets.token_hex(16); print(len(t), all(c in '0123456789abcdef' for c in t))
print(len(secrets.token_bytes()), len(secrets.token_bytes(8)), type(secrets.token_bytes(2)).__name__)
print(secrets.choice('abc') in 'abc', 0 <= secrets.randbelow(10) < 10, secrets.randbits(4) < 16)
print(len(secrets.token_urlsafe(16)), secrets.compare_digest('abc', 'abc'), secrets.compare_digest(b'a', b'b'))
try: secrets.choice([])
except IndexError as e: print(e)
