# a syntax error: nothing runs, the error names the line (and, in the traceback, the caret)
print("never printed")
x = (1,
     2))
