import difflib
s = difflib.SequenceMatcher(None, 'abcd', 'bcde')
print(s.ratio(), s.quick_ratio(), s.real_quick_ratio(), s.get_matching_blocks(), s.get_opcodes())
s = difflib.SequenceMatcher(lambda x: x == ' ', 'private Thread currentThread;', 'private volatile Thread currentThread;')
print(round(s.ratio(), 3), s.find_longest_match(0, 29, 0, 38))
print(difflib.get_close_matches('appel', ['ape', 'apple', 'peach', 'puppy']))
print(difflib.get_close_matches('conv1', ['conv1.weight', 'conv2', 'fc1', 'conv']))
import keyword
print(difflib.get_close_matches('wheel', keyword.kwlist), difflib.get_close_matches('accept', keyword.kwlist, n=2, cutoff=0.3))
a = ['one\n', 'two\n', 'three\n', 'four\n', 'five\n', 'six\n', 'seven\n', 'eight\n', 'nine\n', 'ten\n']
b = ['zero\n', 'one\n', 'tree\n', 'four\n', 'five\n', 'six\n', 'seven\n', 'eight\n', 'nine\n', 'ten\n', 'eleven\n']
print(''.join(difflib.unified_diff(a, b, fromfile='before.py', tofile='after.py')), end='')
print(''.join(difflib.context_diff(a, b, fromfile='before.py', tofile='after.py', n=1)), end='')
print(list(difflib.unified_diff(['a', 'b'], ['a', 'c'], lineterm='')))
d = list(difflib.ndiff('one\ntwo\nthree\n'.splitlines(keepends=True), 'ore\ntree\nemu\n'.splitlines(keepends=True)))
print(''.join(d), end='')
print(''.join(difflib.restore(d, 1)), end='')
text1 = ['  1. Beautiful is better than ugly.\n', '  2. Explicit is better than implicit.\n', '  3. Simple is better than complex.\n', '  4. Complex is better than complicated.\n']
text2 = ['  1. Beautiful is better than ugly.\n', '  3.   Simple is better than complex.\n', '  4. Complicated is better than complex.\n', '  5. Flat is better than nested.\n']
print(''.join(difflib.Differ().compare(text1, text2)), end='')
long_a = 'x' * 300 + 'abc'; long_b = 'x' * 250 + 'abd'
print(round(difflib.SequenceMatcher(None, long_a, long_b).ratio(), 6), round(difflib.SequenceMatcher(None, long_a, long_b, autojunk=False).ratio(), 6))
try: difflib.get_close_matches('a', ['b'], n=0)
except ValueError as e: print(e)
try: list(difflib.unified_diff([1], [2]))
except TypeError as e: print(e)
for g in difflib.SequenceMatcher(None, a, b).get_grouped_opcodes(1): print(g)
