"""The turn-token HTTP protocol of hexagon dots (PROTOCOLS.md 2.2): ``tables`` and ``routes`` (``install``, ``dots_app``, ``serve_with_dots``)."""
