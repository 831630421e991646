"""The serial link to the host: printable frames (frame), record batches (codec), the hub's
request server (server) and its stdin/stdout loop (stdio). docs/protocol.md."""
