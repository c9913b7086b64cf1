# str.find/rfind/index/count on non-ASCII text: character offsets, start and end in characters
t = ' 日本語\nsecond 日x'
for args in [('\n',), ('\n', 1), ('x',), ('日',), ('日', 2), ('日', 2, 9), ('', 3), ('', 20), ('本', -3), ('q',)]:
    print(args, t.find(*args), t.rfind(*args), t.count(*args))
print(t.index('s'), t.rindex('日'), 'ab日'.find('b', 1, 2), '日日日'.count('日', 1), 'é'.find('', 1), 'é'.find('', 2))
