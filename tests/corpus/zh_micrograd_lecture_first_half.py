# nnscope corpus script (tests/corpus/README.md): a real public PyTorch script.
# Source: https://github.com/karpathy/nn-zero-to-hero/blob/73c3fcc741f0ec104ca850b1fb0df90e7e8d4cde/lectures/micrograd/micrograd_lecture_first_half_roughly.ipynb
# License: MIT (Copyright (c) 2022 Andrej Karpathy)
# Adaptations (nothing else changed):
#  - the notebook's code cells, in order, as one script (markdown cells left out)
#  - the lines `import matplotlib.pyplot as plt` and `%matplotlib inline` removed, and the cells that plot or import graphviz dropped: 4, 9, 13; the draw_dot(...) lines (graphviz drawings) removed from cells 10, 15, 32, 33
#  - a cell's last bare expression, which the notebook displayed, passed to _display (defined at the top), which prints its repr unless it is None, as Jupyter shows it: cells 3, 5, 8, 12, 16, 19, 20, 21, 22, 23, 30, 32, 33; not cell 17's topo list, whose order follows a set's iteration order (object addresses)

def _display(value):  # nnscope corpus: what Jupyter shows for a cell's last bare expression
    if value is not None:
        print(repr(value))

# cell 1
import math
import numpy as np

# cell 2
def f(x):
  return 3*x**2 - 4*x + 5

# cell 3
_display(f(3.0))

# cell 5
h = 0.000001
x = 2/3
_display((f(x + h) - f(x))/h)

# cell 6
# les get more complex
a = 2.0
b = -3.0
c = 10.0
d = a*b + c
print(d)

# cell 7
h = 0.0001

# inputs
a = 2.0
b = -3.0
c = 10.0

d1 = a*b + c
c += h
d2 = a*b + c

print('d1', d1)
print('d2', d2)
print('slope', (d2 - d1)/h)

# cell 8
class Value:
  
  def __init__(self, data, _children=(), _op='', label=''):
    self.data = data
    self.grad = 0.0
    self._backward = lambda: None
    self._prev = set(_children)
    self._op = _op
    self.label = label

  def __repr__(self):
    return f"Value(data={self.data})"
  
  def __add__(self, other):
    out = Value(self.data + other.data, (self, other), '+')
    
    def _backward():
      self.grad += 1.0 * out.grad
      other.grad += 1.0 * out.grad
    out._backward = _backward
    
    return out

  def __mul__(self, other):
    out = Value(self.data * other.data, (self, other), '*')
    
    def _backward():
      self.grad += other.data * out.grad
      other.grad += self.data * out.grad
    out._backward = _backward
      
    return out
  
  def tanh(self):
    x = self.data
    t = (math.exp(2*x) - 1)/(math.exp(2*x) + 1)
    out = Value(t, (self, ), 'tanh')
    
    def _backward():
      self.grad += (1 - t**2) * out.grad
    out._backward = _backward
    
    return out
  
  def backward(self):
    
    topo = []
    visited = set()
    def build_topo(v):
      if v not in visited:
        visited.add(v)
        for child in v._prev:
          build_topo(child)
        topo.append(v)
    build_topo(self)
    
    self.grad = 1.0
    for node in reversed(topo):
      node._backward()


a = Value(2.0, label='a')
b = Value(-3.0, label='b')
c = Value(10.0, label='c')
e = a*b; e.label = 'e'
d = e + c; d.label = 'd'
f = Value(-2.0, label='f')
L = d * f; L.label = 'L'
_display(L)

# cell 11
a.data += 0.01 * a.grad
b.data += 0.01 * b.grad
c.data += 0.01 * c.grad
f.data += 0.01 * f.grad

e = a * b
d = e + c
L = d * f

print(L.data)

# cell 12
def lol():
  
  h = 0.001
  
  a = Value(2.0, label='a')
  b = Value(-3.0, label='b')
  c = Value(10.0, label='c')
  e = a*b; e.label = 'e'
  d = e + c; d.label = 'd'
  f = Value(-2.0, label='f')
  L = d * f; L.label = 'L'
  L1 = L.data
  
  a = Value(2.0, label='a')
  b = Value(-3.0, label='b')
  b.data += h
  c = Value(10.0, label='c')
  e = a*b; e.label = 'e'
  d = e + c; d.label = 'd'
  f = Value(-2.0, label='f')
  L = d * f; L.label = 'L'
  L2 = L.data
  
  print((L2 - L1)/h)
  
_display(lol())

# cell 14
# inputs x1,x2
x1 = Value(2.0, label='x1')
x2 = Value(0.0, label='x2')
# weights w1,w2
w1 = Value(-3.0, label='w1')
w2 = Value(1.0, label='w2')
# bias of the neuron
b = Value(6.8813735870195432, label='b')
# x1*w1 + x2*w2 + b
x1w1 = x1*w1; x1w1.label = 'x1*w1'
x2w2 = x2*w2; x2w2.label = 'x2*w2'
x1w1x2w2 = x1w1 + x2w2; x1w1x2w2.label = 'x1*w1 + x2*w2'
n = x1w1x2w2 + b; n.label = 'n'
o = n.tanh(); o.label = 'o'

# cell 16
_display(o.backward())

# cell 17
topo = []
visited = set()
def build_topo(v):
  if v not in visited:
    visited.add(v)
    for child in v._prev:
      build_topo(child)
    topo.append(v)
build_topo(o)
topo

# cell 18
o.grad = 1.0

# cell 19
_display(o._backward())

# cell 20
_display(n._backward())

# cell 21
_display(b._backward())

# cell 22
_display(x1w1x2w2._backward())

# cell 23
x2w2._backward()
_display(x1w1._backward())

# cell 24
x1.grad = w1.data * x1w1.grad
w1.grad = x1.data * x1w1.grad

# cell 25
x2.grad = w2.data * x2w2.grad
w2.grad = x2.data * x2w2.grad

# cell 26
x1w1.grad = 0.5
x2w2.grad = 0.5

# cell 27
x1w1x2w2.grad = 0.5
b.grad = 0.5

# cell 28
n.grad = 0.5

# cell 29
o.grad = 1.0

# cell 30
_display(1 - o.data**2)

# cell 31
# o = tanh(n)
# do/dn = 1 - o**2

# cell 32
a = Value(3.0, label='a')
b = a + a   ; b.label = 'b'
_display(b.backward())

# cell 33
a = Value(-2.0, label='a')
b = Value(3.0, label='b')
d = a * b    ; d.label = 'd'
e = a + b    ; e.label = 'e'
f = d * e    ; f.label = 'f'

_display(f.backward())
