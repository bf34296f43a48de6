"""Train anywhere (issue 37): any rule document as a PettingZoo environment
(``pettingzoo_env.env``, ``pettingzoo_parallel.parallel_env``) and as an OpenSpiel game
(``openspiel_game.load_variant``), over the same engine the site runs. The adapters need
the optional extras ``pettingzoo`` / ``openspiel``; importing this package needs neither.
See README.md."""
