"""An example third-party contack bot (see bot.py)."""
