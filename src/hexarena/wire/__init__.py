"""Typed wire messages per protocol (msgspec structs): pure data, shared by the server-side adapters and the SDK."""
