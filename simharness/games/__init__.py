"""One package per game, mirroring ``engine/src/games/<game>/`` (the contract: ``simharness.games.registry``).

Each ``simharness.games.<game>`` package has, where the concern exists, the same modules:
``__init__`` (the public API, re-exported), ``cli`` (``register(app, score_app)`` adds the game's
commands), ``python`` (its Python-strategy protocol and an example class), ``metrics``
(``summary_metrics(run)``, re-exported) and game-specific extras beside them (Riichi: ``replay``,
``mjlog``). The harness finds them by iterating the engine's game registry, so adding a game
touches no harness module.
"""
