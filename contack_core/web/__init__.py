"""The web table: ``contack keep ... --web``, the score keeper served to the phones round a real table.

An application above the replay layer: it keeps the game through the terminal keeper's own
:class:`~contack_core.records.table.Table` (every entry read, checked, written and synced by
it, refused with its words) and draws the board as the replay draws it. Starlette and uvicorn
come with the ``web`` extra, imported only by :mod:`contack_core.web.app`.
"""
