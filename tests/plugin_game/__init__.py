"""A game that lives outside ``tabletop_lab/games/``: the worked example of a game from another
distribution. It registers only through the entry-point group ``tabletop_lab.games`` (see
``tests/test_entry_point_game.py``) and brings, beside ``rules.py``, its renderer (``render.py``),
board adapter (``board.py``) and agent (``agents.py``), all found by ``Game.part``."""
