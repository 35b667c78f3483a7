"""Wire shapes per protocol (msgspec structs, battlebot JSON): pure data, shared by the server-side adapters,
the player adapters and the SDK; below ``players`` so that a player never imports the server."""
