d = {"a": 1}
print(d["k"])
