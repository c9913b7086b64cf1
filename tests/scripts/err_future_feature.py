# an unknown feature of __future__ is a SyntaxError before anything runs
from __future__ import annotations, braces
print("never printed")
