"""The terminal UI: an App (themes, keys, workers, screens) around one `MainScreen` that shows a `View`.

Layers run one way: the engine knows nothing of the session, the session
nothing of the UI. Widgets show what a `View` holds and send intents back; they
never compute a packet.
"""
