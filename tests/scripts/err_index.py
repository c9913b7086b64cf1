items = [1]
print(items[3])
