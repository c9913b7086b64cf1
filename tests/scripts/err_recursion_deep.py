# runaway recursion, caught and then uncaught: RecursionError, the interpreter still usable
def down(n):
    return down(n + 1)

try:
    down(0)
except RecursionError as e:
    print("caught", e)
print(sum(range(10)))
down(0)
