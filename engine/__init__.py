"""An executable rules engine for chapter 6 and the game loop it assumes, traced to rule text.

Every function that enforces a rule says so with ``@enforces("601.2f")``, and says when it applied
it with ``applied("601.2f")`` (:mod:`engine.registry`); ``kb trace`` and ``kb coverage``
(:mod:`kb.trace`) read that catalogue.  Chapter 6 is cited from the German 2024 rules, chapters 1–5
and 7 from the English 2024 rules (``en-2024-11-08/117.3a``).  The engine is a library: it never
imports ``kb`` or ``ingest``; its commands are ``kb`` commands.

Modules, named after what they enforce:

==============================  ===================================================================
``state``, ``events``           players, zones, objects, the copyable game state; what happened
``cards`` (``cardschema``,      cards as data (``data/cards/*.toml``): the schema of card files,
``cardfile``, ``cardread``,     reading them into definitions, file:line errors
``carddefs``)
``printed``, ``characteristics``  what an object is before any effect (printed, alternative, face down,
                                statics on the battlefield); current characteristics (604), through
                                the layers when effects exist
``continuous``, ``layers``,     611: continuous effects (locked or not, durations); 612–613: the
``layerparts``, ``textchange``, layers, one function each, timestamps, dependencies; what one effect's
``copies``                      part changes (layer 3: text, 612); 707: copies
``timestamps``, ``command``,    613.7: transforming, simultaneous timestamps (APNAP); planes, vanguards,
``stickers``, ``equipment``     conspiracies in the command zone; stickers; equip and granted abilities
``playereffects``               613.10: effects on players (a player's hexproof)
``nextspell``, ``splice``       611.2f: effects on the next spell; 612.10: splice
``castpermission``,             611.3d, 609.4: casting from graveyards (a permission that grants an
``flashback``, ``manaspending`` ability; flashback "as though"); 609.4b: mana as though of any colour
``ties``, ``phasing``           609.5: ties as the text says; 610.4, 702.26: phasing out "until"
``replacement``, ``instead``,   614–616: replacement and prevention effects applied to events, one at
``insteadmore``, ``prevention`` a time; "instead", regeneration, shields, protection's prevention
``redirect``,                   614.9: redirecting the next N damage of a chosen source; 106.12b:
``manaproduction``              replacing the mana a permanent tapped for mana produces
``until``                       610.3: exiled until the source leaves the battlefield
``facedown``, ``morph``         face-down objects: casting face down, who sees what, revealed on
                                leaving (708); turning face up (702.34 of the Morph page)
``costs``, ``filters``,         mana costs and pools, other costs; object criteria; the conditions
``conditions``                  of intervening "if" clauses, state triggers and statics
``permissions``                 601.3: may a player begin to cast it (from where, when)
``casting``                     601.2: casting a spell, step by step (also 602.2b)
``targets``                     601.2c/d choosing targets and division, 608.2b rechecking
``statics``                     static abilities casting asks about: cost changes, prohibitions
``activation``, ``mana``,       602, 605, 606: activated, mana and loyalty abilities
``loyalty``
``procedures``                  the steps above in order — the one module where they call each other
``triggers``                    603.2–603.10: trigger events matched, abilities trigger
``stacking``                    603.3: triggered abilities put on the stack, APNAP, their choices
``delayed``                     603.7: delayed triggered abilities
``resolution``                  608: resolving spells and abilities
``effects``, ``oneshot``,       609/610: the effect vocabulary of card files; what an effect sees;
``instructions``, ``drawing``,  one-shot effects; for each / unless pays (608.2f/g); drawing (121);
``damage``, ``zones``           damage (120); moving objects and reporting the event
``timing``, ``priority``,       117: priority and timing; receiving priority (SBA, triggers);
``turn``, ``lands``,            500–514: the turn and its steps; 305: playing lands;
``combat``, ``sba``,            506–511: combat; 704: state-based actions;
``players``                     104, 800.4: winning, losing and leaving the game
``actions``                     illegal actions (and any failure): back to the exact state before
``rulesets``, ``variants``      rule sets (data/rulesets.toml) and, where they differ, the function
                                of each version, chosen once per game
``manaburn``, ``damagestack``,  the 1999 versions: mana burn (300.4), combat damage on the stack
``drawtrigger``,                (310.2–310.4), the draw step's draw as a triggered ability (304.1);
``ruleobjects``                 objects a rule puts on the stack
``game``, ``choices``           the facade players act through; what they announce and decide
``registry``                    which function enforces which rule; which rules a step applied
``scenario``                    scenario files: parse and play them
``bench``                       cast-and-resolve cycles per second (``kb engine-bench``)
``paths``                       the repository root, the card and scenario folders
==============================  ===================================================================

Continuous effects are applied when characteristics are read (``characteristics`` calls
``layers.compute``); replacement and prevention effects are asked by ``damage.damage_event``,
``zones.move_all`` (graveyard, entering), ``instead.destruction``, ``drawing.draw_card`` and
``oneshot.gain_life`` before the event happens.
"""
