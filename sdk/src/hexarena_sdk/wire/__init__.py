"""Wire shapes and helpers of the bot protocols (msgspec structs, WebSocket frames, bounded bodies): pure data,
shared by the bot server here and the arena server's player adapters."""
