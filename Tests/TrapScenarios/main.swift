print("traps")
