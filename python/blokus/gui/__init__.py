"""``blokus gui``: play, watch and replay games in the browser, every variant, Blokus 3D too.

A local web server (:mod:`blokus.gui.server`, Starlette and uvicorn, ``pip install
'blokus[gui]'``) owns the board and the engines and holds the rules by calling the library; the
page (plain ES modules and SVG shipped in ``static/``) draws what the server sends and sends
back intents, the messages of :mod:`blokus.gui.protocol`. The guide's page ``gui.md`` tells how
to use it, the messages and the security model.

>>> from blokus.gui import protocol
>>> protocol.parse('{"type": "undo"}')
Undo()
"""
