"""What the studio and the companion share as web servers: one request guard (who is asking), one push
mechanism (server-sent events that say "changed, now at version N") and one reader of JSON bodies.

Both halves of the product are Flask apps on waitress; neither knows the other's pages, so what they share
lives here, below both."""
