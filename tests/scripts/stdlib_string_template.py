# string.Template as CPython 3.11's: $name, ${name}, $$, substitute, safe_substitute,
# get_identifiers, is_valid, a subclass's delimiter, the errors
import string

t = string.Template('$who likes ${what}s, costs $$10')
print(t.substitute(who='tim', what='kung pao'), t.template)
print(t.substitute({'who': 'ann', 'what': 'tea'}, what='coffee'))
print(t.safe_substitute(who='bob'), t.get_identifiers(), t.is_valid())
try:
    t.substitute(who='x')
except KeyError as e:
    print('KeyError', e)
bad = string.Template('cost: $ 5\nmore $')
print(bad.is_valid(), bad.safe_substitute())
try:
    bad.substitute()
except ValueError as e:
    print('ValueError', e)


class Percent(string.Template):
    delimiter = '%'


print(Percent('%x and %%, ${x}y').substitute(x=3), Percent('%a%b').safe_substitute(a=1))
print(string.capwords('hello   world'), string.digits, string.hexdigits, string.ascii_uppercase[:3])
