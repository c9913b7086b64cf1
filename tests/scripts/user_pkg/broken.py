x = 1
raise ValueError("boom in broken")
