"""The KB's web site, served by Datasette (see :mod:`kb.datasette_plugin`).

* :mod:`.read`      read-side SQL of the pages: editions, contents, a rule with everything attached to it
* :mod:`.richtext`  rule text as HTML: references and glossary terms as links
* :mod:`.glossary`  which words link to which glossary entry (lemmas, word class, quotations; learnt translations)
* :mod:`.search`    lemmatised, terminology-widened search, glossary and keyword lookup (pages and CLI)
* :mod:`.pages`     the routes: home, contents, rule (HTML and JSON), search, glossary, diff, code, scenario
* :mod:`.guard`     hardening: read-only methods, no debug pages unless asked, bounded SQL functions,
                    one-line error log
* :mod:`.bench`     the load benchmark (``python -m kb.site.bench``)
"""
