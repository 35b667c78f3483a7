"""The turn-token HTTP protocol of hexagon dots (docs/protocols/hexdots.md): ``tables`` and ``routes`` (``install``, ``dots_app``, ``dots_servers``, ``run_servers``)."""
