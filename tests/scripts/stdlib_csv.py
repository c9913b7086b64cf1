# csv as CPython 3.11's: writer quoting (minimal, all, nonnumeric, none with escapechar),
# floats by repr, None as empty, the lone empty field; reader over lines and files (quoted
# fields across lines, doubled quotes, skipinitialspace, QUOTE_NONNUMERIC floats, empty
# lines), DictReader/DictWriter (restkey, restval, extrasaction), dialects, csv.Error.
import csv
import io
import os
import tempfile

buf = io.StringIO()
w = csv.writer(buf)
w.writerow(['a', 'b,c', 1.5, 0.1, 10, None, True, 'q"uote', 'line\nbreak', ' sp'])
w.writerows([[1, 2, 3], [''], [], ['x']])
print(repr(buf.getvalue()))
rows = list(csv.reader(io.StringIO(buf.getvalue())))
print(rows)
for quoting in [csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC, csv.QUOTE_MINIMAL]:
    b = io.StringIO()
    csv.writer(b, quoting=quoting, lineterminator='\n').writerow(['a', 1, 2.5, None, False])
    print(quoting, repr(b.getvalue()))
b = io.StringIO()
csv.writer(b, quoting=csv.QUOTE_NONE, escapechar='\\').writerow(['a,b', 'c'])
print(repr(b.getvalue()))
try:
    csv.writer(io.StringIO(), quoting=csv.QUOTE_NONE).writerow(['a,b'])
except csv.Error as e:
    print('Error:', e)
print(list(csv.reader(['a, b,  c'], skipinitialspace=True)))
print(list(csv.reader(['1,2.5,"x"'], quoting=csv.QUOTE_NONNUMERIC)))
print(list(csv.reader(['a\tb\tc'], delimiter='\t')), list(csv.reader(['a;b'], dialect='excel', delimiter=';')))
print(list(csv.reader(io.StringIO('a,"multi\nline",c\n\nx,"say ""hi""",z\n'))))
r = csv.reader(io.StringIO('h1,h2\n1,2\n'))
print(next(r), r.line_num, next(r), r.line_num)
print(list(csv.DictReader(io.StringIO('k,v\n1,2\n3,4,5\n6\n'), restkey='extra', restval='NA')))
dr = csv.DictReader(io.StringIO('x;y\n1;2\n'), delimiter=';')
print(dr.fieldnames, list(dr))
out = io.StringIO()
dw = csv.DictWriter(out, fieldnames=['epoch', 'loss', 'acc'], restval='-')
dw.writeheader()
dw.writerow({'epoch': 1, 'loss': 0.25})
dw.writerows([{'epoch': 2, 'loss': 0.125, 'acc': 0.9}])
print(repr(out.getvalue()))
try:
    dw.writerow({'epoch': 3, 'lr': 0.1})
except ValueError as e:
    print('ValueError:', e)
csv.DictWriter(out, fieldnames=['a'], extrasaction='ignore').writerow({'a': 1, 'b': 2})
print(repr(out.getvalue()[-3:]))
path = os.path.join(tempfile.mkdtemp(), 'log.csv')
with open(path, 'w', newline='') as f:
    writer = csv.writer(f)
    writer.writerow(['step', 'loss'])
    for step in range(3):
        writer.writerow([step, 1.0 / (step + 1)])
with open(path, newline='') as f:
    print([row for row in csv.reader(f)])
with open(path) as f:
    print([dict(row) for row in csv.DictReader(f)])
os.remove(path)
print(csv.list_dialects()[:3], csv.get_dialect('excel-tab').delimiter == '\t', csv.QUOTE_MINIMAL, csv.QUOTE_NONE)
csv.register_dialect('pipes', delimiter='|')
print(list(csv.reader(['a|b'], dialect='pipes')))
for bad in [lambda: csv.get_dialect('nope'), lambda: csv.writer(io.StringIO(), delimiter='::'),
            lambda: csv.writer(io.StringIO(), quoting=9), lambda: csv.writer(5),
            lambda: list(csv.reader(['a,"b'], strict=True)), lambda: csv.writer(io.StringIO()).writerow(5)]:
    try:
        bad()
    except (csv.Error, TypeError) as e:
        print(type(e).__name__ + ':', e)
