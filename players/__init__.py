"""Bots that play contack games; each joins through the entry-point group ``contack.players``."""
