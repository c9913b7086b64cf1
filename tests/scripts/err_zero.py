x = 0
print("dividing")
print(10 / x)
