"""Bots: the shared ``EngineBot`` interface, the HTTTX bot SDK (``hexarena.bots.sdk``) and reference bots."""

from hexarena.bots.base import EngineBot

__all__ = ["EngineBot"]
