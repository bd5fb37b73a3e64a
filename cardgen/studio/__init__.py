"""cardgen studio: a local web page that shows the card while its files are edited, and
lets the Connector and Rotator be tried in a browser.

A small HTTP server from the standard library (:mod:`cardgen.studio.server`) binds to
loopback, puts every URL under a random token, serves the package's own static files
and the pages' JSON APIs, and pushes "the card changed" to the page as server-sent
events when a watched file is saved. Each page is a module with its routes
(:mod:`cardgen.studio.card`, :mod:`cardgen.studio.connector`,
:mod:`cardgen.studio.rotator`); every picture, verdict and move comes from
:mod:`cardgen.api`, the same functions as the command line's, so the browser holds no
second implementation of any rule.

May import: ``cardgen.api``, ``cardgen.errors``.
"""
