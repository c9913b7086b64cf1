# the textwrap module (repl/lib/), against CPython 3.11
import textwrap
s = "The quick brown fox jumps over the lazy dog. A well-known pangram used for type-setting, and a verylongwordthatdoesnotfitanywhereatall in here."
for w in (10, 20, 33, 70):
    print(textwrap.wrap(s, w))
print(textwrap.fill(s, 30, initial_indent='* ', subsequent_indent='  '))
print(textwrap.shorten(s, 40), '|', textwrap.shorten("Hello  world!", width=12), '|', textwrap.shorten("Hello world", width=5))
print(repr(textwrap.dedent("""
    def f():
        return 1
      x
    """)))
print(repr(textwrap.indent("a\n\nb\n", "> ")), repr(textwrap.indent("a\n b", "+", lambda l: True)))
print(textwrap.wrap("  leading and trailing  ", 10), textwrap.wrap("", 5), textwrap.wrap("tab\there", 8))
print(textwrap.wrap(s, 25, break_long_words=False), textwrap.wrap(s, 15, max_lines=3))
print(textwrap.wrap("a-b c-d e--f ab-cd-ef 12-34", 4))
