"""Adapters to other frameworks: every game as an OpenSpiel game and as a PettingZoo environment.

``tabletop_lab.interop.openspiel.load_game(name, **options)`` gives a ``pyspiel.Game``;
``tabletop_lab.interop.pettingzoo.env(name, **options)`` an AEC environment with action masks.
Both read the tensors the games declare (``Game.num_distinct_actions``,
``Game.observation_tensor_shape``, ``State.legal_actions_mask``, ``State.observation_tensor``).
They need the ``interop`` extra (``pip install -e ".[interop]"``: open_spiel, pettingzoo,
gymnasium); the rest of tabletop_lab never imports them.

How the games map (the same for both frameworks):

* **Actions** are the engine's atomic actions. A move of several actions (a Sygo growth turn,
  a Capitals jump chain) is several steps by the same player: the framework sees that player
  act again until the move is complete, as OpenSpiel allows any player order.
* **Teams** (Capitals, Sinoda's ``teams`` option) are not a framework concept: every seat is
  its own player and teammates receive the same return, +1 for each winner and -1 for the
  others (``State.returns``).
* **The action cap**: a game still running after ``GameInfo.max_actions`` actions is cut, as the
  simulation runner cuts it: PettingZoo truncates it, OpenSpiel ends it with returns of 0.
* **Chance**: none of the five games has chance events; hidden information (Sinomilia) comes
  from the players' own choices, and each seat observes only ``observation(player)``.
"""
