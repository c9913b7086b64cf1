class MyErr(ValueError):
    pass
def go():
    raise MyErr("custom message")
try:
    go()
except KeyError:
    pass
