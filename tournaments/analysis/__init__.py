"""``contack analyze``: what a ruleset's rules do to the game, measured on duplicate deals with intervals."""
