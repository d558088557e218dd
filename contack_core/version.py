"""The version of contack, alone in a module that imports nothing: ``contack --version`` (and
``--help``) read it without loading the engine. Record headers and the bot protocol's greeting
name it; ``contack_core.engine.__version__`` is the same value."""

__version__ = "0.1.0"
