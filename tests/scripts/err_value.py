for i in range(3):
    print(i)
    if i == 2:
        int("x%d" % i)
