"""Cards, shoe, dice, wheel and the chance sources every game draws from."""
