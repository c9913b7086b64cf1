# a list of 10**12 items: MemoryError, raised before anything is allocated; the program goes on;
# then an uncaught one (a 10 TB string)
print("before")
try:
    big = [0] * 10**12
except MemoryError:
    print("caught MemoryError")
print("after")
huge = "x" * 10**13
