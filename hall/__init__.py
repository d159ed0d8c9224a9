"""The tournament hall: boards publish their games to an MQTT broker, `damka hall` collects them (docs/hall.md)."""
