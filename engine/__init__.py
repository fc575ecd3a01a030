"""An executable rules engine for casting, activating and resolving, traced to rule text.

Every function that enforces a rule says so with ``@enforces("601.2f")``
(:mod:`engine.registry`); ``kb trace`` and ``kb coverage`` (:mod:`kb.trace`) read that catalogue.
The engine is a library: it never imports ``kb`` or ``ingest``; its commands are ``kb`` commands.

Modules, named after what they enforce:

========================  ===========================================================
``state``                 players, zones, objects; the copyable game state
``cards``                 cards as data (``data/cards/*.toml``), validated on load
``characteristics``       current characteristics — the seam for layers (613)
``costs``, ``filters``    mana costs and pools, other costs; object criteria
``casting``               601: casting a spell, step by step (also 602.2b)
``targets``               601.2c/d choosing targets and division, 608.2b rechecking
``statics``               static abilities casting asks about: cost changes, prohibitions
``activation``            602: activated abilities
``mana``                  605: mana abilities
``procedures``            the steps above in order: casting a spell, activating an ability or a
                          mana ability — the one module where they call each other
``loyalty``               606: loyalty abilities
``resolution``            608: resolving spells and abilities
``effects``               609/610: the one-shot effect vocabulary of card files
``turn``, ``sba``         priority, minimal turn structure, state-based actions
``actions``               illegal actions: back to the exact state before (601.2e, 601.4, 422)
``game``, ``choices``     the facade players act through; what they announce
``registry``              which function enforces which rule; which rules a step applied
``scenario``              scenario files: parse and play them
``bench``                 cast-and-resolve cycles per second (``kb engine-bench``)
``paths``                 the repository root, the card and scenario folders
========================  ===========================================================

Seams for the follow-up issue: triggered abilities hook into the points where
events happen (zone moves in ``state.move``, ``casting.become_cast``,
``resolution.finish_resolution``); continuous effects replace the body of
``characteristics.characteristics``; replacement and prevention effects wrap
``effects.deal_damage`` and ``state.move``.
"""
