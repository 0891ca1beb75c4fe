"""One subpackage per game, found by ``tabletop_lab.registry``: a new folder is a new game."""
